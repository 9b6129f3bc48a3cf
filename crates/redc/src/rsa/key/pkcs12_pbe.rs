//! PKCS#12's password-based encryption of a PKCS#8 EncryptedPrivateKeyInfo, read only:
//! `pbeWithSHAAnd3-KeyTripleDES-CBC` and `pbeWithSHAAnd2-KeyTripleDES-CBC` (RFC 7292
//! Appendix C), as `openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES` writes it (OpenSSL 1.0's default
//! for `openssl pkcs8 -topk8`, and what Java's key tools export). The parameters are a salt
//! and an iteration count; the 3DES key and the IV come from RFC 7292 Appendix B's key
//! derivation with SHA-1 over the password as a BMPString (UTF-16BE with a terminating NUL),
//! and the body is CBC-encrypted with PKCS#7 padding.
//!
//! The password's bytes are converted as OpenSSL 1.1 and later convert them: valid UTF-8 to
//! its UTF-16 code units, anything else one character per byte. (OpenSSL 1.0 took every
//! byte as one character, so a key it wrote with a non-ASCII password decrypts only with
//! that password's Latin-1 bytes.)
//!
//! The derivation is written here from the RFC: the one RustCrypto crate that has it
//! (`pkcs12`) brings the CMS and X.509 crates with it. Like `md-5` in the traditional PEM
//! reader, the `sha1` crate does not zeroize its state on drop; the password's copies and
//! the derived key and IV are zeroized.

use alloc::vec::Vec;

use der::asn1::{ObjectIdentifier, OctetStringRef};
use der::{Decode, Encode, Reader};
use sha1::{Digest, Sha1};
use zeroize::Zeroizing;

use super::legacy_pem::cbc_decrypt;
use super::MAX_PBKDF2_ITERATIONS;
use crate::rsa::{EncodingFault, Error};

/// `pbeWithSHAAnd3-KeyTripleDES-CBC` (RFC 7292 Appendix C).
const PBE_SHA1_3DES: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1.3");
/// `pbeWithSHAAnd2-KeyTripleDES-CBC` (RFC 7292 Appendix C).
const PBE_SHA1_2DES: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1.4");

/// SHA-1's output and block lengths in bytes (RFC 7292's `u` and `v`).
const U: usize = 20;
const V: usize = 64;

/// The diversifiers of RFC 7292 Appendix B.3: key material and IV.
const ID_KEY: u8 = 1;
const ID_IV: u8 = 2;

/// The PKCS#8 `PrivateKeyInfo` DER encrypted as `body` of an EncryptedPrivateKeyInfo under
/// `algorithm`, if that is one of this module's schemes: `None` for any other (the caller's
/// reader says what is wrong with those). Errors: [`EncodingFault::EncryptedDer`] for
/// malformed parameters, [`EncodingFault::KdfCost`] for more than
/// [`MAX_PBKDF2_ITERATIONS`] iterations, [`EncodingFault::Decryption`] when the padding does
/// not check (a wrong password).
pub(super) fn decrypt(
    algorithm: spki::AlgorithmIdentifierRef<'_>,
    body: &[u8],
    password: &[u8],
) -> Option<Result<Zeroizing<Vec<u8>>, Error>> {
    let key_len = match algorithm.oid {
        PBE_SHA1_3DES => 24,
        PBE_SHA1_2DES => 16,
        _ => return None,
    };
    Some(decrypt_body(algorithm, body, key_len, password))
}

/// The scheme's parameters read, the key and IV derived, and `body` decrypted.
fn decrypt_body(
    algorithm: spki::AlgorithmIdentifierRef<'_>,
    body: &[u8],
    key_len: usize,
    password: &[u8],
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let bad = |e: der::Error| Error::Encoding(EncodingFault::EncryptedDer(e));
    // pkcs-12PbeParams ::= SEQUENCE { salt OCTET STRING, iterations INTEGER }
    let params = algorithm
        .parameters
        .ok_or_else(|| bad(der::Tag::Sequence.value_error()))?
        .to_der()
        .map_err(bad)?;
    let (salt, iterations) = Decode::from_der(&params)
        .map(|p: Pkcs12PbeParams<'_>| (p.salt, p.iterations))
        .map_err(bad)?;
    if iterations > MAX_PBKDF2_ITERATIONS {
        return Err(Error::Encoding(EncodingFault::KdfCost));
    }
    // OpenSSL takes a count of 0 as 1.
    let rounds = iterations.max(1);
    let bmp = bmp_password(password);
    let key = derive(&bmp, salt.as_bytes(), ID_KEY, rounds, key_len);
    let iv = derive(&bmp, salt.as_bytes(), ID_IV, rounds, 8);
    let cbc = if key_len == 24 {
        cbc_decrypt::<des::TdesEde3>
    } else {
        cbc_decrypt::<des::TdesEde2>
    };
    // The key and IV lengths are the ciphers' own, so the only failure is the padding's.
    cbc(&key, &iv, body)
        .map(Zeroizing::new)
        .map_err(|_| Error::Encoding(EncodingFault::Decryption))
}

/// `pkcs-12PbeParams` (RFC 7292 Appendix C).
struct Pkcs12PbeParams<'a> {
    salt: OctetStringRef<'a>,
    iterations: u32,
}

impl<'a> der::DecodeValue<'a> for Pkcs12PbeParams<'a> {
    fn decode_value<R: Reader<'a>>(reader: &mut R, header: der::Header) -> der::Result<Self> {
        reader.read_nested(header.length, |r| {
            Ok(Self {
                salt: r.decode()?,
                iterations: r.decode()?,
            })
        })
    }
}

impl der::FixedTag for Pkcs12PbeParams<'_> {
    const TAG: der::Tag = der::Tag::Sequence;
}

/// The password as RFC 7292's BMPString with its terminating NUL: UTF-8 as UTF-16BE code
/// units, other bytes one character each (see the module documentation).
fn bmp_password(password: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(2 * password.len() + 2));
    match core::str::from_utf8(password) {
        Ok(text) => {
            for unit in text.encode_utf16() {
                out.extend_from_slice(&unit.to_be_bytes());
            }
        }
        Err(_) => {
            for &b in password {
                out.extend_from_slice(&[0, b]);
            }
        }
    }
    out.extend_from_slice(&[0, 0]);
    out
}

/// RFC 7292 Appendix B.2 with SHA-1: `len` bytes of material of kind `id` from the BMP
/// password `bmp` (never empty: it ends in its NUL), `salt` and `rounds ≥ 1` iterations.
fn derive(bmp: &[u8], salt: &[u8], id: u8, rounds: u32, len: usize) -> Zeroizing<Vec<u8>> {
    let d = [id; V];
    // I = S ‖ P: the salt and the password each repeated to a whole number of blocks.
    let fill = |src: &[u8]| -> Zeroizing<Vec<u8>> {
        let n = V * src.len().div_ceil(V);
        Zeroizing::new(src.iter().copied().cycle().take(n).collect())
    };
    let mut i = fill(salt);
    i.extend_from_slice(&fill(bmp));
    let mut out = Zeroizing::new(Vec::with_capacity(len + U));
    loop {
        // A = H^rounds(D ‖ I).
        let mut a = Zeroizing::new([0u8; U]);
        let mut h = Sha1::new();
        h.update(d);
        h.update(&*i);
        a.copy_from_slice(&h.finalize());
        for _ in 1..rounds {
            let next = Sha1::digest(a.as_slice());
            a.copy_from_slice(&next);
        }
        out.extend_from_slice(&*a);
        if out.len() >= len {
            out.truncate(len);
            return out;
        }
        // Each block of I becomes (I_j + B + 1) mod 2^(8V), with B = A repeated to V bytes.
        let b: Zeroizing<Vec<u8>> = Zeroizing::new(a.iter().copied().cycle().take(V).collect());
        for block in i.chunks_exact_mut(V) {
            let mut carry = 1u16;
            for (x, &y) in block.iter_mut().zip(b.iter()).rev() {
                let sum = u16::from(*x) + u16::from(y) + carry;
                *x = sum as u8;
                carry = sum >> 8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_become_nul_terminated_utf16be() {
        assert_eq!(&*bmp_password(b""), &[0, 0]);
        assert_eq!(&*bmp_password(b"ab"), &[0, b'a', 0, b'b', 0, 0]);
        // U+00E9 in UTF-8, and U+1F600 as a surrogate pair.
        assert_eq!(&*bmp_password("é".as_bytes()), &[0, 0xe9, 0, 0]);
        assert_eq!(
            &*bmp_password("😀".as_bytes()),
            &[0xd8, 0x3d, 0xde, 0x00, 0, 0]
        );
        // Not UTF-8: one character per byte.
        assert_eq!(&*bmp_password(&[0xe9, b'x']), &[0, 0xe9, 0, b'x', 0, 0]);
    }

    fn hex(s: &str) -> Vec<u8> {
        s.split(':')
            .map(|b| u8::from_str_radix(b, 16).expect("hex"))
            .collect()
    }

    /// Known answers from OpenSSL's own implementation: `openssl kdf -keylen N -kdfopt
    /// digest:SHA1 -kdfopt pass:P -kdfopt hexsalt:S -kdfopt iter:R -kdfopt id:I PKCS12KDF`
    /// (OpenSSL 3.0.19), whose `pass` is the password's bytes as they are (no BMP conversion).
    #[test]
    fn derivation_matches_openssl() {
        let salt = hex("01:02:03:04:05:06:07:08");
        assert_eq!(
            &*derive(b"123456", &salt, ID_KEY, 2048, 24),
            &hex("74:39:34:5E:7B:07:6F:2F:60:C2:86:6C:5D:AC:6D:15:28:9F:48:EA:6A:A9:EB:B1")[..]
        );
        assert_eq!(
            &*derive(b"123456", &salt, ID_IV, 2048, 8),
            &hex("36:11:75:62:FB:DD:50:DF")[..]
        );
        // Four blocks of output, so the update of I between them is exercised.
        assert_eq!(
            &*derive("é".as_bytes(), &[0], ID_KEY, 1, 70),
            &hex(
                "F1:55:EF:24:C2:8B:FA:2F:28:4A:A7:55:7C:A3:C4:CC:F9:A0:03:A2:81:5E:E4:41:CB:C9:\
                 4E:55:D4:F6:90:1D:C9:55:1C:9D:3B:7C:59:36:96:30:9C:B1:A5:F6:76:87:AD:5C:C3:8D:\
                 7A:6B:99:12:B1:F9:59:B8:BE:5C:00:27:86:B7:25:1E:2B:98"
            )[..]
        );
    }
}

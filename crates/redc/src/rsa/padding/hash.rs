//! Hash functions for the RSA paddings, chosen at run time ([`HashAlg`]) or at compile time
//! (any [`Digest`] type).
//!
//! The paddings only ever need three things from a hash: its output length `hLen`, a way to
//! hash a message given in pieces (MGF1 hashes `seed ‖ counter`, PSS hashes
//! `0x00⁸ ‖ mHash ‖ salt`), and, for PKCS#1 v1.5 signatures, the DER `DigestInfo` prefix that
//! names it (RFC 8017 §9.2, note 1). [`HashAlg`] provides all three for SHA-1 and the SHA-2
//! family; [`digest_info_prefix`] builds the prefix for any hash with an object identifier.
//! Nothing here is secret-dependent: the hash inputs are public (signatures) or, for OAEP and
//! MGF1 during decryption, processed by hash code that does not branch on the data.

use alloc::vec::Vec;
use core::fmt;

use digest::const_oid::{AssociatedOid, ObjectIdentifier};
use digest::Digest;

/// A hash function of the SHA-1 / SHA-2 family chosen at run time.
///
/// SHA-1 is offered for verifying old signatures and for OAEP/MGF1 interoperability; it is not
/// collision resistant and should not be used for new signatures.
///
/// ```
/// use redc::rsa::{HashAlg, OsRng, Pkcs1v15Sign, Pss, RsaPrivateKey};
///
/// let hash: HashAlg = "sha384".parse()?;
/// assert_eq!((hash.output_size(), hash.name()), (48, "sha384"));
/// assert_eq!(HashAlg::of::<redc::rsa::sha2::Sha384>(), Some(hash));
///
/// // Paddings for a hash chosen at run time (a command-line flag, a protocol field).
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let digest = hash.digest(b"message");
/// let sig = key.sign(Pkcs1v15Sign::from_hash(hash), &digest)?;
/// key.public_key().verify(Pkcs1v15Sign::from_hash(hash), &digest, &sig)?;
/// let sig = key.sign_with_rng(&mut OsRng, Pss::from_hash(hash), &digest)?;
/// key.public_key().verify(Pss::from_hash(hash), &digest, &sig)?;
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HashAlg {
    /// SHA-1 (FIPS 180-4), 20-byte output.
    Sha1,
    /// SHA-224, 28-byte output.
    Sha224,
    /// SHA-256, 32-byte output.
    Sha256,
    /// SHA-384, 48-byte output.
    Sha384,
    /// SHA-512, 64-byte output.
    Sha512,
    /// SHA-512/224 (SHA-512 with its own IV, truncated), 28-byte output.
    Sha512_224,
    /// SHA-512/256, 32-byte output.
    Sha512_256,
}

impl HashAlg {
    /// Every supported hash, weakest first.
    pub const ALL: [HashAlg; 7] = [
        HashAlg::Sha1,
        HashAlg::Sha224,
        HashAlg::Sha256,
        HashAlg::Sha384,
        HashAlg::Sha512,
        HashAlg::Sha512_224,
        HashAlg::Sha512_256,
    ];

    /// The canonical lower-case name: `sha1`, `sha224`, `sha256`, `sha384`, `sha512`,
    /// `sha512-224`, `sha512-256`.
    pub fn name(self) -> &'static str {
        match self {
            HashAlg::Sha1 => "sha1",
            HashAlg::Sha224 => "sha224",
            HashAlg::Sha256 => "sha256",
            HashAlg::Sha384 => "sha384",
            HashAlg::Sha512 => "sha512",
            HashAlg::Sha512_224 => "sha512-224",
            HashAlg::Sha512_256 => "sha512-256",
        }
    }

    /// Parses a name, case-insensitively, ignoring `-`, `_` and `/` (so `sha256`, `SHA-256`,
    /// `sha512/256` and `SHA512_256` are all accepted). `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<HashAlg> {
        let mut buf = [0u8; 16];
        let mut len = 0;
        for b in name.bytes() {
            if matches!(b, b'-' | b'_' | b'/') {
                continue;
            }
            if len == buf.len() {
                return None;
            }
            buf[len] = b.to_ascii_lowercase();
            len += 1;
        }
        match &buf[..len] {
            b"sha1" => Some(HashAlg::Sha1),
            b"sha224" => Some(HashAlg::Sha224),
            b"sha256" => Some(HashAlg::Sha256),
            b"sha384" => Some(HashAlg::Sha384),
            b"sha512" => Some(HashAlg::Sha512),
            b"sha512224" => Some(HashAlg::Sha512_224),
            b"sha512256" => Some(HashAlg::Sha512_256),
            _ => None,
        }
    }

    /// The output length in bytes (`hLen` in RFC 8017).
    pub fn output_size(self) -> usize {
        match self {
            HashAlg::Sha1 => 20,
            HashAlg::Sha224 | HashAlg::Sha512_224 => 28,
            HashAlg::Sha256 | HashAlg::Sha512_256 => 32,
            HashAlg::Sha384 => 48,
            HashAlg::Sha512 => 64,
        }
    }

    /// The object identifier of the hash (the `AlgorithmIdentifier` of a `DigestInfo`).
    pub fn oid(self) -> ObjectIdentifier {
        match self {
            HashAlg::Sha1 => sha1::Sha1::OID,
            HashAlg::Sha224 => sha2::Sha224::OID,
            HashAlg::Sha256 => sha2::Sha256::OID,
            HashAlg::Sha384 => sha2::Sha384::OID,
            HashAlg::Sha512 => sha2::Sha512::OID,
            HashAlg::Sha512_224 => sha2::Sha512_224::OID,
            HashAlg::Sha512_256 => sha2::Sha512_256::OID,
        }
    }

    /// The hash whose object identifier is `oid`, if supported.
    pub fn from_oid(oid: &ObjectIdentifier) -> Option<HashAlg> {
        HashAlg::ALL.into_iter().find(|h| h.oid() == *oid)
    }

    /// The [`HashAlg`] of a `digest` type, e.g. `HashAlg::of::<sha2::Sha256>()`, matched by
    /// object identifier; `None` when the type is not one of the supported hashes.
    pub fn of<D: Digest + AssociatedOid>() -> Option<HashAlg> {
        HashAlg::from_oid(&D::OID)
    }

    /// `Hash(msg)`.
    pub fn digest(self, msg: &[u8]) -> Vec<u8> {
        let mut out = alloc::vec![0u8; self.output_size()];
        self.digest_parts(&[msg], &mut out);
        out
    }

    /// `Hash(parts[0] ‖ parts[1] ‖ …)` written to `out`, which MUST be `output_size()` bytes.
    pub fn digest_parts(self, parts: &[&[u8]], out: &mut [u8]) {
        self.hash_fn().digest_parts(parts, out)
    }

    /// The DER prefix of a PKCS#1 v1.5 `DigestInfo` for this hash (RFC 8017 §9.2, note 1):
    /// `SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING (hLen bytes) }` without the hash value,
    /// with the explicit NULL parameter the RFC lists.
    pub fn digest_info_prefix(self) -> &'static [u8] {
        // RFC 8017 §9.2 note 1 (and RFC 4055 for SHA-224), byte for byte.
        match self {
            HashAlg::Sha1 => &[
                0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04,
                0x14,
            ],
            HashAlg::Sha224 => &[
                0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                0x04, 0x05, 0x00, 0x04, 0x1c,
            ],
            HashAlg::Sha256 => &[
                0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                0x01, 0x05, 0x00, 0x04, 0x20,
            ],
            HashAlg::Sha384 => &[
                0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                0x02, 0x05, 0x00, 0x04, 0x30,
            ],
            HashAlg::Sha512 => &[
                0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                0x03, 0x05, 0x00, 0x04, 0x40,
            ],
            HashAlg::Sha512_224 => &[
                0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                0x05, 0x05, 0x00, 0x04, 0x1c,
            ],
            HashAlg::Sha512_256 => &[
                0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                0x06, 0x05, 0x00, 0x04, 0x20,
            ],
        }
    }

    /// The hash as a plain function value the paddings carry around.
    pub(crate) fn hash_fn(self) -> HashFn {
        match self {
            HashAlg::Sha1 => HashFn::of::<sha1::Sha1>(),
            HashAlg::Sha224 => HashFn::of::<sha2::Sha224>(),
            HashAlg::Sha256 => HashFn::of::<sha2::Sha256>(),
            HashAlg::Sha384 => HashFn::of::<sha2::Sha384>(),
            HashAlg::Sha512 => HashFn::of::<sha2::Sha512>(),
            HashAlg::Sha512_224 => HashFn::of::<sha2::Sha512_224>(),
            HashAlg::Sha512_256 => HashFn::of::<sha2::Sha512_256>(),
        }
    }
}

impl fmt::Display for HashAlg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for HashAlg {
    type Err = crate::rsa::Error;

    /// [`HashAlg::from_name`], with [`ParameterFault::UnknownHash`](crate::rsa::ParameterFault)
    /// for an unknown name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HashAlg::from_name(s).ok_or(crate::rsa::Error::UnsupportedParameter(
            crate::rsa::ParameterFault::UnknownHash,
        ))
    }
}

/// The DER `DigestInfo` prefix (RFC 8017 §9.2 step 2 and note 1) for a hash with object
/// identifier `oid` and output length `hash_len`: `30 L 30 L' 06 L'' <oid> 05 00 04 hLen`.
/// For the hashes of [`HashAlg`] it equals [`HashAlg::digest_info_prefix`].
pub fn digest_info_prefix(oid: &ObjectIdentifier, hash_len: usize) -> Vec<u8> {
    let oid = oid.as_bytes();
    // AlgorithmIdentifier ::= SEQUENCE { OID, NULL }
    let mut alg = Vec::with_capacity(oid.len() + 8);
    alg.push(0x06);
    der_len(&mut alg, oid.len());
    alg.extend_from_slice(oid);
    alg.extend_from_slice(&[0x05, 0x00]);
    // The OCTET STRING header (its content, the hash, follows the prefix).
    let mut octet_header = Vec::with_capacity(6);
    octet_header.push(0x04);
    der_len(&mut octet_header, hash_len);

    let mut alg_seq = Vec::with_capacity(alg.len() + 6);
    alg_seq.push(0x30);
    der_len(&mut alg_seq, alg.len());
    alg_seq.extend_from_slice(&alg);

    let mut out = Vec::with_capacity(alg_seq.len() + octet_header.len() + 6);
    out.push(0x30);
    der_len(&mut out, alg_seq.len() + octet_header.len() + hash_len);
    out.extend_from_slice(&alg_seq);
    out.extend_from_slice(&octet_header);
    out
}

/// Appends a DER definite length (short form below 128, long form otherwise).
fn der_len(out: &mut Vec<u8>, len: usize) {
    if len < 0x80 {
        out.push(len as u8);
        return;
    }
    let bytes = len.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count();
    out.push(0x80 | (bytes.len() - skip) as u8);
    out.extend_from_slice(&bytes[skip..]);
}

/// A hash function as a value: its output length and a function hashing the concatenation
/// of some pieces. Built from any [`Digest`] type, so the paddings also work with hashes
/// outside [`HashAlg`] (SHA-3, ...) when the caller names the type.
#[derive(Clone, Copy)]
pub(crate) struct HashFn {
    size: usize,
    parts: fn(&[&[u8]], &mut [u8]),
    name: &'static str,
}

impl HashFn {
    /// The hash of type `D`.
    pub(crate) fn of<D: Digest>() -> HashFn {
        HashFn {
            size: <D as Digest>::output_size(),
            parts: digest_parts_with::<D>,
            name: core::any::type_name::<D>(),
        }
    }

    /// `hLen`.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// `Hash(parts[0] ‖ parts[1] ‖ …)` into `out` (`size()` bytes).
    pub(crate) fn digest_parts(&self, parts: &[&[u8]], out: &mut [u8]) {
        (self.parts)(parts, out)
    }
}

impl fmt::Debug for HashFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for HashFn {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.name == other.name
    }
}

fn digest_parts_with<D: Digest>(parts: &[&[u8]], out: &mut [u8]) {
    let mut h = D::new();
    for p in parts {
        h.update(p);
    }
    out.copy_from_slice(&h.finalize());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for h in HashAlg::ALL {
            assert_eq!(HashAlg::from_name(h.name()), Some(h));
            assert_eq!(h.digest(b"abc").len(), h.output_size());
        }
        assert_eq!(HashAlg::from_name("SHA-256"), Some(HashAlg::Sha256));
        assert_eq!(HashAlg::from_name("sha512/256"), Some(HashAlg::Sha512_256));
        assert_eq!(HashAlg::from_name("md5"), None);
        assert_eq!(HashAlg::from_name("sha256sha256sha256"), None);
    }

    #[test]
    fn generic_prefix_matches_rfc_table() {
        for h in HashAlg::ALL {
            assert_eq!(
                digest_info_prefix(&h.oid(), h.output_size()),
                h.digest_info_prefix(),
                "{h}"
            );
        }
    }

    #[test]
    fn type_mapping() {
        assert_eq!(HashAlg::of::<sha2::Sha384>(), Some(HashAlg::Sha384));
        assert_eq!(HashAlg::of::<sha1::Sha1>(), Some(HashAlg::Sha1));
        assert_eq!(HashAlg::of::<sha2::Sha512_224>(), Some(HashAlg::Sha512_224));
    }
}

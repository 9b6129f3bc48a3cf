//! PKCS#1 v1.5: signatures (RSASSA-PKCS1-v1_5, RFC 8017 §8.2 with EMSA-PKCS1-v1_5 §9.2) and
//! encryption (RSAES-PKCS1-v1_5, §7.2), plus typed signing and verifying keys for the
//! `signature` crate.
//!
//! Verification is strict: it rebuilds the one valid encoding `0x00 0x01 FF…FF 0x00 T`
//! (with `T` the DER `DigestInfo` carrying the explicit NULL parameter) and compares the whole
//! encoded message. It never parses the `DigestInfo`, which is what keeps the parser-confusion
//! forgeries (Bleichenbacher 2006, BERserk, garbage after the hash, …) out. A `DigestInfo`
//! without the NULL is rejected: RFC 8017 §9.2 note 1 lists the NULL form, the encoding
//! operation only produces it, and accepting a second encoding would make signatures
//! malleable and reintroduce a parse; only old non-conforming signers ever omitted it.
//!
//! Each type has an example: signatures with [`SigningKey`] / [`VerifyingKey`] (typed, the
//! message hashed inside) or [`Pkcs1v15Sign`] (on digests, or a hash chosen at run time);
//! encryption with [`EncryptingKey`] / [`DecryptingKey`] or [`Pkcs1v15Encrypt`].

mod encrypt;
mod encrypt_keys;
mod keys;

pub use encrypt::Pkcs1v15Encrypt;
pub use encrypt_keys::{DecryptingKey, EncryptingKey};
pub use keys::{SigningKey, VerifyingKey};

use alloc::boxed::Box;
use alloc::vec::Vec;
use digest::const_oid::AssociatedOid;
use digest::Digest;
use rand_core::CryptoRngCore;

use super::hash::{digest_info_prefix, HashAlg};
use super::sigbytes::define_signature;
use super::traits::SignatureScheme;
use crate::rsa::{Error, InputFault, Result, RsaPrivateKey, RsaPublicKey};

define_signature!("PKCS#1 v1.5", pkcs1v15);

/// The PKCS#1 v1.5 signature padding (EMSA-PKCS1-v1_5) for one hash: the `DigestInfo`
/// prefix and the hash length. The key methods take the digest, hashed by the caller; the
/// typed [`SigningKey`] and [`VerifyingKey`] hash the message themselves.
///
/// ```
/// use redc::rsa::sha2::{Digest, Sha256};
/// use redc::rsa::{OsRng, Pkcs1v15Sign, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let digest = Sha256::digest(b"hello");
/// // Deterministic; `sign_with_rng` gives the same bytes and blinds the private operation.
/// let sig = key.sign(Pkcs1v15Sign::new::<Sha256>(), &digest)?;
/// assert_eq!(sig, key.sign_with_rng(&mut OsRng, Pkcs1v15Sign::new::<Sha256>(), &digest)?);
/// key.public_key().verify(Pkcs1v15Sign::new::<Sha256>(), &digest, &sig)?;
///
/// // Many digests at once (with the AVX-512 IFMA backend their exponentiations share IFMA lanes).
/// let digests = [Sha256::digest(b"a"), Sha256::digest(b"b")];
/// let refs: Vec<&[u8]> = digests.iter().map(|d| &d[..]).collect();
/// let sigs = Pkcs1v15Sign::new::<Sha256>().sign_batch(Some(&mut OsRng), &key, &refs)?;
/// key.public_key().verify(Pkcs1v15Sign::new::<Sha256>(), &digests[1], &sigs[1])?;
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pkcs1v15Sign {
    hash_len: Option<usize>,
    prefix: Box<[u8]>,
}

impl Pkcs1v15Sign {
    /// The padding for the hash type `D`, e.g. `Pkcs1v15Sign::new::<sha2::Sha256>()`. The
    /// `DigestInfo` prefix is built from `D`'s object identifier, so any hash with one works.
    pub fn new<D: Digest + AssociatedOid>() -> Self {
        Pkcs1v15Sign {
            hash_len: Some(<D as Digest>::output_size()),
            prefix: digest_info_prefix(&D::OID, <D as Digest>::output_size()).into(),
        }
    }

    /// The padding for a hash chosen at run time.
    pub fn from_hash(hash: HashAlg) -> Self {
        Pkcs1v15Sign {
            hash_len: Some(hash.output_size()),
            prefix: hash.digest_info_prefix().into(),
        }
    }

    /// Raw PKCS#1 v1.5 signatures with no `DigestInfo`: `T` is the caller's input of any
    /// length (as in TLS 1.0/1.1's MD5‖SHA-1). Only for protocols that require it.
    pub fn new_unprefixed() -> Self {
        Pkcs1v15Sign {
            hash_len: None,
            prefix: Box::new([]),
        }
    }

    /// The expected digest length, `None` for [`new_unprefixed`](Self::new_unprefixed).
    pub fn hash_len(&self) -> Option<usize> {
        self.hash_len
    }

    /// The DER `DigestInfo` prefix placed before the digest (empty when unprefixed).
    pub fn prefix(&self) -> &[u8] {
        &self.prefix
    }

    /// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) of the digest `hashed` into `em_len` bytes:
    /// `EM = 0x00 ‖ 0x01 ‖ PS ‖ 0x00 ‖ T` with `PS` = `em_len − tLen − 3` bytes `0xFF`.
    ///
    /// Errors: [`Error::InputOutOfRange`] when `hashed` is not the hash's length,
    /// [`Error::MessageTooLong`] when `em_len < tLen + 11`, [`Error::KeySize`] when `em_len`
    /// bytes are more than [`MAX_BITS`](crate::rsa::MAX_BITS).
    pub fn encode(&self, hashed: &[u8], em_len: usize) -> Result<Vec<u8>> {
        self.check_hash_len(hashed)?;
        super::check_modulus_bits(em_len.saturating_mul(8))?;
        // Step 2: T = DigestInfo = prefix ‖ H.
        let t_len = self.prefix.len() + hashed.len();
        // Step 3: emLen ≥ tLen + 11, i.e. at least 8 bytes of PS.
        if em_len < t_len + 11 {
            return Err(Error::MessageTooLong {
                len: t_len,
                max: em_len.saturating_sub(11),
            });
        }
        // Steps 4–5: EM = 0x00 ‖ 0x01 ‖ PS (0xFF…) ‖ 0x00 ‖ T.
        let mut em = alloc::vec![0xffu8; em_len];
        em[0] = 0x00;
        em[1] = 0x01;
        em[em_len - t_len - 1] = 0x00;
        em[em_len - t_len..em_len - hashed.len()].copy_from_slice(&self.prefix);
        em[em_len - hashed.len()..].copy_from_slice(hashed);
        Ok(em)
    }

    /// The verification side of RFC 8017 §8.2.2 steps 3–4 on an encoded message `em` (the
    /// `k`-byte output of RSAVP1): re-encodes `hashed` into `em.len()` bytes and compares the
    /// whole encoding. Any difference is [`Error::Verification`]; [`Error::InputOutOfRange`]
    /// when `hashed` has the wrong length.
    pub fn verify_em(&self, em: &[u8], hashed: &[u8]) -> Result<()> {
        let expected = match self.encode(hashed, em.len()) {
            Ok(e) => e,
            Err(Error::MessageTooLong { .. }) => return Err(Error::Verification),
            Err(e) => return Err(e),
        };
        // Step 4: compare EM and EM'. The data is public; the comparison is constant time
        // anyway so that no timing says where a forgery attempt first differs.
        if bool::from(super::ctbytes::bytes_eq(em, &expected)) {
            Ok(())
        } else {
            Err(Error::Verification)
        }
    }

    pub(crate) fn sign_ref(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        hashed: &[u8],
    ) -> Result<Vec<u8>> {
        // §8.2.1 step 1: EM = EMSA-PKCS1-V1_5-ENCODE(M, k).
        let em = self.encode(hashed, key.size())?;
        // Steps 2a–2c: m = OS2IP(EM), s = RSASP1(K, m), S = I2OSP(s, k). EM starts with 0x00,
        // so m < 256^(k−1) ≤ n.
        let s = key.raw_private(rng, &em)?;
        Ok(s.to_vec())
    }

    /// Signs several already-hashed messages at once with `key` (RFC 8017 §8.2.1 for each),
    /// through [`RsaPrivateKey::raw_private_batch`]: with the AVX-512 IFMA backend their
    /// exponentiations share AVX-512 IFMA lanes. The signatures are the same bytes
    /// [`SignatureScheme::sign`] gives one at a time. All or nothing: a message of the wrong
    /// length for the hash fails the batch before any work, a fault releases no signature.
    pub fn sign_batch(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        hashed: &[&[u8]],
    ) -> Result<Vec<Vec<u8>>> {
        let ems = hashed
            .iter()
            .map(|h| self.encode(h, key.size()))
            .collect::<Result<Vec<_>>>()?;
        key.sign_encoded_batch(rng, &ems)
    }

    /// [`InputFault::DigestLength`] unless `hashed` is as long as the hash's output (any
    /// length when unprefixed).
    fn check_hash_len(&self, hashed: &[u8]) -> Result<()> {
        match self.hash_len {
            Some(h) if hashed.len() != h => Err(Error::InputOutOfRange(InputFault::DigestLength {
                len: hashed.len(),
                expected: h,
            })),
            _ => Ok(()),
        }
    }

    pub(crate) fn verify_ref(&self, key: &RsaPublicKey, hashed: &[u8], sig: &[u8]) -> Result<()> {
        self.check_hash_len(hashed)?;
        let em = rsavp1(key, sig)?;
        self.verify_em(&em, hashed)
    }
}

impl SignatureScheme for Pkcs1v15Sign {
    fn sign(
        self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        hashed: &[u8],
    ) -> Result<Vec<u8>> {
        self.sign_ref(rng, key, hashed)
    }

    fn verify(self, key: &RsaPublicKey, hashed: &[u8], sig: &[u8]) -> Result<()> {
        self.verify_ref(key, hashed, sig)
    }
}

/// RFC 8017 §8.1.2 / §8.2.2 steps 1–2: the signature MUST be exactly `k` bytes and, as an
/// integer, below `n`; then `m = s^e mod n` as `k` bytes. Every failure is
/// [`Error::Verification`].
pub(crate) fn rsavp1(key: &RsaPublicKey, sig: &[u8]) -> Result<Vec<u8>> {
    // Step 1: length checking.
    if sig.len() != key.size() {
        return Err(Error::Verification);
    }
    // Step 2: RSAVP1, which rejects s ≥ n ("signature representative out of range").
    let em = key.raw_public(sig).map_err(|_| Error::Verification)?;
    if em.len() != key.size() {
        return Err(Error::Verification);
    }
    Ok(em)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_layout() {
        let p = Pkcs1v15Sign::new::<sha2::Sha256>();
        assert_eq!(p, Pkcs1v15Sign::from_hash(HashAlg::Sha256));
        let h = [7u8; 32];
        let em = p.encode(&h, 64).unwrap();
        assert_eq!(&em[..2], &[0, 1]);
        assert!(em[2..64 - 32 - 19 - 1].iter().all(|&b| b == 0xff));
        assert_eq!(em[64 - 32 - 19 - 1], 0);
        assert_eq!(
            &em[64 - 32 - 19..64 - 32],
            HashAlg::Sha256.digest_info_prefix()
        );
        assert_eq!(&em[64 - 32..], &h);
        assert!(p.verify_em(&em, &h).is_ok());
        // Shortest allowed: 8 bytes of PS.
        assert!(p.encode(&h, 32 + 19 + 11).is_ok());
        assert_eq!(
            p.encode(&h, 32 + 19 + 10),
            Err(Error::MessageTooLong { len: 51, max: 50 })
        );
        assert_eq!(
            p.encode(&h[..31], 64),
            Err(Error::InputOutOfRange(InputFault::DigestLength {
                len: 31,
                expected: 32
            }))
        );
        assert_eq!(p.verify_em(&em[..40], &h), Err(Error::Verification));
    }

    #[test]
    fn unprefixed() {
        let p = Pkcs1v15Sign::new_unprefixed();
        let em = p.encode(b"abc", 20).unwrap();
        assert_eq!(&em[17..], b"abc");
        assert_eq!(em[16], 0);
        assert!(p.verify_em(&em, b"abc").is_ok());
        assert!(p.verify_em(&em, b"abd").is_err());
    }
}

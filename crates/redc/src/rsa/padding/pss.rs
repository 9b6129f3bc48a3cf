//! RSASSA-PSS (RFC 8017 §8.1) with EMSA-PSS (§9.1) and MGF1, plus typed signing and
//! verifying keys for the `signature` crate.
//!
//! The encoded message has `emBits = modBits − 1` bits, so `emLen = ⌈emBits / 8⌉` bytes: one
//! byte less than the modulus when `modBits ≡ 1 (mod 8)`; the `8·emLen − emBits` leftmost bits
//! of the encoding are zero. Signing uses a salt as long as the hash (the usual choice, and
//! what RFC 8017 §9.1 note 4 recommends); verification accepts any salt length the encoding
//! can hold, unless a fixed one was asked for.
//!
//! Each type has an example: [`SigningKey`], [`BlindedSigningKey`] and [`VerifyingKey`] (typed,
//! the message hashed inside), or [`Pss`] (on digests, or a hash chosen at run time).

mod keys;

pub use keys::{BlindedSigningKey, SigningKey, VerifyingKey};

use alloc::vec::Vec;
use digest::Digest;
use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::hash::{HashAlg, HashFn};
use super::mgf::mgf1_xor_with;
use super::pkcs1v15::rsavp1;
use super::sigbytes::define_signature;
use super::traits::SignatureScheme;
use crate::rsa::{Error, InputFault, ParameterFault, Result, RsaPrivateKey, RsaPublicKey};

define_signature!("PSS", pss);

/// The PSS signature padding (EMSA-PSS with MGF1) for one hash. Signing needs a random
/// number generator (the salt), which also blinds the private operation.
///
/// ```
/// use redc::rsa::sha2::{Digest, Sha256};
/// use redc::rsa::{OsRng, Pss, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let digest = Sha256::digest(b"hello");
/// let sig = key.sign_with_rng(&mut OsRng, Pss::new::<Sha256>(), &digest)?;
/// key.public_key().verify(Pss::new::<Sha256>(), &digest, &sig)?;
/// // A verifier that insists on the salt length the signer used:
/// key.public_key().verify(Pss::new_with_salt::<Sha256>(32), &digest, &sig)?;
/// // Without a generator there is no salt: an error, not a weaker signature.
/// assert!(key.sign(Pss::new::<Sha256>(), &digest).is_err());
///
/// let digests = [Sha256::digest(b"a"), Sha256::digest(b"b")];
/// let refs: Vec<&[u8]> = digests.iter().map(|d| &d[..]).collect();
/// let sigs = Pss::new::<Sha256>().sign_batch(Some(&mut OsRng), &key, &refs)?;
/// key.public_key().verify(Pss::new::<Sha256>(), &digests[0], &sigs[0])?;
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Pss {
    hash: HashFn,
    mgf_hash: HashFn,
    salt_len: Option<usize>,
}

impl Pss {
    /// PSS with the hash `D` for the message and MGF1; salt length = hash length when
    /// signing, any valid salt length accepted when verifying.
    pub fn new<D: Digest>() -> Self {
        Pss {
            hash: HashFn::of::<D>(),
            mgf_hash: HashFn::of::<D>(),
            salt_len: None,
        }
    }

    /// PSS with the hash `D` and a fixed salt length `len`, used when signing and required
    /// when verifying.
    pub fn new_with_salt<D: Digest>(len: usize) -> Self {
        Pss {
            salt_len: Some(len),
            ..Pss::new::<D>()
        }
    }

    /// [`Pss::new`] for a hash chosen at run time.
    pub fn from_hash(hash: HashAlg) -> Self {
        Pss {
            hash: hash.hash_fn(),
            mgf_hash: hash.hash_fn(),
            salt_len: None,
        }
    }

    /// [`Pss::new_with_salt`] for a hash chosen at run time.
    pub fn from_hash_with_salt(hash: HashAlg, len: usize) -> Self {
        Pss {
            salt_len: Some(len),
            ..Pss::from_hash(hash)
        }
    }

    /// The same padding with a different hash inside MGF1 (RFC 8017 allows the two to differ;
    /// most profiles, including this crate's constructors, use the same one).
    pub fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Pss {
            mgf_hash: mgf_hash.hash_fn(),
            ..self
        }
    }

    /// The hash length `hLen`.
    pub fn hash_len(&self) -> usize {
        self.hash.size()
    }

    /// The fixed salt length, `None` when verification auto-detects it (and signing uses
    /// `hLen`).
    pub fn salt_len(&self) -> Option<usize> {
        self.salt_len
    }

    /// The salt length used when signing.
    fn signing_salt_len(&self) -> usize {
        self.salt_len.unwrap_or(self.hash.size())
    }

    /// EMSA-PSS-ENCODE (RFC 8017 §9.1.1) of the digest `hashed` with the given salt, for a
    /// modulus of `mod_bits` bits (`emBits = mod_bits − 1`). Returns `emLen` bytes.
    ///
    /// Errors: [`Error::InputOutOfRange`] when `hashed` is not `hLen` bytes,
    /// [`Error::UnsupportedParameter`] when `emLen < hLen + sLen + 2` (modulus too small for
    /// this hash and salt), [`Error::KeySize`] when `mod_bits` is above
    /// [`MAX_BITS`](crate::rsa::MAX_BITS).
    pub fn encode_with_salt(&self, hashed: &[u8], salt: &[u8], mod_bits: usize) -> Result<Vec<u8>> {
        let h_len = self.hash.size();
        let s_len = salt.len();
        super::check_modulus_bits(mod_bits)?;
        // Step 2: mHash = Hash(M), supplied by the caller.
        self.check_hash_len(hashed)?;
        // Step 3: emLen ≥ hLen + sLen + 2.
        let em_len = self.salt_room(s_len, mod_bits)?;
        let em_bits = mod_bits.saturating_sub(1);
        let mut em = alloc::vec![0u8; em_len];
        let db_len = em_len - h_len - 1;
        {
            let (db, rest) = em.split_at_mut(db_len);
            let (h, tail) = rest.split_at_mut(h_len);
            // Steps 5–6: H = Hash(M'), M' = 0x00⁸ ‖ mHash ‖ salt.
            self.hash.digest_parts(&[&[0u8; 8], hashed, salt], h);
            // Steps 7–8: DB = PS ‖ 0x01 ‖ salt with PS = emLen − sLen − hLen − 2 zeros.
            db[db_len - s_len - 1] = 0x01;
            db[db_len - s_len..].copy_from_slice(salt);
            // Steps 9–10: maskedDB = DB ⊕ MGF(H, emLen − hLen − 1).
            mgf1_xor_with(&self.mgf_hash, h, db);
            // Step 11: clear the leftmost 8·emLen − emBits bits.
            db[0] &= top_mask(em_len, em_bits);
            // Step 12: EM = maskedDB ‖ H ‖ 0xbc.
            tail[0] = 0xbc;
        }
        Ok(em)
    }

    /// EMSA-PSS-VERIFY (RFC 8017 §9.1.2) of an RSAVP1 output `em` against the digest
    /// `hashed`, for a modulus of `mod_bits` bits. `em` is normally `k` bytes; any leading
    /// bytes beyond `emLen` MUST be zero (when `emLen = k − 1`, §8.1.2 step 2c's
    /// `I2OSP(m, emLen)` fails otherwise).
    ///
    /// With no fixed salt length the salt is everything after the first `0x01` of `DB`.
    /// Errors: [`Error::Verification`] for any inconsistency, [`Error::InputOutOfRange`] when
    /// `hashed` is not `hLen` bytes.
    pub fn verify_em(&self, em: &[u8], hashed: &[u8], mod_bits: usize) -> Result<()> {
        let h_len = self.hash.size();
        let em_bits = mod_bits.saturating_sub(1);
        let em_len = em_bits.div_ceil(8);
        self.check_hash_len(hashed)?;
        // §8.1.2 step 2c: the representative must fit in emLen bytes.
        if em.len() < em_len {
            return Err(Error::Verification);
        }
        let (extra, em) = em.split_at(em.len() - em_len);
        if extra.iter().any(|&b| b != 0) {
            return Err(Error::Verification);
        }
        // Step 3: emLen ≥ hLen + sLen + 2 (sLen ≥ 0 when it is not fixed); a salt length
        // near usize::MAX must not wrap the sum.
        if !fits(em_len, h_len, self.salt_len.unwrap_or(0)) {
            return Err(Error::Verification);
        }
        // Step 4: the rightmost octet is 0xbc.
        if em[em_len - 1] != 0xbc {
            return Err(Error::Verification);
        }
        // Step 5: maskedDB = first emLen − hLen − 1 bytes, H = the next hLen.
        let db_len = em_len - h_len - 1;
        let mut db = Zeroizing::new(em[..db_len].to_vec());
        let h = &em[db_len..em_len - 1];
        // Step 6: the leftmost 8·emLen − emBits bits of maskedDB are zero.
        let mask = top_mask(em_len, em_bits);
        if db[0] & !mask != 0 {
            return Err(Error::Verification);
        }
        // Steps 7–9: DB = maskedDB ⊕ MGF(H, emLen − hLen − 1), leftmost bits cleared.
        mgf1_xor_with(&self.mgf_hash, h, &mut db);
        db[0] &= mask;
        // Step 10: DB = 0x00… ‖ 0x01 ‖ salt, with the 0x01 at emLen − hLen − sLen − 2 when
        // sLen is fixed; otherwise at the first non-zero byte.
        let one_at = match self.salt_len {
            Some(s_len) => {
                let pos = db_len - s_len - 1;
                if db[..pos].iter().any(|&b| b != 0) {
                    return Err(Error::Verification);
                }
                pos
            }
            None => match db.iter().position(|&b| b != 0) {
                Some(pos) => pos,
                None => return Err(Error::Verification),
            },
        };
        if db[one_at] != 0x01 {
            return Err(Error::Verification);
        }
        // Steps 11–13: salt = last sLen bytes of DB; H' = Hash(0x00⁸ ‖ mHash ‖ salt).
        let salt = &db[one_at + 1..];
        let mut h2 = alloc::vec![0u8; h_len];
        self.hash.digest_parts(&[&[0u8; 8], hashed, salt], &mut h2);
        // Step 14: H = H'.
        if bool::from(super::ctbytes::bytes_eq(h, &h2)) {
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
        // PSS is probabilistic: without a generator there is no salt.
        let rng = rng.ok_or(Error::UnsupportedParameter(ParameterFault::RngRequired))?;
        self.check_hash_len(hashed)?;
        let em = self.encode_salted(rng, key, hashed)?;
        // Step 2: s = RSASP1(K, OS2IP(EM)), S = I2OSP(s, k). EM < 2^emBits < n.
        let s = key.raw_private(Some(rng), &em)?;
        Ok(s.to_vec())
    }

    /// §9.1.1 step 3 for a salt of `s_len` bytes and a modulus of `mod_bits` bits: `emLen`
    /// when `emLen ≥ hLen + sLen + 2`, [`ParameterFault::SaltTooLong`] otherwise.
    fn salt_room(&self, s_len: usize, mod_bits: usize) -> Result<usize> {
        let (h_len, em_len) = (self.hash.size(), mod_bits.saturating_sub(1).div_ceil(8));
        if !fits(em_len, h_len, s_len) {
            return Err(Error::UnsupportedParameter(ParameterFault::SaltTooLong {
                salt_len: s_len,
                hash_len: h_len,
                em_len,
            }));
        }
        Ok(em_len)
    }

    /// [`InputFault::DigestLength`] unless `hashed` is as long as the hash's output.
    fn check_hash_len(&self, hashed: &[u8]) -> Result<()> {
        if hashed.len() != self.hash.size() {
            return Err(Error::InputOutOfRange(InputFault::DigestLength {
                len: hashed.len(),
                expected: self.hash.size(),
            }));
        }
        Ok(())
    }

    /// §8.1.1 step 1 with the length check: EM for `hashed` with a fresh salt from `rng`
    /// (the signing service's encoder; the service needs `std`).
    #[cfg(feature = "std")]
    pub(crate) fn encode_checked(
        &self,
        rng: &mut dyn CryptoRngCore,
        key: &RsaPrivateKey,
        hashed: &[u8],
    ) -> Result<Vec<u8>> {
        self.check_hash_len(hashed)?;
        self.encode_salted(rng, key, hashed)
    }

    /// §8.1.1 step 1 for signing `hashed` (of the hash's length) with `key`: a fresh random
    /// salt of sLen bytes from `rng` (§9.1.1 step 4), then EM = EMSA-PSS-ENCODE(M, modBits − 1).
    fn encode_salted(
        &self,
        rng: &mut dyn CryptoRngCore,
        key: &RsaPrivateKey,
        hashed: &[u8],
    ) -> Result<Vec<u8>> {
        // The salt must fit before it is drawn: a length near usize::MAX would otherwise
        // be an allocation failure, not an error.
        let s_len = self.signing_salt_len();
        self.salt_room(s_len, key.public_key().bits())?;
        let mut salt = alloc::vec![0u8; s_len];
        rng.try_fill_bytes(&mut salt).map_err(|_| Error::Rng)?;
        self.encode_with_salt(hashed, &salt, key.public_key().bits())
    }

    /// Signs several already-hashed messages at once with `key` (RFC 8017 §8.1.1 for each, a
    /// fresh salt from `rng` for each), through [`RsaPrivateKey::raw_private_batch`], blinded:
    /// with the AVX-512 IFMA backend their exponentiations share AVX-512 IFMA lanes. Each signature is
    /// one [`SignatureScheme::sign`] could have given (the same bytes when the salt is empty).
    ///
    /// All or nothing: [`Error::UnsupportedParameter`] without a generator (PSS needs salts),
    /// [`Error::InputOutOfRange`] for a message of the wrong length for the hash (before any
    /// work), [`Error::Rng`] if `rng` fails, and a fault releases no signature.
    pub fn sign_batch(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        hashed: &[&[u8]],
    ) -> Result<Vec<Vec<u8>>> {
        let rng = rng.ok_or(Error::UnsupportedParameter(ParameterFault::RngRequired))?;
        // Every length first, so that a wrong one fails the batch before any salt is drawn.
        for h in hashed {
            self.check_hash_len(h)?;
        }
        let ems = hashed
            .iter()
            .map(|h| self.encode_salted(rng, key, h))
            .collect::<Result<Vec<_>>>()?;
        // §8.1.1 step 2 for every EM (each < 2^emBits < n).
        key.sign_encoded_batch(Some(rng), &ems)
    }

    pub(crate) fn verify_ref(&self, key: &RsaPublicKey, hashed: &[u8], sig: &[u8]) -> Result<()> {
        self.check_hash_len(hashed)?;
        // §8.1.2 steps 1–2.
        let em = rsavp1(key, sig)?;
        // Step 3.
        self.verify_em(&em, hashed, key.bits())
    }
}

/// The mask keeping the low `8 − (8·emLen − emBits)` bits of the leading byte.
fn top_mask(em_len: usize, em_bits: usize) -> u8 {
    let clear = 8 * em_len - em_bits; // 0..=7
    0xffu8 >> clear
}

impl SignatureScheme for Pss {
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

/// RFC 8017 §9.1.1 step 3 / §9.1.2 step 3: `emLen ≥ hLen + sLen + 2`, false (not a wrapped
/// sum) when `sLen` is near `usize::MAX`.
fn fits(em_len: usize, h_len: usize, s_len: usize) -> bool {
    h_len
        .checked_add(s_len)
        .and_then(|x| x.checked_add(2))
        .is_some_and(|need| em_len >= need)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_verify_all_em_bit_offsets() {
        let hashed = HashAlg::Sha256.digest(b"message");
        for mod_bits in 600..=608 {
            for s_len in [0usize, 1, 20, 32] {
                let pss = Pss::from_hash_with_salt(HashAlg::Sha256, s_len);
                let salt = alloc::vec![0x5a; s_len];
                let em = pss.encode_with_salt(&hashed, &salt, mod_bits).unwrap();
                assert_eq!(em.len(), (mod_bits - 1).div_ceil(8));
                // The top bits above emBits are clear.
                let clear = 8 * em.len() - (mod_bits - 1);
                if clear > 0 {
                    assert_eq!(em[0] >> (8 - clear), 0, "bits {mod_bits}");
                }
                // Pad to k bytes as RSAVP1 would return.
                let k = mod_bits.div_ceil(8);
                let mut full = alloc::vec![0u8; k - em.len()];
                full.extend_from_slice(&em);
                pss.verify_em(&full, &hashed, mod_bits).unwrap();
                Pss::from_hash(HashAlg::Sha256)
                    .verify_em(&full, &hashed, mod_bits)
                    .unwrap();
                if s_len != 20 {
                    assert_eq!(
                        Pss::from_hash_with_salt(HashAlg::Sha256, 20)
                            .verify_em(&full, &hashed, mod_bits),
                        Err(Error::Verification)
                    );
                }
                let mut bad = full.clone();
                bad[k - 5] ^= 1;
                assert!(pss.verify_em(&bad, &hashed, mod_bits).is_err());
                let mut other = hashed.clone();
                other[0] ^= 1;
                assert!(pss.verify_em(&full, &other, mod_bits).is_err());
            }
        }
    }

    #[test]
    fn salt_too_long() {
        let pss = Pss::from_hash_with_salt(HashAlg::Sha512, 64);
        let hashed = HashAlg::Sha512.digest(b"");
        // emLen = 128 < 64 + 64 + 2.
        assert_eq!(
            pss.encode_with_salt(&hashed, &[0; 64], 1024),
            Err(Error::UnsupportedParameter(ParameterFault::SaltTooLong {
                salt_len: 64,
                hash_len: 64,
                em_len: 128
            }))
        );
        assert!(pss.encode_with_salt(&hashed, &[0; 62], 1025).is_ok());
    }
}

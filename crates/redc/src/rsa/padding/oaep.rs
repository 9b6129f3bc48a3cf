//! RSAES-OAEP (RFC 8017 §7.1) with MGF1 and an optional label.
//!
//! Decryption checks the padding in constant time (Manger's attack, CRYPTO 2001, needs only
//! to learn whether the first byte was zero): the `Y` byte, `lHash'`, the zero run and the
//! `0x01` separator are all evaluated with masks over the whole block, the message is moved
//! out with a shift whose access pattern depends only on `k`, and every failure is the same
//! [`Error::Decryption`], decided by one branch at the very end.
//!
//! Each type has an example: [`EncryptingKey`] / [`DecryptingKey`] (typed: hashes and label
//! fixed at construction) or [`Oaep`] (a hash chosen at run time, batches).

mod keys;

pub use keys::{DecryptingKey, EncryptingKey};

use alloc::vec::Vec;
use digest::Digest;
use rand_core::CryptoRngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroizing;

use super::ctbytes::{byte_eq, shift_left};
use super::hash::{HashAlg, HashFn};
use super::mgf::mgf1_xor_with;
use super::traits::{decryption_error, PaddingScheme};
use crate::rsa::{Error, InputFault, Result, RsaPrivateKey, RsaPublicKey};

/// The OAEP encryption padding: a hash for the label, a hash for MGF1 (the same one unless
/// chosen otherwise) and an optional label (the empty string when absent, RFC 8017 §7.1.1
/// step 1).
///
/// ```
/// use redc::rsa::sha2::Sha256;
/// use redc::rsa::{Oaep, OsRng, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let public = key.to_public_key();
/// let c = public.encrypt(&mut OsRng, Oaep::new_with_label::<Sha256, _>("v1"), b"secret")?;
/// assert_eq!(key.decrypt(Oaep::new_with_label::<Sha256, _>("v1"), &c)?, b"secret");
/// // Another label is a decryption error like any other: one error, no detail.
/// assert!(key.decrypt(Oaep::new::<Sha256>(), &c).is_err());
/// // The longest message for this key and hash: k − 2·hLen − 2.
/// assert_eq!(Oaep::new::<Sha256>().max_message_len(public.size()), Some(190));
///
/// // Several ciphertexts at once, each with its own result.
/// let c2 = public.encrypt(&mut OsRng, Oaep::new::<Sha256>(), b"other")?;
/// let out = Oaep::new::<Sha256>().decrypt_batch(Some(&mut OsRng), &key, &[&c2, &c])?;
/// assert_eq!(out[0].as_deref(), Ok(&b"other"[..]));
/// assert!(out[1].is_err()); // labelled "v1"
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Oaep {
    hash: HashFn,
    mgf_hash: HashFn,
    label: Option<Vec<u8>>,
}

impl Oaep {
    /// OAEP with the hash `D` for both the label hash and MGF1, no label.
    pub fn new<D: Digest>() -> Self {
        Oaep {
            hash: HashFn::of::<D>(),
            mgf_hash: HashFn::of::<D>(),
            label: None,
        }
    }

    /// OAEP with the hash `D` and the label `label` (bytes or a string).
    pub fn new_with_label<D: Digest, L: AsRef<[u8]>>(label: L) -> Self {
        Oaep {
            label: Some(label.as_ref().to_vec()),
            ..Oaep::new::<D>()
        }
    }

    /// OAEP with `D` for the label hash and `M` for MGF1 (e.g. SHA-256 with MGF1-SHA-1, a
    /// common Java/Android default).
    pub fn new_with_mgf_hash<D: Digest, M: Digest>() -> Self {
        Oaep {
            hash: HashFn::of::<D>(),
            mgf_hash: HashFn::of::<M>(),
            label: None,
        }
    }

    /// OAEP for a hash chosen at run time (label hash and MGF1), with an optional label.
    pub fn from_hash(hash: HashAlg, label: Option<Vec<u8>>) -> Self {
        Oaep {
            hash: hash.hash_fn(),
            mgf_hash: hash.hash_fn(),
            label,
        }
    }

    /// Decrypts several ciphertexts at once with `key` (RFC 8017 §7.1.2 for each), through
    /// [`RsaPrivateKey::raw_private_batch`]: with the AVX-512 IFMA backend their exponentiations
    /// share AVX-512 IFMA lanes. Each ciphertext gets its own result, the same one
    /// [`PaddingScheme::decrypt`] gives (a wrong length, a value not below `n` and every
    /// padding defect are the one [`Error::Decryption`]); only a fault ([`Error::FaultDetected`])
    /// or a failing generator ([`Error::Rng`]) fails the whole batch, releasing nothing.
    pub fn decrypt_batch(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        ciphertexts: &[&[u8]],
    ) -> Result<Vec<Result<Vec<u8>>>> {
        let k = key.size();
        let hlen = self.hash.size();
        // Step 1 for each (public data): length, and c < n; the rest go to the batch.
        let ok: Vec<bool> = ciphertexts
            .iter()
            .map(|c| c.len() == k && k >= 2 * hlen + 2 && key.public_key().read_input(c).is_ok())
            .collect();
        let valid: Vec<&[u8]> = ciphertexts
            .iter()
            .zip(&ok)
            .filter(|(_, &ok)| ok)
            .map(|(c, _)| *c)
            .collect();
        let ems = key
            .raw_private_batch(rng, &valid)
            .map_err(decryption_error)?;
        let mut ems = ems.into_iter();
        Ok(ok
            .iter()
            .map(|&ok| match (ok, ok.then(|| ems.next()).flatten()) {
                (true, Some(em)) => self.unpad(&em),
                _ => Err(Error::Decryption),
            })
            .collect())
    }

    /// The same padding with a different hash inside MGF1.
    pub fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Oaep {
            mgf_hash: mgf_hash.hash_fn(),
            ..self
        }
    }

    /// The label, if any.
    pub fn label(&self) -> Option<&[u8]> {
        self.label.as_deref()
    }

    /// `lHash = Hash(L)`.
    fn label_hash(&self) -> Vec<u8> {
        let mut l_hash = alloc::vec![0u8; self.hash.size()];
        let label: &[u8] = self.label.as_deref().unwrap_or(&[]);
        self.hash.digest_parts(&[label], &mut l_hash);
        l_hash
    }

    /// The longest message this padding fits in a `k`-byte modulus: `k − 2·hLen − 2`
    /// (`None` when the modulus is too small for the hash).
    pub fn max_message_len(&self, k: usize) -> Option<usize> {
        k.checked_sub(2 * self.hash.size() + 2)
    }

    /// EME-OAEP encoding (RFC 8017 §7.1.1 step 2) of `msg` into `k` bytes with the random
    /// `seed` (`hLen` bytes). Deterministic; for known-answer tests and for [`Oaep::pad`].
    ///
    /// Errors: [`Error::MessageTooLong`] when `msg.len() > k − 2·hLen − 2`,
    /// [`Error::InputOutOfRange`] when the seed is not `hLen` bytes, [`Error::KeySize`] when
    /// `k` bytes are more than [`MAX_BITS`](crate::rsa::MAX_BITS).
    pub fn encode_with_seed(&self, msg: &[u8], seed: &[u8], k: usize) -> Result<Vec<u8>> {
        super::check_modulus_bits(k.saturating_mul(8))?;
        let h_len = self.hash.size();
        // Step 1b: mLen ≤ k − 2hLen − 2.
        match self.max_message_len(k) {
            Some(max) if msg.len() <= max => {}
            max => {
                return Err(Error::MessageTooLong {
                    len: msg.len(),
                    max: max.unwrap_or(0),
                })
            }
        }
        if seed.len() != h_len {
            return Err(Error::InputOutOfRange(InputFault::SeedLength {
                len: seed.len(),
                expected: h_len,
            }));
        }
        let mut em = alloc::vec![0u8; k];
        {
            // EM = 0x00 ‖ maskedSeed ‖ maskedDB.
            let (_y, rest) = em.split_at_mut(1);
            let (masked_seed, db) = rest.split_at_mut(h_len);
            // Steps 2a–2c: DB = lHash ‖ PS ‖ 0x01 ‖ M (PS zeros).
            db[..h_len].copy_from_slice(&self.label_hash());
            let db_len = db.len();
            db[db_len - msg.len() - 1] = 0x01;
            db[db_len - msg.len()..].copy_from_slice(msg);
            // Steps 2d–2f: maskedDB = DB ⊕ MGF(seed, k − hLen − 1).
            masked_seed.copy_from_slice(seed);
            mgf1_xor_with(&self.mgf_hash, masked_seed, db);
            // Steps 2g–2h: maskedSeed = seed ⊕ MGF(maskedDB, hLen).
            mgf1_xor_with(&self.mgf_hash, db, masked_seed);
        }
        Ok(em)
    }

    /// EME-OAEP encoding of `msg` into `k` bytes with a fresh seed from `rng`
    /// (RFC 8017 §7.1.1 step 2d).
    pub fn pad(&self, rng: &mut dyn CryptoRngCore, msg: &[u8], k: usize) -> Result<Vec<u8>> {
        let mut seed = Zeroizing::new(alloc::vec![0u8; self.hash.size()]);
        rng.try_fill_bytes(&mut seed).map_err(|_| Error::Rng)?;
        self.encode_with_seed(msg, &seed, k)
    }

    /// EME-OAEP decoding (RFC 8017 §7.1.2 step 3) of the `k`-byte encoded message `em`, in
    /// constant time. Every failure is [`Error::Decryption`].
    ///
    /// Leaks only `em.len()`, `hLen` and, when the padding is valid, the message length.
    pub fn unpad(&self, em: &[u8]) -> Result<Vec<u8>> {
        let k = em.len();
        let h_len = self.hash.size();
        // §7.1.2 step 1c: k ≥ 2hLen + 2 (public).
        if k < 2 * h_len + 2 {
            return Err(Error::Decryption);
        }
        // Step 3a: lHash = Hash(L).
        let l_hash = self.label_hash();
        let mut buf = Zeroizing::new(em.to_vec());
        let (good, start) = {
            // Step 3b: EM = Y ‖ maskedSeed ‖ maskedDB.
            let (y, rest) = buf.split_at_mut(1);
            let (seed, db) = rest.split_at_mut(h_len);
            // Steps 3c–3d: seed = maskedSeed ⊕ MGF(maskedDB, hLen).
            mgf1_xor_with(&self.mgf_hash, db, seed);
            // Steps 3e–3f: DB = maskedDB ⊕ MGF(seed, k − hLen − 1).
            mgf1_xor_with(&self.mgf_hash, seed, db);
            // Step 3g: DB = lHash' ‖ PS ‖ 0x01 ‖ M; Y = 0 and lHash' = lHash.
            let mut good = byte_eq(y[0], 0x00) & db[..h_len].ct_eq(&l_hash);
            // Find the 0x01 ending the zero run; any other non-zero byte first is an error.
            // Every byte is visited; `looking` turns false at the first non-zero byte.
            let mut looking = Choice::from(1);
            let mut one_index = 0u32;
            let mut invalid = Choice::from(0);
            for (i, &b) in db[h_len..].iter().enumerate() {
                let is_zero = byte_eq(b, 0x00);
                let is_one = byte_eq(b, 0x01);
                one_index.conditional_assign(&(i as u32), looking & is_one);
                invalid |= looking & !is_zero & !is_one;
                looking &= is_zero;
            }
            good &= !invalid & !looking;
            // M starts after Y, the seed, lHash', PS and the 0x01.
            // (wrapping_add: no overflow-check branch on the secret index in debug builds)
            let start = ((1 + 2 * h_len) as u32 + 1).wrapping_add(one_index);
            (good, start)
        };
        shift_left(&mut buf, start);
        // The only branch on secret data.
        // Declassified for the secret-taint test (`crate::valgrind`): the verdict is what the
        // caller receives, and on success the message length (hence `start`) is public.
        if !crate::valgrind::declassify_choice(good) {
            return Err(Error::Decryption);
        }
        let start = crate::valgrind::declassify(start);
        Ok(buf[..k - start as usize].to_vec())
    }
}

impl PaddingScheme for Oaep {
    fn encrypt(
        self,
        rng: &mut dyn CryptoRngCore,
        key: &RsaPublicKey,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        // §7.1.1 step 2: EM; step 3: c = RSAEP(m) as k bytes. EM starts with 0x00, so < n.
        let em = Zeroizing::new(self.pad(rng, msg, key.size())?);
        key.raw_public(&em)
    }

    fn decrypt(
        self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        // §7.1.2 step 1b: len(C) = k; step 1c: k ≥ 2hLen + 2.
        let k = key.size();
        if ciphertext.len() != k || k < 2 * self.hash.size() + 2 {
            return Err(Error::Decryption);
        }
        // Step 2: m = RSADP(K, c) as k bytes.
        let em = key.raw_private(rng, ciphertext).map_err(decryption_error)?;
        // Step 3: EME-OAEP decoding.
        self.unpad(&em)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_unpad_round_trip() {
        for h in HashAlg::ALL {
            let oaep = Oaep::from_hash(h, Some(b"label".to_vec()));
            let seed = alloc::vec![0x42u8; h.output_size()];
            let k = 2 * h.output_size() + 2 + 20;
            for len in 0..=20 {
                let msg = alloc::vec![0xa5u8; len];
                let em = oaep.encode_with_seed(&msg, &seed, k).unwrap();
                assert_eq!(em[0], 0);
                assert_eq!(oaep.unpad(&em).unwrap(), msg);
                // Wrong label.
                assert_eq!(Oaep::from_hash(h, None).unpad(&em), Err(Error::Decryption));
                // Every single-byte corruption is caught (the message part aside: changing
                // it changes DB, and hence lHash' or the padding, through the seed mask).
                for i in 0..k {
                    let mut bad = em.clone();
                    bad[i] ^= 0x80;
                    assert_eq!(oaep.unpad(&bad), Err(Error::Decryption), "{h} byte {i}");
                }
            }
            assert_eq!(
                oaep.encode_with_seed(&[0; 21], &seed, k),
                Err(Error::MessageTooLong { len: 21, max: 20 })
            );
        }
    }
}

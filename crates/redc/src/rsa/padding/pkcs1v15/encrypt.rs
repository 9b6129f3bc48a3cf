//! RSAES-PKCS1-v1_5 (RFC 8017 §7.2): `EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M` with `PS` at least 8
//! random non-zero bytes.
//!
//! New designs should use OAEP: PKCS#1 v1.5 decryption is an oracle waiting to happen
//! (Bleichenbacher 1998, and timing variants up to Marvin, 2023). The unpadding here is
//! constant time and returns one indistinguishable [`Error::Decryption`], but a protocol that
//! lets an attacker observe *whether* decryption succeeded still leaks; TLS-style implicit
//! rejection is the protocol's job.

use alloc::vec::Vec;
use rand_core::CryptoRngCore;
use subtle::{Choice, ConditionallySelectable, ConstantTimeLess};
use zeroize::Zeroizing;

use crate::rsa::padding::ctbytes::{byte_eq, shift_left};
use crate::rsa::traits::{decryption_error, PaddingScheme};
use crate::rsa::{Error, Result, RsaPrivateKey, RsaPublicKey};

/// The PKCS#1 v1.5 encryption padding (RSAES-PKCS1-v1_5). For protocols that require it;
/// prefer [`Oaep`](crate::rsa::Oaep) (see the module documentation).
///
/// ```
/// use redc::rsa::{OsRng, Pkcs1v15Encrypt, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let c = key.public_key().encrypt(&mut OsRng, Pkcs1v15Encrypt, b"legacy")?;
/// assert_eq!(key.decrypt_blinded(&mut OsRng, Pkcs1v15Encrypt, &c)?, b"legacy");
/// // A ciphertext of the wrong length: the one decryption error.
/// assert!(key.decrypt(Pkcs1v15Encrypt, &c[1..]).is_err());
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pkcs1v15Encrypt;

impl Pkcs1v15Encrypt {
    /// EME-PKCS1-v1_5 encoding (RFC 8017 §7.2.1 steps 1–2) of `msg` into `k` bytes, with the
    /// padding string drawn from `rng`. Errors: [`Error::MessageTooLong`] when
    /// `msg.len() > k − 11`, [`Error::Rng`] when the generator fails.
    pub fn pad(&self, rng: &mut dyn CryptoRngCore, msg: &[u8], k: usize) -> Result<Vec<u8>> {
        // Step 1: mLen ≤ k − 11.
        if k < 11 || msg.len() > k - 11 {
            return Err(Error::MessageTooLong {
                len: msg.len(),
                max: k.saturating_sub(11),
            });
        }
        // Step 2a: PS = k − mLen − 3 pseudo-randomly generated non-zero octets.
        let ps_len = k - msg.len() - 3;
        let mut em = alloc::vec![0u8; k];
        em[1] = 0x02;
        non_zero_random(rng, &mut em[2..2 + ps_len])?;
        // Step 2b: EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M.
        em[2 + ps_len] = 0x00;
        em[3 + ps_len..].copy_from_slice(msg);
        Ok(em)
    }

    /// EME-PKCS1-v1_5 decoding (RFC 8017 §7.2.2 step 3) of the `k`-byte encoded message `em`,
    /// in constant time: `em[0] = 0x00`, `em[1] = 0x02`, a zero separator after at least 8
    /// non-zero bytes; every failure is the same [`Error::Decryption`].
    ///
    /// Leaks only `em.len()` and, when the padding is valid, the message length (which the
    /// result reveals anyway). `em` is secret: no branch or index depends on it until the
    /// single validity check at the end.
    pub fn unpad(&self, em: &[u8]) -> Result<Vec<u8>> {
        let k = em.len();
        if k < 11 {
            return Err(Error::Decryption);
        }
        // Step 3: EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M.
        let mut good = byte_eq(em[0], 0x00) & byte_eq(em[1], 0x02);
        // Find the first zero byte after the 0x02, scanning all of them.
        let mut looking = Choice::from(1);
        let mut zero_index = 0u32;
        for (i, &b) in em.iter().enumerate().skip(2) {
            let is_zero = byte_eq(b, 0x00);
            zero_index.conditional_assign(&(i as u32), looking & is_zero);
            looking &= !is_zero;
        }
        // There must be a separator, and PS must be at least 8 bytes: index ≥ 2 + 8.
        good &= !looking;
        good &= !zero_index.ct_lt(&10);
        // M starts right after the separator; move it to the front without indexing by it.
        // (wrapping_add: no overflow-check branch on the secret index in debug builds)
        let start = zero_index.wrapping_add(1);
        let mut buf = Zeroizing::new(em.to_vec());
        shift_left(&mut buf, start);
        // The only branch on secret data, once everything is computed.
        // Declassified for the secret-taint test (`crate::valgrind`): the verdict is what the
        // caller receives, and on success the message length (hence `start`) is public.
        if !crate::valgrind::declassify_choice(good) {
            return Err(Error::Decryption);
        }
        let start = crate::valgrind::declassify(start);
        let msg_len = k - start as usize;
        Ok(buf[..msg_len].to_vec())
    }
}

/// Fills `out` with random non-zero bytes: draw, then redraw the zero bytes until none is
/// left. The number of redraws depends on the random bytes only (never on a secret).
pub(crate) fn non_zero_random(rng: &mut dyn CryptoRngCore, out: &mut [u8]) -> Result<()> {
    rng.try_fill_bytes(out).map_err(|_| Error::Rng)?;
    let mut one = [0u8; 1];
    for b in out.iter_mut() {
        // A working generator returns 0 with probability 1/256; give up after many in a row
        // rather than loop forever on a broken one.
        let mut tries = 0;
        while *b == 0 {
            tries += 1;
            if tries > 64 {
                return Err(Error::Rng);
            }
            rng.try_fill_bytes(&mut one).map_err(|_| Error::Rng)?;
            *b = one[0];
        }
    }
    Ok(())
}

impl PaddingScheme for Pkcs1v15Encrypt {
    fn encrypt(
        self,
        rng: &mut dyn CryptoRngCore,
        key: &RsaPublicKey,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        // §7.2.1 steps 1–2: EM; step 3: c = RSAEP(m) as k bytes. EM < 256^(k−1) ≤ n.
        let em = Zeroizing::new(self.pad(rng, msg, key.size())?);
        key.raw_public(&em)
    }

    fn decrypt(
        self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        // §7.2.2 step 1: the ciphertext has exactly k bytes (and k ≥ 11).
        if ciphertext.len() != key.size() || key.size() < 11 {
            return Err(Error::Decryption);
        }
        // Step 2: m = RSADP(K, c) as k bytes; c ≥ n is a (public) decryption error.
        let em = key.raw_private(rng, ciphertext).map_err(decryption_error)?;
        // Step 3: EME-PKCS1-v1_5 decoding.
        self.unpad(&em)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_rng::counting;

    #[test]
    fn pad_unpad() {
        let mut rng = counting(250);
        for k in [11usize, 12, 64, 256] {
            for len in 0..=k - 11 {
                let msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
                let em = Pkcs1v15Encrypt.pad(&mut rng, &msg, k).unwrap();
                assert_eq!(em.len(), k);
                assert!(em[2..k - len - 1].iter().all(|&b| b != 0));
                assert_eq!(Pkcs1v15Encrypt.unpad(&em).unwrap(), msg);
            }
            assert_eq!(
                Pkcs1v15Encrypt.pad(&mut rng, &alloc::vec![0; k - 10], k),
                Err(Error::MessageTooLong {
                    len: k - 10,
                    max: k - 11
                })
            );
        }
    }

    #[test]
    fn unpad_rejects() {
        let mut rng = counting(1);
        let em = Pkcs1v15Encrypt.pad(&mut rng, b"hello", 64).unwrap();
        let mut bad = em.clone();
        bad[0] = 1;
        assert_eq!(Pkcs1v15Encrypt.unpad(&bad), Err(Error::Decryption));
        let mut bad = em.clone();
        bad[1] = 1;
        assert_eq!(Pkcs1v15Encrypt.unpad(&bad), Err(Error::Decryption));
        // No separator.
        let mut bad = em.clone();
        bad[64 - 6] = 7;
        assert_eq!(Pkcs1v15Encrypt.unpad(&bad), Err(Error::Decryption));
        // Separator too early (PS of 7 bytes).
        let mut bad = em.clone();
        bad[9] = 0;
        assert_eq!(Pkcs1v15Encrypt.unpad(&bad), Err(Error::Decryption));
        // PS of exactly 8 bytes is fine.
        let mut ok = em;
        ok[10] = 0;
        assert_eq!(Pkcs1v15Encrypt.unpad(&ok).unwrap().len(), 64 - 11);
    }
}

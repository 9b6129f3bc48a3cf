//! MGF1, the mask generation function of RFC 8017 Appendix B.2.1, used by OAEP and PSS.
//!
//! `MGF1(seed, maskLen) = T`, the first `maskLen` bytes of
//! `Hash(seed ‖ I2OSP(0, 4)) ‖ Hash(seed ‖ I2OSP(1, 4)) ‖ …`. The loop count depends only on
//! `maskLen` and `hLen` (public), never on the seed, so MGF1 is constant time in the seed as
//! long as the hash is.

use alloc::vec::Vec;
use zeroize::Zeroize;

use super::hash::{HashAlg, HashFn};

/// `out ^= MGF1(seed, out.len())` with the hash `hash` (RFC 8017 B.2.1).
///
/// Masking in place is how both OAEP and PSS use the mask (`maskedDB = DB ⊕ dbMask`), and it
/// never materialises the mask on its own. `maskLen` is at most `2³² · hLen` by construction
/// here (RSA moduli are far shorter), so step 1's "mask too long" error cannot occur.
pub fn mgf1_xor(hash: HashAlg, seed: &[u8], out: &mut [u8]) {
    mgf1_xor_with(&hash.hash_fn(), seed, out)
}

/// `MGF1(seed, mask_len)` with the hash `hash` (RFC 8017 B.2.1), as a new vector.
pub fn mgf1(hash: HashAlg, seed: &[u8], mask_len: usize) -> Vec<u8> {
    let mut out = alloc::vec![0u8; mask_len];
    mgf1_xor(hash, seed, &mut out);
    out
}

/// [`mgf1_xor`] for any hash value.
pub(crate) fn mgf1_xor_with(hash: &HashFn, seed: &[u8], out: &mut [u8]) {
    let h_len = hash.size();
    // Large enough for every hash we can name (SHA-512 is 64 bytes); larger ones go to the heap.
    let mut stack = [0u8; 64];
    let mut heap = Vec::new();
    let block: &mut [u8] = if h_len <= stack.len() {
        &mut stack[..h_len]
    } else {
        heap.resize(h_len, 0);
        &mut heap
    };
    // Step 3: for counter = 0 .. ⌈maskLen / hLen⌉ − 1, T ‖= Hash(mgfSeed ‖ C), C = I2OSP(counter, 4).
    for (counter, chunk) in out.chunks_mut(h_len).enumerate() {
        let c = (counter as u32).to_be_bytes();
        hash.digest_parts(&[seed, &c], block);
        // Step 4: keep the leading maskLen bytes (the last chunk may be short).
        for (o, m) in chunk.iter_mut().zip(block.iter()) {
            *o ^= m;
        }
    }
    block.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mgf1_definition() {
        // Recompute from the definition with explicit concatenation.
        let seed = b"seed bytes";
        for h in HashAlg::ALL {
            let len = 3 * h.output_size() + 5;
            let mut t = Vec::new();
            for c in 0u32..4 {
                let mut m = seed.to_vec();
                m.extend_from_slice(&c.to_be_bytes());
                t.extend_from_slice(&h.digest(&m));
            }
            t.truncate(len);
            assert_eq!(mgf1(h, seed, len), t, "{h}");
            assert!(mgf1(h, seed, 0).is_empty());
        }
    }

    #[test]
    fn mgf1_sha1_known_answer() {
        // MGF1-SHA1("foo", 3) = 1a c9 07 (a widely published test value).
        assert_eq!(mgf1(HashAlg::Sha1, b"foo", 3), [0x1a, 0xc9, 0x07]);
        assert_eq!(
            mgf1(HashAlg::Sha1, b"bar", 5),
            [0xbc, 0x0c, 0x65, 0x5e, 0x01]
        );
    }
}

//! Constant-time byte helpers for the decryption unpaddings (OAEP, PKCS#1 v1.5).
//!
//! A decrypted encoded message is secret until its padding is known to be valid, and even then
//! *why* an invalid one failed is secret (Bleichenbacher 1998, Manger 2001). So the unpaddings
//! scan every byte, accumulate validity in a [`Choice`], record positions with masked
//! assignments, and move the message to the front of the buffer with [`shift_left`], whose
//! memory accesses depend only on the (public) buffer length. They branch exactly once, on
//! the final validity bit.

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

/// `buf ← buf shifted left by shift bytes` (zeros enter on the right), in time and memory
/// access pattern that depend only on `buf.len()`, never on `shift`.
///
/// The shift is decomposed into its binary digits: pass `j` shifts by `2^j` positions when
/// bit `j` of `shift` is set, and rewrites every byte with a masked select either way. That
/// is `⌈log₂(len+1)⌉` passes of `len` bytes. `shift` MAY be anything up to `buf.len()`
/// (which clears the buffer); larger values shift by `shift mod 2^passes`, which callers never
/// need.
pub(crate) fn shift_left(buf: &mut [u8], shift: u32) {
    let len = buf.len();
    let mut step = 1usize;
    let mut bit = 0u32;
    while step <= len {
        let take = Choice::from(((shift >> bit) & 1) as u8);
        // Ascending i reads buf[i + step] before this pass overwrites it.
        for i in 0..len {
            let src = if i + step < len { buf[i + step] } else { 0 };
            buf[i] = u8::conditional_select(&buf[i], &src, take);
        }
        step <<= 1;
        bit += 1;
    }
}

/// `Choice` of `a == b` for bytes.
#[inline]
pub(crate) fn byte_eq(a: u8, b: u8) -> Choice {
    a.ct_eq(&b)
}

/// `Choice` of `a == b` for byte strings: the XOR differences of every byte are OR-ed together
/// and turned into a `Choice` once (subtle's slice `ct_eq` launders every byte through its
/// barrier, which costs more than the rest of a 1024-bit verification's encoding check).
/// Strings of different (public) lengths are unequal.
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> Choice {
    if a.len() != b.len() {
        return Choice::from(0);
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    crate::ct::choice_from_mask(crate::ct::is_zero_mask(diff as u64))
}

#[cfg(test)]
mod tests {
    #[test]
    fn bytes_eq_matches_eq() {
        let a = [1u8, 2, 3, 4];
        assert!(bool::from(bytes_eq(&a, &a)));
        assert!(bool::from(bytes_eq(&[], &[])));
        assert!(!bool::from(bytes_eq(&a, &a[..3])));
        for i in 0..4 {
            for bit in 0..8 {
                let mut b = a;
                b[i] ^= 1 << bit;
                assert!(!bool::from(bytes_eq(&a, &b)));
            }
        }
    }

    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn shift_matches_naive() {
        for len in 0..40usize {
            let buf: Vec<u8> = (1..=len as u8).collect();
            for shift in 0..=len {
                let mut got = buf.clone();
                shift_left(&mut got, shift as u32);
                let mut want = buf[shift..].to_vec();
                want.resize(len, 0);
                assert_eq!(got, want, "len {len} shift {shift}");
            }
        }
    }
}

//! Fixed-length natural numbers as little-endian limb slices.
//!
//! A number's *announced length* (its slice length) is public; its value is not. Functions here
//! never strip leading zero limbs of their inputs and never branch on limb values, except those
//! whose names end in `_vartime`, which MUST only see public data.
//!
//! Nothing here knows a modulus: the Montgomery layer above hands in `n` explicitly.

use alloc::vec;
use alloc::vec::Vec;

use crate::ct::{self, Choice};

pub(crate) mod arith;
use crate::word::Word;

/// Number of `W` limbs needed for `bits` bits.
pub const fn limbs_for_bits(bits: usize, word_bits: u32) -> usize {
    bits.div_ceil(word_bits as usize)
}

/// Reads the big-endian `bytes` into `out` (little-endian limbs, zero-extended).
///
/// Returns false, leaving `out` unspecified, if the value does not fit in `out.len()` limbs.
/// Leaks only the lengths; leading zero bytes are accepted.
pub fn from_be_bytes<W: Word>(out: &mut [W], bytes: &[u8]) -> bool {
    let wb = (W::BITS / 8) as usize;
    out.fill(W::ZERO);
    let mut overflow = 0u64;
    // Limb i is the i-th group of `wb` bytes from the end (the first group may be shorter).
    for (i, group) in bytes.rchunks(wb).enumerate() {
        let v = match <[u8; 8]>::try_from(group) {
            Ok(whole) => u64::from_be_bytes(whole),
            Err(_) => group.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b)),
        };
        match out.get_mut(i) {
            Some(limb) => *limb = W::from_u64(v),
            None => overflow |= v,
        }
    }
    overflow == 0
}

/// A freshly allocated limb vector of `len` limbs holding the big-endian `bytes`, or `None` if
/// they do not fit.
pub fn from_be_bytes_vec<W: Word>(bytes: &[u8], len: usize) -> Option<Vec<W>> {
    let mut v = vec![W::ZERO; len];
    if from_be_bytes(&mut v, bytes) {
        Some(v)
    } else {
        None
    }
}

/// Writes `x` big-endian into all of `out`, truncating high limbs or zero-padding as needed.
/// Returns false if a non-zero part of `x` did not fit (constant time in the value).
pub fn to_be_bytes<W: Word>(x: &[W], out: &mut [u8]) -> bool {
    let wb = (W::BITS / 8) as usize;
    out.fill(0);
    let mut lost = 0u64;
    // Limb i goes to the i-th group of `wb` bytes from the end; the groups past the start of
    // `out` (and the part of a group that straddles it) are only checked for being zero.
    let mut groups = out.rchunks_mut(wb);
    for &limb in x {
        let v = limb.to_u64();
        let be = v.to_be_bytes();
        let be = &be[8 - wb..];
        match groups.next() {
            Some(group) if group.len() == wb => group.copy_from_slice(be),
            Some(group) => {
                let (dropped, kept) = be.split_at(wb - group.len());
                group.copy_from_slice(kept);
                lost |= dropped.iter().fold(0u64, |a, &b| a | u64::from(b));
            }
            None => lost |= v,
        }
    }
    lost == 0
}

/// `a += b` over `a.len()` limbs (`b` zero-extended, `b.len() <= a.len()`); returns the carry.
pub fn add_assign<W: Word>(a: &mut [W], b: &[W]) -> W {
    debug_assert!(b.len() <= a.len());
    let mut c = W::ZERO;
    for i in 0..a.len() {
        let bi = if i < b.len() { b[i] } else { W::ZERO };
        (a[i], c) = W::adc(a[i], bi, c);
    }
    c
}

/// `a −= b` over `a.len()` limbs (`b` zero-extended, `b.len() <= a.len()`); returns the borrow.
pub fn sub_assign<W: Word>(a: &mut [W], b: &[W]) -> W {
    debug_assert!(b.len() <= a.len());
    let mut c = W::ZERO;
    for i in 0..a.len() {
        let bi = if i < b.len() { b[i] } else { W::ZERO };
        (a[i], c) = W::sbb(a[i], bi, c);
    }
    c
}

/// `out = a − b` (equal lengths); returns the borrow.
pub fn sub<W: Word>(out: &mut [W], a: &[W], b: &[W]) -> W {
    debug_assert!(out.len() == a.len() && a.len() == b.len());
    let mut c = W::ZERO;
    for i in 0..a.len() {
        (out[i], c) = W::sbb(a[i], b[i], c);
    }
    c
}

/// The final step every Montgomery variant shares: `u` (`s+1` limbs, `u < 2n`) becomes
/// `out = u − n` when that does not borrow, else `out = u`, chosen with a mask.
///
/// The subtraction is always computed and the choice is a masked select, so neither a branch
/// nor an address depends on `u`. `out` and `n` have `s` limbs. Never inlined, for the reason
/// given at [`ct::assign_masked`]: no run-time overlap test of `out` and `u` in its loops.
#[inline(never)]
pub fn final_sub<W: Word>(out: &mut [W], u: &[W], n: &[W]) {
    let s = n.len();
    debug_assert!(out.len() == s && u.len() == s + 1);
    let borrow = sub(out, &u[..s], n);
    // The full (s+1)-limb difference borrows iff the top limb cannot absorb `borrow`.
    let (_, borrow) = W::sbb(u[s], W::ZERO, borrow);
    let keep_u = ct::mask_from_bit(borrow);
    for i in 0..s {
        out[i] = ct::select_word(keep_u, u[i], out[i]);
    }
}

/// `a = a − n` if `a ≥ n`, else unchanged; `a` and `n` equal length, `a < 2n` with `extra`
/// as the limb above `a` (0 or 1). Constant time.
pub fn reduce_once<W: Word>(a: &mut [W], extra: W, n: &[W], tmp: &mut [W]) {
    let borrow = sub(tmp, a, n);
    let (_, borrow) = W::sbb(extra, W::ZERO, borrow);
    let take = ct::mask_from_bit(borrow).not();
    ct::assign_masked(take, a, tmp);
}

/// `Choice` of `a < b` (equal lengths), constant time.
pub fn ct_lt<W: Word>(a: &[W], b: &[W]) -> Choice {
    debug_assert_eq!(a.len(), b.len());
    let mut c = W::ZERO;
    for i in 0..a.len() {
        (_, c) = W::sbb(a[i], b[i], c);
    }
    Choice::from((c.to_u64() & 1) as u8)
}

/// `Choice` of `a == b` (equal lengths), constant time.
pub fn ct_eq<W: Word>(a: &[W], b: &[W]) -> Choice {
    debug_assert_eq!(a.len(), b.len());
    let mut acc = W::ZERO;
    for i in 0..a.len() {
        acc = acc.or(a[i].xor(b[i]));
    }
    ct::choice_from_mask(ct::is_zero_mask(acc))
}

/// `Choice` of `a == 0`, constant time.
pub fn ct_is_zero<W: Word>(a: &[W]) -> Choice {
    let mut acc = W::ZERO;
    for &x in a {
        acc = acc.or(x);
    }
    ct::choice_from_mask(ct::is_zero_mask(acc))
}

/// `out = a·b`, schoolbook; `out.len() == a.len() + b.len()`.
pub fn mul<W: Word>(out: &mut [W], a: &[W], b: &[W]) {
    debug_assert_eq!(out.len(), a.len() + b.len());
    out.fill(W::ZERO);
    for (i, &bi) in b.iter().enumerate() {
        let mut c = W::ZERO;
        for (j, &aj) in a.iter().enumerate() {
            (out[i + j], c) = W::mac(out[i + j], aj, bi, c);
        }
        out[i + a.len()] = c;
    }
}

/// `a = 2a + bit` in place; returns the bit shifted out of the top. `bit` MUST be 0 or 1.
pub fn shl1_in<W: Word>(a: &mut [W], bit: W) -> W {
    let mut carry = bit;
    for x in a.iter_mut() {
        let out = x.shr(W::BITS - 1);
        *x = x.shl(1).or(carry);
        carry = out;
    }
    carry
}

/// `(q, r)` with `x = q·m + r`, `0 ≤ r < m`: restoring division one bit at a time.
///
/// Constant time in the values of `x` and `m` (the loop runs over every bit of `x`'s announced
/// length and every step is a masked subtraction), so it may see secrets. `m` MUST be non-zero
/// and `r` has `m.len()` limbs. Cost `O(bits(x) · len(m))`: for set-up, not for hot paths.
pub fn div_rem<W: Word>(x: &[W], m: &[W]) -> (Vec<W>, Vec<W>) {
    let s = m.len();
    let mut r = vec![W::ZERO; s];
    let mut tmp = vec![W::ZERO; s];
    let mut q = vec![W::ZERO; x.len()];
    for i in (0..x.len()).rev() {
        for k in (0..W::BITS).rev() {
            let bit = x[i].shr(k).and(W::ONE);
            let top = shl1_in(&mut r, bit);
            // r < 2m here (with `top` as its limb s); subtract m if r ≥ m.
            let borrow = sub(&mut tmp, &r, m);
            let (_, borrow) = W::sbb(top, W::ZERO, borrow);
            let take = ct::mask_from_bit(borrow).not();
            ct::assign_masked(take, &mut r, &tmp);
            q[i] = q[i].or(take.and(W::ONE).shl(k));
        }
    }
    (q, r)
}

/// `x mod m` (see [`div_rem`]); constant time in the values.
pub fn rem<W: Word>(x: &[W], m: &[W]) -> Vec<W> {
    div_rem(x, m).1
}

/// Number of significant bits of `x` (0 for zero). Leaks the value's length: public data only.
pub fn bit_len_vartime<W: Word>(x: &[W]) -> usize {
    for i in (0..x.len()).rev() {
        if x[i] != W::ZERO {
            return i * W::BITS as usize + (W::BITS - x[i].leading_zeros()) as usize;
        }
    }
    0
}

/// Compares `a` and `b` of possibly different lengths; public data only.
pub fn cmp_vartime<W: Word>(a: &[W], b: &[W]) -> core::cmp::Ordering {
    let n = a.len().max(b.len());
    for i in (0..n).rev() {
        let x = a.get(i).copied().unwrap_or(W::ZERO);
        let y = b.get(i).copied().unwrap_or(W::ZERO);
        if x != y {
            return x.cmp(&y);
        }
    }
    core::cmp::Ordering::Equal
}

/// `x` with its leading zero limbs removed (at least one limb kept); public data only.
pub fn trim_vartime<W: Word>(x: &[W]) -> &[W] {
    let mut len = x.len();
    while len > 1 && x[len - 1] == W::ZERO {
        len -= 1;
    }
    &x[..len.max(1).min(x.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        let mut v = [0u32; 3];
        assert!(from_be_bytes(&mut v, &[1, 2, 3, 4, 5, 6, 7]));
        assert_eq!(v, [0x04050607, 0x010203, 0]);
        let mut out = [0u8; 9];
        assert!(to_be_bytes(&v, &mut out));
        assert_eq!(out, [0, 0, 1, 2, 3, 4, 5, 6, 7]);
        let mut short = [0u8; 2];
        assert!(!to_be_bytes(&v, &mut short));
        let mut one = [0u64; 1];
        assert!(!from_be_bytes(&mut one, &[1, 0, 0, 0, 0, 0, 0, 0, 0]));
        assert!(from_be_bytes(&mut one, &[0, 0xff, 0, 0, 0, 0, 0, 0, 1]));
        assert_eq!(one, [0xff00_0000_0000_0001]);
    }

    /// Byte-at-a-time references for the two conversions.
    fn from_ref(bytes: &[u8], limbs: usize, wb: usize) -> (Vec<u64>, bool) {
        let mut out = vec![0u64; limbs];
        let mut ok = true;
        for (i, &b) in bytes.iter().rev().enumerate() {
            match out.get_mut(i / wb) {
                Some(l) => *l |= u64::from(b) << (8 * (i % wb)),
                None => ok &= b == 0,
            }
        }
        (out, ok)
    }

    #[test]
    fn conversions_match_bytewise_references_for_every_length() {
        let bytes: Vec<u8> = (0..40u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(1))
            .collect();
        for len in 0..=bytes.len() {
            for limbs in 0..=6 {
                for zeros in [0usize, 3, 9] {
                    // Leading zero bytes: an input longer than the limbs may still fit.
                    let mut input = vec![0u8; zeros];
                    input.extend_from_slice(&bytes[..len]);
                    let (want, want_ok) = from_ref(&input, limbs, 8);
                    let mut got = vec![0u64; limbs];
                    assert_eq!(
                        from_be_bytes(&mut got, &input),
                        want_ok,
                        "{len} {limbs} {zeros}"
                    );
                    assert_eq!(got, want, "u64 {len} {limbs} {zeros}");
                    let (want32, ok32) = from_ref(&input, limbs, 4);
                    let mut got32 = vec![0u32; limbs];
                    assert_eq!(from_be_bytes(&mut got32, &input), ok32);
                    let got32: Vec<u64> = got32.iter().map(|&l| u64::from(l)).collect();
                    assert_eq!(got32, want32, "u32 {len} {limbs} {zeros}");

                    // Back to bytes at every output length: the low bytes, and whether the
                    // rest was zero.
                    let full: Vec<u8> = want.iter().rev().flat_map(|l| l.to_be_bytes()).collect();
                    for out_len in 0..=full.len() + 3 {
                        let mut out = vec![0xaau8; out_len];
                        let fits = full.len() <= out_len
                            || full[..full.len() - out_len].iter().all(|&b| b == 0);
                        assert_eq!(
                            to_be_bytes(&want, &mut out),
                            fits,
                            "{len} {limbs} {out_len}"
                        );
                        let mut expect = vec![0u8; out_len.saturating_sub(full.len())];
                        expect.extend_from_slice(&full[full.len().saturating_sub(out_len)..]);
                        assert_eq!(out, expect, "to_be {len} {limbs} {out_len}");
                        let w32: Vec<u32> = want
                            .iter()
                            .flat_map(|&l| [l as u32, (l >> 32) as u32])
                            .collect();
                        let mut out32 = vec![0x55u8; out_len];
                        assert_eq!(to_be_bytes(&w32, &mut out32), fits);
                        assert_eq!(out32, expect, "to_be u32 {len} {limbs} {out_len}");
                    }
                }
            }
        }
    }

    #[test]
    fn division() {
        let (q, r) = div_rem(&[7u64, 5], &[3u64]);
        // (5·2^64 + 7) = q·3 + r
        let x = (5u128 << 64) + 7;
        assert_eq!(q[0] as u128 + ((q[1] as u128) << 64), x / 3);
        assert_eq!(r[0] as u128, x % 3);
        let (q, r) = div_rem(&[0u32, 0, 1], &[0xffff_ffff, 0xffff_ffff]);
        assert_eq!(q, [1, 0, 0]);
        assert_eq!(r, [1, 0]);
    }

    #[test]
    fn final_subtraction() {
        let n = [5u32, 0];
        let mut out = [0u32; 2];
        final_sub(&mut out, &[7, 0, 0], &n);
        assert_eq!(out, [2, 0]);
        final_sub(&mut out, &[4, 0, 0], &n);
        assert_eq!(out, [4, 0]);
        final_sub(&mut out, &[1, 0, 1], &[0, 0x8000_0000]);
        assert_eq!(out, [1, 0x8000_0000]);
        assert!(bool::from(ct_lt(&[1u64, 2], &[2, 2])));
        assert!(!bool::from(ct_lt(&[2u64, 2], &[2, 2])));
        assert!(bool::from(ct_eq(&[2u64, 2], &[2, 2])));
        assert!(bool::from(ct_is_zero(&[0u64, 0])));
        assert_eq!(bit_len_vartime(&[0u32, 1, 0]), 33);
    }
}

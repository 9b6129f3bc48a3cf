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
    let mut overflow = 0u8;
    for (i, &byte) in bytes.iter().rev().enumerate() {
        let limb = i / wb;
        if limb < out.len() {
            out[limb] = out[limb].or(W::from_u64(byte as u64).shl(8 * (i % wb) as u32));
        } else {
            overflow |= byte;
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
    let len = out.len();
    out.fill(0);
    let mut lost = 0u64;
    for (i, &limb) in x.iter().enumerate() {
        for k in 0..wb {
            let byte = (limb.shr(8 * k as u32).to_u64() & 0xff) as u8;
            let pos = i * wb + k;
            if pos < len {
                out[len - 1 - pos] = byte;
            } else {
                lost |= byte as u64;
            }
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

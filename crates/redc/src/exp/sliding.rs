//! Sliding-window exponentiation (paper 002 uses a 5-bit window): a table of the odd powers
//! `M^1, M^3, .., M^(2^k − 1)`; runs of zero bits cost one squaring each, and every window starts
//! and ends on a 1 bit, so it needs one multiplication per window and half the table of m-ary.
//! Variable time: only for public exponents.

use alloc::vec;

use zeroize::Zeroize;

use crate::mont::{Kernel, Modulus};
use crate::word::Word;

/// `out = base^exp mod n` by the sliding-window method with windows of at most `window` bits,
/// `window` in 1..=8 (1 is the binary method).
///
/// `base < n` in normal form (`s` limbs), `exp` big-endian bytes (any length; empty or zero gives
/// 1), `out` has `s` limbs and receives the normal-form result.
///
/// Paper 002: precompute `T[j] = M̄^(2j+1)` for `0 ≤ j < 2^(window−1)` (from `M̄²`). Scan the
/// exponent from the top: at a 0 bit square once; at a 1 bit take the longest window of at
/// most `window` bits that ends on a 1 bit, square once per window bit, then multiply by
/// `T[(value − 1)/2]`. The first window initialises the accumulator instead of squaring one.
///
/// Leaks the exponent (its length, the window positions and values, the table addresses read);
/// the base only flows through the constant-time kernels. The table is zeroized.
///
/// # Panics
/// If `window` is not in 1..=8 ([`Method::from_name`](super::Method::from_name) never makes one).
pub fn pow_vartime<W: Word>(
    out: &mut [W],
    base: &[W],
    exp: &[u8],
    m: &Modulus<W>,
    k: &Kernel<W>,
    window: u32,
) {
    assert!((1..=8).contains(&window), "window must be in 1..=8");
    let s = m.limbs();
    let n = m.n();
    let n0 = m.n0();
    let bits = super::exp_bit_len_vartime(exp);
    let mut scratch = m.scratch();
    if bits == 0 {
        m.from_mont(out, m.one(), k, &mut scratch);
        return;
    }
    let w = window as usize;
    let entries = 1usize << (w - 1);
    // T[0] = M̄, sq = M̄², T[j] = T[j−1]·sq.
    let mut table = vec![W::ZERO; entries * s];
    m.to_mont(&mut table[..s], base, k, &mut scratch);
    let mut sq = vec![W::ZERO; s];
    if entries > 1 {
        (k.sqr)(&mut sq, &table[..s], n, n0, &mut scratch);
    }
    for j in 1..entries {
        let (done, rest) = table.split_at_mut(j * s);
        (k.mul)(
            &mut rest[..s],
            &done[(j - 1) * s..],
            &sq,
            n,
            n0,
            &mut scratch,
        );
    }

    let mut acc = vec![W::ZERO; s];
    let mut tmp = vec![W::ZERO; s];
    let mut started = false;
    // `i + 1` bits remain to be consumed: bits i, i−1, .., 0.
    let mut i = bits;
    while i > 0 {
        let top = i - 1;
        if super::exp_bit(exp, top) == 0 {
            // Only reached after the first window (the top bit is 1).
            (k.sqr)(&mut tmp, &acc, n, n0, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
            i -= 1;
            continue;
        }
        // The window is bits [low, top]: at most `w` bits, `low` the lowest 1 bit in reach.
        let mut low = top + 1 - w.min(top + 1);
        while super::exp_bit(exp, low) == 0 {
            low += 1;
        }
        let len = top - low + 1;
        let value = super::exp_bits(exp, low, len as u32) as usize;
        let entry = &table[(value >> 1) * s..((value >> 1) + 1) * s];
        if started {
            for _ in 0..len {
                (k.sqr)(&mut tmp, &acc, n, n0, &mut scratch);
                core::mem::swap(&mut acc, &mut tmp);
            }
            (k.mul)(&mut tmp, &acc, entry, n, n0, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
        } else {
            acc.copy_from_slice(entry);
            started = true;
        }
        i = low;
    }
    m.from_mont(out, &acc, k, &mut scratch);
    table.zeroize();
    sq.zeroize();
    acc.zeroize();
    tmp.zeroize();
    scratch.zeroize();
}

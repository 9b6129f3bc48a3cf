//! Fixed-window exponentiation in constant time: the method for secret exponents.
//!
//! Like m-ary, but (1) it always multiplies, digit 0 included (table entry 0 is `R mod n`, the
//! Montgomery one), (2) it always runs over the full announced length of the exponent, and
//! (3) it reads each table entry with a masked scan over every entry. So the sequence of
//! kernel calls and every memory address are functions of the public lengths alone; the
//! exponent's value only ever flows into masks.

use alloc::vec;

use zeroize::Zeroize;

use crate::ct;
use crate::mont::{Kernel, Modulus};
use crate::word::Word;

/// The window minimising the cost of a `bits`-bit exponent whose modulus has about as many
/// bits (RSA's case), counted in Montgomery multiplications: the `bits` squarings are the same
/// for every window; what varies is `2^k − 2` table multiplications, plus, per window of `k`
/// bits, one multiplication and one masked scan of all `2^k` entries.
///
/// A scan reads `2^k·s` limbs while a multiplication does about `2·s²` word products at some
/// 2.5 cycles per limb of scan-equivalent work, so one scan costs about `2^k / (2.5·s)`
/// multiplications with `s = bits/64` (BoringSSL's `BN_window_bits_for_ctime_exponent_size`
/// makes the same trade with fixed thresholds). For 1024-bit exponents this gives 4, for
/// 2048-bit ones 5.
pub fn window_for_bits(bits: usize) -> u32 {
    let s = bits.div_ceil(64).max(1) as f64;
    let cost = |k: u32| {
        let entries = (1u64 << k) as f64;
        let windows = bits.div_ceil(k as usize) as f64;
        entries - 2.0 + windows * (1.0 + entries / (2.5 * s))
    };
    (1..=7)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .unwrap_or(4)
}

/// `dst = table[index]`, reading every entry (`entries` of `s` limbs each) with a mask, so the
/// address pattern does not depend on the secret `index`.
///
/// The masks are made once; then each block of [`SELECT_BLOCK`] limbs of `dst` is OR-ed
/// together from the masked blocks of every entry in registers (the compiler vectorises the
/// block), so `dst` is written once instead of once per entry.
pub fn select_entry<W: Word>(dst: &mut [W], table: &[W], index: u32) {
    let s = dst.len();
    if s == 0 {
        return;
    }
    let entries = table.len() / s;
    // Up to 64 entries (windows up to 6, all the RSA sizes use) the masks live on the stack.
    let mut small = [W::ZERO; 64];
    let mut large = alloc::vec::Vec::new();
    let masks: &mut [W] = if entries <= small.len() {
        &mut small[..entries]
    } else {
        large.resize(entries, W::ZERO);
        &mut large
    };
    for (i, m) in masks.iter_mut().enumerate() {
        *m = ct::eq_mask(W::from_u64(i as u64), W::from_u64(index as u64));
    }
    let masks: &[W] = masks;
    let mut j = 0;
    while j + SELECT_BLOCK <= s {
        let mut acc = [W::ZERO; SELECT_BLOCK];
        for (entry, &m) in table.chunks_exact(s).zip(masks) {
            for (a, &e) in acc.iter_mut().zip(&entry[j..j + SELECT_BLOCK]) {
                *a = a.or(m.and(e));
            }
        }
        dst[j..j + SELECT_BLOCK].copy_from_slice(&acc);
        j += SELECT_BLOCK;
    }
    for (jj, d) in dst.iter_mut().enumerate().skip(j) {
        let mut a = W::ZERO;
        for (entry, &m) in table.chunks_exact(s).zip(masks) {
            a = a.or(m.and(entry[jj]));
        }
        *d = a;
    }
}

/// Limbs of the destination [`select_entry`] gathers at once (kept in registers).
const SELECT_BLOCK: usize = 8;

/// `out = base^exp mod n` in constant time with a `window`-bit fixed window (1..=8).
///
/// `base < n` (`s` limbs), `exp` big-endian of public length; leaks only `s`, `exp.len()` and
/// `window`. All secret buffers are zeroized before returning.
pub fn pow<W: Word>(
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
    let entries = 1usize << window;
    let mut scratch = m.scratch();
    let mut table = super::power_table(base, entries, m, k, &mut scratch);

    let total = exp.len() * 8;
    let digits = total.div_ceil(window as usize);
    let mut acc = vec![W::ZERO; s];
    let mut tmp = vec![W::ZERO; s];
    let mut sel = vec![W::ZERO; s];
    if digits == 0 {
        acc.copy_from_slice(m.one());
    } else {
        let top = (digits - 1) * window as usize;
        select_entry(&mut acc, &table, super::exp_bits(exp, top, window));
        for d in (0..digits - 1).rev() {
            for _ in 0..window {
                (k.sqr)(&mut tmp, &acc, n, n0, &mut scratch);
                core::mem::swap(&mut acc, &mut tmp);
            }
            select_entry(
                &mut sel,
                &table,
                super::exp_bits(exp, d * window as usize, window),
            );
            (k.mul)(&mut tmp, &acc, &sel, n, n0, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    m.from_mont(out, &acc, k, &mut scratch);
    table.zeroize();
    acc.zeroize();
    tmp.zeroize();
    sel.zeroize();
    scratch.zeroize();
}

#[cfg(test)]
mod tests {
    #[test]
    fn window_grows_with_the_exponent() {
        use super::window_for_bits;
        assert_eq!(window_for_bits(1024), 4);
        assert_eq!(window_for_bits(2048), 5);
        assert!(window_for_bits(64) <= 3);
        assert!(window_for_bits(8192) >= 5);
        assert!((1..=7).contains(&window_for_bits(0)));
    }
}

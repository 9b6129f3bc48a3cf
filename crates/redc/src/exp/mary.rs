//! m-ary exponentiation with `m = 2^k` (paper 004 uses k = 4): a table of `M^0 .. M^(m−1)`, then
//! per `k`-bit digit of the exponent, `k` squarings and one multiplication when the digit is not
//! zero. Variable time: the skipped multiplications and the table index reveal the digits, so it
//! is only for public exponents.

use alloc::vec;

use zeroize::Zeroize;

use crate::mont::{Kernel, Modulus};
use crate::word::Word;

/// `out = base^exp mod n` by the m-ary method with `m = 2^window`, `window` in 1..=8.
///
/// `base < n` in normal form (`s` limbs), `exp` big-endian bytes (any length; empty or zero gives
/// 1), `out` has `s` limbs and receives the normal-form result.
///
/// Paper 004: precompute `T[i] = M̄^i` for `0 ≤ i < m` (`T[0] = R mod n`, `T[i] = T[i−1]·M̄`);
/// split the exponent into `window`-bit digits from the top; start from the top digit's entry,
/// then per lower digit square `window` times and multiply by `T[digit]` unless the digit is 0.
///
/// Leaks the exponent (its length and which digits are zero, and the table addresses read);
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
    let entries = 1usize << w;
    // T[0] = R mod n (one), T[1] = M̄ = M·R mod n, T[i] = T[i−1]·T[1].
    let mut table = super::power_table(base, entries, m, k, &mut scratch);
    let entry = |d: u32| &table[d as usize * s..(d as usize + 1) * s];

    // Digits aligned at multiples of `window` from bit 0; the top one holds bit `bits − 1`, so it
    // is not zero and the accumulator starts as its table entry (no squarings of one).
    let digits = bits.div_ceil(w);
    let mut acc = entry(super::exp_bits(exp, (digits - 1) * w, window)).to_vec();
    let mut tmp = vec![W::ZERO; s];
    for d in (0..digits - 1).rev() {
        for _ in 0..w {
            (k.sqr)(&mut tmp, &acc, n, n0, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
        let digit = super::exp_bits(exp, d * w, window);
        if digit != 0 {
            (k.mul)(&mut tmp, &acc, entry(digit), n, n0, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    m.from_mont(out, &acc, k, &mut scratch);
    table.zeroize();
    acc.zeroize();
    tmp.zeroize();
    scratch.zeroize();
}

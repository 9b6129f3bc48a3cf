//! Koç's squaring (paper 004, Fig. 2, after Koç et al.'s SOS): square fully, then reduce.
//!
//! The product pass is SOS-shaped but visits each off-diagonal product `a[i]·a[j]` (`j > i`)
//! once, doubling it as it is added. Row `i` first adds the diagonal square `a[i]²` at column
//! `2i`, then the doubled products at columns `i+j`. The paper's wide accumulator
//! `S_long = 2·C_j + C + t` holds the doubled high word `C_j` of the previous product, the
//! column carry `C` and the old column word; adding `2·S` (the doubled low word) gives the new
//! column word and carry (`dbl_col`).
//!
//! The reduction pass is SOS's: row `i` adds `m·n·W^i` with `m = t[i]·n' mod W`, and the
//! carry out of the row is propagated by the paper's `ADD` loop through the rest of `t`. That
//! loop runs to the top of `t` whatever the carry, so its length depends on `i` and `s` only.
//!
//! `t` has `2s + 1` words of the scratch (the contract allows `2s + 4`).

use crate::nat;
use crate::word::Word;

/// One column of a doubled row (paper 004, Fig. 2–5 inner loop):
/// returns `(S, C')` with `S + C'·W = t + c + 2·hi_prev + 2·lo`.
///
/// `hi_prev` is the high word of the previous product (it belongs to this column once
/// doubled) and `lo` the low word of this column's product. Carry bound: a product's high word
/// is at most `W − 2` (since `(W−1)² = (W−2)·W + 1`), so with `c ≤ 4` the sum is at most
/// `(W−1) + 4 + 2(W−2) + 2(W−1) = 5W − 3`, and `C' ≤ 4` again: the carry stays below 5 along
/// the whole row (after a first `c ≤ W − 1` it is at most 3, see the callers).
#[inline(always)]
pub(super) fn dbl_col<W: Word>(t: W, c: W, hi_prev: W, lo: W) -> (W, W) {
    let top = W::BITS - 1;
    // S_long = t + C + 2·C_j, as a word and a small high part.
    let (x, k0) = W::adc(t, c, W::ZERO);
    let (x, k1) = W::adc(x, hi_prev.shl(1), W::ZERO);
    let long_hi = k0.wrapping_add(k1).wrapping_add(hi_prev.shr(top));
    // (C, S) = S_long + 2·S.
    let (x, k2) = W::adc(x, lo.shl(1), W::ZERO);
    (x, long_hi.wrapping_add(k2).wrapping_add(lo.shr(top)))
}

/// `out = a·a·R⁻¹ mod n` by Koç's squaring (paper 004, Fig. 2).
///
/// Contract: [`crate::mont`]'s kernel contract (`a < n`, `n` odd, `s` limbs each, output fully
/// reduced, scratch of `2s + 4` limbs). Loop bounds depend on `s` only; no branch or address
/// depends on `a` or `n`.
pub fn mont_sqr<W: Word>(out: &mut [W], a: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && out.len() == s && scratch.len() > 2 * s);
    let t = &mut scratch[..2 * s + 1];
    t.fill(W::ZERO);

    // First outer loop: t = a², one row per a[i]. The partial sums never exceed a² < W^(2s),
    // so nothing is lost above t[2s].
    for i in 0..s {
        // Diagonal: (C, t[2i]) = a[i]² + t[2i]; C ≤ W − 1.
        let (lo, mut c) = W::mac(t[2 * i], a[i], a[i], W::ZERO);
        t[2 * i] = lo;
        // Off-diagonal, each product doubled as it is added; C_j is the pending high word.
        let mut cj = W::ZERO;
        for j in i + 1..s {
            let (plo, phi) = W::mul_wide(a[i], a[j]);
            (t[i + j], c) = dbl_col(t[i + j], c, cj, plo);
            cj = phi;
        }
        // {t[i+s+1], t[i+s]} = t[i+s] + C + 2·C_j: t[i+s+1] is still untouched (rows below
        // reach column i+s at most), and the sum is below 3W, so the new top word is ≤ 2.
        (t[i + s], t[i + s + 1]) = dbl_col(t[i + s], c, cj, W::ZERO);
    }

    // Second outer loop: SOS reduction, t = (a² + m·n) with the low s words cleared.
    for i in 0..s {
        let m = t[i].wrapping_mul(n0);
        let mut c = W::ZERO;
        for j in 0..s {
            (t[i + j], c) = W::mac(t[i + j], m, n[j], c);
        }
        // ADD(t[i+s..], C): the carry runs to the top of t unconditionally. The total stays
        // below a² + R·n < 2n·R < 2·W^(2s), so t[2s] ≤ 1 and nothing overflows.
        for x in t[i + s..].iter_mut() {
            (*x, c) = W::adc(*x, c, W::ZERO);
        }
    }

    // u = t / R < (n² + R·n) / R < 2n, in s + 1 words.
    nat::final_sub(out, &t[s..], n);
}

//! FIOS — Finely Integrated Operand Scanning, in Koç's form (Koç, Acar and Kaliski, IEEE Micro
//! 1996, as implemented in paper 003 §2, Table 2).
//!
//! Multiplication and reduction share *one* inner loop: step `j` of outer step `i` adds the
//! product word `a[j]·b[i]` and the reduction word `m·n[j]`, and writes the sum one word down
//! (`t[j−1]`), so `t` is shifted as it is built and needs only `s+2` words. The two parts hand
//! a single carry `C` to each other: the carry of the product part is not kept in a register
//! but pushed into `t[j+1..]` with the paper's `ADD` function, inside the inner loop. That
//! propagation is the weakness Itoh et al. later removed with a second carry chain (paper 002,
//! see [`super::itoh`]).
//!
//! Constant time: paper 003's `ADD` stops when no carry remains, which is a branch on a value.
//! Here every `ADD(t, k, C)` runs through `t[k..=s+1]` whatever the carry, so loop bounds depend
//! on `s` only; the cost is that FIOS does `Θ(s³)` word additions (`Θ(s²)` multiplications),
//! which is exactly the price of the propagating `ADD` when its worst case must always be paid.

use crate::nat;
use crate::word::Word;

/// `ADD(t, k, c)` of paper 003: `t[k..] += c`, the carry propagated to the last word of `t`
/// always (never stopping early, so the work depends only on `t.len() − k`). The caller
/// guarantees the true sum fits in `t`.
#[inline(always)]
fn add_propagate<W: Word>(t: &mut [W], k: usize, c: W) {
    let (lo, mut carry) = W::adc(t[k], c, W::ZERO);
    t[k] = lo;
    for x in t[k + 1..].iter_mut() {
        (*x, carry) = W::adc(*x, W::ZERO, carry);
    }
    // Debug builds only; declassified for the secret-taint test (the value is always 0).
    debug_assert!(crate::valgrind::declassify(carry) == W::ZERO);
}

/// `out = a·b·R⁻¹ mod n` by FIOS (Koç's form). Contract: [`crate::mont`]'s kernel contract.
///
/// Uses `s+2` limbs of `scratch`. Leaks only `s`.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && out.len() == s);
    let t = &mut scratch[..s + 2];
    t.fill(W::ZERO);

    // Invariant at the top of outer step i: t[0..=s] < 2n and t[s+1] = 0 (true at i = 0).
    // During step i the true value t + a·b[i] (+ the part of m·n added so far) is below
    // 2n + (W−1)·n + (W−1)·n = 2W·n < 2W·R, so it fits in s+2 words: every ADD below
    // (which adds part of that value) finishes inside t[s+1].
    // Outer step i works on the word b[i], called bi.
    for &bi in b {
        // (C,S) = t[0] + a[0]·b[i]; ADD(t, 1, C).
        let (s0, c) = W::mac(t[0], a[0], bi, W::ZERO);
        add_propagate(t, 1, c);
        // m = S·n' mod W, so that S + m·n[0] ≡ 0 (mod W); only its carry is kept.
        let m = s0.wrapping_mul(n0);
        let (_, mut c) = W::mac(s0, m, n[0], W::ZERO);
        for j in 1..s {
            // Product part: (C,S) = t[j] + a[j]·b[i] + C ≤ W² − 1, then ADD(t, j+1, C).
            let (sj, cp) = W::mac(t[j], a[j], bi, c);
            add_propagate(t, j + 1, cp);
            // Reduction part: (C,S) = S + m·n[j] ≤ (W−1) + (W−1)² < W²; t[j−1] = S.
            (t[j - 1], c) = W::mac(sj, m, n[j], W::ZERO);
        }
        // (C,S) = t[s] + C; t[s−1] = S; t[s] = t[s+1] + C; t[s+1] = 0.
        let (lo, hi) = W::adc(t[s], c, W::ZERO);
        t[s - 1] = lo;
        // The new t is (t + a·b[i] + m·n)/W < 2W·n/W = 2n < 2R, so t[s] ≤ 1: no overflow.
        t[s] = t[s + 1].wrapping_add(hi);
        t[s + 1] = W::ZERO;
    }

    // u = t[0..=s] < 2n: the final step.
    nat::final_sub(out, &t[..s + 1], n);
}

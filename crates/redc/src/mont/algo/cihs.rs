//! CIHS — Coarsely Integrated Hybrid Scanning (Koç, Acar and Kaliski, IEEE Micro 1996, as
//! implemented in paper 003 §2, Table 1).
//!
//! A hybrid of the two scanning orders. The lower half of `a·b` (the partial products
//! `a[j]·b[i]` with `i+j < s`) is formed first by operand scanning into an `s+2`-word `t`. Then
//! come `s` reduction rows, each adding `m·n` and shifting `t` down one word, as in CIOS; after
//! reduction row `i` the product column `s+i` of `a·b` has moved down to word `s−1`, and its
//! partial products `a[s+i−j]·b[j]` (`j > i`) are added there — product scanning for the upper
//! half. `t` never needs more than `s+2` words.
//!
//! Constant time: every loop bound depends on `s` only.

use crate::nat;
use crate::word::Word;

/// `out = a·b·R⁻¹ mod n` by CIHS. Contract: [`crate::mont`]'s kernel contract.
///
/// Uses `s+2` limbs of `scratch`. Leaks only `s`.
///
/// Carry bound for `t[s+1]`: at every point `t` holds a partial sum, shifted down by the `k`
/// reduction rows done so far, of the partial products in columns `≤ s+k` and of
/// `(m_0 + … + m_k·W^k)·n`. A column holds at most `s` products, each `≤ (W−1)²`, and
/// `Σ_{c ≤ s+k} W^c < W^(s+k+1)/(W−1)`, so the products contribute less than
/// `s·(W−1)·W^(s+k+1)/W^k`, at most `s·(W−1)·W^s` once the column `s+k` is in (after `k+1`
/// shifts) and before it (after `k` shifts, columns `≤ s+k−1`). The `m·n` part is less than
/// `W^(k+1)·n/W^k < W^(s+1)`. So `t < (s+1)·W^(s+1)`: `t[s+1] ≤ s` fits in a word, and no carry
/// added to it wraps. At the end `t = (a·b + M·n)/R < (n² + R·n)/R < 2n`.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && out.len() == s);
    let t = &mut scratch[..s + 2];
    t.fill(W::ZERO);

    // Lower half of a·b: row i adds a[0..s−i]·b[i] at words i..s.
    for i in 0..s {
        let mut c = W::ZERO;
        for j in 0..s - i {
            // t[i+j] + a[j]·b[i] + C ≤ W² − 1.
            (t[i + j], c) = W::mac(t[i + j], a[j], b[i], c);
        }
        // (C,S) = t[s] + C; t[s] = S; t[s+1] += C (C ≤ 1; t[s+1] ≤ s by the bound above).
        let (lo, hi) = W::adc(t[s], c, W::ZERO);
        t[s] = lo;
        t[s + 1] = t[s + 1].wrapping_add(hi);
    }

    for i in 0..s {
        // Reduction row: t = (t + m·n)/W with m chosen so that the low word vanishes.
        let m = t[0].wrapping_mul(n0);
        let (_, mut c) = W::mac(t[0], m, n[0], W::ZERO);
        for j in 1..s {
            (t[j - 1], c) = W::mac(t[j], m, n[j], c);
        }
        // (C,S) = t[s] + C; t[s−1] = S; t[s] = t[s+1] + C; t[s+1] = 0.
        // The carry-out is ≤ 1 and the sum is at most s (bound above), so it does not wrap.
        let (lo, hi) = W::adc(t[s], c, W::ZERO);
        t[s - 1] = lo;
        t[s] = t[s + 1].wrapping_add(hi);
        t[s + 1] = W::ZERO;

        // Column s+i of a·b, now at word s−1: the products a[s+i−j]·b[j] for j = i+1..s−1.
        for j in i + 1..s {
            // t[s−1] + a·b ≤ (W−1) + (W−1)² < W²: one-word carry C into t[s].
            let (lo, c) = W::mac(t[s - 1], a[s + i - j], b[j], W::ZERO);
            t[s - 1] = lo;
            // (C,S) = t[s] + C; t[s] = S; t[s+1] += C (C ≤ 1; t[s+1] stays ≤ s).
            let (lo, hi) = W::adc(t[s], c, W::ZERO);
            t[s] = lo;
            t[s + 1] = t[s + 1].wrapping_add(hi);
        }
    }

    // u = t[0..=s] = (a·b + M·n)/R < 2n, and t[s+1] = 0: the final step.
    // Debug builds only; declassified for the secret-taint test (the value is always 0).
    debug_assert!(crate::valgrind::declassify(t[s + 1]) == W::ZERO);
    nat::final_sub(out, &t[..s + 1], n);
}

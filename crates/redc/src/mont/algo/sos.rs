//! SOS — Separated Operand Scanning (Koç, Acar and Kaliski, IEEE Micro 1996, as implemented
//! and compared in paper 003 §2).
//!
//! Multiplication and reduction are *separated*: first the whole `2s`-word product `t = a·b` is
//! formed by operand scanning (one row `a·b[i]` per outer step), then `s` reduction rows each
//! add `m·n·W^i`, with `m` chosen so that word `i` of `t` vanishes, and push the row's carry
//! upward through `t[i+s..]` with the paper's `ADD` function. The result is the upper half
//! `t[s..2s]`, `s+1` words below `2n`, and the masked final subtraction finishes.
//!
//! Constant time: paper 003's `ADD` stops "when no further carry is generated", a branch on a
//! value. Here `ADD` always runs to the top word `t[2s]`, adding a zero carry once the real carry
//! is spent, so every loop bound depends on `s` only. This costs `s(s+1)/2` extra additions per
//! multiplication: the price SOS pays for propagating instead of keeping a carry word.

use crate::nat;
use crate::word::Word;

/// `out = a·b·R⁻¹ mod n` by SOS. Contract: [`crate::mont`]'s kernel contract.
///
/// Uses `2s+1` limbs of `scratch` (of the `2s+4` the contract provides). Leaks only `s`.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && out.len() == s);
    // t[0..=2s]: the 2s-word product plus one word for the reduction's overflow.
    let t = &mut scratch[..2 * s + 1];
    t.fill(W::ZERO);

    // Multiplication: t = a·b, row by row (paper 003, first SOS loop).
    for i in 0..s {
        let mut c = W::ZERO;
        for j in 0..s {
            // t[i+j] + a[j]·b[i] + C ≤ (W−1) + (W−1)² + (W−1) = W² − 1: two words.
            (t[i + j], c) = W::mac(t[i + j], a[j], b[i], c);
        }
        // t[i+s] has not been written yet in this loop (it is still 0), so C simply lands there.
        t[i + s] = c;
    }

    // Reduction: s rows, each clearing word i (paper 003, second SOS loop).
    for i in 0..s {
        let m = t[i].wrapping_mul(n0);
        let mut c = W::ZERO;
        for j in 0..s {
            // Same two-word bound as above; the low word of row j = 0 becomes 0 by choice of m.
            (t[i + j], c) = W::mac(t[i + j], m, n[j], c);
        }
        // ADD(t, i+s, C): propagate C upward through t[i+s..=2s], always to the top.
        // After row i the value of t is a·b + (m_0 + … + m_i·W^i)·n < R² + R·n < 2R², so it
        // fits in 2s+1 words with t[2s] ≤ 1, and no carry ever leaves t[2s].
        let (lo, mut carry) = W::adc(t[i + s], c, W::ZERO);
        t[i + s] = lo;
        for x in t[i + s + 1..].iter_mut() {
            (*x, carry) = W::adc(*x, W::ZERO, carry);
        }
        // Debug builds only; declassified for the secret-taint test (the value is always 0).
        debug_assert!(crate::valgrind::declassify(carry) == W::ZERO);
    }

    // u = t[s..=2s] = (a·b + M·n)/R < (n² + R·n)/R < 2n: the final step.
    nat::final_sub(out, &t[s..2 * s + 1], n);
}

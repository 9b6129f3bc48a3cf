//! Enhanced Itoh REDC (Furukawa, Takenaka and Itoh, paper 002 §3.2, Fig. 4 and Fig. 5).
//!
//! In Itoh's algorithm (see [`super::itoh`]) the lower multiply-add `tmp + C2 + m·n[i]` must
//! wait for the upper addition that produces `tmp` (paper 002's dependency 2-i). The
//! enhancement breaks it with three chains per step `i`:
//!
//! - *upper MA*: `(C1, T1) = a[i]·b[j] + C1` — depends only on the previous upper MA;
//! - *lower MA*: `(C2, T2) = m·n[i] + C2` — depends only on the previous lower MA;
//! - *A''*: `(C3, y[i−1]) = y[i] + T1 + T2 + C3` — a four-input addition with its own carry.
//!
//! These are the paper's dependencies 3-i to 3-iv: neither multiply waits for an addition. On
//! x86-64 the same shape is what MULX (flag-free multiply) with ADCX/ADOX (two independent carry
//! flags) is made for. At the end of a row `C1 + C2 + C3 + y[s]` is folded into `y[s−1], y[s]`.
//!
//! Constant time: every loop bound depends on `s` only.

use crate::nat;
use crate::word::Word;

/// `out = a·b·R⁻¹ mod n` by the enhanced Itoh algorithm. Contract: [`crate::mont`]'s kernel
/// contract.
///
/// Uses `s+1` limbs of `scratch` (`y`). Leaks only `s`.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && out.len() == s);
    let y = &mut scratch[..s + 1];
    y.fill(W::ZERO);

    // Invariant at the top of row j: y < 2n, so y[s] ≤ 1 (true for y = 0). The row computes
    // (y + a·b[j] + m·n)/W < (2n + (W−1)·n + (W−1)·n)/W = 2n, which keeps it.
    // Row j works on the word b_j, called bj.
    for &bj in b {
        // Step 0. Upper MA: (C1, T1) = a_0·b_j. The word that decides m is y_0 + T1 mod W.
        let (t1, mut c1) = W::mul_wide(a[0], bj);
        let m = y[0].wrapping_add(t1).wrapping_mul(n0);
        // Lower MA: (C2, T2) = m·n_0.
        let (t2, mut c2) = W::mul_wide(m, n[0]);
        // A'': y_0 + T1 + T2 ≡ 0 (mod W) by the choice of m; only the carry C3 survives.
        // Three words sum to at most 3W − 3, so C3 ≤ 2.
        let (x, k1) = W::adc(y[0], t1, W::ZERO);
        let (_, k2) = W::adc(x, t2, W::ZERO);
        let mut c3 = k1.wrapping_add(k2);

        for i in 1..s {
            // Upper MA: a_i·b_j + C1 ≤ (W−1)² + (W−1) < W².
            let (t1, c) = W::mac(W::ZERO, a[i], bj, c1);
            c1 = c;
            // Lower MA: m·n_i + C2 < W², likewise.
            let (t2, c) = W::mac(W::ZERO, m, n[i], c2);
            c2 = c;
            // A'': y_i + T1 + T2 + C3 ≤ 3(W−1) + 2 = 3W − 1, so the new C3 is again ≤ 2.
            let (x, k1) = W::adc(y[i], t1, W::ZERO);
            let (x, k2) = W::adc(x, t2, W::ZERO);
            let (x, k3) = W::adc(x, c3, W::ZERO);
            y[i - 1] = x;
            c3 = k1.wrapping_add(k2).wrapping_add(k3);
        }

        // Row end: C1 + C2 + C3 + y_s, all of weight W^(s−1) after the shift, into y_{s−1}, y_s.
        // Each addition carries at most 1 out; the true total is the high part of the new
        // y < 2n < 2R, so the high word is 0 or 1 and the sum of the three carries never wraps.
        let (x, k1) = W::adc(c1, c2, W::ZERO);
        let (x, k2) = W::adc(x, c3, W::ZERO);
        let (x, k3) = W::adc(x, y[s], W::ZERO);
        y[s - 1] = x;
        y[s] = k1.wrapping_add(k2).wrapping_add(k3);
    }

    // The final step on y[0..=s] < 2n.
    nat::final_sub(out, y, n);
}

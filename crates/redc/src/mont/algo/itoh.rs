//! Itoh's pipelined REDC (Itoh, Takenaka, Torii, Temma and Kurihara, CHES '99, as presented in
//! paper 002 §2, Fig. 1 and Fig. 3).
//!
//! FIOS with two carries. Koç's FIOS (see [`super::fios`]) pushes the carry of the product part
//! into the array with a propagating `ADD`, so each step waits for the previous one. Itoh keeps
//! two carry words instead: `C1` for the *upper* computation `y[i] + C1 + a[i]·b[j]` and `C2`
//! for the *lower* computation `T + C2 + m·n[i]`, whose low word is written one place down,
//! `y[i−1]`. The upper step `i+1` never reads what the lower step `i` produced, so the two
//! multiply-add-add chains pipeline (paper 002's dependencies 2-i to 2-iii). At the end of a row
//! both carries and the top word are folded into `y[s−1]` and `y[s]`.
//!
//! Constant time: every loop bound depends on `s` only.

use crate::nat;
use crate::word::Word;

/// `out = a·b·R⁻¹ mod n` by Itoh's algorithm. Contract: [`crate::mont`]'s kernel contract.
///
/// Uses `s+1` limbs of `scratch` (`y`). Leaks only `s`.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && out.len() == s);
    // Paper 002, Fig. 3: Y := 0.
    let y = &mut scratch[..s + 1];
    y.fill(W::ZERO);

    // Invariant at the top of row j: y < 2n, so y[s] ≤ 1 (true for y = 0). The row computes
    // (y + a·b[j] + m·n)/W < (2n + (W−1)·n + (W−1)·n)/W = 2n, which keeps it.
    // Row j works on the word b_j, called bj.
    for &bj in b {
        // (C1, tmp) := y_0 + a_0·b_j.
        let (tmp, mut c1) = W::mac(y[0], a[0], bj, W::ZERO);
        // m := tmp·n'_0 mod W, so tmp + m·n_0 ≡ 0 (mod W).
        let m = tmp.wrapping_mul(n0);
        // (C2, tmp) := tmp + m·n_0; only the carry survives.
        let (_, mut c2) = W::mac(tmp, m, n[0], W::ZERO);
        // Core loop of REDC (paper 002, Fig. 1 and Fig. 3), for i = 1..s−1.
        for i in 1..s {
            // Upper: (C1, tmp) := y_i + C1 + a_i·b_j ≤ (W−1) + (W−1) + (W−1)² = W² − 1.
            let (tmp, c) = W::mac(y[i], a[i], bj, c1);
            c1 = c;
            // Lower: (C2, y_{i−1}) := tmp + C2 + m·n_i, the same two-word bound.
            (y[i - 1], c2) = W::mac(tmp, m, n[i], c2);
        }
        // (C2, C1) := C1 + C2 + y_s. The carry-in y_s is 0 or 1 by the invariant, so this is
        // one add-with-carry; the sum is ≤ 2W − 1 and its high word is the new y_s.
        let (lo, hi) = W::adc(c1, c2, y[s]);
        // y_{s−1} := C1; y_s := C2.
        y[s - 1] = lo;
        y[s] = hi;
    }

    // Paper 002's "if Y ≥ N then Y := Y − N", done with a mask: the final step.
    nat::final_sub(out, y, n);
}

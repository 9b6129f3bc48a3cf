//! Improved squaring reduction (paper 004, Fig. 3).
//!
//! Two changes to Koç's squaring (Fig. 2):
//!
//! 1. A separate first loop writes every diagonal square `a[i]²` into `t[2i], t[2i+1]`, so the
//!    product rows hold only the off-diagonal products, each added once and doubled.
//! 2. The `ADD` carry-propagation loop is gone. A row's carry out of its last column `i+s`
//!    belongs to column `i+s+1`, which is exactly the last column of the next row; it is kept
//!    in `prevcar` and added there. No row writes column `i+s+1` before that, so deferring the
//!    carry is exact. The last row's carry lands in `t[2s]`.
//!
//! The reduction pass (the second outer loop) uses the same `prevcar` trick.

use super::koc::dbl_col;
use crate::nat;
use crate::word::Word;

/// `out = a·a·R⁻¹ mod n` by the improved squaring reduction (paper 004, Fig. 3).
///
/// Contract: [`crate::mont`]'s kernel contract (`a < n`, `n` odd, `s` limbs each, output fully
/// reduced, scratch of `2s + 4` limbs, `2s + 1` used). Loop bounds depend on `s` only; no
/// branch or address depends on `a` or `n`.
pub fn mont_sqr<W: Word>(out: &mut [W], a: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && out.len() == s && scratch.len() > 2 * s);
    let t = &mut scratch[..2 * s + 1];

    // Separate loop for a[i]·a[i]: (t[2i+1], t[2i]) = a[i]².
    for i in 0..s {
        (t[2 * i], t[2 * i + 1]) = W::mul_wide(a[i], a[i]);
    }
    t[2 * s] = W::ZERO;

    // First outer loop: add 2·a[i]·a[j] for j > i at column i+j.
    let mut prevcar = W::ZERO;
    for i in 0..s {
        let mut c = W::ZERO;
        let mut cj = W::ZERO;
        for j in i + 1..s {
            // S_long = 2·C_j + C + t; (C_j, S) = a[i]·a[j]; (C, t) = S_long + 2·S. C ≤ 4.
            let (plo, phi) = W::mul_wide(a[i], a[j]);
            (t[i + j], c) = dbl_col(t[i + j], c, cj, plo);
            cj = phi;
        }
        // (prevcar, t[i+s]) = C + 2·C_j + t[i+s] + prevcar. With prevcar ≤ 3 the sum is at
        // most 4 + 2(W−2) + (W−1) + 3 = 3W + 2 < 4W, so prevcar stays ≤ 3.
        let (x, k0) = dbl_col(t[i + s], c, cj, W::ZERO);
        let (x, k1) = W::adc(x, prevcar, W::ZERO);
        t[i + s] = x;
        prevcar = k0.wrapping_add(k1);
    }
    // t[2s] = t[2s] + prevcar. Now t = a² < W^(2s), so this is zero; it is kept for exactness.
    t[2 * s] = t[2 * s].wrapping_add(prevcar);

    // Second outer loop: SOS reduction rows, carries deferred the same way.
    let mut prevcar = W::ZERO;
    for i in 0..s {
        let m = t[i].wrapping_mul(n0);
        let mut c = W::ZERO;
        for j in 0..s {
            (t[i + j], c) = W::mac(t[i + j], m, n[j], c);
        }
        // (prevcar, t[i+s]) = C + t[i+s] + prevcar ≤ (W−1) + (W−1) + 1: prevcar ≤ 1.
        (t[i + s], prevcar) = W::adc(t[i + s], c, prevcar);
    }
    // The whole t is a² + m·n < 2n·R < 2·W^(2s), so t[2s] ends at most 1.
    t[2 * s] = t[2 * s].wrapping_add(prevcar);

    // u = t / R < 2n in s + 1 words.
    nat::final_sub(out, &t[s..], n);
}

//! Squaring reduction with coupled inner loops (paper 004, Fig. 5).
//!
//! Fig. 4 with the overlap of its two inner loops removed. Step `i` touches columns
//! `i ..= i+s`; the reduction row `m·n·W^i` covers all of them, the doubled off-diagonal row
//! of `a[i]` only columns `2i+1 ..= i+s`. So:
//!
//! - a first inner loop (`j ≤ i`, columns `i ..= 2i`) does the reduction product only;
//! - a second inner loop (`j > i`) adds `2·a[i]·a[j]` and `m·n[j]` to the same column in the
//!   same iteration, with two independent carry chains (the doubling chain `C, C_j` and the
//!   reduction chain `C_2`): more independent work per iteration for the pipeline.
//!
//! `m = t[i]·n' mod W` is valid for the same reason as in Fig. 4: column `i` is final once the
//! diagonal and the steps `k < i` are in, and the deferred carry (`prevcar`, at column
//! `i+s+1 > i`) is added at the end of the next step, whose last column it is.

use super::koc::dbl_col;
use crate::nat;
use crate::word::Word;

/// `out = a·a·R⁻¹ mod n` by the squaring reduction with coupled inner loops (paper 004,
/// Fig. 5).
///
/// Contract: [`crate::mont`]'s kernel contract (`a < n`, `n` odd, `s` limbs each, output fully
/// reduced, scratch of `2s + 4` limbs, `2s + 1` used). Loop bounds depend on `s` only; no
/// branch or address depends on `a` or `n`.
pub fn mont_sqr<W: Word>(out: &mut [W], a: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && out.len() == s && scratch.len() > 2 * s);
    let t = &mut scratch[..2 * s + 1];

    // Separate loop for a[i]·a[i].
    for i in 0..s {
        (t[2 * i], t[2 * i + 1]) = W::mul_wide(a[i], a[i]);
    }
    t[2 * s] = W::ZERO;

    let mut prevcar = W::ZERO;
    for i in 0..s {
        let m = t[i].wrapping_mul(n0);
        // First inner loop: reduction only, columns i ..= 2i.
        let mut c2 = W::ZERO;
        for j in 0..=i {
            (t[i + j], c2) = W::mac(t[i + j], m, n[j], c2);
        }
        // Second inner loop: doubled product (C ≤ 4) and reduction product (C_2 ≤ W − 1)
        // into the same column.
        let mut c = W::ZERO;
        let mut cj = W::ZERO;
        for j in i + 1..s {
            let (plo, phi) = W::mul_wide(a[i], a[j]);
            let (x, c_next) = dbl_col(t[i + j], c, cj, plo);
            (t[i + j], c2) = W::mac(x, m, n[j], c2);
            c = c_next;
            cj = phi;
        }
        // (prevcar, t[i+s]) = C + 2·C_j + C_2 + t[i+s] + prevcar. With prevcar ≤ 4 the sum is
        // at most 4 + 2(W−2) + (W−1) + (W−1) + 4 = 4W + 2 < 5W, so prevcar stays ≤ 4.
        let (x, k0) = dbl_col(t[i + s], c, cj, W::ZERO);
        let (x, k1) = W::adc(x, c2, W::ZERO);
        let (x, k2) = W::adc(x, prevcar, W::ZERO);
        t[i + s] = x;
        prevcar = k0.wrapping_add(k1).wrapping_add(k2);
    }
    // t[2s] = t[2s] + prevcar. The total is below a² + R·n < 2n·R < 2·W^(2s): t[2s] ≤ 1.
    t[2 * s] = t[2 * s].wrapping_add(prevcar);

    // u = t / R < 2n in s + 1 words.
    nat::final_sub(out, &t[s..], n);
}

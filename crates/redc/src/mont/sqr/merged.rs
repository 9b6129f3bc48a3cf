//! Squaring reduction with a merged outer loop (paper 004, Fig. 4).
//!
//! Fig. 3 with its two outer loops fused: step `i` adds the doubled off-diagonal row of
//! `a[i]` (columns `2i+1 ..= i+s`) and then the reduction row `m·n·W^i` (columns `i ..= i+s`).
//!
//! Why `m = t[i]·n' mod W` may be taken inside the merged loop: column `i` is final once the
//! diagonal squares and the off-diagonal rows `k < i` are in (row `k` starts at column
//! `2k + 1`, so row `i` itself never touches column `i`), and the reduction rows `k < i` are
//! in too. The carries both chains defer (`prevcar` for the products, `prevcar1` for the
//! reduction) sit at column `i+s+1 ≥ s+1 > i`, and are added at the end of the next step,
//! whose last column is exactly `i+s+1`.

use super::koc::dbl_col;
use crate::nat;
use crate::word::Word;

/// `out = a·a·R⁻¹ mod n` by the squaring reduction with merged outer loop (paper 004, Fig. 4).
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
    let mut prevcar1 = W::ZERO;
    for i in 0..s {
        // First inner loop: 2·a[i]·a[j] at column i+j, j > i (carry C ≤ 4).
        let mut c = W::ZERO;
        let mut cj = W::ZERO;
        for j in i + 1..s {
            let (plo, phi) = W::mul_wide(a[i], a[j]);
            (t[i + j], c) = dbl_col(t[i + j], c, cj, plo);
            cj = phi;
        }
        // (prevcar, t[i+s]) = C + 2·C_j + t[i+s] + prevcar < 4W: prevcar ≤ 3.
        let (x, k0) = dbl_col(t[i + s], c, cj, W::ZERO);
        let (x, k1) = W::adc(x, prevcar, W::ZERO);
        t[i + s] = x;
        prevcar = k0.wrapping_add(k1);

        // Second inner loop: the reduction row of column i.
        let m = t[i].wrapping_mul(n0);
        let mut c = W::ZERO;
        for j in 0..s {
            (t[i + j], c) = W::mac(t[i + j], m, n[j], c);
        }
        // (prevcar1, t[i+s]) = C + t[i+s] + prevcar1 < 2W: prevcar1 ≤ 1.
        (t[i + s], prevcar1) = W::adc(t[i + s], c, prevcar1);
    }
    // Both deferred carries of the last step belong to t[2s]. The total is below
    // a² + R·n < 2n·R < 2·W^(2s), so t[2s] ends at most 1.
    t[2 * s] = t[2 * s].wrapping_add(prevcar).wrapping_add(prevcar1);

    // u = t / R < 2n in s + 1 words.
    nat::final_sub(out, &t[s..], n);
}

//! Generic squaring (paper 004, Fig. 1): the multiplication routine with `b = a`.
//! This is the baseline every dedicated squaring is measured against.

use crate::word::Word;

/// `out = a·a·R⁻¹ mod n` by CIOS with `b = a`. Contract: [`crate::mont`]'s kernel contract.
pub fn mont_sqr<W: Word>(out: &mut [W], a: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    crate::mont::algo::cios::mont_mul(out, a, a, n, n0, scratch)
}

//! PLACEHOLDER: to be replaced by the real method (delegates to the fixed window until then).

use crate::mont::{Kernel, Modulus};
use crate::word::Word;

/// PLACEHOLDER.
pub fn pow_vartime<W: Word>(
    out: &mut [W],
    base: &[W],
    exp: &[u8],
    m: &Modulus<W>,
    k: &Kernel<W>,
    window: u32,
) {
    super::fixed::pow(out, base, exp, m, k, window)
}

//! PLACEHOLDER: to be replaced by the real algorithm (delegates to CIOS until then).

use crate::word::Word;

/// PLACEHOLDER.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    super::cios::mont_mul(out, a, b, n, n0, scratch)
}

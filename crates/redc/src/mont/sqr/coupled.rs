//! PLACEHOLDER: to be replaced by the real squaring variant (delegates to generic until then).

use crate::word::Word;

/// PLACEHOLDER.
pub fn mont_sqr<W: Word>(out: &mut [W], a: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    super::generic::mont_sqr(out, a, n, n0, scratch)
}

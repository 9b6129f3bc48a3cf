//! FIPS — Finely Integrated Product Scanning (Koç, Acar and Kaliski, IEEE Micro 1996, as
//! implemented in paper 003 §2, Table 2).
//!
//! Product scanning (Comba style): the outer loop walks the `2s` columns of `a·b + m·n`, and
//! each column sums all its partial products `a[j]·b[i−j]` and `m[j]·n[i−j]` into a three-word
//! accumulator `(t,u,v)`. In the first `s` columns the reduction word `m[i]` is produced as the
//! column passes (chosen so the column's low word `v` becomes zero); in the last `s` columns the
//! low word is an output word. The words `m[0..s]` live in `scratch` and are overwritten, one
//! by one, by the output words (`m[i−s]` is no longer needed once column `i` is summed).
//!
//! Constant time: every loop bound depends on `s` only; the accumulator additions are
//! carry-through adds, never conditional.

use crate::nat;
use crate::word::Word;

/// The three-word accumulator `(t,u,v)` of paper 003, `v` lowest.
struct Acc<W> {
    t: W,
    u: W,
    v: W,
}

impl<W: Word> Acc<W> {
    /// `(t,u,v) += x·y`. `v + x·y ≤ (W−1) + (W−1)² < W²`, so one `mac` gives the low word and
    /// a one-word carry into `u`; the carry out of `u` goes into `t`, which never overflows
    /// (see the bound in [`mont_mul`]).
    #[inline(always)]
    fn mac(&mut self, x: W, y: W) {
        let (v, c) = W::mac(self.v, x, y, W::ZERO);
        let (u, c) = W::adc(self.u, c, W::ZERO);
        self.v = v;
        self.u = u;
        self.t = self.t.wrapping_add(c);
    }

    /// `(t,u,v) = (0,t,u)`: move to the next column.
    #[inline(always)]
    fn shift(&mut self) {
        self.v = self.u;
        self.u = self.t;
        self.t = W::ZERO;
    }
}

/// `out = a·b·R⁻¹ mod n` by FIPS. Contract: [`crate::mont`]'s kernel contract.
///
/// Uses `s+1` limbs of `scratch` (`m[0..s]`, then the output words and the top word). Leaks
/// only `s`.
///
/// Carry bound: a column holds at most `2s` products, each `≤ (W−1)²`, plus the accumulator
/// carried in from the column below, `A/W`. If every accumulator is below `(2s+1)·W²` then so is
/// the next one: `2s·(W−1)² + (2s+1)·W < (2s+1)·W²`. With `2s+1 < W` (any real size) that fits
/// in the three words `(t,u,v)`, so `t` never wraps.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && out.len() == s);
    let m = &mut scratch[..s + 1];
    let mut acc = Acc {
        t: W::ZERO,
        u: W::ZERO,
        v: W::ZERO,
    };

    // Columns 0..s: sum the column, then choose m[i] so that its low word vanishes.
    for i in 0..s {
        for j in 0..i {
            acc.mac(a[j], b[i - j]);
            acc.mac(m[j], n[i - j]);
        }
        acc.mac(a[i], b[0]);
        m[i] = acc.v.wrapping_mul(n0);
        // v + m[i]·n[0] ≡ v·(1 + n0·n[0]) ≡ 0 (mod W): v is now 0.
        acc.mac(m[i], n[0]);
        // Debug builds only; declassified for the secret-taint test (the value is always 0).
        debug_assert!(crate::valgrind::declassify(acc.v) == W::ZERO);
        acc.shift();
    }

    // Columns s..2s: the low word of column i is output word i−s, stored over m[i−s]: column i
    // and every later one read m[j] only for j ≥ i−s+1, so m[i−s] is no longer needed.
    for i in s..2 * s {
        for j in i - s + 1..s {
            acc.mac(a[j], b[i - j]);
            acc.mac(m[j], n[i - j]);
        }
        m[i - s] = acc.v;
        acc.shift();
    }

    // The result (a·b + M·n)/R < (n² + R·n)/R < 2n < 2R: its top word, the accumulator's u
    // before the last shift and so v after it, is 0 or 1, and nothing is left above it.
    // Debug builds only; declassified for the secret-taint test (the value is always 0).
    debug_assert!(crate::valgrind::declassify(acc.u) == W::ZERO);
    m[s] = acc.v;
    nat::final_sub(out, m, n);
}

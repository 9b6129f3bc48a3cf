//! CIOS — Coarsely Integrated Operand Scanning (paper 003 §3; the MIPS paper's MonPro).
//!
//! Each outer step adds one multiplication row `a·b[i]` into `t` and then one reduction row
//! `m·n`, shifting `t` down one word as the reduction row is added; `t` needs only `s+2` words.

use crate::nat;
use crate::word::Word;

/// `out = a·b·R⁻¹ mod n` by CIOS. Contract: [`crate::mont`]'s kernel contract.
pub fn mont_mul<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && b.len() == s && out.len() == s);
    let t = &mut scratch[..s + 2];
    t.fill(W::ZERO);
    for &bi in b {
        // Multiplication row: t += a·b[i].
        let mut c = W::ZERO;
        for j in 0..s {
            (t[j], c) = W::mac(t[j], a[j], bi, c);
        }
        let (lo, hi) = W::adc(t[s], c, W::ZERO);
        t[s] = lo;
        t[s + 1] = hi;
        // Reduction row: t = (t + m·n) / W with m chosen so the low word vanishes.
        let m = t[0].wrapping_mul(n0);
        let (_, mut c) = W::mac(t[0], m, n[0], W::ZERO);
        for j in 1..s {
            (t[j - 1], c) = W::mac(t[j], m, n[j], c);
        }
        let (lo, hi) = W::adc(t[s], c, W::ZERO);
        t[s - 1] = lo;
        // t < 2n < 2R throughout, so t[s+1] + hi is at most 1.
        t[s] = t[s + 1].wrapping_add(hi);
    }
    nat::final_sub(out, &t[..s + 1], n);
}

//! Left-to-right binary exponentiation (paper 001): one squaring per exponent bit, one
//! multiplication per 1 bit. Variable time: the sequence of squarings and multiplications spells
//! out the exponent, so it is only for public exponents (RSA `e`, the papers' measurements).

use alloc::vec;

use zeroize::Zeroize;

use crate::mont::{scratch_len, Kernel, Modulus};
use crate::word::Word;

/// `out = base^exp mod n` by left-to-right binary exponentiation.
///
/// `base < n` in normal form (`s` limbs), `exp` big-endian bytes (any length; leading zero bytes
/// are skipped; empty or zero gives 1), `out` has `s` limbs and receives the normal-form result.
///
/// Paper 001: `A = M̄`; for each bit below the top one, `A = A²` (the kernel's `sqr`), then
/// `A = A·M̄` (its `mul`) if the bit is 1; finally leave the Montgomery domain (for an odd
/// exponent of more than one bit, by making the last multiplication `A·M` instead).
///
/// Leaks the exponent (bit length and every bit) through timing; the base only flows through the
/// constant-time kernels. Temporary powers of the base are zeroized.
pub fn pow_vartime<W: Word>(out: &mut [W], base: &[W], exp: &[u8], m: &Modulus<W>, k: &Kernel<W>) {
    let s = m.limbs();
    let n = m.n();
    let n0 = m.n0();
    let bits = super::exp_bit_len_vartime(exp);
    if bits == 0 {
        // x^0 = 1: REDC(R mod n) = 1 mod n.
        m.from_mont(out, m.one(), k, &mut m.scratch());
        return;
    }
    // One allocation (this runs once per verification): M̄, the accumulator and its partner
    // for the kernels' separate output, and the kernel scratch.
    let mut buf = vec![W::ZERO; 3 * s + scratch_len(s)];
    let (mbar, rest) = buf.split_at_mut(s);
    let (mut acc, rest) = rest.split_at_mut(s);
    let (mut tmp, scratch) = rest.split_at_mut(s);
    m.to_mont(mbar, base, k, scratch);
    acc.copy_from_slice(mbar);
    // An odd exponent (RSA's e) ends on a multiplication; it takes the base in normal form,
    // `REDC(A·R, M) = A·M`, which leaves the Montgomery domain for free (one multiplication
    // fewer than multiplying by M̄ and then converting back).
    let odd = bits > 1 && super::exp_bit(exp, 0) == 1;
    // The last step is a full product, by the base or by 1 below.
    let (mul, sqr) = k.loop_pair();
    for i in (0..bits - 1).rev() {
        sqr(tmp, acc, n, n0, scratch);
        core::mem::swap(&mut acc, &mut tmp);
        if super::exp_bit(exp, i) == 1 {
            if i == 0 && odd {
                (k.mul)(tmp, acc, base, n, n0, scratch);
            } else {
                mul(tmp, acc, mbar, n, n0, scratch);
            }
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    if odd {
        out.copy_from_slice(acc);
    } else {
        m.from_mont(out, acc, k, scratch);
    }
    buf.zeroize();
}

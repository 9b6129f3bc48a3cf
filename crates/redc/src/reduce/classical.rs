//! Classical modular multiplication (papers 001 and 002's baseline): the schoolbook product,
//! then its remainder by long division, Knuth's Algorithm D (TAOCP vol. 2, §4.3.1).
//!
//! **Variable time.** Step D3's quotient correction and step D6's add-back are branches on
//! the data, and inputs are trimmed of leading zero limbs. For measurements and public data
//! only; never on the RSA path.

use alloc::vec;
use alloc::vec::Vec;

use super::{modulus_vartime, product, VartimeModMul};
use crate::error::Result;
use crate::nat;
use crate::word::Word;

/// `(q, r)` with `hi·W + lo = q·d + r`, `r < d`: the two-word by one-word division of step D3.
///
/// Requires `hi < d` (so `q` fits one word). Done in the double-width integer type: `u64` for
/// 32-bit words, `u128` for 64-bit words (the width is a constant, so the test folds away).
#[inline]
pub fn div2by1<W: Word>(hi: W, lo: W, d: W) -> (W, W) {
    debug_assert!(hi < d);
    if W::BITS <= 32 {
        let num = (hi.to_u64() << W::BITS) | lo.to_u64();
        let d = d.to_u64();
        (W::from_u64(num / d), W::from_u64(num % d))
    } else {
        let num = ((hi.to_u64() as u128) << W::BITS) | lo.to_u64() as u128;
        let d = d.to_u64() as u128;
        (W::from_u64((num / d) as u64), W::from_u64((num % d) as u64))
    }
}

/// `(q, r)` with `x = q·n + r`, `0 ≤ r < n`, by Knuth's Algorithm D.
///
/// `n ≠ 0` (else [`crate::Error::ModulusTooSmall`]); `x` and `n` may carry leading zero limbs. `r` has
/// as many limbs as `n` without its leading zeros (`s`); `q` has `max(len(x) − s + 1, 1)` limbs
/// with `x` trimmed likewise. Variable time.
pub fn div_rem_vartime<W: Word>(x: &[W], n: &[W]) -> Result<(Vec<W>, Vec<W>)> {
    let v = modulus_vartime(n)?;
    let u = nat::trim_vartime(x);
    let nl = v.len();
    if u.len() < nl {
        let mut r = vec![W::ZERO; nl];
        r[..u.len()].copy_from_slice(u);
        return Ok((vec![W::ZERO], r));
    }
    let m = u.len() - nl;
    let mut q = vec![W::ZERO; m + 1];

    if nl == 1 {
        // Short division: one two-by-one step per digit, the remainder below v[0] throughout.
        let d = v[0];
        let mut r = W::ZERO;
        for j in (0..u.len()).rev() {
            (q[j], r) = div2by1(r, u[j], d);
        }
        return Ok((q, vec![r]));
    }

    // D1. Normalize: shift so that the divisor's top bit is set; u gains a top digit.
    let shift = v[nl - 1].leading_zeros();
    let v = shl_bits(&v, shift, false);
    let mut u = shl_bits(u, shift, true);
    let (v1, v2) = (v[nl - 1], v[nl - 2]);

    // D2/D7. Loop on j from m down to 0: digit q[j] of the quotient.
    for j in (0..=m).rev() {
        // D3. Estimate qhat = floor((u[j+nl]·W + u[j+nl−1]) / v1), capped at W − 1. The
        // invariant u[j+nl ..= j] < W·v keeps u[j+nl] ≤ v1; when equal, qhat = W − 1 and
        // rhat = u[j+nl−1] + v1, which may not fit a word (then the test below is skipped).
        let (top, next) = (u[j + nl], u[j + nl - 1]);
        let (mut qhat, mut rhat, mut rhat_big) = if top >= v1 {
            let (r, c) = W::adc(next, v1, W::ZERO);
            (W::MAX, r, c != W::ZERO)
        } else {
            let (q, r) = div2by1(top, next, v1);
            (q, r, false)
        };
        // While qhat·v2 > rhat·W + u[j+nl−2], qhat is too large: decrease it. With the
        // divisor normalized this runs at most twice and leaves qhat at most one too large.
        while !rhat_big {
            let (plo, phi) = W::mul_wide(qhat, v2);
            if (phi, plo) <= (rhat, u[j + nl - 2]) {
                break;
            }
            qhat = qhat.wrapping_sub(W::ONE);
            let (r, c) = W::adc(rhat, v1, W::ZERO);
            rhat = r;
            rhat_big = c != W::ZERO;
        }

        // D4. Multiply and subtract: u[j ..= j+nl] −= qhat·v.
        let mut mul_carry = W::ZERO;
        let mut borrow = W::ZERO;
        for i in 0..nl {
            let (plo, phi) = W::mac(W::ZERO, qhat, v[i], mul_carry);
            mul_carry = phi;
            (u[j + i], borrow) = W::sbb(u[j + i], plo, borrow);
        }
        (u[j + nl], borrow) = W::sbb(u[j + nl], mul_carry, borrow);

        // D5/D6. A borrow means qhat was one too large (probability about 2/W): add back.
        if borrow != W::ZERO {
            qhat = qhat.wrapping_sub(W::ONE);
            let mut c = W::ZERO;
            for i in 0..nl {
                (u[j + i], c) = W::adc(u[j + i], v[i], c);
            }
            // The carry out of the top digit cancels the borrow above.
            u[j + nl] = u[j + nl].wrapping_add(c);
        }
        q[j] = qhat;
    }

    // D8. Unnormalize: the remainder is u[0 .. nl] shifted back down.
    let r = shr_bits(&u[..nl + 1], shift);
    Ok((q, r[..nl].to_vec()))
}

/// `x` shifted left by `shift < W::BITS` bits; with `grow` one more limb for the bits out.
fn shl_bits<W: Word>(x: &[W], shift: u32, grow: bool) -> Vec<W> {
    let mut out = vec![W::ZERO; x.len() + grow as usize];
    let mut carry = W::ZERO;
    for (o, &xi) in out.iter_mut().zip(x) {
        *o = if shift == 0 {
            xi
        } else {
            xi.shl(shift).or(carry)
        };
        carry = if shift == 0 {
            W::ZERO
        } else {
            xi.shr(W::BITS - shift)
        };
    }
    if grow {
        out[x.len()] = carry;
    }
    out
}

/// `x` shifted right by `shift < W::BITS` bits, same length.
fn shr_bits<W: Word>(x: &[W], shift: u32) -> Vec<W> {
    if shift == 0 {
        return x.to_vec();
    }
    let mut out = vec![W::ZERO; x.len()];
    for i in 0..x.len() {
        let above = if i + 1 < x.len() { x[i + 1] } else { W::ZERO };
        out[i] = x[i].shr(shift).or(above.shl(W::BITS - shift));
    }
    out
}

/// `x mod n` (`s` limbs) by Algorithm D. `n ≠ 0`, else [`crate::Error::ModulusTooSmall`]. Variable
/// time.
pub fn rem_vartime<W: Word>(x: &[W], n: &[W]) -> Result<Vec<W>> {
    Ok(div_rem_vartime(x, n)?.1)
}

/// `a·b mod n` (`s` limbs): schoolbook product, then Algorithm D. `a` and `b` may be any
/// length and need not be below `n`; `n ≠ 0`. Variable time.
pub fn mul_mod_vartime<W: Word>(a: &[W], b: &[W], n: &[W]) -> Result<Vec<W>> {
    rem_vartime(&product(a, b), n)
}

/// `base^exp mod n` (`s` limbs) by binary left-to-right exponentiation over classical
/// multiplication; `exp` big-endian, exponent 0 gives `1 mod n`. `n ≠ 0`. Variable time.
pub fn pow_vartime<W: Word>(base: &[W], exp: &[u8], n: &[W]) -> Result<Vec<W>> {
    Classical::new(n)?.pow_vartime(base, exp)
}

/// A modulus for classical (division-based) modular arithmetic. Variable time.
#[derive(Clone, Debug)]
pub struct Classical<W: Word> {
    n: Vec<W>,
}

impl<W: Word> Classical<W> {
    /// Takes `n ≥ 1` (any parity; leading zero limbs are dropped). `n = 0` is
    /// [`crate::Error::ModulusTooSmall`].
    pub fn new(n: &[W]) -> Result<Self> {
        Ok(Classical {
            n: modulus_vartime(n)?,
        })
    }
}

impl<W: Word> VartimeModMul<W> for Classical<W> {
    fn modulus(&self) -> &[W] {
        &self.n
    }

    /// `a·b mod n`: any `a`, `b` (they need not be reduced). Never fails once built.
    fn mul_mod_vartime(&self, a: &[W], b: &[W]) -> Result<Vec<W>> {
        let x = product(a, b);
        div_rem_vartime(&x, &self.n).map(|(_, r)| r)
    }
}

//! Barrett reduction (papers 001 and 002's baseline; HAC Algorithm 14.42).
//!
//! With `n` of `s` limbs (top limb non-zero) and `mu = floor(W^(2s) / n)` precomputed, any
//! `x < W^(2s)` is reduced by
//!
//! ```text
//! q = floor(floor(x / W^(s−1)) · mu / W^(s+1))      -- q ≤ floor(x / n) ≤ q + 2
//! r = (x − q·n) mod W^(s+1)                          -- only the low s + 1 limbs are needed
//! while r ≥ n: r = r − n                             -- at most twice
//! ```
//!
//! Why `q` is at most 2 short of `Q = floor(x/n)`: `q1 = floor(x/W^(s−1)) > x/W^(s−1) − 1` and
//! `mu > W^(2s)/n − 1`, so `q1·mu/W^(s+1) > x/n − x/W^(2s) − W^(s−1)/n > x/n − 2` (using
//! `x < W^(2s)` and `n ≥ W^(s−1)`); one more floor gives `q > x/n − 3`, so `q ≥ Q − 2`.
//! Hence `0 ≤ x − q·n < 3n < W^(s+1)`, and working modulo `W^(s+1)` loses nothing.
//!
//! **Variable time** (the number of corrective subtractions depends on the data, and inputs
//! are trimmed). For measurements and public data only; never on the RSA path.

use alloc::vec;
use alloc::vec::Vec;

use super::{classical, modulus_vartime, product, VartimeModMul};
use crate::error::{Error, Result};
use crate::nat;
use crate::word::Word;

/// A modulus `n ≥ 1` with its Barrett constant `mu = floor(W^(2s) / n)`. Variable time.
#[derive(Clone, Debug)]
pub struct Barrett<W: Word> {
    n: Vec<W>,
    mu: Vec<W>,
}

impl<W: Word> Barrett<W> {
    /// Precomputes `mu = floor(W^(2s) / n)` by Algorithm D ([`classical::div_rem_vartime`]).
    ///
    /// `n ≥ 1` of any parity; leading zero limbs are dropped, and `s` is the remaining limb
    /// count. `n = 0` is [`Error::ModulusTooSmall`]. `mu` has `s + 1` limbs, or `s + 2` when
    /// `n = W^(s−1)` exactly.
    pub fn new(n: &[W]) -> Result<Self> {
        let n = modulus_vartime(n)?;
        let s = n.len();
        let mut w2s = vec![W::ZERO; 2 * s + 1];
        w2s[2 * s] = W::ONE;
        let (mu, _) = classical::div_rem_vartime(&w2s, &n)?;
        let mu = nat::trim_vartime(&mu).to_vec();
        Ok(Barrett { n, mu })
    }

    /// `mu = floor(W^(2s) / n)`.
    pub fn mu(&self) -> &[W] {
        &self.mu
    }

    /// `x mod n` (`s` limbs) for `x < W^(2s)` (any length once leading zero limbs are
    /// dropped; larger `x` is [`Error::OperandTooLarge`]). Variable time.
    pub fn reduce_vartime(&self, x: &[W]) -> Result<Vec<W>> {
        let n = &self.n;
        let s = n.len();
        let x = nat::trim_vartime(x);
        if x.len() > 2 * s {
            return Err(Error::OperandTooLarge);
        }
        let mut xs = vec![W::ZERO; 2 * s];
        xs[..x.len()].copy_from_slice(x);

        // q1 = floor(x / W^(s−1)); q2 = q1·mu; q3 = floor(q2 / W^(s+1)).
        let q2 = product(&xs[s - 1..], &self.mu);
        let q3 = &q2[s + 1..];

        // r = (x mod W^(s+1)) − (q3·n mod W^(s+1)), modulo W^(s+1).
        let mut r = xs[..s + 1].to_vec();
        let r2 = mul_low(q3, n, s + 1);
        nat::sub_assign(&mut r, &r2);

        // At most two corrective subtractions (HAC 14.42, step 4).
        let mut fixes = 0;
        while nat::cmp_vartime(&r, n) != core::cmp::Ordering::Less {
            nat::sub_assign(&mut r, n);
            fixes += 1;
        }
        debug_assert!(fixes <= 2);
        r.truncate(s);
        Ok(r)
    }
}

/// The low `len` limbs of `a·b` (the rest is never computed).
fn mul_low<W: Word>(a: &[W], b: &[W], len: usize) -> Vec<W> {
    let mut out = vec![W::ZERO; len];
    for (i, &bi) in b.iter().enumerate().take(len) {
        let mut c = W::ZERO;
        for (o, &aj) in out[i..].iter_mut().zip(a) {
            (*o, c) = W::mac(*o, aj, bi, c);
        }
        if i + a.len() < len {
            out[i + a.len()] = c;
        }
    }
    out
}

impl<W: Word> VartimeModMul<W> for Barrett<W> {
    fn modulus(&self) -> &[W] {
        &self.n
    }

    /// `a·b mod n` for `a, b < W^s` (`s` limbs once trimmed; they need not be below `n`);
    /// longer operands are [`Error::OperandTooLarge`]. Variable time.
    fn mul_mod_vartime(&self, a: &[W], b: &[W]) -> Result<Vec<W>> {
        let s = self.n.len();
        let (a, b) = (nat::trim_vartime(a), nat::trim_vartime(b));
        if a.len() > s || b.len() > s {
            return Err(Error::OperandTooLarge);
        }
        self.reduce_vartime(&product(a, b))
    }
}

impl<W: Word> Barrett<W> {
    /// `a·b mod n` (`s` limbs) for `a, b < W^s`: schoolbook product, then Barrett reduction.
    /// Variable time. See [`VartimeModMul::mul_mod_vartime`].
    pub fn mul_mod_vartime(&self, a: &[W], b: &[W]) -> Result<Vec<W>> {
        VartimeModMul::mul_mod_vartime(self, a, b)
    }

    /// `base^exp mod n` (`s` limbs) by binary left-to-right exponentiation over Barrett
    /// multiplication; `exp` big-endian, exponent 0 gives `1 mod n`; `base < W^s`. Variable
    /// time. See [`VartimeModMul::pow_vartime`].
    pub fn pow_vartime(&self, base: &[W], exp: &[u8]) -> Result<Vec<W>> {
        VartimeModMul::pow_vartime(self, base, exp)
    }
}

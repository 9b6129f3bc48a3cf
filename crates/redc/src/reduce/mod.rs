//! Reduction baselines (papers 001 and 002): classical division-based and Barrett modular
//! multiplication. They are measured against Montgomery, never used on the RSA path.
//!
//! Both are **variable time**: Knuth's Algorithm D corrects its quotient digit with branches,
//! Barrett subtracts a data-dependent number of times, and both trim leading zero limbs. Every
//! public operation is named `_vartime`; none may see a secret.
//!
//! The shared shape is [`VartimeModMul`]: a modulus `n ≥ 1` (even moduli are fine here, unlike
//! Montgomery), a modular multiplication, and binary left-to-right exponentiation on top of it
//! with the exponent as big-endian bytes, as in [`crate::exp`]. Results have `s` limbs, where
//! `s` is the limb count of `n` without leading zero limbs.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::nat;
use crate::word::Word;

pub mod barrett;
pub mod classical;

/// A variable-time modular multiplier over a fixed modulus `n ≥ 1`.
pub trait VartimeModMul<W: Word> {
    /// The modulus, without leading zero limbs (`s` limbs).
    fn modulus(&self) -> &[W];

    /// `a·b mod n` in `s` limbs. Each implementation documents which `a`, `b` it accepts.
    /// Variable time.
    fn mul_mod_vartime(&self, a: &[W], b: &[W]) -> Result<Vec<W>>;

    /// `base^exp mod n` in `s` limbs by binary left-to-right exponentiation (paper 001):
    /// square for every exponent bit after the leading one, multiply when the bit is 1.
    ///
    /// `exp` is big-endian; exponent 0 gives `1 mod n`. `base` is accepted wherever
    /// [`mul_mod_vartime`](Self::mul_mod_vartime) accepts it and is reduced first. Variable
    /// time: the exponent's bits decide the multiplications.
    fn pow_vartime(&self, base: &[W], exp: &[u8]) -> Result<Vec<W>> {
        let one = [W::ONE];
        // base·1 mod n: the base reduced (and 1 mod n, which is 0 for n = 1, when exp = 0).
        let b = self.mul_mod_vartime(base, &one)?;
        let mut acc: Option<Vec<W>> = None;
        for &byte in exp {
            for k in (0..8).rev() {
                let bit = (byte >> k) & 1 == 1;
                acc = match acc {
                    // Leading zero bits cost nothing; the first one bit starts at the base.
                    None if bit => Some(b.clone()),
                    None => None,
                    Some(x) => {
                        let x = self.mul_mod_vartime(&x, &x)?;
                        Some(if bit {
                            self.mul_mod_vartime(&x, &b)?
                        } else {
                            x
                        })
                    }
                };
            }
        }
        match acc {
            Some(x) => Ok(x),
            None => self.mul_mod_vartime(&one, &one),
        }
    }
}

/// `n` without its leading zero limbs, or [`Error::ModulusTooSmall`] if `n = 0`.
pub(crate) fn modulus_vartime<W: Word>(n: &[W]) -> Result<Vec<W>> {
    let n = nat::trim_vartime(n);
    if n.iter().all(|&x| x == W::ZERO) {
        return Err(Error::ModulusTooSmall);
    }
    Ok(n.to_vec())
}

/// The schoolbook product `a·b` (`a.len() + b.len()` limbs, at least one), variable-length
/// inputs allowed (an empty one counts as zero).
pub(crate) fn product<W: Word>(a: &[W], b: &[W]) -> Vec<W> {
    let mut out = vec![W::ZERO; (a.len() + b.len()).max(1)];
    if !a.is_empty() && !b.is_empty() {
        nat::mul(&mut out, a, b);
    }
    out
}

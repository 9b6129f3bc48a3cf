//! Moduli in radix 2^52 ([`Modulus52`]) and the conversions between 64-bit limbs and 52-bit
//! digits; constant time (every bit position is public).

use alloc::vec;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::{MASK52, MAX_DIGITS, MAX_WIDE_DIGITS};
use crate::mont::Modulus;
use crate::nat;

/// Digits of 52 bits needed for an exponentiation modulo a `bits`-bit modulus: the smallest
/// `L` with `2^(52·L) > 4n`, so that almost-Montgomery values (`< 2n`) stay below `R/2`.
pub fn digits_for_bits(bits: usize) -> usize {
    (bits + 2).div_ceil(52)
}

/// One odd modulus in radix 2^52, with its constants, for [`pow_lanes`](super::pow_lanes).
///
/// Everything here is derived from a (possibly secret) prime in constant time; it is zeroized
/// when dropped.
#[derive(Clone)]
pub struct Modulus52 {
    pub(in crate::mont::backend) digits: usize,
    /// `n` in `digits` digits.
    pub(in crate::mont::backend) n: Zeroizing<Vec<u64>>,
    /// `−n⁻¹ mod 2^52`.
    pub(in crate::mont::backend) k0: u64,
    /// `2^(104·digits) mod n` in `digits` digits (to enter the domain).
    pub(in crate::mont::backend) rr: Zeroizing<Vec<u64>>,
    /// `n` in 64-bit limbs (for the final subtraction).
    pub(in crate::mont::backend) n64: Zeroizing<Vec<u64>>,
}

impl core::fmt::Debug for Modulus52 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Modulus52")
            .field("digits", &self.digits)
            .finish_non_exhaustive()
    }
}

impl Modulus52 {
    /// The radix-2^52 form of `m` with `digits` digits, or `None` if `digits` is below
    /// [`digits_for_bits`] of `m`'s bit length or above [`MAX_DIGITS`] (more digits than
    /// needed are always correct, only slower; each form runs only its own digit counts:
    /// [`COMPILED_DIGITS`](super::COMPILED_DIGITS) for [`pow_lanes`](super::pow_lanes),
    /// [`DUO_DIGITS`](crate::mont::backend::ifma_duo::DUO_DIGITS) and
    /// [`DUO_DIGITS_256`](crate::mont::backend::ifma_duo::DUO_DIGITS_256) for the duo form). Constant time in `m`'s value (it may be a secret prime): `2^(104·digits) mod n`
    /// by masked doublings from `2^(128·s)` or `2^(64·s) mod n`.
    pub fn new(m: &Modulus<u64>, digits: usize) -> Option<Self> {
        Self::with_cap(m, digits, MAX_DIGITS)
    }

    /// As [`Modulus52::new`], up to [`MAX_WIDE_DIGITS`] digits: for the wide public
    /// exponentiation only ([`pow_wide_public_vartime`](crate::mont::backend::ifma_pair::pow_wide_public_vartime)).
    pub fn new_wide(m: &Modulus<u64>, digits: usize) -> Option<Self> {
        Self::with_cap(m, digits, MAX_WIDE_DIGITS)
    }

    fn with_cap(m: &Modulus<u64>, digits: usize, cap: usize) -> Option<Self> {
        if digits < digits_for_bits(m.bits()) || digits > cap {
            return None;
        }
        let s = m.limbs();
        let n64 = m.n();
        // m.rr() and m.one() are 2^(128s) and 2^(64s) mod n as plain numbers: start from the
        // larger one below the target (104·L ≥ 2·bits + 4 ≥ 64·s for every modulus of 60 bits
        // or more), usually a few dozen doublings away.
        let target = 104 * digits;
        let (start, from) = if target >= 128 * s {
            (m.rr(), 128 * s)
        } else {
            (m.one(), 64 * s)
        };
        if target < from {
            return None;
        }
        let mut x = Zeroizing::new(start.to_vec());
        let mut tmp = Zeroizing::new(vec![0u64; s]);
        for _ in from..target {
            let top = nat::shl1_in(&mut x, 0);
            nat::reduce_once(&mut x, top, n64, &mut tmp);
        }
        let mut rr = Zeroizing::new(vec![0u64; digits]);
        to_radix52(&mut rr, &x);
        let mut n = Zeroizing::new(vec![0u64; digits]);
        to_radix52(&mut n, n64);
        Some(Modulus52 {
            digits,
            n,
            k0: m.n0() & MASK52,
            rr,
            n64: Zeroizing::new(n64.to_vec()),
        })
    }

    /// The digit count `L`.
    pub fn digits(&self) -> usize {
        self.digits
    }

    /// The modulus's 64-bit limb count.
    pub fn limbs(&self) -> usize {
        self.n64.len()
    }

    /// Test hook: every secret buffer.
    pub(crate) fn for_each_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
        for v in [&self.n[..], &self.rr[..], &self.n64[..]] {
            f(v.as_ptr() as *const u8, v.len() * 8);
        }
    }
}

/// `out` (digits of 52 bits) = `x` (64-bit limbs), truncated or zero-extended. Every bit
/// position is public, so this is constant time.
pub(in crate::mont::backend) fn to_radix52(out: &mut [u64], x: &[u64]) {
    for (d, o) in out.iter_mut().enumerate() {
        let bit = 52 * d;
        let (w, sh) = (bit / 64, bit % 64);
        let lo = x.get(w).copied().unwrap_or(0) >> sh;
        let hi = if sh > 12 {
            x.get(w + 1).copied().unwrap_or(0) << (64 - sh)
        } else {
            0
        };
        *o = (lo | hi) & MASK52;
    }
}

/// `out` (64-bit limbs) = `x` (normalised 52-bit digits), truncated or zero-extended.
pub(in crate::mont::backend) fn from_radix52(out: &mut [u64], x: &[u64]) {
    out.fill(0);
    for (d, &v) in x.iter().enumerate() {
        let bit = 52 * d;
        let (w, sh) = (bit / 64, bit % 64);
        if w < out.len() {
            out[w] |= v << sh;
        }
        if sh > 12 && w + 1 < out.len() {
            out[w + 1] |= v >> (64 - sh);
        }
    }
}

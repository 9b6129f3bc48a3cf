//! Modular exponentiation over a [`Modulus`] with a kernel it is handed.
//!
//! Two families with a hard boundary between them:
//! - [`fixed`]: the constant-time fixed window, the only method that may see a secret exponent;
//! - [`binary`], [`mary`] and [`sliding`]: the papers' variable-time methods (`_vartime`), for
//!   public exponents and for reproducing the papers' measurements.
//!
//! Every method takes the base in normal form (`base < n`, `s` limbs), the exponent as
//! big-endian bytes (its length is public, its value is not for [`fixed`]), and writes the
//! normal-form result. Exponent 0 gives 1.

use crate::error::{Error, Result};
use crate::mont::{Kernel, Modulus};
use crate::word::Word;

pub mod binary;
pub mod fixed;
pub mod mary;
pub mod sliding;

/// An exponentiation method and its window size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Left-to-right binary (paper 001). Variable time.
    Binary,
    /// m-ary with `m = 2^k` (paper 004 uses k = 4). Variable time.
    Mary(u32),
    /// Sliding window of `k` bits over odd powers (paper 002 uses k = 5). Variable time.
    Sliding(u32),
    /// Fixed window of `k` bits, constant time.
    Fixed(u32),
}

impl Method {
    /// Parses `binary`, `mary:K`, `sliding:K` or `fixed:K` with `K` in 1..=8.
    pub fn from_name(s: &str) -> Result<Self> {
        let lower = s.to_ascii_lowercase();
        if lower == "binary" {
            return Ok(Method::Binary);
        }
        let (name, k) = lower.split_once(':').ok_or(Error::UnknownName)?;
        let k: u32 = k.parse().map_err(|_| Error::InvalidWindow)?;
        if !(1..=8).contains(&k) {
            return Err(Error::InvalidWindow);
        }
        match name {
            "mary" => Ok(Method::Mary(k)),
            "sliding" => Ok(Method::Sliding(k)),
            "fixed" => Ok(Method::Fixed(k)),
            _ => Err(Error::UnknownName),
        }
    }

    /// `out = base^exp mod n` by this method. `base < n`, `out` has `s` limbs.
    ///
    /// Only [`Method::Fixed`] may be given a secret exponent.
    pub fn pow<W: Word>(
        self,
        out: &mut [W],
        base: &[W],
        exp: &[u8],
        m: &Modulus<W>,
        k: &Kernel<W>,
    ) {
        match self {
            Method::Binary => binary::pow_vartime(out, base, exp, m, k),
            Method::Mary(w) => mary::pow_vartime(out, base, exp, m, k, w),
            Method::Sliding(w) => sliding::pow_vartime(out, base, exp, m, k, w),
            Method::Fixed(w) => fixed::pow(out, base, exp, m, k, w),
        }
    }
}

/// The m-ary table `T[i] = M̄^i` for `i < entries` (`entries ≥ 2`), `s` limbs each, in the
/// Montgomery domain: `T[0] = R mod n`, `T[1] = M̄ = base·R mod n`, `T[i] = T[i−1]·T[1]`.
/// Shared by the fixed window (constant time: the work depends only on `entries` and `s`) and
/// m-ary. The caller zeroizes the table when the base is secret.
pub(crate) fn power_table<W: Word>(
    base: &[W],
    entries: usize,
    m: &Modulus<W>,
    k: &Kernel<W>,
    scratch: &mut [W],
) -> alloc::vec::Vec<W> {
    let s = m.limbs();
    let mut table = alloc::vec![W::ZERO; entries * s];
    table[..s].copy_from_slice(m.one());
    m.to_mont(&mut table[s..2 * s], base, k, scratch);
    for i in 2..entries {
        let (done, rest) = table.split_at_mut(i * s);
        (k.mul)(
            &mut rest[..s],
            &done[(i - 1) * s..],
            &done[s..2 * s],
            m.n(),
            m.n0(),
            scratch,
        );
    }
    table
}

/// Bit `i` (0 = least significant) of the big-endian `exp`; 0 beyond its length.
#[inline]
pub(crate) fn exp_bit(exp: &[u8], i: usize) -> u32 {
    let byte = i / 8;
    if byte >= exp.len() {
        return 0;
    }
    ((exp[exp.len() - 1 - byte] >> (i % 8)) & 1) as u32
}

/// Bits `[lo, lo+k)` of the big-endian `exp` as a number (bits beyond its length are 0).
/// The positions are public; the value returned may be secret and is not branched on.
#[inline]
pub(crate) fn exp_bits(exp: &[u8], lo: usize, k: u32) -> u32 {
    if k > 16 {
        let mut d = 0;
        for j in (0..k as usize).rev() {
            d = (d << 1) | exp_bit(exp, lo + j);
        }
        return d;
    }
    // The three bytes from the one holding bit `lo` upwards hold every bit asked for (at most
    // 7 + 16 of their 24); which bytes those are depends on `lo` only.
    let byte = |b: usize| {
        if b < exp.len() {
            u32::from(exp[exp.len() - 1 - b])
        } else {
            0
        }
    };
    let b = lo / 8;
    let w = byte(b) | byte(b + 1) << 8 | byte(b + 2) << 16;
    (w >> (lo % 8)) & ((1u32 << k) - 1)
}

/// Bit length of a public exponent (0 for zero).
pub fn exp_bit_len_vartime(exp: &[u8]) -> usize {
    for (i, &b) in exp.iter().enumerate() {
        if b != 0 {
            return (exp.len() - i) * 8 - b.leading_zeros() as usize;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::{exp_bit, exp_bits};

    #[test]
    fn exp_bits_reads_the_bits_one_at_a_time_would() {
        let exps: [&[u8]; 4] = [&[], &[0x80], &[0xa5, 0x3c, 0xff, 0x01, 0x7e], &[0xff; 9]];
        for exp in exps {
            for lo in 0..exp.len() * 8 + 24 {
                for k in 0..=20u32 {
                    let mut want = 0;
                    for j in (0..k as usize).rev() {
                        want = (want << 1) | exp_bit(exp, lo + j);
                    }
                    assert_eq!(exp_bits(exp, lo, k), want, "{exp:?} bits {lo}..+{k}");
                }
            }
        }
    }
}

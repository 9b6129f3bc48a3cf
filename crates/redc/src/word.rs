//! The machine word: the one place that knows how wide a limb is.
//!
//! Every algorithm of the papers is written once, generic over [`Word`], and instantiated for
//! `u32` (the 32-bit processors of papers 001 and 003) and `u64` (today's). The operations are the
//! ones the papers' pseudo-code uses: a widening multiply-accumulate `(C,S) = t + a·b + c` and
//! add/subtract with carry. None of them branches on its operands.

use core::fmt::Debug;

/// A limb: an unsigned machine word with carry-aware arithmetic.
///
/// Implementations MUST NOT branch on operand values; every method is a straight-line
/// computation (the compiler lowers them to `mul`/`adc`/`sbb`).
pub trait Word:
    Copy
    + Clone
    + Debug
    + Default
    + PartialEq
    + Eq
    + PartialOrd
    + Ord
    + Send
    + Sync
    + zeroize::DefaultIsZeroes
    + 'static
{
    /// Bits per word, `w` in the papers.
    const BITS: u32;
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// All ones, `W − 1`.
    const MAX: Self;

    /// `(lo, hi)` of the double-word sum `t + a·b + c`; it never overflows two words, since
    /// `(W−1) + (W−1)² + (W−1) = W² − 1`.
    fn mac(t: Self, a: Self, b: Self, c: Self) -> (Self, Self);
    /// `(lo, hi)` of `a·b`.
    fn mul_wide(a: Self, b: Self) -> (Self, Self) {
        Self::mac(Self::ZERO, a, b, Self::ZERO)
    }
    /// `(a + b + carry mod W, carry out)`, with `carry` in {0, 1}.
    fn adc(a: Self, b: Self, carry: Self) -> (Self, Self);
    /// `(a − b − borrow mod W, borrow out)`, with `borrow` in {0, 1}.
    fn sbb(a: Self, b: Self, borrow: Self) -> (Self, Self);
    /// `a·b mod W`.
    fn wrapping_mul(self, b: Self) -> Self;
    /// `a + b mod W`.
    fn wrapping_add(self, b: Self) -> Self;
    /// `a − b mod W`.
    fn wrapping_sub(self, b: Self) -> Self;
    /// `−a mod W`.
    fn wrapping_neg(self) -> Self;
    /// Bitwise and.
    fn and(self, b: Self) -> Self;
    /// Bitwise or.
    fn or(self, b: Self) -> Self;
    /// Bitwise exclusive or.
    fn xor(self, b: Self) -> Self;
    /// Bitwise not.
    fn not(self) -> Self;
    /// Logical shift left by `k < BITS`.
    fn shl(self, k: u32) -> Self;
    /// Logical shift right by `k < BITS`.
    fn shr(self, k: u32) -> Self;
    /// The low `BITS` bits of `x`.
    fn from_u64(x: u64) -> Self;
    /// The value as a `u64` (exact for both widths).
    fn to_u64(self) -> u64;
    /// All ones if `bit` is 1, zero if it is 0 (`bit` MUST be 0 or 1): `0 − bit`.
    fn mask(bit: Self) -> Self {
        Self::ZERO.wrapping_sub(bit)
    }
    /// Number of leading zero bits (variable time only in the sense of the instruction; used on
    /// public values).
    fn leading_zeros(self) -> u32;
    /// The slices as `u64` words when `Self` is `u64` (for width-specific fast paths such as
    /// the AVX2 table scan), `None` otherwise.
    fn as_u64_slices<'a>(dst: &'a mut [Self], src: &'a [Self]) -> Option<(&'a mut [u64], &'a [u64])>
    where
        Self: Sized,
    {
        let _ = (dst, src);
        None
    }
}

macro_rules! impl_word {
    ($t:ty, $wide:ty, as_u64) => {
        impl_word!(@impl $t, $wide,
            #[inline(always)]
            fn as_u64_slices<'a>(
                dst: &'a mut [Self],
                src: &'a [Self],
            ) -> Option<(&'a mut [u64], &'a [u64])> {
                Some((dst, src))
            }
        );
    };
    ($t:ty, $wide:ty) => {
        impl_word!(@impl $t, $wide,);
    };
    (@impl $t:ty, $wide:ty, $($extra:item)*) => {
        impl Word for $t {
            $($extra)*
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = <$t>::MAX;

            #[inline(always)]
            fn mac(t: Self, a: Self, b: Self, c: Self) -> (Self, Self) {
                let r = (a as $wide) * (b as $wide) + (t as $wide) + (c as $wide);
                (r as $t, (r >> <$t>::BITS) as $t)
            }
            #[inline(always)]
            fn adc(a: Self, b: Self, carry: Self) -> (Self, Self) {
                let r = (a as $wide) + (b as $wide) + (carry as $wide);
                (r as $t, (r >> <$t>::BITS) as $t)
            }
            #[inline(always)]
            fn sbb(a: Self, b: Self, borrow: Self) -> (Self, Self) {
                let r = (a as $wide)
                    .wrapping_sub(b as $wide)
                    .wrapping_sub(borrow as $wide);
                (r as $t, ((r >> <$t>::BITS) as $t) & 1)
            }
            #[inline(always)]
            fn wrapping_mul(self, b: Self) -> Self {
                <$t>::wrapping_mul(self, b)
            }
            #[inline(always)]
            fn wrapping_add(self, b: Self) -> Self {
                <$t>::wrapping_add(self, b)
            }
            #[inline(always)]
            fn wrapping_sub(self, b: Self) -> Self {
                <$t>::wrapping_sub(self, b)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn and(self, b: Self) -> Self {
                self & b
            }
            #[inline(always)]
            fn or(self, b: Self) -> Self {
                self | b
            }
            #[inline(always)]
            fn xor(self, b: Self) -> Self {
                self ^ b
            }
            #[inline(always)]
            fn not(self) -> Self {
                !self
            }
            #[inline(always)]
            fn shl(self, k: u32) -> Self {
                self << k
            }
            #[inline(always)]
            fn shr(self, k: u32) -> Self {
                self >> k
            }
            #[inline(always)]
            fn from_u64(x: u64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
        }
    };
}

impl_word!(u32, u64);
impl_word!(u64, u128, as_u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mac_extremes() {
        assert_eq!(
            u64::mac(u64::MAX, u64::MAX, u64::MAX, u64::MAX),
            (u64::MAX, u64::MAX)
        );
        assert_eq!(
            u32::mac(u32::MAX, u32::MAX, u32::MAX, u32::MAX),
            (u32::MAX, u32::MAX)
        );
        assert_eq!(u32::mul_wide(0x1_0000, 0x1_0000), (0, 1));
    }

    #[test]
    fn carries_and_borrows() {
        assert_eq!(u64::adc(u64::MAX, 0, 1), (0, 1));
        assert_eq!(u64::adc(u64::MAX, u64::MAX, 1), (u64::MAX, 1));
        assert_eq!(u32::sbb(0, 0, 1), (u32::MAX, 1));
        assert_eq!(u32::sbb(5, 3, 1), (1, 0));
        assert_eq!(u64::sbb(0, u64::MAX, 1), (0, 1));
        assert_eq!(u64::mask(1), u64::MAX);
        assert_eq!(u64::mask(0), 0);
    }
}

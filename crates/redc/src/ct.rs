//! Constant-time building blocks: secret predicates as [`Choice`], word masks, and masked
//! selection.
//!
//! A secret predicate is never a `bool`: it is a [`Choice`] (from the `subtle` crate, whose value
//! barrier keeps the compiler from turning a mask back into a branch) or an all-ones/all-zeros
//! word mask. Converting between the two goes through [`mask_from_choice`] and
//! [`choice_from_mask`].

pub use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use crate::word::Word;

/// The all-ones word if `c` is true, zero otherwise.
#[inline]
pub fn mask_from_choice<W: Word>(c: Choice) -> W {
    W::mask(W::from_u64(c.unwrap_u8() as u64))
}

/// `Choice` of a word mask that MUST be all ones or all zeros.
#[inline]
pub fn choice_from_mask<W: Word>(mask: W) -> Choice {
    Choice::from((mask.to_u64() & 1) as u8)
}

/// `x` unchanged, but opaque to the optimiser: the compiler can no longer prove anything about
/// the value (that it is 0 or 1, say), so it cannot turn mask arithmetic built on it back into
/// a branch. On x86-64 and AArch64 this is an empty `asm!` statement that claims to rewrite the
/// register (no instruction, no memory traffic); elsewhere [`core::hint::black_box`].
#[inline(always)]
pub fn barrier<W: Word>(x: W) -> W {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut v = x.to_u64();
        // SAFETY: an empty assembly template: it reads and writes only the register holding
        // `v` (declared inout), touches no memory, no stack and no flags.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(reg) v,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        W::from_u64(v)
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        core::hint::black_box(x)
    }
}

/// A word mask from a bit that MUST be 0 or 1 (`0 − bit`), the bit passed through
/// [`barrier`] first so that the compiler cannot branch on it (on other architectures than
/// x86-64 and AArch64, through `subtle`'s value barrier instead, as [`core::hint::black_box`]
/// is only a best effort).
#[inline]
pub fn mask_from_bit<W: Word>(bit: W) -> W {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        W::mask(barrier(bit.and(W::ONE)))
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        mask_from_choice(Choice::from((bit.to_u64() & 1) as u8))
    }
}

/// All ones if `x == 0`, zero otherwise, without a branch.
#[inline]
pub fn is_zero_mask<W: Word>(x: W) -> W {
    // x | −x has its top bit set exactly when x ≠ 0.
    let top = x.or(x.wrapping_neg()).shr(W::BITS - 1);
    mask_from_bit(top.xor(W::ONE))
}

/// All ones if `a == b`, zero otherwise.
#[inline]
pub fn eq_mask<W: Word>(a: W, b: W) -> W {
    is_zero_mask(a.xor(b))
}

/// `a` where `mask` is all ones, `b` where it is zero.
#[inline]
pub fn select_word<W: Word>(mask: W, a: W, b: W) -> W {
    b.xor(mask.and(a.xor(b)))
}

/// `dst = src` where `mask` is all ones; `dst` unchanged where it is zero. Equal lengths.
///
/// Never inlined: inside its own body `dst` and `src` are known not to overlap, while inlined
/// into a caller the vectoriser may add a run-time overlap test of the two addresses, whose
/// outcome (public heap layout, but not the same from call to call) would make the instruction
/// count vary, which the callgrind test rightly reports.
#[inline(never)]
pub fn assign_masked<W: Word>(mask: W, dst: &mut [W], src: &[W]) {
    debug_assert_eq!(dst.len(), src.len());
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = select_word(mask, s, *d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(is_zero_mask(0u64), u64::MAX);
        assert_eq!(is_zero_mask(1u64), 0);
        assert_eq!(is_zero_mask(u32::MAX), 0);
        assert_eq!(is_zero_mask(1u32 << 31), 0);
        assert_eq!(eq_mask(7u32, 7), u32::MAX);
        assert_eq!(eq_mask(7u32, 8), 0);
        assert_eq!(select_word(u64::MAX, 1, 2), 1);
        assert_eq!(select_word(0u64, 1, 2), 2);
        let mut d = [1u32, 2];
        assign_masked(0, &mut d, &[3, 4]);
        assert_eq!(d, [1, 2]);
        assign_masked(u32::MAX, &mut d, &[3, 4]);
        assert_eq!(d, [3, 4]);
        assert_eq!(mask_from_choice::<u64>(Choice::from(1)), u64::MAX);
        assert!(bool::from(choice_from_mask(u32::MAX)));
    }
}

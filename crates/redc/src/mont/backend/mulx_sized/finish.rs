//! The masked final subtractions of the sized kernels, one unrolled `asm!` block each.

/// The masked final subtraction for `S` limbs in one unrolled `asm!` block: `out = u − n` if
/// that does not borrow, else `out = u`, where `u = T[S..2S] + cy·R` (`u < 2n`). The borrow
/// becomes a mask through `sbb` (no branch), and the choice is `out ^= mask & (u ^ out)` on every
/// word; the same result as [`crate::nat::final_sub`].
///
/// # Safety
/// `t` is valid for `2S` limb reads, `n` for `S` reads, `out` for `S` writes (x86-64 only;
/// no extension needed).
#[inline(always)]
pub(in crate::mont::backend) unsafe fn final_sub<const S: usize>(
    out: *mut u64,
    t: *const u64,
    cy: u64,
    n: *const u64,
) {
    // SAFETY: the caller guarantees the sizes; the offsets are fixed by S, no stack is used.
    unsafe {
        core::arch::asm!(
            ".set fs_j, 0",
            ".rept {s}",
            "mov 8*({s}+fs_j)({t}), {x}",
            ".if fs_j == 0",
            "sub ({n}), {x}",
            ".else",
            "sbb 8*fs_j({n}), {x}",
            ".endif",
            "mov {x}, 8*fs_j({out})",
            ".set fs_j, fs_j + 1",
            ".endr",
            // The top word cy ∈ {0, 1} absorbs the borrow or borrows itself: u < n.
            "sbb $0, {cy}",
            // mask = all ones iff u < n (keep u).
            "sbb {m}, {m}",
            ".set fs_j, 0",
            ".rept {s}",
            "mov 8*({s}+fs_j)({t}), {x}",
            "mov 8*fs_j({out}), {y}",
            "xor {y}, {x}",
            "and {m}, {x}",
            "xor {y}, {x}",
            "mov {x}, 8*fs_j({out})",
            ".set fs_j, fs_j + 1",
            ".endr",
            s = const S,
            t = in(reg) t,
            n = in(reg) n,
            out = in(reg) out,
            cy = inout(reg) cy => _,
            x = out(reg) _,
            y = out(reg) _,
            m = out(reg) _,
            options(att_syntax, nostack),
        );
    }
}

/// The almost Montgomery final step for `S` limbs in one unrolled `asm!` block:
/// `out = T[S..2S] − (n & mask)` with `mask = −cy` (all ones iff the carry word `cy` is 1), in
/// two short passes (mask `n` into `out`, then subtract) with no branch; the same result as
/// `mulx::finish_almost`. With `u = T[S..2S] + cy·R < R + n`, the borrow out of the top word
/// cancels `cy`, so `out < R`.
///
/// # Safety
/// `t` is valid for `2S` limb reads, `n` for `S` reads, `out` for `S` writes (x86-64 only;
/// no extension needed).
#[inline(always)]
pub(in crate::mont::backend) unsafe fn final_sub_almost<const S: usize>(
    out: *mut u64,
    t: *const u64,
    cy: u64,
    n: *const u64,
) {
    // SAFETY: the caller guarantees the sizes; the offsets are fixed by S, no stack is used.
    unsafe {
        core::arch::asm!(
            // out = n & mask first (AND clears CF, so it cannot sit inside the borrow chain).
            "neg {m}",
            ".set fa_j, 0",
            ".rept {s}",
            "mov 8*fa_j({n}), {x}",
            "and {m}, {x}",
            "mov {x}, 8*fa_j({out})",
            ".set fa_j, fa_j + 1",
            ".endr",
            // out = T[S..2S] − out.
            ".set fa_j, 0",
            ".rept {s}",
            "mov 8*({s}+fa_j)({t}), {y}",
            ".if fa_j == 0",
            "sub 8*fa_j({out}), {y}",
            ".else",
            "sbb 8*fa_j({out}), {y}",
            ".endif",
            "mov {y}, 8*fa_j({out})",
            ".set fa_j, fa_j + 1",
            ".endr",
            s = const S,
            t = in(reg) t,
            n = in(reg) n,
            out = in(reg) out,
            m = inout(reg) cy => _,
            x = out(reg) _,
            y = out(reg) _,
            options(att_syntax, nostack),
        );
    }
}

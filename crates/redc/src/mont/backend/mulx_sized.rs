//! Size-specialised MULX/ADCX/ADOX kernels: one `asm!` block per operation, unrolled by the
//! assembler (`.rept`) for a limb count `S` fixed at compile time.
//!
//! # Shape (separated operand scanning, paper 003 §2, with two carry chains per row)
//!
//! Every row adds `x·v` (one word times `len` words) into the accumulator `T` in memory:
//!
//! ```text
//! for j in 0..len:
//!     (hi_j, lo_j) = x·v[j]               MULX: writes no flag
//!     T[j]   += lo_j            (+ CF)    ADCX: the low-half chain
//!     T[j+1] += hi_j            (+ OF)    ADOX: the high-half chain, ahead by one column
//! column len = hi_{len-1} + OF + CF      (the row's carry word)
//! ```
//!
//! The two chains are independent (CF and OF), so a row issues one MULX and two additions per
//! column with no serialisation between the multiply and the carry propagation: Itoh's two carry
//! chains and Furukawa et al.'s "the multiply never waits for the addition" (paper 002,
//! `ALGORITHMS.md`) on today's hardware. The carry word cannot overflow:
//! `T[0..len] + x·v < W^len + (W−1)(W^len−1) < W^(len+1)`.
//!
//! - Multiplication: `T[0..2S] = a·b` by `S` product rows (the first writes, the rest add),
//!   then `S` reduction rows: `m = T[i]·n'`, `T[i..i+S] += m·n` (so `T[i]` becomes 0), the
//!   carry word and the pending carry bit `cy` are added into `T[i+S]`, whose carry becomes the
//!   new `cy`. Afterwards `T[S..2S] + cy·R = (a·b + M·n)/R < 2n`.
//! - Squaring (paper 004's "sum the off-diagonal products once, double, add the diagonal"):
//!   the triangle `Σ_{i<j} a_i·a_j` by rows of length `S−1−i`, then one pass doubling `T`
//!   (ADCX `x, x`) and adding each `a_k²` (ADOX) at columns `2k, 2k+1`, then the same reduction.
//!
//! The caller finishes with the masked final subtraction [`crate::nat::final_sub`].
//! Nothing here branches on or indexes by a value: the only branches are the row loops, whose
//! trip counts are `S`.
//!
//! Registers: `t` accumulator pointer, `a`/`b`/`n` operand pointers, `rdx` the MULX multiplier,
//! `lo`, `h0`/`h1` (the high words of even and odd columns alternate, since `hi_j` is still
//! pending in the low chain while `hi_{j+1}` is produced), `z` a zero, `cy` the reduction carry
//! bit, `cnt` the row counter of the looped forms.

/// One product or reduction row: `T[db..db+len] += rdx·src[sb..sb+len]`, column 0's
/// accumulator already in `h1`, `z = 0` and CF = OF = 0 on entry. Leaves the carry word in `h0`
/// with CF = OF = 0. Stores column 0 only if the assembler symbol `rc_st0` is non-zero (a
/// reduction row makes it zero). `rc_sb`, `rc_db`, `rc_len` are assembler symbols set before.
macro_rules! row_addmul {
    ($src:literal) => {
        concat!(
            ".set rc_j, 0\n",
            ".rept rc_len\n",
            ".if (rc_j & 1) == 0\n",
            row_addmul!(@step $src, "{h0}", "{h1}"),
            ".else\n",
            row_addmul!(@step $src, "{h1}", "{h0}"),
            ".endif\n",
            ".set rc_j, rc_j + 1\n",
            ".endr\n",
            // The last column's high word is in h1 when len is even: bring it to h0.
            ".if (rc_len & 1) == 0\n",
            "mov {h1}, {h0}\n",
            ".endif\n",
            "adcx {z}, {h0}\n",
        )
    };
    (@step $src:literal, $hc:literal, $hp:literal) => {
        concat!(
            "mulx rc_sb+8*rc_j(", $src, "), {lo}, ", $hc, "\n",
            "adcx {lo}, ", $hp, "\n",
            ".if rc_j + rc_st0\n",
            "mov ", $hp, ", rc_db+8*rc_j({t})\n",
            ".endif\n",
            // A reduction row keeps column 1 (the next row's T[i+1]) for the next m.
            ".if (rc_st0 == 0) && (rc_j == 1)\n",
            "mov ", $hp, ", {nm}\n",
            ".endif\n",
            ".if rc_j == rc_len - 1\n",
            "adox {z}, ", $hc, "\n",
            ".else\n",
            "adox rc_db+8*rc_j+8({t}), ", $hc, "\n",
            ".endif\n",
        )
    };
}

/// The first product row: `T[db..=db+len] = rdx·src[sb..sb+len]`; one ADCX chain
/// `lo_j + hi_{j−1}`. Needs `h1 = 0`, `z = 0`, CF = 0 on entry.
macro_rules! row_mul1 {
    ($src:literal) => {
        concat!(
            ".set rc_j, 0\n",
            ".rept rc_len\n",
            ".if (rc_j & 1) == 0\n",
            row_mul1!(@step $src, "{h0}", "{h1}"),
            ".else\n",
            row_mul1!(@step $src, "{h1}", "{h0}"),
            ".endif\n",
            ".set rc_j, rc_j + 1\n",
            ".endr\n",
            ".if (rc_len & 1) == 0\n",
            "mov {h1}, {h0}\n",
            ".endif\n",
            "adcx {z}, {h0}\n",
            "mov {h0}, rc_db+8*rc_len({t})\n",
        )
    };
    (@step $src:literal, $hc:literal, $hp:literal) => {
        concat!(
            "mulx rc_sb+8*rc_j(", $src, "), {lo}, ", $hc, "\n",
            "adcx ", $hp, ", {lo}\n",
            "mov {lo}, rc_db+8*rc_j({t})\n",
        )
    };
}

/// The `S` reduction rows over `T` (pointer `t` at `T`, advanced to `T + 8S`), leaving the
/// top carry bit in `cy`. `$head`/`$tail` open and close the repetition (`.rept` or a loop).
macro_rules! reduction {
    ($head:expr, $tail:expr) => {
        concat!(
            "xor {cy:e}, {cy:e}\n",
            ".set rc_sb, 0\n",
            ".set rc_db, 0\n",
            ".set rc_st0, 0\n",
            // m = T[i]·n' mod W: the multiplier that makes the row's column 0 vanish. Each
            // row computes the next row's m from its column 1 in a register (`nm`), so the
            // chain from row to row does not wait for a store to reach a load.
            "mov ({t}), {nm}\n",
            "imul {n0}, {nm}\n",
            $head,
            "mov {nm}, %rdx\n",
            "mov ({t}), {h1}\n",
            "xor {z:e}, {z:e}\n",
            row_addmul!("{n}"),
            // T[i+S] += carry word + cy; at most one carry out (the sum is < 2W).
            "add {cy}, {h0}\n",
            "mov $0, {cy:e}\n",
            "adc $0, {cy:e}\n",
            "add {h0}, 8*rc_len({t})\n",
            "adc $0, {cy:e}\n",
            "imul {n0}, {nm}\n",
            "lea 8({t}), {t}\n",
            $tail,
        )
    };
}

/// Defines `unsafe fn $mul(t, a, b, n, n0) -> cy` and `unsafe fn $sqr(t, a, n, n0) -> cy` for
/// `$s` limbs. `$full` chooses full unrolling of the rows (`true`) or a loop over rows
/// (`false`, for the large sizes whose unrolled code would not fit the instruction cache).
/// The squaring's triangle is always unrolled (its rows have different lengths).
macro_rules! sized {
    ($mul:ident, $sqr:ident, $s:literal, $full:tt) => {
        /// `T[S..2S] + cy·R = (a·b + M·n)/R` for this size; see the module documentation.
        ///
        /// # Safety
        /// The CPU supports BMI2 and ADX; `t` is valid for `2S` limb writes, `a`, `b`, `n`
        /// for `S` limb reads.
        #[inline(never)]
        pub(super) unsafe fn $mul(t: *mut u64, a: *const u64, b: *const u64, n: *const u64, n0: u64) -> u64 {
            let cy: u64;
            // SAFETY: the caller guarantees ADX/BMI2 and the buffer sizes; the asm reads
            // a[0..S], b[0..S], n[0..S] and writes T[0..2S] only (offsets are fixed by S), uses
            // no stack, and declares every register it changes.
            unsafe {
                core::arch::asm!(
                    // Product row 0 writes T[0..=S].
                    "mov ({b}), %rdx",
                    "xor {z:e}, {z:e}",
                    "xor {h1:e}, {h1:e}",
                    ".set rc_sb, 0",
                    ".set rc_db, 0",
                    ".set rc_st0, 1",
                    concat!(".set rc_len, ", stringify!($s)),
                    row_mul1!("{a}"),
                    // Product rows 1..S add into T[i..i+S] and write the carry word to T[i+S].
                    sized!(@open $full, $s - 1),
                    "lea 8({t}), {t}",
                    "lea 8({b}), {b}",
                    "mov ({b}), %rdx",
                    "xor {z:e}, {z:e}",
                    "mov ({t}), {h1}",
                    row_addmul!("{a}"),
                    "mov {h0}, 8*rc_len({t})",
                    sized!(@close $full),
                    concat!("lea -8*(", stringify!($s), "-1)({t}), {t}"),
                    reduction!(sized!(@open $full, $s), sized!(@close $full)),
                    t = inout(reg) t => _,
                    a = in(reg) a,
                    b = inout(reg) b => _,
                    n = in(reg) n,
                    n0 = in(reg) n0,
                    cy = out(reg) cy,
                    lo = out(reg) _,
                    h0 = out(reg) _,
                    h1 = out(reg) _,
                    z = out(reg) _,
                    cnt = out(reg) _,
                    nm = out(reg) _,
                    out("rdx") _,
                    options(att_syntax, nostack),
                );
            }
            cy
        }

        /// `T[S..2S] + cy·R = (a² + M·n)/R` for this size by the dedicated squaring; see the
        /// module documentation.
        ///
        /// # Safety
        /// As for the multiplication.
        #[inline(never)]
        pub(super) unsafe fn $sqr(t: *mut u64, a: *const u64, n: *const u64, n0: u64) -> u64 {
            let cy: u64;
            // SAFETY: as for the multiplication; the triangle writes T[1..2S−1], the
            // doubling pass T[0..2S].
            unsafe {
                core::arch::asm!(
                    concat!(".set rc_s, ", stringify!($s)),
                    "movq $0, ({t})",
                    "movq $0, 8*(2*rc_s-1)({t})",
                    ".set rc_st0, 1",
                    // Triangle row 0: T[1..=S] = a_0·a[1..S].
                    ".if rc_s >= 2",
                    "mov ({a}), %rdx",
                    "xor {z:e}, {z:e}",
                    "xor {h1:e}, {h1:e}",
                    ".set rc_sb, 8",
                    ".set rc_db, 8",
                    ".set rc_len, rc_s - 1",
                    row_mul1!("{a}"),
                    ".endif",
                    // Triangle rows 1..S−1: T[2i+1..i+S] += a_i·a[i+1..S], carry word to T[i+S].
                    ".if rc_s >= 3",
                    ".set rc_i, 1",
                    ".rept rc_s - 2",
                    "mov 8*rc_i({a}), %rdx",
                    "xor {z:e}, {z:e}",
                    ".set rc_sb, 8*(rc_i+1)",
                    ".set rc_db, 8*(2*rc_i+1)",
                    ".set rc_len, rc_s - 1 - rc_i",
                    "mov rc_db({t}), {h1}",
                    row_addmul!("{a}"),
                    "mov {h0}, rc_db+8*rc_len({t})",
                    ".set rc_i, rc_i + 1",
                    ".endr",
                    ".endif",
                    // T = 2T + Σ a_k²·W^(2k): doubling on CF, the squares on OF.
                    "xor {z:e}, {z:e}",
                    ".set rc_k, 0",
                    ".rept rc_s",
                    "mov 8*rc_k({a}), %rdx",
                    "mulx %rdx, {lo}, {h0}",
                    "mov 16*rc_k({t}), {h1}",
                    "adcx {h1}, {h1}",
                    "adox {lo}, {h1}",
                    "mov {h1}, 16*rc_k({t})",
                    "mov 16*rc_k+8({t}), {cy}",
                    "adcx {cy}, {cy}",
                    "adox {h0}, {cy}",
                    "mov {cy}, 16*rc_k+8({t})",
                    ".set rc_k, rc_k + 1",
                    ".endr",
                    ".set rc_len, rc_s",
                    reduction!(sized!(@open $full, $s), sized!(@close $full)),
                    t = inout(reg) t => _,
                    a = in(reg) a,
                    n = in(reg) n,
                    n0 = in(reg) n0,
                    cy = out(reg) cy,
                    lo = out(reg) _,
                    h0 = out(reg) _,
                    h1 = out(reg) _,
                    z = out(reg) _,
                    cnt = out(reg) _,
                    nm = out(reg) _,
                    out("rdx") _,
                    options(att_syntax, nostack),
                );
            }
            cy
        }
    };
    (@open true, $count:expr) => {
        // (`cnt` is unused when fully unrolled.)
        concat!("/* {cnt} */\n.rept ", stringify!($count), "\n")
    };
    (@close true) => {
        ".endr\n"
    };
    (@open false, $count:expr) => {
        concat!("mov $", stringify!($count), ", {cnt:e}\n", ".p2align 5\n", "2:\n")
    };
    (@close false) => {
        "dec {cnt:e}\njnz 2b\n"
    };
}

sized!(mul6, sqr6, 6, true);
sized!(mul8, sqr8, 8, true);
sized!(mul11, sqr11, 11, true);
sized!(mul12, sqr12, 12, true);
sized!(mul16, sqr16, 16, true);
sized!(mul22, sqr22, 22, false);
sized!(mul24, sqr24, 24, false);
sized!(mul32, sqr32, 32, false);
sized!(mul48, sqr48, 48, false);
sized!(mul64, sqr64, 64, false);

/// The masked final subtraction for `S` limbs in one unrolled `asm!` block: `out = u − n` if
/// that does not borrow, else `out = u`, where `u = T[S..2S] + cy·R` (`u < 2n`). The borrow
/// becomes a mask through `sbb` (no branch), and the choice is `out ^= mask & (u ^ out)` on every
/// word; the same result as [`crate::nat::final_sub`].
///
/// # Safety
/// `t` is valid for `2S` limb reads, `n` for `S` reads, `out` for `S` writes (x86-64 only;
/// no extension needed).
#[inline(always)]
pub(super) unsafe fn final_sub<const S: usize>(
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

//! Size-specialised MULX/ADCX/ADOX kernels: one `asm!` block per operation for a limb count
//! `S` fixed at compile time, its columns unrolled by the assembler (`.rept`), its rows too at
//! 6 and 8 limbs and looped from 11 limbs up (see "Unrolled or looped rows" below).
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
//! chains and Furukawa et al.'s "the multiply never waits for the addition" (paper 002)
//! on today's hardware. The carry word cannot overflow:
//! `T[0..len] + x·v < W^len + (W−1)(W^len−1) < W^(len+1)`.
//!
//! - Multiplication: `T[0..2S] = a·b` by `S` product rows (the first writes, the rest add),
//!   then `S` reduction rows: `m = T[i]·n'`, `T[i..i+S] += m·n` (so `T[i]` becomes 0), the
//!   carry word and the pending carry bit `cy` are added into `T[i+S]`, whose carry becomes the
//!   new `cy`. Afterwards `T[S..2S] + cy·R = (a·b + M·n)/R < 2n`.
//! - Squaring (paper 004's "sum the off-diagonal products once, double, add the diagonal"):
//!   the triangle `Σ_{i<j} a_i·a_j` by rows of length `S−1−i` (at 32 limbs as two half
//!   triangles and a rectangle, `tri_halves`, at 64 the same with the lower half split again,
//!   `tri_halves_nested`), then one pass doubling `T` (ADCX `x, x`) and adding each `a_k²`
//!   (ADOX) at columns `2k, 2k+1`, then the same reduction.
//!
//! # Forms per size
//!
//! The kernels of each size come from one list ([`with_sizes`]); the forms differ where a
//! measurement said so (the history of every comparison is in the repository's
//! `docs/kernel-notes.md`):
//!
//! | limbs | triangle | reduction | rows | deciding figure |
//! |---|---|---|---|---|
//! | 6 | rows | rows | unrolled | — |
//! | 8 | registers (`tri_regs8`) | 8-word register window ([`reduce8`]), almost form finished in the window (`wfinal`) | unrolled | Zen 3: window 4–6 % faster fixed-window exponentiation; still ahead on the Intel Xeon (family 6 model 207) |
//! | 11, 12, 22 | rows | rows | looped | 11/12: looped 3–8 % faster than unrolled (smaller code) |
//! | 16 | rows (Intel and unknown kinds) or registers `tri_regs16` with the shared window reduction `reduce8_shared` (AMD kinds) | as the triangle's column | looped | Intel Xeon 207: rows 2,180 against 2,020 sign/s; AMD EPYC Zen 4 (family 25 model 17): window 1,954 against 1,912 (`REDC_BACKEND=mulx redc speed --bits 2048`, alternating builds); chosen by `cpu::Forms` |
//! | 24, 48 | 8-limb register blocks (`tri_regs_blocks`) | rows | looped | 48: 3072-bit verification 6–8 % faster than a looped `sqr8x`-style blocking |
//! | 32 | two half triangles (`tri_halves`) | rows | looped | register blocks level or slower |
//! | 64 | nested halves (`tri_halves_nested`) | rows | looped | 4096-bit verification 7 % faster |
//!
//! Why registers at 8 limbs: the rows there are short, and a row of the memory form cannot
//! finish before the previous row's stores have reached its loads, a latency short rows do not
//! hide; the register window also makes one memory operand per MULX instead of three. Why
//! looped rows from 11 limbs: an exponentiation alternates squarings and multiplications, so
//! both kernels' code should fit the instruction caches together (fully unrolled, the 16-limb
//! pair was about 22.5 KB).
//!
//! The caller finishes with the masked final subtraction ([`final_sub`], or
//! [`final_sub_almost`] for the almost Montgomery form); the register-window sizes finish the
//! almost form themselves (`wfinal`). Nothing here branches on or indexes by a value: the only
//! branches are the row loops, whose trip counts are `S` (checked on the compiled code by
//! `tests/ct_asm.rs`).
//!
//! Registers: `t` accumulator pointer, `a`/`b`/`n` operand pointers, `rdx` the MULX multiplier,
//! `lo`, `h0`/`h1` (the high words of even and odd columns alternate, since `hi_j` is still
//! pending in the low chain while `hi_{j+1}` is produced), `z` a zero, `cy` the reduction carry
//! bit, `cnt` the row counter of the looped forms.
//!
//! Files: `rows` (the product and reduction rows), `triangles` (the squaring's off-diagonal
//! triangle in each form), `window` (the 8-word register-window reduction and its final
//! step), `finish` (the masked final subtractions); the kernels themselves are instantiated
//! here, one per entry of [`with_sizes`].

#[macro_use]
mod rows;
#[macro_use]
mod triangles;
#[macro_use]
mod window;
mod finish;

pub(in crate::mont::backend) use finish::{final_sub, final_sub_almost};
use window::{reduce8, reduce8_shared};

/// Defines `unsafe fn $mul::<FUSED>(t, a, b, n, n0, out) -> cy` and
/// `unsafe fn $sqr::<FUSED>(t, a, n, n0, out) -> cy` for `$s` limbs. `$full` chooses full
/// unrolling of the rows (`true`) or a loop over rows (`false`; at the register-window sizes
/// this loops the multiplication's product rows only). `$red` chooses the reduction: `inline`
/// rows, or the register window ([`reduce8`], which alone allows `FUSED`) inlined into each
/// kernel (`window`). `$tri` chooses the squaring's triangle: `rows` (unrolled rows,
/// [`row_addmul`]), `halves` (`tri_halves`), `halves_nested` (`tri_halves_nested`), or the
/// register forms `regs8` (`tri_regs8`) and `regs_blocks` (`tri_regs_blocks`).
macro_rules! sized {
    ($mul:ident, $sqr:ident, $s:literal, $full:tt, $red:tt, $tri:tt) => {
        /// `T[S..2S] + cy·R = (a·b + M·n)/R` for this size; see the module documentation.
        /// With `FUSED` (only at the sizes with the register-window reduction) it instead
        /// finishes the almost Montgomery product itself, `out = T[S..2S] − cy·n`, and the
        /// returned word is meaningless.
        ///
        /// # Safety
        /// The CPU supports BMI2 and ADX; `t` is valid for `2S + 4` limb writes, `a`, `b`, `n`
        /// for `S` limb reads, and with `FUSED` `out` for `S` limb writes (`out` is not
        /// read, and may be anything without `FUSED`).
        #[inline(never)]
        pub(super) unsafe fn $mul<const FUSED: bool>(
            t: *mut u64,
            a: *const u64,
            b: *const u64,
            n: *const u64,
            n0: u64,
            out: *mut u64,
        ) -> u64 {
            const { assert!(!FUSED || sized!(@window $red)) };
            let mut cy: u64;
            let t0 = t;
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
                    sized!(@red $red, $full, $s),
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
            if sized!(@window $red) {
                // SAFETY: as above; scratch has 2S + 4 limbs.
                cy = unsafe { sized!(@reduce $red, $s, FUSED, t0, n, n0, out) };
            }
            cy
        }

        /// `T[S..2S] + cy·R = (a² + M·n)/R` for this size by the dedicated squaring; see the
        /// module documentation.
        ///
        /// # Safety
        /// As for the multiplication (`FUSED` too).
        #[inline(never)]
        pub(super) unsafe fn $sqr<const FUSED: bool>(
            t: *mut u64,
            a: *const u64,
            n: *const u64,
            n0: u64,
            out: *mut u64,
        ) -> u64 {
            const { assert!(!FUSED || sized!(@window $red)) };
            let mut cy: u64;
            let t0 = t;
            // SAFETY: as for the multiplication; the triangle writes T[1..2S−1], the
            // doubling pass T[0..2S].
            unsafe {
                core::arch::asm!(
                    concat!(".set rc_s, ", stringify!($s)),
                    sized!(@tri $tri),
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
                    sized!(@red $red, $full, $s),
                    t = inout(reg) t => _,
                    a = in(reg) a,
                    n = inout(reg) n => _,
                    n0 = inout(reg) n0 => _,
                    cy = out(reg) cy,
                    lo = out(reg) _,
                    h0 = out(reg) _,
                    h1 = out(reg) _,
                    z = out(reg) _,
                    cnt = out(reg) _,
                    nm = out(reg) _,
                    af = out(reg) _,
                    out("rdx") _,
                    out("rcx") _,
                    options(att_syntax, nostack),
                );
            }
            if sized!(@window $red) {
                // SAFETY: as above; scratch has 2S + 4 limbs.
                cy = unsafe { sized!(@reduce $red, $s, FUSED, t0, n, n0, out) };
            }
            cy
        }
    };
    (@tri rows) => {
        concat!(
            "/* {af} */\n",
            "movq $0, ({t})\n",
            "movq $0, 8*(2*rc_s-1)({t})\n",
            ".set rc_st0, 1\n",
            ".set rc_h, rc_s\n",
            // Triangle row 0: T[1..=S] = a_0·a[1..S].
            ".if rc_s >= 2\n",
            tri_first_row!(),
            ".endif\n",
            // Triangle rows 1..S−1: T[2i+1..i+S] += a_i·a[i+1..S], carry word to T[i+S].
            ".if rc_s >= 3\n",
            ".set tr_ao, 0\n",
            ".set tr_co, 0\n",
            ".set rc_i, 1\n",
            ".rept rc_s - 2\n",
            tri_row_at!(),
            ".set rc_i, rc_i + 1\n",
            ".endr\n",
            ".endif\n",
        )
    };
    (@tri halves) => {
        tri_halves!()
    };
    (@tri regs8) => {
        tri_regs8!()
    };
    (@tri regs16) => {
        tri_regs16!()
    };
    (@tri regs_blocks) => {
        tri_regs_blocks!()
    };
    (@tri halves_nested) => {
        tri_halves_nested!()
    };
    (@red inline, $full:tt, $s:literal) => {
        reduction!(sized!(@open $full, $s), sized!(@close $full))
    };
    (@red window, $full:tt, $s:literal) => {
        // The reduction runs in `reduce8`, after this block.
        "xor {cy:e}, {cy:e}\n/* {n} {n0} {nm} {cnt} */\n"
    };
    (@red window_shared, $full:tt, $s:literal) => {
        sized!(@red window, $full, $s)
    };
    (@window inline) => {
        false
    };
    (@window window) => {
        true
    };
    (@window window_shared) => {
        true
    };
    // The register-window reduction after the block (also expanded, but never run, for
    // `inline`, whose `@window` is false).
    (@reduce window_shared, $s:literal, $f:ident, $t:ident, $n:ident, $n0:ident, $o:ident) => {
        reduce8_shared::<$s, $f>($t, $n, $n0, $o)
    };
    (@reduce $red:tt, $s:literal, $f:ident, $t:ident, $n:ident, $n0:ident, $o:ident) => {
        reduce8::<$s, $f>($t, $n, $n0, $o)
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

/// The limb counts with their own kernels and each one's form, `(S, mul, sqr, full unroll,
/// reduction, triangle)` as [`sized`] takes them: the one list that the kernels below, the
/// dispatch in `mulx.rs` ([`SIZES`] and its `match`) and the tests read. (16 limbs have a
/// second form, `mul16w`/`sqr16w`, chosen per CPU kind by `cpu::Forms`.)
macro_rules! with_sizes {
    ($m:ident) => {
        $m! {
            (6, mul6, sqr6, true, inline, rows),
            (8, mul8, sqr8, true, window, regs8),
            (11, mul11, sqr11, false, inline, rows),
            (12, mul12, sqr12, false, inline, rows),
            (16, mul16, sqr16, false, inline, rows),
            (22, mul22, sqr22, false, inline, rows),
            (24, mul24, sqr24, false, inline, regs_blocks),
            (32, mul32, sqr32, false, inline, halves),
            (48, mul48, sqr48, false, inline, regs_blocks),
            (64, mul64, sqr64, false, inline, halves_nested),
        }
    };
}
pub(super) use with_sizes;

/// The kernels of every size of [`with_sizes`].
macro_rules! instantiate {
    ($(($s:literal, $mul:ident, $sqr:ident, $full:tt, $red:tt, $tri:tt),)*) => {
        $(sized!($mul, $sqr, $s, $full, $red, $tri);)*
        /// The limb counts with sized kernels (from [`with_sizes`]).
        pub(super) const SIZES: &[usize] = &[$($s),*];
    };
}
with_sizes!(instantiate);
sized!(mul16w, sqr16w, 16, false, window_shared, regs16);

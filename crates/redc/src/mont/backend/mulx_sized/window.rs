//! The 8-word register-window reduction ([`reduce8`]) of the 8- and 16-limb kernels and its
//! fused final step.

/// One reduction row of the register-window reduction ([`reduce8`]): the window `w0, r1..r7`
/// (8 consecutive columns) plus `m·n[nb..nb+8]` (`m` in `rdx`, `rw_nb` the byte offset of the
/// n block); the sum's column 0 leaves the window (stored at column `rw_col` if `rw_tail`,
/// else discarded: it is 0 by the choice of m) and `f`, the spare register, becomes the new
/// `w0`. Needs CF = OF = 0 and `z = 0`; leaves CF = OF = 0. The sum fits in 9 words
/// (`< W^8 + (W−1)(W^8−1)`), so the top word `hi_7 + OF + CF` never carries.
macro_rules! wrow {
    ($w0:literal, $f:literal) => {
        concat!(
            "mulx rw_nb({n}), {lo}, ",
            $f,
            "\n",
            "adcx ",
            $w0,
            ", {lo}\n",
            ".if rw_tail\n",
            "mov {lo}, 8*rw_col({t})\n",
            ".endif\n",
            "adox {r1}, ",
            $f,
            "\n",
            "mulx rw_nb+8({n}), {lo}, {r1}\n",
            "adcx {lo}, ",
            $f,
            "\n",
            "adox {r2}, {r1}\n",
            "mulx rw_nb+16({n}), {lo}, {r2}\n",
            "adcx {lo}, {r1}\n",
            "adox {r3}, {r2}\n",
            "mulx rw_nb+24({n}), {lo}, {r3}\n",
            "adcx {lo}, {r2}\n",
            "adox {r4}, {r3}\n",
            "mulx rw_nb+32({n}), {lo}, {r4}\n",
            "adcx {lo}, {r3}\n",
            "adox {r5}, {r4}\n",
            "mulx rw_nb+40({n}), {lo}, {r5}\n",
            "adcx {lo}, {r4}\n",
            "adox {r6}, {r5}\n",
            "mulx rw_nb+48({n}), {lo}, {r6}\n",
            "adcx {lo}, {r5}\n",
            "adox {r7}, {r6}\n",
            "mulx rw_nb+56({n}), {lo}, {r7}\n",
            "adcx {lo}, {r6}\n",
            "adox {z}, {r7}\n",
            "adcx {z}, {r7}\n",
        )
    };
}

/// Eight rows of one pass: `rw_head` computes each row's m from the window's column 0 and
/// keeps it at `T[rw_mrow + k]` (that column is dead); a tail pass reads the m back.
macro_rules! wpass {
    () => {
        concat!(
            ".set rw_k, 0\n",
            ".rept 4\n",
            wpass!(@row "{r0}", "{r8}"),
            wpass!(@row "{r8}", "{r0}"),
            ".endr\n",
        )
    };
    (@row $w0:literal, $f:literal) => {
        concat!(
            ".if rw_tail\n",
            "mov 8*(rw_mrow+rw_k)({t}), %rdx\n",
            ".else\n",
            "mov ", $w0, ", %rdx\n",
            "imul 8*rw_n0({t}), %rdx\n",
            "mov %rdx, 8*(rw_mrow+rw_k)({t})\n",
            ".endif\n",
            "xor {z:e}, {z:e}\n",
            ".set rw_col, rw_base + rw_k\n",
            wrow!($w0, $f),
            ".set rw_k, rw_k + 1\n",
        )
    };
}

/// Adds `T[rw_base..rw_base+8]` and the carry word in `r8` (at column 0) to the window; the
/// carry word out (CF + OF, the next column's) is left in `r8`.
macro_rules! wbatch {
    () => {
        concat!(
            "xor {z:e}, {z:e}\n",
            "adcx 8*rw_base({t}), {r0}\n",
            "adox {r8}, {r0}\n",
            ".set rw_j, 1\n",
            ".rept 7\n",
            ".if rw_j == 1\nadcx 8*(rw_base+1)({t}), {r1}\nadox {z}, {r1}\n.endif\n",
            ".if rw_j == 2\nadcx 8*(rw_base+2)({t}), {r2}\nadox {z}, {r2}\n.endif\n",
            ".if rw_j == 3\nadcx 8*(rw_base+3)({t}), {r3}\nadox {z}, {r3}\n.endif\n",
            ".if rw_j == 4\nadcx 8*(rw_base+4)({t}), {r4}\nadox {z}, {r4}\n.endif\n",
            ".if rw_j == 5\nadcx 8*(rw_base+5)({t}), {r5}\nadox {z}, {r5}\n.endif\n",
            ".if rw_j == 6\nadcx 8*(rw_base+6)({t}), {r6}\nadox {z}, {r6}\n.endif\n",
            ".if rw_j == 7\nadcx 8*(rw_base+7)({t}), {r7}\nadox {z}, {r7}\n.endif\n",
            ".set rw_j, rw_j + 1\n",
            ".endr\n",
            "mov $0, {r8:e}\n",
            "adcx {z}, {r8}\n",
            "adox {z}, {r8}\n",
        )
    };
}

/// The fused almost Montgomery final step of [`reduce8`], after the last batch: the result is
/// `T[S..2S−8]` (memory) and the window `r0..r7` (its top eight words), plus the carry word
/// `r8 = cy ∈ {0, 1}`; `out = result − cy·n`, which is `< R` (`result < R + n`, and when
/// `cy = 1` the borrow out of the top word cancels it). The product `cy·n_j` comes from MULX
/// with `rdx = cy`, which leaves the flags alone, so the borrow chain runs through all `S`
/// words without a mask pass (an AND would clear CF) and without storing the window first.
/// The out pointer is read from `T[rw_out]`.
macro_rules! wfinal {
    () => {
        concat!(
            "mov {r8}, %rdx\n",
            "mov 8*rw_out({t}), {r8}\n",
            "clc\n",
            ".set rw_j, 0\n",
            ".rept {s} - 8\n",
            "mulx 8*rw_j({n}), {lo}, {z}\n",
            "mov 8*({s}+rw_j)({t}), {z}\n",
            "sbb {lo}, {z}\n",
            "mov {z}, 8*rw_j({r8})\n",
            ".set rw_j, rw_j + 1\n",
            ".endr\n",
            wfinal!(@top "{r0}", 0),
            wfinal!(@top "{r1}", 1),
            wfinal!(@top "{r2}", 2),
            wfinal!(@top "{r3}", 3),
            wfinal!(@top "{r4}", 4),
            wfinal!(@top "{r5}", 5),
            wfinal!(@top "{r6}", 6),
            wfinal!(@top "{r7}", 7),
        )
    };
    (@top $r:literal, $k:literal) => {
        concat!(
            "mulx 8*({s}-8+",
            stringify!($k),
            ")({n}), {lo}, {z}\n",
            "sbb {lo}, ",
            $r,
            "\n",
            "mov ",
            $r,
            ", 8*({s}-8+",
            stringify!($k),
            ")({r8})\n",
        )
    };
}

/// The `S` reduction rows over `T[0..2S]` (`S` a multiple of 8) with an 8-word register window
/// (OpenSSL's `sqrx8x` reduction shape): per block of 8 rows, a head pass against `n[0..8]`
/// that also fixes the 8 multipliers, then one tail pass per further 8 words of n, adding the
/// next 8 words of `T` between passes. Each MULX costs one memory operand instead of three.
/// Returns the top carry word (`T[S..2S] + cy·R = (T + M·n)/R`, so `cy ≤ 1`).
///
/// With `FUSED` it finishes the almost Montgomery product instead (`wfinal`): `out =
/// T[S..2S] + cy·R − cy·n` (`< R`), the top eight words straight from the window, and the
/// return value is meaningless.
///
/// # Safety
/// BMI2 and ADX; `t` valid for `2S + 4` limb reads and writes, `n` for `S` reads, and with
/// `FUSED` `out` valid for `S` limb writes.
#[inline(always)]
pub(in crate::mont::backend) unsafe fn reduce8<const S: usize, const FUSED: bool>(
    t: *mut u64,
    n: *const u64,
    n0: u64,
    out: *mut u64,
) -> u64 {
    let cy: u64;
    // SAFETY: the caller guarantees the features and sizes; the offsets are fixed by S and stay
    // inside T[0..2S+4], n[0..S] and (FUSED) out[0..S]; no stack is used.
    unsafe {
        *t.add(2 * S + 2) = n0;
        if FUSED {
            *t.add(2 * S + 3) = out as u64;
        }
        core::arch::asm!(
            ".set rw_fused, {fused}",
            ".set rw_out, 2*{s} + 3",
            ".set rw_nbl, {s} / 8",
            ".set rw_n0, 2*{s} + 2",
            ".set rw_kc, 2*{s}",
            ".set rw_pc, 2*{s} + 1",
            "movq $0, 8*rw_pc({t})",
            ".set rw_b, 0",
            ".rept rw_nbl",
            "mov 8*(8*rw_b)({t}), {r0}",
            "mov 8*(8*rw_b+1)({t}), {r1}",
            "mov 8*(8*rw_b+2)({t}), {r2}",
            "mov 8*(8*rw_b+3)({t}), {r3}",
            "mov 8*(8*rw_b+4)({t}), {r4}",
            "mov 8*(8*rw_b+5)({t}), {r5}",
            "mov 8*(8*rw_b+6)({t}), {r6}",
            "mov 8*(8*rw_b+7)({t}), {r7}",
            ".set rw_mrow, 8*rw_b",
            ".set rw_tail, 0",
            ".set rw_nb, 0",
            ".set rw_base, 8*rw_b",
            wpass!(),
            "xor {r8:e}, {r8:e}",
            ".set rw_c, 1",
            ".rept rw_nbl - 1",
            ".set rw_base, 8*(rw_b + rw_c)",
            wbatch!(),
            ".set rw_tail, 1",
            ".set rw_nb, 64*rw_c",
            "mov {r8}, 8*rw_kc({t})",
            wpass!(),
            "mov 8*rw_kc({t}), {r8}",
            ".set rw_c, rw_c + 1",
            ".endr",
            // The last batch also takes the previous block's carry into this column.
            ".set rw_base, 8*(rw_b + rw_nbl)",
            "add 8*rw_pc({t}), {r8}",
            wbatch!(),
            ".if rw_fused && rw_b == rw_nbl - 1",
            wfinal!(),
            ".else",
            "mov {r8}, 8*rw_pc({t})",
            "mov {r0}, 8*rw_base({t})",
            "mov {r1}, 8*(rw_base+1)({t})",
            "mov {r2}, 8*(rw_base+2)({t})",
            "mov {r3}, 8*(rw_base+3)({t})",
            "mov {r4}, 8*(rw_base+4)({t})",
            "mov {r5}, 8*(rw_base+5)({t})",
            "mov {r6}, 8*(rw_base+6)({t})",
            "mov {r7}, 8*(rw_base+7)({t})",
            ".endif",
            ".set rw_b, rw_b + 1",
            ".endr",
            ".if !rw_fused",
            "mov 8*rw_pc({t}), {r8}",
            ".endif",
            s = const S,
            fused = const FUSED as u8,
            t = in(reg) t,
            n = in(reg) n,
            r0 = out(reg) _,
            r1 = out(reg) _,
            r2 = out(reg) _,
            r3 = out(reg) _,
            r4 = out(reg) _,
            r5 = out(reg) _,
            r6 = out(reg) _,
            r7 = out(reg) _,
            r8 = out(reg) cy,
            lo = out(reg) _,
            z = out(reg) _,
            out("rdx") _,
            options(att_syntax, nostack),
        );
    }
    cy
}

/// [`reduce8`] out of line: one copy per `(S, FUSED)` that the squaring and the multiplication
/// of that size both call, instead of one inlined into each. At 16 limbs the window's 256
/// unrolled columns are 6.3 KB, so sharing them takes the exponentiation's kernel pair from
/// about 17 to 10.6 KB; a fixed-window exponentiation (1024-bit modulus and exponent) took a
/// median of 3.0 % less time (ten runs of 60 interleaved chunks, both forms in one build,
/// 2026-11-23: from 5.0 % faster to 2.2 % slower). At 8 limbs the call cost more than the
/// smaller footprint saved (1.4–5.9 % slower, four runs), so 8 keeps it inline.
///
/// # Safety
/// As for [`reduce8`].
#[inline(never)]
pub(in crate::mont::backend) unsafe fn reduce8_shared<const S: usize, const FUSED: bool>(
    t: *mut u64,
    n: *const u64,
    n0: u64,
    out: *mut u64,
) -> u64 {
    // SAFETY: forwarded from the caller.
    unsafe { reduce8::<S, FUSED>(t, n, n0, out) }
}

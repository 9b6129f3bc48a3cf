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

/// Row 0 of the `rc_h`-limb triangle of `a[0..h)`: `T[1..=h] = a_0·a[1..h)` (writes).
macro_rules! tri_first_row {
    () => {
        concat!(
            "mov ({a}), %rdx\n",
            "xor {z:e}, {z:e}\n",
            "xor {h1:e}, {h1:e}\n",
            ".set rc_sb, 8\n",
            ".set rc_db, 8\n",
            ".set rc_len, rc_h - 1\n",
            row_mul1!("{a}"),
        )
    };
}

/// Row `i = rc_i` of the `rc_h`-limb triangle of `a[ao..ao+h)` placed at column `co`
/// (`tr_ao`, `tr_co`): `T[co+2i+1..co+i+h) += a_{ao+i}·a[ao+i+1..ao+h)`, the carry word
/// written to `T[co+i+h]` (which must hold nothing yet).
macro_rules! tri_row_at {
    () => {
        concat!(
            "mov 8*(tr_ao+rc_i)({a}), %rdx\n",
            "xor {z:e}, {z:e}\n",
            ".set rc_sb, 8*(tr_ao+rc_i+1)\n",
            ".set rc_db, 8*(tr_co+2*rc_i+1)\n",
            ".set rc_len, rc_h - 1 - rc_i\n",
            "mov rc_db({t}), {h1}\n",
            row_addmul!("{a}"),
            "mov {h0}, rc_db+8*rc_len({t})\n",
        )
    };
}

/// `$pre W(c) $post` for the register that holds triangle column `c` in `tri_regs8`: column
/// `c` lives in `w_{c mod 8}` (`w0..w7` = `cy`, `h1`, `cnt`, `nm`, `af`, `rcx`, `n`, `n0`,
/// which the window-size squarings do not otherwise use before the reduction).
macro_rules! wcol {
    ($c:literal, $pre:literal, $post:literal) => {
        concat!(
            wcol!(@case ".if", $c, 0, $pre, "{cy}", $post),
            wcol!(@case ".elseif", $c, 1, $pre, "{h1}", $post),
            wcol!(@case ".elseif", $c, 2, $pre, "{cnt}", $post),
            wcol!(@case ".elseif", $c, 3, $pre, "{nm}", $post),
            wcol!(@case ".elseif", $c, 4, $pre, "{af}", $post),
            wcol!(@case ".elseif", $c, 5, $pre, "%rcx", $post),
            wcol!(@case ".elseif", $c, 6, $pre, "{n}", $post),
            wcol!(@case ".elseif", $c, 7, $pre, "{n0}", $post),
            ".endif\n",
        )
    };
    (@case $kw:literal, $c:literal, $k:literal, $pre:literal, $r:literal, $post:literal) => {
        concat!($kw, " ((", $c, ") & 7) == ", $k, "\n", $pre, $r, $post, "\n")
    };
}

/// Row 0 of the triangle of `a[0..8)` with its columns in registers ([`wcol`]): columns
/// `1..=8` = `a_0·a[1..8)`, written (one CF chain over `lo_j + hi_(j−1)`; the high halves
/// alternate between `h0` and `lo`), then columns 1 and 2, now final, stored.
macro_rules! tri_regs_row0 {
    () => {
        concat!(
            "mov ({a}), %rdx\n",
            "xor {z:e}, {z:e}\n",
            wcol!("1", "mulx 8({a}), ", ", {h0}"),
            ".set tr_j, 1\n",
            ".rept 6\n",
            ".if (tr_j & 1)\n",
            wcol!("1+tr_j", "mulx 8*(1+tr_j)({a}), ", ", {lo}"),
            wcol!("1+tr_j", "adcx {h0}, ", ""),
            ".else\n",
            wcol!("1+tr_j", "mulx 8*(1+tr_j)({a}), ", ", {h0}"),
            wcol!("1+tr_j", "adcx {lo}, ", ""),
            ".endif\n",
            ".set tr_j, tr_j + 1\n",
            ".endr\n",
            // j = 6 left its high half in h0 (6 is even): column 8 = hi_6 + CF.
            wcol!("8", "mov {h0}, ", ""),
            wcol!("8", "adcx {z}, ", ""),
            wcol!("1", "mov ", ", 8({t})"),
            wcol!("2", "mov ", ", 16({t})"),
        )
    };
}

/// One row through the register window ([`wcol`]): `rdx` times the `rw_len` words
/// `a[rw_src..)` added into columns `rw_c0..rw_c0+rw_len` (which hold partial sums), the low
/// halves on the CF chain and the high halves on the OF chain; the last high half and both
/// carries make the new column `rw_c0+rw_len`, which cannot overflow (the bound of
/// [`row_addmul`]). If `rw_st`, column `rw_c0`, final once the first product is in, is stored
/// right then (its register is the new column's).
macro_rules! regs_row {
    () => {
        concat!(
            "xor {z:e}, {z:e}\n",
            ".set tr_j, 0\n",
            ".rept rw_len - 1\n",
            "mulx 8*(rw_src+tr_j)({a}), {lo}, {h0}\n",
            wcol!("rw_c0+tr_j", "adcx {lo}, ", ""),
            wcol!("rw_c0+1+tr_j", "adox {h0}, ", ""),
            ".if rw_st && tr_j == 0\n",
            wcol!("rw_c0", "mov ", ", 8*rw_c0({t})"),
            ".endif\n",
            ".set tr_j, tr_j + 1\n",
            ".endr\n",
            wcol!("rw_c0+rw_len", "mulx 8*(rw_src+rw_len-1)({a}), {lo}, ", ""),
            wcol!("rw_c0+rw_len-1", "adcx {lo}, ", ""),
            wcol!("rw_c0+rw_len", "adox {z}, ", ""),
            wcol!("rw_c0+rw_len", "adcx {z}, ", ""),
        )
    };
}

/// Rows `tr_from..=6` of the triangle of `a[ao..ao+8)` at column `co` (`tr_ao`, `tr_co`, `co` a
/// multiple of 8), its live columns in registers ([`wcol`], relative column `c` in
/// `w_{c mod 8}`): row `i` adds `a_(ao+i)·a[ao+i+1..ao+8)` into columns `2i+1..=i+7`, which
/// hold their partial sums, and creates column `i+8` (its register held column `i`, stored
/// rows ago); then columns `2i+1` and `2i+2` are final and stored to `T[co+2i+1]`,
/// `T[co+2i+2]` if they are at most `tr_maxst` (the larger triangles keep columns 8..=15 in
/// the window for what follows). Each row is a [`regs_row`]. No row reads `T`, so none waits
/// for the previous row's stores to reach its loads.
macro_rules! tri_regs_rows {
    () => {
        concat!(
            ".set tr_i, tr_from\n",
            ".rept 7 - tr_from\n",
            "mov 8*(tr_ao+tr_i)({a}), %rdx\n",
            ".set rw_src, tr_ao+tr_i+1\n",
            ".set rw_c0, 2*tr_i+1\n",
            ".set rw_len, 7-tr_i\n",
            ".set rw_st, 0\n",
            regs_row!(),
            ".if 2*tr_i+1 <= tr_maxst\n",
            wcol!("2*tr_i+1", "mov ", ", 8*(tr_co+2*tr_i+1)({t})"),
            ".endif\n",
            ".if 2*tr_i+2 <= tr_maxst\n",
            wcol!("2*tr_i+2", "mov ", ", 8*(tr_co+2*tr_i+2)({t})"),
            ".endif\n",
            ".set tr_i, tr_i + 1\n",
            ".endr\n",
        )
    };
}

/// The off-diagonal triangle of 8 limbs, `T[0..16)`, with its columns in registers: row 0
/// ([`tri_regs_row0`]) and rows 1..=6 ([`tri_regs_rows`]). `T` is only written.
macro_rules! tri_regs8 {
    () => {
        concat!(
            "movq $0, ({t})\n",
            "movq $0, 8*15({t})\n",
            tri_regs_row0!(),
            ".set tr_ao, 0\n",
            ".set tr_co, 0\n",
            ".set tr_from, 1\n",
            ".set tr_maxst, 14\n",
            tri_regs_rows!(),
        )
    };
}

/// The rectangle `a[ao..ao+8)·a[bo..bo+8)` at column `co` (`rr_ao`, `rr_bo`, `rr_co`, all
/// multiples of 8) through the register window ([`wcol`]), which holds columns `co..co+8` on
/// entry: row `i` ([`regs_row`]) adds `a_(ao+i)·a[bo..bo+8)` into columns `co+i..co+i+8`;
/// column `co+i` is then final and stored, and its register takes the new column `co+i+8`
/// from the row's last high half (the shape of `wrow`). Leaves columns `co+8..co+16` in the
/// window.
macro_rules! rect_regs_rows {
    () => {
        concat!(
            ".set tr_i, 0\n",
            ".rept 8\n",
            "mov 8*(rr_ao+tr_i)({a}), %rdx\n",
            ".set rw_src, rr_bo\n",
            ".set rw_c0, rr_co+tr_i\n",
            ".set rw_len, 8\n",
            ".set rw_st, 1\n",
            regs_row!(),
            ".set tr_i, tr_i + 1\n",
            ".endr\n",
        )
    };
}

/// Adds `T[bk..bk+8)` (`bk_col`, a multiple of 8) and the pending carry word `c` (at column
/// `bk`; kept in `T[2S+2]`, as no register is left) to the window, which holds columns
/// `bk..bk+8`; the carry out of column `bk+7` (CF + OF) becomes `c`, for column `bk+8` (the
/// shape of `wbatch`).
macro_rules! wadd_t {
    () => {
        concat!(
            "xor {z:e}, {z:e}\n",
            wcol!("0", "adcx 8*bk_col({t}), ", ""),
            wcol!("0", "adox 8*(2*rc_s+2)({t}), ", ""),
            ".set bk_k, 1\n",
            ".rept 7\n",
            wcol!("bk_k", "adcx 8*(bk_col+bk_k)({t}), ", ""),
            wcol!("bk_k", "adox {z}, ", ""),
            ".set bk_k, bk_k + 1\n",
            ".endr\n",
            "mov $0, {lo:e}\n",
            "adcx {z}, {lo}\n",
            "adox {z}, {lo}\n",
            "mov {lo}, 8*(2*rc_s+2)({t})\n",
        )
    };
}

/// Stores the window (columns `bk_col..bk_col+8`).
macro_rules! wstore {
    () => {
        concat!(
            ".set bk_k, 0\n",
            ".rept 8\n",
            wcol!("bk_k", "mov ", ", 8*(bk_col+bk_k)({t})"),
            ".set bk_k, bk_k + 1\n",
            ".endr\n",
        )
    };
}

/// The off-diagonal triangle of `S = 8B` limbs (`B ≥ 3`; used at 24 and 48) in 8-limb blocks,
/// through one register window per block row ([`wcol`]), fully unrolled (its code grows with
/// `S²`: the 48-limb squaring is 34.5 KB). Block row 0 (limbs `a[0..8)`) only writes `T`:
/// the block's own triangle (row 0 of [`tri_regs_row0`], then [`tri_regs_rows`], leaving
/// columns 8..=14 in the window with column 15 = 0), then the rectangles with every later
/// block ([`rect_regs_rows`], each leaving the next eight columns in the window), then the
/// last window, columns `S..S+8`, stored. `T[S+8..2S)` is zeroed first. Each later block row
/// `I` is the same with `T` added in: the window starts as `T[16I..16I+8)`, the triangle's
/// rows add into it, and before each rectangle and the final store the eight columns the
/// window has just reached get what earlier block rows left there ([`wadd_t`], with the
/// carry word pending between batches). After the last batch of block row `I` the pending
/// carry is 0: the products summed so far, `a_i·a_j·W^(i+j)` with `i < 8I+8`, add up to less
/// than `W^(8I+8)·W^S`, which the columns up to `8(I+B)+7` already hold.
///
/// Every row keeps the rows form's two carry chains; no row waits for the previous row's
/// stores. `n` and `n0` lend their registers to the window, so they wait in `T[2S]`,
/// `T[2S+1]` meanwhile.
macro_rules! tri_regs_blocks {
    () => {
        concat!(
            "mov {n}, 8*(2*rc_s)({t})\n",
            "mov {n0}, 8*(2*rc_s+1)({t})\n",
            "movq $0, ({t})\n",
            ".set bk_k, rc_s + 8\n",
            ".rept rc_s - 8\n",
            "movq $0, 8*bk_k({t})\n",
            ".set bk_k, bk_k + 1\n",
            ".endr\n",
            ".set tr_maxst, 7\n",
            ".set bk_i, 0\n",
            ".rept rc_s / 8\n",
            ".set tr_ao, 8*bk_i\n",
            ".set tr_co, 16*bk_i\n",
            ".if bk_i == 0\n",
            tri_regs_row0!(),
            ".set tr_from, 1\n",
            ".else\n",
            ".set bk_col, 16*bk_i\n",
            ".set bk_k, 0\n",
            ".rept 8\n",
            wcol!("bk_k", "mov 8*(bk_col+bk_k)({t}), ", ""),
            ".set bk_k, bk_k + 1\n",
            ".endr\n",
            ".set tr_from, 0\n",
            "movq $0, 8*(2*rc_s+2)({t})\n",
            ".endif\n",
            tri_regs_rows!(),
            wcol!("15", "mov $0, ", ""),
            ".set bk_j, bk_i + 1\n",
            ".rept rc_s / 8 - 1 - bk_i\n",
            ".set bk_col, 8*(bk_i+bk_j)\n",
            ".if bk_i > 0\n",
            wadd_t!(),
            ".endif\n",
            ".set rr_ao, 8*bk_i\n",
            ".set rr_bo, 8*bk_j\n",
            ".set rr_co, 8*(bk_i+bk_j)\n",
            rect_regs_rows!(),
            ".set bk_j, bk_j + 1\n",
            ".endr\n",
            ".set bk_col, 8*(bk_i + rc_s/8)\n",
            ".if bk_i > 0\n",
            wadd_t!(),
            ".endif\n",
            wstore!(),
            ".set bk_i, bk_i + 1\n",
            ".endr\n",
            "mov 8*(2*rc_s)({t}), {n}\n",
            "mov 8*(2*rc_s+1)({t}), {n0}\n",
        )
    };
}

/// The off-diagonal triangle of 16 limbs, `T[0..32)`, with a window of eight columns in
/// registers throughout ([`wcol`]: column `c` in `w_{c mod 8}`), `T` only written:
///
/// 1. the triangle of `a_lo = a[0..8)` (`tri_regs8`'s rows), which leaves columns 8..=14 in
///    their registers; column 15 starts at 0;
/// 2. the rectangle `a_lo·a_hi` at column 8: row `i` adds `a_i·a[8..16)` into the window
///    (columns `8+i..=15+i`); column `8+i` is then final, stored, and its register takes the
///    new column `16+i` from the row's last high half (the shape of `wrow`);
/// 3. column 16 is final (no triangle product of `a_hi` reaches it) and stored, and the
///    triangle of `a_hi` runs at column 16 ([`tri_regs_rows`] from row 0), adding into the
///    window's columns 17..=23.
///
/// Same products as the rows triangle, in the same two carry chains per row; what changes is
/// that no row reloads what the previous row stored.
macro_rules! tri_regs16 {
    () => {
        concat!(
            "movq $0, ({t})\n",
            "movq $0, 8*31({t})\n",
            tri_regs_row0!(),
            ".set tr_ao, 0\n",
            ".set tr_co, 0\n",
            ".set tr_from, 1\n",
            ".set tr_maxst, 7\n",
            tri_regs_rows!(),
            wcol!("15", "mov $0, ", ""),
            ".set rr_ao, 0\n",
            ".set rr_bo, 8\n",
            ".set rr_co, 8\n",
            rect_regs_rows!(),
            wcol!("16", "mov ", ", 8*16({t})"),
            ".set tr_maxst, 14\n",
            ".set tr_ao, 8\n",
            ".set tr_co, 16\n",
            ".set tr_from, 0\n",
            tri_regs_rows!(),
        )
    };
}

/// The off-diagonal triangle `T[0..2S] = Σ_{i<j} a_i·a_j·W^(i+j)` for an even `S` as two
/// half-size triangles and the rectangle between them, with `h = S/2`, `a = a_lo + a_hi·W^h`:
///
/// 1. `tri(a_lo)` into `T[0..S)` by unrolled rows of length `h−1−i` (the first writes);
/// 2. `a_lo·a_hi` at column `h`: a loop of `h` rows of length `h` (row `i` adds
///    `a_i·a[h..S)` into `T[i+h..i+S)` and writes its carry word to the untouched `T[i+S]`);
/// 3. `tri(a_hi)` at column `S` by unrolled rows that all add (row `k` writes its carry word
///    to `T[S+h+k]`, beyond the rectangle's carry words `T[S..S+h)`).
///
/// The same products as the triangle rows, but half of them in rows of full length `h` and the
/// unrolled code a quarter of theirs. Measured on Zen 3 against the unrolled rows (interleaved
/// in one process, fastest of 15 chunks, 2026-11-23 01:35–02:20 UTC): at 32 limbs the whole
/// squaring takes 5–18 % fewer cycles in seven runs (the triangle alone 15–18 % fewer); at 16
/// and 24 limbs it is slower; at 48 limbs the squaring was 1–3 % slower than with
/// `tri_regs_blocks` (fastest chunks, three runs), and at 64 limbs within 3 % of a looped
/// memory-row form, so only 32 uses it (64 uses `tri_halves_nested`).
macro_rules! tri_halves {
    () => {
        concat!(
            ".set rc_h, rc_s / 2\n",
            ".set rc_st0, 1\n",
            "movq $0, ({t})\n",
            "movq $0, 8*(rc_s-1)({t})\n",
            "movq $0, 8*(2*rc_s-1)({t})\n",
            // 1. tri(a_lo): row 0 writes T[1..=h], rows 1..=h−2 add and write their carry word.
            tri_first_row!(),
            ".set tr_ao, 0\n",
            ".set tr_co, 0\n",
            ".set rc_i, 1\n",
            ".rept rc_h - 2\n",
            tri_row_at!(),
            ".set rc_i, rc_i + 1\n",
            ".endr\n",
            tri_upper!(),
        )
    };
}

/// Steps 2 and 3 of `tri_halves` for `S = rc_s`, `h = rc_h`, once `T[0..S)` holds
/// `tri(a_lo)` and `T[S−1] = T[2S−1] = 0`: the rectangle `a_lo·a_hi` at column `h`, then
/// `tri(a_hi)` at column `S`.
macro_rules! tri_upper {
    () => {
        concat!(
            // 2. a_lo·a_hi: `af` walks a[0..h), `t` walks T (saved in `cy`), `cnt` counts.
            "mov {a}, {af}\n",
            "mov {t}, {cy}\n",
            "mov $rc_h, {cnt:e}\n",
            ".set rc_sb, 8*rc_h\n",
            ".set rc_db, 8*rc_h\n",
            ".set rc_len, rc_h\n",
            ".p2align 5\n",
            "2:\n",
            "mov ({af}), %rdx\n",
            "xor {z:e}, {z:e}\n",
            "mov rc_db({t}), {h1}\n",
            row_addmul!("{a}"),
            "mov {h0}, rc_db+8*rc_len({t})\n",
            "lea 8({af}), {af}\n",
            "lea 8({t}), {t}\n",
            "dec {cnt:e}\n",
            "jnz 2b\n",
            "mov {cy}, {t}\n",
            // 3. tri(a_hi) at column S: rows k = 0..=h−2, all adding.
            ".set tr_ao, rc_h\n",
            ".set tr_co, rc_s\n",
            ".set rc_i, 0\n",
            ".rept rc_h - 1\n",
            tri_row_at!(),
            ".set rc_i, rc_i + 1\n",
            ".endr\n",
        )
    };
}

/// `tri_halves` with its lower half triangle itself built by `tri_halves` (`S` a multiple
/// of 4). The upper half cannot be split the same way: its first quarter's rows would write
/// their carry words into columns that the rectangle's carry words already hold. Measured on
/// Zen 3 at 64 limbs against a looped form of OpenSSL's `sqr8x` blocking (memory rows;
/// interleaved in one process, fastest of 15 chunks,
/// 2026-11-23 03:00 UTC): the whole squaring was faster in 11 of 12 pairs, by 4 % in the median.
macro_rules! tri_halves_nested {
    () => {
        concat!(
            ".set rc_s, rc_s / 2\n",
            tri_halves!(),
            ".set rc_s, rc_s * 2\n",
            ".set rc_h, rc_s / 2\n",
            ".set rc_st0, 1\n",
            // tri_halves zeroed T[0], T[S/2−1] and T[S−1]; the top column is still open.
            "movq $0, 8*(2*rc_s-1)({t})\n",
            tri_upper!(),
        )
    };
}

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
pub(super) unsafe fn final_sub_almost<const S: usize>(
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
unsafe fn reduce8<const S: usize, const FUSED: bool>(
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
unsafe fn reduce8_shared<const S: usize, const FUSED: bool>(
    t: *mut u64,
    n: *const u64,
    n0: u64,
    out: *mut u64,
) -> u64 {
    // SAFETY: forwarded from the caller.
    unsafe { reduce8::<S, FUSED>(t, n, n0, out) }
}

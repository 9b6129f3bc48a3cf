//! The rows every kernel is made of: a product or reduction row of MULX, ADCX and ADOX, the
//! first product row, and the reduction pass (see the module documentation of [`super`]).

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

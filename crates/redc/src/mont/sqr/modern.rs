//! The modern dedicated squaring: the portable backend's production squaring.
//!
//! Not a figure of paper 004, but its idea taken to the form today's libraries use:
//!
//! 1. Sum each off-diagonal product once: `Σ = Σ_{i<j} a[i]·a[j]·W^(i+j)`, row by row, with
//!    plain multiply-accumulate chains (no doubling inside the loop, so one carry word).
//! 2. Double the whole sum with one shift and, in the same pass, add the diagonal squares
//!    `a[i]²·W^(2i)`: `t = 2Σ + Σ a[i]²·W^(2i) = a²`.
//! 3. Reduce SOS-style: `s` rows `t += m·n·W^i`, `m = t[i]·n' mod W`, each row's final carry
//!    deferred to the next row's last column (paper 004's `prevcar`) instead of propagated.
//!
//! Against CIOS with `b = a` it does `s(s−1)/2 + s` word products for the square instead of
//! `s²`. The loops iterate over zipped slices, so the inner loops carry no bounds checks.
//!
//! `t` has `2s + 1` words of the scratch.

use crate::nat;
use crate::word::Word;

/// `out = a·a·R⁻¹ mod n` (sum once, double by shift, add the diagonal, reduce).
///
/// Contract: [`crate::mont`]'s kernel contract (`a < n`, `n` odd, `s` limbs each, output fully
/// reduced, scratch of `2s + 4` limbs, `2s + 1` used). Loop bounds depend on `s` only; no
/// branch or address depends on `a` or `n`.
pub fn mont_sqr<W: Word>(out: &mut [W], a: &[W], n: &[W], n0: W, scratch: &mut [W]) {
    let s = n.len();
    debug_assert!(a.len() == s && out.len() == s && scratch.len() > 2 * s);
    let t = &mut scratch[..2 * s + 1];

    // Step 1: t[1 .. 2s−1] = Σ. Row i adds a[i]·a[i+1..s] at columns 2i+1 ..= i+s−1 and
    // writes its carry to column i+s. Rows below i reach column i+s−1 at most, so every column
    // a row adds into has been written (row 0 writes rather than adds), and column i+s is
    // fresh. Columns 0, 2s−1 and 2s are never written by a row.
    t[0] = W::ZERO;
    t[2 * s - 1] = W::ZERO;
    t[2 * s] = W::ZERO;
    if let Some((&a0, rest)) = a.split_first() {
        let mut c = W::ZERO;
        for (x, &aj) in t[1..s].iter_mut().zip(rest) {
            (*x, c) = W::mac(W::ZERO, a0, aj, c);
        }
        if s > 1 {
            t[s] = c;
        }
    }
    for i in 1..s.saturating_sub(1) {
        let ai = a[i];
        // Columns 2i+1 ..= i+s−1 get a[i]·a[i+1..s]; column i+s gets the carry.
        let (row, top) = t[2 * i + 1..i + s + 1].split_at_mut(s - i - 1);
        let mut c = W::ZERO;
        for (x, &aj) in row.iter_mut().zip(&a[i + 1..]) {
            (*x, c) = W::mac(*x, ai, aj, c);
        }
        top[0] = c;
    }

    // Step 2: t = 2·t + diagonal, one pass over column pairs. `shifted` is the bit the
    // doubling moves from one word into the next; `c` is the addition carry (0 or 1).
    // 2Σ = a² − Σ a[i]²·W^(2i) < W^(2s), so the bit shifted out of t[2s−1] is in fact zero,
    // and so is the final carry; both are kept in t[2s] all the same, so that no bit of the
    // doubling can be lost whatever the bound argument.
    let top_bit = W::BITS - 1;
    let mut shifted = W::ZERO;
    let mut c = W::ZERO;
    for (pair, &ai) in t[..2 * s].chunks_exact_mut(2).zip(a) {
        let (lo, hi) = W::mul_wide(ai, ai);
        let (x0, x1) = (pair[0], pair[1]);
        let d0 = x0.shl(1).or(shifted);
        let d1 = x1.shl(1).or(x0.shr(top_bit));
        shifted = x1.shr(top_bit);
        (pair[0], c) = W::adc(d0, lo, c);
        (pair[1], c) = W::adc(d1, hi, c);
    }
    t[2 * s] = shifted.wrapping_add(c);

    // Step 3: SOS reduction rows with the deferred carry. Row i: t += m·n·W^i clears t[i];
    // the carry out of column i+s (at most 1: (W−1) + (W−1) + 1 < 2W) belongs to column
    // i+s+1, the last column of row i+1, and is added there.
    let mut prevcar = W::ZERO;
    for i in 0..s {
        let row = &mut t[i..i + s + 1];
        let m = row[0].wrapping_mul(n0);
        // The low word becomes zero by the choice of m; only its carry matters.
        let (_, mut c) = W::mac(row[0], m, n[0], W::ZERO);
        let (body, top) = row[1..].split_at_mut(s - 1);
        for (x, &nj) in body.iter_mut().zip(&n[1..]) {
            (*x, c) = W::mac(*x, m, nj, c);
        }
        (top[0], prevcar) = W::adc(top[0], c, prevcar);
    }
    // t = a² + m·n < n² + R·n < 2n·R < 2·W^(2s), so t[2s] ends at most 1.
    t[2 * s] = t[2 * s].wrapping_add(prevcar);

    // u = t / R < 2n in s + 1 words.
    nat::final_sub(out, &t[s..], n);
}

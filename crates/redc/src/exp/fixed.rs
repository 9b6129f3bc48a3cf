//! Fixed-window exponentiation in constant time: the method for secret exponents.
//!
//! Like m-ary, but (1) it always multiplies, digit 0 included (table entry 0 is `R mod n`, the
//! Montgomery one), (2) it always runs over the full announced length of the exponent, and
//! (3) it reads each table entry with a masked scan over every entry. So the sequence of
//! kernel calls and every memory address are functions of the public lengths alone; the
//! exponent's value only ever flows into masks.

use alloc::vec;

use zeroize::Zeroize;

use crate::ct;
use crate::mont::{Kernel, Modulus};
use crate::word::Word;

/// The window minimising the cost of a `bits`-bit exponent whose modulus has about as many
/// bits (RSA's case), counted in Montgomery multiplications: the `bits` squarings are the same
/// for every window; what varies is `2^k − 2` table multiplications, plus, per window of `k`
/// bits, one multiplication and one masked scan of all `2^k` entries.
///
/// A scan reads `2^k·s` limbs and a multiplication does `2·s²` word products. With the AVX2
/// scan and the MULX kernels on Zen 3 a scanned limb costs between a third (8 limbs) and a
/// seventh (16 to 32 limbs) of a word product (`examples/pow_windows.rs`, two runs: 0.19–0.21
/// ns against 0.70–0.72 ns at 8 limbs, 0.07–0.12 ns against 0.47–0.68 ns at 16 to 32). The
/// model takes a quarter, so one scan costs `2^k / (8·s)` multiplications with `s = bits/64`;
/// this gives 4 for 512-bit exponents, 5 for 1024- and 1536-bit ones, 6 for 2048-bit ones, and
/// a seventh would give the same at 512, 1024 and 2048 bits. The curve is flat near its
/// minimum (a window either side costs a few per cent more); the example times every window
/// and both unit costs on the machine at hand. (BoringSSL's
/// `BN_window_bits_for_ctime_exponent_size` makes the same trade with fixed thresholds.)
pub fn window_for_bits(bits: usize) -> u32 {
    let s = bits.div_ceil(64).max(1) as f64;
    let cost = |k: u32| {
        let entries = (1u64 << k) as f64;
        let windows = bits.div_ceil(k as usize) as f64;
        entries - 2.0 + windows * (1.0 + entries / (8.0 * s))
    };
    (1..=7)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .unwrap_or(4)
}

/// `dst = table[index]`, reading every entry (`entries` of `s` limbs each) with a mask, so the
/// address pattern does not depend on the secret `index`.
///
/// Each block of `SELECT_BLOCK` limbs of `dst` is OR-ed together from the masked blocks of
/// every entry in registers (the compiler vectorises the block), so `dst` is written once
/// instead of once per entry; an entry's mask (`ct::eq_mask` of its number and `index`) is
/// made where it is used, which at 8 and 16 limbs costs less than filling and reading a table
/// of masks.
///
/// On x86-64 CPUs with AVX2 (detected at run time) the 64-bit form runs the same blocks in
/// 256-bit registers, with the masks made by vector compares (`select_entry_avx2`).
pub fn select_entry<W: Word>(dst: &mut [W], table: &[W], index: u32) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if std::is_x86_feature_detected!("avx2") {
        if let Some((d, t)) = W::as_u64_slices(dst, table) {
            // SAFETY: the CPU has AVX2 (checked just above).
            unsafe { select_entry_avx2(d, t, index) };
            return;
        }
    }
    select_entry_in(dst, table, index);
}

/// [`select_entry`] for AVX2: blocks of 16, 8 and 4 limbs in 256-bit registers, each
/// entry's mask made in a vector register (`VPCMPEQQ` of a running entry number against the
/// broadcast index), so a mask costs one compare and one add instead of a scalar mask and a
/// broadcast (which at 8 limbs cost more than the 256-bit ANDs and ORs they feed). The last
/// `s mod 4` limbs come from one more 4-limb block ending at limb `s` (overlapping limbs
/// already gathered), or, below 4 limbs, as in [`select_entry_in`]. Against the scalar masks
/// compiled for AVX2 (and a scalar tail), interleaved in one process on the Zen 3 machine
/// (medians; the dated runs are in the repository's `docs/kernel-notes.md`): 48–49 % less time at 6 limbs and 16 entries,
/// 20–23 % at 8 limbs and 32 entries, 56–58 % at 11, 41–44 % at 22 limbs and 64 entries,
/// 17–21 % at 24, level at 16 and 32 limbs (where the blocks were already whole).
///
/// # Safety
/// The CPU supports AVX2.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[target_feature(enable = "avx2")]
unsafe fn select_entry_avx2(dst: &mut [u64], table: &[u64], index: u32) {
    let s = dst.len();
    let index = index as u64;
    let mut j = 0;
    // Each `gather_avx2` call below needs AVX2, which this function's caller guarantees.
    while j + 16 <= s {
        // SAFETY: AVX2 (the caller), and the slice is in bounds by the condition above.
        unsafe { gather_avx2::<4>(&mut dst[j..j + 16], table, s, index, j) };
        j += 16;
    }
    if j + 8 <= s {
        // SAFETY: AVX2 (the caller), and the slice is in bounds by the condition above.
        unsafe { gather_avx2::<2>(&mut dst[j..j + 8], table, s, index, j) };
        j += 8;
    }
    if j + 4 <= s {
        // SAFETY: AVX2 (the caller), and the slice is in bounds by the condition above.
        unsafe { gather_avx2::<1>(&mut dst[j..j + 4], table, s, index, j) };
        j += 4;
    }
    if j < s && s >= 4 {
        // The last 4 limbs again, overlapping limbs already gathered (same values).
        // SAFETY: AVX2 (the caller), and the slice is in bounds by the condition above.
        unsafe { gather_avx2::<1>(&mut dst[s - 4..], table, s, index, s - 4) };
        return;
    }
    while j < s {
        gather_block::<u64, 1>(&mut dst[j..j + 1], table, s, index, j);
        j += 1;
    }
}

/// `dst = OR over entries e of mask(e == index) & table[e·s + j..e·s + j + 4V]` in `V`
/// 256-bit accumulators. Every entry is read.
///
/// # Safety
/// The CPU supports AVX2.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn gather_avx2<const V: usize>(
    dst: &mut [u64],
    table: &[u64],
    s: usize,
    index: u64,
    j: usize,
) {
    use core::arch::x86_64::*;
    // SAFETY: AVX2 is present (the caller's contract); every load reads the 4·V limbs
    // `entry[j..j + 4V]`, a checked slice, and the stores write `dst`, checked to hold 4·V.
    unsafe {
        let mut acc = [_mm256_setzero_si256(); V];
        let want = _mm256_set1_epi64x(index as i64);
        let mut e = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        for entry in table.chunks_exact(s) {
            let m = _mm256_cmpeq_epi64(e, want);
            let src = &entry[j..j + 4 * V];
            for (v, a) in acc.iter_mut().enumerate() {
                let x = _mm256_loadu_si256(src.as_ptr().add(4 * v).cast());
                *a = _mm256_or_si256(*a, _mm256_and_si256(m, x));
            }
            e = _mm256_add_epi64(e, one);
        }
        let dst = &mut dst[..4 * V];
        for (v, a) in acc.iter().enumerate() {
            _mm256_storeu_si256(dst.as_mut_ptr().add(4 * v).cast(), *a);
        }
    }
}

/// The body of [`select_entry`].
#[inline(always)]
fn select_entry_in<W: Word>(dst: &mut [W], table: &[W], index: u32) {
    let s = dst.len();
    if s == 0 {
        return;
    }
    let index = W::from_u64(index as u64);
    let mut j = 0;
    while j + SELECT_BLOCK <= s {
        gather_block::<W, SELECT_BLOCK>(&mut dst[j..j + SELECT_BLOCK], table, s, index, j);
        j += SELECT_BLOCK;
    }
    if j + 8 <= s {
        gather_block::<W, 8>(&mut dst[j..j + 8], table, s, index, j);
        j += 8;
    }
    if j + 4 <= s {
        gather_block::<W, 4>(&mut dst[j..j + 4], table, s, index, j);
        j += 4;
    }
    while j < s {
        gather_block::<W, 1>(&mut dst[j..j + 1], table, s, index, j);
        j += 1;
    }
}

/// `dst = OR over entries e of mask(e == index) & table[e·s + j..e·s + j + B]`, accumulated
/// in registers; each entry's mask is made where it is used (a few register operations, cheaper
/// than keeping a table of masks in memory).
#[inline(always)]
fn gather_block<W: Word, const B: usize>(dst: &mut [W], table: &[W], s: usize, index: W, j: usize) {
    let mut acc = [W::ZERO; B];
    for (e, entry) in table.chunks_exact(s).enumerate() {
        let m = ct::eq_mask(W::from_u64(e as u64), index);
        for (a, &x) in acc.iter_mut().zip(&entry[j..j + B]) {
            *a = a.or(m.and(x));
        }
    }
    dst.copy_from_slice(&acc);
}

/// Limbs of the destination [`select_entry`] gathers at once (kept in registers).
const SELECT_BLOCK: usize = 16;

/// `out = base^exp mod n` in constant time with a `window`-bit fixed window (1..=8).
///
/// `base < n` (`s` limbs), `exp` big-endian of public length; leaks only `s`, `exp.len()` and
/// `window`. All secret buffers are zeroized before returning.
pub fn pow<W: Word>(
    out: &mut [W],
    base: &[W],
    exp: &[u8],
    m: &Modulus<W>,
    k: &Kernel<W>,
    window: u32,
) {
    assert!((1..=8).contains(&window), "window must be in 1..=8");
    let s = m.limbs();
    let n = m.n();
    let n0 = m.n0();
    let entries = 1usize << window;
    let mut scratch = m.scratch();
    let mut table = super::power_table(base, entries, m, k, &mut scratch);

    // The table is fully reduced; the last step, leaving the domain, is a full product by 1.
    let (mul, sqr) = k.loop_pair();
    let total = exp.len() * 8;
    let digits = total.div_ceil(window as usize);
    let mut acc = vec![W::ZERO; s];
    let mut tmp = vec![W::ZERO; s];
    let mut sel = vec![W::ZERO; s];
    if digits == 0 {
        acc.copy_from_slice(m.one());
    } else {
        let top = (digits - 1) * window as usize;
        select_entry(&mut acc, &table, super::exp_bits(exp, top, window));
        for d in (0..digits - 1).rev() {
            for _ in 0..window {
                sqr(&mut tmp, &acc, n, n0, &mut scratch);
                core::mem::swap(&mut acc, &mut tmp);
            }
            select_entry(
                &mut sel,
                &table,
                super::exp_bits(exp, d * window as usize, window),
            );
            mul(&mut tmp, &acc, &sel, n, n0, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    m.from_mont(out, &acc, k, &mut scratch);
    table.zeroize();
    acc.zeroize();
    tmp.zeroize();
    sel.zeroize();
    scratch.zeroize();
}

#[cfg(test)]
mod tests {
    #[test]
    fn select_matches_indexing_for_every_shape() {
        use super::{select_entry, select_entry_in};
        use alloc::vec::Vec;
        for s in 1..=20usize {
            for entries in [1usize, 2, 16, 32, 65, 128] {
                let table: Vec<u64> = (0..(s * entries) as u64)
                    .map(|x| x.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ x)
                    .collect();
                let table32: Vec<u32> = table.iter().map(|&x| x as u32).collect();
                for index in 0..entries {
                    let want = &table[index * s..(index + 1) * s];
                    let mut got = alloc::vec![0u64; s];
                    select_entry(&mut got, &table, index as u32);
                    assert_eq!(got, want, "s {s} entries {entries} index {index}");
                    got.fill(0);
                    select_entry_in(&mut got, &table, index as u32);
                    assert_eq!(got, want, "portable: s {s} entries {entries} index {index}");
                    let mut got32 = alloc::vec![0u32; s];
                    select_entry(&mut got32, &table32, index as u32);
                    assert_eq!(got32, &table32[index * s..(index + 1) * s]);
                }
            }
        }
    }

    #[test]
    fn window_grows_with_the_exponent() {
        use super::window_for_bits;
        assert_eq!(window_for_bits(512), 4);
        assert_eq!(window_for_bits(1024), 5);
        assert_eq!(window_for_bits(2048), 6);
        assert!(window_for_bits(64) <= 3);
        assert!(window_for_bits(8192) >= 5);
        assert!((1..=7).contains(&window_for_bits(0)));
    }
}

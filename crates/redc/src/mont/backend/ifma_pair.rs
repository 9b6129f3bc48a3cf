//! Two exponentiations interleaved, each spread across the lanes of its own registers
//! ("horizontal" layout): the first form of the single private operation of a two-prime key
//! on AVX-512 IFMA. The duo form ([`super::ifma_duo`]) has replaced it on every CPU kind
//! (`mont::backend::cpu`'s table: faster on the Zen 4 and on the Sapphire Rapids class); it
//! stays as a tested form beside it, and its product is the one the wide form below (one
//! number across the lanes: verification and the fault check) is built on.
//!
//! The lane layout of [`super::ifma`] runs up to eight exponentiations for the price of one,
//! which a two-prime signature cannot fill. Here one number of `L` digits occupies
//! `NV = ⌈L/8⌉` registers, digit `j` in lane `j mod 8` of register `j / 8`, and a Montgomery
//! product is a loop over the digits `bᵢ` of the second operand (almost Montgomery
//! multiplication in the form of Gueron and Krasnov, as in OpenSSL's `rsaz-avx512`):
//!
//! ```text
//! acc = lo(a·b₀)                                   (every digit of a at once)
//! for i in 0..L:
//!     y   = (acc₀ · k₀) mod 2^52                   (lane 0, in a general register)
//!     P   = acc + lo(n·y)                          (lane 0 of P is now ≡ 0 mod 2^52)
//!     acc = (P >> one lane) + carry(P₀) + hi(a·bᵢ) + lo(a·bᵢ₊₁) + hi(n·y)
//! ```
//!
//! The terms that do not depend on `y` (`hi(a·bᵢ) + lo(a·bᵢ₊₁)`, already in the shifted
//! position) are computed off the critical path, so each step waits only on
//! `acc₀ → y → lo(n·y) → shift`; the two numbers' steps are independent and interleave. At the
//! end one scalar carry pass brings the digits back below 2^52 and stores them, since the
//! next product reads them as its `b` operand.
//!
//! The same product with one number instead of two is the **wide** form
//! ([`pow_wide_public_vartime`]): a public exponent (verification, the fault check) modulo one
//! modulus of up to [`MAX_WIDE_DIGITS`] digits in up to ten registers, beyond the duo
//! kernels' 40 digits. With one quotient chain it waits on the chain at 20 and 40 digits, and
//! at 60 and 80 the registers' multiply-adds outlast it (see `benches/ifma_bound.rs`).
//!
//! Bounds as in [`super::ifma`]: inputs and outputs `< 2n` with `2^(52·L) > 4n`, columns below
//! 2^60 for the pair form's 40 digits; at 80 digits a column collects at most `4L` terms below
//! 2^52, below 2^61. Constant time: every loop bound and address is a function of `L`, the window and the
//! exponent's length; the table scan reads every entry under per-number compare masks.

use alloc::vec;
use alloc::vec::Vec;
use core::arch::x86_64::*;

use zeroize::{Zeroize, Zeroizing};

use super::ifma::{
    check_shapes, exp_digit_rows, finish_job, slot_job, to_radix52, LineAligned, PowJob, Token,
    MASK52, MAX_WIDE_DIGITS,
};

/// Digits in one scalar buffer: every count this form runs plus the zero read past the end.
const BUF: usize = MAX_WIDE_DIGITS + 8;

type V = __m512i;

/// A number's digits in memory, zero beyond its `L` digits (line-aligned: [`LineAligned`]).
type Digits = LineAligned<BUF>;

/// `out = base^exp mod modulus` for one or two jobs (two-prime CRT halves), the two
/// interleaved in one instruction stream, in constant time, with a `window`-bit fixed window
/// (`1..=8`). Both moduli MUST have the same digit count and both exponents the same length
/// (panics otherwise: these are the caller's public shapes).
pub fn pow_pair(_: Token, jobs: &mut [PowJob<'_>], window: u32) {
    let l = check_shapes(jobs, 2);
    let exp_digits = exp_digit_rows(jobs, 2, window);
    let job = |u: usize| &jobs[slot_job(jobs.len(), u)];

    let mut inputs = Zeroizing::new(Inputs {
        n: [Digits::ZERO; 2],
        rr: [Digits::ZERO; 2],
        base: [Digits::ZERO; 2],
        k0: [0; 2],
    });
    for u in 0..2 {
        let j = job(u);
        inputs.n[u][..l].copy_from_slice(&j.modulus.n);
        inputs.rr[u][..l].copy_from_slice(&j.modulus.rr);
        to_radix52(&mut inputs.base[u][..l], j.base);
        inputs.k0[u] = j.modulus.k0;
    }
    let mut result = Zeroizing::new([Digits::ZERO; 2]);
    // SAFETY: (each arm) the token proves AVX512F, AVX512VL and AVX512IFMA.
    match l.div_ceil(8) {
        // SAFETY: see above.
        1 => unsafe { pair_core::<1>(&mut result, &inputs, &exp_digits, l, window) },
        // SAFETY: see above.
        2 => unsafe { pair_core::<2>(&mut result, &inputs, &exp_digits, l, window) },
        // SAFETY: see above.
        3 => unsafe { pair_core::<3>(&mut result, &inputs, &exp_digits, l, window) },
        // SAFETY: see above.
        4 => unsafe { pair_core::<4>(&mut result, &inputs, &exp_digits, l, window) },
        // SAFETY: see above.
        5 => unsafe { pair_core::<5>(&mut result, &inputs, &exp_digits, l, window) },
        _ => unreachable!("Modulus52 has at most MAX_DIGITS = 40 digits"),
    }

    for (u, job) in jobs.iter_mut().enumerate() {
        finish_job(job, &result[u][..l]);
    }
}

/// `job.out = job.base^exp mod job.modulus` for one job, its number spread across the lanes
/// of up to ten registers (digit counts up to [`MAX_WIDE_DIGITS`], i.e. moduli up to 4,158
/// bits), for a **public** exponent (RSA's `e`: verification and the fault check):
/// left-to-right binary, so the time depends on `exp` (which must not be secret) but not on
/// the base or the modulus. The job's own `exp` field is not read.
///
/// One number has only one quotient chain, but at 60 and 80 digits (3072- and 4096-bit
/// moduli) a step's eight to ten registers of multiply-adds take longer than the chain, so
/// the multiplier stays busy; these sizes are beyond the duo kernels' registers.
pub fn pow_wide_public_vartime(_: Token, job: &mut PowJob<'_>, exp: &[u8]) {
    let l = job.modulus.digits;
    assert!(
        job.base.len() == job.modulus.limbs() && job.out.len() == job.modulus.limbs(),
        "base and result of the modulus's limb count"
    );
    // The modulus and R² are public; the base may be a result under its fault check, so it
    // alone is zeroized (with the result).
    let (mut n, mut rr) = (Digits::ZERO, Digits::ZERO);
    n[..l].copy_from_slice(&job.modulus.n);
    rr[..l].copy_from_slice(&job.modulus.rr);
    let mut base = Zeroizing::new(Digits::ZERO);
    to_radix52(&mut base[..l], job.base);
    let inputs = WideInputs {
        n: &n,
        rr: &rr,
        base: &base,
        k0: job.modulus.k0,
    };
    let mut result = Zeroizing::new(Digits::ZERO);
    // SAFETY: (each arm) the token proves AVX512F, AVX512VL and AVX512IFMA.
    match l.div_ceil(8) {
        // SAFETY: see above.
        1 => unsafe { wide_public_core::<1>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        2 => unsafe { wide_public_core::<2>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        3 => unsafe { wide_public_core::<3>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        4 => unsafe { wide_public_core::<4>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        5 => unsafe { wide_public_core::<5>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        6 => unsafe { wide_public_core::<6>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        7 => unsafe { wide_public_core::<7>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        8 => unsafe { wide_public_core::<8>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        9 => unsafe { wide_public_core::<9>(&mut result, &inputs, l, exp) },
        // SAFETY: see above.
        10 => unsafe { wide_public_core::<10>(&mut result, &inputs, l, exp) },
        _ => unreachable!("Modulus52 has at most MAX_WIDE_DIGITS = 80 digits"),
    }
    finish_job(job, &result[..l]);
}

/// The public exponentiation of [`pow_wide_public_vartime`] for a number of `NV` registers.
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn wide_public_core<const NV: usize>(
    out: &mut Digits,
    inputs: &WideInputs<'_>,
    l: usize,
    exp: &[u8],
) {
    let one_n = Pair::<NV, 1> {
        l,
        n: [load_num(inputs.n)],
        k0: [_mm512_set1_epi64(inputs.k0 as i64)],
    };
    let mut one = Digits::ZERO;
    one[0] = 1;
    let mut x = Zeroizing::new([Digits::ZERO; 1]);
    // x = base·R mod n (digits in `x`, registers in `xv`).
    let xv = one_n.amm(&mut x, &[load_num(inputs.base)], [inputs.rr]);
    // The accumulator's digits in two buffers used in turn (see `pair_core`).
    let mut bufs = Zeroizing::new([[Digits::ZERO; 1]; 2]);
    let (first_buf, second_buf) = bufs.split_at_mut(1);
    let (mut cur, mut next) = (&mut first_buf[0], &mut second_buf[0]);
    // Public exponent: its bits may steer the loop.
    let bits = crate::exp::exp_bit_len_vartime(exp);
    let acc = if bits == 0 {
        one_n.amm(cur, &[load_num(inputs.rr)], [&one])
    } else {
        cur[0] = x[0];
        let mut acc = xv;
        for i in (1..bits - 1).rev() {
            acc = one_n.amm(next, &acc, [&cur[0]]);
            core::mem::swap(&mut cur, &mut next);
            if crate::exp::exp_bits(exp, i, 1) == 1 {
                acc = one_n.amm(next, &acc, [&x[0]]);
                core::mem::swap(&mut cur, &mut next);
            }
        }
        if bits > 1 {
            acc = one_n.amm(next, &acc, [&cur[0]]);
            core::mem::swap(&mut cur, &mut next);
            if crate::exp::exp_bits(exp, 0, 1) == 1 {
                // The last product takes the base itself (< n) instead of base·R: it leaves
                // the domain on the way, and the product by 1 below is not needed. Its result
                // is below 2n (a < 2n, b < n), which `finish_job` reduces.
                let mut o = Zeroizing::new([Digits::ZERO; 1]);
                one_n.amm(&mut o, &acc, [inputs.base]);
                *out = o[0];
                return;
            }
        }
        acc
    };
    // Leave the domain: a product by 1 gives a value ≤ n.
    let mut o = Zeroizing::new([Digits::ZERO; 1]);
    one_n.amm(&mut o, &acc, [&one]);
    *out = o[0];
}

/// The wide form's one number in digit form (see [`pow_wide_public_vartime`]).
struct WideInputs<'a> {
    n: &'a Digits,
    rr: &'a Digits,
    base: &'a Digits,
    k0: u64,
}

/// Both numbers' inputs in digit form.
struct Inputs {
    n: [Digits; 2],
    rr: [Digits; 2],
    base: [Digits; 2],
    k0: [u64; 2],
}

impl Zeroize for Inputs {
    fn zeroize(&mut self) {
        for b in [&mut self.n, &mut self.rr, &mut self.base] {
            for d in b.iter_mut() {
                d.zeroize();
            }
        }
        self.k0.zeroize();
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn load_num<const NV: usize>(d: &Digits) -> [V; NV] {
    const { assert!(8 * NV <= MAX_WIDE_DIGITS) };
    let mut r = [_mm512_setzero_si512(); NV];
    for (v, x) in r.iter_mut().enumerate() {
        // SAFETY: 8·NV ≤ 80 < BUF readable u64s (asserted above).
        *x = unsafe { _mm512_loadu_si512(d[8 * v..].as_ptr() as *const _) };
    }
    r
}

#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn store_num<const NV: usize>(d: &mut Digits, x: &[V; NV]) {
    const { assert!(8 * NV <= MAX_WIDE_DIGITS) };
    for (v, &x) in x.iter().enumerate() {
        // SAFETY: 8·NV ≤ 80 < BUF writable u64s (asserted above).
        unsafe { _mm512_storeu_si512(d[8 * v..].as_mut_ptr() as *mut _, x) };
    }
}

/// `U` numbers' moduli and constants, in registers: the two CRT halves of a private
/// operation ([`pow_pair`]), or one modulus of a public exponentiation
/// ([`pow_wide_public_vartime`]).
struct Pair<const NV: usize, const U: usize> {
    l: usize,
    n: [[V; NV]; U],
    /// `k₀` of each number in every lane.
    k0: [V; U],
}

impl<const NV: usize, const U: usize> Pair<NV, U> {
    /// Whether a product's steps wait on the quotient chain rather than on the multiplier:
    /// one number (the wide form) of up to five registers (40 digits). There the term
    /// `hi(n·y)` is formed apart and added, one more addition per register for a shorter
    /// chain (a copy of the step timed on the Sapphire Rapids class: about 9 % fewer cycles
    /// per product at 20 digits, 3 % at 40); from eight registers the multiply-adds outlast
    /// the chain and the extra additions cost 12 %, so the larger counts keep the fused form.
    const LATENCY_BOUND: bool = U == 1 && NV <= 5;

    /// `out[u] = a[u]·b[u]·R⁻¹ (mod nᵤ)` for every number, `< 2n` for inputs `< 2n`: `a` in
    /// registers, `b` as digits in memory; `out` gets the normalised digits (zero beyond
    /// `L`) and the function returns them in registers.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
    fn amm(&self, out: &mut [Digits; U], a: &[[V; NV]; U], b: [&Digits; U]) -> [[V; NV]; U] {
        let zero = _mm512_setzero_si512();
        let mut acc = [[zero; NV]; U];
        let mut bi = [zero; U];
        for u in 0..U {
            bi[u] = _mm512_set1_epi64(b[u][0] as i64);
            for v in 0..NV {
                acc[u][v] = _mm512_madd52lo_epu64(zero, a[u][v], bi[u]);
            }
        }
        for i in 0..self.l {
            for u in 0..U {
                // b beyond L digits is zero, so the last step adds nothing for bᵢ₊₁.
                let bn = _mm512_set1_epi64(b[u][i + 1] as i64);
                // y = lo(acc₀·k₀) in every lane, kept in the vector unit.
                let y = _mm512_madd52lo_epu64(zero, acc[u][0], self.k0[u]);
                let y = _mm512_broadcastq_epi64(_mm512_castsi512_si128(y));
                let mut p = [zero; NV];
                let mut rest = [zero; NV];
                for v in 0..NV {
                    let t = _mm512_madd52hi_epu64(zero, a[u][v], bi[u]);
                    let t = _mm512_madd52lo_epu64(t, a[u][v], bn);
                    rest[v] = if Self::LATENCY_BOUND {
                        // hi(n·y) on its own, added after: the step's last term then waits
                        // on one multiply-add after y instead of a chain of three.
                        _mm512_add_epi64(t, _mm512_madd52hi_epu64(zero, self.n[u][v], y))
                    } else {
                        _mm512_madd52hi_epu64(t, self.n[u][v], y)
                    };
                    p[v] = _mm512_madd52lo_epu64(acc[u][v], self.n[u][v], y);
                }
                let carry = _mm512_maskz_srli_epi64::<52>(1, p[0]);
                for v in 0..NV {
                    let next = if v + 1 < NV { p[v + 1] } else { zero };
                    let shifted = _mm512_alignr_epi64::<1>(next, p[v]);
                    acc[u][v] = _mm512_add_epi64(shifted, rest[v]);
                }
                acc[u][0] = _mm512_add_epi64(acc[u][0], carry);
                bi[u] = bn;
            }
        }
        // Back to 52-bit digits, in registers; the digits also go to memory for the next
        // product's `b`.
        for u in 0..U {
            normalise(&mut acc[u]);
            store_num(&mut out[u], &acc[u]);
        }
        acc
    }
}

/// Brings every digit of `x` (each below 2^61) back below 2^52, moving the carries up, in
/// constant time: one pass moves each digit's excess to the next lane (leaving at most one
/// more carry per digit), then the lanes that overflow (`x ≥ 2^52`) and those that would pass a
/// carry on (`x = 2^52 − 1`) become bit masks, and one integer addition on the masks ripples
/// the last carries through (OpenSSL's AMM normalisation uses the same trick). The value must
/// fit: no carry leaves the top lane.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn normalise<const NV: usize>(x: &mut [V; NV]) {
    const { assert!(NV <= 16, "the carry masks hold 128 digits") };
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let zero = _mm512_setzero_si512();
    let mut carry = [zero; NV];
    for v in 0..NV {
        carry[v] = _mm512_srli_epi64::<52>(x[v]);
        x[v] = _mm512_and_si512(x[v], mask);
    }
    for v in 0..NV {
        let below = if v > 0 { carry[v - 1] } else { zero };
        // Lane 0 gets the top lane of the register below, the others their neighbour's.
        x[v] = _mm512_add_epi64(x[v], _mm512_alignr_epi64::<7>(carry[v], below));
    }
    let (mut g, mut p) = (0u128, 0u128);
    for (v, &xv) in x.iter().enumerate() {
        g |= u128::from(_mm512_cmpgt_epu64_mask(xv, mask)) << (8 * v);
        p |= u128::from(_mm512_cmpeq_epu64_mask(xv, mask)) << (8 * v);
    }
    // Bit j: whether digit j receives a carry (from an overflow below, or passed along a run
    // of 2^52 − 1 digits).
    let c = ((g << 1).wrapping_add(p)) ^ p;
    let one = _mm512_set1_epi64(1);
    for (v, xv) in x.iter_mut().enumerate() {
        let k = (c >> (8 * v)) as u8;
        *xv = _mm512_and_si512(_mm512_mask_add_epi64(*xv, k, *xv, one), mask);
    }
}

/// `dst = table[idx]` per number, reading every entry under a compare mask.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn select<const NV: usize>(dst: &mut Digits, table: &[Digits], idx: u64) {
    let want = _mm512_set1_epi64(idx as i64);
    let mut r = [_mm512_setzero_si512(); NV];
    for (e, entry) in table.iter().enumerate() {
        let mask = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(e as i64));
        let x: [V; NV] = load_num(entry);
        for v in 0..NV {
            r[v] = _mm512_mask_mov_epi64(r[v], mask, x[v]);
        }
    }
    store_num(dst, &r);
}

/// The exponentiation proper (see [`pow_pair`]) for numbers of `NV` registers.
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn pair_core<const NV: usize>(
    out: &mut [Digits; 2],
    inputs: &Inputs,
    exp_digits: &[u64],
    l: usize,
    window: u32,
) {
    let pair = Pair::<NV, 2> {
        l,
        n: [load_num(&inputs.n[0]), load_num(&inputs.n[1])],
        k0: [
            _mm512_set1_epi64(inputs.k0[0] as i64),
            _mm512_set1_epi64(inputs.k0[1] as i64),
        ],
    };
    let mut one = Digits::ZERO;
    one[0] = 1;
    let rrv = [load_num::<NV>(&inputs.rr[0]), load_num(&inputs.rr[1])];
    let basev = [load_num::<NV>(&inputs.base[0]), load_num(&inputs.base[1])];

    let entries = 1usize << window;
    let mut tables: [Vec<Digits>; 2] = [vec![Digits::ZERO; entries], vec![Digits::ZERO; entries]];
    let mut d = [Digits::ZERO; 2];
    // Entry 0 = R mod n, entry 1 = base·R mod n, entry e = entry(e−1)·entry 1.
    pair.amm(&mut d, &rrv, [&one, &one]);
    tables[0][0] = d[0];
    tables[1][0] = d[1];
    let mut prev = pair.amm(&mut d, &basev, [&inputs.rr[0], &inputs.rr[1]]);
    tables[0][1] = d[0];
    tables[1][1] = d[1];
    for e in 2..entries {
        prev = pair.amm(&mut d, &prev, [&tables[0][1], &tables[1][1]]);
        tables[0][e] = d[0];
        tables[1][e] = d[1];
    }

    // The accumulator's digits in two buffers used in turn (a product reads one and writes
    // the other), so that no copy of them is left on the stack.
    let mut acc_bufs = [[Digits::ZERO; 2]; 2];
    let mut sel = [Digits::ZERO; 2];
    let mut acc;
    {
        let (first_buf, second_buf) = acc_bufs.split_at_mut(1);
        let (mut cur, mut next) = (&mut first_buf[0], &mut second_buf[0]);
        let mut rows = exp_digits.chunks_exact(2);
        if let Some(first) = rows.next() {
            for u in 0..2 {
                select::<NV>(&mut cur[u], &tables[u], first[u]);
            }
            acc = [load_num::<NV>(&cur[0]), load_num(&cur[1])];
            for row in rows {
                for _ in 0..window {
                    acc = pair.amm(next, &acc, [&cur[0], &cur[1]]);
                    core::mem::swap(&mut cur, &mut next);
                }
                for u in 0..2 {
                    select::<NV>(&mut sel[u], &tables[u], row[u]);
                }
                acc = pair.amm(next, &acc, [&sel[0], &sel[1]]);
                core::mem::swap(&mut cur, &mut next);
            }
        } else {
            acc = [load_num::<NV>(&tables[0][0]), load_num(&tables[1][0])];
        }
    }
    // Leave the domain: a product by 1 gives a value ≤ n.
    pair.amm(out, &acc, [&one, &one]);
    for t in tables.iter_mut() {
        for e in t.iter_mut() {
            e.zeroize();
        }
    }
    for b in acc_bufs.iter_mut() {
        b.zeroize();
    }
    sel.zeroize();
    d.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits of `d` carried through one lane at a time, in general registers.
    fn reference(d: &[u64]) -> Vec<u64> {
        let mut carry = 0u64;
        d.iter()
            .map(|&x| {
                let x = x + carry;
                carry = x >> 52;
                x & MASK52
            })
            .collect()
    }

    #[test]
    fn normalise_ripples_carries_through_all_ones_digits() {
        if Token::get().is_none() {
            return;
        }
        // Three registers (the pair form's 24 digits) and ten (the wide form's 80, whose
        // carry masks pass 64 bits).
        check_normalise::<3>();
        check_normalise::<10>();
    }

    fn check_normalise<const NV: usize>() {
        let w = 8 * NV;
        let picks = [
            0,
            1,
            MASK52 - 1,
            MASK52,
            MASK52 + 1,
            (1 << 53) + 3,
            (1 << 60) + 12345,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut cases: Vec<Vec<u64>> = vec![
            // A carry rippling through every lane and every register boundary.
            {
                let mut d = vec![MASK52; w];
                d[0] = MASK52 + 1;
                d[w - 1] = 0;
                d
            },
            // An overflow at the top of a register and a run above it.
            {
                let mut d = vec![0; w];
                d[7] = 1 << 55;
                d[8..16].fill(MASK52);
                d
            },
            // An overflow below digit 64 rippling across the masks' 64-bit boundary.
            {
                let mut d = vec![0; w];
                d[w / 2] = MASK52 + 1;
                d[w / 2 + 1..w - 1].fill(MASK52);
                d
            },
        ];
        for _ in 0..2000 {
            let mut d = vec![0u64; w];
            for x in d[..w - 1].iter_mut() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                *x = picks[(state >> 40) as usize % picks.len()];
            }
            cases.push(d);
        }
        for d in cases {
            let mut buf = Digits::ZERO;
            buf[..w].copy_from_slice(&d);
            // SAFETY: the caller checked the extensions.
            unsafe {
                let mut x: [V; NV] = load_num(&buf);
                normalise(&mut x);
                store_num(&mut buf, &x);
            }
            assert_eq!(&buf[..w], &reference(&d)[..], "{NV} registers: {d:x?}");
        }
    }
}

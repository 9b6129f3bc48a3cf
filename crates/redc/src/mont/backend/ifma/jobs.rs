//! What a call of the IFMA exponentiations takes ([`PowJob`]), the window model, and the
//! staging shared by the lane, duo and pair forms: shape checks, slot assignment, the
//! exponent's window digits, and the conversion of a result back to 64-bit limbs.

use alloc::vec;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::{from_radix52, Modulus52};
use crate::mont::backend::cpu::{Forms, LaneWindow};
use crate::nat;

/// `N` words aligned to a cache line: the buffers of digits the IFMA forms load and store
/// 512 bits at a time (a lane-form number, a duo or a pair form's digits). Every such access
/// then stays within one line, and so does every entry of a table of them, since each form's
/// `N` is a multiple of eight. Heap-allocated tables had landed 16, 32 or 48 bytes off a line
/// in most calls (seen on an AMD EPYC Zen 4, family 25 model 17).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(in crate::mont::backend) struct LineAligned<const N: usize>([u64; N]);

impl<const N: usize> LineAligned<N> {
    /// All zeros.
    pub(in crate::mont::backend) const ZERO: Self = LineAligned([0; N]);
}

impl<const N: usize> core::ops::Deref for LineAligned<N> {
    type Target = [u64; N];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<const N: usize> core::ops::DerefMut for LineAligned<N> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<const N: usize> zeroize::Zeroize for LineAligned<N> {
    /// Volatile stores of 128 bits (SSE2, in every x86-64) instead of the `zeroize` crate's
    /// one per word: these buffers are cleared on every call, and a lane table's entry alone
    /// is 2,560 bytes. The fence keeps later code from moving before the clearing, as in
    /// `zeroize`.
    fn zeroize(&mut self) {
        use core::arch::x86_64::{__m128i, _mm_setzero_si128};
        let mut pairs = self.0.chunks_exact_mut(2);
        for pair in &mut pairs {
            // SAFETY: `pair` is two exclusive words, 16-byte aligned since the buffer is
            // 64-byte aligned and the chunks start at even words; SSE2 is part of x86-64.
            unsafe {
                core::ptr::write_volatile(pair.as_mut_ptr() as *mut __m128i, _mm_setzero_si128())
            };
        }
        pairs.into_remainder().zeroize();
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

/// One exponentiation of [`pow_lanes`](super::pow_lanes): `out = base^exp mod modulus`.
pub struct PowJob<'a> {
    /// The result, `modulus.limbs()` limbs, fully reduced.
    pub out: &'a mut [u64],
    /// The base, `< n`, `modulus.limbs()` limbs.
    pub base: &'a [u64],
    /// The exponent, big-endian; its length is public.
    pub exp: &'a [u8],
    /// The modulus.
    pub modulus: &'a Modulus52,
}

/// The window minimising the modelled cost of a `bits`-bit exponent with `digits`-digit
/// moduli: per window of `k` bits one multiplication (`4L²` multiply-adds, two per cycle) and
/// a scan of `2^k` entries of `L` registers (about two per cycle), plus `2^k` multiplications
/// to build the table. The squarings are the same for every window.
pub fn window_for(bits: usize, digits: usize) -> u32 {
    window_model(bits, digits, 0.5)
}

/// [`window_for`]'s model with the scan costing `scan` cycles per entry and digit.
fn window_model(bits: usize, digits: usize, scan: f64) -> u32 {
    let l = digits as f64;
    let mul = 2.0 * l * l;
    let cost = |k: u32| {
        let entries = (1u64 << k) as f64;
        let windows = bits.div_ceil(k as usize) as f64;
        entries * mul + windows * (mul + entries * l * scan)
    };
    (1..=7)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .unwrap_or(4)
}

/// The lane form's window for exponents of `bits` bits and moduli of `digits` digits on a CPU
/// whose forms are `forms` (`mont::backend::cpu`'s table says which rule each kind takes):
///
/// - [`LaneWindow::FitL1d`]: [`window_for`]'s, or one bit smaller where its table of `2^k`
///   lane-form entries (`64·digits` bytes each) would exceed the kind's L1D and the smaller
///   one's does not (the table is read in full for every window, from the level-2 cache once
///   it does not fit).
/// - [`LaneWindow::ScanWeighted`]: the model with the scan at 2 cycles per entry and digit
///   instead of ½, the cost measured for the lane form's table reads on the Zen 4.
/// - [`LaneWindow::ScanWeightedOne`]: the model with the scan at 1 cycle per entry and digit,
///   whose windows (4 bits from 10 to 30 digits, 5 above) measured fastest on the Sapphire
///   Rapids class.
///
/// Up to [`Forms::lane_stitched_up_to`] digits, where the window's squarings select the
/// multiplier ([`super::LaneSelect::Stitched`]), the rule is the model with the scan at 0.9
/// cycle per entry and digit instead: 4 bits from 10 to 27 digits, 5 at 30, the windows
/// measured fastest with that selection on the Sapphire Rapids class (a fit, as
/// [`LaneWindow::ScanWeightedOne`] is).
pub fn lane_window_for(bits: usize, digits: usize, forms: &Forms) -> u32 {
    if super::lane_select_for(digits, forms) == super::LaneSelect::Stitched {
        return window_model(bits, digits, 0.9);
    }
    match forms.lane_window {
        LaneWindow::ScanWeighted => window_model(bits, digits, 2.0),
        LaneWindow::ScanWeightedOne => window_model(bits, digits, 1.0),
        LaneWindow::FitL1d => {
            let w = window_for(bits, digits);
            let table = |k: u32| (1usize << k) * digits * 64;
            if w > 1 && table(w) > forms.l1d_bytes && table(w - 1) <= forms.l1d_bytes {
                w - 1
            } else {
                w
            }
        }
    }
}

/// Checks the shapes shared by the lane and pair forms and returns the digit count: 1 to
/// `slots` jobs, moduli of one digit count, bases and outputs of the moduli's limb count.
/// Panics on a mismatch (these are the caller's public shapes).
pub(in crate::mont::backend) fn check_shapes(jobs: &[PowJob<'_>], slots: usize) -> usize {
    assert!(
        !jobs.is_empty() && jobs.len() <= slots,
        "1 to {slots} jobs in one call"
    );
    let l = jobs[0].modulus.digits;
    for j in jobs {
        assert!(j.modulus.digits == l, "moduli of one digit count");
        assert!(j.base.len() == j.modulus.limbs() && j.out.len() == j.modulus.limbs());
    }
    l
}

/// The job slot `u` of a call runs: its own, or job 0 repeated in the slots without one
/// (those results are discarded).
pub(in crate::mont::backend) fn slot_job(jobs: usize, u: usize) -> usize {
    if u < jobs {
        u
    } else {
        0
    }
}

/// The `window`-bit digits of the jobs' exponents, most significant window first, as rows of
/// `slots` words: word `u` of row `w` is digit `w` of the exponent slot `u` runs
/// ([`slot_job`]). Panics unless `window` is in `1..=8` and every exponent has one length
/// (the caller's public shapes).
///
/// A slot whose exponent is the very slice an earlier slot's is (a batch's jobs for one prime
/// share the key's exponent) copies that slot's digits: which jobs share an exponent is the
/// caller's public arrangement, and the digits are read at the same places either way.
pub(in crate::mont::backend) fn exp_digit_rows(
    jobs: &[PowJob<'_>],
    slots: usize,
    window: u32,
) -> Zeroizing<Vec<u64>> {
    assert!((1..=8).contains(&window), "window must be in 1..=8");
    let elen = jobs.first().map_or(0, |j| j.exp.len());
    assert!(
        jobs.iter().all(|j| j.exp.len() == elen),
        "exponents of one length"
    );
    let digits = (elen * 8).div_ceil(window as usize);
    let mut rows = Zeroizing::new(vec![0u64; digits * slots]);
    let mask = (1u64 << window) - 1;
    let exp_of = |u: usize| jobs[slot_job(jobs.len(), u)].exp;
    // The exponent least significant byte first, with two zero bytes past its top: a digit
    // (at most 8 bits) lies within the two bytes from its first bit's.
    let mut le = Zeroizing::new(vec![0u8; elen + 2]);
    for u in 0..slots {
        let exp = exp_of(u);
        let same = |v: &usize| {
            let e = exp_of(*v);
            e.as_ptr() == exp.as_ptr() && e.len() == exp.len()
        };
        if let Some(v) = (0..u).find(same) {
            for row in rows.chunks_exact_mut(slots) {
                row[u] = row[v];
            }
            continue;
        }
        for (b, &x) in le.iter_mut().zip(exp.iter().rev()) {
            *b = x;
        }
        for d in 0..digits {
            let bit = d * window as usize;
            let (i, sh) = (bit / 8, bit % 8);
            let two = u64::from(le[i]) | (u64::from(le[i + 1]) << 8);
            rows[(digits - 1 - d) * slots + u] = (two >> sh) & mask;
        }
    }
    rows
}

/// A job's result from its `L` radix-2^52 digits (a value below 2n): back to 64-bit limbs and
/// one word above them, then the one masked subtraction. The word above matters for a value of
/// n or more when the modulus fills its top limb (every RSA modulus): such a value does not fit
/// the limbs alone.
pub(in crate::mont::backend) fn finish_job(job: &mut PowJob<'_>, digits: &[u64]) {
    /// Limbs of the longest number a job has (the wide form's digits).
    const MAX_LIMBS: usize = (super::MAX_WIDE_DIGITS * 52).div_ceil(64);
    let s = job.out.len();
    // On the stack: a heap buffer here was an allocation per exponentiation.
    let mut wide = Zeroizing::new([0u64; MAX_LIMBS + 1]);
    from_radix52(&mut wide[..s + 1], digits);
    job.out.copy_from_slice(&wide[..s]);
    let mut tmp = Zeroizing::new([0u64; MAX_LIMBS]);
    nat::reduce_once(job.out, wide[s], &job.modulus.n64, &mut tmp[..s]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mont::Modulus;

    /// Every window's rows hold each slot's exponent digits, most significant first, whether
    /// the slot's exponent is its own slice, a slice an earlier slot shares, or job 0's (a
    /// slot without a job).
    #[test]
    fn digit_rows_hold_each_slots_exponent() {
        let m = Modulus::new(&[0xffff_ffff_ffff_ffc5u64, 0x7fff_ffff_ffff_ffff]).unwrap();
        let m52 = Modulus52::new(&m, 3).expect("a 127-bit modulus fits three digits");
        let a: Vec<u8> = (0..13u8)
            .map(|i| i.wrapping_mul(97).wrapping_add(31))
            .collect();
        let b: Vec<u8> = (0..13u8).map(|i| i.wrapping_mul(59) ^ 0xa5).collect();
        let a_copy = a.clone(); // equal bytes, another slice: extracted, not copied
        let exps: [&[u8]; 5] = [&a, &b, &a, &a_copy, &b];
        let mut outs = [[0u64; 2]; 5];
        let jobs: Vec<PowJob<'_>> = outs
            .iter_mut()
            .zip(exps)
            .map(|(out, exp)| PowJob {
                out: &mut out[..],
                base: &[1, 0],
                exp,
                modulus: &m52,
            })
            .collect();
        for window in 1..=8u32 {
            let slots = 8;
            let rows = exp_digit_rows(&jobs, slots, window);
            let digits = (13 * 8usize).div_ceil(window as usize);
            assert_eq!(rows.len(), digits * slots);
            for u in 0..slots {
                let exp = exps[slot_job(jobs.len(), u)];
                // The exponent as a number, rebuilt from the rows' digits.
                let mut bits = [0u8; 13 * 8 + 8];
                for w in 0..digits {
                    let digit = rows[w * slots + u];
                    assert!(digit < 1 << window);
                    let low = (digits - 1 - w) * window as usize;
                    for k in 0..window as usize {
                        bits[low + k] = ((digit >> k) & 1) as u8;
                    }
                }
                for (i, &byte) in exp.iter().rev().enumerate() {
                    for k in 0..8 {
                        assert_eq!(bits[8 * i + k], (byte >> k) & 1, "window {window} slot {u}");
                    }
                }
                assert!(bits[13 * 8..].iter().all(|&x| x == 0));
            }
        }
    }
}

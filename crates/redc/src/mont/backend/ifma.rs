//! The x86-64 AVX-512 IFMA backend: radix-2^52 Montgomery exponentiation with up to eight
//! independent moduli side by side in the lanes of a 512-bit register (needs AVX512F, AVX512VL
//! and AVX512IFMA).
//!
//! `VPMADD52LUQ` / `VPMADD52HUQ` multiply eight pairs of 52-bit digits and add the low or the
//! high 52 bits of each 104-bit product to a 64-bit accumulator, so one register holds digit
//! `j` of eight unrelated numbers ("vertical" layout, the layout of Intel's crypto_mb): lane
//! `k` of every register belongs to exponentiation `k`. An operation's independent
//! exponentiations — the CRT halves of a private key, the three or four parts of a multi-prime
//! key, the parts of several messages of a batch — then run in one instruction stream without
//! any shuffling between lanes, each lane with its own modulus, exponent and table. This is
//! paper 004's lesson (run the independent reductions of a multi-prime key on parallel units)
//! and paper 002's (keep independent carry chains apart) on today's SIMD multiplier. A call
//! costs the same for one exponentiation or eight; one or two (a two-prime operation) run
//! faster with both numbers in every register ([`super::ifma_duo`]), which shares this
//! module's [`Modulus52`] and [`PowJob`]. [`pow_lanes_public_vartime`] is the public-exponent
//! form, for fault-checking a batch.
//!
//! The arithmetic, for `L` digits of 52 bits (`R = 2^(52·L) > 4n`): almost Montgomery
//! multiplication by operand scanning with the reduction interleaved (CIOS in radix 2^52, the
//! `cios` file of `mont::algo` in eight lanes). Row `i` takes the quotient `m = lo(t₀·k₀)`
//! (`k₀ = −n⁻¹ mod 2^52`), adds `m·n` and the next row's `a·bᵢ₊₁` (one row ahead, so that no
//! product term waits on a quotient), and moves the frame down a digit; the carry out of
//! position 0 is `⌈t₀/2^52⌉`, so `lo(m·n₀)` is never formed. Squaring is dedicated at every
//! size: row `i` multiplies `aᵢ` by `a`'s digits from `i` up, those above `i` doubled (`2a` in
//! 52-bit digits), about `3L²` multiply-adds instead of `4L²`. The 64-bit columns absorb the
//! unnormalised sums (below 2^60 for `L ≤ 40`); a serial carry pass at the end of each product
//! brings the digits back below 2^52, which the next product needs (the instructions read only
//! the low 52 bits of their inputs). Inputs and outputs are `< 2n`; [`pow_lanes`] leaves the
//! domain with a product by 1, which returns a value `≤ n`, and finishes with one masked
//! subtraction in the 64-bit form.
//!
//! The kernels are assembly written by `build.rs` for every compiled digit count
//! ([`COMPILED_DIGITS`]): rows unrolled, the frame's positions in registers as far as 22 and in
//! scratch slots beyond (40 digits need 42), each row's quotient chain first in program order.
//! Against the intrinsics version they replace (whose squaring was dedicated up to 20 digits
//! only, and whose accumulator LLVM spilled above that), measured on an AMD EPYC Zen 4 (family
//! 25 model 17), cycles per product of eight numbers: 20 digits 1,797 → 1,729, 30 digits 4,734
//! → 3,871, 40 digits 7,852 → 6,756 (`cargo bench -p redc --bench ifma_bound`), about 75 % of
//! the multiplier's bound; at 10 and 14 digits about 1–2 % slower.
//!
//! Constant time: every loop bound is a function of `L`, the window and the exponent's public
//! length; table entries are read by a scan over all of them with per-lane compare masks
//! (`VPCMPEQQ` into a mask register, `VMOVDQA64` under mask). No branch or address depends
//! on a digit, an exponent or a modulus; the generated kernels have no branch but their loop
//! over a window's squarings, whose count is public.
//!
//! The functions are only sound on CPUs with the three extensions: they are reachable only
//! through a [`Token`], which only [`Token::get`] makes after the CPU said so.

use alloc::vec;
use alloc::vec::Vec;
use core::arch::x86_64::*;

use zeroize::{Zeroize, Zeroizing};

use crate::mont::Modulus;
use crate::nat;

/// Exponentiations one call runs side by side (the 64-bit lanes of a 512-bit register).
pub const LANES: usize = 8;

/// The largest digit count supported: `40·52 = 2080` bits, enough for the 2048-bit primes of
/// 4096-bit two-prime keys.
pub const MAX_DIGITS: usize = 40;

pub(super) const MASK52: u64 = (1 << 52) - 1;

/// Proof that this CPU supports AVX512F, AVX512VL and AVX512IFMA.
#[derive(Clone, Copy, Debug)]
pub struct Token(());

static DETECTED: super::Detected = super::Detected::new();

impl Token {
    /// The token if the CPU (and the operating system, which must save the 512-bit state)
    /// supports the extensions. Asks once, then answers from a cache.
    pub fn get() -> Option<Token> {
        DETECTED.get(cpu_has_ifma).then_some(Token(()))
    }
}

#[cfg(feature = "std")]
fn cpu_has_ifma() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512ifma")
}

#[cfg(not(feature = "std"))]
#[allow(unused_unsafe)]
fn cpu_has_ifma() -> bool {
    use core::arch::x86_64::{__cpuid_count, _xgetbv};
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 7 is read only if present, XGETBV only
    // if CPUID says the OS enabled it (OSXSAVE).
    unsafe {
        if __cpuid_count(0, 0).eax < 7 {
            return false;
        }
        // Leaf 1 ECX bit 27: OSXSAVE.
        if __cpuid_count(1, 0).ecx & (1 << 27) == 0 {
            return false;
        }
        // XCR0 bits 1, 2 (SSE, AVX state) and 5, 6, 7 (opmask, ZMM0-15 upper, ZMM16-31).
        if _xgetbv(0) & 0xe6 != 0xe6 {
            return false;
        }
        let ebx = __cpuid_count(7, 0).ebx;
        // Leaf 7 sub-leaf 0, EBX bit 16: AVX512F; bit 21: AVX512IFMA; bit 31: AVX512VL.
        ebx & (1 << 16) != 0 && ebx & (1 << 21) != 0 && ebx & (1 << 31) != 0
    }
}

/// Digits of 52 bits needed for an exponentiation modulo a `bits`-bit modulus: the smallest
/// `L` with `2^(52·L) > 4n`, so that almost-Montgomery values (`< 2n`) stay below `R/2`.
pub fn digits_for_bits(bits: usize) -> usize {
    (bits + 2).div_ceil(52)
}

/// One odd modulus in radix 2^52, with its constants, for [`pow_lanes`].
///
/// Everything here is derived from a (possibly secret) prime in constant time; it is zeroized
/// when dropped.
#[derive(Clone)]
pub struct Modulus52 {
    pub(super) digits: usize,
    /// `n` in `digits` digits.
    pub(super) n: Zeroizing<Vec<u64>>,
    /// `−n⁻¹ mod 2^52`.
    pub(super) k0: u64,
    /// `2^(104·digits) mod n` in `digits` digits (to enter the domain).
    pub(super) rr: Zeroizing<Vec<u64>>,
    /// `n` in 64-bit limbs (for the final subtraction).
    pub(super) n64: Zeroizing<Vec<u64>>,
}

impl core::fmt::Debug for Modulus52 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Modulus52")
            .field("digits", &self.digits)
            .finish_non_exhaustive()
    }
}

impl Modulus52 {
    /// The radix-2^52 form of `m` with `digits` digits, or `None` if `digits` is below
    /// [`digits_for_bits`] of `m`'s bit length or above [`MAX_DIGITS`] (more digits than
    /// needed are always correct, only slower; each form runs only its own digit counts:
    /// [`COMPILED_DIGITS`] for [`pow_lanes`], [`super::ifma_duo::DUO_DIGITS`] for the duo
    /// form). Constant time in `m`'s value (it may be a secret prime): `2^(104·digits) mod n`
    /// by masked doublings from `2^(128·s)` or `2^(64·s) mod n`.
    pub fn new(m: &Modulus<u64>, digits: usize) -> Option<Self> {
        if digits < digits_for_bits(m.bits()) || digits > MAX_DIGITS {
            return None;
        }
        let s = m.limbs();
        let n64 = m.n();
        // m.rr() and m.one() are 2^(128s) and 2^(64s) mod n as plain numbers: start from the
        // larger one below the target (104·L ≥ 2·bits + 4 ≥ 64·s for every modulus of 60 bits
        // or more), usually a few dozen doublings away.
        let target = 104 * digits;
        let (start, from) = if target >= 128 * s {
            (m.rr(), 128 * s)
        } else {
            (m.one(), 64 * s)
        };
        if target < from {
            return None;
        }
        let mut x = Zeroizing::new(start.to_vec());
        let mut tmp = Zeroizing::new(vec![0u64; s]);
        for _ in from..target {
            let top = nat::shl1_in(&mut x, 0);
            nat::reduce_once(&mut x, top, n64, &mut tmp);
        }
        let mut rr = Zeroizing::new(vec![0u64; digits]);
        to_radix52(&mut rr, &x);
        let mut n = Zeroizing::new(vec![0u64; digits]);
        to_radix52(&mut n, n64);
        Some(Modulus52 {
            digits,
            n,
            k0: m.n0() & MASK52,
            rr,
            n64: Zeroizing::new(n64.to_vec()),
        })
    }

    /// The digit count `L`.
    pub fn digits(&self) -> usize {
        self.digits
    }

    /// The modulus's 64-bit limb count.
    pub fn limbs(&self) -> usize {
        self.n64.len()
    }

    /// Test hook: every secret buffer.
    pub(crate) fn for_each_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
        for v in [&self.n[..], &self.rr[..], &self.n64[..]] {
            f(v.as_ptr() as *const u8, v.len() * 8);
        }
    }
}

/// `out` (digits of 52 bits) = `x` (64-bit limbs), truncated or zero-extended. Every bit
/// position is public, so this is constant time.
pub(super) fn to_radix52(out: &mut [u64], x: &[u64]) {
    for (d, o) in out.iter_mut().enumerate() {
        let bit = 52 * d;
        let (w, sh) = (bit / 64, bit % 64);
        let lo = x.get(w).copied().unwrap_or(0) >> sh;
        let hi = if sh > 12 {
            x.get(w + 1).copied().unwrap_or(0) << (64 - sh)
        } else {
            0
        };
        *o = (lo | hi) & MASK52;
    }
}

/// `out` (64-bit limbs) = `x` (normalised 52-bit digits), truncated or zero-extended.
pub(super) fn from_radix52(out: &mut [u64], x: &[u64]) {
    out.fill(0);
    for (d, &v) in x.iter().enumerate() {
        let bit = 52 * d;
        let (w, sh) = (bit / 64, bit % 64);
        if w < out.len() {
            out[w] |= v << sh;
        }
        if sh > 12 && w + 1 < out.len() {
            out[w + 1] |= v >> (64 - sh);
        }
    }
}

/// One exponentiation of [`pow_lanes`]: `out = base^exp mod modulus`.
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
    let l = digits as f64;
    let mul = 2.0 * l * l;
    let cost = |k: u32| {
        let entries = (1u64 << k) as f64;
        let windows = bits.div_ceil(k as usize) as f64;
        entries * mul + windows * (mul + entries * l / 2.0)
    };
    (1..=7)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .unwrap_or(4)
}

/// `job.out = job.base^job.exp mod job.modulus` for every job, side by side in lanes, in
/// constant time (see the module documentation).
///
/// Every job's modulus MUST have the same digit count and every exponent the same length, and
/// there MUST be 1 to [`LANES`] jobs (panics otherwise: these are the caller's public shapes).
/// `window` is in `1..=8`.
pub fn pow_lanes(_: Token, jobs: &mut [PowJob<'_>], window: u32) {
    let staged = Staged::new(jobs);
    assert!(
        COMPILED_DIGITS.contains(&staged.l),
        "a compiled digit count"
    );
    let exp_digits = exp_digit_rows(jobs, LANES, window);
    let mut result = Zeroizing::new(vec![0u64; LANES * staged.l]);
    // SAFETY: the token proves AVX512F, AVX512VL and AVX512IFMA; l is a compiled count.
    unsafe { pow_core(&mut result, &staged, &exp_digits, window) };
    staged.finish(jobs, &result);
}

/// `job.out = job.base^exp mod job.modulus` for every job, side by side in lanes, for a
/// **public** exponent shared by all (RSA's `e`, for the fault check of a batch): left-to-right
/// binary, the squarings between set bits in one kernel call, so the time depends on `exp`
/// (which must not be secret) but not on the bases or the moduli. The jobs' own `exp` fields
/// are not read. Shapes as for [`pow_lanes`].
pub fn pow_lanes_public_vartime(_: Token, jobs: &mut [PowJob<'_>], exp: &[u8]) {
    let staged = Staged::new(jobs);
    assert!(
        COMPILED_DIGITS.contains(&staged.l),
        "a compiled digit count"
    );
    let mut result = Zeroizing::new(vec![0u64; LANES * staged.l]);
    // SAFETY: the token proves AVX512F, AVX512VL and AVX512IFMA; l is a compiled count.
    unsafe { pow_public_core(&mut result, &staged, exp) };
    staged.finish(jobs, &result);
}

/// The jobs of one call in lane form (see [`pow_lanes`]).
struct Staged {
    l: usize,
    jobs: usize,
    n: Zeroizing<Vec<u64>>,
    rr: Zeroizing<Vec<u64>>,
    base: Zeroizing<Vec<u64>>,
    k0: [u64; LANES],
}

impl Staged {
    /// Checks the shapes (panics on a mismatch: these are the caller's public shapes) and
    /// lays the moduli, constants and bases out by lane.
    fn new(jobs: &[PowJob<'_>]) -> Self {
        let l = check_shapes(jobs, LANES);
        let mut st = Staged {
            l,
            jobs: jobs.len(),
            n: Zeroizing::new(vec![0u64; LANES * l]),
            rr: Zeroizing::new(vec![0u64; LANES * l]),
            base: Zeroizing::new(vec![0u64; LANES * l]),
            k0: [0u64; LANES],
        };
        let mut digit = Zeroizing::new(vec![0u64; l]);
        for k in 0..LANES {
            let j = &jobs[st.job(k)];
            st.k0[k] = j.modulus.k0;
            to_radix52(&mut digit, j.base);
            for d in 0..l {
                st.n[d * LANES + k] = j.modulus.n[d];
                st.rr[d * LANES + k] = j.modulus.rr[d];
                st.base[d * LANES + k] = digit[d];
            }
        }
        st
    }

    /// The job lane `k` runs: its own, or job 0 repeated in the lanes without one (those
    /// results are discarded).
    fn job(&self, k: usize) -> usize {
        slot_job(self.jobs, k)
    }

    /// Back to 64-bit limbs, then the one masked subtraction (each result is ≤ n).
    fn finish(&self, jobs: &mut [PowJob<'_>], result: &[u64]) {
        let l = self.l;
        let mut digit = Zeroizing::new(vec![0u64; l]);
        for (k, job) in jobs.iter_mut().enumerate() {
            for d in 0..l {
                digit[d] = result[d * LANES + k];
            }
            finish_job(job, &digit);
        }
    }
}

/// Checks the shapes shared by the lane and pair forms and returns the digit count: 1 to
/// `slots` jobs, moduli of one digit count, bases and outputs of the moduli's limb count.
/// Panics on a mismatch (these are the caller's public shapes).
pub(super) fn check_shapes(jobs: &[PowJob<'_>], slots: usize) -> usize {
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
pub(super) fn slot_job(jobs: usize, u: usize) -> usize {
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
pub(super) fn exp_digit_rows(
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
    for (w, row) in rows.chunks_exact_mut(slots).enumerate() {
        let lo = (digits - 1 - w) * window as usize;
        for (u, e) in row.iter_mut().enumerate() {
            let exp = jobs[slot_job(jobs.len(), u)].exp;
            *e = u64::from(crate::exp::exp_bits(exp, lo, window));
        }
    }
    rows
}

/// A job's result from its `L` radix-2^52 digits (a value ≤ n): back to 64-bit limbs, then the
/// one masked subtraction.
pub(super) fn finish_job(job: &mut PowJob<'_>, digits: &[u64]) {
    from_radix52(job.out, digits);
    let mut tmp = Zeroizing::new(vec![0u64; job.out.len()]);
    nat::reduce_once(job.out, 0, &job.modulus.n64, &mut tmp);
}

/// `out = base^exp mod m` in one lane (the others idle), constant time, with a `window`-bit
/// fixed window (`1..=8`): the single-exponentiation form of [`pow_lanes`], as
/// [`crate::exp::fixed::pow`] computes it. `base < n`; returns `false` (and leaves `out`
/// alone) if `m` is too large for every compiled digit count.
pub fn pow(
    token: Token,
    out: &mut [u64],
    base: &[u64],
    exp: &[u8],
    m: &Modulus<u64>,
    window: u32,
) -> bool {
    let Some(m52) = digits_for(m.bits()).and_then(|d| Modulus52::new(m, d)) else {
        return false;
    };
    let mut job = [PowJob {
        out,
        base,
        exp,
        modulus: &m52,
    }];
    pow_lanes(token, &mut job, window);
    true
}

/// The digit counts with a compiled exponentiation; a modulus with another count runs on the
/// next one up (more digits are always correct, see [`Modulus52::new`]).
pub const COMPILED_DIGITS: [usize; lanes_asm::DIGITS.len()] = lanes_asm::DIGITS;

/// The index of `l` in [`COMPILED_DIGITS`] (the generated kernel tables' order). `l` is a
/// public shape; one not compiled is a caller's bug (`pow_lanes` checks it first).
fn digit_index(l: usize) -> usize {
    COMPILED_DIGITS
        .iter()
        .position(|&d| d == l)
        .expect("a compiled digit count (checked by pow_lanes)")
}

/// The compiled digit count a modulus of `bits` bits runs on.
pub fn digits_for(bits: usize) -> Option<usize> {
    let need = digits_for_bits(bits);
    COMPILED_DIGITS.into_iter().find(|&d| d >= need)
}

/// The kernels `build.rs` writes for the lane form: `sqr_L` (a run of squarings in place)
/// and `mul_L` for every compiled digit count, on [`LaneConsts`] and [`LaneScratch`].
mod lanes_asm {
    include!(concat!(env!("OUT_DIR"), "/lanes_asm.rs"));
}

/// The lane kernels' constants, at the byte offsets `build.rs` uses: the moduli in lane form,
/// `k₀` per lane, `2^52 − 1` and 1.
#[repr(C, align(64))]
struct LaneConsts {
    n: [u64; LANES * MAX_DIGITS],
    k0: [u64; LANES],
    m52: u64,
    one: u64,
}

const _: () = assert!(core::mem::size_of::<LaneConsts>() >= lanes_asm::CONSTS_BYTES);

impl Zeroize for LaneConsts {
    fn zeroize(&mut self) {
        self.n.zeroize();
        self.k0.zeroize();
    }
}

/// The lane kernels' scratch: the squaring's `a`, `e = 2a` and `f = 2aⱼ mod 2^52`, and the
/// frame's positions beyond the registers.
#[repr(C, align(64))]
struct LaneScratch([u64; lanes_asm::SCRATCH_BYTES / 8]);

impl Zeroize for LaneScratch {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// A lane-form number of up to [`MAX_DIGITS`] digits.
type LaneNum = [u64; LANES * MAX_DIGITS];

/// The staged jobs' constants and a zeroed scratch for the kernels.
fn lane_setup(staged: &Staged) -> (Zeroizing<LaneConsts>, Zeroizing<LaneScratch>) {
    let mut c = Zeroizing::new(LaneConsts {
        n: [0; LANES * MAX_DIGITS],
        k0: staged.k0,
        m52: MASK52,
        one: 1,
    });
    c.n[..staged.n.len()].copy_from_slice(&staged.n);
    (
        c,
        Zeroizing::new(LaneScratch([0; lanes_asm::SCRATCH_BYTES / 8])),
    )
}

/// `count ≥ 1` squarings of `x` (lane form, `l` digits) in place.
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA; `l` one of [`COMPILED_DIGITS`].
unsafe fn lane_sqr(l: usize, x: &mut LaneNum, c: &LaneConsts, s: &mut LaneScratch, count: usize) {
    let (x, c, s) = (
        x.as_mut_ptr(),
        c as *const LaneConsts as *const u64,
        s.0.as_mut_ptr(),
    );
    // SAFETY: the caller's features and count; every buffer is as large as the kernels use.
    unsafe { (lanes_asm::SQR[digit_index(l)])(x, c, s, count) }
}

/// `out = a·b·R⁻¹` (lane form, `l` digits).
///
/// # Safety
/// As for [`lane_sqr`].
unsafe fn lane_mul(
    l: usize,
    out: &mut LaneNum,
    c: &LaneConsts,
    s: &mut LaneScratch,
    a: &LaneNum,
    b: &LaneNum,
) {
    let (o, c, s, a, b) = (
        out.as_mut_ptr(),
        c as *const LaneConsts as *const u64,
        s.0.as_mut_ptr(),
        a.as_ptr(),
        b.as_ptr(),
    );
    // SAFETY: as in `lane_sqr`.
    unsafe { (lanes_asm::MUL[digit_index(l)])(o, c, s, b, a) }
}

/// The multiply-adds one squaring and one product of the lane kernels issue at `digits` (one
/// of [`COMPILED_DIGITS`]), counted in the generated code: `[squaring, product]`, each for
/// eight numbers. With the core's multiply-add rate this gives the throughput bound a kernel
/// is measured against (`benches/ifma_bound.rs`).
pub fn lane_multiply_adds(digits: usize) -> Option<[usize; 2]> {
    COMPILED_DIGITS
        .iter()
        .position(|&d| d == digits)
        .map(|i| lanes_asm::MULTIPLY_ADDS[i])
}

/// `dst = table[idx]` per lane (`idx`: one entry index per lane), `l` digits, reading every
/// entry of every digit under a per-lane compare mask.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn lane_select(l: usize, dst: &mut LaneNum, table: &[LaneNum], idx: &[u64]) {
    // SAFETY: `idx` has LANES words (a row of exp_digit_rows).
    let want = unsafe { _mm512_loadu_si512(idx.as_ptr() as *const _) };
    let masks: Vec<__mmask8> = (0..table.len())
        .map(|e| _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(e as i64)))
        .collect();
    for d in 0..l {
        let mut r = _mm512_setzero_si512();
        for (entry, &m) in table.iter().zip(&masks) {
            // SAFETY: 8·d + 8 ≤ 8·l ≤ LANES·MAX_DIGITS readable words.
            let x = unsafe { _mm512_loadu_si512(entry[LANES * d..].as_ptr() as *const _) };
            r = _mm512_mask_mov_epi64(r, m, x);
        }
        // SAFETY: as above, writable.
        unsafe { _mm512_storeu_si512(dst[LANES * d..].as_mut_ptr() as *mut _, r) };
    }
}

/// The exponentiation proper on lane-form buffers (see [`pow_lanes`]).
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA; `staged.l` one of
/// [`COMPILED_DIGITS`].
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn pow_core(out: &mut [u64], staged: &Staged, exp_digits: &[u64], window: u32) {
    let l = staged.l;
    let (c, mut s) = lane_setup(staged);
    let mut one = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    one[..LANES].fill(1);
    let (mut rr, mut base) = (
        Zeroizing::new([0u64; LANES * MAX_DIGITS]),
        Zeroizing::new([0u64; LANES * MAX_DIGITS]),
    );
    rr[..LANES * l].copy_from_slice(&staged.rr);
    base[..LANES * l].copy_from_slice(&staged.base);

    let entries = 1usize << window;
    let mut table: Zeroizing<Vec<LaneNum>> = Zeroizing::new(vec![[0; LANES * MAX_DIGITS]; entries]);
    // Entry 0 = R mod n, entry 1 = base·R mod n, entry e = entry(e−1)·entry 1.
    // SAFETY: (every kernel call) the caller's features and digit count.
    unsafe {
        lane_mul(l, &mut table[0], &c, &mut s, &rr, &one);
        lane_mul(l, &mut table[1], &c, &mut s, &base, &rr);
        for e in 2..entries {
            let (done, rest) = table.split_at_mut(e);
            lane_mul(l, &mut rest[0], &c, &mut s, &done[e - 1], &done[1]);
        }
    }
    let mut acc = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    let mut sel = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    let mut tmp = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    let mut rows = exp_digits.chunks_exact(LANES);
    if let Some(first) = rows.next() {
        lane_select(l, &mut acc, &table, first);
        for row in rows {
            lane_select(l, &mut sel, &table, row);
            // SAFETY: as above.
            unsafe {
                lane_sqr(l, &mut acc, &c, &mut s, window as usize);
                lane_mul(l, &mut tmp, &c, &mut s, &acc, &sel);
            }
            *acc = *tmp;
        }
    } else {
        *acc = table[0];
    }
    // Leave the domain: a product by 1 gives a value ≤ n.
    // SAFETY: as above.
    unsafe { lane_mul(l, &mut tmp, &c, &mut s, &acc, &one) };
    out.copy_from_slice(&tmp[..LANES * l]);
}

/// Left-to-right binary exponentiation by a public exponent on lane-form buffers (see
/// [`pow_lanes_public_vartime`]).
///
/// # Safety
/// As for [`pow_core`].
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn pow_public_core(out: &mut [u64], staged: &Staged, exp: &[u8]) {
    let l = staged.l;
    let (c, mut s) = lane_setup(staged);
    let mut one = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    one[..LANES].fill(1);
    let (mut rr, mut base) = (
        Zeroizing::new([0u64; LANES * MAX_DIGITS]),
        Zeroizing::new([0u64; LANES * MAX_DIGITS]),
    );
    rr[..LANES * l].copy_from_slice(&staged.rr);
    base[..LANES * l].copy_from_slice(&staged.base);
    let mut x = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    let mut acc = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    let mut tmp = Zeroizing::new([0u64; LANES * MAX_DIGITS]);
    // Public exponent: its bits may steer the loop.
    let bits = crate::exp::exp_bit_len_vartime(exp);
    // SAFETY: (every kernel call) the caller's features and digit count.
    unsafe {
        lane_mul(l, &mut x, &c, &mut s, &base, &rr);
        if bits == 0 {
            lane_mul(l, &mut acc, &c, &mut s, &rr, &one);
        } else {
            *acc = *x;
            let mut run = 0;
            for i in (0..bits - 1).rev() {
                run += 1;
                if crate::exp::exp_bits(exp, i, 1) == 1 {
                    lane_sqr(l, &mut acc, &c, &mut s, run);
                    run = 0;
                    lane_mul(l, &mut tmp, &c, &mut s, &acc, &x);
                    *acc = *tmp;
                }
            }
            if run > 0 {
                lane_sqr(l, &mut acc, &c, &mut s, run);
            }
        }
        lane_mul(l, &mut tmp, &c, &mut s, &acc, &one);
    }
    out.copy_from_slice(&tmp[..LANES * l]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exp::fixed;
    use crate::mont::backend::portable_kernel;

    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state ^ (*state >> 29)
    }

    fn odd_modulus(bits: usize, state: &mut u64) -> Modulus<u64> {
        let s = bits.div_ceil(64);
        let mut n: Vec<u64> = (0..s).map(|_| lcg(state)).collect();
        let top = bits - 64 * (s - 1);
        if top < 64 {
            n[s - 1] &= (1u64 << top) - 1;
        }
        n[s - 1] |= 1u64 << (top - 1);
        n[0] |= 1;
        Modulus::new(&n).unwrap()
    }

    #[test]
    fn radix_conversion_round_trips() {
        let mut st = 7;
        for s in 1..=33usize {
            let x: Vec<u64> = (0..s).map(|_| lcg(&mut st)).collect();
            let l = (64 * s).div_ceil(52);
            let mut d = vec![0u64; l];
            to_radix52(&mut d, &x);
            assert!(d.iter().all(|&v| v <= MASK52));
            let mut back = vec![0u64; s];
            from_radix52(&mut back, &d);
            assert_eq!(back, x);
        }
    }

    #[test]
    fn lanes_match_the_portable_fixed_window() {
        let Some(token) = Token::get() else {
            return;
        };
        let k = portable_kernel();
        let mut st = 0x1234_5678;
        for bits in [64, 100, 511, 512, 683, 1024, 1030, 1536, 2048, 2078] {
            let l = digits_for(bits).unwrap();
            let moduli: Vec<Modulus<u64>> =
                (0..LANES).map(|_| odd_modulus(bits, &mut st)).collect();
            let m52: Vec<Modulus52> = moduli
                .iter()
                .map(|m| Modulus52::new(m, l).unwrap())
                .collect();
            for jobs_n in [1, 2, 3, 8] {
                for elen in [0usize, 1, 9, bits.div_ceil(8)] {
                    let s = moduli[0].limbs();
                    let bases: Vec<Vec<u64>> = (0..jobs_n)
                        .map(|i| {
                            let mut b: Vec<u64> = (0..s).map(|_| lcg(&mut st)).collect();
                            b[s - 1] >>= 2;
                            let r = crate::nat::rem(&b, moduli[i].n());
                            if i == 1 {
                                vec![0; s]
                            } else if i == 2 {
                                let mut m1 = moduli[i].n().to_vec();
                                m1[0] -= 1;
                                m1
                            } else {
                                r
                            }
                        })
                        .collect();
                    let exps: Vec<Vec<u8>> = (0..jobs_n)
                        .map(|_| (0..elen).map(|_| lcg(&mut st) as u8).collect())
                        .collect();
                    let mut outs = vec![vec![0u64; s]; jobs_n];
                    let window = window_for(elen * 8, l).max(1);
                    {
                        let mut jobs: Vec<PowJob<'_>> = outs
                            .iter_mut()
                            .enumerate()
                            .map(|(i, o)| PowJob {
                                out: o,
                                base: &bases[i],
                                exp: &exps[i],
                                modulus: &m52[i],
                            })
                            .collect();
                        pow_lanes(token, &mut jobs, window);
                    }
                    for i in 0..jobs_n {
                        let mut want = vec![0u64; s];
                        fixed::pow(&mut want, &bases[i], &exps[i], &moduli[i], &k, 4);
                        assert_eq!(outs[i], want, "bits {bits} lane {i} elen {elen}");
                    }
                }
            }
        }
    }
}

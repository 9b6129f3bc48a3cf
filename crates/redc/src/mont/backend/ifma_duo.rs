//! Two exponentiations sharing every register digit by digit: the single private operation of
//! a two-prime key on AVX-512 IFMA ("duo" form).
//!
//! Layout: number `u ∈ {0, 1}` (the two CRT halves) keeps digit `d` of its `L` digits of 52
//! bits in lane `2·(d mod 4) + u` of register `d / 4`, so a 512-bit register holds four digits
//! of each number and `L` is a multiple of 4 ([`DUO_DIGITS`]; the 1024-bit primes of RSA-2048
//! fill five registers exactly, where [`super::ifma_pair`]'s one number per register set
//! leaves four of 24 lanes empty). The one exception is 30 digits, RSA-3072's 1536-bit
//! primes: they run in the registers of 32 digits, whose top two positions stay zero, with
//! one double step fewer (`R = 2^(52·30)`), so that they do not pay for the two digits they
//! do not have. In memory the order is the same, `[2d + u]`, so the two
//! numbers' digit `i` are 16 adjacent bytes: one `VBROADCASTI32X4` spreads `(bᵢ⁽⁰⁾, bᵢ⁽¹⁾)` over
//! a register, and one digit of shift is a `VALIGNQ` by two lanes. Nothing crosses between the
//! numbers, and every instruction works for both.
//!
//! The same kernels are also written for 256-bit registers ([`DuoWidth::W256`],
//! [`DUO_DIGITS_256`]): two digits of each number per register, lane `2·(d mod 2) + u` of
//! register `d / 2`, the same order in memory. `L` need only be even, so the 512-bit primes
//! of RSA-1024 take 10 digits instead of 12, and a double step's two-digit shift is a whole
//! register, done by renaming (the frame's registers rotate) instead of a `VALIGNQ` per
//! register. A core that runs a 512-bit instruction as two 256-bit halves (Zen 4) does the
//! same multiply-adds per cycle at either width; there the narrower form was faster up to 16
//! digits and slower at 20, where its registers no longer hold any of `n`. On an Intel core
//! of the Sapphire Rapids class it was faster only where it needs fewer digits (10 and 14
//! against 12 and 16) and slower at equal counts ([`duo_width_for`] and
//! `mont::backend::cpu`'s table choose).
//!
//! A Montgomery product `a·b·R⁻¹ mod n` (`R = 2^(52·L)`, almost Montgomery: inputs and outputs
//! `< 2n`, `R > 4n`) keeps an accumulator frame of `L` digit positions; before a step at
//! column `i`, position `p` holds column `i + p`. Each step takes two quotient digits (for
//! both numbers at once):
//!
//! ```text
//! y₀ = lo(t₀·k₀)                              k₀ = −n⁻¹ mod 2^52; t₀, t₁ = positions 0, 1
//! t₁' = t₁ + ⌈t₀/2^52⌉ + hi(y₀·n₀) + lo(y₀·n₁) + (column i+1's product terms)
//! y₁ = lo(t₁'·k₀)
//! t'  = shift₂(t) + ⌈t₁'/2^52⌉ + lo(y₀·n↓↓) + hi(y₀·n↓) + lo(y₁·n↓) + hi(y₁·n) + terms
//! ```
//!
//! where `shift₂` moves every position down two digits and `n↓`, `n↓↓` are `n` one and two
//! digits down. The two consumed columns are never formed: `t₀ + lo(y₀·n₀)` is exactly
//! `⌈t₀/2^52⌉·2^52`, and column i+1 likewise `⌈t₁'/2^52⌉·2^52`, so their carries come from
//! values known before the multiply-adds that would produce them. Column i+1 is completed in
//! 128-bit registers on the way to `y₁`, so the chain from one step to the next is `t₀ → y₀ →
//! t₁' → y₁ → broadcast → position 0` (about 26 cycles for two digits), while a one-digit
//! shift and its additions happen once per two digits. Paper 002's lesson — keep the
//! quotient's chain short and the independent work beside it — on today's multiplier; the
//! word-serial `acc₀ → y → lo(n·y) → shift → acc₀` of OpenSSL's `rsaz-avx512` and of the pair
//! form is the chain this replaces.
//!
//! Product terms: a step at column `i` adds the terms that land on columns `i+2` up: for the
//! product `hi(a↓·bᵢ) + lo(a↓·bᵢ₊₁) + hi(a·bᵢ₊₁) + lo(a·bᵢ₊₂)` (`a↓` one digit down), and column
//! i+1's share `hi(a₀·bᵢ) + lo(a₀·bᵢ₊₁)` goes into `t₁'`. Squaring is dedicated: row `k`
//! multiplies `aₖ` by the digits `j ≥ k` of `a` with the ones above `k` doubled (`2a` in 52-bit
//! digits, `e`, as in [`super::ifma`]), registers wholly below the row skipped, so the
//! product half of a squaring costs about half the multiply-adds of a product; where the table
//! of CPU kinds says so (up to 12 digits, 20 on Intel: [`duo_squaring_for`]) the squarings run on
//! the product kernel instead, whose lack of stores and blends is worth more there than the
//! multiply-adds it adds. Each result is normalised exactly (carries moved up until every
//! digit is below 2^52, the ripple through runs of `2^52 − 1` on bit masks in general
//! registers), since the multiply-adds read only the low 52 bits of their inputs.
//!
//! The kernels are assembly written by `build.rs` (one block per operation and digit count,
//! steps unrolled, registers fixed), because the instruction order is part of the design and
//! LLVM does not keep it: from intrinsics it hoisted every step's product terms out of the
//! unrolled squaring and spilled them, and moved each next quotient behind the step's bulk.
//! The order chosen: the quotients first, then the step's own product terms, then the
//! multiples of `n` (the core issues the oldest ready instruction first, so anything emitted
//! before the next quotient runs ahead of it).
//!
//! Measured on an AMD EPYC Zen 4 (family 25 model 17), cycles per Montgomery product of both
//! numbers over a 1024-bit exponentiation with a 5-bit window (alternating builds, medians of
//! five): 20 digits (1024-bit primes) 592 against 783 in the pair form, 32 digits 1,237
//! against 1,371, 40 digits 1,849 against 2,157. In 256-bit registers (same CPU, `ifma_bound`,
//! cycles per product at the production window): 240 at 10 digits against the 512-bit
//! form's 319 at 12 (RSA-1024's primes), 286 against 315 at 12, 402 against 427 at 16, 624
//! against 591 at 20; 30 digits in the registers of 32 (`ifma_bound`, the cleanest of three
//! runs) 1,163 against 1,223 for 32 digits the day before. The multiplier would allow about 17
//! (squaring) and 21 (product) multiply-adds per digit, i.e. about 360 and 420 cycles at 20
//! digits. The rest has no single cause (docs/performance.md, sessions five and six). On that
//! core additions, blends and shifts issue beside the multiply-adds at no cost, the shuffles
//! take a third of a multiply-add's slot and the 128-bit quotient multiply-adds half of one
//! (`ifma_bound` prints this table for the running CPU). Taken out one at a time (timing
//! only), the squaring's blends, its terms' additions, the frame's shifts, its stores of `a`'s
//! copies and its terms' multiply-adds each cost up to 10 % of an exponentiation at 20 digits, the
//! quotients' chain 4 %, and all of them but the reduction together 22 %; the reduction alone
//! runs at about 42 cycles per double step for about 22 multiply-add slots, its chain of
//! 4-cycle operations with each next quotient queued behind the step's other multiply-adds.
//!
//! Constant time: every loop bound, mask and address depends on `L`, the window and the
//! exponent's length only; the table is read by a scan over all entries under per-number
//! compare masks.

use alloc::vec;
use alloc::vec::Vec;
use core::arch::x86_64::*;

use zeroize::{Zeroize, Zeroizing};

use super::cpu::Forms;
use super::ifma::{
    check_shapes, exp_digit_rows, finish_job, slot_job, LineAligned, PowJob, Token, MASK52,
};

/// The digit counts the duo form runs in 512-bit registers (four digits of each number per
/// register: multiples of 4, and 30 in the registers of 32); a modulus needs the smallest
/// one with `2^(52·L) > 4n`.
pub const DUO_DIGITS: [usize; duo_asm::DIGITS.len()] = duo_asm::DIGITS;

/// The digit counts the duo form runs in 256-bit registers (multiples of 2, two digits of
/// each number per register).
pub const DUO_DIGITS_256: [usize; duo_asm::YDIGITS.len()] = duo_asm::YDIGITS;

/// The register width a duo kernel runs in. The layout in memory is the same for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DuoWidth {
    /// 512-bit registers, four digits of each number per register ([`DUO_DIGITS`]).
    W512,
    /// 256-bit registers, two digits of each number per register ([`DUO_DIGITS_256`]): a
    /// double step's shift is a renaming, and digit counts need only be even.
    W256,
}

impl DuoWidth {
    /// The digit counts compiled at this width.
    pub fn digit_counts(self) -> &'static [usize] {
        match self {
            DuoWidth::W512 => &DUO_DIGITS,
            DuoWidth::W256 => &DUO_DIGITS_256,
        }
    }
}

/// How the duo form squares. Both give the same result; the choice is a matter of speed,
/// made per CPU kind and digit count ([`duo_squaring_for`], `mont::backend::cpu`'s table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DuoSquaring {
    /// The dedicated squaring kernel: about a fifth fewer multiply-adds than a product, for
    /// the doubled copies of the number it stores and the blends that read them.
    Kernel,
    /// The product kernel with both factors the same number: more multiply-adds, none of the
    /// squaring's stores and blends.
    Product,
}

/// One digit count's kernels at one width.
#[derive(Clone, Copy)]
struct Kit {
    /// Digits of each number.
    l: usize,
    sqr: duo_asm::SqrFn,
    mul: duo_asm::MulFn,
}

impl Kit {
    /// The kernels for `l` digits at `width`, if compiled.
    fn new(l: usize, width: DuoWidth) -> Option<Kit> {
        let (sqr, mul): (&[duo_asm::SqrFn], &[duo_asm::MulFn]) = match width {
            DuoWidth::W512 => (&duo_asm::SQR, &duo_asm::MUL),
            DuoWidth::W256 => (&duo_asm::YSQR, &duo_asm::YMUL),
        };
        let i = width.digit_counts().iter().position(|&d| d == l)?;
        Some(Kit {
            l,
            sqr: sqr[i],
            mul: mul[i],
        })
    }
}

/// Words in one interleaved buffer: the largest `2·L`, plus the digits of zeros read past the
/// end by the last steps' look-ahead broadcasts, rounded to whole registers.
const BUF: usize = 2 * 40 + 8;

/// Two numbers' digits, interleaved (`[2d + u]`), zero beyond `2·L` (line-aligned:
/// [`LineAligned`]).
type Duo = LineAligned<BUF>;

/// The kernels `build.rs` writes: `sqr_L` (a run of squarings in place) and `mul_L` for `L`
/// = 12 to 40 digits in 512-bit registers (3 to 10 of them), `ysqr_L` and `ymul_L` for 6 to
/// 20 digits in 256-bit ones, on [`Consts`] and [`Scratch`], and the sizes of those blocks.
mod duo_asm {
    include!(concat!(env!("OUT_DIR"), "/duo_asm.rs"));
}

/// The constants a kernel reads, at the byte offsets `build.rs` uses: both moduli
/// interleaved, one and two digits down, `k₀` in every lane pair, `2^52 − 1` and 1.
#[repr(C, align(64))]
struct Consts {
    n: Arr,
    nd: Arr,
    ndd: Arr,
    k0: [u64; 8],
    m52: u64,
    one: u64,
}

/// One interleaved array of the constants block (zero past the digits).
type Arr = [u64; duo_asm::ARR];

const _: () = assert!(core::mem::size_of::<Consts>() >= duo_asm::CONSTS_BYTES);

/// The kernels' scratch: the squaring's `a`, `e = 2a` and `f` each also one digit down (see
/// the module documentation), the product's first factor and its copy one digit down.
#[repr(C, align(64))]
struct Scratch([u64; duo_asm::SCRATCH_BYTES / 8]);

impl Consts {
    /// Both moduli's constants, from their interleaved digits and `k₀`s.
    fn new(n: &Duo, k0: [u64; 2]) -> Self {
        let mut c = Consts {
            n: [0; duo_asm::ARR],
            nd: [0; duo_asm::ARR],
            ndd: [0; duo_asm::ARR],
            k0: [0; 8],
            m52: MASK52,
            one: 1,
        };
        c.n[..80].copy_from_slice(&n[..80]);
        c.nd[..78].copy_from_slice(&n[2..80]);
        c.ndd[..76].copy_from_slice(&n[4..80]);
        for pair in c.k0.chunks_exact_mut(2) {
            pair.copy_from_slice(&k0);
        }
        c
    }
}

impl Zeroize for Scratch {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Zeroize for Consts {
    fn zeroize(&mut self) {
        self.n.zeroize();
        self.nd.zeroize();
        self.ndd.zeroize();
        self.k0.zeroize();
    }
}

/// The multiply-adds one squaring and one product of the duo kernels issue at `digits` in
/// `width`'s registers, counted in the generated code: `[full-width, 128-bit]` for the
/// squaring, then for the product. With the core's multiply-add rate this gives the
/// throughput bound a kernel is measured against (`benches/ifma_bound.rs`).
pub fn multiply_adds(digits: usize, width: DuoWidth) -> Option<[usize; 4]> {
    let i = width.digit_counts().iter().position(|&d| d == digits)?;
    Some(match width {
        DuoWidth::W512 => duo_asm::MULTIPLY_ADDS[i],
        DuoWidth::W256 => duo_asm::YMULTIPLY_ADDS[i],
    })
}

/// The duo digit count for moduli of `bits` bits on CPUs with `forms`: the smallest one
/// compiled in 512-bit registers or, up to [`Forms::duo_256_up_to`], in 256-bit ones
/// (only those the 512-bit kernels lack unless [`Forms::duo_256_at_shared_counts`]), if one
/// is large enough.
pub fn duo_digits_for(bits: usize, forms: &Forms) -> Option<usize> {
    let need = super::ifma::digits_for_bits(bits);
    let narrow = DUO_DIGITS_256
        .into_iter()
        .filter(|&d| d <= forms.duo_256_up_to)
        .filter(|d| forms.duo_256_at_shared_counts || !DUO_DIGITS.contains(d));
    DUO_DIGITS
        .into_iter()
        .chain(narrow)
        .filter(|&d| d >= need)
        .min()
}

/// The width the duo form runs `digits` in on CPUs with `forms` (`mont::backend::cpu`'s
/// table), if it runs that count at all: at a count both widths have, the 256-bit kernel
/// where [`Forms::duo_256_at_shared_counts`] and the count is at most
/// [`Forms::duo_256_up_to`], else the 512-bit one.
pub fn duo_width_for(digits: usize, forms: &Forms) -> Option<DuoWidth> {
    let narrow = DUO_DIGITS_256.contains(&digits);
    let wide = DUO_DIGITS.contains(&digits);
    match (narrow, wide) {
        (true, true) if forms.duo_256_at_shared_counts && digits <= forms.duo_256_up_to => {
            Some(DuoWidth::W256)
        }
        (_, true) => Some(DuoWidth::W512),
        (true, false) => Some(DuoWidth::W256),
        (false, false) => None,
    }
}

/// How the duo form squares `digits`-digit numbers on CPUs with `forms`: by the product
/// kernel up to [`Forms::duo_sqr_by_product_up_to`] digits, by the squaring kernel above.
pub fn duo_squaring_for(digits: usize, forms: &Forms) -> DuoSquaring {
    if digits <= forms.duo_sqr_by_product_up_to {
        DuoSquaring::Product
    } else {
        DuoSquaring::Kernel
    }
}

/// `out = base^exp mod modulus` for one or two jobs (two-prime CRT halves), both in every
/// register (see the module documentation), in constant time, with a `window`-bit fixed
/// window (`1..=8`), in the registers [`duo_width_for`] names for the running CPU. Both
/// moduli MUST have the same digit count, one of [`DUO_DIGITS`] or [`DUO_DIGITS_256`], and
/// both exponents the same length (panics otherwise: these are the caller's public shapes).
pub fn pow_duo(token: Token, jobs: &mut [PowJob<'_>], window: u32) {
    let l = jobs.first().map_or(0, |j| j.modulus.digits());
    let width = duo_width_for(l, &Forms::current()).expect("a duo digit count");
    pow_duo_in(token, jobs, window, width);
}

/// [`pow_duo`] in registers of the given width, squaring as [`duo_squaring_for`] says for the
/// running CPU. The digit count MUST be one `width` runs (panics otherwise).
pub fn pow_duo_in(token: Token, jobs: &mut [PowJob<'_>], window: u32, width: DuoWidth) {
    let l = jobs.first().map_or(0, |j| j.modulus.digits());
    let squaring = duo_squaring_for(l, &Forms::current());
    pow_duo_with(token, jobs, window, width, squaring);
}

/// [`pow_duo_in`] with the squarings done as `squaring` says (for the tests and benchmarks
/// that compare both ways; the result is the same).
pub fn pow_duo_with(
    _: Token,
    jobs: &mut [PowJob<'_>],
    window: u32,
    width: DuoWidth,
    squaring: DuoSquaring,
) {
    let (kit, inputs) = stage(jobs, width);
    let exp_digits = exp_digit_rows(jobs, 2, window);
    let mut result = Zeroizing::new(Duo::ZERO);
    // SAFETY: the token proves AVX512F, AVX512VL and AVX512IFMA; the kit's kernels are
    // compiled for its digit count (stage).
    unsafe { duo_core(kit, &mut result, &inputs, &exp_digits, window, squaring) };
    finish(jobs, &result, kit.l);
}

/// `out = base^exp mod modulus` for one or two jobs side by side, as [`pow_duo`] does, but by
/// left-to-right square-and-multiply over the public exponent `exp` (big-endian; the jobs'
/// own `exp` is not read): variable time in `exp` alone, every kernel constant time in the
/// bases. The private operation's fault check by the primes (`mᵉ` modulo each of them) runs
/// here: for `e = 65537` it is 16 squarings and one product of both halves at once.
pub fn pow_duo_public_vartime(token: Token, jobs: &mut [PowJob<'_>], exp: &[u8]) {
    let l = jobs.first().map_or(0, |j| j.modulus.digits());
    let forms = Forms::current();
    let width = duo_width_for(l, &forms).expect("a duo digit count");
    let squaring = duo_squaring_for(l, &forms);
    pow_duo_public_vartime_with(token, jobs, exp, width, squaring);
}

/// [`pow_duo_public_vartime`] in registers of the given width, squaring the given way (for
/// the tests that run every form; the result is the same). The digit count MUST be one
/// `width` runs (panics otherwise).
pub fn pow_duo_public_vartime_with(
    _: Token,
    jobs: &mut [PowJob<'_>],
    exp: &[u8],
    width: DuoWidth,
    squaring: DuoSquaring,
) {
    let (kit, inputs) = stage(jobs, width);
    let mut result = Zeroizing::new(Duo::ZERO);
    // SAFETY: the token proves AVX512F, AVX512VL and AVX512IFMA; the kit's kernels are
    // compiled for its digit count (stage).
    unsafe { duo_public_core(kit, &mut result, &inputs, exp, squaring) };
    finish(jobs, &result, kit.l);
}

/// Checks the shapes (panics on a mismatch: the caller's public shapes) and lays both jobs'
/// moduli, constants and bases out interleaved; returns the kernels and them.
fn stage(jobs: &[PowJob<'_>], width: DuoWidth) -> (Kit, Zeroizing<Inputs>) {
    let l = check_shapes(jobs, 2);
    let kit = Kit::new(l, width).expect("a duo digit count");
    let mut inputs = Zeroizing::new(Inputs {
        n: Duo::ZERO,
        rr: Duo::ZERO,
        base: Duo::ZERO,
        k0: [0; 2],
    });
    let mut digits = Zeroizing::new(vec![0u64; l]);
    for u in 0..2 {
        let j = &jobs[slot_job(jobs.len(), u)];
        interleave(&mut inputs.n, u, &j.modulus.n);
        interleave(&mut inputs.rr, u, &j.modulus.rr);
        super::ifma::to_radix52(&mut digits, j.base);
        interleave(&mut inputs.base, u, &digits);
        inputs.k0[u] = j.modulus.k0;
    }
    (kit, inputs)
}

/// Every job's result from the interleaved digits (values ≤ n): back to 64-bit limbs and the
/// one masked subtraction.
fn finish(jobs: &mut [PowJob<'_>], result: &Duo, l: usize) {
    let mut digits = Zeroizing::new(vec![0u64; l]);
    for (u, job) in jobs.iter_mut().enumerate() {
        for (d, x) in digits.iter_mut().enumerate() {
            *x = result[2 * d + u];
        }
        finish_job(job, &digits);
    }
}

/// Writes `digits` as number `u` of the interleaved buffer `buf`.
fn interleave(buf: &mut Duo, u: usize, digits: &[u64]) {
    for (d, &x) in digits.iter().enumerate() {
        buf[2 * d + u] = x;
    }
}

/// Both numbers' inputs in interleaved digit form.
struct Inputs {
    n: Duo,
    rr: Duo,
    base: Duo,
    k0: [u64; 2],
}

impl Zeroize for Inputs {
    fn zeroize(&mut self) {
        for b in [&mut self.n, &mut self.rr, &mut self.base] {
            b.zeroize();
        }
        self.k0.zeroize();
    }
}

/// `dst = table[idx]` per number (`idx = (i⁽⁰⁾, i⁽¹⁾)`), `l` digits each (and the zeros above
/// them to a whole 512-bit register), reading every entry under a compare mask.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn select(l: usize, dst: &mut Duo, table: &[Duo], idx: &[u64]) {
    let nv = l.div_ceil(4);
    let want = _mm512_broadcast_i32x4(_mm_set_epi64x(idx[1] as i64, idx[0] as i64));
    let mut r = [_mm512_setzero_si512(); 10];
    for (e, entry) in table.iter().enumerate() {
        let m = _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(e as i64));
        for (v, rv) in r.iter_mut().enumerate().take(nv) {
            // SAFETY: 8·nv ≤ 80 < BUF readable u64s.
            let x = unsafe { _mm512_loadu_si512(entry[8 * v..].as_ptr() as *const _) };
            *rv = _mm512_mask_mov_epi64(*rv, m, x);
        }
    }
    for (v, &rv) in r.iter().enumerate().take(nv) {
        // SAFETY: 8·nv ≤ 80 < BUF writable u64s.
        unsafe { _mm512_storeu_si512(dst[8 * v..].as_mut_ptr() as *mut _, rv) };
    }
}

/// A run of `count ≥ 1` squarings of `x` in place by the kit's generated kernel.
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA.
unsafe fn sqr_run(kit: Kit, x: &mut Duo, c: &Consts, scratch: &mut Scratch, count: usize) {
    let (x, c, sc) = (
        x.as_mut_ptr(),
        c as *const Consts as *const u64,
        scratch.0.as_mut_ptr(),
    );
    // SAFETY: the caller's features; every buffer is as large as the kernels read or write
    // (Duo: 88 words ≥ 2·L + 2; Consts and Scratch at the offsets build.rs uses).
    unsafe { (kit.sqr)(x, c, sc, count) }
}

/// `out = a·b·R⁻¹` by the kit's generated kernel.
///
/// # Safety
/// As for [`sqr_run`].
unsafe fn mul(kit: Kit, out: &mut Duo, c: &Consts, a: &Duo, b: &Duo, scratch: &mut Scratch) {
    let (o, c, a, b, sc) = (
        out.as_mut_ptr(),
        c as *const Consts as *const u64,
        a.as_ptr(),
        b.as_ptr(),
        scratch.0.as_mut_ptr(),
    );
    // SAFETY: as in `sqr_run`; `b` has its zero digits past the end (Duo is zero there).
    unsafe { (kit.mul)(o, c, a, b, sc) }
}

/// What both exponentiations start from: both moduli's constants, a clear scratch, and the
/// pair of ones a product by which leaves the Montgomery domain.
fn core_setup(inputs: &Inputs) -> (Zeroizing<Consts>, Scratch, Duo) {
    let mut one = Duo::ZERO;
    one[0] = 1;
    one[1] = 1;
    (
        Zeroizing::new(Consts::new(&inputs.n, inputs.k0)),
        Scratch([0; duo_asm::SCRATCH_BYTES / 8]),
        one,
    )
}

/// The exponentiation proper (see [`pow_duo`]) for numbers of `kit.l` digits.
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn duo_core(
    kit: Kit,
    out: &mut Duo,
    inputs: &Inputs,
    exp_digits: &[u64],
    window: u32,
    squaring: DuoSquaring,
) {
    let (c, mut scratch, one) = core_setup(inputs);

    let entries = 1usize << window;
    let mut table: Vec<Duo> = vec![Duo::ZERO; entries];
    // Entry 0 = R mod n, entry 1 = base·R mod n, entry e = entry(e−1)·entry 1.
    // SAFETY: (every kernel call) the caller's features.
    unsafe {
        mul(kit, &mut table[0], &c, &inputs.rr, &one, &mut scratch);
        mul(
            kit,
            &mut table[1],
            &c,
            &inputs.base,
            &inputs.rr,
            &mut scratch,
        );
        for e in 2..entries {
            let (done, rest) = table.split_at_mut(e);
            mul(kit, &mut rest[0], &c, &done[e - 1], &done[1], &mut scratch);
        }
    }

    // The accumulator in two buffers used in turn (a product reads one, writes the other).
    let mut accs = [Duo::ZERO; 2];
    let mut sel = Duo::ZERO;
    {
        let (first_buf, second_buf) = accs.split_at_mut(1);
        let (mut acc, mut tmp) = (&mut first_buf[0], &mut second_buf[0]);
        let mut rows = exp_digits.chunks_exact(2);
        if let Some(first) = rows.next() {
            select(kit.l, acc, &table, first);
            for row in rows {
                select(kit.l, &mut sel, &table, row);
                // SAFETY: as above.
                unsafe {
                    let count = window as usize;
                    square_run(kit, &mut acc, &mut tmp, &c, &mut scratch, count, squaring);
                    mul(kit, tmp, &c, acc, &sel, &mut scratch);
                }
                core::mem::swap(&mut acc, &mut tmp);
            }
        } else {
            *acc = table[0];
        }
        // Leave the domain: a product by 1 gives a value ≤ n.
        // SAFETY: as above.
        unsafe { mul(kit, out, &c, acc, &one, &mut scratch) };
    }
    for e in table.iter_mut() {
        e.zeroize();
    }
    for a in accs.iter_mut() {
        a.zeroize();
    }
    sel.zeroize();
    scratch.0.zeroize();
}

/// The exponentiation of [`pow_duo_public_vartime`]: the base into the Montgomery domain,
/// then for each bit of `exp` below its top one a squaring (runs of them in one kernel
/// call) and, where the bit is set, a product by the base.
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn duo_public_core(
    kit: Kit,
    out: &mut Duo,
    inputs: &Inputs,
    exp: &[u8],
    squaring: DuoSquaring,
) {
    let (c, mut scratch, one) = core_setup(inputs);
    let mut base = Zeroizing::new(Duo::ZERO);
    let mut accs = Zeroizing::new([Duo::ZERO; 2]);
    let (first, second) = accs.split_at_mut(1);
    let (mut acc, mut tmp) = (&mut first[0], &mut second[0]);
    // The exponent's bits from the top set one (public).
    let mut bits = exp
        .iter()
        .flat_map(|&b| (0..8).rev().map(move |i| (b >> i) & 1 == 1))
        .skip_while(|&b| !b);
    // SAFETY: (every kernel call) the caller's features.
    unsafe {
        mul(kit, &mut base, &c, &inputs.base, &inputs.rr, &mut scratch);
        if bits.next().is_some() {
            *acc = *base;
        } else {
            // x⁰ = 1: R mod n, taken out of the domain below.
            mul(kit, acc, &c, &inputs.rr, &one, &mut scratch);
        }
        let mut pending = 0;
        for bit in bits {
            pending += 1;
            if bit {
                square_run(kit, &mut acc, &mut tmp, &c, &mut scratch, pending, squaring);
                pending = 0;
                mul(kit, tmp, &c, acc, &base, &mut scratch);
                core::mem::swap(&mut acc, &mut tmp);
            }
        }
        if pending > 0 {
            square_run(kit, &mut acc, &mut tmp, &c, &mut scratch, pending, squaring);
        }
        // Leave the domain: a product by 1 gives a value ≤ n.
        mul(kit, out, &c, acc, &one, &mut scratch);
    }
    scratch.0.zeroize();
}

/// `count ≥ 1` squarings of `*acc` as `squaring` says: in place by the squaring kernel, or
/// by products between the two buffers (`*acc` names the result either way).
///
/// # Safety
/// As for [`sqr_run`].
unsafe fn square_run<'a>(
    kit: Kit,
    acc: &mut &'a mut Duo,
    tmp: &mut &'a mut Duo,
    c: &Consts,
    scratch: &mut Scratch,
    count: usize,
    squaring: DuoSquaring,
) {
    // SAFETY: the caller's features.
    unsafe {
        match squaring {
            DuoSquaring::Kernel => sqr_run(kit, acc, c, scratch, count),
            DuoSquaring::Product => {
                for _ in 0..count {
                    mul(kit, tmp, c, acc, acc, scratch);
                    core::mem::swap(acc, tmp);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits of `d` (one number) carried through in general registers.
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

    /// The kernels' normalisation on lazy digits (below 2^61), each number on its own: a
    /// ripple through every digit of one number while the other has none, and random mixes of
    /// the values that make or pass a carry, at every register count of both widths.
    #[test]
    fn normalise_ripples_each_number_on_its_own() {
        if Token::get().is_none() {
            return;
        }
        let c = Consts::new(&Duo::ZERO, [0; 2]);
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
        let widths = [
            (4, &duo_asm::NVS[..], &duo_asm::NORM[..]),
            (2, &duo_asm::YNVS[..], &duo_asm::YNORM[..]),
        ];
        for (nv, per, norm) in widths
            .into_iter()
            .flat_map(|(per, nvs, norm)| nvs.iter().zip(norm).map(move |(&nv, &f)| (nv, per, f)))
        {
            let l = per * nv;
            let mut cases: Vec<[Vec<u64>; 2]> = Vec::new();
            let mut run = vec![MASK52; l];
            run[0] = MASK52 + 1;
            run[l - 1] = 0;
            cases.push([run.clone(), vec![0; l]]);
            cases.push([vec![0; l], run]);
            for _ in 0..2000 {
                let mut pair = [vec![0u64; l], vec![0u64; l]];
                for num in pair.iter_mut() {
                    // The top digit stays clear: the values must fit.
                    for x in num[..l - 1].iter_mut() {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                        *x = picks[(state >> 40) as usize % picks.len()];
                    }
                }
                cases.push(pair);
            }
            for pair in cases {
                let mut buf = Duo::ZERO;
                interleave(&mut buf, 0, &pair[0]);
                interleave(&mut buf, 1, &pair[1]);
                let (x, k) = (buf.as_mut_ptr(), &c as *const Consts as *const u64);
                // SAFETY: the token above proves the extensions; the buffers are large enough.
                unsafe { norm(x, k) };
                for (u, num) in pair.iter().enumerate() {
                    let got: Vec<u64> = (0..l).map(|d| buf[2 * d + u]).collect();
                    assert_eq!(got, reference(num), "{l} digits, number {u}");
                }
            }
        }
    }
}

//! The lane form: up to [`super::LANES`] exponentiations side by side, one per 64-bit lane,
//! on the kernels `build.rs` generates (see the module documentation of [`super`]).

use alloc::vec;
use alloc::vec::Vec;
use core::arch::x86_64::*;

use zeroize::{Zeroize, Zeroizing};

use super::*;
use crate::mont::backend::cpu::Forms;
use crate::mont::Modulus;

/// `job.out = job.base^job.exp mod job.modulus` for every job, side by side in lanes, in
/// constant time (see the module documentation), in the kernel forms the running CPU's kind
/// takes ([`lane_forms_for`]: how the window products get their multiplier, how the squarings
/// form their squares, where the products read their digits).
///
/// Every job's modulus MUST have the same digit count and every exponent the same length, and
/// there MUST be 1 to [`LANES`] jobs (panics otherwise: these are the caller's public shapes).
/// `window` is in `1..=8`.
pub fn pow_lanes(token: Token, jobs: &mut [PowJob<'_>], window: u32) {
    let digits = jobs.first().map_or(0, |j| j.modulus.digits());
    pow_lanes_in(
        token,
        jobs,
        window,
        lane_forms_for(digits, &Forms::current()),
    );
}

/// [`pow_lanes`] with the kernels' forms `forms` (every combination gives the same results).
pub fn pow_lanes_in(_: Token, jobs: &mut [PowJob<'_>], window: u32, forms: LaneForms) {
    let staged = Staged::new(jobs);
    assert!(
        COMPILED_DIGITS.contains(&staged.l),
        "a compiled digit count"
    );
    let exp_digits = exp_digit_rows(jobs, LANES, window);
    let mut result = Zeroizing::new(vec![0u64; LANES * staged.l]);
    // SAFETY: the token proves AVX512F, AVX512VL and AVX512IFMA; l is a compiled count.
    unsafe { pow_core(&mut result, &staged, &exp_digits, window, forms) };
    staged.finish(jobs, &result);
}

/// How the lane exponentiation's window products get their multiplier from the table. Both
/// read every digit of every entry, under per-lane masks, and give the same results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneSelect {
    /// The product reads the table itself, row by row (`mulsel_L`, the OR of every entry's
    /// digit under its mask); above 64 entries a separate scan selects first.
    Scan,
    /// The window's squarings store the multiplier (`sqrsel{G}_L`): each squaring's rows load
    /// one group of entries' digits and store them under the entries' masks, which takes no
    /// vector-arithmetic slot; then the plain product. For windows of 4 and 5 bits (the
    /// compiled groups); other windows scan.
    Stitched,
}

/// The forms a lane exponentiation runs its kernels in ([`pow_lanes_in`]); every combination
/// gives the same results, in constant time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneForms {
    /// How the window products get their multiplier.
    pub select: LaneSelect,
    /// How the squarings form the square.
    pub square: LaneSquare,
    /// Where the products' rows take their digits from.
    pub product: LaneProduct,
}

impl LaneForms {
    /// The forms every kind ran before the choices existed: the product's own scan, the
    /// standard squaring, digits in registers.
    pub const STANDARD: LaneForms = LaneForms {
        select: LaneSelect::Scan,
        square: LaneSquare::Standard,
        product: LaneProduct::Registers,
    };
}

/// The forms the lane form runs at `digits` on a CPU whose forms are `forms`
/// ([`lane_select_for`], [`lane_square_for`], [`lane_product_for`]).
pub fn lane_forms_for(digits: usize, forms: &Forms) -> LaneForms {
    LaneForms {
        select: lane_select_for(digits, forms),
        square: lane_square_for(digits, forms),
        product: lane_product_for(digits, forms),
    }
}

/// Where the lane products' rows take the multiplicand's and the modulus's digits from. Both
/// give the same results, in constant time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneProduct {
    /// Each digit loaded into a register once for the two multiply-adds that use it.
    Registers,
    /// Each multiply-add reads its digit from memory: twice the loads, none of them holding
    /// a vector register. Compiled at [`MEM_PRODUCT_DIGITS`]; the other counts run
    /// [`LaneProduct::Registers`].
    MemoryOperands,
    /// The product's and the reduction's terms added by tiles of 8–10 digits × as many in
    /// column order (the tiled squaring's reduction, with the product's tiles in place of the
    /// square's columns): no frame to spill, each loaded digit used for up to 20
    /// multiply-adds; the product that reads its multiplier from a table reads it whole
    /// first. Compiled at [`TILED_DIGITS`]; the other counts run [`LaneProduct::Registers`].
    Tiled,
}

/// The digit counts with memory-operand products ([`LaneProduct::MemoryOperands`]).
pub const MEM_PRODUCT_DIGITS: [usize; lanes_asm::MEM_PRODUCT_DIGITS.len()] =
    lanes_asm::MEM_PRODUCT_DIGITS;

/// The products' form the lane form runs at `digits` on a CPU whose forms are `forms`:
/// [`LaneProduct::Tiled`] from [`Forms::lane_tiled_from`] digits where it is compiled, else
/// [`LaneProduct::MemoryOperands`] where [`Forms::lane_mem_products`] is set and the form is
/// compiled, else [`LaneProduct::Registers`].
pub fn lane_product_for(digits: usize, forms: &Forms) -> LaneProduct {
    if digits >= forms.lane_tiled_from && TILED_DIGITS.contains(&digits) {
        LaneProduct::Tiled
    } else if forms.lane_mem_products && MEM_PRODUCT_DIGITS.contains(&digits) {
        LaneProduct::MemoryOperands
    } else {
        LaneProduct::Registers
    }
}

/// The index of `l` in [`MEM_PRODUCT_DIGITS`] if `product` asks for memory operands and `l`
/// has them.
fn mem_product_index(l: usize, product: LaneProduct) -> Option<usize> {
    position_if(
        product == LaneProduct::MemoryOperands,
        &MEM_PRODUCT_DIGITS,
        l,
    )
}

/// The index of `l` in [`TILED_DIGITS`] if `product` asks for the tiled form and `l` has it.
fn tiled_product_index(l: usize, product: LaneProduct) -> Option<usize> {
    position_if(product == LaneProduct::Tiled, &TILED_DIGITS, l)
}

/// A kernel from one kind's three tables: `first.1[i]` where `first.0` is `Some(i)` (the
/// asked form has `l`: memory operands or schoolbook), else `tiled.1[i]` likewise, else
/// `standard[...]` at `l`'s place in [`COMPILED_DIGITS`].
fn form_kernel<F: Copy>(
    l: usize,
    first: (Option<usize>, &[F]),
    tiled: (Option<usize>, &[F]),
    standard: &[F],
) -> F {
    match (first, tiled) {
        ((Some(i), kernels), _) | (_, (Some(i), kernels)) => kernels[i],
        _ => standard[digit_index(l)],
    }
}

/// The index of `l` in `list` if `wanted`.
fn position_if(wanted: bool, list: &[usize], l: usize) -> Option<usize> {
    list.iter().position(|&d| wanted && d == l)
}

/// How the lane kernels' squarings form the square before reducing it. Both give the same
/// results, in constant time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneSquare {
    /// The form compiled for every digit count: at even counts from 14 digits the square
    /// from three half squares (Karatsuba), elsewhere rows that multiply by the doubled
    /// digits. Fewest multiply-adds.
    Standard,
    /// The whole square by schoolbook rows into its columns (the products off the diagonal
    /// once, the columns doubled, the diagonal added), then the reduction's rows: more
    /// multiply-adds than Karatsuba's, about 160 fewer other vector operations at 20 digits.
    /// Compiled at [`SCHOOLBOOK_DIGITS`]; the other counts run [`LaneSquare::Standard`].
    Schoolbook,
    /// The square as in the standard form (Karatsuba at even counts, schoolbook rows at odd
    /// ones), then the reduction by tiles of 8–10 quotients × as many modulus digits in
    /// column order, whose window of columns stays in registers where the rows' frame
    /// (`L + 2` positions) spills to memory. Compiled at [`TILED_DIGITS`]; the other counts
    /// run [`LaneSquare::Standard`].
    Tiled,
}

/// The digit counts with schoolbook squarings ([`LaneSquare::Schoolbook`]).
pub const SCHOOLBOOK_DIGITS: [usize; lanes_asm::SCHOOLBOOK_DIGITS.len()] =
    lanes_asm::SCHOOLBOOK_DIGITS;

/// The digit counts with tiled squarings ([`LaneSquare::Tiled`]).
pub const TILED_DIGITS: [usize; lanes_asm::TILED_DIGITS.len()] = lanes_asm::TILED_DIGITS;

/// The squarings' form the lane form runs at `digits` on a CPU whose forms are `forms`:
/// [`LaneSquare::Schoolbook`] up to [`Forms::lane_schoolbook_up_to`] digits where it is
/// compiled, [`LaneSquare::Tiled`] from [`Forms::lane_tiled_from`] digits where it is,
/// else [`LaneSquare::Standard`].
pub fn lane_square_for(digits: usize, forms: &Forms) -> LaneSquare {
    if digits <= forms.lane_schoolbook_up_to && SCHOOLBOOK_DIGITS.contains(&digits) {
        LaneSquare::Schoolbook
    } else if digits >= forms.lane_tiled_from && TILED_DIGITS.contains(&digits) {
        LaneSquare::Tiled
    } else {
        LaneSquare::Standard
    }
}

/// The index of `l` in [`SCHOOLBOOK_DIGITS`] if `square` asks for the schoolbook form and
/// `l` has it.
fn schoolbook_index(l: usize, square: LaneSquare) -> Option<usize> {
    position_if(square == LaneSquare::Schoolbook, &SCHOOLBOOK_DIGITS, l)
}

/// The index of `l` in [`TILED_DIGITS`] if `square` asks for the tiled form and `l` has it.
fn tiled_index(l: usize, square: LaneSquare) -> Option<usize> {
    position_if(square == LaneSquare::Tiled, &TILED_DIGITS, l)
}

/// The selection the lane form runs at `digits` on a CPU whose forms are `forms`:
/// [`LaneSelect::Stitched`] up to [`Forms::lane_stitched_up_to`] digits, else
/// [`LaneSelect::Scan`].
pub fn lane_select_for(digits: usize, forms: &Forms) -> LaneSelect {
    if digits <= forms.lane_stitched_up_to {
        LaneSelect::Stitched
    } else {
        LaneSelect::Scan
    }
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
    let forms = lane_forms_for(staged.l, &Forms::current());
    let mut result = Zeroizing::new(vec![0u64; LANES * staged.l]);
    // SAFETY: the token proves AVX512F, AVX512VL and AVX512IFMA; l is a compiled count.
    unsafe { pow_public_core(&mut result, &staged, exp, forms) };
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

/// A lane-form number of up to [`MAX_DIGITS`] digits (line-aligned: [`LineAligned`]).
type LaneNum = LineAligned<{ LANES * MAX_DIGITS }>;

/// What both exponentiations start from: the staged jobs' constants, a zeroed scratch for
/// the kernels, and 1, `R² mod n` and the bases as lane-form numbers.
struct LaneSetup {
    c: Zeroizing<LaneConsts>,
    s: Zeroizing<LaneScratch>,
    one: Zeroizing<LaneNum>,
    rr: Zeroizing<LaneNum>,
    base: Zeroizing<LaneNum>,
}

fn lane_setup(staged: &Staged) -> LaneSetup {
    let mut c = Zeroizing::new(LaneConsts {
        n: [0; LANES * MAX_DIGITS],
        k0: staged.k0,
        m52: MASK52,
        one: 1,
    });
    c.n[..staged.n.len()].copy_from_slice(&staged.n);
    let l = staged.l;
    let mut one = Zeroizing::new(LaneNum::ZERO);
    one[..LANES].fill(1);
    let (mut rr, mut base) = (Zeroizing::new(LaneNum::ZERO), Zeroizing::new(LaneNum::ZERO));
    rr[..LANES * l].copy_from_slice(&staged.rr);
    base[..LANES * l].copy_from_slice(&staged.base);
    LaneSetup {
        c,
        s: Zeroizing::new(LaneScratch([0; lanes_asm::SCRATCH_BYTES / 8])),
        one,
        rr,
        base,
    }
}

/// `count ≥ 1` squarings of `x` (lane form, `l` digits) in place, in the form `square`.
///
/// # Safety
/// The CPU must support AVX512F, AVX512VL and AVX512IFMA; `l` one of [`COMPILED_DIGITS`].
unsafe fn lane_sqr(
    l: usize,
    square: LaneSquare,
    x: &mut LaneNum,
    c: &LaneConsts,
    s: &mut LaneScratch,
    count: usize,
) {
    let (x, c, s) = (
        x.as_mut_ptr(),
        c as *const LaneConsts as *const u64,
        s.0.as_mut_ptr(),
    );
    let kernel = form_kernel(
        l,
        (schoolbook_index(l, square), &lanes_asm::SSQR),
        (tiled_index(l, square), &lanes_asm::TSQR),
        &lanes_asm::SQR,
    );
    // SAFETY: the caller's features and count; every buffer is as large as the kernels use.
    unsafe { kernel(x, c, s, count) }
}

/// `out = a·b·R⁻¹` (lane form, `l` digits).
///
/// # Safety
/// As for [`lane_sqr`].
unsafe fn lane_mul(
    l: usize,
    product: LaneProduct,
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
    let kernel = form_kernel(
        l,
        (mem_product_index(l, product), &lanes_asm::MMUL),
        (tiled_product_index(l, product), &lanes_asm::TMUL),
        &lanes_asm::MUL,
    );
    // SAFETY: as in `lane_sqr`; `out` is a `&mut` distinct from `a` and `b`, as the tiled
    // products need.
    unsafe { kernel(o, c, s, b, a) }
}

/// `out = a·table[idx]·R⁻¹` per lane (lane form, `l` digits; `idx` one entry index per lane, as
/// [`lane_select`] takes it): the product kernel that selects its multiplier's digits row by
/// row, reading every digit of every entry (the masks go to the scratch first).
///
/// # Safety
/// As for [`lane_sqr`]; `1 ≤ table.len() ≤ SELECT_ENTRIES`.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
#[allow(clippy::too_many_arguments)]
unsafe fn lane_mul_select(
    l: usize,
    product: LaneProduct,
    out: &mut LaneNum,
    c: &LaneConsts,
    s: &mut LaneScratch,
    a: &LaneNum,
    table: &[LaneNum],
    idx: &[u64],
) {
    assert!(!table.is_empty() && table.len() <= lanes_asm::SELECT_ENTRIES);
    // The masks go straight into the scratch (zeroized with it): no copy of them elsewhere.
    let want = lane_digits(idx);
    let ones = _mm512_set1_epi64(-1);
    let masks = &mut s.0[lanes_asm::MASK_OFFSET / 8..];
    for e in 0..table.len() {
        // SAFETY: MASK_OFFSET + 64·SELECT_ENTRIES ≤ SCRATCH_BYTES (LANES words per mask).
        unsafe {
            _mm512_storeu_si512(
                masks[LANES * e..].as_mut_ptr() as *mut _,
                _mm512_maskz_mov_epi64(entry_mask(want, e), ones),
            )
        };
    }
    let (o, c, s, t, a) = (
        out.as_mut_ptr(),
        c as *const LaneConsts as *const u64,
        s.0.as_mut_ptr(),
        table.as_ptr() as *const u64,
        a.as_ptr(),
    );
    let kernel = form_kernel(
        l,
        (mem_product_index(l, product), &lanes_asm::MMUL_SEL),
        (tiled_product_index(l, product), &lanes_asm::TMUL_SEL),
        &lanes_asm::MUL_SEL,
    );
    // SAFETY: the caller's features and count; the table's entries are LaneNums, ENTRY_BYTES
    // apart (checked at compile time below), and the masks are set; `out` is a `&mut`
    // distinct from `a`.
    unsafe { kernel(o, c, s, t, a, table.len()) }
}

const _: () = assert!(core::mem::size_of::<LaneNum>() == lanes_asm::ENTRY_BYTES);
const _: () =
    assert!(lanes_asm::MASK_OFFSET + 64 * lanes_asm::SELECT_ENTRIES <= lanes_asm::SCRATCH_BYTES);
const _: () = assert!(
    lanes_asm::SEL_MASK_OFFSET.is_multiple_of(8)
        && lanes_asm::SEL_MASK_OFFSET + 64 <= lanes_asm::SCRATCH_BYTES
);

/// The group sizes of the compiled selecting squarings (`sqrsel{G}_L`): the entries each of a
/// window's squarings stores, `⌈2^w / w⌉` for windows of 4 and 5 bits.
pub const STITCH_GROUP_SIZES: [usize; lanes_asm::STITCH_GROUPS.len()] = lanes_asm::STITCH_GROUPS;

/// The stitched selection's group size for a window of `window` bits, as an index into the
/// compiled groups (`None`: no selecting squaring for this window): each of the window's
/// squarings takes `⌈2^window / window⌉` entries.
fn stitch_group(window: u32) -> Option<usize> {
    let group = (1usize << window).div_ceil(window as usize);
    lanes_asm::STITCH_GROUPS.iter().position(|&g| g == group)
}

/// The entries the selecting squarings of a `window`-bit window read with group `gi`: the
/// group size times the window's squarings (`2^window` and the padding past it).
fn stitch_entries(gi: usize, window: u32) -> usize {
    lanes_asm::STITCH_GROUPS[gi] * window as usize
}

/// The window digits `idx` (one per lane) in a register, for [`entry_mask`].
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn lane_digits(idx: &[u64]) -> __m512i {
    assert!(idx.len() >= LANES);
    // SAFETY: `idx` has LANES words.
    unsafe { _mm512_loadu_si512(idx.as_ptr() as *const _) }
}

/// Entry `e`'s lane mask for the window digits `want` ([`lane_digits`]): bit `u` is set where
/// lane `u` wants entry `e`.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn entry_mask(want: __m512i, e: usize) -> __mmask8 {
    _mm512_cmpeq_epi64_mask(want, _mm512_set1_epi64(e as i64))
}

/// Each entry's lane mask for the window digits `idx` (one per lane): bit `u` of `masks[e]` is
/// set where lane `u` wants entry `e`, for every `e < masks.len()`.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn entry_masks(idx: &[u64], masks: &mut [u8]) {
    let want = lane_digits(idx);
    for (e, m) in masks.iter_mut().enumerate() {
        *m = entry_mask(want, e);
    }
}

/// `count` squarings of `x` in place that also set `sel = table[idx]` per lane (the next
/// product's multiplier) by masked stores spread over the squarings' rows: every digit of
/// every entry is read. `table` holds `group·count` entries for the group `gi` names (the
/// entries past `2^window` never selected).
///
/// # Safety
/// As for [`lane_sqr`]; `gi` from [`stitch_group`] for `count` = the window.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
#[allow(clippy::too_many_arguments)]
unsafe fn lane_sqr_select(
    l: usize,
    square: LaneSquare,
    x: &mut LaneNum,
    c: &LaneConsts,
    s: &mut LaneScratch,
    count: usize,
    table: &[LaneNum],
    sel: &mut LaneNum,
    idx: &[u64],
    gi: usize,
) {
    let entries = stitch_entries(gi, count as u32);
    assert!(count >= 1 && table.len() >= entries && entries <= 64);
    // One mask byte per entry (zero past `entries`), straight into the scratch where the
    // kernel reads them: zeroized with it, no copy of them elsewhere to clear per window.
    let want = lane_digits(idx);
    let at = lanes_asm::SEL_MASK_OFFSET / 8;
    for (w, word) in s.0[at..at + 8].iter_mut().enumerate() {
        let mut bytes = 0u64;
        for b in 0..8 {
            let e = 8 * w + b;
            if e < entries {
                bytes |= (entry_mask(want, e) as u64) << (8 * b);
            }
        }
        *word = bytes;
    }
    let (xp, cp, sp, tp, selp) = (
        x.as_mut_ptr(),
        c as *const LaneConsts as *const u64,
        s.0.as_mut_ptr(),
        table.as_ptr() as *const u64,
        sel.as_mut_ptr(),
    );
    let kernel = form_kernel(
        l,
        (schoolbook_index(l, square), &lanes_asm::SSQR_SEL[gi]),
        (tiled_index(l, square), &lanes_asm::TSQR_SEL[gi]),
        &lanes_asm::SQR_SEL[gi],
    );
    // SAFETY: the caller's features and count; the table's `group·count` entries are
    // LaneNums ENTRY_BYTES apart and the scratch holds a mask byte for each.
    unsafe { kernel(xp, cp, sp, count, tp, selp) }
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

/// The multiply-adds one schoolbook squaring ([`LaneSquare::Schoolbook`]) issues at `digits`
/// (one of [`SCHOOLBOOK_DIGITS`]), for eight numbers, counted in the generated code.
pub fn lane_schoolbook_multiply_adds(digits: usize) -> Option<usize> {
    schoolbook_index(digits, LaneSquare::Schoolbook).map(|i| lanes_asm::SCHOOLBOOK_MULTIPLY_ADDS[i])
}

/// The multiply-adds one tiled squaring ([`LaneSquare::Tiled`]) and one tiled product
/// ([`LaneProduct::Tiled`]) issue at `digits` (one of [`TILED_DIGITS`]), counted in the
/// generated code: `[squaring, product]`, each for eight numbers.
pub fn lane_tiled_multiply_adds(digits: usize) -> Option<[usize; 2]> {
    tiled_index(digits, LaneSquare::Tiled).map(|i| lanes_asm::TILED_MULTIPLY_ADDS[i])
}

/// `dst = table[idx]` per lane (`idx`: one entry index per lane), `l` digits, reading every
/// entry of every digit under a per-lane compare mask.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn lane_select(l: usize, dst: &mut LaneNum, table: &[LaneNum], idx: &[u64]) {
    // At most 2^8 entries (window ≤ 8); on the stack, not allocated per call, and zeroized
    // (the masks say which entry each lane's secret window digit picks).
    let mut masks = Zeroizing::new([0 as __mmask8; 256]);
    assert!(table.len() <= masks.len(), "a window of at most 8 bits");
    entry_masks(idx, &mut masks[..table.len()]);
    for d in 0..l {
        let mut r = _mm512_setzero_si512();
        for (entry, &m) in table.iter().zip(masks.iter()) {
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
unsafe fn pow_core(
    out: &mut [u64],
    staged: &Staged,
    exp_digits: &[u64],
    window: u32,
    forms: LaneForms,
) {
    let LaneForms {
        select,
        square,
        product,
    } = forms;
    let l = staged.l;
    let LaneSetup {
        c,
        mut s,
        one,
        rr,
        base,
    } = lane_setup(staged);

    let entries = 1usize << window;
    let stitch = match select {
        LaneSelect::Stitched => stitch_group(window),
        LaneSelect::Scan => None,
    };
    // The selecting squarings read whole groups: entries past 2^window stay zero.
    let padded = stitch.map_or(entries, |gi| stitch_entries(gi, window));
    let mut table: Zeroizing<Vec<LaneNum>> = Zeroizing::new(vec![LaneNum::ZERO; padded]);
    // Entry 0 = R mod n, entry 1 = base·R mod n, entry e = entry(e−1)·entry 1.
    // SAFETY: (every kernel call) the caller's features and digit count.
    unsafe {
        lane_mul(l, product, &mut table[0], &c, &mut s, &rr, &one);
        lane_mul(l, product, &mut table[1], &c, &mut s, &base, &rr);
        for e in 2..entries {
            let (done, rest) = table.split_at_mut(e);
            lane_mul(l, product, &mut rest[0], &c, &mut s, &done[e - 1], &done[1]);
        }
    }
    // The accumulator in two buffers used in turn (a product reads one, writes the other).
    let mut accs = Zeroizing::new([LaneNum::ZERO; 2]);
    let mut sel = Zeroizing::new(LaneNum::ZERO);
    let (first_buf, second_buf) = accs.split_at_mut(1);
    let (mut acc, mut tmp) = (&mut first_buf[0], &mut second_buf[0]);
    let mut rows = exp_digits.chunks_exact(LANES);
    if let Some(first) = rows.next() {
        lane_select(l, acc, &table, first);
        for row in rows {
            // SAFETY: as above.
            unsafe {
                if let Some(gi) = stitch {
                    lane_sqr_select(
                        l,
                        square,
                        acc,
                        &c,
                        &mut s,
                        window as usize,
                        &table,
                        &mut sel,
                        row,
                        gi,
                    );
                    lane_mul(l, product, tmp, &c, &mut s, acc, &sel);
                } else if entries <= lanes_asm::SELECT_ENTRIES {
                    lane_sqr(l, square, acc, &c, &mut s, window as usize);
                    lane_mul_select(l, product, tmp, &c, &mut s, acc, &table, row);
                } else {
                    lane_sqr(l, square, acc, &c, &mut s, window as usize);
                    lane_select(l, &mut sel, &table, row);
                    lane_mul(l, product, tmp, &c, &mut s, acc, &sel);
                }
            }
            core::mem::swap(&mut acc, &mut tmp);
        }
    } else {
        *acc = table[0];
    }
    // Leave the domain: a product by 1 gives a value ≤ n.
    // SAFETY: as above.
    unsafe { lane_mul(l, product, tmp, &c, &mut s, acc, &one) };
    out.copy_from_slice(&tmp[..LANES * l]);
}

/// A lane kernel that [`run_lane_kernel`] repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneKernel {
    /// The squaring (all of a run's squarings in one kernel call, as an exponentiation
    /// makes a window's).
    Squaring,
    /// The product of two lane-form numbers.
    Product,
    /// The product whose multiplier it selects from a table of `entries` numbers, reading
    /// every digit of every entry (the exponentiation's window product; `1 ≤ entries ≤ 64`).
    SelectingProduct {
        /// Table entries: `2^window`.
        entries: usize,
    },
    /// The squarings that select the next multiplier as they go ([`LaneSelect::Stitched`]),
    /// `window` per kernel call as an exponentiation makes them, from a table of the window's
    /// group size times `window` entries (`window` 4 or 5, the compiled groups; the calls a
    /// multiple of it).
    SelectingSquarings {
        /// The window in bits.
        window: u32,
    },
    /// [`LaneKernel::Squaring`] in the schoolbook form ([`LaneSquare::Schoolbook`]; the
    /// standard one at counts without it).
    SchoolbookSquaring,
    /// [`LaneKernel::SelectingSquarings`] in the schoolbook form.
    SelectingSchoolbookSquarings {
        /// The window in bits.
        window: u32,
    },
    /// [`LaneKernel::Squaring`] in the tiled form ([`LaneSquare::Tiled`]; the standard one
    /// at counts without it).
    TiledSquaring,
    /// [`LaneKernel::SelectingSquarings`] in the tiled form.
    SelectingTiledSquarings {
        /// The window in bits.
        window: u32,
    },
    /// [`LaneKernel::Product`] with memory operands ([`LaneProduct::MemoryOperands`]; the
    /// registers' form at counts without it).
    MemoryOperandProduct,
    /// [`LaneKernel::SelectingProduct`] with memory operands.
    SelectingMemoryOperandProduct {
        /// Table entries: `2^window`.
        entries: usize,
    },
    /// [`LaneKernel::Product`] in the tiled form ([`LaneProduct::Tiled`]; the registers'
    /// form at counts without it).
    TiledProduct,
    /// [`LaneKernel::SelectingProduct`] in the tiled form.
    SelectingTiledProduct {
        /// Table entries: `2^window`.
        entries: usize,
    },
}

impl LaneKernel {
    /// The kernel in the standard form and the forms it runs in.
    fn split(self) -> (LaneKernel, LaneForms) {
        let with = |square, product| LaneForms {
            square,
            product,
            ..LaneForms::STANDARD
        };
        use LaneProduct::*;
        use LaneSquare::*;
        match self {
            LaneKernel::SchoolbookSquaring => (LaneKernel::Squaring, with(Schoolbook, Registers)),
            LaneKernel::SelectingSchoolbookSquarings { window } => (
                LaneKernel::SelectingSquarings { window },
                with(Schoolbook, Registers),
            ),
            LaneKernel::TiledSquaring => (LaneKernel::Squaring, with(LaneSquare::Tiled, Registers)),
            LaneKernel::SelectingTiledSquarings { window } => (
                LaneKernel::SelectingSquarings { window },
                with(LaneSquare::Tiled, Registers),
            ),
            LaneKernel::MemoryOperandProduct => {
                (LaneKernel::Product, with(Standard, MemoryOperands))
            }
            LaneKernel::TiledProduct => (LaneKernel::Product, with(Standard, LaneProduct::Tiled)),
            LaneKernel::SelectingTiledProduct { entries } => (
                LaneKernel::SelectingProduct { entries },
                with(Standard, LaneProduct::Tiled),
            ),
            LaneKernel::SelectingMemoryOperandProduct { entries } => (
                LaneKernel::SelectingProduct { entries },
                with(Standard, MemoryOperands),
            ),
            k => (k, LaneForms::STANDARD),
        }
    }
}

/// Runs `kernel` `calls` times in lane form, each call on the previous one's result, from
/// `x = base` (the jobs' `exp` is not read): the kernels one at a time, for timing them
/// against the multiplier's bound or a peer's kernels (`benches/ifma_bound.rs`). Each job's
/// `out` receives `x·R⁻¹ mod n` after the calls (`R = 2^(52·digits)`), which the squaring
/// makes `(base·R⁻¹)^(2^calls)`, the product (by `R² mod n`) `base·R^(calls−1)` and the
/// selecting product (from a table of copies of `base`) `(base·R⁻¹)^(calls+1)`, all modulo
/// `n`; the selecting squarings as the squaring. Panics on shapes [`pow_lanes`] refuses, on
/// `entries` outside `1..=64`, or on a `window` without a compiled group or whose multiple
/// `calls` is not.
pub fn run_lane_kernel(_: Token, jobs: &mut [PowJob<'_>], kernel: LaneKernel, calls: usize) {
    let (kernel, forms) = kernel.split();
    let staged = Staged::new(jobs);
    assert!(
        COMPILED_DIGITS.contains(&staged.l),
        "a compiled digit count"
    );
    if let LaneKernel::SelectingProduct { entries } = kernel {
        assert!(
            (1..=lanes_asm::SELECT_ENTRIES).contains(&entries),
            "1 to {} table entries",
            lanes_asm::SELECT_ENTRIES
        );
    }
    if let LaneKernel::SelectingSquarings { window } = kernel {
        assert!(
            (1..=8).contains(&window) && stitch_group(window).is_some(),
            "a window with a compiled group of entries (4 or 5 bits)"
        );
        assert!(
            calls.is_multiple_of(window as usize),
            "calls a multiple of the window"
        );
    }
    let mut result = Zeroizing::new(vec![0u64; LANES * staged.l]);
    // SAFETY: the token proves AVX512F, AVX512VL and AVX512IFMA; l is a compiled count.
    unsafe { run_lane_kernel_core(&mut result, &staged, kernel, forms, calls) };
    staged.finish(jobs, &result);
}

/// [`run_lane_kernel`] past its checks.
///
/// # Safety
/// As for [`pow_core`]; `entries` checked; `kernel` in the standard form (`forms` says which
/// squarings and products run).
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn run_lane_kernel_core(
    out: &mut [u64],
    staged: &Staged,
    kernel: LaneKernel,
    forms: LaneForms,
    calls: usize,
) {
    let (square, product) = (forms.square, forms.product);
    let l = staged.l;
    let LaneSetup {
        c,
        mut s,
        one,
        rr,
        base,
    } = lane_setup(staged);
    let mut bufs = Zeroizing::new([*base, *rr]);
    let (first, second) = bufs.split_at_mut(1);
    let (mut x, mut y) = (&mut first[0], &mut second[0]);
    let entries = match kernel {
        LaneKernel::SelectingProduct { entries }
        | LaneKernel::SelectingMemoryOperandProduct { entries }
        | LaneKernel::SelectingTiledProduct { entries } => entries,
        LaneKernel::SelectingSquarings { window }
        | LaneKernel::SelectingSchoolbookSquarings { window }
        | LaneKernel::SelectingTiledSquarings { window } => stitch_entries(
            stitch_group(window).expect("checked by run_lane_kernel"),
            window,
        ),
        _ => 1,
    };
    let table: Zeroizing<Vec<LaneNum>> = Zeroizing::new(vec![*base; entries]);
    // Lane u selects entry u mod entries.
    let idx: [u64; LANES] = core::array::from_fn(|u| (u % entries) as u64);
    match kernel {
        // The squarings in one kernel call, as the exponentiations make a window's.
        LaneKernel::Squaring | LaneKernel::SchoolbookSquaring | LaneKernel::TiledSquaring => {
            if calls > 0 {
                // SAFETY: the caller's features and digit count; at least one squaring.
                unsafe { lane_sqr(l, square, x, &c, &mut s, calls) }
            }
        }
        LaneKernel::Product | LaneKernel::MemoryOperandProduct | LaneKernel::TiledProduct => {
            for _ in 0..calls {
                // SAFETY: the caller's features and digit count.
                unsafe { lane_mul(l, product, y, &c, &mut s, x, &rr) };
                core::mem::swap(&mut x, &mut y);
            }
        }
        LaneKernel::SelectingProduct { .. }
        | LaneKernel::SelectingMemoryOperandProduct { .. }
        | LaneKernel::SelectingTiledProduct { .. } => {
            for _ in 0..calls {
                // SAFETY: as above; the table has 1 to SELECT_ENTRIES entries.
                unsafe { lane_mul_select(l, product, y, &c, &mut s, x, &table, &idx) };
                core::mem::swap(&mut x, &mut y);
            }
        }
        LaneKernel::SelectingSquarings { window }
        | LaneKernel::SelectingSchoolbookSquarings { window }
        | LaneKernel::SelectingTiledSquarings { window } => {
            let gi = stitch_group(window).expect("checked by run_lane_kernel");
            let mut sel = Zeroizing::new(LaneNum::ZERO);
            for _ in 0..calls / window as usize {
                // SAFETY: as above; the table has the group's entries for `window` squarings.
                unsafe {
                    lane_sqr_select(
                        l,
                        square,
                        x,
                        &c,
                        &mut s,
                        window as usize,
                        &table,
                        &mut sel,
                        &idx,
                        gi,
                    )
                };
            }
        }
    }
    // A product by 1 gives a value ≤ n.
    // SAFETY: as above.
    unsafe { lane_mul(l, product, y, &c, &mut s, x, &one) };
    out.copy_from_slice(&y[..LANES * l]);
}

/// Left-to-right binary exponentiation by a public exponent on lane-form buffers (see
/// [`pow_lanes_public_vartime`]).
///
/// # Safety
/// As for [`pow_core`].
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn pow_public_core(out: &mut [u64], staged: &Staged, exp: &[u8], forms: LaneForms) {
    let (square, product) = (forms.square, forms.product);
    let l = staged.l;
    let LaneSetup {
        c,
        mut s,
        one,
        rr,
        base,
    } = lane_setup(staged);
    let mut x = Zeroizing::new(LaneNum::ZERO);
    let mut acc = Zeroizing::new(LaneNum::ZERO);
    let mut tmp = Zeroizing::new(LaneNum::ZERO);
    // Public exponent: its bits may steer the loop.
    let bits = crate::exp::exp_bit_len_vartime(exp);
    // SAFETY: (every kernel call) the caller's features and digit count.
    unsafe {
        lane_mul(l, product, &mut x, &c, &mut s, &base, &rr);
        if bits == 0 {
            lane_mul(l, product, &mut acc, &c, &mut s, &rr, &one);
        } else {
            *acc = *x;
            let mut run = 0;
            for i in (0..bits - 1).rev() {
                run += 1;
                if crate::exp::exp_bits(exp, i, 1) == 1 {
                    lane_sqr(l, square, &mut acc, &c, &mut s, run);
                    run = 0;
                    lane_mul(l, product, &mut tmp, &c, &mut s, &acc, &x);
                    *acc = *tmp;
                }
            }
            if run > 0 {
                lane_sqr(l, square, &mut acc, &c, &mut s, run);
            }
        }
        lane_mul(l, product, &mut tmp, &c, &mut s, &acc, &one);
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

    /// [`LANES`] random odd moduli of `bits` bits, and their lane-form digits.
    fn lane_moduli(bits: usize, st: &mut u64) -> (Vec<Modulus<u64>>, Vec<Modulus52>) {
        let l = digits_for(bits).unwrap();
        let moduli: Vec<Modulus<u64>> = (0..LANES).map(|_| odd_modulus(bits, st)).collect();
        let m52 = moduli
            .iter()
            .map(|m| Modulus52::new(m, l).unwrap())
            .collect();
        (moduli, m52)
    }

    /// A random number below each modulus, in its limb count.
    fn reduced_bases(moduli: &[Modulus<u64>], st: &mut u64) -> Vec<Vec<u64>> {
        let s = moduli[0].limbs();
        moduli
            .iter()
            .map(|m| {
                let b: Vec<u64> = (0..s).map(|_| lcg(st)).collect();
                crate::nat::rem(&b, m.n())
            })
            .collect()
    }

    /// One job per output buffer, from the bases, exponents and moduli of the same index.
    fn lane_jobs<'a>(
        outs: &'a mut [Vec<u64>],
        bases: &'a [Vec<u64>],
        exps: &'a [Vec<u8>],
        m52: &'a [Modulus52],
    ) -> Vec<PowJob<'a>> {
        outs.iter_mut()
            .enumerate()
            .map(|(i, o)| PowJob {
                out: o,
                base: &bases[i],
                exp: &exps[i],
                modulus: &m52[i],
            })
            .collect()
    }

    /// The lanes' results for `bases[i]^exps[i] mod moduli[i]` (one job per base) with
    /// `window`, each checked against the portable fixed window.
    fn lanes_against_portable(
        token: Token,
        moduli: &[Modulus<u64>],
        m52: &[Modulus52],
        bases: &[Vec<u64>],
        exps: &[Vec<u8>],
        window: u32,
    ) {
        let s = moduli[0].limbs();
        let k = portable_kernel();
        let mut every = Vec::new();
        for select in [LaneSelect::Scan, LaneSelect::Stitched] {
            for square in [
                LaneSquare::Standard,
                LaneSquare::Schoolbook,
                LaneSquare::Tiled,
            ] {
                for product in [
                    LaneProduct::Registers,
                    LaneProduct::MemoryOperands,
                    LaneProduct::Tiled,
                ] {
                    every.push(LaneForms {
                        select,
                        square,
                        product,
                    });
                }
            }
        }
        for forms in every {
            let mut outs = vec![vec![0u64; s]; bases.len()];
            {
                let mut jobs = lane_jobs(&mut outs, bases, exps, m52);
                pow_lanes_in(token, &mut jobs, window, forms);
            }
            for (i, out) in outs.iter().enumerate() {
                let mut want = vec![0u64; s];
                fixed::pow(&mut want, &bases[i], &exps[i], &moduli[i], &k, 4);
                let (bits, elen) = (moduli[i].n().len() * 64, exps[i].len());
                assert_eq!(
                    *out, want,
                    "about {bits} bits, window {window}, {forms:?}, lane {i}, exponent of {elen} bytes"
                );
            }
        }
    }

    /// The kernels run one at a time give what their definitions say (num-bigint), at digit
    /// counts with and without the Karatsuba squaring, with the schoolbook squaring and with
    /// the memory-operand products, for 0 to 3 calls.
    #[test]
    fn lane_kernels_one_at_a_time_compute_what_they_say() {
        use num_bigint::BigUint;
        let Some(token) = Token::get() else {
            return;
        };
        let big = |x: &[u64]| {
            BigUint::from_slice(
                &x.iter()
                    .flat_map(|&w| [w as u32, (w >> 32) as u32])
                    .collect::<Vec<_>>(),
            )
        };
        let mut st = 0xbe4c_u64;
        for bits in [520usize, 768, 1024, 2048] {
            let l = digits_for(bits).unwrap();
            let (moduli, m52) = lane_moduli(bits, &mut st);
            let s = moduli[0].limbs();
            let bases = reduced_bases(&moduli, &mut st);
            let no_exps = vec![Vec::new(); LANES];
            let kernels = [
                LaneKernel::Squaring,
                LaneKernel::Product,
                LaneKernel::SelectingProduct { entries: 16 },
                LaneKernel::SelectingProduct { entries: 3 },
                LaneKernel::SelectingSquarings { window: 4 },
                LaneKernel::SelectingSquarings { window: 5 },
                LaneKernel::SchoolbookSquaring,
                LaneKernel::SelectingSchoolbookSquarings { window: 4 },
                LaneKernel::SelectingSchoolbookSquarings { window: 5 },
                LaneKernel::TiledSquaring,
                LaneKernel::SelectingTiledSquarings { window: 4 },
                LaneKernel::SelectingTiledSquarings { window: 5 },
                LaneKernel::MemoryOperandProduct,
                LaneKernel::SelectingMemoryOperandProduct { entries: 32 },
                LaneKernel::SelectingMemoryOperandProduct { entries: 3 },
                LaneKernel::TiledProduct,
                LaneKernel::SelectingTiledProduct { entries: 32 },
                LaneKernel::SelectingTiledProduct { entries: 3 },
            ];
            for kernel in kernels {
                let calls_list: Vec<u32> = match kernel {
                    LaneKernel::SelectingSquarings { window }
                    | LaneKernel::SelectingSchoolbookSquarings { window }
                    | LaneKernel::SelectingTiledSquarings { window } => {
                        vec![0, window, 2 * window]
                    }
                    _ => (0..4).collect(),
                };
                for calls in calls_list {
                    let mut outs = vec![vec![0u64; s]; LANES];
                    let mut jobs = lane_jobs(&mut outs, &bases, &no_exps, &m52);
                    run_lane_kernel(token, &mut jobs, kernel, calls as usize);
                    drop(jobs);
                    for (i, out) in outs.iter().enumerate() {
                        let n = big(moduli[i].n());
                        let r = (BigUint::from(1u8) << (52 * l)) % &n;
                        let r_inv = r.modinv(&n).unwrap();
                        let b = big(&bases[i]);
                        let want = match kernel {
                            LaneKernel::Squaring
                            | LaneKernel::SelectingSquarings { .. }
                            | LaneKernel::SchoolbookSquaring
                            | LaneKernel::SelectingSchoolbookSquarings { .. }
                            | LaneKernel::TiledSquaring
                            | LaneKernel::SelectingTiledSquarings { .. } => {
                                (&b * &r_inv % &n).modpow(&(BigUint::from(1u8) << calls), &n)
                            }
                            LaneKernel::Product
                            | LaneKernel::MemoryOperandProduct
                            | LaneKernel::TiledProduct
                                if calls == 0 =>
                            {
                                &b * &r_inv % &n
                            }
                            LaneKernel::Product
                            | LaneKernel::MemoryOperandProduct
                            | LaneKernel::TiledProduct => {
                                &b * r.modpow(&BigUint::from(calls - 1), &n) % &n
                            }
                            LaneKernel::SelectingProduct { .. }
                            | LaneKernel::SelectingMemoryOperandProduct { .. }
                            | LaneKernel::SelectingTiledProduct { .. } => {
                                (&b * &r_inv % &n).modpow(&BigUint::from(calls + 1), &n)
                            }
                        };
                        assert_eq!(
                            big(out),
                            want,
                            "{bits} bits, {kernel:?}, {calls} calls, lane {i}"
                        );
                    }
                }
            }
        }
    }

    /// A selecting product over no entries, or over more than the kernel's masks hold, is
    /// refused before any kernel runs.
    #[test]
    fn lane_kernels_refuse_tables_out_of_range() {
        let Some(token) = Token::get() else {
            return;
        };
        let mut st = 5;
        let (moduli, m52) = lane_moduli(1024, &mut st);
        let s = moduli[0].limbs();
        for entries in [0, lanes_asm::SELECT_ENTRIES + 1] {
            let run = std::panic::catch_unwind(|| {
                let mut out = vec![0u64; s];
                let base = vec![1u64; s];
                let mut jobs = [PowJob {
                    out: &mut out,
                    base: &base,
                    exp: &[],
                    modulus: &m52[0],
                }];
                run_lane_kernel(
                    token,
                    &mut jobs,
                    LaneKernel::SelectingProduct { entries },
                    1,
                );
            });
            assert!(run.is_err(), "{entries} entries accepted");
        }
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

    /// The squaring kernel of every compiled digit count (the Karatsuba form from 14 digits,
    /// see `build.rs`, and the schoolbook form where compiled) on inputs at its edges, one per
    /// lane: 0, 1, `2n − 1`, halves equal, halves one apart either way, and the halves'
    /// difference at its largest either way (the sign ripple and the complement). After `count` squarings `y` must be below `2n`
    /// with `y·R^(2^count − 1) ≡ x^(2^count) (mod n)`, `R = 2^(52·L)`.
    #[test]
    fn squaring_edge_inputs() {
        use num_bigint::BigUint;
        let Some(_token) = Token::get() else {
            return;
        };
        let mut st = 0x5e1f_0dd5;
        let big = |digits: &[u64]| {
            digits.iter().rev().fold(BigUint::default(), |acc, &d| {
                (acc << 52u32) + BigUint::from(d)
            })
        };
        for &l in COMPILED_DIGITS.iter() {
            // The largest modulus of L digits: 52·L − 2 bits, so every x below 2^(52·L − 3)
            // is below n.
            let bits = 52 * l - 2;
            let m = odd_modulus(bits, &mut st);
            let m52 = Modulus52::new(&m, l).unwrap();
            let n = big(&m52.n);
            let (h, top) = (l / 2, (1u64 << 49) - 1);
            let random = |st: &mut u64, len: usize| -> Vec<u64> {
                (0..len).map(|_| lcg(st) & MASK52).collect()
            };
            let mut inputs: Vec<Vec<u64>> = Vec::new();
            inputs.push(vec![0; l]);
            let mut one = vec![0; l];
            one[0] = 1;
            inputs.push(one);
            let mut max = vec![0; l];
            let two_n_less_1 = (&n << 1u32) - 1u32;
            for (d, v) in max.iter_mut().enumerate() {
                *v = ((&two_n_less_1 >> (52 * d)) & BigUint::from(MASK52))
                    .iter_u64_digits()
                    .next()
                    .unwrap_or(0);
            }
            inputs.push(max);
            // Halves equal (the hi half's top digit below 2^49 keeps x below n, and the lo
            // half's matching digit equals it).
            let mut half = random(&mut st, l - h);
            half[l - h - 1] &= top;
            half[0] &= !1;
            let mut eq = vec![0; l];
            eq[..h].copy_from_slice(&half[..h]);
            eq[h..].copy_from_slice(&half);
            inputs.push(eq.clone());
            let (mut lo_more, mut hi_more) = (eq.clone(), eq);
            lo_more[0] += 1;
            hi_more[h] += 1;
            inputs.push(lo_more);
            inputs.push(hi_more);
            let mut lo_max = vec![0; l];
            lo_max[..h].fill(MASK52);
            inputs.push(lo_max);
            let mut hi_max = vec![0; l];
            hi_max[h..].fill(MASK52);
            hi_max[l - 1] = top;
            inputs.push(hi_max);
            assert_eq!(inputs.len(), LANES);

            let mut c = LaneConsts {
                n: [0; LANES * MAX_DIGITS],
                k0: [m52.k0; LANES],
                m52: MASK52,
                one: 1,
            };
            let mut x = LaneNum::ZERO;
            for (k, input) in inputs.iter().enumerate() {
                for d in 0..l {
                    c.n[d * LANES + k] = m52.n[d];
                    x[d * LANES + k] = input[d];
                }
            }
            let r = BigUint::from(1u32) << (52 * l);
            let squares = [(1usize, LaneSquare::Standard), (2, LaneSquare::Standard)]
                .into_iter()
                .chain([(1, LaneSquare::Schoolbook), (2, LaneSquare::Schoolbook)])
                .chain([(1, LaneSquare::Tiled), (2, LaneSquare::Tiled)]);
            for (count, square) in squares {
                let mut y = x;
                let mut s = LaneScratch([0; lanes_asm::SCRATCH_BYTES / 8]);
                // SAFETY: IFMA is present (the token); l is compiled; the buffers are sized.
                unsafe { lane_sqr(l, square, &mut y, &c, &mut s, count) };
                let power = 1u32 << count;
                for (k, input) in inputs.iter().enumerate() {
                    let got: Vec<u64> = (0..l).map(|d| y[d * LANES + k]).collect();
                    assert!(
                        got.iter().all(|&d| d <= MASK52),
                        "L = {l}, lane {k}, {square:?}"
                    );
                    let (gy, gx) = (big(&got), big(input));
                    assert!(
                        gy < &n << 1u32,
                        "L = {l}, lane {k}, {count} squarings, {square:?}"
                    );
                    assert_eq!(
                        (gy * r.modpow(&BigUint::from(power - 1), &n)) % &n,
                        gx.modpow(&BigUint::from(power), &n),
                        "L = {l}, lane {k}, {count} squarings, {square:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_window_matches_the_portable_fixed_window() {
        // Windows up to 6 bits run the product that selects its multiplier row by row; 7 and
        // 8 bits the separate scan and the plain product. With the stitched selection, 4 and
        // 5 bits run the selecting squarings (groups of 4 and 7 entries), the others scan.
        // Digit counts 10, 15, 20, 27, 30 and 40: with and without the Karatsuba squaring.
        let Some(token) = Token::get() else {
            return;
        };
        let mut st = 0x0bad_5eed;
        for bits in [512, 760, 1024, 1400, 1536, 2048] {
            let (moduli, m52) = lane_moduli(bits, &mut st);
            let bases = reduced_bases(&moduli, &mut st);
            let exps: Vec<Vec<u8>> = (0..LANES)
                .map(|_| (0..bits / 8).map(|_| lcg(&mut st) as u8).collect())
                .collect();
            let windows = if bits <= 1024 { 1..=8u32 } else { 3..=6 };
            for window in windows {
                lanes_against_portable(token, &moduli, &m52, &bases, &exps, window);
            }
        }
    }

    #[test]
    fn lanes_match_the_portable_fixed_window() {
        let Some(token) = Token::get() else {
            return;
        };
        let mut st = 0x1234_5678;
        for bits in [64, 100, 511, 512, 683, 1024, 1030, 1536, 2048, 2078] {
            let l = digits_for(bits).unwrap();
            let (moduli, m52) = lane_moduli(bits, &mut st);
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
                    let window = window_for(elen * 8, l).max(1);
                    lanes_against_portable(token, &moduli, &m52, &bases, &exps, window);
                }
            }
        }
    }
}

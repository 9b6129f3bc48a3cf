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
//! size. Below 14 digits (and at odd counts) row `i` multiplies `aᵢ` by `a`'s digits from `i`
//! up, those above `i` doubled (`2a` in 52-bit digits), about `3L²` multiply-adds instead of
//! `4L²`. From 14 digits (even counts) the square is formed first, by one level of Karatsuba:
//! with `h = L/2`, `a = a_lo + a_hi·2^(52h)` and `d = |a_lo − a_hi|` (a borrow ripple and a
//! masked complement, per lane),
//!
//! ```text
//! a² = S₀ + (S₀ + S₁ − S₂)·2^(52h) + S₁·2^(104h),   S₀ = a_lo², S₁ = a_hi², S₂ = d²
//! ```
//!
//! each half square by rows of cross products doubled by an addition, plus the diagonal; then
//! the rows only reduce, taking the square's columns (signed: the middle term subtracts) as
//! the frame reaches them. That is `3h(h+1)` multiply-adds for the square instead of `L(L+1)`
//! (5–8 % fewer for the whole squaring, its reduction included), and no doubled copies of `a`
//! to store. The 64-bit columns absorb the
//! unnormalised sums (below 2^61 in magnitude for `L ≤ 40`; carries are taken with arithmetic
//! shifts); a serial carry pass at the end of each product brings the digits back below 2^52,
//! which the next product needs (the instructions read only the low 52 bits of their inputs).
//! Inputs and outputs are `< 2n`; [`pow_lanes`] leaves the domain with a product by 1, which
//! returns a value `≤ n`, and finishes with one masked subtraction in the 64-bit form.
//!
//! The kernels are assembly written by `build.rs` for every compiled digit count
//! ([`COMPILED_DIGITS`]): rows unrolled, the frame's positions in registers as far as 22 (25 in
//! the Karatsuba squaring's rows, which need no registers for `a` or a multiplier) and in
//! scratch slots beyond (40 digits need 42), each row's quotient chain first in program order.
//! Against the intrinsics version they replace (whose squaring was dedicated up to 20 digits
//! only, and whose accumulator LLVM spilled above that), measured on an AMD EPYC Zen 4 (family
//! 25 model 17), cycles per product of eight numbers: 20 digits 1,797 → 1,729, 30 digits 4,734
//! → 3,871, 40 digits 7,852 → 6,756 (`cargo bench -p redc --bench ifma_bound`), about 75 % of
//! the multiplier's bound; at 10 and 14 digits about 1–2 % slower. The Karatsuba squaring
//! took whole exponentiations of eight 2.5–8 % less time from 14 to 40 digits on the same CPU
//! and was level at 10, where it is not used (docs/performance.md).
//!
//! Constant time: every loop bound is a function of `L`, the window and the exponent's public
//! length; table entries are all read, under per-lane masks (`VPCMPEQQ` of the lane's window
//! digit against each entry's index). For windows up to 6 bits the product of each window
//! reads them itself, row by row: its multiplier digit `k` is the OR of every entry's digit
//! `k` ANDed with that entry's lane mask (`VPTERNLOGQ`, the masks set in the scratch before
//! the call); above, a separate scan selects the multiplier first. Where the CPU's table
//! says so ([`LaneSelect::Stitched`]), a window of 4 or 5 bits takes the multiplier from its
//! squarings instead: each squaring's row `i` loads digit `i` of one group of entries (a
//! fixed share of the table per squaring) and stores it into the multiplier under the
//! entry's lane mask (`k1`–`k7`, from bytes set before the call); each lane's digit is
//! written by exactly one entry and every entry's digit is read, so the loads, the stores and
//! their addresses are the same whatever the window digits are. No branch or address
//! depends on a digit, an exponent or a modulus; the generated kernels branch only on their
//! loops over a window's squarings and over the table's entries, whose counts are public.
//!
//! The functions are only sound on CPUs with the three extensions: they are reachable only
//! through a [`Token`], which only [`Token::get`] makes after the CPU said so.
//!
//! The module's files, one concern each: `detect` (the [`Token`]), `radix` ([`Modulus52`] and
//! the conversions to and from 52-bit digits), `jobs` ([`PowJob`], the window model and the
//! staging the two-number forms share), and `lanes` (the lane kernels and [`pow_lanes`]).

mod detect;
mod jobs;
mod lanes;
mod radix;

pub use detect::Token;
pub(in crate::mont::backend) use jobs::{
    check_shapes, exp_digit_rows, finish_job, slot_job, LineAligned,
};
pub use jobs::{lane_window_for, window_for, PowJob};
pub use lanes::{
    digits_for, lane_forms_for, lane_multiply_adds, lane_product_for,
    lane_schoolbook_multiply_adds, lane_select_for, lane_square_for, lane_tiled_multiply_adds, pow,
    pow_lanes, pow_lanes_in, pow_lanes_public_vartime, run_lane_kernel, LaneForms, LaneKernel,
    LaneProduct, LaneSelect, LaneSquare, COMPILED_DIGITS, MEM_PRODUCT_DIGITS, SCHOOLBOOK_DIGITS,
    STITCH_GROUP_SIZES, TILED_DIGITS,
};
pub use radix::{digits_for_bits, Modulus52};
pub(in crate::mont::backend) use radix::{from_radix52, to_radix52};

/// Exponentiations one call runs side by side (the 64-bit lanes of a 512-bit register).
pub const LANES: usize = 8;

/// The largest digit count supported: `40·52 = 2080` bits, enough for the 2048-bit primes of
/// 4096-bit two-prime keys.
pub const MAX_DIGITS: usize = 40;

/// The largest digit count of the wide public exponentiation
/// ([`crate::mont::backend::ifma_pair::pow_wide_public_vartime`]): `80·52 = 4160` bits, enough
/// for 4096-bit moduli (verification and the fault check of 4096-bit keys).
pub const MAX_WIDE_DIGITS: usize = 80;

pub(in crate::mont::backend) const MASK52: u64 = (1 << 52) - 1;

//! The CPU kinds redc tells apart, and the kernel forms each one runs: the dispatch table.
//!
//! The backends ([`super::Backend`]) are chosen by the features a CPU has. Within a backend,
//! some sizes have more than one form, equally correct (bit-identical results, all constant
//! time) but fastest on different microarchitectures. [`CpuKind::detect`] reads the vendor,
//! family and model once (CPUID), and [`Forms::of`] maps the kind to the forms, by the table
//! below. Every entry says whether it was measured on that kind or is reasoned from a
//! measured neighbour; a kind redc does not know gets the vendor's default, and an unknown
//! vendor the forms with the widest record.
//!
//! | kind | IFMA, 2-prime single op (the same form on every kind) | MULX, 16 limbs (RSA-2048's primes) |
//! |---|---|---|
//! | AMD Zen 3 (family 25, models 0–15, 32–47, 64–95) | no IFMA | register window — measured |
//! | AMD Zen 4 (family 25, models 16–31, 96–127, 160–175) | duo — measured | register window — measured |
//! | AMD Zen 5 (family 26) | duo — reasoned | register window — reasoned (AMD) |
//! | other AMD | duo — reasoned | register window — reasoned (AMD) |
//! | Intel Ice Lake / Tiger Lake / Rocket Lake (family 6, models 106, 108, 125, 126, 140, 141, 167, without AMX) | duo — reasoned | rows — reasoned (Intel) |
//! | Intel Sapphire / Emerald / Granite Rapids (family 6, models 143, 207, 173, 174, or any family-6 model with AMX) | duo — measured | rows — measured |
//! | other Intel | duo — reasoned | rows — reasoned (Intel) |
//! | unknown vendor | duo | rows |
//!
//! The figures behind "measured" (each on the named CPU, alternating runs on one pinned core,
//! medians; the history is in `docs/performance.md`):
//! - IFMA, AMD EPYC Zen 4 (family 25 model 17): the duo form ([`super::ifma_duo`], both CRT
//!   halves in every register, two quotient digits per step) took 581 / 1,216 / 1,794 cycles
//!   per product of both halves at 20 / 32 / 40 digits against the pair form's
//!   ([`super::ifma_pair`]) 783 / 1,371 / 2,126, and RSA-2048 signing went from 0.92× to
//!   1.06× OpenSSL 4.0.3.
//! - IFMA, an Intel Xeon of the Sapphire Rapids class (family 6 with AMX and AVX512-FP16,
//!   shown by its hypervisor as model 167): the duo form took 588 / 1,126 / 1,653 cycles per
//!   product at 20 / 30 / 40 digits against the pair form's 811 / 1,161 / 1,772, and blinded
//!   PKCS#1 v1.5 signatures took 0.74 / 0.89 / 0.91 of the pair form's time at 2048 / 3072 /
//!   4096 bits (`examples/kind_forms.rs`, 15 alternating rounds). The pair form had been
//!   chosen for Intel when the duo form did not exist yet. With every kind on the duo form,
//!   the choice is no longer a field of [`Forms`]: the pair form runs only for a digit count
//!   the duo kernels lack (none of the compiled counts), the wide form of verification builds
//!   on its product, and `ifma_bound` times it beside the duo.
//! - MULX, 16 limbs: on the Intel Xeon (family 6 model 207) the reduction rows and rows
//!   triangle signed 2,180/s against 2,020/s with the register-window reduction and
//!   `tri_regs16` (2048-bit keys); on Zen 3 the window form was 5–7 % faster, and on Zen 4
//!   (family 25 model 17) about 3 % (1,960 against 1,902 sign/s). On the Sapphire Rapids
//!   class Xeon (model 167 with AMX) the rows form signed in 440 µs against 458 µs.
//!
//! Hypervisors may show an Intel core under another model number: the Xeon above reports
//! model 167, Rocket Lake's, yet has AMX and AVX512-FP16, which no client core of that
//! generation has. So a family-6 Intel CPU with AMX (CPUID leaf 7, EDX bit 24) counts as the
//! Sapphire Rapids class whatever its model ([`CpuKind::classify_with_amx`]).
//!
//! The public exponentiation (verification and the fault check, [`super::PublicPow`]) runs one
//! number across the lanes ([`super::ifma_pair::pow_wide_public_vartime`]) on every IFMA kind,
//! from 1024-bit moduli up: measured on the AMD EPYC Zen 4 (family 25 model 17, 1.1–2.4× the
//! previous forms, figures at `PUBLIC_WIDE_MIN_DIGITS` in `mont/backend/mod.rs`) and on the
//! Sapphire Rapids class Xeon (model 167), where `redc speed` verified RSA-1024 signatures
//! 331,000 times a second on it against 306,000 on the 16-limb MULX kernels
//! (`REDC_BACKEND=mulx`) and OpenSSL 4.0.3's 220,000 (2026-11-28, f083f55 and eca3212;
//! docs/performance.md, session seventeen).
//!
//! The lane form's window (the exponentiations of batches and of multi-prime keys) follows
//! one of two rules ([`LaneWindow`], [`super::ifma::lane_window_for`]):
//!
//! | kind | lane window |
//! |---|---|
//! | AMD Zen 4 | the cost model with the table's reads weighted as measured there — measured |
//! | Intel Sapphire Rapids class | the cost model with the table's reads at one cycle per entry and digit (4 bits from 10 to 30 digits, 5 above) — measured |
//! | AMD Zen 5, Intel Ice Lake class | as the Sapphire Rapids class — reasoned |
//! | other kinds | the cost model's, one bit smaller where its table would not fit the L1D and the smaller one's would — reasoned |
//!
//! The lane product reads its multiplier from the table row by row (every digit of every
//! entry, under lane masks), so a window's table reads fall among that product's
//! multiply-adds instead of in a scan before it. On the Zen 4 (family 25 model 17) that took
//! the lanes from 1,586 to 1,505 cycles per product at 20 digits and from 3,530 to 3,330 at
//! 30 (ifma_bound, production windows, medians of three); the table's reads still cost about
//! 2 cycles per entry and digit, four times the model's ½, which makes 3 bits the fastest
//! window at 10 digits and 4 bits from 20 to 40 digits (at 40: 15.2 against 16.2 million
//! cycles per call with 5 bits). Batches of eight signed 3–5 % faster at 1024–4096 bits.
//! On the Sapphire Rapids class Xeon (model 167 with AMX) batches of eight 2048-bit
//! signatures took 0.93 to 0.96 of the time with 4 bits that they took with the L1D rule's 5
//! (a 40 KiB table in its 48 KiB L1D), and at 1024 and 1536 bits (10 and 15 digits) 4 bits
//! beat the Zen 4 rule's 3 by 1.7–2.5 %; at 3072 and 4096 bits 4 and 5 bits were level. The
//! model with the table's reads at one cycle per entry and digit gives exactly those windows
//! ([`LaneWindow::ScanWeightedOne`]). It is a fit to those measurements, not the reads' cost:
//! `ifma_bound` puts them at 1.7 to 2.1 cycles per entry and digit there, as on the Zen 4, and
//! the model at that cost picks the 3 bits that measured slower. Zen 5 and the Ice Lake class,
//! with 48 KiB L1Ds and full-width multiply-adds, take the same rule by reasoning from this
//! core. The remaining kinds keep
//! the rule they had before: the model's window fitted to the L1D, 32 KiB on
//! Zen 3 and Zen 4, 48 KiB on Zen 5 and Intel's IFMA cores (from their published cache
//! sizes), 32 KiB for others ([`Forms::l1d_bytes`]); on the Zen 4, before the change, that
//! rule had made 4 bits beat 5 at 20 digits (569 against 599 µs per call of eight 1024-bit
//! exponents). The duo and pair tables (two numbers) fit at every size, and their model
//! windows were the fastest measured.
//!
//! The lane form's window products take their multiplier one of two ways
//! ([`Forms::lane_stitched_up_to`], [`super::ifma::LaneSelect`]):
//!
//! | kind | multiplier of a window's product |
//! |---|---|
//! | Intel Sapphire Rapids class | stored by the window's squarings (up to 40 digits: every count) — measured |
//! | AMD Zen 4 | read by the product — measured |
//! | every other kind | read by the product — the form they had, not measured against the other |
//!
//! On the Sapphire Rapids class Xeon (model 167 with AMX), `ifma_bound` at 20 digits: a
//! squaring 261 ns, one that also stores four entries' digits 292, the product 306 and the
//! product that reads 16 entries itself 461, so a 4-bit window took 1,474 ns against 1,507;
//! at 30 digits, with 5 bits, 4,070 against 4,378; at 40 digits the storing squaring took
//! 1,676 ns against 1,107 with the rows' squarings (the tiled ones below store it for 60–80 ns more
//! per squaring, and that kind now stores it at 40 digits too). Batches of eight signed 3.9 / 5.4 / 2.9 % faster
//! at 1024 / 2048 / 3072 bits, three-prime keys 6.6 / 5.9 % at 2048 / 3072 bits (seven
//! alternating rounds on one core, medians; docs/performance.md). On the Zen 4 (family 25
//! model 17) the same stores, written into a stitched squaring in session seven, made whole
//! exponentiations 1.8–4.5 % slower. With the selection out of the product its cost falls,
//! and so does the window's best size: the model with the table's reads at 0.9 cycle per
//! entry and digit gives the windows measured fastest with it (4 bits to 27 digits, 5 at 30).
//!
//! The lane squaring forms its square one of two ways before its rows reduce it, or reduces
//! it by tiles from 27 digits ([`Forms::lane_schoolbook_up_to`], [`Forms::lane_tiled_from`],
//! [`super::ifma::LaneSquare`]):
//!
//! | kind | lane squaring |
//! |---|---|
//! | Intel Sapphire Rapids class | schoolbook rows at 14, 15 and 20 digits, tiled from 27, the standard form elsewhere — measured |
//! | AMD Zen 4 | the standard form: Karatsuba from 14 digits (even counts), doubled digits below and at odd counts — measured; tiled from 27 — reasoned |
//! | every other kind | the standard form — the form they had, not measured against the other; tiled from 27 — reasoned |
//!
//! The tiled form (squarings and products, [`super::ifma::LaneProduct::Tiled`]): from 27
//! digits the rows' frame of `L + 2` positions no longer fits the registers and spills
//! (a load and a store per spilled position and row), and each row loads every digit for two
//! multiply-adds. The tiled reduction keeps a window of twice a tile's columns in registers
//! and multiplies a tile's 8–10 quotients (or digits of `a`) by each loaded digit. On the
//! Sapphire Rapids class Xeon (model 167 with AMX), `ifma_bound`: squarings 14–20 % faster
//! at 30 to 40 digits (765 against 948 ns at 40, 91–93 % of the multiply-add bound),
//! products 18 % at 30 and 45 % at 40 (969 against 1,698 ns; 1,423 with memory operands);
//! level at 20 digits, where the frame fits, and slower at 10. Batches of eight 3072- and
//! 4096-bit signatures signed 30 and 37 % faster, three-prime 4096-bit keys (27 digits) 15 %
//! (docs/performance.md, session fourteen). With these squarings the stored selection also
//! won at 40 digits (batches 5.7 % faster than with the scan), so that kind stores it at
//! every count. The other kinds take the tiled form by reasoning: it removes memory traffic
//! and adds no vector arithmetic.
//!
//! The standard form's Karatsuba squaring was measured on the Zen 4 (family 25 model 17),
//! where whole exponentiations of eight took 2.5–8 % less time from 14 to 40 digits than
//! with the doubled digits: it issues 5–8 % fewer multiply-adds for about 340 other vector
//! operations at 20 digits (the halves' difference, its sign, the columns' sums), which run
//! beside the multiply-adds there. On the Sapphire Rapids class Xeon (model 167 with AMX) the
//! other vector operations take the multiply-adds' ports, and the schoolbook square (the
//! products off the diagonal once, each column doubled and its diagonal term added: 90 more
//! multiply-adds, about 160 fewer other operations, 135 fewer loads at 20 digits) squared 5 %
//! faster at 20 digits; batches of eight 2048-bit signatures were 8–14 % faster, three-prime
//! 2048- and 3072-bit keys 7.7 % (14 and 20 digits), four-prime 4096-bit keys 10 %, 2304-bit
//! three-prime keys (15 digits) 4 %; at 10 digits it was level to 5 % slower and at 27
//! slower, so it is compiled at 14, 15 and 20 only (docs/performance.md, session twelve).
//! Zen 5 and the Ice Lake class keep the standard form, unmeasured. Since session twelve the
//! standard form's half squares keep their top digits in registers instead of loading them
//! for every row, on every kind (2.5–5 % faster batches at 3072 and 4096 bits on the
//! Sapphire Rapids class; only loads changed, so reasoned for the others).
//!
//! Below the tiled form's counts, the lane products read their rows' digits one of two ways
//! ([`Forms::lane_mem_products`], [`super::ifma::LaneProduct`]):
//!
//! | kind | lane product's digits |
//! |---|---|
//! | Intel Sapphire Rapids class | memory operands of the multiply-adds at 40 digits (where the tiled form now runs instead), loaded into registers elsewhere — measured |
//! | every other kind | loaded into registers — the form they had, not measured against the other |
//!
//! On the Sapphire Rapids class Xeon (model 167 with AMX) the lane product ran at 97–100 %
//! of the multiply-add bound at 32 and 36 digits and at 62–65 % at 38 and 40 (`ifma_bound`
//! with a throw-away 38-digit build): 1,465 ns at 38 digits against the 954 its
//! multiply-adds scale to from 36. Taking the spilled frame's loads or stores out of the
//! 40-digit rows (wrong results, timing only) gave back 4–12 %; reading the multiplicand's
//! and modulus's digits as the multiply-adds' memory operands instead of loading each into a
//! register gave back 22 % (1,274 against 1,636 ns; the selecting product 1,979 against
//! 2,203), with twice the loads: what the rows ran out of was the vector registers the
//! loads hold until they retire, not load or store slots. Batches of eight 4096-bit
//! signatures took 5 % less time (docs/performance.md, session twelve). Compiled at 40
//! digits only.
//!
//! The duo form's register width ([`Forms::duo_256_up_to`],
//! [`super::ifma_duo::duo_width_for`]):
//!
//! | kind | duo kernels in 256-bit registers |
//! |---|---|
//! | AMD Zen 4 | every count up to 16 digits (RSA-1024's primes at 10 digits instead of 12) — measured |
//! | Intel Sapphire Rapids class | up to 16 digits, only counts the 512-bit kernels lack (10 and 14; 12 and 16 in 512-bit registers) — measured |
//! | every other kind | as the Sapphire Rapids class — reasoned |
//!
//! On the Zen 4 (family 25 model 17), cycles per product of both halves (`ifma_bound`): 240 in
//! 256-bit registers at 10 digits against 319 in 512-bit ones at 12, 286 against 315 at 12,
//! 402 against 427 at 16, 624 against 591 at 20; RSA-1024 signing went from 15,596 to 20,004
//! per second (five alternating rounds on one core). The Zen 4 runs a 512-bit multiply-add as
//! two 256-bit halves, so the width changes the digits' padding and the shift, not the
//! multiplier's rate. On the Sapphire Rapids class Xeon (model 167 with AMX; blinded
//! signatures, 20 alternating rounds, `examples/kind_forms.rs`) the narrow kernels won only
//! where they need fewer digits: 1024-bit keys 51.2 µs at 10 digits against 55.6 at 12 and
//! 1280-bit keys 83.3 against 89.5 (14 against 16), but at equal counts the 512-bit kernels
//! won, 69.1 against 72.7 µs at 12 digits (1200-bit keys) and 104.7 against 112.7 at 16
//! (1536-bit keys). A multiply-add of any width takes a whole slot of its port there (a
//! 128-bit one as long as a 512-bit one beside other multiply-adds), so the narrow registers
//! only pay where they shorten the number. Zen 5 and the other kinds take that rule: it
//! never runs more digits than the 512-bit kernels would.
//!
//! The duo form's squaring ([`Forms::duo_sqr_by_product_up_to`],
//! [`super::ifma_duo::duo_squaring_for`]):
//!
//! | kind | duo squarings by the product kernel |
//! |---|---|
//! | AMD Zen 4 | up to 12 digits (RSA-1024's primes) — measured |
//! | Intel Sapphire Rapids class | up to 20 digits (RSA-2048's primes) — measured |
//! | Intel Ice Lake class | up to 20 digits — reasoned from the Sapphire Rapids class |
//! | every other kind | up to 12 digits — reasoned from the two measured kinds |
//!
//! On the Zen 4 (family 25 model 17), whole duo exponentiations of two numbers (40 alternating
//! rounds in one process, fastest and median µs, squaring kernel against product kernel): 10
//! digits in 256-bit registers 42.3 / 43.2 against 40.3 / 41.1, 12 digits 57.1 / 59.6 against
//! 54.4 / 57.4 (512-bit registers at 12: 57.1 against 52.4); level at 14 and 16 digits; from
//! 20 digits the squaring kernel is faster (1 % at 20, 2–7 % at 30 and 40). The squaring
//! kernel issues a fifth fewer multiply-adds but stores doubled copies of its number and
//! blends them into every step, which small counts do not earn back. On the Sapphire Rapids
//! class Xeon (model 167 with AMX) 1024-bit signatures took 49.8 against 51.2 µs and 51.9
//! against 53.3 (two runs of 20 and 30 rounds, 256-bit registers at 10 digits) with the
//! product kernel, and at 12 digits the two were level (68.6 against 69.1 µs). At 20 digits,
//! where the Zen 4 squares faster with the squaring kernel, the product kernel was faster on
//! that Xeon: RSA-2048 signatures 180.2 against 188.2 µs and 186.0 against 193.0 (two runs
//! of 20 and 30 rounds); at 28 and 30 digits the two were level (2560- and 3072-bit keys,
//! 0.99 and 1.01) and at 40 the squaring kernel was 2 % faster. Every 512-bit blend and
//! addition of the squaring kernel takes a multiply-add's slot there, which the Zen 4 gives
//! them for free.
//!
//! The kind is public information about the machine, never about a key; the choice it makes
//! is a branch on it alone.

use core::sync::atomic::{AtomicU8, Ordering};

/// A microarchitecture family, as far as the kernel choice cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CpuKind {
    /// AMD Zen 3 (no AVX-512).
    Zen3,
    /// AMD Zen 4: AVX-512 IFMA executed as two 256-bit halves.
    Zen4,
    /// AMD Zen 5 (family 26).
    Zen5,
    /// An AMD CPU of another family or model.
    AmdOther,
    /// Intel Ice Lake, Tiger Lake or Rocket Lake (the first cores with AVX-512 IFMA).
    IntelIceLake,
    /// Intel Sapphire Rapids, Emerald Rapids or Granite Rapids.
    IntelSapphireRapids,
    /// An Intel CPU of another model.
    IntelOther,
    /// Another vendor, another architecture, or a CPU whose identity could not be read.
    Unknown,
}

/// The form of the MULX backend's 16-limb kernels (the primes of RSA-2048).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mulx16 {
    /// Reduction rows and the rows triangle, as at 11, 12 and 22 limbs.
    Rows,
    /// An 8-word register window for the reduction (one copy shared by the squaring and the
    /// multiplication) and a register-window triangle.
    Window,
}

/// The kernel forms a CPU kind runs (see the module's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Forms {
    /// The MULX kernels at 16 limbs.
    pub mulx16: Mulx16,
    /// The kind's level-1 data cache in bytes, which the lane form's window table should fit
    /// under [`LaneWindow::FitL1d`] (see [`super::ifma::lane_window_for`]).
    pub l1d_bytes: usize,
    /// How the lane form picks its window.
    pub lane_window: LaneWindow,
    /// The duo form may run digit counts up to this many in 256-bit registers (0: never;
    /// [`super::ifma_duo::duo_digits_for`], [`super::ifma_duo::duo_width_for`]).
    pub duo_256_up_to: usize,
    /// At a digit count both widths have kernels for (up to [`Forms::duo_256_up_to`]): the
    /// 256-bit kernel if true, the 512-bit one if false. When false, the 256-bit kernels run
    /// only the counts the 512-bit ones lack, where they make the number shorter.
    pub duo_256_at_shared_counts: bool,
    /// The duo form squares numbers of up to this many digits with its product kernel
    /// instead of its squaring kernel (0: never; [`super::ifma_duo::duo_squaring_for`]).
    pub duo_sqr_by_product_up_to: usize,
    /// The lane form's window products take their multiplier from the window's squarings
    /// ([`super::ifma::LaneSelect::Stitched`]) up to this many digits, and read the table
    /// themselves above (0: never; [`super::ifma::lane_select_for`]). Where they take it from
    /// the squarings, the window follows the cost model with the table's reads at 0.9 cycle
    /// per entry and digit whatever [`Forms::lane_window`] says
    /// ([`super::ifma::lane_window_for`]).
    pub lane_stitched_up_to: usize,
    /// The lane form's squarings form the whole square by schoolbook rows
    /// ([`super::ifma::LaneSquare::Schoolbook`]) up to this many digits where that form is
    /// compiled, and in the standard form (Karatsuba or doubled digits) elsewhere (0: never;
    /// [`super::ifma::lane_square_for`]).
    pub lane_schoolbook_up_to: usize,
    /// The lane form's squarings reduce by tiles ([`super::ifma::LaneSquare::Tiled`]) from
    /// this many digits where that form is compiled (`usize::MAX`: never;
    /// [`super::ifma::lane_square_for`]).
    pub lane_tiled_from: usize,
    /// The lane form's products read their rows' digits as memory operands
    /// ([`super::ifma::LaneProduct::MemoryOperands`]) at the digit counts that have that
    /// form, and load them into registers elsewhere ([`super::ifma::lane_product_for`]).
    pub lane_mem_products: bool,
}

/// The rule by which the lane form picks its window ([`super::ifma::lane_window_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneWindow {
    /// The cost model's window, one bit smaller where its table would not fit the level-1
    /// data cache ([`Forms::l1d_bytes`]) and the smaller one's would.
    FitL1d,
    /// The cost model with the table's reads weighted as measured on the Zen 4.
    ScanWeighted,
    /// The cost model with the table's reads at one cycle per entry and digit: the windows
    /// measured fastest on the Sapphire Rapids class (4 bits from 10 to 30 digits).
    ScanWeightedOne,
}

impl Forms {
    /// The table: the forms for `kind`.
    ///
    /// ```
    /// use redc::mont::backend::cpu::{CpuKind, Forms, Mulx16};
    ///
    /// assert_eq!(Forms::of(CpuKind::IntelSapphireRapids).mulx16, Mulx16::Rows);
    /// // What runs here:
    /// let here = Forms::of(CpuKind::detect());
    /// # let _ = here;
    /// ```
    pub const fn of(kind: CpuKind) -> Forms {
        use CpuKind::*;
        let mulx16 = match kind {
            Zen3 | Zen4 | Zen5 | AmdOther => Mulx16::Window,
            IntelIceLake | IntelSapphireRapids | IntelOther | Unknown => Mulx16::Rows,
        };
        // Zen 3 and 4: 32 KiB; Zen 5, Ice Lake and later Intel cores with IFMA: 48 KiB; the
        // smaller where unknown.
        let l1d_kib = match kind {
            Zen5 | IntelIceLake | IntelSapphireRapids => 48,
            Zen3 | Zen4 | AmdOther | IntelOther | Unknown => 32,
        };
        // Zen 4's rule and the Sapphire Rapids class's, each measured there; Zen 5 and the Ice
        // Lake class take the latter by reasoning; the kinds redc does not know keep the L1D
        // rule.
        let lane_window = match kind {
            Zen4 => LaneWindow::ScanWeighted,
            Zen5 | IntelIceLake | IntelSapphireRapids => LaneWindow::ScanWeightedOne,
            Zen3 | AmdOther | IntelOther | Unknown => LaneWindow::FitL1d,
        };
        // Up to 16 digits on every kind; at the counts both widths have, the 256-bit kernels
        // on Zen 4 only (faster there at 12 and 16 digits, slower at both on the Sapphire
        // Rapids class).
        let duo_256_up_to = 16;
        let duo_256_at_shared_counts = matches!(kind, Zen4);
        // Measured on Zen 4 (the product kernel faster at 10 and 12 digits, slower from 20)
        // and the Sapphire Rapids class (faster at 10 and 20, level at 12, 28 and 30, slower
        // at 40); the Ice Lake class as Intel's other kind, the rest as both up to 12.
        let duo_sqr_by_product_up_to = match kind {
            IntelIceLake | IntelSapphireRapids => 20,
            Zen3 | Zen4 | Zen5 | AmdOther | IntelOther | Unknown => 12,
        };
        // Measured on the Sapphire Rapids class (faster at 10 to 30 digits; at 40 slower with
        // the rows' squarings, 5.7 % faster with the tiled ones) and, in an earlier form, on
        // Zen 4 (slower); the others keep the scan, unmeasured.
        let lane_stitched_up_to = match kind {
            IntelSapphireRapids => 40,
            Zen3 | Zen4 | Zen5 | AmdOther | IntelIceLake | IntelOther | Unknown => 0,
        };
        // Measured on the Sapphire Rapids class (5 % faster squarings at 20 digits, batches of
        // 2048-bit keys 8 % faster, three-prime 2048- and 3072-bit keys 7–9 %; level at 10
        // digits). On Zen 4 the Karatsuba squaring's additions run beside the multiply-adds
        // and its fewer multiply-adds won; the others keep the standard form, unmeasured.
        let lane_schoolbook_up_to = match kind {
            IntelSapphireRapids => 20,
            Zen3 | Zen4 | Zen5 | AmdOther | IntelIceLake | IntelOther | Unknown => 0,
        };
        // Measured on the Sapphire Rapids class (squarings 14–20 % faster at 30 to 40 digits,
        // products 15–45 %; batches of eight 3072- and 4096-bit signatures 30 and 37 %, three-
        // prime 4096-bit keys 15 %). The other kinds take it unmeasured: it removes the rows'
        // spilled frame (a load and a store per spilled position and row) and the loads of
        // digits used for two multiply-adds, and adds no vector arithmetic.
        let lane_tiled_from = 27;
        // Measured on the Sapphire Rapids class (the 40-digit product 23 % faster, batches of
        // eight 4096-bit signatures 5 %); the others keep the loads into registers, unmeasured.
        let lane_mem_products = matches!(kind, IntelSapphireRapids);
        Forms {
            mulx16,
            l1d_bytes: l1d_kib * 1024,
            lane_window,
            duo_256_up_to,
            duo_256_at_shared_counts,
            duo_sqr_by_product_up_to,
            lane_stitched_up_to,
            lane_schoolbook_up_to,
            lane_tiled_from,
            lane_mem_products,
        }
    }

    /// The forms of the running CPU (or the kind forced by the `test-hooks` feature's
    /// `force_kind` (feature `test-hooks`)).
    pub fn current() -> Forms {
        Forms::of(CpuKind::current())
    }
}

impl CpuKind {
    /// Every kind, in the table's order.
    pub const ALL: [CpuKind; 8] = [
        CpuKind::Zen3,
        CpuKind::Zen4,
        CpuKind::Zen5,
        CpuKind::AmdOther,
        CpuKind::IntelIceLake,
        CpuKind::IntelSapphireRapids,
        CpuKind::IntelOther,
        CpuKind::Unknown,
    ];

    /// A short name for reports ("Zen 4", "Intel Sapphire/Emerald Rapids", ...).
    pub fn name(self) -> &'static str {
        match self {
            CpuKind::Zen3 => "AMD Zen 3",
            CpuKind::Zen4 => "AMD Zen 4",
            CpuKind::Zen5 => "AMD Zen 5",
            CpuKind::AmdOther => "AMD (other)",
            CpuKind::IntelIceLake => "Intel Ice Lake",
            CpuKind::IntelSapphireRapids => "Intel Sapphire/Emerald Rapids",
            CpuKind::IntelOther => "Intel (other)",
            CpuKind::Unknown => "unknown",
        }
    }

    /// The kind of a CPU from its CPUID vendor string and display family and model (family
    /// and model with the extended fields already folded in, as `/proc/cpuinfo` shows them).
    ///
    /// ```
    /// use redc::mont::backend::cpu::CpuKind;
    ///
    /// assert_eq!(CpuKind::classify("AuthenticAMD", 25, 17), CpuKind::Zen4);
    /// assert_eq!(CpuKind::classify("GenuineIntel", 6, 167), CpuKind::IntelIceLake);
    /// assert_eq!(CpuKind::classify("GenuineIntel", 6, 207), CpuKind::IntelSapphireRapids);
    /// assert_eq!(CpuKind::classify("HygonGenuine", 24, 0), CpuKind::Unknown);
    /// ```
    pub fn classify(vendor: &str, family: u32, model: u32) -> CpuKind {
        match (vendor, family) {
            ("AuthenticAMD", 25) => match model {
                0..=15 | 32..=47 | 64..=95 => CpuKind::Zen3,
                16..=31 | 96..=127 | 160..=175 => CpuKind::Zen4,
                _ => CpuKind::AmdOther,
            },
            ("AuthenticAMD", 26) => CpuKind::Zen5,
            ("AuthenticAMD", _) => CpuKind::AmdOther,
            ("GenuineIntel", 6) => match model {
                106 | 108 | 125 | 126 | 140 | 141 | 167 => CpuKind::IntelIceLake,
                143 | 207 | 173 | 174 => CpuKind::IntelSapphireRapids,
                _ => CpuKind::IntelOther,
            },
            ("GenuineIntel", _) => CpuKind::IntelOther,
            _ => CpuKind::Unknown,
        }
    }

    /// [`CpuKind::classify`], then a family-6 Intel CPU that has AMX (`amx`: CPUID leaf 7,
    /// EDX bit 24, AMX-TILE) is of the Sapphire Rapids class whatever model it shows: only
    /// those server cores have AMX, and hypervisors may show another model (one Xeon of that
    /// class reports model 167, Rocket Lake's).
    ///
    /// ```
    /// use redc::mont::backend::cpu::CpuKind;
    ///
    /// assert_eq!(
    ///     CpuKind::classify_with_amx("GenuineIntel", 6, 167, true),
    ///     CpuKind::IntelSapphireRapids
    /// );
    /// assert_eq!(
    ///     CpuKind::classify_with_amx("GenuineIntel", 6, 167, false),
    ///     CpuKind::IntelIceLake
    /// );
    /// ```
    pub fn classify_with_amx(vendor: &str, family: u32, model: u32, amx: bool) -> CpuKind {
        match CpuKind::classify(vendor, family, model) {
            CpuKind::IntelIceLake | CpuKind::IntelOther if amx && family == 6 => {
                CpuKind::IntelSapphireRapids
            }
            kind => kind,
        }
    }

    /// The running CPU's kind, read by CPUID (x86-64; [`CpuKind::Unknown`] elsewhere). Not
    /// cached: see [`CpuKind::current`].
    pub fn detect() -> CpuKind {
        #[cfg(target_arch = "x86_64")]
        {
            let (vendor, family, model, amx) = cpuid_identity();
            match core::str::from_utf8(&vendor) {
                Ok(v) => CpuKind::classify_with_amx(v, family, model, amx),
                Err(_) => CpuKind::Unknown,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            CpuKind::Unknown
        }
    }

    /// The kind the kernels dispatch on: [`CpuKind::detect`]'s answer, asked once and cached
    /// (or the kind set by `force_kind` (feature `test-hooks`)).
    pub fn current() -> CpuKind {
        let v = CURRENT.load(Ordering::Relaxed);
        if v != 0 {
            return CpuKind::ALL[usize::from(v - 1)];
        }
        let kind = CpuKind::detect();
        CURRENT.store(kind.code(), Ordering::Relaxed);
        kind
    }

    /// `1 + ` its index in [`CpuKind::ALL`] (0 means "not yet detected").
    fn code(self) -> u8 {
        let i = CpuKind::ALL.iter().position(|&k| k == self).unwrap_or(7);
        i as u8 + 1
    }
}

/// The cached [`CpuKind::current`]: 0 until first asked.
static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Test hook (feature `test-hooks`): makes the kernels dispatch as on a CPU of `kind`, so that
/// every form of the table runs on one machine; `None` goes back to the detected kind. Only
/// forms the CPU can execute are ever chosen: a kind decides between forms of one backend,
/// and the backend still needs its features. All forms give identical results, so a test
/// running beside one that forces a kind still computes correctly.
#[cfg(feature = "test-hooks")]
pub fn force_kind(kind: Option<CpuKind>) {
    let v = kind.map_or(CpuKind::detect().code(), CpuKind::code);
    CURRENT.store(v, Ordering::Relaxed);
}

/// The CPUID vendor string, display family and model, and whether AMX-TILE is reported.
#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)]
fn cpuid_identity() -> ([u8; 12], u32, u32, bool) {
    use core::arch::x86_64::__cpuid_count;
    // SAFETY: CPUID exists on every x86-64 CPU; leaves 0 and 1 always exist. (Newer Rust
    // versions declare these functions safe.)
    let (l0, l1) = unsafe { (__cpuid_count(0, 0), __cpuid_count(1, 0)) };
    // SAFETY: as above; leaf 7 is read only where leaf 0 says it exists.
    let amx = l0.eax >= 7 && (unsafe { __cpuid_count(7, 0) }.edx >> 24) & 1 == 1;
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&l0.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&l0.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&l0.ecx.to_le_bytes());
    let base_family = (l1.eax >> 8) & 0xf;
    let base_model = (l1.eax >> 4) & 0xf;
    let ext_family = (l1.eax >> 20) & 0xff;
    let ext_model = (l1.eax >> 16) & 0xf;
    let family = if base_family == 0xf {
        base_family + ext_family
    } else {
        base_family
    };
    let model = if base_family == 0x6 || base_family == 0xf {
        (ext_model << 4) | base_model
    } else {
        base_model
    };
    (vendor, family, model, amx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for k in CpuKind::ALL {
            assert_eq!(CpuKind::ALL[usize::from(k.code() - 1)], k);
        }
    }

    #[test]
    fn classify_the_machines_seen() {
        // The machines this project has run on.
        assert_eq!(CpuKind::classify("AuthenticAMD", 25, 1), CpuKind::Zen3);
        assert_eq!(CpuKind::classify("AuthenticAMD", 25, 33), CpuKind::Zen3);
        assert_eq!(CpuKind::classify("AuthenticAMD", 25, 17), CpuKind::Zen4);
        assert_eq!(CpuKind::classify("AuthenticAMD", 26, 2), CpuKind::Zen5);
        assert_eq!(
            CpuKind::classify("GenuineIntel", 6, 207),
            CpuKind::IntelSapphireRapids
        );
        assert_eq!(
            CpuKind::classify("GenuineIntel", 6, 106),
            CpuKind::IntelIceLake
        );
        assert_eq!(
            CpuKind::classify("GenuineIntel", 6, 85),
            CpuKind::IntelOther
        );
        assert_eq!(CpuKind::classify("AuthenticAMD", 23, 49), CpuKind::AmdOther);
        // The Sapphire Rapids class Xeon shown as model 167 (AMX reported).
        assert_eq!(
            CpuKind::classify_with_amx("GenuineIntel", 6, 167, true),
            CpuKind::IntelSapphireRapids
        );
        assert_eq!(
            CpuKind::classify_with_amx("GenuineIntel", 6, 85, true),
            CpuKind::IntelSapphireRapids
        );
        // AMX says nothing about other vendors or families.
        assert_eq!(
            CpuKind::classify_with_amx("AuthenticAMD", 25, 17, true),
            CpuKind::Zen4
        );
        assert_eq!(
            CpuKind::classify_with_amx("GenuineIntel", 19, 1, true),
            CpuKind::IntelOther
        );
    }

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn detect_agrees_with_proc_cpuinfo() {
        let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
            return; // not Linux: nothing to compare with
        };
        let field = |name: &str| {
            info.lines()
                .find(|l| l.split(':').next().map(str::trim) == Some(name))
                .and_then(|l| l.split(':').nth(1))
                .map(|v| std::string::String::from(v.trim()))
        };
        let (Some(vendor), Some(family), Some(model), Some(flags)) = (
            field("vendor_id"),
            field("cpu family"),
            field("model"),
            field("flags"),
        ) else {
            return;
        };
        let (family, model) = (family.parse().unwrap(), model.parse().unwrap());
        let amx = flags.split_whitespace().any(|f| f == "amx_tile");
        assert_eq!(
            CpuKind::detect(),
            CpuKind::classify_with_amx(&vendor, family, model, amx)
        );
    }
}

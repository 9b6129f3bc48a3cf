//! Generates the duo form's AVX-512 IFMA kernels (`src/mont/backend/ifma_duo.rs` documents
//! the arithmetic; its `duo_asm` module is what this writes).
//!
//! One `asm!` block per operation and digit count: a window's run of squarings, one
//! Montgomery product, and (for the tests) the normalisation alone. Steps are unrolled with a
//! fixed register allocation, in the instruction order they were designed for: on an
//! out-of-order core that issues the oldest ready instruction first, the quotient chain must
//! come before the bulk of the multiply-adds in program order, and LLVM does not keep such an
//! order (from intrinsics it also hoisted and spilled the unrolled squaring's product terms).
//!
//! Nothing here depends on a secret: the generator only unrolls loops over public counts.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The 512-bit kernels: registers per number of digit positions (`NV`, four digits each)
/// and digits (`L`, the Montgomery steps). `L = 4·NV` except 30 digits (RSA-3072's 1536-bit
/// primes), which run in the registers of 32 with one double step fewer: the two digit
/// positions above the number stay zero, and `R = 2^(52·30)`.
const NVS: [(usize, usize); 9] = [
    (3, 12),
    (4, 16),
    (5, 20),
    (6, 24),
    (7, 28),
    (8, 30),
    (8, 32),
    (9, 36),
    (10, 40),
];

/// The 256-bit kernels: registers (two digits each) and digits, 6 to 20 (the fixed
/// registers leave no room for more).
const YNVS: [(usize, usize); 8] = [
    (3, 6),
    (4, 8),
    (5, 10),
    (6, 12),
    (7, 14),
    (8, 16),
    (9, 18),
    (10, 20),
];

/// Words of one interleaved array in the constants (40 digits of two numbers, and a register
/// of zeros past the end).
const ARR: usize = 88;

/// Byte offsets in the constants block (`ifma_duo::Consts`): `n`, `n` one digit down (`n↓ₚ =
/// nₚ₊₁`), `n` two digits down, `k₀` in every lane pair, `2^52 − 1`, and 1.
const N_OFF: usize = 0;
const ND_OFF: usize = 8 * ARR;
const NDD_OFF: usize = 16 * ARR;
const K0_OFF: usize = 24 * ARR;
const M52_OFF: usize = K0_OFF + 64;
const ONE_OFF: usize = M52_OFF + 8;
/// Bytes of the constants block.
const CONSTS_BYTES: usize = ONE_OFF + 8;

/// Byte offsets in the scratch block: the squaring's `a`, `e = 2a` in digits and `f = 2aⱼ mod
/// 2^52`, each also one digit down; the product uses `A` and `AD` for its first factor.
const A_OFF: usize = 0;
const AD_OFF: usize = 8 * ARR;
const E_OFF: usize = 16 * ARR;
const ED_OFF: usize = 24 * ARR;
const F_OFF: usize = 32 * ARR;
const FD_OFF: usize = 40 * ARR;
/// Bytes of the scratch block.
const SCRATCH_BYTES: usize = 48 * ARR;

/// Which kernel a generator writes.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Sqr,
    Mul,
}

/// One kernel's text for `nv` registers of `w` digits of each number.
struct Gen {
    nv: usize,
    /// Montgomery steps, one per digit: `w·nv`, or fewer where the digits do not fill the
    /// registers (the positions above stay zero and take no steps).
    steps: usize,
    kind: Kind,
    s: String,
    /// Digits of each number per register: 4 (512-bit registers) or 2 (256-bit).
    w: usize,
    /// How far the frame's registers have rotated (256-bit form only: there a double step's
    /// two-digit shift is a whole register, so the registers are renamed, not moved).
    rot: usize,
}

impl Gen {
    fn new(nv: usize, steps: usize, kind: Kind, w: usize) -> Self {
        assert!(
            steps.is_multiple_of(2) && steps <= w * nv && steps > w * (nv - 1),
            "whole double steps, in every register"
        );
        Gen {
            nv,
            steps,
            kind,
            s: String::new(),
            w,
            rot: 0,
        }
    }
    /// Digit positions the registers hold (at least the digits; the terms of rows and
    /// positions past the digits are zero).
    fn l(&self) -> usize {
        self.w * self.nv
    }
    /// The register class: `zmm` or `ymm`.
    fn class(&self) -> &'static str {
        if self.w == 4 {
            "zmm"
        } else {
            "ymm"
        }
    }
    /// Bytes per register.
    fn rb(&self) -> usize {
        16 * self.w
    }
    fn z(&self, i: usize) -> String {
        format!("{}{i}", self.class())
    }
    /// Frame position registers.
    fn x(&self, r: usize) -> String {
        self.z((r + self.rot) % self.nv)
    }
    /// Product-term registers (the next step's terms; also the second accumulator).
    fn t(&self, r: usize) -> String {
        self.z(self.nv + r)
    }
    fn b(&self) -> usize {
        2 * self.nv
    }
    fn c0(&self) -> String {
        self.z(self.b())
    }
    fn y0(&self) -> String {
        self.z(self.b() + 1)
    }
    fn y1(&self) -> String {
        self.z(self.b() + 2)
    }
    fn col(&self) -> String {
        self.z(self.b() + 3)
    }
    fn q(&self) -> String {
        self.z(self.b() + 4)
    }
    fn m(&self) -> String {
        self.z(self.b() + 5)
    }
    fn zero(&self) -> String {
        self.z(self.b() + 6)
    }
    fn l0(&self) -> String {
        self.z(self.b() + 7)
    }
    fn l1(&self) -> String {
        self.z(self.b() + 8)
    }
    fn ba(&self) -> String {
        self.z(self.b() + 9)
    }
    fn bb(&self) -> String {
        self.z(self.b() + 10)
    }
    fn xt(&self) -> String {
        self.z(self.b() + 11)
    }
    /// Whether `k₀`, `n₀` and `n₁` (the chain's constants, 128 bits each) fit in registers.
    fn chain_regs(&self) -> bool {
        self.b() + 15 <= 32
    }
    fn k0x(&self) -> String {
        if self.chain_regs() {
            format!("xmm{}", self.b() + 12)
        } else {
            format!("xmmword ptr [rsi + {K0_OFF}]")
        }
    }
    fn n0x(&self) -> String {
        if self.chain_regs() {
            format!("xmm{}", self.b() + 13)
        } else {
            format!("xmmword ptr [rsi + {N_OFF}]")
        }
    }
    fn n1x(&self) -> String {
        if self.chain_regs() {
            format!("xmm{}", self.b() + 14)
        } else {
            format!("xmmword ptr [rsi + {}]", N_OFF + 16)
        }
    }
    /// Registers left after the fixed ones (and the chain's constants).
    fn free_base(&self) -> usize {
        self.b() + if self.chain_regs() { 15 } else { 12 }
    }
    /// Which of `n↓`, `n`, `n↓↓` (in that order of use per step: twice, once, once) live in
    /// registers: as many as fit, since one 512-bit load per cycle (Zen 4) makes a memory
    /// operand as dear as the multiply-add it feeds.
    fn n_in_regs(&self) -> usize {
        (32 - self.free_base()) / self.nv
    }
    /// Register `r` of `n` shifted down by `down` digits (0, 1, 2), in a register or memory.
    fn narr(&self, down: usize, r: usize) -> String {
        let rank = match down {
            1 => 0,
            0 => 1,
            _ => 2,
        };
        if rank < self.n_in_regs() {
            self.z(self.free_base() + rank * self.nv + r)
        } else {
            let off = [N_OFF, ND_OFF, NDD_OFF][down];
            self.mem(off + self.rb() * r)
        }
    }
    fn xmm(reg: &str) -> String {
        reg.replacen("zmm", "xmm", 1).replacen("ymm", "xmm", 1)
    }
    /// A whole register's memory operand at `[base + off]`.
    fn ptr(&self, base: &str, off: usize) -> String {
        format!("{}word ptr [{base} + {off}]", self.class())
    }
    fn mem(&self, off: usize) -> String {
        self.ptr("rsi", off)
    }

    fn op(&mut self, line: &str) {
        writeln!(self.s, "            \"{line}\",").unwrap();
    }

    /// `2^52 − 1` in every lane, zero, and the chain's constants.
    fn consts(&mut self) {
        let (m, z) = (self.m(), self.zero());
        self.op(&format!("vpbroadcastq {m}, qword ptr [rsi + {M52_OFF}]"));
        self.op(&format!("vpxord {z}, {z}, {z}"));
        if self.chain_regs() {
            let (k, n0, n1) = (self.k0x(), self.n0x(), self.n1x());
            self.op(&format!("vmovdqu64 {k}, xmmword ptr [rsi + {K0_OFF}]"));
            self.op(&format!("vmovdqu64 {n0}, xmmword ptr [rsi + {N_OFF}]"));
            self.op(&format!(
                "vmovdqu64 {n1}, xmmword ptr [rsi + {}]",
                N_OFF + 16
            ));
        }
        for down in [1, 0, 2] {
            for r in 0..self.nv {
                let reg = self.narr(down, r);
                if !reg.contains("ptr") {
                    let off = [N_OFF, ND_OFF, NDD_OFF][down];
                    let src = self.mem(off + self.rb() * r);
                    self.op(&format!("vmovdqu64 {reg}, {src}"));
                }
            }
        }
    }

    /// The lane masks k1..k4 (digit position 0..3 of a register, both numbers) and k5..k7
    /// (positions from 1, 2, 3 up).
    fn masks(&mut self) {
        for (k, v) in [
            (1, 0x03),
            (2, 0x0c),
            (3, 0x30),
            (4, 0xc0),
            (5, 0xfc),
            (6, 0xf0),
            (7, 0xc0),
        ] {
            self.op(&format!("mov eax, {v}"));
            self.op(&format!("kmovw k{k}, eax"));
        }
    }

    /// The quotients of one double step, from frame position 0 (column i) and position 1
    /// (column i+1, completed on the way in `col`): `y₀` and `y₁` broadcast into their
    /// registers, the carry `⌈col₁/2^52⌉` out of the two consumed columns in `q` (lanes 0–1,
    /// the rest zero).
    fn quotients(&mut self) {
        let (y0, y1, col, q, m, xt) = (
            self.y0(),
            self.y1(),
            self.col(),
            self.q(),
            self.m(),
            self.xt(),
        );
        let (y0x, y1x, colx, qx, mx, xtx) = (
            Self::xmm(&y0),
            Self::xmm(&y1),
            Self::xmm(&col),
            Self::xmm(&q),
            Self::xmm(&m),
            Self::xmm(&xt),
        );
        let (k0, n0, n1) = (self.k0x(), self.n0x(), self.n1x());
        let (x0, x0x) = (self.x(0), Self::xmm(&self.x(0)));
        // y₀ = lo(t₀·k₀); column i+1 gets ⌈t₀/2^52⌉, its product terms and y₀'s terms.
        self.op(&format!("vpxord {y0x}, {y0x}, {y0x}"));
        self.op(&format!("vpmadd52luq {y0x}, {x0x}, {k0}"));
        self.op(&format!("vpaddq {qx}, {x0x}, {mx}"));
        self.op(&format!("vpsrlq {qx}, {qx}, 52"));
        self.op(&format!("vextracti32x4 {colx}, {x0}, 1"));
        self.op(&format!("vpaddq {colx}, {colx}, {qx}"));
        self.op(&format!("vpaddq {colx}, {colx}, {xtx}"));
        self.op(&format!("vpxord {qx}, {qx}, {qx}"));
        self.op(&format!("vpmadd52huq {qx}, {y0x}, {n0}"));
        self.op(&format!("vpmadd52luq {colx}, {y0x}, {n1}"));
        self.op(&format!("vpaddq {colx}, {colx}, {qx}"));
        // y₁ = lo(t₁·k₀), the carry of the two columns, both quotients broadcast.
        self.op(&format!("vpxord {y1x}, {y1x}, {y1x}"));
        self.op(&format!("vpmadd52luq {y1x}, {colx}, {k0}"));
        self.op(&format!("vpaddq {qx}, {colx}, {mx}"));
        self.op(&format!("vpsrlq {qx}, {qx}, 52"));
        self.op(&format!("vshufi64x2 {y1}, {y1}, {y1}, 0"));
        self.op(&format!("vshufi64x2 {y0}, {y0}, {y0}, 0"));
    }

    /// One double step on the frame at column `i`: positions move down two digits and get
    /// `y₀`'s and `y₁`'s multiples of `n`, the carry, and the step's product terms.
    ///
    /// Program order is the schedule. The core issues the oldest ready instruction first, so
    /// the quotients come first, then this step's product terms (into T, added to each
    /// register after `y₀`'s multiples), then `y₀`'s multiples, then position 0's share of
    /// `y₁`'s into fresh registers (the chain's end does not wait on the terms), then the rest
    /// of `y₁`'s, straight into the frame. Had the terms been written a step ahead they would
    /// be older than the next quotient and run before it, adding their time to the chain's
    /// instead of hiding under it.
    fn double_step(&mut self, i: usize) {
        let nv = self.nv;
        self.quotients();
        self.terms(i);
        let (y0, y1, q, z, c0, t1) = (
            self.y0(),
            self.y1(),
            self.q(),
            self.zero(),
            self.c0(),
            self.l1(),
        );
        if self.w == 4 {
            for r in 0..nv {
                let (xr, next) = (
                    self.x(r),
                    if r + 1 < nv { self.x(r + 1) } else { z.clone() },
                );
                self.op(&format!("valignq {xr}, {next}, {xr}, 4"));
            }
        } else {
            // Two digits are a whole register: position 0's register becomes the top one,
            // zeroed.
            let old0 = self.x(0);
            self.rot = (self.rot + 1) % nv;
            self.op(&format!("vpxord {old0}, {old0}, {old0}"));
        }
        // Above position 0 the step's product terms join each register after y₀'s multiples,
        // and y₁'s go straight into it: the add waits on the terms, made early, not on y₁
        // (on Zen 4 faster than adding y₁'s multiples through T at every size measured; see
        // docs/performance.md).
        for r in 0..nv {
            let (xr, ndd, nd) = (self.x(r), self.narr(2, r), self.narr(1, r));
            self.op(&format!("vpmadd52luq {xr}, {y0}, {ndd}"));
            self.op(&format!("vpmadd52huq {xr}, {y0}, {nd}"));
            if r > 0 {
                let tr = self.t(r);
                self.op(&format!("vpaddq {xr}, {xr}, {tr}"));
            }
        }
        // y₁'s part of position 0, the chain's end, into fresh registers.
        let (x0, t0, nd0, n0) = (self.x(0), self.t(0), self.narr(1, 0), self.narr(0, 0));
        self.op(&format!("vpxord {t1}, {t1}, {t1}"));
        self.op(&format!("vpmadd52luq {t1}, {y1}, {nd0}"));
        self.op(&format!("vpxord {c0}, {c0}, {c0}"));
        self.op(&format!("vpmadd52huq {c0}, {y1}, {n0}"));
        self.op(&format!("vpaddq {x0}, {x0}, {q}"));
        self.op(&format!("vpaddq {x0}, {x0}, {t0}"));
        self.op(&format!("vpaddq {t1}, {t1}, {c0}"));
        self.op(&format!("vpaddq {x0}, {x0}, {t1}"));
        for r in 1..nv {
            let (xr, nd, n) = (self.x(r), self.narr(1, r), self.narr(0, r));
            self.op(&format!("vpmadd52luq {xr}, {y1}, {nd}"));
            self.op(&format!("vpmadd52huq {xr}, {y1}, {n}"));
        }
        if i + 2 < self.l() {
            self.xterms(i + 2);
        }
    }

    /// The product's terms for the double step at frame `i` (landing on columns i+2+p):
    /// `hi(a↓·bᵢ) + lo(a↓·bᵢ₊₁) + hi(a·bᵢ₊₁) + lo(a·bᵢ₊₂)` into T. `a` and `a↓` at [r8], `b` at
    /// [rcx], zero past the end.
    fn mul_terms(&mut self, i: usize) {
        let (ba, bb, l0) = (self.ba(), self.bb(), self.l0());
        self.op(&format!(
            "vbroadcasti32x4 {ba}, xmmword ptr [rcx + {}]",
            16 * i
        ));
        self.op(&format!(
            "vbroadcasti32x4 {bb}, xmmword ptr [rcx + {}]",
            16 * (i + 1)
        ));
        for r in 0..self.nv {
            let tr = self.t(r);
            self.op(&format!("vpxord {tr}, {tr}, {tr}"));
            let src = self.ptr("r8", AD_OFF + self.rb() * r);
            self.op(&format!("vmovdqu64 {l0}, {src}"));
            self.op(&format!("vpmadd52huq {tr}, {ba}, {l0}"));
            self.op(&format!("vpmadd52luq {tr}, {bb}, {l0}"));
        }
        self.op(&format!(
            "vbroadcasti32x4 {ba}, xmmword ptr [rcx + {}]",
            16 * (i + 2)
        ));
        for r in 0..self.nv {
            let tr = self.t(r);
            let src = self.ptr("r8", A_OFF + self.rb() * r);
            self.op(&format!("vmovdqu64 {l0}, {src}"));
            self.op(&format!("vpmadd52huq {tr}, {bb}, {l0}"));
            self.op(&format!("vpmadd52luq {tr}, {ba}, {l0}"));
        }
    }

    /// Register `r` of the squaring's row vector `v⁽ᵏ⁾` (`down`: one digit down, `v⁽ᵏ⁾↓`) into
    /// `dst`, if it differs from `e` (`e↓`): `aₖ` at position k (k−1), `fₖ₊₁` at k+1 (k).
    /// Returns whether it wrote `dst`.
    fn row_reg(&mut self, k: usize, r: usize, down: bool, dst: &str) -> bool {
        let (e, a, f) = if down {
            (ED_OFF, AD_OFF, FD_OFF)
        } else {
            (E_OFF, A_OFF, F_OFF)
        };
        // Position of aₖ (none when k = 0 one digit down: that term is column i+1's).
        let pa = if down { k.checked_sub(1) } else { Some(k) };
        let pf = if down { k } else { k + 1 };
        let has_f = k + 1 < self.l();
        let w = self.w;
        let in_r = |p: usize| p / w == r;
        let a_here = pa.is_some_and(in_r);
        let f_here = has_f && in_r(pf);
        if !a_here && !f_here {
            return false;
        }
        let rb = self.rb();
        let src = self.ptr("rdx", e + rb * r);
        self.op(&format!("vmovdqu64 {dst}, {src}"));
        if let Some(p) = pa.filter(|&p| in_r(p)) {
            let src = self.ptr("rdx", a + rb * r);
            self.op(&format!(
                "vpblendmq {dst}{{{{k{}}}}}, {dst}, {src}",
                1 + p % w
            ));
        }
        if f_here {
            let src = self.ptr("rdx", f + rb * r);
            self.op(&format!(
                "vpblendmq {dst}{{{{k{}}}}}, {dst}, {src}",
                1 + pf % w
            ));
        }
        true
    }

    /// The mask for register `r` of a row whose positions start at `from` (`None`: every
    /// position; `Some(None)`: the register is wholly below, skip it).
    /// (Masks k5..k7 start at positions 1, 2, 3; in a 256-bit register k5 is positions 1 up.)
    fn mask_from(&self, from: usize, r: usize) -> Option<Option<usize>> {
        let w = self.w;
        if from <= w * r {
            Some(None)
        } else if from >= w * r + w {
            None
        } else {
            Some(Some(4 + from - w * r))
        }
    }

    /// One phase of the squaring's terms: `hi(aₖ·w⁽ᵏ⁾) + lo(aₖ₊₁·w⁽ᵏ⁺¹⁾)` into T, with `w` the
    /// row vectors (`down`: one digit down) and the broadcast digits in BA and BB.
    fn sqr_phase(&mut self, k: usize, down: bool) {
        let l = self.l();
        let (ba, bb, l0, l1) = (self.ba(), self.bb(), self.l0(), self.l1());
        let base = if down { ED_OFF } else { E_OFF };
        // Row k's positions start at k (k−1 one digit down), row k+1's one later.
        let start = |row: usize| if down { row.saturating_sub(1) } else { row };
        for r in 0..self.nv {
            let hi = if k < l {
                self.mask_from(start(k), r)
            } else {
                None
            };
            let lo = if k + 1 < l {
                self.mask_from(start(k + 1), r)
            } else {
                None
            };
            if hi.is_none() && lo.is_none() {
                continue;
            }
            let hi_own = hi.is_some() && self.row_reg(k, r, down, &l0);
            let lo_own = lo.is_some() && self.row_reg(k + 1, r, down, &l1);
            let shared = self.z(self.b() + 3);
            let need_shared = (hi.is_some() && !hi_own) || (lo.is_some() && !lo_own);
            if need_shared {
                // The column register is free between the chain's uses.
                let src = self.ptr("rdx", base + self.rb() * r);
                self.op(&format!("vmovdqu64 {shared}, {src}"));
            }
            let tr = self.t(r);
            if let Some(mask) = hi {
                let src = if hi_own { &l0 } else { &shared };
                match mask {
                    Some(m) => self.op(&format!("vpmadd52huq {tr}{{{{k{m}}}}}, {ba}, {src}")),
                    None => self.op(&format!("vpmadd52huq {tr}, {ba}, {src}")),
                }
            }
            if let Some(mask) = lo {
                let src = if lo_own { &l1 } else { &shared };
                match mask {
                    Some(m) => self.op(&format!("vpmadd52luq {tr}{{{{k{m}}}}}, {bb}, {src}")),
                    None => self.op(&format!("vpmadd52luq {tr}, {bb}, {src}")),
                }
            }
        }
    }

    /// The squaring's terms for the double step at frame `i`: rows i and i+1 one digit down,
    /// rows i+1 and i+2 in place, into T.
    fn sqr_terms(&mut self, i: usize) {
        let l = self.l();
        let (ba, bb) = (self.ba(), self.bb());
        for r in 0..self.nv {
            let tr = self.t(r);
            self.op(&format!("vpxord {tr}, {tr}, {tr}"));
        }
        let bcast = |g: &mut Self, reg: &str, k: usize| {
            if k < l {
                g.op(&format!(
                    "vbroadcasti32x4 {reg}, xmmword ptr [rdx + {}]",
                    A_OFF + 16 * k
                ));
            }
        };
        bcast(self, &ba, i);
        bcast(self, &bb, i + 1);
        self.sqr_phase(i, true);
        bcast(self, &ba, i + 1);
        bcast(self, &bb, i + 2);
        self.sqr_phase(i + 1, false);
    }

    /// The terms of column i+1 that the frame does not hold yet, into XT (lanes 0–1): for the
    /// product `hi(a₀·bᵢ) + lo(a₀·bᵢ₊₁)`, for the squaring `hi(a₀·a₀)` at i = 0 and nothing
    /// after (the row vectors are zero below their row).
    fn xterms(&mut self, i: usize) {
        let (xt, l0) = (self.xt(), self.l0());
        let (xtx, l0x) = (Self::xmm(&xt), Self::xmm(&l0));
        self.op(&format!("vpxord {xtx}, {xtx}, {xtx}"));
        match self.kind {
            Kind::Mul => {
                self.op(&format!("vmovdqu64 {l0x}, xmmword ptr [r8 + {A_OFF}]"));
                for (k, op) in [(i, "vpmadd52huq"), (i + 1, "vpmadd52luq")] {
                    let bx = Self::xmm(&self.ba());
                    self.op(&format!("vmovdqu64 {bx}, xmmword ptr [rcx + {}]", 16 * k));
                    self.op(&format!("{op} {xtx}, {bx}, {l0x}"));
                }
            }
            Kind::Sqr => {
                if i == 0 {
                    self.op(&format!("vmovdqu64 {l0x}, xmmword ptr [rdx + {A_OFF}]"));
                    self.op(&format!("vpmadd52huq {xtx}, {l0x}, {l0x}"));
                }
            }
        }
    }

    fn terms(&mut self, i: usize) {
        match self.kind {
            Kind::Sqr => self.sqr_terms(i),
            Kind::Mul => self.mul_terms(i),
        }
    }

    /// The whole reduction: one double step per two digits from the initial frame in X, the
    /// first step's column i+1 terms in XT; the result (lazy digits) in X.
    fn reduce(&mut self) {
        for i in (0..self.steps).step_by(2) {
            self.double_step(i);
        }
    }

    /// Every digit of both numbers in X brought below 2^52 exactly (see `normalise` in
    /// ifma_duo.rs): one pass of carries in the vector unit, then the ripple through runs of
    /// 2^52 − 1 on bit masks in general registers (generate r8:r9, propagate r10:r11).
    fn normalise(&mut self) {
        let nv = self.nv;
        let (m, z, t) = (self.m(), self.zero(), self.l0());
        for r in 0..nv {
            let (xr, tr) = (self.x(r), self.t(r));
            self.op(&format!("vpsrlq {tr}, {xr}, 52"));
            self.op(&format!("vpandq {xr}, {xr}, {m}"));
        }
        let up = 2 * self.w - 2;
        for r in 0..nv {
            let (xr, tr) = (self.x(r), self.t(r));
            let below = if r > 0 { self.t(r - 1) } else { z.clone() };
            self.op(&format!("valignq {t}, {tr}, {below}, {up}"));
            self.op(&format!("vpaddq {xr}, {xr}, {t}"));
        }
        // Bit 2wr + 2k + u of r9:r8 (generate: digit > 2^52 − 1) and r11:r10 (propagate: digit
        // = 2^52 − 1) is digit wr + k of number u.
        for g in ["r8", "r9", "r10", "r11"] {
            self.op(&format!("xor {g}d, {g}d"));
        }
        let (bits, per_word) = (2 * self.w, 32 / self.w);
        assert!(nv <= 2 * per_word, "the masks fit 128 bits");
        for r in 0..nv {
            let xr = self.x(r);
            let (g, p) = if r < per_word {
                ("r8", "r10")
            } else {
                ("r9", "r11")
            };
            let sh = bits * (r % per_word);
            self.op(&format!("vpcmpuq k1, {xr}, {m}, 6"));
            self.op(&format!("vpcmpuq k2, {xr}, {m}, 0"));
            for (k, w) in [("k1", g), ("k2", p)] {
                self.op(&format!("kmovw eax, {k}"));
                if sh > 0 {
                    self.op(&format!("shl rax, {sh}"));
                }
                self.op(&format!("or {w}, rax"));
            }
        }
        // Per number u (its bits at stride 2): C = ((G << 2) + P') ^ P', with P' its
        // propagate bits and the other number's bits all set, so a carry crosses them
        // unchanged. Number 0's carries in r15:r14; number 1's in r9:r8 (its generate bits
        // are not needed afterwards), merged in.
        for (u, keep, other) in [
            (0usize, "0x5555555555555555", "0xaaaaaaaaaaaaaaaa"),
            (1, "0xaaaaaaaaaaaaaaaa", "0x5555555555555555"),
        ] {
            let (lo, hi) = if u == 0 { ("r14", "r15") } else { ("r8", "r9") };
            self.op(&format!("mov rax, {keep}"));
            self.op("mov r12, r10");
            self.op("and r12, rax");
            self.op("mov r13, r11");
            self.op("and r13, rax");
            if u == 0 {
                self.op("mov r14, r8");
                self.op("mov r15, r9");
            }
            self.op(&format!("and {lo}, rax"));
            self.op(&format!("and {hi}, rax"));
            self.op(&format!("mov rax, {other}"));
            self.op("or r12, rax");
            self.op("or r13, rax");
            self.op(&format!("shld {hi}, {lo}, 2"));
            self.op(&format!("shl {lo}, 2"));
            self.op(&format!("add {lo}, r12"));
            self.op(&format!("adc {hi}, r13"));
            self.op(&format!("xor {lo}, r12"));
            self.op(&format!("xor {hi}, r13"));
            self.op(&format!("mov rax, {keep}"));
            self.op(&format!("and {lo}, rax"));
            self.op(&format!("and {hi}, rax"));
        }
        self.op("or r14, r8");
        self.op("or r15, r9");
        let lanes = 2 * self.w;
        for r in 0..nv {
            let xr = self.x(r);
            let w = if r < per_word { "r14" } else { "r15" };
            let sh = bits * (r % per_word);
            self.op(&format!("mov rax, {w}"));
            if sh > 0 {
                self.op(&format!("shr rax, {sh}"));
            }
            self.op("kmovw k1, eax");
            self.op(&format!(
                "vpaddq {xr}{{{{k1}}}}, {xr}, qword ptr [rsi + {ONE_OFF}]{{{{1to{lanes}}}}}"
            ));
            self.op(&format!("vpandq {xr}, {xr}, {m}"));
        }
    }

    /// Stores `a` (in X) and its one-digit-down copy to [base + A_OFF] and [base + AD_OFF].
    fn store_a(&mut self, base: &str) {
        let (z, l0) = (self.zero(), self.l0());
        for r in 0..self.nv {
            let xr = self.x(r);
            let next = if r + 1 < self.nv {
                self.x(r + 1)
            } else {
                z.clone()
            };
            let (da, dd) = (
                self.ptr(base, A_OFF + self.rb() * r),
                self.ptr(base, AD_OFF + self.rb() * r),
            );
            self.op(&format!("vmovdqu64 {da}, {xr}"));
            self.op(&format!("valignq {l0}, {next}, {xr}, 2"));
            self.op(&format!("vmovdqu64 {dd}, {l0}"));
        }
    }

    /// The squaring kernel: `count ≥ 1` squarings of the interleaved number at [rdi], in
    /// place; constants at [rsi], scratch at [rdx].
    fn sqr(&mut self) {
        let nv = self.nv;
        self.consts();
        self.masks();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!(
                "vmovdqu64 {xr}, {}",
                self.ptr("rdi", self.rb() * r)
            ));
        }
        self.op("2:");
        // a, a↓; f = 2a mod 2^52 (in T), f↓; e = f + (aⱼ₋₁ >> 51) and e↓ = f↓ + (a >> 51).
        self.store_a("rdx");
        let (m, z, l0, l1) = (self.m(), self.zero(), self.l0(), self.l1());
        for r in 0..nv {
            let (xr, tr) = (self.x(r), self.t(r));
            self.op(&format!("vpaddq {tr}, {xr}, {xr}"));
            self.op(&format!("vpandq {tr}, {tr}, {m}"));
            self.op(&format!(
                "vmovdqu64 {}, {tr}",
                self.ptr("rdx", F_OFF + self.rb() * r)
            ));
        }
        for r in 0..nv {
            let (xr, tr) = (self.x(r), self.t(r));
            let next = if r + 1 < nv { self.t(r + 1) } else { z.clone() };
            // f↓ and e↓.
            self.op(&format!("valignq {l0}, {next}, {tr}, 2"));
            self.op(&format!(
                "vmovdqu64 {}, {l0}",
                self.ptr("rdx", FD_OFF + self.rb() * r)
            ));
            self.op(&format!("vpsrlq {l1}, {xr}, 51"));
            self.op(&format!("vpaddq {l0}, {l0}, {l1}"));
            self.op(&format!(
                "vmovdqu64 {}, {l0}",
                self.ptr("rdx", ED_OFF + self.rb() * r)
            ));
        }
        for r in 0..nv {
            let (xr, tr) = (self.x(r), self.t(r));
            // e: the top bits of the digit below, one digit up.
            self.op(&format!("vpsrlq {l0}, {xr}, 51"));
            if r > 0 {
                let xb = self.x(r - 1);
                self.op(&format!("vpsrlq {l1}, {xb}, 51"));
            } else {
                self.op(&format!("vmovdqa64 {l1}, {z}"));
            }
            self.op(&format!("valignq {l0}, {l0}, {l1}, {}", 2 * self.w - 2));
            self.op(&format!("vpaddq {l0}, {l0}, {tr}"));
            self.op(&format!(
                "vmovdqu64 {}, {l0}",
                self.ptr("rdx", E_OFF + self.rb() * r)
            ));
        }
        // The frame starts as row 0's low halves: lo(a₀·v⁽⁰⁾).
        let ba = self.ba();
        let x0 = self.x(0);
        self.op(&format!("vshufi64x2 {ba}, {x0}, {x0}, 0"));
        for r in 0..nv {
            let xr = self.x(r);
            let src = if self.row_reg(0, r, false, &l0) {
                l0.clone()
            } else {
                self.ptr("rdx", E_OFF + self.rb() * r)
            };
            self.op(&format!("vpxord {xr}, {xr}, {xr}"));
            self.op(&format!("vpmadd52luq {xr}, {ba}, {src}"));
        }
        self.xterms(0);
        self.reduce();
        assert_eq!(
            self.rot, 0,
            "the loop ends with the registers it began with"
        );
        self.normalise();
        self.masks();
        self.op("dec rcx");
        self.op("jnz 2b");
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!(
                "vmovdqu64 {}, {xr}",
                self.ptr("rdi", self.rb() * r)
            ));
        }
    }

    /// The product kernel: [rdi] = [rdx]·[rcx]·R⁻¹, constants at [rsi], scratch at [r8].
    fn mul(&mut self) {
        let nv = self.nv;
        self.consts();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!(
                "vmovdqu64 {xr}, {}",
                self.ptr("rdx", self.rb() * r)
            ));
        }
        self.store_a("r8");
        let ba = self.ba();
        self.op(&format!("vbroadcasti32x4 {ba}, xmmword ptr [rcx]"));
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!("vpxord {xr}, {xr}, {xr}"));
            self.op(&format!(
                "vpmadd52luq {xr}, {ba}, {}",
                self.ptr("r8", A_OFF + self.rb() * r)
            ));
        }
        self.xterms(0);
        self.reduce();
        self.normalise();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!(
                "vmovdqu64 {}, {xr}",
                self.ptr("rdi", self.rb() * r)
            ));
        }
    }

    /// The normalisation alone, for the tests: the interleaved digits at [rdi] in place.
    fn norm(&mut self) {
        let nv = self.nv;
        self.consts();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!(
                "vmovdqu64 {xr}, {}",
                self.ptr("rdi", self.rb() * r)
            ));
        }
        self.normalise();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!(
                "vmovdqu64 {}, {xr}",
                self.ptr("rdi", self.rb() * r)
            ));
        }
    }
}

/// The lane form's kernels (`src/mont/backend/ifma/mod.rs`): eight numbers side by side, one per
/// 64-bit lane, one register per digit position. CIOS rows, unrolled: the frame's positions
/// `0..=L+1` (columns `i..=i+L+1` at row `i`) live in registers up to [`LANE_REGS`] and in scratch
/// slots beyond (loaded, accumulated into, stored one slot down: the shift); the registers
/// shift by renaming. Each row adds its reduction terms and the next row's product terms (one
/// row ahead, so that no product term waits on a quotient): position 1 first (the chain:
/// `lo(n₁·m)`, `hi(n₀·m)` and the carry `⌈t₀/2^52⌉`), then at once the next quotient, then
/// the other positions, each digit loaded once for the two positions it feeds. The squaring
/// from [`KARATSUBA_FROM`] digits (even counts) forms the square first, from three half
/// squares ([`LaneGen::half_squares`]), and its rows only reduce, taking the square's columns
/// as the frame reaches them ([`LaneGen::column`]); the schoolbook squaring
/// ([`SCHOOLBOOK_DIGITS`]) does the same from a square formed by schoolbook rows
/// ([`LaneGen::full_square`]). The tiled squarings and products ([`TILED_DIGITS`]) replace
/// the rows by tiles in column order ([`LaneGen::tiled_reduce`]).
struct LaneGen {
    l: usize,
    kind: Kind,
    s: String,
    /// Register of each frame position held in registers (positions `0..regs`; the frame has
    /// positions `0..=L+1`, the top one for the next row's products).
    pos: Vec<usize>,
    /// The spare position register (becomes position `regs − 1` after the shift).
    spare: usize,
    /// Which of each pair of digit registers holds the current digit (the other the previous
    /// one): flipped at every load instead of copying.
    flip: usize,
    /// A product whose multiplier is selected from a table row by row (`mulsel_L`).
    select: bool,
    /// The squaring's Karatsuba form (even `L`): the square formed first from three squares
    /// of `L/2` digits into [`KS0_OFF`], [`KS1_OFF`] and [`KS2_OFF`], then the rows reduce
    /// it (no product terms in the rows; the frame's columns may be negative).
    karatsuba: bool,
    /// The squaring that also selects the next product's multiplier (`sqrsel{G}_L`), with
    /// groups of this many entries: at the end of each row `i`, digit `i` of each entry of
    /// the squaring's group is stored into the selected number under the entry's lane mask
    /// ([`LaneGen::select_stores`]).
    stitch: Option<usize>,
    /// The squaring's schoolbook form: the whole square formed first into `2L` columns at
    /// [`KF_OFF`] ([`LaneGen::full_square`]), then the rows reduce it as the Karatsuba's do
    /// (set with `karatsuba`, whose rows only reduce).
    full: bool,
    /// The product's rows take the multiplicand's and the modulus's digits as the
    /// multiply-adds' memory operands instead of loading each into a register for its two
    /// multiply-adds ([`MEM_PRODUCT_DIGITS`]): twice the loads, but none of them holds a
    /// vector register until it retires.
    mem_operands: bool,
    /// The squaring's reduction by tiles instead of rows ([`LaneGen::tiled_reduce`]).
    tiled: bool,
}

/// Frame positions held in registers, at most.
const LANE_REGS: usize = 22;

/// Byte offsets in the lane constants block (`ifma::LaneConsts`): `n` in lane form (40
/// digits), `k₀` per lane, `2^52 − 1`, 1.
const LN_OFF: usize = 0;
const LK0_OFF: usize = 40 * 64;
const LM52_OFF: usize = LK0_OFF + 64;
const LONE_OFF: usize = LM52_OFF + 8;
const LANE_CONSTS_BYTES: usize = LONE_OFF + 8;
/// Byte offsets in the lane scratch block: `a`, `e`, `f` (41 digits each, the last zero) and
/// the frame's slots.
const LA_OFF: usize = 0;
const LE_OFF: usize = 41 * 64;
const LF_OFF: usize = 82 * 64;
const LCOL_OFF: usize = 123 * 64;
/// The selecting product's per-entry lane masks (all ones where a lane wants the entry), up
/// to [`LANE_SELECT_ENTRIES`].
const LMASK_OFF: usize = LCOL_OFF + 41 * 64;
const LANE_SELECT_ENTRIES: usize = 64;
/// The selecting squarings' mask bytes (one per entry, up to 64).
const LSELMASK_OFF: usize = LMASK_OFF + LANE_SELECT_ENTRIES * 64;
const LANE_SCRATCH_BYTES: usize = LSELMASK_OFF + 64;
/// The Karatsuba squaring's three half squares (`L` columns each) and `|a_lo − a_hi|` (`L/2`
/// digits), over the arrays it does not use: `e`, `f` and the selecting product's masks.
const KS0_OFF: usize = LE_OFF;
const KS1_OFF: usize = LF_OFF;
const KS2_OFF: usize = LMASK_OFF;
const KD_OFF: usize = LMASK_OFF + 40 * 64;
const _: () = assert!(KD_OFF + 20 * 64 <= LANE_SCRATCH_BYTES);
/// The schoolbook squaring's `2L` columns, over `e` and `f` (82 digits together).
const KF_OFF: usize = LE_OFF;
/// Bytes from one table entry to the next for the selecting product: a lane-form number of
/// up to 40 digits (`ifma::lanes::LaneNum`).
const LANE_ENTRY_BYTES: usize = 8 * 40 * 8;

impl LaneGen {
    fn new(l: usize, kind: Kind) -> Self {
        let regs = (l + 2).min(LANE_REGS);
        LaneGen {
            l,
            kind,
            s: String::new(),
            pos: (0..regs).collect(),
            spare: regs,
            flip: 0,
            select: false,
            karatsuba: false,
            stitch: None,
            full: false,
            mem_operands: false,
            tiled: false,
        }
    }
    fn regs(&self) -> usize {
        self.pos.len()
    }
    fn z(i: usize) -> String {
        format!("zmm{i}")
    }
    fn fixed(&self, k: usize) -> String {
        Self::z(self.regs() + 1 + k)
    }
    fn m(&self) -> String {
        self.fixed(0)
    }
    fn c(&self) -> String {
        self.fixed(1)
    }
    fn t(&self, k: usize) -> String {
        self.fixed(2 + k)
    }
    /// The current (`k = 0`) and previous (`k = 1`) multiplicand digit, and modulus digit.
    fn av(&self, k: usize) -> String {
        self.fixed(4 + (k + self.flip) % 2)
    }
    fn nv(&self, k: usize) -> String {
        // The Karatsuba rows take the modulus digits in the multiplicand digits' registers.
        let base = if self.karatsuba { 4 } else { 6 };
        self.fixed(base + (k + self.flip) % 2)
    }
    /// The Karatsuba squaring's form (see [`LaneGen::karatsuba`]). Its rows use neither
    /// `a`'s digits nor a multiplier, so those three registers hold frame positions instead:
    /// up to [`LANE_REGS`] + 3 of them, three fewer spilled to the scratch at 30 to 40
    /// digits (on the Sapphire Rapids class Xeon, model 167 with AMX, the 30- and 40-digit
    /// squarings took about 5–10 % less time; docs/performance.md, session eleven).
    fn karatsuba_rows(&mut self) {
        self.karatsuba = true;
        let regs = (self.l + 2).min(LANE_REGS + 3);
        self.pos = (0..regs).collect();
        self.spare = regs;
    }
    fn b(&self) -> String {
        self.fixed(8)
    }
    fn op(&mut self, line: &str) {
        writeln!(self.s, "            \"{line}\",").unwrap();
    }
    fn p(&self, k: usize) -> String {
        Self::z(self.pos[k])
    }
    fn slot(&self, p: usize) -> String {
        format!("zmmword ptr [rdx + {}]", LCOL_OFF + 64 * (p - self.regs()))
    }
    fn n_mem(r: usize) -> String {
        format!("zmmword ptr [rsi + {}]", LN_OFF + 64 * r)
    }

    /// The multiplicand of row `i` at digit `j` (`None`: zero, below the squaring's row, and
    /// always in the Karatsuba squaring, whose rows carry no product terms): `a` for the
    /// product; `aᵢ`, `fᵢ₊₁`, `eⱼ` for the squaring.
    fn x_src(&self, i: usize, j: usize) -> Option<String> {
        if j >= self.l || self.karatsuba {
            return None;
        }
        match self.kind {
            Kind::Mul => Some(format!("zmmword ptr [r8 + {}]", LA_OFF + 64 * j)),
            Kind::Sqr => {
                let off = if j < i {
                    return None;
                } else if j == i {
                    LA_OFF
                } else if j == i + 1 {
                    LF_OFF
                } else {
                    LE_OFF
                };
                Some(format!("zmmword ptr [rdx + {}]", off + 64 * j))
            }
        }
    }

    /// Moves the current digits to the previous ones and loads multiplicand digit `j` of row
    /// `k` and modulus digit `jn` as the current ones (zero past the top).
    fn load_digits(&mut self, k: usize, j: usize, jn: usize) {
        // The current digits become the previous ones by swapping the registers' roles.
        self.flip ^= 1;
        let (a0, n0) = (self.av(0), self.nv(0));
        match self.x_src(k, j) {
            Some(_) if self.mem_operands => {}
            Some(src) => self.op(&format!("vmovdqu64 {a0}, {src}")),
            None if self.karatsuba => {}
            None => self.op(&format!("vpxord {a0}, {a0}, {a0}")),
        }
        if jn < self.l && self.mem_operands {
            // Read by the multiply-adds themselves.
        } else if jn < self.l {
            self.op(&format!("vmovdqu64 {n0}, {}", Self::n_mem(jn)));
        } else {
            self.op(&format!("vpxord {n0}, {n0}, {n0}"));
        }
    }

    /// Position `q`'s terms at row `i` into `dst`: the reduction's `lo(n_q·m) + hi(n_{q−1}·m)`
    /// (current and previous modulus digits) and row `i+1`'s product terms `lo(x_{q−1}·b) +
    /// hi(x_{q−2}·b)` (current and previous multiplicand digits), the latter first.
    fn terms(&mut self, dst: &str, i: usize, q: usize) {
        let (a0, a1, n0, n1, b, m) = (
            self.av(0),
            self.av(1),
            self.nv(0),
            self.nv(1),
            self.b(),
            self.m(),
        );
        let k = i + 1;
        let mem = self.mem_operands;
        if k < self.l {
            if let Some(src) = q.checked_sub(1).and_then(|j| self.x_src(k, j)) {
                let a0 = if mem { src } else { a0 };
                self.op(&format!("vpmadd52luq {dst}, {b}, {a0}"));
            }
            if let Some(src) = q.checked_sub(2).and_then(|j| self.x_src(k, j)) {
                let a1 = if mem { src } else { a1 };
                self.op(&format!("vpmadd52huq {dst}, {b}, {a1}"));
            }
        }
        if q < self.l {
            let n0 = if mem { Self::n_mem(q) } else { n0 };
            self.op(&format!("vpmadd52luq {dst}, {m}, {n0}"));
        }
        if q >= 1 && q <= self.l {
            let n1 = if mem { Self::n_mem(q - 1) } else { n1 };
            self.op(&format!("vpmadd52huq {dst}, {m}, {n1}"));
        }
    }

    /// The multiplier of row `k` into B: `b_k` for the product ([rcx]), `a_k` for the square.
    /// The selecting product ORs digit `k` of every table entry at [rcx] (`r9` of them,
    /// [`LANE_ENTRY_BYTES`] apart) under its lane mask into B: the table scan spread over
    /// the rows, its loads among the multiply-adds instead of in a burst before them. T0
    /// holds the mask (it is free until the row's next quotient).
    fn load_b(&mut self, k: usize) {
        let b = self.b();
        if self.select {
            let t0 = self.t(0);
            self.op(&format!("vpxord {b}, {b}, {b}"));
            self.op(&format!("lea r12, [rdx + {LMASK_OFF}]"));
            self.op(&format!("lea r13, [rcx + {}]", 64 * k));
            self.op("mov r11, r9");
            self.op("3:");
            self.op(&format!("vmovdqa64 {t0}, zmmword ptr [r12]"));
            self.op(&format!("vpternlogq {b}, {t0}, zmmword ptr [r13], 0xf8"));
            self.op("add r12, 64");
            self.op(&format!("add r13, {LANE_ENTRY_BYTES}"));
            self.op("dec r11");
            self.op("jnz 3b");
            return;
        }
        match self.kind {
            Kind::Mul => self.op(&format!("vmovdqu64 {b}, zmmword ptr [rcx + {}]", 64 * k)),
            Kind::Sqr => self.op(&format!(
                "vmovdqu64 {b}, zmmword ptr [rdx + {}]",
                LA_OFF + 64 * k
            )),
        }
    }

    /// The quotient of position 0 into M and its carry `⌈t₀/2^52⌉` into C.
    fn quotient(&mut self) {
        let (m, c, p0) = (self.m(), self.c(), self.p(0));
        self.op(&format!("vpxord {m}, {m}, {m}"));
        self.op(&format!(
            "vpmadd52luq {m}, {p0}, zmmword ptr [rsi + {LK0_OFF}]"
        ));
        self.op(&format!(
            "vpaddq {c}, {p0}, qword ptr [rsi + {LM52_OFF}]{{{{1to8}}}}"
        ));
        let sr = self.carry_shift();
        self.op(&format!("{sr} {c}, {c}, 52"));
    }

    /// Row `i` (its quotient in M and carry in C already): position 1 completed (the chain),
    /// the next row's quotient at once, then every other position with this row's reduction
    /// terms and the next row's product terms; the frame moves down one position.
    fn row(&mut self, i: usize) {
        let l = self.l;
        let regs = self.regs();
        let (m, c, t1) = (self.m(), self.c(), self.t(1));
        let p1 = self.p(1);
        let k = i + 1;
        if k < l && !self.karatsuba {
            self.load_b(k);
        }
        // Position 1: the next row's product term there (it does not wait for m), then the
        // reduction's lo(n₁·m), hi(n₀·m) and the carry.
        let b = self.b();
        if k < l {
            if let Some(src) = self.x_src(k, 0) {
                self.op(&format!("vpmadd52luq {p1}, {b}, {src}"));
            }
        }
        let n = self.nv(0);
        self.op(&format!("vmovdqu64 {n}, {}", Self::n_mem(0)));
        self.load_digits(k, 0, 1);
        self.op(&format!("vpxord {t1}, {t1}, {t1}"));
        let (n0, n1) = (self.nv(0), self.nv(1));
        // (With memory operands, load_digits left n₁ in memory; n₀ is loaded above.)
        let n0 = if self.mem_operands {
            Self::n_mem(1)
        } else {
            n0
        };
        self.op(&format!("vpmadd52luq {t1}, {m}, {n0}"));
        self.op(&format!("vpmadd52huq {p1}, {m}, {n1}"));
        self.op(&format!("vpaddq {p1}, {p1}, {c}"));
        self.op(&format!("vpaddq {p1}, {p1}, {t1}"));
        // The next quotient from position 1, before the bulk (the core issues the oldest
        // ready instruction first). M and C are rewritten only after the bulk has read them:
        // the next quotient goes to T0/T1 and moves at the end.
        let (t0, t1b) = (self.t(0), self.t(1));
        self.op(&format!("vpxord {t0}, {t0}, {t0}"));
        self.op(&format!(
            "vpmadd52luq {t0}, {p1}, zmmword ptr [rsi + {LK0_OFF}]"
        ));
        self.op(&format!(
            "vpaddq {t1b}, {p1}, qword ptr [rsi + {LM52_OFF}]{{{{1to8}}}}"
        ));
        let sr = self.carry_shift();
        self.op(&format!("{sr} {t1b}, {t1b}, 52"));
        // Positions 2 .. regs−1 in registers.
        for q in 2..regs {
            self.load_digits(k, q - 1, q);
            let dst = self.p(q);
            if q <= l + 1 {
                self.terms(&dst, i, q);
            }
        }
        // Positions regs ..= l+1 in slots: position `regs` comes into the spare register (it
        // becomes the last register position), the others move down a slot; the top is new.
        if regs <= l + 1 {
            let tmp = self.c();
            for q in regs..=l + 1 {
                self.load_digits(k, q - 1, q);
                let dst = if q == regs {
                    Self::z(self.spare)
                } else {
                    tmp.clone()
                };
                if q <= l {
                    let slot = self.slot(q);
                    self.op(&format!("vmovdqu64 {dst}, {slot}"));
                } else if self.karatsuba {
                    self.column(&dst, i + l + 1);
                } else {
                    self.op(&format!("vpxord {dst}, {dst}, {dst}"));
                }
                self.terms(&dst, i, q);
                if q > regs {
                    let slot = self.slot(q - 1);
                    self.op(&format!("vmovdqu64 {slot}, {dst}"));
                }
            }
        }
        // The next quotient and carry into place.
        self.op(&format!("vmovdqa64 {m}, {t0}"));
        self.op(&format!("vmovdqa64 {c}, {t1b}"));
        if let Some(group) = self.stitch {
            self.select_stores(i, group);
        }
        // The shift: position p ← p+1; position 0's register is the new spare (or, with
        // every position in registers, the new top, cleared).
        let old0 = self.pos.remove(0);
        if regs <= l + 1 {
            self.pos.push(self.spare);
            self.spare = old0;
        } else {
            if self.karatsuba {
                self.column(&Self::z(old0), i + l + 2);
            } else {
                self.op(&format!(
                    "vpxord {}, {}, {}",
                    Self::z(old0),
                    Self::z(old0),
                    Self::z(old0)
                ));
            }
            self.pos.push(old0);
        }
    }

    /// The stitched selection's work in row `i` of a squaring (T0 is free between the
    /// row's end and the next row's quotient): digit `i` of each of the group's entries (from
    /// `r9`, [`LANE_ENTRY_BYTES`] apart) stored into the selected number at `r10` under the
    /// entry's lane mask (`k1`–`k7`, set at the squaring's start from the bytes at `r12`, so
    /// a group has at most seven entries). Loads, mask loads and masked stores only: nothing that
    /// takes a vector-arithmetic or a scalar port's slot. Each lane's digit is written by
    /// exactly one entry (its window digit's), and every entry's digit is read whatever the
    /// masks hold.
    fn select_stores(&mut self, i: usize, group: usize) {
        let t0 = self.t(0);
        self.select_stores_via(&t0, i, group);
    }

    /// [`LaneGen::select_stores`] through the register `t0`.
    fn select_stores_via(&mut self, t0: &str, i: usize, group: usize) {
        for g in 0..group {
            self.op(&format!(
                "vmovdqu64 {t0}, zmmword ptr [r9 + {}]",
                g * LANE_ENTRY_BYTES + 64 * i
            ));
            let k = g + 1;
            self.op(&format!(
                "vmovdqu64 zmmword ptr [r10 + {}]{{{{k{k}}}}}, {t0}",
                64 * i
            ));
        }
    }

    /// The frame's value (positions `0..L`) brought to exact 52-bit digits by one serial
    /// carry pass (the numbers are in separate lanes) and stored to [`out`] (and kept in the
    /// position registers where they are).
    fn normalise_store(&mut self, out: &str) {
        let (c, t0) = (self.c(), self.t(0));
        self.op(&format!("vpxord {c}, {c}, {c}"));
        for p in 0..self.l {
            let x = if p < self.regs() {
                self.p(p)
            } else {
                let slot = self.slot(p);
                self.op(&format!("vmovdqu64 {t0}, {slot}"));
                t0.clone()
            };
            self.op(&format!("vpaddq {x}, {x}, {c}"));
            let sr = self.carry_shift();
            self.op(&format!("{sr} {c}, {x}, 52"));
            self.op(&format!(
                "vpandq {x}, {x}, qword ptr [rsi + {LM52_OFF}]{{{{1to8}}}}"
            ));
            self.op(&format!("vmovdqu64 zmmword ptr [{out} + {}], {x}", 64 * p));
        }
    }

    /// The frame set to row 0's product terms (`lo(x_j·b₀)` at position j, `hi` at j+1, slots
    /// included), and row 0's quotient.
    fn start(&mut self) {
        let l = self.l;
        let sp = Self::z(self.spare);
        self.op(&format!("vpxord {sp}, {sp}, {sp}"));
        for q in self.regs()..=l + 1 {
            let slot = self.slot(q);
            if q <= l {
                self.op(&format!("vmovdqu64 {slot}, {sp}"));
            }
        }
        self.load_b(0);
        let (b, t0) = (self.b(), self.t(0));
        let a = self.av(0);
        self.op(&format!("vpxord {a}, {a}, {a}"));
        for q in 0..=l {
            self.flip ^= 1;
            let (a0, a1) = (self.av(0), self.av(1));
            match self.x_src(0, q) {
                Some(src) => self.op(&format!("vmovdqu64 {a0}, {src}")),
                None => self.op(&format!("vpxord {a0}, {a0}, {a0}")),
            }
            let in_reg = q < self.regs();
            let dst = if in_reg { self.p(q) } else { t0.clone() };
            self.op(&format!("vpxord {dst}, {dst}, {dst}"));
            if q < l && self.x_src(0, q).is_some() {
                self.op(&format!("vpmadd52luq {dst}, {b}, {a0}"));
            }
            if q >= 1 && self.x_src(0, q - 1).is_some() {
                self.op(&format!("vpmadd52huq {dst}, {b}, {a1}"));
            }
            if !in_reg {
                let slot = self.slot(q);
                self.op(&format!("vmovdqu64 {slot}, {dst}"));
            }
        }
        for q in (l + 1)..self.regs() {
            let r = self.p(q);
            self.op(&format!("vpxord {r}, {r}, {r}"));
        }
        self.quotient();
    }

    /// The shift that takes a column's carry: arithmetic in the Karatsuba squaring, whose
    /// columns may be negative, logical elsewhere.
    fn carry_shift(&self) -> &'static str {
        if self.karatsuba {
            "vpsraq"
        } else {
            "vpsrlq"
        }
    }

    /// Column `c` of the Karatsuba square into `dst`: `a² = S₀ + (S₀ + S₁ − S₂)·B^h + S₁·B^2h`
    /// (`h = L/2`, `B = 2^52`), from the three half squares' columns in the scratch; in the
    /// schoolbook form, the square's column `c` itself (zero past `2L`).
    fn column(&mut self, dst: &str, c: usize) {
        if self.full {
            if c < 2 * self.l {
                self.op(&format!(
                    "vmovdqu64 {dst}, zmmword ptr [rdx + {}]",
                    KF_OFF + 64 * c
                ));
            } else {
                self.op(&format!("vpxord {dst}, {dst}, {dst}"));
            }
            return;
        }
        let h = self.l / 2;
        let mut parts: Vec<(bool, usize)> = Vec::new();
        if c < 2 * h {
            parts.push((true, KS0_OFF + 64 * c));
        }
        if (h..3 * h).contains(&c) {
            parts.push((true, KS0_OFF + 64 * (c - h)));
            parts.push((true, KS1_OFF + 64 * (c - h)));
            parts.push((false, KS2_OFF + 64 * (c - h)));
        }
        if (2 * h..4 * h).contains(&c) {
            parts.push((true, KS1_OFF + 64 * (c - 2 * h)));
        }
        match parts.first() {
            None => {
                self.op(&format!("vpxord {dst}, {dst}, {dst}"));
                return;
            }
            Some(&(_, off)) => {
                self.op(&format!("vmovdqu64 {dst}, zmmword ptr [rdx + {off}]"));
            }
        }
        for &(add, off) in &parts[1..] {
            let op = if add { "vpaddq" } else { "vpsubq" };
            self.op(&format!("{op} {dst}, {dst}, zmmword ptr [rdx + {off}]"));
        }
    }

    /// The Karatsuba squaring's frame: positions `0..=L+1` (those held) set to the square's
    /// columns, and row 0's quotient.
    fn kstart(&mut self) {
        let l = self.l;
        let t0 = self.t(0);
        for q in 0..=l + 1 {
            if q < self.regs() {
                let r = self.p(q);
                self.column(&r, q);
            } else if q <= l {
                self.column(&t0, q);
                let slot = self.slot(q);
                self.op(&format!("vmovdqu64 {slot}, {t0}"));
            }
        }
        self.quotient();
    }

    /// The three squares of `h = L/2` digits the Karatsuba squaring is made of, from `a` at
    /// [`LA_OFF`]: `S₀ = a_lo²`, `S₁ = a_hi²` and `S₂ = |a_lo − a_hi|²` (the difference's
    /// digits exact, at [`KD_OFF`]), each as `2h` columns.
    fn half_squares(&mut self) {
        let h = self.l / 2;
        // a_lo's square first: it needs only the low digits, which the previous squaring's
        // normalisation writes first, and it runs beside the ripples below.
        self.half_square(LA_OFF, KS0_OFF);
        // |a_lo − a_hi|: a borrow ripple, then (where negative) the complement plus one.
        let d = |j: usize| Self::z(j);
        let (c, sm) = (Self::z(30), Self::z(31));
        let m52 = format!("qword ptr [rsi + {LM52_OFF}]{{{{1to8}}}}");
        self.op(&format!("vpxord {c}, {c}, {c}"));
        for j in 0..h {
            let dj = d(j);
            self.op(&format!(
                "vmovdqu64 {dj}, zmmword ptr [rdx + {}]",
                LA_OFF + 64 * j
            ));
            self.op(&format!(
                "vpsubq {dj}, {dj}, zmmword ptr [rdx + {}]",
                LA_OFF + 64 * (h + j)
            ));
            self.op(&format!("vpaddq {dj}, {dj}, {c}"));
            self.op(&format!("vpsraq {c}, {dj}, 52"));
            self.op(&format!("vpandq {dj}, {dj}, {m52}"));
        }
        self.op(&format!("vpandq {sm}, {c}, {m52}"));
        self.op(&format!("vpsrlq {c}, {c}, 63"));
        for j in 0..h {
            let dj = d(j);
            self.op(&format!("vpxorq {dj}, {dj}, {sm}"));
            self.op(&format!("vpaddq {dj}, {dj}, {c}"));
            self.op(&format!("vpsrlq {c}, {dj}, 52"));
            self.op(&format!("vpandq {dj}, {dj}, {m52}"));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {dj}",
                KD_OFF + 64 * j
            ));
        }
        self.half_square(LA_OFF + 64 * h, KS1_OFF);
        self.half_square(KD_OFF, KS2_OFF);
    }

    /// `x²` for the `h = L/2` exact digits at `src` into `2h` columns at `dst`: row `k` adds
    /// `xₖ·xⱼ` (`j > k`) into a frame of `h + 1` registers (position `p` is column `k + p`);
    /// each column, once no later row reaches it, is doubled, gets its diagonal term and is
    /// stored.
    fn half_square(&mut self, src: usize, dst: usize) {
        self.square_columns(src, dst, self.l / 2);
    }

    /// The schoolbook squaring's square: `a²` as `2L` columns at [`KF_OFF`].
    fn full_square(&mut self) {
        self.square_columns(LA_OFF, KF_OFF, self.l);
    }

    /// `x²` for `h` exact digits at `src` into `2h` columns at `dst` (see
    /// [`LaneGen::half_square`]); the top digits stay in the registers the frame leaves free.
    fn square_columns(&mut self, src: usize, dst: usize, h: usize) {
        assert!(h + 3 <= 32, "the square's frame in registers");
        let mut frame: Vec<usize> = (0..=h).collect();
        let (b, t) = (Self::z(h + 1), Self::z(h + 2));
        let held = (32 - (h + 3)).min(h);
        let hold_from = h - held;
        let x = |j: usize| format!("zmmword ptr [rdx + {}]", src + 64 * j);
        let xr = |j: usize| Self::z(h + 3 + (j - hold_from));
        for j in hold_from..h {
            self.op(&format!("vmovdqu64 {}, {}", xr(j), x(j)));
        }
        for &r in &frame {
            self.op(&format!("vpxord zmm{r}, zmm{r}, zmm{r}"));
        }
        let finish = |g: &mut Self, reg: usize, col: usize| {
            let f = Self::z(reg);
            g.op(&format!("vpaddq {f}, {f}, {f}"));
            let d = col / 2;
            let xd = if d >= hold_from {
                xr(d)
            } else {
                g.op(&format!("vmovdqu64 {t}, {}", x(d)));
                t.clone()
            };
            let half = if col.is_multiple_of(2) {
                "vpmadd52luq"
            } else {
                "vpmadd52huq"
            };
            g.op(&format!("{half} {f}, {xd}, {xd}"));
            g.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {f}",
                dst + 64 * col
            ));
        };
        for k in 0..h {
            if k + 1 < h {
                let bk = if k >= hold_from {
                    xr(k)
                } else {
                    self.op(&format!("vmovdqu64 {b}, {}", x(k)));
                    b.clone()
                };
                for j in k + 1..h {
                    let xj = if j >= hold_from {
                        xr(j)
                    } else {
                        self.op(&format!("vmovdqu64 {t}, {}", x(j)));
                        t.clone()
                    };
                    self.op(&format!("vpmadd52luq zmm{}, {bk}, {xj}", frame[j]));
                    self.op(&format!("vpmadd52huq zmm{}, {bk}, {xj}", frame[j + 1]));
                }
            }
            let r0 = frame.remove(0);
            finish(self, r0, k);
            self.op(&format!("vpxord zmm{r0}, zmm{r0}, zmm{r0}"));
            frame.push(r0);
        }
        for (p, &r) in frame.iter().take(h).enumerate() {
            finish(self, r, h + p);
        }
    }

    fn product(&mut self) {
        if self.karatsuba {
            self.kstart();
        } else {
            self.start();
        }
        for i in 0..self.l {
            self.row(i);
        }
    }

    /// The squaring kernel: `count ≥ 1` squarings of the lane-form number at [rdi] in place.
    fn sqr(&mut self) {
        let l = self.l;
        let t0 = self.t(0);
        // a at [rdi] → scratch; the loop's result goes there too.
        for p in 0..l {
            self.op(&format!("vmovdqu64 {t0}, zmmword ptr [rdi + {}]", 64 * p));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {t0}",
                LA_OFF + 64 * p
            ));
        }
        if self.stitch.is_some() {
            self.op(&format!("lea r12, [rdx + {LSELMASK_OFF}]"));
        }
        self.op("2:");
        if let Some(group) = self.stitch {
            assert!(group <= 7, "a group's masks in k1-k7");
            for g in 0..group {
                self.op(&format!("kmovb k{}, byte ptr [r12 + {g}]", g + 1));
            }
        }
        if self.full {
            self.full_square();
        } else if self.karatsuba {
            self.half_squares();
        } else {
            self.doubled_digits();
        }
        if self.tiled {
            self.tiled_reduce();
        } else {
            let saved = (self.pos.clone(), self.spare);
            self.product();
            self.normalise_store(&format!("rdx + {LA_OFF}"));
            self.pos = saved.0;
            self.spare = saved.1;
        }
        if let Some(group) = self.stitch {
            // The next squaring's group: the entries past this one's.
            self.op(&format!("add r9, {}", group * LANE_ENTRY_BYTES));
            self.op(&format!("add r12, {group}"));
        }
        self.op("dec rcx");
        self.op("jnz 2b");
        for p in 0..l {
            self.op(&format!(
                "vmovdqu64 {t0}, zmmword ptr [rdx + {}]",
                LA_OFF + 64 * p
            ));
            self.op(&format!("vmovdqu64 zmmword ptr [rdi + {}], {t0}", 64 * p));
        }
    }

    /// The quotients (and modulus digits) per tile of [`LaneGen::tiled_reduce`] at `L`
    /// digits: the largest count up to 10 that divides `L` into at least two blocks (the
    /// window of twice as many columns, the block's quotients and two more registers fit
    /// the 32).
    fn tile_size(&self) -> usize {
        (2..=10)
            .rev()
            .find(|&t| self.l.is_multiple_of(t) && self.l >= 2 * t)
            .expect("a tile size")
    }

    /// The square's reduction by tiles of `t` quotients × `t` modulus digits
    /// ([`LaneGen::tile_size`]), in column order: a window of `2t` column registers (columns
    /// `c..c+2t` at base `c`) takes, at each base, the tiles of the earlier quotient blocks
    /// whose products land there (each block's quotients reloaded from the scratch into `t`
    /// registers, each modulus digit loaded once for `2t` multiply-adds), then, below `L`,
    /// the triangle that forms the block's own quotients one by one, or, from `L` up, the
    /// result's exact digits. The columns come from the square ([`LaneGen::column`]) as the
    /// window reaches them; nothing spills, unlike the rows' frame past 25 positions. The
    /// stitched selection's stores are spread over the bases.
    fn tiled_reduce(&mut self) {
        let l = self.l;
        let t = self.tile_size();
        let sr = self.carry_shift();
        let m52 = format!("qword ptr [rsi + {LM52_OFF}]{{{{1to8}}}}");
        let k0 = format!("zmmword ptr [rsi + {LK0_OFF}]");
        let u_mem = |q: usize| format!("zmmword ptr [rdx + {}]", LCOL_OFF + 64 * q);
        let ur = |j: usize| Self::z(2 * t + j);
        let (s, tmp) = (Self::z(3 * t), Self::z(3 * t + 1));
        let mul = self.kind == Kind::Mul;
        if self.select {
            // The multiplier selected from the table first, digit by digit, into the
            // scratch's `e` (unused by products), where the tiles read it.
            for k in 0..l {
                self.load_b(k);
                let b = self.b();
                self.op(&format!(
                    "vmovdqu64 zmmword ptr [rdx + {}], {b}",
                    LE_OFF + 64 * k
                ));
            }
        }
        let out = if mul { "rdi" } else { "rdx" };
        let out_off = if mul { 0 } else { LA_OFF };
        let mut w: Vec<String> = (0..2 * t).map(Self::z).collect();
        for (k, r) in w.clone().iter().enumerate() {
            self.window_column(r, k);
        }
        let last = 2 * l - 2 * t;
        let bases = last / t + 1;
        for (b, c) in (0..=last).step_by(t).enumerate() {
            if let Some(group) = self.stitch {
                for i in b * l / bases..(b + 1) * l / bases {
                    self.select_stores_via(&s, i, group);
                }
            }
            // The product's tiles at this base (digits of `a` from i0, of `b` from j0), then
            // the earlier blocks' reduction tiles (quotients from q0, modulus digits from k0).
            let a_mem = |i: usize| format!("zmmword ptr [r8 + {}]", LA_OFF + 64 * i);
            let select = self.select;
            let b_mem = |j: usize| {
                if select {
                    format!("zmmword ptr [rdx + {}]", LE_OFF + 64 * j)
                } else {
                    format!("zmmword ptr [rcx + {}]", 64 * j)
                }
            };
            if mul {
                for j0 in (0..l).step_by(t).filter(|&j0| j0 <= c && c - j0 < l) {
                    self.tile(&w, &|q| a_mem(c - j0 + q), &|k| b_mem(j0 + k));
                }
            }
            for k0 in (t..l).step_by(t).filter(|&k0| k0 <= c && c - k0 < l) {
                self.tile(&w, &|q| u_mem(c - k0 + q), &Self::n_mem_at(k0));
            }
            if c < l {
                // The triangle: quotient j from column c+j, complete once the quotients
                // before it have added their terms; its carry ⌈t/2^52⌉ (the column plus
                // lo(u·n₀) is a multiple of 2^52) goes up without that multiply-add.
                for j in 0..t {
                    let (wj, wn) = (w[j].clone(), w[j + 1].clone());
                    let u = ur(j);
                    self.op(&format!("vpxord {u}, {u}, {u}"));
                    self.op(&format!("vpmadd52luq {u}, {wj}, {k0}"));
                    self.op(&format!("vpxord {tmp}, {tmp}, {tmp}"));
                    self.op(&format!("vpmadd52luq {tmp}, {u}, {}", Self::n_mem(1)));
                    self.op(&format!("vpmadd52huq {wn}, {u}, {}", Self::n_mem(0)));
                    self.op(&format!("vpaddq {wj}, {wj}, {m52}"));
                    self.op(&format!("{sr} {wj}, {wj}, 52"));
                    self.op(&format!("vpaddq {wn}, {wn}, {wj}"));
                    self.op(&format!("vpaddq {wn}, {wn}, {tmp}"));
                    self.op(&format!("vmovdqu64 {}, {u}", u_mem(c + j)));
                    for k in 1..t {
                        self.op(&format!("vmovdqu64 {s}, {}", Self::n_mem(k)));
                        if k >= 2 {
                            self.op(&format!("vpmadd52luq {}, {u}, {s}", w[j + k]));
                        }
                        self.op(&format!("vpmadd52huq {}, {u}, {s}", w[j + k + 1]));
                    }
                }
            } else {
                self.tiled_digits(&w[..=t], out, out_off + 64 * (c - l), true);
            }
            if c < last {
                w.rotate_left(t);
                for k in 0..t {
                    let r = w[t + k].clone();
                    self.window_column(&r, c + 2 * t + k);
                }
            }
        }
        self.tiled_digits(&w[t..], out, out_off + 64 * (l - t), false);
    }

    /// Column `c` of what the tiled reduction reduces, entering its window: the square's
    /// column for a squaring, zero for a product (whose tiles add its terms).
    fn window_column(&mut self, dst: &str, c: usize) {
        if self.kind == Kind::Mul {
            self.op(&format!("vpxord {dst}, {dst}, {dst}"));
        } else {
            self.column(dst, c);
        }
    }

    /// One tile of [`LaneGen::tiled_reduce`]: `t` multipliers from `u(q)` into registers,
    /// then each of `t` digits from `v(k)` loaded once and multiplied by all of them, `lo`
    /// into window column `q + k` and `hi` into `q + k + 1`.
    fn tile(&mut self, w: &[String], u: &dyn Fn(usize) -> String, v: &dyn Fn(usize) -> String) {
        let t = self.tile_size();
        let ur = |j: usize| Self::z(2 * t + j);
        let s = Self::z(3 * t);
        for q in 0..t {
            self.op(&format!("vmovdqu64 {}, {}", ur(q), u(q)));
        }
        for k in 0..t {
            self.op(&format!("vmovdqu64 {s}, {}", v(k)));
            for q in 0..t {
                self.op(&format!("vpmadd52luq {}, {}, {s}", w[q + k], ur(q)));
                self.op(&format!("vpmadd52huq {}, {}, {s}", w[q + k + 1], ur(q)));
            }
        }
    }

    /// `k ↦` modulus digit `k0 + k` in memory.
    fn n_mem_at(k0: usize) -> impl Fn(usize) -> String {
        move |k| Self::n_mem(k0 + k)
    }

    /// The result's digits from the first `t` columns in `w` (each holding its share of the
    /// carry below it): the carry moved up (into `w[t]` too when `up`), each digit masked and
    /// stored from `[base + off]` on.
    fn tiled_digits(&mut self, w: &[String], base: &str, off: usize, up: bool) {
        let t = self.tile_size();
        let sr = self.carry_shift();
        let s = Self::z(3 * t);
        for j in 0..t {
            let x = &w[j];
            let carry = j + 1 < t || up;
            if carry {
                self.op(&format!("{sr} {s}, {x}, 52"));
            }
            self.op(&format!(
                "vpandq {x}, {x}, qword ptr [rsi + {LM52_OFF}]{{{{1to8}}}}"
            ));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [{base} + {}], {x}",
                off + 64 * j
            ));
            if carry {
                let nx = &w[j + 1];
                self.op(&format!("vpaddq {nx}, {nx}, {s}"));
            }
        }
    }

    /// The doubled digits the squaring's rows multiply by, from `a` at [`LA_OFF`]: `f = 2a mod
    /// 2^52` and `e = f + (a_{j−1} >> 51)`.
    fn doubled_digits(&mut self) {
        let (t0, t1, c) = (self.t(0), self.t(1), self.c());
        self.op(&format!("vpxord {t1}, {t1}, {t1}"));
        for p in 0..self.l {
            self.op(&format!(
                "vmovdqu64 {t0}, zmmword ptr [rdx + {}]",
                LA_OFF + 64 * p
            ));
            self.op(&format!("vpaddq {c}, {t0}, {t0}"));
            self.op(&format!(
                "vpandq {c}, {c}, qword ptr [rsi + {LM52_OFF}]{{{{1to8}}}}"
            ));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {c}",
                LF_OFF + 64 * p
            ));
            self.op(&format!("vpaddq {c}, {c}, {t1}"));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {c}",
                LE_OFF + 64 * p
            ));
            self.op(&format!("vpsrlq {t1}, {t0}, 51"));
        }
    }

    /// The product kernel: [rdi] = [r8]·[rcx]·R⁻¹ (the first factor copied to the scratch by
    /// the caller).
    fn mul(&mut self) {
        if self.tiled {
            self.tiled_reduce();
        } else {
            self.product();
            self.normalise_store("rdi");
        }
    }
}

fn clobbers() -> String {
    let mut s = String::new();
    for z in 0..32 {
        writeln!(s, "            out(\"zmm{z}\") _,").unwrap();
    }
    for k in 1..8 {
        writeln!(s, "            out(\"k{k}\") _,").unwrap();
    }
    for r in ["rax", "r9", "r10", "r11", "r12", "r13", "r14", "r15"] {
        writeln!(s, "            out(\"{r}\") _,").unwrap();
    }
    s
}

/// The 512-bit and 128-bit multiply-adds in one squaring (the loop body) or one product of
/// a kernel's text.
fn count_multiply_adds(text: &str, kind: Kind) -> (usize, usize) {
    let body = match kind {
        Kind::Sqr => {
            let start = text.find("\"2:\"").expect("the squaring loop");
            let end = text.find("\"dec rcx\"").expect("the squaring loop");
            &text[start..end]
        }
        Kind::Mul => text,
    };
    let ops = body.lines().filter(|l| l.contains("vpmadd52"));
    let (z, x): (Vec<&str>, Vec<&str>) = ops.partition(|l| !l.contains("q xmm"));
    (z.len(), x.len())
}

fn kernel(nv: usize, steps: usize, kind: Kind, w: usize) -> String {
    let mut g = Gen::new(nv, steps, kind, w);
    match kind {
        Kind::Sqr => g.sqr(),
        Kind::Mul => g.mul(),
    }
    g.s
}

/// Writes the duo kernels of `w` digits per register (4: 512-bit registers, 2: 256-bit) for
/// the (registers, digits) pairs `kits`, their names prefixed by `pre` and ending in the
/// digit count (`{pre}sqr_L`, `{pre}mul_L`, `{pre}norm_L`), and their tables (`{PRE}DIGITS`,
/// `{PRE}NVS`, `{PRE}SQR`, `{PRE}MUL`, `{PRE}MULTIPLY_ADDS`).
fn duo_kernels(code: &mut String, w: usize, pre: &str, kits: &[(usize, usize)]) {
    let up = pre.to_uppercase();
    let bits = 128 * w;
    let mut counts = String::new();
    for &(nv, l) in kits {
        let (sz, sx) = count_multiply_adds(&kernel(nv, l, Kind::Sqr, w), Kind::Sqr);
        let (mz, mx) = count_multiply_adds(&kernel(nv, l, Kind::Mul, w), Kind::Mul);
        writeln!(counts, "    [{sz}, {sx}, {mz}, {mx}],").unwrap();
    }
    write!(
        code,
        "
/// Multiply-adds per operation of the {bits}-bit kernels, per digit count in
/// [`{up}DIGITS`]' order: {bits}-bit and 128-bit ones in a squaring, then in a product
/// (counted in the text this script wrote).
pub(super) const {up}MULTIPLY_ADDS: [[usize; 4]; {len}] = [
{counts}];
",
        len = kits.len(),
    )
    .unwrap();
    for &(nv, l) in kits {
        let sqr = kernel(nv, l, Kind::Sqr, w);
        let mul = kernel(nv, l, Kind::Mul, w);
        let mut g = Gen::new(nv, l, Kind::Mul, w);
        g.norm();
        let norm = g.s;
        let clob = clobbers();
        write!(
            code,
            "
/// `count ≥ 1` squarings of the interleaved number at `x` in place, {l} digits in {bits}-bit
/// registers.
///
/// # Safety
/// AVX512F, AVX512VL and AVX512IFMA; `x` readable and writable for {x} bytes, `consts` and
/// `scratch` as [`CONSTS_BYTES`] and [`SCRATCH_BYTES`] say.
#[inline(never)]
pub(super) unsafe fn {pre}sqr_{l}(x: *mut u64, consts: *const u64, scratch: *mut u64, count: usize) {{
    // SAFETY: the caller's contract; the block uses only its operands' memory.
    unsafe {{
        core::arch::asm!(
{sqr}            inout(\"rdi\") x => _,
            inout(\"rsi\") consts => _,
            inout(\"rdx\") scratch => _,
            inout(\"rcx\") count => _,
            out(\"r8\") _,
{clob}            options(nostack),
        );
    }}
}}

/// `out = a·b·R⁻¹` for interleaved numbers of {l} digits in {bits}-bit registers.
///
/// # Safety
/// As for [`{pre}sqr_{l}`]; `a` readable for {x} bytes, `b` for {bx} bytes (zero past the
/// digits), `out` writable for {x} bytes.
#[inline(never)]
pub(super) unsafe fn {pre}mul_{l}(out: *mut u64, consts: *const u64, a: *const u64, b: *const u64, scratch: *mut u64) {{
    // SAFETY: the caller's contract; the block uses only its operands' memory.
    unsafe {{
        core::arch::asm!(
{mul}            inout(\"rdi\") out => _,
            inout(\"rsi\") consts => _,
            inout(\"rdx\") a => _,
            inout(\"rcx\") b => _,
            inout(\"r8\") scratch => _,
{clob}            options(nostack),
        );
    }}
}}

/// The normalisation of `{pre}sqr_{l}` and `{pre}mul_{l}` alone, in place, for the tests.
///
/// # Safety
/// As for [`{pre}sqr_{l}`]; `x` readable and writable for {x} bytes.
#[cfg(test)]
pub(super) unsafe fn {pre}norm_{l}(x: *mut u64, consts: *const u64) {{
    // SAFETY: the caller's contract; the block uses only its operands' memory.
    unsafe {{
        core::arch::asm!(
{norm}            inout(\"rdi\") x => _,
            inout(\"rsi\") consts => _,
            out(\"r8\") _,
{clob}            options(nostack),
        );
    }}
}}
",
            x = 16 * w * nv,
            bx = 16 * w * nv + 48,
        )
        .unwrap();
    }
    let list = |f: &str| {
        kits.iter()
            .map(|(_, l)| format!("{pre}{f}_{l}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let digits: Vec<usize> = kits.iter().map(|&(_, l)| l).collect();
    let nvs: Vec<usize> = kits.iter().map(|&(nv, _)| nv).collect();
    write!(
        code,
        "
/// The digit counts of the {bits}-bit kernels: the one list every dispatch reads.
pub(super) const {up}DIGITS: [usize; {len}] = {digits:?};
/// The registers per number of the {bits}-bit kernels ({w} digits each), in [`{up}DIGITS`]'
/// order.
#[cfg(test)]
pub(super) const {up}NVS: [usize; {len}] = {nvs:?};
/// The {bits}-bit squaring kernels, in [`{up}DIGITS`]' order.
pub(super) const {up}SQR: [SqrFn; {len}] = [{sqr}];
/// The {bits}-bit product kernels, in [`{up}DIGITS`]' order.
pub(super) const {up}MUL: [MulFn; {len}] = [{mul}];
/// The {bits}-bit normalisations, in [`{up}DIGITS`]' order, for the tests.
#[cfg(test)]
pub(super) const {up}NORM: [unsafe fn(*mut u64, *const u64); {len}] = [{norm}];
",
        len = kits.len(),
        sqr = list("sqr"),
        mul = list("mul"),
        norm = list("norm"),
    )
    .unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("duo_asm.rs");
    let mut code = format!(
        "// Generated by build.rs: the duo form's kernels (see ifma_duo.rs). Do not edit.

/// Bytes of the constants block the kernels read.
pub(super) const CONSTS_BYTES: usize = {CONSTS_BYTES};
/// Bytes of the scratch block the kernels use.
pub(super) const SCRATCH_BYTES: usize = {SCRATCH_BYTES};
/// Words of one interleaved array in the constants block.
pub(super) const ARR: usize = {ARR};
"
    );
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        duo_kernels(&mut code, 4, "", &NVS);
        duo_kernels(&mut code, 2, "y", &YNVS);
        code.push_str(
            "
/// A squaring kernel's signature.
pub(super) type SqrFn = unsafe fn(*mut u64, *const u64, *mut u64, usize);
/// A product kernel's signature.
pub(super) type MulFn = unsafe fn(*mut u64, *const u64, *const u64, *const u64, *mut u64);
",
        );
    }
    fs::write(out, code).unwrap();
    lanes_main();
}

/// The digit counts the lane form compiles (`ifma::COMPILED_DIGITS`).
const LANE_DIGITS: [usize; 9] = [10, 14, 15, 20, 27, 30, 32, 36, 40];

/// The group sizes of the squarings that select the next multiplier (`sqrsel{G}_L`): the
/// entries each of a window's squarings takes, `⌈2^w / w⌉` for windows of 4 and 5 bits.
const STITCH_GROUPS: [usize; 2] = [4, 7];

/// The smallest digit count whose squaring takes the Karatsuba form (even counts only). On
/// the Zen 4 it was level at 10 digits and 2.5–8 % faster from 14 to 40 (docs/performance.md).
const KARATSUBA_FROM: usize = 14;

/// The digit counts that also have the schoolbook squarings (`ssqr_L`, `ssqrsel{G}_L`,
/// [`LaneGen::full_square`]): where the square's frame, its multiplier and one digit fit the
/// 32 registers (`L + 3 ≤ 32`) and the form was measured faster than the standard one on the
/// Sapphire Rapids class: 14, 15 and 20 digits (at 10 it was level to 5 % slower, at 27
/// slower; docs/performance.md, session twelve).
const SCHOOLBOOK_DIGITS: [usize; 3] = [14, 15, 20];

/// The digit counts that also have the tiled squarings (`tsqr_L`, `tsqrsel{G}_L`,
/// [`LaneGen::tiled_reduce`]): where the rows' frame (`L + 2` positions) no longer fits the
/// registers and spills, and the counts divide into tiles of 8 to 10 digits. At 20 digits,
/// whose frame fits, the tiled reduction was level with the rows on the Sapphire Rapids
/// class (docs/performance.md, session fourteen).
const TILED_DIGITS: [usize; 5] = [27, 30, 32, 36, 40];

/// Which squaring a lane generator writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Square {
    /// Karatsuba from [`KARATSUBA_FROM`] digits (even counts), the doubled digits below and at
    /// odd counts.
    Standard,
    /// The whole square by schoolbook rows, then the reduction ([`LaneGen::full_square`]).
    Schoolbook,
    /// The square as in the standard form at even counts (Karatsuba) and by schoolbook rows
    /// at odd ones, then the reduction by tiles ([`LaneGen::tiled_reduce`]).
    Tiled,
}

/// A lane generator for the squaring of `l` digits in the form `square`.
fn lane_sqr_gen(l: usize, square: Square) -> LaneGen {
    let mut g = LaneGen::new(l, Kind::Sqr);
    if square == Square::Tiled {
        g.karatsuba_rows();
        g.tiled = true;
        if !l.is_multiple_of(2) {
            assert!(l + 3 <= 32, "the schoolbook square's frame in registers");
            g.full = true;
        }
    } else if square == Square::Schoolbook {
        assert!(l + 3 <= 32, "the schoolbook square's frame in registers");
        g.karatsuba_rows();
        g.full = true;
    } else if l.is_multiple_of(2) && l >= KARATSUBA_FROM {
        g.karatsuba_rows();
    }
    g
}

fn lane_kernel(l: usize, kind: Kind) -> String {
    let mut g = match kind {
        Kind::Sqr => lane_sqr_gen(l, Square::Standard),
        Kind::Mul => LaneGen::new(l, kind),
    };
    match kind {
        Kind::Sqr => g.sqr(),
        Kind::Mul => g.mul(),
    }
    g.s
}

/// The squaring that selects the next multiplier as it goes (see [`LaneGen::select_stores`]).
fn lane_sqrsel_kernel(l: usize, group: usize, square: Square) -> String {
    let mut g = lane_sqr_gen(l, square);
    g.stitch = Some(group);
    g.sqr();
    g.s
}

/// The selecting product's text (see [`LaneGen::load_b`]).
fn lane_select_kernel(l: usize) -> String {
    let mut g = LaneGen::new(l, Kind::Mul);
    g.select = true;
    g.mul();
    g.s
}

/// The digit counts that also have products whose rows read the digits as memory operands
/// (`mmul_L`, `mmulsel_L`, [`LaneGen::mem_operands`]): 40, where on the Sapphire Rapids class
/// the product with its digits loaded into registers ran at 63 % of the multiply-add bound
/// against 97 % at 36 digits (a cliff between 36 and 38 that neither the frame's spilled
/// loads nor its stores explained; the vector registers the loads hold until they retire
/// did), and the memory-operand product took 22 % less time (docs/performance.md, session
/// twelve).
const MEM_PRODUCT_DIGITS: [usize; 1] = [40];

/// The product (`select`: the selecting product) of `l` digits with memory operands.
fn lane_mem_product_kernel(l: usize, select: bool) -> String {
    let mut g = LaneGen::new(l, Kind::Mul);
    g.select = select;
    g.mem_operands = true;
    g.mul();
    g.s
}

/// The memory-operand products (`mmul_L`, `mmulsel_L` for [`MEM_PRODUCT_DIGITS`]) and their
/// tables: the same contracts as `mul_L` and `mulsel_L`.
fn mem_product_kernels(code: &mut String, clob: &str, sel_clob: &str) {
    for l in MEM_PRODUCT_DIGITS {
        *code += &mul_wrapper(
            &format!("mmul_{l}"),
            &format!(
                "/// [`mul_{l}`] with the rows' digits read as memory operands (the same results).
///
/// # Safety
/// As for [`mul_{l}`]."
            ),
            &lane_mem_product_kernel(l, false),
            clob,
        );
        *code += &mulsel_wrapper(
            &format!("mmulsel_{l}"),
            &format!(
                "/// [`mulsel_{l}`] with the rows' digits read as memory operands (the same results).
///
/// # Safety
/// As for [`mulsel_{l}`]."
            ),
            &lane_mem_product_kernel(l, true),
            sel_clob,
        );
    }
    let list = |pre: &str| {
        MEM_PRODUCT_DIGITS
            .iter()
            .map(|l| format!("{pre}_{l}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    write!(
        code,
        "
/// The digit counts that also have the memory-operand products.
pub(super) const MEM_PRODUCT_DIGITS: [usize; {len}] = {MEM_PRODUCT_DIGITS:?};
/// The memory-operand products, in [`MEM_PRODUCT_DIGITS`]' order.
pub(super) const MMUL: [MulFn; {len}] = [{mmul}];
/// The memory-operand selecting products, in [`MEM_PRODUCT_DIGITS`]' order.
pub(super) const MMUL_SEL: [MulSelFn; {len}] = [{mmulsel}];
",
        len = MEM_PRODUCT_DIGITS.len(),
        mmul = list("mmul"),
        mmulsel = list("mmulsel"),
    )
    .unwrap();
}

fn lanes_main() {
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("lanes_asm.rs");
    let mut code = format!(
        "// Generated by build.rs: the lane form's kernels (see ifma.rs). Do not edit.

/// Bytes of the constants block the kernels read.
pub(super) const CONSTS_BYTES: usize = {LANE_CONSTS_BYTES};
/// Bytes of the scratch block the kernels use.
pub(super) const SCRATCH_BYTES: usize = {LANE_SCRATCH_BYTES};
/// Byte offset of the selecting product's lane masks in the scratch block.
pub(super) const MASK_OFFSET: usize = {LMASK_OFF};
/// Table entries the selecting product takes at most.
pub(super) const SELECT_ENTRIES: usize = {LANE_SELECT_ENTRIES};
/// Byte offset of the selecting squarings' mask bytes in the scratch block.
pub(super) const SEL_MASK_OFFSET: usize = {LSELMASK_OFF};
/// Bytes from one table entry to the next for the selecting product.
pub(super) const ENTRY_BYTES: usize = {LANE_ENTRY_BYTES};
"
    );
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        let mut counts = String::new();
        for l in LANE_DIGITS {
            let (sz, _) = count_multiply_adds(&lane_kernel(l, Kind::Sqr), Kind::Sqr);
            let (mz, _) = count_multiply_adds(&lane_kernel(l, Kind::Mul), Kind::Mul);
            writeln!(counts, "    [{sz}, {mz}],").unwrap();
        }
        write!(
            code,
            "
/// 512-bit multiply-adds in one squaring and one product, per compiled digit count
/// (counted in the text this script wrote).
pub(super) const MULTIPLY_ADDS: [[usize; 2]; 9] = [
{counts}];
"
        )
        .unwrap();
        let clob = clobbers();
        let sel_clob = clob.replace("            out(\"r9\") _,\n", "");
        let sqrsel_clob = ["r9", "r10"].iter().fold(clob.clone(), |c, r| {
            c.replace(&format!("            out(\"{r}\") _,\n"), "")
        });
        for l in LANE_DIGITS {
            let x = 64 * l;
            code += &sqr_wrapper(
                &format!("sqr_{l}"),
                &format!(
                    "/// `count ≥ 1` squarings of the lane-form number at `x` in place, {l} digits of 8 numbers.
///
/// # Safety
/// AVX512F, AVX512VL and AVX512IFMA; `x` readable and writable for {x} bytes, `consts` and
/// `scratch` as [`CONSTS_BYTES`] and [`SCRATCH_BYTES`] say."
                ),
                &lane_kernel(l, Kind::Sqr),
                &clob,
            );
            code += &mul_wrapper(
                &format!("mul_{l}"),
                &format!(
                    "/// `out = a·b·R⁻¹` for lane-form numbers of {l} digits.
///
/// # Safety
/// As for [`sqr_{l}`]; `a` and `b` readable for {x} bytes, `out` writable for {x} bytes."
                ),
                &lane_kernel(l, Kind::Mul),
                &clob,
            );
            code += &mulsel_wrapper(
                &format!("mulsel_{l}"),
                &format!(
                    "/// `out = a·b·R⁻¹` for lane-form numbers of {l} digits, where lane `u` of `b` is lane `u` of
/// the table entry whose scratch mask (at [`MASK_OFFSET`]) is all ones there: every digit of
/// each of the `entries` entries at `table` ([`ENTRY_BYTES`] apart) is read.
///
/// # Safety
/// As for [`sqr_{l}`]; `a` readable for {x} bytes, `out` writable for {x} bytes, `table`
/// readable for the first {x} bytes of each of `entries` entries, `1 ≤ entries ≤`
/// [`SELECT_ENTRIES`], and the scratch's first `entries` masks set."
                ),
                &lane_select_kernel(l),
                &sel_clob,
            );
        }
        for group in STITCH_GROUPS {
            for l in LANE_DIGITS {
                let x = 64 * l;
                code += &sqrsel_wrapper(
                    &format!("sqrsel{group}_{l}"),
                    &format!(
                        "/// `count ≥ 1` squarings of the lane-form number at `x` in place, {l} digits of 8 numbers,
/// that also select `sel`: lane `u` of `sel` becomes lane `u` of the table entry whose mask
/// byte (in the scratch at [`SEL_MASK_OFFSET`]) has bit `u` set. Squaring `s` (from 0) stores
/// the {group} entries from `{group}·s`, digit `i` of each in its row `i`, under the entries'
/// masks; every digit of each of the `{group}·count` entries is read.
///
/// # Safety
/// As for [`sqr_{l}`]; `table` readable for the first {x} bytes of each of `{group}·count`
/// entries ([`ENTRY_BYTES`] apart), the scratch's first `{group}·count` mask bytes set,
/// exactly one of which has each lane's bit set, `sel` writable for {x} bytes."
                    ),
                    &lane_sqrsel_kernel(l, group, Square::Standard),
                    &sqrsel_clob,
                );
            }
        }
        write!(
            code,
            "
/// The digit counts compiled: the one list every dispatch reads (`ifma::COMPILED_DIGITS`).
pub(super) const DIGITS: [usize; {len}] = {LANE_DIGITS:?};
/// The squaring kernels, in [`DIGITS`]' order.
pub(super) const SQR: [unsafe fn(*mut u64, *const u64, *mut u64, usize); {len}] = [{sqr}];
/// A product kernel's signature.
pub(super) type MulFn = unsafe fn(*mut u64, *const u64, *mut u64, *const u64, *const u64);
/// The product kernels, in [`DIGITS`]' order.
pub(super) const MUL: [MulFn; {len}] = [{mul}];
/// A selecting squaring kernel's signature.
pub(super) type SqrSelFn = unsafe fn(*mut u64, *const u64, *mut u64, usize, *const u64, *mut u64);
/// The entries per squaring of the selecting squarings, in [`SQR_SEL`]'s order.
pub(super) const STITCH_GROUPS: [usize; {groups}] = {STITCH_GROUPS:?};
/// The squaring kernels that select the next multiplier: per group size in
/// [`STITCH_GROUPS`], in [`DIGITS`]' order.
pub(super) const SQR_SEL: [[SqrSelFn; {len}]; {groups}] = [{sqrsel}];
/// A selecting product kernel's signature.
pub(super) type MulSelFn = unsafe fn(*mut u64, *const u64, *mut u64, *const u64, *const u64, usize);
/// The selecting product kernels, in [`DIGITS`]' order.
pub(super) const MUL_SEL: [MulSelFn; {len}] = [{mulsel}];
",
            len = LANE_DIGITS.len(),
            sqr = LANE_DIGITS
                .iter()
                .map(|n| format!("sqr_{n}"))
                .collect::<Vec<_>>()
                .join(", "),
            mul = LANE_DIGITS
                .iter()
                .map(|n| format!("mul_{n}"))
                .collect::<Vec<_>>()
                .join(", "),
            mulsel = LANE_DIGITS
                .iter()
                .map(|n| format!("mulsel_{n}"))
                .collect::<Vec<_>>()
                .join(", "),
            groups = STITCH_GROUPS.len(),
            sqrsel = STITCH_GROUPS
                .iter()
                .map(|g| {
                    let list = LANE_DIGITS
                        .iter()
                        .map(|n| format!("sqrsel{g}_{n}"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    format!("[{list}]")
                })
                .collect::<Vec<_>>()
                .join(", "),
        )
        .unwrap();
        schoolbook_kernels(&mut code, &clob, &sqrsel_clob);
        tiled_kernels(&mut code, &clob, &sel_clob, &sqrsel_clob);
        mem_product_kernels(&mut code, &clob, &sel_clob);
    }
    fs::write(out, code).unwrap();
}

/// The schoolbook squarings (`ssqr_L`, `ssqrsel{G}_L` for [`SCHOOLBOOK_DIGITS`]), their tables
/// and multiply-add counts: the same contracts as `sqr_L` and `sqrsel{G}_L`.
fn schoolbook_kernels(code: &mut String, clob: &str, sqrsel_clob: &str) {
    let mut counts = Vec::new();
    for l in SCHOOLBOOK_DIGITS {
        let does = "each forming the whole square by schoolbook rows before reducing it";
        let text = squaring_kernels(code, "s", l, Square::Schoolbook, does, clob, sqrsel_clob);
        counts.push(count_multiply_adds(&text, Kind::Sqr).0.to_string());
    }
    let list = |f: &dyn Fn(usize) -> String| kernel_list(&SCHOOLBOOK_DIGITS, f);
    write!(
        code,
        "
/// The digit counts that also have the schoolbook squarings.
pub(super) const SCHOOLBOOK_DIGITS: [usize; {len}] = {SCHOOLBOOK_DIGITS:?};
/// The schoolbook squarings, in [`SCHOOLBOOK_DIGITS`]' order.
pub(super) const SSQR: [unsafe fn(*mut u64, *const u64, *mut u64, usize); {len}] = [{ssqr}];
/// The schoolbook selecting squarings: per group size in [`STITCH_GROUPS`], in
/// [`SCHOOLBOOK_DIGITS`]' order.
pub(super) const SSQR_SEL: [[SqrSelFn; {len}]; {groups}] = [{ssqrsel}];
/// 512-bit multiply-adds in one schoolbook squaring, in [`SCHOOLBOOK_DIGITS`]' order.
pub(super) const SCHOOLBOOK_MULTIPLY_ADDS: [usize; {len}] = [{counts}];
",
        len = SCHOOLBOOK_DIGITS.len(),
        groups = STITCH_GROUPS.len(),
        ssqr = list(&|l| format!("ssqr_{l}")),
        ssqrsel = STITCH_GROUPS
            .iter()
            .map(|g| format!("[{}]", list(&|l| format!("ssqrsel{g}_{l}"))))
            .collect::<Vec<_>>()
            .join(", "),
        counts = counts.join(", "),
    )
    .unwrap();
}

/// The squaring of `l` digits in the form `square` as `{pre}sqr_{l}` (its doc says what the
/// form does, `does`) and its selecting squarings `{pre}sqrsel{G}_{l}`, with the contracts of
/// `sqr_L` and `sqrsel{G}_L`; returns the squaring's text.
fn squaring_kernels(
    code: &mut String,
    pre: &str,
    l: usize,
    square: Square,
    does: &str,
    clob: &str,
    sqrsel_clob: &str,
) -> String {
    let text = {
        let mut g = lane_sqr_gen(l, square);
        g.sqr();
        g.s
    };
    *code += &sqr_wrapper(
        &format!("{pre}sqr_{l}"),
        &format!(
            "/// `count ≥ 1` squarings of the lane-form number at `x` in place, {l} digits of 8 numbers,
/// {does} (the results of [`sqr_{l}`]).
///
/// # Safety
/// As for [`sqr_{l}`]."
        ),
        &text,
        clob,
    );
    for group in STITCH_GROUPS {
        *code += &sqrsel_wrapper(
            &format!("{pre}sqrsel{group}_{l}"),
            &format!(
                "/// [`sqrsel{group}_{l}`] with the squarings of [`{pre}sqr_{l}`] (the same results).
///
/// # Safety
/// As for [`sqrsel{group}_{l}`]."
            ),
            &lane_sqrsel_kernel(l, group, square),
            sqrsel_clob,
        );
    }
    text
}

/// `f(l)` for every count of `digits`, joined by commas: a kernel table's entries.
fn kernel_list(digits: &[usize], f: &dyn Fn(usize) -> String) -> String {
    digits.iter().map(|&l| f(l)).collect::<Vec<_>>().join(", ")
}

/// The tiled squarings and products (`tsqr_L`, `tsqrsel{G}_L`, `tmul_L`, `tmulsel_L` for
/// [`TILED_DIGITS`]), their tables and multiply-add counts: the same contracts as `sqr_L`,
/// `sqrsel{G}_L`, `mul_L` and `mulsel_L`.
fn tiled_kernels(code: &mut String, clob: &str, sel_clob: &str, sqrsel_clob: &str) {
    let mut counts = Vec::new();
    for l in TILED_DIGITS {
        let does = "each reducing the square by tiles";
        let text = squaring_kernels(code, "t", l, Square::Tiled, does, clob, sqrsel_clob);
        let product = {
            let mut g = LaneGen::new(l, Kind::Mul);
            g.tiled = true;
            g.mul();
            g.s
        };
        counts.push(format!(
            "[{}, {}]",
            count_multiply_adds(&text, Kind::Sqr).0,
            count_multiply_adds(&product, Kind::Mul).0
        ));
        let select = {
            let mut g = LaneGen::new(l, Kind::Mul);
            g.tiled = true;
            g.select = true;
            g.mul();
            g.s
        };
        *code += &mulsel_wrapper(
            &format!("tmulsel_{l}"),
            &format!(
                "/// [`mulsel_{l}`] with the multiplier selected first and the terms added by tiles as in
/// [`tmul_{l}`] (the same results).
///
/// # Safety
/// As for [`mulsel_{l}`]; `out` must not overlap `a` (its digits are written while `a`'s are
/// still read)."
            ),
            &select,
            sel_clob,
        );
        *code += &mul_wrapper(
            &format!("tmul_{l}"),
            &format!(
                "/// [`mul_{l}`] with the product's and the reduction's terms added by tiles (the same
/// results).
///
/// # Safety
/// As for [`mul_{l}`]; `out` must not overlap `a` or `b` (its digits are written while
/// theirs are still read)."
            ),
            &product,
            clob,
        );
    }
    let list = |f: &dyn Fn(usize) -> String| kernel_list(&TILED_DIGITS, f);
    write!(
        code,
        "
/// The digit counts that also have the tiled squarings.
pub(super) const TILED_DIGITS: [usize; {len}] = {TILED_DIGITS:?};
/// The tiled squarings, in [`TILED_DIGITS`]' order.
pub(super) const TSQR: [unsafe fn(*mut u64, *const u64, *mut u64, usize); {len}] = [{tsqr}];
/// The tiled selecting squarings: per group size in [`STITCH_GROUPS`], in [`TILED_DIGITS`]'
/// order.
pub(super) const TSQR_SEL: [[SqrSelFn; {len}]; {groups}] = [{tsqrsel}];
/// The tiled products, in [`TILED_DIGITS`]' order.
pub(super) const TMUL: [MulFn; {len}] = [{tmul}];
/// The tiled selecting products, in [`TILED_DIGITS`]' order.
pub(super) const TMUL_SEL: [MulSelFn; {len}] = [{tmulsel}];
/// 512-bit multiply-adds in one tiled squaring and one tiled product, in [`TILED_DIGITS`]'
/// order.
pub(super) const TILED_MULTIPLY_ADDS: [[usize; 2]; {len}] = [{counts}];
",
        len = TILED_DIGITS.len(),
        groups = STITCH_GROUPS.len(),
        tsqr = list(&|l| format!("tsqr_{l}")),
        tmul = list(&|l| format!("tmul_{l}")),
        tmulsel = list(&|l| format!("tmulsel_{l}")),
        tsqrsel = STITCH_GROUPS
            .iter()
            .map(|g| format!("[{}]", list(&|l| format!("tsqrsel{g}_{l}"))))
            .collect::<Vec<_>>()
            .join(", "),
        counts = counts.join(", "),
    )
    .unwrap();
}

/// One lane kernel's `asm!` wrapper: `doc` (its doc comment), then `name(sig)` running `text`
/// with the register operands `operands` and the clobbers `clob`.
fn wrapper(name: &str, doc: &str, sig: &str, text: &str, operands: &[&str], clob: &str) -> String {
    let ops: String = operands
        .iter()
        .map(|o| format!("            {o},\n"))
        .collect();
    format!(
        "
{doc}
#[inline(never)]
pub(super) unsafe fn {name}({sig}) {{
    // SAFETY: the caller's contract; the block uses only its operands' memory.
    unsafe {{
        core::arch::asm!(
{text}{ops}{clob}            options(nostack),
        );
    }}
}}
"
    )
}

/// A squaring kernel's wrapper (`sqr_L`'s signature and registers).
fn sqr_wrapper(name: &str, doc: &str, text: &str, clob: &str) -> String {
    wrapper(
        name,
        doc,
        "x: *mut u64, consts: *const u64, scratch: *mut u64, count: usize",
        text,
        &[
            "inout(\"rdi\") x => _",
            "inout(\"rsi\") consts => _",
            "inout(\"rdx\") scratch => _",
            "inout(\"rcx\") count => _",
            "out(\"r8\") _",
        ],
        clob,
    )
}

/// A product kernel's wrapper (`mul_L`'s signature and registers).
fn mul_wrapper(name: &str, doc: &str, text: &str, clob: &str) -> String {
    wrapper(
        name,
        doc,
        "out: *mut u64, consts: *const u64, scratch: *mut u64, b: *const u64, a: *const u64",
        text,
        &[
            "inout(\"rdi\") out => _",
            "inout(\"rsi\") consts => _",
            "inout(\"rdx\") scratch => _",
            "inout(\"rcx\") b => _",
            "inout(\"r8\") a => _",
        ],
        clob,
    )
}

/// A selecting product kernel's wrapper (`mulsel_L`'s signature and registers).
fn mulsel_wrapper(name: &str, doc: &str, text: &str, clob: &str) -> String {
    wrapper(
        name,
        doc,
        "out: *mut u64, consts: *const u64, scratch: *mut u64, table: *const u64, a: *const u64, entries: usize",
        text,
        &[
            "inout(\"rdi\") out => _",
            "inout(\"rsi\") consts => _",
            "inout(\"rdx\") scratch => _",
            "inout(\"rcx\") table => _",
            "inout(\"r8\") a => _",
            "inout(\"r9\") entries => _",
        ],
        clob,
    )
}

/// A selecting squaring kernel's wrapper (`sqrsel{G}_L`'s signature and registers).
fn sqrsel_wrapper(name: &str, doc: &str, text: &str, clob: &str) -> String {
    wrapper(
        name,
        doc,
        "x: *mut u64, consts: *const u64, scratch: *mut u64, count: usize, table: *const u64, sel: *mut u64",
        text,
        &[
            "inout(\"rdi\") x => _",
            "inout(\"rsi\") consts => _",
            "inout(\"rdx\") scratch => _",
            "inout(\"rcx\") count => _",
            "inout(\"r9\") table => _",
            "inout(\"r10\") sel => _",
            "out(\"r8\") _",
        ],
        clob,
    )
}

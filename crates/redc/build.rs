//! Generates the duo form's AVX-512 IFMA kernels (`src/mont/backend/ifma_duo.rs` documents
//! the arithmetic; `duo_asm` there is what this writes).
//!
//! One `asm!` block per operation and digit count: a window's run of squarings and one
//! Montgomery product, each step fully unrolled with a fixed register allocation, in the
//! instruction order the step was designed for. The order matters on an out-of-order core
//! that issues the oldest ready instruction first: a step updates digit position 0, derives
//! the next quotient at once, and only then the other positions and the next step's product
//! terms, so the quotient's chain does not queue behind the bulk of the multiply-adds. LLVM
//! does not keep that order (nor, in the unrolled squaring, its registers: it hoisted every
//! step's products and spilled them), which is why the kernels are written out here.
//!
//! Nothing here depends on a secret: the generator only unrolls loops over public counts.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// Registers per number of digit positions (`L = 4·NV` digits): 3 to 10.
const NVS: std::ops::RangeInclusive<usize> = 3..=10;

/// Byte offsets in the constants block (`ifma_duo::Consts`): `n`, `n` one digit down, `k₀`
/// in every lane pair, `2^52 − 1`, and 1.
const N_OFF: usize = 0;
const ND_OFF: usize = 640;
const K0_OFF: usize = 1280;
const M52_OFF: usize = 1344;
const ONE_OFF: usize = 1352;

/// Byte offsets in the squaring's scratch block: `a`, `e` and `f` (see ifma_duo.rs), each
/// with room for 40 digits of two numbers and the zero digits read past the end.
const A_OFF: usize = 0;
const E_OFF: usize = 704;
const F_OFF: usize = 1408;

struct Gen {
    nv: usize,
    s: String,
}

impl Gen {
    fn l(&self) -> usize {
        4 * self.nv
    }
    fn x(&self, r: usize) -> String {
        format!("zmm{r}")
    }
    fn p(&self, r: usize) -> String {
        format!("zmm{}", self.nv + r)
    }
    fn base(&self) -> usize {
        2 * self.nv
    }
    fn yb(&self, which: usize) -> String {
        format!("zmm{}", self.base() + which)
    }
    fn ybx(&self, which: usize) -> String {
        format!("xmm{}", self.base() + which)
    }
    fn c(&self) -> String {
        format!("zmm{}", self.base() + 2)
    }
    fn cx(&self) -> String {
        format!("xmm{}", self.base() + 2)
    }
    fn t(&self, k: usize) -> String {
        format!("zmm{}", self.base() + 3 + k)
    }
    fn ai(&self) -> String {
        format!("zmm{}", self.base() + 6)
    }
    fn an(&self) -> String {
        format!("zmm{}", self.base() + 7)
    }
    fn m(&self) -> String {
        format!("zmm{}", self.base() + 8)
    }
    fn mx(&self) -> String {
        format!("xmm{}", self.base() + 8)
    }
    fn zero(&self) -> String {
        format!("zmm{}", self.base() + 9)
    }
    /// Whether `k₀`, `n` and `n↓` fit in registers too (one 512-bit load per cycle on Zen 4
    /// makes memory operands as dear as the multiply-adds they feed).
    fn consts_in_regs(&self) -> bool {
        4 * self.nv + 11 <= 32
    }
    fn k0(&self) -> String {
        if self.consts_in_regs() {
            format!("zmm{}", self.base() + 10)
        } else {
            format!("zmmword ptr [rsi + {K0_OFF}]")
        }
    }
    /// `k₀` as a 128-bit operand (the quotient needs lanes 0 and 1 only).
    fn k0x(&self) -> String {
        if self.consts_in_regs() {
            format!("xmm{}", self.base() + 10)
        } else {
            format!("xmmword ptr [rsi + {K0_OFF}]")
        }
    }
    fn n(&self, r: usize) -> String {
        if self.consts_in_regs() {
            format!("zmm{}", self.base() + 11 + r)
        } else {
            format!("zmmword ptr [rsi + {}]", N_OFF + 64 * r)
        }
    }
    fn nd(&self, r: usize) -> String {
        if self.consts_in_regs() {
            format!("zmm{}", self.base() + 11 + self.nv + r)
        } else {
            format!("zmmword ptr [rsi + {}]", ND_OFF + 64 * r)
        }
    }
    fn op(&mut self, line: &str) {
        writeln!(self.s, "            \"{line}\",").unwrap();
    }

    /// The lane masks: k1..k4 = digit position 0..3 of a register (both numbers), k5 and k6 =
    /// positions from 1 and from 2 up (from 3 up is k4).
    fn masks(&mut self) {
        for (k, v) in [
            (1, 0x03),
            (2, 0x0c),
            (3, 0x30),
            (4, 0xc0),
            (5, 0xfc),
            (6, 0xf0),
        ] {
            self.op(&format!("mov eax, {v}"));
            self.op(&format!("kmovw k{k}, eax"));
        }
    }
    fn at_mask(s: usize) -> usize {
        1 + s
    }
    fn from_mask(s: usize) -> Option<usize> {
        match s {
            0 => None,
            1 => Some(5),
            2 => Some(6),
            _ => Some(4),
        }
    }

    fn consts(&mut self) {
        let (m, z) = (self.m(), self.zero());
        self.op(&format!("vpbroadcastq {m}, qword ptr [rsi + {M52_OFF}]"));
        self.op(&format!("vpxord {z}, {z}, {z}"));
        if self.consts_in_regs() {
            let k0 = self.k0();
            self.op(&format!("vmovdqu64 {k0}, zmmword ptr [rsi + {K0_OFF}]"));
            for r in 0..self.nv {
                let (n, nd) = (self.n(r), self.nd(r));
                self.op(&format!(
                    "vmovdqu64 {n}, zmmword ptr [rsi + {}]",
                    N_OFF + 64 * r
                ));
                self.op(&format!(
                    "vmovdqu64 {nd}, zmmword ptr [rsi + {}]",
                    ND_OFF + 64 * r
                ));
            }
        }
    }

    /// The frame prepared for step 0 from the initial product in X: the quotient in `yb(0)`,
    /// the carry added to position 0 after the shift.
    fn prepare(&mut self) {
        let nv = self.nv;
        let (y, x0, c, cx, mx, z) = (
            self.yb(0),
            self.x(0),
            self.c(),
            self.cx(),
            self.mx(),
            self.zero(),
        );
        let (yx, k0x) = (self.ybx(0), self.k0x());
        self.op(&format!("vpxord {yx}, {yx}, {yx}"));
        self.op(&format!("vpmadd52luq {yx}, xmm0, {k0x}"));
        self.op(&format!("vshufi64x2 {y}, {y}, {y}, 0"));
        self.op(&format!("vpaddq {cx}, xmm0, {mx}"));
        self.op(&format!("vpsrlq {cx}, {cx}, 52"));
        for r in 0..nv {
            let (xr, next) = (
                self.x(r),
                if r + 1 < nv { self.x(r + 1) } else { z.clone() },
            );
            self.op(&format!("valignq {xr}, {next}, {xr}, 2"));
        }
        self.op(&format!("vpaddq {x0}, {x0}, {c}"));
    }

    /// Step `i − 1` on the frame (quotient in `yb(cur)`, product terms in P), then the next
    /// quotient into `yb(1 − cur)`; the caller writes the next step's terms afterwards.
    fn advance(&mut self, cur: usize) {
        let nv = self.nv;
        let (yb, yn, c, cx, mx, z) = (
            self.yb(cur),
            self.yb(1 - cur),
            self.c(),
            self.cx(),
            self.mx(),
            self.zero(),
        );
        let (x0, p0) = (self.x(0), self.p(0));
        let (nd0, n0) = (self.nd(0), self.n(0));
        self.op(&format!("vpmadd52luq {x0}, {yb}, {nd0}"));
        self.op(&format!("vpmadd52huq {p0}, {yb}, {n0}"));
        self.op(&format!("vpaddq {x0}, {x0}, {p0}"));
        let (ynx, k0x) = (self.ybx(1 - cur), self.k0x());
        self.op(&format!("vpxord {ynx}, {ynx}, {ynx}"));
        self.op(&format!("vpmadd52luq {ynx}, xmm0, {k0x}"));
        self.op(&format!("vshufi64x2 {yn}, {yn}, {yn}, 0"));
        self.op(&format!("vpaddq {cx}, xmm0, {mx}"));
        self.op(&format!("vpsrlq {cx}, {cx}, 52"));
        for r in 1..nv {
            let (xr, pr, xb) = (self.x(r), self.p(r), self.x(r - 1));
            let (ndr, nr) = (self.nd(r), self.n(r));
            self.op(&format!("vpmadd52luq {xr}, {yb}, {ndr}"));
            self.op(&format!("vpmadd52huq {pr}, {yb}, {nr}"));
            self.op(&format!("vpaddq {xr}, {xr}, {pr}"));
            self.op(&format!("valignq {xb}, {xr}, {xb}, 2"));
            if r == 1 {
                self.op(&format!("vpaddq {x0}, {x0}, {c}"));
            }
        }
        let xl = self.x(nv - 1);
        self.op(&format!("valignq {xl}, {z}, {xl}, 2"));
    }

    /// The last step: the frame's value after it, in X.
    fn finish(&mut self, cur: usize) {
        let yb = self.yb(cur);
        for r in 0..self.nv {
            let (xr, pr) = (self.x(r), self.p(r));
            let (ndr, nr) = (self.nd(r), self.n(r));
            self.op(&format!("vpmadd52luq {xr}, {yb}, {ndr}"));
            self.op(&format!("vpmadd52huq {pr}, {yb}, {nr}"));
            self.op(&format!("vpaddq {xr}, {xr}, {pr}"));
        }
    }

    fn clear_p(&mut self) {
        for r in 0..self.nv {
            let pr = self.p(r);
            self.op(&format!("vpxord {pr}, {pr}, {pr}"));
        }
    }

    /// The product's step-`i` terms `hi(a·bᵢ) + lo(a·bᵢ₊₁)` into P: `a` at [rdx], `b` at
    /// [rcx] (interleaved, zero past the end).
    fn mul_terms(&mut self, i: usize) {
        let (bi, bn) = (self.ai(), self.an());
        self.clear_p();
        self.op(&format!(
            "vbroadcasti32x4 {bi}, xmmword ptr [rcx + {}]",
            16 * i
        ));
        self.op(&format!(
            "vbroadcasti32x4 {bn}, xmmword ptr [rcx + {}]",
            16 * (i + 1)
        ));
        let t = self.t(0);
        for r in 0..self.nv {
            let pr = self.p(r);
            self.op(&format!("vmovdqu64 {t}, zmmword ptr [rdx + {}]", 64 * r));
            self.op(&format!("vpmadd52huq {pr}, {bi}, {t}"));
            self.op(&format!("vpmadd52luq {pr}, {bn}, {t}"));
        }
    }

    /// Register `r` of the squaring's row vector `v⁽ᵏ⁾` into `dst` if it differs from `e`
    /// (returns whether it does): `aₖ` at position k, `fₖ₊₁` at k+1.
    fn row_reg(&mut self, k: usize, r: usize, dst: &str) -> bool {
        let l = self.l();
        let at_k = r == k / 4;
        let at_k1 = k + 1 < l && r == (k + 1) / 4;
        if !at_k && !at_k1 {
            return false;
        }
        self.op(&format!(
            "vmovdqu64 {dst}, zmmword ptr [rdx + {}]",
            E_OFF + 64 * r
        ));
        if at_k {
            self.op(&format!(
                "vpblendmq {dst}{{{{k{}}}}}, {dst}, zmmword ptr [rdx + {}]",
                Self::at_mask(k % 4),
                A_OFF + 64 * r
            ));
        }
        if at_k1 {
            self.op(&format!(
                "vpblendmq {dst}{{{{k{}}}}}, {dst}, zmmword ptr [rdx + {}]",
                Self::at_mask((k + 1) % 4),
                F_OFF + 64 * r
            ));
        }
        true
    }

    /// The squaring's step-`i` terms `hi(aᵢ·v⁽ⁱ⁾) + lo(aᵢ₊₁·v⁽ⁱ⁺¹⁾)` into P: registers from
    /// `i / 4` up (row `i + 1` from `(i + 1) / 4`), positions below the row masked off; `e[r]`
    /// is loaded once for both rows where neither needs its own blend.
    fn sqr_terms(&mut self, i: usize) {
        self.clear_p();
        let l = self.l();
        let (ai, an) = (self.ai(), self.an());
        self.op(&format!(
            "vbroadcasti32x4 {ai}, xmmword ptr [rdx + {}]",
            A_OFF + 16 * i
        ));
        let next = i + 1 < l;
        if next {
            self.op(&format!(
                "vbroadcasti32x4 {an}, xmmword ptr [rdx + {}]",
                A_OFF + 16 * (i + 1)
            ));
        }
        for r in i / 4..self.nv {
            let lo_here = next && r >= (i + 1) / 4;
            let (t0, t1, t2) = (self.t(0), self.t(1), self.t(2));
            let hi_own = self.row_reg(i, r, &t1);
            let lo_own = lo_here && self.row_reg(i + 1, r, &t2);
            if !hi_own || (lo_here && !lo_own) {
                self.op(&format!(
                    "vmovdqu64 {t0}, zmmword ptr [rdx + {}]",
                    E_OFF + 64 * r
                ));
            }
            let pr = self.p(r);
            let hsrc = if hi_own { &t1 } else { &t0 };
            match (r == i / 4).then(|| Self::from_mask(i % 4)).flatten() {
                Some(m) => self.op(&format!("vpmadd52huq {pr}{{{{k{m}}}}}, {ai}, {hsrc}")),
                None => self.op(&format!("vpmadd52huq {pr}, {ai}, {hsrc}")),
            }
            if lo_here {
                let lsrc = if lo_own { &t2 } else { &t0 };
                match (r == (i + 1) / 4)
                    .then(|| Self::from_mask((i + 1) % 4))
                    .flatten()
                {
                    Some(m) => self.op(&format!("vpmadd52luq {pr}{{{{k{m}}}}}, {an}, {lsrc}")),
                    None => self.op(&format!("vpmadd52luq {pr}, {an}, {lsrc}")),
                }
            }
        }
    }

    /// Every digit of both numbers in X brought below 2^52 exactly (see `normalise` in
    /// ifma_duo.rs): one pass of carries in the vector unit, then the ripple through runs of
    /// 2^52 − 1 on bit masks in r8..r11 (generate and propagate, low and high words).
    fn normalise(&mut self) {
        let nv = self.nv;
        let (m, z, t) = (self.m(), self.zero(), self.t(0));
        for r in 0..nv {
            let (xr, pr) = (self.x(r), self.p(r));
            self.op(&format!("vpsrlq {pr}, {xr}, 52"));
            self.op(&format!("vpandq {xr}, {xr}, {m}"));
        }
        for r in 0..nv {
            let (xr, pr) = (self.x(r), self.p(r));
            let below = if r > 0 { self.p(r - 1) } else { z.clone() };
            self.op(&format!("valignq {t}, {pr}, {below}, 6"));
            self.op(&format!("vpaddq {xr}, {xr}, {t}"));
        }
        // Generate (digit > 2^52 − 1) and propagate (= 2^52 − 1) bits: bit 8r + 2k + u of
        // the words r8:r9 (generate) and r10:r11 (propagate) is digit 4r + k of number u.
        self.op("xor r8d, r8d");
        self.op("xor r9d, r9d");
        self.op("xor r10d, r10d");
        self.op("xor r11d, r11d");
        for r in 0..nv {
            let xr = self.x(r);
            let (g, p) = if r < 8 { ("r8", "r10") } else { ("r9", "r11") };
            let sh = 8 * (r % 8);
            self.op(&format!("vpcmpuq k1, {xr}, {m}, 6"));
            self.op(&format!("vpcmpuq k2, {xr}, {m}, 0"));
            self.op("kmovw eax, k1");
            if sh > 0 {
                self.op(&format!("shl rax, {sh}"));
            }
            self.op(&format!("or {g}, rax"));
            self.op("kmovw eax, k2");
            if sh > 0 {
                self.op(&format!("shl rax, {sh}"));
            }
            self.op(&format!("or {p}, rax"));
        }
        // Per number u (its bits at stride 2): C = ((G << 2) + P') ^ P', with P' its
        // propagate bits and the other number's bits all set, so a carry crosses them
        // unchanged; two-word arithmetic (the high words are zero below 9 registers).
        // Number 0's carries go to r14:r15; number 1's are computed in r8:r9 (its generate
        // bits are not needed afterwards) and merged in.
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
        // Add each digit's carry and mask.
        for r in 0..nv {
            let xr = self.x(r);
            let w = if r < 8 { "r14" } else { "r15" };
            let sh = 8 * (r % 8);
            self.op(&format!("mov rax, {w}"));
            if sh > 0 {
                self.op(&format!("shr rax, {sh}"));
            }
            self.op("kmovw k1, eax");
            self.op(&format!(
                "vpaddq {xr}{{{{k1}}}}, {xr}, qword ptr [rsi + {ONE_OFF}]{{{{1to8}}}}"
            ));
            self.op(&format!("vpandq {xr}, {xr}, {m}"));
        }
    }

    /// The squaring kernel: `count ≥ 1` squarings of the interleaved number at [rdi], in
    /// place; constants at [rsi], scratch at [rdx].
    fn sqr(&mut self) {
        let nv = self.nv;
        self.masks();
        self.consts();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!("vmovdqu64 {xr}, zmmword ptr [rdi + {}]", 64 * r));
        }
        self.op("2:");
        // a, f = 2a mod 2^52 and e = f + (a_{j-1} >> 51) to the scratch; e stays in P.
        let (m, z, t0, t1) = (self.m(), self.zero(), self.t(0), self.t(1));
        for r in 0..nv {
            let (xr, pr) = (self.x(r), self.p(r));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {xr}",
                A_OFF + 64 * r
            ));
            self.op(&format!("vpaddq {pr}, {xr}, {xr}"));
            self.op(&format!("vpandq {pr}, {pr}, {m}"));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {pr}",
                F_OFF + 64 * r
            ));
        }
        for r in 0..nv {
            let (xr, pr) = (self.x(r), self.p(r));
            self.op(&format!("vpsrlq {t0}, {xr}, 51"));
            if r > 0 {
                let xb = self.x(r - 1);
                self.op(&format!("vpsrlq {t1}, {xb}, 51"));
            } else {
                self.op(&format!("vmovdqa64 {t1}, {z}"));
            }
            self.op(&format!("valignq {t0}, {t0}, {t1}, 6"));
            self.op(&format!("vpaddq {pr}, {pr}, {t0}"));
            self.op(&format!(
                "vmovdqu64 zmmword ptr [rdx + {}], {pr}",
                E_OFF + 64 * r
            ));
        }
        // Row 0's low halves start the frame: v⁽⁰⁾ is e with a₀ at position 0, f₁ at 1.
        let (ai, x0, p0) = (self.ai(), self.x(0), self.p(0));
        self.op(&format!("vshufi64x2 {ai}, {x0}, {x0}, 0"));
        self.op(&format!("vmovdqa64 {t0}, {p0}"));
        self.op(&format!("vpblendmq {t0}{{{{k1}}}}, {t0}, {x0}"));
        self.op(&format!(
            "vpblendmq {t0}{{{{k2}}}}, {t0}, zmmword ptr [rdx + {F_OFF}]"
        ));
        for r in 0..nv {
            let xr = self.x(r);
            let src = if r == 0 { t0.clone() } else { self.p(r) };
            self.op(&format!("vpxord {xr}, {xr}, {xr}"));
            self.op(&format!("vpmadd52luq {xr}, {ai}, {src}"));
        }
        self.prepare();
        self.sqr_terms(0);
        let mut cur = 0;
        for i in 1..self.l() {
            self.advance(cur);
            cur = 1 - cur;
            self.sqr_terms(i);
        }
        self.finish(cur);
        self.normalise();
        self.masks();
        self.op("dec rcx");
        self.op("jnz 2b");
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!("vmovdqu64 zmmword ptr [rdi + {}], {xr}", 64 * r));
        }
    }

    /// The normalisation alone, for the tests: the interleaved digits at [rdi] in place.
    fn norm(&mut self) {
        let nv = self.nv;
        self.consts();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!("vmovdqu64 {xr}, zmmword ptr [rdi + {}]", 64 * r));
        }
        self.normalise();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!("vmovdqu64 zmmword ptr [rdi + {}], {xr}", 64 * r));
        }
    }

    /// The product kernel: [rdi] = [rdx]·[rcx]·R⁻¹, constants at [rsi].
    fn mul(&mut self) {
        let nv = self.nv;
        self.consts();
        let b0 = self.ai();
        self.op(&format!("vbroadcasti32x4 {b0}, xmmword ptr [rcx]"));
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!("vpxord {xr}, {xr}, {xr}"));
            self.op(&format!(
                "vpmadd52luq {xr}, {b0}, zmmword ptr [rdx + {}]",
                64 * r
            ));
        }
        self.prepare();
        self.mul_terms(0);
        let mut cur = 0;
        for i in 1..self.l() {
            self.advance(cur);
            cur = 1 - cur;
            self.mul_terms(i);
        }
        self.finish(cur);
        self.normalise();
        for r in 0..nv {
            let xr = self.x(r);
            self.op(&format!("vmovdqu64 zmmword ptr [rdi + {}], {xr}", 64 * r));
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
    for r in ["rax", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"] {
        writeln!(s, "            out(\"{r}\") _,").unwrap();
    }
    s
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("duo_asm.rs");
    let mut code = String::from(
        "// Generated by build.rs: the duo form's kernels (see ifma_duo.rs). Do not edit.\n",
    );
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        for nv in NVS {
            let mut g = Gen {
                nv,
                s: String::new(),
            };
            g.sqr();
            let sqr = std::mem::take(&mut g.s);
            g.mul();
            let mul = std::mem::take(&mut g.s);
            g.norm();
            let norm = g.s;
            write!(
                code,
                "
/// `count ≥ 1` squarings of the interleaved number at `x` in place, {l} digits.
///
/// # Safety
/// AVX512F, AVX512VL and AVX512IFMA; `x` and `scratch` readable and
/// writable for {x} and {sc} bytes, `consts` readable for {co} bytes (`Consts`).
#[inline(never)]
pub(super) unsafe fn sqr_{nv}(x: *mut u64, consts: *const u64, scratch: *mut u64, count: usize) {{
    // SAFETY: the caller's contract; the block uses only its operands' memory.
    unsafe {{
        core::arch::asm!(
{sqr}            inout(\"rdi\") x => _,
            inout(\"rsi\") consts => _,
            inout(\"rdx\") scratch => _,
            inout(\"rcx\") count => _,
{clob}            options(nostack),
        );
    }}
}}

/// `out = a·b·R⁻¹` for interleaved numbers of {l} digits.
///
/// # Safety
/// As for [`sqr_{nv}`]; `a` readable for {x} bytes, `b` for {bx} bytes (zero past the
/// digits), `out` writable for {x} bytes.
#[inline(never)]
pub(super) unsafe fn mul_{nv}(out: *mut u64, consts: *const u64, a: *const u64, b: *const u64) {{
    // SAFETY: the caller's contract; the block uses only its operands' memory.
    unsafe {{
        core::arch::asm!(
{mul}            inout(\"rdi\") out => _,
            inout(\"rsi\") consts => _,
            inout(\"rdx\") a => _,
            inout(\"rcx\") b => _,
{clob}            options(nostack),
        );
    }}
}}

/// The normalisation of `sqr_{nv}` and `mul_{nv}` alone, in place, for the tests.
///
/// # Safety
/// As for [`sqr_{nv}`]; `x` readable and writable for {x} bytes.
#[cfg(test)]
pub(super) unsafe fn norm_{nv}(x: *mut u64, consts: *const u64) {{
    // SAFETY: the caller's contract; the block uses only its operands' memory.
    unsafe {{
        core::arch::asm!(
{norm}            inout(\"rdi\") x => _,
            inout(\"rsi\") consts => _,
{clob}            options(nostack),
        );
    }}
}}
",
                l = 4 * nv,
                x = 64 * nv,
                bx = 64 * nv + 16,
                sc = F_OFF + 64 * nv,
                co = ONE_OFF + 8,
                clob = clobbers(),
            )
            .unwrap();
        }
    }
    fs::write(out, code).unwrap();
}

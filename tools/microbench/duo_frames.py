#!/usr/bin/env python3
"""Writes a C program that times the duo form's 20-digit Montgomery product with one frame
or two.

    python3 duo_frames.py 1 > one.c && gcc -O2 -mavx512f -mavx512ifma -mavx512vl one.c -o one
    python3 duo_frames.py 2 > two.c && gcc -O2 -mavx512f -mavx512ifma -mavx512vl two.c -o two
    taskset -c 1 ./one; taskset -c 1 ./two

The question: at 20 digits (RSA-2048's primes) the duo kernels issue far less than the
multiplier could take, and the squaring takes as long as the product although it issues a
fifth less. Is a 20-digit product held by its steps' dependences on one another, so that a
second, independent frame (a bipartite product: half the quotient digits taken from each
end) would run beside the first at little extra cost?

The double step is the one `crates/redc/build.rs` writes for the duo product (two quotient
digits from the frame's first columns in 128-bit registers, the frame shifted down two
digits, the step's product terms, `y₀`'s and `y₁`'s multiples of `n`), with one change both
modes share: the product terms go straight into the frame after its shift (no T registers),
so that two frames fit the 32 vector registers. `n`, `k₀` and the multiplicand come from
memory. Mode `1`: one frame, ten double steps, then the exact normalisation. Mode `2`: two
frames of five double steps each (the second reading the multiplier's upper ten digits),
their instructions alternating one by one, then the frames added and normalised once. Both
modes issue the same double steps; the values are not a Montgomery product (timing only).
Mode `0`: one frame with the production kernel's order (terms into T before the shift) for
comparison with `cargo bench -p redc --bench ifma_bound`'s duo row.

Each call's multiplicand is the previous call's result, as in an exponentiation. The program
prints the fastest of 30 runs of 20,000 calls in ns per product. If mode 2 is well below
mode 1, the 20-digit kernels are held by their chain and a two-frame layout would pay; if
it is level, they are held by what they issue.
"""
import sys

NV, L = 5, 20
ARR = 88
N_OFF, ND_OFF, NDD_OFF = 0, 8 * ARR, 16 * ARR
K0_OFF = 24 * ARR
M52_OFF = K0_OFF + 64
ONE_OFF = M52_OFF + 8
CONSTS_BYTES = ONE_OFF + 8
A_OFF, AD_OFF = 0, 8 * ARR
SCRATCH_BYTES = 48 * ARR
M, ZERO, TMP = "zmm28", "zmm29", "zmm30"


def r64(n):
    """`n` rounded up to a multiple of 64 (`aligned_alloc` wants whole alignments)."""
    return (n + 63) // 64 * 64


def xmm(r):
    return r.replace("zmm", "xmm")


class Frame:
    """One frame's registers (base..base+13) and its multiplier's digit offset."""

    def __init__(self, base, b_off, with_t=False):
        z = lambda i: f"zmm{base + i}"
        self.x = [z(r) for r in range(NV)]
        self.c0, self.y0, self.y1, self.col = z(5), z(6), z(7), z(8)
        self.q, self.ba, self.bb, self.xt, self.t1 = z(9), z(10), z(11), z(12), z(13)
        self.t = [f"zmm{14 + r}" for r in range(NV)] if with_t else None
        self.b_off = b_off

    def nmem(self, off, r):
        return f"zmmword ptr [rsi + {off + 64 * r}]"

    def bcast(self, reg, k):
        return f"vbroadcasti32x4 {reg}, xmmword ptr [rcx + {self.b_off + 16 * k}]"

    def quotients(self):
        y0x, y1x, colx, qx, xtx = map(xmm, (self.y0, self.y1, self.col, self.q, self.xt))
        x0x, mx = xmm(self.x[0]), xmm(M)
        k0 = f"xmmword ptr [rsi + {K0_OFF}]"
        n0, n1 = f"xmmword ptr [rsi + {N_OFF}]", f"xmmword ptr [rsi + {N_OFF + 16}]"
        return [
            f"vpxord {y0x}, {y0x}, {y0x}",
            f"vpmadd52luq {y0x}, {x0x}, {k0}",
            f"vpaddq {qx}, {x0x}, {mx}",
            f"vpsrlq {qx}, {qx}, 52",
            f"vextracti32x4 {colx}, {self.x[0]}, 1",
            f"vpaddq {colx}, {colx}, {qx}",
            f"vpaddq {colx}, {colx}, {xtx}",
            f"vpxord {qx}, {qx}, {qx}",
            f"vpmadd52huq {qx}, {y0x}, {n0}",
            f"vpmadd52luq {colx}, {y0x}, {n1}",
            f"vpaddq {colx}, {colx}, {qx}",
            f"vpxord {y1x}, {y1x}, {y1x}",
            f"vpmadd52luq {y1x}, {colx}, {k0}",
            f"vpaddq {qx}, {colx}, {mx}",
            f"vpsrlq {qx}, {qx}, 52",
            f"vshufi64x2 {self.y1}, {self.y1}, {self.y1}, 0",
            f"vshufi64x2 {self.y0}, {self.y0}, {self.y0}, 0",
        ]

    def terms(self, i, into):
        """hi(a↓·bᵢ) + lo(a↓·bᵢ₊₁) + hi(a·bᵢ₊₁) + lo(a·bᵢ₊₂) into `into` (registers)."""
        s = [self.bcast(self.ba, i), self.bcast(self.bb, i + 1)]
        if self.t is not None and into is self.t:
            s += [f"vpxord {r}, {r}, {r}" for r in into]
        for r in range(NV):
            src = f"zmmword ptr [r8 + {AD_OFF + 64 * r}]"
            s += [f"vpmadd52huq {into[r]}, {self.ba}, {src}", f"vpmadd52luq {into[r]}, {self.bb}, {src}"]
        s.append(self.bcast(self.ba, i + 2))
        for r in range(NV):
            src = f"zmmword ptr [r8 + {A_OFF + 64 * r}]"
            s += [f"vpmadd52huq {into[r]}, {self.bb}, {src}", f"vpmadd52luq {into[r]}, {self.ba}, {src}"]
        return s

    def xterms(self, i):
        xtx, bax = xmm(self.xt), xmm(self.ba)
        a0 = f"xmmword ptr [r8 + {A_OFF}]"
        return [
            f"vpxord {xtx}, {xtx}, {xtx}",
            f"vmovdqu64 {bax}, xmmword ptr [rcx + {self.b_off + 16 * i}]",
            f"vpmadd52huq {xtx}, {bax}, {a0}",
            f"vmovdqu64 {bax}, xmmword ptr [rcx + {self.b_off + 16 * (i + 1)}]",
            f"vpmadd52luq {xtx}, {bax}, {a0}",
        ]

    def double_step(self, i):
        s = self.quotients()
        if self.t is not None:
            s += self.terms(i, self.t)
        for r in range(NV):
            nxt = self.x[r + 1] if r + 1 < NV else ZERO
            s.append(f"valignq {self.x[r]}, {nxt}, {self.x[r]}, 4")
        if self.t is None:
            s += self.terms(i, self.x)
        for r in range(NV):
            s += [
                f"vpmadd52luq {self.x[r]}, {self.y0}, {self.nmem(NDD_OFF, r)}",
                f"vpmadd52huq {self.x[r]}, {self.y0}, {self.nmem(ND_OFF, r)}",
            ]
            if self.t is not None and r > 0:
                s.append(f"vpaddq {self.x[r]}, {self.x[r]}, {self.t[r]}")
        x0, t1, c0 = self.x[0], self.t1, self.c0
        s += [
            f"vpxord {t1}, {t1}, {t1}",
            f"vpmadd52luq {t1}, {self.y1}, {self.nmem(ND_OFF, 0)}",
            f"vpxord {c0}, {c0}, {c0}",
            f"vpmadd52huq {c0}, {self.y1}, {self.nmem(N_OFF, 0)}",
            f"vpaddq {x0}, {x0}, {self.q}",
        ]
        if self.t is not None:
            s.append(f"vpaddq {x0}, {x0}, {self.t[0]}")
        s += [f"vpaddq {t1}, {t1}, {c0}", f"vpaddq {x0}, {x0}, {t1}"]
        for r in range(1, NV):
            s += [
                f"vpmadd52luq {self.x[r]}, {self.y1}, {self.nmem(ND_OFF, r)}",
                f"vpmadd52huq {self.x[r]}, {self.y1}, {self.nmem(N_OFF, r)}",
            ]
        if i + 2 < L:
            s += self.xterms(i + 2)
        return s

    def start(self):
        s = [self.bcast(self.ba, 0)]
        for r in range(NV):
            s += [f"vpxord {self.x[r]}, {self.x[r]}, {self.x[r]}",
                  f"vpmadd52luq {self.x[r]}, {self.ba}, zmmword ptr [r8 + {A_OFF + 64 * r}]"]
        return s + self.xterms(0)


def normalise(x, t):
    """The exact normalisation of build.rs's `Gen::normalise`, frame `x`, temporaries `t`."""
    s = []
    for r in range(NV):
        s += [f"vpsrlq {t[r]}, {x[r]}, 52", f"vpandq {x[r]}, {x[r]}, {M}"]
    for r in range(NV):
        below = t[r - 1] if r > 0 else ZERO
        s += [f"valignq {TMP}, {t[r]}, {below}, 6", f"vpaddq {x[r]}, {x[r]}, {TMP}"]
    s += [f"xor {g}d, {g}d" for g in ("r8", "r9", "r10", "r11")]
    for r in range(NV):
        sh = 8 * r
        s += [f"vpcmpuq k1, {x[r]}, {M}, 6", f"vpcmpuq k2, {x[r]}, {M}, 0"]
        for k, w in (("k1", "r8"), ("k2", "r10")):
            s.append(f"kmovw eax, {k}")
            if sh:
                s.append(f"shl rax, {sh}")
            s.append(f"or {w}, rax")
    for u, keep, other in ((0, "0x5555555555555555", "0xaaaaaaaaaaaaaaaa"),
                           (1, "0xaaaaaaaaaaaaaaaa", "0x5555555555555555")):
        lo, hi = ("r14", "r15") if u == 0 else ("r8", "r9")
        s += [f"mov rax, {keep}", "mov r12, r10", "and r12, rax", "mov r13, r11", "and r13, rax"]
        if u == 0:
            s += ["mov r14, r8", "mov r15, r9"]
        s += [f"and {lo}, rax", f"and {hi}, rax", f"mov rax, {other}", "or r12, rax",
              "or r13, rax", f"shld {hi}, {lo}, 2", f"shl {lo}, 2", f"add {lo}, r12",
              f"adc {hi}, r13", f"xor {lo}, r12", f"xor {hi}, r13", f"mov rax, {keep}",
              f"and {lo}, rax", f"and {hi}, rax"]
    s += ["or r14, r8", "or r15, r9"]
    for r in range(NV):
        sh = 8 * r
        s.append("mov rax, r14")
        if sh:
            s.append(f"shr rax, {sh}")
        s += ["kmovw k1, eax",
              f"vpaddq {x[r]}{{k1}}, {x[r]}, qword ptr [rsi + {ONE_OFF}]{{1to8}}",
              f"vpandq {x[r]}, {x[r]}, {M}"]
    return s


def interleave(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        if i < len(a):
            out.append(a[i])
        if i < len(b):
            out.append(b[i])
    return out


def kernel(mode):
    s = [f"vpbroadcastq {M}, qword ptr [rsi + {M52_OFF}]", f"vpxord {ZERO}, {ZERO}, {ZERO}"]
    a = Frame(0, 0, with_t=(mode == 0))
    for r in range(NV):
        s.append(f"vmovdqu64 {a.x[r]}, zmmword ptr [rdx + {64 * r}]")
    for r in range(NV):  # a and a one digit down, to the scratch
        nxt = a.x[r + 1] if r + 1 < NV else ZERO
        s += [f"vmovdqu64 zmmword ptr [r8 + {A_OFF + 64 * r}], {a.x[r]}",
              f"valignq {TMP}, {nxt}, {a.x[r]}, 2",
              f"vmovdqu64 zmmword ptr [r8 + {AD_OFF + 64 * r}], {TMP}"]
    if mode in (0, 1):
        s += a.start()
        for i in range(0, L, 2):
            s += a.double_step(i)
        temps = [f"zmm{14 + r}" for r in range(NV)]
    else:
        b = Frame(14, 16 * (L // 2))
        s += interleave(a.start(), b.start())
        for i in range(0, L // 2, 2):
            s += interleave(a.double_step(i), b.double_step(i))
        s += [f"vpaddq {a.x[r]}, {a.x[r]}, {b.x[r]}" for r in range(NV)]
        temps = b.x
    s += normalise(a.x, temps)
    s += [f"vmovdqu64 zmmword ptr [rdi + {64 * r}], {a.x[r]}" for r in range(NV)]
    return s


def main():
    mode = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    if mode not in (0, 1, 2):
        sys.exit("usage: duo_frames.py 0|1|2")
    # GCC's asm templates take braces for dialect alternatives: EVEX masks and broadcasts
    # escape them.
    body = "\n".join(
        f'        "{x.replace("{", "%{").replace("}", "%}")}\\n"' for x in kernel(mode)
    )
    zmm = ", ".join(f'"xmm{i}"' for i in range(32))
    print(f"""#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void product(uint64_t *out, const uint64_t *consts, const uint64_t *a, const uint64_t *b,
                    uint64_t *scratch) {{
    register uint64_t *r8 __asm__("r8") = scratch;
    __asm__ volatile(
        ".intel_syntax noprefix\\n"
{body}
        ".att_syntax prefix\\n"
        : "+r"(r8)
        : "D"(out), "S"(consts), "d"(a), "c"(b)
        : "memory", "cc", "rax", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
          "k1", "k2", {zmm});
}}

int main(void) {{
    uint64_t *consts = aligned_alloc(64, {r64(CONSTS_BYTES + 64)});
    uint64_t *scratch = aligned_alloc(64, {r64(SCRATCH_BYTES + 64)});
    uint64_t *x = aligned_alloc(64, {r64(64 * NV + 64)});
    uint64_t *b = aligned_alloc(64, {r64(16 * L + 256)});
    const uint64_t mask = (1ull << 52) - 1;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < {CONSTS_BYTES} / 8; i++) {{ s = s * 6364136223846793005ull + 1; consts[i] = (s >> 11) & mask; }}
    consts[{M52_OFF} / 8] = mask;
    consts[{ONE_OFF} / 8] = 1;
    for (int i = 0; i < 8 * {NV}; i++) {{ s = s * 6364136223846793005ull + 1; x[i] = (s >> 11) & mask; }}
    for (int i = 0; i < 2 * {L} + 32; i++) {{ s = s * 6364136223846793005ull + 1; b[i] = i < 2 * {L} ? (s >> 11) & mask : 0; }}
    double best = 1e30;
    for (int run = 0; run < 30; run++) {{
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int k = 0; k < 20000; k++) product(x, consts, x, b, scratch);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 20000;
        if (ns < best) best = ns;
    }}
    printf("mode {mode}: %.1f ns per product (fastest of 30 runs; x[0] = %llu)\\n", best,
           (unsigned long long)x[0]);
    return 0;
}}""")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a Rust program that times a 20-digit duo Montgomery product (or squaring) of the
separated form: the whole product first, then `m = (P mod R)·n' mod R` as a half product,
then only the columns of `m·n` from 19 up, so that no step waits on a quotient digit.

    python3 sos_duo.py product chain > p.rs && rustc -C opt-level=3 -C target-cpu=native p.rs
    taskset -c 1 ./p

Speed III asked for a reduction that is not word-serial (the full product, then `m = T·n'
mod R` and `m·n` as parallel products, lazy carries in the spare bits). This is that form in
the duo layout of `crates/redc/src/mont/backend/ifma_duo.rs` (two numbers, digit `d` of
number `u` in lane `2·(d mod 4) + u` of register `d / 4`), written as AVX-512 intrinsics,
fully unrolled, and left to LLVM's scheduling:

- `P = a·b` by broadcast digits of `b` against four copies of `a` shifted up by 0-3
  positions (`VALIGNQ` once per call), low and high halves in separate accumulators; for a
  squaring, the cross terms `aᵢ·aⱼ (j > i)` under lane masks, doubled, plus the diagonal
  from a permuted copy of `a`.
- `P mod R` normalised exactly (one carry pass, then the ripple through digits equal to
  `2^52 − 1` on bit masks in a general register, both numbers' digits interleaved), stored;
  `m` from its broadcast digits against shifted copies of `n' = −n⁻¹ mod R`; normalised.
- `m·n` only where it lands on column 19 and up. The low half of `P + m·n` is a multiple of
  `R`, so the carry into column 20 is `⌈P₁₉/2^52⌉` of column 19 alone (every lower column
  plus its carry in is a multiple of `2^52`); the result is columns 20-39 plus that carry,
  normalised: almost Montgomery, the same value as the word-serial reduction's (`m` is the
  same unique residue), which the program checks against a scalar word-serial reference on
  2,000 random operand pairs before it times anything.

Arguments: `product` or `square`; `chain` (each result is the next operand, as in an
exponentiation) or `free` (independent calls, the throughput alone). It prints the fastest
of 30 runs of 20,000 calls in ns. docs/performance.md (session fifteen) has what it gave.
"""
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "product"
CHAIN = (sys.argv[2] if len(sys.argv) > 2 else "chain") == "chain"
assert MODE in ("product", "square")

HARNESS = r"""#![allow(unused)]
use std::arch::x86_64::*;
const L: usize = 20;
const NV: usize = 5;
const M52: u64 = (1u64 << 52) - 1;

#[repr(C, align(64))]
struct Consts {
    ns: [[[u64; 8]; 6]; 4],  // n shifted up by s positions
    nps: [[[u64; 8]; 6]; 4], // n' = -n^-1 mod R shifted up by s
}
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct Duo([u64; 48]);

// ---------- scalar reference: word-serial REDC on 52-bit digits, one number ----------
fn redc_ref(a: &[u64], b: &[u64], n: &[u64], k0: u64) -> (Vec<u64>, Vec<u64>) {
    let mut t = vec![0u128; L + 2];
    let mut ys = vec![0u64; L];
    for i in 0..L {
        for j in 0..L {
            let p = a[j] as u128 * b[i] as u128;
            t[j] += p & M52 as u128;
            t[j + 1] += p >> 52;
        }
        let y = ((t[0] as u64).wrapping_mul(k0)) & M52;
        ys[i] = y;
        for j in 0..L {
            let p = y as u128 * n[j] as u128;
            t[j] += p & M52 as u128;
            t[j + 1] += p >> 52;
        }
        // shift
        let c = t[0] >> 52;
        assert_eq!(t[0] & M52 as u128, 0);
        for j in 0..L + 1 {
            t[j] = t[j + 1];
        }
        t[L + 1] = 0;
        t[0] += c;
    }
    // normalise
    let mut out = vec![0u64; L + 1];
    let mut c: u128 = 0;
    for j in 0..L + 1 {
        let v = t[j] + c;
        out[j] = (v & M52 as u128) as u64;
        c = v >> 52;
    }
    assert_eq!(out[L], 0);
    out.truncate(L);
    (out, ys)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const SQUARE: bool = SQUARE_V;
const CHAIN: bool = CHAIN_V;

fn main() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    // two odd 1024-bit moduli with top bit set (digits: 1024 = 19*52 + 36)
    let mut n = [[0u64; L]; 2];
    for u in 0..2 {
        for d in 0..L {
            n[u][d] = rng.next() & M52;
        }
        n[u][19] &= (1 << 36) - 1;
        n[u][19] |= 1 << 35;
        n[u][0] |= 1;
    }
    let mut k0 = [0u64; 2];
    let mut np = [[0u64; L]; 2];
    for u in 0..2 {
        // k0 = -n^-1 mod 2^64 then mask
        let mut inv: u64 = 1;
        for _ in 0..7 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(n[u][0].wrapping_mul(inv)));
        }
        k0[u] = inv.wrapping_neg() & M52;
        let mut one = vec![0u64; L];
        one[0] = 1;
        let (_, ys) = redc_ref(&one, &one, &n[u], k0[u]);
        np[u].copy_from_slice(&ys);
    }
    let mut c = Consts { ns: [[[0; 8]; 6]; 4], nps: [[[0; 8]; 6]; 4] };
    for s in 0..4 {
        for pos in 0..24 {
            for u in 0..2 {
                let d = pos as isize - s as isize;
                let v = if d >= 0 && (d as usize) < L { (n[u][d as usize], np[u][d as usize]) } else { (0, 0) };
                c.ns[s][pos / 4][2 * (pos % 4) + u] = v.0;
                c.nps[s][pos / 4][2 * (pos % 4) + u] = v.1;
            }
        }
    }
    let to_duo = |x: &[[u64; L]; 2]| {
        let mut d = Duo([0; 48]);
        for k in 0..L {
            for u in 0..2 {
                d.0[2 * k + u] = x[u][k];
            }
        }
        d
    };
    let mut fails = 0;
    for trial in 0..2000 {
        let mut a = [[0u64; L]; 2];
        let mut b = [[0u64; L]; 2];
        for u in 0..2 {
            for d in 0..L {
                a[u][d] = rng.next() & M52;
                b[u][d] = rng.next() & M52;
            }
            // < 2n: top digit up to 37 bits
            a[u][19] &= (1 << 37) - 1;
            b[u][19] &= (1 << 37) - 1;
            if trial % 7 == 0 { for d in 0..19 { a[u][d] = M52; } }
            if trial % 11 == 0 { for d in 0..19 { b[u][d] = M52; } }
        }
        let (da, db) = (to_duo(&a), to_duo(&b));
        let mut out = Duo([0; 48]);
        unsafe { sos_gen(&mut out, &da, if SQUARE { &da } else { &db }, &c) };
        for u in 0..2 {
            let (r, _) = redc_ref(&a[u], if SQUARE { &a[u] } else { &b[u] }, &n[u], k0[u]);
            for k in 0..L {
                if out.0[2 * k + u] != r[k] {
                    fails += 1;
                    if fails < 5 { println!("trial {trial} u {u} digit {k}: {:x} vs {:x}", out.0[2 * k + u], r[k]); }
                    break;
                }
            }
        }
    }
    println!("checked 2,000 operand pairs against the word-serial reference: {fails} numbers differ");
    if fails > 0 {
        std::process::exit(1);
    }
    // timing: chained
    let mut x = Duo([0; 48]);
    for k in 0..L { for u in 0..2 { x.0[2*k+u] = rng.next() & M52; } }
    x.0[38] &= (1<<35)-1; x.0[39] &= (1<<35)-1;
    let b = x;
    let mut best = f64::MAX;
    for _ in 0..30 {
        let t = std::time::Instant::now();
        for _ in 0..20000 {
            let mut o = Duo([0; 48]);
            unsafe { sos_gen(&mut o, &x, if SQUARE { &x } else { &b }, &c) };
            if CHAIN { x = o; } else { std::hint::black_box(&o); }
        }
        let ns = t.elapsed().as_nanos() as f64 / 20000.0;
        if ns < best { best = ns; }
    }
    println!("{}: {best:.1} ns per operation of both numbers (fastest of 30 runs; x0 {})", if SQUARE { "squaring" } else { "product" }, x.0[0]);
}
#[repr(C, align(64))]
struct Buf([u64; 48]);
"""


def kernel():
    L, NV = 20, 5
    sq = MODE == "square"
    o = []
    e = o.append
    e("#[target_feature(enable = \"avx512f,avx512vl,avx512ifma\")]")
    e("unsafe fn sos_gen(out: &mut Duo, a: &Duo, b: &Duo, c: &Consts) {")
    e("let z = _mm512_setzero_si512();")
    e("let m52 = _mm512_set1_epi64(M52 as i64);")
    e("let ap = a.0.as_ptr(); let bp = b.0.as_ptr();")
    for r in range(NV):
        e(f"let a{r}_0 = _mm512_loadu_si512(ap.add({8*r}) as *const _);")
    e(f"let a{NV}_0 = z;")
    for s in range(1, 4):
        imm = 8 - 2 * s
        for r in range(6):
            lo = f"a{r-1}_0" if r > 0 else "z"
            e(f"let a{r}_{s} = _mm512_alignr_epi64::<{imm}>(a{r}_0, {lo});")
    for r in range(10):
        e(f"let mut pl{r} = z; let mut ph{r} = z;")
    def mac(acc, x, bb, hi):
        f = "_mm512_madd52hi_epu64" if hi else "_mm512_madd52lo_epu64"
        e(f"{acc} = {f}({acc}, {x}, {bb});")
    def prod(src, xs, lo_ok, accl, acch, nv_out):
        # src: expr for broadcast pointer; xs(s,r) -> operand expr
        for i in range(L):
            q, s = divmod(i, 4)
            e(f"let bb = _mm512_broadcast_i32x4(_mm_loadu_si128({src}.add({2*i}) as *const _));")
            for r in range(6):
                t = q + r
                if t < nv_out and not (s == 0 and r == 5) and lo_ok(t):
                    mac(f"{accl}{t}", xs(s, r), "bb", False)
            if s < 3:
                for r in range(6):
                    t = q + r
                    if t < nv_out and lo_ok(t):
                        mac(f"{acch}{t}", xs(s + 1, r), "bb", True)
            else:
                for r in range(NV):
                    t = q + 1 + r
                    if t < nv_out and lo_ok(t):
                        mac(f"{acch}{t}", xs(0, r), "bb", True)
    if not sq:
        prod("bp", lambda s, r: f"a{r}_{s}", lambda t: True, "pl", "ph", 10)
    else:
        # cross terms a_i a_j, j > i: positions i+j (lo) and i+j+1 (hi), masked lanes
        for i in range(L):
            q, s = divmod(i, 4)
            e(f"let bb = _mm512_broadcast_i32x4(_mm_loadu_si128(ap.add({2*i}) as *const _));")
            for hi in (False, True):
                for r in range(6):
                    # operand register: lo uses shifted copy s at register r -> target q+r, positions
                    if not hi:
                        x, t = f"a{r}_{s}", q + r
                        shift = s
                    else:
                        if s < 3: x, t, shift = f"a{r}_{s+1}", q + r, s + 1
                        else:
                            if r >= NV: continue
                            x, t, shift = f"a{r}_0", q + 1 + r, 0
                    if t >= 10: continue
                    # lane k of register t (position 4t+k) holds j = pos - i - (1 if hi else 0)
                    mask = 0
                    for k in range(4):
                        pos = 4 * t + k
                        j = pos - i - (1 if hi else 0)
                        if i < j <= L - 1:
                            mask |= 3 << (2 * k)
                    if mask == 0: continue
                    acc = "ph" if hi else "pl"
                    f = "_mm512_mask_madd52hi_epu64" if hi else "_mm512_mask_madd52lo_epu64"
                    if mask == 0xFF:
                        f2 = "_mm512_madd52hi_epu64" if hi else "_mm512_madd52lo_epu64"
                        e(f"{acc}{t} = {f2}({acc}{t}, {x}, bb);")
                    else:
                        e(f"{acc}{t} = {f}({acc}{t}, {mask:#x}, {x}, bb);")
        for t in range(10):
            e(f"pl{t} = _mm512_add_epi64(pl{t}, ph{t}); pl{t} = _mm512_add_epi64(pl{t}, pl{t}); ph{t} = z;")
        # diagonal: register t gets a_{2t}^2 (lanes 0..3) and a_{2t+1}^2 (lanes 4..7)
        for t in range(10):
            src = f"a{t // 2}_0"
            d0 = 2 * ((2 * t) % 4)
            idx = [d0, d0 + 1, d0, d0 + 1, d0 + 2, d0 + 3, d0 + 2, d0 + 3]
            e(f"let dg = _mm512_permutexvar_epi64(_mm512_set_epi64({', '.join(str(v) for v in reversed(idx))}), {src});")
            e(f"pl{t} = _mm512_mask_madd52lo_epu64(pl{t}, 0x33, dg, dg);")
            e(f"ph{t} = _mm512_mask_madd52hi_epu64(ph{t}, 0xcc, dg, dg);")

    def norm(names):
        e("{")
        for r, x in enumerate(names):
            e(f"let h{r} = _mm512_srli_epi64::<52>({x}); {x} = _mm512_and_si512({x}, m52);")
        for r, x in enumerate(names):
            lo = f"h{r-1}" if r > 0 else "z"
            e(f"{x} = _mm512_add_epi64({x}, _mm512_alignr_epi64::<6>(h{r}, {lo}));")
        e("let mut g: u64 = 0; let mut p: u64 = 0;")
        for r, x in enumerate(names):
            e(f"g |= (_mm512_cmpgt_epu64_mask({x}, m52) as u64) << {8*r};")
            e(f"p |= (_mm512_cmpeq_epu64_mask({x}, m52) as u64) << {8*r};")
        e("const EVEN: u64 = 0x5555_5555_5555_5555; const ODD: u64 = !EVEN;")
        e("let p0 = p | ODD; let p1 = p | EVEN;")
        e("let cc = (((((g & EVEN) << 2).wrapping_add(p0)) ^ p0) & EVEN) | (((((g & ODD) << 2).wrapping_add(p1)) ^ p1) & ODD);")
        e("let one = _mm512_set1_epi64(1);")
        for r, x in enumerate(names):
            e(f"{x} = _mm512_and_si512(_mm512_mask_add_epi64({x}, (cc >> {8*r}) as u8, {x}, one), m52);")
        e("}")
    def exact_to_buffer(lo, hi, buf, ptr):
        """x = lo + hi (registers 0..NV) normalised modulo R, stored to a new buffer."""
        for r in range(NV):
            e(f"x{r} = _mm512_add_epi64({lo}{r}, {hi}{r});")
        norm([f"x{r}" for r in range(NV)])
        e(f"let mut {buf} = Buf([0; 48]); let {ptr} = {buf}.0.as_mut_ptr();")
        for r in range(NV):
            e(f"_mm512_store_si512({ptr}.add({8*r}) as *mut _, x{r});")

    for r in range(NV):
        e(f"let mut x{r} = z;")
    exact_to_buffer("pl", "ph", "qb", "qp")
    for r in range(NV):
        e(f"let mut ml{r} = z; let mut mh{r} = z;")
    prod("qp", lambda s, r: f"_mm512_load_si512(c.nps[{s}][{r}].as_ptr() as *const _)", lambda t: True, "ml", "mh", NV)
    exact_to_buffer("ml", "mh", "mb", "mp")
    prod("mp", lambda s, r: f"_mm512_load_si512(c.ns[{s}][{r}].as_ptr() as *const _)", lambda t: t >= 4, "pl", "ph", 10)
    e("let t4 = _mm512_add_epi64(pl4, ph4);")
    e("let cy = _mm512_alignr_epi64::<6>(z, _mm512_srli_epi64::<52>(_mm512_add_epi64(t4, m52)));")
    for r in range(NV):
        e(f"x{r} = _mm512_add_epi64(pl{5+r}, ph{5+r});")
    e("x0 = _mm512_add_epi64(x0, cy);")
    norm([f"x{r}" for r in range(NV)])
    for r in range(NV):
        e(f"_mm512_storeu_si512(out.0.as_mut_ptr().add({8*r}) as *mut _, x{r});")
    e("let _ = (pl0, ph0, pl1, ph1, pl2, ph2, pl3, ph3);")
    e("}")
    return "\n".join(o)


print(HARNESS.replace("SQUARE_V", "true" if MODE == "square" else "false").replace("CHAIN_V", "true" if CHAIN else "false"))
print(kernel())

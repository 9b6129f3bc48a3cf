//! The kernels against the multiplier's throughput bound on the running CPU: per IFMA form
//! and digit count, and per MULX kernel and limb count, cycles per Montgomery product and the
//! fraction of the bound (the cycles the kernel's multiplications would take at the core's
//! measured peak rate).
//!
//! MULX kernels (where the CPU has BMI2 and ADX): one Montgomery product and one squaring of
//! the `mulx` backend's kernel at each limb count with a kernel of its own
//! (`mulx::SIZED_LIMBS`), against independent `MULX`s per cycle; a product takes `2s²`
//! 64-bit multiplications (`s²` for `a·b`, `s²` for the reduction), a squaring `1.5s² + 0.5s`.
//!
//! `cargo bench -p redc --bench ifma_bound` prints the tables; pin it to one idle core
//! (`taskset -c 1`) for figures worth quoting. Clock: a chain of dependent additions (one
//! per cycle). Peak rate: independent 512-bit `VPMADD52LUQ`s. Each row times whole
//! exponentiations with a full-length exponent and the production window, and divides by
//! the number of Montgomery products they take; the multiply-adds per product come from the
//! generated kernels (duo and lane forms) or from the loops' shape (pair and wide forms,
//! written out below). A 256- or 128-bit multiply-add counts as the ratio of the two measured
//! peak rates (independent 512-bit against independent 256-bit ones): half a 512-bit one
//! where a 512-bit one runs as two halves (Zen 4), about three quarters on the Sapphire
//! Rapids class Xeon, whose 256-bit ones take the same two ports one at a time. The wide form
//! (one modulus across the lanes, for verification and the fault check) is timed on
//! exponentiations by e = 65537 at the RSA moduli's sizes.
//!
//! Before the IFMA rows, a table of what the kernels' other vector instructions cost on the
//! running CPU: eight of each kind alone, and beside eight independent 512-bit multiply-adds.
//! An instruction with pipes of its own adds nothing beside them; one that shares the
//! multiply-add's pipes adds its own time. On the AMD EPYC Zen 4 (family 25 model 17) the
//! additions, blends and shifts were free beside them, `VALIGNQ` and `VSHUFI64X2` took a
//! third of a multiply-add's slot each, a 128-bit multiply-add half of one, and a 512-bit
//! store 2 to 3 cycles of its own (docs/performance.md, 2026-11-27, session six).
//!
//! Last, the lane kernels one call at a time (`ifma::run_lane_kernel`): the squaring, the
//! product and the selecting product with the production window's table, ns and cycles per
//! call of eight numbers. The selecting product's row less the product's is the table scan;
//! `tools/peers/crypto_mb/kernel_bench.c` times crypto_mb's 20-digit kernels the same way.

#[cfg(target_arch = "x86_64")]
mod imp {
    use redc::mont::backend::cpu::Forms;
    use redc::mont::backend::ifma::{self, Modulus52, PowJob, Token};
    use redc::mont::backend::ifma_duo::DuoWidth;
    use redc::mont::backend::{ifma_duo, ifma_pair, mulx, Backend};
    use redc::mont::{scratch_len, Modulus};
    use std::hint::black_box;
    use std::time::Instant;

    /// Nanoseconds per iteration of `f`, the minimum of `reps` timings of `iters` calls.
    fn time_ns(reps: usize, iters: usize, mut f: impl FnMut()) -> f64 {
        f();
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..iters {
                    f();
                }
                t.elapsed().as_nanos() as f64 / iters as f64
            })
            .fold(f64::MAX, f64::min)
    }

    /// Cycles per nanosecond, from 10,000 dependent additions.
    fn clock_ghz() -> f64 {
        let ns = time_ns(9, 100, || {
            let mut x: u64 = 1;
            for _ in 0..100 {
                // SAFETY: arithmetic on a register only.
                unsafe {
                    core::arch::asm!(".rept 100", "add {x}, {x}", ".endr", x = inout(reg) x,
                        options(nomem, nostack))
                };
            }
            black_box(x);
        });
        10_000.0 / ns
    }

    /// Independent multiply-adds per cycle in registers of class `$class` (`zmm` or `ymm`),
    /// with the target features `$features`: 125 groups of eight into the first eight
    /// registers from the next two.
    macro_rules! peak_per_cycle {
        ($ghz:expr, $class:literal, $features:literal) => {{
            #[target_feature(enable = $features)]
            unsafe fn burst() {
                // SAFETY: the caller checked the features; registers only (clobbers named by
                // their 512-bit registers cover the narrower ones).
                unsafe {
                    core::arch::asm!(
                        ".rept 125",
                        ".irp r,0,1,2,3,4,5,6,7",
                        concat!("vpmadd52luq ", $class, "\\r, ", $class, "8, ", $class, "9"),
                        ".endr",
                        ".endr",
                        out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                        out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                        out("zmm8") _, out("zmm9") _,
                        options(nomem, nostack),
                    );
                }
            }
            // SAFETY: run only where Token::get proved AVX512F, AVX512VL and AVX512IFMA.
            let ns = time_ns(9, 100, || unsafe { burst() });
            1000.0 / (ns * $ghz)
        }};
    }

    /// 512-bit multiply-adds per cycle when nothing depends on them.
    fn peak_ifma_per_cycle(ghz: f64) -> f64 {
        peak_per_cycle!(ghz, "zmm", "avx512f,avx512ifma")
    }

    /// 256-bit multiply-adds per cycle when nothing depends on them (the duo form's 256-bit
    /// kernels and every kernel's 128-bit quotient chain run at this rate or the 512-bit one,
    /// whichever the core gives them).
    fn peak_narrow_ifma_per_cycle(ghz: f64) -> f64 {
        peak_per_cycle!(ghz, "ymm", "avx512f,avx512vl,avx512ifma")
    }

    /// A burst of 125 groups of the given instruction, repeated for `r` in 10..=17 (`\\r` in
    /// the text), after eight independent 512-bit `VPMADD52LUQ`s (into zmm0–zmm7) when the
    /// first token is `madds`; `rdi` points to 1 KiB of scratch.
    macro_rules! burst {
        (madds, $ins:literal) => {
            burst!(@ "vpmadd52luq zmm\\r, zmm8, zmm9", $ins)
        };
        (alone, $ins:literal) => {
            burst!(@ "", $ins)
        };
        (@ $madd:literal, $ins:literal) => {{
            #[target_feature(enable = "avx512f,avx512ifma")]
            unsafe fn burst(buf: *mut u8) {
                // SAFETY: the caller checked the features; the stores stay inside `buf`.
                unsafe {
                    core::arch::asm!(
                        ".rept 125",
                        ".irp r,0,1,2,3,4,5,6,7",
                        $madd,
                        ".endr",
                        ".irp r,10,11,12,13,14,15,16,17",
                        $ins,
                        ".endr",
                        ".endr",
                        in("rdi") buf,
                        out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                        out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                        out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                        out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                        out("zmm16") _, out("zmm17") _,
                        options(nostack),
                    );
                }
            }
            burst
        }};
    }

    /// What other vector instructions cost beside the multiply-adds. Per kind: eight of them
    /// alone, and eight issued with eight independent 512-bit multiply-adds (cycles per group
    /// of each). Where the kind has its own pipes, the group with multiply-adds takes the
    /// longer of the two alone; where it shares the multiply-add's pipes, their sum. The
    /// forms' kernels issue these beside their multiply-adds (the duo form most), so the
    /// table tells how much of their gap to the bound is the instruction mix on the running
    /// CPU.
    fn mix_rows(ghz: f64) {
        let mut buf = vec![0u8; 1024 + 64];
        let off = buf.as_ptr().align_offset(64);
        let p = buf[off..].as_mut_ptr();
        type Burst = unsafe fn(*mut u8);
        macro_rules! kind {
            ($name:literal, $ins:literal) => {
                (
                    $name,
                    burst!(alone, $ins) as Burst,
                    burst!(madds, $ins) as Burst,
                )
            };
        }
        let kinds: [(&str, Burst, Burst); 9] = [
            kind!("VPMADD52LUQ zmm", "vpmadd52luq zmm\\r, zmm8, zmm9"),
            kind!("VPADDQ zmm", "vpaddq zmm\\r, zmm8, zmm9"),
            kind!("VPBLENDMQ zmm", "vpblendmq zmm\\r {{k1}}, zmm8, zmm9"),
            kind!("VPSRLQ zmm", "vpsrlq zmm\\r, zmm8, 3"),
            kind!("VALIGNQ zmm", "valignq zmm\\r, zmm8, zmm9, 4"),
            kind!("VSHUFI64X2 zmm", "vshufi64x2 zmm\\r, zmm8, zmm8, 0"),
            kind!("VPMADD52LUQ xmm", "vpmadd52luq xmm\\r, xmm8, xmm9"),
            kind!(
                "512-bit load",
                "vmovdqu64 zmm\\r, zmmword ptr [rdi + 64*(\\r-10)]"
            ),
            kind!(
                "512-bit store",
                "vmovdqu64 zmmword ptr [rdi + 64*(\\r-10)], zmm8"
            ),
        ];
        // SAFETY: run only where Token::get proved AVX512F and AVX512IFMA; `p` has 1 KiB.
        let cyc = |f: Burst| time_ns(9, 40, || unsafe { f(p) }) * ghz / 125.0;
        println!("eight of each kind alone, and beside eight independent 512-bit multiply-adds:");
        println!(
            "{:<16} {:>10} {:>14}",
            "kind", "alone cyc", "with madds cyc"
        );
        for (name, alone, with) in kinds {
            println!("{name:<16} {:>10.1} {:>14.1}", cyc(alone), cyc(with));
        }
    }

    fn lcg(s: &mut u64) -> u64 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *s ^ (*s >> 29)
    }

    /// A random odd modulus of exactly `bits` bits (a multiple of 64).
    fn modulus(bits: usize, s: &mut u64) -> Modulus<u64> {
        let l = bits / 64;
        let mut n: Vec<u64> = (0..l).map(|_| lcg(s)).collect();
        n[l - 1] |= 1 << 63;
        n[0] |= 1;
        Modulus::new(&n).expect("odd")
    }

    /// Eight random numbers below 2^(bits−1), `bits/64` limbs each.
    fn random_bases(bits: usize, seed: &mut u64) -> Vec<Vec<u64>> {
        let l = bits / 64;
        (0..8)
            .map(|_| {
                let mut b: Vec<u64> = (0..l).map(|_| lcg(seed)).collect();
                b[l - 1] >>= 1;
                b
            })
            .collect()
    }

    /// One job per output buffer, from the bases, exponents and moduli of the same index.
    fn jobs<'a>(
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

    /// Montgomery products in one exponentiation of `bits`-bit exponent with a `w`-bit fixed
    /// window (as the forms compute it): the table, the squarings and multiplications, the
    /// exit; as (squarings, products).
    fn products(bits: usize, w: usize) -> (f64, f64) {
        let windows = bits.div_ceil(w);
        let sqr = (windows - 1) * w;
        let mul = (1 << w) + (windows - 1) + 1;
        (sqr as f64, mul as f64)
    }

    /// Independent `MULX`s per cycle.
    fn peak_mulx_per_cycle(ghz: f64) -> f64 {
        #[target_feature(enable = "bmi2")]
        unsafe fn burst() {
            // SAFETY: the caller checked BMI2; registers only.
            unsafe {
                core::arch::asm!(
                    ".rept 250",
                    "mulx {a}, {b}, {x}",
                    "mulx {c}, {d}, {x}",
                    "mulx {e}, {f}, {x}",
                    "mulx {g}, {h}, {x}",
                    ".endr",
                    a = out(reg) _, b = out(reg) _, c = out(reg) _, d = out(reg) _,
                    e = out(reg) _, f = out(reg) _, g = out(reg) _, h = out(reg) _,
                    x = in(reg) 0x1234_5678_9abc_def1u64,
                    in("rdx") 0x0fed_cba9_8765_4321u64,
                    options(nomem, nostack),
                );
            }
        }
        // SAFETY: run only where the mulx backend is available (BMI2 and ADX).
        let ns = time_ns(9, 100, || unsafe { burst() });
        1000.0 / (ns * ghz)
    }

    /// The MULX kernels' rows (see the module documentation).
    fn mulx_rows(ghz: f64) {
        let Ok(kernel) = Backend::Mulx.kernel() else {
            println!("ifma_bound: this CPU has no BMI2/ADX; no MULX rows");
            return;
        };
        let peak = peak_mulx_per_cycle(ghz);
        println!("independent MULX: {peak:.2} per cycle");
        println!(
            "{:<7} {:>6} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9}",
            "kernel", "limbs", "mul cyc", "sqr cyc", "mul bound", "sqr bound", "mul of", "sqr of"
        );
        let mut seed = 0x6d75_6c78_u64;
        for &s in mulx::SIZED_LIMBS {
            let m = modulus(64 * s, &mut seed);
            let (n, n0) = (m.n().to_vec(), m.n0());
            let a: Vec<u64> = (0..s)
                .map(|i| lcg(&mut seed) >> (i + 1 == s) as u32)
                .collect();
            let b: Vec<u64> = (0..s)
                .map(|i| lcg(&mut seed) >> (i + 1 == s) as u32)
                .collect();
            let mut out = vec![0u64; s];
            let mut scratch = vec![0u64; scratch_len(s)];
            let (mul, sqr) = (kernel.mul(), kernel.sqr());
            let iters = (400_000 / (s * s)).max(40);
            // Warm the core up (clock and caches) before the timed runs.
            for _ in 0..20 * iters {
                mul(&mut out, black_box(&a), &b, &n, n0, &mut scratch);
            }
            let mul_ns = time_ns(15, iters, || {
                mul(&mut out, black_box(&a), &b, &n, n0, &mut scratch);
                black_box(&out);
            });
            let sqr_ns = time_ns(15, iters, || {
                sqr(&mut out, black_box(&a), &n, n0, &mut scratch);
                black_box(&out);
            });
            let sf = s as f64;
            let (mul_c, sqr_c) = (mul_ns * ghz, sqr_ns * ghz);
            let (mul_b, sqr_b) = (2.0 * sf * sf / peak, (1.5 * sf * sf + 0.5 * sf) / peak);
            println!(
                "{:<7} {s:>6} {mul_c:>10.0} {sqr_c:>10.0} {mul_b:>10.0} {sqr_b:>10.0} {:>8.0}% {:>8.0}%",
                "mulx",
                100.0 * mul_b / mul_c,
                100.0 * sqr_b / sqr_c
            );
        }
    }

    pub fn main() {
        let ghz = clock_ghz();
        println!("clock {ghz:.2} GHz");
        mulx_rows(ghz);
        let Some(token) = Token::get() else {
            println!("ifma_bound: this CPU has no AVX-512 IFMA; no IFMA rows");
            return;
        };
        let peak = peak_ifma_per_cycle(ghz);
        println!("independent 512-bit VPMADD52LUQ: {peak:.2} per cycle");
        let peak_narrow = peak_narrow_ifma_per_cycle(ghz);
        // What a 256- or 128-bit multiply-add costs in 512-bit ones' slots on this core.
        let narrow = peak / peak_narrow;
        println!(
            "independent 256-bit VPMADD52LUQ: {peak_narrow:.2} per cycle (one counts as {narrow:.2} of a 512-bit one)"
        );
        mix_rows(ghz);
        println!(
            "{:<7} {:>6} {:>7} {:>10} {:>12} {:>11} {:>9}",
            "form", "digits", "numbers", "cycles/mul", "madds/mul", "bound cyc", "of bound"
        );
        let mut seed = 0x5eed_u64;
        for bits in [512usize, 1024, 1536, 2048] {
            let m: Vec<Modulus<u64>> = (0..8).map(|_| modulus(bits, &mut seed)).collect();
            let l = bits / 64;
            let bases = random_bases(bits, &mut seed);
            let exps: Vec<Vec<u8>> = (0..8)
                .map(|_| (0..bits / 8).map(|_| lcg(&mut seed) as u8).collect())
                .collect();
            let row = |form: &str, digits: usize, count: usize, madds: Option<(f64, f64)>| {
                let m52: Vec<Modulus52> = m
                    .iter()
                    .map(|m| Modulus52::new(m, digits).expect("fits"))
                    .collect();
                // The window production runs: the lane form's also fits its table to the
                // CPU kind's L1D (`ifma_plan`).
                let w = if form == "lanes" {
                    ifma::lane_window_for(bits, digits, &Forms::current())
                } else {
                    ifma::window_for(bits, digits)
                };
                let mut outs = vec![vec![0u64; l]; count];
                let ns = time_ns(5, 3, || {
                    let mut jobs = jobs(&mut outs, &bases, &exps, &m52);
                    match form {
                        "duo" => ifma_duo::pow_duo_in(token, &mut jobs, w, DuoWidth::W512),
                        "duo256" => ifma_duo::pow_duo_in(token, &mut jobs, w, DuoWidth::W256),
                        "pair" => ifma_pair::pow_pair(token, &mut jobs, w),
                        _ => ifma::pow_lanes(token, &mut jobs, w),
                    }
                });
                let (sqr, mul) = products(bits, w as usize);
                let cycles = ns * ghz / (sqr + mul);
                let line = match madds {
                    Some((s, p)) => {
                        let per = (sqr * s + mul * p) / (sqr + mul);
                        let bound = per / peak;
                        format!("{per:>12.0} {bound:>11.0} {:>8.0}%", 100.0 * bound / cycles)
                    }
                    None => format!("{:>12} {:>11} {:>9}", "-", "-", "-"),
                };
                println!("{form:<7} {digits:>6} {count:>7} {cycles:>10.0} {line}");
            };
            // The duo form at the smallest count each width compiles for these moduli (a
            // 256-bit or 128-bit multiply-add counts as `narrow` 512-bit ones).
            let need = ifma::digits_for_bits(bits);
            for (name, width, per) in [
                ("duo", DuoWidth::W512, 1.0),
                ("duo256", DuoWidth::W256, narrow),
            ] {
                let Some(&d) = width.digit_counts().iter().find(|&&d| d >= need) else {
                    continue;
                };
                let c = ifma_duo::multiply_adds(d, width).expect("a compiled count");
                let product = per * c[2] as f64 + c[3] as f64 * narrow;
                // Squarings by the product kernel where the CPU-kind table says so.
                let square = match ifma_duo::duo_squaring_for(d, &Forms::current()) {
                    ifma_duo::DuoSquaring::Kernel => per * c[0] as f64 + c[1] as f64 * narrow,
                    ifma_duo::DuoSquaring::Product => product,
                };
                let madds = (square, product);
                row(name, d, 2, Some(madds));
            }
            if let Some(d) = ifma::digits_for(bits) {
                let lf = d as f64;
                let c = ifma::lane_multiply_adds(d).expect("a compiled count");
                row("lanes", d, 8, Some((c[0] as f64, c[1] as f64)));
                // Pair: per digit step, per number, 4 per register of 8 digits and the
                // quotient's 1.
                let pair = 2.0 * lf * (4.0 * (d.div_ceil(8) as f64) + 1.0);
                row("pair", d, 2, Some((pair, pair)));
            }
        }
        // The wide form: one modulus across the lanes, a public exponent (e = 65537: the
        // product entering the domain, 16 squarings, and the product by the base, which
        // also leaves it).
        for bits in [1024usize, 2048, 3072, 4096] {
            let m = modulus(bits, &mut seed);
            let l = bits / 64;
            let d = ifma::digits_for_bits(bits);
            let m52 = Modulus52::new_wide(&m, d).expect("fits");
            let mut base: Vec<u64> = (0..l).map(|_| lcg(&mut seed)).collect();
            base[l - 1] >>= 1;
            let mut out = vec![0u64; l];
            let ns = time_ns(5, 50, || {
                let mut job = PowJob {
                    out: &mut out,
                    base: &base,
                    exp: &[],
                    modulus: &m52,
                };
                ifma_pair::pow_wide_public_vartime(token, &mut job, &[1, 0, 1]);
            });
            let cycles = ns * ghz / 18.0;
            let per = d as f64 * (4.0 * d.div_ceil(8) as f64 + 1.0);
            let bound = per / peak;
            println!(
                "{:<7} {d:>6} {:>7} {cycles:>10.0} {per:>12.0} {bound:>11.0} {:>8.0}%",
                "wide",
                1,
                100.0 * bound / cycles
            );
        }
        lane_kernel_rows(token, ghz, peak);
    }

    /// The lane kernels one call at a time (`ifma::run_lane_kernel`: 2,000 calls in a chain,
    /// the fastest of five timings): ns and cycles per call of eight numbers, and the
    /// fraction of the multiply-add bound. The selecting product reads the table of the
    /// production window at RSA's exponent sizes, so its row less the product's is the
    /// table scan; the selecting squaring (`2^w` entries over `w` squarings) less the
    /// squaring is what the stitched selection costs per squaring; the schoolbook rows,
    /// the tiled squarings and products and the memory-operand products (where compiled)
    /// are the other forms. These are the figures to
    /// set beside another library's kernels timed the same way
    /// (`tools/peers/crypto_mb/kernel_bench.c` for Intel's crypto_mb at 20 digits).
    fn lane_kernel_rows(token: Token, ghz: f64, peak: f64) {
        println!(
            "{:<32} {:>6} {:>9} {:>8} {:>7} {:>9}",
            "lane kernel", "digits", "ns/call", "cycles", "madds", "of bound"
        );
        let mut seed = 0x1a9e_u64;
        for bits in [512usize, 1024, 1536, 2048] {
            let Some(d) = ifma::digits_for(bits) else {
                continue;
            };
            let m: Vec<Modulus<u64>> = (0..8).map(|_| modulus(bits, &mut seed)).collect();
            let m52: Vec<Modulus52> = m
                .iter()
                .map(|m| Modulus52::new(m, d).expect("fits"))
                .collect();
            let l = bits / 64;
            let bases = random_bases(bits, &mut seed);
            let window = ifma::lane_window_for(bits, d, &Forms::current());
            let entries = 1usize << window;
            let madds = ifma::lane_multiply_adds(d).expect("a compiled count");
            let mut kernels = vec![
                ("squaring", ifma::LaneKernel::Squaring, madds[0]),
                ("product", ifma::LaneKernel::Product, madds[1]),
                (
                    "selecting product",
                    ifma::LaneKernel::SelectingProduct { entries },
                    madds[1],
                ),
            ];
            // The squarings that select the next multiplier, at the window they have groups
            // for (4 or 5 bits; the production window when it is one of those).
            let sq_window = if (4..=5).contains(&window) { window } else { 4 };
            kernels.push((
                "selecting squaring",
                ifma::LaneKernel::SelectingSquarings { window: sq_window },
                madds[0],
            ));
            // The memory-operand products, where compiled.
            if ifma::MEM_PRODUCT_DIGITS.contains(&d) {
                kernels.push((
                    "product (memory operands)",
                    ifma::LaneKernel::MemoryOperandProduct,
                    madds[1],
                ));
                kernels.push((
                    "selecting product (mem. op.)",
                    ifma::LaneKernel::SelectingMemoryOperandProduct { entries },
                    madds[1],
                ));
            }
            // The schoolbook squarings, where compiled.
            if let Some(sb) = ifma::lane_schoolbook_multiply_adds(d) {
                kernels.push((
                    "schoolbook squaring",
                    ifma::LaneKernel::SchoolbookSquaring,
                    sb,
                ));
                kernels.push((
                    "selecting schoolbook sq.",
                    ifma::LaneKernel::SelectingSchoolbookSquarings { window: sq_window },
                    sb,
                ));
            }
            // The tiled squarings, where compiled.
            if let Some([ts, tp]) = ifma::lane_tiled_multiply_adds(d) {
                kernels.push(("tiled squaring", ifma::LaneKernel::TiledSquaring, ts));
                kernels.push((
                    "selecting tiled sq.",
                    ifma::LaneKernel::SelectingTiledSquarings { window: sq_window },
                    ts,
                ));
                kernels.push(("tiled product", ifma::LaneKernel::TiledProduct, tp));
                kernels.push((
                    "selecting tiled product",
                    ifma::LaneKernel::SelectingTiledProduct { entries },
                    tp,
                ));
            }
            let mut outs = vec![vec![0u64; l]; 8];
            let no_exps = vec![Vec::new(); 8];
            for (name, kernel, n_madds) in kernels {
                let calls = 2000;
                let ns = time_ns(5, 1, || {
                    let mut jobs = jobs(&mut outs, &bases, &no_exps, &m52);
                    ifma::run_lane_kernel(token, &mut jobs, kernel, calls);
                }) / calls as f64;
                let cycles = ns * ghz;
                let bound = n_madds as f64 / peak;
                let name = match kernel {
                    ifma::LaneKernel::SelectingProduct { entries }
                    | ifma::LaneKernel::SelectingMemoryOperandProduct { entries }
                    | ifma::LaneKernel::SelectingTiledProduct { entries } => {
                        format!("{name} ({entries})")
                    }
                    ifma::LaneKernel::SelectingSquarings { window }
                    | ifma::LaneKernel::SelectingSchoolbookSquarings { window }
                    | ifma::LaneKernel::SelectingTiledSquarings { window } => {
                        format!("{name} ({}/{window})", 1usize << window)
                    }
                    _ => name.to_string(),
                };
                println!(
                    "{name:<32} {d:>6} {ns:>9.1} {cycles:>8.0} {n_madds:>7} {:>8.0}%",
                    100.0 * bound / cycles
                );
            }
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    imp::main();
}

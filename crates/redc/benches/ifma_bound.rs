//! The IFMA exponentiations against the multiplier's throughput bound on the running CPU:
//! per form and digit count, cycles per Montgomery product and the fraction of the bound
//! (the cycles the form's multiply-adds would take at the core's measured peak rate).
//!
//! `cargo bench -p redc --bench ifma_bound` prints one table; pin it to one idle core
//! (`taskset -c 1`) for figures worth quoting. Clock: a chain of dependent additions (one
//! per cycle). Peak rate: independent 512-bit `VPMADD52LUQ`s. Each row times whole
//! exponentiations with a full-length exponent and the production window, and divides by
//! the number of Montgomery products they take; the multiply-adds per product come from the
//! generated kernels (duo and lane forms) or from the loops' shape (pair and wide forms,
//! written out below). A 128-bit multiply-add counts as half a 512-bit one. The wide form
//! (one modulus across the lanes, for verification and the fault check) is timed on
//! exponentiations by e = 65537 at the RSA moduli's sizes.

#[cfg(target_arch = "x86_64")]
mod imp {
    use redc::mont::backend::ifma::{self, Modulus52, PowJob, Token};
    use redc::mont::backend::{ifma_duo, ifma_pair};
    use redc::mont::Modulus;
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

    /// 512-bit multiply-adds per cycle when nothing depends on them.
    fn peak_ifma_per_cycle(ghz: f64) -> f64 {
        #[target_feature(enable = "avx512f,avx512ifma")]
        unsafe fn burst() {
            // SAFETY: the caller checked the features; registers only.
            unsafe {
                core::arch::asm!(
                    ".rept 125",
                    "vpmadd52luq zmm0, zmm8, zmm9",
                    "vpmadd52luq zmm1, zmm8, zmm9",
                    "vpmadd52luq zmm2, zmm8, zmm9",
                    "vpmadd52luq zmm3, zmm8, zmm9",
                    "vpmadd52luq zmm4, zmm8, zmm9",
                    "vpmadd52luq zmm5, zmm8, zmm9",
                    "vpmadd52luq zmm6, zmm8, zmm9",
                    "vpmadd52luq zmm7, zmm8, zmm9",
                    ".endr",
                    out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                    out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                    out("zmm8") _, out("zmm9") _,
                    options(nomem, nostack),
                );
            }
        }
        // SAFETY: run only where Token::get proved AVX512F and AVX512IFMA.
        let ns = time_ns(9, 100, || unsafe { burst() });
        1000.0 / (ns * ghz)
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

    /// Montgomery products in one exponentiation of `bits`-bit exponent with a `w`-bit fixed
    /// window (as the forms compute it): the table, the squarings and multiplications, the
    /// exit; as (squarings, products).
    fn products(bits: usize, w: usize) -> (f64, f64) {
        let windows = bits.div_ceil(w);
        let sqr = (windows - 1) * w;
        let mul = (1 << w) + (windows - 1) + 1;
        (sqr as f64, mul as f64)
    }

    pub fn main() {
        let Some(token) = Token::get() else {
            println!("ifma_bound: this CPU has no AVX-512 IFMA; nothing to measure");
            return;
        };
        let ghz = clock_ghz();
        let peak = peak_ifma_per_cycle(ghz);
        println!("clock {ghz:.2} GHz; independent 512-bit VPMADD52LUQ: {peak:.2} per cycle");
        println!(
            "{:<7} {:>6} {:>7} {:>10} {:>12} {:>11} {:>9}",
            "form", "digits", "numbers", "cycles/mul", "madds/mul", "bound cyc", "of bound"
        );
        let mut seed = 0x5eed_u64;
        for bits in [512usize, 1024, 1536, 2048] {
            let m: Vec<Modulus<u64>> = (0..8).map(|_| modulus(bits, &mut seed)).collect();
            let l = bits / 64;
            let bases: Vec<Vec<u64>> = (0..8)
                .map(|_| {
                    let mut b: Vec<u64> = (0..l).map(|_| lcg(&mut seed)).collect();
                    b[l - 1] >>= 1;
                    b
                })
                .collect();
            let exps: Vec<Vec<u8>> = (0..8)
                .map(|_| (0..bits / 8).map(|_| lcg(&mut seed) as u8).collect())
                .collect();
            let row = |form: &str, digits: usize, count: usize, madds: Option<(f64, f64)>| {
                let m52: Vec<Modulus52> = m
                    .iter()
                    .map(|m| Modulus52::new(m, digits).expect("fits"))
                    .collect();
                let w = ifma::window_for(bits, digits);
                let mut outs = vec![vec![0u64; l]; count];
                let ns = time_ns(5, 3, || {
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
                    match form {
                        "duo" => ifma_duo::pow_duo(token, &mut jobs, w),
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
            if let Some(d) = ifma_duo::duo_digits_for(bits) {
                let c = ifma_duo::multiply_adds(d).expect("a duo count");
                let madds = (
                    c[0] as f64 + c[1] as f64 / 2.0,
                    c[2] as f64 + c[3] as f64 / 2.0,
                );
                row("duo", d, 2, Some(madds));
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
        // The wide form: one modulus across the lanes, a public exponent (e = 65537: 16
        // squarings, one product, and the products entering and leaving the domain).
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
            let cycles = ns * ghz / 19.0;
            let per = d as f64 * (4.0 * d.div_ceil(8) as f64 + 1.0);
            let bound = per / peak;
            println!(
                "{:<7} {d:>6} {:>7} {cycles:>10.0} {per:>12.0} {bound:>11.0} {:>8.0}%",
                "wide",
                1,
                100.0 * bound / cycles
            );
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    imp::main();
}

//! Criterion benches of the Montgomery kernels: every algorithm and squaring variant, per size.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use redc::mont::backend::{portable_kernel, Backend};
use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};

fn modulus(bits: usize) -> Modulus<u64> {
    // 2^bits − 1 is odd and has every limb in use: a fair worst case for the carry chains.
    let limbs = vec![u64::MAX; bits / 64];
    Modulus::new(&limbs).expect("odd modulus")
}

fn bench_mul(c: &mut Criterion) {
    let mut g = c.benchmark_group("mont_mul");
    for bits in [1024usize, 2048, 4096] {
        let m = modulus(bits);
        let a: Vec<u64> = (0..m.limbs() as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let b: Vec<u64> = a.iter().map(|x| x.rotate_left(17)).collect();
        let mut out = vec![0u64; m.limbs()];
        let mut scratch = m.scratch();
        for algo in Algorithm::ALL {
            let k = Kernel::<u64>::portable(algo, SqrVariant::Generic);
            g.bench_with_input(BenchmarkId::new(algo.name(), bits), &bits, |bch, _| {
                bch.iter(|| {
                    (k.mul())(
                        &mut out,
                        black_box(&a),
                        black_box(&b),
                        m.n(),
                        m.n0(),
                        &mut scratch,
                    )
                })
            });
        }
        for v in SqrVariant::ALL {
            let k = Kernel::<u64>::portable(Algorithm::Cios, v);
            g.bench_with_input(
                BenchmarkId::new(format!("sqr-{}", v.name()), bits),
                &bits,
                |bch, _| {
                    bch.iter(|| (k.sqr())(&mut out, black_box(&a), m.n(), m.n0(), &mut scratch))
                },
            );
        }
    }
    g.finish();
}

/// The production kernels side by side (portable CIOS + modern squaring, and every fast
/// backend the CPU has) at the RSA prime sizes: 512-bit (8 limbs) to 4096-bit (64 limbs).
fn bench_backends(c: &mut Criterion) {
    let mut g = c.benchmark_group("backend");
    g.warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    let mut kernels = vec![portable_kernel()];
    // The ifma backend's single products are the MULX kernel's (see `bench_ifma` for its
    // exponentiations).
    for b in Backend::available().filter(|&b| b != Backend::Portable && b != Backend::Ifma) {
        kernels.push(b.kernel().expect("available backend"));
    }
    for bits in [512usize, 1024, 1536, 2048, 3072, 4096] {
        let m = modulus(bits);
        let a: Vec<u64> = (0..m.limbs() as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 1)
            .collect();
        let b: Vec<u64> = a.iter().map(|x| x.rotate_left(17) >> 1).collect();
        let mut out = vec![0u64; m.limbs()];
        let mut scratch = m.scratch();
        for k in &kernels {
            g.bench_with_input(
                BenchmarkId::new(format!("{}-mul", k.name()), bits),
                &bits,
                |bch, _| {
                    bch.iter(|| {
                        (k.mul())(
                            &mut out,
                            black_box(&a),
                            black_box(&b),
                            m.n(),
                            m.n0(),
                            &mut scratch,
                        )
                    })
                },
            );
            g.bench_with_input(
                BenchmarkId::new(format!("{}-sqr", k.name()), bits),
                &bits,
                |bch, _| {
                    bch.iter(|| (k.sqr())(&mut out, black_box(&a), m.n(), m.n0(), &mut scratch))
                },
            );
        }
    }
    g.finish();
}

/// A clock reference for converting the times above into cycles: 1000 dependent 64-bit
/// additions take 1000 core cycles (one cycle latency each), whatever the current boost clock.
#[cfg(target_arch = "x86_64")]
fn bench_clock(c: &mut Criterion) {
    c.bench_function("clock/1000-dependent-adds", |bch| {
        bch.iter(|| {
            let mut x: u64 = black_box(1);
            // SAFETY: register-only additions; no memory, stack or flags contract involved.
            unsafe {
                core::arch::asm!(".rept 1000", "add {x}, {x}", ".endr", x = inout(reg) x,
                    options(att_syntax, nomem, nostack, pure));
            }
            x
        })
    });
}

/// The ceilings the kernels run against, in the clock reference's units: 1000 independent
/// MULX (the multiplier's throughput), and 1000 columns of a Montgomery row (MULX with a
/// memory operand, then ADCX and ADOX of its halves into the next two of eight rotating
/// accumulators, flags cleared every 8 columns so rows may overlap as in the kernels), the shape
/// every MULX kernel repeats; and MULX beside one and beside two additions with no data flowing
/// between them (a MULX of registers, an ADCX chain and an ADOX chain of their own), so that what
/// remains is the ports' bound: a product's two halves need two additions, and if MULX with two
/// takes longer than MULX alone, no MULX kernel reaches one MULX per cycle (on the Intel Xeon of
/// the README: about 1.1 cycles alone and with one addition, 1.7–1.8 with two, the columns 1.5).
/// Only on CPUs with BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
fn bench_mulx_ceiling(c: &mut Criterion) {
    if !(std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx"))
    {
        return;
    }
    let words = [0x9e37_79b9_7f4a_7c15u64; 8];
    c.bench_function("clock/1000-independent-mulx", |bch| {
        bch.iter(|| {
            let x: u64 = black_box(3);
            // SAFETY: BMI2 checked above; register-only multiplies, every written register
            // declared.
            unsafe {
                core::arch::asm!(
                    ".rept 250",
                    "mulx {x}, {a}, {b}",
                    "mulx {x}, {c}, {d}",
                    "mulx {x}, {a}, {b}",
                    "mulx {x}, {c}, {d}",
                    ".endr",
                    x = in(reg) x,
                    a = out(reg) _, b = out(reg) _, c = out(reg) _, d = out(reg) _,
                    in("rdx") x,
                    options(att_syntax, nomem, nostack),
                );
            }
        })
    });
    // MULX of registers beside flag-addition chains of their own, 1000 of each row.
    macro_rules! beside {
        ($name:literal, $($row:literal),+) => {
            c.bench_function($name, |bch| {
                bch.iter(|| {
                    let x: u64 = black_box(3);
                    // SAFETY: BMI2 and ADX checked above; register-only, every written
                    // register and the flags declared.
                    unsafe {
                        core::arch::asm!(
                            "xor {z:e}, {z:e}",
                            ".rept 500",
                            $($row,)+
                            ".endr",
                            x = in(reg) x,
                            z = out(reg) _, a = out(reg) _, b = out(reg) _, c = out(reg) _,
                            d = out(reg) _, s0 = out(reg) _, s1 = out(reg) _,
                            in("rdx") x,
                            options(att_syntax, nomem, nostack),
                        );
                    }
                })
            });
        };
    }
    // One addition per MULX (two ADCX into two registers: one carry chain).
    beside!(
        "clock/1000-independent-mulx-adcx",
        "mulx {x}, {a}, {b}",
        "adcx {x}, {s0}",
        "mulx {x}, {c}, {d}",
        "adcx {x}, {s1}"
    );
    // Two additions per MULX, as a product's two halves need.
    beside!(
        "clock/1000-independent-mulx-adcx-adox",
        "mulx {x}, {a}, {b}",
        "adcx {x}, {s0}",
        "adox {x}, {s1}",
        "mulx {x}, {c}, {d}",
        "adcx {x}, {s0}",
        "adox {x}, {s1}"
    );
    // The same with plain additions, which need no carry flag in.
    beside!(
        "clock/1000-independent-mulx-add-add",
        "mulx {x}, {a}, {b}",
        "add {x}, {s0}",
        "add {x}, {s1}",
        "mulx {x}, {c}, {d}",
        "add {x}, {s0}",
        "add {x}, {s1}"
    );
    c.bench_function("clock/1000-mulx-adcx-adox-columns", |bch| {
        bch.iter(|| {
            let p = black_box(words.as_ptr());
            // SAFETY: BMI2 and ADX checked above; reads words[0..8] only, writes only the
            // declared registers and flags.
            unsafe {
                core::arch::asm!(
                    ".rept 125",
                    "xor {z:e}, {z:e}",
                    "mulx 0({p}), {lo}, {hi}", "adcx {lo}, {s0}", "adox {hi}, {s1}",
                    "mulx 8({p}), {lo}, {hi}", "adcx {lo}, {s1}", "adox {hi}, {s2}",
                    "mulx 16({p}), {lo}, {hi}", "adcx {lo}, {s2}", "adox {hi}, {s3}",
                    "mulx 24({p}), {lo}, {hi}", "adcx {lo}, {s3}", "adox {hi}, {s4}",
                    "mulx 32({p}), {lo}, {hi}", "adcx {lo}, {s4}", "adox {hi}, {s5}",
                    "mulx 40({p}), {lo}, {hi}", "adcx {lo}, {s5}", "adox {hi}, {s6}",
                    "mulx 48({p}), {lo}, {hi}", "adcx {lo}, {s6}", "adox {hi}, {s7}",
                    "mulx 56({p}), {lo}, {hi}", "adcx {lo}, {s7}", "adox {hi}, {s0}",
                    ".endr",
                    p = in(reg) p,
                    z = out(reg) _, lo = out(reg) _, hi = out(reg) _,
                    s0 = out(reg) _, s1 = out(reg) _, s2 = out(reg) _, s3 = out(reg) _,
                    s4 = out(reg) _, s5 = out(reg) _, s6 = out(reg) _, s7 = out(reg) _,
                    in("rdx") 3u64,
                    options(att_syntax, readonly, nostack),
                );
            }
        })
    });
}

/// The IFMA exponentiations at the primes of a 2048-bit key (1024 bits, 20 digits of 52 bits,
/// 1024-bit exponents, the chosen window): eight in lanes (`ifma::pow_lanes`), two interleaved
/// across registers (`ifma_pair::pow_pair`); and the multiplier's ceiling, 1000 independent
/// 512-bit `VPMADD52LUQ`. Only on CPUs with AVX512F, AVX512VL and AVX512IFMA.
#[cfg(target_arch = "x86_64")]
fn bench_ifma(c: &mut Criterion) {
    use redc::mont::backend::ifma::{self, Modulus52, PowJob, Token};
    use redc::mont::backend::ifma_pair;
    let Some(token) = Token::get() else {
        return;
    };
    let bits = 1024;
    let digits = ifma::digits_for(bits).expect("compiled");
    let window = ifma::window_for(bits, digits);
    // Eight different odd moduli with the top bit set, bases below them, dense exponents.
    let moduli: Vec<Modulus<u64>> = (0..8u64)
        .map(|k| {
            let mut n: Vec<u64> = (0..16u64)
                .map(|i| (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (k << 7))
                .collect();
            n[0] |= 1;
            n[15] |= 1 << 63;
            Modulus::new(&n).expect("odd modulus")
        })
        .collect();
    let m52: Vec<Modulus52> = moduli
        .iter()
        .map(|m| Modulus52::new(m, digits).expect("compiled digit count"))
        .collect();
    let bases: Vec<Vec<u64>> = (0..8u64)
        .map(|k| {
            (0..16u64)
                .map(|i| (i ^ k).wrapping_mul(0x1234_5678_9abc_def1) >> 1)
                .collect()
        })
        .collect();
    let exps: Vec<Vec<u8>> = (0..8u8)
        .map(|k| (0..128u8).map(|i| i.wrapping_mul(37) ^ k).collect())
        .collect();
    let mut outs = vec![vec![0u64; 16]; 8];
    let mut run = |count: usize, pair: bool| {
        let mut jobs: Vec<PowJob<'_>> = outs
            .iter_mut()
            .take(count)
            .enumerate()
            .map(|(i, out)| PowJob {
                out,
                base: &bases[i],
                exp: &exps[i],
                modulus: &m52[i],
            })
            .collect();
        if pair {
            ifma_pair::pow_pair(token, &mut jobs, window);
        } else {
            ifma::pow_lanes(token, &mut jobs, window);
        }
    };
    c.bench_function("ifma/lanes-pow8/1024", |b| b.iter(|| run(8, false)));
    c.bench_function("ifma/pair-pow2/1024", |b| b.iter(|| run(2, true)));
    c.bench_function("clock/1000-independent-madd52", |b| {
        b.iter(|| {
            // SAFETY: the token proves AVX512F and AVX512IFMA.
            unsafe { madd52_ceiling() }
        })
    });
}

/// 1000 independent `VPMADD52LUQ zmm` (eight accumulators).
///
/// # Safety
/// The CPU must support AVX512F and AVX512IFMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn madd52_ceiling() {
    // SAFETY: register-only multiply-adds; every written register is declared.
    unsafe {
        core::arch::asm!(
            "vpxorq zmm8, zmm8, zmm8",
            ".rept 125",
            "vpmadd52luq zmm0, zmm8, zmm8",
            "vpmadd52luq zmm1, zmm8, zmm8",
            "vpmadd52luq zmm2, zmm8, zmm8",
            "vpmadd52luq zmm3, zmm8, zmm8",
            "vpmadd52luq zmm4, zmm8, zmm8",
            "vpmadd52luq zmm5, zmm8, zmm8",
            "vpmadd52luq zmm6, zmm8, zmm8",
            "vpmadd52luq zmm7, zmm8, zmm8",
            ".endr",
            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
            out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _, out("zmm8") _,
            options(nomem, nostack),
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn bench_ifma(_: &mut Criterion) {}

#[cfg(not(target_arch = "x86_64"))]
fn bench_clock(_: &mut Criterion) {}

#[cfg(not(target_arch = "x86_64"))]
fn bench_mulx_ceiling(_: &mut Criterion) {}

criterion_group!(
    benches,
    bench_mul,
    bench_backends,
    bench_clock,
    bench_mulx_ceiling,
    bench_ifma
);
criterion_main!(benches);

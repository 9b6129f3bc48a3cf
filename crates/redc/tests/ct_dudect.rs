//! A fixed-vs-random timing test in the dudect style (Reparaz, Balasch, Verbauwhede, DATE
//! 2017) of the exponentiations **as they run on this CPU**: every backend's fixed-window
//! exponentiation and every IFMA form (lanes, also at 14 digits for its Karatsuba squaring,
//! and with the schoolbook squaring, each with both ways of selecting a window's multiplier;
//! at 40 digits with the memory-operand products; pair, duo) with the secret
//! exponent as the class (all zeros against random), and the wide and duo
//! public exponentiations with the base as the class (1 against random: they fault-check a
//! signature that is still secret). This executes the compiled Rust drivers around the
//! assembly kernels (window digits, table scans, copies), which the static check of
//! `ct_asm.rs` does not cover and Valgrind cannot run on ADX or AVX-512.
//!
//! Each measurement times one call, the class drawn at random for each, both classes on the
//! same modulus and base; Welch's t statistic is taken on the measurements below the pooled
//! 90th percentile (cropping the upper tail, where interrupts land, as dudect does). A form
//! fails if `|t|` exceeds [`LIMIT`], the level dudect reports as a definite leak, in two
//! measurements in a row (the second taken only after the first is over it). A negative
//! control runs the same harness on the variable-time square-and-multiply of `exp::binary`
//! (one multiplication per set bit: a top-bit-only exponent against random ones) and must
//! exceed it, so the test can fail.
//!
//! What it cannot show: leaks smaller than this many measurements resolve, or ones that need
//! another class of inputs. It complements the other checks (see `docs/constant-time.md`).

#![cfg(target_arch = "x86_64")]

mod common;

use common::welch::welch;

use std::hint::black_box;
use std::time::Instant;

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use redc::exp::{binary, fixed};
use redc::mont::backend::ifma::{
    self, LaneForms, LaneProduct, LaneSelect, LaneSquare, Modulus52, PowJob, Token,
};
use redc::mont::backend::ifma_duo::{DuoSquaring, DuoWidth};
use redc::mont::backend::{ifma_duo, ifma_pair, portable_kernel, Backend};
use redc::mont::Modulus;

/// dudect's threshold for a definite difference between the classes.
const LIMIT: f64 = 10.0;

/// Measurements per class.
const PER_CLASS: usize = 4000;

/// The modulus size: 512 bits, so that a measurement is tens of microseconds.
const BITS: u64 = 512;

/// `|t|` of `f(class)`'s time over the two classes (see the module documentation).
fn t_of(rng: &mut ChaCha8Rng, mut f: impl FnMut(usize)) -> f64 {
    for c in 0..200 {
        f(c % 2);
    }
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    while times[0].len() < PER_CLASS || times[1].len() < PER_CLASS {
        let class = rng.gen_range(0..2usize);
        let t = Instant::now();
        f(class);
        times[class].push(t.elapsed().as_nanos() as f64);
    }
    let mut pooled: Vec<f64> = times[0].iter().chain(&times[1]).copied().collect();
    pooled.sort_by(|a, b| a.total_cmp(b));
    let cut = pooled[pooled.len() * 9 / 10];
    let crop = |x: &[f64]| x.iter().copied().filter(|&v| v < cut).collect::<Vec<f64>>();
    welch(&crop(&times[0]), &crop(&times[1])).abs()
}

/// A 512-bit odd modulus, a base below it, and the two classes' exponents: all zeros, and
/// random ones (a fresh exponent per call is drawn from a pool, so that the random class is
/// random).
struct Setup {
    m: Modulus<u64>,
    base: Vec<u64>,
    zero: Vec<u8>,
    random: Vec<Vec<u8>>,
}

fn setup(rng: &mut ChaCha8Rng) -> Setup {
    let n = common::random_modulus(rng, BITS);
    let s = (BITS / 64) as usize;
    let m = Modulus::new(&common::limbs::<u64>(&n, s)).unwrap();
    let base = common::limbs::<u64>(&(n - BigUint::from(12345u32)), s);
    let len = (BITS / 8) as usize;
    let random = (0..64)
        .map(|_| (0..len).map(|_| rng.gen()).collect())
        .collect();
    Setup {
        m,
        base,
        zero: vec![0; len],
        random,
    }
}

impl Setup {
    fn exp(&self, class: usize, i: &mut usize) -> &[u8] {
        *i += 1;
        if class == 0 {
            &self.zero
        } else {
            &self.random[*i % self.random.len()]
        }
    }
}

/// Runs one IFMA form on two jobs (the two CRT halves' shape) with the class's exponent.
fn ifma_form(token: Token, form: &str, st: &Setup, m52: &Modulus52, class: usize, i: &mut usize) {
    let s = st.m.limbs();
    let (mut o0, mut o1) = (vec![0u64; s], vec![0u64; s]);
    let e = st.exp(class, i);
    let mut jobs = [
        PowJob {
            out: &mut o0,
            base: &st.base,
            exp: e,
            modulus: m52,
        },
        PowJob {
            out: &mut o1,
            base: &st.base,
            exp: e,
            modulus: m52,
        },
    ];
    let lanes = |select, square, product| LaneForms {
        select,
        square,
        product,
    };
    use LaneProduct::*;
    use LaneSelect::*;
    use LaneSquare::*;
    let lane_forms = match form {
        "lanes" | "lanes, Karatsuba squaring" => Some(lanes(Scan, Standard, Registers)),
        "lanes, stitched selection" | "lanes, Karatsuba squaring, stitched selection" => {
            Some(lanes(Stitched, Standard, Registers))
        }
        "lanes, schoolbook squaring" => Some(lanes(Scan, Schoolbook, Registers)),
        "lanes, schoolbook squaring, stitched selection" => {
            Some(lanes(Stitched, Schoolbook, Registers))
        }
        "lanes, memory-operand products" => Some(lanes(Scan, Standard, MemoryOperands)),
        "lanes, tiled squaring and products" => {
            Some(lanes(Scan, LaneSquare::Tiled, LaneProduct::Tiled))
        }
        "lanes, tiled squaring and products, stitched selection" => {
            Some(lanes(Stitched, LaneSquare::Tiled, LaneProduct::Tiled))
        }
        _ => None,
    };
    match (lane_forms, form) {
        (Some(forms), _) => ifma::pow_lanes_in(token, &mut jobs, 4, forms),
        (None, "pair") => ifma_pair::pow_pair(token, &mut jobs, 4),
        (None, "duo") => {
            ifma_duo::pow_duo_with(token, &mut jobs, 4, DuoWidth::W512, DuoSquaring::Kernel)
        }
        (None, "duo256") => {
            ifma_duo::pow_duo_with(token, &mut jobs, 4, DuoWidth::W256, DuoSquaring::Kernel)
        }
        (None, _) => {
            ifma_duo::pow_duo_with(token, &mut jobs, 4, DuoWidth::W256, DuoSquaring::Product)
        }
    }
    black_box(&o0);
}

/// The class's base for the public exponentiations, as [`Setup::exp`] gives exponents: 1 for
/// class 0, else the next of the random ones.
fn base_of<'a>(class: usize, i: &mut usize, one: &'a [u64], bases: &'a [Vec<u64>]) -> &'a [u64] {
    *i += 1;
    if class == 0 {
        one
    } else {
        &bases[*i % bases.len()]
    }
}

/// 64 random numbers of `limbs` limbs below `2^(64·limbs − 1)` (so below any modulus of
/// that length with its top bit set): the random class of the public exponentiations' bases.
fn random_bases(rng: &mut ChaCha8Rng, limbs: usize) -> Vec<Vec<u64>> {
    (0..64)
        .map(|_| {
            let mut b: Vec<u64> = (0..limbs).map(|_| rng.gen()).collect();
            b[limbs - 1] >>= 1;
            b
        })
        .collect()
}

#[test]
fn exponentiations_show_no_timing_difference_between_secret_classes() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x00d0_dec7);
    let st = setup(&mut rng);
    let s = st.m.limbs();
    let mut report = Vec::new();
    let mut leaks = Vec::new();
    // A form over the limit is measured once more, and fails only if it is over again: a
    // difference in the code repeats, a burst of noise on a shared machine seldom does.
    let mut check = |name: String, rng: &mut ChaCha8Rng, f: &mut dyn FnMut(usize)| {
        let mut t = t_of(rng, &mut *f);
        if t > LIMIT {
            eprintln!("{name}: |t| = {t:.2}, measuring again");
            t = t.min(t_of(rng, &mut *f));
        }
        eprintln!("{name}: |t| = {t:.2}");
        report.push(format!("{name} {t:.2}"));
        if t > LIMIT {
            leaks.push(format!("{name}: |t| = {t:.2} > {LIMIT} twice"));
        }
    };

    // The negative control: one multiplication per set bit, a top-bit-only exponent against
    // random ones (the same bit length, so the same squarings).
    let pk = portable_kernel();
    let mut top = st.zero.clone();
    top[0] = 0x80;
    let mut i = 0;
    let control = t_of(&mut rng, |class| {
        let mut out = vec![0u64; s];
        let e = if class == 0 {
            &top[..]
        } else {
            i += 1;
            &st.random[i % st.random.len()]
        };
        let mut e = e.to_vec();
        e[0] |= 0x80;
        binary::pow_vartime(&mut out, &st.base, &e, &st.m, &pk);
        black_box(&out);
    });
    eprintln!("control (binary::pow_vartime): |t| = {control:.2}");
    assert!(
        control > LIMIT,
        "the harness did not see the variable-time control's difference (|t| = {control:.2})"
    );

    // Every backend's fixed window, as the kernels run it.
    for b in Backend::available() {
        let k = b.kernel().unwrap();
        let mut i = 0;
        check(format!("fixed::pow on {b}"), &mut rng, &mut |class| {
            let mut out = vec![0u64; s];
            fixed::pow(&mut out, &st.base, st.exp(class, &mut i), &st.m, &k, 4);
            black_box(&out);
        });
    }

    // The IFMA forms: the secret exponent, and the wide form's base.
    if let Some(token) = Token::get() {
        let lanes = Modulus52::new(&st.m, ifma::digits_for(BITS as usize).unwrap()).unwrap();
        // The same modulus in 14 digits (more than it needs, which is always correct): the
        // lane squaring's Karatsuba form, whose difference of halves takes a per-lane sign.
        let lanes14 = Modulus52::new(&st.m, 14).unwrap();
        // And in 40 digits, for the products with memory operands; in 30 (Karatsuba's square)
        // and 27 (the schoolbook square) for the tiled forms.
        let lanes40 = Modulus52::new(&st.m, 40).unwrap();
        let lanes30 = Modulus52::new(&st.m, 30).unwrap();
        let lanes27 = Modulus52::new(&st.m, 27).unwrap();
        // Each duo width at its smallest count for these moduli (12 and 10 digits).
        let duo_at = |width: DuoWidth| {
            let need = ifma::digits_for_bits(BITS as usize);
            let d = width.digit_counts().iter().find(|&&d| d >= need).unwrap();
            Modulus52::new(&st.m, *d).unwrap()
        };
        let (duo, duo256) = (duo_at(DuoWidth::W512), duo_at(DuoWidth::W256));
        for (form, m52) in [
            ("lanes", &lanes),
            ("lanes, Karatsuba squaring", &lanes14),
            ("lanes, stitched selection", &lanes),
            ("lanes, Karatsuba squaring, stitched selection", &lanes14),
            ("lanes, schoolbook squaring", &lanes14),
            ("lanes, schoolbook squaring, stitched selection", &lanes14),
            ("lanes, memory-operand products", &lanes40),
            ("lanes, tiled squaring and products", &lanes30),
            (
                "lanes, tiled squaring and products, stitched selection",
                &lanes27,
            ),
            ("pair", &lanes),
            ("duo", &duo),
            ("duo256", &duo256),
            ("duo256, squaring by the product kernel", &duo256),
        ] {
            let mut i = 0;
            check(format!("ifma {form}"), &mut rng, &mut |class| {
                ifma_form(token, form, &st, m52, class, &mut i)
            });
        }
        let n = common::random_modulus(&mut rng, 2048);
        let m = Modulus::new(&common::limbs::<u64>(&n, 32)).unwrap();
        let wide = Modulus52::new_wide(&m, ifma::digits_for_bits(2048)).unwrap();
        let one = common::limbs::<u64>(&BigUint::from(1u32), 32);
        let bases = random_bases(&mut rng, 32);
        let mut i = 0;
        let name = "ifma wide (public exponent, the base as the class)";
        check(name.into(), &mut rng, &mut |class| {
            let base = base_of(class, &mut i, &one, &bases);
            let mut out = vec![0u64; 32];
            let mut job = PowJob {
                out: &mut out,
                base,
                exp: &[],
                modulus: &wide,
            };
            ifma_pair::pow_wide_public_vartime(token, &mut job, &[1, 0, 1]);
            black_box(&out);
        });
        // The duo form's public exponentiation (the fault check modulo the primes of a small
        // two-prime key), both bases as the class, in the width the CPU table gives.
        let one = common::limbs::<u64>(&BigUint::from(1u32), s);
        let bases = random_bases(&mut rng, s);
        let mut i = 0;
        let name = "ifma duo (public exponent, the bases as the class)";
        check(name.into(), &mut rng, &mut |class| {
            let base = base_of(class, &mut i, &one, &bases);
            let (mut o0, mut o1) = (vec![0u64; s], vec![0u64; s]);
            let mut jobs = [
                PowJob {
                    out: &mut o0,
                    base,
                    exp: &[],
                    modulus: &duo256,
                },
                PowJob {
                    out: &mut o1,
                    base,
                    exp: &[],
                    modulus: &duo256,
                },
            ];
            ifma_duo::pow_duo_public_vartime(token, &mut jobs, &[1, 0, 1]);
            black_box(&o0);
        });
        // The lanes' public exponentiation (a batch's fault check: modulo `n` up to 2048-bit
        // keys, modulo the primes above), eight bases as the class, at 30 digits, where the
        // tiled kernels run.
        let mut i = 0;
        let name = "ifma lanes (public exponent, the bases as the class)";
        check(name.into(), &mut rng, &mut |class| {
            let base = base_of(class, &mut i, &one, &bases);
            let mut outs = vec![vec![0u64; s]; ifma::LANES];
            let mut jobs: Vec<PowJob<'_>> = outs
                .iter_mut()
                .map(|out| PowJob {
                    out,
                    base,
                    exp: &[],
                    modulus: &lanes30,
                })
                .collect();
            ifma::pow_lanes_public_vartime(token, &mut jobs, &[1, 0, 1]);
            black_box(&jobs[0].out);
        });
    } else {
        common::skip_backend(Backend::Ifma, "ifma timing classes");
    }
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
    assert!(!report.is_empty());
}

//! Every fast backend this CPU can run against the portable CIOS kernel and num-bigint: the
//! Montgomery multiplication and squaring at every limb count 1..=70 and the RSA sizes up to
//! 128 limbs, with edge and random moduli and operands, a proptest, and the constant-time
//! fixed-window exponentiation. A backend the CPU lacks is reported and skipped, or fails the
//! run if `REDC_REQUIRE` names it.

mod common;

use common::*;
use num_bigint::BigUint;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use redc::exp::{binary, fixed};
use redc::mont::backend::{portable_kernel, Backend};
use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};

/// The fast kernels under test: every available backend but the portable one.
fn fast_kernels() -> Vec<Kernel<u64>> {
    let mut v = Vec::new();
    for b in Backend::ALL {
        if b == Backend::Portable {
            continue;
        }
        if b.is_available() {
            v.push(b.kernel().expect("available backend has a kernel"));
        } else {
            skip_backend(b, "kernel differential tests");
        }
    }
    v
}

/// The moduli of `s` limbs worth testing: 2^64s − 1, 2^(64s−1) + 1, a random full-size one
/// and a random one with a short top limb.
fn moduli(rng: &mut ChaCha8Rng, s: usize) -> Vec<BigUint> {
    let bits = 64 * s as u64;
    let mut v = edge_moduli(bits);
    v.push(random_modulus(rng, bits));
    v.push(random_modulus(rng, bits - 29));
    v
}

/// Runs `k` against the portable CIOS kernel and num-bigint on one modulus. The scratch holds
/// garbage on entry, which the contract allows.
fn check_modulus(k: &Kernel<u64>, n: &BigUint, rng: &mut ChaCha8Rng, random_ops: usize) {
    let s = limbs_needed::<u64>(n);
    let m = Modulus::<u64>::new(&limbs::<u64>(n, s)).unwrap();
    let cios = Kernel::<u64>::portable(Algorithm::Cios, SqrVariant::Generic);
    let rinv = r_of::<u64>(s).modinv(n).unwrap();
    let ops: Vec<Vec<u64>> = operands(rng, n, random_ops)
        .iter()
        .map(|x| limbs(x, s))
        .collect();
    let mut out = vec![0u64; s];
    let mut scratch: Vec<u64> = (0..m.scratch().len()).map(|_| rng.gen()).collect();
    for a in &ops {
        let ab = big(a);
        (k.sqr())(&mut out, a, m.n(), m.n0(), &mut scratch);
        assert_eq!(
            out,
            m.mont_sqr(a, &cios),
            "{} sqr vs cios, {s} limbs",
            k.name()
        );
        assert_eq!(
            big(&out),
            &ab * &ab * &rinv % n,
            "{} sqr, {s} limbs",
            k.name()
        );
        for b in &ops {
            (k.mul())(&mut out, a, b, m.n(), m.n0(), &mut scratch);
            assert_eq!(
                out,
                m.mont_mul(a, b, &cios),
                "{} mul vs cios, {s} limbs",
                k.name()
            );
            assert_eq!(
                big(&out),
                &ab * big(b) * &rinv % n,
                "{} mul, {s} limbs",
                k.name()
            );
        }
    }
}

#[test]
fn kernels_match_cios_and_num_bigint_at_every_size() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    // Every size with a MULX kernel of its own is among the sizes below.
    #[cfg(target_arch = "x86_64")]
    for s in redc::mont::backend::mulx::SIZED_LIMBS {
        assert!(
            (1..=70).contains(s) || *s == 128,
            "sized MULX kernel at {s} limbs untested"
        );
    }
    for k in fast_kernels() {
        let sizes = (1..=70usize).chain([128]);
        for s in sizes {
            for n in moduli(&mut rng, s) {
                check_modulus(&k, &n, &mut rng, 2);
            }
        }
    }
}

#[test]
fn kernels_match_at_rsa_sizes_with_more_operands() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for k in fast_kernels() {
        for s in [6usize, 8, 11, 12, 16, 22, 24, 32, 48, 64, 128] {
            for n in moduli(&mut rng, s) {
                check_modulus(&k, &n, &mut rng, 6);
            }
        }
    }
}

#[test]
fn one_word_moduli() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for k in fast_kernels() {
        for n in [
            3u64,
            5,
            0xffff_ffff_ffff_ffc5,
            u64::MAX,
            0x8000_0000_0000_0001,
        ] {
            check_modulus(&k, &BigUint::from(n), &mut rng, 4);
        }
    }
}

/// The almost Montgomery pair of `k` on one modulus: for operands anywhere below `R` (edge
/// values `n − 1`, `n`, `n + 1`, `R − 1` and random ones), the output is `< R` and congruent
/// to `a·b·R⁻¹` mod `n`; and the full kernel given such an `a` and `b = 1` (the conversion out
/// of the Montgomery domain) reduces fully.
fn check_almost(k: &Kernel<u64>, n: &BigUint, rng: &mut ChaCha8Rng) {
    let (mul, sqr) = k.almost().expect("kernel has an almost pair");
    let s = limbs_needed::<u64>(n);
    let m = Modulus::<u64>::new(&limbs::<u64>(n, s)).unwrap();
    let r = r_of::<u64>(s);
    let rinv = r.modinv(n).unwrap();
    let one = BigUint::from(1u8);
    let mut vals = vec![n - &one, n.clone(), n + &one, &r - &one];
    for _ in 0..3 {
        let x: Vec<u64> = (0..s).map(|_| rng.gen()).collect();
        vals.push(big(&x));
    }
    let vals: Vec<BigUint> = vals.into_iter().filter(|v| v < &r).collect();
    let mut out = vec![0u64; s];
    let mut scratch: Vec<u64> = (0..m.scratch().len()).map(|_| rng.gen()).collect();
    let unit = limbs::<u64>(&one, s);
    for a in &vals {
        let al = limbs::<u64>(a, s);
        sqr(&mut out, &al, m.n(), m.n0(), &mut scratch);
        assert!(
            big(&out) < r,
            "{} almost sqr out of range, {s} limbs",
            k.name()
        );
        assert_eq!(
            big(&out) % n,
            a * a * &rinv % n,
            "{} almost sqr, {s} limbs",
            k.name()
        );
        for b in &vals {
            mul(
                &mut out,
                &al,
                &limbs::<u64>(b, s),
                m.n(),
                m.n0(),
                &mut scratch,
            );
            assert!(
                big(&out) < r,
                "{} almost mul out of range, {s} limbs",
                k.name()
            );
            assert_eq!(
                big(&out) % n,
                a * b * &rinv % n,
                "{} almost mul, {s} limbs",
                k.name()
            );
        }
        (k.mul())(&mut out, &al, &unit, m.n(), m.n0(), &mut scratch);
        assert_eq!(
            big(&out),
            a * &rinv % n,
            "{} full mul by 1, {s} limbs",
            k.name()
        );
    }
}

#[test]
fn almost_kernels_stay_below_r_and_congruent() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for k in fast_kernels() {
        if k.almost().is_none() {
            continue;
        }
        for s in (1..=70usize).chain([128]) {
            for n in moduli(&mut rng, s) {
                check_almost(&k, &n, &mut rng);
            }
        }
    }
}

#[test]
fn mulx_is_detected_when_the_cpu_has_it() {
    if Backend::Mulx.is_available() {
        // IFMA CPUs get the ifma backend, whose single products are MULX's.
        let best = if Backend::Ifma.is_available() {
            Backend::Ifma
        } else {
            Backend::Mulx
        };
        assert_eq!(Backend::detect(), best);
        assert_eq!(Backend::Mulx.kernel().unwrap().name(), "mulx");
        assert!(!Backend::Mulx.kernel().unwrap().lanes());
    } else {
        skip_backend(Backend::Mulx, "mulx detection");
        assert!(Backend::Mulx.kernel().is_err());
    }
    assert_eq!(portable_kernel().name(), "portable");
}

#[test]
fn ifma_is_offered_only_with_its_extensions() {
    if Backend::Ifma.is_available() {
        let k = Backend::Ifma.kernel().unwrap();
        assert_eq!(k.name(), "ifma");
        assert!(k.lanes());
        assert!(
            Backend::Mulx.is_available(),
            "ifma's single products run on MULX"
        );
    } else {
        skip_backend(Backend::Ifma, "ifma detection");
        assert!(Backend::Ifma.kernel().is_err());
    }
}

#[test]
fn fixed_window_pow_matches_num_bigint() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for k in fast_kernels() {
        for bits in [64u64, 200, 512, 1000, 1024, 1536, 2048, 3072, 4096] {
            let n = random_modulus(&mut rng, bits);
            let s = limbs_needed::<u64>(&n);
            let m = Modulus::<u64>::new(&limbs::<u64>(&n, s)).unwrap();
            // Exponents up to 512 bits keep the 4096-bit case quick.
            let e: Vec<u8> = (0..(bits as usize / 8).min(64))
                .map(|_| rng.gen())
                .collect();
            let ev = BigUint::from_bytes_be(&e);
            for base in operands(&mut rng, &n, 1) {
                let mut out = vec![0u64; s];
                let w = fixed::window_for_bits(e.len() * 8);
                fixed::pow(&mut out, &limbs(&base, s), &e, &m, &k, w);
                assert_eq!(big(&out), base.modpow(&ev, &n), "{} pow {bits}", k.name());
            }
        }
    }
}

#[test]
fn binary_pow_matches_num_bigint_for_odd_and_even_exponents() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for k in fast_kernels() {
        for bits in [64u64, 512, 1024, 2048, 4096] {
            let n = random_modulus(&mut rng, bits);
            let s = limbs_needed::<u64>(&n);
            let m = Modulus::<u64>::new(&limbs::<u64>(&n, s)).unwrap();
            for e in [
                vec![0x01u8, 0x00, 0x01],
                vec![0x01, 0x00, 0x00],
                vec![0x03],
                vec![0x02],
                vec![0x01],
                vec![0xfe, 0xdc, 0xba, 0x98],
            ] {
                let ev = BigUint::from_bytes_be(&e);
                for base in operands(&mut rng, &n, 1) {
                    let mut out = vec![0u64; s];
                    binary::pow_vartime(&mut out, &limbs(&base, s), &e, &m, &k);
                    assert_eq!(
                        big(&out),
                        base.modpow(&ev, &n),
                        "{} binary {bits}",
                        k.name()
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn proptest_kernels_match_cios(seed: u64, s in prop_oneof![1usize..=70, Just(16), Just(32)]) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let bits = 64 * s as u64 - rng.gen_range(0..64);
        let n = random_modulus(&mut rng, bits.max(2));
        for k in fast_kernels() {
            check_modulus(&k, &n, &mut rng, 2);
        }
    }
}

/// Every form of the CPU-kind table (`redc::mont::backend::cpu`) runs here, whatever this CPU
/// is: forcing a kind (test hook) switches the MULX 16-limb form and the IFMA forms (the duo
/// form's register width and squaring, the lane window), and each must match the portable
/// kernel and, for RSA, the portable backend's results, at 1024 bits (the duo's 10 digits),
/// 1536 bits (16 digits, where the kinds differ in register width) and 2048 bits. (Other
/// tests of this binary may run meanwhile under the forced kind: every form computes the
/// same values, so they stay valid.)
#[test]
fn every_form_of_the_cpu_table_matches() {
    use redc::mont::backend::cpu::{force_kind, CpuKind, Forms, Mulx16};
    use redc::rsa::{DecodeRsaPrivateKey, EncodeRsaPrivateKey, RsaPrivateKey};
    let mut rng = ChaCha8Rng::seed_from_u64(207);
    let keys: Vec<_> = [1024, 1536, 2048]
        .into_iter()
        .map(|bits| {
            let key = RsaPrivateKey::new(&mut rng, bits).unwrap();
            let mut portable = key.clone();
            portable.set_backend(Backend::Portable).unwrap();
            let msg: Vec<u8> = (0..key.size() as u32)
                .map(|i| (i * 7 + 1) as u8 & 0x7f)
                .collect();
            let want = portable.raw_private(None, &msg).unwrap();
            (key.to_pkcs1_der().unwrap(), msg, want)
        })
        .collect();
    let mut seen_mulx = vec![];
    let mut seen_forms = vec![];
    for kind in CpuKind::ALL {
        force_kind(Some(kind));
        let forms = Forms::current();
        assert_eq!(forms, Forms::of(kind));
        if !seen_mulx.contains(&forms.mulx16) && Backend::Mulx.is_available() {
            seen_mulx.push(forms.mulx16);
            let k = Backend::Mulx.kernel().unwrap();
            for n in moduli(&mut rng, 16) {
                check_modulus(&k, &n, &mut rng, 6);
                check_almost(&k, &n, &mut rng);
            }
        }
        if seen_forms.contains(&forms) {
            continue;
        }
        seen_forms.push(forms);
        for (der, msg, want) in &keys {
            for b in Backend::available() {
                // A key takes its forms when it is made: one per kind.
                let mut k = RsaPrivateKey::from_pkcs1_der(der.as_bytes()).unwrap();
                k.set_backend(b).unwrap();
                let bits = k.size() * 8;
                assert_eq!(
                    k.raw_private(None, msg).unwrap(),
                    *want,
                    "{kind:?} on {}, {bits} bits",
                    b.name()
                );
                assert_eq!(
                    k.raw_private_batch(None, &[&msg[..], &msg[..]]).unwrap()[1],
                    *want,
                    "{kind:?} batch on {}, {bits} bits",
                    b.name()
                );
            }
        }
    }
    force_kind(None);
    assert!(
        seen_forms.len() >= 4,
        "the table has at least four distinct rows"
    );
    if Backend::Mulx.is_available() {
        assert!(seen_mulx.contains(&Mulx16::Rows) && seen_mulx.contains(&Mulx16::Window));
    }
}

/// A required backend that a test would skip fails the test instead (what `REDC_REQUIRE`
/// does in CI); one not required is only reported.
#[test]
#[should_panic(expected = "backend ifma is required (REDC_REQUIRE)")]
fn a_required_backend_cannot_be_skipped() {
    skip_backend_unless_in(&[Backend::Mulx], Backend::Portable, "not required");
    skip_backend_unless_in(&[Backend::Mulx, Backend::Ifma], Backend::Ifma, "required");
}

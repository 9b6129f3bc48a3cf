//! The AVX-512 IFMA lanes (`mont::backend::ifma`) against num-bigint: every compiled digit
//! count, edge and random moduli, one to eight lanes, exponents of every shape; and the
//! private operation and the batch API on the ifma backend against the MULX and portable
//! kernels. The lane tests are skipped (and reported) on CPUs without the extensions, or fail
//! if `REDC_REQUIRE` names `ifma`; the batch API's run everywhere.

#![cfg(target_arch = "x86_64")]

mod common;

use common::*;
use num_bigint::{BigUint, RandBigInt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use redc::mont::backend::cpu::{CpuKind, Forms};
use redc::mont::backend::ifma::{self, Modulus52, PowJob, Token, COMPILED_DIGITS, LANES};
use redc::mont::backend::ifma_duo::{self, DuoSquaring, DuoWidth, DUO_DIGITS, DUO_DIGITS_256};
use redc::mont::backend::{portable_kernel, Backend};
use redc::mont::Modulus;
use redc::rsa::{
    Error, InputFault, ParameterFault, Pkcs1v15Sign, Pss, RsaPrivateKey, SignatureScheme,
};

fn token() -> Option<Token> {
    let t = Token::get();
    if t.is_none() {
        common::skip_backend(Backend::Ifma, "ifma kernels");
    }
    t
}

/// Which of the two IFMA exponentiations a check runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    /// `ifma::pow_lanes`: up to eight, one per lane.
    Lanes,
    /// `ifma_pair::pow_pair`: one or two, each across its registers.
    Pair,
    /// `ifma_duo::pow_duo_with`: one or two, sharing every register digit by digit, in
    /// registers of the given width, squaring the given way.
    Duo(DuoWidth, DuoSquaring),
}

fn run_form(token: Token, form: Form, jobs: &mut [PowJob<'_>], window: u32) {
    match form {
        Form::Lanes => ifma::pow_lanes(token, jobs, window),
        Form::Pair => redc::mont::backend::ifma_pair::pow_pair(token, jobs, window),
        Form::Duo(width, squaring) => ifma_duo::pow_duo_with(token, jobs, window, width, squaring),
    }
}

/// Runs one call of `pow_lanes` on `jobs` (modulus, base, exponent) and checks every lane
/// against num-bigint's `modpow`.
fn check_call(
    token: Token,
    form: Form,
    digits: usize,
    jobs: &[(BigUint, BigUint, Vec<u8>)],
    window: u32,
) {
    let s = limbs_needed::<u64>(&jobs[0].0);
    let moduli: Vec<Modulus<u64>> = jobs
        .iter()
        .map(|(n, _, _)| Modulus::new(&limbs::<u64>(n, s)).unwrap())
        .collect();
    let m52: Vec<Modulus52> = moduli
        .iter()
        .map(|m| Modulus52::new(m, digits).expect("a digit count that fits"))
        .collect();
    let bases: Vec<Vec<u64>> = jobs.iter().map(|(_, b, _)| limbs(b, s)).collect();
    let mut outs = vec![vec![0u64; s]; jobs.len()];
    let mut calls: Vec<PowJob<'_>> = outs
        .iter_mut()
        .enumerate()
        .map(|(i, out)| PowJob {
            out,
            base: &bases[i],
            exp: &jobs[i].2,
            modulus: &m52[i],
        })
        .collect();
    run_form(token, form, &mut calls, window);
    for (i, (n, b, e)) in jobs.iter().enumerate() {
        let want = b.modpow(&BigUint::from_bytes_be(e), n);
        assert_eq!(
            big(&outs[i]),
            want,
            "{form:?}: digits {digits} lane {i} of {} window {window} exp {} bytes",
            jobs.len(),
            e.len()
        );
    }
}

#[test]
fn lanes_match_num_bigint_at_every_compiled_size() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    for &digits in &COMPILED_DIGITS {
        // The largest modulus the count takes, and one 37 bits shorter.
        let top = (52 * digits - 2) as u64;
        for bits in [top, top - 37] {
            let mut moduli = edge_moduli(bits);
            while moduli.len() < LANES {
                moduli.push(random_modulus(&mut rng, bits));
            }
            for (form, lanes) in [
                (Form::Lanes, 1usize),
                (Form::Lanes, 2),
                (Form::Lanes, 3),
                (Form::Lanes, LANES),
                (Form::Pair, 1),
                (Form::Pair, 2),
            ] {
                for elen in [0usize, 1, 17, (bits as usize).div_ceil(8)] {
                    let jobs: Vec<(BigUint, BigUint, Vec<u8>)> = (0..lanes)
                        .map(|i| {
                            let n = moduli[(i + lanes) % moduli.len()].clone();
                            let b = match i % 4 {
                                0 => rng.gen_biguint_below(&n),
                                1 => BigUint::from(0u32),
                                2 => &n - 1u32,
                                _ => BigUint::from(1u32),
                            };
                            let e: Vec<u8> = (0..elen).map(|_| rng.gen()).collect();
                            (n, b, e)
                        })
                        .collect();
                    let window = ifma::window_for(elen * 8, digits);
                    check_call(token, form, digits, &jobs, window);
                }
            }
        }
    }
}

#[test]
fn every_window_and_all_ones_exponents() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let bits = 1024;
    let digits = ifma::digits_for(bits).unwrap();
    for window in 1..=7 {
        let jobs: Vec<(BigUint, BigUint, Vec<u8>)> = (0..LANES)
            .map(|i| {
                let n = random_modulus(&mut rng, bits as u64);
                let b = rng.gen_biguint_below(&n);
                let e = if i % 2 == 0 {
                    vec![0xff; 128]
                } else {
                    (0..128).map(|_| rng.gen()).collect()
                };
                (n, b, e)
            })
            .collect();
        check_call(token, Form::Lanes, digits, &jobs, window);
        check_call(token, Form::Pair, digits, &jobs[..2], window);
    }
}

#[test]
fn modulus52_rejects_too_few_or_too_many_digits() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let n = random_modulus(&mut rng, 1024);
    let m = Modulus::<u64>::new(&limbs::<u64>(&n, 16)).unwrap();
    assert_eq!(ifma::digits_for(1024), Some(20));
    // The 256-bit duo kernels only where a kind's table lets them run.
    let (zen4, zen5) = (Forms::of(CpuKind::Zen4), Forms::of(CpuKind::Zen5));
    assert_eq!(ifma_duo::duo_digits_for(1024, &zen4), Some(20));
    // RSA-3072's primes: 30 digits, run in the registers of 32 with one double step fewer.
    assert_eq!(ifma_duo::duo_digits_for(1536, &zen4), Some(30));
    assert_eq!(ifma_duo::duo_digits_for(1560, &zen4), Some(32));
    // The 256-bit kernels: on Zen 4 at every count up to 16 digits, elsewhere only at the
    // counts the 512-bit kernels lack (10 and 14 digits, where they shorten the number).
    let intel = Forms::of(CpuKind::IntelSapphireRapids);
    for forms in [&zen5, &intel] {
        assert_eq!(ifma_duo::duo_digits_for(512, forms), Some(10));
        assert_eq!(ifma_duo::duo_digits_for(700, forms), Some(14));
        assert_eq!(ifma_duo::duo_digits_for(600, forms), Some(12));
        assert_eq!(ifma_duo::duo_digits_for(768, forms), Some(16));
        for (d, w) in [
            (10, DuoWidth::W256),
            (12, DuoWidth::W512),
            (14, DuoWidth::W256),
        ] {
            assert_eq!(ifma_duo::duo_width_for(d, forms), Some(w), "{d} digits");
        }
        assert_eq!(ifma_duo::duo_width_for(16, forms), Some(DuoWidth::W512));
    }
    assert_eq!(ifma_duo::duo_digits_for(512, &zen4), Some(10));
    assert_eq!(ifma_duo::duo_digits_for(600, &zen4), Some(12));
    for d in [10, 12, 14, 16] {
        assert_eq!(ifma_duo::duo_width_for(d, &zen4), Some(DuoWidth::W256));
    }
    for forms in [&zen4, &zen5, &intel] {
        // 1664-bit keys: 17 digits, beyond the 256-bit range: 20 in 512-bit registers.
        assert_eq!(ifma_duo::duo_digits_for(832, forms), Some(20));
        assert_eq!(ifma_duo::duo_width_for(20, forms), Some(DuoWidth::W512));
        // The duo squares by its product kernel up to 12 digits (20 on Intel).
        let top = if forms == &intel { 20 } else { 12 };
        for d in [10, 12, 14, 16, 20, 24, 30, 40] {
            let want = if d <= top {
                DuoSquaring::Product
            } else {
                DuoSquaring::Kernel
            };
            assert_eq!(ifma_duo::duo_squaring_for(d, forms), want, "{d} digits");
        }
    }
    for kind in CpuKind::ALL {
        let forms = Forms::of(kind);
        let top = match kind {
            CpuKind::IntelIceLake | CpuKind::IntelSapphireRapids => 20,
            _ => 12,
        };
        assert_eq!(forms.duo_sqr_by_product_up_to, top, "{kind:?}");
        assert_eq!(forms.duo_256_up_to, 16, "{kind:?}");
        assert_eq!(
            forms.duo_256_at_shared_counts,
            kind == CpuKind::Zen4,
            "{kind:?}"
        );
    }
    assert!(Modulus52::new(&m, 20).is_some());
    assert!(Modulus52::new(&m, 19).is_none(), "too few digits");
    assert!(Modulus52::new(&m, 21).is_some(), "more digits are correct");
    assert!(Modulus52::new(&m, 41).is_none(), "beyond MAX_DIGITS");
    assert_eq!(
        ifma::digits_for(52 * 40 - 1),
        None,
        "beyond the largest count"
    );
    assert_eq!(ifma_duo::duo_digits_for(52 * 40 - 1, &zen4), None);
}

#[test]
fn each_form_refuses_a_digit_count_it_does_not_run() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let n = random_modulus(&mut rng, 1024);
    let m = Modulus::<u64>::new(&limbs::<u64>(&n, 16)).unwrap();
    // A 512-bit modulus for the count below 20 digits.
    let small = random_modulus(&mut rng, 512);
    let small = Modulus::<u64>::new(&limbs::<u64>(&small, 8)).unwrap();
    let base = [3u64; 16];
    let exp = vec![0x35u8; 128];
    // 21 digits: neither a lane count nor a duo count; 24: a 512-bit duo count only; 10: a
    // 256-bit duo count only; 26: even, but no 512-bit kernel has it.
    for (form, digits) in [
        (Form::Lanes, 21),
        (Form::Lanes, 24),
        (Form::Duo(DuoWidth::W512, DuoSquaring::Kernel), 21),
        (Form::Duo(DuoWidth::W512, DuoSquaring::Kernel), 26),
        (Form::Duo(DuoWidth::W512, DuoSquaring::Kernel), 10),
        (Form::Duo(DuoWidth::W256, DuoSquaring::Kernel), 21),
        (Form::Duo(DuoWidth::W256, DuoSquaring::Kernel), 24),
    ] {
        let (m, limbs) = if digits < 20 { (&small, 8) } else { (&m, 16) };
        let m52 = Modulus52::new(m, digits).unwrap();
        let mut out = vec![0u64; limbs];
        let mut jobs = [PowJob {
            out: &mut out,
            base: &base[..limbs],
            exp: &exp,
            modulus: &m52,
        }];
        let call = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_form(token, form, &mut jobs, 5)
        }));
        assert!(call.is_err(), "{form:?} took {digits} digits");
    }
}

#[test]
fn duo_matches_num_bigint_at_every_duo_size() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    // Each count with the one below it: the smallest modulus a count takes is one bit above
    // the largest its predecessor takes (the first count: a digit below its largest).
    let pairs = |counts: &'static [usize], width| {
        counts
            .iter()
            .enumerate()
            .map(move |(i, &d)| (d, i.checked_sub(1).map(|j| counts[j]), width))
    };
    let counts = pairs(&DUO_DIGITS, DuoWidth::W512).chain(pairs(&DUO_DIGITS_256, DuoWidth::W256));
    for (digits, below, width) in counts {
        // The largest modulus the count takes, and the smallest.
        let top = (52 * digits - 2) as u64;
        let low = below.map_or(top - 51, |b| (52 * b - 1) as u64);
        for bits in [top, low] {
            let mut moduli = edge_moduli(bits);
            moduli.push(random_modulus(&mut rng, bits));
            for count in [1usize, 2] {
                for elen in [0usize, 1, 17, (bits as usize).div_ceil(8)] {
                    let jobs: Vec<(BigUint, BigUint, Vec<u8>)> = (0..count)
                        .map(|i| {
                            let n = moduli[(i + count + elen) % moduli.len()].clone();
                            let b = match (i + elen) % 4 {
                                0 => rng.gen_biguint_below(&n),
                                1 => BigUint::from(0u32),
                                2 => &n - 1u32,
                                _ => BigUint::from(1u32),
                            };
                            let e: Vec<u8> = (0..elen).map(|_| rng.gen()).collect();
                            (n, b, e)
                        })
                        .collect();
                    let window = ifma::window_for(elen * 8, digits);
                    for sq in [DuoSquaring::Kernel, DuoSquaring::Product] {
                        check_call(token, Form::Duo(width, sq), digits, &jobs, window);
                    }
                }
            }
        }
    }
}

#[test]
fn duo_public_exponent_matches_num_bigint() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(65537);
    let counts = DUO_DIGITS
        .iter()
        .map(|&d| (d, DuoWidth::W512))
        .chain(DUO_DIGITS_256.iter().map(|&d| (d, DuoWidth::W256)));
    // Empty and zero, one bit, runs of squarings of every length at the end (one, two, 31).
    let exps: [&[u8]; 9] = [
        &[],
        &[0],
        &[1],
        &[2],
        &[3],
        &[0x01, 0x0c],
        &[1, 0, 1],
        &[0x80, 0, 0, 0],
        &[0xde, 0xad, 0xbe, 0xef, 0x01],
    ];
    for (digits, width) in counts {
        let bits = (52 * digits - 2) as u64;
        let mut moduli = edge_moduli(bits);
        moduli.push(random_modulus(&mut rng, bits));
        let s = limbs_needed::<u64>(&moduli[0]);
        let m52: Vec<Modulus52> = moduli
            .iter()
            .map(|n| Modulus52::new(&Modulus::new(&limbs::<u64>(n, s)).unwrap(), digits).unwrap())
            .collect();
        for (k, e) in exps.iter().enumerate() {
            for count in [1usize, 2] {
                let pick: Vec<usize> = (0..count).map(|i| (k + i) % moduli.len()).collect();
                let bases: Vec<BigUint> = pick
                    .iter()
                    .enumerate()
                    .map(|(i, &j)| match (k + i) % 4 {
                        0 => rng.gen_biguint_below(&moduli[j]),
                        1 => BigUint::from(0u32),
                        2 => &moduli[j] - 1u32,
                        _ => BigUint::from(1u32),
                    })
                    .collect();
                let base_limbs: Vec<Vec<u64>> = bases.iter().map(|b| limbs(b, s)).collect();
                for sq in [DuoSquaring::Kernel, DuoSquaring::Product] {
                    let mut outs = vec![vec![0u64; s]; count];
                    let mut jobs: Vec<PowJob<'_>> = outs
                        .iter_mut()
                        .zip(&pick)
                        .zip(&base_limbs)
                        .map(|((out, &j), base)| PowJob {
                            out,
                            base,
                            exp: &[],
                            modulus: &m52[j],
                        })
                        .collect();
                    ifma_duo::pow_duo_public_vartime_with(token, &mut jobs, e, width, sq);
                    for ((out, &j), base) in outs.iter().zip(&pick).zip(&bases) {
                        assert_eq!(
                            big(out),
                            base.modpow(&BigUint::from_bytes_be(e), &moduli[j]),
                            "{width:?} {sq:?}: {digits} digits, {count} job(s), e {e:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn duo_every_window_and_all_ones_exponents() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(55);
    for (bits, width) in [
        (512u64, DuoWidth::W256),
        (1024, DuoWidth::W256),
        (1024, DuoWidth::W512),
        // 30 digits in the registers of 32.
        (1536, DuoWidth::W512),
        (2048, DuoWidth::W512),
    ] {
        let need = ifma::digits_for_bits(bits as usize);
        let digits = *width.digit_counts().iter().find(|&&d| d >= need).unwrap();
        for window in 1..=7 {
            let jobs: Vec<(BigUint, BigUint, Vec<u8>)> = (0..2)
                .map(|i| {
                    let n = random_modulus(&mut rng, bits);
                    let b = rng.gen_biguint_below(&n);
                    let e = if i == 0 {
                        vec![0xff; (bits / 8) as usize]
                    } else {
                        (0..bits / 8).map(|_| rng.gen()).collect()
                    };
                    (n, b, e)
                })
                .collect();
            for sq in [DuoSquaring::Kernel, DuoSquaring::Product] {
                check_call(token, Form::Duo(width, sq), digits, &jobs, window);
            }
        }
    }
}

#[test]
fn both_forms_refuse_calls_of_mixed_shapes() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let n = random_modulus(&mut rng, 1024);
    let m = Modulus::<u64>::new(&limbs::<u64>(&n, 16)).unwrap();
    let m52 = Modulus52::new(&m, 20).unwrap();
    let base = vec![3u64; 16];
    let (short, long) = (vec![0x35u8; 127], vec![0x35u8; 128]);
    for form in [
        Form::Lanes,
        Form::Pair,
        Form::Duo(DuoWidth::W512, DuoSquaring::Kernel),
        Form::Duo(DuoWidth::W256, DuoSquaring::Kernel),
    ] {
        // Exponents of two lengths, a window out of range, no job at all.
        for (exps, window) in [(vec![&long, &short], 5), (vec![&long], 0), (vec![], 5)] {
            let mut outs = vec![vec![0u64; 16]; exps.len()];
            let mut jobs: Vec<PowJob<'_>> = outs
                .iter_mut()
                .zip(&exps)
                .map(|(out, exp)| PowJob {
                    out,
                    base: &base,
                    exp,
                    modulus: &m52,
                })
                .collect();
            let call = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_form(token, form, &mut jobs, window)
            }));
            assert!(
                call.is_err(),
                "{form:?} took {} jobs, window {window}",
                exps.len()
            );
        }
    }
}

/// Keys of every lane shape: two primes of 20 digits (lanes), 30 digits (MULX unless
/// batched), three and four primes.
fn keys(rng: &mut ChaCha8Rng) -> Vec<RsaPrivateKey> {
    [(1024, 2), (2048, 2), (2048, 3), (3072, 2), (4096, 4)]
        .into_iter()
        .map(|(bits, primes)| RsaPrivateKey::new_multi_prime(rng, bits, primes).unwrap())
        .collect()
}

#[test]
fn private_operation_and_batches_match_other_kernels() {
    // The batch API runs on every backend (one operation after another without IFMA).
    if !Backend::Ifma.is_available() {
        common::skip_backend(Backend::Ifma, "batches (they run on the other backends)");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for mut key in keys(&mut rng) {
        let k = key.size();
        let n = BigUint::from_bytes_be(&key.n().to_be_bytes());
        let inputs: Vec<Vec<u8>> = (0..11)
            .map(|i| {
                let x = match i {
                    0 => BigUint::from(0u32),
                    1 => &n - 1u32,
                    _ => rng.gen_biguint_below(&n),
                };
                let b = x.to_bytes_be();
                let mut v = vec![0u8; k - b.len()];
                v.extend_from_slice(&b);
                v
            })
            .collect();
        let refs: Vec<&[u8]> = inputs.iter().map(|v| &v[..]).collect();

        key.set_kernel(portable_kernel());
        let want: Vec<Vec<u8>> = refs
            .iter()
            .map(|i| key.raw_private(None, i).unwrap().to_vec())
            .collect();
        for b in [Backend::Portable, Backend::Mulx, Backend::Ifma] {
            if !b.is_available() || (b == Backend::Portable && k > 256) {
                continue;
            }
            key.set_kernel(b.kernel().unwrap());
            for (i, w) in refs.iter().zip(&want) {
                assert_eq!(
                    &key.raw_private(None, i).unwrap()[..],
                    &w[..],
                    "{}",
                    b.name()
                );
                assert_eq!(
                    &key.raw_private(Some(&mut rng), i).unwrap()[..],
                    &w[..],
                    "{} blinded",
                    b.name()
                );
            }
            // Batches of every length up to eleven (more than one call of eight lanes).
            for len in [1, 2, 3, 4, 5, 8, 11] {
                let got = key.raw_private_batch(None, &refs[..len]).unwrap();
                let blinded = key.raw_private_batch(Some(&mut rng), &refs[..len]).unwrap();
                for j in 0..len {
                    assert_eq!(&got[j][..], &want[j][..], "{} batch {len}", b.name());
                    assert_eq!(&blinded[j][..], &want[j][..], "{} blinded batch", b.name());
                }
            }
        }
    }
}

#[test]
fn sign_batch_gives_the_single_signatures() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    let scheme = Pkcs1v15Sign::new::<sha2::Sha256>();
    let hashes: Vec<Vec<u8>> = (0..9u8).map(|i| vec![i; 32]).collect();
    let refs: Vec<&[u8]> = hashes.iter().map(|h| &h[..]).collect();
    let batch = scheme.sign_batch(Some(&mut rng), &key, &refs).unwrap();
    assert_eq!(batch.len(), refs.len());
    for (h, sig) in refs.iter().zip(&batch) {
        let single = Pkcs1v15Sign::new::<sha2::Sha256>()
            .sign(None, &key, h)
            .unwrap();
        assert_eq!(sig, &single);
        Pkcs1v15Sign::new::<sha2::Sha256>()
            .verify(key.public_key(), h, sig)
            .unwrap();
    }
    // All or nothing: one hash of the wrong length fails the batch.
    let mut bad = refs.clone();
    bad[4] = &hashes[0][..31];
    assert!(scheme.sign_batch(None, &key, &bad).is_err());
    assert!(scheme.sign_batch(None, &key, &[]).unwrap().is_empty());
}

#[test]
fn pss_sign_batch_verifies_and_matches_unsalted_singles() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    let hashes: Vec<Vec<u8>> = (0..9u8).map(|i| vec![i ^ 0x5a; 32]).collect();
    let refs: Vec<&[u8]> = hashes.iter().map(|h| &h[..]).collect();
    // Salted: every signature verifies, and the salts differ.
    let salted = Pss::new::<sha2::Sha256>();
    let batch = salted.sign_batch(Some(&mut rng), &key, &refs).unwrap();
    assert_eq!(batch.len(), refs.len());
    for (h, sig) in refs.iter().zip(&batch) {
        Pss::new::<sha2::Sha256>()
            .verify(key.public_key(), h, sig)
            .unwrap();
    }
    let again = salted.sign_batch(Some(&mut rng), &key, &refs).unwrap();
    assert_ne!(batch, again, "fresh salts give fresh signatures");
    // Unsalted PSS is deterministic: the batch gives the single signatures' bytes.
    let unsalted = Pss::new_with_salt::<sha2::Sha256>(0);
    let batch = unsalted.sign_batch(Some(&mut rng), &key, &refs).unwrap();
    for (h, sig) in refs.iter().zip(&batch) {
        let single = Pss::new_with_salt::<sha2::Sha256>(0)
            .sign(Some(&mut rng), &key, h)
            .unwrap();
        assert_eq!(sig, &single);
    }
    // All or nothing, and no salts without a generator.
    let mut bad = refs.clone();
    bad[4] = &hashes[0][..31];
    assert_eq!(
        salted.sign_batch(Some(&mut rng), &key, &bad),
        Err(Error::InputOutOfRange(InputFault::DigestLength {
            len: 31,
            expected: 32
        }))
    );
    assert_eq!(
        salted.sign_batch(None, &key, &refs),
        Err(Error::UnsupportedParameter(ParameterFault::RngRequired))
    );
    assert!(salted
        .sign_batch(Some(&mut rng), &key, &[])
        .unwrap()
        .is_empty());
}

#[test]
fn decrypt_batch_gives_each_ciphertext_its_single_result() {
    use redc::rsa::{Error, Oaep, PaddingScheme};
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for primes in [2, 3] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, 2048, primes).unwrap();
        let oaep = || Oaep::new::<sha2::Sha256>();
        let msgs: Vec<Vec<u8>> = (0..6u8).map(|i| vec![i; 10 + i as usize]).collect();
        let mut cts: Vec<Vec<u8>> = msgs
            .iter()
            .map(|m| oaep().encrypt(&mut rng, key.public_key(), m).unwrap())
            .collect();
        cts[2][100] ^= 1; // a padding defect after decryption
        cts.push(vec![0xff; key.size()]); // not below n
        cts.push(vec![1; key.size() - 1]); // wrong length
        let refs: Vec<&[u8]> = cts.iter().map(|c| &c[..]).collect();
        let got = oaep().decrypt_batch(Some(&mut rng), &key, &refs).unwrap();
        assert_eq!(got.len(), refs.len());
        for (i, (c, r)) in refs.iter().zip(&got).enumerate() {
            let single = oaep().decrypt(None, &key, c);
            assert_eq!(r, &single, "ciphertext {i}");
            match i {
                2 | 6 | 7 => assert_eq!(r, &Err(Error::Decryption)),
                _ => assert_eq!(r.as_ref().unwrap(), &msgs[i]),
            }
        }
    }
}

#[test]
fn public_exponent_lanes_match_num_bigint() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for bits in [1024u64, 2048] {
        let digits = ifma::digits_for(bits as usize).unwrap();
        let s = (bits / 64) as usize;
        let moduli: Vec<BigUint> = (0..LANES).map(|_| random_modulus(&mut rng, bits)).collect();
        let m: Vec<Modulus<u64>> = moduli
            .iter()
            .map(|n| Modulus::new(&limbs::<u64>(n, s)).unwrap())
            .collect();
        let m52: Vec<Modulus52> = m
            .iter()
            .map(|m| Modulus52::new(m, digits).unwrap())
            .collect();
        let exps: [&[u8]; 5] = [&[], &[1], &[3], &[1, 0, 1], &[0xde, 0xad, 0xbe, 0xef, 0x01]];
        for e in exps {
            for count in [1, 5, LANES] {
                let bases: Vec<BigUint> = moduli[..count]
                    .iter()
                    .enumerate()
                    .map(|(i, n)| match i {
                        0 => n - 1u32,
                        1 => BigUint::from(0u32),
                        _ => rng.gen_biguint_below(n),
                    })
                    .collect();
                let base_limbs: Vec<Vec<u64>> = bases.iter().map(|b| limbs(b, s)).collect();
                let mut outs = vec![vec![0u64; s]; count];
                let mut jobs: Vec<PowJob<'_>> = outs
                    .iter_mut()
                    .enumerate()
                    .map(|(i, out)| PowJob {
                        out,
                        base: &base_limbs[i],
                        exp: &[],
                        modulus: &m52[i],
                    })
                    .collect();
                ifma::pow_lanes_public_vartime(token, &mut jobs, e);
                let ev = BigUint::from_bytes_be(e);
                for i in 0..count {
                    assert_eq!(
                        big(&outs[i]),
                        bases[i].modpow(&ev, &moduli[i]),
                        "{bits} e {e:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn wide_public_exponent_matches_num_bigint() {
    let Some(token) = token() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    // Every register count 1..=10 at its edges, and the RSA moduli's own sizes (3072 and
    // 4096 bits run on 60 and 79 digits, and on 80).
    let mut shapes: Vec<(u64, usize)> = Vec::new();
    for digits in [
        1usize, 2, 7, 8, 9, 16, 20, 33, 40, 41, 48, 56, 57, 64, 65, 72, 73, 80,
    ] {
        shapes.push(((52 * digits - 2) as u64, digits));
    }
    shapes.extend([(1024, 20), (2048, 40), (3072, 60), (4096, 79), (4096, 80)]);
    let mut cases: Vec<(BigUint, u64, usize)> = shapes
        .into_iter()
        .map(|(bits, digits)| (random_modulus(&mut rng, bits), bits, digits))
        .collect();
    // Edge moduli (2^k − 1 and 2^(k−1) + 1): carries through runs of all-ones digits.
    for digits in [8usize, 40, 80] {
        let bits = (52 * digits - 2) as u64;
        cases.extend(edge_moduli(bits).into_iter().map(|n| (n, bits, digits)));
    }
    for (n, bits, digits) in cases {
        let s = limbs_needed::<u64>(&n);
        let m = Modulus::new(&limbs::<u64>(&n, s)).unwrap();
        let m52 = Modulus52::new_wide(&m, digits).unwrap();
        let exps: [&[u8]; 7] = [
            &[],
            &[1],
            &[2],
            &[3],
            &[1, 0, 1],
            &[0x80, 0, 0, 0],
            &[0xde, 0xad, 0xbe, 0xef, 0x01],
        ];
        for e in exps {
            let bases = [
                n.clone() - 1u32,
                BigUint::from(0u32),
                BigUint::from(1u32),
                rng.gen_biguint_below(&n),
            ];
            for base in bases {
                let base_limbs = limbs(&base, s);
                let mut out = vec![0u64; s];
                let mut job = PowJob {
                    out: &mut out,
                    base: &base_limbs,
                    exp: &[],
                    modulus: &m52,
                };
                redc::mont::backend::ifma_pair::pow_wide_public_vartime(token, &mut job, e);
                assert_eq!(
                    big(&out),
                    base.modpow(&BigUint::from_bytes_be(e), &n),
                    "{bits} bits in {digits} digits, e {e:?}"
                );
            }
        }
    }
}

#[test]
fn modulus52_wide_takes_up_to_eighty_digits() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let n = random_modulus(&mut rng, 4096);
    let m = Modulus::<u64>::new(&limbs::<u64>(&n, 64)).unwrap();
    assert!(Modulus52::new(&m, 79).is_none(), "beyond MAX_DIGITS");
    assert!(Modulus52::new_wide(&m, 78).is_none(), "too few digits");
    assert!(Modulus52::new_wide(&m, 79).is_some());
    assert!(Modulus52::new_wide(&m, 80).is_some());
    assert!(
        Modulus52::new_wide(&m, 81).is_none(),
        "beyond MAX_WIDE_DIGITS"
    );
}

#[test]
fn lane_window_follows_the_cpu_kinds_rule() {
    use redc::mont::backend::cpu::{CpuKind, Forms, LaneWindow};
    let (zen4, intel) = (
        Forms::of(CpuKind::Zen4),
        Forms::of(CpuKind::IntelSapphireRapids),
    );
    assert_eq!((zen4.l1d_bytes, intel.l1d_bytes), (32 * 1024, 48 * 1024));
    assert_eq!(zen4.lane_window, LaneWindow::ScanWeighted);
    assert_eq!(intel.lane_window, LaneWindow::ScanWeightedOne);
    for kind in CpuKind::ALL {
        let want = match kind {
            CpuKind::Zen4 => LaneWindow::ScanWeighted,
            CpuKind::Zen5 | CpuKind::IntelIceLake | CpuKind::IntelSapphireRapids => {
                LaneWindow::ScanWeightedOne
            }
            _ => LaneWindow::FitL1d,
        };
        assert_eq!(Forms::of(kind).lane_window, want, "{kind:?}");
    }
    // The L1D rule: 1024-bit exponents at 20 digits, where the model's 5-bit table is 40 KiB,
    // keep it in a 48 KiB L1D; a 32 KiB one takes 4 bits.
    let fit = Forms {
        lane_window: LaneWindow::FitL1d,
        lane_stitched_up_to: 0,
        ..intel
    };
    assert_eq!(ifma::window_for(1024, 20), 5);
    assert_eq!(ifma::lane_window_for(1024, 20, &fit), 5);
    let small_l1d = Forms {
        l1d_bytes: 32 * 1024,
        ..fit
    };
    assert_eq!(ifma::lane_window_for(1024, 20, &small_l1d), 4);
    assert_eq!(
        ifma::lane_window_for(1024, 20, &Forms::of(CpuKind::IntelOther)),
        4
    );
    // At 40 digits neither the 5- nor the 4-bit table fits 32 KiB: the model's stays.
    assert_eq!(
        ifma::lane_window_for(2048, 40, &small_l1d),
        ifma::window_for(2048, 40)
    );
    // Zen 4 (the scan weighted as measured there): 3 bits at 10 digits, 4 from 20 to 40.
    assert_eq!(ifma::lane_window_for(512, 10, &zen4), 3);
    for (bits, digits) in [(1024, 20), (1536, 30), (2048, 40)] {
        assert_eq!(
            ifma::lane_window_for(bits, digits, &zen4),
            4,
            "{digits} digits"
        );
    }
    // The Sapphire Rapids class's rule (the scan at one cycle): 4 bits from 10 to 30 digits, 5
    // at 40.
    let scan_only = Forms {
        lane_stitched_up_to: 0,
        ..intel
    };
    for (bits, digits, w) in [
        (512, 10, 4),
        (683, 14, 4),
        (1024, 20, 4),
        (1536, 30, 4),
        (2048, 40, 5),
    ] {
        assert_eq!(
            ifma::lane_window_for(bits, digits, &scan_only),
            w,
            "{digits} digits"
        );
    }
    // With the multiplier stored by the squarings (the Sapphire Rapids class up to 40 digits):
    // 4 bits to 27 digits, 5 at 30 and 40.
    for (bits, digits, w) in [
        (512, 10, 4),
        (683, 14, 4),
        (1024, 20, 4),
        (1366, 27, 4),
        (1536, 30, 5),
        (2048, 40, 5),
    ] {
        assert_eq!(
            ifma::lane_window_for(bits, digits, &intel),
            w,
            "{digits} digits"
        );
    }
}

#[test]
fn lane_selection_follows_the_cpu_kinds_rule() {
    use redc::mont::backend::cpu::{CpuKind, Forms};
    use redc::mont::backend::ifma::{lane_select_for, LaneSelect};
    for kind in CpuKind::ALL {
        let forms = Forms::of(kind);
        let want = if kind == CpuKind::IntelSapphireRapids {
            40
        } else {
            0
        };
        assert_eq!(forms.lane_stitched_up_to, want, "{kind:?}");
        for digits in ifma::COMPILED_DIGITS {
            let select = if digits <= want {
                LaneSelect::Stitched
            } else {
                LaneSelect::Scan
            };
            assert_eq!(
                lane_select_for(digits, &forms),
                select,
                "{kind:?}, {digits}"
            );
        }
    }
}

#[test]
fn lane_squaring_form_follows_the_cpu_kinds_rule() {
    use redc::mont::backend::cpu::{CpuKind, Forms};
    use redc::mont::backend::ifma::{lane_square_for, LaneSquare, SCHOOLBOOK_DIGITS, TILED_DIGITS};
    // Schoolbook kernels exist only where the square's frame fits the registers.
    assert!(SCHOOLBOOK_DIGITS.iter().all(|&d| d + 3 <= 32));
    assert!(SCHOOLBOOK_DIGITS
        .iter()
        .all(|d| ifma::COMPILED_DIGITS.contains(d)));
    for kind in CpuKind::ALL {
        let forms = Forms::of(kind);
        let want = if kind == CpuKind::IntelSapphireRapids {
            20
        } else {
            0
        };
        assert_eq!(forms.lane_schoolbook_up_to, want, "{kind:?}");
        // The tiled form from 27 digits on every kind.
        assert_eq!(forms.lane_tiled_from, 27, "{kind:?}");
        for digits in ifma::COMPILED_DIGITS {
            let square = if digits <= want && SCHOOLBOOK_DIGITS.contains(&digits) {
                LaneSquare::Schoolbook
            } else if digits >= 27 && TILED_DIGITS.contains(&digits) {
                LaneSquare::Tiled
            } else {
                LaneSquare::Standard
            };
            assert_eq!(
                lane_square_for(digits, &forms),
                square,
                "{kind:?}, {digits}"
            );
        }
    }
    // On that kind, the schoolbook form runs at 20 digits and not above, the tiled one from
    // 27 (RSA-4096's three primes) to 40; the Zen 4 keeps Karatsuba's rows at 20.
    let spr = Forms::of(CpuKind::IntelSapphireRapids);
    assert_eq!(lane_square_for(20, &spr), LaneSquare::Schoolbook);
    assert_eq!(lane_square_for(27, &spr), LaneSquare::Tiled);
    assert_eq!(lane_square_for(40, &spr), LaneSquare::Tiled);
    let zen4 = Forms::of(CpuKind::Zen4);
    assert_eq!(lane_square_for(20, &zen4), LaneSquare::Standard);
    assert_eq!(lane_square_for(30, &zen4), LaneSquare::Tiled);
}

#[test]
fn lane_product_form_follows_the_cpu_kinds_rule() {
    use redc::mont::backend::cpu::{CpuKind, Forms};
    use redc::mont::backend::ifma::{
        lane_forms_for, lane_product_for, LaneProduct, MEM_PRODUCT_DIGITS, TILED_DIGITS,
    };
    assert!(MEM_PRODUCT_DIGITS
        .iter()
        .all(|d| ifma::COMPILED_DIGITS.contains(d)));
    for kind in CpuKind::ALL {
        let forms = Forms::of(kind);
        let on = kind == CpuKind::IntelSapphireRapids;
        assert_eq!(forms.lane_mem_products, on, "{kind:?}");
        for digits in ifma::COMPILED_DIGITS {
            let product = if digits >= forms.lane_tiled_from && TILED_DIGITS.contains(&digits) {
                LaneProduct::Tiled
            } else if on && MEM_PRODUCT_DIGITS.contains(&digits) {
                LaneProduct::MemoryOperands
            } else {
                LaneProduct::Registers
            };
            assert_eq!(
                lane_product_for(digits, &forms),
                product,
                "{kind:?}, {digits}"
            );
            assert_eq!(lane_forms_for(digits, &forms).product, product);
        }
    }
    let spr = Forms::of(CpuKind::IntelSapphireRapids);
    assert_eq!(lane_product_for(40, &spr), LaneProduct::Tiled);
    assert_eq!(lane_product_for(20, &spr), LaneProduct::Registers);
    // The memory-operand products run where the tiled form is not taken.
    let no_tiles = Forms {
        lane_tiled_from: usize::MAX,
        ..spr
    };
    assert_eq!(lane_product_for(40, &no_tiles), LaneProduct::MemoryOperands);
}

/// The wide form's last product by the base itself can end at or above `n`: with a modulus
/// that fills its top limb (every RSA modulus) such a value does not fit the result's limbs
/// unless it is reduced first. Moduli of 256 bits in five digits (`R/n = 16`) end there
/// often; the first case is the one the `mont` fuzz target found.
#[test]
fn wide_public_pow_full_limb_moduli() {
    let Some(token) = Token::get() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut cases = vec![(
        BigUint::parse_bytes(
            b"ffffffffffff3b0cffffffff4d24fffffffeffffff0067015b5137ffcb271235",
            16,
        )
        .unwrap(),
        BigUint::parse_bytes(
            b"6b609b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9b9bbe9b9b9b9b9b9b9b9b9b9b",
            16,
        )
        .unwrap(),
        vec![0x9bu8; 8],
    )];
    for _ in 0..300 {
        let n = random_modulus(&mut rng, 256);
        let base = rng.gen_biguint_below(&n);
        let exp: Vec<u8> = (0..rng.gen_range(1..=8)).map(|_| rng.gen()).collect();
        cases.push((n, base, exp));
    }
    for (n, base, exp) in cases {
        assert_eq!(n.bits(), 256, "fills its four limbs");
        let m = Modulus::new(&limbs::<u64>(&n, 4)).unwrap();
        for digits in [5usize, 6, 60] {
            let m52 = Modulus52::new_wide(&m, digits).unwrap();
            let base_limbs = limbs(&base, 4);
            let mut out = vec![0u64; 4];
            let mut job = PowJob {
                out: &mut out,
                base: &base_limbs,
                exp: &[],
                modulus: &m52,
            };
            redc::mont::backend::ifma_pair::pow_wide_public_vartime(token, &mut job, &exp);
            assert_eq!(
                big(&out),
                base.modpow(&BigUint::from_bytes_be(&exp), &n),
                "n {n:x}, base {base:x}, e {exp:?}, {digits} digits"
            );
        }
    }
}

//! Every REDC algorithm (SOS, CIOS, FIOS, FIPS, CIHS, Itoh, enhanced Itoh) × {u32, u64} against
//! num-bigint: `REDC(a, b) = a·b·R⁻¹ mod n` with `R = W^s`, and `a·b mod n` through
//! `Modulus::mul_mod`.
//!
//! The sweep covers every size of `common::SIZES` with random moduli and the edge moduli
//! `2^k − 1` (all-ones limbs, so every carry chain runs at full length with operands `n − 1`) and
//! `2^(k−1) + 1`; a proptest property covers random sizes of 1..=40 limbs with limbs biased
//! towards 0 and all ones. The kernels are called with garbage in `out` and `scratch`, since the
//! contract says their contents on entry are unspecified.

mod common;

use common::*;
use num_bigint::BigUint;
use proptest::prelude::*;
use rand::SeedableRng;
use redc::mont::{scratch_len, Algorithm, Kernel, Modulus, SqrVariant};
use redc::word::Word;

/// `REDC(a, b)` by `alg`'s kernel, called directly with garbage-filled `out` and a scratch
/// buffer of exactly `scratch_len(s)` limbs.
fn redc_direct<W: Word>(alg: Algorithm, m: &Modulus<W>, a: &[W], b: &[W]) -> Vec<W> {
    let s = m.limbs();
    let mut out = vec![W::MAX; s];
    let mut scratch = vec![W::MAX; scratch_len(s)];
    (alg.mul_fn::<W>())(&mut out, a, b, m.n(), m.n0(), &mut scratch);
    out
}

/// Checks every algorithm on every pair of `ops` (all `< n`) against num-bigint; when
/// `with_mul_mod`, also checks `Modulus::mul_mod` on every pair.
fn check_modulus<W: Word>(n: &BigUint, ops: &[BigUint], with_mul_mod: bool) {
    let s = limbs_needed::<W>(n);
    let m = Modulus::<W>::new(&limbs::<W>(n, s)).unwrap();
    assert_eq!(m.limbs(), s);
    let rinv = r_of::<W>(s).modinv(n).unwrap();
    let ls: Vec<Vec<W>> = ops.iter().map(|x| limbs::<W>(x, s)).collect();
    for (a, la) in ops.iter().zip(&ls) {
        for (b, lb) in ops.iter().zip(&ls) {
            let want = a * b * &rinv % n;
            let want_mod = a * b % n;
            for alg in Algorithm::ALL {
                let got = big(&redc_direct(alg, &m, la, lb));
                assert_eq!(
                    got,
                    want,
                    "{} w={} s={s}\n n={n:x}\n a={a:x}\n b={b:x}",
                    alg.name(),
                    W::BITS
                );
                if with_mul_mod {
                    let k = Kernel::<W>::portable(alg, SqrVariant::Generic);
                    let got = big(&m.mul_mod(la, lb, &k));
                    assert_eq!(
                        got,
                        want_mod,
                        "mul_mod {} w={} s={s}\n n={n:x}\n a={a:x}\n b={b:x}",
                        alg.name(),
                        W::BITS
                    );
                }
            }
        }
    }
}

/// The sweep over `common::SIZES`: two edge moduli and one random modulus per size.
fn sweep<W: Word>(seed: u64, with_mul_mod: bool) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for &bits in SIZES {
        // Fewer random operands at the largest sizes keep the file fast; the fixed edge
        // operands (0, 1, n−1, n−2, n/2) are always there.
        let random = if bits > 2048 { 1 } else { 3 };
        let mut moduli = edge_moduli(bits);
        moduli.push(random_modulus(&mut rng, bits));
        for n in &moduli {
            let ops = operands(&mut rng, n, random);
            check_modulus::<W>(n, &ops, with_mul_mod);
        }
    }
}

#[test]
fn redc_u32_matches_num_bigint_on_all_sizes() {
    sweep::<u32>(32, false);
}

#[test]
fn redc_u64_matches_num_bigint_on_all_sizes() {
    sweep::<u64>(64, false);
}

#[test]
fn mul_mod_u32_gives_ab_mod_n() {
    sweep::<u32>(320, true);
}

#[test]
fn mul_mod_u64_gives_ab_mod_n() {
    sweep::<u64>(640, true);
}

/// The largest operands at all-ones moduli of whole words, for every size from 1 to 40 limbs:
/// `(n−1)²` is the worst case for every carry chain.
#[test]
fn all_ones_moduli_every_limb_count() {
    fn run<W: Word>() {
        for s in 1..=40u64 {
            let n = (BigUint::from(1u32) << (s * W::BITS as u64)) - 1u32;
            let ops = [&n - 1u32, &n - 2u32, &n >> 1, BigUint::from(1u32)];
            check_modulus::<W>(&n, &ops, false);
        }
    }
    run::<u32>();
    run::<u64>();
}

/// A limb biased towards 0 and all ones, where carries are most likely to run long.
fn limb() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => any::<u64>(),
        1 => Just(0u64),
        2 => Just(u64::MAX),
    ]
}

/// `s` limbs for `n`, `a` and `b`, with `s` in 1..=40.
fn case() -> impl Strategy<Value = (Vec<u64>, Vec<u64>, Vec<u64>)> {
    (1usize..=40).prop_flat_map(|s| {
        (
            prop::collection::vec(limb(), s),
            prop::collection::vec(limb(), s),
            prop::collection::vec(limb(), s),
        )
    })
}

/// One property case for word type `W`: `n` made odd, of exactly `s` limbs and at least 3;
/// operands reduced below `n`; every algorithm against num-bigint.
fn check_case<W: Word>(n: &[u64], a: &[u64], b: &[u64]) -> Result<(), TestCaseError> {
    let s = n.len();
    let mut nl: Vec<W> = n.iter().map(|&x| W::from_u64(x)).collect();
    nl[0] = nl[0].or(W::ONE);
    if nl[s - 1] == W::ZERO {
        nl[s - 1] = W::ONE;
    }
    if s == 1 && nl[0].to_u64() < 3 {
        nl[0] = W::from_u64(3);
    }
    let nb = big(&nl);
    let ab = big(&a.iter().map(|&x| W::from_u64(x)).collect::<Vec<W>>()) % &nb;
    let bb = big(&b.iter().map(|&x| W::from_u64(x)).collect::<Vec<W>>()) % &nb;
    let m = Modulus::<W>::new(&nl).unwrap();
    prop_assert_eq!(m.limbs(), s);
    let want = &ab * &bb * r_of::<W>(s).modinv(&nb).unwrap() % &nb;
    let (la, lb) = (limbs::<W>(&ab, s), limbs::<W>(&bb, s));
    for alg in Algorithm::ALL {
        let got = big(&redc_direct(alg, &m, &la, &lb));
        prop_assert_eq!(&got, &want, "{} w={} s={}", alg.name(), W::BITS, s);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_every_algorithm_u32((n, a, b) in case()) {
        check_case::<u32>(&n, &a, &b)?;
    }

    #[test]
    fn prop_every_algorithm_u64((n, a, b) in case()) {
        check_case::<u64>(&n, &a, &b)?;
    }
}

//! The reduction baselines against num-bigint: classical (Algorithm D) and Barrett modular
//! multiplication, reduction and exponentiation, both word sizes, every size of
//! `common::SIZES`, edge moduli (2^k − 1, 2^(k−1) + 1, even moduli, n = 1, 2, 3), Knuth's
//! add-back corner cases, and proptests.

mod common;

use common::*;
use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use redc::reduce::barrett::Barrett;
use redc::reduce::classical::{self, Classical};
use redc::reduce::VartimeModMul;
use redc::word::Word;
use redc::Error;

type Rng8 = rand_chacha::ChaCha8Rng;

/// Checks every baseline operation for modulus `n` on the operands `ops` (all below `W^s`).
fn check<W: Word>(n: &BigUint, ops: &[BigUint], rng: &mut Rng8, pow_cases: usize) {
    let s = limbs_needed::<W>(n);
    let nl = limbs::<W>(n, s);
    // A leading zero limb on the modulus must not change anything.
    let mut n_padded = nl.clone();
    n_padded.push(W::ZERO);
    let bar = Barrett::<W>::new(&n_padded).unwrap();
    let cla = Classical::<W>::new(&nl).unwrap();
    assert_eq!(cla.modulus(), &nl[..]);
    assert_eq!(bar.modulus(), &nl[..]);
    let w2s = BigUint::one() << (2 * s * W::BITS as usize);
    assert_eq!(big(bar.mu()), &w2s / n, "mu, n={n:x}");

    for a in ops {
        let al = limbs::<W>(a, s);
        for b in ops {
            let want = a * b % n;
            let bl = limbs::<W>(b, s);
            let got = classical::mul_mod_vartime(&al, &bl, &nl).unwrap();
            assert_eq!(got.len(), s);
            assert_eq!(big(&got), want, "classical u{} n={n:x}", W::BITS);
            let got = bar.mul_mod_vartime(&al, &bl).unwrap();
            assert_eq!(got.len(), s);
            assert_eq!(big(&got), want, "barrett u{} n={n:x}", W::BITS);
        }
    }

    // Reduction of arbitrary x < W^(2s) (Barrett's domain), and longer x for Algorithm D.
    for _ in 0..3 {
        let x = rng.gen_biguint_below(&w2s);
        let xl = limbs::<W>(&x, 2 * s);
        assert_eq!(big(&bar.reduce_vartime(&xl).unwrap()), &x % n);
        let xx = &x * &x + 1u32;
        let xxl = limbs::<W>(&xx, 4 * s + 1);
        let (q, r) = classical::div_rem_vartime(&xxl, &nl).unwrap();
        assert_eq!(big(&q), &xx / n);
        assert_eq!(big(&r), &xx % n);
    }
    let top = &w2s - 1u32;
    assert_eq!(
        big(&bar.reduce_vartime(&limbs::<W>(&top, 2 * s)).unwrap()),
        &top % n
    );

    // Exponentiation: random exponents, exponent 0 (empty and all-zero bytes), exponent 1.
    let mut exps: Vec<Vec<u8>> = vec![vec![], vec![0, 0], vec![1], vec![0, 0x80, 0]];
    for _ in 0..pow_cases {
        let len = rng.gen_range(1..=9);
        exps.push((0..len).map(|_| rng.gen()).collect());
    }
    for a in ops.iter().take(pow_cases.max(2)) {
        let al = limbs::<W>(a, s);
        for e in &exps {
            let want = a.modpow(&BigUint::from_bytes_be(e), n);
            let got = classical::pow_vartime(&al, e, &nl).unwrap();
            assert_eq!(big(&got), want, "classical pow n={n:x} a={a:x} e={e:?}");
            let got = bar.pow_vartime(&al, e).unwrap();
            assert_eq!(big(&got), want, "barrett pow n={n:x} a={a:x} e={e:?}");
        }
    }
}

/// A random modulus of `bits` bits, even (bit 0 cleared, ≥ 2).
fn random_even<R: Rng>(rng: &mut R, bits: u64) -> BigUint {
    let mut n = random_modulus(rng, bits.max(2));
    n.set_bit(0, false);
    n
}

fn sweep<W: Word>(seed: u64) {
    let mut rng = Rng8::seed_from_u64(seed);
    for &bits in SIZES {
        let mut moduli = edge_moduli(bits);
        moduli.push(random_modulus(&mut rng, bits));
        moduli.push(random_even(&mut rng, bits));
        // A power of two (n = W^(s−1) makes mu one limb longer).
        moduli.push(BigUint::one() << (bits - 1));
        let (random, pow_cases) = match bits {
            0..=1024 => (3, 3),
            1025..=3072 => (2, 1),
            _ => (1, 1),
        };
        for n in moduli {
            let s = limbs_needed::<W>(&n);
            let mut ops = operands(&mut rng, &n, random);
            // Operands need not be reduced for the baselines: the largest s-limb value.
            ops.push(r_of::<W>(s) - 1u32);
            check::<W>(&n, &ops, &mut rng, pow_cases);
        }
    }
}

#[test]
fn all_sizes_u32() {
    sweep::<u32>(11);
}

#[test]
fn all_sizes_u64() {
    sweep::<u64>(12);
}

fn tiny<W: Word>() {
    let mut rng = Rng8::seed_from_u64(13);
    for n in 1u32..=9 {
        let n = BigUint::from(n);
        let ops: Vec<BigUint> = (0u32..12).map(BigUint::from).collect();
        check::<W>(&n, &ops, &mut rng, 4);
    }
    // Word-boundary moduli.
    for n in [
        BigUint::from(u32::MAX),
        BigUint::from(u64::MAX),
        BigUint::one() << 64u32,
        (BigUint::one() << 64u32) + 1u32,
    ] {
        let ops = operands(&mut rng, &n, 2);
        check::<W>(&n, &ops, &mut rng, 2);
    }
}

#[test]
fn tiny_moduli() {
    tiny::<u32>();
    tiny::<u64>();
}

/// Knuth's corner cases (the 16-bit-digit vectors of Hacker's Delight's `divmnu` tests, with
/// each digit scaled to a full word): the qhat = W − 1 cap, the qhat correction and the
/// add-back of step D6.
fn knuth_corners<W: Word>() {
    let top = W::ONE.shl(W::BITS - 1);
    let cases: Vec<(Vec<W>, Vec<W>)> = vec![
        (
            vec![W::ZERO, W::MAX.wrapping_sub(W::ONE), top],
            vec![W::MAX, top],
        ),
        (
            vec![W::ZERO, W::MAX.wrapping_sub(W::ONE), W::ZERO, top],
            vec![W::MAX, W::ZERO, top],
        ),
        (
            vec![W::ZERO, W::ZERO, top, top.wrapping_sub(W::ONE)],
            vec![W::ONE, W::ZERO, top],
        ),
        (
            vec![W::from_u64(3), W::ZERO, top],
            vec![W::ONE, W::ZERO, W::ONE.shl(W::BITS - 3)],
        ),
        (vec![W::MAX; 4], vec![W::MAX; 2]),
        (vec![W::MAX; 5], vec![W::ONE, W::MAX]),
        (vec![W::ZERO, W::ZERO, W::ONE], vec![W::ONE, top]),
    ];
    for (u, v) in cases {
        let (q, r) = classical::div_rem_vartime(&u, &v).unwrap();
        let (bu, bv) = (big(&u), big(&v));
        assert_eq!(big(&q), &bu / &bv, "q u={bu:x} v={bv:x}");
        assert_eq!(big(&r), &bu % &bv, "r u={bu:x} v={bv:x}");
    }
}

#[test]
fn algorithm_d_corners() {
    knuth_corners::<u32>();
    knuth_corners::<u64>();
}

#[test]
fn errors() {
    assert_eq!(
        Barrett::<u64>::new(&[0, 0]).unwrap_err(),
        Error::ModulusTooSmall
    );
    assert_eq!(
        Barrett::<u32>::new(&[]).unwrap_err(),
        Error::ModulusTooSmall
    );
    assert_eq!(
        Classical::<u32>::new(&[0]).unwrap_err(),
        Error::ModulusTooSmall
    );
    assert_eq!(
        classical::mul_mod_vartime::<u64>(&[1], &[1], &[0]).unwrap_err(),
        Error::ModulusTooSmall
    );
    assert_eq!(
        classical::rem_vartime::<u64>(&[1], &[]).unwrap_err(),
        Error::ModulusTooSmall
    );
    assert_eq!(
        classical::pow_vartime::<u32>(&[1], &[1], &[0, 0]).unwrap_err(),
        Error::ModulusTooSmall
    );
    let b = Barrett::<u64>::new(&[7]).unwrap();
    assert_eq!(
        b.mul_mod_vartime(&[1, 1], &[1]).unwrap_err(),
        Error::OperandTooLarge
    );
    assert_eq!(
        b.reduce_vartime(&[1, 1, 1]).unwrap_err(),
        Error::OperandTooLarge
    );
    // Leading zero limbs on operands are fine.
    assert_eq!(b.mul_mod_vartime(&[3, 0, 0], &[5]).unwrap(), [1]);
    assert!(BigUint::zero().is_zero());
}

/// Limbs drawn from the values where Algorithm D's estimates go wrong most often.
fn digit() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(u64::MAX),
        Just(u64::MAX - 1),
        Just(1 << 63),
        Just((1 << 63) - 1),
        Just(u32::MAX as u64),
        Just(1 << 31),
        any::<u64>(),
    ]
}

fn from_u64s(v: &[u64]) -> BigUint {
    let mut bytes = Vec::new();
    for x in v.iter().rev() {
        bytes.extend_from_slice(&x.to_be_bytes());
    }
    BigUint::from_bytes_be(&bytes)
}

fn prop_div<W: Word>(x: &BigUint, n: &BigUint) {
    let xl = limbs::<W>(x, limbs_needed::<W>(x));
    let nl = limbs::<W>(n, limbs_needed::<W>(n));
    let (q, r) = classical::div_rem_vartime(&xl, &nl).unwrap();
    assert_eq!(big(&q), x / n);
    assert_eq!(big(&r), x % n);
    // Barrett on the low 2s limbs of x.
    let s = limbs_needed::<W>(n);
    let low = x % (BigUint::one() << (2 * s * W::BITS as usize));
    let bar = Barrett::<W>::new(&nl).unwrap();
    let got = bar
        .reduce_vartime(&limbs::<W>(&low, limbs_needed::<W>(&low)))
        .unwrap();
    assert_eq!(big(&got), &low % n);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn structured_division(
        x in proptest::collection::vec(digit(), 1..=20),
        n in proptest::collection::vec(digit(), 1..=8),
    ) {
        let (x, n) = (from_u64s(&x), from_u64s(&n));
        prop_assume!(!n.is_zero());
        prop_div::<u64>(&x, &n);
        prop_div::<u32>(&x, &n);
    }

    #[test]
    fn random_mul_mod(
        (n, a, b) in (1usize..=24).prop_flat_map(|len| (
            proptest::collection::vec(any::<u64>(), len),
            proptest::collection::vec(any::<u64>(), len),
            proptest::collection::vec(any::<u64>(), len),
        )),
    ) {
        let n = from_u64s(&n);
        prop_assume!(!n.is_zero());
        let (a, b) = (from_u64s(&a) % &n, from_u64s(&b) % &n);
        let want = &a * &b % &n;
        let s64 = limbs_needed::<u64>(&n);
        let bar = Barrett::<u64>::new(&limbs::<u64>(&n, s64)).unwrap();
        let got = bar.mul_mod_vartime(&limbs::<u64>(&a, s64), &limbs::<u64>(&b, s64)).unwrap();
        prop_assert_eq!(big(&got), want.clone());
        let s32 = limbs_needed::<u32>(&n);
        let got = classical::mul_mod_vartime(
            &limbs::<u32>(&a, s32), &limbs::<u32>(&b, s32), &limbs::<u32>(&n, s32)).unwrap();
        prop_assert_eq!(big(&got), want);
    }
}

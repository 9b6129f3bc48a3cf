//! Every dedicated Montgomery squaring (paper 004, Fig. 1–5, and the modern one) against
//! num-bigint: `a²·R⁻¹ mod n`, for both word sizes, over every size of `common::SIZES`, random
//! and edge moduli, edge and random operands, and a proptest over random limb counts.

mod common;

use common::*;
use num_bigint::BigUint;
use num_traits::One;
use proptest::prelude::*;
use rand::SeedableRng;
use redc::mont::{scratch_len, Algorithm, Kernel, Modulus, SqrVariant};
use redc::word::Word;

/// Runs `variant` directly on `a` with a scratch full of garbage (the contract leaves its
/// contents unspecified) and an `out` full of garbage too.
fn sqr_direct<W: Word>(variant: SqrVariant, a: &[W], m: &Modulus<W>) -> Vec<W> {
    let s = m.limbs();
    let mut out = vec![W::MAX; s];
    let mut scratch = vec![W::MAX; scratch_len(s)];
    (variant.sqr_fn::<W>())(&mut out, a, m.n(), m.n0(), &mut scratch);
    out
}

fn check_modulus<W: Word>(n: &BigUint, ops: &[BigUint]) {
    let s = limbs_needed::<W>(n);
    let m = Modulus::<W>::new(&limbs::<W>(n, s)).unwrap();
    let rinv = r_of::<W>(s).modinv(n).unwrap();
    for a in ops {
        let want = a * a * &rinv % n;
        let al = limbs::<W>(a, s);
        for v in SqrVariant::ALL {
            let got = big(&sqr_direct(v, &al, &m));
            assert_eq!(got, want, "{} u{} n={n:x} a={a:x}", v.name(), W::BITS);
            // Through the kernel the exponentiation layer is handed, too.
            let k = Kernel::<W>::portable(Algorithm::Cios, v);
            assert_eq!(big(&m.mont_sqr(&al, &k)), want, "{} kernel", v.name());
        }
    }
}

fn sweep<W: Word>(seed: u64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for &bits in SIZES {
        let mut moduli = edge_moduli(bits);
        moduli.push(random_modulus(&mut rng, bits));
        moduli.push(random_modulus(&mut rng, bits));
        // All limbs but the lowest at their maximum: stresses every carry chain.
        if bits % W::BITS as u64 == 0 && bits > W::BITS as u64 {
            moduli.push((BigUint::one() << bits) - (BigUint::one() << W::BITS) + 1u32);
        }
        let random = if bits >= 4096 { 2 } else { 4 };
        for n in moduli {
            let mut ops = operands(&mut rng, &n, random);
            // The largest square below n that still fits: makes a² close to n².
            ops.push(n.sqrt());
            ops.retain(|a| a < &n);
            check_modulus::<W>(&n, &ops);
        }
    }
}

#[test]
fn every_variant_u32() {
    sweep::<u32>(1);
}

#[test]
fn every_variant_u64() {
    sweep::<u64>(2);
}

#[test]
fn smallest_moduli() {
    for n in [3u32, 5, 7, 0xffff_fffb, 0xffff_ffff, 0x8000_0001] {
        let n = BigUint::from(n);
        let ops: Vec<BigUint> = (0u32..3).map(BigUint::from).chain([&n - 1u32]).collect();
        check_modulus::<u32>(&n, &ops);
        check_modulus::<u64>(&n, &ops);
    }
}

/// An odd modulus ≥ 3 and an operand below it, from random 64-bit limbs.
fn modulus_and_operand(limbs_n: Vec<u64>, limbs_a: Vec<u64>) -> (BigUint, BigUint) {
    let words = |v: &[u64]| {
        let mut bytes = Vec::new();
        for x in v.iter().rev() {
            bytes.extend_from_slice(&x.to_be_bytes());
        }
        BigUint::from_bytes_be(&bytes)
    };
    let mut n = words(&limbs_n);
    n.set_bit(0, true);
    if n < BigUint::from(3u32) {
        n = BigUint::from(3u32);
    }
    let a = words(&limbs_a) % &n;
    (n, a)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_sizes(
        (ln, la) in (1usize..=40).prop_flat_map(|len| (
            proptest::collection::vec(any::<u64>(), len),
            proptest::collection::vec(any::<u64>(), len),
        )),
        dense in any::<bool>(),
    ) {
        // Half the cases saturate the operand's limbs, where the doubled carries peak.
        let la = if dense { vec![u64::MAX; la.len()] } else { la };
        let (n, a) = modulus_and_operand(ln, la);
        check_modulus::<u64>(&n, std::slice::from_ref(&a));
        check_modulus::<u32>(&n, std::slice::from_ref(&a));
    }
}

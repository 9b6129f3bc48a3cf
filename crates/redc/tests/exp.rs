//! Every exponentiation method (binary, m-ary, sliding and fixed window, windows 1..=8) over both
//! word sizes and several kernels, against num-bigint's `modpow`.

mod common;

use common::*;
use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use redc::exp::Method;
use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};
use redc::word::Word;

/// Every method with every window.
fn methods() -> Vec<Method> {
    let mut v = vec![Method::Binary];
    for k in 1..=8 {
        v.extend([Method::Mary(k), Method::Sliding(k), Method::Fixed(k)]);
    }
    v
}

/// A few kernels: the production pair and some other algorithm/squaring combinations.
fn kernels<W: Word>() -> Vec<Kernel<W>> {
    [
        (Algorithm::Cios, SqrVariant::Modern),
        (Algorithm::Sos, SqrVariant::Koc),
        (Algorithm::Fips, SqrVariant::Improved),
        (Algorithm::ItohEnhanced, SqrVariant::Coupled),
        (Algorithm::Cihs, SqrVariant::Merged),
        (Algorithm::Fios, SqrVariant::Generic),
    ]
    .into_iter()
    .map(|(a, s)| Kernel::portable(a, s))
    .collect()
}

fn pow<W: Word>(
    method: Method,
    base: &BigUint,
    exp: &[u8],
    m: &Modulus<W>,
    k: &Kernel<W>,
) -> BigUint {
    let s = m.limbs();
    let mut out = vec![W::ZERO; s];
    method.pow(&mut out, &limbs(base, s), exp, m, k);
    big(&out)
}

/// Exponents worth testing for modulus `n`: 0 (empty, and zero bytes), 1, 2, n−1, all ones of
/// n's byte length, short and long random ones (including longer than n), leading zero bytes.
fn exponents<R: Rng>(rng: &mut R, n: &BigUint, full: bool) -> Vec<Vec<u8>> {
    let nbytes = (n.bits() as usize).div_ceil(8);
    let mut v = vec![
        vec![],
        vec![0, 0, 0],
        vec![1],
        vec![0, 2],
        vec![0x01, 0x00, 0x01],
        rng.gen::<[u8; 1]>().to_vec(),
        rng.gen::<[u8; 9]>().to_vec(),
        vec![0x80, 0x00, 0x00, 0x01],
    ];
    if full {
        v.push((n - 1u32).to_bytes_be());
        v.push(vec![0xff; nbytes]);
        v.push((0..nbytes).map(|_| rng.gen()).collect());
        let mut long: Vec<u8> = (0..nbytes + 5).map(|_| rng.gen()).collect();
        long[0] |= 0x80;
        v.push(long);
    }
    v
}

/// Checks every method under kernel(s) `ks` (rotating) for one modulus. `full` adds exponents
/// as long as n. Above 512 bits, to stay fast, each method sees every third (base, exponent)
/// pair and one of the four long exponents (with the random base only; at 3072 and 4096 bits
/// half the methods each, alternating).
fn check_modulus<W: Word, R: Rng>(rng: &mut R, n: &BigUint, ks: &[Kernel<W>], full: bool) {
    let s = limbs_needed::<W>(n);
    let m = Modulus::<W>::new(&limbs::<W>(n, s)).unwrap();
    let large = n.bits() > 512;
    // At 3072 and 4096 bits, half the methods (alternating) get a full-length exponent.
    let huge = |mi: usize| n.bits() >= 3072 && (mi + n.bits() as usize / 1024) % 2 == 1;
    let bases = [
        BigUint::zero(),
        BigUint::one(),
        n - 1u32,
        rng.gen_biguint_below(n),
    ];
    let exps = exponents(rng, n, full);
    let all = methods();
    let mut turn = 0;
    let mut pair = 0;
    for (bi, base) in bases.iter().enumerate() {
        for (ei, e) in exps.iter().enumerate() {
            let long = e.len() > 9;
            if long && large && bi != 3 {
                continue;
            }
            pair += 1;
            let want = base.modpow(&BigUint::from_bytes_be(e), n);
            for (mi, &method) in all.iter().enumerate() {
                let skip = if long {
                    mi % 4 != ei % 4 || huge(mi)
                } else {
                    (pair + mi) % 3 != 0
                };
                if large && skip {
                    continue;
                }
                let k = &ks[turn % ks.len()];
                turn += 1;
                let got = pow(method, base, e, &m, k);
                assert_eq!(
                    got,
                    want,
                    "{method:?} {} w{} n={n:x} base#{bi} exp#{ei}={e:02x?}",
                    k.name(),
                    W::BITS
                );
            }
        }
    }
}

fn sweep<W: Word>(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ks = kernels::<W>();
    for &bits in SIZES.iter().filter(|&&b| b <= 4096) {
        let mut moduli = edge_moduli(bits);
        moduli.push(random_modulus(&mut rng, bits));
        for n in &moduli {
            if bits <= 128 {
                // Small sizes: every kernel on every method.
                for k in &ks {
                    check_modulus::<W, _>(&mut rng, n, core::slice::from_ref(k), true);
                }
            } else {
                // Larger: the kernels rotate over the methods; above 512 bits, full-length
                // exponents only on the random modulus.
                let full = bits <= 512 || n == moduli.last().unwrap();
                check_modulus::<W, _>(&mut rng, n, &ks, full);
            }
        }
    }
}

#[test]
fn methods_match_modpow_u32() {
    sweep::<u32>(32);
}

#[test]
fn methods_match_modpow_u64() {
    sweep::<u64>(64);
}

/// 8192 bits: a short public exponent on every method, and one full-length exponent on a few.
#[test]
fn methods_match_modpow_8192() {
    let mut rng = ChaCha8Rng::seed_from_u64(8192);
    let n = random_modulus(&mut rng, 8192);
    let base = rng.gen_biguint_below(&n);
    let e = [0x01, 0x00, 0x01];
    let want = base.modpow(&BigUint::from_bytes_be(&e), &n);
    let k64 = Kernel::<u64>::portable(Algorithm::Cios, SqrVariant::Modern);
    let m64 = Modulus::<u64>::new(&limbs::<u64>(&n, 128)).unwrap();
    let k32 = Kernel::<u32>::portable(Algorithm::Cios, SqrVariant::Modern);
    let m32 = Modulus::<u32>::new(&limbs::<u32>(&n, 256)).unwrap();
    for method in methods() {
        assert_eq!(pow(method, &base, &e, &m64, &k64), want, "{method:?} u64");
        assert_eq!(pow(method, &base, &e, &m32, &k32), want, "{method:?} u32");
    }
    let e: Vec<u8> = (0..1024).map(|_| rng.gen()).collect();
    let want = base.modpow(&BigUint::from_bytes_be(&e), &n);
    for method in [Method::Sliding(5), Method::Fixed(5)] {
        assert_eq!(pow(method, &base, &e, &m64, &k64), want, "{method:?} u64");
    }
}

/// Windows wider than the exponent, exponents that are exactly one window, and moduli of one
/// limb with every method.
#[test]
fn small_exponents_every_window() {
    let k = Kernel::<u64>::portable(Algorithm::Cios, SqrVariant::Generic);
    let n = BigUint::from(0xffff_ffff_ffff_ffc5u64);
    let m = Modulus::<u64>::new(&[0xffff_ffff_ffff_ffc5]).unwrap();
    let base = BigUint::from(0x1234_5678_9abc_def0u64);
    for e in 0u32..=1100 {
        let eb = e.to_be_bytes();
        let want = base.modpow(&BigUint::from(e), &n);
        for method in methods() {
            assert_eq!(pow(method, &base, &eb, &m, &k), want, "{method:?} e={e}");
        }
    }
}

fn method_strategy() -> impl Strategy<Value = Method> {
    prop_oneof![
        Just(Method::Binary),
        (1u32..=8).prop_map(Method::Mary),
        (1u32..=8).prop_map(Method::Sliding),
        (1u32..=8).prop_map(Method::Fixed),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn prop_pow_matches_modpow(
        n_bytes in proptest::collection::vec(any::<u8>(), 1..64),
        base_bytes in proptest::collection::vec(any::<u8>(), 0..64),
        exp in proptest::collection::vec(any::<u8>(), 0..80),
        method in method_strategy(),
        algo in 0usize..7,
        sqr in 0usize..6,
        wide in any::<bool>(),
    ) {
        let mut n = BigUint::from_bytes_be(&n_bytes);
        n.set_bit(0, true);
        prop_assume!(n >= BigUint::from(3u32));
        let base = BigUint::from_bytes_be(&base_bytes) % &n;
        let want = base.modpow(&BigUint::from_bytes_be(&exp), &n);
        let (a, q) = (Algorithm::ALL[algo], SqrVariant::ALL[sqr]);
        let got = if wide {
            let s = limbs_needed::<u64>(&n);
            let m = Modulus::<u64>::new(&limbs::<u64>(&n, s)).unwrap();
            pow(method, &base, &exp, &m, &Kernel::portable(a, q))
        } else {
            let s = limbs_needed::<u32>(&n);
            let m = Modulus::<u32>::new(&limbs::<u32>(&n, s)).unwrap();
            pow(method, &base, &exp, &m, &Kernel::portable(a, q))
        };
        prop_assert_eq!(got, want);
    }
}

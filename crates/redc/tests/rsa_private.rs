//! The private operation against num-bigint's `c^d mod n`, for 2- to 5-prime keys, both
//! modes, the round trip with the public operation, the fault check and input ranges.

use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::rsa::{BoxedUint, Error, PrivateMode, RsaPrivateKey};

fn big(x: &BoxedUint) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

fn padded(x: &BigUint, len: usize) -> Vec<u8> {
    let b = x.to_bytes_be();
    let mut out = vec![0u8; len - b.len()];
    out.extend_from_slice(&b);
    out
}

/// Checks `raw_private` (both modes) against `c^d mod n` on edge and random inputs; beyond
/// the first `full` inputs (num-bigint's `c^d` is slow at 8192 bits) the reference check is
/// `m^e ≡ c`, which pins `m` down just as well since `x ↦ x^e` is a permutation mod n.
fn check_key(key: &RsaPrivateKey, rng: &mut ChaCha20Rng, random: usize, full: usize) {
    let e = big(key.e());
    let n = big(key.n());
    let d = big(key.d());
    let k = key.size();
    let mut inputs = vec![
        BigUint::from(0u32),
        BigUint::from(1u32),
        BigUint::from(2u32),
        &n - 1u32,
        &n - 2u32,
        big(&key.primes()[0]),
        big(&key.primes()[1]),
    ];
    for _ in 0..random {
        inputs.push(rng.gen_biguint_below(&n));
    }
    for (i, c) in inputs.iter().enumerate() {
        let got = key.raw_private(None, &padded(c, k)).unwrap();
        let want = if i < full {
            padded(&c.modpow(&d, &n), k)
        } else {
            let m = BigUint::from_bytes_be(&got);
            assert_eq!(&m.modpow(&e, &n), c, "input #{i}");
            got.to_vec()
        };
        assert_eq!(&got[..], &want[..], "CRT, input #{i}");
        // Shorter input (no leading zeros) is accepted too.
        let got = key.raw_private(None, &c.to_bytes_be()).unwrap();
        assert_eq!(&got[..], &want[..]);
        if i == 2 || (i < 2 && k < 512) {
            let got = key
                .raw_private_with(None, &padded(c, k), PrivateMode::NonCrt)
                .unwrap();
            assert_eq!(&got[..], &want[..], "non-CRT, input #{i}");
        }
        // raw_public undoes raw_private.
        assert_eq!(key.public_key().raw_public(&got).unwrap(), padded(c, k));
    }
}

#[test]
fn two_and_three_primes_1024_2048() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for (bits, primes) in [(1024, 2), (1024, 3), (2048, 2), (2048, 3)] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, bits, primes).unwrap();
        assert_eq!(key.primes().len(), primes);
        check_key(&key, &mut rng, 4, 20);
    }
}

#[test]
fn four_and_five_primes() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let key = RsaPrivateKey::new_multi_prime(&mut rng, 4096, 4).unwrap();
    assert_eq!(key.primes().len(), 4);
    check_key(&key, &mut rng, 2, 4);
    // The one large generation: 8192 bits, 5 primes.
    let key = RsaPrivateKey::new_multi_prime(&mut rng, 8192, 5).unwrap();
    assert_eq!(key.primes().len(), 5);
    assert_eq!(key.n().bits(), 8192);
    check_key(&key, &mut rng, 1, 3);
}

#[test]
fn small_exponent_and_public_round_trip() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let key = RsaPrivateKey::new_with_exp(&mut rng, 1024, &BoxedUint::from_u64(3)).unwrap();
    assert_eq!(big(key.e()), BigUint::from(3u32));
    check_key(&key, &mut rng, 3, 20);
    let n = big(key.n());
    for _ in 0..5 {
        let x = rng.gen_biguint_below(&n);
        let s = key.raw_private(None, &padded(&x, key.size())).unwrap();
        let back = key.public_key().raw_public(&s).unwrap();
        assert_eq!(back, padded(&x, key.size()));
    }
}

#[test]
fn fault_check_and_input_range() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    for primes in [2, 3] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, 1024, primes).unwrap();
        let n = big(key.n());
        let k = key.size();
        let x = padded(&rng.gen_biguint_below(&n), k);
        assert_eq!(
            key.raw_private_faulty_for_tests(&x).unwrap_err(),
            Error::FaultDetected
        );
        // The same input goes through without the fault.
        assert!(key.raw_private(None, &x).is_ok());
        // Inputs ≥ n or longer than k bytes are rejected.
        for bad in [padded(&n, k), padded(&(&n + 1u32), k), vec![1u8; k + 1]] {
            assert_eq!(
                key.raw_private(None, &bad).unwrap_err(),
                Error::InputOutOfRange
            );
            assert_eq!(
                key.public_key().raw_public(&bad).unwrap_err(),
                Error::InputOutOfRange
            );
        }
        // A leading zero beyond k bytes is still too long.
        let mut long = vec![0u8];
        long.extend_from_slice(&x);
        assert!(key.raw_private(None, &long).is_err());
    }
}

#[test]
fn rng_argument_is_accepted() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let x = vec![7u8; 64];
    let a = key.raw_private(Some(&mut rng), &x).unwrap();
    let b = key.raw_private(None, &x).unwrap();
    assert_eq!(a, b);
}

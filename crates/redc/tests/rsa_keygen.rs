//! Key generation: exact sizes, prime counts, d = e⁻¹ mod λ(n), FIPS 186-5 conditions, and
//! the parameter errors.

mod common;

use common::big_of as big;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::rsa::prime::is_probable_prime_vartime;
use redc::rsa::{BoxedUint, Error, ExponentFault, RsaPrivateKey};

fn check(key: &RsaPrivateKey, bits: usize, nprimes: usize, e: u64, rng: &mut ChaCha20Rng) {
    assert_eq!(key.n().bits(), bits);
    assert_eq!(key.size(), bits.div_ceil(8));
    assert_eq!(key.primes().len(), nprimes);
    assert_eq!(big(key.e()), BigUint::from(e));
    let primes: Vec<BigUint> = key.primes().iter().map(big).collect();
    let n = big(key.n());
    assert_eq!(primes.iter().product::<BigUint>(), n);
    let mut lambda = BigUint::one();
    for (i, p) in primes.iter().enumerate() {
        assert!(is_probable_prime_vartime(&p.to_bytes_be(), 20, rng));
        // Each prime has its share of the bits and its top two bits set.
        let pb = p.bits() as usize;
        assert!(
            pb >= bits / nprimes && pb <= bits / nprimes + 1,
            "prime {i}: {pb} bits"
        );
        assert!(p.bit(pb as u64 - 2));
        assert!((p - 1u32).gcd(&BigUint::from(e)).is_one());
        lambda = lambda.lcm(&(p - 1u32));
        for q in &primes[i + 1..] {
            let diff = if p > q { p - q } else { q - p };
            assert!(diff.bits() as usize > bits / nprimes - 100);
        }
    }
    let d = big(key.d());
    assert!(d < lambda, "d reduced mod λ(n)");
    assert!(((&d * e) % &lambda).is_one());
    assert!(d.bits() as usize > bits / 2);
    key.validate().unwrap();
}

#[test]
fn sizes_and_prime_counts() {
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    for (bits, nprimes) in [
        (1024, 2),
        (1024, 3),
        (1025, 2),
        (1100, 3),
        (2048, 2),
        (3072, 3),
    ] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, bits, nprimes).unwrap();
        let mut rng2 = ChaCha20Rng::seed_from_u64(bits as u64);
        check(&key, bits, nprimes, 65537, &mut rng2);
    }
    let key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    check(&key, 2048, 2, 65537, &mut rng.clone());
}

#[test]
fn other_exponents() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for e in [3u64, 17, 0xffff_ffff_ffff_fffd] {
        let key = RsaPrivateKey::new_with_exp(&mut rng, 1024, &BoxedUint::from_u64(e)).unwrap();
        check(&key, 1024, 2, e, &mut rng.clone());
    }
    // A 200-bit exponent.
    let e = BoxedUint::from_be_bytes(&[0x8f; 25]);
    let key = RsaPrivateKey::new_with_exp(&mut rng, 1024, &e).unwrap();
    assert_eq!(key.e(), &e);
    key.validate().unwrap();
}

#[test]
fn parameter_errors() {
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    for bits in [512, 1023, 16385] {
        let err = RsaPrivateKey::new(&mut rng, bits).unwrap_err();
        assert_eq!(
            err,
            Error::KeySize {
                bits,
                min: 1024,
                max: 16384
            }
        );
        let limit = if bits < 1024 {
            "below the 1024-bit minimum"
        } else {
            "above the 16384-bit maximum"
        };
        assert_eq!(
            err.to_string(),
            format!("modulus of {bits} bits is {limit}")
        );
    }
    for (bits, nprimes, max) in [
        (1024, 1, 3),
        (1024, 4, 3),
        (4095, 4, 3),
        (4096, 5, 4),
        (8192, 6, 5),
    ] {
        let err = RsaPrivateKey::new_multi_prime(&mut rng, bits, nprimes).unwrap_err();
        assert_eq!(
            err,
            Error::PrimeCount {
                primes: nprimes,
                bits,
                max
            },
            "{bits} bits, {nprimes} primes"
        );
        assert_eq!(
            err.to_string(),
            format!("a {bits}-bit key takes 2 to {max} primes, not {nprimes}")
        );
    }
    for (e, fault) in [
        (0u64, ExponentFault::TooSmall),
        (1, ExponentFault::TooSmall),
        (2, ExponentFault::Even),
        (65536, ExponentFault::Even),
    ] {
        assert_eq!(
            RsaPrivateKey::new_with_exp(&mut rng, 1024, &BoxedUint::from_u64(e)).unwrap_err(),
            Error::PublicExponent(fault),
            "e = {e}"
        );
    }
    let huge_e = BoxedUint::from_be_bytes(&[0xff; 33]);
    let err = RsaPrivateKey::new_with_exp(&mut rng, 1024, &huge_e).unwrap_err();
    assert_eq!(
        err,
        Error::PublicExponent(ExponentFault::TooLarge {
            bits: 264,
            max: 256
        })
    );
    assert_eq!(
        err.to_string(),
        "invalid public exponent: e of 264 bits is above the 256-bit maximum for key generation"
    );
}

#[test]
fn same_seed_same_key() {
    let a = RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(13), 1024).unwrap();
    let b = RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(13), 1024).unwrap();
    assert_eq!(a.primes(), b.primes());
    let c = RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(14), 1024).unwrap();
    assert_ne!(a.n(), c.n());
}

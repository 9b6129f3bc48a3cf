//! The private operation against num-bigint's `c^d mod n`, for 2- to 5-prime keys, both
//! modes, blinded and not, the round trip with the public operation, the fault check and
//! input ranges; the blinding pair's refresh schedule, sharing between threads, and a failing
//! generator.

mod common;

use common::{big_of as big, padded};

use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::rsa::{BoxedUint, Error, InputFault, PrivateMode, RsaPrivateKey};

/// Checks `raw_private` (both modes) against `c^d mod n` on edge and random inputs; beyond
/// the first `full` inputs (num-bigint's `c^d` is slow at 8192 bits) the reference check is
/// `m^e ≡ c`, which pins `m` down just as well since `x ↦ x^e` is a permutation mod n.
fn check_key(key: &RsaPrivateKey, rng: &mut ChaCha20Rng, random: usize, full: usize) {
    for (backend, key) in common::on_every_backend(key) {
        check_key_on(&key, rng, random, full, backend.name());
    }
}

/// [`check_key`] on the key's own backend (`name` for the messages).
fn check_key_on(
    key: &RsaPrivateKey,
    rng: &mut ChaCha20Rng,
    random: usize,
    full: usize,
    name: &str,
) {
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
        assert_eq!(&got[..], &want[..], "{name}: CRT, input #{i}");
        // Blinded (a pair drawn from rng) gives the same.
        let blinded = key.raw_private(Some(&mut *rng), &padded(c, k)).unwrap();
        assert_eq!(&blinded[..], &want[..], "{name}: blinded, input #{i}");
        // Shorter input (no leading zeros) is accepted too.
        let got = key.raw_private(None, &c.to_bytes_be()).unwrap();
        assert_eq!(&got[..], &want[..]);
        if i == 2 || (i < 2 && k < 512) {
            let got = key
                .raw_private_with(None, &padded(c, k), PrivateMode::NonCrt)
                .unwrap();
            assert_eq!(&got[..], &want[..], "{name}: non-CRT, input #{i}");
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
        for (backend, key) in common::on_every_backend(&key) {
            let n = big(key.n());
            let k = key.size();
            let x = padded(&rng.gen_biguint_below(&n), k);
            assert_eq!(
                key.raw_private_faulty_for_tests(&x).unwrap_err(),
                Error::FaultDetected,
                "{}",
                backend.name()
            );
            // The same input goes through without the fault.
            assert!(key.raw_private(None, &x).is_ok());
            // Inputs ≥ n or longer than k bytes are rejected.
            let too_long = InputFault::TooLong { len: k + 1, max: k };
            for (bad, fault) in [
                (padded(&n, k), InputFault::NotBelowModulus),
                (padded(&(&n + 1u32), k), InputFault::NotBelowModulus),
                (vec![1u8; k + 1], too_long),
            ] {
                assert_eq!(
                    key.raw_private(None, &bad).unwrap_err(),
                    Error::InputOutOfRange(fault)
                );
                assert_eq!(
                    key.public_key().raw_public(&bad).unwrap_err(),
                    Error::InputOutOfRange(fault)
                );
            }
            // A leading zero beyond k bytes is still too long.
            let mut long = vec![0u8];
            long.extend_from_slice(&x);
            assert!(key.raw_private(None, &long).is_err(), "{}", backend.name());
        }
    }
}

/// A generator that counts the bytes drawn from it (to see when a blinding pair is made).
struct Counting<R> {
    inner: R,
    drawn: usize,
}

impl<R: rand::RngCore> rand::RngCore for Counting<R> {
    fn next_u32(&mut self) -> u32 {
        self.drawn += 4;
        self.inner.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.drawn += 8;
        self.inner.next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.drawn += dest.len();
        self.inner.fill_bytes(dest)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.drawn += dest.len();
        self.inner.try_fill_bytes(dest)
    }
}

impl<R: rand::CryptoRng> rand::CryptoRng for Counting<R> {}

/// A generator that fails, or (`zeros`) returns only zero bytes.
struct Broken {
    zeros: bool,
}

impl rand::RngCore for Broken {
    fn next_u32(&mut self) -> u32 {
        0
    }
    fn next_u64(&mut self) -> u64 {
        0
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(0)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        if self.zeros {
            dest.fill(0);
            Ok(())
        } else {
            Err(rand::Error::new("broken generator"))
        }
    }
}

impl rand::CryptoRng for Broken {}

#[test]
fn blinded_operation_matches_and_refreshes_its_pair() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for primes in [2, 3] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, 1024, primes).unwrap();
        for (backend, key) in common::on_every_backend(&key) {
            let n = big(key.n());
            let k = key.size();
            let mut counting = Counting {
                inner: ChaCha20Rng::seed_from_u64(6),
                drawn: 0,
            };
            // 140 operations: four pairs are made at the first (one inversion for all), each
            // used 32 times in turn, then four more at the 129th.
            let mut draws = Vec::new();
            for i in 0..140u32 {
                let c = match i {
                    0 => BigUint::from(0u32),
                    1 => BigUint::from(1u32),
                    2 => &n - 1u32,
                    3 => big(&key.primes()[0]),
                    _ => rng.gen_biguint_below(&n),
                };
                let x = padded(&c, k);
                let before = counting.drawn;
                let mode = if i % 16 == 5 {
                    PrivateMode::NonCrt
                } else {
                    PrivateMode::Crt
                };
                let blinded = key.raw_private_with(Some(&mut counting), &x, mode).unwrap();
                if counting.drawn > before {
                    draws.push(i);
                }
                assert_eq!(
                    blinded,
                    key.raw_private(None, &x).unwrap(),
                    "{primes} primes on {}, #{i}",
                    backend.name()
                );
                if i < 8 {
                    assert_eq!(&blinded[..], &padded(&c.modpow(&big(key.d()), &n), k)[..]);
                }
            }
            assert_eq!(
                draws,
                [0, 128],
                "{primes} primes: when fresh pairs are drawn"
            );
            // A clone makes its own pair.
            let clone = key.clone();
            let before = counting.drawn;
            let x = padded(&rng.gen_biguint_below(&n), k);
            assert_eq!(
                clone.raw_private(Some(&mut counting), &x).unwrap(),
                key.raw_private(None, &x).unwrap()
            );
            assert!(counting.drawn > before, "{}", backend.name());
        }
    }
}

#[test]
fn blinding_shared_between_threads() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let key = RsaPrivateKey::new_multi_prime(&mut rng, 2048, 3).unwrap();
    let n = big(key.n());
    let inputs: Vec<Vec<u8>> = (0..24)
        .map(|_| padded(&rng.gen_biguint_below(&n), key.size()))
        .collect();
    let want: Vec<_> = inputs
        .iter()
        .map(|x| key.raw_private(None, x).unwrap())
        .collect();
    // Two threads share the key (and its pair) and must each get every result right.
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let (key, inputs, want) = (&key, &inputs, &want);
            s.spawn(move || {
                let mut r = ChaCha20Rng::seed_from_u64(100 + t);
                for (x, w) in inputs.iter().zip(want) {
                    assert_eq!(&key.raw_private(Some(&mut r), x).unwrap(), w);
                }
            });
        }
    });
}

#[test]
fn blinding_reports_a_failing_generator() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let x = vec![7u8; 64];
    for zeros in [false, true] {
        assert_eq!(
            key.raw_private(Some(&mut Broken { zeros }), &x)
                .unwrap_err(),
            Error::Rng,
            "zeros: {zeros}"
        );
    }
    // The key still works, blinded or not.
    let a = key.raw_private(Some(&mut rng), &x).unwrap();
    assert_eq!(a, key.raw_private(None, &x).unwrap());
}

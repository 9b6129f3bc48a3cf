//! The RSA layer's public API under hostile or unusual inputs: keys built from primes far too
//! large, or with an exponent far larger than the modulus (refused before any work that grows
//! with their size), keys whose primes differ wildly in size (checked against num-bigint on
//! every backend, one at a time and in batches), public keys at the size limits, and key
//! generation at the largest public exponent it takes.

mod common;

use common::{big_of as big, boxed as u, padded};

use num_bigint::{BigUint, RandBigInt};
use num_integer::Integer;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::rsa::prime::is_probable_prime_vartime;
use redc::rsa::{
    BoxedUint, Error, ExponentFault, KeyFault, Pkcs1v15Sign, RsaPrivateKey, RsaPublicKey, MAX_BITS,
};

/// A random odd number of exactly `bits` bits.
fn odd(rng: &mut ChaCha20Rng, bits: u64) -> BigUint {
    let mut x = rng.gen_biguint(bits);
    x.set_bit(bits - 1, true);
    x.set_bit(0, true);
    x
}

/// A random probable prime of exactly `bits` bits with `p − 1` prime to 65537.
fn prime(rng: &mut ChaCha20Rng, bits: u64) -> BigUint {
    loop {
        let p = odd(rng, bits);
        let coprime = (&p - 1u32) % 65537u32 != BigUint::from(0u32);
        if coprime && is_probable_prime_vartime(&p.to_bytes_be(), 20, rng) {
            return p;
        }
    }
}

/// `from_primes` on num-bigint values, the key dropped (its error is what the tests compare).
fn from_primes(primes: &[BigUint], e: &BigUint) -> Result<(), Error> {
    RsaPrivateKey::from_primes(primes.iter().map(u).collect(), u(e)).map(|_| ())
}

/// Primes whose product must exceed the largest modulus are refused from their sizes alone:
/// before this check, `from_primes` multiplied them and computed `λ` and `d` (gcd and division
/// quadratic in their length: 2 s for two 300 000-bit numbers, half an hour for a megabyte;
/// 12 s to multiply 40 000 small primes) only for the size or count check to refuse them.
#[test]
fn from_primes_refuses_oversized_primes_from_their_sizes() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let e = BigUint::from(65537u32);
    let too_large = |bits| {
        Err(Error::InvalidKey(KeyFault::PrimesTooLarge {
            bits,
            max: MAX_BITS,
        }))
    };
    // Two 300 000-bit numbers: their product has at least 2·299 999 + 1 bits.
    let huge = [odd(&mut rng, 300_000), odd(&mut rng, 300_000)];
    // The variant is the check's own: before it, these inputs were multiplied and refused
    // by the size check (`KeySize`) seconds later.
    assert_eq!(from_primes(&huge, &e), too_large(599_999));
    // 40 000 small primes: too many, and far too large together.
    let many = vec![prime(&mut rng, 70); 40_000];
    assert_eq!(from_primes(&many, &e), too_large(40_000 * 69 + 1));
    // The bound is exact at the limit: 8193 + 8193 bits cannot make fewer than 16385...
    let (p, q) = (odd(&mut rng, 8193), odd(&mut rng, 8193));
    assert_eq!(from_primes(&[p, q], &e), too_large(16_385));
    // ...while 8192 + 8193 bits may make 16384, so the product is computed and its exact
    // size reported: (2^8192 − 1)·(2^8193 − 1) has 16385 bits.
    let one = BigUint::from(1u32);
    let p = (&one << 8192u32) - 1u32;
    let q = (&one << 8193u32) - 1u32;
    let size = Error::KeySize {
        bits: 16_385,
        min: 512,
        max: MAX_BITS,
    };
    assert_eq!(from_primes(&[p, q], &e), Err(size));
    assert_eq!(
        too_large(599_999).unwrap_err().to_string(),
        "invalid key: the product of the primes has at least 599999 bits, above the 16384-bit \
         maximum"
    );
}

/// An exponent far larger than the modulus is refused (`e` not below `n`) before `d` is
/// computed: before this check, `from_primes` first inverted `λ` modulo the huge `e`, which
/// takes time quadratic in `e`'s length (3 s for a 300 000-bit `e`), or reported the `e` that
/// has no inverse as [`KeyFault::ExponentNotInvertible`] instead of too large.
#[test]
fn from_primes_refuses_an_exponent_above_n_before_computing_d() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let primes = [prime(&mut rng, 257), prime(&mut rng, 257)];
    let phi = (&primes[0] - 1u32) * (&primes[1] - 1u32);
    // One e with an inverse modulo λ (so computing d runs its full length), and one sharing
    // p − 1's odd part with λ (whose error used to be that, not the fault that comes first).
    let invertible = std::iter::repeat_with(|| odd(&mut rng, 300_000))
        .find(|e| e.gcd(&phi) == BigUint::from(1u32))
        .unwrap();
    let p_minus_1 = &primes[0] - 1u32;
    let odd_part = &p_minus_1 >> p_minus_1.trailing_zeros().unwrap();
    let not_invertible = odd(&mut rng, 300_000) * odd_part;
    // The second one tells the order apart: computing d first refused it as not invertible.
    for huge_e in [invertible, not_invertible] {
        assert_eq!(
            from_primes(&primes, &huge_e),
            Err(Error::PublicExponent(ExponentFault::NotBelowModulus))
        );
    }
    // A modulus below the import minimum is refused (exactly) before d as well.
    let small = [prime(&mut rng, 200), prime(&mut rng, 200)];
    let n_bits = (&small[0] * &small[1]).bits() as usize;
    assert_eq!(
        from_primes(&small, &BigUint::from(65537u32)),
        Err(Error::KeySize {
            bits: n_bits,
            min: 512,
            max: MAX_BITS
        })
    );
}

/// Keys whose primes differ wildly in size (65 bits beside 959, in every position, two and
/// three primes) and whose components carry leading zeros: `c^d mod n` is what num-bigint
/// computes, on every backend, one at a time and in a batch, blinded and not.
#[test]
fn unbalanced_primes_give_c_to_the_d() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let e = BigUint::from(65537u32);
    for sizes in [
        &[65u64, 960][..],
        &[960, 65],
        &[65, 65, 896],
        &[896, 65, 65],
        &[65, 896, 65],
        &[300, 129, 597],
    ] {
        let primes: Vec<BigUint> = sizes.iter().map(|&b| prime(&mut rng, b)).collect();
        let key = RsaPrivateKey::from_primes(primes.iter().map(u).collect(), u(&e))
            .unwrap_or_else(|err| panic!("{sizes:?}: {err}"));
        // The same key from its components, each with leading zero bytes.
        let zeros = |x: &BoxedUint| {
            let mut b = vec![0u8; 17];
            b.extend_from_slice(&x.to_be_bytes());
            BoxedUint::from_be_bytes(&b)
        };
        let again = RsaPrivateKey::from_components(
            zeros(key.n()),
            zeros(key.e()),
            zeros(key.d()),
            key.primes().iter().map(zeros).collect(),
        )
        .unwrap();
        assert_eq!(again.public_key(), key.public_key(), "{sizes:?}");
        assert_eq!(again.n().as_limbs(), key.n().as_limbs(), "n is trimmed");

        let (n, d, k) = (big(key.n()), big(key.d()), key.size());
        let mut inputs = vec![BigUint::from(0u32), BigUint::from(1u32), &n - 1u32];
        inputs.extend(primes.iter().cloned());
        inputs.extend((0..4).map(|_| rng.gen_biguint_below(&n)));
        let bytes: Vec<Vec<u8>> = inputs.iter().map(|c| padded(c, k)).collect();
        let want: Vec<Vec<u8>> = inputs
            .iter()
            .map(|c| padded(&c.modpow(&d, &n), k))
            .collect();
        let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
        for (backend, key) in common::on_every_backend(&again) {
            let what = format!("{sizes:?} on {}", backend.name());
            for (i, c) in refs.iter().enumerate() {
                let got = key.raw_private(None, c).unwrap();
                assert_eq!(&got[..], &want[i][..], "{what}: input {i}");
                let got = key.raw_private(Some(&mut rng), c).unwrap();
                assert_eq!(&got[..], &want[i][..], "{what}: blinded input {i}");
            }
            let batch = key.raw_private_batch(Some(&mut rng), &refs).unwrap();
            for (i, got) in batch.iter().enumerate() {
                assert_eq!(&got[..], &want[i][..], "{what}: batch item {i}");
            }
            let h = [7u8; 32];
            let sig = key.sign(Pkcs1v15Sign::new::<sha2::Sha256>(), &h).unwrap();
            key.public_key()
                .verify(Pkcs1v15Sign::new::<sha2::Sha256>(), &h, &sig)
                .unwrap();
        }
    }
}

/// Public keys at the edges of what `RsaPublicKey::new` takes: the largest modulus, an
/// exponent just below `n`, and an exponent given with a thousand leading zero bytes.
#[test]
fn public_keys_at_the_limits() {
    let x = BigUint::from(0x1234_5678u32);
    let n = (BigUint::from(1u32) << MAX_BITS) - 1u32;
    let key = RsaPublicKey::new(u(&n), BoxedUint::from_u64(3)).unwrap();
    assert_eq!((key.bits(), key.size()), (MAX_BITS, MAX_BITS / 8));
    let got = key.raw_public(&x.to_bytes_be()).unwrap();
    assert_eq!(
        BigUint::from_bytes_be(&got),
        x.modpow(&BigUint::from(3u32), &n)
    );

    let n = (BigUint::from(1u32) << 1023u32) + 12345u32;
    let e = &n - 2u32;
    let key = RsaPublicKey::new(u(&n), u(&e)).unwrap();
    let got = key.raw_public(&x.to_bytes_be()).unwrap();
    assert_eq!(BigUint::from_bytes_be(&got), x.modpow(&e, &n));

    let mut e = vec![0u8; 1000];
    e.extend_from_slice(&[1, 0, 1]);
    let key = RsaPublicKey::new(u(&n), BoxedUint::from_be_bytes(&e)).unwrap();
    assert_eq!(key.e(), &BoxedUint::from_u64(65537));
    assert_eq!(key.e().as_limbs().len(), 1, "e is trimmed");
}

/// Key generation takes every odd exponent up to `2^256 − 1` (FIPS 186-5: `e < 2^256`) and
/// refuses `2^256 + 1`, the smallest odd exponent above.
#[test]
fn key_generation_at_the_largest_exponent() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let one = BigUint::from(1u32);
    let e = (&one << 256u32) - 1u32;
    let key = RsaPrivateKey::new_with_exp(&mut rng, 1024, &u(&e)).unwrap();
    assert_eq!(big(key.e()), e);
    let primes: Vec<BigUint> = key.primes().iter().map(big).collect();
    let lambda = (&primes[0] - 1u32).lcm(&(&primes[1] - 1u32));
    assert_eq!(
        (&e * big(key.d())) % lambda,
        one,
        "d is e's inverse mod λ(n)"
    );
    let above = (&one << 256u32) + 1u32;
    assert_eq!(
        RsaPrivateKey::new_with_exp(&mut rng, 1024, &u(&above)).unwrap_err(),
        Error::PublicExponent(ExponentFault::TooLarge {
            bits: 257,
            max: 256
        })
    );
}

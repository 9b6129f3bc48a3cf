//! The fault check (RFC 8017 §5.1.2 computed by CRT, then `m^e = c` verified before release):
//! - a corrupted CRT part (the test hook flips a bit of the first prime's partial result) gives
//!   `Error::FaultDetected` and no output, for 2- to 3-prime keys and many inputs;
//! - a key whose `dP`, `dQ`, `qInv`, third-prime exponent or coefficient, or `d` is wrong
//!   cannot be imported (PKCS#1 DER with the value tampered), so it can never produce a
//!   signature that fails to verify (the Bellcore / Boneh–DeMillo–Lipton attack needs exactly
//!   one such signature to factor `n`).

mod common;

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::rsa::pkcs1::der::{Decode, Encode};
use redc::rsa::pkcs1::{self, UintRef};
use redc::rsa::{
    DecodeRsaPrivateKey, EncodeRsaPrivateKey, Error, HashAlg, Pkcs1v15Sign, Pss, RsaPrivateKey,
};

fn keys() -> Vec<RsaPrivateKey> {
    let mut rng = ChaCha20Rng::seed_from_u64(0xfa17);
    vec![
        RsaPrivateKey::new(&mut rng, 1024).unwrap(),
        RsaPrivateKey::new_multi_prime(&mut rng, 1024, 3).unwrap(),
    ]
}

#[test]
fn corrupted_crt_part_is_detected() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for (backend, key) in keys().iter().flat_map(common::on_every_backend) {
        let k = key.size();
        for i in 0..20 {
            let mut c = vec![0u8; k];
            rng.fill(&mut c[1..]);
            if i == 0 {
                c.iter_mut().for_each(|b| *b = 0);
                c[k - 1] = 2;
            }
            assert_eq!(
                key.raw_private_faulty_for_tests(&c),
                Err(Error::FaultDetected),
                "{}-prime key on {}, input #{i}",
                key.primes().len(),
                backend.name()
            );
            // The same input without the fault is fine.
            let m = key.raw_private(None, &c).unwrap();
            assert_eq!(key.public_key().raw_public(&m).unwrap(), c);
        }
        assert_eq!(
            Error::FaultDetected.to_string(),
            "fault detected in the private-key operation"
        );
    }
}

/// A two-prime key of unequal primes (448 and 576 bits under a 1024-bit modulus: the duo
/// form runs both at the larger one's digit count, and the fault check modulo the primes
/// reduces into two limb counts): every backend passes the right results, blinded or not,
/// and refuses the corrupted one.
#[test]
fn unequal_primes_are_fault_checked_like_equal_ones() {
    let mut rng = ChaCha20Rng::seed_from_u64(0x5eed);
    let p = common::big_of(
        &RsaPrivateKey::new_multi_prime(&mut rng, 1344, 3)
            .unwrap()
            .primes()[0],
    );
    let q = common::big_of(&RsaPrivateKey::new(&mut rng, 1152).unwrap().primes()[0]);
    let (n, e) = (&p * &q, BigUint::from(65537u32));
    let phi = (&p - 1u32) * (&q - 1u32);
    let d = e.modinv(&phi).expect("e is prime to p − 1 and q − 1");
    let key = RsaPrivateKey::from_components(
        common::boxed(&n),
        common::boxed(&e),
        common::boxed(&d),
        vec![common::boxed(&p), common::boxed(&q)],
    )
    .unwrap();
    assert_eq!(key.size(), 128);
    for (backend, key) in common::on_every_backend(&key) {
        for i in 0..10 {
            let mut c = vec![0u8; 128];
            rng.fill(&mut c[1..]);
            assert_eq!(
                key.raw_private_faulty_for_tests(&c),
                Err(Error::FaultDetected),
                "{} input #{i}",
                backend.name()
            );
            let m = key.raw_private(None, &c).unwrap();
            assert_eq!(key.public_key().raw_public(&m).unwrap(), c);
            assert_eq!(key.raw_private(Some(&mut rng), &c).unwrap(), m);
        }
    }
}

fn add(x: &[u8], k: &BigUint) -> Vec<u8> {
    (BigUint::from_bytes_be(x) + k).to_bytes_be()
}

fn xor_low(x: &[u8]) -> Vec<u8> {
    let mut v = x.to_vec();
    *v.last_mut().unwrap() ^= 2;
    v
}

/// Re-encodes `der` with one field replaced by `f(old value)`.
fn tamper(der: &[u8], field: &str, f: &dyn Fn(&[u8], &pkcs1::RsaPrivateKey) -> Vec<u8>) -> Vec<u8> {
    let k = pkcs1::RsaPrivateKey::from_der(der).unwrap();
    let get = |name: &str| -> Vec<u8> {
        let u = match name {
            "d" => k.private_exponent,
            "dP" => k.exponent1,
            "dQ" => k.exponent2,
            "qInv" => k.coefficient,
            "d3" => k.other_prime_infos.as_ref().unwrap()[0].exponent,
            "t3" => k.other_prime_infos.as_ref().unwrap()[0].coefficient,
            _ => unreachable!(),
        };
        f(u.as_bytes(), &k)
    };
    let new = get(field);
    let new = UintRef::new(&new).unwrap();
    let mut t = k.clone();
    match field {
        "d" => t.private_exponent = new,
        "dP" => t.exponent1 = new,
        "dQ" => t.exponent2 = new,
        "qInv" => t.coefficient = new,
        "d3" => t.other_prime_infos.as_mut().unwrap()[0].exponent = new,
        "t3" => t.other_prime_infos.as_mut().unwrap()[0].coefficient = new,
        _ => unreachable!(),
    }
    t.to_der().unwrap()
}

#[test]
fn wrong_crt_values_are_rejected_on_import() {
    let hashed = HashAlg::Sha256.digest(b"fault");
    for key in keys() {
        let der = key.to_pkcs1_der().unwrap();
        let der = der.as_bytes();
        // The untampered key round-trips and its signatures verify.
        let back = RsaPrivateKey::from_pkcs1_der(der).unwrap();
        let sig = back
            .sign(Pkcs1v15Sign::new::<sha2::Sha256>(), &hashed)
            .unwrap();
        key.public_key()
            .verify(Pkcs1v15Sign::new::<sha2::Sha256>(), &hashed, &sig)
            .unwrap();

        let mut fields = vec!["d", "dP", "dQ", "qInv"];
        if key.primes().len() == 3 {
            fields.extend(["d3", "t3"]);
        }
        let p_minus_1 = |k: &pkcs1::RsaPrivateKey, field: &str| -> BigUint {
            let p = match field {
                "dP" => k.prime1,
                "dQ" => k.prime2,
                "qInv" => k.prime1,
                _ => k.other_prime_infos.as_ref().unwrap()[0].prime,
            };
            let p = BigUint::from_bytes_be(p.as_bytes());
            if field == "qInv" || field == "t3" {
                p
            } else {
                p - 1u32
            }
        };
        for field in fields {
            // A different value, and (for the CRT values) a congruent but unreduced one,
            // which gives the same results mathematically but is not the canonical value.
            let mut variants: Vec<Vec<u8>> = vec![tamper(der, field, &|x, _| xor_low(x))];
            if field != "d" {
                variants.push(tamper(der, field, &|x, k| add(x, &p_minus_1(k, field))));
            } else {
                // d + λ-multiple: d + (p−1)(q−1) still works mathematically for 2 primes,
                // but is not d.
                variants.push(tamper(der, field, &|x, _| add(x, &BigUint::from(2u32))));
            }
            for (i, bad) in variants.iter().enumerate() {
                let r = RsaPrivateKey::from_pkcs1_der(bad);
                assert!(
                    r.is_err(),
                    "{}-prime key with tampered {field} (variant {i}) was accepted",
                    key.primes().len()
                );
            }
        }
    }
}

#[test]
fn accepted_keys_sign_verifiably() {
    // Every scheme and hash, 2 and 3 primes: a signature from an accepted key always verifies.
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for key in keys() {
        let public = key.to_public_key();
        for h in [HashAlg::Sha1, HashAlg::Sha256, HashAlg::Sha384] {
            let hashed = h.digest(b"msg");
            let sig = key.sign(Pkcs1v15Sign::from_hash(h), &hashed).unwrap();
            public
                .verify(Pkcs1v15Sign::from_hash(h), &hashed, &sig)
                .unwrap();
            let sig = key
                .sign_with_rng(&mut rng, Pss::from_hash(h), &hashed)
                .unwrap();
            public.verify(Pss::from_hash(h), &hashed, &sig).unwrap();
        }
    }
}

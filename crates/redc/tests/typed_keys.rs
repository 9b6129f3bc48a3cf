//! The typed keys and conversions in the shape of RustCrypto `rsa`: each agrees with the
//! padding types it wraps, on every backend this CPU runs.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::mont::backend::Backend;
use redc::rsa::signature::hazmat::{PrehashSigner, PrehashVerifier, RandomizedPrehashSigner};
use redc::rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};
use redc::rsa::traits::{
    Decryptor, EncryptingKeypair, PrivateKeyParts, PublicKeyParts, RandomizedDecryptor,
    RandomizedEncryptor,
};
use redc::rsa::{
    oaep, pkcs1v15, pss, sha2::Digest, sha2::Sha256, sha2::Sha384, EncodePrivateKey,
    EncodePublicKey, Error, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey,
};

/// One key per available backend (the same key, switched with `set_backend`).
fn keys() -> Vec<(Backend, RsaPrivateKey)> {
    let mut rng = ChaCha20Rng::seed_from_u64(23);
    let key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    Backend::available()
        .map(|b| {
            let mut k = key.clone();
            k.set_backend(b).unwrap();
            (b, k)
        })
        .collect()
}

#[test]
fn public_key_conversions_and_parts() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let public = RsaPublicKey::from(&key);
    assert_eq!(public, key.to_public_key());
    assert_eq!(&public, AsRef::<RsaPublicKey>::as_ref(&key));
    assert_eq!(RsaPublicKey::from(key.clone()), public);
    // The traits give what the inherent methods give.
    assert_eq!(PublicKeyParts::n(&public), public.n());
    assert_eq!(PublicKeyParts::e(&key), key.e());
    assert_eq!(PublicKeyParts::size(&key), 128);
    assert_eq!(PrivateKeyParts::d(&key), key.d());
    assert_eq!(PrivateKeyParts::primes(&key), key.primes());
    assert_eq!(PrivateKeyParts::dp(&key), key.dp());
    assert_eq!(PrivateKeyParts::dq(&key), key.dq());
    assert_eq!(PrivateKeyParts::qinv(&key), key.qinv());
}

#[test]
fn pkcs1v15_signing_keys() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let msgs: [&[u8]; 5] = [b"", b"a", b"bb", b"ccc", b"dddd"];
    for (b, key) in keys() {
        let sk = pkcs1v15::SigningKey::<Sha256>::new(key.clone());
        let vk = sk.verifying_key();
        let want: Vec<Vec<u8>> = msgs
            .iter()
            .map(|m| {
                key.sign(Pkcs1v15Sign::new::<Sha256>(), &Sha256::digest(m))
                    .unwrap()
            })
            .collect();
        for (m, w) in msgs.iter().zip(&want) {
            assert_eq!(&sk.sign(m).to_vec(), w, "{b}");
            assert_eq!(&sk.sign_with_rng(&mut rng, m).to_vec(), w, "{b}");
            assert_eq!(
                &sk.sign_prehash(&Sha256::digest(m)).unwrap().to_vec(),
                w,
                "{b}"
            );
            vk.verify_prehash(&Sha256::digest(m), &sk.sign(m)).unwrap();
        }
        let batch = sk.sign_batch(&msgs).unwrap();
        let blinded = sk.sign_batch_with_rng(&mut rng, &msgs).unwrap();
        for ((m, w), (s1, s2)) in msgs.iter().zip(&want).zip(batch.iter().zip(&blinded)) {
            assert_eq!(&s1.to_vec(), w, "{b} batch");
            assert_eq!(&s2.to_vec(), w, "{b} blinded batch");
            vk.verify(m, s1).unwrap();
        }
        // A signature for another hash does not verify.
        let other = pkcs1v15::VerifyingKey::<Sha384>::new(key.to_public_key());
        let sig384 = pkcs1v15::Signature::try_from(batch[1].to_bytes().as_ref()).unwrap();
        assert!(other.verify(msgs[1], &sig384).is_err());
        // The encodings are the wrapped keys'.
        assert_eq!(
            sk.to_pkcs8_der().unwrap().as_bytes(),
            key.to_pkcs8_der().unwrap().as_bytes()
        );
        assert_eq!(
            vk.to_public_key_der().unwrap().as_bytes(),
            key.to_public_key().to_public_key_der().unwrap().as_bytes()
        );
    }
}

#[test]
fn pss_signing_keys_both_blind_and_agree() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let msgs: [&[u8]; 4] = [b"one", b"two", b"three", b"four"];
    for (b, key) in keys() {
        let sk = pss::SigningKey::<Sha256>::new(key.clone());
        let bk = pss::BlindedSigningKey::<Sha256>::new(key.clone());
        assert_eq!(sk.salt_len(), 32);
        let vk = sk.verifying_key();
        assert_eq!(vk, bk.verifying_key());
        for m in msgs {
            vk.verify(m, &sk.sign_with_rng(&mut rng, m)).unwrap();
            vk.verify(m, &bk.sign_with_rng(&mut rng, m)).unwrap();
            let pre = bk
                .sign_prehash_with_rng(&mut rng, &Sha256::digest(m))
                .unwrap();
            vk.verify(m, &pre).unwrap();
            // The padding type verifies what the typed key signed, and vice versa.
            key.to_public_key()
                .verify(Pss::new::<Sha256>(), &Sha256::digest(m), pre.as_bytes())
                .unwrap();
            let by_padding = key
                .sign_with_rng(&mut rng, Pss::new::<Sha256>(), &Sha256::digest(m))
                .unwrap();
            vk.verify(m, &pss::Signature::from(by_padding)).unwrap();
        }
        for sigs in [
            sk.sign_batch_with_rng(&mut rng, &msgs).unwrap(),
            bk.sign_batch_with_rng(&mut rng, &msgs).unwrap(),
        ] {
            assert_eq!(sigs.len(), msgs.len(), "{b}");
            for (m, s) in msgs.iter().zip(&sigs) {
                vk.verify(m, s).unwrap();
            }
            // Signatures are not interchangeable between messages.
            assert!(vk.verify(msgs[0], &sigs[1]).is_err());
        }
        // A fixed salt length is kept by the verifying key, which then rejects other lengths.
        let fixed = pss::BlindedSigningKey::<Sha256>::new_with_salt_len(key.clone(), 0);
        assert_eq!(fixed.salt_len(), 0);
        let s0 = fixed.sign_with_rng(&mut rng, b"x");
        fixed.verifying_key().verify(b"x", &s0).unwrap();
        assert!(fixed
            .verifying_key()
            .verify(b"x", &sk.sign_with_rng(&mut rng, b"x"))
            .is_err());
        // Conversions keep the key.
        let back: RsaPrivateKey = pss::SigningKey::from(bk).into();
        assert_eq!(back.to_public_key(), key.to_public_key());
    }
}

#[test]
fn oaep_keys() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    for (b, key) in keys() {
        let dk = oaep::DecryptingKey::<Sha256>::new_with_label(key.clone(), "label");
        let ek = dk.encrypting_key();
        assert_eq!(ek.padding(), Oaep::new_with_label::<Sha256, _>("label"));
        let c = ek.encrypt_with_rng(&mut rng, b"secret").unwrap();
        assert_eq!(dk.decrypt(&c).unwrap(), b"secret", "{b}");
        assert_eq!(dk.decrypt_with_rng(&mut rng, &c).unwrap(), b"secret", "{b}");
        // The padding type decrypts what the typed key encrypted.
        assert_eq!(
            key.decrypt(Oaep::new_with_label::<Sha256, _>("label"), &c)
                .unwrap(),
            b"secret"
        );
        // Another label, or another MGF1 hash, does not decrypt it.
        let unlabelled = oaep::DecryptingKey::<Sha256>::new(key.clone());
        assert_eq!(unlabelled.decrypt(&c), Err(Error::Decryption));
        let mgf384 = oaep::DecryptingKey::<Sha256, Sha384>::new_with_label(key.clone(), "label");
        assert_eq!(mgf384.decrypt(&c), Err(Error::Decryption));
        let c384 = mgf384
            .encrypting_key()
            .encrypt_with_rng(&mut rng, b"mixed")
            .unwrap();
        assert_eq!(mgf384.decrypt(&c384).unwrap(), b"mixed");
        // Batches: one result per ciphertext.
        let c2 = ek.encrypt_with_rng(&mut rng, b"second").unwrap();
        for out in [
            dk.decrypt_batch(&[&c, &c384, &c2]).unwrap(),
            dk.decrypt_batch_with_rng(&mut rng, &[&c, &c384, &c2])
                .unwrap(),
        ] {
            assert_eq!(out[0].as_deref(), Ok(&b"secret"[..]), "{b}");
            assert_eq!(out[1], Err(Error::Decryption), "{b}");
            assert_eq!(out[2].as_deref(), Ok(&b"second"[..]), "{b}");
        }
    }
}

#[test]
fn pkcs1v15_encryption_keys() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for (b, key) in keys() {
        let dk = pkcs1v15::DecryptingKey::new(key.clone());
        let ek = pkcs1v15::EncryptingKey::new(RsaPublicKey::from(&key));
        assert_eq!(ek, dk.encrypting_key());
        let c = ek.encrypt_with_rng(&mut rng, b"legacy").unwrap();
        assert_eq!(dk.decrypt(&c).unwrap(), b"legacy", "{b}");
        assert_eq!(dk.decrypt_with_rng(&mut rng, &c).unwrap(), b"legacy");
        assert_eq!(key.decrypt(Pkcs1v15Encrypt, &c).unwrap(), b"legacy");
        let mut bad = c.clone();
        bad[0] ^= 0xff;
        assert_eq!(dk.decrypt(&bad), Err(Error::Decryption));
    }
}

#[test]
fn keys_from_their_primes() {
    use redc::rsa::{BoxedUint, ExponentFault, KeyFault};
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    for nprimes in [2, 3] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, 1024, nprimes).unwrap();
        // Generation computes d = e⁻¹ mod λ too, so the rebuilt key is the same key.
        let rebuilt = RsaPrivateKey::from_primes(key.primes().to_vec(), key.e().clone()).unwrap();
        assert_eq!(rebuilt.d(), key.d());
        assert_eq!(rebuilt.to_public_key(), key.to_public_key());
        if nprimes == 2 {
            let (p, q) = (key.primes()[0].clone(), key.primes()[1].clone());
            let k2 = RsaPrivateKey::from_p_q(q, p, key.e().clone()).unwrap();
            assert_eq!(k2.d(), key.d());
        }
        // e = 3 shares a factor with some rᵢ − 1 for most keys; when it does not, the key is
        // valid with its own d. Either way the answer is exact.
        let three = BoxedUint::from_u64(3);
        let coprime = key.primes().iter().all(|p| {
            let bytes = p.to_be_bytes();
            let r = bytes
                .iter()
                .fold(0u32, |acc, &b| (acc * 256 + b as u32) % 3);
            r != 1 // 3 ∤ p − 1
        });
        match RsaPrivateKey::from_primes(key.primes().to_vec(), three) {
            Ok(k3) => {
                assert!(coprime);
                assert_eq!(k3.e(), &BoxedUint::from_u64(3));
            }
            Err(e) => {
                assert!(!coprime);
                assert_eq!(e, Error::InvalidKey(KeyFault::ExponentNotInvertible));
            }
        }
    }
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let (p, q) = (key.primes()[0].clone(), key.primes()[1].clone());
    assert_eq!(
        RsaPrivateKey::from_p_q(p.clone(), q.clone(), BoxedUint::from_u64(65536)).unwrap_err(),
        Error::PublicExponent(ExponentFault::Even)
    );
    assert_eq!(
        RsaPrivateKey::from_primes(vec![p.clone()], key.e().clone()).unwrap_err(),
        Error::PrimeCount {
            primes: 1,
            bits: 512,
            max: 2
        }
    );
    assert_eq!(
        RsaPrivateKey::from_p_q(p, BoxedUint::from_u64(7), key.e().clone()).unwrap_err(),
        Error::InvalidKey(KeyFault::PrimeTooSmall { index: 1, bits: 3 })
    );
}

/// A public exponent `e ≡ 1 (mod r − 1)` makes `d mod (r − 1)` equal to 1: every private
/// operation is then the identity modulo `r`, and one signature `s` of `m` gives `r` as
/// `gcd(s − m, n)`. Such a key is consistent (every RFC 8017 relation holds and the self-test
/// passes), so only its own check refuses it, naming the prime, whichever way it arrives.
#[test]
fn keys_whose_exponent_is_one_modulo_a_prime_less_one() {
    use redc::rsa::KeyFault;
    let mut rng = ChaCha20Rng::seed_from_u64(0x7e1f);
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let (p, q) = (key.primes()[0].clone(), key.primes()[1].clone());
    // e = p is ≡ 1 (mod p − 1), odd, below n, and coprime to q − 1 (the key's primes both
    // have their top two bits set, so q < 2p and p cannot divide q − 1).
    for (first, second, index) in [(&p, &q, 0), (&q, &p, 1)] {
        let err = RsaPrivateKey::from_p_q(first.clone(), second.clone(), p.clone()).unwrap_err();
        assert_eq!(err, Error::InvalidKey(KeyFault::TrivialExponent { index }));
        assert!(err.to_string().contains("one signature reveals"), "{err}");
    }
    // The same key given with its d (as a PKCS#1 document would give it) is refused too.
    let d = d_for(&p, &p, &q);
    assert_eq!(
        RsaPrivateKey::from_components(key.n().clone(), p.clone(), d, vec![p, q]).unwrap_err(),
        Error::InvalidKey(KeyFault::TrivialExponent { index: 0 })
    );
}

/// `e⁻¹ mod lcm(p − 1, q − 1)` by num-bigint (an independent computation of the `d` the key
/// would have).
fn d_for(
    e: &redc::rsa::BoxedUint,
    p: &redc::rsa::BoxedUint,
    q: &redc::rsa::BoxedUint,
) -> redc::rsa::BoxedUint {
    use num_bigint::BigInt;
    use num_integer::Integer;
    use redc::rsa::BoxedUint;
    let big = |x: &BoxedUint| BigInt::from_bytes_be(num_bigint::Sign::Plus, &x.to_be_bytes());
    let (e, p, q) = (big(e), big(p), big(q));
    let one = BigInt::from(1);
    let lambda = (&p - &one).lcm(&(&q - &one));
    let d = e.extended_gcd(&lambda).x.mod_floor(&lambda);
    BoxedUint::from_be_bytes(&d.to_bytes_be().1)
}

//! End to end through the key API: generated two- and three-prime keys sign, verify, encrypt
//! and decrypt with every padding and hash, tampering is rejected, and the typed
//! `signature`-crate keys work.
//!
//! These tests need the real key layer (`RsaPrivateKey::new`, `new_multi_prime`,
//! `raw_private`, `raw_public`); on the padding branch alone, where the key layer is a shell,
//! they fail by design.

mod common;

use std::sync::OnceLock;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use redc::rsa::{
    pkcs1v15, pss, Error, HashAlg, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, RsaPrivateKey,
};
use sha2::{Digest, Sha256, Sha384, Sha512};
use signature::{
    DigestSigner, DigestVerifier, Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier,
};

/// One 2048-bit two-prime key and one 2048-bit three-prime key, generated once, each on every
/// backend this CPU runs (`common::on_every_backend`).
fn keys() -> &'static [RsaPrivateKey] {
    static KEYS: OnceLock<Vec<RsaPrivateKey>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(0xe2e);
        [
            RsaPrivateKey::new(&mut rng, 2048).expect("two-prime key generation"),
            RsaPrivateKey::new_multi_prime(&mut rng, 2048, 3).expect("three-prime key generation"),
        ]
        .iter()
        .flat_map(common::on_every_backend)
        .map(|(_, key)| key)
        .collect()
    })
}

#[test]
fn pkcs1v15_sign_verify_every_hash() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for key in keys() {
        let public = key.public_key();
        assert_eq!(key.size(), 256);
        for h in HashAlg::ALL {
            let hashed = h.digest(b"hello, world");
            let sig = key.sign(Pkcs1v15Sign::from_hash(h), &hashed).unwrap();
            assert_eq!(sig.len(), 256);
            // Deterministic, with or without blinding.
            let sig2 = key
                .sign_with_rng(&mut rng, Pkcs1v15Sign::from_hash(h), &hashed)
                .unwrap();
            assert_eq!(sig, sig2);
            public
                .verify(Pkcs1v15Sign::from_hash(h), &hashed, &sig)
                .unwrap();

            // Tampering: signature bit, message, hash choice, length.
            let mut bad = sig.clone();
            bad[100] ^= 4;
            assert_eq!(
                public.verify(Pkcs1v15Sign::from_hash(h), &hashed, &bad),
                Err(Error::Verification)
            );
            let other = h.digest(b"hello, world!");
            assert_eq!(
                public.verify(Pkcs1v15Sign::from_hash(h), &other, &sig),
                Err(Error::Verification)
            );
            assert!(public
                .verify(Pkcs1v15Sign::new_unprefixed(), &hashed, &sig)
                .is_err());
            assert_eq!(
                public.verify(Pkcs1v15Sign::from_hash(h), &hashed, &sig[1..]),
                Err(Error::Verification)
            );
            let mut longer = vec![0u8];
            longer.extend_from_slice(&sig);
            assert_eq!(
                public.verify(Pkcs1v15Sign::from_hash(h), &hashed, &longer),
                Err(Error::Verification)
            );
            // A signature ≥ n is out of range: rejected, no panic.
            assert_eq!(
                public.verify(Pkcs1v15Sign::from_hash(h), &hashed, &[0xff; 256]),
                Err(Error::Verification)
            );
            // The digest must have the hash's length.
            assert!(key.sign(Pkcs1v15Sign::from_hash(h), &hashed[1..]).is_err());
        }
        // The generic constructor gives the same signatures.
        let hashed = Sha256::digest(b"typed");
        assert_eq!(
            key.sign(Pkcs1v15Sign::new::<Sha256>(), &hashed).unwrap(),
            key.sign(Pkcs1v15Sign::from_hash(HashAlg::Sha256), &hashed)
                .unwrap()
        );
    }
}

#[test]
fn pss_sign_verify_every_hash() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for key in keys() {
        let public = key.public_key();
        for h in HashAlg::ALL {
            let hashed = h.digest(b"pss");
            // PSS needs randomness.
            assert!(key.sign(Pss::from_hash(h), &hashed).is_err());
            let sig = key
                .sign_with_rng(&mut rng, Pss::from_hash(h), &hashed)
                .unwrap();
            let sig2 = key
                .sign_with_rng(&mut rng, Pss::from_hash(h), &hashed)
                .unwrap();
            assert_ne!(sig, sig2, "fresh salt each time");
            public.verify(Pss::from_hash(h), &hashed, &sig).unwrap();
            public.verify(Pss::from_hash(h), &hashed, &sig2).unwrap();
            // Salt = hLen was used: the fixed-length verifier agrees; another length does not.
            public
                .verify(Pss::from_hash_with_salt(h, h.output_size()), &hashed, &sig)
                .unwrap();
            assert!(public
                .verify(Pss::from_hash_with_salt(h, 0), &hashed, &sig)
                .is_err());
            let mut bad = sig.clone();
            bad[0] ^= 1;
            assert!(public.verify(Pss::from_hash(h), &hashed, &bad).is_err());
            assert!(public
                .verify(Pss::from_hash(h), &h.digest(b"psS"), &sig)
                .is_err());
            // A PSS signature is not a PKCS#1 v1.5 one.
            assert!(public
                .verify(Pkcs1v15Sign::from_hash(h), &hashed, &sig)
                .is_err());
        }
        // Zero-length salt is deterministic.
        let hashed = Sha384::digest(b"zero salt");
        let a = key
            .sign_with_rng(&mut rng, Pss::new_with_salt::<Sha384>(0), &hashed)
            .unwrap();
        let b = key
            .sign_with_rng(&mut rng, Pss::new_with_salt::<Sha384>(0), &hashed)
            .unwrap();
        assert_eq!(a, b);
        public.verify(Pss::new::<Sha384>(), &hashed, &a).unwrap();
    }
}

/// Salt lengths near `usize::MAX` are errors, not a wrapped length check (a panic on a slice)
/// or an allocation of the salt (an abort), whether signing or verifying.
#[test]
fn pss_salt_lengths_near_usize_max_are_errors() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let key = &keys()[0];
    let hashed = Sha256::digest(b"huge salt");
    let sig = key
        .sign_with_rng(&mut rng, Pss::new_with_salt::<Sha256>(32), &hashed)
        .unwrap();
    for s_len in [
        usize::MAX,
        usize::MAX - 1,
        usize::MAX - 34,
        usize::MAX - 36,
        usize::MAX / 2,
    ] {
        let pss = || Pss::from_hash_with_salt(HashAlg::Sha256, s_len);
        assert_eq!(
            key.public_key().verify(pss(), &hashed, &sig),
            Err(Error::Verification),
            "verify, salt {s_len}"
        );
        assert!(
            matches!(
                key.sign_with_rng(&mut rng, pss(), &hashed),
                Err(Error::UnsupportedParameter(_))
            ),
            "sign, salt {s_len}"
        );
    }
}

#[test]
fn oaep_encrypt_decrypt_every_hash() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for key in keys() {
        let public = key.public_key();
        for h in HashAlg::ALL {
            for label in [None, Some(b"context".to_vec())] {
                let max = 256 - 2 * h.output_size() - 2;
                for len in [0, 1, max] {
                    let msg = vec![0x5au8; len];
                    let c = public
                        .encrypt(&mut rng, Oaep::from_hash(h, label.clone()), &msg)
                        .unwrap();
                    assert_eq!(c.len(), 256);
                    assert_eq!(
                        key.decrypt(Oaep::from_hash(h, label.clone()), &c).unwrap(),
                        msg
                    );
                    assert_eq!(
                        key.decrypt_blinded(&mut rng, Oaep::from_hash(h, label.clone()), &c)
                            .unwrap(),
                        msg
                    );
                    // Tampered ciphertext, wrong label, wrong length: one error.
                    let mut bad = c.clone();
                    bad[200] ^= 0x40;
                    assert_eq!(
                        key.decrypt(Oaep::from_hash(h, label.clone()), &bad),
                        Err(Error::Decryption)
                    );
                    assert_eq!(
                        key.decrypt(Oaep::from_hash(h, Some(b"x".to_vec())), &c),
                        Err(Error::Decryption)
                    );
                    assert_eq!(
                        key.decrypt(Oaep::from_hash(h, label.clone()), &c[1..]),
                        Err(Error::Decryption)
                    );
                }
                assert_eq!(
                    public.encrypt(
                        &mut rng,
                        Oaep::from_hash(h, label.clone()),
                        &vec![0; max + 1]
                    ),
                    Err(Error::MessageTooLong { len: max + 1, max })
                );
            }
        }
        // The generic constructors.
        let c = public
            .encrypt(&mut rng, Oaep::new_with_label::<Sha512, _>("lbl"), b"m")
            .unwrap();
        assert_eq!(
            key.decrypt(Oaep::from_hash(HashAlg::Sha512, Some(b"lbl".to_vec())), &c)
                .unwrap(),
            b"m"
        );
        let c = public
            .encrypt(
                &mut rng,
                Oaep::new_with_mgf_hash::<Sha256, sha1::Sha1>(),
                b"m",
            )
            .unwrap();
        assert_eq!(
            key.decrypt(
                Oaep::from_hash(HashAlg::Sha256, None).with_mgf_hash(HashAlg::Sha1),
                &c
            )
            .unwrap(),
            b"m"
        );
        assert!(key.decrypt(Oaep::new::<Sha256>(), &c).is_err());
    }
}

#[test]
fn pkcs1v15_encrypt_decrypt() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    for key in keys() {
        let public = key.public_key();
        for len in [0usize, 1, 100, 245] {
            let msg = vec![0xa7u8; len];
            let c = public.encrypt(&mut rng, Pkcs1v15Encrypt, &msg).unwrap();
            let c2 = public.encrypt(&mut rng, Pkcs1v15Encrypt, &msg).unwrap();
            assert_ne!(c, c2, "random padding");
            assert_eq!(key.decrypt(Pkcs1v15Encrypt, &c).unwrap(), msg);
            assert_eq!(
                key.decrypt_blinded(&mut rng, Pkcs1v15Encrypt, &c2).unwrap(),
                msg
            );
            let mut bad = c.clone();
            bad[10] ^= 1;
            assert_eq!(key.decrypt(Pkcs1v15Encrypt, &bad), Err(Error::Decryption));
        }
        assert_eq!(
            public.encrypt(&mut rng, Pkcs1v15Encrypt, &[0; 246]),
            Err(Error::MessageTooLong { len: 246, max: 245 })
        );
        assert_eq!(
            key.decrypt(Pkcs1v15Encrypt, &[0xff; 256]),
            Err(Error::Decryption)
        );
        assert_eq!(key.decrypt(Pkcs1v15Encrypt, &[]), Err(Error::Decryption));
    }
}

#[test]
fn typed_pkcs1v15_keys() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for key in keys() {
        let signing = pkcs1v15::SigningKey::<Sha256>::new(key.clone());
        let verifying = signing.verifying_key();
        let sig: pkcs1v15::Signature = signing.sign(b"typed message");
        assert_eq!(sig.to_bytes().len(), 256);
        verifying.verify(b"typed message", &sig).unwrap();
        assert!(verifying.verify(b"typed messagE", &sig).is_err());
        // Randomized (blinded) signing gives the same deterministic signature.
        assert_eq!(signing.sign_with_rng(&mut rng, b"typed message"), sig);
        // Digest API and the untyped API agree.
        let d = Sha256::new_with_prefix(b"typed message");
        assert_eq!(signing.sign_digest(d.clone()), sig);
        verifying.verify_digest(d, &sig).unwrap();
        key.public_key()
            .verify(
                Pkcs1v15Sign::new::<Sha256>(),
                &Sha256::digest(b"typed message"),
                &sig.to_vec(),
            )
            .unwrap();
        // Round trip through bytes.
        let parsed = pkcs1v15::Signature::try_from(sig.to_bytes().as_ref()).unwrap();
        verifying.verify(b"typed message", &parsed).unwrap();
        // A verifier for another hash refuses it.
        let v512 = pkcs1v15::VerifyingKey::<Sha512>::new(key.public_key().clone());
        assert!(v512.verify(b"typed message", &parsed).is_err());
    }
}

#[test]
fn typed_pss_keys() {
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    for key in keys() {
        let signing = pss::SigningKey::<Sha256>::new(key.clone());
        let verifying = signing.verifying_key();
        let sig: pss::Signature = signing.sign_with_rng(&mut rng, b"pss typed");
        verifying.verify(b"pss typed", &sig).unwrap();
        assert!(verifying.verify(b"pss typeD", &sig).is_err());
        // Independent verifier construction, fixed salt length = 32 matches.
        pss::VerifyingKey::<Sha256>::new_with_salt_len(key.public_key().clone(), 32)
            .verify(b"pss typed", &sig)
            .unwrap();
        assert!(
            pss::VerifyingKey::<Sha256>::new_with_salt_len(key.public_key().clone(), 20)
                .verify(b"pss typed", &sig)
                .is_err()
        );
        // Short salt signer, auto-detecting verifier.
        let short = pss::SigningKey::<Sha256>::new_with_salt_len(key.clone(), 5);
        let sig = short.sign_with_rng(&mut rng, b"short salt");
        pss::VerifyingKey::<Sha256>::new(key.public_key().clone())
            .verify(b"short salt", &sig)
            .unwrap();
        short.verifying_key().verify(b"short salt", &sig).unwrap();
    }
}

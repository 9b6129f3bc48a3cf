//! Key construction, validation, encodings (PKCS#1, PKCS#8, SPKI in DER and PEM) and
//! interoperability with OpenSSL (`openssl` 3 on PATH; those tests skip if it is missing).

mod common;

use common::{big_of as big, boxed as uint, openssl_available, padded, temp_path};
use std::process::Command;
use std::sync::OnceLock;

use der::{Decode, Encode};
use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::rsa::pkcs1::LineEnding;
use redc::rsa::{
    DecodePrivateKey, DecodePublicKey, DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodePrivateKey,
    EncodePublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey, EncodingFault, Error, ExponentFault,
    KeyFault, KeyFormat, RsaPrivateKey, RsaPublicKey,
};

/// One 2-prime and one 3-prime 1024-bit key, generated once for the whole file.
fn keys() -> &'static [RsaPrivateKey; 2] {
    static KEYS: OnceLock<[RsaPrivateKey; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(42);
        [
            RsaPrivateKey::new(&mut rng, 1024).unwrap(),
            RsaPrivateKey::new_multi_prime(&mut rng, 1024, 3).unwrap(),
        ]
    })
}

fn components(key: &RsaPrivateKey) -> (BigUint, BigUint, BigUint, Vec<BigUint>) {
    (
        big(key.n()),
        big(key.e()),
        big(key.d()),
        key.primes().iter().map(big).collect(),
    )
}

fn from_big(
    n: &BigUint,
    e: &BigUint,
    d: &BigUint,
    primes: &[BigUint],
) -> Result<RsaPrivateKey, Error> {
    RsaPrivateKey::from_components(uint(n), uint(e), uint(d), primes.iter().map(uint).collect())
}

#[test]
fn from_components_round_trip() {
    for key in keys() {
        let (n, e, d, primes) = components(key);
        let again = from_big(&n, &e, &d, &primes).unwrap();
        assert_eq!(again.public_key(), key.public_key());
        assert_eq!(again.d(), key.d());
        assert_eq!(again.primes(), key.primes());
        assert_eq!(again.dp(), key.dp());
        assert_eq!(again.dq(), key.dq());
        assert_eq!(again.qinv(), key.qinv());
        again.validate().unwrap();
        // CRT values match the definitions.
        let (p, q) = (&primes[0], &primes[1]);
        assert_eq!(big(key.dp()), &d % (p - 1u32));
        assert_eq!(big(key.dq()), &d % (q - 1u32));
        assert_eq!((big(key.qinv()) * q) % p, BigUint::from(1u32));
        let mut prefix = p * q;
        for (i, r) in primes.iter().enumerate().skip(2) {
            assert_eq!(big(key.crt_exponent(i).unwrap()), &d % (r - 1u32));
            let t = big(key.crt_coefficient(i).unwrap());
            assert_eq!((t * &prefix) % r, BigUint::from(1u32));
            prefix *= r;
        }
        assert!(key.crt_coefficient(1).is_none());
        // The public key on its own.
        let public = RsaPublicKey::new(uint(&n), uint(&e)).unwrap();
        assert_eq!(&public, key.public_key());
        assert_eq!(public.size(), 128);
        // Debug prints no secrets.
        let dbg = format!("{key:?}");
        assert!(!dbg.contains(&format!("{:x}", primes[0])));
        assert!(format!("{:?}", key.d()).starts_with("BoxedUint { limbs"));
        // The order of the primes does not matter.
        let mut swapped = primes.clone();
        swapped.swap(0, 1);
        let k2 = from_big(&n, &e, &d, &swapped).unwrap();
        let x = vec![3u8; 100];
        assert_eq!(
            k2.raw_private(None, &x).unwrap(),
            key.raw_private(None, &x).unwrap()
        );
    }
}

#[test]
fn validation_rejects_inconsistencies() {
    let key = &keys()[0];
    let (n, e, d, primes) = components(key);
    let (p, q) = (&primes[0], &primes[1]);
    let other = &keys()[1];
    let one = BigUint::from(1u32);
    let invalid = |f| Error::InvalidKey(f);
    // Wrong d.
    assert_eq!(
        from_big(&n, &e, &(&d + 2u32), &primes).unwrap_err(),
        invalid(KeyFault::ExponentMismatch { index: 0 })
    );
    assert_eq!(
        from_big(&n, &e, &BigUint::from(0u32), &primes).unwrap_err(),
        invalid(KeyFault::PrivateExponentRange)
    );
    assert_eq!(
        from_big(&n, &e, &(&n + 1u32), &primes).unwrap_err(),
        invalid(KeyFault::PrivateExponentRange)
    );
    // n ≠ ∏ p.
    assert_eq!(
        from_big(&big(other.n()), &e, &d, &primes).unwrap_err(),
        invalid(KeyFault::ModulusNotProduct)
    );
    assert_eq!(
        from_big(&n, &e, &d, &[p.clone(), q + 2u32]).unwrap_err(),
        invalid(KeyFault::ModulusNotProduct)
    );
    // Even e, e = 1, e ≥ n.
    assert_eq!(
        from_big(&n, &BigUint::from(65536u32), &d, &primes).unwrap_err(),
        Error::PublicExponent(ExponentFault::Even)
    );
    assert_eq!(
        from_big(&n, &one, &d, &primes).unwrap_err(),
        Error::PublicExponent(ExponentFault::TooSmall)
    );
    assert_eq!(
        from_big(&n, &(&n + 2u32), &d, &primes).unwrap_err(),
        Error::PublicExponent(ExponentFault::NotBelowModulus)
    );
    // A valid exponent that does not match d.
    assert_eq!(
        from_big(&n, &BigUint::from(3u32), &d, &primes).unwrap_err(),
        invalid(KeyFault::ExponentMismatch { index: 0 })
    );
    // p = q (n = p²), and a "prime" of 1.
    let p2 = p * p;
    let lambda = p * (p - 1u32);
    let dd = e.modinv(&lambda).unwrap();
    assert_eq!(
        from_big(&p2, &e, &dd, &[p.clone(), p.clone()]).unwrap_err(),
        invalid(KeyFault::RepeatedPrime { index: 0, other: 1 })
    );
    assert_eq!(
        from_big(&n, &e, &d, &[n.clone(), one.clone()]).unwrap_err(),
        invalid(KeyFault::PrimeTooSmall { index: 1, bits: 1 })
    );
    // Prime counts.
    assert_eq!(
        from_big(&n, &e, &d, std::slice::from_ref(&n)).unwrap_err(),
        Error::PrimeCount {
            primes: 1,
            bits: 1024,
            max: 3
        }
    );
    let (n3, e3, d3, primes3) = components(&keys()[1]);
    let mut four = primes3.clone();
    four.push(BigUint::from(3u32));
    let n4 = &n3 * 3u32;
    assert_eq!(
        from_big(&n4, &e3, &d3, &four).unwrap_err(),
        Error::PrimeCount {
            primes: 4,
            bits: n4.bits() as usize,
            max: 3
        }
    );
    // Even n, absurd sizes.
    assert_eq!(
        from_big(&(&n + 1u32), &e, &d, &primes).unwrap_err(),
        invalid(KeyFault::EvenModulus)
    );
    let size = |bits| Error::KeySize {
        bits,
        min: 512,
        max: 16384,
    };
    let small = (BigUint::from(1u32) << 400u32) + 1u32;
    assert_eq!(from_big(&small, &e, &d, &primes).unwrap_err(), size(401));
    let huge = (BigUint::from(1u32) << 16400u32) + 1u32;
    assert_eq!(from_big(&huge, &e, &d, &primes).unwrap_err(), size(16401));
    assert_eq!(
        RsaPublicKey::new(uint(&huge), uint(&e)).unwrap_err(),
        size(16401)
    );
    // Three primes below 1024 bits are refused before anything else is looked at.
    let n900 = (BigUint::from(1u32) << 899u32) + 1u32;
    assert_eq!(
        from_big(&n900, &e, &d, &[p.clone(), q.clone(), p.clone()]).unwrap_err(),
        Error::PrimeCount {
            primes: 3,
            bits: 900,
            max: 2
        }
    );
}

#[test]
fn der_with_wrong_crt_values_is_rejected() {
    for key in keys() {
        let der = key.to_pkcs1_der().unwrap();
        let good = redc::rsa::pkcs1::RsaPrivateKey::from_der(der.as_bytes()).unwrap();
        let bump = |x: &[u8]| -> Vec<u8> {
            let v = BigUint::from_bytes_be(x) + 2u32;
            v.to_bytes_be()
        };
        let dp = bump(good.exponent1.as_bytes());
        let dq = bump(good.exponent2.as_bytes());
        let qi = bump(good.coefficient.as_bytes());
        let d = bump(good.private_exponent.as_bytes());
        for case in 0..5 {
            let mut bad = good.clone();
            match case {
                0 => bad.exponent1 = der::asn1::UintRef::new(&dp).unwrap(),
                1 => bad.exponent2 = der::asn1::UintRef::new(&dq).unwrap(),
                2 => bad.coefficient = der::asn1::UintRef::new(&qi).unwrap(),
                3 => bad.private_exponent = der::asn1::UintRef::new(&d).unwrap(),
                _ => std::mem::swap(&mut bad.prime1, &mut bad.prime2),
            }
            let bytes = bad.to_der().unwrap();
            assert!(
                RsaPrivateKey::from_pkcs1_der(&bytes).is_err(),
                "case {case}"
            );
            // redc's own decoder names the field (the swapped primes no longer match dP).
            let want = match case {
                0 | 4 => KeyFault::CrtExponent { index: 0 },
                1 => KeyFault::CrtExponent { index: 1 },
                2 => KeyFault::CrtCoefficient { index: 0 },
                _ => KeyFault::ExponentMismatch { index: 0 },
            };
            assert_eq!(
                RsaPrivateKey::from_der(&bytes).unwrap_err(),
                Error::InvalidKey(want),
                "case {case}"
            );
        }
        // The example: a PKCS#1 key whose qInv is not q⁻¹ mod p, as PEM.
        let mut bad = good.clone();
        bad.coefficient = der::asn1::UintRef::new(&qi).unwrap();
        let pem = der::SecretDocument::try_from(bad)
            .unwrap()
            .to_pem("RSA PRIVATE KEY", LineEnding::LF)
            .unwrap();
        let err = RsaPrivateKey::from_pem(&pem).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid key: coefficient (qInv) is not q⁻¹ mod p"
        );
        if let Some(others) = &good.other_prime_infos {
            let e3 = bump(others[0].exponent.as_bytes());
            let t3 = bump(others[0].coefficient.as_bytes());
            for which in 0..2 {
                let mut bad = good.clone();
                let o = &mut bad.other_prime_infos.as_mut().unwrap()[0];
                if which == 0 {
                    o.exponent = der::asn1::UintRef::new(&e3).unwrap();
                } else {
                    o.coefficient = der::asn1::UintRef::new(&t3).unwrap();
                }
                let bytes = bad.to_der().unwrap();
                assert!(
                    RsaPrivateKey::from_pkcs1_der(&bytes).is_err(),
                    "other {which}"
                );
                let want = if which == 0 {
                    KeyFault::CrtExponent { index: 2 }
                } else {
                    KeyFault::CrtCoefficient { index: 2 }
                };
                assert_eq!(
                    RsaPrivateKey::from_der(&bytes).unwrap_err(),
                    Error::InvalidKey(want)
                );
            }
        }
        // The untouched document still loads, both ways.
        assert!(RsaPrivateKey::from_pkcs1_der(&good.to_der().unwrap()).is_ok());
        assert!(RsaPrivateKey::from_der(&good.to_der().unwrap()).is_ok());
    }
}

#[test]
fn encodings_round_trip() {
    for key in keys() {
        let public = key.public_key();
        // PKCS#1 private, DER and PEM.
        let der = key.to_pkcs1_der().unwrap();
        let k = RsaPrivateKey::from_pkcs1_der(der.as_bytes()).unwrap();
        assert_eq!(k.primes(), key.primes());
        assert_eq!(k.d(), key.d());
        let pem = key.to_pkcs1_pem(LineEnding::LF).unwrap();
        assert!(pem.starts_with("-----BEGIN RSA PRIVATE KEY-----"));
        assert_eq!(
            RsaPrivateKey::from_pkcs1_pem(&pem).unwrap().primes(),
            key.primes()
        );
        // Version: two-prime (0) or multi (1).
        let parsed = redc::rsa::pkcs1::RsaPrivateKey::from_der(der.as_bytes()).unwrap();
        assert_eq!(
            parsed.other_prime_infos.as_ref().map(|o| o.len()),
            (key.primes().len() > 2).then_some(key.primes().len() - 2)
        );
        // PKCS#8 private.
        let der8 = key.to_pkcs8_der().unwrap();
        assert_eq!(
            RsaPrivateKey::from_pkcs8_der(der8.as_bytes())
                .unwrap()
                .primes(),
            key.primes()
        );
        let pem8 = key.to_pkcs8_pem(LineEnding::LF).unwrap();
        assert!(pem8.starts_with("-----BEGIN PRIVATE KEY-----"));
        assert_eq!(RsaPrivateKey::from_pkcs8_pem(&pem8).unwrap().d(), key.d());
        // PKCS#1 public.
        let pder = public.to_pkcs1_der().unwrap();
        assert_eq!(
            &RsaPublicKey::from_pkcs1_der(pder.as_bytes()).unwrap(),
            public
        );
        let ppem = public.to_pkcs1_pem(LineEnding::LF).unwrap();
        assert!(ppem.starts_with("-----BEGIN RSA PUBLIC KEY-----"));
        assert_eq!(&RsaPublicKey::from_pkcs1_pem(&ppem).unwrap(), public);
        // SPKI.
        let sder = public.to_public_key_der().unwrap();
        assert_eq!(
            &RsaPublicKey::from_public_key_der(sder.as_bytes()).unwrap(),
            public
        );
        let spem = public.to_public_key_pem(LineEnding::LF).unwrap();
        assert!(spem.starts_with("-----BEGIN PUBLIC KEY-----"));
        assert_eq!(&RsaPublicKey::from_public_key_pem(&spem).unwrap(), public);
        // Wrong containers fail.
        assert!(RsaPrivateKey::from_pkcs1_der(sder.as_bytes()).is_err());
        assert!(RsaPublicKey::from_pkcs1_pem(&pem).is_err());
    }
}

#[test]
fn pkcs8_with_another_algorithm_is_an_error() {
    let key = &keys()[0];
    let der = key.to_pkcs1_der().unwrap();
    // id-RSASSA-PSS and an EC OID instead of rsaEncryption.
    for oid in ["1.2.840.113549.1.1.10", "1.2.840.10045.2.1"] {
        let info = redc::rsa::pkcs8::PrivateKeyInfo::new(
            spki::AlgorithmIdentifierRef {
                oid: der::oid::ObjectIdentifier::new_unwrap(oid),
                parameters: None,
            },
            der.as_bytes(),
        );
        let bytes = info.to_der().unwrap();
        assert!(RsaPrivateKey::from_pkcs8_der(&bytes).is_err());
        // Through the crate's error type it is an Encoding error wrapping pkcs8's.
        let r: Result<RsaPrivateKey, Error> =
            RsaPrivateKey::from_pkcs8_der(&bytes).map_err(Error::from);
        assert!(
            matches!(r, Err(Error::Encoding(EncodingFault::Pkcs8(_)))),
            "{r:?}"
        );
        // redc's decoder names the algorithm found.
        let oid = der::oid::ObjectIdentifier::new_unwrap(oid);
        assert_eq!(
            RsaPrivateKey::from_der(&bytes).unwrap_err(),
            Error::Encoding(EncodingFault::Algorithm {
                format: KeyFormat::Pkcs8Private,
                oid
            })
        );
    }
    // "garbage" is not a SEQUENCE: pkcs8 says which tag it found.
    let r = RsaPrivateKey::from_pkcs8_der(b"garbage").map_err(Error::from);
    assert!(
        matches!(
            r,
            Err(Error::Encoding(EncodingFault::Pkcs8(
                redc::rsa::pkcs8::Error::Asn1(_)
            )))
        ),
        "{r:?}"
    );
    assert_eq!(
        RsaPrivateKey::from_der(b"garbage").unwrap_err(),
        Error::Encoding(EncodingFault::Unrecognized)
    );
}

// ---- OpenSSL interoperability ----

fn openssl_genkey(bits: usize, primes: usize) -> Option<String> {
    let path = temp_path(&format!("{bits}-{primes}.pem"));
    let out = Command::new("openssl")
        .args(["genpkey", "-algorithm", "RSA", "-pkeyopt"])
        .arg(format!("rsa_keygen_bits:{bits}"))
        .arg("-pkeyopt")
        .arg(format!("rsa_keygen_primes:{primes}"))
        .arg("-out")
        .arg(&path)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pem = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    Some(pem)
}

#[test]
fn loads_openssl_multi_prime_keys() {
    if !openssl_available() {
        eprintln!("openssl not found: skipping");
        return;
    }
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for (bits, primes) in [(2048, 2), (2048, 3), (4096, 4)] {
        let pem = openssl_genkey(bits, primes).unwrap();
        let key = RsaPrivateKey::from_pkcs8_pem(&pem).unwrap();
        assert_eq!(key.primes().len(), primes);
        assert_eq!(key.n().bits(), bits);
        let n = big(key.n());
        let d = big(key.d());
        for _ in 0..2 {
            let c = rng.gen_biguint_below(&n);
            let got = key.raw_private(None, &padded(&c, key.size())).unwrap();
            assert_eq!(got.to_vec(), padded(&c.modpow(&d, &n), key.size()));
        }
        // Re-encoding as PKCS#1 and reading it back gives the same key.
        let again = RsaPrivateKey::from_pkcs1_der(key.to_pkcs1_der().unwrap().as_bytes()).unwrap();
        assert_eq!(again.primes(), key.primes());
    }
}

#[test]
fn openssl_accepts_our_keys() {
    if !openssl_available() {
        eprintln!("openssl not found: skipping");
        return;
    }
    for key in keys() {
        let path = temp_path("ours.pem");
        std::fs::write(&path, key.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes()).unwrap();
        let out = Command::new("openssl")
            .args(["pkey", "-check", "-noout", "-in"])
            .arg(&path)
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(
            out.status.success(),
            "openssl pkey -check: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // Our SPKI is what OpenSSL derives from the private key.
        let path = temp_path("ours2.pem");
        std::fs::write(&path, key.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes()).unwrap();
        let out = Command::new("openssl")
            .args(["pkey", "-pubout", "-in"])
            .arg(&path)
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(out.status.success());
        let theirs = String::from_utf8(out.stdout).unwrap();
        let ours = key.public_key().to_public_key_pem(LineEnding::LF).unwrap();
        assert_eq!(theirs, ours);
    }
}

/// RFC 7468 §5.2: explanatory text before the encapsulation boundary is allowed (OpenSSL
/// writes such files with `asn1parse` dumps above the key, and pyca's vectors have them).
#[test]
fn pem_with_explanatory_text_before_the_boundary() {
    use redc::rsa::pkcs8::LineEnding;
    use redc::rsa::{EncodePrivateKey, EncodePublicKey};
    let key = redc::rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 1024).unwrap();
    let pem = key.to_pkcs8_pem(LineEnding::LF).unwrap();
    let text = format!("    0 631: SEQUENCE {{\n    4   1:   INTEGER 0\n{}", &*pem);
    let back = redc::rsa::RsaPrivateKey::from_pem(&text).unwrap();
    assert_eq!(back.to_public_key(), key.to_public_key());
    let spki = key
        .to_public_key()
        .to_public_key_pem(LineEnding::LF)
        .unwrap();
    let text = format!("Subject: test\n{spki}");
    assert_eq!(
        redc::rsa::RsaPublicKey::from_pem(&text).unwrap(),
        key.to_public_key()
    );
}

/// Text after the end boundary is not part of the key: `openssl pkey -text` writes a dump
/// below it, editors add blank lines, and Windows tools end lines with CRLF.
#[test]
fn pem_with_text_or_blank_lines_after_the_boundary() {
    use redc::rsa::pkcs8::LineEnding;
    use redc::rsa::{EncodePrivateKey, EncodePublicKey, EncodeRsaPrivateKey};
    let key = redc::rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 1024).unwrap();
    let public = key.to_public_key();
    let pkcs8 = key.to_pkcs8_pem(LineEnding::LF).unwrap();
    let pkcs1 = key.to_pkcs1_pem(LineEnding::CRLF).unwrap();
    let spki = public.to_public_key_pem(LineEnding::LF).unwrap();
    for text in [
        format!("{}\n", &*pkcs8),
        format!("{}\n\n\n", &*pkcs8),
        format!(
            "{}Private-Key: (1024 bit, 2 primes)\nmodulus:\n    00:c3\n",
            &*pkcs8
        ),
        format!("\n{}\r\n", &*pkcs1),
        format!("Bag Attributes\n    localKeyID: 01\n{}junk", &*pkcs1),
        pkcs8.trim_end().to_string(),
    ] {
        let back =
            redc::rsa::RsaPrivateKey::from_pem(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(back.to_public_key(), public);
    }
    let text = format!("{spki}\nPublic-Key: (1024 bit)\n");
    assert_eq!(redc::rsa::RsaPublicKey::from_pem(&text).unwrap(), public);
    // A second block after the first is ignored, like any other trailing text.
    let text = format!("{}{spki}", &*pkcs8);
    assert_eq!(
        redc::rsa::RsaPrivateKey::from_pem(&text)
            .unwrap()
            .to_public_key(),
        public
    );
    // A block without its end is still malformed, and says so.
    let cut = &pkcs8[..pkcs8.find("-----END").unwrap()];
    assert!(matches!(
        redc::rsa::RsaPrivateKey::from_pem(cut).unwrap_err(),
        redc::rsa::Error::Encoding(redc::rsa::EncodingFault::Der { .. })
    ));
}

/// An encrypted PKCS#8 key in DER is reported as encrypted, not as a malformed public key
/// (its outer shape, `SEQUENCE { SEQUENCE, … }`, is the SubjectPublicKeyInfo's).
#[test]
fn encrypted_pkcs8_der_is_reported_as_encrypted() {
    use redc::rsa::{EncodingFault, Error, KeyFormat};
    let encrypted = Err(Error::Encoding(EncodingFault::Encrypted));
    // SEQUENCE { SEQUENCE { OID 1.3.14.3.2.26 }, OCTET STRING aa bb }
    let der = [
        0x30, 0x0d, 0x30, 0x07, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x04, 0x02, 0xaa, 0xbb,
    ];
    assert_eq!(KeyFormat::detect_der(&der), encrypted);
    assert_eq!(
        redc::rsa::RsaPrivateKey::from_der(&der).map(|_| ()),
        encrypted.map(|_| ())
    );
    if !openssl_available() {
        eprintln!("openssl not found: skipping the OpenSSL-made key");
        return;
    }
    let plain = temp_path("plain.pem");
    let enc = temp_path("enc.der");
    let key = redc::rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 1024).unwrap();
    std::fs::write(&plain, key.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes()).unwrap();
    let out = Command::new("openssl")
        .args([
            "pkcs8",
            "-topk8",
            "-v2",
            "aes-128-cbc",
            "-passout",
            "pass:x",
        ])
        .args(["-outform", "DER", "-in"])
        .arg(&plain)
        .arg("-out")
        .arg(&enc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let der = std::fs::read(&enc).unwrap();
    let _ = std::fs::remove_file(&plain);
    let _ = std::fs::remove_file(&enc);
    assert_eq!(KeyFormat::detect_der(&der), encrypted);
}

/// OpenSSL's legacy encrypted PEM is reported as encrypted, not as malformed.
#[test]
fn legacy_encrypted_pem_is_reported_as_encrypted() {
    let pem = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: DES-EDE3-CBC,B4B3C8C536E57CBE\n\nAAAA\n-----END RSA PRIVATE KEY-----\n";
    assert_eq!(
        redc::rsa::RsaPrivateKey::from_pem(pem).unwrap_err(),
        redc::rsa::Error::Encoding(redc::rsa::EncodingFault::Encrypted)
    );
}

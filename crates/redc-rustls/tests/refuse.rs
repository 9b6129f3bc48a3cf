//! Keys and certificates that must be refused at load, each with an error naming the fault:
//! through [`redc_rustls::SigningKey`], through [`redc_rustls::KEY_PROVIDER`] (what rustls
//! calls), and through the example server (one line on standard error, status 1).

mod common;

use std::path::{Path, PathBuf};

use common::{identity, openssl, run_server_expecting_exit, KeyFormat};
use redc::rsa::pkcs1::der::{Decode, Encode};
use redc::rsa::pkcs1::{self, UintRef};
use redc::rsa::{pkcs8, EncodeRsaPrivateKey, RsaPrivateKey};
use redc_rustls::Error;
use rustls::crypto::KeyProvider as _;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, PrivateSec1KeyDer};
use rustls::SignatureScheme;

/// Which component of a PKCS#1 `RSAPrivateKey` to change.
#[derive(Clone, Copy, Debug)]
enum Part {
    Modulus,
    PrivateExponent,
    Prime1,
    Prime2,
    Exponent1,
    Exponent2,
    Coefficient,
    /// The third prime's (first `OtherPrimeInfo`'s) coefficient.
    OtherCoefficient,
    /// The third prime itself.
    OtherPrime,
}

/// `key`'s PKCS#1 DER with one byte of `part` changed (its middle byte, xor 0x10; the last byte
/// xor 0x02 for an exponent or coefficient, which keeps the value odd or even as it was).
fn tampered(key: &RsaPrivateKey, part: Part) -> Vec<u8> {
    let der = key.to_pkcs1_der().unwrap();
    let k = pkcs1::RsaPrivateKey::from_der(der.as_bytes()).unwrap();
    let flip_middle = |u: UintRef<'_>| {
        let mut v = u.as_bytes().to_vec();
        let m = v.len() / 2;
        v[m] ^= 0x10;
        v
    };
    let flip_low = |u: UintRef<'_>| {
        let mut v = u.as_bytes().to_vec();
        let last = v.len() - 1;
        v[last] ^= 0x02;
        v
    };
    let mut parts: Vec<Vec<u8>> = [
        k.modulus,
        k.public_exponent,
        k.private_exponent,
        k.prime1,
        k.prime2,
        k.exponent1,
        k.exponent2,
        k.coefficient,
    ]
    .iter()
    .map(|u| u.as_bytes().to_vec())
    .collect();
    let mut others: Vec<[Vec<u8>; 3]> = k
        .other_prime_infos
        .iter()
        .flatten()
        .map(|o| {
            [
                o.prime.as_bytes().to_vec(),
                o.exponent.as_bytes().to_vec(),
                o.coefficient.as_bytes().to_vec(),
            ]
        })
        .collect();
    match part {
        Part::Modulus => parts[0] = flip_middle(k.modulus),
        Part::PrivateExponent => parts[2] = flip_middle(k.private_exponent),
        Part::Prime1 => parts[3] = flip_middle(k.prime1),
        Part::Prime2 => parts[4] = flip_middle(k.prime2),
        Part::Exponent1 => parts[5] = flip_low(k.exponent1),
        Part::Exponent2 => parts[6] = flip_low(k.exponent2),
        Part::Coefficient => parts[7] = flip_low(k.coefficient),
        Part::OtherPrime => others[0][0] = flip_middle(UintRef::new(&others[0][0]).unwrap()),
        Part::OtherCoefficient => others[0][2] = flip_low(UintRef::new(&others[0][2]).unwrap()),
    }
    let other_prime_infos = k.other_prime_infos.as_ref().map(|_| {
        others
            .iter()
            .map(|o| pkcs1::OtherPrimeInfo {
                prime: u(&o[0]),
                exponent: u(&o[1]),
                coefficient: u(&o[2]),
            })
            .collect::<Vec<_>>()
    });
    pkcs1::RsaPrivateKey {
        modulus: u(&parts[0]),
        public_exponent: u(&parts[1]),
        private_exponent: u(&parts[2]),
        prime1: u(&parts[3]),
        prime2: u(&parts[4]),
        exponent1: u(&parts[5]),
        exponent2: u(&parts[6]),
        coefficient: u(&parts[7]),
        other_prime_infos,
    }
    .to_der()
    .unwrap()
}

/// A PKCS#1 integer over `v`.
fn u(v: &[u8]) -> UintRef<'_> {
    UintRef::new(v).unwrap()
}

/// The redc-rustls error inside `e`, which must be one.
fn inner(e: &rustls::Error) -> &Error {
    Error::from_rustls(e).unwrap_or_else(|| panic!("not a redc-rustls error: {e:?}"))
}

/// Loads `der` (PKCS#1) through every entry point, expecting the same refusal from each, and
/// returns it.
fn refused_pkcs1(der: &[u8]) -> String {
    let direct = redc_rustls::SigningKey::from_der(der).unwrap_err();
    let by_kind =
        redc_rustls::SigningKey::from_key_der(&PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(der)))
            .unwrap_err();
    let provider = redc_rustls::KEY_PROVIDER
        .load_private_key(PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(der.to_vec())))
        .unwrap_err();
    let msg = inner(&direct).to_string();
    assert_eq!(inner(&by_kind).to_string(), msg);
    assert_eq!(inner(&provider).to_string(), msg);
    assert_eq!(provider.to_string(), format!("other error: {msg}"));
    msg
}

#[test]
fn tampered_two_prime_keys_are_refused_naming_the_fault() {
    let key = RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    // The untampered key loads.
    redc_rustls::SigningKey::from_der(key.to_pkcs1_der().unwrap().as_bytes()).unwrap();
    for part in [
        Part::Modulus,
        Part::PrivateExponent,
        Part::Prime1,
        Part::Prime2,
    ] {
        let der = tampered(&key, part);
        let msg = refused_pkcs1(&der);
        let e = redc_rustls::SigningKey::from_der(&der).unwrap_err();
        assert!(matches!(inner(&e), Error::InvalidKey(_)), "{part:?}: {msg}");
        assert!(msg.starts_with("RSA key refused: "), "{part:?}: {msg}");
    }
    for part in [Part::Exponent1, Part::Exponent2, Part::Coefficient] {
        let der = tampered(&key, part);
        let msg = refused_pkcs1(&der);
        let e = redc_rustls::SigningKey::from_der(&der).unwrap_err();
        assert!(matches!(inner(&e), Error::CrtMismatch), "{part:?}: {msg}");
        assert!(msg.contains("CRT values"), "{part:?}: {msg}");
    }
}

#[test]
fn tampered_three_prime_keys_are_refused_naming_the_fault() {
    let key = RsaPrivateKey::new_multi_prime(&mut rand_core::OsRng, 2048, 3).unwrap();
    let good = key.to_pkcs1_der().unwrap();
    assert_eq!(
        redc_rustls::SigningKey::from_der(good.as_bytes())
            .unwrap()
            .primes(),
        3
    );
    let prime = tampered(&key, Part::OtherPrime);
    let e = redc_rustls::SigningKey::from_der(&prime).unwrap_err();
    assert!(matches!(inner(&e), Error::InvalidKey(_)), "{e}");
    let coeff = tampered(&key, Part::OtherCoefficient);
    let e = redc_rustls::SigningKey::from_der(&coeff).unwrap_err();
    assert!(matches!(inner(&e), Error::CrtMismatch), "{e}");
}

#[test]
fn tampered_pkcs8_is_refused_like_pkcs1() {
    let key = RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    let pkcs1 = tampered(&key, Part::Coefficient);
    let info = pkcs8::PrivateKeyInfo::new(pkcs1::ALGORITHM_ID, &pkcs1);
    let der = info.to_der().unwrap();
    let e = redc_rustls::SigningKey::from_der(&der).unwrap_err();
    assert!(matches!(inner(&e), Error::CrtMismatch), "{e}");
    let e = redc_rustls::KEY_PROVIDER
        .load_private_key(PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(der)))
        .unwrap_err();
    assert!(matches!(inner(&e), Error::CrtMismatch), "{e}");
}

#[test]
fn malformed_and_non_rsa_keys_are_refused() {
    let key = RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    let der = key.to_pkcs1_der().unwrap();
    // Truncated DER.
    let cut = &der.as_bytes()[..der.as_bytes().len() - 7];
    let e = redc_rustls::SigningKey::from_der(cut).unwrap_err();
    assert!(matches!(inner(&e), Error::KeyEncoding(_)), "{e}");
    let e = redc_rustls::KEY_PROVIDER
        .load_private_key(PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(cut.to_vec())))
        .unwrap_err();
    assert!(inner(&e).to_string().contains("malformed PKCS#1"), "{e}");
    // PEM without a key, and an encrypted key.
    let e = redc_rustls::SigningKey::from_pem(
        b"-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n",
    )
    .unwrap_err();
    assert!(inner(&e).to_string().contains("no PEM section"), "{e}");
    let e = redc_rustls::SigningKey::from_pem(
        b"-----BEGIN ENCRYPTED PRIVATE KEY-----\nAA==\n-----END ENCRYPTED PRIVATE KEY-----\n",
    )
    .unwrap_err();
    assert!(inner(&e).to_string().contains("encrypted"), "{e}");
    // An EC key, as SEC1 and as PKCS#8 (only its algorithm matters here).
    let e = redc_rustls::KEY_PROVIDER
        .load_private_key(PrivateKeyDer::Sec1(PrivateSec1KeyDer::from(vec![0x30, 0])))
        .unwrap_err();
    assert!(matches!(inner(&e), Error::NotRsa(_)), "{e}");
    let ec = pkcs8::spki::AlgorithmIdentifierRef {
        oid: pkcs8::ObjectIdentifier::new_unwrap("1.2.840.10045.2.1"),
        parameters: None,
    };
    let ec_der = pkcs8::PrivateKeyInfo::new(ec, &[0x30, 0]).to_der().unwrap();
    let e = redc_rustls::SigningKey::from_der(&ec_der).unwrap_err();
    assert_eq!(
        inner(&e).to_string(),
        "key refused: an EC key, not an RSA key"
    );
    // Below 2048 bits.
    let small = RsaPrivateKey::new(&mut rand_core::OsRng, 1024).unwrap();
    let e = redc_rustls::SigningKey::new(small).unwrap_err();
    assert!(matches!(inner(&e), Error::KeyTooSmall(1024)), "{e}");
}

#[test]
fn fallback_provider_takes_the_keys_redc_does_not() {
    let base = rustls::crypto::ring::default_provider();
    let keys = redc_rustls::KeyProvider::with_fallback(base.key_provider);
    // An EC key goes to the fallback (ring), which refuses these bytes with its own error;
    // the error gives both reasons.
    let e = keys
        .load_private_key(PrivateKeyDer::Sec1(PrivateSec1KeyDer::from(vec![0x30, 0])))
        .unwrap_err();
    match inner(&e) {
        Error::FallbackRefused { refused, fallback } => {
            assert!(matches!(**refused, Error::NotRsa(_)), "{e}");
            assert!(Error::from_rustls(fallback).is_none(), "{e}");
            let msg = inner(&e).to_string();
            assert!(msg.contains("not an RSA key"), "{msg}");
            assert!(msg.contains(&fallback.to_string()), "{msg}");
        }
        other => panic!("unexpected {other:?}"),
    }
    // An RSA key stays with redc, refusals included.
    let key = RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    let der = tampered(&key, Part::Prime1);
    let e = keys
        .load_private_key(PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(der)))
        .unwrap_err();
    assert!(matches!(inner(&e), Error::InvalidKey(_)), "{e}");
    let good = key.to_pkcs1_der().unwrap().as_bytes().to_vec();
    let loaded = keys
        .load_private_key(PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(good)))
        .unwrap();
    assert!(format!("{loaded:?}").starts_with("SigningKey { bits: 2048, primes: 2"));
}

#[test]
fn certificate_of_another_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = identity(dir.path(), "a", 2048, 2, KeyFormat::Pkcs1Pem);
    let b = identity(dir.path(), "b", 2048, 2, KeyFormat::Pkcs1Pem);
    let e = redc_rustls::certified_key_from_files(&a.cert_path, &b.key_path).unwrap_err();
    assert!(matches!(inner(&e), Error::KeyMismatch), "{e}");
    let ok = redc_rustls::certified_key_from_files(&a.cert_path, &a.key_path).unwrap();
    assert_eq!(ok.cert.len(), 1);
    let key = redc_rustls::SigningKey::new(b.key.clone()).unwrap();
    let e = redc_rustls::certified_key(vec![], key).unwrap_err();
    assert!(matches!(inner(&e), Error::Certificate(_)), "{e}");
    let e = redc_rustls::load_certificates(dir.path().join("missing.pem")).unwrap_err();
    assert!(matches!(inner(&e), Error::Io { .. }), "{e}");
    let e = redc_rustls::load_certificates(&a.key_path).unwrap_err();
    assert!(inner(&e).to_string().contains("no PEM section"), "{e}");
}

/// The example server must exit with status 1 and exactly one line on standard error
/// containing `expect`.
fn server_refuses(args: &[&str], expect: &str) {
    let out = run_server_expecting_exit(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    assert!(stderr.contains(expect), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing was to be served");
}

#[test]
fn example_server_exits_with_one_line_on_a_bad_key_or_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let id = identity(dir.path(), "srv", 2048, 2, KeyFormat::Pkcs1Pem);
    let cert = id.cert_path.to_str().unwrap();
    let pem = |der: &[u8]| {
        redc::rsa::pkcs1::der::pem::encode_string(
            "RSA PRIVATE KEY",
            redc::rsa::pkcs1::der::pem::LineEnding::LF,
            der,
        )
        .unwrap()
    };
    let prime = dir.path().join("prime.key");
    std::fs::write(&prime, pem(&tampered(&id.key, Part::Prime1))).unwrap();
    server_refuses(
        &["--cert", cert, "--key", prime.to_str().unwrap()],
        "RSA key refused: invalid key",
    );
    let qinv = dir.path().join("qinv.key");
    std::fs::write(&qinv, pem(&tampered(&id.key, Part::Coefficient))).unwrap();
    server_refuses(
        &["--cert", cert, "--key", qinv.to_str().unwrap()],
        "CRT values",
    );
    let other = identity(dir.path(), "other", 2048, 2, KeyFormat::Pkcs8Pem);
    server_refuses(
        &["--cert", cert, "--key", other.key_path.to_str().unwrap()],
        "certificate refused: its public key is not the private key's",
    );
    server_refuses(
        &[
            "--cert",
            id.key_path.to_str().unwrap(),
            "--key",
            id.key_path.to_str().unwrap(),
        ],
        "certificate refused",
    );
    let missing = dir.path().join("missing.key");
    server_refuses(
        &["--cert", cert, "--key", missing.to_str().unwrap()],
        "cannot read",
    );
    server_refuses(&["--cert", cert], "--cert and --key go together");
}

/// Runs `openssl` with `args`, which must succeed.
fn run_openssl(args: &[&str]) {
    let out = std::process::Command::new(openssl())
        .args(args)
        .output()
        .expect("the system `openssl` (the CI installs it)");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Loads `path` with `from_file` and with the loader of its bytes (`from_der` for `.der`,
/// `from_pem` otherwise), expecting the same refusal from both, and returns it.
fn refused_file(path: &Path) -> String {
    let by_file = redc_rustls::SigningKey::from_file(path).unwrap_err();
    let bytes = std::fs::read(path).unwrap();
    let by_bytes = if path.extension().is_some_and(|x| x == "der") {
        redc_rustls::SigningKey::from_der(&bytes).unwrap_err()
    } else {
        redc_rustls::SigningKey::from_pem(&bytes).unwrap_err()
    };
    let msg = inner(&by_file).to_string();
    assert_eq!(inner(&by_bytes).to_string(), msg, "{}", path.display());
    msg
}

#[test]
fn encrypted_keys_are_refused_as_encrypted_in_every_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let id = identity(dir.path(), "plain", 2048, 2, KeyFormat::Pkcs8Pem);
    let plain = path_str(&id.key_path);
    let file = |name: &str| -> PathBuf { dir.path().join(name) };
    let (enc8_pem, enc8_der, legacy) = (file("enc8.pem"), file("enc8.der"), file("legacy.pem"));
    #[rustfmt::skip]
    run_openssl(&["pkcs8", "-topk8", "-v2", "aes-128-cbc", "-in", plain, "-passout", "pass:x",
        "-out", path_str(&enc8_pem)]);
    #[rustfmt::skip]
    run_openssl(&["pkcs8", "-topk8", "-v2", "aes-128-cbc", "-in", plain, "-passout", "pass:x",
        "-outform", "DER", "-out", path_str(&enc8_der)]);
    #[rustfmt::skip]
    run_openssl(&["rsa", "-in", plain, "-aes128", "-traditional", "-passout", "pass:x",
        "-out", path_str(&legacy)]);
    assert!(std::fs::read_to_string(&legacy)
        .unwrap()
        .contains("Proc-Type: 4,ENCRYPTED"));
    // One refusal, the one encrypted PKCS#8 PEM always had, for the three.
    let expected = refused_file(&enc8_pem);
    assert!(expected.contains("encrypted"), "{expected}");
    for path in [&enc8_der, &legacy] {
        assert_eq!(refused_file(path), expected, "{}", path.display());
        let e = redc_rustls::SigningKey::from_file(path).unwrap_err();
        assert!(matches!(inner(&e), Error::KeyEncoding(_)), "{e}");
    }
    // The encrypted DER handed over as PKCS#8 (rustls never does, a caller might).
    let der = std::fs::read(&enc8_der).unwrap();
    let e = redc_rustls::KEY_PROVIDER
        .load_private_key(PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(der)))
        .unwrap_err();
    assert_eq!(inner(&e).to_string(), expected);
    // The plain key still loads.
    let plain_key = redc_rustls::SigningKey::from_file(&id.key_path).unwrap();
    // The way the refusal names: each encrypted file read with its password, then wrapped.
    assert!(expected.contains("from_pem_with_password"), "{expected}");
    for path in [&enc8_pem, &enc8_der, &legacy] {
        let bytes = std::fs::read(path).unwrap();
        let key = match std::str::from_utf8(&bytes) {
            Ok(pem) => RsaPrivateKey::from_pem_with_password(pem, b"x"),
            Err(_) => RsaPrivateKey::from_der_with_password(&bytes, b"x"),
        }
        .unwrap();
        let key = redc_rustls::SigningKey::new(key).unwrap();
        assert_eq!(
            key.public_key_der(),
            plain_key.public_key_der(),
            "{}",
            path.display()
        );
    }
}

#[test]
fn ec_keys_are_not_rsa_in_every_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let (der, pem) = (dir.path().join("ec.der"), dir.path().join("ec.pem"));
    #[rustfmt::skip]
    run_openssl(&["ecparam", "-genkey", "-name", "prime256v1", "-outform", "DER", "-noout",
        "-out", path_str(&der)]);
    #[rustfmt::skip]
    run_openssl(&["ec", "-inform", "DER", "-in", path_str(&der), "-out", path_str(&pem)]);
    for path in [&der, &pem] {
        let msg = refused_file(path);
        assert_eq!(msg, "key refused: an EC key (SEC1), not an RSA key");
        let e = redc_rustls::SigningKey::from_file(path).unwrap_err();
        assert!(matches!(inner(&e), Error::NotRsa(_)), "{e}");
    }
}

#[test]
fn pss_restricted_keys_are_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let pss = dir.path().join("pss.pem");
    #[rustfmt::skip]
    run_openssl(&["genpkey", "-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048",
        "-out", path_str(&pss)]);
    let msg = refused_file(&pss);
    assert!(msg.contains("RSASSA-PSS"), "{msg}");
    assert!(!msg.contains("not an RSA key"), "{msg}");
    let e = redc_rustls::SigningKey::from_file(&pss).unwrap_err();
    assert!(matches!(inner(&e), Error::PssRestricted), "{e}");
    let der = PrivateKeyDer::from_pem_file(&pss).unwrap();
    let e = redc_rustls::KEY_PROVIDER
        .load_private_key(der.clone_key())
        .unwrap_err();
    assert!(matches!(inner(&e), Error::PssRestricted), "{e}");
    // A fallback that refuses it too does not hide why this crate did.
    for base in [
        rustls::crypto::aws_lc_rs::default_provider(),
        rustls::crypto::ring::default_provider(),
    ] {
        let keys = redc_rustls::KeyProvider::with_fallback(base.key_provider);
        let e = keys.load_private_key(der.clone_key()).unwrap_err();
        match inner(&e) {
            Error::FallbackRefused { refused, fallback } => {
                assert!(matches!(**refused, Error::PssRestricted), "{e}");
                let msg = inner(&e).to_string();
                assert!(msg.starts_with(&refused.to_string()), "{msg}");
                assert!(msg.contains(&fallback.to_string()), "{msg}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

#[test]
fn non_rsa_schemes_are_refused_with_this_crates_error() {
    use rustls::sign::SigningKey as _;
    let key =
        redc_rustls::SigningKey::new(RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap())
            .unwrap();
    for scheme in [
        SignatureScheme::ED25519,
        SignatureScheme::ECDSA_NISTP256_SHA256,
        SignatureScheme::RSA_PKCS1_SHA1,
        SignatureScheme::Unknown(0x1234),
    ] {
        let e = key.sign(scheme, b"transcript").unwrap_err();
        assert!(matches!(e, rustls::Error::Other(_)), "{e:?}");
        match inner(&e) {
            Error::UnsupportedScheme(s) => assert_eq!(*s, scheme),
            other => panic!("unexpected {other:?}"),
        }
        assert!(
            inner(&e).to_string().contains(&format!("{scheme:?}")),
            "{e}"
        );
        assert!(key.choose_scheme(&[scheme]).is_none());
    }
}

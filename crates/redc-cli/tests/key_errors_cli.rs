//! Key-import errors on the command line name what is wrong with what was given: the file,
//! the format detected (PEM label or DER structure), and the field, relation or limit at
//! fault. Each case is checked for its one line on stderr and exit status 1.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use redc::rsa::pkcs1::der::asn1::UintRef;
use redc::rsa::pkcs1::der::{Decode, Encode, SecretDocument};
use redc::rsa::pkcs1::LineEnding;
use redc::rsa::{EncodePublicKey, EncodeRsaPrivateKey, OsRng, RsaPrivateKey};
use tempfile::TempDir;

mod common;

fn key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::new(&mut OsRng, 1024).unwrap())
}

/// Runs `redc <args…> --key <path>` and returns its one-line failure.
fn failure(args: &[&str], path: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .arg("--key")
        .arg(path)
        .output()
        .unwrap();
    common::one_line_failure(&out)
}

fn write(dir: &TempDir, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    fs::write(&p, data).unwrap();
    p
}

/// The PKCS#1 DER of `key()` with one field changed by `edit`, which is also handed the
/// coefficient with one bit flipped (still below p, overwhelmingly, but not q⁻¹ mod p).
fn edited_pkcs1(
    edit: impl for<'a> FnOnce(&mut redc::rsa::pkcs1::RsaPrivateKey<'a>, &'a [u8]),
) -> Vec<u8> {
    let der = key().to_pkcs1_der().unwrap();
    let coefficient = redc::rsa::pkcs1::RsaPrivateKey::from_der(der.as_bytes())
        .unwrap()
        .coefficient
        .as_bytes()
        .to_vec();
    let mut bumped = coefficient;
    let last = bumped.len() - 1;
    bumped[last] ^= 0x02;
    let mut k = redc::rsa::pkcs1::RsaPrivateKey::from_der(der.as_bytes()).unwrap();
    edit(&mut k, &bumped);
    k.to_der().unwrap()
}

/// DER `SEQUENCE { INTEGER n, INTEGER e }` (PKCS#1 RSAPublicKey) for big-endian `n`.
fn pkcs1_public(n: &[u8]) -> Vec<u8> {
    let k = redc::rsa::pkcs1::RsaPublicKey {
        modulus: UintRef::new(n).unwrap(),
        public_exponent: UintRef::new(&[1, 0, 1]).unwrap(),
    };
    k.to_der().unwrap()
}

#[test]
fn a_wrong_qinv_is_named_in_every_private_format() {
    let dir = TempDir::new().unwrap();
    let der = edited_pkcs1(|k, bumped| k.coefficient = UintRef::new(bumped).unwrap());
    let pem = SecretDocument::try_from(der.as_slice())
        .unwrap()
        .to_pem("RSA PRIVATE KEY", LineEnding::LF)
        .unwrap();
    // The same broken key wrapped in PKCS#8.
    let info = redc::rsa::pkcs8::PrivateKeyInfo::new(redc::rsa::pkcs1::ALGORITHM_ID, &der);
    let p8 = SecretDocument::try_from(info).unwrap();
    let p8_pem = p8.to_pem("PRIVATE KEY", LineEnding::LF).unwrap();
    let fault = "invalid key: coefficient (qInv) is not q⁻¹ mod p";
    for (name, data, format) in [
        (
            "qinv.pem",
            pem.as_bytes(),
            "PKCS#1 RSAPrivateKey (PEM \"RSA PRIVATE KEY\")",
        ),
        ("qinv.der", &der[..], "PKCS#1 RSAPrivateKey (DER)"),
        (
            "qinv8.pem",
            p8_pem.as_bytes(),
            "PKCS#8 PrivateKeyInfo (PEM \"PRIVATE KEY\")",
        ),
        ("qinv8.der", p8.as_bytes(), "PKCS#8 PrivateKeyInfo (DER)"),
    ] {
        let path = write(&dir, name, data);
        for cmd in [&["pubkey"][..], &["sign"][..]] {
            let err = failure(cmd, &path);
            assert_eq!(
                err.trim_end(),
                format!("redc: {}: {format}: {fault}", path.display()),
                "{cmd:?} {name}"
            );
        }
    }
}

#[test]
fn inconsistent_components_are_named() {
    let dir = TempDir::new().unwrap();
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "dp.der",
            edited_pkcs1(|k, _| {
                let dq = k.exponent2;
                k.exponent1 = dq;
            }),
            "exponent1 (dP) is not d mod (p − 1)",
        ),
        (
            "d.der",
            edited_pkcs1(|k, _| {
                let dp = k.exponent1;
                k.private_exponent = dp;
            }),
            // dP ≡ d (mod p − 1) holds for dP itself; q is where it fails.
            "d·e ≢ 1 mod (q − 1): d is not the private exponent of e",
        ),
        (
            "swapped.der",
            edited_pkcs1(|k, _| std::mem::swap(&mut k.prime2, &mut k.modulus)),
            // n = q: 512 bits is allowed, but d is not below it.
            "invalid key: the private exponent d is zero or not below n",
        ),
    ];
    for (name, der, want) in cases {
        let path = write(&dir, name, &der);
        let err = failure(&["pubkey"], &path);
        assert!(
            err.contains("PKCS#1 RSAPrivateKey (DER): ") && err.contains(want),
            "{name}: {err}"
        );
    }
}

#[test]
fn public_key_limits_and_formats_are_named() {
    let dir = TempDir::new().unwrap();
    // A 400-bit modulus, an even one, and a 20000-bit one, as PKCS#1 RSAPublicKey DER.
    let mut n400 = vec![0xc5u8; 50];
    n400[49] = 0x01;
    let mut even = vec![0xc5u8; 128];
    even[127] = 0x02;
    let mut n20000 = vec![0xc5u8; 2500];
    n20000[2499] = 0x01;
    let spki = key().to_public_key().to_public_key_der().unwrap();
    let spki_pem = key()
        .to_public_key()
        .to_public_key_pem(LineEnding::LF)
        .unwrap();
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "n400.der",
            pkcs1_public(&n400),
            "PKCS#1 RSAPublicKey (DER): modulus of 400 bits is below the 512-bit minimum".into(),
        ),
        (
            "even.der",
            pkcs1_public(&even),
            "PKCS#1 RSAPublicKey (DER): invalid key: the modulus n is even".into(),
        ),
        (
            "huge.der",
            pkcs1_public(&n20000),
            "PKCS#1 RSAPublicKey (DER): modulus of 20000 bits is above the 16384-bit maximum"
                .into(),
        ),
        (
            "trunc.der",
            spki.as_bytes()[..spki.as_bytes().len() - 5].to_vec(),
            "SubjectPublicKeyInfo (DER): malformed SubjectPublicKeyInfo: ".into(),
        ),
        (
            "half.pem",
            spki_pem.as_bytes()[..spki_pem.len() / 2].to_vec(),
            "SubjectPublicKeyInfo (PEM \"PUBLIC KEY\"): malformed SubjectPublicKeyInfo: ".into(),
        ),
        (
            "cert.pem",
            spki_pem.replace("PUBLIC KEY", "CERTIFICATE").into_bytes(),
            "unsupported PEM label \"CERTIFICATE\" (expected RSA PRIVATE KEY, PRIVATE KEY, RSA \
             PUBLIC KEY or PUBLIC KEY)"
                .into(),
        ),
        (
            "enc.pem",
            b"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n"
                .to_vec(),
            "the private key is encrypted (PEM \"ENCRYPTED PRIVATE KEY\"): give its password \
             with --passin"
                .into(),
        ),
        (
            "garbage",
            b"\x00\x01not a key at all\xff".to_vec(),
            "not a key: neither PEM nor the DER of a PKCS#1, PKCS#8 or SubjectPublicKeyInfo RSA key"
                .into(),
        ),
    ];
    for (name, data, want) in cases {
        let path = write(&dir, name, &data);
        let err = failure(&["pubkey"], &path);
        let prefix = format!("redc: {}: {want}", path.display());
        assert!(err.starts_with(&prefix), "{name}: {err}");
    }
    // A public key where a private one is needed: the format found is named.
    let path = write(&dir, "pub.der", spki.as_bytes());
    let err = failure(&["sign"], &path);
    assert_eq!(
        err.trim_end(),
        "redc: sign needs a private key; this is a public key (SubjectPublicKeyInfo)"
    );
}

#[test]
fn another_algorithm_in_pkcs8_is_named() {
    let dir = TempDir::new().unwrap();
    let der = key().to_pkcs1_der().unwrap();
    // id-ecPublicKey where rsaEncryption belongs.
    let alg = redc::rsa::pkcs8::AlgorithmIdentifierRef {
        oid: redc::rsa::pkcs8::ObjectIdentifier::new_unwrap("1.2.840.10045.2.1"),
        parameters: None,
    };
    let info = redc::rsa::pkcs8::PrivateKeyInfo::new(alg, der.as_bytes());
    let path = write(&dir, "ec.der", &info.to_der().unwrap());
    let err = failure(&["pubkey"], &path);
    assert_eq!(
        err.trim_end(),
        format!(
            "redc: {}: PKCS#8 PrivateKeyInfo (DER): PKCS#8 PrivateKeyInfo holds a key of \
             algorithm 1.2.840.10045.2.1, not rsaEncryption (1.2.840.113549.1.1.1)",
            path.display()
        )
    );
}

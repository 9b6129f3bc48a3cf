//! Malformed keys, signatures, ciphertexts and arguments on the command line: every one gives
//! a clear one-line message on stderr and exit status 1 or 2 (a signature that does not verify:
//! `Verification failure` on stdout and status 1, as openssl), never a panic or a hang (each
//! run is killed after 60 s).

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

mod common;
use common::{redc, redc_ok as ok};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit 1 or 2, exactly one line on stderr, no panic, nothing on stdout.
fn fails(what: &str, args: &[&str], stdin: &[u8]) {
    let out = redc(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(1) | Some(2)),
        "{what}: status {:?}, stderr {err:?}",
        out.status
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: {err:?}");
    assert!(err.starts_with("redc: "), "{what}: {err:?}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{what}: {err}"
    );
    assert!(out.stdout.is_empty(), "{what}: wrote to stdout");
}

fn write(dir: &TempDir, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    fs::write(&p, data).unwrap();
    p
}

fn der_len(n: usize) -> Vec<u8> {
    if n < 0x80 {
        vec![n as u8]
    } else {
        let b = n.to_be_bytes();
        let skip = b.iter().position(|&x| x != 0).unwrap();
        let mut v = vec![0x80 | (b.len() - skip) as u8];
        v.extend_from_slice(&b[skip..]);
        v
    }
}

fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut v = vec![tag];
    v.extend(der_len(body.len()));
    v.extend_from_slice(body);
    v
}

#[test]
fn malformed_keys() {
    let dir = TempDir::new().unwrap();
    let key = dir.path().join("key.pem");
    ok(&["genkey", "--bits", "1024", "--out", s(&key)], b"");
    let pem = fs::read_to_string(&key).unwrap();
    let der = ok(&["pubkey", "--key", s(&key), "--der"], b"");

    let mut cases: Vec<(&str, PathBuf)> = vec![
        ("empty", write(&dir, "empty", b"")),
        (
            "garbage",
            write(&dir, "garbage", b"\x00\x01not a key at all\xff"),
        ),
        (
            "half PEM",
            write(&dir, "half.pem", &pem.as_bytes()[..pem.len() / 2]),
        ),
        (
            "wrong label",
            write(
                &dir,
                "label.pem",
                pem.replace("PRIVATE KEY", "CERTIFICATE").as_bytes(),
            ),
        ),
        (
            "truncated DER",
            write(&dir, "trunc.der", &der[..der.len() - 5]),
        ),
        (
            "trailing DER",
            write(&dir, "trail.der", &[der.clone(), vec![0, 0]].concat()),
        ),
        ("missing file", dir.path().join("nope")),
    ];
    // A 100000-bit modulus and an even one, as PKCS#1 RSAPublicKey DER.
    let mut huge = vec![0u8, 0x80];
    huge.extend(vec![0u8; 12499]);
    huge.push(1);
    let big = tlv(0x30, &[tlv(0x02, &huge), tlv(0x02, &[1, 0, 1])].concat());
    cases.push(("100000-bit modulus", write(&dir, "huge.der", &big)));
    let mut even = vec![0u8, 0xc0];
    even.extend(vec![0x11u8; 126]);
    even.push(2);
    let ev = tlv(0x30, &[tlv(0x02, &even), tlv(0x02, &[1, 0, 1])].concat());
    cases.push(("even modulus", write(&dir, "even.der", &ev)));
    // Non-minimal e (leading 0x00).
    let mut n = vec![0u8, 0xc0];
    n.extend(vec![0x11u8; 126]);
    n.push(3);
    let nm = tlv(0x30, &[tlv(0x02, &n), tlv(0x02, &[0, 1, 0, 1])].concat());
    cases.push(("non-minimal e", write(&dir, "nonmin.der", &nm)));

    let sigf = write(&dir, "sig", &[0u8; 128]);
    for (what, path) in &cases {
        let k = s(path);
        fails(&format!("sign, {what}"), &["sign", "--key", k], b"msg");
        fails(
            &format!("decrypt, {what}"),
            &["decrypt", "--key", k],
            &[0u8; 128],
        );
        fails(&format!("pubkey, {what}"), &["pubkey", "--key", k], b"");
        fails(
            &format!("verify, {what}"),
            &["verify", "--key", k, "--sig", s(&sigf)],
            b"msg",
        );
        fails(
            &format!("encrypt, {what}"),
            &["encrypt", "--key", k],
            b"msg",
        );
    }
    // A public key where a private one is needed.
    let pubf = write(&dir, "pub.der", &der);
    fails("sign with a public key", &["sign", "--key", s(&pubf)], b"m");
    fails(
        "decrypt with a public key",
        &["decrypt", "--key", s(&pubf)],
        &[1u8; 128],
    );
}

#[test]
fn malformed_signatures_ciphertexts_and_arguments() {
    let dir = TempDir::new().unwrap();
    let key = dir.path().join("key.pem");
    ok(&["genkey", "--bits", "1024", "--out", s(&key)], b"");
    let k = s(&key);
    let sig = ok(&["sign", "--key", k], b"hello");
    assert_eq!(sig.len(), 128);
    let bad_sigs = [
        ("short", sig[1..].to_vec()),
        ("long", [sig.clone(), vec![0]].concat()),
        ("empty", vec![]),
        ("all ones (≥ n)", vec![0xff; 128]),
        ("flipped", {
            let mut v = sig.clone();
            v[50] ^= 1;
            v
        }),
    ];
    for (what, bytes) in bad_sigs {
        // A bad signature is a verification failure, reported like openssl's on stdout.
        let f = write(&dir, "badsig", &bytes);
        let out = redc(&["verify", "--key", k, "--sig", s(&f)], b"hello");
        assert_eq!(out.status.code(), Some(1), "{what}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "Verification failure"
        );
        assert!(out.stderr.is_empty(), "{what}");
    }
    let ct = ok(&["encrypt", "--key", k], b"secret");
    for (what, bytes) in [
        ("short ciphertext", ct[..127].to_vec()),
        ("long ciphertext", [ct.clone(), vec![1]].concat()),
        ("empty ciphertext", vec![]),
        ("ciphertext ≥ n", vec![0xff; 128]),
        (
            "random ciphertext",
            (0..128u32).map(|i| (i * 37 % 251) as u8).collect(),
        ),
    ] {
        fails(what, &["decrypt", "--key", k], &bytes);
        fails(what, &["decrypt", "--key", k, "--padding", "pkcs1"], &bytes);
    }
    fails(
        "message too long (OAEP)",
        &["encrypt", "--key", k],
        &[7u8; 100],
    );
    fails(
        "message too long (PKCS#1)",
        &["encrypt", "--key", k, "--padding", "pkcs1"],
        &[7u8; 118],
    );
    // Unknown names and absurd parameters (usage errors).
    fails("unknown hash", &["sign", "--key", k, "--hash", "md5"], b"m");
    fails(
        "unknown padding",
        &["sign", "--key", k, "--padding", "raw"],
        b"m",
    );
    fails(
        "unknown enc padding",
        &["encrypt", "--key", k, "--padding", "none"],
        b"m",
    );
    fails("unknown command", &["frobnicate"], b"");
    fails("no command", &[], b"");
    for bits in ["100000", "512", "0", "-5", "abc", "1e3"] {
        fails(&format!("--bits {bits}"), &["genkey", "--bits", bits], b"");
    }
    fails(
        "--primes 9",
        &["genkey", "--bits", "1024", "--primes", "9"],
        b"",
    );
    fails(
        "--primes 1",
        &["genkey", "--bits", "1024", "--primes", "1"],
        b"",
    );
    for e in ["2", "1", "0", "x"] {
        fails(
            &format!("--exponent {e}"),
            &["genkey", "--bits", "1024", "--exponent", e],
            b"",
        );
    }
    fails(
        "label with pkcs1",
        &["encrypt", "--key", k, "--padding", "pkcs1", "--label", "00"],
        b"m",
    );
    fails(
        "bad hex label",
        &["encrypt", "--key", k, "--label", "zz"],
        b"m",
    );
}

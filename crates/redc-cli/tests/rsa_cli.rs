//! The RSA commands end to end, and interoperability with the `openssl` CLI both ways.
//!
//! Every test that needs `openssl` fails loudly if it is missing (`.ci/run` installs it).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

mod common;
use common::redc;

fn openssl(args: &[&str]) -> Output {
    Command::new("openssl")
        .args(args)
        .output()
        .expect("openssl must be installed (.ci/run installs it)")
}

fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

fn p(dir: &TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// One-line error on stderr, nothing that looks like a panic, the expected exit status.
fn assert_error(out: &Output, code: i32) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

fn openssl_key(dir: &TempDir, bits: u32, primes: u32) -> PathBuf {
    let key = p(dir, &format!("ossl-{bits}-{primes}.pem"));
    ok(openssl(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        &format!("rsa_keygen_bits:{bits}"),
        "-pkeyopt",
        &format!("rsa_keygen_primes:{primes}"),
        "-out",
        s(&key),
    ]));
    key
}

fn pkcs1_sign_matches_openssl(dir: &TempDir, key: &Path, hashes: &[&str]) {
    let msg = p(dir, "msg.txt");
    fs::write(&msg, b"the papers' arithmetic, made real\n").unwrap();
    for hash in hashes {
        let ours = p(dir, &format!("ours-{hash}.sig"));
        let theirs = p(dir, &format!("theirs-{hash}.sig"));
        ok(redc(
            &[
                "sign",
                "--key",
                s(key),
                "--hash",
                hash,
                "--in",
                s(&msg),
                "--out",
                s(&ours),
            ],
            b"",
        ));
        let form = if fs::read(key).unwrap().starts_with(b"-----") {
            "PEM"
        } else {
            "DER"
        };
        ok(openssl(&[
            "dgst",
            &format!("-{hash}"),
            "-keyform",
            form,
            "-sign",
            s(key),
            "-out",
            s(&theirs),
            s(&msg),
        ]));
        assert_eq!(
            fs::read(&ours).unwrap(),
            fs::read(&theirs).unwrap(),
            "PKCS#1 v1.5 {hash} differs from OpenSSL"
        );
        let v = ok(redc(
            &[
                "verify",
                "--key",
                s(key),
                "--sig",
                s(&theirs),
                "--hash",
                hash,
                "--in",
                s(&msg),
            ],
            b"",
        ));
        assert_eq!(String::from_utf8_lossy(&v.stdout).trim(), "Verified OK");
    }
}

#[test]
fn openssl_keys_of_2_3_4_primes_sign_byte_identically() {
    let dir = TempDir::new().unwrap();
    let k2 = openssl_key(&dir, 2048, 2);
    pkcs1_sign_matches_openssl(&dir, &k2, &["sha1", "sha224", "sha256", "sha384", "sha512"]);
    let k3 = openssl_key(&dir, 2048, 3);
    pkcs1_sign_matches_openssl(&dir, &k3, &["sha256"]);
    let k4 = openssl_key(&dir, 4096, 4);
    pkcs1_sign_matches_openssl(&dir, &k4, &["sha512"]);
}

#[test]
fn redc_keys_pass_openssl_check_in_every_format() {
    let dir = TempDir::new().unwrap();
    for (bits, primes) in [("2048", "2"), ("2048", "3")] {
        for (fmt, der) in [
            ("pkcs8", false),
            ("pkcs1", false),
            ("pkcs8", true),
            ("pkcs1", true),
        ] {
            let key = p(&dir, &format!("k-{bits}-{primes}-{fmt}-{der}"));
            let mut args = vec![
                "genkey",
                "--bits",
                bits,
                "--primes",
                primes,
                "--format",
                fmt,
                "--out",
                s(&key),
            ];
            if der {
                args.push("--der");
            }
            ok(redc(&args, b""));
            let form = if der { "DER" } else { "PEM" };
            let check = ok(openssl(&[
                "pkey",
                "-check",
                "-noout",
                "-inform",
                form,
                "-in",
                s(&key),
            ]));
            assert!(String::from_utf8_lossy(&check.stdout).contains("Key is valid"));
            let text = ok(openssl(&[
                "rsa",
                "-text",
                "-noout",
                "-inform",
                form,
                "-in",
                s(&key),
            ]));
            let text = String::from_utf8_lossy(&text.stdout);
            assert!(
                text.contains(&format!("Private-Key: ({bits} bit, {primes} primes)")),
                "{text}"
            );
            // The key loads back and signs like OpenSSL does with it.
            pkcs1_sign_matches_openssl(&dir, &key, &["sha256"]);
        }
    }
}

#[test]
fn genkey_default_is_pkcs8_pem_with_exponent_65537() {
    let out = ok(redc(&["genkey", "--bits", "1024"], b"")).stdout.clone();
    let pem = String::from_utf8(out).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"), "{pem}");
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    fs::write(&key, &pem).unwrap();
    let text = ok(openssl(&["rsa", "-text", "-noout", "-in", s(&key)]))
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&text).contains("publicExponent: 65537 (0x10001)"));
    let out = ok(redc(
        &[
            "genkey",
            "--bits",
            "1024",
            "--exponent",
            "3",
            "--out",
            s(&key),
        ],
        b"",
    ))
    .stdout
    .clone();
    assert!(out.is_empty());
    let text = ok(openssl(&["rsa", "-text", "-noout", "-in", s(&key)]))
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&text).contains("publicExponent: 3 (0x3)"));
}

#[test]
fn pubkey_matches_openssl_in_pem_and_der() {
    let dir = TempDir::new().unwrap();
    let key = openssl_key(&dir, 2048, 3);
    let ours = ok(redc(&["pubkey", "--key", s(&key)], b"")).stdout.clone();
    let theirs = ok(openssl(&["pkey", "-in", s(&key), "-pubout"]))
        .stdout
        .clone();
    assert_eq!(ours, theirs);
    let ours = ok(redc(&["pubkey", "--key", s(&key), "--der"], b""))
        .stdout
        .clone();
    let theirs = ok(openssl(&[
        "pkey",
        "-in",
        s(&key),
        "-pubout",
        "-outform",
        "DER",
    ]))
    .stdout
    .clone();
    assert_eq!(ours, theirs);
    // PKCS#1 public keys ("RSA PUBLIC KEY") load too.
    let rsapub = p(&dir, "rsapub.pem");
    ok(openssl(&[
        "rsa",
        "-in",
        s(&key),
        "-RSAPublicKey_out",
        "-out",
        s(&rsapub),
    ]));
    let again = ok(redc(&["pubkey", "--key", s(&rsapub)], b""))
        .stdout
        .clone();
    assert_eq!(
        again,
        ok(openssl(&["pkey", "-in", s(&key), "-pubout"])).stdout
    );
}

#[test]
fn pss_both_directions() {
    let dir = TempDir::new().unwrap();
    let key = openssl_key(&dir, 2048, 2);
    let public = p(&dir, "pub.pem");
    ok(redc(
        &["pubkey", "--key", s(&key), "--out", s(&public)],
        b"",
    ));
    let msg = p(&dir, "m");
    fs::write(&msg, b"probabilistic signature scheme").unwrap();
    for hash in ["sha256", "sha384", "sha1"] {
        let ours = p(&dir, "ours.sig");
        ok(redc(
            &[
                "sign",
                "--key",
                s(&key),
                "--padding",
                "pss",
                "--hash",
                hash,
                "--in",
                s(&msg),
                "--out",
                s(&ours),
            ],
            b"",
        ));
        let v = ok(openssl(&[
            "dgst",
            &format!("-{hash}"),
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sigopt",
            "rsa_pss_saltlen:digest",
            "-verify",
            s(&public),
            "-signature",
            s(&ours),
            s(&msg),
        ]))
        .stdout
        .clone();
        assert!(String::from_utf8_lossy(&v).contains("Verified OK"));
        // OpenSSL's default salt length when signing is the maximum: redc accepts any valid one.
        let theirs = p(&dir, "theirs.sig");
        ok(openssl(&[
            "dgst",
            &format!("-{hash}"),
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sign",
            s(&key),
            "-out",
            s(&theirs),
            s(&msg),
        ]));
        let v = ok(redc(
            &[
                "verify",
                "--key",
                s(&public),
                "--sig",
                s(&theirs),
                "--padding",
                "pss",
                "--hash",
                hash,
                "--in",
                s(&msg),
            ],
            b"",
        ))
        .stdout
        .clone();
        assert_eq!(String::from_utf8_lossy(&v).trim(), "Verified OK");
        // A PSS signature is not a PKCS#1 v1.5 one.
        let v = redc(
            &[
                "verify",
                "--key",
                s(&public),
                "--sig",
                s(&theirs),
                "--hash",
                hash,
                "--in",
                s(&msg),
            ],
            b"",
        );
        assert_eq!(v.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&v.stdout).trim(),
            "Verification failure"
        );
    }
}

fn oaep_opts(hash: &str, label: Option<&str>) -> Vec<String> {
    let mut v = vec![
        "-pkeyopt".to_string(),
        "rsa_padding_mode:oaep".into(),
        "-pkeyopt".into(),
        format!("rsa_oaep_md:{hash}"),
        "-pkeyopt".into(),
        format!("rsa_mgf1_md:{hash}"),
    ];
    if let Some(l) = label {
        v.extend(["-pkeyopt".into(), format!("rsa_oaep_label:{l}")]);
    }
    v
}

#[test]
fn oaep_and_pkcs1_encryption_both_directions() {
    let dir = TempDir::new().unwrap();
    let key = openssl_key(&dir, 2048, 3);
    let public = p(&dir, "pub.pem");
    ok(redc(
        &["pubkey", "--key", s(&key), "--out", s(&public)],
        b"",
    ));
    let msg = p(&dir, "m");
    fs::write(&msg, b"attack at dawn").unwrap();
    let ct = p(&dir, "ct");
    let pt = p(&dir, "pt");
    for hash in ["sha1", "sha256", "sha512"] {
        for label in [None, Some("0a0b0c")] {
            // redc encrypts, OpenSSL decrypts.
            let mut enc = vec![
                "encrypt",
                "--key",
                s(&public),
                "--hash",
                hash,
                "--in",
                s(&msg),
                "--out",
                s(&ct),
            ];
            if let Some(l) = label {
                enc.extend(["--label", l]);
            }
            ok(redc(&enc, b""));
            let mut dec: Vec<String> = ["pkeyutl", "-decrypt", "-inkey", s(&key), "-in", s(&ct)]
                .iter()
                .map(|x| x.to_string())
                .collect();
            dec.extend(oaep_opts(hash, label));
            let out = ok(openssl(&dec.iter().map(String::as_str).collect::<Vec<_>>()))
                .stdout
                .clone();
            assert_eq!(out, b"attack at dawn");
            // OpenSSL encrypts, redc decrypts.
            let mut enc: Vec<String> = [
                "pkeyutl",
                "-encrypt",
                "-pubin",
                "-inkey",
                s(&public),
                "-in",
                s(&msg),
                "-out",
                s(&ct),
            ]
            .iter()
            .map(|x| x.to_string())
            .collect();
            enc.extend(oaep_opts(hash, label));
            ok(openssl(&enc.iter().map(String::as_str).collect::<Vec<_>>()));
            let mut dec = vec![
                "decrypt",
                "--key",
                s(&key),
                "--hash",
                hash,
                "--in",
                s(&ct),
                "--out",
                s(&pt),
            ];
            if let Some(l) = label {
                dec.extend(["--label", l]);
            }
            ok(redc(&dec, b""));
            assert_eq!(fs::read(&pt).unwrap(), b"attack at dawn");
        }
    }
    // PKCS#1 v1.5 encryption, both ways.
    ok(redc(
        &[
            "encrypt",
            "--key",
            s(&public),
            "--padding",
            "pkcs1",
            "--in",
            s(&msg),
            "--out",
            s(&ct),
        ],
        b"",
    ));
    let out = ok(openssl(&[
        "pkeyutl",
        "-decrypt",
        "-inkey",
        s(&key),
        "-in",
        s(&ct),
        "-pkeyopt",
        "rsa_padding_mode:pkcs1",
    ]))
    .stdout
    .clone();
    assert_eq!(out, b"attack at dawn");
    ok(openssl(&[
        "pkeyutl",
        "-encrypt",
        "-pubin",
        "-inkey",
        s(&public),
        "-in",
        s(&msg),
        "-out",
        s(&ct),
        "-pkeyopt",
        "rsa_padding_mode:pkcs1",
    ]));
    let out = ok(redc(
        &[
            "decrypt",
            "--key",
            s(&key),
            "--padding",
            "pkcs1",
            "--in",
            s(&ct),
        ],
        b"",
    ))
    .stdout
    .clone();
    assert_eq!(out, b"attack at dawn");
}

#[test]
fn stdin_stdout_round_trip_and_failures() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    ok(redc(
        &[
            "genkey",
            "--bits",
            "1024",
            "--primes",
            "3",
            "--out",
            s(&key),
        ],
        b"",
    ));
    let sig = ok(redc(&["sign", "--key", s(&key)], b"hello"))
        .stdout
        .clone();
    assert_eq!(sig.len(), 128);
    let sigf = p(&dir, "sig");
    fs::write(&sigf, &sig).unwrap();
    let v = ok(redc(
        &["verify", "--key", s(&key), "--sig", s(&sigf)],
        b"hello",
    ))
    .stdout
    .clone();
    assert_eq!(String::from_utf8_lossy(&v).trim(), "Verified OK");
    let v = redc(&["verify", "--key", s(&key), "--sig", s(&sigf)], b"hellO");
    assert_eq!(v.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&v.stdout).trim(),
        "Verification failure"
    );
    // Truncated and over-long signatures are failures, not crashes.
    fs::write(&sigf, &sig[1..]).unwrap();
    let v = redc(&["verify", "--key", s(&key), "--sig", s(&sigf)], b"hello");
    assert_eq!(v.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&v.stdout).trim(),
        "Verification failure"
    );
    let mut long = sig.clone();
    long.push(0);
    fs::write(&sigf, &long).unwrap();
    let v = redc(&["verify", "--key", s(&key), "--sig", s(&sigf)], b"hello");
    assert_eq!(v.status.code(), Some(1));

    let ct = ok(redc(&["encrypt", "--key", s(&key)], b"secret"))
        .stdout
        .clone();
    let ctf = p(&dir, "ct");
    fs::write(&ctf, &ct).unwrap();
    let pt = ok(redc(&["decrypt", "--key", s(&key), "--in", s(&ctf)], b""))
        .stdout
        .clone();
    assert_eq!(pt, b"secret");
    // A wrong label, a flipped bit, or the wrong length: one indistinguishable error.
    let e1 = redc(
        &[
            "decrypt",
            "--key",
            s(&key),
            "--in",
            s(&ctf),
            "--label",
            "00",
        ],
        b"",
    );
    assert_error(&e1, 1);
    let mut bad = ct.clone();
    bad[10] ^= 1;
    fs::write(&ctf, &bad).unwrap();
    let e2 = redc(&["decrypt", "--key", s(&key), "--in", s(&ctf)], b"");
    assert_error(&e2, 1);
    assert_eq!(e1.stderr, e2.stderr);
    let e3 = redc(&["decrypt", "--key", s(&key)], &ct[..100]);
    assert_error(&e3, 1);
    // Too long a message for OAEP-SHA256 with a 1024-bit key (128 − 2·32 − 2 = 62 bytes).
    assert!(redc(&["encrypt", "--key", s(&key)], &[7u8; 62])
        .status
        .success());
    assert_error(&redc(&["encrypt", "--key", s(&key)], &[7u8; 63]), 1);
}

#[test]
fn cli_errors_are_one_line_with_the_right_status() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    ok(redc(&["genkey", "--bits", "1024", "--out", s(&key)], b""));
    let public = p(&dir, "pub.pem");
    ok(redc(
        &["pubkey", "--key", s(&key), "--out", s(&public)],
        b"",
    ));
    let garbage = p(&dir, "garbage.pem");
    fs::write(
        &garbage,
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    let cert = p(&dir, "cert.pem");
    fs::write(
        &cert,
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let missing = p(&dir, "missing.pem");
    let sig = p(&dir, "sig");
    fs::write(&sig, [0u8; 128]).unwrap();

    // Usage errors: exit 2.
    for args in [
        vec!["genkey"],
        vec!["genkey", "--bits", "512"],
        vec!["genkey", "--bits", "99999"],
        vec!["genkey", "--bits", "1024", "--primes", "4"],
        vec!["genkey", "--bits", "2048", "--primes", "1"],
        vec!["genkey", "--bits", "1024", "--exponent", "65536"],
        vec!["genkey", "--bits", "1024", "--exponent", "1"],
        vec!["genkey", "--bits", "1024", "--exponent", "x"],
        vec!["genkey", "--bits", "1024", "--format", "pem"],
        vec!["sign", "--key", s(&key), "--hash", "md5"],
        vec!["sign", "--key", s(&key), "--padding", "oaep"],
        vec!["verify", "--key", s(&key)],
        vec!["encrypt", "--key", s(&key), "--label", "xyz"],
        vec![
            "encrypt",
            "--key",
            s(&key),
            "--padding",
            "pkcs1",
            "--label",
            "00",
        ],
        vec!["decrypt", "--key", s(&key), "--padding", "pss"],
        vec!["frobnicate"],
    ] {
        assert_error(&redc(&args, b"m"), 2);
    }
    // Other errors: exit 1.
    for args in [
        vec!["sign", "--key", s(&missing)],
        vec!["sign", "--key", s(&garbage)],
        vec!["sign", "--key", s(&cert)],
        vec!["sign", "--key", s(&public)],
        vec!["decrypt", "--key", s(&public)],
        vec!["pubkey", "--key", s(&garbage)],
        vec!["verify", "--key", s(&missing), "--sig", s(&sig)],
        vec!["verify", "--key", s(&key), "--sig", s(&missing)],
        vec!["sign", "--key", s(&key), "--in", s(&missing)],
    ] {
        assert_error(&redc(&args, b"m"), 1);
    }
}

//! Password-encrypted private keys on the command line: `genkey --passout` writes encrypted
//! PKCS#8 that `openssl` reads, every command that loads a key takes `--passin` in openssl's
//! three forms (and OpenSSL's own encrypted keys), and each fault is one line naming it: no
//! password, a wrong one, a source that cannot be read, `--passout` with PKCS#1.

mod common;
use common::{openssl_available, redc, redc_ok as ok};

use std::fs;
use std::path::Path;
use std::process::Command;

use tempfile::TempDir;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `openssl args` (which must succeed), its standard output.
fn openssl(args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn fails(args: &[&str], code: i32, want: &str) {
    let out = redc(args, b"");
    assert_eq!(out.status.code(), Some(code), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(want), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
}

#[test]
fn encrypted_keys_work_in_every_command_with_their_password() {
    let dir = TempDir::new().unwrap();
    let key = dir.path().join("key.pem");
    let der = dir.path().join("key.der");
    let pwfile = dir.path().join("pw.txt");
    fs::write(&pwfile, b"hunter2\r\nsecond line ignored\n").unwrap();
    ok(
        &[
            "genkey",
            "--bits",
            "1024",
            "--passout",
            "pass:hunter2",
            "--out",
            s(&key),
        ],
        b"",
    );
    let pem = fs::read_to_string(&key).unwrap();
    assert!(
        pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"),
        "{pem}"
    );
    ok(
        &[
            "genkey",
            "--bits",
            "1024",
            "--passout",
            &format!("file:{}", s(&pwfile)),
            "--der",
            "--out",
            s(&der),
        ],
        b"",
    );

    let msg = dir.path().join("msg");
    fs::write(&msg, b"attack at dawn").unwrap();
    for (k, source) in [
        (&key, "pass:hunter2".to_string()),
        (&key, format!("file:{}", s(&pwfile))),
        (&der, "pass:hunter2".to_string()),
    ] {
        let sig = ok(
            &["sign", "--key", s(k), "--passin", &source, "--in", s(&msg)],
            b"",
        );
        let sig_path = dir.path().join("sig");
        fs::write(&sig_path, &sig).unwrap();
        let verified = ok(
            &[
                "verify",
                "--key",
                s(k),
                "--passin",
                &source,
                "--sig",
                s(&sig_path),
                "--in",
                s(&msg),
            ],
            b"",
        );
        assert_eq!(verified, b"Verified OK\n");
        let ct = ok(
            &[
                "encrypt",
                "--key",
                s(k),
                "--passin",
                &source,
                "--in",
                s(&msg),
            ],
            b"",
        );
        let pt = ok(&["decrypt", "--key", s(k), "--passin", &source], &ct);
        assert_eq!(pt, b"attack at dawn");
        let public = ok(&["pubkey", "--key", s(k), "--passin", &source], b"");
        assert!(public.starts_with(b"-----BEGIN PUBLIC KEY-----"));
    }
    // env:VAR, through a child environment.
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args([
            "pubkey",
            "--key",
            s(&key),
            "--passin",
            "env:REDC_TEST_PASSWORD",
        ])
        .env("REDC_TEST_PASSWORD", "hunter2")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A password for a key that is not encrypted is ignored, as openssl does.
    let plain = dir.path().join("plain.pem");
    ok(&["genkey", "--bits", "1024", "--out", s(&plain)], b"");
    ok(
        &["pubkey", "--key", s(&plain), "--passin", "pass:unused"],
        b"",
    );

    // The faults, each named on one line.
    fails(&["sign", "--key", s(&key), "--in", s(&msg)], 1, "the private key is encrypted (PEM \"ENCRYPTED PRIVATE KEY\"): give its password with --passin");
    fails(
        &["pubkey", "--key", s(&der)],
        1,
        "the private key is encrypted (DER)",
    );
    fails(
        &["pubkey", "--key", s(&key), "--passin", "pass:hunter3"],
        1,
        "decryption failed: wrong password",
    );
    fails(
        &["pubkey", "--key", s(&key), "--passin", "hunter2"],
        2,
        "--passin: give the password as pass:TEXT, env:VAR or file:PATH",
    );
    fails(
        &[
            "pubkey",
            "--key",
            s(&key),
            "--passin",
            "env:REDC_TEST_UNSET_VARIABLE",
        ],
        2,
        "REDC_TEST_UNSET_VARIABLE is not set",
    );
    fails(
        &[
            "pubkey",
            "--key",
            s(&key),
            "--passin",
            "file:/nonexistent/pw",
        ],
        1,
        "--passin: cannot read /nonexistent/pw",
    );
    fails(
        &[
            "genkey",
            "--bits",
            "1024",
            "--passout",
            "pass:x",
            "--format",
            "pkcs1",
        ],
        2,
        "--passout writes encrypted PKCS#8",
    );
    let legacy = dir.path().join("legacy.pem");
    fs::write(&legacy, "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,B4B3C8C536E57CBEB4B3C8C536E57CBE\n\nAAAA\n-----END RSA PRIVATE KEY-----\n").unwrap();
    fails(
        &["pubkey", "--key", s(&legacy)],
        1,
        "the private key is encrypted",
    );
    fails(
        &["pubkey", "--key", s(&legacy), "--passin", "pass:x"],
        1,
        "decryption failed: wrong password",
    );
}

#[test]
fn encrypted_keys_cross_with_openssl() {
    if !openssl_available() {
        eprintln!("openssl not found: skipping the exchange with OpenSSL");
        return;
    }
    let dir = TempDir::new().unwrap();
    let ours = dir.path().join("ours.pem");
    ok(
        &[
            "genkey",
            "--bits",
            "1024",
            "--passout",
            "pass:pw",
            "--out",
            s(&ours),
        ],
        b"",
    );
    let ours_pub = ok(&["pubkey", "--key", s(&ours), "--passin", "pass:pw"], b"");
    let pubout = |path: &Path| openssl(&["pkey", "-pubout", "-passin", "pass:pw", "-in", s(path)]);
    assert_eq!(pubout(&ours), ours_pub);

    let theirs = dir.path().join("theirs.pem");
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:1024",
        "-aes256",
        "-pass",
        "pass:pw",
        "-out",
        s(&theirs),
    ]);
    assert_eq!(
        ok(&["pubkey", "--key", s(&theirs), "--passin", "pass:pw"], b""),
        pubout(&theirs)
    );
    // OpenSSL's traditional PEM encryption of the same key.
    let traditional = dir.path().join("traditional.pem");
    openssl(&[
        "rsa",
        "-traditional",
        "-des3",
        "-passin",
        "pass:pw",
        "-passout",
        "pass:pw",
        "-in",
        s(&theirs),
        "-out",
        s(&traditional),
    ]);
    assert!(fs::read_to_string(&traditional)
        .unwrap()
        .contains("Proc-Type: 4,ENCRYPTED"));
    assert_eq!(
        ok(
            &["pubkey", "--key", s(&traditional), "--passin", "pass:pw"],
            b""
        ),
        pubout(&theirs)
    );
}

//! `REDC_BACKEND` is read once per process, and a value naming no backend (or one this CPU
//! cannot run) is an error that key construction reports instead of running elsewhere.
//!
//! The variable is read once, so each case runs in a child process: this test binary again,
//! with `REDC_BACKEND` set and `REDC_BACKEND_ENV_CHILD` telling it to run the checks.

use std::process::Command;

use redc::mont::backend::Backend;
use redc::rsa::{BoxedUint, Error, RsaPrivateKey, RsaPublicKey};

const CHILD: &str = "REDC_BACKEND_ENV_CHILD";

/// A 512-bit odd modulus (all the public key checks need) and e = 65537.
fn public_parts() -> (BoxedUint, BoxedUint) {
    let mut n = vec![0u8; 64];
    n[0] = 0x80;
    n[63] = 1;
    (BoxedUint::from_be_bytes(&n), BoxedUint::from_u64(65537))
}

/// Runs this test in a child process with `REDC_BACKEND=value`; returns its stderr.
fn run_child(test: &str, value: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env("REDC_BACKEND", value)
        .env(CHILD, "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "REDC_BACKEND={value}: {err}");
    err
}

#[test]
fn unknown_value_fails_every_key_construction() {
    if std::env::var_os(CHILD).is_none() {
        run_child("unknown_value_fails_every_key_construction", "avx2");
        return;
    }
    let want = redc::Error::UnknownBackendEnv("avx2");
    assert_eq!(Backend::active(), Err(want));
    // Asked twice, the same answer (the variable is read once).
    assert_eq!(Backend::active(), Err(want));
    assert_eq!(
        want.to_string(),
        "REDC_BACKEND=avx2: unknown backend (expected auto, portable, mulx, ifma)"
    );
    let (n, e) = public_parts();
    assert_eq!(RsaPublicKey::new(n, e).unwrap_err(), Error::Arith(want));
    let mut rng = rand::thread_rng();
    assert_eq!(
        RsaPrivateKey::new(&mut rng, 1024).unwrap_err(),
        Error::Arith(want)
    );
    assert_eq!(redc::rsa::default_kernel().unwrap_err(), want);
}

#[test]
fn unavailable_value_is_reported() {
    let Some(missing) = Backend::ALL.into_iter().find(|b| !b.is_available()) else {
        eprintln!("every backend runs on this CPU: the unavailable case cannot be checked");
        return;
    };
    if std::env::var_os(CHILD).is_none() {
        run_child("unavailable_value_is_reported", missing.name());
        return;
    }
    let want = redc::Error::UnavailableBackendEnv(missing);
    assert_eq!(Backend::active(), Err(want));
    assert!(
        want.to_string().contains("this CPU runs portable"),
        "{want}"
    );
    let (n, e) = public_parts();
    assert_eq!(RsaPublicKey::new(n, e).unwrap_err(), Error::Arith(want));
}

#[test]
fn each_valid_value_selects_its_backend() {
    if std::env::var_os(CHILD).is_none() {
        for b in Backend::available() {
            run_child("each_valid_value_selects_its_backend", b.name());
        }
        // Names are case-insensitive; empty and `auto` mean the detected backend.
        for value in ["", "auto", "AUTO", "Portable"] {
            run_child("each_valid_value_selects_its_backend", value);
        }
        return;
    }
    let value = std::env::var("REDC_BACKEND").unwrap();
    let want = if value.is_empty() || value.eq_ignore_ascii_case("auto") {
        Backend::detect()
    } else {
        Backend::from_name(&value).unwrap()
    };
    assert_eq!(Backend::active(), Ok(want));
    let (n, e) = public_parts();
    let key = RsaPublicKey::new(n, e).unwrap();
    assert_eq!(key.kernel().name(), want.name());
}

#[test]
fn set_backend_switches_a_key_and_refuses_an_unavailable_one() {
    let (n, e) = public_parts();
    let mut key = RsaPublicKey::new(n, e).unwrap();
    let x = [7u8; 32];
    let want = key.raw_public(&x).unwrap();
    for b in Backend::ALL {
        let before = key.kernel().name();
        match key.set_backend(b) {
            Ok(()) => {
                assert!(b.is_available());
                assert_eq!(key.kernel().name(), b.name());
                assert_eq!(key.raw_public(&x).unwrap(), want, "{b}");
            }
            Err(e) => {
                assert!(!b.is_available());
                assert_eq!(e, Error::Arith(redc::Error::BackendUnavailable));
                assert_eq!(key.kernel().name(), before, "left as it was");
            }
        }
    }
}

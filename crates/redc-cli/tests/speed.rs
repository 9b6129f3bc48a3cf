//! `redc speed`: the JSON shape the issue spells out, the OpenSSL race, and its errors.

use std::process::Command;

mod common;

fn redc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .output()
        .expect("run redc")
}

#[test]
fn json_rows_have_the_documented_keys() {
    let out = redc(&[
        "speed",
        "--bits",
        "1024,2048",
        "--primes",
        "2",
        "--seconds",
        "0.06",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON only");
    let rows = v["results"].as_array().expect("results array");
    assert_eq!(rows.len(), 2);
    for (row, bits) in rows.iter().zip([1024, 2048]) {
        assert_eq!(row["bits"], bits);
        assert_eq!(row["primes"], 2);
        let backend = row["backend"].as_str().unwrap();
        assert!(["portable", "mulx", "ifma"].contains(&backend), "{backend}");
        assert!(row["sign_per_s"].as_f64().unwrap() > 0.0);
        assert!(row["verify_per_s"].as_f64().unwrap() > row["sign_per_s"].as_f64().unwrap());
        assert!(row.get("openssl_sign_per_s").is_none());
    }
    // The machine the figures belong to: the CPU as /proc/cpuinfo names it, the kind the
    // kernels dispatch on and the backend in force (also on standard error, for the table).
    let m = &v["machine"];
    let cpu = m["cpu"].as_str().expect("machine.cpu");
    assert!(!cpu.is_empty());
    let kind = m["cpu_kind"].as_str().expect("machine.cpu_kind");
    let backend = m["active_backend"]
        .as_str()
        .expect("machine.active_backend");
    assert_eq!(backend, rows[0]["backend"].as_str().unwrap());
    assert!(m["openssl"].is_null(), "no OpenSSL was compared");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{cpu} (")) && stderr.contains(kind),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("backend {backend}")), "{stderr}");
}

#[test]
fn batch_adds_a_row_per_size_counting_every_signature() {
    let out = redc(&[
        "speed",
        "--bits",
        "1024",
        "--primes",
        "3",
        "--seconds",
        "0.06",
        "--batch",
        "5",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON only");
    let rows = v["results"].as_array().expect("results array");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["batch"], false);
    assert_eq!(rows[1]["batch"], true);
    assert_eq!(rows[1]["batch_size"], 5);
    for row in rows {
        assert_eq!(row["bits"], 1024);
        assert_eq!(row["primes"], 3);
        assert!(row["sign_per_s"].as_f64().unwrap() > 0.0);
    }
    // The table labels the batch row.
    let out = redc(&[
        "speed",
        "--bits",
        "1024",
        "--seconds",
        "0.06",
        "--batch",
        "2",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("rsa 1024 bits 2p") && l.contains(" x2 ")),
        "{text}"
    );
    // Out of range.
    for bad in ["0", "1025", "x"] {
        let out = redc(&["speed", "--bits", "1024", "--batch", bad]);
        assert_eq!(out.status.code(), Some(2), "--batch {bad}");
    }
}

#[test]
fn threads_and_clients_add_a_service_row_with_latencies() {
    let out = redc(&[
        "speed",
        "--bits",
        "1024",
        "--seconds",
        "0.2",
        "--threads",
        "2",
        "--clients",
        "16",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON only");
    let rows = v["results"].as_array().expect("results array");
    assert_eq!(rows.len(), 2);
    assert!(rows[0].get("threads").is_none());
    let s = &rows[1];
    assert_eq!(s["threads"], 2);
    assert_eq!(s["clients"], 16);
    for key in [
        "bits",
        "primes",
        "backend",
        "batch",
        "batch_size",
        "verify_per_s",
    ] {
        assert!(s.get(key).is_some(), "service row lacks {key}: {s}");
    }
    let (rate, p50, p99, max) = (
        s["sign_per_s"].as_f64().unwrap(),
        s["p50_s"].as_f64().unwrap(),
        s["p99_s"].as_f64().unwrap(),
        s["max_s"].as_f64().unwrap(),
    );
    assert!(rate > 0.0 && p50 > 0.0, "{s}");
    assert!(p50 <= p99 && p99 <= max, "{s}");
    // The table shows the service rows in a section of their own.
    let out = redc(&[
        "speed",
        "--bits",
        "1024",
        "--seconds",
        "0.1",
        "--clients",
        "3",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().any(|l| l.starts_with("signing service")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("rsa 1024 bits 2p") && l.contains(" C=3")),
        "{text}"
    );
    for bad in [["--threads", "0"], ["--clients", "0"], ["--clients", "x"]] {
        let out = redc(&["speed", "--bits", "1024", bad[0], bad[1]]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn multi_prime_and_forced_portable_backend() {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args([
            "speed",
            "--bits",
            "1024",
            "--primes",
            "3",
            "--seconds",
            "0.06",
            "--json",
        ])
        .env("REDC_BACKEND", "portable")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"][0]["primes"], 3);
    assert_eq!(v["results"][0]["backend"], "portable");
}

#[test]
fn races_openssl_and_reports_the_ratio() {
    let out = redc(&[
        "speed",
        "--bits",
        "1024",
        "--seconds",
        "0.3",
        "--json",
        "--vs-openssl",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &v["results"][0];
    let ours = row["sign_per_s"].as_f64().unwrap();
    let theirs = row["openssl_sign_per_s"].as_f64().unwrap();
    assert!(theirs > 0.0);
    assert!((row["sign_ratio"].as_f64().unwrap() - ours / theirs).abs() < 1e-9);
    assert!(row["verify_ratio"].as_f64().unwrap() > 0.0);
    // The OpenSSL compared with, as its `version` names itself.
    let version = v["machine"]["openssl"].as_str().expect("machine.openssl");
    assert!(version.starts_with("OpenSSL "), "{version}");
}

/// A short 1024-bit run compared with the program at `openssl`.
fn with_openssl(openssl: &str) -> Vec<&str> {
    let args = ["speed", "--bits", "1024", "--seconds", "0.05", "--openssl"];
    args.into_iter().chain([openssl]).collect()
}

#[test]
fn errors_are_one_line() {
    for (args, code) in [
        (vec!["speed", "--bits", "512"], 2),
        (vec!["speed", "--bits", "2048", "--primes", "4"], 2),
        (vec!["speed", "--seconds", "0"], 2),
        (vec!["speed", "--bits", "abc"], 2),
        (with_openssl("/nonexistent/openssl"), 1),
        // A program that runs but is not OpenSSL (`false` exits 1 and prints nothing).
        (with_openssl("false"), 1),
    ] {
        let out = redc(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        // Every error, a missing `openssl` included, comes before any key is generated.
        assert!(!err.contains("generating"), "{args:?}: {err}");
        assert_eq!(
            err.lines()
                .filter(|l| l.starts_with("redc: ") && !l.starts_with("redc: speed"))
                .count(),
            1,
            "{err}"
        );
    }
}

#[test]
fn mont_table_lists_every_algorithm() {
    let out = redc(&["speed", "--mont", "--seconds", "0.01"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for algo in common::ALGOS {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(algo)),
            "{algo} missing:\n{text}"
        );
    }
}

#[test]
fn unknown_or_unavailable_backend_is_one_line_naming_it() {
    // An unknown name lists the accepted ones; a backend this CPU lacks (if any) names the
    // ones it runs.
    use redc::mont::backend::Backend;
    let mut cases = vec![("nonsense", "expected auto, portable, mulx, ifma")];
    match Backend::ALL.into_iter().find(|b| !b.is_available()) {
        Some(b) => cases.push((b.name(), "this CPU runs portable")),
        None => eprintln!("every backend runs on this CPU: the unavailable case is skipped"),
    }
    // Every command reports it, not only those that measure: a key would otherwise run on
    // another backend than the one asked for.
    let commands: [&[&str]; 3] = [
        &["speed", "--bits", "1024", "--seconds", "0.06"],
        &["genkey", "--bits", "1024"],
        &[
            "calc", "monpro", "--algo", "cios", "--word", "64", "--n", "b", "--a", "2", "--b", "3",
        ],
    ];
    for (value, hint) in cases {
        for args in commands {
            let out = Command::new(env!("CARGO_BIN_EXE_redc"))
                .args(args)
                .env("REDC_BACKEND", value)
                .output()
                .unwrap();
            let err = common::one_line_failure(&out);
            assert!(
                err.starts_with(&format!("redc: REDC_BACKEND={value}: ")) && err.contains(hint),
                "{args:?}: {err}"
            );
        }
    }
}

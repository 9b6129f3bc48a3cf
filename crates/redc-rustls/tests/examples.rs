//! The examples end with status 1 and one line on standard error, never a panic: on a
//! standard output that cannot be written, and (`handshake_bench`) on arguments out of range.
//! Nothing here runs a benchmark: every `handshake_bench` case is refused before any work.

mod common;

use std::process::{Command, Output, Stdio};

use common::{example_binary, server_binary};

/// `/dev/full` for writing: every write fails with "no space left on device".
#[cfg(target_os = "linux")]
fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

/// The example `bin` run with `args`, its standard output on `/dev/full`.
#[cfg(target_os = "linux")]
fn to_dev_full(bin: &std::path::Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(dev_full())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// The example must have exited with status 1 and exactly one line on standard error, which
/// contains `expect`.
fn exits_with_one_line(what: &str, out: &Output, expect: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr:?}");
    assert!(stderr.contains(expect), "{what}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn tls_server_with_an_unwritable_stdout_exits_with_one_line() {
    // The address line cannot be written: the server stops instead of serving unannounced.
    let out = to_dev_full(&server_binary(), &["--addr", "127.0.0.1:0"]);
    exits_with_one_line(
        "tls_server > /dev/full",
        &out,
        "tls_server: cannot write to standard output",
    );
    let out = to_dev_full(&server_binary(), &["--help"]);
    exits_with_one_line(
        "tls_server --help > /dev/full",
        &out,
        "cannot write to standard output",
    );
}

#[test]
fn handshake_bench_refuses_arguments_out_of_range() {
    let bench = example_binary("handshake_bench");
    // `--clients 1` makes `--seconds` matter: each of these was a panic (or a silent clamp),
    // after a key generation, before the check.
    let cases: &[&[&str]] = &[
        &["--clients", "1", "--seconds", "-1"],
        &["--clients", "1", "--seconds", "NaN"],
        &["--clients", "1", "--seconds", "inf"],
        &["--clients", "1", "--seconds", "0"],
        &["--clients", "1", "--seconds", "1e300"],
        &["--clients", "1", "--seconds", "two"],
        &["--clients", "100000"],
        &["--clients", "-1"],
        &["--bits", "0"],
        &["--bits", "1024"],
        &["--bits", "100000"],
        &["--primes", "1"],
        &["--primes", "9"],
        &["--rounds", "0"],
        &["--rounds", "99999999999"],
        &["--handshakes", "0"],
        &["--handshakes", "18446744073709551616"],
        &["--kx", "p521"],
        &["--rounds"],
        &["--frobnicate"],
    ];
    for args in cases {
        let out = Command::new(&bench)
            .args(*args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        exits_with_one_line(&format!("handshake_bench {args:?}"), &out, "usage:");
        assert!(out.stdout.is_empty(), "{args:?}: nothing was to run");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn handshake_bench_with_an_unwritable_stdout_exits_with_one_line() {
    let out = to_dev_full(&example_binary("handshake_bench"), &["--help"]);
    exits_with_one_line(
        "handshake_bench --help > /dev/full",
        &out,
        "handshake_bench: cannot write to standard output",
    );
}

//! Names the CLI tests expect on the command line and in the outputs, written once: the
//! Montgomery algorithms (`--algo`, `speed --mont`, the `algorithms` table) and the dedicated
//! squarings (`--variant`, the `squaring` table).
#![allow(dead_code)]

/// Every Montgomery multiplication algorithm, by its CLI name.
pub const ALGOS: [&str; 7] = [
    "sos",
    "cios",
    "fios",
    "fips",
    "cihs",
    "itoh",
    "itoh-enhanced",
];

/// Every dedicated Montgomery squaring, by its CLI name.
pub const VARIANTS: [&str; 6] = ["generic", "koc", "improved", "merged", "coupled", "modern"];

/// Checks that a run failed the CLI's way for a failure that is not a usage error: exit status
/// 1, nothing on stdout, one line on stderr; returns that line.
pub fn one_line_failure(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// The longest any `redc` run of the tests may take: a hung command fails its test instead of
/// stalling `cargo test`.
const RUN_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// `redc args` with `stdin` written and then closed (a command that exits before reading it,
/// on a usage error, is fine), its output captured; killed and failed after [`RUN_LIMIT`].
pub fn redc(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = spawn(args);
    let _ = child.stdin.take().unwrap().write_all(stdin);
    finish(child, args, RUN_LIMIT)
}

/// `redc args` with standard input held open and never written, its output captured: a
/// command that waits for input is killed and fails the test after `limit`.
pub fn redc_stdin_open(args: &[&str], limit: std::time::Duration) -> std::process::Output {
    let mut child = spawn(args);
    let stdin = child.stdin.take();
    let out = finish(child, args, limit);
    drop(stdin);
    out
}

fn spawn(args: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run redc")
}

fn finish(
    mut child: std::process::Child,
    args: &[&str],
    limit: std::time::Duration,
) -> std::process::Output {
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            panic!("redc {args:?} hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// The standard output of `redc args` fed `stdin`; fails the test with its stderr unless it
/// succeeds.
pub fn redc_ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = redc(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Whether the system `openssl` runs (the tests that exchange files with it skip without it).
pub fn openssl_available() -> bool {
    std::process::Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

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

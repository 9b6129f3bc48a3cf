//! Stable-Rust smoke run of the cargo-fuzz targets: every committed corpus file under
//! `fuzz/corpus/<target>/` goes through the same target body the fuzzer runs
//! (`fuzz/src/targets.rs`, included here), plus a few hundred pseudo-random inputs per target.

#[path = "../../../fuzz/src/targets.rs"]
#[allow(dead_code)]
mod targets;

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "empty corpus {}", dir.display());
    files
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect()
}

/// The corpus, then `random` mutations of corpus files (byte flips, truncations) and fresh
/// random inputs.
fn run(target: &str, f: fn(&[u8]), random: usize) {
    let files = corpus(target);
    for (p, data) in &files {
        eprintln!("{target}: {}", p.display());
        f(data);
    }
    let mut rng = ChaCha20Rng::seed_from_u64(0x5eed);
    for _ in 0..random {
        let (_, base) = &files[rng.gen_range(0..files.len())];
        let mut d = base.clone();
        match rng.gen_range(0..3) {
            0 if !d.is_empty() => {
                for _ in 0..rng.gen_range(1..4) {
                    let i = rng.gen_range(0..d.len());
                    d[i] ^= 1 << rng.gen_range(0..8);
                }
            }
            1 => d.truncate(rng.gen_range(0..=d.len())),
            _ => {
                d = (0..rng.gen_range(0..300)).map(|_| rng.gen()).collect();
            }
        }
        f(&d);
    }
}

#[test]
fn parse_key() {
    run("parse_key", targets::parse_key, 200);
}

#[test]
fn verify() {
    run("verify", targets::verify, 300);
}

#[test]
fn decrypt() {
    run("decrypt", targets::decrypt, 200);
}

#[test]
fn mont() {
    run("mont", targets::mont, 300);
}

//! Which row of the CPU-kind table (`redc::mont::backend::cpu`) signs fastest on this machine?
//! Forces the kernels to dispatch as on each CPU kind whose forms differ (`force_kind`, a
//! test hook; every form gives the same bytes; a key made while a kind is forced keeps that
//! kind's forms) and times blinded PKCS#1 v1.5 SHA-256
//! signatures of fresh 2-prime keys, one at a time and in batches of eight
//! (`sign_batch`). The kinds take turns in short chunks, so that a noisy neighbour slows them
//! alike; the report gives, per kind, the forms it runs and the median and fastest chunk in
//! µs per signature, with the detected kind marked and the median's ratio to it.
//!
//! A kind decides between forms of one backend only, so run it once per backend worth
//! comparing (`REDC_BACKEND=mulx` for the MULX forms). Run it pinned to one core:
//!
//! ```text
//! taskset -c 1 cargo run --release -p redc --example kind_forms [ROUNDS, default 15] [BITS,...]
//! ```

use std::time::Instant;

use redc::mont::backend::cpu::{force_kind, CpuKind, Forms};
use redc::rsa::{EncodePrivateKey, HashAlg, Pkcs1v15Sign, RsaPrivateKey};

/// (median, fastest) of `v`.
fn stats(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rounds: usize = match args.next() {
        Some(r) => r.parse()?,
        None => 15,
    };
    let sizes: Vec<usize> = match args.next() {
        Some(s) => s.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => vec![1024, 2048, 3072, 4096],
    };
    let detected = CpuKind::detect();
    // One kind per distinct row of the table, the detected kind first.
    let mut kinds = vec![detected];
    for k in CpuKind::ALL {
        if !kinds.iter().any(|&o| Forms::of(o) == Forms::of(k)) {
            kinds.push(k);
        }
    }
    println!("detected kind: {} ({rounds} rounds)", detected.name());
    for &k in &kinds {
        println!("  {:32} {:?}", k.name(), Forms::of(k));
    }
    let mut rng = rand::rngs::OsRng;
    let digest = HashAlg::Sha256.digest(b"redc kind forms");
    let padding = || Pkcs1v15Sign::from_hash(HashAlg::Sha256);
    for bits in sizes {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, bits, 2)?;
        let reference = key.sign(padding(), &digest)?;
        // A key prepares its forms when it is made (its exponentiation plan), so each kind
        // gets its own copy, loaded while that kind is forced.
        let der = key.to_pkcs8_der()?;
        let keys = kinds
            .iter()
            .map(|&k| {
                force_kind(Some(k));
                RsaPrivateKey::from_der(der.as_bytes())
            })
            .collect::<Result<Vec<_>, _>>()?;
        // About 5 ms per chunk at each size.
        let singles = (2_000_000 / (bits * bits / 1024)).max(2);
        let batches = singles.div_ceil(8).max(1);
        let mut single = vec![Vec::new(); kinds.len()];
        let mut batch = vec![Vec::new(); kinds.len()];
        let msgs = [&digest[..]; 8];
        for round in 0..=rounds {
            for (i, &k) in kinds.iter().enumerate() {
                force_kind(Some(k));
                let key = &keys[i];
                let start = Instant::now();
                for _ in 0..singles {
                    let s = key.sign_with_rng(&mut rng, padding(), &digest)?;
                    assert_eq!(s, reference, "{} signs differently", k.name());
                }
                let t = start.elapsed().as_secs_f64() * 1e6 / singles as f64;
                let start = Instant::now();
                for _ in 0..batches {
                    let s = padding().sign_batch(Some(&mut rng), key, &msgs)?;
                    assert!(s.iter().all(|s| *s == reference), "{} batch", k.name());
                }
                let tb = start.elapsed().as_secs_f64() * 1e6 / (8 * batches) as f64;
                if round > 0 {
                    // Round 0 warms every form up.
                    single[i].push(t);
                    batch[i].push(tb);
                }
            }
        }
        force_kind(None);
        let (base_s, _) = stats(&mut single[0]);
        let (base_b, _) = stats(&mut batch[0]);
        println!("{bits} bits, µs per signature (median / fastest chunk, median ÷ detected's):");
        for (i, &k) in kinds.iter().enumerate() {
            let (ms, fs) = stats(&mut single[i]);
            let (mb, fb) = stats(&mut batch[i]);
            println!(
                "  {:32} single {ms:8.1} / {fs:8.1} ({:.3})   x8 {mb:8.1} / {fb:8.1} ({:.3}){}",
                k.name(),
                ms / base_s,
                mb / base_b,
                if i == 0 { "  <- detected" } else { "" }
            );
        }
    }
    Ok(())
}

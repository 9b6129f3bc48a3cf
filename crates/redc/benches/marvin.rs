//! Marvin-style timing harness (a report, not a gate): decryption time of valid vs invalid
//! PKCS#1 v1.5 and OAEP ciphertexts, measured in random interleaved order, compared with
//! Welch's t-test as dudect does (Reparaz, Balasch, Verbauwhede 2017; the Marvin attack,
//! Kario 2023, measures the same distinction for PKCS#1 v1.5).
//!
//! `|t|` above about 4.5 would suggest a difference between the classes that more measurements
//! would confirm; below it, none was detected at this N. The t statistic is reported on all
//! measurements and, as dudect does, on the measurements below the 50th, 90th and 99th
//! percentiles of the pooled distribution (cropping the upper tail, where interrupts and
//! other processes on the machine land).
//!
//! Environment: `MARVIN_N` measurements per class (default 200000), `MARVIN_BITS` key size
//! (default 2048), `MARVIN_PADDING` `pkcs1`, `oaep`, `both` (default) or `raw`. `raw` times
//! the raw private operation alone (CRT, unblinded, fault-checked) on the same valid PKCS#1
//! and invalid ciphertexts, so the classes differ only in their values: a control that
//! separates the arithmetic from the unpadding and its success path. Run with
//! `cargo bench -p redc --bench marvin`, e.g.
//! `MARVIN_N=1000000 MARVIN_BITS=1024 cargo bench -p redc --bench marvin`.

use std::hint::black_box;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use redc::rsa::{Oaep, Pkcs1v15Encrypt, RsaPrivateKey};

/// Distinct ciphertexts per class.
const INPUTS: usize = 1024;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[path = "../tests/common/welch.rs"]
mod welch;
use welch::welch;

fn median(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn report(name: &str, valid: &[f64], invalid: &[f64]) {
    let mut pooled: Vec<f64> = valid.iter().chain(invalid).copied().collect();
    pooled.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "{name}: N = {} valid, {} invalid; median {:.0} ns vs {:.0} ns",
        valid.len(),
        invalid.len(),
        median(valid),
        median(invalid)
    );
    println!(
        "  all measurements: |t| = {:.2}",
        welch(valid, invalid).abs()
    );
    for pct in [50, 90, 99] {
        let cut = pooled[pooled.len() * pct / 100];
        let a: Vec<f64> = valid.iter().copied().filter(|&x| x < cut).collect();
        let b: Vec<f64> = invalid.iter().copied().filter(|&x| x < cut).collect();
        if a.len() > 2 && b.len() > 2 {
            println!(
                "  below p{pct} ({cut:.0} ns): |t| = {:.2} ({} vs {} kept)",
                welch(&a, &b).abs(),
                a.len(),
                b.len()
            );
        }
    }
}

/// Measures `n` decryptions per class of `valid` and `invalid` ciphertexts in random order;
/// `decrypt` must return whether its ciphertext was valid, unless `raw` (where every input
/// succeeds and it must return true).
fn run(
    raw: bool,
    n: usize,
    rng: &mut ChaCha20Rng,
    valid: &[Vec<u8>],
    invalid: &[Vec<u8>],
    mut decrypt: impl FnMut(&[u8]) -> bool,
) -> (Vec<f64>, Vec<f64>) {
    let mut tv = Vec::with_capacity(n);
    let mut ti = Vec::with_capacity(n);
    let mut input = valid[0].clone();
    // Warm-up.
    for c in valid.iter().chain(invalid).take(200) {
        black_box(decrypt(c));
    }
    while tv.len() < n || ti.len() < n {
        let pick_valid = if tv.len() >= n {
            false
        } else if ti.len() >= n {
            true
        } else {
            rng.gen::<bool>()
        };
        let set = if pick_valid { valid } else { invalid };
        // Every measurement reads its ciphertext from the same buffer, so that where the
        // inputs happen to lie in memory (their alignment) cannot tell the classes apart.
        input.copy_from_slice(&set[rng.gen_range(0..set.len())]);
        let t0 = Instant::now();
        let ok = black_box(decrypt(black_box(&input)));
        let dt = t0.elapsed().as_nanos() as f64;
        assert_eq!(ok, raw || pick_valid, "class mix-up");
        if pick_valid {
            tv.push(dt);
        } else {
            ti.push(dt);
        }
    }
    (tv, ti)
}

fn main() {
    let n = env_usize("MARVIN_N", 200_000);
    let bits = env_usize("MARVIN_BITS", 2048);
    let which = std::env::var("MARVIN_PADDING").unwrap_or_else(|_| "both".into());
    let mut rng = ChaCha20Rng::seed_from_u64(0x3a2f1);
    let key = RsaPrivateKey::new(&mut rng, bits).expect("keygen");
    let public = key.to_public_key();
    let k = key.size();
    println!(
        "marvin: {bits}-bit key, backend {}, {n} measurements per class",
        key.kernel().name()
    );
    // Invalid: encryptions of random messages 0x00 ‖ 0x03 ‖ random, which fail both paddings
    // (PKCS#1 v1.5 wants 0x02 second; OAEP's lHash check fails bar a chance of 2^-256). Like the
    // valid ones these are random below n, and they decrypt to values below 2^(8(k−1)), so the
    // classes differ in the padding's validity only.
    let invalid: Vec<Vec<u8>> = (0..INPUTS)
        .map(|_| {
            let mut m = vec![0u8; k];
            rng.fill(&mut m[2..]);
            m[1] = 0x03;
            public.raw_public(&m).unwrap()
        })
        .collect();
    let pkcs1_valid = |rng: &mut ChaCha20Rng| -> Vec<Vec<u8>> {
        (0..INPUTS)
            .map(|i| {
                let msg = [i as u8; 32];
                public.encrypt(rng, Pkcs1v15Encrypt, &msg).unwrap()
            })
            .collect()
    };
    if which == "both" || which == "pkcs1" {
        let valid = pkcs1_valid(&mut rng);
        let (a, b) = run(false, n, &mut rng, &valid, &invalid, |c| {
            key.decrypt(Pkcs1v15Encrypt, c).is_ok()
        });
        report("PKCS#1 v1.5 decrypt, valid vs invalid", &a, &b);
    }
    if which == "both" || which == "oaep" {
        let valid: Vec<Vec<u8>> = (0..INPUTS)
            .map(|i| {
                let msg = [i as u8; 32];
                let oaep = Oaep::new::<sha2::Sha256>();
                public.encrypt(&mut rng, oaep, &msg).unwrap()
            })
            .collect();
        let (a, b) = run(false, n, &mut rng, &valid, &invalid, |c| {
            key.decrypt(Oaep::new::<sha2::Sha256>(), c).is_ok()
        });
        report("OAEP (SHA-256) decrypt, valid vs invalid", &a, &b);
    }
    if which == "raw" {
        let valid = pkcs1_valid(&mut rng);
        let (a, b) = run(true, n, &mut rng, &valid, &invalid, |c| {
            key.raw_private(None, c).is_ok()
        });
        let name = "raw private operation, PKCS#1-valid vs invalid inputs";
        report(name, &a, &b);
    }
}

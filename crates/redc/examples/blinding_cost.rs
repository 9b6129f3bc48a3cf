//! What base blinding costs: PKCS#1 v1.5 SHA-256 signatures with `sign` (unblinded) and
//! `sign_with_rng` (blinded: the key's pair applied, removed and squared each time, a fresh
//! pair every 32 signatures) on fresh 2-prime keys, in alternating rounds of 32 signatures
//! (so that every blinded round includes exactly one fresh pair). Prints the fastest and the
//! median round of each and the differences. Run it pinned to one core:
//!
//! ```text
//! taskset -c 1 cargo run --release -p redc --example blinding_cost [ROUNDS, default 41]
//! ```

use std::time::Instant;

use redc::rsa::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};

/// (fastest, median).
fn stats(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = match std::env::args().nth(1) {
        Some(r) => r.parse()?,
        None => 41,
    };
    let mut rng = rand::rngs::OsRng;
    let digest = HashAlg::Sha256.digest(b"redc blinding cost");
    let reps = 32;
    for bits in [2048usize, 3072, 4096] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, bits, 2)?;
        let (mut plain, mut blinded) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let start = Instant::now();
            for _ in 0..reps {
                key.sign(Pkcs1v15Sign::from_hash(HashAlg::Sha256), &digest)?;
            }
            plain.push(start.elapsed().as_secs_f64() * 1e6 / reps as f64);
            let start = Instant::now();
            for _ in 0..reps {
                key.sign_with_rng(&mut rng, Pkcs1v15Sign::from_hash(HashAlg::Sha256), &digest)?;
            }
            blinded.push(start.elapsed().as_secs_f64() * 1e6 / reps as f64);
        }
        let ((pf, pm), (bf, bm)) = (stats(&mut plain), stats(&mut blinded));
        println!(
            "{bits} bits: sign {pf:.0} / {pm:.0} µs, blinded {bf:.0} / {bm:.0} µs (fastest {:+.1} %, median {:+.1} %), {rounds} rounds of {reps}",
            (bf / pf - 1.0) * 100.0,
            (bm / pm - 1.0) * 100.0
        );
    }
    Ok(())
}

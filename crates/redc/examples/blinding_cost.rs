//! What base blinding costs: PKCS#1 v1.5 SHA-256 signatures with `sign` (unblinded) and
//! `sign_with_rng` (blinded: the key's pair applied, removed and squared each time, a fresh
//! pair every 32 signatures) on fresh 2-prime keys, in alternating rounds. Prints the median
//! time of each and the difference. Run it pinned to one core:
//!
//! ```text
//! taskset -c 1 cargo run --release -p redc --example blinding_cost [ROUNDS]
//! ```

use std::time::Instant;

use redc::rsa::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = match std::env::args().nth(1) {
        Some(r) => r.parse()?,
        None => 9,
    };
    let mut rng = rand::rngs::OsRng;
    let digest = HashAlg::Sha256.digest(b"redc blinding cost");
    for (bits, reps) in [(2048usize, 128), (3072, 64), (4096, 32)] {
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
        let (p, b) = (median(&mut plain), median(&mut blinded));
        println!(
            "{bits} bits: sign {p:.0} µs, blinded {b:.0} µs ({:+.1} %), medians of {rounds} rounds of {reps}",
            (b / p - 1.0) * 100.0
        );
    }
    Ok(())
}

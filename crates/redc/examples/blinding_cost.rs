//! What base blinding costs: PKCS#1 v1.5 SHA-256 signatures with `sign` (unblinded) and
//! `sign_with_rng` (blinded: the key's pair applied, removed and squared each time, the next
//! fresh pair every 32 signatures, four made at a time) on fresh 2-prime keys. The two alternate one signature at a time
//! (so that slow drifts of a shared machine hit both alike), each timed on its own; the report
//! gives the mean of each (which includes the blinded side's fresh pairs) and the median.
//! Run it pinned to one core:
//!
//! ```text
//! taskset -c 1 cargo run --release -p redc --example blinding_cost [PAIRS_OF_32, default 20]
//! ```

use std::time::Instant;

use redc::rsa::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};

/// (mean, median) in µs.
fn stats(v: &mut [f64]) -> (f64, f64) {
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    v.sort_by(f64::total_cmp);
    (mean, v[v.len() / 2])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let groups: usize = match std::env::args().nth(1) {
        Some(r) => r.parse()?,
        None => 20,
    };
    let mut rng = rand::rngs::OsRng;
    let digest = HashAlg::Sha256.digest(b"redc blinding cost");
    let padding = || Pkcs1v15Sign::from_hash(HashAlg::Sha256);
    for bits in [2048usize, 3072, 4096] {
        let key = RsaPrivateKey::new_multi_prime(&mut rng, bits, 2)?;
        // Warm up both paths (the first blinded signature makes the key's pair).
        key.sign(padding(), &digest)?;
        key.sign_with_rng(&mut rng, padding(), &digest)?;
        let ops = 32 * groups;
        let (mut plain, mut blinded) = (Vec::with_capacity(ops), Vec::with_capacity(ops));
        for _ in 0..ops {
            let start = Instant::now();
            key.sign(padding(), &digest)?;
            plain.push(start.elapsed().as_secs_f64() * 1e6);
            let start = Instant::now();
            key.sign_with_rng(&mut rng, padding(), &digest)?;
            blinded.push(start.elapsed().as_secs_f64() * 1e6);
        }
        let ((pm, pd), (bm, bd)) = (stats(&mut plain), stats(&mut blinded));
        println!(
            "{bits} bits, {ops} of each: sign mean {pm:.0} µs (median {pd:.0}), blinded mean {bm:.0} µs (median {bd:.0}): {:+.1} % on the means",
            (bm / pm - 1.0) * 100.0
        );
    }
    Ok(())
}

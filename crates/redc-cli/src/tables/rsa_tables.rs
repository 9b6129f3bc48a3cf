//! The RSA measurements behind `rsa-vs-openssl` and `crt`: the raw private operation of a
//! generated key, with CRT over 2..=4 primes or without CRT (`primes` = 1, the 2-prime key's
//! `c^d mod n`). Keys are generated once per (size, prime count) and reused across tables.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hint::black_box;

use redc::rsa::{PrivateMode, RsaPrivateKey};

use super::measure::{per_call_ns, Rng};
use super::Ctx;

/// Generated keys, by (bits, primes).
#[derive(Default)]
pub struct Keys(HashMap<(usize, usize), RsaPrivateKey>);

/// Median µs of one raw private operation (RSADP / RSASP1, fault check included) with a
/// `bits`-bit key of `primes` primes; `primes` = 1 is the 2-prime key without CRT.
pub fn private_op_us(
    ctx: &Ctx,
    keys: &mut Keys,
    bits: usize,
    primes: usize,
) -> Result<f64, String> {
    let (nprimes, mode) = match primes {
        1 => (2, PrivateMode::NonCrt),
        k => (k, PrivateMode::Crt),
    };
    let key = match keys.0.entry((bits, nprimes)) {
        Entry::Occupied(e) => e.into_mut(),
        Entry::Vacant(e) => {
            ctx.step(format!("generating a {bits}-bit {nprimes}-prime key"));
            let key = RsaPrivateKey::new_multi_prime(&mut redc::rsa::OsRng, bits, nprimes)
                .map_err(|e| format!("{bits}-bit {nprimes}-prime key generation: {e}"))?;
            e.insert(key)
        }
    };
    // A full-size input below 2^(bits-1) < n.
    let input = Rng::new(bits as u64).below(bits);
    let mut failed = None;
    let ns = per_call_ns(&ctx.budget, || {
        if let Err(e) = key.raw_private_with(None, black_box(&input), mode) {
            failed = Some(e);
        }
    });
    match failed {
        Some(e) => Err(format!("{bits}-bit {primes}-prime private operation: {e}")),
        None => Ok(ns / 1000.0),
    }
}

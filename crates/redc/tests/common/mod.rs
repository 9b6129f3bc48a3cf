//! Shared helpers for the differential tests: conversion to and from num-bigint (the
//! independent reference), random and edge moduli and operands.
#![allow(dead_code)]

pub mod welch;

use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use rand::Rng;
use redc::word::Word;

/// The little-endian limbs of `x`, exactly `len` of them (panics if it does not fit).
pub fn limbs<W: Word>(x: &BigUint, len: usize) -> Vec<W> {
    let mut out = vec![W::ZERO; len];
    let bytes = x.to_bytes_be();
    assert!(
        redc::nat::from_be_bytes(&mut out, &bytes),
        "value does not fit"
    );
    out
}

/// The value of little-endian limbs.
pub fn big<W: Word>(x: &[W]) -> BigUint {
    let mut bytes = vec![0u8; x.len() * (W::BITS as usize / 8)];
    assert!(redc::nat::to_be_bytes(x, &mut bytes));
    BigUint::from_bytes_be(&bytes)
}

/// The value of a `BoxedUint` (the RSA layer's integers).
pub fn big_of(x: &redc::rsa::BoxedUint) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

/// `x` as a `BoxedUint`.
pub fn boxed(x: &BigUint) -> redc::rsa::BoxedUint {
    redc::rsa::BoxedUint::from_be_bytes(&x.to_bytes_be())
}

/// `x` big-endian in exactly `len` bytes (panics if it does not fit).
pub fn padded(x: &BigUint, len: usize) -> Vec<u8> {
    let b = x.to_bytes_be();
    let mut out = vec![0u8; len - b.len()];
    out.extend_from_slice(&b);
    out
}

/// Runs `body` on its own thread and returns what it returns; fails if it takes longer than
/// `limit` (a wedged service), and passes its panic on if it panics.
pub fn within<T: Send + 'static>(
    limit: std::time::Duration,
    body: impl FnOnce() -> T + Send + 'static,
) -> T {
    use std::sync::mpsc::RecvTimeoutError;
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let _ = tx.send(body());
    });
    match rx.recv_timeout(limit) {
        Ok(value) => {
            let _ = thread.join();
            value
        }
        Err(RecvTimeoutError::Timeout) => {
            panic!("watchdog: no answer within {limit:?}, the service hangs")
        }
        Err(RecvTimeoutError::Disconnected) => match thread.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the body sends before it returns"),
        },
    }
}

/// `R = W^s` for `s` limbs.
pub fn r_of<W: Word>(s: usize) -> BigUint {
    BigUint::one() << (W::BITS as usize * s)
}

/// The limbs `n` needs.
pub fn limbs_needed<W: Word>(n: &BigUint) -> usize {
    (n.bits() as usize).div_ceil(W::BITS as usize).max(1)
}

/// A random odd modulus of exactly `bits` bits (`bits ≥ 2`).
pub fn random_modulus<R: Rng>(rng: &mut R, bits: u64) -> BigUint {
    let mut n = rng.gen_biguint(bits);
    n.set_bit(bits - 1, true);
    n.set_bit(0, true);
    if n < BigUint::from(3u32) {
        n = BigUint::from(3u32);
    }
    n
}

/// Edge moduli of `bits` bits: 2^k − 1, 2^(k−1) + 1 (where odd and ≥ 3).
pub fn edge_moduli(bits: u64) -> Vec<BigUint> {
    let mut v = Vec::new();
    let all_ones = (BigUint::one() << bits) - 1u32;
    if all_ones >= BigUint::from(3u32) {
        v.push(all_ones);
    }
    let low = (BigUint::one() << (bits - 1)) + 1u32;
    if low >= BigUint::from(3u32) {
        v.push(low);
    }
    v
}

/// Operands worth testing below `n`: 0, 1, n−1, n−2, a high-bit pattern, and random ones.
pub fn operands<R: Rng>(rng: &mut R, n: &BigUint, random: usize) -> Vec<BigUint> {
    let mut v = vec![BigUint::zero(), BigUint::one(), n - 1u32];
    if n > &BigUint::from(2u32) {
        v.push(n - 2u32);
    }
    v.push(n >> 1);
    for _ in 0..random {
        v.push(rng.gen_biguint_below(n));
    }
    v
}

/// The bit sizes the differential tests sweep: one word up to 8192 bits.
pub const SIZES: &[u64] = &[
    2, 5, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 511, 512, 1000, 1024, 1536, 2048, 3072,
    4096, 8192,
];

/// The backends named in `REDC_REQUIRE` (comma-separated, e.g. `mulx,ifma`; `.ci/run` sets it
/// from the CPU's flags). Panics on an unknown name.
pub fn required_backends() -> Vec<redc::mont::backend::Backend> {
    let Ok(list) = std::env::var("REDC_REQUIRE") else {
        return Vec::new();
    };
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            redc::mont::backend::Backend::from_name(s)
                .unwrap_or_else(|_| panic!("REDC_REQUIRE names an unknown backend {s:?}"))
        })
        .collect()
}

/// Reports that a test skips `backend` because this CPU cannot run it, or fails the test if
/// `REDC_REQUIRE` names it (so that a CI machine that should run it cannot pass without).
pub fn skip_backend(backend: redc::mont::backend::Backend, what: &str) {
    skip_backend_unless_in(&required_backends(), backend, what)
}

/// [`skip_backend`] with the required list given.
pub fn skip_backend_unless_in(
    required: &[redc::mont::backend::Backend],
    backend: redc::mont::backend::Backend,
    what: &str,
) {
    assert!(
        !required.contains(&backend),
        "{what}: backend {} is required (REDC_REQUIRE) but this CPU cannot run it",
        backend.name()
    );
    eprintln!(
        "{what}: backend {} not available on this CPU: skipped",
        backend.name()
    );
}

/// Every backend this CPU runs (each missing one reported, or a failure if required).
pub fn test_backends(what: &str) -> Vec<redc::mont::backend::Backend> {
    use redc::mont::backend::Backend;
    Backend::ALL
        .into_iter()
        .filter(|&b| {
            let ok = b.is_available();
            if !ok {
                skip_backend(b, what);
            }
            ok
        })
        .collect()
}

/// `key` once per backend this CPU runs, each copy set to compute on that backend (see
/// [`test_backends`]): the RSA-level tests run every key on every backend.
pub fn on_every_backend(
    key: &redc::rsa::RsaPrivateKey,
) -> Vec<(redc::mont::backend::Backend, redc::rsa::RsaPrivateKey)> {
    test_backends("RSA-level test")
        .into_iter()
        .map(|b| {
            let mut k = key.clone();
            k.set_backend(b).expect("an available backend");
            (b, k)
        })
        .collect()
}

/// Whether the system `openssl` runs (the tests that exchange keys with it skip without it).
pub fn openssl_available() -> bool {
    std::process::Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A path in the temporary directory unique to this process and call, ending in `name`.
pub fn temp_path(name: &str) -> std::path::PathBuf {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("redc-test-{}-{n}-{name}", std::process::id()))
}

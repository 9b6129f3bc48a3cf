//! The RSA table of `redc speed`: sign/s and verify/s per key size, like `openssl speed rsa`,
//! optionally alternating with `openssl speed` for the same sizes and reporting the ratio.
//!
//! Every figure is measured through the library's public API, the same calls a user makes: a
//! full PKCS#1 v1.5 SHA-256 signature (hash, pad, constant-time CRT, fault check) and a full
//! verification with e = 65537.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use redc::rsa::OsRng;
use redc::rsa::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};
use redc::service::{BatchSigner, KeyId, Scheme, ServiceConfig};

use crate::CliError;

/// One measured row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Modulus size.
    pub bits: usize,
    /// Number of primes.
    pub primes: usize,
    /// The backend the private operation ran on.
    pub backend: String,
    /// Whether the signatures were made in batches (`--batch N`, through
    /// `Pkcs1v15Sign::sign_batch`); `sign_per_s` then counts every signature of every batch.
    pub batch: bool,
    /// Signatures per batch call (1 for single operations).
    pub batch_size: usize,
    /// Full signatures per second (median of the rounds).
    pub sign_per_s: f64,
    /// Full verifications per second (median of the rounds).
    pub verify_per_s: f64,
    /// OpenSSL's signatures per second, measured alternately in the same run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openssl_sign_per_s: Option<f64>,
    /// OpenSSL's verifications per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openssl_verify_per_s: Option<f64>,
    /// redc sign/s ÷ OpenSSL sign/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sign_ratio: Option<f64>,
    /// redc verify/s ÷ OpenSSL verify/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_ratio: Option<f64>,
    /// Service rows (`--threads`/`--clients`): the signing service's worker threads; OpenSSL
    /// then ran `speed -multi` with as many processes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Service rows: concurrent callers signing through the service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clients: Option<usize>,
    /// Service rows: median latency of one caller's signature, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p50_s: Option<f64>,
    /// Service rows: 99th-percentile latency, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p99_s: Option<f64>,
    /// Service rows: the longest latency, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_s: Option<f64>,
}

/// Runs `op` repeatedly for about `budget` and returns operations per second.
fn rate(budget: Duration, mut op: impl FnMut()) -> f64 {
    op(); // warm-up: tables, caches, lazily detected backend
    let start = Instant::now();
    let mut count = 0u64;
    loop {
        op();
        count += 1;
        let el = start.elapsed();
        if el >= budget {
            return count as f64 / el.as_secs_f64();
        }
    }
}

/// A redc key and a signature ready for the timing loops.
pub struct Subject {
    key: RsaPrivateKey,
    msg: Vec<u8>,
    sig: Vec<u8>,
}

impl Subject {
    /// Generates a `bits`-bit key with `primes` primes (e = 65537).
    pub fn new(bits: usize, primes: usize) -> Result<Self, CliError> {
        let key = RsaPrivateKey::new_multi_prime(&mut OsRng, bits, primes).map_err(|e| {
            CliError::failure(format!(
                "cannot generate a {bits}-bit {primes}-prime key: {e}"
            ))
        })?;
        let msg = b"redc speed: the message every signature covers".to_vec();
        let sig = Self::sign_with(&key, &msg)?;
        Ok(Subject { key, msg, sig })
    }

    /// One full signature as `redc sign` makes it: hashed, padded, blinded (the generator is
    /// passed, as OpenSSL blinds by default), fault-checked.
    fn sign_with(key: &RsaPrivateKey, msg: &[u8]) -> Result<Vec<u8>, CliError> {
        let digest = HashAlg::Sha256.digest(msg);
        key.sign_with_rng(
            &mut OsRng,
            Pkcs1v15Sign::from_hash(HashAlg::Sha256),
            &digest,
        )
        .map_err(|e| CliError::failure(format!("signing failed: {e}")))
    }

    /// Full signatures per second over about `budget`.
    pub fn sign_rate(&self, budget: Duration) -> Result<f64, CliError> {
        let mut failed = None;
        let r = rate(budget, || {
            if let Err(e) = Self::sign_with(&self.key, std::hint::black_box(&self.msg)) {
                failed = Some(e);
            }
        });
        failed.map_or(Ok(r), Err)
    }

    /// Full signatures per second over about `budget`, made `n` at a time by
    /// `Pkcs1v15Sign::sign_batch` (each of `n` distinct messages hashed, padded, blinded and
    /// fault-checked); counts every signature.
    pub fn sign_batch_rate(&self, budget: Duration, n: usize) -> Result<f64, CliError> {
        let msgs: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let mut m = self.msg.clone();
                m.extend_from_slice(&(i as u64).to_be_bytes());
                m
            })
            .collect();
        let scheme = Pkcs1v15Sign::from_hash(HashAlg::Sha256);
        let mut failed = None;
        let r = rate(budget, || {
            let digests: Vec<Vec<u8>> = std::hint::black_box(&msgs)
                .iter()
                .map(|m| HashAlg::Sha256.digest(m))
                .collect();
            let refs: Vec<&[u8]> = digests.iter().map(|d| &d[..]).collect();
            match scheme.sign_batch(Some(&mut OsRng), &self.key, &refs) {
                Ok(sigs) if sigs.len() == n => {}
                Ok(_) => failed = Some(CliError::failure("a batch returned too few signatures")),
                Err(e) => failed = Some(CliError::failure(format!("batch signing failed: {e}"))),
            }
        });
        failed.map_or(Ok(r * n as f64), Err)
    }

    /// `clients` threads signing through a [`BatchSigner`] with `threads` workers for about
    /// `budget` (full signatures as [`Subject::sign_rate`] makes them, each caller its own
    /// message): signatures per second over all callers, and every signature's latency.
    pub fn service_rate(
        &self,
        service: &Arc<BatchSigner>,
        id: KeyId,
        budget: Duration,
        clients: usize,
    ) -> Result<(f64, Vec<Duration>), CliError> {
        // The callers start together: each waits for the gate (held shut while they are
        // started), and returns at once if starting all of them failed.
        let gate = Arc::new(RwLock::new(()));
        let abort = Arc::new(AtomicBool::new(false));
        let shut = gate.write().unwrap_or_else(|e| e.into_inner());
        let mut handles = Vec::with_capacity(clients);
        let mut spawn_error = None;
        for c in 0..clients {
            let (service, gate, stop) =
                (Arc::clone(service), Arc::clone(&gate), Arc::clone(&abort));
            let mut msg = self.msg.clone();
            msg.extend_from_slice(&(c as u64).to_be_bytes());
            let spawned = std::thread::Builder::new().spawn(move || {
                drop(gate.read().unwrap_or_else(|e| e.into_inner()));
                let began = Instant::now();
                let mut lat = Vec::new();
                if stop.load(Ordering::Relaxed) {
                    return Ok((lat, began.elapsed()));
                }
                // At least one signature per caller, however short the budget.
                loop {
                    let t = Instant::now();
                    let digest = HashAlg::Sha256.digest(&msg);
                    service
                        .sign(id, Scheme::Pkcs1v15(HashAlg::Sha256), &digest)
                        .map_err(|e| format!("signing through the service failed: {e}"))?;
                    lat.push(t.elapsed());
                    if began.elapsed() >= budget {
                        break;
                    }
                }
                Ok::<_, String>((lat, began.elapsed()))
            });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    spawn_error = Some(CliError::failure(format!(
                        "cannot start service client thread {} of {clients}: {e}",
                        c + 1
                    )));
                    abort.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        drop(shut);
        let mut all = Vec::new();
        let mut longest = Duration::ZERO;
        for h in handles {
            let (lat, el) = h
                .join()
                .map_err(|_| CliError::failure("a service client thread panicked"))?
                .map_err(CliError::failure)?;
            longest = longest.max(el);
            all.extend(lat);
        }
        if let Some(e) = spawn_error {
            return Err(e);
        }
        Ok((all.len() as f64 / longest.as_secs_f64(), all))
    }

    /// A signing service holding this key: `threads` workers, default batching.
    pub fn service(&self, threads: usize) -> (Arc<BatchSigner>, KeyId) {
        let service = BatchSigner::new(ServiceConfig {
            workers: threads,
            ..ServiceConfig::default()
        });
        let id = service.add_key(self.key.clone());
        (Arc::new(service), id)
    }

    /// Full verifications per second over about `budget`.
    pub fn verify_rate(&self, budget: Duration) -> Result<f64, CliError> {
        let public = self.key.public_key();
        let mut failed = false;
        let r = rate(budget, || {
            let digest = HashAlg::Sha256.digest(std::hint::black_box(&self.msg));
            failed |= public
                .verify(Pkcs1v15Sign::from_hash(HashAlg::Sha256), &digest, &self.sig)
                .is_err();
        });
        if failed {
            return Err(CliError::failure(
                "a signature failed to verify during the benchmark",
            ));
        }
        Ok(r)
    }
}

/// Asks `openssl version` before any timing, so a missing or broken `openssl` fails at once
/// instead of after the first key generation and round; returns its first line (for example
/// `OpenSSL 3.0.19 27 Jan 2026 (Library: …)`).
pub fn openssl_version(openssl: &Path) -> Result<String, CliError> {
    let out = Command::new(openssl)
        .arg("version")
        .output()
        .map_err(|e| CliError::failure(format!("cannot run {}: {e}", openssl.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().next().map(str::trim) {
        Some(line) if out.status.success() && !line.is_empty() => Ok(line.to_string()),
        _ => Err(CliError::failure(format!(
            "`{} version` failed: is it OpenSSL?",
            openssl.display()
        ))),
    }
}

/// Runs `openssl speed` for one size and returns (sign/s, verify/s), from its `-mr` output
/// (`+F2:index:bits:sign_per_s:verify_per_s` in OpenSSL 3).
pub fn openssl_speed(
    openssl: &Path,
    bits: usize,
    primes: usize,
    seconds: u64,
) -> Result<(f64, f64), CliError> {
    openssl_speed_multi(openssl, bits, primes, seconds, 1)
}

/// [`openssl_speed`] with `multi` processes (`openssl speed -multi`): the totals of all.
pub fn openssl_speed_multi(
    openssl: &Path,
    bits: usize,
    primes: usize,
    seconds: u64,
    multi: usize,
) -> Result<(f64, f64), CliError> {
    let mut cmd = Command::new(openssl);
    cmd.args(["speed", "-mr", "-seconds", &seconds.max(1).to_string()]);
    if multi > 1 {
        cmd.args(["-multi", &multi.to_string()]);
    }
    if primes != 2 {
        cmd.args(["-primes", &primes.to_string()]);
    }
    cmd.arg(format!("rsa{bits}"));
    let out = cmd
        .output()
        .map_err(|e| CliError::failure(format!("cannot run {}: {e}", openssl.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    parse_openssl_mr(&text, bits).ok_or_else(|| {
        let err = String::from_utf8_lossy(&out.stderr);
        CliError::failure(format!(
            "could not read `openssl speed rsa{bits}` output{}",
            err.lines()
                .next()
                .map(|l| format!(": {l}"))
                .unwrap_or_default()
        ))
    })
}

/// Parses the `+F2` line of `openssl speed -mr` for `bits`.
pub fn parse_openssl_mr(text: &str, bits: usize) -> Option<(f64, f64)> {
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("+F2:") else {
            continue;
        };
        let f: Vec<&str> = rest.split(':').collect();
        if f.len() >= 4 && f[1].parse::<usize>().ok() == Some(bits) {
            let sign: f64 = f[2].parse().ok()?;
            let verify: f64 = f[3].parse().ok()?;
            if sign > 0.0 && verify > 0.0 {
                return Some((sign, verify));
            }
        }
    }
    None
}

/// The rows as `openssl speed` prints them, with OpenSSL's figures and the ratios when
/// present.
pub fn render_table(rows: &[Row]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let with_ossl = rows.iter().any(|r| r.openssl_sign_per_s.is_some());
    if with_ossl {
        let _ = writeln!(
            out,
            "{:<26} {:>10} {:>10} {:>10} {:>12} {:>13} {:>13} {:>7} {:>7}",
            "",
            "sign",
            "verify",
            "sign/s",
            "verify/s",
            "openssl sign/s",
            "openssl ver/s",
            "sign×",
            "verify×"
        );
    } else {
        let _ = writeln!(
            out,
            "{:<26} {:>10} {:>10} {:>10} {:>12}",
            "", "sign", "verify", "sign/s", "verify/s"
        );
    }
    for r in rows.iter().filter(|r| r.threads.is_none()) {
        let label = if r.batch {
            format!(
                "rsa {} bits {}p {} x{}",
                r.bits, r.primes, r.backend, r.batch_size
            )
        } else {
            format!("rsa {} bits {}p {}", r.bits, r.primes, r.backend)
        };
        let _ = write!(
            out,
            "{:<26} {:>9.6}s {:>9.6}s {:>10.1} {:>12.1}",
            label,
            1.0 / r.sign_per_s,
            1.0 / r.verify_per_s,
            r.sign_per_s,
            r.verify_per_s
        );
        if let (Some(s), Some(v), Some(sr), Some(vr)) = (
            r.openssl_sign_per_s,
            r.openssl_verify_per_s,
            r.sign_ratio,
            r.verify_ratio,
        ) {
            let _ = write!(out, " {s:>14.1} {v:>13.1} {sr:>7.2} {vr:>7.2}");
        }
        let _ = writeln!(out);
    }
    let service: Vec<&Row> = rows.iter().filter(|r| r.threads.is_some()).collect();
    if service.is_empty() {
        return out;
    }
    let _ = writeln!(out);
    let _ = write!(
        out,
        "{:<34} {:>10} {:>10} {:>10} {:>10}",
        "signing service", "sign/s", "p50", "p99", "max"
    );
    if with_ossl {
        let _ = write!(out, " {:>20} {:>7}", "openssl -multi sign/s", "sign×");
    }
    let _ = writeln!(out);
    for r in service {
        let label = format!(
            "rsa {} bits {}p {} N={} C={}",
            r.bits,
            r.primes,
            r.backend,
            r.threads.unwrap_or(0),
            r.clients.unwrap_or(0)
        );
        let _ = write!(
            out,
            "{label:<34} {:>10.1} {:>9.6}s {:>9.6}s {:>9.6}s",
            r.sign_per_s,
            r.p50_s.unwrap_or(0.0),
            r.p99_s.unwrap_or(0.0),
            r.max_s.unwrap_or(0.0)
        );
        if let (Some(s), Some(sr)) = (r.openssl_sign_per_s, r.sign_ratio) {
            let _ = write!(out, " {s:>20.1} {sr:>7.2}");
        }
        let _ = writeln!(out);
    }
    out
}

/// The `q`-quantile (0..=1) of `xs` by the nearest rank (sorts `xs`).
pub fn quantile(xs: &mut [Duration], q: f64) -> Duration {
    if xs.is_empty() {
        return Duration::ZERO;
    }
    xs.sort_unstable();
    let rank = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_openssl_machine_readable_output() {
        let text =
            "+DTP:2048:private:rsa:10\n+R1:20480:2048:10.00\n+F2:2:2048:1154.000000:38826.000000\n";
        let (s, v) = parse_openssl_mr(text, 2048).unwrap();
        assert_eq!((s, v), (1154.0, 38826.0));
        assert!(parse_openssl_mr(text, 4096).is_none());
        assert!(parse_openssl_mr("+F2:2:2048:0:0", 2048).is_none());
        // `speed -multi`: the children's lines are prefixed; the total is not.
        let multi = "Got: +F2:2:2048:4016.000000:60212.000000 from 1\n+F2:2:2048:7986.000000:121338.000000:114961.000000:8053.000000\n";
        assert_eq!(parse_openssl_mr(multi, 2048), Some((7986.0, 121338.0)));
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut xs: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        assert_eq!(quantile(&mut xs, 0.5), Duration::from_millis(50));
        assert_eq!(quantile(&mut xs, 0.99), Duration::from_millis(99));
        assert_eq!(quantile(&mut xs, 1.0), Duration::from_millis(100));
        assert_eq!(quantile(&mut [], 0.5), Duration::ZERO);
    }
}

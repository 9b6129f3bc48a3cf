//! Full TLS 1.3 handshakes per second of a rustls server whose RSA signatures are redc's,
//! against the same server signing with aws-lc-rs's RSA and with ring's.
//!
//! ```text
//! flock /tmp/redc-bench.lock taskset -c 1 \
//!     cargo run --release -p redc-rustls --example handshake_bench -- [--bits 2048] \
//!     [--key KEY.pem] [--primes 2] [--rounds 21] [--handshakes 200] [--kx default|x25519]
//! ```
//!
//! A rustls client and server in one thread, over memory (no sockets): the client writes its
//! flight into a buffer, the server reads it, and so on until both are done. Every handshake is
//! a full one (no resumption, no tickets), TLS 1.3, the certificate self-signed by the key
//! (redc made, or `--key`), the client verifying it.
//!
//! With `--primes 3` (or 4, 5) a fourth row signs with redc and a multi-prime key of the same
//! size, which aws-lc-rs and ring refuse to load: what a server gains by re-keying.
//!
//! The servers differ in their signing key only: everything else (key exchange, ciphers,
//! hashing) is aws-lc-rs's default provider in all three, so the rows compare signatures in a
//! real handshake and nothing else.
//!
//! Server time, and only it, is measured: a clock read around each server call
//! (`ServerConnection::new`, `read_tls` with `process_new_packets`, `write_tls`, and dropping
//! the connection). The client's work happens between those calls and is outside them. The
//! signing time is the time inside the server's `Signer::sign` (a wrapper around each key
//! reads the clock), so the signing share is `sign / server`. `pair hs/s` is handshakes per
//! second of wall time with the client's work included, for reference.
//!
//! The signers run in alternating rounds (redc, aws-lc-rs, ring, then starting from the
//! next one), after a discarded warm-up round; each figure is the median over the rounds. Run
//! it pinned to one core, as above.
//!
//! `--clients N` runs the concurrent form instead, not pinned (it uses every core): N threads
//! each doing handshakes back to back against one shared server config, for
//! `--seconds S` per round, signers alternating over `--rounds` rounds. The rows: redc signing
//! on the handshake's thread, redc through its auto-batching signing service
//! (`SigningKey::with_service`, one worker per core), and aws-lc-rs. Client and server share
//! the cores here (both sides of each handshake run on the same thread, over memory), so the
//! figure is full handshakes per second of the whole process; the server's share of the time
//! is reported beside it.

use std::io::Write as _;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redc::rsa::{EncodePrivateKey, MAX_BITS};
use rustls::client::Resumption;
use rustls::crypto::{aws_lc_rs, ring, CryptoProvider, KeyProvider as _, SupportedKxGroup};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::server::NoServerSessionStorage;
use rustls::sign::{CertifiedKey, Signer, SigningKey, SingleCertAndKey};
use rustls::{ClientConfig, ClientConnection, ServerConfig, ServerConnection, SignatureScheme};

const USAGE: &str = "usage: handshake_bench [--bits 2048..16384] [--key KEY.pem] \
     [--primes 2..5] [--rounds 1..1000] [--handshakes 1..1000000] [--kx default|x25519] \
     [--clients 0..1024 [--seconds S, 0 < S <= 3600]]";

/// `println!` that returns an error from the enclosing function when standard output cannot
/// be written (a closed pipe, a full disk), where `println!` would panic.
macro_rules! say {
    ($($arg:tt)*) => {
        say(format_args!($($arg)*))?
    };
}

/// A signing key as a provider loaded it.
type Loaded = Result<Arc<dyn SigningKey>, rustls::Error>;

struct Args {
    clients: usize,
    seconds: f64,
    bits: usize,
    key: Option<String>,
    primes: usize,
    rounds: usize,
    handshakes: usize,
    kx: String,
}

fn main() {
    if let Err(msg) = run() {
        // If even standard error cannot be written, there is nowhere left to say so.
        let _ = writeln!(std::io::stderr().lock(), "handshake_bench: {msg}");
        std::process::exit(1);
    }
}

/// Writes `line` and a newline to standard output and flushes it (see [`say!`]).
fn say(line: std::fmt::Arguments<'_>) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let main_key = match &args.key {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let text = String::from_utf8_lossy(&bytes);
            use redc::rsa::{DecodePrivateKey, DecodeRsaPrivateKey};
            redc::rsa::RsaPrivateKey::from_pkcs8_pem(&text)
                .or_else(|_| redc::rsa::RsaPrivateKey::from_pkcs1_pem(&text))
                .map_err(|e| format!("{path}: {e}"))?
        }
        None => redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, args.bits)
            .map_err(|e| format!("key generation: {e}"))?,
    };
    // With --primes above 2, a second row signs with redc and a multi-prime key of the same
    // size, which aws-lc-rs and ring cannot load.
    let multi_key = match args.primes {
        2 => None,
        k => Some(
            redc::rsa::RsaPrivateKey::new_multi_prime(
                &mut rand_core::OsRng,
                main_key.public_key().bits(),
                k,
            )
            .map_err(|e| format!("key generation: {e}"))?,
        ),
    };

    let base = || {
        let mut p = aws_lc_rs::default_provider();
        if args.kx == "x25519" {
            p.kx_groups = vec![aws_lc_rs::kx_group::X25519 as &dyn SupportedKxGroup];
        }
        p
    };
    let main = Identity::new(&main_key)?;
    let mut signers: Vec<(String, Loaded, &Identity)> = vec![
        (
            format!("redc {}p", main.primes),
            redc_rustls::KEY_PROVIDER.load_private_key(main.der()),
            &main,
        ),
        (
            format!("aws-lc-rs {}p", main.primes),
            aws_lc_rs::default_provider()
                .key_provider
                .load_private_key(main.der()),
            &main,
        ),
        (
            format!("ring {}p", main.primes),
            ring::default_provider()
                .key_provider
                .load_private_key(main.der()),
            &main,
        ),
    ];
    let multi = multi_key.as_ref().map(Identity::new).transpose()?;
    if let Some(multi) = &multi {
        let key = redc_rustls::KEY_PROVIDER.load_private_key(multi.der());
        signers.insert(1, (format!("redc {}p", multi.primes), key, multi));
    }
    if args.clients > 0 {
        return concurrent(&args, &main_key, &main, base);
    }
    let mut rows = Vec::new();
    for (name, key, identity) in signers {
        match key {
            Ok(key) => rows.push(Row::new(name, key, &identity.cert, base())?),
            Err(e) => say!("{name}: key refused ({e}), left out"),
        }
    }
    let mut certs = vec![main.cert.clone()];
    certs.extend(multi.iter().map(|m| m.cert.clone()));
    let client = client_config(&certs, base())?;
    let bits = main.bits;

    say!(
        "CPU: {} | redc backend: {}",
        cpu_model(),
        redc::mont::backend::Backend::active().map_or("?", |b| b.name())
    );
    // One handshake per row to learn (and check) what is negotiated.
    let mut buf = Vec::new();
    for row in &rows {
        let (_, info) = handshake(&client, &row.server, &mut buf)?;
        row.spent.store(0, Ordering::Relaxed);
        let scheme = SignatureScheme::from(row.scheme.load(Ordering::Relaxed));
        say!("{:<14} {info}, {scheme:?}", row.name);
    }
    say!(
        "RSA-{bits}, full TLS 1.3 handshakes over memory, {} rounds x {} \
         handshakes per signer, alternating, medians",
        args.rounds,
        args.handshakes
    );

    for round in 0..=args.rounds {
        for i in 0..rows.len() {
            let count = rows.len();
            let row = &mut rows[(round + i) % count];
            let m = row.round(&client, args.handshakes, &mut buf)?;
            if round > 0 {
                row.rounds.push(m);
            }
        }
    }

    let reference = rows
        .iter()
        .find(|r| r.name.starts_with("aws-lc-rs"))
        .map(|r| median(r.rounds.iter().map(|m| m.server_rate())));
    say!(
        "{:<14} {:>12} {:>10} {:>9} {:>11} {:>10} {:>14}",
        "signer",
        "server hs/s",
        "server us",
        "sign us",
        "sign share",
        "pair hs/s",
        "vs aws-lc-rs"
    );
    for row in &rows {
        let rate = median(row.rounds.iter().map(|m| m.server_rate()));
        let server_us = median(row.rounds.iter().map(|m| m.server_us()));
        let sign_us = median(row.rounds.iter().map(|m| m.sign_us()));
        let share = median(row.rounds.iter().map(|m| m.sign_share()));
        let pair = median(row.rounds.iter().map(|m| m.pair_rate()));
        let vs = reference.map_or("-".to_string(), |r| format!("{:.2}x", rate / r));
        say!(
            "{:<14} {:>12.0} {:>10.1} {:>9.1} {:>10.1}% {:>10.0} {:>14}",
            row.name,
            rate,
            server_us,
            sign_us,
            100.0 * share,
            pair,
            vs
        );
    }
    Ok(())
}

/// The concurrent form (`--clients N`): see the module documentation.
fn concurrent(
    args: &Args,
    key: &redc::rsa::RsaPrivateKey,
    identity: &Identity,
    base: impl Fn() -> CryptoProvider,
) -> Result<(), String> {
    use redc::service::{BatchSigner, ServiceConfig};
    let service = Arc::new(BatchSigner::new(ServiceConfig::default()));
    let with_service: Arc<dyn SigningKey> = Arc::new(
        redc_rustls::SigningKey::with_service(key.clone(), &service).map_err(|e| e.to_string())?,
    );
    let signers: Vec<(String, Loaded)> = vec![
        (
            "redc".into(),
            redc_rustls::KEY_PROVIDER.load_private_key(identity.der()),
        ),
        ("redc service".into(), Ok(with_service)),
        (
            "aws-lc-rs".into(),
            aws_lc_rs::default_provider()
                .key_provider
                .load_private_key(identity.der()),
        ),
    ];
    let mut rows = Vec::new();
    for (name, key) in signers {
        rows.push(Row::new(
            name,
            key.map_err(|e| e.to_string())?,
            &identity.cert,
            base(),
        )?);
    }
    let client = client_config(std::slice::from_ref(&identity.cert), base())?;
    say!(
        "CPU: {} | redc backend: {} | {} cores",
        cpu_model(),
        redc::mont::backend::Backend::active().map_or("?", |b| b.name()),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    say!(
        "RSA-{}, full TLS 1.3 handshakes over memory, {} concurrent clients, {} rounds x {:.1} s \
         per signer, alternating, medians",
        identity.bits,
        args.clients,
        args.rounds,
        args.seconds
    );
    let mut results: Vec<Vec<(f64, f64)>> = vec![Vec::new(); rows.len()];
    for round in 0..=args.rounds {
        for i in 0..rows.len() {
            let j = (round + i) % rows.len();
            let server = rows[j].server.clone();
            let (done, server_time, wall) =
                concurrent_round(&client, &server, args.clients, args.seconds)?;
            if round > 0 {
                results[j].push((
                    done as f64 / wall,
                    server_time / (wall * args.clients as f64),
                ));
            }
        }
    }
    let reference = median(results[2].iter().map(|r| r.0));
    say!(
        "{:<14} {:>10} {:>14} {:>14}",
        "signer",
        "hs/s",
        "server share",
        "vs aws-lc-rs"
    );
    for (row, r) in rows.iter().zip(&results) {
        let rate = median(r.iter().map(|x| x.0));
        let share = median(r.iter().map(|x| x.1));
        say!(
            "{:<14} {:>10.0} {:>13.1}% {:>13.2}x",
            row.name,
            rate,
            100.0 * share,
            rate / reference
        );
    }
    let stats = service.stats();
    say!(
        "service: {} requests, {} signed inline, {} batches (largest {})",
        stats.requests,
        stats.inline,
        stats.batches,
        stats.largest_batch
    );
    Ok(())
}

/// `clients` threads doing handshakes against `server` for `seconds`: handshakes done, the
/// summed server time (seconds) and the wall time.
fn concurrent_round(
    client: &Arc<ClientConfig>,
    server: &Arc<ServerConfig>,
    clients: usize,
    seconds: f64,
) -> Result<(usize, f64, f64), String> {
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|_| {
            let (client, server) = (client.clone(), server.clone());
            std::thread::spawn(move || -> Result<(usize, f64), String> {
                let (mut n, mut spent, mut buf) = (0usize, 0f64, Vec::new());
                while start.elapsed() < budget {
                    spent += handshake(&client, &server, &mut buf)?.0.as_secs_f64();
                    n += 1;
                }
                Ok((n, spent))
            })
        })
        .collect();
    let (mut done, mut server_time) = (0, 0.0);
    for h in handles {
        let (n, s) = h
            .join()
            .map_err(|_| "a client thread panicked".to_string())??;
        done += n;
        server_time += s;
    }
    Ok((done, server_time, start.elapsed().as_secs_f64()))
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        clients: 0,
        seconds: 2.0,
        bits: 2048,
        key: None,
        primes: 2,
        rounds: 21,
        handshakes: 200,
        kx: "default".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value ({USAGE})"));
        match flag.as_str() {
            "--bits" => args.bits = integer(&flag, value()?, redc_rustls::MIN_BITS, MAX_BITS)?,
            "--clients" => args.clients = integer(&flag, value()?, 0, 1024)?,
            "--seconds" => args.seconds = seconds(value()?)?,
            "--key" => args.key = Some(value()?),
            "--primes" => args.primes = integer(&flag, value()?, 2, 5)?,
            "--rounds" => args.rounds = integer(&flag, value()?, 1, 1000)?,
            "--handshakes" => args.handshakes = integer(&flag, value()?, 1, 1_000_000)?,
            "--kx" => {
                args.kx = value()?;
                if args.kx != "default" && args.kx != "x25519" {
                    return Err(format!("--kx is default or x25519 ({USAGE})"));
                }
            }
            "-h" | "--help" => {
                say!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} ({USAGE})")),
        }
    }
    Ok(args)
}

/// The value of `flag`, an integer in `min..=max`.
fn integer(flag: &str, v: String, min: usize, max: usize) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{flag} {v:?}: expected an integer from {min} to {max} ({USAGE})"
        )),
    }
}

/// The value of `--seconds`: a finite number of seconds above 0, at most an hour (what
/// `Duration::from_secs_f64` takes without panicking, and a sensible round).
fn seconds(v: String) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!(
            "--seconds {v:?}: expected a number of seconds above 0, at most 3600 ({USAGE})"
        )),
    }
}

/// A key as PKCS#8 DER and a certificate for it, self-signed by redc.
struct Identity {
    pkcs8: Vec<u8>,
    cert: CertificateDer<'static>,
    bits: usize,
    primes: usize,
}

impl Identity {
    fn new(key: &redc::rsa::RsaPrivateKey) -> Result<Identity, String> {
        let pkcs8 = key.to_pkcs8_der().map_err(|e| e.to_string())?;
        let signing = redc_rustls::SigningKey::new(key.clone()).map_err(|e| e.to_string())?;
        let cert = redc_rustls::self_signed(&signing, &["localhost"]).map_err(|e| e.to_string())?;
        Ok(Identity {
            pkcs8: pkcs8.as_bytes().to_vec(),
            cert,
            bits: signing.bits(),
            primes: signing.primes(),
        })
    }

    /// The key as rustls hands it to a key provider.
    fn der(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.pkcs8.clone()))
    }
}

/// One signer's server and its measurements.
struct Row {
    name: String,
    server: Arc<ServerConfig>,
    /// Nanoseconds spent in `Signer::sign` since last reset.
    spent: Arc<AtomicU64>,
    /// The last signature scheme used.
    scheme: Arc<AtomicU16>,
    rounds: Vec<Measure>,
}

/// One round of one signer.
struct Measure {
    handshakes: usize,
    server: Duration,
    sign: Duration,
    wall: Duration,
}

impl Measure {
    fn server_rate(&self) -> f64 {
        self.handshakes as f64 / self.server.as_secs_f64()
    }
    fn server_us(&self) -> f64 {
        self.server.as_secs_f64() * 1e6 / self.handshakes as f64
    }
    fn sign_us(&self) -> f64 {
        self.sign.as_secs_f64() * 1e6 / self.handshakes as f64
    }
    fn sign_share(&self) -> f64 {
        self.sign.as_secs_f64() / self.server.as_secs_f64()
    }
    fn pair_rate(&self) -> f64 {
        self.handshakes as f64 / self.wall.as_secs_f64()
    }
}

impl Row {
    fn new(
        name: String,
        key: Arc<dyn SigningKey>,
        cert: &CertificateDer<'static>,
        provider: CryptoProvider,
    ) -> Result<Row, String> {
        let spent = Arc::new(AtomicU64::new(0));
        let scheme = Arc::new(AtomicU16::new(0));
        let timed = Arc::new(Timed {
            inner: key,
            spent: spent.clone(),
            scheme: scheme.clone(),
        });
        let certified = CertifiedKey::new(vec![cert.clone()], timed);
        certified.keys_match().map_err(|e| format!("{name}: {e}"))?;
        let mut server = ServerConfig::builder_with_provider(Arc::new(provider))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
        server.send_tls13_tickets = 0;
        server.session_storage = Arc::new(NoServerSessionStorage {});
        Ok(Row {
            name,
            server: Arc::new(server),
            spent,
            scheme,
            rounds: Vec::new(),
        })
    }

    fn round(
        &mut self,
        client: &Arc<ClientConfig>,
        n: usize,
        buf: &mut Vec<u8>,
    ) -> Result<Measure, String> {
        self.spent.store(0, Ordering::Relaxed);
        let mut server = Duration::ZERO;
        let start = Instant::now();
        for _ in 0..n {
            server += handshake(client, &self.server, buf)?.0;
        }
        let wall = start.elapsed();
        Ok(Measure {
            handshakes: n,
            server,
            sign: Duration::from_nanos(self.spent.load(Ordering::Relaxed)),
            wall,
        })
    }
}

fn client_config(
    certs: &[CertificateDer<'static>],
    provider: CryptoProvider,
) -> Result<Arc<ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in certs {
        roots.add(cert.clone()).map_err(|e| e.to_string())?;
    }
    let mut config = ClientConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.resumption = Resumption::disabled();
    Ok(Arc::new(config))
}

/// One full handshake over memory. Returns the server's time and a description of what was
/// negotiated.
fn handshake(
    client: &Arc<ClientConfig>,
    server: &Arc<ServerConfig>,
    buf: &mut Vec<u8>,
) -> Result<(Duration, String), String> {
    let name = ServerName::try_from("localhost").map_err(|e| e.to_string())?;
    let mut c = ClientConnection::new(client.clone(), name).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let mut s = ServerConnection::new(server.clone()).map_err(|e| e.to_string())?;
    let mut spent = t.elapsed();
    for _ in 0..16 {
        // Client to server (client time, not counted), then the server reads and processes it.
        buf.clear();
        while c.wants_write() {
            c.write_tls(buf).map_err(|e| e.to_string())?;
        }
        if !buf.is_empty() {
            let t = Instant::now();
            let r = feed(buf, &mut s);
            spent += t.elapsed();
            r.map_err(|e| format!("server: {e}"))?;
        }
        // Server to client: the server writes (counted), the client reads (not).
        buf.clear();
        let t = Instant::now();
        while s.wants_write() {
            s.write_tls(buf).map_err(|e| e.to_string())?;
        }
        spent += t.elapsed();
        if !buf.is_empty() {
            feed(buf, &mut c).map_err(|e| format!("client: {e}"))?;
        }
        if !c.is_handshaking() && !s.is_handshaking() && !c.wants_write() && !s.wants_write() {
            let info = format!(
                "{:?}, {:?}, key exchange {:?}",
                s.protocol_version()
                    .unwrap_or(rustls::ProtocolVersion::Unknown(0)),
                s.negotiated_cipher_suite().map(|cs| cs.suite()),
                s.negotiated_key_exchange_group().map(|g| g.name()),
            );
            let t = Instant::now();
            drop(s);
            spent += t.elapsed();
            return Ok((spent, info));
        }
    }
    Err("the handshake did not finish".into())
}

/// Hands all of `buf` to a connection: `read_tls` until empty, processing after each read.
fn feed<D>(buf: &[u8], conn: &mut rustls::ConnectionCommon<D>) -> Result<(), String> {
    let mut rd = buf;
    while !rd.is_empty() {
        conn.read_tls(&mut rd).map_err(|e| e.to_string())?;
        conn.process_new_packets().map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The CPU's model name with its family and model numbers, from `/proc/cpuinfo`.
fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    match (field("model name"), field("cpu family"), field("model")) {
        (Some(m), Some(f), Some(n)) => format!("{m} (family {f}, model {n})"),
        (Some(m), _, _) => m,
        _ => "unknown".into(),
    }
}

/// A signing key whose signatures are timed.
#[derive(Debug)]
struct Timed {
    inner: Arc<dyn SigningKey>,
    spent: Arc<AtomicU64>,
    scheme: Arc<AtomicU16>,
}

impl SigningKey for Timed {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let inner = self.inner.choose_scheme(offered)?;
        self.scheme
            .store(u16::from(inner.scheme()), Ordering::Relaxed);
        Some(Box::new(TimedSigner {
            inner,
            spent: self.spent.clone(),
        }))
    }

    fn public_key(&self) -> Option<rustls::pki_types::SubjectPublicKeyInfoDer<'_>> {
        self.inner.public_key()
    }

    fn algorithm(&self) -> rustls::SignatureAlgorithm {
        self.inner.algorithm()
    }
}

#[derive(Debug)]
struct TimedSigner {
    inner: Box<dyn Signer>,
    spent: Arc<AtomicU64>,
}

impl Signer for TimedSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        let t = Instant::now();
        let sig = self.inner.sign(message);
        self.spent
            .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        sig
    }

    fn scheme(&self) -> SignatureScheme {
        self.inner.scheme()
    }
}

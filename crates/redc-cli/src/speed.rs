//! `redc speed`: RSA sign/s and verify/s per key size, like `openssl speed rsa` (optionally
//! racing the `openssl` on PATH in the same run), or with `--mont` the time of one Montgomery
//! multiplication for every REDC algorithm of the papers at both word sizes.
//!
//! The RSA figures come from [`crate::rsa_speed`], through the library's public API. For the
//! Montgomery table, each cell is the median of several short timed runs of a chain of products
//! (`a ← a·b·R⁻¹`, each one waiting for the last, as in an exponentiation) with a random odd
//! modulus whose top bit is set. Tables go to stdout, progress to stderr.

use std::hint::black_box;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use redc::mont::{Algorithm, Modulus};
use redc::rsa::max_primes;
use redc::rsa::{rand_core::RngCore, OsRng};
use redc::word::Word;

use crate::rsa_speed::{self, Row, Subject};
use crate::tables::machine::Machine;
use crate::tables::measure::median;
use crate::CliError;

/// The sizes the Montgomery table measures.
const MONT_BITS: [usize; 3] = [1024, 2048, 4096];

/// Timed runs per cell; the cell is their median.
const RUNS: usize = 5;

/// Alternating rounds per RSA measurement; each figure is their median.
const ROUNDS: usize = 5;

/// Arguments of `redc speed`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// RSA key sizes in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024,2048,3072,4096")]
    bits: Vec<usize>,
    /// Number of primes of each key (2, or up to 3 from 1024 bits, 4 from 4096, 5 from 8192).
    #[arg(long, default_value_t = 2)]
    primes: usize,
    /// Measuring time per figure, in seconds (0 < S <= 60); split into alternating rounds.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    seconds: Option<f64>,
    /// Print the results as JSON: {"machine": {"cpu", "cpu_family", "cpu_model", "cpu_kind",
    /// "active_backend", "openssl", ...}, "results": [{"bits", "primes", "backend",
    /// "sign_per_s", "verify_per_s", ...}]}. The CPU line also goes to standard error.
    #[arg(long)]
    json: bool,
    /// Also run `openssl speed` for the same sizes, alternately with redc, and report the ratio.
    #[arg(long)]
    vs_openssl: bool,
    /// The openssl binary to race (implies --vs-openssl; default: `openssl` on PATH).
    #[arg(long, value_name = "PATH")]
    openssl: Option<PathBuf>,
    /// Also sign in batches of N (1..=1024) through the batch API, adding a row per size with
    /// "batch": true whose sign/s counts every signature (and OpenSSL's single-operation
    /// figures for the ratio).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    batch: Option<u16>,
    /// Also sign through the signing service (`redc::service::BatchSigner`) with N worker
    /// threads (default: one per core when --clients is given), adding a row per size with
    /// sign/s over all callers and p50/p99/max latency (JSON: "threads", "clients",
    /// "sign_per_s", "p50_s", "p99_s", "max_s"); with --vs-openssl, beside `openssl speed
    /// -multi N`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Concurrent callers signing through the service (default 64 when --threads is given).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u16).range(1..=4096))]
    clients: Option<u16>,
    /// Instead of RSA, the ns per Montgomery multiplication of every algorithm and word size
    /// (takes --seconds and --json only).
    #[arg(
        long,
        conflicts_with_all = ["bits", "primes", "vs_openssl", "openssl", "batch", "threads", "clients"]
    )]
    mont: bool,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 60.0 => Ok(x),
        _ => Err("expected a number of seconds, more than 0 and at most 60".into()),
    }
}

/// Runs `redc speed`.
pub fn run(args: Args) -> Result<(), CliError> {
    if args.mont {
        let table = mont_table(&MONT_BITS, args.seconds.unwrap_or(0.3))?;
        let text = if args.json {
            serde_json::to_string_pretty(&table)
                .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))?
                + "\n"
        } else {
            table.render()
        };
        return crate::io::write_output(None, text.as_bytes(), false);
    }
    let mut machine = Machine::detect(false);
    let (rows, openssl) = rsa_rows(&args, &machine)?;
    machine.openssl = openssl;
    let text = if args.json {
        let doc = serde_json::json!({ "machine": machine, "results": rows });
        serde_json::to_string_pretty(&doc)
            .map_err(|e| CliError::failure(format!("cannot write JSON: {e}")))?
            + "\n"
    } else {
        rsa_speed::render_table(&rows)
    };
    crate::io::write_output(None, text.as_bytes(), false)
}

/// Measures every requested size, alternating with OpenSSL when asked; returns the rows and
/// the version line of the OpenSSL compared with, if any.
fn rsa_rows(args: &Args, machine: &Machine) -> Result<(Vec<Row>, Option<String>), CliError> {
    if args.bits.is_empty() {
        return Err(CliError::usage("--bits: give at least one key size"));
    }
    for &bits in &args.bits {
        if !(1024..=16384).contains(&bits) {
            return Err(CliError::usage(format!(
                "--bits: {bits} is outside 1024..=16384"
            )));
        }
        if args.primes < 2 || args.primes > max_primes(bits) {
            return Err(CliError::usage(format!(
                "--primes {} is not allowed for a {bits}-bit key (2..={})",
                args.primes,
                max_primes(bits)
            )));
        }
    }
    let backend = crate::cli_error::active_backend()?;
    eprintln!("redc speed: {}, backend {backend}", machine.cpu_line());
    let openssl = match (&args.openssl, args.vs_openssl) {
        (Some(p), _) => Some(p.clone()),
        (None, true) => Some(PathBuf::from("openssl")),
        (None, false) => None,
    };
    let mut version = None;
    if let Some(path) = &openssl {
        let v = rsa_speed::openssl_version(path)?;
        eprintln!("redc speed: comparing with {v} ({})", path.display());
        version = Some(v);
    }
    let seconds = args.seconds.unwrap_or(1.0);
    let round = Duration::from_secs_f64(seconds / ROUNDS as f64);
    let ossl_seconds = (seconds / ROUNDS as f64).ceil().max(1.0) as u64;
    let mut rows = Vec::new();
    for &bits in &args.bits {
        eprintln!(
            "redc speed: {bits}-bit {}-prime key: generating",
            args.primes
        );
        let subject = Subject::new(bits, args.primes)?;
        let (mut sign, mut verify, mut osign, mut overify) = (vec![], vec![], vec![], vec![]);
        let mut bsign = vec![];
        let service = service_shape(args).map(|(t, c)| (subject.service(t), t, c));
        let (mut ssign, mut slat, mut osign_multi) = (vec![], vec![], vec![]);
        for r in 0..ROUNDS {
            eprintln!("redc speed: {bits} bits: round {}/{ROUNDS} redc", r + 1);
            sign.push(subject.sign_rate(round)?);
            verify.push(subject.verify_rate(round)?);
            if let Some(n) = args.batch {
                eprintln!(
                    "redc speed: {bits} bits: round {}/{ROUNDS} redc, batches of {n}",
                    r + 1
                );
                bsign.push(subject.sign_batch_rate(round, n as usize)?);
            }
            if let Some(((svc, id), threads, clients)) = &service {
                eprintln!(
                    "redc speed: {bits} bits: round {}/{ROUNDS} redc service, {threads} threads, {clients} clients",
                    r + 1
                );
                let (rate, lat) = subject.service_rate(svc, *id, round, *clients)?;
                ssign.push(rate);
                slat.extend(lat);
            }
            if let Some(path) = &openssl {
                eprintln!("redc speed: {bits} bits: round {}/{ROUNDS} openssl", r + 1);
                let (s, v) = rsa_speed::openssl_speed(path, bits, args.primes, ossl_seconds)?;
                osign.push(s);
                overify.push(v);
                if let Some((_, threads, _)) = &service {
                    eprintln!(
                        "redc speed: {bits} bits: round {}/{ROUNDS} openssl -multi {threads}",
                        r + 1
                    );
                    let (s, _) = rsa_speed::openssl_speed_multi(
                        path,
                        bits,
                        args.primes,
                        ossl_seconds,
                        *threads,
                    )?;
                    osign_multi.push(s);
                }
            }
        }
        let mut row = Row {
            bits,
            primes: args.primes,
            backend: backend.name().to_string(),
            batch: false,
            batch_size: 1,
            sign_per_s: median(&mut sign),
            verify_per_s: median(&mut verify),
            openssl_sign_per_s: None,
            openssl_verify_per_s: None,
            sign_ratio: None,
            verify_ratio: None,
            threads: None,
            clients: None,
            p50_s: None,
            p99_s: None,
            max_s: None,
        };
        if openssl.is_some() {
            let (s, v) = (median(&mut osign), median(&mut overify));
            row.openssl_sign_per_s = Some(s);
            row.openssl_verify_per_s = Some(v);
            row.sign_ratio = Some(row.sign_per_s / s);
            row.verify_ratio = Some(row.verify_per_s / v);
        }
        let mut extra = Vec::new();
        if let Some(n) = args.batch {
            let mut b = row.clone();
            b.batch = true;
            b.batch_size = n as usize;
            b.sign_per_s = median(&mut bsign);
            b.sign_ratio = b.openssl_sign_per_s.map(|s| b.sign_per_s / s);
            extra.push(b);
        }
        if let Some((svc, threads, clients)) = service {
            drop(svc);
            let mut s = row.clone();
            s.threads = Some(threads);
            s.clients = Some(clients);
            s.sign_per_s = median(&mut ssign);
            s.p50_s = Some(rsa_speed::quantile(&mut slat, 0.50).as_secs_f64());
            s.p99_s = Some(rsa_speed::quantile(&mut slat, 0.99).as_secs_f64());
            s.max_s = Some(rsa_speed::quantile(&mut slat, 1.0).as_secs_f64());
            if openssl.is_some() {
                let o = median(&mut osign_multi);
                s.openssl_sign_per_s = Some(o);
                s.sign_ratio = Some(s.sign_per_s / o);
            }
            extra.push(s);
        }
        rows.push(row);
        rows.extend(extra);
    }
    Ok((rows, version))
}

/// `(threads, clients)` of the service rows, if `--threads` or `--clients` asks for them.
fn service_shape(args: &Args) -> Option<(usize, usize)> {
    if args.threads.is_none() && args.clients.is_none() {
        return None;
    }
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    Some((threads, args.clients.map_or(64, usize::from)))
}

/// Nanoseconds per Montgomery multiplication: one row per algorithm, one column per
/// (bits, word) pair.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MontTable {
    /// `(bits, word bits)` of each column.
    pub columns: Vec<(usize, u32)>,
    /// Algorithm name and its median ns per multiplication in each column.
    pub rows: Vec<(&'static str, Vec<f64>)>,
}

impl MontTable {
    /// The table as aligned text, one header line and one line per algorithm.
    pub fn render(&self) -> String {
        let mut s = format!(
            "Montgomery multiplication a*b*R^-1 mod n, ns per operation (portable kernels, median of {RUNS} runs)\n"
        );
        s.push_str(&format!("{:<14}", "algorithm"));
        for (bits, w) in &self.columns {
            s.push_str(&format!("{:>12}", format!("{bits}/w{w}")));
        }
        s.push('\n');
        for (name, cells) in &self.rows {
            s.push_str(&format!("{name:<14}"));
            for ns in cells {
                s.push_str(&format!("{ns:>12.1}"));
            }
            s.push('\n');
        }
        s
    }
}

/// Measures every [`Algorithm`] at 32- and 64-bit words for each size in `bits`, spending about
/// `seconds` per cell. Progress goes to stderr.
pub fn mont_table(bits: &[usize], seconds: f64) -> Result<MontTable, CliError> {
    let columns: Vec<(usize, u32)> = bits
        .iter()
        .flat_map(|&b| [(b, 32u32), (b, 64u32)])
        .collect();
    let cells = (columns.len() * Algorithm::ALL.len()) as u64;
    let progress = Progress::new(cells);
    let budget = Duration::from_secs_f64(seconds);
    let mut rows = Vec::new();
    for algo in Algorithm::ALL {
        let mut row = Vec::new();
        for &(b, w) in &columns {
            progress.start(&format!("{} w{w} {b} bits", algo.name()));
            let ns = match w {
                32 => time_mul::<u32>(algo, b, budget)?,
                _ => time_mul::<u64>(algo, b, budget)?,
            };
            progress.done(ns);
            row.push(ns);
        }
        rows.push((algo.name(), row));
    }
    progress.finish();
    Ok(MontTable { columns, rows })
}

/// Random bytes of a `bits`-bit number; `top` sets its top bit (and makes it odd).
fn random_bytes(bits: usize, top: bool) -> Vec<u8> {
    let mut v = vec![0u8; bits.div_ceil(8)];
    OsRng.fill_bytes(&mut v);
    let spare = v.len() * 8 - bits;
    v[0] &= 0xff >> spare;
    if top {
        v[0] |= 0x80 >> spare;
        if let Some(last) = v.last_mut() {
            *last |= 1;
        }
    }
    v
}

/// Median ns per `algo` multiplication at `bits` bits and word `W`, within about `budget`.
fn time_mul<W: Word>(algo: Algorithm, bits: usize, budget: Duration) -> Result<f64, CliError> {
    let m = Modulus::<W>::from_be_bytes(&random_bytes(bits, true))
        .map_err(|e| CliError::failure(format!("speed: {e}")))?;
    let s = m.limbs();
    // Operands of bits − 1 bits are below n (whose top bit is set).
    let operand = |x: Vec<u8>| {
        redc::nat::from_be_bytes_vec::<W>(&x, s)
            .ok_or_else(|| CliError::failure("speed: operand does not fit"))
    };
    let mut a = operand(random_bytes(bits - 1, false))?;
    let b = operand(random_bytes(bits - 1, false))?;
    let mut out = vec![W::ZERO; s];
    let mut scratch = m.scratch();
    let mul = algo.mul_fn::<W>();
    let (n, n0) = (m.n(), m.n0());
    let mut chain = |iters: u64| {
        let start = Instant::now();
        for _ in 0..iters {
            mul(
                black_box(&mut out),
                black_box(&a),
                black_box(&b),
                n,
                n0,
                &mut scratch,
            );
            core::mem::swap(&mut a, &mut out);
        }
        start.elapsed()
    };
    // Calibrate: double the count until one batch takes a measurable time.
    let mut iters = 1u64;
    let per_op = loop {
        let t = chain(iters);
        if t >= Duration::from_millis(2) || iters >= 1 << 30 {
            break t.as_secs_f64() / iters as f64;
        }
        iters *= 2;
    };
    let per_run = budget.as_secs_f64() / RUNS as f64;
    let iters = ((per_run / per_op.max(1e-12)) as u64).max(1);
    let mut samples: Vec<f64> = (0..RUNS)
        .map(|_| chain(iters).as_secs_f64() * 1e9 / iters as f64)
        .collect();
    samples.sort_by(f64::total_cmp);
    Ok(samples[RUNS / 2])
}

/// Progress on stderr: a bar on a terminal, one line per cell otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    label: std::cell::RefCell<String>,
}

impl Progress {
    fn new(len: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style =
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} (eta {eta})")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            indicatif::ProgressBar::new(len).with_style(style)
        });
        Progress {
            bar,
            label: std::cell::RefCell::new(String::new()),
        }
    }

    fn start(&self, label: &str) {
        match &self.bar {
            Some(bar) => bar.set_message(label.to_string()),
            None => *self.label.borrow_mut() = label.to_string(),
        }
    }

    fn done(&self, ns: f64) {
        match &self.bar {
            Some(bar) => bar.inc(1),
            None => eprintln!("speed: {}: {ns:.1} ns", self.label.borrow()),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

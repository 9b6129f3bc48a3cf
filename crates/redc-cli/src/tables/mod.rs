//! `redc tables`: re-measure the papers' tables on this machine and write `results.json`,
//! `report.md` and one SVG plot per table.
//!
//! Each table reproduces one published table or claim (paper numbers as in the `redc` crate's
//! References): `algorithms` (003, Tables 5–7), `redc-by-size` (002, Table 3),
//! `rsa-vs-openssl` (002, Table 4), `squaring` (004, Table 1), `crt` (004, Table 2),
//! `word-size` and `reduction` (001), `exponentiation` (002's sliding window, 004's m-ary).
//! Every value is a time per operation, the median of several timed runs (lower is better);
//! ratios are computed in the report, never stored.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::CliError;

mod kernels;
pub(crate) mod machine;
pub(crate) mod measure;
mod modexp;
mod openssl;
mod report;
mod rsa_tables;
mod svg;

pub use measure::Budget;

/// Arguments of `redc tables`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Short measurement windows and fewer repetitions (a minute or two instead of several).
    #[arg(long)]
    quick: bool,
    /// Directory for results.json, report.md and the SVG plots.
    #[arg(long, value_name = "DIR", default_value = "report")]
    out: PathBuf,
    /// Also rewrite the block between `<!-- redc tables: headline -->` and
    /// `<!-- /redc tables -->` in this Markdown file (e.g. README.md) with the headline table
    /// and the plots.
    #[arg(long, value_name = "FILE")]
    readme: Option<PathBuf>,
    /// For the test suite only: tiny sizes and windows, no OpenSSL.
    #[arg(long, hide = true)]
    smoke: bool,
    /// For development only: measure just these table ids (comma-separated).
    #[arg(long, hide = true, value_delimiter = ',')]
    only: Vec<String>,
}

/// How hard to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Test suite: one small size per table, millisecond windows.
    Smoke,
    /// `--quick`: every size, short windows.
    Quick,
    /// The default: every size, longer windows, more repetitions.
    Full,
}

impl Mode {
    /// The timing budget of one measurement.
    pub fn budget(self) -> Budget {
        let ms = Duration::from_millis;
        match self {
            Mode::Smoke => Budget {
                window: Duration::from_micros(300),
                min_reps: 3,
                max_reps: 3,
                total: ms(1),
            },
            Mode::Quick => Budget {
                window: ms(2),
                min_reps: 7,
                max_reps: 41,
                total: ms(200),
            },
            Mode::Full => Budget {
                window: ms(4),
                min_reps: 15,
                max_reps: 201,
                total: ms(1500),
            },
        }
    }

    /// `sizes` in a real run; only the smallest one or two in a smoke run.
    pub fn sizes(self, sizes: &[usize], smoke_keep: usize) -> Vec<usize> {
        match self {
            Mode::Smoke => sizes.iter().copied().take(smoke_keep).collect(),
            _ => sizes.to_vec(),
        }
    }
}

/// What every table measurement is handed.
pub struct Ctx {
    /// Smoke, quick or full.
    pub mode: Mode,
    /// The timing budget of one measurement.
    pub budget: Budget,
    /// The progress bar on stderr.
    pub progress: ProgressBar,
}

impl Ctx {
    /// Announces the next measurement.
    pub fn step(&self, what: impl Into<String>) {
        self.progress.set_message(what.into());
    }
    /// Marks one measurement done.
    pub fn done(&self) {
        self.progress.inc(1);
    }
}

/// One measured value and the keys that say what was measured. Only the keys that fit the
/// table are present in the JSON.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    /// Modulus (key) size in bits.
    pub bits: usize,
    /// REDC algorithm (`algorithms`), or a fast backend's kernel name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<String>,
    /// Word size in bits (32 or 64).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub word: Option<u32>,
    /// Squaring variant (`squaring`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Reduction or exponentiation method.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Number of primes (1 = without CRT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primes: Option<usize>,
    /// Fast backend name (rows of `algorithms` measured through a backend).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// `redc` or `openssl` (`rsa-vs-openssl`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implementation: Option<String>,
    /// Time per operation in the table's unit.
    pub value: f64,
}

impl Row {
    /// A row of `bits` bits with time `value`.
    pub fn new(bits: usize, value: f64) -> Self {
        Row {
            bits,
            value: clean(value),
            ..Row::default()
        }
    }
}

/// Six significant digits, and strictly positive (a timer tick can round an op to zero).
fn clean(v: f64) -> f64 {
    if !v.is_finite() || v <= 0.0 {
        return 1e-6;
    }
    let mag = 10f64.powi(5 - v.log10().floor() as i32);
    ((v * mag).round() / mag).max(1e-6)
}

/// One table of `results.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// The table id (`algorithms`, `crt`, ...).
    pub id: &'static str,
    /// What is measured, in a line.
    pub title: String,
    /// The paper and table it reproduces.
    pub paper: String,
    /// Unit of every `value` (`ns` or `us`).
    pub unit: &'static str,
    /// The measurements.
    pub rows: Vec<Row>,
    /// How it was measured and anything skipped; goes to the report only.
    #[serde(skip)]
    pub notes: Vec<String>,
}

impl Table {
    fn new(id: &'static str, title: &str, paper: &str, unit: &'static str) -> Self {
        Table {
            id,
            title: title.to_string(),
            paper: paper.to_string(),
            unit,
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// The whole of `results.json`.
#[derive(Debug, Serialize)]
pub struct Results {
    /// Where it ran.
    pub machine: machine::Machine,
    /// The command line that produced it.
    pub command: String,
    /// Every table, in report order.
    pub tables: Vec<Table>,
}

/// The table ids, in report order.
pub const IDS: [&str; 8] = [
    "algorithms",
    "redc-by-size",
    "rsa-vs-openssl",
    "squaring",
    "crt",
    "word-size",
    "reduction",
    "exponentiation",
];

/// Runs `redc tables`.
pub fn run(args: Args) -> Result<(), CliError> {
    for id in &args.only {
        if !IDS.contains(&id.as_str()) {
            return Err(CliError::usage(format!("tables: unknown table id '{id}'")));
        }
    }
    let mode = if args.smoke {
        Mode::Smoke
    } else if args.quick {
        Mode::Quick
    } else {
        Mode::Full
    };
    let wanted = |id: &str| args.only.is_empty() || args.only.iter().any(|o| o == id);
    // A README that cannot take the block fails now, not after the measurements.
    if let Some(readme) = &args.readme {
        let text = fs::read_to_string(readme)
            .map_err(|e| CliError::failure(format!("tables: {}: {e}", readme.display())))?;
        readme_block(&text)
            .map_err(|e| CliError::failure(format!("tables: {}: {e}", readme.display())))?;
    }
    fs::create_dir_all(&args.out)
        .map_err(|e| CliError::failure(format!("tables: {}: {e}", args.out.display())))?;

    let use_openssl = mode != Mode::Smoke && wanted("rsa-vs-openssl");
    let machine = machine::Machine::detect(use_openssl);
    let command = command_line();

    let total: u64 = IDS
        .iter()
        .filter(|id| wanted(id))
        .map(|id| planned(id, mode, machine.openssl.is_some()))
        .sum();
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:32}] {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let ctx = Ctx {
        mode,
        budget: mode.budget(),
        progress,
    };
    let started = Instant::now();

    let mut keys = rsa_tables::Keys::default();
    let mut tables = Vec::new();
    for id in IDS.iter().filter(|id| wanted(id)) {
        let t = match *id {
            "algorithms" => kernels::algorithms(&ctx),
            "redc-by-size" => kernels::redc_by_size(&ctx),
            "rsa-vs-openssl" => rsa_vs_openssl(&ctx, &mut keys, machine.openssl.is_some()),
            "squaring" => kernels::squaring(&ctx),
            "crt" => crt(&ctx, &mut keys),
            "word-size" => modexp::word_size(&ctx),
            "reduction" => modexp::reduction(&ctx),
            _ => modexp::exponentiation(&ctx),
        };
        tables.push(t.map_err(|e| CliError::failure(format!("tables: {id}: {e}")))?);
    }
    ctx.progress.finish_and_clear();

    let results = Results {
        machine,
        command,
        tables,
    };
    write_all(&args.out, &results, ctx.budget, mode, started.elapsed())?;
    if let Some(readme) = &args.readme {
        update_readme(readme, &args.out, &results)?;
    }
    eprintln!(
        "redc tables: {} tables in {:.0} s; wrote {}",
        results.tables.len(),
        started.elapsed().as_secs_f64(),
        args.out.join("report.md").display()
    );
    Ok(())
}

/// The marker lines of the README block that [`update_readme`] rewrites.
const README_START: &str = "<!-- redc tables: headline -->";
const README_END: &str = "<!-- /redc tables -->";

/// Replaces the marked block of `readme` with the headline table (its links pointing into
/// `out/report.md`) and every plot, so the README shows measured figures without anyone
/// typing them in.
fn update_readme(
    readme: &std::path::Path,
    out: &std::path::Path,
    results: &Results,
) -> Result<(), CliError> {
    let fail =
        |e: &dyn std::fmt::Display| CliError::failure(format!("tables: {}: {e}", readme.display()));
    let text = fs::read_to_string(readme).map_err(|e| fail(&e))?;
    let (a, b) = readme_block(&text).map_err(|e| fail(&e))?;
    let dir = out.display().to_string();
    let table = report::headline(results)
        .replace("## Headline\n\n", "")
        .replace("](#", &format!("]({dir}/report.md#"));
    let mut block = format!("{README_START}\n{table}");
    for t in &results.tables {
        block.push_str(&format!("![{0}]({dir}/{0}.svg)\n", t.id));
    }
    let new = format!("{}{block}{}", &text[..a], &text[b..]);
    fs::write(readme, new).map_err(|e| fail(&e))
}

/// Where the marked block of a README's `text` starts and ends (the byte offsets of its start
/// and end markers), or what is wrong with it.
fn readme_block(text: &str) -> Result<(usize, usize), String> {
    let (Some(a), Some(b)) = (text.find(README_START), text.find(README_END)) else {
        return Err(format!("no `{README_START}` … `{README_END}` block"));
    };
    if b < a {
        return Err("the end marker comes before the start marker".into());
    }
    Ok((a, b))
}

/// How many progress steps table `id` will take.
fn planned(id: &str, mode: Mode, openssl: bool) -> u64 {
    let n = match id {
        "algorithms" => kernels::planned_algorithms(mode),
        "redc-by-size" => kernels::planned_redc(mode),
        "rsa-vs-openssl" => rsa_sizes(mode).len() * if openssl { 2 } else { 1 },
        "squaring" => kernels::planned_squaring(mode),
        "crt" => crt_plan(mode).len(),
        "word-size" => modexp::planned_word_size(mode),
        "reduction" => modexp::planned_reduction(mode),
        _ => modexp::planned_exponentiation(mode),
    };
    n as u64
}

/// Key sizes of `rsa-vs-openssl` (paper 002, Table 4 from 1024 bits up).
fn rsa_sizes(mode: Mode) -> Vec<usize> {
    mode.sizes(&[1024, 2048, 3072, 4096], 1)
}

/// `(bits, primes)` of `crt` (paper 004, Table 2): without CRT, 2 and 3 primes, and 4 primes
/// at 4096 bits (OpenSSL's limit: 4 primes from 4096 bits).
fn crt_plan(mode: Mode) -> Vec<(usize, usize)> {
    let mut plan = Vec::new();
    for bits in mode.sizes(&[1024, 2048, 3072, 4096], 1) {
        let max = if bits >= 4096 { 4 } else { 3 };
        for primes in 1..=max {
            plan.push((bits, primes));
        }
    }
    plan
}

/// `rsa-vs-openssl`: the CRT private operation of redc against `openssl speed`.
fn rsa_vs_openssl(ctx: &Ctx, keys: &mut rsa_tables::Keys, openssl: bool) -> Result<Table, String> {
    let mut t = Table::new(
        "rsa-vs-openssl",
        "RSA CRT decryption (raw private operation, 2 primes): redc against OpenSSL",
        report::PAPER_002_T4,
        "us",
    );
    let sizes = rsa_sizes(ctx.mode);
    for &bits in &sizes {
        ctx.step(format!("rsa-vs-openssl: redc {bits}-bit CRT private op"));
        match rsa_tables::private_op_us(ctx, keys, bits, 2) {
            Ok(us) => t.rows.push(Row {
                implementation: Some("redc".into()),
                ..Row::new(bits, us)
            }),
            Err(e) => {
                let note = format!("redc rows not measured: {e}");
                if !t.notes.contains(&note) {
                    t.notes.push(note);
                }
            }
        }
        ctx.done();
    }
    if openssl {
        for &bits in &sizes {
            ctx.step(format!("rsa-vs-openssl: openssl speed rsa{bits}"));
            match openssl::sign_us(bits) {
                Ok(us) => t.rows.push(Row {
                    implementation: Some("openssl".into()),
                    ..Row::new(bits, us)
                }),
                Err(e) => t.notes.push(format!("openssl rsa{bits} not measured: {e}")),
            }
            ctx.done();
        }
    } else {
        t.notes.push(if ctx.mode == Mode::Smoke {
            "OpenSSL not run (smoke run).".to_string()
        } else {
            "`openssl` is not installed: only redc rows.".to_string()
        });
    }
    Ok(t)
}

/// `crt`: signing (raw private operation) without CRT and with 2, 3 (and 4) primes.
fn crt(ctx: &Ctx, keys: &mut rsa_tables::Keys) -> Result<Table, String> {
    let mut t = Table::new(
        "crt",
        "RSA signing (raw private operation) without CRT (primes = 1) and with 2, 3 and 4 primes",
        report::PAPER_004_T2,
        "us",
    );
    for (bits, primes) in crt_plan(ctx.mode) {
        ctx.step(format!("crt: {bits}-bit, {primes} prime(s)"));
        match rsa_tables::private_op_us(ctx, keys, bits, primes) {
            Ok(us) => t.rows.push(Row {
                primes: Some(primes),
                ..Row::new(bits, us)
            }),
            Err(e) => {
                let note = format!("not measured: {e}");
                if !t.notes.contains(&note) {
                    t.notes.push(note);
                }
            }
        }
        ctx.done();
    }
    Ok(t)
}

/// `redc tables ...` as typed, with the program name shortened to `redc`.
fn command_line() -> String {
    let mut parts = vec!["redc".to_string()];
    parts.extend(std::env::args().skip(1).map(|a| {
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
            format!("'{}'", a.replace('\'', r"'\''"))
        } else {
            a
        }
    }));
    parts.join(" ")
}

/// Writes results.json, report.md and the SVG plots into `dir`.
fn write_all(
    dir: &std::path::Path,
    results: &Results,
    budget: Budget,
    mode: Mode,
    elapsed: Duration,
) -> Result<(), CliError> {
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        fs::write(&path, text)
            .map_err(|e| CliError::failure(format!("tables: {}: {e}", path.display())))
    };
    let json = serde_json::to_string_pretty(results)
        .map_err(|e| CliError::failure(format!("tables: results.json: {e}")))?;
    write("results.json", &(json + "\n"))?;
    for t in &results.tables {
        write(&format!("{}.svg", t.id), &report::plot(t))?;
    }
    write(
        "report.md",
        &report::markdown(results, budget, mode, elapsed),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_keeps_six_digits_and_positivity() {
        assert_eq!(clean(123.456_789), 123.457);
        assert_eq!(clean(0.000_123_456_78), 0.000_123_457);
        assert!(clean(0.0) > 0.0);
        assert!(clean(f64::NAN) > 0.0);
    }

    #[test]
    fn crt_plan_has_four_primes_only_at_4096() {
        let plan = crt_plan(Mode::Quick);
        assert_eq!(plan.len(), 3 + 3 + 3 + 4);
        assert!(plan.contains(&(4096, 4)));
        assert!(!plan.contains(&(3072, 4)));
    }
}

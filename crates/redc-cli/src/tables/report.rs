//! `report.md` and the plots: our figures beside the papers' published ones, and what they say.
//!
//! The papers' figures below are copied from the papers' published tables (papers 001 to 004,
//! listed in the `redc` crate's References); where the available text of a table is garbled
//! or lost, the report says so instead of guessing.

use std::fmt::Write;
use std::time::Duration;

use super::svg::{self, Bar, Panel, Series};
use super::{Budget, Mode, Results, Row, Table};

/// Paper 001.
pub const PAPER_001: &str =
    "001: MIPS Technologies, \"64-Bit Architecture Speeds RSA By 4x\" (2002)";
/// Paper 002, Table 3.
pub const PAPER_002_T3: &str =
    "002: Furukawa, Takenaka, Itoh, \"A Fast RSA Implementation on Itanium 2 Processor\", Table 3";
/// Paper 002, Table 4.
pub const PAPER_002_T4: &str =
    "002: Furukawa, Takenaka, Itoh, \"A Fast RSA Implementation on Itanium 2 Processor\", Table 4";
/// Paper 003, Tables 5–7.
pub const PAPER_003: &str = "003: Çelebi, Gözütok, Ertaul, \"Implementations of Montgomery Multiplication Algorithms in Machine Languages\", Tables 5–7";
/// Paper 004, Table 1.
pub const PAPER_004_T1: &str = "004: Krishnamurthy, Tang, Xu, Wang, \"An Efficient Implementation of Multi-Prime RSA on DSP Processor\", Table 1";
/// Paper 004, Table 2.
pub const PAPER_004_T2: &str = "004: Krishnamurthy, Tang, Xu, Wang, \"An Efficient Implementation of Multi-Prime RSA on DSP Processor\", Table 2";
/// The exponentiation methods' sources.
pub const PAPER_EXP: &str =
    "001 (binary ModExp), 004 (m-ary, m = 16), 002 (sliding window of 5 bits)";

/// Paper 002, Table 3: µs per REDC on Itanium 2 at 900 MHz.
const P002_T3: [(usize, f64); 6] = [
    (512, 0.62),
    (768, 1.15),
    (1024, 1.81),
    (2048, 5.88),
    (3072, 12.24),
    (4096, 20.87),
];
/// Paper 002, Table 4: (bits, Intel IPP µs, theirs µs, ratio) for CRT decryption.
const P002_T4: [(usize, f64, f64, f64); 6] = [
    (512, 313.0, 237.0, 1.32),
    (768, 659.0, 512.0, 1.28),
    (1024, 1_099.0, 917.0, 1.19),
    (2048, 5_984.0, 4_759.0, 1.25),
    (3072, 44_383.0, 14_277.0, 3.10),
    (4096, 95_482.0, 30_829.0, 3.09),
];
/// Paper 004, Table 1: (method, redc variant, 1024, 512, 352) as printed, unit not stated.
const P004_T1: [(&str, &str, f64, f64, f64); 5] = [
    (
        "Prev. method in [11] (Itoh et al., Fig. 1)",
        "generic",
        6262.0,
        1838.0,
        1001.0,
    ),
    (
        "Prev. method in [10] (Koç et al., Fig. 2)",
        "koc",
        6974.0,
        2090.0,
        1146.0,
    ),
    ("Improved (SR), Fig. 3", "improved", 6220.0, 1828.0, 980.0),
    (
        "SR with merged outer loop, Fig. 4",
        "merged",
        6026.0,
        1733.0,
        942.0,
    ),
    (
        "SR with coupled inner loops, Fig. 5",
        "coupled",
        5561.0,
        1625.0,
        867.0,
    ),
];

// ---------------------------------------------------------------------------------------------
// Looking rows up.

fn get(t: &Table, f: impl Fn(&Row) -> bool) -> Option<f64> {
    t.rows.iter().find(|r| f(r)).map(|r| r.value)
}

fn sizes(t: &Table) -> Vec<usize> {
    let mut v: Vec<usize> = t.rows.iter().map(|r| r.bits).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// `want` if measured, else the largest measured size.
fn size_or_largest(t: &Table, want: usize) -> Option<usize> {
    let s = sizes(t);
    if s.contains(&want) {
        Some(want)
    } else {
        s.last().copied()
    }
}

fn is(o: &Option<String>, v: &str) -> bool {
    o.as_deref() == Some(v)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn times(x: f64) -> String {
    if x >= 0.1 {
        format!("{x:.2}×")
    } else {
        format!("{}×", svg::num(x))
    }
}

/// `µs` for `us`.
fn unit(u: &str) -> &str {
    if u == "us" {
        "µs"
    } else {
        u
    }
}

/// A markdown table: one line per series (first-appearance order), one column per size.
fn pivot(t: &Table, head: &str, label: impl Fn(&Row) -> String) -> String {
    let cols = sizes(t);
    let mut series: Vec<String> = Vec::new();
    for r in &t.rows {
        let l = label(r);
        if !series.contains(&l) {
            series.push(l);
        }
    }
    let mut s = format!("| {head} |");
    for c in &cols {
        let _ = write!(s, " {c} bits |");
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(cols.len()));
    s.push('\n');
    for l in &series {
        let _ = write!(s, "| {l} |");
        for &c in &cols {
            match t.rows.iter().find(|r| r.bits == c && label(r) == *l) {
                Some(r) => {
                    let _ = write!(s, " {} |", svg::num(r.value));
                }
                None => s.push_str(" — |"),
            }
        }
        s.push('\n');
    }
    s
}

// ---------------------------------------------------------------------------------------------
// The report.

/// The whole `report.md`.
pub fn markdown(res: &Results, budget: Budget, mode: Mode, elapsed: Duration) -> String {
    let mut s = String::new();
    let m = &res.machine;
    let _ = writeln!(s, "# redc: the papers' tables, measured on this machine\n");
    let _ = writeln!(
        s,
        "Generated by `{}`: every figure below (and in `results.json` and the `*.svg` plots next to this file) was measured by that command; rerun it to regenerate them. Do not edit by hand.\n",
        res.command
    );
    let _ = writeln!(s, "- Machine: {}", m.summary());
    let _ = writeln!(
        s,
        "- redc backends available: {}; active: {}",
        m.backends.join(", "),
        m.active_backend
    );
    let _ = writeln!(
        s,
        "- OpenSSL: {}",
        m.openssl
            .as_deref()
            .unwrap_or("not used (not installed, or a smoke run)")
    );
    let _ = writeln!(
        s,
        "- Method: each figure is the median of {}–{} timed runs (as many as fit in about {} ms) of about {} ms each, or of one call for slower operations (std::time::Instant, inputs and outputs through std::hint::black_box); {} run, {:.0} s in all. Lower is better everywhere; ratios are computed here, not stored.",
        budget.min_reps,
        budget.max_reps,
        budget.total.as_millis(),
        budget.window.as_secs_f64() * 1000.0,
        match mode {
            Mode::Smoke => "smoke (test-suite)",
            Mode::Quick => "`--quick`",
            Mode::Full => "full",
        },
        elapsed.as_secs_f64()
    );
    let figures = super::measure::FIGURES.load(std::sync::atomic::Ordering::Relaxed);
    let fallbacks = super::measure::ON_CPU_FALLBACKS.load(std::sync::atomic::Ordering::Relaxed);
    let _ = writeln!(
        s,
        "- Other processes: on Linux each timed run also reads the thread's run-queue wait (`/proc/thread-self/schedstat`); runs interrupted by another process are dropped and the median is taken over the undisturbed ones. {}\n",
        if fallbacks == 0 {
            format!("All {figures} figures had enough undisturbed runs.")
        } else {
            format!("{fallbacks} of {figures} figures had too few undisturbed runs (a loaded machine, or operations longer than a scheduler time slice) and give instead the median time on the CPU, wall-clock time minus run-queue wait; those are less exact.")
        }
    );
    let _ = writeln!(
        s,
        "Papers (OCR text in the project's `papers/` folder): 001 MIPS Technologies, *64-Bit Architecture Speeds RSA By 4x*; 002 Furukawa, Takenaka, Itoh, *A Fast RSA Implementation on Itanium 2 Processor*; 003 Çelebi, Gözütok, Ertaul, *Implementations of Montgomery Multiplication Algorithms in Machine Languages*; 004 Krishnamurthy, Tang, Xu, Wang, *An Efficient Implementation of Multi-Prime RSA on DSP Processor*.\n"
    );
    s.push_str(&headline(res));
    for t in &res.tables {
        let _ = writeln!(s, "## {}\n", t.id);
        let _ = writeln!(s, "**{}**\n", t.title);
        let _ = writeln!(s, "- Reproduces: paper {}", t.paper);
        let _ = writeln!(s, "- Command: `{}`", res.command);
        let _ = writeln!(s, "- Machine: {}", m.summary());
        let _ = writeln!(
            s,
            "- Unit: {} per operation (lower is better)",
            unit(t.unit)
        );
        for n in &t.notes {
            let _ = writeln!(s, "- Note: {n}");
        }
        s.push('\n');
        let body = match t.id {
            "algorithms" => algorithms(t),
            "redc-by-size" => redc_by_size(t),
            "rsa-vs-openssl" => rsa_vs_openssl(t),
            "squaring" => squaring(t),
            "crt" => crt(t),
            "word-size" => word_size(t),
            "reduction" => reduction(t),
            _ => exponentiation(t),
        };
        s.push_str(&body);
        let _ = writeln!(s, "\n![{id}]({id}.svg)\n", id = t.id);
    }
    s
}

fn find<'a>(res: &'a Results, id: &str) -> Option<&'a Table> {
    res.tables.iter().find(|t| t.id == id && !t.rows.is_empty())
}

/// One line per table: the figure that carries its story, ours beside the paper's.
/// The headline table (`## Headline` and one row per table), or nothing if no table has data.
pub(crate) fn headline(res: &Results) -> String {
    let mut lines: Vec<[String; 4]> = Vec::new();
    if let Some(t) = find(res, "algorithms") {
        if let Some(b) = size_or_largest(t, 2048) {
            if let Some((lo, hi, _, _)) = spread(t, b, 32, &KOC5) {
                lines.push([
                    "algorithms".into(),
                    format!("slowest ÷ fastest of SOS, CIOS, FIOS, FIPS, CIHS ({b} bits, 32-bit words)"),
                    times(hi / lo),
                    "1.04× (UltraSparc-II), 1.05× (Pentium-II, optimised), 1.08× (Pentium-120, first approach); 2048 bits".into(),
                ]);
            }
        }
    }
    if let Some(t) = find(res, "redc-by-size") {
        if let Some(b) = size_or_largest(t, 4096) {
            if let Some(v) = get(t, |r| r.bits == b) {
                let paper = P002_T3
                    .iter()
                    .find(|p| p.0 == b)
                    .map_or("—".to_string(), |p| {
                        format!("{} µs (Itanium 2, 900 MHz)", p.1)
                    });
                lines.push([
                    "redc-by-size".into(),
                    format!("one {b}-bit REDC"),
                    format!("{} µs", svg::num(v)),
                    paper,
                ]);
            }
        }
    }
    if let Some(t) = find(res, "rsa-vs-openssl") {
        let b = size_or_largest(t, 2048).unwrap_or(2048);
        let r = get(t, |r| r.bits == b && is(&r.implementation, "redc"));
        let o = get(t, |r| r.bits == b && is(&r.implementation, "openssl"));
        if let (Some(r), Some(o)) = (r, o) {
            lines.push([
                "rsa-vs-openssl".into(),
                format!("{b}-bit CRT decryption: redc time ÷ OpenSSL time"),
                times(r / o),
                "0.80 (theirs ÷ Intel IPP at 2048 bits; 0.32 at 3072–4096)".into(),
            ]);
        }
    }
    if let Some(t) = find(res, "squaring") {
        if let Some(b) = size_or_largest(t, 1024) {
            if let Some((name, save)) = best_saving(t, b) {
                lines.push([
                    "squaring".into(),
                    format!("time saved by the best squaring ({name}) over generic, {b} bits"),
                    pct(save),
                    "11.2% (coupled, 1024 bits; 13.4% at 352 bits), TMS320C6201 DSP".into(),
                ]);
            }
        }
    }
    if let Some(t) = find(res, "crt") {
        if let Some(b) = size_or_largest(t, 1024) {
            let p = |k: usize| get(t, |r| r.bits == b && r.primes == Some(k));
            if let (Some(p1), Some(p2), Some(p3)) = (p(1), p(2), p(3)) {
                lines.push([
                    "crt".into(),
                    format!("{b}-bit signing: non-CRT ÷ 2-prime, 2-prime ÷ 3-prime"),
                    format!("{}, {}", times(p1 / p2), times(p2 / p3)),
                    "3.44×, 1.75× (1024 bits, coupled SR, DSP)".into(),
                ]);
            }
        }
    }
    if let Some(t) = find(res, "word-size") {
        if let Some(b) = size_or_largest(t, 1024) {
            let w = |k: u32| get(t, |r| r.bits == b && r.word == Some(k));
            if let (Some(a), Some(c)) = (w(32), w(64)) {
                lines.push([
                    "word-size".into(),
                    format!("{b}-bit modexp: 32-bit ÷ 64-bit words"),
                    times(a / c),
                    "4× in theory; 3.5× (MIPS 5Kc), 4× (20Kc)".into(),
                ]);
            }
        }
    }
    if let Some(t) = find(res, "reduction") {
        if let Some(b) = size_or_largest(t, 1024) {
            let m = |k: &str| get(t, |r| r.bits == b && is(&r.method, k));
            if let (Some(mo), Some(cl)) = (m("montgomery"), m("classical")) {
                lines.push([
                    "reduction".into(),
                    format!("{b}-bit modexp: classical ÷ Montgomery"),
                    times(cl / mo),
                    "about 2× (against RSAREF, MIPS32)".into(),
                ]);
            }
        }
    }
    if let Some(t) = find(res, "exponentiation") {
        if let Some(b) = size_or_largest(t, 2048) {
            let m = |k: &str| get(t, |r| r.bits == b && is(&r.method, k));
            if let (Some(bi), Some(sl), Some(fx)) = (m("binary"), m("sliding:5"), m("fixed:5")) {
                lines.push([
                    "exponentiation".into(),
                    format!("{b}-bit: sliding:5 ÷ binary, fixed:5 ÷ sliding:5"),
                    format!("{}, {}", times(sl / bi), times(fx / sl)),
                    "no published timing (002 uses sliding:5, 004 m-ary 16)".into(),
                ]);
            }
        }
    }
    if lines.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "## Headline\n\n| table | figure | this machine | paper |\n|---|---|---:|---|\n",
    );
    for l in lines {
        let _ = writeln!(
            s,
            "| [{0}](#{0}) | {1} | {2} | {3} |",
            l[0], l[1], l[2], l[3]
        );
    }
    s.push('\n');
    s
}

// ---------------------------------------------------------------------------------------------
// algorithms (paper 003, Tables 5–7; 002 for Itoh's).

const KOC5: [&str; 5] = ["sos", "cios", "fios", "fips", "cihs"];

/// (fastest value, slowest value, fastest name, slowest name) among `names` at (bits, word).
fn spread(t: &Table, bits: usize, word: u32, names: &[&str]) -> Option<(f64, f64, String, String)> {
    let v: Vec<(&str, f64)> = names
        .iter()
        .filter_map(|&n| {
            get(t, |r| {
                r.bits == bits && r.word == Some(word) && r.backend.is_none() && is(&r.algorithm, n)
            })
            .map(|x| (n, x))
        })
        .collect();
    let lo = v.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let hi = v.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((lo.1, hi.1, lo.0.to_string(), hi.0.to_string()))
}

fn algorithms(t: &Table) -> String {
    let mut s = pivot(t, "algorithm / word", |r| match &r.backend {
        Some(b) => format!(
            "{} (backend {b}, 64-bit)",
            r.algorithm.as_deref().unwrap_or("?")
        ),
        None => format!(
            "{} / {}",
            r.algorithm.as_deref().unwrap_or("?"),
            r.word.unwrap_or(0)
        ),
    });
    s.push_str(
        "\nPaper 003's figures (2048-bit modulus, s = 64 words of 32 bits, hand-written assembly; each figure is the time the authors' RSA program took on a 3 KB file run over 1000 times — not the time of one Montgomery multiplication, so only the *relative* spread between algorithms compares with ours):\n\n\
| algorithm | Pentium-120, Win95, approach I | approach II | Pentium-II 266, Win98, I | II | WinNT, I | II | UltraSparc-II 250, Solaris |\n\
|---|---:|---:|---:|---:|---:|---:|---:|\n\
| sos | 106 ms | 95 ms | 46 ms | 45 ms | 46 ms | 44 ms | 11.19 ms |\n\
| cios | 98 ms | 97 ms | 45 ms | 45 ms | 44 ms | 44 ms | 11.36 ms |\n\
| fios | 105 ms | 100 ms | 48 ms | 46 ms | 47 ms | 45 ms | 11.49 ms |\n\
| fips | 101 ms | 97 ms | 45 ms | 44 ms | 44 ms | 44 ms | 11.58 ms |\n\
| cihs | 104 ms | 97 ms | 47 ms | 45 ms | 46 ms | 44 ms | 11.20 ms |\n\n\
Itoh's algorithm and its enhanced form are not in paper 003; they come from paper 002 (designed for the in-order Itanium 2 pipeline).\n\n",
    );
    s.push_str("What it shows:\n\n");
    for b in sizes(t) {
        for w in [32u32, 64] {
            if let Some((lo, hi, ln, hn)) = spread(t, b, w, &KOC5) {
                let _ = writeln!(
                    s,
                    "- {b} bits, {w}-bit words: the five Koç algorithms span {} (fastest {ln}, slowest {hn}).",
                    times(hi / lo)
                );
            }
        }
    }
    let growth = |a: &str| {
        let pts: Vec<(f64, f64)> = t
            .rows
            .iter()
            .filter(|r| r.word == Some(64) && r.backend.is_none() && is(&r.algorithm, a))
            .map(|r| (r.bits as f64, r.value))
            .collect();
        svg::loglog_slope(&pts)
    };
    if let (Some(kf), Some(kc)) = (growth("fios"), growth("cios")) {
        let _ = writeln!(
            s,
            "- Growth with the modulus size (64-bit words): FIOS ∝ bits^{kf:.2}, CIOS ∝ bits^{kc:.2}. FIOS is written as in Koç et al. and paper 003, pushing each carry into the rest of `t` with `ADD`; a constant-time `ADD` must always run to the end of `t`, which makes FIOS Θ(s³) in word additions where the others are Θ(s²) — so its distance from the others grows with the size. This is the weakness Itoh's second carry chain (paper 002) removes."
        );
    }
    if let Some(b) = size_or_largest(t, 2048) {
        let others: Vec<&str> = KOC5.iter().copied().filter(|a| *a != "fios").collect();
        if let Some((lo, hi, ln, hn)) = spread(t, b, 32, &others) {
            let _ = writeln!(
                s,
                "- Without FIOS, at {b} bits with 32-bit words, SOS, CIOS, FIPS and CIHS span {} (fastest {ln}, slowest {hn}).",
                times(hi / lo)
            );
        }
        if let Some((lo, hi, _, _)) = spread(t, b, 32, &others) {
            let r = hi / lo;
            let _ = writeln!(
                s,
                "- Against the paper: paper 003 found the five algorithms within 4–8% of each other (1.04× on the UltraSparc-II, 1.05× on the optimised Pentium-II code), and concluded that on newer processors their differences disappear. {}",
                if r <= 1.10 {
                    format!("Here, at {b} bits with 32-bit words, the four Θ(s²) ones span {}: today's out-of-order core tells the same story.", times(r))
                } else {
                    format!("Here, at {b} bits with 32-bit words, the four Θ(s²) ones span {}: compiled, portable Rust on today's core does not erase the differences the way the authors' hand-scheduled assembly did — how well the compiler keeps each loop's carries in registers matters more than the operation counts.", times(r))
                }
            );
        }
        let w64 = |a: &str| {
            get(t, |r| {
                r.bits == b && r.word == Some(64) && r.backend.is_none() && is(&r.algorithm, a)
            })
        };
        let w32 = |a: &str| {
            get(t, |r| {
                r.bits == b && r.word == Some(32) && r.backend.is_none() && is(&r.algorithm, a)
            })
        };
        if let (Some(i), Some(e)) = (w64("itoh"), w64("itoh-enhanced")) {
            let _ = writeln!(
                s,
                "- Itoh against enhanced Itoh ({b} bits, 64-bit words): enhanced takes {} the time of Itoh's. Paper 002 broke the upper-add → lower-multiply dependency for the in-order Itanium 2; an out-of-order x86 core already overlaps the two chains, so {}.",
                times(e / i),
                if (e / i - 1.0).abs() < 0.05 { "the gain all but vanishes" } else if e < i { "some gain remains" } else { "here the extra third carry chain costs more than it saves" }
            );
        }
        let mut ratios: Vec<f64> = redc::mont::Algorithm::ALL
            .iter()
            .filter_map(|a| Some(w32(a.name())? / w64(a.name())?))
            .collect();
        if !ratios.is_empty() {
            let med = super::measure::median(&mut ratios);
            let _ = writeln!(
                s,
                "- 32- against 64-bit words at {b} bits: the median algorithm is {} slower with 32-bit words (paper 001's theory: up to 4×; see `word-size`).",
                times(med)
            );
        }
        let best_portable = t
            .rows
            .iter()
            .filter(|r| r.bits == b && r.backend.is_none() && r.word == Some(64))
            .map(|r| r.value)
            .fold(f64::MAX, f64::min);
        for r in t.rows.iter().filter(|r| r.bits == b && r.backend.is_some()) {
            let _ = writeln!(
                s,
                "- Backend `{}` at {b} bits: {} of the best portable algorithm's time.",
                r.backend.as_deref().unwrap_or("?"),
                times(r.value / best_portable)
            );
        }
    }
    s
}

// ---------------------------------------------------------------------------------------------
// redc-by-size (paper 002, Table 3).

fn redc_by_size(t: &Table) -> String {
    let mut s = String::from("| bits | redc (µs) | paper 002, Itanium 2 at 900 MHz (µs) | paper ÷ redc |\n|---:|---:|---:|---:|\n");
    for b in sizes(t) {
        let ours = get(t, |r| r.bits == b);
        let paper = P002_T3.iter().find(|p| p.0 == b).map(|p| p.1);
        let _ = writeln!(
            s,
            "| {b} | {} | {} | {} |",
            ours.map_or("—".into(), svg::num),
            paper.map_or("—".into(), |p| p.to_string()),
            match (ours, paper) {
                (Some(o), Some(p)) => times(p / o),
                _ => "—".into(),
            }
        );
    }
    s.push_str("\nPaper 002's Table 3 is quoted as printed (\"Measured total time of the 1-time execution of our REDC algorithm\", hand-assembled enhanced Itoh). Its Table 2 gives 18,801 cycles for one 4096-bit REDC.\n\nWhat it shows:\n\n");
    let pts: Vec<(f64, f64)> = t.rows.iter().map(|r| (r.bits as f64, r.value)).collect();
    let ppts: Vec<(f64, f64)> = P002_T3.iter().map(|p| (p.0 as f64, p.1)).collect();
    if let (Some(k), Some(kp)) = (svg::loglog_slope(&pts), svg::loglog_slope(&ppts)) {
        let _ = writeln!(
            s,
            "- Growth: time ∝ bits^{k:.2} here, bits^{kp:.2} in the paper. One REDC is s² word multiplications, so the exponent tends to 2 as sizes grow; below 2 means fixed per-call costs (the final subtraction, loop set-up) still weigh at small sizes. The plot draws the fitted quadratic trend."
        );
    }
    if let Some(b) = size_or_largest(t, 4096) {
        if let (Some(o), Some(p)) = (
            get(t, |r| r.bits == b),
            P002_T3.iter().find(|p| p.0 == b).map(|p| p.1),
        ) {
            let _ = writeln!(
                s,
                "- At {b} bits one REDC takes {} µs here against {p} µs on the 900 MHz Itanium 2: {}. The paper's figure is hand-scheduled assembly running 4.02 instructions per cycle; ours is the active backend's kernel on a core with a higher clock and out-of-order execution, so the ratio says as much about the code as about the hardware.",
                svg::num(o),
                if p > o { format!("{} faster", times(p / o)) } else { format!("{} slower", times(o / p)) },
            );
        }
    }
    s
}

// ---------------------------------------------------------------------------------------------
// rsa-vs-openssl (paper 002, Table 4).

fn rsa_vs_openssl(t: &Table) -> String {
    let mut s = String::from("| bits | redc (µs) | OpenSSL (µs) | redc ÷ OpenSSL | paper 002: theirs (µs) | paper 002: Intel IPP (µs) | paper: IPP ÷ theirs |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    let mut bits = sizes(t);
    for p in P002_T4 {
        if p.0 >= 1024 && !bits.contains(&p.0) {
            bits.push(p.0);
        }
    }
    bits.sort_unstable();
    for b in bits {
        let r = get(t, |r| r.bits == b && is(&r.implementation, "redc"));
        let o = get(t, |r| r.bits == b && is(&r.implementation, "openssl"));
        let p = P002_T4.iter().find(|p| p.0 == b);
        let _ = writeln!(
            s,
            "| {b} | {} | {} | {} | {} | {} | {} |",
            r.map_or("—".into(), svg::num),
            o.map_or("—".into(), svg::num),
            match (r, o) {
                (Some(r), Some(o)) => times(r / o),
                _ => "—".into(),
            },
            p.map_or("—".into(), |p| svg::num(p.2)),
            p.map_or("—".into(), |p| svg::num(p.1)),
            p.map_or("—".into(), |p| times(p.3)),
        );
    }
    s.push_str("\nPaper 002's Table 4 (CRT decryption, sliding window of 5 bits; 512 and 768 bits also printed: 237/313 µs and 512/659 µs) is quoted from the OCR text, in which its caption repeats Table 3's (\"total time of the 1-time execution of our REDC algorithm\"); the body text and the figures (1,090 decryptions per second at 1024 bits ≈ 917 µs) show that it times the whole CRT decryption. OpenSSL's figure is `1e6 ÷ sign/s` from `openssl speed -mr -seconds 1 rsaNNNN` (its `+F2` line), measured in the same run; without `-elapsed`, `openssl speed` divides by its CPU user time, so like redc's figures it leaves out time the process spent waiting for the CPU.\n\nWhat it shows:\n\n");
    let mut any = false;
    for b in sizes(t) {
        let r = get(t, |r| r.bits == b && is(&r.implementation, "redc"));
        let o = get(t, |r| r.bits == b && is(&r.implementation, "openssl"));
        if let (Some(r), Some(o)) = (r, o) {
            any = true;
            let _ = writeln!(
                s,
                "- {b} bits: redc takes {} OpenSSL's time ({}).",
                times(r / o),
                if r <= o {
                    "redc is faster"
                } else {
                    "OpenSSL is faster"
                }
            );
        }
    }
    if any {
        let _ = writeln!(
            s,
            "- Paper 002 beat the vendor library (Intel IPP) by 1.19–3.10×. Here the roles are reversed where the ratio exceeds 1: OpenSSL's RSA runs hand-written MULX/ADX (and AVX-512 IFMA where present) assembly with dedicated squaring, while redc's private operation is constant time with a fault check, on the kernel of its active backend."
        );
    } else {
        let _ = writeln!(
            s,
            "- No redc/OpenSSL pair was measured in this run (see the notes above)."
        );
    }
    let pts: Vec<(f64, f64)> = t
        .rows
        .iter()
        .filter(|r| is(&r.implementation, "redc"))
        .map(|r| (r.bits as f64, r.value))
        .collect();
    if let Some(k) = svg::loglog_slope(&pts) {
        let _ = writeln!(
            s,
            "- Growth of redc's decryption time: bits^{k:.2} (RSA is cubic in the key size: bits² per multiplication times bits multiplications). The plot draws the fitted cubic trend."
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// squaring (paper 004, Table 1).

/// The fastest non-generic variant at `bits` and the share of generic's time it saves.
fn best_saving(t: &Table, bits: usize) -> Option<(String, f64)> {
    let g = get(t, |r| r.bits == bits && is(&r.variant, "generic"))?;
    let best = t
        .rows
        .iter()
        .filter(|r| r.bits == bits && !is(&r.variant, "generic"))
        .min_by(|a, b| a.value.total_cmp(&b.value))?;
    Some((
        best.variant.clone().unwrap_or_default(),
        1.0 - best.value / g,
    ))
}

fn squaring(t: &Table) -> String {
    let mut s = pivot(t, "variant", |r| r.variant.clone().unwrap_or_default());
    s.push_str("\nTime saved against `generic` (the multiplication routine with b = a), 1 − variant ÷ generic:\n\n");
    let cols = sizes(t);
    let _ = write!(s, "| variant |");
    for c in &cols {
        let _ = write!(s, " {c} bits |");
    }
    let _ = writeln!(s, "\n|---|{}", "---:|".repeat(cols.len()));
    for v in redc::mont::SqrVariant::ALL.iter().skip(1) {
        let _ = write!(s, "| {} |", v.name());
        for &c in &cols {
            let g = get(t, |r| r.bits == c && is(&r.variant, "generic"));
            let x = get(t, |r| r.bits == c && is(&r.variant, v.name()));
            match (g, x) {
                (Some(g), Some(x)) => {
                    let _ = write!(s, " {} |", pct(1.0 - x / g));
                }
                _ => s.push_str(" — |"),
            }
        }
        s.push('\n');
    }
    s.push_str("\nPaper 004's Table 1 (\"Execution speed for various squaring reductions on the DSP\", TI TMS320C6201; the OCR text states no unit — most likely clock cycles — so only the ratios compare):\n\n| method in paper 004 | redc variant | 1024-bit | 512-bit | 352-bit |\n|---|---|---:|---:|---:|\n");
    for p in P004_T1 {
        let _ = writeln!(s, "| {} | {} | {} | {} | {} |", p.0, p.1, p.2, p.3, p.4);
    }
    s.push_str("| (none: today's sum-double-add) | modern | — | — | — |\n\nThe paper reports the largest savings over the method of [11] as 13%, 11.5% and 11.1% at 352, 512 and 1024 bits (coupled inner loops), and Koç's squaring of [10] as 11–14% *slower* than the generic routine on the DSP.\n\nWhat it shows:\n\n");
    for b in sizes(t) {
        if let Some((name, save)) = best_saving(t, b) {
            let koc = match (
                get(t, |r| r.bits == b && is(&r.variant, "koc")),
                get(t, |r| r.bits == b && is(&r.variant, "generic")),
            ) {
                (Some(k), Some(g)) => format!(
                    "; Koç's is {}",
                    if k > g {
                        format!("{} slower than generic, as on the DSP", pct(k / g - 1.0))
                    } else {
                        format!(
                            "{} faster than generic, unlike on the DSP",
                            pct(1.0 - k / g)
                        )
                    }
                ),
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "- {b} bits: the best dedicated squaring is `{name}`, {} than the generic multiplication{koc}.",
                if save >= 0.0 { format!("{} faster", pct(save)) } else { format!("{} slower", pct(-save)) }
            );
        }
    }
    s.push_str("- Paper 004's point was that a squaring shaped for the DSP's software pipeline saves 10–15%. A squaring can skip almost half the partial products, so on a core where multiplications dominate the saving can exceed the paper's; where the variant's extra carry handling defeats the compiler it can shrink or reverse — the rows above say which happens here.\n");
    s
}

// ---------------------------------------------------------------------------------------------
// crt (paper 004, Table 2).

fn crt(t: &Table) -> String {
    let mut s = pivot(t, "primes", |r| match r.primes {
        Some(1) => "1 (no CRT)".to_string(),
        Some(k) => format!("{k}"),
        None => "?".into(),
    });
    s.push_str("\nSpeed-ups (slower ÷ faster) and the cost model's prediction: with k primes each exponentiation has bits/k-bit operands and a bits/k-bit exponent, so the cost falls as bits³/k² — non-CRT ÷ 2-prime → 4×, 2 ÷ 3 primes → 2.25×, 3 ÷ 4 primes → 1.78×:\n\n| bits | non-CRT ÷ 2-prime | 2 ÷ 3 primes | 3 ÷ 4 primes |\n|---:|---:|---:|---:|\n");
    for b in sizes(t) {
        let p = |k: usize| get(t, |r| r.bits == b && r.primes == Some(k));
        let ratio = |a: Option<f64>, c: Option<f64>| match (a, c) {
            (Some(a), Some(c)) => times(a / c),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "| {b} | {} | {} | {} |",
            ratio(p(1), p(2)),
            ratio(p(2), p(3)),
            ratio(p(3), p(4))
        );
    }
    s.push_str("\nPaper 004's Table 2 (1024-bit signing on the TMS320C6201 DSP, m-ary with m = 16; \"multi-prime\" is 3 primes):\n\n| method | non-CRT | 2-prime | multi-prime (3) | non-CRT ÷ 2-prime | 2 ÷ 3 primes |\n|---|---:|---:|---:|---:|---:|\n| Prev. method in [11] | 40.07 ms | 11.76 ms | n/a | 3.41× | — |\n| SR with coupled inner loops | 36.5 ms | 10.6 ms | 6.06 ms | 3.44× | 1.75× |\n\nWhat it shows:\n\n");
    let mut said = false;
    for b in sizes(t) {
        let p = |k: usize| get(t, |r| r.bits == b && r.primes == Some(k));
        if let (Some(p1), Some(p2)) = (p(1), p(2)) {
            said = true;
            let mut line = format!(
                "- {b} bits: CRT with 2 primes is {} faster than without",
                times(p1 / p2)
            );
            if let Some(p3) = p(3) {
                let _ = write!(line, "; 3 primes are {} faster than 2", times(p2 / p3));
            }
            if let (Some(p3), Some(p4)) = (p(3), p(4)) {
                let _ = write!(line, "; 4 primes {} faster than 3", times(p3 / p4));
            }
            line.push('.');
            let _ = writeln!(s, "{line}");
        }
    }
    if said {
        s.push_str("- The paper measured 3.44× for 2-prime CRT and a further 1.75× for 3 primes, below the 4× and 2.25× of the cost model because the recombination and the per-prime set-up do not shrink.");
        let step = |a: usize, c: usize| {
            let mut v: Vec<f64> = sizes(t)
                .into_iter()
                .filter_map(|b| {
                    let p = |k: usize| get(t, |r| r.bits == b && r.primes == Some(k));
                    Some(p(a)? / p(c)?)
                })
                .collect();
            (!v.is_empty()).then(|| super::measure::median(&mut v))
        };
        let mut parts = Vec::new();
        let mut below = 0;
        let mut total = 0;
        for (a, c, model, what) in [
            (1, 2, 4.0, "non-CRT ÷ 2-prime"),
            (2, 3, 2.25, "2 ÷ 3 primes"),
            (3, 4, 16.0 / 9.0, "3 ÷ 4 primes"),
        ] {
            if let Some(r) = step(a, c) {
                total += 1;
                if r < model * 0.95 {
                    below += 1;
                }
                parts.push(format!("{what} {} (model {})", times(r), times(model)));
            }
        }
        if !parts.is_empty() {
            let _ = write!(
                s,
                " Here the median speed-ups over the sizes are {}: ",
                parts.join(", ")
            );
            s.push_str(if below == total {
                "every extra prime pays, by less than the model, as in the paper (redc also checks every result with the public exponent, a fixed cost that does not shrink with the primes).\n"
            } else if below == 0 {
                "at or above the model — on this machine the smaller operands of more primes also fit the caches and the kernel's sweet spot better, which the operation count alone does not capture.\n"
            } else {
                "some steps fall short of the model, as in the paper, and others reach it; per-size figures above vary with machine load, so read the trend rather than single cells.\n"
            });
        } else {
            s.push('\n');
        }
    } else {
        s.push_str("- Nothing measured in this run (see the notes above).\n");
    }
    s
}

// ---------------------------------------------------------------------------------------------
// word-size (paper 001).

fn word_size(t: &Table) -> String {
    let mut s = String::from(
        "| bits | 32-bit words (µs) | 64-bit words (µs) | 32 ÷ 64 |\n|---:|---:|---:|---:|\n",
    );
    for b in sizes(t) {
        let w = |k: u32| get(t, |r| r.bits == b && r.word == Some(k));
        let _ = writeln!(
            s,
            "| {b} | {} | {} | {} |",
            w(32).map_or("—".into(), svg::num),
            w(64).map_or("—".into(), svg::num),
            match (w(32), w(64)) {
                (Some(a), Some(c)) => times(a / c),
                _ => "—".into(),
            }
        );
    }
    s.push_str("\nPaper 001's figures: the speed-up of 64-bit over 32-bit code is 4× in theory (a 64×64-bit product is four 32×32-bit ones), measured 3.5× on the MIPS 5Kc and 4× on the 20Kc (5× against the multiply-accumulate MIPS32 code, which is slower on the 20Kc). The per-size graphs did not survive the OCR; only these ratios are in the text.\n\nWhat it shows:\n\n");
    let mut rs: Vec<f64> = sizes(t)
        .into_iter()
        .filter_map(|b| {
            let w = |k: u32| get(t, |r| r.bits == b && r.word == Some(k));
            Some(w(32)? / w(64)?)
        })
        .collect();
    if !rs.is_empty() {
        let lo = rs.iter().copied().fold(f64::MAX, f64::min);
        let hi = rs.iter().copied().fold(0.0, f64::max);
        let med = super::measure::median(&mut rs);
        let _ = writeln!(
            s,
            "- Here 32-bit words are {}–{} slower (median {}).",
            times(lo),
            times(hi),
            times(med)
        );
        let _ = writeln!(
            s,
            "- {}",
            if med >= 3.0 {
                "That is paper 001's story: with a full-speed 64×64→128-bit multiplier (x86-64's MUL/MULX) the word count halves and the multiplication count quarters, so the gain approaches 4×."
            } else if med >= 2.0 {
                "Today's hardware tells a milder story than paper 001's 4×: the 64×64→128-bit multiply is about as fast as the 32×32→64-bit one, but an out-of-order core also overlaps the 32-bit code's extra multiplications, so the gain lies between the 2× of halving the word count and the 4× of quartering the multiplications."
            } else {
                "Today's hardware tells another story than paper 001's 4×: the 32-bit code's extra multiplications are largely hidden by the out-of-order core, and per-call overheads dominate."
            }
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// reduction (paper 001).

fn reduction(t: &Table) -> String {
    let mut s = String::from("| bits | montgomery (µs) | classical (µs) | barrett (µs) | classical ÷ montgomery | barrett ÷ montgomery |\n|---:|---:|---:|---:|---:|---:|\n");
    for b in sizes(t) {
        let m = |k: &str| get(t, |r| r.bits == b && is(&r.method, k));
        let ratio = |a: Option<f64>| match (a, m("montgomery")) {
            (Some(a), Some(c)) => times(a / c),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "| {b} | {} | {} | {} | {} | {} |",
            m("montgomery").map_or("—".into(), svg::num),
            m("classical").map_or("—".into(), svg::num),
            m("barrett").map_or("—".into(), svg::num),
            ratio(m("classical")),
            ratio(m("barrett"))
        );
    }
    s.push_str("\nAll three use the same binary left-to-right exponentiation (paper 001's `ModExp`), 64-bit words and the same numbers; only the modular multiplication differs: Montgomery's REDC (CIOS), a schoolbook product reduced by Knuth's Algorithm D (classical division), or by Barrett's precomputed reciprocal. Paper 001 says Montgomery's algorithm \"approximately doubl[es] the speed\" against RSAREF's division-based modexp on MIPS32; its graphs did not survive the OCR, so no per-size figure is quoted.\n\nWhat it shows:\n\n");
    for b in sizes(t) {
        let m = |k: &str| get(t, |r| r.bits == b && is(&r.method, k));
        if let (Some(mo), Some(cl), Some(ba)) = (m("montgomery"), m("classical"), m("barrett")) {
            let _ = writeln!(
                s,
                "- {b} bits: classical division takes {} and Barrett {} Montgomery's time.",
                times(cl / mo),
                times(ba / mo)
            );
        }
    }
    let mut rs: Vec<f64> = sizes(t)
        .into_iter()
        .filter_map(|b| {
            let m = |k: &str| get(t, |r| r.bits == b && is(&r.method, k));
            Some(m("classical")? / m("montgomery")?)
        })
        .collect();
    if !rs.is_empty() {
        let med = super::measure::median(&mut rs);
        let _ = writeln!(
            s,
            "- {}",
            if med >= 1.7 {
                format!("Paper 001's story holds: Montgomery is about {} faster than division-based reduction (median over the sizes). Each classical quotient word needs a trial division and a correction step on top of the multiply-adds REDC also does.", times(med))
            } else if med >= 1.15 {
                format!("Paper 001's story holds in part: Montgomery is faster, but by a median {} rather than 2×. A hardware 128-by-64-bit divide makes Algorithm D's one trial division per quotient word cheap; what remains is its correction steps and the extra passes.", times(med))
            } else {
                format!("Today's hardware tells another story than paper 001's 2× (median ratio here {}): with a hardware 128-by-64-bit divide, Algorithm D needs one division per quotient word plus the same s² multiply-adds as REDC, so classical reduction costs about as much, and the advantage shrinks as the size grows. Montgomery's lasting advantages are elsewhere: no data-dependent quotient corrections (so it can run in constant time) and a cheaper dedicated squaring.", times(med))
            }
        );
    }
    s.push_str("- Barrett replaces each division by multiplications with a precomputed reciprocal; it pays for two extra half products per reduction, so it lands near the classical figure.\n");
    s
}

// ---------------------------------------------------------------------------------------------
// exponentiation.

/// Predicted Montgomery multiplications (squarings counted as one) for a random `b`-bit
/// exponent, relative to binary's `1.5·b`.
fn predicted(method: &str, b: f64) -> f64 {
    let binary = 1.5 * b;
    let ops = match method {
        "mary:4" => b + b / 4.0 * 15.0 / 16.0 + 14.0,
        "sliding:5" => b + b / 6.0 + 16.0,
        "fixed:5" => b + (b / 5.0).ceil() + 30.0,
        _ => binary,
    };
    ops / binary
}

fn exponentiation(t: &Table) -> String {
    let mut s = pivot(t, "method", |r| r.method.clone().unwrap_or_default());
    s.push_str("\nRelative to binary, measured (predicted from the count of multiplications, a squaring counted as one: binary 1.5·b; m-ary b + 15b/64 + 14; sliding b + b/6 + 16; fixed b + b/5 + 30):\n\n| method |");
    let cols = sizes(t);
    for c in &cols {
        let _ = write!(s, " {c} bits |");
    }
    let _ = writeln!(s, "\n|---|{}", "---:|".repeat(cols.len()));
    for m in ["mary:4", "sliding:5", "fixed:5"] {
        let _ = write!(s, "| {m} |");
        for &c in &cols {
            let v = get(t, |r| r.bits == c && is(&r.method, m));
            let bi = get(t, |r| r.bits == c && is(&r.method, "binary"));
            match (v, bi) {
                (Some(v), Some(bi)) => {
                    let _ = write!(
                        s,
                        " {} ({}) |",
                        times(v / bi),
                        times(predicted(m, c as f64))
                    );
                }
                _ => s.push_str(" — |"),
            }
        }
        s.push('\n');
    }
    s.push_str("\nThe papers publish no timing per method: paper 001 uses binary, paper 004 m-ary with m = 16 and paper 002 a 5-bit sliding window. `fixed:5` is the constant-time fixed window redc signs with (it always multiplies, and reads every table entry for each window).\n\nWhat it shows:\n\n");
    if let Some(b) = size_or_largest(t, 2048) {
        let m = |k: &str| get(t, |r| r.bits == b && is(&r.method, k));
        if let (Some(bi), Some(ma), Some(sl), Some(fx)) =
            (m("binary"), m("mary:4"), m("sliding:5"), m("fixed:5"))
        {
            let _ = writeln!(
                s,
                "- {b} bits: m-ary saves {} and the sliding window {} of binary's time (the counts predict {} and {}); the constant-time fixed window costs {} more than the sliding window it replaces.",
                pct(1.0 - ma / bi),
                pct(1.0 - sl / bi),
                pct(1.0 - predicted("mary:4", b as f64)),
                pct(1.0 - predicted("sliding:5", b as f64)),
                pct(fx / sl - 1.0)
            );
        }
    }
    let pts: Vec<(f64, f64)> = t
        .rows
        .iter()
        .filter(|r| is(&r.method, "fixed:5"))
        .map(|r| (r.bits as f64, r.value))
        .collect();
    if let Some(k) = svg::loglog_slope(&pts) {
        let _ = writeln!(
            s,
            "- Growth: the fixed window's time grows as bits^{k:.2}, against 3 for schoolbook arithmetic; the plot draws the fitted cubic trends."
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Plots.

/// The SVG plot of table `t`.
pub fn plot(t: &Table) -> String {
    let title = format!("{} — {}", t.id, short_title(t.id));
    if t.rows.is_empty() {
        let why = t.notes.first().map_or("no data", String::as_str);
        return svg::empty(&title, why);
    }
    match t.id {
        "redc-by-size" => svg::loglog(
            &title,
            unit(t.unit),
            &[
                Series {
                    name: "redc (this machine)".into(),
                    points: t.rows.iter().map(|r| (r.bits as f64, r.value)).collect(),
                    color: 0,
                    dashed: false,
                },
                Series {
                    name: "paper 002, Itanium 2 900 MHz".into(),
                    points: P002_T3.iter().map(|p| (p.0 as f64, p.1)).collect(),
                    color: 3,
                    dashed: true,
                },
            ],
            Some(2.0),
        ),
        "rsa-vs-openssl" => {
            let mut series = Vec::new();
            for (i, imp) in ["redc", "openssl"].iter().enumerate() {
                let points: Vec<(f64, f64)> = t
                    .rows
                    .iter()
                    .filter(|r| is(&r.implementation, imp))
                    .map(|r| (r.bits as f64, r.value))
                    .collect();
                if !points.is_empty() {
                    series.push(Series {
                        name: format!("{imp} (this machine)"),
                        points,
                        color: i,
                        dashed: false,
                    });
                }
            }
            series.push(Series {
                name: "paper 002, Itanium 2".into(),
                points: P002_T4.iter().map(|p| (p.0 as f64, p.2)).collect(),
                color: 3,
                dashed: true,
            });
            series.push(Series {
                name: "Intel IPP (paper 002)".into(),
                points: P002_T4.iter().map(|p| (p.0 as f64, p.1)).collect(),
                color: 4,
                dashed: true,
            });
            svg::loglog(&title, unit(t.unit), &series, Some(3.0))
        }
        "crt" => {
            let mut series = Vec::new();
            for k in 1..=4usize {
                let points: Vec<(f64, f64)> = t
                    .rows
                    .iter()
                    .filter(|r| r.primes == Some(k))
                    .map(|r| (r.bits as f64, r.value))
                    .collect();
                if !points.is_empty() {
                    series.push(Series {
                        name: if k == 1 {
                            "no CRT".into()
                        } else {
                            format!("{k} primes")
                        },
                        points,
                        color: k - 1,
                        dashed: false,
                    });
                }
            }
            svg::loglog(&title, unit(t.unit), &series, Some(3.0))
        }
        "exponentiation" => {
            let mut series = Vec::new();
            for (i, m) in ["binary", "mary:4", "sliding:5", "fixed:5"]
                .iter()
                .enumerate()
            {
                let points: Vec<(f64, f64)> = t
                    .rows
                    .iter()
                    .filter(|r| is(&r.method, m))
                    .map(|r| (r.bits as f64, r.value))
                    .collect();
                if !points.is_empty() {
                    series.push(Series {
                        name: (*m).into(),
                        points,
                        color: i,
                        dashed: false,
                    });
                }
            }
            svg::loglog(&title, unit(t.unit), &series, Some(3.0))
        }
        _ => bars(t, &title),
    }
}

fn short_title(id: &str) -> &'static str {
    match id {
        "algorithms" => "REDC algorithms, 32- and 64-bit words (paper 003)",
        "redc-by-size" => "one REDC against modulus size (paper 002, Table 3)",
        "rsa-vs-openssl" => "CRT decryption, redc and OpenSSL (paper 002, Table 4)",
        "squaring" => "Montgomery squaring variants (paper 004, Table 1)",
        "crt" => "signing without CRT and with 2-4 primes (paper 004, Table 2)",
        "word-size" => "32- against 64-bit words, binary modexp (paper 001)",
        "reduction" => "Montgomery, classical and Barrett modexp (paper 001)",
        _ => "exponentiation methods",
    }
}

/// Bars side by side, one panel per size.
fn bars(t: &Table, title: &str) -> String {
    let label_color = |r: &Row| -> (String, usize) {
        match t.id {
            "algorithms" => match &r.backend {
                Some(b) => (
                    format!("{} ({b})", r.algorithm.as_deref().unwrap_or("?")),
                    2,
                ),
                None => (
                    format!(
                        "{} / {}",
                        r.algorithm.as_deref().unwrap_or("?"),
                        r.word.unwrap_or(0)
                    ),
                    usize::from(r.word == Some(64)),
                ),
            },
            "word-size" => (
                format!("{}-bit words", r.word.unwrap_or(0)),
                usize::from(r.word == Some(64)),
            ),
            "squaring" => {
                let v = r.variant.clone().unwrap_or_default();
                let c = usize::from(v != "generic");
                (v, c)
            }
            _ => {
                let m = r.method.clone().unwrap_or_default();
                let c = ["montgomery", "classical", "barrett"]
                    .iter()
                    .position(|x| *x == m)
                    .unwrap_or(0);
                (m, c)
            }
        }
    };
    let legend: Vec<(String, usize)> = match t.id {
        "algorithms" => {
            let mut l = vec![
                ("32-bit words".to_string(), 0),
                ("64-bit words".to_string(), 1),
            ];
            if t.rows.iter().any(|r| r.backend.is_some()) {
                l.push(("fast backend".to_string(), 2));
            }
            l
        }
        "word-size" => vec![("32-bit words".into(), 0), ("64-bit words".into(), 1)],
        "squaring" => vec![
            ("generic (multiplication)".into(), 0),
            ("dedicated squaring".into(), 1),
        ],
        _ => vec![
            ("montgomery".into(), 0),
            ("classical".into(), 1),
            ("barrett".into(), 2),
        ],
    };
    let panels: Vec<Panel> = sizes(t)
        .into_iter()
        .map(|b| Panel {
            title: format!("{b} bits"),
            bars: t
                .rows
                .iter()
                .filter(|r| r.bits == b)
                .map(|r| {
                    let (label, color) = label_color(r);
                    Bar {
                        label,
                        value: r.value,
                        color,
                    }
                })
                .collect(),
        })
        .collect();
    svg::bar_panels(title, unit(t.unit), &panels, &legend)
}

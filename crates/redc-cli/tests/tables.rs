//! `redc tables`: the output's shape (ids, exact keys, positive values, well-formed SVG, a
//! report section per table), checked on a hidden `--smoke` run with tiny sizes and windows.
//! Speed itself is never asserted.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;

const IDS: [&str; 8] = [
    "algorithms",
    "redc-by-size",
    "rsa-vs-openssl",
    "squaring",
    "crt",
    "word-size",
    "reduction",
    "exponentiation",
];

/// The keys a row of table `id` may carry besides `bits` and `value`, and those it must.
fn row_keys(id: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match id {
        "algorithms" => (&["algorithm", "word", "backend"], &["algorithm", "word"]),
        "squaring" => (&["variant"], &["variant"]),
        "crt" => (&["primes"], &["primes"]),
        "word-size" => (&["word"], &["word"]),
        "reduction" | "exponentiation" => (&["method"], &["method"]),
        "rsa-vs-openssl" => (&["implementation"], &["implementation"]),
        _ => (&[], &[]),
    }
}

fn smoke(dir: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["tables", "--smoke", "--out"])
        .arg(dir)
        .output()
        .expect("run redc");
    assert!(
        out.status.success(),
        "redc tables --smoke failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn smoke_run_writes_json_report_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    smoke(dir.path());

    // results.json
    let text = std::fs::read_to_string(dir.path().join("results.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let mut top: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    top.sort_unstable();
    assert_eq!(top, ["command", "machine", "tables"]);
    assert!(json["command"].as_str().unwrap().starts_with("redc tables"));
    let machine = &json["machine"];
    assert!(machine["cpu"].is_string() && machine["os"].is_string());
    assert!(machine["cores"].as_u64().unwrap() >= 1);

    let tables = json["tables"].as_array().unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(ids, IDS);
    for t in tables {
        let id = t["id"].as_str().unwrap();
        let mut keys: Vec<&str> = t.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["id", "paper", "rows", "title", "unit"], "{id}");
        assert!(!t["paper"].as_str().unwrap().is_empty());
        assert!(["ns", "us"].contains(&t["unit"].as_str().unwrap()));
        let rows = t["rows"].as_array().unwrap();
        // The RSA tables are empty until the RSA layer is merged; every other one has rows.
        if !["rsa-vs-openssl", "crt"].contains(&id) {
            assert!(!rows.is_empty(), "{id} has no rows");
        }
        let (allowed, required) = row_keys(id);
        for r in rows {
            let o = r.as_object().unwrap();
            let v = o["value"].as_f64().expect("numeric value");
            assert!(v > 0.0 && v.is_finite(), "{id}: value {v}");
            assert!(o["bits"].as_u64().unwrap() > 0, "{id}: bits");
            for k in o.keys() {
                assert!(
                    k == "bits" || k == "value" || allowed.contains(&k.as_str()),
                    "{id}: unexpected key {k}"
                );
            }
            for k in required {
                assert!(o.contains_key(*k), "{id}: missing {k}");
            }
            if let Some(w) = o.get("word") {
                assert!([32, 64].contains(&w.as_u64().unwrap()), "{id}: word {w}");
            }
            if let Some(p) = o.get("primes") {
                assert!((1..=4).contains(&p.as_u64().unwrap()));
            }
            if let Some(b) = o.get("backend") {
                assert!(b.is_string());
                assert_eq!(o["word"].as_u64(), Some(64));
            }
            if let Some(i) = o.get("implementation") {
                assert!(i == "redc" || i == "openssl");
            }
        }
        match id {
            "reduction" => {
                for m in ["montgomery", "classical", "barrett"] {
                    assert!(rows.iter().any(|r| r["method"] == m), "reduction: {m}");
                }
            }
            "exponentiation" => {
                for m in ["binary", "mary:4", "sliding:5", "fixed:5"] {
                    assert!(rows.iter().any(|r| r["method"] == m), "exponentiation: {m}");
                }
            }
            "squaring" => {
                for v in common::VARIANTS {
                    assert!(rows.iter().any(|r| r["variant"] == v), "squaring: {v}");
                }
            }
            "algorithms" => {
                for a in common::ALGOS {
                    for w in [32, 64] {
                        assert!(
                            rows.iter().any(|r| r["algorithm"] == a && r["word"] == w),
                            "algorithms: {a}/{w}"
                        );
                    }
                }
            }
            _ => {}
        }
    }

    // The plots.
    for id in IDS {
        let svg = std::fs::read_to_string(dir.path().join(format!("{id}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"), "{id}.svg");
        assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"), "{id}.svg");
        assert!(svg.contains("<text"), "{id}.svg");
        assert_balanced(&svg, id);
    }
    let bars = std::fs::read_to_string(dir.path().join("algorithms.svg")).unwrap();
    assert!(
        bars.matches("<rect").count() >= 14,
        "a bar per algorithm and word"
    );
    let curve = std::fs::read_to_string(dir.path().join("redc-by-size.svg")).unwrap();
    assert!(curve.contains("<polyline") && curve.contains("<circle") && curve.contains("trend"));

    // The report: a section per id.
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    for id in IDS {
        assert!(
            md.lines().any(|l| l == format!("## {id}")),
            "report.md: no section for {id}"
        );
        assert!(
            md.contains(&format!("({id}.svg)")),
            "report.md: no plot for {id}"
        );
    }
    assert!(md.contains("Command: `redc tables --smoke"));
    assert!(md.contains("Machine: "));
}

/// Every element opened is closed, in order (a small XML well-formedness check).
fn assert_balanced(svg: &str, id: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest
            .find('>')
            .unwrap_or_else(|| panic!("{id}.svg: unclosed tag"));
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("{id}.svg: stray </{name}>"));
            assert_eq!(open, name.trim(), "{id}.svg: mismatched tags");
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            let name = tag
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string();
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "{id}.svg: unclosed {stack:?}");
    assert!(
        !svg.contains("NaN") && !svg.contains("inf"),
        "{id}.svg: bad number"
    );
}

#[test]
fn unknown_only_id_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["tables", "--smoke", "--only", "nope", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_hides_the_test_flags() {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["tables", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--quick") && help.contains("--out"));
    assert!(!help.contains("--smoke") && !help.contains("--only"));
}

#[test]
fn readme_block_is_rewritten_with_headline_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let readme = dir.path().join("README.md");
    let out = dir.path().join("rep");
    fs::write(
        &readme,
        "# title\n\n<!-- redc tables: headline -->\nstale\n<!-- /redc tables -->\n\nafter\n",
    )
    .unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["tables", "--smoke", "--only", "squaring,crt", "--out"])
        .arg(&out)
        .arg("--readme")
        .arg(&readme)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let text = fs::read_to_string(&readme).unwrap();
    assert!(
        text.starts_with("# title\n\n<!-- redc tables: headline -->\n"),
        "{text}"
    );
    assert!(text.ends_with("<!-- /redc tables -->\n\nafter\n"), "{text}");
    assert!(!text.contains("stale"));
    assert!(
        text.contains("| table | figure | this machine | paper |"),
        "{text}"
    );
    assert!(
        text.contains(&format!("![squaring]({}/squaring.svg)", out.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("]({}/report.md#crt)", out.display())),
        "{text}"
    );

    // Without the markers the command fails with one line and leaves the file alone.
    fs::write(&readme, "no markers\n").unwrap();
    let bad = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["tables", "--smoke", "--only", "squaring", "--out"])
        .arg(&out)
        .arg("--readme")
        .arg(&readme)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).trim().lines().count(),
        1
    );
    assert_eq!(fs::read_to_string(&readme).unwrap(), "no markers\n");
}

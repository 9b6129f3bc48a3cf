//! `redc calc` end to end: the built binary against num-bigint, for every algorithm, squaring
//! variant, Montgomery `mulmod`, every exponentiation method, and every error path.
//!
//! The classical and Barrett `mulmod` baselines are checked in `calc_reduce.rs`.

use std::process::Command;

use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use rand::rngs::StdRng;
use rand::SeedableRng;

mod common;

use common::{ALGOS, VARIANTS};

/// Runs `redc` with `args`: (exit code, stdout, stderr).
fn redc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .env_remove("REDC_BACKEND")
        .output()
        .expect("run redc");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// Runs `redc calc ARGS`, asserts success and one line of output, returns it parsed.
fn calc_ok(args: &[&str]) -> BigUint {
    let mut full = vec!["calc"];
    full.extend_from_slice(args);
    let (code, out, err) = redc(&full);
    assert_eq!(code, 0, "redc {full:?} failed: {err}");
    assert!(err.is_empty(), "stderr not empty: {err}");
    assert!(out.ends_with('\n') && out.lines().count() == 1, "{out:?}");
    let hex = out.trim_end();
    assert!(
        hex == "0" || (!hex.starts_with('0') && !hex.is_empty()),
        "leading zeros or empty: {hex:?}"
    );
    assert!(
        hex.chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "not lowercase hex: {hex:?}"
    );
    BigUint::parse_bytes(hex.as_bytes(), 16).unwrap()
}

/// Runs `redc calc ARGS` expecting failure with `code`: one `redc: ` line on stderr, no stdout,
/// no panic.
fn calc_err(args: &[&str], code: i32) {
    let mut full = vec!["calc"];
    full.extend_from_slice(args);
    let (got, out, err) = redc(&full);
    assert_eq!(got, code, "redc {full:?}: exit {got}, stderr {err:?}");
    assert!(out.is_empty(), "redc {full:?}: stdout {out:?}");
    assert_eq!(err.lines().count(), 1, "redc {full:?}: stderr {err:?}");
    assert!(err.starts_with("redc: "), "redc {full:?}: stderr {err:?}");
    assert!(err.ends_with('\n'));
    assert!(!err.contains("panicked"), "redc {full:?}: {err}");
}

fn hex(x: &BigUint) -> String {
    format!("{x:x}")
}

/// R⁻¹ mod n for R = 2^(w·s), s the w-bit words n needs.
fn r_inv(n: &BigUint, w: u64) -> BigUint {
    let s = n.bits().div_ceil(w).max(1);
    (BigUint::one() << (w * s)).modinv(n).unwrap()
}

/// Odd moduli: tiny, one and two words, edge patterns, a random 1000-bit and 2048-bit one.
fn moduli(rng: &mut StdRng) -> Vec<BigUint> {
    let mut v = vec![
        BigUint::from(3u32),
        BigUint::from(0xffff_fffbu32),
        BigUint::from(0xffff_ffff_ffff_ffc5u64),
        (BigUint::one() << 64u32) + 1u32,
        (BigUint::one() << 127u32) - 1u32,
    ];
    for bits in [1000u64, 2048] {
        let mut n = rng.gen_biguint(bits);
        n.set_bit(bits - 1, true);
        n.set_bit(0, true);
        v.push(n);
    }
    v
}

/// Operand pairs below n: edges and random.
fn pairs(rng: &mut StdRng, n: &BigUint) -> Vec<(BigUint, BigUint)> {
    let r = rng.gen_biguint_below(n);
    let q = rng.gen_biguint_below(n);
    vec![
        (BigUint::zero(), n - 1u32),
        (n - 1u32, n - 1u32),
        (BigUint::one(), r.clone()),
        (r, q),
    ]
}

#[test]
fn calc_monpro_every_algorithm_and_word() {
    let mut rng = StdRng::seed_from_u64(1);
    for n in moduli(&mut rng) {
        for (i, (a, b)) in pairs(&mut rng, &n).into_iter().enumerate() {
            for w in [32u64, 64] {
                let want = &a * &b * r_inv(&n, w) % &n;
                // Each pair under a rotating subset of algorithms keeps the run short; every
                // algorithm still meets every modulus.
                for (j, algo) in ALGOS.iter().enumerate() {
                    if (i + j) % 2 == 1 && i < 3 {
                        continue;
                    }
                    let got = calc_ok(&[
                        "monpro",
                        "--algo",
                        algo,
                        "--word",
                        &w.to_string(),
                        "--n",
                        &hex(&n),
                        "--a",
                        &hex(&a),
                        "--b",
                        &hex(&b),
                    ]);
                    assert_eq!(got, want, "monpro {algo} w{w} n={n:x}");
                }
            }
        }
    }
}

#[test]
fn calc_sqr_every_variant_and_word() {
    let mut rng = StdRng::seed_from_u64(2);
    for n in moduli(&mut rng) {
        for (i, (a, _)) in pairs(&mut rng, &n).into_iter().enumerate() {
            for w in [32u64, 64] {
                let want = &a * &a * r_inv(&n, w) % &n;
                for (j, variant) in VARIANTS.iter().enumerate() {
                    if (i + j) % 2 == 1 && i < 3 {
                        continue;
                    }
                    let got = calc_ok(&[
                        "sqr",
                        "--variant",
                        variant,
                        "--word",
                        &w.to_string(),
                        "--n",
                        &hex(&n),
                        "--a",
                        &hex(&a),
                    ]);
                    assert_eq!(got, want, "sqr {variant} w{w} n={n:x}");
                }
            }
        }
    }
}

#[test]
fn calc_mulmod_montgomery() {
    let mut rng = StdRng::seed_from_u64(3);
    for n in moduli(&mut rng) {
        for (a, b) in pairs(&mut rng, &n) {
            let want = &a * &b % &n;
            let (n, a, b) = (hex(&n), hex(&a), hex(&b));
            let base = [
                "mulmod",
                "--reduce",
                "montgomery",
                "--n",
                &n,
                "--a",
                &a,
                "--b",
                &b,
            ];
            assert_eq!(calc_ok(&base), want);
            for w in ["32", "64"] {
                let mut args = base.to_vec();
                args.extend(["--word", w]);
                assert_eq!(calc_ok(&args), want, "mulmod montgomery w{w}");
            }
        }
    }
}

/// Input spellings: upper case, `0x`/`0X`, leading zeros, odd digit counts, all give the same
/// lowercase output.
#[test]
fn calc_hex_spellings() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut n = rng.gen_biguint(2048);
    n.set_bit(2047, true);
    n.set_bit(0, true);
    let a = rng.gen_biguint_below(&n);
    let b = rng.gen_biguint_below(&n);
    let want = &a * &b % &n;
    let spell = |x: &BigUint, how: usize| match how {
        0 => format!("{x:X}"),
        1 => format!("0x{x:x}"),
        2 => format!("0X{x:X}"),
        3 => format!("000{x:x}"),
        _ => format!("0x0000{x:X}"),
    };
    for how in 0..5 {
        let got = calc_ok(&[
            "mulmod",
            "--reduce",
            "MONTGOMERY",
            "--n",
            &spell(&n, how),
            "--a",
            &spell(&a, (how + 1) % 5),
            "--b",
            &spell(&b, (how + 2) % 5),
        ]);
        assert_eq!(got, want, "spelling {how}");
    }
    // Zero prints as "0"; an odd digit count is read with an implied leading zero.
    assert_eq!(
        calc_ok(&["monpro", "--algo", "CIOS", "--word", "64", "--n", "7", "--a", "0", "--b", "5"]),
        BigUint::zero()
    );
    let (code, out, _) = redc(&[
        "calc",
        "mulmod",
        "--reduce",
        "montgomery",
        "--n",
        "0x00b",
        "--a",
        "000",
        "--b",
        "A",
    ]);
    assert_eq!((code, out.as_str()), (0, "0\n"));
    assert_eq!(
        calc_ok(&[
            "mulmod",
            "--reduce",
            "montgomery",
            "--n",
            "0x00b",
            "--a",
            "3",
            "--b",
            "A"
        ]),
        BigUint::from(30u32 % 11)
    );
}

fn methods() -> Vec<String> {
    let mut v = vec!["binary".to_string()];
    for k in 1..=8 {
        v.extend([
            format!("mary:{k}"),
            format!("sliding:{k}"),
            format!("fixed:{k}"),
        ]);
    }
    v
}

#[test]
fn calc_powm_every_method() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut big_n = rng.gen_biguint(2048);
    big_n.set_bit(2047, true);
    big_n.set_bit(0, true);
    let mut small_n = rng.gen_biguint(256);
    small_n.set_bit(255, true);
    small_n.set_bit(0, true);
    let cases = [
        // A 2048-bit public-exponent operation.
        (
            big_n.clone(),
            rng.gen_biguint_below(&big_n),
            BigUint::from(65537u32),
        ),
        // A full-length exponent, and one longer than n.
        (
            small_n.clone(),
            rng.gen_biguint_below(&small_n),
            &small_n - 1u32,
        ),
        (
            small_n.clone(),
            rng.gen_biguint_below(&small_n),
            rng.gen_biguint(300),
        ),
        // Edges: exponent 0, 1, 2; base 0, 1, n−1; all-ones exponent.
        (small_n.clone(), BigUint::zero(), BigUint::zero()),
        (small_n.clone(), BigUint::zero(), BigUint::from(5u32)),
        (
            small_n.clone(),
            BigUint::one(),
            (BigUint::one() << 256u32) - 1u32,
        ),
        (small_n.clone(), &small_n - 1u32, BigUint::from(2u32)),
        (small_n.clone(), &small_n - 1u32, BigUint::one()),
        (
            BigUint::from(3u32),
            BigUint::from(2u32),
            BigUint::from(3u32),
        ),
    ];
    let methods = methods();
    for (ci, (n, base, e)) in cases.iter().enumerate() {
        let want = base.modpow(e, n);
        for (mi, method) in methods.iter().enumerate() {
            // Edge cases under a rotating third of the methods; the first three under all.
            if ci >= 3 && (ci + mi) % 3 != 0 {
                continue;
            }
            let word = if (ci + mi) % 2 == 0 { "64" } else { "32" };
            let got = calc_ok(&[
                "powm",
                "--method",
                method,
                "--word",
                word,
                "--n",
                &hex(n),
                "--base",
                &hex(base),
                "--exp",
                &hex(e),
            ]);
            assert_eq!(got, want, "powm {method} w{word} case {ci}");
        }
    }
}

#[test]
fn calc_powm_kernels_and_defaults() {
    let mut rng = StdRng::seed_from_u64(6);
    let mut n = rng.gen_biguint(1024);
    n.set_bit(1023, true);
    n.set_bit(0, true);
    let base = rng.gen_biguint_below(&n);
    let e = rng.gen_biguint(1024);
    let want = base.modpow(&e, &n);
    let (n, base, e) = (hex(&n), hex(&base), hex(&e));
    let common = ["powm", "--n", &n, "--base", &base, "--exp", &e];
    let with = |extra: &[&str]| {
        let mut v = common.to_vec();
        v.extend_from_slice(extra);
        calc_ok(&v)
    };
    // Defaults: cios, word 64, automatic backend.
    assert_eq!(with(&["--method", "fixed:5"]), want);
    assert_eq!(
        with(&["--method", "sliding:5", "--backend", "portable"]),
        want
    );
    assert_eq!(with(&["--method", "sliding:5", "--backend", "auto"]), want);
    for algo in ALGOS {
        for word in ["32", "64"] {
            assert_eq!(
                with(&["--method", "mary:4", "--algo", algo, "--word", word]),
                want,
                "{algo} w{word}"
            );
        }
        assert_eq!(
            with(&[
                "--method",
                "fixed:4",
                "--algo",
                algo,
                "--backend",
                "portable"
            ]),
            want,
            "{algo} portable"
        );
    }
    assert_eq!(
        with(&[
            "--method",
            "binary",
            "--word",
            "32",
            "--backend",
            "portable"
        ]),
        want
    );
    // Every available fast backend gives the same result.
    for backend in ["mulx", "ifma"] {
        let mut v = common.to_vec();
        v.extend(["--method", "fixed:5", "--backend", backend]);
        let mut full = vec!["calc"];
        full.extend_from_slice(&v);
        let (code, out, err) = redc(&full);
        match code {
            0 => assert_eq!(
                BigUint::parse_bytes(out.trim_end().as_bytes(), 16).unwrap(),
                want
            ),
            1 => assert!(err.contains("not available"), "{err}"),
            _ => panic!("--backend {backend}: exit {code}: {err}"),
        }
    }
}

#[test]
fn calc_errors() {
    let n = "fffffffffffffffffffffffffffffff1"; // odd
    let big = "1fffffffffffffffffffffffffffffff1"; // > n
    let usage: Vec<Vec<&str>> = vec![
        // Unknown names, bad words, windows out of range, not hex, empty, missing arguments.
        vec![
            "monpro",
            "--algo",
            "montgomery",
            "--word",
            "64",
            "--n",
            n,
            "--a",
            "1",
            "--b",
            "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "16", "--n", n, "--a", "1", "--b", "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "128", "--n", n, "--a", "1", "--b", "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "64", "--n", n, "--a", "xyz", "--b", "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "64", "--n", n, "--a", "", "--b", "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "64", "--n", n, "--a", "0x", "--b", "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "64", "--n", n, "--a", "1 2", "--b", "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "64", "--n", n, "--a", "1",
        ],
        vec!["monpro", "--word", "64", "--n", n, "--a", "1", "--b", "1"],
        vec!["monpro", "--algo", "cios", "--n", n, "--a", "1", "--b", "1"],
        vec![
            "sqr",
            "--variant",
            "fast",
            "--word",
            "64",
            "--n",
            n,
            "--a",
            "1",
        ],
        vec![
            "sqr",
            "--variant",
            "koc",
            "--word",
            "64",
            "--n",
            "0xg1",
            "--a",
            "1",
        ],
        vec![
            "sqr",
            "--variant",
            "koc",
            "--word",
            "8",
            "--n",
            n,
            "--a",
            "1",
        ],
        vec![
            "mulmod",
            "--reduce",
            "karatsuba",
            "--n",
            n,
            "--a",
            "1",
            "--b",
            "1",
        ],
        vec!["mulmod", "--n", n, "--a", "1", "--b", "1"],
        vec![
            "powm", "--method", "mary:0", "--n", n, "--base", "2", "--exp", "3",
        ],
        vec![
            "powm", "--method", "mary:9", "--n", n, "--base", "2", "--exp", "3",
        ],
        vec![
            "powm",
            "--method",
            "sliding:x",
            "--n",
            n,
            "--base",
            "2",
            "--exp",
            "3",
        ],
        vec![
            "powm", "--method", "fixed", "--n", n, "--base", "2", "--exp", "3",
        ],
        vec![
            "powm", "--method", "ladder", "--n", n, "--base", "2", "--exp", "3",
        ],
        vec![
            "powm", "--method", "binary", "--algo", "x", "--n", n, "--base", "2", "--exp", "3",
        ],
        vec![
            "powm", "--method", "binary", "--word", "16", "--n", n, "--base", "2", "--exp", "3",
        ],
        vec![
            "powm",
            "--method",
            "binary",
            "--backend",
            "gpu",
            "--n",
            n,
            "--base",
            "2",
            "--exp",
            "3",
        ],
        vec![
            "powm", "--method", "binary", "--n", n, "--base", "2", "--exp", "",
        ],
        vec!["powm", "--method", "binary", "--n", n, "--base", "2"],
        vec![
            "powm", "--method", "binary", "--n", n, "--base", "2", "--exp", "3", "--bogus", "1",
        ],
        vec![
            "powm",
            "--method",
            "binary",
            "--word",
            "32",
            "--backend",
            "mulx",
            "--n",
            n,
            "--base",
            "2",
            "--exp",
            "3",
        ],
        vec![
            "powm",
            "--method",
            "binary",
            "--algo",
            "sos",
            "--backend",
            "ifma",
            "--n",
            n,
            "--base",
            "2",
            "--exp",
            "3",
        ],
        vec!["frobnicate"],
        vec![],
    ];
    for args in &usage {
        calc_err(args, 2);
    }
    let failure: Vec<Vec<&str>> = vec![
        // Even, zero, too small moduli; operands and bases not below n.
        vec![
            "monpro", "--algo", "cios", "--word", "64", "--n", "10", "--a", "1", "--b", "1",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "32", "--n", "0", "--a", "0", "--b", "0",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "32", "--n", "0000", "--a", "0", "--b", "0",
        ],
        vec![
            "monpro", "--algo", "cios", "--word", "64", "--n", "1", "--a", "0", "--b", "0",
        ],
        vec![
            "monpro", "--algo", "sos", "--word", "64", "--n", n, "--a", n, "--b", "1",
        ],
        vec![
            "monpro", "--algo", "sos", "--word", "32", "--n", n, "--a", "1", "--b", big,
        ],
        vec![
            "sqr",
            "--variant",
            "koc",
            "--word",
            "64",
            "--n",
            "2",
            "--a",
            "1",
        ],
        vec![
            "sqr",
            "--variant",
            "koc",
            "--word",
            "64",
            "--n",
            n,
            "--a",
            big,
        ],
        vec![
            "mulmod",
            "--reduce",
            "montgomery",
            "--n",
            "1",
            "--a",
            "0",
            "--b",
            "0",
        ],
        vec![
            "mulmod",
            "--reduce",
            "montgomery",
            "--n",
            "100",
            "--a",
            "1",
            "--b",
            "1",
        ],
        vec![
            "mulmod",
            "--reduce",
            "montgomery",
            "--n",
            n,
            "--a",
            big,
            "--b",
            "1",
        ],
        vec![
            "powm", "--method", "binary", "--n", "4", "--base", "1", "--exp", "1",
        ],
        vec![
            "powm", "--method", "fixed:4", "--n", "1", "--base", "0", "--exp", "1",
        ],
        vec![
            "powm",
            "--method",
            "sliding:4",
            "--n",
            n,
            "--base",
            n,
            "--exp",
            "1",
        ],
        vec![
            "powm", "--method", "mary:4", "--word", "32", "--n", n, "--base", big, "--exp", "0",
        ],
    ];
    for args in &failure {
        calc_err(args, 1);
    }
}

#[test]
fn calc_backend_from_environment() {
    // An unknown or unavailable REDC_BACKEND is reported (exit 1) when it decides the kernel.
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args([
            "calc", "powm", "--method", "binary", "--n", "b", "--base", "2", "--exp", "3",
        ])
        .env("REDC_BACKEND", "nonsense")
        .output()
        .unwrap();
    let err = common::one_line_failure(&out);
    assert!(
        err.starts_with("redc: REDC_BACKEND=nonsense: ")
            && err.contains("expected auto, portable, mulx, ifma"),
        "{err}"
    );
    // REDC_BACKEND=portable is always fine; 2^3 mod 11 = 8.
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args([
            "calc", "powm", "--method", "binary", "--n", "b", "--base", "2", "--exp", "3",
        ])
        .env("REDC_BACKEND", "portable")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"8\n");
}

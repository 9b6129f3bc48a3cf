//! `redc calc mulmod --reduce classical|barrett` end to end against num-bigint.
//!
//! These baselines come from `redc::reduce` (branch `sqr`); until calc.rs's `// WIRE: reduce`
//! function is connected, `calc_mulmod_baselines` fails by design (the command answers
//! "not yet available"). Run it after merging: `cargo test -p redc-cli --test calc_reduce`.

use std::process::Command;

use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Runs `redc calc ARGS`: (exit code, stdout, stderr).
fn calc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .arg("calc")
        .args(args)
        .output()
        .expect("run redc");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

fn hex(x: &BigUint) -> String {
    format!("{x:x}")
}

/// Moduli: 1, 2, small odd and even, one- and two-word edges, random 1000- and 2048-bit (odd
/// and even).
fn moduli(rng: &mut StdRng) -> Vec<BigUint> {
    let mut v: Vec<BigUint> = [1u64, 2, 3, 10, 0xffff_ffff, 1 << 32, u64::MAX, 1 << 63]
        .into_iter()
        .map(BigUint::from)
        .collect();
    v.push(BigUint::one() << 64u32);
    v.push((BigUint::one() << 64u32) + 1u32);
    v.push((BigUint::one() << 128u32) - 1u32);
    for bits in [1000u64, 2048] {
        let mut n = rng.gen_biguint(bits);
        n.set_bit(bits - 1, true);
        v.push(n.clone());
        n.set_bit(0, !n.bit(0));
        v.push(n);
    }
    v
}

#[test]
fn calc_mulmod_baselines() {
    let mut rng = StdRng::seed_from_u64(7);
    for n in moduli(&mut rng) {
        let r = rng.gen_biguint_below(&n);
        let q = rng.gen_biguint_below(&n);
        let pairs = [
            (BigUint::zero(), BigUint::zero()),
            (&n - 1u32, &n - 1u32),
            (BigUint::one() % &n, r.clone()),
            (r, q),
        ];
        for (a, b) in pairs {
            let want = hex(&(&a * &b % &n));
            for reduce in ["classical", "barrett"] {
                for word in [None, Some("32"), Some("64")] {
                    let (na, aa, ba) = (hex(&n), format!("0x{:X}", a), format!("00{b:x}"));
                    let mut args = vec![
                        "mulmod", "--reduce", reduce, "--n", &na, "--a", &aa, "--b", &ba,
                    ];
                    if let Some(w) = word {
                        args.extend(["--word", w]);
                    }
                    let (code, out, err) = calc(&args);
                    assert_eq!(code, 0, "{args:?}: {err}");
                    assert_eq!(out, format!("{want}\n"), "{args:?}");
                    assert!(err.is_empty());
                }
            }
        }
    }
    // Unfit numbers exit 1 with one line on stderr: n = 0, an operand not below n.
    for reduce in ["classical", "barrett"] {
        for args in [
            ["--n", "0", "--a", "0", "--b", "0"],
            ["--n", "00", "--a", "0", "--b", "0"],
            ["--n", "10", "--a", "10", "--b", "1"],
            ["--n", "10", "--a", "1", "--b", "0x0011"],
            ["--n", "1", "--a", "1", "--b", "0"],
        ] {
            let mut full = vec!["mulmod", "--reduce", reduce];
            full.extend(args);
            let (code, out, err) = calc(&full);
            assert_eq!(code, 1, "{full:?}: {err}");
            assert!(out.is_empty());
            assert_eq!(err.lines().count(), 1);
            assert!(
                err.starts_with("redc: ") && !err.contains("panicked"),
                "{err}"
            );
        }
    }
}

//! The modular exponentiation tables: `word-size` and `reduction` (paper 001) and
//! `exponentiation` (the methods of papers 001, 002 and 004). One figure is the time of one
//! `base^e mod n` with a full-length random exponent (`e` as long as `n`, as a private
//! exponent without CRT).

use std::hint::black_box;

use redc::exp::{binary, Method};
use redc::mont::backend::Backend;
use redc::mont::{Algorithm, Kernel, SqrVariant};
use redc::reduce::{barrett::Barrett, classical};
use redc::word::Word;

use super::measure::{per_call_ns, Budget, Operands, Rng};
use super::{report, Ctx, Mode, Row, Table};

const WORD_SIZES: [usize; 4] = [512, 1024, 2048, 4096];
const REDUCTION_SIZES: [usize; 4] = [512, 1024, 2048, 4096];
const EXP_SIZES: [usize; 5] = [512, 1024, 2048, 3072, 4096];
/// The methods of `exponentiation`: paper 001's binary, paper 004's m-ary with m = 16,
/// paper 002's 5-bit sliding window, and the constant-time fixed window redc signs with.
const METHODS: [&str; 4] = ["binary", "mary:4", "sliding:5", "fixed:5"];
/// The methods of `reduction`.
const REDUCTIONS: [&str; 3] = ["montgomery", "classical", "barrett"];

/// Progress steps of [`word_size`].
pub fn planned_word_size(mode: Mode) -> usize {
    mode.sizes(&WORD_SIZES, 1).len() * 2
}
/// Progress steps of [`reduction`].
pub fn planned_reduction(mode: Mode) -> usize {
    mode.sizes(&REDUCTION_SIZES, 1).len() * REDUCTIONS.len()
}
/// Progress steps of [`exponentiation`].
pub fn planned_exponentiation(mode: Mode) -> usize {
    mode.sizes(&EXP_SIZES, 1).len() * METHODS.len()
}

/// Median µs of one `method` exponentiation `base^exp mod n`.
fn pow_us<W: Word>(
    budget: &Budget,
    o: &Operands<W>,
    exp: &[u8],
    method: Method,
    k: &Kernel<W>,
) -> f64 {
    let mut out = vec![W::ZERO; o.m.limbs()];
    per_call_ns(budget, || {
        method.pow(
            black_box(&mut out),
            black_box(&o.a),
            black_box(exp),
            &o.m,
            k,
        );
    }) / 1000.0
}

/// `word-size`: binary Montgomery modexp (paper 001's `ModExp`, CIOS `MonPro` for squarings
/// too) with 32- against 64-bit words on the same numbers.
pub fn word_size(ctx: &Ctx) -> Result<Table, String> {
    let mut t = Table::new(
        "word-size",
        "Binary Montgomery modular exponentiation (CIOS, full-length exponent): 32- against 64-bit words",
        report::PAPER_001,
        "us",
    );
    let mut rng = Rng::new(5);
    for bits in ctx.mode.sizes(&WORD_SIZES, 1) {
        let (n, a, b) = (rng.odd_modulus(bits), rng.below(bits), rng.below(bits));
        let exp = rng.exact_bits(bits);
        for word in [32u32, 64] {
            ctx.step(format!("word-size: {word}-bit words, {bits}"));
            let us = if word == 32 {
                let o = Operands::<u32>::from_bytes(&n, &a, &b)?;
                let k = Kernel::portable(Algorithm::Cios, SqrVariant::Generic);
                pow_us(&ctx.budget, &o, &exp, Method::Binary, &k)
            } else {
                let o = Operands::<u64>::from_bytes(&n, &a, &b)?;
                let k = Kernel::portable(Algorithm::Cios, SqrVariant::Generic);
                pow_us(&ctx.budget, &o, &exp, Method::Binary, &k)
            };
            t.rows.push(Row {
                word: Some(word),
                ..Row::new(bits, us)
            });
            ctx.done();
        }
    }
    Ok(t)
}

/// `reduction`: binary left-to-right modexp over Montgomery (CIOS), classical (Knuth's
/// Algorithm D) and Barrett modular multiplication, 64-bit words, the same numbers.
pub fn reduction(ctx: &Ctx) -> Result<Table, String> {
    let mut t = Table::new(
        "reduction",
        "Binary modular exponentiation (64-bit words, full-length exponent): Montgomery (CIOS) against classical division and Barrett reduction",
        report::PAPER_001,
        "us",
    );
    let mut rng = Rng::new(6);
    let k = Kernel::<u64>::portable(Algorithm::Cios, SqrVariant::Generic);
    for bits in ctx.mode.sizes(&REDUCTION_SIZES, 1) {
        let o = Operands::<u64>::random(&mut rng, bits)?;
        let exp = rng.exact_bits(bits);
        let n = o.m.n().to_vec();
        let bar = Barrett::new(&n).map_err(|e| format!("barrett: {e}"))?;
        for method in REDUCTIONS {
            ctx.step(format!("reduction: {method} {bits}"));
            let mut failed = None;
            let ns = match method {
                "montgomery" => {
                    let mut out = vec![0u64; o.m.limbs()];
                    per_call_ns(&ctx.budget, || {
                        binary::pow_vartime(black_box(&mut out), black_box(&o.a), &exp, &o.m, &k)
                    })
                }
                "classical" => per_call_ns(&ctx.budget, || {
                    if let Err(e) = classical::pow_vartime(black_box(&o.a), black_box(&exp), &n) {
                        failed = Some(e);
                    }
                }),
                _ => per_call_ns(&ctx.budget, || {
                    if let Err(e) = bar.pow_vartime(black_box(&o.a), black_box(&exp)) {
                        failed = Some(e);
                    }
                }),
            };
            if let Some(e) = failed {
                return Err(format!("{method}: {e}"));
            }
            t.rows.push(Row {
                method: Some(method.into()),
                ..Row::new(bits, ns / 1000.0)
            });
            ctx.done();
        }
    }
    Ok(t)
}

/// `exponentiation`: binary, m-ary (m = 16), sliding window (5) and constant-time fixed window
/// (5) with the active backend's production kernel.
pub fn exponentiation(ctx: &Ctx) -> Result<Table, String> {
    let be = Backend::active().map_err(|e| e.to_string())?;
    let k = be.kernel().map_err(|e| format!("{}: {e}", be.name()))?;
    let mut t = Table::new(
        "exponentiation",
        &format!(
            "Modular exponentiation methods (full-length exponent, kernel {} of backend {})",
            k.name(),
            be.name()
        ),
        report::PAPER_EXP,
        "us",
    );
    let mut rng = Rng::new(7);
    for bits in ctx.mode.sizes(&EXP_SIZES, 1) {
        let o = Operands::<u64>::random(&mut rng, bits)?;
        let exp = rng.exact_bits(bits);
        for name in METHODS {
            ctx.step(format!("exponentiation: {name} {bits}"));
            let method = Method::from_name(name).map_err(|e| format!("{name}: {e}"))?;
            let us = pow_us(&ctx.budget, &o, &exp, method, &k);
            t.rows.push(Row {
                method: Some(name.into()),
                ..Row::new(bits, us)
            });
            ctx.done();
        }
    }
    Ok(t)
}

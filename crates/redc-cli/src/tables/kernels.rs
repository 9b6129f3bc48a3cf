//! The kernel tables: `algorithms` (paper 003, Tables 5–7), `redc-by-size` (paper 002,
//! Table 3) and `squaring` (paper 004, Table 1). One figure is the time of one Montgomery
//! multiplication (or squaring) `out = a·b·R⁻¹ mod n`.

use redc::mont::backend::Backend;
use redc::mont::{Algorithm, SqrVariant};

use super::measure::{mul_ns, sqr_ns, Operands, Rng};
use super::{report, Ctx, Mode, Row, Table};

const ALGO_SIZES: [usize; 4] = [512, 1024, 2048, 4096];
const REDC_SIZES: [usize; 6] = [512, 768, 1024, 2048, 3072, 4096];
const SQR_SIZES: [usize; 4] = [352, 512, 1024, 2048];

/// The fast backends (every available one but the portable).
fn fast_backends() -> Vec<Backend> {
    Backend::available()
        .filter(|&b| b != Backend::Portable)
        .collect()
}

/// Progress steps of [`algorithms`].
pub fn planned_algorithms(mode: Mode) -> usize {
    mode.sizes(&ALGO_SIZES, 1).len() * (2 * Algorithm::ALL.len() + fast_backends().len())
}

/// Progress steps of [`redc_by_size`].
pub fn planned_redc(mode: Mode) -> usize {
    mode.sizes(&REDC_SIZES, 2).len()
}

/// Progress steps of [`squaring`].
pub fn planned_squaring(mode: Mode) -> usize {
    mode.sizes(&SQR_SIZES, 2).len() * SqrVariant::ALL.len()
}

/// `algorithms`: ns per Montgomery multiplication for every REDC algorithm with 32- and
/// 64-bit words, and each fast backend's kernel, on the same numbers.
pub fn algorithms(ctx: &Ctx) -> Result<Table, String> {
    let mut t = Table::new(
        "algorithms",
        "Montgomery multiplication: the REDC algorithms with 32- and 64-bit words, and the fast backends",
        report::PAPER_003,
        "ns",
    );
    let mut rng = Rng::new(3);
    let backends = fast_backends();
    for bits in ctx.mode.sizes(&ALGO_SIZES, 1) {
        let (n, a, b) = (rng.odd_modulus(bits), rng.below(bits), rng.below(bits));
        let o32 = Operands::<u32>::from_bytes(&n, &a, &b)?;
        let o64 = Operands::<u64>::from_bytes(&n, &a, &b)?;
        for algo in Algorithm::ALL {
            for word in [32u32, 64] {
                ctx.step(format!("algorithms: {} {word}-bit {bits}", algo.name()));
                let ns = if word == 32 {
                    mul_ns(&ctx.budget, &o32, algo.mul_fn())
                } else {
                    mul_ns(&ctx.budget, &o64, algo.mul_fn())
                };
                t.rows.push(Row {
                    algorithm: Some(algo.name().into()),
                    word: Some(word),
                    ..Row::new(bits, ns)
                });
                ctx.done();
            }
        }
        for &be in &backends {
            ctx.step(format!("algorithms: backend {} {bits}", be.name()));
            let k = be.kernel().map_err(|e| format!("{}: {e}", be.name()))?;
            let ns = mul_ns(&ctx.budget, &o64, k.mul());
            t.rows.push(Row {
                algorithm: Some(k.name().into()),
                word: Some(64),
                backend: Some(be.name().into()),
                ..Row::new(bits, ns)
            });
            ctx.done();
        }
    }
    if backends.is_empty() {
        t.notes.push(
            "No fast backend is available on this machine (or in this build): portable rows only."
                .into(),
        );
    }
    Ok(t)
}

/// `redc-by-size`: one REDC with the production kernel of the active backend.
pub fn redc_by_size(ctx: &Ctx) -> Result<Table, String> {
    let be = Backend::active().map_err(|e| e.to_string())?;
    let k = be.kernel().map_err(|e| format!("{}: {e}", be.name()))?;
    let mut t = Table::new(
        "redc-by-size",
        &format!(
            "One REDC (Montgomery multiplication) with the production kernel of the active backend ({}, kernel {})",
            be.name(),
            k.name()
        ),
        report::PAPER_002_T3,
        "us",
    );
    let mut rng = Rng::new(2);
    for bits in ctx.mode.sizes(&REDC_SIZES, 2) {
        ctx.step(format!("redc-by-size: {bits}"));
        let o = Operands::<u64>::random(&mut rng, bits)?;
        let ns = mul_ns(&ctx.budget, &o, k.mul());
        t.rows.push(Row::new(bits, ns / 1000.0));
        ctx.done();
    }
    t.notes.push(format!(
        "Backend `{}` (kernel `{}`); set `REDC_BACKEND` to measure another.",
        be.name(),
        k.name()
    ));
    Ok(t)
}

/// `squaring`: ns per Montgomery squaring for the six variants, 64-bit words.
pub fn squaring(ctx: &Ctx) -> Result<Table, String> {
    let mut t = Table::new(
        "squaring",
        "Montgomery squaring: the six dedicated squaring variants (64-bit words)",
        report::PAPER_004_T1,
        "ns",
    );
    let mut rng = Rng::new(4);
    for bits in ctx.mode.sizes(&SQR_SIZES, 2) {
        let o = Operands::<u64>::random(&mut rng, bits)?;
        for v in SqrVariant::ALL {
            ctx.step(format!("squaring: {} {bits}", v.name()));
            let ns = sqr_ns(&ctx.budget, &o, v.sqr_fn());
            t.rows.push(Row {
                variant: Some(v.name().into()),
                ..Row::new(bits, ns)
            });
            ctx.done();
        }
    }
    Ok(t)
}

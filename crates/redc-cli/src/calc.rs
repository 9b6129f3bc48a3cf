//! `redc calc`: the raw arithmetic of the papers on hex numbers — one Montgomery product
//! (`monpro`), one Montgomery squaring (`sqr`), a modular product by Montgomery, classical or
//! Barrett reduction (`mulmod`), and a modular exponentiation by any method (`powm`).
//!
//! Numbers go in as hex (either case, optional `0x`, leading zeros allowed, not empty) and come
//! out as one line of lowercase hex without `0x` or leading zeros (`0` for zero).

use clap::Subcommand;
use redc::exp::Method;
use redc::mont::backend::Backend;
use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};
use redc::nat;
use redc::word::Word;

use crate::CliError;

const EXIT_HELP: &str = "\
Numbers are hex: either case, optional 0x, leading zeros allowed; output is lowercase hex.

Exit status: 0 on success; 2 on a usage error (missing or unknown argument, unknown algorithm,
variant, method, reduction or backend name, a window K outside 1..=8, a word size other than
32 or 64, a value that is not hex or empty); 1 when the numbers are unfit (n even, zero or too
small: Montgomery needs an odd n >= 3, classical and Barrett any n >= 1; an operand or base not
less than n) or a named backend is not available on this CPU.";

/// Arguments of `redc calc`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXIT_HELP)]
pub struct Args {
    #[command(subcommand)]
    op: Op,
}

#[derive(Subcommand, Debug)]
enum Op {
    /// a·b·R⁻¹ mod n with one REDC algorithm (R = 2^(w·s), s = the words n needs).
    #[command(after_help = EXIT_HELP)]
    Monpro(MonproArgs),
    /// a·a·R⁻¹ mod n with one dedicated squaring variant.
    #[command(after_help = EXIT_HELP)]
    Sqr(SqrArgs),
    /// a·b mod n by Montgomery, classical (division) or Barrett reduction.
    #[command(after_help = EXIT_HELP)]
    Mulmod(MulmodArgs),
    /// base^exp mod n by one exponentiation method.
    #[command(after_help = EXIT_HELP)]
    Powm(PowmArgs),
}

#[derive(clap::Args, Debug)]
struct MonproArgs {
    /// REDC algorithm: sos, cios, fios, fips, cihs, itoh, itoh-enhanced.
    #[arg(long, value_parser = parse_algo)]
    algo: Algorithm,
    /// Word size in bits: 32 or 64.
    #[arg(long, value_parser = parse_word)]
    word: WordSize,
    /// The odd modulus n >= 3 (hex).
    #[arg(long, value_parser = parse_hex)]
    n: Hex,
    /// First operand, < n (hex).
    #[arg(long, value_parser = parse_hex)]
    a: Hex,
    /// Second operand, < n (hex).
    #[arg(long, value_parser = parse_hex)]
    b: Hex,
}

#[derive(clap::Args, Debug)]
struct SqrArgs {
    /// Squaring variant: generic, koc, improved, merged, coupled, modern.
    #[arg(long, value_parser = parse_variant)]
    variant: SqrVariant,
    /// Word size in bits: 32 or 64.
    #[arg(long, value_parser = parse_word)]
    word: WordSize,
    /// The odd modulus n >= 3 (hex).
    #[arg(long, value_parser = parse_hex)]
    n: Hex,
    /// The operand, < n (hex).
    #[arg(long, value_parser = parse_hex)]
    a: Hex,
}

#[derive(clap::Args, Debug)]
struct MulmodArgs {
    /// Reduction: montgomery (CIOS), classical or barrett.
    #[arg(long, value_parser = parse_reduce)]
    reduce: Reduce,
    /// Word size in bits: 32 or 64.
    #[arg(long, value_parser = parse_word, default_value = "64")]
    word: WordSize,
    /// The modulus (hex): odd and >= 3 for montgomery, >= 1 otherwise.
    #[arg(long, value_parser = parse_hex)]
    n: Hex,
    /// First operand, < n (hex).
    #[arg(long, value_parser = parse_hex)]
    a: Hex,
    /// Second operand, < n (hex).
    #[arg(long, value_parser = parse_hex)]
    b: Hex,
}

#[derive(clap::Args, Debug)]
struct PowmArgs {
    /// Method: binary, mary:K, sliding:K or fixed:K with K in 1..=8.
    #[arg(long, value_parser = parse_method)]
    method: Method,
    /// REDC algorithm of the portable kernel: sos, cios, fios, fips, cihs, itoh, itoh-enhanced
    /// [default: cios]. Given explicitly, it selects the portable kernel (with the modern
    /// squaring) and cannot be combined with --backend mulx or ifma.
    #[arg(long, value_parser = parse_algo)]
    algo: Option<Algorithm>,
    /// Word size in bits: 32 or 64.
    #[arg(long, value_parser = parse_word, default_value = "64")]
    word: WordSize,
    /// Kernel backend for --word 64: auto (REDC_BACKEND, else the best this CPU runs),
    /// portable, mulx or ifma [default: auto]. ifma runs fixed:K in an AVX-512 IFMA lane and
    /// the other methods on its MULX products. Word 32 always uses the portable kernel; a
    /// named backend this CPU cannot run exits with status 1.
    #[arg(long, value_parser = parse_backend)]
    backend: Option<BackendChoice>,
    /// The odd modulus n >= 3 (hex).
    #[arg(long, value_parser = parse_hex)]
    n: Hex,
    /// The base, < n (hex).
    #[arg(long, value_parser = parse_hex)]
    base: Hex,
    /// The exponent, any length (hex).
    #[arg(long, value_parser = parse_hex)]
    exp: Hex,
}

/// A number as big-endian bytes, as parsed from hex.
#[derive(Clone, Debug)]
struct Hex(Vec<u8>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WordSize {
    W32,
    W64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reduce {
    Montgomery,
    Classical,
    Barrett,
}

impl Reduce {
    fn name(self) -> &'static str {
        match self {
            Reduce::Montgomery => "montgomery",
            Reduce::Classical => "classical",
            Reduce::Barrett => "barrett",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BackendChoice {
    Auto,
    Named(Backend),
}

/// Parses hex: optional `0x`/`0X`, either case, leading zeros allowed, an odd digit count
/// allowed; empty is rejected.
fn parse_hex(s: &str) -> Result<Hex, String> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if digits.is_empty() {
        return Err("empty hex number".into());
    }
    let mut nibbles = Vec::with_capacity(digits.len() + 1);
    if digits.len() % 2 == 1 {
        nibbles.push(0u8);
    }
    for c in digits.chars() {
        let d = c
            .to_digit(16)
            .ok_or_else(|| "not a hexadecimal number".to_string())?;
        nibbles.push(d as u8);
    }
    Ok(Hex(nibbles
        .chunks_exact(2)
        .map(|p| p[0] << 4 | p[1])
        .collect()))
}

fn parse_word(s: &str) -> Result<WordSize, String> {
    match s {
        "32" => Ok(WordSize::W32),
        "64" => Ok(WordSize::W64),
        _ => Err("word size must be 32 or 64".into()),
    }
}

fn parse_algo(s: &str) -> Result<Algorithm, String> {
    Algorithm::from_name(s).map_err(|_| {
        "unknown algorithm (expected sos, cios, fios, fips, cihs, itoh, itoh-enhanced)".into()
    })
}

fn parse_variant(s: &str) -> Result<SqrVariant, String> {
    SqrVariant::from_name(s).map_err(|_| {
        "unknown squaring variant (expected generic, koc, improved, merged, coupled, modern)".into()
    })
}

fn parse_reduce(s: &str) -> Result<Reduce, String> {
    [Reduce::Montgomery, Reduce::Classical, Reduce::Barrett]
        .into_iter()
        .find(|r| r.name().eq_ignore_ascii_case(s))
        .ok_or_else(|| "unknown reduction (expected montgomery, classical, barrett)".into())
}

fn parse_method(s: &str) -> Result<Method, String> {
    Method::from_name(s).map_err(|e| match e {
        redc::Error::InvalidWindow => "window K must be between 1 and 8".into(),
        _ => "unknown method (expected binary, mary:K, sliding:K, fixed:K)".into(),
    })
}

fn parse_backend(s: &str) -> Result<BackendChoice, String> {
    if s.eq_ignore_ascii_case("auto") {
        return Ok(BackendChoice::Auto);
    }
    Backend::from_name(s)
        .map(BackendChoice::Named)
        .map_err(|_| "unknown backend (expected auto, portable, mulx, ifma)".into())
}

/// Runs `redc calc`: prints the result as one line of lowercase hex.
pub fn run(args: Args) -> Result<(), CliError> {
    let out = match args.op {
        Op::Monpro(a) => match a.word {
            WordSize::W32 => monpro::<u32>(&a),
            WordSize::W64 => monpro::<u64>(&a),
        },
        Op::Sqr(a) => match a.word {
            WordSize::W32 => sqr::<u32>(&a),
            WordSize::W64 => sqr::<u64>(&a),
        },
        Op::Mulmod(a) => match a.word {
            WordSize::W32 => mulmod::<u32>(&a),
            WordSize::W64 => mulmod::<u64>(&a),
        },
        Op::Powm(a) => powm(&a),
    }?;
    crate::io::write_output(None, format!("{out}\n").as_bytes(), false)
}

/// The limbs of `x`, as many as its bytes need (at least one).
fn to_limbs<W: Word>(x: &Hex) -> Vec<W> {
    let len = x.0.len().div_ceil((W::BITS / 8) as usize).max(1);
    // Cannot fail: `len` limbs hold every byte.
    nat::from_be_bytes_vec(&x.0, len).unwrap_or_default()
}

/// Lowercase hex of `x` without leading zeros (`0` for zero).
fn to_hex<W: Word>(x: &[W]) -> String {
    let mut bytes = vec![0u8; x.len() * (W::BITS / 8) as usize];
    nat::to_be_bytes(x, &mut bytes);
    let digits: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".into()
    } else {
        trimmed.into()
    }
}

/// The Montgomery modulus: odd and at least 3 (exit status 1 otherwise).
fn modulus<W: Word>(n: &Hex) -> Result<Modulus<W>, CliError> {
    Modulus::new(&to_limbs::<W>(n)).map_err(|e| CliError::failure(format!("--n: {e}")))
}

/// An operand `< n` in `s` limbs (exit status 1 otherwise).
fn operand<W: Word>(m: &Modulus<W>, x: &Hex, flag: &str) -> Result<Vec<W>, CliError> {
    m.operand(&to_limbs::<W>(x))
        .map_err(|_| CliError::failure(format!("--{flag} must be less than --n")))
}

fn monpro<W: Word>(a: &MonproArgs) -> Result<String, CliError> {
    let m = modulus::<W>(&a.n)?;
    let x = operand(&m, &a.a, "a")?;
    let y = operand(&m, &a.b, "b")?;
    let k = Kernel::<W>::portable(a.algo, SqrVariant::Generic);
    Ok(to_hex(&m.mont_mul(&x, &y, &k)))
}

fn sqr<W: Word>(a: &SqrArgs) -> Result<String, CliError> {
    let m = modulus::<W>(&a.n)?;
    let x = operand(&m, &a.a, "a")?;
    let k = Kernel::<W>::portable(Algorithm::Cios, a.variant);
    Ok(to_hex(&m.mont_sqr(&x, &k)))
}

fn mulmod<W: Word>(a: &MulmodArgs) -> Result<String, CliError> {
    if a.reduce == Reduce::Montgomery {
        let m = modulus::<W>(&a.n)?;
        let x = operand(&m, &a.a, "a")?;
        let y = operand(&m, &a.b, "b")?;
        let k = Kernel::<W>::portable(Algorithm::Cios, SqrVariant::Generic);
        return Ok(to_hex(&m.mul_mod(&x, &y, &k)));
    }
    // Classical and Barrett take any n >= 1 (even included): public values, variable time.
    let n = nat::trim_vartime(&to_limbs::<W>(&a.n)).to_vec();
    if n.is_empty() {
        return Err(CliError::failure("--n: modulus must be at least 1"));
    }
    let x = below_vartime(&to_limbs::<W>(&a.a), &n, "a")?;
    let y = below_vartime(&to_limbs::<W>(&a.b), &n, "b")?;
    Ok(to_hex(&reduce_mul_mod(a.reduce, &x, &y, &n)?))
}

/// `x` padded to `n.len()` limbs if `x < n` (exit status 1 otherwise). Public values only.
fn below_vartime<W: Word>(x: &[W], n: &[W], flag: &str) -> Result<Vec<W>, CliError> {
    let x = nat::trim_vartime(x);
    let mut v = vec![W::ZERO; n.len()];
    if x.len() > n.len() {
        return Err(CliError::failure(format!("--{flag} must be less than --n")));
    }
    v[..x.len()].copy_from_slice(x);
    if nat::cmp_vartime(&v, n) != core::cmp::Ordering::Less {
        return Err(CliError::failure(format!("--{flag} must be less than --n")));
    }
    Ok(v)
}

/// `a·b mod n` by classical or Barrett reduction; `n ≥ 1` trimmed, `a, b < n` in `n.len()` limbs.
fn reduce_mul_mod<W: Word>(kind: Reduce, a: &[W], b: &[W], n: &[W]) -> Result<Vec<W>, CliError> {
    let fail = |e: redc::Error| CliError::failure(format!("mulmod --reduce {}: {e}", kind.name()));
    match kind {
        Reduce::Classical => redc::reduce::classical::mul_mod_vartime::<W>(a, b, n).map_err(fail),
        Reduce::Barrett => redc::reduce::barrett::Barrett::<W>::new(n)
            .and_then(|r| r.mul_mod_vartime(a, b))
            .map_err(fail),
        Reduce::Montgomery => Err(CliError::failure("montgomery is not a baseline")),
    }
}

fn powm(a: &PowmArgs) -> Result<String, CliError> {
    let explicit = match a.backend {
        Some(BackendChoice::Named(b)) => Some(b),
        _ => None,
    };
    // Usage first: a fast backend is a 64-bit kernel and is not an algorithm of the papers.
    if let Some(b) = explicit.filter(|&b| b != Backend::Portable) {
        if a.word == WordSize::W32 {
            return Err(CliError::usage(format!(
                "--backend {} applies only to --word 64",
                b.name()
            )));
        }
        if a.algo.is_some() {
            return Err(CliError::usage(format!(
                "--algo picks a portable kernel; it cannot be combined with --backend {}",
                b.name()
            )));
        }
    }
    let algo = a.algo.unwrap_or(Algorithm::Cios);
    match a.word {
        WordSize::W32 => {
            let k = Kernel::<u32>::portable(algo, SqrVariant::Modern);
            powm_with(a, &k)
        }
        WordSize::W64 => {
            let k = if a.algo.is_some() {
                Kernel::<u64>::portable(algo, SqrVariant::Modern)
            } else {
                let backend = match explicit {
                    Some(b) => b,
                    None => crate::cli_error::active_backend()?,
                };
                backend.kernel().map_err(|_| {
                    CliError::failure(format!(
                        "backend {} is not available on this CPU",
                        backend.name()
                    ))
                })?
            };
            // The ifma backend runs the constant-time fixed window in an IFMA lane.
            #[cfg(target_arch = "x86_64")]
            if let (true, redc::exp::Method::Fixed(w), Some(token)) =
                (k.lanes(), a.method, redc::mont::backend::ifma::Token::get())
            {
                let m = modulus::<u64>(&a.n)?;
                let base = operand(&m, &a.base, "base")?;
                let mut out = vec![0u64; m.limbs()];
                if redc::mont::backend::ifma::pow(token, &mut out, &base, &a.exp.0, &m, w) {
                    return Ok(to_hex(&out));
                }
            }
            powm_with(a, &k)
        }
    }
}

fn powm_with<W: Word>(a: &PowmArgs, k: &Kernel<W>) -> Result<String, CliError> {
    let m = modulus::<W>(&a.n)?;
    let base = operand(&m, &a.base, "base")?;
    let mut out = vec![W::ZERO; m.limbs()];
    a.method.pow(&mut out, &base, &a.exp.0, &m, k);
    Ok(to_hex(&out))
}

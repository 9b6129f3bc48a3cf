//! `redc sign` and `redc verify`: PKCS#1 v1.5 or PSS signatures over the hash of a file.

use std::path::PathBuf;
use std::process::ExitCode;

use redc::rsa::OsRng;
use redc::rsa::{HashAlg, Pkcs1v15Sign, Pss};

use crate::io::{is_stdio, load_key, read_input, reads_stdin, stdin_once, write_output};
use crate::CliError;

/// Signature padding.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SigPadding {
    /// PKCS#1 v1.5 (RFC 8017 §8.2).
    Pkcs1,
    /// RSASSA-PSS with MGF1 and salt length = hash length (RFC 8017 §8.1).
    Pss,
}

/// Arguments of `redc sign`.
#[derive(clap::Args, Debug)]
pub struct SignArgs {
    /// The private key (PEM or DER; PKCS#1 or PKCS#8); `-` reads it from standard input.
    #[arg(long)]
    pub key: PathBuf,
    /// Padding scheme.
    #[arg(long, value_enum, default_value_t = SigPadding::Pkcs1)]
    pub padding: SigPadding,
    /// Hash: sha1, sha224, sha256, sha384 or sha512.
    #[arg(long, default_value = "sha256")]
    pub hash: String,
    /// The message file, or `-` for standard input (the default).
    #[arg(long = "in")]
    pub input: Option<PathBuf>,
    /// The signature file, or `-` for standard output (the default).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The password of an encrypted private key: `pass:TEXT`, `env:VAR` or `file:PATH` (its
    /// first line), as in openssl.
    #[arg(long, value_name = "SOURCE")]
    pub passin: Option<String>,
}

/// Arguments of `redc verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// A public or private key (PEM or DER; PKCS#1, PKCS#8 or SPKI); `-` reads it from standard input.
    #[arg(long)]
    pub key: PathBuf,
    /// The signature file, or `-` for standard input.
    #[arg(long)]
    pub sig: PathBuf,
    /// Padding scheme.
    #[arg(long, value_enum, default_value_t = SigPadding::Pkcs1)]
    pub padding: SigPadding,
    /// Hash: sha1, sha224, sha256, sha384 or sha512.
    #[arg(long, default_value = "sha256")]
    pub hash: String,
    /// The message file, or `-` for standard input (the default).
    #[arg(long = "in")]
    pub input: Option<PathBuf>,
    /// The password of an encrypted private key: `pass:TEXT`, `env:VAR` or `file:PATH` (its
    /// first line), as in openssl.
    #[arg(long, value_name = "SOURCE")]
    pub passin: Option<String>,
}

/// Parses a `--hash` name (usage error if unknown).
pub fn parse_hash(name: &str) -> Result<HashAlg, CliError> {
    HashAlg::from_name(name).ok_or_else(|| {
        CliError::usage(format!(
            "--hash: unknown hash {name:?} (sha1, sha224, sha256, sha384, sha512)"
        ))
    })
}

/// Runs `redc sign`.
pub fn run_sign(args: SignArgs) -> Result<(), CliError> {
    let hash = parse_hash(&args.hash)?;
    stdin_once(&[
        ("--key", is_stdio(&args.key)),
        ("--in", reads_stdin(args.input.as_deref())),
    ])?;
    let key = load_key(&args.key, args.passin.as_deref())?;
    let key = key.private("sign")?;
    let msg = read_input(args.input.as_deref())?;
    let digest = hash.digest(&msg);
    // Both paddings pass the generator, so the private operation is blinded (PKCS#1 v1.5
    // signatures stay deterministic: blinding does not change the result).
    let sig = match args.padding {
        SigPadding::Pkcs1 => key.sign_with_rng(&mut OsRng, Pkcs1v15Sign::from_hash(hash), &digest),
        SigPadding::Pss => key.sign_with_rng(&mut OsRng, Pss::from_hash(hash), &digest),
    }
    .map_err(|e| CliError::failure(format!("signing failed: {e}")))?;
    write_output(args.out.as_ref(), &sig, false)
}

/// Runs `redc verify`: prints `Verified OK` (exit 0) or `Verification failure` (exit 1).
pub fn run_verify(args: VerifyArgs) -> Result<ExitCode, CliError> {
    let hash = parse_hash(&args.hash)?;
    stdin_once(&[
        ("--key", is_stdio(&args.key)),
        ("--sig", is_stdio(&args.sig)),
        ("--in", reads_stdin(args.input.as_deref())),
    ])?;
    let key = load_key(&args.key, args.passin.as_deref())?;
    let sig = read_input(Some(&args.sig))?;
    let msg = read_input(args.input.as_deref())?;
    let digest = hash.digest(&msg);
    let public = key.public();
    let ok = match args.padding {
        SigPadding::Pkcs1 => public.verify(Pkcs1v15Sign::from_hash(hash), &digest, &sig),
        SigPadding::Pss => public.verify(Pss::from_hash(hash), &digest, &sig),
    }
    .is_ok();
    if ok {
        write_output(None, b"Verified OK\n", false)?;
        Ok(ExitCode::SUCCESS)
    } else {
        write_output(None, b"Verification failure\n", false)?;
        Ok(ExitCode::from(1))
    }
}

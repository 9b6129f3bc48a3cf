//! `redc genkey`: generate an RSA key (2 up to 5 primes) and write it as PEM or DER.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use redc::rsa::OsRng;
use redc::rsa::{
    pkcs1::LineEnding, BoxedUint, EncodePrivateKey, EncodeRsaPrivateKey, RsaPrivateKey,
};

use crate::io::write_output;
use crate::CliError;

/// Private-key container format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PKCS#8 `PrivateKeyInfo` ("PRIVATE KEY"), OpenSSL's default.
    Pkcs8,
    /// PKCS#1 `RSAPrivateKey` ("RSA PRIVATE KEY").
    Pkcs1,
}

/// Arguments of `redc genkey`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Modulus size in bits (1024 to 16384).
    #[arg(long)]
    pub bits: usize,
    /// Number of primes: 2, or up to 3 from 1024 bits, 4 from 4096, 5 from 8192.
    #[arg(long, default_value_t = 2)]
    pub primes: usize,
    /// Public exponent, decimal or 0x-hex; odd and at least 3.
    #[arg(long, default_value = "65537")]
    pub exponent: String,
    /// Output file, or `-` for standard output (the default).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Container format.
    #[arg(long, value_enum, default_value_t = Format::Pkcs8)]
    pub format: Format,
    /// Write DER instead of PEM.
    #[arg(long)]
    pub der: bool,
    /// Encrypt the key with this password (`pass:TEXT`, `env:VAR` or `file:PATH`, as in
    /// openssl): PKCS#8 with PBES2, PBKDF2-HMAC-SHA256 and AES-256-CBC.
    #[arg(long, value_name = "SOURCE")]
    pub passout: Option<String>,
}

/// The largest number of primes OpenSSL allows for a modulus of `bits` bits.
pub fn max_primes(bits: usize) -> usize {
    match bits {
        b if b >= 8192 => 5,
        b if b >= 4096 => 4,
        b if b >= 1024 => 3,
        _ => 2,
    }
}

fn parse_exponent(s: &str) -> Result<u64, CliError> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse::<u64>(),
    };
    let e = parsed.map_err(|_| CliError::usage(format!("--exponent: not a number: {s:?}")))?;
    if e < 3 || e % 2 == 0 {
        return Err(CliError::usage(format!(
            "--exponent must be odd and at least 3, got {e}"
        )));
    }
    Ok(e)
}

/// Runs `redc genkey`.
pub fn run(args: Args) -> Result<(), CliError> {
    if !(1024..=16384).contains(&args.bits) {
        return Err(CliError::usage(format!(
            "--bits must be between 1024 and 16384, got {}",
            args.bits
        )));
    }
    let limit = max_primes(args.bits);
    if args.primes < 2 || args.primes > limit {
        return Err(CliError::usage(format!(
            "--primes must be between 2 and {limit} for a {}-bit key, got {}",
            args.bits, args.primes
        )));
    }
    let e = parse_exponent(&args.exponent)?;
    if args.passout.is_some() && args.format == Format::Pkcs1 {
        return Err(CliError::usage(
            "--passout writes encrypted PKCS#8: leave out --format pkcs1",
        ));
    }
    let password = args
        .passout
        .as_deref()
        .map(|s| crate::io::password("--passout", s))
        .transpose()?;

    let spinner = std::io::stderr().is_terminal().then(|| {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message(format!(
            "generating a {}-bit {}-prime RSA key",
            args.bits, args.primes
        ));
        pb.enable_steady_tick(Duration::from_millis(100));
        pb
    });
    let key = RsaPrivateKey::new_multi_prime_with_exp(
        &mut OsRng,
        args.bits,
        args.primes,
        &BoxedUint::from_u64(e),
    );
    if let Some(pb) = spinner {
        pb.finish_and_clear();
    }
    let key = key.map_err(|e| CliError::failure(format!("key generation failed: {e}")))?;

    if let Some(pw) = password {
        let bytes = if args.der {
            key.to_encrypted_der(&mut OsRng, &pw)
                .map(|d| zeroize::Zeroizing::new(d.as_bytes().to_vec()))
        } else {
            key.to_encrypted_pem(&mut OsRng, &pw, LineEnding::LF)
                .map(|s| zeroize::Zeroizing::new(s.as_bytes().to_vec()))
        }
        .map_err(|e| CliError::failure(format!("cannot encrypt the key: {e}")))?;
        return write_output(args.out.as_ref(), &bytes, true);
    }
    let bytes: Vec<u8> = match (args.format, args.der) {
        (Format::Pkcs8, false) => key
            .to_pkcs8_pem(LineEnding::LF)
            .map(|s| s.as_bytes().to_vec()),
        (Format::Pkcs8, true) => key.to_pkcs8_der().map(|d| d.as_bytes().to_vec()),
        (Format::Pkcs1, false) => key
            .to_pkcs1_pem(LineEnding::LF)
            .map(|s| s.as_bytes().to_vec())
            .map_err(|_| redc::rsa::pkcs8::Error::KeyMalformed),
        (Format::Pkcs1, true) => key
            .to_pkcs1_der()
            .map(|d| d.as_bytes().to_vec())
            .map_err(|_| redc::rsa::pkcs8::Error::KeyMalformed),
    }
    .map_err(|e| CliError::failure(format!("cannot encode the key: {e}")))?;
    let bytes = zeroize::Zeroizing::new(bytes);
    write_output(args.out.as_ref(), &bytes, true)
}

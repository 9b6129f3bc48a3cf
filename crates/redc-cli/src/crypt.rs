//! `redc encrypt` and `redc decrypt`: OAEP or PKCS#1 v1.5 encryption.

use std::path::PathBuf;

use redc::rsa::OsRng;
use redc::rsa::{Oaep, Pkcs1v15Encrypt};

use crate::io::{is_stdio, load_key, parse_hex, read_input, reads_stdin, stdin_once, write_output};
use crate::sign::parse_hash;
use crate::CliError;

/// Encryption padding.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncPadding {
    /// RSAES-OAEP with MGF1 over the same hash (RFC 8017 §7.1).
    Oaep,
    /// RSAES-PKCS1-v1_5 (RFC 8017 §7.2).
    Pkcs1,
}

/// Arguments of `redc encrypt` and `redc decrypt`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The key: public or private for encrypt, private for decrypt; `-` reads it from standard input.
    #[arg(long)]
    pub key: PathBuf,
    /// Padding scheme.
    #[arg(long, value_enum, default_value_t = EncPadding::Oaep)]
    pub padding: EncPadding,
    /// OAEP hash (also the MGF1 hash): sha1, sha224, sha256, sha384 or sha512.
    #[arg(long, default_value = "sha256")]
    pub hash: String,
    /// OAEP label, in hex (default: empty).
    #[arg(long)]
    pub label: Option<String>,
    /// Input file, or `-` for standard input (the default).
    #[arg(long = "in")]
    pub input: Option<PathBuf>,
    /// Output file, or `-` for standard output (the default).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The password of an encrypted private key: `pass:TEXT`, `env:VAR` or `file:PATH` (its
    /// first line), as in openssl.
    #[arg(long, value_name = "SOURCE")]
    pub passin: Option<String>,
}

fn oaep(args: &Args) -> Result<Oaep, CliError> {
    let hash = parse_hash(&args.hash)?;
    let label = args
        .label
        .as_deref()
        .map(|l| parse_hex("--label", l))
        .transpose()?;
    Ok(Oaep::from_hash(hash, label))
}

/// Checks the options before any file is read, so a usage error is reported as one (exit 2)
/// without waiting for standard input.
fn check_options(args: &Args) -> Result<(), CliError> {
    if args.padding == EncPadding::Pkcs1 && args.label.is_some() {
        return Err(CliError::usage("--label applies only to --padding oaep"));
    }
    if let Some(label) = &args.label {
        parse_hex("--label", label)?;
    }
    parse_hash(&args.hash).map(|_| ())
}

/// Runs `redc encrypt`.
pub fn run_encrypt(args: Args) -> Result<(), CliError> {
    check_options(&args)?;
    stdin_once(&[
        ("--key", is_stdio(&args.key)),
        ("--in", reads_stdin(args.input.as_deref())),
    ])?;
    let key = load_key(&args.key, args.passin.as_deref())?;
    let msg = read_input(args.input.as_deref())?;
    let public = key.public();
    let ct = match args.padding {
        EncPadding::Oaep => {
            let (oaep, hash) = (oaep(&args)?, parse_hash(&args.hash)?);
            if oaep.max_message_len(public.size()).is_none() {
                return Err(CliError::failure(format!(
                    "encryption failed: a {}-byte key is too small for OAEP with {} (it needs \
                     {} bytes of padding)",
                    public.size(),
                    args.hash,
                    2 * hash.output_size() + 2
                )));
            }
            public.encrypt(&mut OsRng, oaep, &msg)
        }
        EncPadding::Pkcs1 => public.encrypt(&mut OsRng, Pkcs1v15Encrypt, &msg),
    }
    .map_err(|e| CliError::failure(format!("encryption failed: {e}")))?;
    write_output(args.out.as_ref(), &ct, false)
}

/// Runs `redc decrypt`.
pub fn run_decrypt(args: Args) -> Result<(), CliError> {
    check_options(&args)?;
    stdin_once(&[
        ("--key", is_stdio(&args.key)),
        ("--in", reads_stdin(args.input.as_deref())),
    ])?;
    let key = load_key(&args.key, args.passin.as_deref())?;
    let key = key.private("decrypt")?;
    let ct = read_input(args.input.as_deref())?;
    let pt = match args.padding {
        EncPadding::Oaep => key.decrypt_blinded(&mut OsRng, oaep(&args)?, &ct),
        EncPadding::Pkcs1 => key.decrypt_blinded(&mut OsRng, Pkcs1v15Encrypt, &ct),
    }
    .map_err(|e| CliError::failure(format!("decryption failed: {e}")))?;
    write_output(args.out.as_ref(), &pt, true)
}

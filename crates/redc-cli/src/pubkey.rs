//! `redc pubkey`: write the public half of a key as SPKI ("PUBLIC KEY") PEM or DER.

use std::path::PathBuf;

use redc::rsa::{pkcs1::LineEnding, EncodePublicKey};

use crate::io::{load_key, write_output};
use crate::CliError;

/// Arguments of `redc pubkey`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A private or public key (PEM or DER; PKCS#1, PKCS#8 or SPKI); `-` reads it from standard input.
    #[arg(long)]
    pub key: PathBuf,
    /// Output file, or `-` for standard output (the default).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write DER instead of PEM.
    #[arg(long)]
    pub der: bool,
    /// The password of an encrypted private key: `pass:TEXT`, `env:VAR` or `file:PATH` (its
    /// first line), as in openssl.
    #[arg(long, value_name = "SOURCE")]
    pub passin: Option<String>,
}

/// Runs `redc pubkey`.
pub fn run(args: Args) -> Result<(), CliError> {
    let key = load_key(&args.key, args.passin.as_deref())?;
    let public = key.public();
    let bytes = if args.der {
        public.to_public_key_der().map(|d| d.as_bytes().to_vec())
    } else {
        public
            .to_public_key_pem(LineEnding::LF)
            .map(String::into_bytes)
    }
    .map_err(|e| CliError::failure(format!("cannot encode the public key: {e}")))?;
    write_output(args.out.as_ref(), &bytes, false)
}

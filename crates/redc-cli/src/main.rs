//! `redc`: RSA keys, signatures and encryption, the raw Montgomery arithmetic of the papers, and
//! benchmarks — in the spirit of the `openssl` command.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod calc;
mod cli_error;
mod crypt;
mod genkey;
mod io;
mod pubkey;
mod rsa_speed;
mod sign;
mod speed;
mod tables;

pub use cli_error::CliError;

/// Constant-time RSA built on Montgomery multiplication (REDC).
#[derive(Parser, Debug)]
#[command(name = "redc", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Raw Montgomery arithmetic: monpro, sqr, mulmod, powm (hex in, hex out).
    Calc(calc::Args),
    /// Measure Montgomery multiplication and RSA speed.
    Speed(speed::Args),
    /// Generate an RSA key (2 to 5 primes).
    Genkey(genkey::Args),
    /// Write the public half of a key (SPKI).
    Pubkey(pubkey::Args),
    /// Sign the hash of a message (PKCS#1 v1.5 or PSS).
    Sign(sign::SignArgs),
    /// Verify a signature: prints `Verified OK` or `Verification failure`.
    Verify(sign::VerifyArgs),
    /// Encrypt a message (OAEP or PKCS#1 v1.5).
    Encrypt(crypt::Args),
    /// Decrypt a message (OAEP or PKCS#1 v1.5).
    Decrypt(crypt::Args),
    /// Re-measure the papers' tables: results.json, report.md and SVG plots.
    Tables(tables::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    return ExitCode::SUCCESS;
                }
                _ => {
                    // One line: clap's first paragraph ("error: ..." and, for missing
                    // arguments, the names that follow), without the usage block.
                    let text = e.render().to_string();
                    let para: Vec<&str> = text
                        .lines()
                        .skip_while(|l| l.trim().is_empty())
                        .take_while(|l| !l.trim().is_empty())
                        .map(str::trim)
                        .collect();
                    let msg = if para.is_empty() {
                        "error: invalid usage".to_string()
                    } else {
                        para.join(" ")
                    };
                    eprintln!("redc: {}", msg.trim_start_matches("error: "));
                    return ExitCode::from(2);
                }
            }
        }
    };
    // An unknown or unavailable REDC_BACKEND is reported whatever the command: running on
    // another backend than the one asked for would make every measurement lie.
    if let Err(e) = cli_error::active_backend() {
        eprintln!("redc: {}", e.message);
        return ExitCode::from(e.code);
    }
    let result = match cli.command {
        Command::Calc(a) => calc::run(a).map(|()| ExitCode::SUCCESS),
        Command::Speed(a) => speed::run(a).map(|()| ExitCode::SUCCESS),
        Command::Genkey(a) => genkey::run(a).map(|()| ExitCode::SUCCESS),
        Command::Pubkey(a) => pubkey::run(a).map(|()| ExitCode::SUCCESS),
        Command::Sign(a) => sign::run_sign(a).map(|()| ExitCode::SUCCESS),
        Command::Verify(a) => sign::run_verify(a),
        Command::Encrypt(a) => crypt::run_encrypt(a).map(|()| ExitCode::SUCCESS),
        Command::Decrypt(a) => crypt::run_decrypt(a).map(|()| ExitCode::SUCCESS),
        Command::Tables(a) => tables::run(a).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("redc: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

//! `redc`: RSA keys, signatures and encryption, the raw Montgomery arithmetic of the papers, and
//! benchmarks — in the spirit of the `openssl` command.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod calc;
mod cli_error;
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
                    // One line: clap's first line ("error: ..."), without the usage block.
                    let text = e.render().to_string();
                    let first = text
                        .lines()
                        .find(|l| !l.trim().is_empty())
                        .unwrap_or("error: invalid usage");
                    eprintln!("redc: {}", first.trim_start_matches("error: "));
                    return ExitCode::from(2);
                }
            }
        }
    };
    let result = match cli.command {
        Command::Calc(a) => calc::run(a),
        Command::Speed(a) => speed::run(a),
        Command::Tables(a) => tables::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("redc: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

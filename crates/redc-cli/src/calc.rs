//! `redc calc`: PLACEHOLDER (being written).

use crate::CliError;

/// Arguments of `redc calc`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `redc calc`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::failure("calc: not yet implemented"))
}

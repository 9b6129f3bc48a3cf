//! `redc speed`: PLACEHOLDER (being written).

use crate::CliError;

/// Arguments of `redc speed`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `redc speed`.
pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::failure("speed: not yet implemented"))
}

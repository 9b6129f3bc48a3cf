//! The CLI's error: one line for stderr and an exit status (2 for usage errors, 1 otherwise).

use std::fmt::Display;

/// An error the `redc` command reports: a one-line message and the exit status.
#[derive(Debug)]
pub struct CliError {
    /// 2 for usage errors (bad arguments), 1 for everything else.
    pub code: u8,
    /// One line, no trailing newline.
    pub message: String,
}

impl CliError {
    /// A usage error (exit status 2).
    pub fn usage(msg: impl Display) -> Self {
        CliError {
            code: 2,
            message: one_line(msg),
        }
    }
    /// A failure (exit status 1).
    pub fn failure(msg: impl Display) -> Self {
        CliError {
            code: 1,
            message: one_line(msg),
        }
    }
}

fn one_line(msg: impl Display) -> String {
    msg.to_string()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The backend `REDC_BACKEND` selects, or a failure (exit status 1) whose message names the
/// value and says what would work: the accepted names for an unknown one, the backends this
/// CPU runs for an unavailable one (the library's [`redc::Error`] says both).
pub fn active_backend() -> Result<redc::mont::backend::Backend, CliError> {
    redc::mont::backend::Backend::active().map_err(CliError::failure)
}

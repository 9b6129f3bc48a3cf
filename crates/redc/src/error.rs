//! The library's one error type.

use core::fmt;

use crate::mont::backend::Backend;

/// Everything that can go wrong in redc. Messages are one line and never contain secret values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A Montgomery modulus must be odd.
    EvenModulus,
    /// A modulus must be at least 3.
    ModulusTooSmall,
    /// An operand is not below the modulus it is used with.
    OperandTooLarge,
    /// A word size other than 32 or 64 was asked for.
    UnsupportedWordSize,
    /// A window size outside 1..=8 was asked for.
    InvalidWindow,
    /// The requested backend is not available on this CPU (or not compiled for this target).
    BackendUnavailable,
    /// An unknown name (algorithm, variant, backend, method, hash, padding).
    UnknownName,
    /// The `REDC_BACKEND` environment variable holds this value, which names no backend (the
    /// names are `auto`, `portable`, `mulx` and `ifma`).
    UnknownBackendEnv(&'static str),
    /// The `REDC_BACKEND` environment variable names this backend, which this CPU (or this
    /// build's target) cannot run.
    UnavailableBackendEnv(Backend),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Error::EvenModulus => "modulus must be odd",
            Error::ModulusTooSmall => "modulus must be at least 3",
            Error::OperandTooLarge => "operand must be less than the modulus",
            Error::UnsupportedWordSize => "word size must be 32 or 64",
            Error::InvalidWindow => "window size must be between 1 and 8",
            Error::BackendUnavailable => "backend not available on this CPU",
            Error::UnknownName => "unknown name",
            Error::UnknownBackendEnv(value) => {
                write!(f, "REDC_BACKEND={value}: unknown backend (expected auto, ")?;
                list(f, Backend::ALL.into_iter())?;
                return f.write_str(")");
            }
            Error::UnavailableBackendEnv(b) => {
                write!(f, "REDC_BACKEND={b}: backend not available on this CPU (")?;
                f.write_str("this CPU runs ")?;
                list(f, Backend::available())?;
                return f.write_str(")");
            }
        };
        f.write_str(text)
    }
}

/// Writes the backends' names separated by ", ".
fn list(f: &mut fmt::Formatter<'_>, backends: impl Iterator<Item = Backend>) -> fmt::Result {
    for (i, b) in backends.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(b.name())?;
    }
    Ok(())
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// `Result` with redc's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

//! The library's one error type.

use core::fmt;

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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::EvenModulus => "modulus must be odd",
            Error::ModulusTooSmall => "modulus must be at least 3",
            Error::OperandTooLarge => "operand must be less than the modulus",
            Error::UnsupportedWordSize => "word size must be 32 or 64",
            Error::InvalidWindow => "window size must be between 1 and 8",
            Error::BackendUnavailable => "backend not available on this CPU",
            Error::UnknownName => "unknown name",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// `Result` with redc's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

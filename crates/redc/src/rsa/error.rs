//! RSA errors. Every message is one line and never contains secret material; decryption
//! failures are deliberately all the same [`Error::Decryption`].

use core::fmt;

/// What can go wrong in [`crate::rsa`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Arithmetic-layer error (bad modulus, operand too large, unavailable backend, ...).
    Arith(crate::Error),
    /// The key's size is outside what is supported (512..=16384 bits for import, 1024..=16384
    /// for generation).
    KeySize,
    /// Unsupported number of primes for this key size (2, or up to OpenSSL's limits: 3 from
    /// 1024 bits, 4 from 4096, 5 from 8192).
    PrimeCount,
    /// The public exponent is invalid (must be odd, > 1 and < n).
    PublicExponent,
    /// The key's components are inconsistent (n ≠ ∏pᵢ, wrong d, dᵢ or coefficient, p = q, ...).
    InvalidKey,
    /// A signature did not verify.
    Verification,
    /// Decryption failed; one error for every cause, so that it reveals nothing.
    Decryption,
    /// The message is too long for the key and padding.
    MessageTooLong,
    /// An input (signature, ciphertext, message representative) has the wrong length or is not
    /// below the modulus.
    InputOutOfRange,
    /// The fault check failed: the private result raised to e did not give the input back.
    FaultDetected,
    /// A hash or padding parameter is not supported (unknown hash, salt too long, ...).
    UnsupportedParameter,
    /// The random number generator failed.
    Rng,
    /// Key generation gave up (should not happen with a working RNG).
    KeyGeneration,
    /// A key or signature encoding could not be parsed or produced (DER, PEM, PKCS#1/8, SPKI).
    Encoding,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Arith(e) => write!(f, "{e}"),
            Error::KeySize => f.write_str("unsupported key size"),
            Error::PrimeCount => f.write_str("unsupported number of primes for this key size"),
            Error::PublicExponent => f.write_str("invalid public exponent"),
            Error::InvalidKey => f.write_str("invalid key: inconsistent components"),
            Error::Verification => f.write_str("signature verification failed"),
            Error::Decryption => f.write_str("decryption error"),
            Error::MessageTooLong => f.write_str("message too long for this key and padding"),
            Error::InputOutOfRange => {
                f.write_str("input has the wrong length or is not below the modulus")
            }
            Error::FaultDetected => f.write_str("fault detected in the private-key operation"),
            Error::UnsupportedParameter => f.write_str("unsupported hash or padding parameter"),
            Error::Rng => f.write_str("random number generator failed"),
            Error::KeyGeneration => f.write_str("key generation failed"),
            Error::Encoding => f.write_str("invalid key or data encoding"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Self {
        Error::Arith(e)
    }
}

/// `Result` with the RSA [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

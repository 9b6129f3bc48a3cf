//! The one error type of this crate, carried to rustls inside [`rustls::Error::Other`].

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Why a key, a certificate or a signature was refused.
///
/// Every public function of this crate returns it wrapped in a [`rustls::Error::Other`], as the
/// rustls traits require; [`Error::from_rustls`] gets it back. Messages are one line, name the
/// fault, and never contain secret material.
///
/// # Example
///
/// ```
/// let err = redc_rustls::SigningKey::from_pem(b"not a key").unwrap_err();
/// let why = redc_rustls::Error::from_rustls(&err).expect("a redc-rustls error");
/// assert!(matches!(why, redc_rustls::Error::KeyEncoding(_)));
/// assert!(why.to_string().contains("PEM"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The bytes are not a PEM or DER private key in a format this crate reads (PKCS#1
    /// `RSAPrivateKey` or PKCS#8 `PrivateKeyInfo`); the text says what failed. An encrypted
    /// key (encrypted PKCS#8, PEM or DER, or OpenSSL's legacy `Proc-Type: 4,ENCRYPTED` PEM) is
    /// refused this way, the text saying it is encrypted and how to load it: rustls's key
    /// types carry no password, so read it with
    /// [`RsaPrivateKey::from_pem_with_password`](redc::rsa::RsaPrivateKey::from_pem_with_password)
    /// and wrap it with [`SigningKey::new`](crate::SigningKey::new).
    KeyEncoding(String),
    /// The key is a private key, but not an RSA one (EC, Ed25519, …); the text names what it
    /// is.
    NotRsa(String),
    /// The key is an RSA key restricted to RSASSA-PSS (PKCS#8 algorithm `id-RSASSA-PSS`, as
    /// `openssl genpkey -algorithm RSA-PSS` makes): not supported, only `rsaEncryption` keys
    /// are.
    PssRestricted,
    /// The RSA key's numbers were refused by redc's validation (`n ≠ ∏ primes`, a wrong
    /// private exponent, an unsupported size or prime count, …).
    InvalidKey(redc::rsa::Error),
    /// The key's numbers are consistent, but the CRT values stored beside them (`exponent1`,
    /// `exponent2`, `coefficient`, or another prime's exponent or coefficient) are not the ones
    /// they determine.
    CrtMismatch,
    /// The modulus has fewer bits than [`MIN_BITS`](crate::MIN_BITS).
    KeyTooSmall(usize),
    /// A certificate chain could not be read or parsed; the text says what failed.
    Certificate(String),
    /// The end-entity certificate certifies a different public key than the private key's.
    KeyMismatch,
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// A signature was asked for with a scheme that is not one of the RSA schemes
    /// ([`SCHEMES`](crate::SCHEMES)); the scheme is given.
    UnsupportedScheme(rustls::SignatureScheme),
    /// A [`KeyProvider`](crate::KeyProvider) built with a fallback refused the key
    /// (`refused`, why this crate does not load it), and the fallback provider refused it
    /// too (`fallback`, its own error).
    FallbackRefused {
        /// Why this crate refused the key ([`Error::NotRsa`] or [`Error::PssRestricted`]).
        refused: Box<Error>,
        /// The fallback provider's error.
        fallback: rustls::Error,
    },
    /// The private-key operation failed while signing (for instance its fault check caught a
    /// wrong result, which is then not released).
    Sign(redc::rsa::Error),
}

impl Error {
    /// The [`Error`] inside a [`rustls::Error`] that this crate returned, if it is one.
    ///
    /// ```
    /// let err = redc_rustls::load_certificates("/nonexistent/chain.pem").unwrap_err();
    /// match redc_rustls::Error::from_rustls(&err) {
    ///     Some(redc_rustls::Error::Io { path, .. }) => assert!(path.ends_with("chain.pem")),
    ///     other => panic!("unexpected {other:?}"),
    /// }
    /// assert!(redc_rustls::Error::from_rustls(&rustls::Error::DecryptError).is_none());
    /// ```
    pub fn from_rustls(err: &rustls::Error) -> Option<&Error> {
        match err {
            rustls::Error::Other(other) => other.0.downcast_ref::<Error>(),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::KeyEncoding(why) => write!(f, "RSA key refused: {why}"),
            Error::NotRsa(what) => write!(f, "key refused: {what}, not an RSA key"),
            Error::PssRestricted => f.write_str(
                "key refused: RSASSA-PSS-restricted keys (id-RSASSA-PSS) are not supported; \
                 use an rsaEncryption RSA key",
            ),
            Error::InvalidKey(e) => write!(f, "RSA key refused: {e}"),
            Error::CrtMismatch => f.write_str(
                "RSA key refused: its stored CRT values (exponent1, exponent2, coefficient or \
                 another prime's exponent or coefficient) do not match its primes and private \
                 exponent",
            ),
            Error::KeyTooSmall(bits) => write!(
                f,
                "RSA key refused: {bits}-bit modulus, below the {}-bit minimum for TLS",
                crate::MIN_BITS
            ),
            Error::Certificate(why) => write!(f, "certificate refused: {why}"),
            Error::KeyMismatch => f.write_str(
                "certificate refused: its public key is not the private key's public key",
            ),
            Error::Io { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            Error::UnsupportedScheme(scheme) => write!(
                f,
                "RSA signing refused: {scheme:?} is not an RSA signature scheme"
            ),
            Error::FallbackRefused { refused, fallback } => write!(
                f,
                "{refused}; the fallback key provider refused it too: {fallback}"
            ),
            Error::Sign(e) => write!(f, "RSA signing failed: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InvalidKey(e) | Error::Sign(e) => Some(e),
            Error::Io { error, .. } => Some(error),
            Error::FallbackRefused { fallback, .. } => Some(fallback),
            _ => None,
        }
    }
}

impl From<Error> for rustls::Error {
    fn from(e: Error) -> Self {
        rustls::Error::Other(rustls::OtherError(Arc::new(e)))
    }
}

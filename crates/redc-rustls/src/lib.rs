//! RSA signatures for [rustls](https://docs.rs/rustls/0.23) servers (and clients), computed by
//! redc.
//!
//! rustls lets the application bring its own signing key: a
//! [`KeyProvider`](rustls::crypto::KeyProvider) in the `CryptoProvider` turns key files into
//! [`SigningKey`](rustls::sign::SigningKey)s. This crate's [`KEY_PROVIDER`] does that for RSA
//! keys, so switching a rustls server's RSA signatures to redc is one line:
//!
//! ```
//! use rustls::crypto::{aws_lc_rs, CryptoProvider};
//!
//! let provider = CryptoProvider {
//!     key_provider: &redc_rustls::KEY_PROVIDER,
//!     ..aws_lc_rs::default_provider()
//! };
//! ```
//!
//! Everything else (key exchange, ciphers, certificate verification) stays with the provider
//! it was taken from.
//!
//! What a signature goes through, all in redc ([`SigningKey`]): the scheme's hash, EMSA-PSS
//! (salt as long as the hash) or EMSA-PKCS1-v1_5, and the CRT private operation, base-blinded
//! with the operating system's random numbers and checked against the public key before the
//! signature is released. Keys are validated when loaded (every component, and the stored CRT
//! values); a refused key says why ([`Error`]). The crate converts and delegates: it holds no
//! arithmetic or padding of its own.
//!
//! Beside the provider: [`SigningKey`] (from PEM, DER, a file or a redc key),
//! [`certified_key_from_files`] for a [`CertifiedKey`](rustls::sign::CertifiedKey) from a chain
//! and a key file, and [`self_signed`] for a test certificate.

mod cert;
mod error;
mod key;
mod load;
mod provider;

pub use cert::{certified_key, certified_key_from_files, load_certificates, self_signed};
pub use error::Error;
pub use key::{SigningKey, SCHEMES};
pub use provider::{KeyProvider, KEY_PROVIDER};

/// The smallest modulus accepted, in bits: RSA keys below 2048 bits are refused for TLS, as
/// rustls's own providers (aws-lc-rs, ring) refuse them.
///
/// ```
/// let small = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 1024).unwrap();
/// let err = redc_rustls::SigningKey::new(small).unwrap_err();
/// assert!(matches!(
///     redc_rustls::Error::from_rustls(&err),
///     Some(redc_rustls::Error::KeyTooSmall(1024))
/// ));
/// assert_eq!(redc_rustls::MIN_BITS, 2048);
/// ```
pub const MIN_BITS: usize = 2048;

//! [`KeyProvider`]: rustls's key-loading hook, answering RSA keys with a [`SigningKey`].

use std::sync::Arc;

use rustls::pki_types::PrivateKeyDer;
use zeroize::Zeroizing;

use crate::{load, Error, SigningKey};

/// A rustls [`KeyProvider`](rustls::crypto::KeyProvider) that loads every RSA private key
/// (PKCS#1 or PKCS#8, 2 to 5 primes) as a [`SigningKey`], so that rustls's signatures are
/// redc's.
///
/// Other keys are refused, EC and Ed25519 keys with [`Error::NotRsa`], RSA keys restricted to
/// RSASSA-PSS with [`Error::PssRestricted`]; or, when built with
/// [`KeyProvider::with_fallback`], handed to a fallback provider. [`KEY_PROVIDER`] is the one
/// most users need.
///
/// # Example
///
/// ```
/// use rustls::crypto::{aws_lc_rs, CryptoProvider};
///
/// let provider = CryptoProvider {
///     key_provider: &redc_rustls::KEY_PROVIDER,
///     ..aws_lc_rs::default_provider()
/// };
/// ```
#[derive(Clone, Copy, Debug)]
pub struct KeyProvider {
    fallback: Option<&'static dyn rustls::crypto::KeyProvider>,
}

/// The [`KeyProvider`] for RSA keys, with no fallback: put it in a rustls `CryptoProvider`.
///
/// ```
/// use std::sync::Arc;
/// use rustls::crypto::{aws_lc_rs, CryptoProvider};
///
/// let provider = CryptoProvider {
///     key_provider: &redc_rustls::KEY_PROVIDER,
///     ..aws_lc_rs::default_provider()
/// };
/// let builder = rustls::ServerConfig::builder_with_provider(Arc::new(provider))
///     .with_safe_default_protocol_versions()
///     .unwrap();
/// ```
pub static KEY_PROVIDER: KeyProvider = KeyProvider::new();

impl KeyProvider {
    /// A provider for RSA keys only.
    ///
    /// ```
    /// static MINE: redc_rustls::KeyProvider = redc_rustls::KeyProvider::new();
    /// ```
    pub const fn new() -> Self {
        KeyProvider { fallback: None }
    }

    /// A provider that loads RSA keys itself and hands every other kind of key to `fallback`
    /// (for a server that also has ECDSA or Ed25519 certificates). An RSA key this crate
    /// refuses (a bad key, a small one) is not handed over. When the fallback refuses a key
    /// too, the error is [`Error::FallbackRefused`], with both reasons.
    ///
    /// ```
    /// use rustls::crypto::{aws_lc_rs, CryptoProvider};
    ///
    /// let base = aws_lc_rs::default_provider();
    /// let keys: &'static redc_rustls::KeyProvider =
    ///     Box::leak(Box::new(redc_rustls::KeyProvider::with_fallback(base.key_provider)));
    /// let provider = CryptoProvider { key_provider: keys, ..base };
    /// ```
    pub const fn with_fallback(fallback: &'static dyn rustls::crypto::KeyProvider) -> Self {
        KeyProvider {
            fallback: Some(fallback),
        }
    }
}

impl Default for KeyProvider {
    fn default() -> Self {
        Self::new()
    }
}

impl rustls::crypto::KeyProvider for KeyProvider {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn rustls::sign::SigningKey>, rustls::Error> {
        // The DER is secret: wiped when dropped here (a fallback gets its own copy).
        let key_der = Zeroizing::new(key_der);
        match (load::from_key_der(&key_der), self.fallback) {
            (Ok(key), _) => Ok(Arc::new(SigningKey::new(key)?)),
            (Err(refused @ (Error::NotRsa(_) | Error::PssRestricted)), Some(fallback)) => fallback
                .load_private_key(key_der.clone_key())
                .map_err(|fallback| {
                    Error::FallbackRefused {
                        refused: Box::new(refused),
                        fallback,
                    }
                    .into()
                }),
            (Err(e), _) => Err(e.into()),
        }
    }
}

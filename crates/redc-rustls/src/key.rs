//! [`SigningKey`]: an RSA private key that rustls signs handshakes with, computed by redc.
//!
//! rustls asks a signing key for a [`Signer`](rustls::sign::Signer) given the schemes the peer
//! offers ([`SCHEMES`] decides, in rustls's own order), then asks that signer to sign the
//! handshake transcript. This crate hashes the message with the scheme's hash, encodes it
//! (EMSA-PSS with a salt as long as the hash, as TLS 1.3 requires, or EMSA-PKCS1-v1_5) and
//! runs the private operation, all in redc: CRT with base blinding (the generator is the
//! operating system's) and the fault check that releases no wrong signature.
//!
//! How a signature is computed is one enum, `Engine`, with two variants: on the calling thread
//! (`Engine::Direct`, [`SigningKey::new`] and the loaders), or through redc's auto-batching
//! signing service (`Engine::Service`, holding the service and the key's id in it,
//! [`SigningKey::with_service`]).

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use rand_core::OsRng;
use redc::rsa::{EncodePublicKey, HashAlg, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use redc::service::{BatchSigner, KeyId, Scheme};
use rustls::pki_types::{PrivateKeyDer, SubjectPublicKeyInfoDer};
use rustls::{SignatureAlgorithm, SignatureScheme};
use zeroize::Zeroizing;

use crate::{load, Error, MIN_BITS};

/// The schemes a [`SigningKey`] offers, most preferred first: PSS before PKCS#1 v1.5, longer
/// hashes first (the order of rustls's own RSA keys). rustls offers only the PSS ones in TLS
/// 1.3.
///
/// ```
/// use rustls::sign::SigningKey as _;
/// use rustls::SignatureScheme;
///
/// # let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
/// let key = redc_rustls::SigningKey::new(rsa).unwrap();
/// // The peer's offer, in its own order: the key picks by SCHEMES' order.
/// let offered = [SignatureScheme::RSA_PKCS1_SHA256, SignatureScheme::RSA_PSS_SHA256];
/// let signer = key.choose_scheme(&offered).unwrap();
/// assert_eq!(signer.scheme(), SignatureScheme::RSA_PSS_SHA256);
/// assert!(key.choose_scheme(&[SignatureScheme::ECDSA_NISTP256_SHA256]).is_none());
/// ```
pub const SCHEMES: [SignatureScheme; 6] = [
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

/// An RSA private key (2 to 5 primes, at least [`MIN_BITS`] bits) as a rustls
/// [`SigningKey`](rustls::sign::SigningKey), signing with redc.
///
/// Cloning is cheap (the key is shared); it can be used from many threads at once. `Debug`
/// shows the size and the prime count, no secret.
///
/// # Example
///
/// ```no_run
/// use std::sync::Arc;
/// use rustls::sign::{CertifiedKey, SigningKey as _};
///
/// # fn main() -> Result<(), rustls::Error> {
/// let key = redc_rustls::SigningKey::from_file("key.pem")?;
/// assert_eq!(key.bits(), 2048);
/// let chain = redc_rustls::load_certificates("chain.pem")?;
/// let certified = CertifiedKey::new(chain, Arc::new(key));
/// certified.keys_match()?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct SigningKey {
    inner: Arc<Inner>,
}

struct Inner {
    engine: Engine,
    public: RsaPublicKey,
    /// The SubjectPublicKeyInfo DER (`rsaEncryption`), for matching against certificates.
    spki: Vec<u8>,
    bits: usize,
    primes: usize,
}

/// How a signature is computed once the message is hashed and the padding chosen.
enum Engine {
    /// One blinded, fault-checked private operation on the calling thread.
    Direct(Box<RsaPrivateKey>),
    /// Through redc's auto-batching signing service, so that concurrent handshakes share the
    /// vector registers.
    Service(Arc<BatchSigner>, KeyId),
}

impl Drop for Engine {
    /// A key held by the service leaves it with the last clone of its [`SigningKey`] (and of
    /// every signer made from it), so that a server reloading its certificates does not keep
    /// every old private key in the service.
    fn drop(&mut self) {
        if let Engine::Service(service, id) = self {
            service.remove_key(*id);
        }
    }
}

/// The padding of one signature.
#[derive(Clone, Copy)]
enum Padding {
    Pss(HashAlg),
    Pkcs1(HashAlg),
}

impl Engine {
    /// Signs the digest `hashed` with `padding`.
    fn sign(&self, padding: Padding, hashed: &[u8]) -> Result<Vec<u8>, Error> {
        match self {
            Engine::Direct(key) => match padding {
                Padding::Pss(h) => key.sign_with_rng(&mut OsRng, Pss::from_hash(h), hashed),
                Padding::Pkcs1(h) => {
                    key.sign_with_rng(&mut OsRng, Pkcs1v15Sign::from_hash(h), hashed)
                }
            }
            .map_err(Error::Sign),
            Engine::Service(service, id) => {
                let scheme = match padding {
                    Padding::Pss(h) => Scheme::Pss(h),
                    Padding::Pkcs1(h) => Scheme::Pkcs1v15(h),
                };
                service.sign(*id, scheme, hashed).map_err(Error::Sign)
            }
        }
    }
}

impl SigningKey {
    /// Wraps a redc key. Fails with [`Error::KeyTooSmall`] below [`MIN_BITS`].
    ///
    /// ```
    /// let mut rng = rand_core::OsRng;
    /// let rsa = redc::rsa::RsaPrivateKey::new(&mut rng, 2048).unwrap();
    /// let key = redc_rustls::SigningKey::new(rsa).unwrap();
    /// assert_eq!((key.bits(), key.primes()), (2048, 2));
    /// ```
    pub fn new(key: RsaPrivateKey) -> Result<Self, rustls::Error> {
        Self::build(key, None)
    }

    /// [`SigningKey::new`] or [`SigningKey::with_service`].
    fn build(
        key: RsaPrivateKey,
        service: Option<&Arc<BatchSigner>>,
    ) -> Result<Self, rustls::Error> {
        let bits = key.public_key().bits();
        if bits < MIN_BITS {
            return Err(Error::KeyTooSmall(bits).into());
        }
        let spki = key
            .public_key()
            .to_public_key_der()
            .map_err(|e| Error::KeyEncoding(format!("cannot encode the public key: {e}")))?
            .into_vec();
        let (primes, public) = (key.primes().len(), key.to_public_key());
        let engine = match service {
            Some(service) => Engine::Service(Arc::clone(service), service.add_key(key)),
            None => Engine::Direct(Box::new(key)),
        };
        Ok(SigningKey {
            inner: Arc::new(Inner {
                primes,
                public,
                bits,
                spki,
                engine,
            }),
        })
    }

    /// Wraps a redc key whose signatures go through `service` (redc's auto-batching signing
    /// service, shared by every key of a server): under concurrent handshakes the service
    /// signs several at once, side by side in the vector registers; a lone handshake signs on
    /// its own thread as [`SigningKey::new`]'s would. Same checks and errors as
    /// [`SigningKey::new`]. The key is added to the service here and removed from it
    /// ([`BatchSigner::remove_key`]) when the last clone of this `SigningKey`, and of every
    /// signer made from it, is dropped.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use redc::service::{BatchSigner, ServiceConfig};
    /// use rustls::SignatureScheme;
    ///
    /// let service = Arc::new(BatchSigner::new(ServiceConfig::default()));
    /// # let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    /// let key = redc_rustls::SigningKey::with_service(rsa, &service).unwrap();
    /// let sig = key.sign(SignatureScheme::RSA_PSS_SHA256, b"transcript").unwrap();
    /// assert_eq!(sig.len(), 256);
    /// ```
    pub fn with_service(
        key: RsaPrivateKey,
        service: &Arc<BatchSigner>,
    ) -> Result<Self, rustls::Error> {
        Self::build(key, Some(service))
    }

    /// Decodes a key rustls hands over (PKCS#1 or PKCS#8 DER; SEC1 is refused as not RSA).
    ///
    /// ```no_run
    /// use rustls::pki_types::{pem::PemObject, PrivateKeyDer};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let der = PrivateKeyDer::from_pem_file("key.pem")?;
    /// let key = redc_rustls::SigningKey::from_key_der(&der)?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn from_key_der(key: &PrivateKeyDer<'_>) -> Result<Self, rustls::Error> {
        Self::new(load::from_key_der(key)?)
    }

    /// Decodes PEM text with one `RSA PRIVATE KEY` (PKCS#1) or `PRIVATE KEY` (PKCS#8) section;
    /// other sections (certificates, parameters) may surround it.
    ///
    /// ```
    /// let err = redc_rustls::SigningKey::from_pem(b"-----BEGIN CERTIFICATE-----\n").unwrap_err();
    /// println!("{err}");
    /// ```
    pub fn from_pem(pem: &[u8]) -> Result<Self, rustls::Error> {
        Self::new(load::from_pem(pem)?)
    }

    /// Decodes DER: a PKCS#8 `PrivateKeyInfo` or a PKCS#1 `RSAPrivateKey`.
    ///
    /// ```
    /// use redc::rsa::EncodePrivateKey;
    /// let rsa = redc::rsa::RsaPrivateKey::new_multi_prime(&mut rand_core::OsRng, 2048, 3).unwrap();
    /// let der = rsa.to_pkcs8_der().unwrap();
    /// let key = redc_rustls::SigningKey::from_der(der.as_bytes()).unwrap();
    /// assert_eq!(key.primes(), 3);
    /// ```
    pub fn from_der(der: &[u8]) -> Result<Self, rustls::Error> {
        Self::new(load::from_der(der)?)
    }

    /// Reads a key file, PEM or DER (told apart by content), PKCS#1 or PKCS#8.
    ///
    /// ```no_run
    /// let key = redc_rustls::SigningKey::from_file("/etc/ssl/private/server.key")?;
    /// # Ok::<(), rustls::Error>(())
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, rustls::Error> {
        let path = path.as_ref();
        let bytes = Zeroizing::new(std::fs::read(path).map_err(|error| Error::Io {
            path: path.to_path_buf(),
            error,
        })?);
        Self::new(load::from_pem_or_der(&bytes)?)
    }

    /// The modulus size in bits.
    ///
    /// ```
    /// # let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    /// let key = redc_rustls::SigningKey::new(rsa).unwrap();
    /// assert_eq!(key.bits(), 2048);
    /// ```
    pub fn bits(&self) -> usize {
        self.inner.bits
    }

    /// The number of primes (2 to 5).
    ///
    /// ```
    /// # let rsa = redc::rsa::RsaPrivateKey::new_multi_prime(&mut rand_core::OsRng, 2048, 3).unwrap();
    /// let key = redc_rustls::SigningKey::new(rsa).unwrap();
    /// assert_eq!(key.primes(), 3);
    /// ```
    pub fn primes(&self) -> usize {
        self.inner.primes
    }

    /// The public key.
    ///
    /// ```
    /// # let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    /// let key = redc_rustls::SigningKey::new(rsa).unwrap();
    /// assert_eq!(key.rsa_public_key().bits(), 2048);
    /// ```
    pub fn rsa_public_key(&self) -> &RsaPublicKey {
        &self.inner.public
    }

    /// The public key's SubjectPublicKeyInfo, DER (`rsaEncryption`).
    ///
    /// ```
    /// # let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    /// let key = redc_rustls::SigningKey::new(rsa).unwrap();
    /// assert_eq!(key.public_key_der()[0], 0x30); // a DER SEQUENCE
    /// ```
    pub fn public_key_der(&self) -> &[u8] {
        &self.inner.spki
    }

    /// Signs `message` (not hashed: this hashes it) with `scheme`, one of [`SCHEMES`]; the
    /// same bytes rustls's [`Signer`](rustls::sign::Signer) gives for that scheme. Any other
    /// scheme is refused with [`Error::UnsupportedScheme`].
    ///
    /// ```
    /// use rustls::SignatureScheme;
    /// # let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
    /// let key = redc_rustls::SigningKey::new(rsa).unwrap();
    /// let sig = key.sign(SignatureScheme::RSA_PSS_SHA256, b"transcript").unwrap();
    /// assert_eq!(sig.len(), 256);
    /// let err = key.sign(SignatureScheme::ED25519, b"transcript").unwrap_err();
    /// assert!(matches!(
    ///     redc_rustls::Error::from_rustls(&err),
    ///     Some(redc_rustls::Error::UnsupportedScheme(SignatureScheme::ED25519))
    /// ));
    /// ```
    pub fn sign(&self, scheme: SignatureScheme, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        let padding = padding(scheme).ok_or(Error::UnsupportedScheme(scheme))?;
        let hash = match padding {
            Padding::Pss(h) | Padding::Pkcs1(h) => h,
        };
        let hashed = hash.digest(message);
        Ok(self.inner.engine.sign(padding, &hashed)?)
    }
}

/// The padding and hash of an RSA scheme, `None` for every other scheme.
fn padding(scheme: SignatureScheme) -> Option<Padding> {
    Some(match scheme {
        SignatureScheme::RSA_PSS_SHA256 => Padding::Pss(HashAlg::Sha256),
        SignatureScheme::RSA_PSS_SHA384 => Padding::Pss(HashAlg::Sha384),
        SignatureScheme::RSA_PSS_SHA512 => Padding::Pss(HashAlg::Sha512),
        SignatureScheme::RSA_PKCS1_SHA256 => Padding::Pkcs1(HashAlg::Sha256),
        SignatureScheme::RSA_PKCS1_SHA384 => Padding::Pkcs1(HashAlg::Sha384),
        SignatureScheme::RSA_PKCS1_SHA512 => Padding::Pkcs1(HashAlg::Sha512),
        _ => return None,
    })
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("bits", &self.inner.bits)
            .field("primes", &self.inner.primes)
            .finish_non_exhaustive()
    }
}

impl rustls::sign::SigningKey for SigningKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn rustls::sign::Signer>> {
        let scheme = SCHEMES.into_iter().find(|s| offered.contains(s))?;
        Some(Box::new(Signer {
            key: self.clone(),
            scheme,
        }))
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(SubjectPublicKeyInfoDer::from(&self.inner.spki[..]))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::RSA
    }
}

/// One chosen scheme of a [`SigningKey`].
struct Signer {
    key: SigningKey,
    scheme: SignatureScheme,
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signer")
            .field("key", &self.key)
            .field("scheme", &self.scheme)
            .finish()
    }
}

impl rustls::sign::Signer for Signer {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        self.key.sign(self.scheme, message)
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}

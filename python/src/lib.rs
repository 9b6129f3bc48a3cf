//! `redc._redc`: the Rust core of the `redc` Python package. The Python layer (`redc/`) gives
//! it pyca's shapes (padding and hash objects, serialization enums, exceptions); this module
//! takes plain values: hash names, padding kinds, salt lengths and bytes. Every private
//! operation releases the GIL and is blinded with the operating system's generator.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

#[cfg(unix)]
use std::io::{Read, Write};
#[cfg(unix)]
use std::os::unix::net::UnixStream;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use redc::rsa::pkcs8::LineEnding;
use redc::rsa::{
    BoxedUint, EncodePrivateKey, EncodePublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey,
    EncodingFault, Error, HashAlg, Oaep, OsRng, ParameterFault, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss,
    RsaPrivateKey, RsaPublicKey,
};
use redc::service::{BatchSigner, KeyId, Scheme, ServiceConfig, SignFuture};

create_exception!(
    _redc,
    InvalidSignature,
    PyException,
    "A signature did not verify."
);

create_exception!(
    _redc,
    EncryptedKey,
    PyValueError,
    "The key is encrypted (encrypted PKCS#8, or traditional PEM with Proc-Type: 4,ENCRYPTED) \
     and was read without a password; the Python layer turns it into pyca's TypeError."
);

create_exception!(
    _redc,
    NotEncryptedKey,
    PyValueError,
    "A password was given for a private key that is not encrypted; the Python layer turns it \
     into pyca's TypeError."
);

create_exception!(
    _redc,
    BadPassword,
    PyValueError,
    "An encrypted private key did not decrypt: a wrong password, or a damaged key."
);

/// A redc error as the Python exception pyca raises for it: `InvalidSignature` for a failed
/// verification, `EncryptedKey` (a `ValueError`) for an encrypted key read without a password,
/// `NotEncryptedKey` for a password given with a plain key, `BadPassword` for a failed
/// decryption, `ValueError` (with redc's message, which names the fault) otherwise.
fn err(e: Error) -> PyErr {
    match e {
        Error::Verification => InvalidSignature::new_err("the signature did not verify"),
        Error::Encoding(EncodingFault::Encrypted) => EncryptedKey::new_err(e.to_string()),
        Error::Encoding(EncodingFault::NotEncrypted) => NotEncryptedKey::new_err(e.to_string()),
        Error::Encoding(EncodingFault::Decryption) => BadPassword::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

fn hash(name: &str) -> PyResult<HashAlg> {
    HashAlg::from_name(name)
        .ok_or_else(|| PyValueError::new_err(format!("unsupported hash algorithm {name:?}")))
}

fn uint(bytes: &[u8]) -> BoxedUint {
    BoxedUint::from_be_bytes(bytes)
}

/// A padding for signatures: `kind` is "pkcs1v15" or "pss"; `salt` the PSS salt length to
/// sign with (None: the hash's length), or to verify with (None: any, read from the
/// signature).
#[derive(Clone, Copy)]
enum SigPad {
    Pkcs1v15(HashAlg),
    Pss(HashAlg, HashAlg, Option<usize>),
}

fn sig_pad(
    kind: &str,
    hash_name: &str,
    mgf: Option<&str>,
    salt: Option<usize>,
) -> PyResult<SigPad> {
    let h = hash(hash_name)?;
    match kind {
        "pkcs1v15" => Ok(SigPad::Pkcs1v15(h)),
        "pss" => Ok(SigPad::Pss(
            h,
            mgf.map(hash).transpose()?.unwrap_or(h),
            salt,
        )),
        other => Err(PyValueError::new_err(format!(
            "unsupported signature padding {other:?}"
        ))),
    }
}

fn pss(h: HashAlg, mgf: HashAlg, salt: Option<usize>) -> Pss {
    let p = match salt {
        Some(s) => Pss::from_hash_with_salt(h, s),
        None => Pss::from_hash(h),
    };
    p.with_mgf_hash(mgf)
}

/// A padding for encryption: "pkcs1v15", or "oaep" with its hash, MGF1 hash and label.
enum EncPad {
    Pkcs1v15,
    Oaep(Oaep),
}

fn enc_pad(
    kind: &str,
    hash_name: Option<&str>,
    mgf: Option<&str>,
    label: Option<Vec<u8>>,
) -> PyResult<EncPad> {
    match kind {
        "pkcs1v15" => Ok(EncPad::Pkcs1v15),
        "oaep" => {
            let h = hash(hash_name.unwrap_or("sha1"))?;
            let m = mgf.map(hash).transpose()?.unwrap_or(h);
            let label = label.filter(|l| !l.is_empty());
            Ok(EncPad::Oaep(Oaep::from_hash(h, label).with_mgf_hash(m)))
        }
        other => Err(PyValueError::new_err(format!(
            "unsupported encryption padding {other:?}"
        ))),
    }
}

/// A private key (the Python layer wraps it as `redc.RSAPrivateKey`).
#[pyclass(module = "redc._redc", frozen)]
struct PrivateKey {
    key: RsaPrivateKey,
}

/// A public key (wrapped as `redc.RSAPublicKey`).
#[pyclass(module = "redc._redc", frozen)]
struct PublicKey {
    key: RsaPublicKey,
}

/// `data` itself if `prehashed`, else its hash by `h`.
fn digest_of(h: HashAlg, data: &[u8], prehashed: bool) -> std::borrow::Cow<'_, [u8]> {
    if prehashed {
        std::borrow::Cow::Borrowed(data)
    } else {
        std::borrow::Cow::Owned(h.digest(data))
    }
}

fn private_sign(
    key: &RsaPrivateKey,
    pad: SigPad,
    data: &[u8],
    prehashed: bool,
) -> Result<Vec<u8>, Error> {
    let h = match pad {
        SigPad::Pkcs1v15(x) | SigPad::Pss(x, _, _) => x,
    };
    let digest = &digest_of(h, data, prehashed)[..];
    match pad {
        SigPad::Pkcs1v15(h) => key.sign_with_rng(&mut OsRng, Pkcs1v15Sign::from_hash(h), digest),
        SigPad::Pss(h, m, s) => key.sign_with_rng(&mut OsRng, pss(h, m, s), digest),
    }
}

#[pymethods]
impl PrivateKey {
    /// The modulus size in bits.
    #[getter]
    fn key_size(&self) -> usize {
        self.key.n().bits()
    }

    /// The number of primes.
    #[getter]
    fn primes(&self) -> usize {
        self.key.primes().len()
    }

    /// Signs `data` (hashed here unless `prehashed`), blinded; the GIL is released.
    #[pyo3(signature = (data, kind, hash_name, mgf=None, salt=None, prehashed=false))]
    #[allow(clippy::too_many_arguments)]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        kind: &str,
        hash_name: &str,
        mgf: Option<&str>,
        salt: Option<usize>,
        prehashed: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let pad = sig_pad(kind, hash_name, mgf, salt)?;
        let sig = py
            .allow_threads(|| private_sign(&self.key, pad, data, prehashed))
            .map_err(err)?;
        Ok(PyBytes::new(py, &sig))
    }

    /// Signs every item of `items` in one batch (their exponentiations side by side where the
    /// CPU allows); the GIL is released.
    #[pyo3(signature = (items, kind, hash_name, mgf=None, salt=None, prehashed=false))]
    #[allow(clippy::too_many_arguments)]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        items: Vec<Vec<u8>>,
        kind: &str,
        hash_name: &str,
        mgf: Option<&str>,
        salt: Option<usize>,
        prehashed: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let pad = sig_pad(kind, hash_name, mgf, salt)?;
        let sigs = py
            .allow_threads(|| -> Result<Vec<Vec<u8>>, Error> {
                let h = match pad {
                    SigPad::Pkcs1v15(h) | SigPad::Pss(h, _, _) => h,
                };
                let digests: Vec<Vec<u8>> = items
                    .iter()
                    .map(|d| if prehashed { d.clone() } else { h.digest(d) })
                    .collect();
                let refs: Vec<&[u8]> = digests.iter().map(|d| &d[..]).collect();
                match pad {
                    SigPad::Pkcs1v15(h) => {
                        Pkcs1v15Sign::from_hash(h).sign_batch(Some(&mut OsRng), &self.key, &refs)
                    }
                    SigPad::Pss(h, m, s) => {
                        pss(h, m, s).sign_batch(Some(&mut OsRng), &self.key, &refs)
                    }
                }
            })
            .map_err(err)?;
        Ok(sigs.iter().map(|s| PyBytes::new(py, s)).collect())
    }

    /// Decrypts `ciphertext` (blinded, constant-time padding check); the GIL is released.
    #[pyo3(signature = (ciphertext, kind, hash_name=None, mgf=None, label=None))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ciphertext: &[u8],
        kind: &str,
        hash_name: Option<&str>,
        mgf: Option<&str>,
        label: Option<Vec<u8>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let pad = enc_pad(kind, hash_name, mgf, label)?;
        let m = py
            .allow_threads(|| match pad {
                EncPad::Pkcs1v15 => {
                    self.key
                        .decrypt_blinded(&mut OsRng, Pkcs1v15Encrypt, ciphertext)
                }
                EncPad::Oaep(o) => self.key.decrypt_blinded(&mut OsRng, o, ciphertext),
            })
            .map_err(err)?;
        Ok(PyBytes::new(py, &m))
    }

    /// Decrypts every ciphertext in one batch (OAEP or PKCS#1 v1.5); one failure fails the
    /// call with the one decryption error.
    #[pyo3(signature = (ciphertexts, kind, hash_name=None, mgf=None, label=None))]
    fn decrypt_many<'py>(
        &self,
        py: Python<'py>,
        ciphertexts: Vec<Vec<u8>>,
        kind: &str,
        hash_name: Option<&str>,
        mgf: Option<&str>,
        label: Option<Vec<u8>>,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let pad = enc_pad(kind, hash_name, mgf, label)?;
        let out = py
            .allow_threads(|| -> Result<Vec<Vec<u8>>, Error> {
                match pad {
                    EncPad::Oaep(o) => {
                        let refs: Vec<&[u8]> = ciphertexts.iter().map(|c| &c[..]).collect();
                        o.decrypt_batch(Some(&mut OsRng), &self.key, &refs)?
                            .into_iter()
                            .collect()
                    }
                    EncPad::Pkcs1v15 => ciphertexts
                        .iter()
                        .map(|c| self.key.decrypt_blinded(&mut OsRng, Pkcs1v15Encrypt, c))
                        .collect(),
                }
            })
            .map_err(err)?;
        Ok(out.iter().map(|m| PyBytes::new(py, m)).collect())
    }

    /// The public half.
    fn public_key(&self) -> PublicKey {
        PublicKey {
            key: self.key.to_public_key(),
        }
    }

    /// DER of the key: `format` "pkcs8" or "pkcs1" (TraditionalOpenSSL).
    fn to_der<'py>(&self, py: Python<'py>, format: &str) -> PyResult<Bound<'py, PyBytes>> {
        let der = match format {
            "pkcs8" => self
                .key
                .to_pkcs8_der()
                .map(|d| d.as_bytes().to_vec())
                .map_err(|e| e.to_string()),
            "pkcs1" => self
                .key
                .to_pkcs1_der()
                .map(|d| d.as_bytes().to_vec())
                .map_err(|e| e.to_string()),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unsupported private format {other:?}"
                )))
            }
        }
        .map_err(PyValueError::new_err)?;
        Ok(PyBytes::new(py, &der))
    }

    /// DER of the key encrypted with `password` (PKCS#8 EncryptedPrivateKeyInfo: PBES2 with
    /// PBKDF2-HMAC-SHA256 and AES-256-CBC), made without the GIL.
    fn to_encrypted_der<'py>(
        &self,
        py: Python<'py>,
        password: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        let der = py
            .allow_threads(|| self.key.to_encrypted_der(&mut OsRng, password))
            .map_err(err)?;
        Ok(PyBytes::new(py, der.as_bytes()))
    }

    /// PEM (`ENCRYPTED PRIVATE KEY`, LF line endings) of [`PrivateKey::to_encrypted_der`].
    fn to_encrypted_pem(&self, py: Python<'_>, password: &[u8]) -> PyResult<String> {
        let pem = py
            .allow_threads(|| {
                self.key
                    .to_encrypted_pem(&mut OsRng, password, LineEnding::LF)
            })
            .map_err(err)?;
        Ok(pem.to_string())
    }

    /// PEM of the key (LF line endings), as for [`PrivateKey::to_der`].
    fn to_pem(&self, format: &str) -> PyResult<String> {
        let pem = match format {
            "pkcs8" => self
                .key
                .to_pkcs8_pem(LineEnding::LF)
                .map(|p| p.to_string())
                .map_err(|e| e.to_string()),
            "pkcs1" => self
                .key
                .to_pkcs1_pem(LineEnding::LF)
                .map(|p| p.to_string())
                .map_err(|e| e.to_string()),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unsupported private format {other:?}"
                )))
            }
        }
        .map_err(PyValueError::new_err)?;
        Ok(pem)
    }

    /// `(n, e, d, primes, exponents, coefficients)` as big-endian bytes (the coefficients in
    /// PKCS#1 order: qInv first, then each further prime's).
    #[allow(clippy::type_complexity)]
    fn numbers(
        &self,
    ) -> (
        Vec<u8>,
        Vec<u8>,
        Vec<u8>,
        Vec<Vec<u8>>,
        Vec<Vec<u8>>,
        Vec<Vec<u8>>,
    ) {
        let k = &self.key;
        let b = |x: &BoxedUint| x.to_be_bytes().to_vec();
        let primes = k.primes().len();
        let coeffs = core::iter::once(b(k.qinv()))
            .chain((2..primes).filter_map(|i| k.crt_coefficient(i).map(b)))
            .collect();
        (
            b(k.n()),
            b(k.e()),
            b(k.d()),
            k.primes().iter().map(b).collect(),
            (0..primes)
                .filter_map(|i| k.crt_exponent(i).map(b))
                .collect(),
            coeffs,
        )
    }
}

#[pymethods]
impl PublicKey {
    /// The modulus size in bits.
    #[getter]
    fn key_size(&self) -> usize {
        self.key.n().bits()
    }

    /// Verifies `signature` over `data` (hashed here unless `prehashed`); raises
    /// `InvalidSignature`.
    #[pyo3(signature = (signature, data, kind, hash_name, mgf=None, salt=None, prehashed=false))]
    #[allow(clippy::too_many_arguments)]
    fn verify(
        &self,
        py: Python<'_>,
        signature: &[u8],
        data: &[u8],
        kind: &str,
        hash_name: &str,
        mgf: Option<&str>,
        salt: Option<usize>,
        prehashed: bool,
    ) -> PyResult<()> {
        let pad = sig_pad(kind, hash_name, mgf, salt)?;
        py.allow_threads(|| {
            let h = match pad {
                SigPad::Pkcs1v15(h) | SigPad::Pss(h, _, _) => h,
            };
            let owned;
            let digest = if prehashed {
                data
            } else {
                owned = h.digest(data);
                &owned[..]
            };
            match pad {
                SigPad::Pkcs1v15(h) => {
                    self.key
                        .verify(Pkcs1v15Sign::from_hash(h), digest, signature)
                }
                SigPad::Pss(h, m, s) => self.key.verify(pss(h, m, s), digest, signature),
            }
        })
        .map_err(|e| match e {
            // Every way a signature can be wrong is InvalidSignature, as in pyca: a salt
            // length no signature of this key can have included.
            Error::InputOutOfRange(_)
            | Error::Verification
            | Error::UnsupportedParameter(ParameterFault::SaltTooLong { .. }) => {
                InvalidSignature::new_err("the signature did not verify")
            }
            other => err(other),
        })
    }

    /// Encrypts `plaintext` (OAEP or PKCS#1 v1.5).
    #[pyo3(signature = (plaintext, kind, hash_name=None, mgf=None, label=None))]
    fn encrypt<'py>(
        &self,
        py: Python<'py>,
        plaintext: &[u8],
        kind: &str,
        hash_name: Option<&str>,
        mgf: Option<&str>,
        label: Option<Vec<u8>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let pad = enc_pad(kind, hash_name, mgf, label)?;
        let c = py
            .allow_threads(|| match pad {
                EncPad::Pkcs1v15 => self.key.encrypt(&mut OsRng, Pkcs1v15Encrypt, plaintext),
                EncPad::Oaep(o) => self.key.encrypt(&mut OsRng, o, plaintext),
            })
            .map_err(err)?;
        Ok(PyBytes::new(py, &c))
    }

    /// DER of the key: `format` "spki" or "pkcs1".
    fn to_der<'py>(&self, py: Python<'py>, format: &str) -> PyResult<Bound<'py, PyBytes>> {
        let der = match format {
            "spki" => self
                .key
                .to_public_key_der()
                .map(|d| d.as_bytes().to_vec())
                .map_err(|e| e.to_string()),
            "pkcs1" => self
                .key
                .to_pkcs1_der()
                .map(|d| d.as_bytes().to_vec())
                .map_err(|e| e.to_string()),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unsupported public format {other:?}"
                )))
            }
        }
        .map_err(PyValueError::new_err)?;
        Ok(PyBytes::new(py, &der))
    }

    /// PEM of the key, as for [`PublicKey::to_der`].
    fn to_pem(&self, format: &str) -> PyResult<String> {
        match format {
            "spki" => self
                .key
                .to_public_key_pem(LineEnding::LF)
                .map_err(|e| e.to_string()),
            "pkcs1" => self
                .key
                .to_pkcs1_pem(LineEnding::LF)
                .map_err(|e| e.to_string()),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unsupported public format {other:?}"
                )))
            }
        }
        .map_err(PyValueError::new_err)
    }

    /// `(n, e)` as big-endian bytes.
    fn numbers(&self) -> (Vec<u8>, Vec<u8>) {
        (
            self.key.n().to_be_bytes().to_vec(),
            self.key.e().to_be_bytes().to_vec(),
        )
    }
}

/// A new key: `public_exponent` big-endian, `key_size` bits, `primes` primes.
#[pyfunction]
fn generate(
    py: Python<'_>,
    public_exponent: Vec<u8>,
    key_size: usize,
    primes: usize,
) -> PyResult<PrivateKey> {
    let e = uint(&public_exponent);
    let key = py
        .allow_threads(|| RsaPrivateKey::new_multi_prime_with_exp(&mut OsRng, key_size, primes, &e))
        .map_err(err)?;
    Ok(PrivateKey { key })
}

/// A private key from PEM (`pem` true) or DER bytes, PKCS#1 or PKCS#8 (detected); with
/// `password`, an encrypted PKCS#8 key (EncryptedPrivateKeyInfo), decrypted without the GIL.
#[pyfunction]
#[pyo3(signature = (data, pem, password=None))]
fn load_private(
    py: Python<'_>,
    data: &[u8],
    pem: bool,
    password: Option<&[u8]>,
) -> PyResult<PrivateKey> {
    let text = if pem {
        Some(std::str::from_utf8(data).map_err(|_| PyValueError::new_err("PEM data is not text"))?)
    } else {
        None
    };
    let key = py
        .allow_threads(|| match (text, password) {
            (Some(text), None) => RsaPrivateKey::from_pem(text),
            (Some(text), Some(pw)) => RsaPrivateKey::from_pem_with_password(text, pw),
            (None, None) => RsaPrivateKey::from_der(data),
            (None, Some(pw)) => RsaPrivateKey::from_der_with_password(data, pw),
        })
        .map_err(err)?;
    Ok(PrivateKey { key })
}

/// A public key from PEM or DER bytes, SPKI or PKCS#1 (detected); a private key gives its
/// public half.
#[pyfunction]
fn load_public(data: &[u8], pem: bool) -> PyResult<PublicKey> {
    let key = if pem {
        let text =
            std::str::from_utf8(data).map_err(|_| PyValueError::new_err("PEM data is not text"))?;
        RsaPublicKey::from_pem(text)
    } else {
        RsaPublicKey::from_der(data)
    }
    .map_err(err)?;
    Ok(PublicKey { key })
}

/// A private key from its numbers (big-endian): `n`, `e`, `d` and the primes; validated.
#[pyfunction]
fn from_numbers(n: Vec<u8>, e: Vec<u8>, d: Vec<u8>, primes: Vec<Vec<u8>>) -> PyResult<PrivateKey> {
    let key = RsaPrivateKey::from_components(
        uint(&n),
        uint(&e),
        uint(&d),
        primes.iter().map(|p| uint(p)).collect(),
    )
    .map_err(err)?;
    Ok(PrivateKey { key })
}

/// A public key from `n` and `e` (big-endian); validated.
#[pyfunction]
fn public_from_numbers(n: Vec<u8>, e: Vec<u8>) -> PyResult<PublicKey> {
    let key = RsaPublicKey::new(uint(&n), uint(&e)).map_err(err)?;
    Ok(PublicKey { key })
}

/// The backend the private operations run on ("portable", "mulx" or "ifma").
#[pyfunction]
fn backend() -> PyResult<String> {
    redc::mont::backend::Backend::active()
        .map(|b| b.name().to_string())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// redc's signing service (`redc::service::BatchSigner`; wrapped as
/// `redc.service.BatchSigner`): concurrent `sign` calls on its keys, from any threads, are
/// gathered into batches.
///
/// A forked child inherits the service's memory but not its worker threads, and perhaps a
/// lock held by one of them: there the service is never used (`sign` refuses, and the Python
/// layer makes a new one) nor dropped (dropping would wait for workers that do not exist), so
/// every handle created in another process leaks its reference instead.
#[pyclass(module = "redc._redc", frozen)]
struct Service {
    inner: Arc<BatchSigner>,
    /// The process that made it.
    pid: u32,
}

/// Whether `pid` is this process (false in a forked child of it).
fn here(pid: u32) -> bool {
    std::process::id() == pid
}

impl Drop for Service {
    fn drop(&mut self) {
        if !here(self.pid) {
            std::mem::forget(Arc::clone(&self.inner));
        }
    }
}

/// `Ok` in the process that made an object (of `pid`), the refusal of [`forked`] in another.
fn made_here(pid: u32) -> PyResult<()> {
    if here(pid) {
        Ok(())
    } else {
        Err(forked())
    }
}

/// The refusal of a service made by another process.
fn forked() -> PyErr {
    PyValueError::new_err(
        "this signing service was made by another process (before a fork); its worker threads \
         are not in this one",
    )
}

#[pymethods]
impl Service {
    /// A service with `workers` threads (None: one per core), batches of at most `max_batch`
    /// requests of one key, and lone requests signed on their caller's thread when `inline`.
    #[new]
    #[pyo3(signature = (workers=None, max_batch=8, inline=true))]
    fn new(workers: Option<usize>, max_batch: usize, inline: bool) -> PyResult<Self> {
        let mut config = ServiceConfig::default();
        if let Some(w) = workers {
            if !(1..=1024).contains(&w) {
                return Err(PyValueError::new_err(format!(
                    "workers must be between 1 and 1024, got {w}"
                )));
            }
            config.workers = w;
        }
        if !(1..=1024).contains(&max_batch) {
            return Err(PyValueError::new_err(format!(
                "max_batch must be between 1 and 1024, got {max_batch}"
            )));
        }
        config.max_batch = max_batch;
        config.inline = inline;
        Ok(Service {
            inner: Arc::new(BatchSigner::new(config)),
            pid: std::process::id(),
        })
    }

    /// The worker threads that started (0: the operating system refused every one, and each
    /// request is signed on its caller's thread).
    #[getter]
    fn workers(&self) -> usize {
        self.inner.config().workers
    }

    /// The most requests of one key signed together.
    #[getter]
    fn max_batch(&self) -> usize {
        self.inner.config().max_batch
    }

    /// `(requests, inline, batches, largest_batch, cancelled)` so far.
    fn stats(&self) -> PyResult<(u64, u64, u64, u64, u64)> {
        made_here(self.pid)?;
        let s = self.inner.stats();
        Ok((
            s.requests,
            s.inline,
            s.batches,
            s.largest_batch,
            s.cancelled,
        ))
    }

    /// The keys the service holds now.
    #[getter]
    fn keys_held(&self) -> PyResult<usize> {
        made_here(self.pid)?;
        Ok(self.inner.keys_held())
    }

    /// Adds a copy of `key`; the service holds it until the returned handle is dropped.
    fn add_key(&self, key: &PrivateKey) -> PyResult<ServiceKey> {
        made_here(self.pid)?;
        let id = self.inner.add_key(key.key.clone());
        Ok(ServiceKey {
            service: Arc::clone(&self.inner),
            id,
            pid: self.pid,
        })
    }

    /// Whether this process made the service (false in a forked child).
    #[getter]
    fn usable(&self) -> bool {
        here(self.pid)
    }
}

/// One key held by a [`Service`] (inside `redc.service.BatchedPrivateKey`): signing through
/// the service; dropping the handle removes the key from it (zeroized once no batch uses it).
#[pyclass(module = "redc._redc", frozen)]
struct ServiceKey {
    service: Arc<BatchSigner>,
    id: KeyId,
    /// The process that made the service.
    pid: u32,
}

impl Drop for ServiceKey {
    fn drop(&mut self) {
        if here(self.pid) {
            self.service.remove_key(self.id);
        } else {
            std::mem::forget(Arc::clone(&self.service));
        }
    }
}

#[pymethods]
impl ServiceKey {
    /// Whether this process made the key's service (false in a forked child).
    #[getter]
    fn usable(&self) -> bool {
        here(self.pid)
    }

    /// Signs `data` (hashed here unless `prehashed`) through the service: `kind` "pkcs1v15",
    /// or "pss" (MGF1 with the same hash and a salt as long as the hash, the only PSS the
    /// service makes). The GIL is released while the request waits and is signed.
    #[pyo3(signature = (data, kind, hash_name, prehashed=false))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        kind: &str,
        hash_name: &str,
        prehashed: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        made_here(self.pid)?;
        let (h, scheme) = service_scheme(kind, hash_name)?;
        let sig = py
            .allow_threads(|| {
                self.service
                    .sign(self.id, scheme, &digest_of(h, data, prehashed))
            })
            .map_err(err)?;
        Ok(PyBytes::new(py, &sig))
    }
}

/// The hash and the service's scheme for `kind` ("pkcs1v15" or "pss") and `hash_name`.
fn service_scheme(kind: &str, hash_name: &str) -> PyResult<(HashAlg, Scheme)> {
    Ok(match sig_pad(kind, hash_name, None, None)? {
        SigPad::Pkcs1v15(h) => (h, Scheme::Pkcs1v15(h)),
        SigPad::Pss(h, _, _) => (h, Scheme::Pss(h)),
    })
}

/// Signatures requested from asyncio (inside `redc.service`): `submit` queues a request in a
/// key's service and returns at once with a token, and `wait` gives each token with its
/// signature or its error as the service's workers answer. Made with `notify`, the queue has a
/// socket (`notify_fd`) that receives a byte whenever an answer is ready, for an event loop's
/// `add_reader`, which then collects them with `wait(0)` on the loop's own thread; without it,
/// a thread of the Python layer blocks in `wait` (without the GIL) and hands the answers to
/// their loops. Requests are never signed on the submitting thread (unless the service has no
/// worker threads at all). `cancel` drops a request (discarded unsigned if no worker has taken
/// it yet); `close` drops them all and makes `wait` return `None`.
#[pyclass(module = "redc._redc", frozen)]
struct AsyncQueue {
    inner: Arc<QueueInner>,
    /// The process that made it.
    pid: u32,
}

struct QueueInner {
    state: Mutex<QueueState>,
    /// Signalled when a request's future is woken, and on `close`.
    woken: Condvar,
    /// With `notify`: the socket pair whose second end gets a byte per wake-up (written under
    /// the state's lock, so never after `close`), the first end read by the event loop.
    #[cfg(unix)]
    notify: Option<(UnixStream, UnixStream)>,
}

#[derive(Default)]
struct QueueState {
    next_token: u64,
    /// The requests not yet answered, by token.
    pending: HashMap<u64, SignFuture>,
    /// Tokens whose futures were woken since the last `wait`.
    woken: Vec<u64>,
    /// Requests answered by the time they were submitted (a refused request, or a service
    /// without workers, which signs in `sign_async`), with their answers.
    answered: Vec<(u64, redc::rsa::Result<Vec<u8>>)>,
    closed: bool,
}

impl QueueInner {
    fn lock(&self) -> MutexGuard<'_, QueueState> {
        // A panic while holding the lock leaves plain bookkeeping behind, still consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes whoever waits for answers: the thread in `wait`, and the event loop through the
    /// notify socket. Called with the state locked (`state`, not closed).
    fn signal(&self, state: &QueueState) {
        self.woken.notify_all();
        #[cfg(unix)]
        if let (Some((_, write)), false) = (&self.notify, state.closed) {
            // Non-blocking: a full socket already has bytes for the loop to find.
            let _ = (&*write).write(&[1]);
        }
        #[cfg(not(unix))]
        let _ = state;
    }

    /// Empties the notify socket (its bytes only say "look").
    fn drain_notify(&self) {
        #[cfg(unix)]
        if let Some((read, _)) = &self.notify {
            let mut buf = [0u8; 256];
            while matches!((&*read).read(&mut buf), Ok(n) if n > 0) {}
        }
    }
}

/// Wakes a request's token: the service's worker that answered it calls this.
struct TokenWaker {
    queue: Weak<QueueInner>,
    token: u64,
}

impl Wake for TokenWaker {
    fn wake(self: Arc<Self>) {
        if let Some(queue) = self.queue.upgrade() {
            let mut state = queue.lock();
            state.woken.push(self.token);
            queue.signal(&state);
        }
    }
}

impl Drop for AsyncQueue {
    fn drop(&mut self) {
        // In a forked child, as for `Service`: the pending requests' channels may be locked by
        // a thread of the parent, so nothing is dropped there.
        if !here(self.pid) {
            std::mem::forget(Arc::clone(&self.inner));
        }
    }
}

impl AsyncQueue {
    fn waker(&self, token: u64) -> Waker {
        Waker::from(Arc::new(TokenWaker {
            queue: Arc::downgrade(&self.inner),
            token,
        }))
    }
}

#[pymethods]
impl AsyncQueue {
    /// A queue; with `notify`, one with a notify socket (Unix only: elsewhere a
    /// `ValueError`).
    #[new]
    #[pyo3(signature = (notify=false))]
    fn new(notify: bool) -> PyResult<Self> {
        #[cfg(unix)]
        let notify = if notify {
            let pair = UnixStream::pair()
                .and_then(|(read, write)| {
                    read.set_nonblocking(true)?;
                    write.set_nonblocking(true)?;
                    Ok((read, write))
                })
                .map_err(|e| PyValueError::new_err(format!("no notify socket: {e}")))?;
            Some(pair)
        } else {
            None
        };
        #[cfg(not(unix))]
        if notify {
            return Err(PyValueError::new_err("notify sockets are for Unix"));
        }
        Ok(AsyncQueue {
            inner: Arc::new(QueueInner {
                state: Mutex::new(QueueState::default()),
                woken: Condvar::new(),
                #[cfg(unix)]
                notify,
            }),
            pid: std::process::id(),
        })
    }

    /// The notify socket's end to read (for `add_reader`), or `None` without `notify`.
    #[getter]
    fn notify_fd(&self) -> Option<i32> {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            self.inner.notify.as_ref().map(|(read, _)| read.as_raw_fd())
        }
        #[cfg(not(unix))]
        None
    }

    /// Whether this process made the queue (false in a forked child, where nothing waits on
    /// it).
    #[getter]
    fn usable(&self) -> bool {
        here(self.pid)
    }

    /// Requests not yet answered (nor cancelled).
    #[getter]
    fn pending(&self) -> usize {
        self.inner.lock().pending.len()
    }

    /// Queues the signature of `data` (hashed here unless `prehashed`) with `key`'s service,
    /// as `ServiceKey.sign` makes it, and returns its token.
    #[pyo3(signature = (key, data, kind, hash_name, prehashed=false))]
    fn submit(
        &self,
        key: &ServiceKey,
        data: &[u8],
        kind: &str,
        hash_name: &str,
        prehashed: bool,
    ) -> PyResult<u64> {
        made_here(self.pid)?;
        made_here(key.pid)?;
        let (h, scheme) = service_scheme(kind, hash_name)?;
        let mut future = key
            .service
            .sign_async(key.id, scheme, &digest_of(h, data, prehashed));
        let mut state = self.inner.lock();
        if state.closed {
            return Err(PyValueError::new_err("the signing queue is closed"));
        }
        let token = state.next_token;
        state.next_token += 1;
        // The first poll registers the waker (a worker's answer can only wake it after this
        // lock is released), or finds the answer there already (a refused request, or a
        // service without workers that signed it in `sign_async`).
        let waker = self.waker(token);
        match Pin::new(&mut future).poll(&mut Context::from_waker(&waker)) {
            Poll::Ready(result) => {
                state.answered.push((token, result));
                self.inner.signal(&state);
            }
            Poll::Pending => {
                state.pending.insert(token, future);
            }
        }
        Ok(token)
    }

    /// Blocks (without the GIL) until some requests are answered, then returns them as
    /// `(token, signature, None)` or `(token, None, exception)`; `None` once the queue is
    /// closed. With `timeout` (seconds), an empty list when it passes first.
    #[pyo3(signature = (timeout=None))]
    #[allow(clippy::type_complexity)]
    fn wait(
        &self,
        py: Python<'_>,
        timeout: Option<f64>,
    ) -> PyResult<Option<Vec<(u64, Option<PyObject>, Option<PyObject>)>>> {
        made_here(self.pid)?;
        let limit = timeout.map(|t| Duration::from_secs_f64(t.clamp(0.0, 86_400.0)));
        let answered = py.allow_threads(|| {
            self.inner.drain_notify();
            let mut state = self.inner.lock();
            let start = std::time::Instant::now();
            while state.woken.is_empty() && state.answered.is_empty() && !state.closed {
                let left = match limit {
                    Some(l) => match l.checked_sub(start.elapsed()) {
                        Some(left) if !left.is_zero() => Some(left),
                        _ => break,
                    },
                    None => None,
                };
                state = match left {
                    Some(left) => {
                        self.inner
                            .woken
                            .wait_timeout(state, left)
                            .unwrap_or_else(|e| e.into_inner())
                            .0
                    }
                    None => self
                        .inner
                        .woken
                        .wait(state)
                        .unwrap_or_else(|e| e.into_inner()),
                };
            }
            if state.closed {
                return None;
            }
            let mut answered = std::mem::take(&mut state.answered);
            for token in std::mem::take(&mut state.woken) {
                let Some(future) = state.pending.get_mut(&token) else {
                    continue; // cancelled, or woken twice
                };
                let waker = self.waker(token);
                if let Poll::Ready(result) = Pin::new(future).poll(&mut Context::from_waker(&waker))
                {
                    state.pending.remove(&token);
                    answered.push((token, result));
                }
            }
            Some(answered)
        });
        Ok(answered.map(|list| {
            list.into_iter()
                .map(|(token, result)| match result {
                    Ok(sig) => (
                        token,
                        Some(PyBytes::new(py, &sig).into_any().unbind()),
                        None,
                    ),
                    Err(e) => (token, None, Some(err(e).into_value(py).into_any())),
                })
                .collect()
        }))
    }

    /// Drops the request of `token` if it is still pending: it is discarded unsigned unless a
    /// worker has already taken it.
    fn cancel(&self, token: u64) {
        let future = {
            let mut state = self.inner.lock();
            state.answered.retain(|(t, _)| *t != token);
            state.pending.remove(&token)
        };
        drop(future);
    }

    /// Drops every pending request and makes `wait` return `None` (now and from then on).
    fn close(&self) {
        let pending = {
            let mut state = self.inner.lock();
            state.closed = true;
            state.answered.clear();
            std::mem::take(&mut state.pending)
        };
        self.inner.woken.notify_all();
        drop(pending);
    }
}

#[pymodule]
fn _redc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PrivateKey>()?;
    m.add_class::<PublicKey>()?;
    m.add_class::<Service>()?;
    m.add_class::<ServiceKey>()?;
    m.add_class::<AsyncQueue>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(load_private, m)?)?;
    m.add_function(wrap_pyfunction!(load_public, m)?)?;
    m.add_function(wrap_pyfunction!(from_numbers, m)?)?;
    m.add_function(wrap_pyfunction!(public_from_numbers, m)?)?;
    m.add_function(wrap_pyfunction!(backend, m)?)?;
    m.add("InvalidSignature", m.py().get_type::<InvalidSignature>())?;
    m.add("EncryptedKey", m.py().get_type::<EncryptedKey>())?;
    m.add("NotEncryptedKey", m.py().get_type::<NotEncryptedKey>())?;
    m.add("BadPassword", m.py().get_type::<BadPassword>())?;
    Ok(())
}

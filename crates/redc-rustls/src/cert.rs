//! Certificates beside the key: reading a chain, pairing it with a [`SigningKey`] into a rustls
//! [`CertifiedKey`] (refusing a pair whose public keys differ), and a self-signed certificate
//! for a key (built by `rcgen`, signed by redc).

use std::path::Path;
use std::sync::Arc;

use rand_core::{OsRng, RngCore};
use redc::rsa::EncodeRsaPublicKey;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::sign::CertifiedKey;

use crate::{Error, SigningKey};

/// Reads a certificate chain file: PEM with one or more `CERTIFICATE` sections (end-entity
/// first), or one DER certificate.
///
/// Fails with [`Error::Io`] or, when no certificate is found or the end-entity certificate
/// does not parse, [`Error::Certificate`].
///
/// ```no_run
/// let chain = redc_rustls::load_certificates("chain.pem")?;
/// println!("{} certificates", chain.len());
/// # Ok::<(), rustls::Error>(())
/// ```
pub fn load_certificates(
    path: impl AsRef<Path>,
) -> Result<Vec<CertificateDer<'static>>, rustls::Error> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|error| Error::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let chain = if bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        CertificateDer::pem_slice_iter(&bytes)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Error::Certificate(format!("{}: bad PEM: {e}", path.display())))?
    } else {
        vec![CertificateDer::from(bytes)]
    };
    if chain.is_empty() {
        return Err(Error::Certificate(format!(
            "{}: no PEM section \"CERTIFICATE\" found",
            path.display()
        ))
        .into());
    }
    rustls::server::ParsedCertificate::try_from(&chain[0]).map_err(|e| {
        Error::Certificate(format!(
            "{}: the first certificate does not parse: {e}",
            path.display()
        ))
    })?;
    Ok(chain)
}

/// Pairs a certificate chain (end-entity first) with `key`, after checking that the
/// end-entity certificate certifies `key`'s public key ([`Error::KeyMismatch`] otherwise).
///
/// ```no_run
/// use std::sync::Arc;
/// # fn main() -> Result<(), rustls::Error> {
/// let key = redc_rustls::SigningKey::from_file("key.pem")?;
/// let chain = redc_rustls::load_certificates("chain.pem")?;
/// let certified = redc_rustls::certified_key(chain, key)?;
/// let config = rustls::ServerConfig::builder()
///     .with_no_client_auth()
///     .with_cert_resolver(Arc::new(rustls::sign::SingleCertAndKey::from(certified)));
/// # Ok(())
/// # }
/// ```
pub fn certified_key(
    chain: Vec<CertificateDer<'static>>,
    key: SigningKey,
) -> Result<CertifiedKey, rustls::Error> {
    if chain.is_empty() {
        return Err(Error::Certificate("the certificate chain is empty".into()).into());
    }
    let certified = CertifiedKey::new(chain, Arc::new(key));
    match certified.keys_match() {
        Ok(()) => Ok(certified),
        Err(rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch)) => {
            Err(Error::KeyMismatch.into())
        }
        Err(e) => Err(Error::Certificate(format!(
            "the end-entity certificate does not parse: {e}"
        ))
        .into()),
    }
}

/// Reads a certificate chain file and a key file (see [`load_certificates`] and
/// [`SigningKey::from_file`]) into a [`CertifiedKey`] whose signatures redc computes.
///
/// ```no_run
/// use std::sync::Arc;
/// # fn main() -> Result<(), rustls::Error> {
/// let certified = redc_rustls::certified_key_from_files("chain.pem", "key.pem")?;
/// let resolver = Arc::new(rustls::sign::SingleCertAndKey::from(certified));
/// # Ok(())
/// # }
/// ```
pub fn certified_key_from_files(
    chain: impl AsRef<Path>,
    key: impl AsRef<Path>,
) -> Result<CertifiedKey, rustls::Error> {
    let key = SigningKey::from_file(key)?;
    let chain = load_certificates(chain)?;
    certified_key(chain, key)
}

/// A self-signed X.509 v3 certificate for `key`, valid for the DNS names and IP addresses in
/// `names` (its subject alternative names), signed by `key` with `sha256WithRSAEncryption`.
/// For tests and demonstrations: no client trusts it unless told to.
///
/// ```
/// # let rsa = redc::rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
/// let key = redc_rustls::SigningKey::new(rsa).unwrap();
/// let cert = redc_rustls::self_signed(&key, &["localhost", "127.0.0.1"]).unwrap();
/// let certified = redc_rustls::certified_key(vec![cert], key).unwrap();
/// ```
pub fn self_signed(
    key: &SigningKey,
    names: &[&str],
) -> Result<CertificateDer<'static>, rustls::Error> {
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let mut params = rcgen::CertificateParams::new(names)
        .map_err(|e| Error::Certificate(format!("bad subject alternative name: {e}")))?;
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "redc-rustls self-signed");
    // RFC 5280 §4.1.2.2: a positive serial of at most 20 bytes, unique per issuer; 16 random
    // bytes with the top bit clear (positive) and the next one set (no leading zero byte).
    let mut serial = [0u8; 16];
    OsRng
        .try_fill_bytes(&mut serial)
        .map_err(|e| Error::Certificate(format!("no random serial number: {e}")))?;
    serial[0] = (serial[0] & 0x7f) | 0x40;
    params.serial_number = Some(rcgen::SerialNumber::from_slice(&serial));
    let signer = RcgenKey {
        key,
        pkcs1: key
            .rsa_public_key()
            .to_pkcs1_der()
            .map_err(|e| Error::KeyEncoding(format!("cannot encode the public key: {e}")))?
            .into_vec(),
    };
    let cert = params
        .self_signed(&signer)
        .map_err(|e| Error::Certificate(format!("cannot build the certificate: {e}")))?;
    Ok(cert.der().clone())
}

/// A [`SigningKey`] as rcgen's signer.
struct RcgenKey<'a> {
    key: &'a SigningKey,
    /// The PKCS#1 `RSAPublicKey` DER (the SPKI's bit string).
    pkcs1: Vec<u8>,
}

impl rcgen::PublicKeyData for RcgenKey<'_> {
    fn der_bytes(&self) -> &[u8] {
        &self.pkcs1
    }

    fn algorithm(&self) -> &'static rcgen::SignatureAlgorithm {
        &rcgen::PKCS_RSA_SHA256
    }
}

impl rcgen::SigningKey for RcgenKey<'_> {
    fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, rcgen::Error> {
        self.key
            .sign(rustls::SignatureScheme::RSA_PKCS1_SHA256, msg)
            .map_err(|_| rcgen::Error::RemoteKeyError)
    }
}

//! From key bytes to a validated [`RsaPrivateKey`]: PEM or DER, PKCS#1 or PKCS#8, through
//! redc's decoders (which validate every component and the stored CRT values).
//!
//! redc's decoders answer a refused key with one error for every cause. When they refuse one,
//! this module asks again, more finely, to name the fault: whether the DER parses at all
//! (the `pkcs1` / `pkcs8` structures), then whether redc accepts the key's numbers without the
//! stored CRT values ([`RsaPrivateKey::from_components`], whose error names the fault). If it
//! does, the stored CRT values were what was wrong. The second opinion costs a key validation
//! and is only asked for a refused key.

use redc::rsa::pkcs1::{self, der::Decode};
use redc::rsa::pkcs8;
use redc::rsa::{BoxedUint, DecodeRsaPrivateKey, RsaPrivateKey};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::PrivateKeyDer;
use zeroize::Zeroizing;

use crate::Error;

/// `id-RSASSA-PSS` (RFC 8017 Appendix C): an RSA key restricted to PSS.
const RSASSA_PSS_OID: &str = "1.2.840.113549.1.1.10";
/// `id-ecPublicKey` (RFC 5480).
const EC_OID: &str = "1.2.840.10045.2.1";
/// `id-Ed25519` and `id-Ed448` (RFC 8410).
const ED25519_OID: &str = "1.3.101.112";
const ED448_OID: &str = "1.3.101.113";

/// Decodes a key in any encoding rustls hands over.
pub(crate) fn from_key_der(key: &PrivateKeyDer<'_>) -> Result<RsaPrivateKey, Error> {
    match key {
        PrivateKeyDer::Pkcs1(k) => from_pkcs1(k.secret_pkcs1_der()),
        PrivateKeyDer::Pkcs8(k) => from_pkcs8(k.secret_pkcs8_der()),
        PrivateKeyDer::Sec1(_) => Err(Error::NotRsa("an EC key (SEC1)".into())),
        _ => Err(Error::NotRsa("a key of an unknown kind".into())),
    }
}

/// Decodes PEM text holding one `RSA PRIVATE KEY` (PKCS#1) or `PRIVATE KEY` (PKCS#8) section.
pub(crate) fn from_pem(pem: &[u8]) -> Result<RsaPrivateKey, Error> {
    if contains(pem, b"-----BEGIN ENCRYPTED PRIVATE KEY-----") {
        return Err(Error::KeyEncoding(
            "the PEM key is encrypted; decrypt it first (openssl pkey -in KEY -out PLAIN)".into(),
        ));
    }
    match PrivateKeyDer::from_pem_slice(pem) {
        Ok(key) => from_key_der(&Zeroizing::new(key)),
        Err(rustls::pki_types::pem::Error::NoItemsFound) => Err(Error::KeyEncoding(
            "no PEM section \"RSA PRIVATE KEY\", \"PRIVATE KEY\" or \"EC PRIVATE KEY\" found"
                .into(),
        )),
        Err(e) => Err(Error::KeyEncoding(format!("bad PEM: {e}"))),
    }
}

/// Decodes DER, PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey`, whichever it parses as.
pub(crate) fn from_der(der: &[u8]) -> Result<RsaPrivateKey, Error> {
    if pkcs8::PrivateKeyInfo::try_from(der).is_ok() {
        from_pkcs8(der)
    } else if pkcs1::RsaPrivateKey::from_der(der).is_ok() {
        from_pkcs1(der)
    } else {
        Err(Error::KeyEncoding(
            "neither PEM nor a DER PKCS#8 PrivateKeyInfo or PKCS#1 RSAPrivateKey".into(),
        ))
    }
}

/// Decodes PEM if the bytes look like PEM, DER otherwise.
pub(crate) fn from_pem_or_der(bytes: &[u8]) -> Result<RsaPrivateKey, Error> {
    if contains(bytes, b"-----BEGIN ") {
        from_pem(bytes)
    } else {
        from_der(bytes)
    }
}

fn from_pkcs8(der: &[u8]) -> Result<RsaPrivateKey, Error> {
    let info = pkcs8::PrivateKeyInfo::try_from(der)
        .map_err(|e| Error::KeyEncoding(format!("malformed PKCS#8 PrivateKeyInfo: {e}")))?;
    let oid = info.algorithm.oid.to_string();
    if info.algorithm.oid != pkcs1::ALGORITHM_OID {
        let what = match oid.as_str() {
            RSASSA_PSS_OID => "an RSASSA-PSS-only key (id-RSASSA-PSS, unsupported)".into(),
            EC_OID => "an EC key".into(),
            ED25519_OID => "an Ed25519 key".into(),
            ED448_OID => "an Ed448 key".into(),
            _ => format!("a key of algorithm {oid}"),
        };
        return Err(Error::NotRsa(what));
    }
    from_pkcs1(info.private_key)
}

fn from_pkcs1(der: &[u8]) -> Result<RsaPrivateKey, Error> {
    match RsaPrivateKey::from_pkcs1_der(der) {
        Ok(key) => Ok(key),
        Err(_) => Err(diagnose_pkcs1(der)),
    }
}

/// Names the fault of a PKCS#1 `RSAPrivateKey` that redc refused (see the module docs).
fn diagnose_pkcs1(der: &[u8]) -> Error {
    let k = match pkcs1::RsaPrivateKey::from_der(der) {
        Ok(k) => k,
        Err(e) => return Error::KeyEncoding(format!("malformed PKCS#1 RSAPrivateKey: {e}")),
    };
    let uint = |x: pkcs1::UintRef<'_>| BoxedUint::from_be_bytes(x.as_bytes());
    let mut primes = vec![uint(k.prime1), uint(k.prime2)];
    if let Some(others) = &k.other_prime_infos {
        if others.is_empty() {
            return Error::KeyEncoding(
                "malformed PKCS#1 RSAPrivateKey: version multi with no other prime".into(),
            );
        }
        primes.extend(others.iter().map(|o| uint(o.prime)));
    }
    let numbers = RsaPrivateKey::from_components(
        uint(k.modulus),
        uint(k.public_exponent),
        uint(k.private_exponent),
        primes,
    );
    match numbers {
        Err(e) => Error::InvalidKey(e),
        Ok(_) => Error::CrtMismatch,
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

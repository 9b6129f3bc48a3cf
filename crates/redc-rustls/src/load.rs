//! From key bytes to a validated [`RsaPrivateKey`]: PEM or DER, PKCS#1 or PKCS#8, through
//! redc's decoders (which validate every component and the stored CRT values).
//!
//! redc's decoders answer a refused key with one error for every cause. When they refuse one,
//! this module asks again, more finely, to name the fault: whether the DER parses at all
//! (the `pkcs1` / `pkcs8` structures), then whether redc accepts the key's numbers without the
//! stored CRT values ([`RsaPrivateKey::from_components`], whose error names the fault). If it
//! does, the stored CRT values were what was wrong. The second opinion costs a key validation
//! and is only asked for a refused key.

use redc::rsa::pkcs1;
use redc::rsa::pkcs1::der::asn1::AnyRef;
use redc::rsa::pkcs1::der::{Decode, Tag, Tagged};
use redc::rsa::pkcs8;
use redc::rsa::{BoxedUint, DecodeRsaPrivateKey, EncodingFault, KeyFormat, RsaPrivateKey};
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
///
/// An encrypted key, `ENCRYPTED PRIVATE KEY` (PKCS#8) or an `RSA PRIVATE KEY` with OpenSSL's
/// `Proc-Type: 4,ENCRYPTED` header, is refused as encrypted ([`encrypted`]).
pub(crate) fn from_pem(pem: &[u8]) -> Result<RsaPrivateKey, Error> {
    if contains(pem, b"-----BEGIN ENCRYPTED PRIVATE KEY-----") {
        return Err(encrypted());
    }
    match PrivateKeyDer::from_pem_slice(pem) {
        Ok(key) => from_key_der(&Zeroizing::new(key)),
        Err(_) if encrypted_pem(pem) => Err(encrypted()),
        Err(rustls::pki_types::pem::Error::NoItemsFound) => Err(Error::KeyEncoding(
            "no PEM section \"RSA PRIVATE KEY\", \"PRIVATE KEY\" or \"EC PRIVATE KEY\" found"
                .into(),
        )),
        Err(e) => Err(Error::KeyEncoding(format!("bad PEM: {e}"))),
    }
}

/// Whether PEM text that rustls's PEM reader refused holds an encrypted key: asks redc's PEM
/// decoder about each block, which reports both `ENCRYPTED PRIVATE KEY` and OpenSSL's legacy
/// encrypted PEM (`Proc-Type: 4,ENCRYPTED` headers in an `RSA PRIVATE KEY` block, which the
/// reader takes for bad base64) as [`EncodingFault::Encrypted`]. Only asked for refused text.
fn encrypted_pem(pem: &[u8]) -> bool {
    let text = Zeroizing::new(String::from_utf8_lossy(pem).into_owned());
    text.match_indices("-----BEGIN ").any(|(i, _)| {
        matches!(
            RsaPrivateKey::from_pem(&text[i..]),
            Err(redc::rsa::Error::Encoding(EncodingFault::Encrypted))
        )
    })
}

/// Decodes DER: a PKCS#8 `PrivateKeyInfo` or a PKCS#1 `RSAPrivateKey`, whichever it parses
/// as. Other DER is named when it can be: an encrypted PKCS#8 key, an EC key (SEC1), a public
/// key; a truncated or malformed key by the format its first elements have.
pub(crate) fn from_der(der: &[u8]) -> Result<RsaPrivateKey, Error> {
    if pkcs8::PrivateKeyInfo::try_from(der).is_ok() {
        return from_pkcs8(der);
    }
    if pkcs1::RsaPrivateKey::from_der(der).is_ok() {
        return from_pkcs1(der);
    }
    if sec1_shape(der) {
        return Err(Error::NotRsa("an EC key (SEC1)".into()));
    }
    // Neither parses: redc's format detection names encrypted keys and public keys, or the
    // format the bytes were meant to be in, whose decoder then says what is malformed.
    match KeyFormat::detect_der(der) {
        Err(redc::rsa::Error::Encoding(EncodingFault::Encrypted)) => Err(encrypted()),
        Ok(KeyFormat::Pkcs8Private) => from_pkcs8(der),
        Ok(KeyFormat::Pkcs1Private) => from_pkcs1(der),
        Ok(format) if !format.is_private() => Err(Error::KeyEncoding(format!(
            "a public key ({format}), not a private key"
        ))),
        _ => Err(Error::KeyEncoding(
            "neither PEM nor a DER PKCS#8 PrivateKeyInfo or PKCS#1 RSAPrivateKey".into(),
        )),
    }
}

/// Whether `der` is shaped like a SEC1 `ECPrivateKey` (RFC 5915): `SEQUENCE { INTEGER 1,
/// OCTET STRING …`. (A PKCS#1 key has an INTEGER after its version, a PKCS#8 one a SEQUENCE.)
fn sec1_shape(der: &[u8]) -> bool {
    const VERSION_1_THEN_OCTET_STRING: [u8; 4] = [0x02, 0x01, 0x01, 0x04];
    AnyRef::from_der(der).is_ok_and(|seq| {
        seq.tag() == Tag::Sequence && seq.value().starts_with(&VERSION_1_THEN_OCTET_STRING)
    })
}

/// The refusal of an encrypted key, whichever its encoding: rustls's key types carry no
/// password, so the message names the way that takes one.
fn encrypted() -> Error {
    Error::KeyEncoding(
        "the key is encrypted: read it with redc::rsa::RsaPrivateKey::from_pem_with_password \
         (or from_der_with_password) and pass it to SigningKey::new, or decrypt it first \
         (openssl pkey -in KEY -out PLAIN)"
            .into(),
    )
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
    let info = match pkcs8::PrivateKeyInfo::try_from(der) {
        Ok(info) => info,
        Err(_) if is_encrypted_der(der) => return Err(encrypted()),
        Err(e) => {
            return Err(Error::KeyEncoding(format!(
                "malformed PKCS#8 PrivateKeyInfo: {e}"
            )))
        }
    };
    let oid = info.algorithm.oid.to_string();
    if info.algorithm.oid != pkcs1::ALGORITHM_OID {
        let what = match oid.as_str() {
            RSASSA_PSS_OID => return Err(Error::PssRestricted),
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

/// Whether redc's format detection takes `der` for an encrypted PKCS#8 key.
fn is_encrypted_der(der: &[u8]) -> bool {
    matches!(
        KeyFormat::detect_der(der),
        Err(redc::rsa::Error::Encoding(EncodingFault::Encrypted))
    )
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

//! Key encodings through the RustCrypto crates (no hand-parsed ASN.1): PKCS#1 (RFC 8017
//! Appendix A.1), PKCS#8 (RFC 5208) and SubjectPublicKeyInfo (RFC 5280), in DER and PEM.
//!
//! Like RustCrypto's `rsa` crate, the keys implement the PKCS#8 / SPKI conversions, and the
//! `pkcs1` crate's blanket implementations turn them into the PKCS#1 traits:
//!
//! - [`RsaPrivateKey`]: `TryFrom<pkcs8::PrivateKeyInfo>` (so `DecodePrivateKey` and
//!   `DecodeRsaPrivateKey`) and `EncodePrivateKey` (so `EncodeRsaPrivateKey`);
//! - [`RsaPublicKey`]: `TryFrom<spki::SubjectPublicKeyInfoRef>` (so `DecodePublicKey` and
//!   `DecodeRsaPublicKey`) and `EncodePublicKey` (so `EncodeRsaPublicKey`).
//!
//! Decoding runs the full validation of [`RsaPrivateKey::from_components`], with the stored
//! CRT values (`dP`, `dQ`, `qInv`, and each `OtherPrimeInfo`'s exponent and coefficient)
//! checked against the recomputed ones. A key whose algorithm is not `rsaEncryption` is
//! rejected. Multi-prime keys are written as PKCS#1 version 1 (`multi`) with
//! `OtherPrimeInfos`.
//!
//! The RustCrypto traits return those crates' error types, which have no room for what is
//! wrong with a key (an inconsistent key is "PKCS#8 cryptographic key data malformed", even
//! when it was read as PKCS#1). [`RsaPrivateKey::from_pem`], [`RsaPrivateKey::from_der`] and
//! their [`RsaPublicKey`] counterparts detect the format ([`KeyFormat::detect_pem`],
//! [`KeyFormat::detect_der`]) and return redc's [`Error`], which names it: the field and
//! relation ([`KeyFault`](super::KeyFault)), the limit, or the format and where its DER is
//! malformed ([`EncodingFault`]).

use alloc::vec::Vec;

use rand_core::CryptoRngCore;

use der::asn1::{BitStringRef, UintRef};
use der::{Decode, Encode, SecretDocument};
use pkcs1::OtherPrimeInfo;
use spki::{Document, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use super::{GivenCrt, RsaPrivateKey, RsaPublicKey};
use crate::rsa::uint::BoxedUint;
use crate::rsa::{EncodingFault, Error, KeyFormat};

fn uint(x: UintRef<'_>) -> BoxedUint {
    BoxedUint::from_be_bytes(x.as_bytes())
}

/// [`KeyFormat::pem_block`] within PEM text: the text from its first `-----BEGIN ` through
/// the line of the matching end (a range of ASCII bytes, so a `str` slice), or all of it
/// without a `-----BEGIN `.
fn from_boundary(pem: &str) -> &str {
    pem_block_range(pem.as_bytes()).map_or(pem, |r| &pem[r])
}

/// Where [`KeyFormat::pem_block`] lies in `data`.
fn pem_block_range(data: &[u8]) -> Option<core::ops::Range<usize>> {
    const BEGIN: &[u8] = b"-----BEGIN ";
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let start = find(data, BEGIN)?;
    let block = &data[start..];
    let rest = &block[BEGIN.len()..];
    let Some(label) = find(rest, b"-----").map(|j| &rest[..j]) else {
        return Some(start..data.len());
    };
    let end = [b"-----END ", label, b"-----"].concat();
    let Some(j) = find(block, &end) else {
        return Some(start..data.len());
    };
    let mut stop = j + end.len();
    for eol in [&b"\r\n"[..], b"\n"] {
        if block[stop..].starts_with(eol) {
            stop += eol.len();
            break;
        }
    }
    Some(start..start + stop)
}

impl From<pkcs1::Error> for Error {
    fn from(e: pkcs1::Error) -> Self {
        Error::Encoding(EncodingFault::Pkcs1(e))
    }
}

impl From<pkcs8::Error> for Error {
    fn from(e: pkcs8::Error) -> Self {
        Error::Encoding(EncodingFault::Pkcs8(e))
    }
}

impl From<spki::Error> for Error {
    fn from(e: spki::Error) -> Self {
        Error::Encoding(EncodingFault::Spki(e))
    }
}

impl From<der::Error> for Error {
    fn from(e: der::Error) -> Self {
        Error::Encoding(EncodingFault::Asn1(e))
    }
}

/// PBKDF2 iterations [`RsaPrivateKey::to_encrypted_pem`] uses: OWASP's 2023 figure for
/// PBKDF2-HMAC-SHA256 (about a quarter of a second to write or read a key on a current core).
pub const PBKDF2_ITERATIONS: u32 = 600_000;

/// The most PBKDF2 iterations an encrypted key may ask for (about four seconds), and the most
/// iterations of PKCS#12's key derivation; more is refused as [`EncodingFault::KdfCost`]
/// before any work.
pub const MAX_PBKDF2_ITERATIONS: u32 = 10_000_000;

/// The most memory scrypt may ask for (`128·r·N` bytes, 256 MiB; and `128·r·N·p` at most four
/// times that); more is refused as [`EncodingFault::KdfCost`] before any work.
pub const MAX_SCRYPT_BYTES: u64 = 1 << 28;

/// Refuses password hashing whose cost is beyond [`MAX_PBKDF2_ITERATIONS`] or
/// [`MAX_SCRYPT_BYTES`].
fn kdf_within_limits(kdf: &pkcs8::pkcs5::pbes2::Kdf<'_>) -> Result<(), Error> {
    use pkcs8::pkcs5::pbes2::Kdf;
    let ok = match kdf {
        Kdf::Pbkdf2(p) => p.iteration_count <= MAX_PBKDF2_ITERATIONS,
        Kdf::Scrypt(p) => {
            let block = 128u64 * u64::from(p.block_size);
            let mem = block.checked_mul(p.cost_parameter);
            let work = mem.and_then(|m| m.checked_mul(u64::from(p.parallelization)));
            matches!((mem, work), (Some(m), Some(w)) if m <= MAX_SCRYPT_BYTES && w <= 4 * MAX_SCRYPT_BYTES)
        }
        // A KDF this pkcs5 version does not know: its decryption refuses it.
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::Encoding(EncodingFault::KdfCost))
    }
}

/// The algorithm and the encrypted bytes of `der` if it is exactly `SEQUENCE {
/// AlgorithmIdentifier, OCTET STRING }`, an EncryptedPrivateKeyInfo whatever its algorithm
/// (the pkcs8 crate's parser knows only the PBES1 and PBES2 ones).
fn encrypted_info_parts(der: &[u8]) -> Option<(spki::AlgorithmIdentifierRef<'_>, &[u8])> {
    use der::Reader;
    let mut reader = der::SliceReader::new(der).ok()?;
    let parts = reader
        .sequence(|r| {
            let algorithm = r.decode::<spki::AlgorithmIdentifierRef<'_>>()?;
            let body = r.decode::<der::asn1::OctetStringRef<'_>>()?;
            Ok((algorithm, body.as_bytes()))
        })
        .ok()?;
    reader.is_finished().then_some(parts)
}

/// `format`'s DER (or PEM) did not parse: `error` says where.
fn malformed(format: KeyFormat) -> impl FnOnce(der::Error) -> Error {
    move |error| Error::Encoding(EncodingFault::Der { format, error })
}

impl KeyFormat {
    /// The format of PEM text, from its label (the first `-----BEGIN <label>-----` line; text
    /// before it, which RFC 7468 allows, is skipped): [`EncodingFault::Encrypted`] for
    /// `ENCRYPTED PRIVATE KEY`, [`EncodingFault::PemLabel`] for any other label,
    /// [`EncodingFault::Unrecognized`] when the text has no PEM header. Only the label is
    /// read; decoding the rest may still fail.
    ///
    /// ```
    /// use redc::rsa::{Error, EncodingFault, KeyFormat};
    ///
    /// let pem = "-----BEGIN RSA PUBLIC KEY-----\nMAA=\n-----END RSA PUBLIC KEY-----\n";
    /// assert_eq!(KeyFormat::detect_pem(pem), Ok(KeyFormat::Pkcs1Public));
    /// assert_eq!(
    ///     KeyFormat::detect_pem("-----BEGIN CERTIFICATE-----\n"),
    ///     Err(Error::Encoding(EncodingFault::PemLabel))
    /// );
    /// ```
    pub fn detect_pem(pem: &str) -> super::Result<KeyFormat> {
        let label = from_boundary(pem)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .and_then(|l| l.strip_prefix("-----BEGIN ")?.strip_suffix("-----"))
            .ok_or(Error::Encoding(EncodingFault::Unrecognized))?;
        KeyFormat::ALL
            .into_iter()
            .find(|f| f.pem_label() == label)
            .ok_or(Error::Encoding(if label == "ENCRYPTED PRIVATE KEY" {
                EncodingFault::Encrypted
            } else {
                EncodingFault::PemLabel
            }))
    }

    /// The first PEM block of `data`: from its first `-----BEGIN <label>-----` to the end of
    /// the line of the matching `-----END <label>-----` (to the end of `data` when there is
    /// none, for the decoder to report what is missing); `None` without a `-----BEGIN `.
    /// RFC 7468 §5.2 lets explanatory text precede the encapsulation boundary, and files
    /// carry text or bytes after it too (OpenSSL's `rsa -text` and `pkey -text` write a dump
    /// beside the key, PKCS#12 export writes bag attributes, editors add blank lines); OpenSSL
    /// and pyca read such files, and so do [`RsaPrivateKey::from_pem`] and
    /// [`RsaPublicKey::from_pem`], which decode this block.
    ///
    /// ```
    /// use redc::rsa::KeyFormat;
    ///
    /// let file = b"\xff dump\n-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\nmore";
    /// assert_eq!(
    ///     KeyFormat::pem_block(file),
    ///     Some(&b"-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n"[..])
    /// );
    /// assert_eq!(KeyFormat::pem_block(b"\x30\x03\x02\x01\x00"), None);
    /// ```
    pub fn pem_block(data: &[u8]) -> Option<&[u8]> {
        pem_block_range(data).map(|r| &data[r])
    }

    /// The format of DER bytes, from their structure: the format whose structure parses, or,
    /// when none does, the one whose shape the first elements have (so that the error of
    /// decoding it says what is malformed): `SEQUENCE { SEQUENCE …` is a
    /// SubjectPublicKeyInfo, `SEQUENCE { INTEGER 0|1, SEQUENCE …` a PKCS#8 PrivateKeyInfo,
    /// `SEQUENCE { INTEGER 0|1, INTEGER …` a PKCS#1 RSAPrivateKey, and `SEQUENCE { INTEGER …`
    /// otherwise a PKCS#1 RSAPublicKey. [`EncodingFault::Encrypted`] for the shape of a
    /// PKCS#8 EncryptedPrivateKeyInfo (`SEQUENCE { SEQUENCE …, OCTET STRING …`), which redc
    /// does not decrypt; [`EncodingFault::Unrecognized`] if it has none of these shapes.
    pub fn detect_der(der: &[u8]) -> super::Result<KeyFormat> {
        if pkcs8::PrivateKeyInfo::from_der(der).is_ok() {
            return Ok(KeyFormat::Pkcs8Private);
        }
        if pkcs1::RsaPrivateKey::from_der(der).is_ok() {
            return Ok(KeyFormat::Pkcs1Private);
        }
        if SubjectPublicKeyInfoRef::from_der(der).is_ok() {
            return Ok(KeyFormat::Spki);
        }
        if pkcs1::RsaPublicKey::from_der(der).is_ok() {
            return Ok(KeyFormat::Pkcs1Public);
        }
        if encrypted_shape(der) {
            return Err(Error::Encoding(EncodingFault::Encrypted));
        }
        shape(der).ok_or(Error::Encoding(EncodingFault::Unrecognized))
    }
}

/// Whether `der` starts like a PKCS#8 EncryptedPrivateKeyInfo (RFC 5208 §6): `SEQUENCE {
/// SEQUENCE (the encryption algorithm) …, OCTET STRING (the encrypted key) …`. A
/// SubjectPublicKeyInfo has a BIT STRING there.
fn encrypted_shape(der: &[u8]) -> bool {
    const SEQUENCE: u8 = 0x30;
    const OCTET_STRING: u8 = 0x04;
    let Some((SEQUENCE, _, body)) = header(der) else {
        return false;
    };
    let Some((SEQUENCE, len, rest)) = header(body) else {
        return false;
    };
    rest.get(len..)
        .and_then(header)
        .is_some_and(|(tag, _, _)| tag == OCTET_STRING)
}

/// One DER header: the tag, the content length and the content that follows (not checked
/// against the length: the data may be truncated). Short and long length forms up to four
/// bytes.
fn header(der: &[u8]) -> Option<(u8, usize, &[u8])> {
    let (&tag, rest) = der.split_first()?;
    let (&first, rest) = rest.split_first()?;
    if first < 0x80 {
        return Some((tag, first as usize, rest));
    }
    let n = (first & 0x7f) as usize;
    if n == 0 || n > 4 || rest.len() < n {
        return None;
    }
    let len = rest[..n]
        .iter()
        .fold(0usize, |acc, &b| acc << 8 | b as usize);
    Some((tag, len, &rest[n..]))
}

/// The format the first elements of `der` suggest (see [`KeyFormat::detect_der`]).
fn shape(der: &[u8]) -> Option<KeyFormat> {
    const SEQUENCE: u8 = 0x30;
    const INTEGER: u8 = 0x02;
    let (tag, _, body) = header(der)?;
    if tag != SEQUENCE {
        return None;
    }
    let (tag, len, rest) = header(body)?;
    match tag {
        SEQUENCE => Some(KeyFormat::Spki),
        INTEGER if len == 1 && matches!(rest.first(), Some(0 | 1)) => {
            match header(&rest[1..]).map(|(t, _, _)| t) {
                Some(SEQUENCE) => Some(KeyFormat::Pkcs8Private),
                Some(INTEGER) => Some(KeyFormat::Pkcs1Private),
                _ => None,
            }
        }
        INTEGER => Some(KeyFormat::Pkcs1Public),
        _ => None,
    }
}

impl RsaPrivateKey {
    /// Builds a key from a parsed PKCS#1 `RSAPrivateKey`, validating it fully.
    fn from_pkcs1_struct(k: &pkcs1::RsaPrivateKey<'_>) -> super::Result<Self> {
        let mut primes = Vec::from([uint(k.prime1), uint(k.prime2)]);
        let mut exponents = Vec::from([uint(k.exponent1), uint(k.exponent2)]);
        let mut coefficients = Vec::from([uint(k.coefficient)]);
        if let Some(others) = &k.other_prime_infos {
            if others.is_empty() {
                return Err(Error::Encoding(EncodingFault::EmptyOtherPrimeInfos));
            }
            for o in others {
                primes.push(uint(o.prime));
                exponents.push(uint(o.exponent));
                coefficients.push(uint(o.coefficient));
            }
        }
        RsaPrivateKey::build(
            uint(k.modulus),
            uint(k.public_exponent),
            uint(k.private_exponent),
            primes,
            Some(GivenCrt {
                exponents,
                coefficients,
            }),
        )
    }

    /// A private key in PEM, PKCS#1 (`RSA PRIVATE KEY`) or PKCS#8 (`PRIVATE KEY`) by its label,
    /// validated fully, with errors that name what is wrong: the format and where its DER is
    /// malformed, the component and relation that fails, or the limit exceeded.
    ///
    /// ```
    /// use redc::rsa::pkcs8::LineEnding;
    /// use redc::rsa::{EncodeRsaPrivateKey, Error, KeyFault, OsRng, RsaPrivateKey};
    ///
    /// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
    /// let pem = key.to_pkcs1_pem(LineEnding::LF)?;
    /// assert_eq!(RsaPrivateKey::from_pem(&pem)?.to_public_key(), key.to_public_key());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pem(pem: &str) -> super::Result<Self> {
        let pem = from_boundary(pem);
        // OpenSSL's legacy encrypted PEM (RFC 1421 headers in an "RSA PRIVATE KEY" block).
        if pem.contains("Proc-Type: 4,ENCRYPTED") {
            return Err(Error::Encoding(EncodingFault::Encrypted));
        }
        let format = KeyFormat::detect_pem(pem)?;
        if !format.is_private() {
            return Err(Error::Encoding(EncodingFault::WrongKind { format }));
        }
        let (_, der) = der::pem::decode_vec(pem.as_bytes())
            .map_err(|e| malformed(format)(der::Error::from(e)))?;
        let der = Zeroizing::new(der);
        Self::from_der_as(&der, format)
    }

    /// A private key in DER, PKCS#1 or PKCS#8 by its structure ([`KeyFormat::detect_der`]),
    /// validated fully, with errors that name what is wrong (see
    /// [`RsaPrivateKey::from_pem`]).
    pub fn from_der(der: &[u8]) -> super::Result<Self> {
        Self::from_der_as(der, KeyFormat::detect_der(der)?)
    }

    /// A private key in the DER of `format` ([`EncodingFault::WrongKind`] for a public one).
    fn from_der_as(der: &[u8], format: KeyFormat) -> super::Result<Self> {
        match format {
            KeyFormat::Pkcs1Private => Self::from_pkcs1_der_checked(der),
            KeyFormat::Pkcs8Private => Self::from_pkcs8_der_checked(der),
            _ => Err(Error::Encoding(EncodingFault::WrongKind { format })),
        }
    }

    /// A PKCS#1 `RSAPrivateKey` from DER, with redc's errors.
    fn from_pkcs1_der_checked(der: &[u8]) -> super::Result<Self> {
        let k = pkcs1::RsaPrivateKey::from_der(der).map_err(malformed(KeyFormat::Pkcs1Private))?;
        Self::from_pkcs1_struct(&k)
    }

    /// A PKCS#8 `PrivateKeyInfo` holding an `rsaEncryption` key, from DER, with redc's errors.
    fn from_pkcs8_der_checked(der: &[u8]) -> super::Result<Self> {
        let info =
            pkcs8::PrivateKeyInfo::from_der(der).map_err(malformed(KeyFormat::Pkcs8Private))?;
        Self::from_pkcs8_info(&info)
    }

    /// A private key in PEM encrypted with a password, decrypted and then validated as
    /// [`RsaPrivateKey::from_pem`] does: an `ENCRYPTED PRIVATE KEY` (PKCS#8
    /// EncryptedPrivateKeyInfo, RFC 5958), with PBES2 of RFC 8018 (PBKDF2 with HMAC-SHA1 or
    /// SHA-2, or scrypt, and AES-CBC or 3DES-CBC, as `openssl pkcs8 -topk8 -v2 aes-256-cbc`,
    /// `openssl genpkey -aes256` and pyca's `BestAvailableEncryption` write it) or with
    /// PKCS#12's 3DES schemes (RFC 7292 Appendix C: `pbeWithSHAAnd3-KeyTripleDES-CBC`, as
    /// `openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES`, OpenSSL 1.0 by default and Java's key tools
    /// write it, and its two-key form), or an `RSA PRIVATE KEY` in OpenSSL's traditional
    /// encryption (`Proc-Type: 4,ENCRYPTED`, `DEK-Info` with AES-128/192/256-CBC or
    /// DES-EDE3-CBC, as `openssl genrsa -des3` of OpenSSL 1.x and `ssh-keygen -m PEM` write
    /// it).
    ///
    /// Errors that say what is wrong: [`EncodingFault::NotEncrypted`] for a key that is not
    /// encrypted, [`EncodingFault::EncryptionScheme`] for another scheme (PBES1, PKCS#12's
    /// RC2 and RC4 schemes, and single DES or RC2 in any scheme), [`EncodingFault::KdfCost`]
    /// for a key whose password hashing asks for more than [`MAX_PBKDF2_ITERATIONS`] or
    /// [`MAX_SCRYPT_BYTES`] (a file crafted to stall or exhaust the reader),
    /// [`EncodingFault::LegacyHeader`] for malformed traditional headers, and
    /// [`EncodingFault::Decryption`] for a wrong password.
    ///
    /// ```
    /// use redc::rsa::pkcs8::LineEnding;
    /// use redc::rsa::{EncodingFault, Error, OsRng, RsaPrivateKey};
    ///
    /// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
    /// let pem = key.to_encrypted_pem(&mut OsRng, b"correct horse", LineEnding::LF)?;
    /// let back = RsaPrivateKey::from_pem_with_password(&pem, b"correct horse")?;
    /// assert_eq!(back.to_public_key(), key.to_public_key());
    /// assert_eq!(
    ///     RsaPrivateKey::from_pem_with_password(&pem, b"wrong").map(|_| ()),
    ///     Err(Error::Encoding(EncodingFault::Decryption))
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pem_with_password(pem: &str, password: &[u8]) -> super::Result<Self> {
        let pem = from_boundary(pem);
        if pem.contains("Proc-Type: 4,ENCRYPTED") {
            if !pem.starts_with("-----BEGIN RSA PRIVATE KEY-----") {
                return Err(Error::Encoding(EncodingFault::PemLabel));
            }
            return Self::from_decrypted_pkcs1(&super::legacy_pem::decrypt(pem, password)?);
        }
        match KeyFormat::detect_pem(pem) {
            Err(Error::Encoding(EncodingFault::Encrypted)) => {}
            Ok(format) if format.is_private() => {
                return Err(Error::Encoding(EncodingFault::NotEncrypted))
            }
            Ok(format) => return Err(Error::Encoding(EncodingFault::WrongKind { format })),
            Err(e) => return Err(e),
        }
        let (_, der) = der::pem::decode_vec(pem.as_bytes())
            .map_err(|e| Error::Encoding(EncodingFault::EncryptedDer(der::Error::from(e))))?;
        Self::from_encrypted_der(&der, password)
    }

    /// A private key in DER encrypted with a password (PKCS#8 EncryptedPrivateKeyInfo), as
    /// [`RsaPrivateKey::from_pem_with_password`] reads it from PEM.
    pub fn from_der_with_password(der: &[u8], password: &[u8]) -> super::Result<Self> {
        match KeyFormat::detect_der(der) {
            Err(Error::Encoding(EncodingFault::Encrypted)) => {
                Self::from_encrypted_der(der, password)
            }
            Ok(format) if format.is_private() => Err(Error::Encoding(EncodingFault::NotEncrypted)),
            Ok(format) => Err(Error::Encoding(EncodingFault::WrongKind { format })),
            Err(e) => Err(e),
        }
    }

    /// Decrypts an EncryptedPrivateKeyInfo (after checking its scheme and cost) and reads the
    /// PKCS#8 key inside.
    fn from_encrypted_der(der: &[u8], password: &[u8]) -> super::Result<Self> {
        let parts = encrypted_info_parts(der);
        if let Some(plain) =
            parts.and_then(|(alg, body)| super::pkcs12_pbe::decrypt(alg, body, password))
        {
            return Self::from_decrypted_pkcs8(&plain?);
        }
        let info = pkcs8::EncryptedPrivateKeyInfo::from_der(der).map_err(|e| {
            // Well formed around an algorithm the pkcs5 crate does not know (PKCS#12's RC2
            // and RC4 schemes, say): an unsupported scheme, not a damaged key.
            if parts.is_some() {
                Error::Encoding(EncodingFault::EncryptionScheme)
            } else {
                Error::Encoding(EncodingFault::EncryptedDer(e))
            }
        })?;
        let params = info
            .encryption_algorithm
            .pbes2()
            .ok_or(Error::Encoding(EncodingFault::EncryptionScheme))?;
        kdf_within_limits(&params.kdf)?;
        let plain = info.decrypt(password).map_err(|e| match e {
            pkcs8::Error::EncryptedPrivateKey(
                pkcs8::pkcs5::Error::UnsupportedAlgorithm { .. }
                | pkcs8::pkcs5::Error::AlgorithmParametersInvalid { .. }
                | pkcs8::pkcs5::Error::NoPbes1CryptSupport,
            ) => Error::Encoding(EncodingFault::EncryptionScheme),
            // A failed padding check, or (one time in about 256 with a wrong password) bytes
            // that pass it and are not DER.
            _ => Error::Encoding(EncodingFault::Decryption),
        })?;
        Self::from_decrypted_pkcs8(plain.as_bytes())
    }

    /// The key in a decrypted PKCS#8 `PrivateKeyInfo`; bytes that do not parse are what a
    /// wrong password leaves when the padding checks by chance (about one time in 256).
    fn from_decrypted_pkcs8(plain: &[u8]) -> super::Result<Self> {
        match pkcs8::PrivateKeyInfo::from_der(plain) {
            Ok(inner) => Self::from_pkcs8_info(&inner),
            Err(_) => Err(Error::Encoding(EncodingFault::Decryption)),
        }
    }

    /// The key in a decrypted PKCS#1 `RSAPrivateKey` (OpenSSL's traditional encryption), with
    /// bytes that do not parse taken as [`RsaPrivateKey::from_decrypted_pkcs8`] takes them.
    fn from_decrypted_pkcs1(plain: &[u8]) -> super::Result<Self> {
        match pkcs1::RsaPrivateKey::from_der(plain) {
            Ok(k) => Self::from_pkcs1_struct(&k),
            Err(_) => Err(Error::Encoding(EncodingFault::Decryption)),
        }
    }

    /// This key as an `ENCRYPTED PRIVATE KEY` in PEM: PKCS#8 encrypted by PBES2 with
    /// PBKDF2-HMAC-SHA256 ([`PBKDF2_ITERATIONS`] iterations, a random 16-byte salt) and
    /// AES-256-CBC (a random IV), the scheme every current reader takes (`openssl pkey
    /// -passin`, pyca's `load_pem_private_key(data, password)`, Go's and Java's PKCS#8
    /// readers with PBES2). [`Error::Rng`] if `rng` fails.
    pub fn to_encrypted_pem(
        &self,
        rng: &mut dyn CryptoRngCore,
        password: &[u8],
        line_ending: pkcs8::LineEnding,
    ) -> super::Result<Zeroizing<alloc::string::String>> {
        let doc = self.to_encrypted_der(rng, password)?;
        Ok(doc.to_pem("ENCRYPTED PRIVATE KEY", line_ending)?)
    }

    /// This key as a DER EncryptedPrivateKeyInfo (see [`RsaPrivateKey::to_encrypted_pem`]).
    pub fn to_encrypted_der(
        &self,
        rng: &mut dyn CryptoRngCore,
        password: &[u8],
    ) -> super::Result<SecretDocument> {
        let plain = pkcs8::EncodePrivateKey::to_pkcs8_der(self)?;
        let info = pkcs8::PrivateKeyInfo::from_der(plain.as_bytes())?;
        let (mut salt, mut iv) = ([0u8; 16], [0u8; 16]);
        rng.try_fill_bytes(&mut salt).map_err(|_| Error::Rng)?;
        rng.try_fill_bytes(&mut iv).map_err(|_| Error::Rng)?;
        let params =
            pkcs8::pkcs5::pbes2::Parameters::pbkdf2_sha256_aes256cbc(PBKDF2_ITERATIONS, &salt, &iv)
                .map_err(pkcs8::Error::EncryptedPrivateKey)?;
        Ok(info.encrypt_with_params(params, password)?)
    }

    /// The key inside a parsed `PrivateKeyInfo`, whose algorithm MUST be `rsaEncryption`.
    fn from_pkcs8_info(info: &pkcs8::PrivateKeyInfo<'_>) -> super::Result<Self> {
        if info.algorithm.oid != pkcs1::ALGORITHM_OID {
            return Err(Error::Encoding(EncodingFault::Algorithm {
                format: KeyFormat::Pkcs8Private,
                oid: info.algorithm.oid,
            }));
        }
        Self::from_pkcs1_der_checked(info.private_key)
    }

    /// The PKCS#1 `RSAPrivateKey` DER (version `multi` with `OtherPrimeInfos` for more than two
    /// primes).
    fn pkcs1_der(&self) -> Result<Zeroizing<Vec<u8>>, der::Error> {
        let bytes = |x: &BoxedUint| x.to_be_bytes();
        let n = bytes(self.n());
        let e = bytes(self.e());
        let d = bytes(self.d());
        let primes: Vec<_> = self.primes().iter().map(bytes).collect();
        let exps: Vec<_> = self.crt.iter().map(|pc| bytes(&pc.d_i)).collect();
        let coeffs: Vec<_> = self.crt.iter().map(|pc| bytes(&pc.coeff)).collect();
        let qinv = bytes(self.qinv());
        let other_prime_infos = if primes.len() > 2 {
            let mut v = Vec::new();
            for i in 2..primes.len() {
                v.push(OtherPrimeInfo {
                    prime: UintRef::new(&primes[i])?,
                    exponent: UintRef::new(&exps[i])?,
                    coefficient: UintRef::new(&coeffs[i])?,
                });
            }
            Some(v)
        } else {
            None
        };
        let k = pkcs1::RsaPrivateKey {
            modulus: UintRef::new(&n)?,
            public_exponent: UintRef::new(&e)?,
            private_exponent: UintRef::new(&d)?,
            prime1: UintRef::new(&primes[0])?,
            prime2: UintRef::new(&primes[1])?,
            exponent1: UintRef::new(&exps[0])?,
            exponent2: UintRef::new(&exps[1])?,
            coefficient: UintRef::new(&qinv)?,
            other_prime_infos,
        };
        Ok(Zeroizing::new(k.to_der()?))
    }
}

impl TryFrom<pkcs8::PrivateKeyInfo<'_>> for RsaPrivateKey {
    type Error = pkcs8::Error;

    /// Decodes and validates the PKCS#1 key inside a PKCS#8 `PrivateKeyInfo` whose algorithm
    /// MUST be `rsaEncryption`.
    ///
    /// The `pkcs8` error type has no room for what is wrong with an inconsistent key (it is
    /// `KeyMalformed`); [`RsaPrivateKey::from_der`] and [`RsaPrivateKey::from_pem`] say it.
    fn try_from(info: pkcs8::PrivateKeyInfo<'_>) -> pkcs8::Result<Self> {
        RsaPrivateKey::from_pkcs8_info(&info).map_err(|e| match e {
            Error::Encoding(EncodingFault::Algorithm { oid, .. }) => {
                pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid })
            }
            Error::Encoding(EncodingFault::Der { error, .. }) => pkcs8::Error::Asn1(error),
            _ => pkcs8::Error::KeyMalformed,
        })
    }
}

impl pkcs8::EncodePrivateKey for RsaPrivateKey {
    /// PKCS#8 `PrivateKeyInfo` (version 1) with algorithm `rsaEncryption` (NULL parameters).
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let der = self.pkcs1_der()?;
        let info = pkcs8::PrivateKeyInfo::new(pkcs1::ALGORITHM_ID, &der);
        SecretDocument::try_from(info)
    }
}

impl RsaPublicKey {
    /// A public key in PEM, SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`)
    /// by its label, validated, with errors that name what is wrong: the format and where its
    /// DER is malformed, or the limit exceeded.
    ///
    /// ```
    /// use redc::rsa::pkcs8::LineEnding;
    /// use redc::rsa::{EncodePublicKey, Error, EncodingFault, KeyFormat, OsRng, RsaPrivateKey, RsaPublicKey};
    ///
    /// let key = RsaPrivateKey::new(&mut OsRng, 1024)?.to_public_key();
    /// let pem = key.to_public_key_pem(LineEnding::LF)?;
    /// assert_eq!(RsaPublicKey::from_pem(&pem)?, key);
    ///
    /// // A truncated document: the format is known from the label, and the error says so.
    /// let err = RsaPublicKey::from_pem(&pem[..pem.len() / 2]).unwrap_err();
    /// assert!(matches!(
    ///     err,
    ///     Error::Encoding(EncodingFault::Der { format: KeyFormat::Spki, .. })
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pem(pem: &str) -> super::Result<Self> {
        let pem = from_boundary(pem);
        let format = KeyFormat::detect_pem(pem)?;
        if format.is_private() {
            return Err(Error::Encoding(EncodingFault::WrongKind { format }));
        }
        let (_, der) = der::pem::decode_vec(pem.as_bytes())
            .map_err(|e| malformed(format)(der::Error::from(e)))?;
        Self::from_der_as(&der, format)
    }

    /// A public key in DER, SubjectPublicKeyInfo or PKCS#1 by its structure
    /// ([`KeyFormat::detect_der`]), validated, with errors that name what is wrong (see
    /// [`RsaPublicKey::from_pem`]).
    pub fn from_der(der: &[u8]) -> super::Result<Self> {
        Self::from_der_as(der, KeyFormat::detect_der(der)?)
    }

    /// A public key in the DER of `format` ([`EncodingFault::WrongKind`] for a private one).
    fn from_der_as(der: &[u8], format: KeyFormat) -> super::Result<Self> {
        match format {
            KeyFormat::Spki => {
                let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(malformed(format))?;
                Self::from_spki(&spki)
            }
            KeyFormat::Pkcs1Public => Self::from_pkcs1_der_checked(der),
            _ => Err(Error::Encoding(EncodingFault::WrongKind { format })),
        }
    }

    /// The key inside a parsed SPKI, whose algorithm MUST be `rsaEncryption`.
    fn from_spki(spki: &SubjectPublicKeyInfoRef<'_>) -> super::Result<Self> {
        if spki.algorithm.oid != pkcs1::ALGORITHM_OID {
            return Err(Error::Encoding(EncodingFault::Algorithm {
                format: KeyFormat::Spki,
                oid: spki.algorithm.oid,
            }));
        }
        // A BIT STRING with unused bits cannot hold a DER structure.
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or_else(|| malformed(KeyFormat::Spki)(der::Tag::BitString.value_error()))?;
        Self::from_pkcs1_der_checked(bytes)
    }

    /// A PKCS#1 `RSAPublicKey` from DER, with redc's errors.
    fn from_pkcs1_der_checked(der: &[u8]) -> super::Result<Self> {
        let k = pkcs1::RsaPublicKey::from_der(der).map_err(malformed(KeyFormat::Pkcs1Public))?;
        RsaPublicKey::new(uint(k.modulus), uint(k.public_exponent))
    }

    /// The PKCS#1 `RSAPublicKey` DER.
    fn pkcs1_der(&self) -> Result<Vec<u8>, der::Error> {
        let n = self.n().to_be_bytes();
        let e = self.e().to_be_bytes();
        pkcs1::RsaPublicKey {
            modulus: UintRef::new(&n)?,
            public_exponent: UintRef::new(&e)?,
        }
        .to_der()
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for RsaPublicKey {
    type Error = spki::Error;

    /// Decodes and validates the PKCS#1 key inside an SPKI whose algorithm MUST be
    /// `rsaEncryption`.
    ///
    /// The `spki` error type has no room for what is wrong with the key (it is
    /// `KeyMalformed`); [`RsaPublicKey::from_der`] and [`RsaPublicKey::from_pem`] say it.
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        RsaPublicKey::from_spki(&spki).map_err(|e| match e {
            Error::Encoding(EncodingFault::Algorithm { oid, .. }) => {
                spki::Error::OidUnknown { oid }
            }
            Error::Encoding(EncodingFault::Der { error, .. }) => spki::Error::Asn1(error),
            _ => spki::Error::KeyMalformed,
        })
    }
}

impl spki::EncodePublicKey for RsaPublicKey {
    /// SPKI with algorithm `rsaEncryption` (NULL parameters).
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let der = self.pkcs1_der()?;
        let spki = SubjectPublicKeyInfoRef {
            algorithm: pkcs1::ALGORITHM_ID,
            subject_public_key: BitStringRef::from_bytes(&der)?,
        };
        Document::try_from(spki)
    }
}

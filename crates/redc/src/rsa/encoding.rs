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

use alloc::vec::Vec;

use der::asn1::{BitStringRef, UintRef};
use der::{Decode, Encode, SecretDocument};
use pkcs1::OtherPrimeInfo;
use spki::{Document, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use super::key::{GivenCrt, RsaPrivateKey, RsaPublicKey};
use super::uint::BoxedUint;
use super::Error;

fn uint(x: UintRef<'_>) -> BoxedUint {
    BoxedUint::from_be_bytes(x.as_bytes())
}

impl From<pkcs1::Error> for Error {
    fn from(_: pkcs1::Error) -> Self {
        Error::Encoding
    }
}

impl From<pkcs8::Error> for Error {
    fn from(_: pkcs8::Error) -> Self {
        Error::Encoding
    }
}

impl From<spki::Error> for Error {
    fn from(_: spki::Error) -> Self {
        Error::Encoding
    }
}

impl From<der::Error> for Error {
    fn from(_: der::Error) -> Self {
        Error::Encoding
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
                return Err(Error::Encoding);
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
    fn try_from(info: pkcs8::PrivateKeyInfo<'_>) -> pkcs8::Result<Self> {
        info.algorithm.assert_algorithm_oid(pkcs1::ALGORITHM_OID)?;
        let k = pkcs1::RsaPrivateKey::from_der(info.private_key)
            .map_err(|_| pkcs8::Error::KeyMalformed)?;
        RsaPrivateKey::from_pkcs1_struct(&k).map_err(|_| pkcs8::Error::KeyMalformed)
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
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        spki.algorithm.assert_algorithm_oid(pkcs1::ALGORITHM_OID)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        let k = pkcs1::RsaPublicKey::from_der(bytes).map_err(|_| spki::Error::KeyMalformed)?;
        RsaPublicKey::new(uint(k.modulus), uint(k.public_exponent))
            .map_err(|_| spki::Error::KeyMalformed)
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

//! RSA errors. Every message is one line, names what is wrong with what the caller gave (the
//! field, the limit, the format) and never contains secret material; decryption and
//! verification failures are deliberately each one undetailed error
//! ([`Error::Decryption`], [`Error::Verification`]), so that they reveal nothing.

use core::fmt;

/// What can go wrong in [`crate::rsa`].
///
/// ```
/// use redc::rsa::{BoxedUint, Error, RsaPublicKey};
///
/// let n = BoxedUint::from_be_bytes(&[0xff; 50]); // 400 bits
/// let err = RsaPublicKey::new(n, BoxedUint::from_u64(65537)).unwrap_err();
/// assert_eq!(err, Error::KeySize { bits: 400, min: 512, max: 16384 });
/// assert_eq!(err.to_string(), "modulus of 400 bits is below the 512-bit minimum");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Arithmetic-layer error (bad modulus, operand too large, unavailable backend, an
    /// invalid `REDC_BACKEND`, ...).
    Arith(crate::Error),
    /// The modulus has `bits` bits, outside `min..=max` (512..=16384 for import,
    /// 1024..=16384 for generation).
    KeySize {
        /// The modulus size asked for or given.
        bits: usize,
        /// The smallest size accepted here.
        min: usize,
        /// The largest size accepted here.
        max: usize,
    },
    /// A key of `bits` bits takes 2 to `max` primes, not `primes` (OpenSSL's limits: 3 from
    /// 1024 bits, 4 from 4096, 5 from 8192).
    PrimeCount {
        /// The number of primes asked for or given.
        primes: usize,
        /// The key size.
        bits: usize,
        /// The most primes a key of this size may have.
        max: usize,
    },
    /// The public exponent is invalid, and how.
    PublicExponent(ExponentFault),
    /// The key's components are inconsistent: which one, and how.
    InvalidKey(KeyFault),
    /// A signature did not verify.
    Verification,
    /// Decryption failed; one error for every cause, so that it reveals nothing.
    Decryption,
    /// The message (for a signature: the `DigestInfo`) has `len` bytes, more than the `max`
    /// that the key and padding can take.
    MessageTooLong {
        /// The length given.
        len: usize,
        /// The most this key and padding take.
        max: usize,
    },
    /// An input (signature, ciphertext, message representative, digest, seed) has the wrong
    /// length or is not below the modulus: which.
    InputOutOfRange(InputFault),
    /// The fault check failed: the private result raised to e did not give the input back.
    FaultDetected,
    /// A hash or padding parameter is not supported, and which.
    UnsupportedParameter(ParameterFault),
    /// The random number generator failed.
    Rng,
    /// Key generation gave up (should not happen with a working RNG).
    KeyGeneration,
    /// A key encoding could not be read or written: the format and what is wrong.
    Encoding(EncodingFault),
    /// The signing service ([`crate::service::BatchSigner`]) stopped before it answered: it
    /// was being dropped, or the computation of the request panicked.
    ServiceStopped,
    /// The signing service ([`crate::service::BatchSigner`]) holds no key with this id: the
    /// [`crate::service::KeyId`] was issued by another service.
    UnknownKey,
}

/// What is wrong with a public exponent ([`Error::PublicExponent`]).
///
/// ```
/// use redc::rsa::{BoxedUint, Error, ExponentFault, OsRng, RsaPrivateKey};
///
/// let err = RsaPrivateKey::new_with_exp(&mut OsRng, 2048, &BoxedUint::from_u64(4)).unwrap_err();
/// assert_eq!(err, Error::PublicExponent(ExponentFault::Even));
/// assert_eq!(err.to_string(), "invalid public exponent: e is even");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExponentFault {
    /// `e` is even.
    Even,
    /// `e` is below 3.
    TooSmall,
    /// `e` is not below the modulus `n`.
    NotBelowModulus,
    /// `e` has `bits` bits, more than the `max` key generation takes (FIPS 186-5: `e < 2^256`).
    TooLarge {
        /// The exponent's size.
        bits: usize,
        /// The largest size accepted.
        max: usize,
    },
}

/// Which component of a private key is wrong, and how ([`Error::InvalidKey`]).
///
/// Primes are numbered from 0 in the order given: 0 is `p` (PKCS#1 `prime1`), 1 is `q`
/// (`prime2`), 2 and up are `r₃, r₄, …` (the `otherPrimeInfos`, first one 2).
///
/// ```
/// use redc::rsa::{BoxedUint, Error, KeyFault, OsRng, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
/// let mut primes = key.primes().to_vec();
/// primes[1] = primes[0].clone();
/// let err = RsaPrivateKey::from_components(key.n().clone(), key.e().clone(), key.d().clone(), primes)
///     .unwrap_err();
/// assert_eq!(err, Error::InvalidKey(KeyFault::ModulusNotProduct));
/// assert_eq!(err.to_string(), "invalid key: n is not the product of the primes");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyFault {
    /// The modulus `n` is even.
    EvenModulus,
    /// The private exponent `d` is zero or not below `n`.
    PrivateExponentRange,
    /// Prime `index` is even.
    EvenPrime {
        /// The prime's position.
        index: usize,
    },
    /// Prime `index` has `bits` bits, fewer than the 65 the private operation needs.
    PrimeTooSmall {
        /// The prime's position.
        index: usize,
        /// Its size.
        bits: usize,
    },
    /// Prime `index` is longer than `n`.
    PrimeTooLarge {
        /// The prime's position.
        index: usize,
    },
    /// `n` is not the product of the primes.
    ModulusNotProduct,
    /// Primes `index` and `other` are equal.
    RepeatedPrime {
        /// The first prime's position.
        index: usize,
        /// The position of its repetition.
        other: usize,
    },
    /// `d·e ≢ 1 (mod rᵢ − 1)` for prime `index`: `d` is not the private exponent for `e`.
    ExponentMismatch {
        /// The prime's position.
        index: usize,
    },
    /// The stored CRT exponent of prime `index` is not `d mod (rᵢ − 1)` (`exponent1`, i.e.
    /// `dP`, for 0; `exponent2`, `dQ`, for 1).
    CrtExponent {
        /// The prime's position.
        index: usize,
    },
    /// The stored CRT coefficient of prime `index` is wrong: for 0 the PKCS#1 `coefficient`
    /// `qInv`, which must be `q⁻¹ mod p`; for 2 and up `tᵢ`, which must be the inverse of the
    /// product of the primes before it, modulo `rᵢ`.
    CrtCoefficient {
        /// The prime's position (0, or 2 and up).
        index: usize,
    },
    /// Prime `index` is not prime (its Fermat inverse is wrong).
    NotPrime {
        /// The prime's position.
        index: usize,
    },
    /// `e ≡ 1 (mod rᵢ − 1)` for prime `index`, so its CRT exponent `dᵢ` is 1: the private
    /// operation is the identity modulo that prime, and any one signature or decryption `s` of
    /// an input `m` reveals it as `gcd(s − m, n)`. `e·dᵢ ≡ 1` holds; the key is consistent but
    /// broken. It needs `e ≥ rᵢ`, so a key generated with a small `e` (65537) is never one.
    TrivialExponent {
        /// The prime's position.
        index: usize,
    },
    /// The self-test private operation failed its fault check: a "prime" is composite.
    SelfTest,
    /// `e` has no inverse modulo `λ(n)`: `gcd(e, rᵢ − 1) > 1` for some prime (building a key
    /// from its primes).
    ExponentNotInvertible,
    /// The stored CRT values do not match the primes in number.
    CrtCount,
    /// The primes are too large for any key: their product has at least `bits` bits (one
    /// more than the sum of their sizes less one each), above the `max`-bit maximum modulus
    /// (building a key from its primes, [`RsaPrivateKey::from_primes`]). Said from the sizes
    /// alone, before anything is multiplied.
    ///
    /// [`RsaPrivateKey::from_primes`]: crate::rsa::RsaPrivateKey::from_primes
    PrimesTooLarge {
        /// The fewest bits the product can have.
        bits: usize,
        /// The largest modulus accepted.
        max: usize,
    },
}

/// What is wrong with an input ([`Error::InputOutOfRange`]).
///
/// ```
/// use redc::rsa::{Error, InputFault, OsRng, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
/// let err = key.public_key().raw_public(&[1; 129]).unwrap_err();
/// assert_eq!(err, Error::InputOutOfRange(InputFault::TooLong { len: 129, max: 128 }));
/// assert_eq!(err.to_string(), "input of 129 bytes is longer than the 128-byte modulus");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputFault {
    /// A digest has `len` bytes where the hash gives `expected`.
    DigestLength {
        /// The length given.
        len: usize,
        /// The hash's output length.
        expected: usize,
    },
    /// An input of `len` bytes is longer than the modulus's `max`.
    TooLong {
        /// The length given.
        len: usize,
        /// The modulus length in bytes.
        max: usize,
    },
    /// The input, as an integer, is not below the modulus.
    NotBelowModulus,
    /// An OAEP seed has `len` bytes where the hash gives `expected`.
    SeedLength {
        /// The length given.
        len: usize,
        /// The hash's output length.
        expected: usize,
    },
}

/// Which hash or padding parameter is not supported ([`Error::UnsupportedParameter`]).
///
/// ```
/// use redc::rsa::{Error, HashAlg, ParameterFault};
///
/// let err = "md5".parse::<HashAlg>().unwrap_err();
/// assert_eq!(err, Error::UnsupportedParameter(ParameterFault::UnknownHash));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParameterFault {
    /// PSS signing needs a random number generator (for the salt); none was given.
    RngRequired,
    /// A PSS salt of `salt_len` bytes with a `hash_len`-byte hash needs
    /// `salt_len + hash_len + 2` bytes of encoding; a key of this size has `em_len`.
    SaltTooLong {
        /// The salt length.
        salt_len: usize,
        /// The hash length.
        hash_len: usize,
        /// The encoded message length the key allows.
        em_len: usize,
    },
    /// A hash name that names none of the supported hashes.
    UnknownHash,
}

/// The key encodings redc reads and writes.
///
/// ```
/// use redc::rsa::{EncodePrivateKey, EncodeRsaPrivateKey, KeyFormat, OsRng, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
/// let pkcs8 = key.to_pkcs8_der()?;
/// let pkcs1 = key.to_pkcs1_der()?;
/// assert_eq!(KeyFormat::detect_der(pkcs8.as_bytes())?, KeyFormat::Pkcs8Private);
/// assert_eq!(KeyFormat::detect_der(pkcs1.as_bytes())?, KeyFormat::Pkcs1Private);
/// assert_eq!(KeyFormat::Pkcs8Private.pem_label(), "PRIVATE KEY");
/// assert_eq!(KeyFormat::Pkcs8Private.to_string(), "PKCS#8 PrivateKeyInfo");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyFormat {
    /// PKCS#1 `RSAPrivateKey` (RFC 8017 A.1.2), PEM label `RSA PRIVATE KEY`.
    Pkcs1Private,
    /// PKCS#8 `PrivateKeyInfo` (RFC 5208) with an `rsaEncryption` key, PEM label
    /// `PRIVATE KEY`.
    Pkcs8Private,
    /// PKCS#1 `RSAPublicKey` (RFC 8017 A.1.1), PEM label `RSA PUBLIC KEY`.
    Pkcs1Public,
    /// `SubjectPublicKeyInfo` (RFC 5280) with an `rsaEncryption` key, PEM label `PUBLIC KEY`.
    Spki,
}

/// What is wrong with a key encoding ([`Error::Encoding`]).
///
/// ```
/// use redc::rsa::{EncodingFault, Error, KeyFormat, RsaPrivateKey, RsaPublicKey};
///
/// assert_eq!(
///     RsaPublicKey::from_der(b"not a key"),
///     Err(Error::Encoding(EncodingFault::Unrecognized))
/// );
/// // A PEM label says the format even when the rest is broken.
/// let pem = "-----BEGIN RSA PRIVATE KEY-----\nMAA=\n-----END RSA PRIVATE KEY-----\n";
/// let err = RsaPrivateKey::from_pem(pem).unwrap_err();
/// assert!(matches!(
///     err,
///     Error::Encoding(EncodingFault::Der { format: KeyFormat::Pkcs1Private, .. })
/// ));
/// assert!(err.to_string().starts_with("malformed PKCS#1 RSAPrivateKey: "));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodingFault {
    /// The DER (or the PEM around it) of `format` does not parse: `der`'s error says where.
    Der {
        /// The format being read.
        format: KeyFormat,
        /// What the DER or PEM decoder found.
        error: der::Error,
    },
    /// The key's algorithm is `oid`, not `rsaEncryption` (1.2.840.113549.1.1.1).
    Algorithm {
        /// The format being read.
        format: KeyFormat,
        /// The algorithm identifier found.
        oid: der::oid::ObjectIdentifier,
    },
    /// A PKCS#1 private key of version `multi` with an empty `otherPrimeInfos`.
    EmptyOtherPrimeInfos,
    /// The PEM label names none of the four RSA key formats.
    PemLabel,
    /// An encrypted private key read without a password: an `ENCRYPTED PRIVATE KEY` (PKCS#8
    /// EncryptedPrivateKeyInfo) or OpenSSL's traditional encrypted PEM (`Proc-Type:
    /// 4,ENCRYPTED`), both of which [`RsaPrivateKey::from_pem_with_password`] reads.
    ///
    /// [`RsaPrivateKey::from_pem_with_password`]: crate::rsa::RsaPrivateKey::from_pem_with_password
    Encrypted,
    /// OpenSSL's traditional PEM encryption (`Proc-Type: 4,ENCRYPTED`) with a missing or
    /// malformed `DEK-Info: <cipher>,<IV in hex>` header, or other header lines.
    LegacyHeader,
    /// A password was given for a private key that is not encrypted.
    NotEncrypted,
    /// The PKCS#8 EncryptedPrivateKeyInfo does not parse: the DER decoder's error.
    EncryptedDer(der::Error),
    /// The key is encrypted with a scheme redc does not decrypt. It reads PKCS#8's PBES2
    /// (PBKDF2 with HMAC-SHA1 or SHA-2, or scrypt, with AES-CBC or 3DES-CBC), PKCS#8 with
    /// PKCS#12's 3DES schemes, and OpenSSL's traditional PEM encryption with AES-CBC or
    /// 3DES-CBC; not PBES1, PKCS#12's RC2 and RC4 schemes, single DES or RC2.
    EncryptionScheme,
    /// Decryption failed: a wrong password, or a damaged encrypted key.
    Decryption,
    /// The key's password hashing asks for more work or memory than redc allows
    /// ([`MAX_PBKDF2_ITERATIONS`](crate::rsa::MAX_PBKDF2_ITERATIONS),
    /// [`MAX_SCRYPT_BYTES`](crate::rsa::MAX_SCRYPT_BYTES)).
    KdfCost,
    /// A private key was asked for and the data is a public key of `format` (or the
    /// reverse).
    WrongKind {
        /// The format found.
        format: KeyFormat,
    },
    /// Neither PEM nor the DER of any of the four key formats.
    Unrecognized,
    /// An error of the `pkcs1` crate (its decoding traits), as it gave it.
    Pkcs1(pkcs1::Error),
    /// An error of the `pkcs8` crate (its decoding traits), as it gave it.
    Pkcs8(pkcs8::Error),
    /// An error of the `spki` crate (its decoding traits), as it gave it.
    Spki(spki::Error),
    /// A DER error outside a known format (encoding a key, say).
    Asn1(der::Error),
}

/// The name of prime `i` (0-based): `p`, `q`, then `r3`, `r4`, ….
struct PrimeName(usize);

impl fmt::Display for PrimeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("p"),
            1 => f.write_str("q"),
            i => write!(f, "r{}", i + 1),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Arith(e) => write!(f, "{e}"),
            Error::KeySize { bits, min, max } => {
                if bits < min {
                    write!(f, "modulus of {bits} bits is below the {min}-bit minimum")
                } else {
                    write!(f, "modulus of {bits} bits is above the {max}-bit maximum")
                }
            }
            Error::PrimeCount { primes, bits, max } => {
                write!(f, "a {bits}-bit key takes 2 to {max} primes, not {primes}")
            }
            Error::PublicExponent(fault) => write!(f, "invalid public exponent: {fault}"),
            Error::InvalidKey(fault) => write!(f, "invalid key: {fault}"),
            Error::Verification => f.write_str("signature verification failed"),
            Error::Decryption => f.write_str("decryption error"),
            // A key too small for the padding has room for nothing (OAEP with a long hash).
            Error::MessageTooLong { len, max: 0 } => write!(
                f,
                "message of {len} bytes: this key is too small for the padding (no room for a \
                 message)"
            ),
            Error::MessageTooLong { len, max } => write!(
                f,
                "message of {len} bytes is longer than the {max} this key and padding take"
            ),
            Error::InputOutOfRange(fault) => write!(f, "{fault}"),
            Error::FaultDetected => f.write_str("fault detected in the private-key operation"),
            Error::UnsupportedParameter(fault) => write!(f, "{fault}"),
            Error::Rng => f.write_str("random number generator failed"),
            Error::ServiceStopped => f.write_str(
                "the signing service stopped (or its computation panicked) before answering \
                 the request",
            ),
            Error::UnknownKey => f.write_str("no key with this id in this signing service"),
            Error::KeyGeneration => f.write_str("key generation failed"),
            Error::Encoding(fault) => write!(f, "{fault}"),
        }
    }
}

impl fmt::Display for ExponentFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExponentFault::Even => f.write_str("e is even"),
            ExponentFault::TooSmall => f.write_str("e is below 3"),
            ExponentFault::NotBelowModulus => f.write_str("e is not below the modulus n"),
            ExponentFault::TooLarge { bits, max } => write!(
                f,
                "e of {bits} bits is above the {max}-bit maximum for key generation"
            ),
        }
    }
}

impl fmt::Display for KeyFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            KeyFault::EvenModulus => f.write_str("the modulus n is even"),
            KeyFault::PrivateExponentRange => {
                f.write_str("the private exponent d is zero or not below n")
            }
            KeyFault::EvenPrime { index } => write!(f, "prime {} is even", PrimeName(index)),
            KeyFault::PrimeTooSmall { index, bits } => write!(
                f,
                "prime {} has {bits} bits, fewer than the 65 needed",
                PrimeName(index)
            ),
            KeyFault::PrimeTooLarge { index } => {
                write!(f, "prime {} is longer than n", PrimeName(index))
            }
            KeyFault::ModulusNotProduct => f.write_str("n is not the product of the primes"),
            KeyFault::RepeatedPrime { index, other } => write!(
                f,
                "primes {} and {} are equal",
                PrimeName(index),
                PrimeName(other)
            ),
            KeyFault::ExponentMismatch { index } => {
                let r = PrimeName(index);
                write!(
                    f,
                    "d·e ≢ 1 mod ({r} − 1): d is not the private exponent of e"
                )
            }
            KeyFault::CrtExponent { index: 0 } => {
                f.write_str("exponent1 (dP) is not d mod (p − 1)")
            }
            KeyFault::CrtExponent { index: 1 } => {
                f.write_str("exponent2 (dQ) is not d mod (q − 1)")
            }
            KeyFault::CrtExponent { index } => {
                let r = PrimeName(index);
                write!(f, "the exponent of prime {r} is not d mod ({r} − 1)")
            }
            KeyFault::CrtCoefficient { index: 0 } => {
                f.write_str("coefficient (qInv) is not q⁻¹ mod p")
            }
            KeyFault::CrtCoefficient { index } => {
                let r = PrimeName(index);
                write!(
                    f,
                    "the coefficient of prime {r} is not the inverse of the product of the \
                     primes before it, mod {r}"
                )
            }
            KeyFault::NotPrime { index } => write!(f, "{} is not prime", PrimeName(index)),
            KeyFault::TrivialExponent { index } => {
                let r = PrimeName(index);
                write!(
                    f,
                    "e ≡ 1 (mod {r} − 1), so the private operation is the identity mod {r} and \
                     one signature reveals {r}"
                )
            }
            KeyFault::SelfTest => f.write_str(
                "the self-test private operation failed its fault check (a prime is composite)",
            ),
            KeyFault::CrtCount => f.write_str("the CRT values do not match the primes in number"),
            KeyFault::ExponentNotInvertible => {
                f.write_str("e has no inverse mod λ(n): gcd(e, r − 1) > 1 for a prime r")
            }
            KeyFault::PrimesTooLarge { bits, max } => write!(
                f,
                "the product of the primes has at least {bits} bits, above the {max}-bit maximum"
            ),
        }
    }
}

impl fmt::Display for InputFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputFault::DigestLength { len, expected } => {
                write!(f, "digest of {len} bytes, the hash gives {expected}")
            }
            InputFault::TooLong { len, max } => write!(
                f,
                "input of {len} bytes is longer than the {max}-byte modulus"
            ),
            InputFault::NotBelowModulus => f.write_str("input is not below the modulus"),
            InputFault::SeedLength { len, expected } => {
                write!(f, "seed of {len} bytes, the hash gives {expected}")
            }
        }
    }
}

impl fmt::Display for ParameterFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParameterFault::RngRequired => {
                f.write_str("PSS signing needs a random number generator (for the salt)")
            }
            ParameterFault::SaltTooLong {
                salt_len,
                hash_len,
                em_len,
            } => write!(
                f,
                "a {salt_len}-byte salt and a {hash_len}-byte hash need {} bytes of PSS \
                 encoding; this key has {em_len}",
                // Wide, so that a salt length near usize::MAX does not wrap (or panic).
                *salt_len as u128 + *hash_len as u128 + 2
            ),
            ParameterFault::UnknownHash => f.write_str(
                "unknown hash (expected sha1, sha224, sha256, sha384, sha512, sha512-224 or \
                 sha512-256)",
            ),
        }
    }
}

impl KeyFormat {
    /// Every format: the two private ones, then the two public ones.
    pub const ALL: [KeyFormat; 4] = [
        KeyFormat::Pkcs1Private,
        KeyFormat::Pkcs8Private,
        KeyFormat::Pkcs1Public,
        KeyFormat::Spki,
    ];

    /// Whether the format holds a private key.
    pub fn is_private(self) -> bool {
        matches!(self, KeyFormat::Pkcs1Private | KeyFormat::Pkcs8Private)
    }

    /// The PEM label (RFC 7468): `RSA PRIVATE KEY`, `PRIVATE KEY`, `RSA PUBLIC KEY` or
    /// `PUBLIC KEY`.
    pub fn pem_label(self) -> &'static str {
        match self {
            KeyFormat::Pkcs1Private => "RSA PRIVATE KEY",
            KeyFormat::Pkcs8Private => "PRIVATE KEY",
            KeyFormat::Pkcs1Public => "RSA PUBLIC KEY",
            KeyFormat::Spki => "PUBLIC KEY",
        }
    }
}

impl fmt::Display for KeyFormat {
    /// The structure's name: `PKCS#1 RSAPrivateKey`, `PKCS#8 PrivateKeyInfo`,
    /// `PKCS#1 RSAPublicKey`, `SubjectPublicKeyInfo`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeyFormat::Pkcs1Private => "PKCS#1 RSAPrivateKey",
            KeyFormat::Pkcs8Private => "PKCS#8 PrivateKeyInfo",
            KeyFormat::Pkcs1Public => "PKCS#1 RSAPublicKey",
            KeyFormat::Spki => "SubjectPublicKeyInfo",
        })
    }
}

impl fmt::Display for EncodingFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodingFault::Der { format, error } => write!(f, "malformed {format}: {error}"),
            EncodingFault::Algorithm { format, oid } => write!(
                f,
                "{format} holds a key of algorithm {oid}, not rsaEncryption (1.2.840.113549.1.1.1)"
            ),
            EncodingFault::EmptyOtherPrimeInfos => {
                f.write_str("PKCS#1 RSAPrivateKey of version multi with an empty otherPrimeInfos")
            }
            EncodingFault::PemLabel => f.write_str(
                "unsupported PEM label (expected RSA PRIVATE KEY, PRIVATE KEY, RSA PUBLIC KEY \
                 or PUBLIC KEY)",
            ),
            EncodingFault::Encrypted => f.write_str(
                "the private key is encrypted (ENCRYPTED PRIVATE KEY, or PEM with Proc-Type: \
                 4,ENCRYPTED): read it with its password",
            ),
            EncodingFault::LegacyHeader => f.write_str(
                "malformed traditional PEM encryption headers (expected Proc-Type: 4,ENCRYPTED \
                 and DEK-Info: <cipher>,<IV in hex>, then a blank line)",
            ),
            EncodingFault::NotEncrypted => {
                f.write_str("a password was given but the private key is not encrypted")
            }
            EncodingFault::EncryptedDer(e) => {
                write!(f, "malformed PKCS#8 EncryptedPrivateKeyInfo: {e}")
            }
            EncodingFault::EncryptionScheme => f.write_str(
                "the key's encryption scheme is not supported (redc decrypts PBES2 with PBKDF2 \
                 or scrypt, and traditional PEM encryption, each with AES-CBC or 3DES-CBC, and \
                 PKCS#12's PBE with SHA-1 and 3DES)",
            ),
            EncodingFault::Decryption => {
                f.write_str("decryption failed: wrong password, or a damaged encrypted key")
            }
            EncodingFault::KdfCost => f.write_str(
                "the key's password hashing asks for more than redc allows (PBKDF2 above \
                 10,000,000 iterations, or scrypt above 256 MiB)",
            ),
            EncodingFault::WrongKind { format } if format.is_private() => {
                write!(
                    f,
                    "a private key ({format}) where a public key was expected"
                )
            }
            EncodingFault::WrongKind { format } => {
                write!(f, "a public key ({format}) holds no private key")
            }
            EncodingFault::Unrecognized => f.write_str(
                "not a key: neither PEM nor the DER of a PKCS#1, PKCS#8 or SubjectPublicKeyInfo \
                 RSA key",
            ),
            EncodingFault::Pkcs1(e) => write!(f, "{e}"),
            EncodingFault::Pkcs8(e) => write!(f, "{e}"),
            EncodingFault::Spki(e) => write!(f, "{e}"),
            EncodingFault::Asn1(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Self {
        Error::Arith(e)
    }
}

/// `Result` with the RSA [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

impl From<crate::nat::arith::RngFailed> for Error {
    fn from(_: crate::nat::arith::RngFailed) -> Self {
        Error::Rng
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_at_the_edges() {
        // OAEP with a hash too long for the key: no room at all, not "longer than the 0".
        assert_eq!(
            Error::MessageTooLong { len: 0, max: 0 }.to_string(),
            "message of 0 bytes: this key is too small for the padding (no room for a message)"
        );
        assert_eq!(
            Error::MessageTooLong { len: 21, max: 20 }.to_string(),
            "message of 21 bytes is longer than the 20 this key and padding take"
        );
        // A salt length near usize::MAX: the sum is printed, not wrapped (nor a panic).
        let e = Error::UnsupportedParameter(ParameterFault::SaltTooLong {
            salt_len: usize::MAX,
            hash_len: 32,
            em_len: 256,
        });
        let need = (usize::MAX as u128 + 34).to_string();
        assert!(e.to_string().contains(&need), "{e}");
    }
}

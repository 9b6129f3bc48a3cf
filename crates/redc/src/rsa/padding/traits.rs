//! The padding traits and the key methods that use them, shaped like RustCrypto's `rsa` 0.9,
//! the traits of the key components ([`PublicKeyParts`], [`PrivateKeyParts`]) and of the
//! typed encryption keys ([`RandomizedEncryptor`], [`Decryptor`], [`RandomizedDecryptor`],
//! [`EncryptingKeypair`]).
//!
//! The paddings:
//! a padding value ([`Pkcs1v15Sign`](crate::rsa::Pkcs1v15Sign), [`Pss`](crate::rsa::Pss),
//! [`Oaep`](crate::rsa::Oaep), [`Pkcs1v15Encrypt`](crate::rsa::Pkcs1v15Encrypt)) is passed by value to
//! [`RsaPrivateKey::sign`], [`RsaPublicKey::verify`], [`RsaPublicKey::encrypt`] or
//! [`RsaPrivateKey::decrypt`]. The caller supplies the random number generator.
//!
//! The paddings see the key only through its public size and the raw primitives
//! (`raw_public`, `raw_private`); how the private operation is computed is the key layer's
//! business.

use alloc::vec::Vec;
use rand_core::CryptoRngCore;

use crate::rsa::{BoxedUint, Error, Result, RsaPrivateKey, RsaPublicKey};

/// The components of an RSA public key, as a trait for code generic over key types (the shape
/// of RustCrypto `rsa`'s trait; [`RsaPublicKey`] and [`RsaPrivateKey`] also have these as
/// inherent methods).
///
/// ```
/// use redc::rsa::traits::PublicKeyParts;
/// use redc::rsa::{OsRng, RsaPrivateKey, RsaPublicKey};
///
/// fn describe(key: &impl PublicKeyParts) -> String {
///     format!("{} bytes, e = {} bits", key.size(), key.e().bits())
/// }
///
/// let private = RsaPrivateKey::new(&mut OsRng, 1024)?;
/// let public = RsaPublicKey::from(&private);
/// assert_eq!(describe(&private), describe(&public));
/// assert_eq!(describe(&public), "128 bytes, e = 17 bits");
/// # Ok::<(), redc::rsa::Error>(())
/// ```
pub trait PublicKeyParts {
    /// The modulus `n`.
    fn n(&self) -> &BoxedUint;

    /// The public exponent `e`.
    fn e(&self) -> &BoxedUint;

    /// The modulus length in bytes (`k` in RFC 8017): the length of every signature and
    /// ciphertext for this key.
    fn size(&self) -> usize;
}

/// The components of an RSA private key (RFC 8017 §3.2). Unlike RustCrypto `rsa`, the CRT
/// values are always present (every key is validated and precomputed when it is built), so
/// they are returned directly, not as `Option`s.
///
/// ```
/// use redc::rsa::traits::{PrivateKeyParts, PublicKeyParts};
/// use redc::rsa::{OsRng, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
/// assert_eq!(key.primes().len(), 2);
/// // qInv·q ≡ 1 (mod p) holds for every key that exists; here only the sizes are shown.
/// assert!(key.qinv().bits() <= key.primes()[0].bits());
/// assert!(key.d().bits() <= PublicKeyParts::n(&key).bits());
/// # Ok::<(), redc::rsa::Error>(())
/// ```
pub trait PrivateKeyParts: PublicKeyParts {
    /// The private exponent `d`.
    fn d(&self) -> &BoxedUint;

    /// The primes `[p, q, r₃, …]`.
    fn primes(&self) -> &[BoxedUint];

    /// `dP = d mod (p − 1)`.
    fn dp(&self) -> &BoxedUint;

    /// `dQ = d mod (q − 1)`.
    fn dq(&self) -> &BoxedUint;

    /// `qInv = q⁻¹ mod p`.
    fn qinv(&self) -> &BoxedUint;
}

/// Encrypts with randomness from the caller ([`oaep::EncryptingKey`](super::oaep::EncryptingKey),
/// [`pkcs1v15::EncryptingKey`](super::pkcs1v15::EncryptingKey)).
pub trait RandomizedEncryptor {
    /// Encrypts `msg`, drawing the padding's randomness from `rng`.
    fn encrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>>;
}

/// Decrypts without randomness: the private operation is constant time but not blinded.
pub trait Decryptor {
    /// Decrypts `ciphertext`; every padding failure is the one [`Error::Decryption`].
    fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>>;
}

/// Decrypts with the private operation blinded by the caller's generator.
pub trait RandomizedDecryptor {
    /// Decrypts `ciphertext`, blinding with `rng`; every padding failure is the one
    /// [`Error::Decryption`].
    fn decrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>>;
}

/// A decrypting key that can give out the matching encrypting key.
pub trait EncryptingKeypair {
    /// The encrypting key's type.
    type EncryptingKey: Clone;

    /// The key that encrypts messages this key decrypts.
    fn encrypting_key(&self) -> Self::EncryptingKey;
}

/// A signature scheme: EMSA encoding plus RSASP1 / RSAVP1 (RFC 8017 §8). Implemented by
/// [`Pkcs1v15Sign`](crate::rsa::Pkcs1v15Sign) and [`Pss`](crate::rsa::Pss); code generic over it
/// signs with either.
///
/// ```
/// use redc::rsa::sha2::{Digest, Sha256};
/// use redc::rsa::{OsRng, Pkcs1v15Sign, Pss, RsaPrivateKey, SignatureScheme};
///
/// fn sign_and_check<S: SignatureScheme + Clone>(key: &RsaPrivateKey, scheme: S) -> bool {
///     let digest = Sha256::digest(b"generic");
///     let sig = key.sign_with_rng(&mut OsRng, scheme.clone(), &digest).unwrap();
///     key.public_key().verify(scheme, &digest, &sig).is_ok()
/// }
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// assert!(sign_and_check(&key, Pkcs1v15Sign::new::<Sha256>()));
/// assert!(sign_and_check(&key, Pss::new::<Sha256>()));
/// # Ok::<(), redc::rsa::Error>(())
/// ```
pub trait SignatureScheme {
    /// Signs the already-hashed message `hashed` with `key` (RFC 8017 §8.1.1 / §8.2.1).
    /// `rng`, when given, provides the PSS salt and blinds the private operation; PSS fails
    /// without one.
    fn sign(
        self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        hashed: &[u8],
    ) -> Result<Vec<u8>>;

    /// Verifies `sig` on the already-hashed message `hashed` with `key` (RFC 8017 §8.1.2 /
    /// §8.2.2). Every mismatch is [`crate::rsa::Error::Verification`].
    fn verify(self, key: &RsaPublicKey, hashed: &[u8], sig: &[u8]) -> Result<()>;
}

/// An encryption scheme: EME encoding plus RSAEP / RSADP (RFC 8017 §7). Implemented by
/// [`Oaep`](crate::rsa::Oaep) and [`Pkcs1v15Encrypt`](crate::rsa::Pkcs1v15Encrypt).
///
/// ```
/// use redc::rsa::sha2::Sha256;
/// use redc::rsa::{Oaep, OsRng, PaddingScheme, Pkcs1v15Encrypt, RsaPrivateKey};
///
/// fn round_trip<P: PaddingScheme + Clone>(key: &RsaPrivateKey, padding: P) -> Vec<u8> {
///     let c = key.public_key().encrypt(&mut OsRng, padding.clone(), b"generic").unwrap();
///     key.decrypt(padding, &c).unwrap()
/// }
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// assert_eq!(round_trip(&key, Oaep::new::<Sha256>()), b"generic");
/// assert_eq!(round_trip(&key, Pkcs1v15Encrypt), b"generic");
/// # Ok::<(), redc::rsa::Error>(())
/// ```
pub trait PaddingScheme {
    /// Encrypts `msg` for `key` (RFC 8017 §7.1.1 / §7.2.1); the padding randomness comes from
    /// `rng`.
    fn encrypt(
        self,
        rng: &mut dyn CryptoRngCore,
        key: &RsaPublicKey,
        msg: &[u8],
    ) -> Result<Vec<u8>>;

    /// Decrypts `ciphertext` with `key` (RFC 8017 §7.1.2 / §7.2.2), blinding the private
    /// operation with `rng` when given. The unpadding is constant time and every padding
    /// failure is the same [`crate::rsa::Error::Decryption`].
    fn decrypt(
        self,
        rng: Option<&mut dyn CryptoRngCore>,
        key: &RsaPrivateKey,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>>;
}

impl RsaPrivateKey {
    /// Signs `hashed` (the message's digest, computed by the caller) without randomness:
    /// deterministic for [`Pkcs1v15Sign`](crate::rsa::Pkcs1v15Sign); [`Pss`](crate::rsa::Pss) needs a
    /// salt and returns [`crate::rsa::Error::UnsupportedParameter`] here: use
    /// [`sign_with_rng`](Self::sign_with_rng).
    pub fn sign<S: SignatureScheme>(&self, padding: S, hashed: &[u8]) -> Result<Vec<u8>> {
        padding.sign(None, self, hashed)
    }

    /// Signs `hashed` using `rng` for the PSS salt and to blind the private operation.
    pub fn sign_with_rng<R: CryptoRngCore + ?Sized, S: SignatureScheme>(
        &self,
        rng: &mut R,
        padding: S,
        hashed: &[u8],
    ) -> Result<Vec<u8>> {
        let mut rng = rng;
        padding.sign(Some(&mut rng), self, hashed)
    }

    /// Decrypts `ciphertext` (exactly [`size`](Self::size) bytes) without blinding.
    pub fn decrypt<P: PaddingScheme>(&self, padding: P, ciphertext: &[u8]) -> Result<Vec<u8>> {
        padding.decrypt(None, self, ciphertext)
    }

    /// Decrypts `ciphertext`, blinding the private operation with `rng`.
    pub fn decrypt_blinded<R: CryptoRngCore + ?Sized, P: PaddingScheme>(
        &self,
        rng: &mut R,
        padding: P,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        let mut rng = rng;
        padding.decrypt(Some(&mut rng), self, ciphertext)
    }
}

impl RsaPublicKey {
    /// Encrypts `msg`, drawing the padding randomness from `rng`. The result has exactly
    /// [`size`](Self::size) bytes.
    pub fn encrypt<R: CryptoRngCore + ?Sized, P: PaddingScheme>(
        &self,
        rng: &mut R,
        padding: P,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        let mut rng = rng;
        padding.encrypt(&mut rng, self, msg)
    }

    /// Verifies the signature `sig` on the digest `hashed`: `Ok(())` or
    /// [`crate::rsa::Error::Verification`] (or [`crate::rsa::Error::InputOutOfRange`] when `hashed` has
    /// the wrong length for the scheme's hash).
    pub fn verify<S: SignatureScheme>(&self, scheme: S, hashed: &[u8], sig: &[u8]) -> Result<()> {
        scheme.verify(self, hashed, sig)
    }
}

/// Maps errors of the private operation during decryption: an out-of-range ciphertext is a
/// plain decryption error; a detected fault is reported as such (it says nothing about the
/// padding).
pub(crate) fn decryption_error(e: Error) -> Error {
    match e {
        Error::FaultDetected | Error::Rng => e,
        _ => Error::Decryption,
    }
}

// The key types implement the parts traits here, beside the traits, so that the key module
// does not depend on the padding module.
impl PublicKeyParts for RsaPublicKey {
    fn n(&self) -> &BoxedUint {
        RsaPublicKey::n(self)
    }
    fn e(&self) -> &BoxedUint {
        RsaPublicKey::e(self)
    }
    fn size(&self) -> usize {
        RsaPublicKey::size(self)
    }
}

impl PublicKeyParts for RsaPrivateKey {
    fn n(&self) -> &BoxedUint {
        RsaPrivateKey::n(self)
    }
    fn e(&self) -> &BoxedUint {
        RsaPrivateKey::e(self)
    }
    fn size(&self) -> usize {
        RsaPrivateKey::size(self)
    }
}

impl PrivateKeyParts for RsaPrivateKey {
    fn d(&self) -> &BoxedUint {
        RsaPrivateKey::d(self)
    }
    fn primes(&self) -> &[BoxedUint] {
        RsaPrivateKey::primes(self)
    }
    fn dp(&self) -> &BoxedUint {
        RsaPrivateKey::dp(self)
    }
    fn dq(&self) -> &BoxedUint {
        RsaPrivateKey::dq(self)
    }
    fn qinv(&self) -> &BoxedUint {
        RsaPrivateKey::qinv(self)
    }
}

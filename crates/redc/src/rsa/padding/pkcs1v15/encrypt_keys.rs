//! Typed PKCS#1 v1.5 encryption keys, the shape of RustCrypto `rsa`'s. New designs should use
//! [`oaep`](crate::rsa::oaep) (see [`Pkcs1v15Encrypt`] for why).

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;

use super::Pkcs1v15Encrypt;
use crate::rsa::traits::{
    Decryptor, EncryptingKeypair, PaddingScheme, RandomizedDecryptor, RandomizedEncryptor,
};
use crate::rsa::{Result, RsaPrivateKey, RsaPublicKey};

/// A PKCS#1 v1.5 (RSAES-PKCS1-v1_5) encrypting key.
///
/// ```
/// use redc::rsa::pkcs1v15::{DecryptingKey, EncryptingKey};
/// use redc::rsa::traits::{Decryptor, RandomizedEncryptor};
/// use redc::rsa::{OsRng, RsaPrivateKey, RsaPublicKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let encrypting_key = EncryptingKey::new(RsaPublicKey::from(&key));
/// let ciphertext = encrypting_key.encrypt_with_rng(&mut OsRng, b"legacy")?;
/// assert_eq!(DecryptingKey::new(key).decrypt(&ciphertext)?, b"legacy");
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct EncryptingKey {
    inner: RsaPublicKey,
}

/// A PKCS#1 v1.5 decrypting key: constant-time unpadding, one
/// [`Error::Decryption`](crate::rsa::Error::Decryption) for every failure.
///
/// ```
/// use redc::rsa::pkcs1v15::DecryptingKey;
/// use redc::rsa::traits::{EncryptingKeypair, RandomizedDecryptor, RandomizedEncryptor};
/// use redc::rsa::{OsRng, RsaPrivateKey};
///
/// let key = DecryptingKey::new(RsaPrivateKey::new(&mut OsRng, 2048)?);
/// let c = key.encrypting_key().encrypt_with_rng(&mut OsRng, b"legacy")?;
/// assert_eq!(key.decrypt_with_rng(&mut OsRng, &c)?, b"legacy");
/// assert!(key.decrypt_with_rng(&mut OsRng, &c[1..]).is_err());
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone)]
pub struct DecryptingKey {
    inner: RsaPrivateKey,
}

impl EncryptingKey {
    /// Wraps `key`.
    pub fn new(key: RsaPublicKey) -> Self {
        EncryptingKey { inner: key }
    }
}

impl DecryptingKey {
    /// Wraps `key`.
    pub fn new(key: RsaPrivateKey) -> Self {
        DecryptingKey { inner: key }
    }
}

impl RandomizedEncryptor for EncryptingKey {
    fn encrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        self.inner.encrypt(rng, Pkcs1v15Encrypt, msg)
    }
}

impl Decryptor for DecryptingKey {
    fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        Pkcs1v15Encrypt.decrypt(None, &self.inner, ciphertext)
    }
}

impl RandomizedDecryptor for DecryptingKey {
    fn decrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        self.inner.decrypt_blinded(rng, Pkcs1v15Encrypt, ciphertext)
    }
}

impl EncryptingKeypair for DecryptingKey {
    type EncryptingKey = EncryptingKey;

    fn encrypting_key(&self) -> EncryptingKey {
        EncryptingKey::new(self.inner.to_public_key())
    }
}

impl From<RsaPublicKey> for EncryptingKey {
    fn from(key: RsaPublicKey) -> Self {
        EncryptingKey::new(key)
    }
}

impl From<RsaPrivateKey> for DecryptingKey {
    fn from(key: RsaPrivateKey) -> Self {
        DecryptingKey::new(key)
    }
}

impl From<EncryptingKey> for RsaPublicKey {
    fn from(key: EncryptingKey) -> Self {
        key.inner
    }
}

impl From<DecryptingKey> for RsaPrivateKey {
    fn from(key: DecryptingKey) -> Self {
        key.inner
    }
}

impl AsRef<RsaPublicKey> for EncryptingKey {
    fn as_ref(&self) -> &RsaPublicKey {
        &self.inner
    }
}

impl AsRef<RsaPrivateKey> for DecryptingKey {
    fn as_ref(&self) -> &RsaPrivateKey {
        &self.inner
    }
}

impl fmt::Debug for EncryptingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pkcs1v15::EncryptingKey")
            .field("key", &self.inner)
            .finish()
    }
}

/// Shows the size, never the key material.
impl fmt::Debug for DecryptingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pkcs1v15::DecryptingKey")
            .field("size", &self.inner.size())
            .finish_non_exhaustive()
    }
}

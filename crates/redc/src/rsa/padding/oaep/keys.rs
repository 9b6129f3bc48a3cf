//! Typed OAEP keys: the hashes are type parameters and the label is fixed at construction, so
//! an encrypting key and its decrypting key cannot disagree on them.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use digest::Digest;
use rand_core::CryptoRngCore;

use super::Oaep;
use crate::rsa::hash::HashFn;
use crate::rsa::traits::{
    Decryptor, EncryptingKeypair, PaddingScheme, RandomizedDecryptor, RandomizedEncryptor,
};
use crate::rsa::{Result, RsaPrivateKey, RsaPublicKey};

/// An OAEP encrypting key: RSAES-OAEP with the hash `D` for the label and `MGD` (by default
/// `D`) inside MGF1, and an optional label.
///
/// ```
/// use redc::rsa::oaep::{DecryptingKey, EncryptingKey};
/// use redc::rsa::traits::{Decryptor, EncryptingKeypair, RandomizedEncryptor};
/// use redc::rsa::{sha2::Sha256, OsRng, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let decrypting_key = DecryptingKey::<Sha256>::new_with_label(key, "session keys");
/// let encrypting_key: EncryptingKey<Sha256> = decrypting_key.encrypting_key();
///
/// let ciphertext = encrypting_key.encrypt_with_rng(&mut OsRng, b"a 32-byte key")?;
/// assert_eq!(decrypting_key.decrypt(&ciphertext)?, b"a 32-byte key");
/// # Ok::<(), redc::rsa::Error>(())
/// ```
pub struct EncryptingKey<D: Digest, MGD: Digest = D> {
    inner: RsaPublicKey,
    label: Option<Vec<u8>>,
    phantom: PhantomData<(D, MGD)>,
}

/// An OAEP decrypting key: the private half of [`EncryptingKey`], with the same hashes and
/// label. [`Decryptor::decrypt`] runs the (constant-time) private operation unblinded,
/// [`RandomizedDecryptor::decrypt_with_rng`] blinds it too; every padding failure is the same
/// [`Error::Decryption`](crate::rsa::Error::Decryption).
///
/// ```
/// use redc::rsa::oaep::DecryptingKey;
/// use redc::rsa::traits::{EncryptingKeypair, RandomizedDecryptor, RandomizedEncryptor};
/// use redc::rsa::{sha2::Sha256, OsRng, RsaPrivateKey};
///
/// let key = DecryptingKey::<Sha256>::new(RsaPrivateKey::new(&mut OsRng, 2048)?);
/// let c = key.encrypting_key().encrypt_with_rng(&mut OsRng, b"hello")?;
/// assert_eq!(key.decrypt_with_rng(&mut OsRng, &c)?, b"hello");
///
/// // Several at once: with the AVX-512 IFMA backend their exponentiations share IFMA lanes. Each
/// // ciphertext gets its own result.
/// let c2 = key.encrypting_key().encrypt_with_rng(&mut OsRng, b"world")?;
/// let out = key.decrypt_batch_with_rng(&mut OsRng, &[&c, &c2, &c[1..]])?;
/// assert_eq!(out[0].as_deref(), Ok(&b"hello"[..]));
/// assert_eq!(out[1].as_deref(), Ok(&b"world"[..]));
/// assert!(out[2].is_err());
/// # Ok::<(), redc::rsa::Error>(())
/// ```
pub struct DecryptingKey<D: Digest, MGD: Digest = D> {
    inner: RsaPrivateKey,
    label: Option<Vec<u8>>,
    phantom: PhantomData<(D, MGD)>,
}

/// The padding both keys use.
fn padding<D: Digest, MGD: Digest>(label: &Option<Vec<u8>>) -> Oaep {
    Oaep {
        hash: HashFn::of::<D>(),
        mgf_hash: HashFn::of::<MGD>(),
        label: label.clone(),
    }
}

impl<D: Digest, MGD: Digest> EncryptingKey<D, MGD> {
    /// Wraps `key`, with no label.
    pub fn new(key: RsaPublicKey) -> Self {
        EncryptingKey {
            inner: key,
            label: None,
            phantom: PhantomData,
        }
    }

    /// Wraps `key`, with the label `label` (bytes or a string).
    pub fn new_with_label<L: AsRef<[u8]>>(key: RsaPublicKey, label: L) -> Self {
        EncryptingKey {
            inner: key,
            label: Some(label.as_ref().to_vec()),
            phantom: PhantomData,
        }
    }

    /// The padding this key encrypts with.
    pub fn padding(&self) -> Oaep {
        padding::<D, MGD>(&self.label)
    }
}

impl<D: Digest, MGD: Digest> DecryptingKey<D, MGD> {
    /// Wraps `key`, with no label.
    pub fn new(key: RsaPrivateKey) -> Self {
        DecryptingKey {
            inner: key,
            label: None,
            phantom: PhantomData,
        }
    }

    /// Wraps `key`, with the label `label` (bytes or a string).
    pub fn new_with_label<L: AsRef<[u8]>>(key: RsaPrivateKey, label: L) -> Self {
        DecryptingKey {
            inner: key,
            label: Some(label.as_ref().to_vec()),
            phantom: PhantomData,
        }
    }

    /// The padding this key decrypts with.
    pub fn padding(&self) -> Oaep {
        padding::<D, MGD>(&self.label)
    }

    /// Decrypts several ciphertexts at once without blinding, through
    /// [`Oaep::decrypt_batch`]: the outer error is a fault or a failing generator (nothing is
    /// released), each inner result is that ciphertext's own.
    pub fn decrypt_batch(&self, ciphertexts: &[&[u8]]) -> Result<Vec<Result<Vec<u8>>>> {
        self.padding().decrypt_batch(None, &self.inner, ciphertexts)
    }

    /// [`DecryptingKey::decrypt_batch`] with every private operation blinded by `rng`.
    pub fn decrypt_batch_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        ciphertexts: &[&[u8]],
    ) -> Result<Vec<Result<Vec<u8>>>> {
        let mut rng = rng;
        self.padding()
            .decrypt_batch(Some(&mut rng), &self.inner, ciphertexts)
    }
}

impl<D: Digest, MGD: Digest> RandomizedEncryptor for EncryptingKey<D, MGD> {
    fn encrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        self.inner.encrypt(rng, self.padding(), msg)
    }
}

impl<D: Digest, MGD: Digest> Decryptor for DecryptingKey<D, MGD> {
    fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        self.padding().decrypt(None, &self.inner, ciphertext)
    }
}

impl<D: Digest, MGD: Digest> RandomizedDecryptor for DecryptingKey<D, MGD> {
    fn decrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        self.inner.decrypt_blinded(rng, self.padding(), ciphertext)
    }
}

impl<D: Digest, MGD: Digest> EncryptingKeypair for DecryptingKey<D, MGD> {
    type EncryptingKey = EncryptingKey<D, MGD>;

    fn encrypting_key(&self) -> EncryptingKey<D, MGD> {
        EncryptingKey {
            inner: self.inner.to_public_key(),
            label: self.label.clone(),
            phantom: PhantomData,
        }
    }
}

impl<D: Digest, MGD: Digest> From<RsaPublicKey> for EncryptingKey<D, MGD> {
    fn from(key: RsaPublicKey) -> Self {
        EncryptingKey::new(key)
    }
}

impl<D: Digest, MGD: Digest> From<RsaPrivateKey> for DecryptingKey<D, MGD> {
    fn from(key: RsaPrivateKey) -> Self {
        DecryptingKey::new(key)
    }
}

impl<D: Digest, MGD: Digest> From<EncryptingKey<D, MGD>> for RsaPublicKey {
    fn from(key: EncryptingKey<D, MGD>) -> Self {
        key.inner
    }
}

impl<D: Digest, MGD: Digest> From<DecryptingKey<D, MGD>> for RsaPrivateKey {
    fn from(key: DecryptingKey<D, MGD>) -> Self {
        key.inner
    }
}

impl<D: Digest, MGD: Digest> AsRef<RsaPublicKey> for EncryptingKey<D, MGD> {
    fn as_ref(&self) -> &RsaPublicKey {
        &self.inner
    }
}

impl<D: Digest, MGD: Digest> AsRef<RsaPrivateKey> for DecryptingKey<D, MGD> {
    fn as_ref(&self) -> &RsaPrivateKey {
        &self.inner
    }
}

impl<D: Digest, MGD: Digest> Clone for EncryptingKey<D, MGD> {
    fn clone(&self) -> Self {
        EncryptingKey {
            inner: self.inner.clone(),
            label: self.label.clone(),
            phantom: PhantomData,
        }
    }
}

impl<D: Digest, MGD: Digest> Clone for DecryptingKey<D, MGD> {
    fn clone(&self) -> Self {
        DecryptingKey {
            inner: self.inner.clone(),
            label: self.label.clone(),
            phantom: PhantomData,
        }
    }
}

impl<D: Digest, MGD: Digest> PartialEq for EncryptingKey<D, MGD> {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner && self.label == other.label
    }
}

impl<D: Digest, MGD: Digest> Eq for EncryptingKey<D, MGD> {}

impl<D: Digest, MGD: Digest> fmt::Debug for EncryptingKey<D, MGD> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("oaep::EncryptingKey")
            .field("key", &self.inner)
            .field("padding", &self.padding())
            .finish()
    }
}

/// Shows the padding, never the key material.
impl<D: Digest, MGD: Digest> fmt::Debug for DecryptingKey<D, MGD> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("oaep::DecryptingKey")
            .field("size", &self.inner.size())
            .field("padding", &self.padding())
            .finish_non_exhaustive()
    }
}

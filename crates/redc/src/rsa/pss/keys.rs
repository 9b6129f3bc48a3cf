//! Typed PSS signing and verifying keys for the `signature` crate. Signing is randomized (the
//! salt), so the signing key implements [`RandomizedSigner`] and not `Signer`.

use core::fmt;
use core::marker::PhantomData;

use digest::Digest;
use rand_core::CryptoRngCore;
use signature::{DigestVerifier, Keypair, RandomizedDigestSigner, RandomizedSigner, Verifier};

use super::{Pss, Signature};
use crate::rsa::sigbytes::{key_wrapper_impls, sig_error};
use crate::rsa::{RsaPrivateKey, RsaPublicKey};

/// A PSS signing key for the hash `D` (message hash and MGF1), salt length = hash length
/// unless set with [`SigningKey::new_with_salt_len`].
pub struct SigningKey<D: Digest> {
    inner: RsaPrivateKey,
    scheme: Pss,
    phantom: PhantomData<D>,
}

/// A PSS verifying key for the hash `D`; accepts any valid salt length unless built with
/// [`VerifyingKey::new_with_salt_len`].
pub struct VerifyingKey<D: Digest> {
    inner: RsaPublicKey,
    scheme: Pss,
    phantom: PhantomData<D>,
}

impl<D: Digest> SigningKey<D> {
    /// Wraps `key`; the salt is as long as `D`'s output.
    pub fn new(key: RsaPrivateKey) -> Self {
        SigningKey {
            inner: key,
            scheme: Pss::new::<D>(),
            phantom: PhantomData,
        }
    }

    /// Wraps `key` with a salt of `salt_len` bytes.
    pub fn new_with_salt_len(key: RsaPrivateKey, salt_len: usize) -> Self {
        SigningKey {
            inner: key,
            scheme: Pss::new_with_salt::<D>(salt_len),
            phantom: PhantomData,
        }
    }

    fn sign_digest_inner(
        &self,
        rng: &mut dyn CryptoRngCore,
        digest: D,
    ) -> signature::Result<Signature> {
        let hashed = digest.finalize();
        self.scheme
            .sign_ref(Some(rng), &self.inner, &hashed)
            .map(Signature::from)
            .map_err(sig_error)
    }
}

impl<D: Digest> VerifyingKey<D> {
    /// Wraps `key`; any salt length is accepted.
    pub fn new(key: RsaPublicKey) -> Self {
        VerifyingKey {
            inner: key,
            scheme: Pss::new::<D>(),
            phantom: PhantomData,
        }
    }

    /// Wraps `key`; only signatures with a salt of exactly `salt_len` bytes verify.
    pub fn new_with_salt_len(key: RsaPublicKey, salt_len: usize) -> Self {
        VerifyingKey {
            inner: key,
            scheme: Pss::new_with_salt::<D>(salt_len),
            phantom: PhantomData,
        }
    }
}

impl<D: Digest> RandomizedSigner<Signature> for SigningKey<D> {
    fn try_sign_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        self.sign_digest_inner(rng, D::new_with_prefix(msg))
    }
}

impl<D: Digest> RandomizedDigestSigner<D, Signature> for SigningKey<D> {
    fn try_sign_digest_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        digest: D,
    ) -> signature::Result<Signature> {
        self.sign_digest_inner(rng, digest)
    }
}

impl<D: Digest> From<RsaPrivateKey> for SigningKey<D> {
    fn from(key: RsaPrivateKey) -> Self {
        SigningKey::new(key)
    }
}

impl<D: Digest> From<RsaPublicKey> for VerifyingKey<D> {
    fn from(key: RsaPublicKey) -> Self {
        VerifyingKey::new(key)
    }
}

// `Keypair` clones the scheme: the verifying key keeps the signing key's salt length only
// if it was set explicitly; otherwise it accepts any.
key_wrapper_impls!();

/// Shows the scheme, never the key material.
impl<D: Digest> fmt::Debug for SigningKey<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pss::SigningKey")
            .field("size", &self.inner.size())
            .field("scheme", &self.scheme)
            .finish_non_exhaustive()
    }
}

impl<D: Digest> fmt::Debug for VerifyingKey<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pss::VerifyingKey")
            .field("key", &self.inner)
            .field("scheme", &self.scheme)
            .finish()
    }
}

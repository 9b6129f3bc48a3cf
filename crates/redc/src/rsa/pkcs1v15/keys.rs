//! Typed PKCS#1 v1.5 signing and verifying keys for the `signature` crate: the hash is a type
//! parameter, the message is hashed inside.

use core::fmt;
use core::marker::PhantomData;

use digest::const_oid::AssociatedOid;
use digest::Digest;
use rand_core::CryptoRngCore;
use signature::{
    DigestSigner, DigestVerifier, Keypair, RandomizedDigestSigner, RandomizedSigner, Signer,
    Verifier,
};

use super::{Pkcs1v15Sign, Signature};
use crate::rsa::sigbytes::{key_wrapper_impls, sig_error};
use crate::rsa::{RsaPrivateKey, RsaPublicKey};

/// A PKCS#1 v1.5 signing key for the hash `D` (RustCrypto-style `SigningKey<Sha256>`).
///
/// [`Signer`] signs deterministically; [`RandomizedSigner`] gives the same signature but
/// blinds the private operation with the caller's generator.
pub struct SigningKey<D: Digest> {
    inner: RsaPrivateKey,
    scheme: Pkcs1v15Sign,
    phantom: PhantomData<D>,
}

/// A PKCS#1 v1.5 verifying key for the hash `D`.
pub struct VerifyingKey<D: Digest> {
    inner: RsaPublicKey,
    scheme: Pkcs1v15Sign,
    phantom: PhantomData<D>,
}

impl<D: Digest + AssociatedOid> SigningKey<D> {
    /// Wraps `key`; signatures carry `D`'s `DigestInfo`.
    pub fn new(key: RsaPrivateKey) -> Self {
        SigningKey {
            inner: key,
            scheme: Pkcs1v15Sign::new::<D>(),
            phantom: PhantomData,
        }
    }
}

impl<D: Digest> SigningKey<D> {
    /// Wraps `key` for raw signatures without a `DigestInfo` (see
    /// [`Pkcs1v15Sign::new_unprefixed`]).
    pub fn new_unprefixed(key: RsaPrivateKey) -> Self {
        SigningKey {
            inner: key,
            scheme: Pkcs1v15Sign::new_unprefixed(),
            phantom: PhantomData,
        }
    }

    fn sign_digest_inner(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        digest: D,
    ) -> signature::Result<Signature> {
        let hashed = digest.finalize();
        self.scheme
            .sign_ref(rng, &self.inner, &hashed)
            .map(Signature::from)
            .map_err(sig_error)
    }
}

impl<D: Digest + AssociatedOid> VerifyingKey<D> {
    /// Wraps `key`; expects `D`'s `DigestInfo`.
    pub fn new(key: RsaPublicKey) -> Self {
        VerifyingKey {
            inner: key,
            scheme: Pkcs1v15Sign::new::<D>(),
            phantom: PhantomData,
        }
    }
}

impl<D: Digest> VerifyingKey<D> {
    /// Wraps `key` for raw signatures without a `DigestInfo`.
    pub fn new_unprefixed(key: RsaPublicKey) -> Self {
        VerifyingKey {
            inner: key,
            scheme: Pkcs1v15Sign::new_unprefixed(),
            phantom: PhantomData,
        }
    }
}

impl<D: Digest> Signer<Signature> for SigningKey<D> {
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.sign_digest_inner(None, D::new_with_prefix(msg))
    }
}

impl<D: Digest> DigestSigner<D, Signature> for SigningKey<D> {
    fn try_sign_digest(&self, digest: D) -> signature::Result<Signature> {
        self.sign_digest_inner(None, digest)
    }
}

impl<D: Digest> RandomizedSigner<Signature> for SigningKey<D> {
    fn try_sign_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        self.sign_digest_inner(Some(rng as &mut dyn CryptoRngCore), D::new_with_prefix(msg))
    }
}

impl<D: Digest> RandomizedDigestSigner<D, Signature> for SigningKey<D> {
    fn try_sign_digest_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        digest: D,
    ) -> signature::Result<Signature> {
        self.sign_digest_inner(Some(rng as &mut dyn CryptoRngCore), digest)
    }
}

impl<D: Digest + AssociatedOid> From<RsaPrivateKey> for SigningKey<D> {
    fn from(key: RsaPrivateKey) -> Self {
        SigningKey::new(key)
    }
}

impl<D: Digest + AssociatedOid> From<RsaPublicKey> for VerifyingKey<D> {
    fn from(key: RsaPublicKey) -> Self {
        VerifyingKey::new(key)
    }
}

key_wrapper_impls!();

impl<D: Digest> Eq for VerifyingKey<D> {}

/// Shows the scheme, never the key material.
impl<D: Digest> fmt::Debug for SigningKey<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pkcs1v15::SigningKey")
            .field("size", &self.inner.size())
            .field("scheme", &self.scheme)
            .finish_non_exhaustive()
    }
}

impl<D: Digest> fmt::Debug for VerifyingKey<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pkcs1v15::VerifyingKey")
            .field("key", &self.inner)
            .field("scheme", &self.scheme)
            .finish()
    }
}

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
use crate::rsa::padding::sigbytes::{sig_error, signing_key_impls, verifying_key_impls};
use crate::rsa::{RsaPrivateKey, RsaPublicKey};

/// A PKCS#1 v1.5 signing key for the hash `D` (RustCrypto-style `SigningKey<Sha256>`).
///
/// [`Signer`] signs deterministically; [`RandomizedSigner`] gives the same signature but
/// blinds the private operation with the caller's generator (the private operation is
/// constant time either way; blinding is a second layer).
///
/// ```
/// use redc::rsa::pkcs1v15::SigningKey;
/// use redc::rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};
/// use redc::rsa::{sha2::Sha256, OsRng};
///
/// let signing_key = SigningKey::<Sha256>::random(&mut OsRng, 2048)?;
/// let verifying_key = signing_key.verifying_key();
///
/// let blinded = signing_key.sign_with_rng(&mut OsRng, b"hello");
/// let plain = signing_key.sign(b"hello");
/// assert_eq!(blinded, plain); // PKCS#1 v1.5 signatures are deterministic
/// assert_eq!(plain.to_bytes().len(), 256);
/// verifying_key.verify(b"hello", &plain)?;
///
/// // A batch: one call, the same signatures as one at a time.
/// let sigs = signing_key.sign_batch_with_rng(&mut OsRng, &[b"hello", b"world"])?;
/// assert_eq!(sigs[0], plain);
/// verifying_key.verify(b"world", &sigs[1])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SigningKey<D: Digest> {
    inner: RsaPrivateKey,
    scheme: Pkcs1v15Sign,
    phantom: PhantomData<D>,
}

/// A PKCS#1 v1.5 verifying key for the hash `D`. Verification is strict: only the one
/// encoding RFC 8017 §9.2 produces is accepted (see the [module documentation](super)).
///
/// ```
/// use redc::rsa::pkcs1v15::{Signature, SigningKey, VerifyingKey};
/// use redc::rsa::signature::{Signer, SignatureEncoding, Verifier};
/// use redc::rsa::{pkcs8::LineEnding, sha2::Sha256, EncodePublicKey, OsRng, RsaPublicKey};
///
/// # let signer = SigningKey::<Sha256>::random(&mut OsRng, 2048)?;
/// # let spki_pem = redc::rsa::RsaPrivateKey::from(signer.clone())
/// #     .to_public_key()
/// #     .to_public_key_pem(LineEnding::LF)?;
/// # let sig = signer.sign(b"message").to_vec();
/// // A public key and a signature as received (PEM text, bytes).
/// let key = VerifyingKey::<Sha256>::new(RsaPublicKey::from_pem(&spki_pem)?);
/// key.verify(b"message", &Signature::try_from(&sig[..])?)?;
/// assert!(key.verify(b"massage", &Signature::try_from(&sig[..])?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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

    /// A new two-prime key of `bits` bits ([`RsaPrivateKey::new`]), wrapped.
    pub fn random<R: CryptoRngCore + ?Sized>(rng: &mut R, bits: usize) -> crate::rsa::Result<Self> {
        RsaPrivateKey::new(rng, bits).map(Self::new)
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

signing_key_impls!(SigningKey);
verifying_key_impls!();

impl<D: Digest> SigningKey<D> {
    /// Signs every message of `msgs` (each hashed with `D` here) deterministically, without
    /// blinding: the batch form of [`Signer`], with the same signatures. With the AVX-512 IFMA backend
    /// the exponentiations share AVX-512 IFMA lanes. All or nothing: a fault releases no
    /// signature.
    pub fn sign_batch(&self, msgs: &[&[u8]]) -> crate::rsa::Result<alloc::vec::Vec<Signature>> {
        self.sign_batch_inner(None, msgs)
    }
}

impl<D: Digest> signature::hazmat::PrehashSigner<Signature> for SigningKey<D> {
    /// Signs the digest `prehash` (computed by the caller with `D`), deterministically.
    fn sign_prehash(&self, prehash: &[u8]) -> signature::Result<Signature> {
        self.scheme
            .sign_ref(None, &self.inner, prehash)
            .map(Signature::from)
            .map_err(sig_error)
    }
}

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

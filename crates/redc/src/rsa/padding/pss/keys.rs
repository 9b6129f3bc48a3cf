//! Typed PSS signing and verifying keys for the `signature` crate. Signing is randomized (the
//! salt), so the signing keys implement [`RandomizedSigner`] and not `Signer`.
//!
//! RustCrypto `rsa` has two signing keys: `SigningKey`, whose private operation is not
//! blinded, and `BlindedSigningKey`, whose is. Here both blind: the generator that draws the
//! salt is at hand anyway, and blinding costs four Montgomery products modulo `n` per
//! signature plus a fresh pair now and then (`examples/blinding_cost.rs` measures it), so code
//! written for either gets the safer one; [`BlindedSigningKey`] exists so that such code
//! compiles unchanged.

use core::fmt;
use core::marker::PhantomData;

use digest::Digest;
use rand_core::CryptoRngCore;
use signature::hazmat::RandomizedPrehashSigner;
use signature::{DigestVerifier, Keypair, RandomizedDigestSigner, RandomizedSigner, Verifier};

use super::{Pss, Signature};
use crate::rsa::padding::sigbytes::{sig_error, signing_key_impls, verifying_key_impls};
use crate::rsa::{RsaPrivateKey, RsaPublicKey};

/// A PSS signing key for the hash `D` (message hash and MGF1), salt length = hash length
/// unless set with [`SigningKey::new_with_salt_len`]. Its private operation is blinded with
/// the generator that draws the salt (unlike RustCrypto `rsa`'s `SigningKey`; see the module
/// documentation).
///
/// ```
/// use redc::rsa::pss::SigningKey;
/// use redc::rsa::signature::{Keypair, RandomizedSigner, Verifier};
/// use redc::rsa::{sha2::Sha256, OsRng};
///
/// let signing_key = SigningKey::<Sha256>::random(&mut OsRng, 2048)?;
/// let verifying_key = signing_key.verifying_key();
/// let signature = signing_key.sign_with_rng(&mut OsRng, b"hello");
/// verifying_key.verify(b"hello", &signature)?;
///
/// // A batch: a fresh salt per message, the exponentiations side by side where the CPU can.
/// let sigs = signing_key.sign_batch_with_rng(&mut OsRng, &[b"a", b"b", b"c"])?;
/// verifying_key.verify(b"c", &sigs[2])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SigningKey<D: Digest> {
    inner: RsaPrivateKey,
    scheme: Pss,
    phantom: PhantomData<D>,
}

/// A PSS signing key whose private operation is blinded: the name RustCrypto `rsa` gives it.
/// Here it behaves exactly as [`SigningKey`], which blinds too.
///
/// ```
/// use redc::rsa::pss::BlindedSigningKey;
/// use redc::rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Verifier};
/// use redc::rsa::{sha2::Sha256, OsRng, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let signing_key = BlindedSigningKey::<Sha256>::new_with_salt_len(key, 20);
/// let signature = signing_key.sign_with_rng(&mut OsRng, b"hello");
/// assert_eq!(signature.to_bytes().len(), 256);
/// // The verifying key of a fixed salt length accepts only that length.
/// signing_key.verifying_key().verify(b"hello", &signature)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct BlindedSigningKey<D: Digest> {
    inner: RsaPrivateKey,
    scheme: Pss,
    phantom: PhantomData<D>,
}

/// A PSS verifying key for the hash `D`; accepts any valid salt length unless built with
/// [`VerifyingKey::new_with_salt_len`].
///
/// ```
/// use redc::rsa::pss::{Signature, SigningKey, VerifyingKey};
/// use redc::rsa::signature::{RandomizedSigner, SignatureEncoding, Verifier};
/// use redc::rsa::{sha2::Sha256, EncodePublicKey, OsRng, RsaPublicKey};
///
/// # let signer = SigningKey::<Sha256>::random(&mut OsRng, 2048)?;
/// # let spki_der = redc::rsa::RsaPrivateKey::from(signer.clone())
/// #     .to_public_key()
/// #     .to_public_key_der()?;
/// # let sig = signer.sign_with_rng(&mut OsRng, b"message").to_vec();
/// // A public key and a signature as received (DER bytes).
/// let key = VerifyingKey::<Sha256>::new(RsaPublicKey::from_der(spki_der.as_bytes())?);
/// key.verify(b"message", &Signature::try_from(&sig[..])?)?;
/// // Only a 32-byte salt, the length this signer uses:
/// let strict = VerifyingKey::<Sha256>::new_with_salt_len(key.into(), 32);
/// strict.verify(b"message", &Signature::try_from(&sig[..])?)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct VerifyingKey<D: Digest> {
    inner: RsaPublicKey,
    scheme: Pss,
    phantom: PhantomData<D>,
}

/// What both PSS signing keys have alike: construction, and signing with the salt and the
/// blinding drawn from the caller's generator.
macro_rules! pss_signing_key {
    ($key:ident, $debug:literal) => {
        impl<D: Digest> $key<D> {
            /// Wraps `key`; the salt is as long as `D`'s output.
            pub fn new(key: RsaPrivateKey) -> Self {
                $key {
                    inner: key,
                    scheme: Pss::new::<D>(),
                    phantom: PhantomData,
                }
            }

            /// Wraps `key` with a salt of `salt_len` bytes.
            pub fn new_with_salt_len(key: RsaPrivateKey, salt_len: usize) -> Self {
                $key {
                    inner: key,
                    scheme: Pss::new_with_salt::<D>(salt_len),
                    phantom: PhantomData,
                }
            }

            /// A new two-prime key of `bits` bits ([`RsaPrivateKey::new`]), wrapped.
            pub fn random<R: CryptoRngCore + ?Sized>(
                rng: &mut R,
                bits: usize,
            ) -> crate::rsa::Result<Self> {
                RsaPrivateKey::new(rng, bits).map(Self::new)
            }

            /// The salt length used when signing.
            pub fn salt_len(&self) -> usize {
                self.scheme.salt_len().unwrap_or(self.scheme.hash_len())
            }

            fn sign_prehash_inner(
                &self,
                rng: &mut dyn CryptoRngCore,
                hashed: &[u8],
            ) -> signature::Result<Signature> {
                self.scheme
                    .sign_ref(Some(rng), &self.inner, hashed)
                    .map(Signature::from)
                    .map_err(sig_error)
            }
        }

        impl<D: Digest> RandomizedSigner<Signature> for $key<D> {
            fn try_sign_with_rng(
                &self,
                rng: &mut impl CryptoRngCore,
                msg: &[u8],
            ) -> signature::Result<Signature> {
                self.sign_prehash_inner(rng, &D::digest(msg))
            }
        }

        impl<D: Digest> RandomizedDigestSigner<D, Signature> for $key<D> {
            fn try_sign_digest_with_rng(
                &self,
                rng: &mut impl CryptoRngCore,
                digest: D,
            ) -> signature::Result<Signature> {
                self.sign_prehash_inner(rng, &digest.finalize())
            }
        }

        impl<D: Digest> RandomizedPrehashSigner<Signature> for $key<D> {
            /// Signs the digest `prehash` (computed by the caller with `D`).
            fn sign_prehash_with_rng(
                &self,
                rng: &mut impl CryptoRngCore,
                prehash: &[u8],
            ) -> signature::Result<Signature> {
                self.sign_prehash_inner(rng, prehash)
            }
        }

        impl<D: Digest> From<RsaPrivateKey> for $key<D> {
            fn from(key: RsaPrivateKey) -> Self {
                $key::new(key)
            }
        }

        /// Shows the scheme, never the key material.
        impl<D: Digest> fmt::Debug for $key<D> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct($debug)
                    .field("size", &self.inner.size())
                    .field("scheme", &self.scheme)
                    .finish_non_exhaustive()
            }
        }

        // `Keypair` clones the scheme: the verifying key keeps the signing key's salt length
        // only if it was set explicitly; otherwise it accepts any.
        signing_key_impls!($key);
    };
}

pss_signing_key!(SigningKey, "pss::SigningKey");
pss_signing_key!(BlindedSigningKey, "pss::BlindedSigningKey");

impl<D: Digest> From<SigningKey<D>> for BlindedSigningKey<D> {
    fn from(key: SigningKey<D>) -> Self {
        BlindedSigningKey {
            inner: key.inner,
            scheme: key.scheme,
            phantom: PhantomData,
        }
    }
}

impl<D: Digest> From<BlindedSigningKey<D>> for SigningKey<D> {
    fn from(key: BlindedSigningKey<D>) -> Self {
        SigningKey {
            inner: key.inner,
            scheme: key.scheme,
            phantom: PhantomData,
        }
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

impl<D: Digest> From<RsaPublicKey> for VerifyingKey<D> {
    fn from(key: RsaPublicKey) -> Self {
        VerifyingKey::new(key)
    }
}

verifying_key_impls!();

impl<D: Digest> fmt::Debug for VerifyingKey<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("pss::VerifyingKey")
            .field("key", &self.inner)
            .field("scheme", &self.scheme)
            .finish()
    }
}

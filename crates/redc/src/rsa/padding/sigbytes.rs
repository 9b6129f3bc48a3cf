//! The signature value type shared in shape by [`super::pkcs1v15::Signature`] and
//! [`super::pss::Signature`] (two distinct types, so a PSS signature cannot be handed to a
//! PKCS#1 v1.5 verifier by mistake), and the conversion of RSA errors into
//! [`signature::Error`].

/// Wraps an RSA error for the `signature` traits, keeping it as the source when `std` is on.
pub(crate) fn sig_error(e: crate::rsa::Error) -> signature::Error {
    #[cfg(feature = "std")]
    {
        signature::Error::from_source(e)
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = e;
        signature::Error::new()
    }
}

/// Defines `Signature`: an RSA signature as its `k`-byte big-endian octet string (RFC 8017
/// §8.1.1 / §8.2.1 output `S`).
macro_rules! define_signature {
    ($scheme:literal, $module:ident) => {
        #[doc = concat!("An RSA ", $scheme, " signature: the octet string `S` of RFC 8017, as")]
        /// many bytes as the modulus (`k`). Any byte string converts into it; its length and
        /// value are checked when it is verified.
        ///
        /// ```
        #[doc = concat!("use redc::rsa::", stringify!($module), "::{Signature, SigningKey};")]
        /// use redc::rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Verifier};
        /// use redc::rsa::{sha2::Sha256, OsRng};
        ///
        /// let key = SigningKey::<Sha256>::random(&mut OsRng, 2048)?;
        /// let sig: Signature = key.sign_with_rng(&mut OsRng, b"hello");
        /// let bytes = sig.to_vec(); // 256 bytes, what goes on the wire
        /// assert_eq!(bytes.len(), 256);
        /// // Received bytes become a signature again; verification checks them.
        /// let received = Signature::try_from(&bytes[..])?;
        /// key.verifying_key().verify(b"hello", &received)?;
        /// assert!(key.verifying_key().verify(b"hello", &Signature::try_from(&bytes[1..])?).is_err());
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub struct Signature {
            bytes: alloc::boxed::Box<[u8]>,
        }

        impl Signature {
            /// The signature bytes.
            pub fn as_bytes(&self) -> &[u8] {
                &self.bytes
            }
        }

        impl signature::SignatureEncoding for Signature {
            type Repr = alloc::boxed::Box<[u8]>;
        }

        impl TryFrom<&[u8]> for Signature {
            type Error = signature::Error;

            fn try_from(bytes: &[u8]) -> core::result::Result<Self, signature::Error> {
                Ok(Signature {
                    bytes: bytes.into(),
                })
            }
        }

        impl From<alloc::vec::Vec<u8>> for Signature {
            fn from(bytes: alloc::vec::Vec<u8>) -> Self {
                Signature {
                    bytes: bytes.into_boxed_slice(),
                }
            }
        }

        impl From<Signature> for alloc::boxed::Box<[u8]> {
            fn from(sig: Signature) -> Self {
                sig.bytes
            }
        }

        impl AsRef<[u8]> for Signature {
            fn as_ref(&self) -> &[u8] {
                &self.bytes
            }
        }

        impl core::fmt::LowerHex for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                for b in self.bytes.iter() {
                    write!(f, "{b:02x}")?;
                }
                Ok(())
            }
        }

        impl core::fmt::UpperHex for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                for b in self.bytes.iter() {
                    write!(f, "{b:02X}")?;
                }
                Ok(())
            }
        }

        /// Lower-case hexadecimal.
        impl core::fmt::Display for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::LowerHex::fmt(self, f)
            }
        }

        impl core::fmt::Debug for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "Signature({self:x})")
            }
        }
    };
}

pub(crate) use define_signature;

/// The conversions every typed signing key (a struct `$key<D>` wrapping an
/// [`RsaPrivateKey`](crate::rsa::RsaPrivateKey) with `inner`, `scheme` and `phantom` fields) has
/// alike, whatever its padding: unwrapping into the key, `Clone`, `Keypair` (a `VerifyingKey`
/// with the same scheme), `AsRef`, PKCS#8 encoding, and batch signing of messages hashed with
/// `D` (`$batch_doc` says whether without a generator). Invoked in the module that defines
/// `$key`, `VerifyingKey` and `Signature`.
macro_rules! signing_key_impls {
    ($key:ident) => {
        impl<D: Digest> From<$key<D>> for RsaPrivateKey {
            fn from(key: $key<D>) -> Self {
                key.inner
            }
        }

        impl<D: Digest> Clone for $key<D> {
            fn clone(&self) -> Self {
                $key {
                    inner: self.inner.clone(),
                    scheme: self.scheme.clone(),
                    phantom: PhantomData,
                }
            }
        }

        impl<D: Digest> Keypair for $key<D> {
            type VerifyingKey = VerifyingKey<D>;

            fn verifying_key(&self) -> VerifyingKey<D> {
                VerifyingKey {
                    inner: self.inner.public_key().clone(),
                    scheme: self.scheme.clone(),
                    phantom: PhantomData,
                }
            }
        }

        impl<D: Digest> AsRef<RsaPrivateKey> for $key<D> {
            fn as_ref(&self) -> &RsaPrivateKey {
                &self.inner
            }
        }

        impl<D: Digest> pkcs8::EncodePrivateKey for $key<D> {
            /// The wrapped key as PKCS#8 (the scheme is not part of the encoding).
            fn to_pkcs8_der(&self) -> pkcs8::Result<der::SecretDocument> {
                self.inner.to_pkcs8_der()
            }
        }

        impl<D: Digest> $key<D> {
            /// Signs every message of `msgs` (each hashed with `D` here), with every private
            /// operation blinded by `rng`: one call through the scheme's `sign_batch`, so with
            /// the AVX-512 IFMA backend the exponentiations share AVX-512 IFMA lanes. The signatures
            /// verify like single ones. All or nothing: an error (a fault, a failing
            /// generator) releases no signature.
            pub fn sign_batch_with_rng<R: CryptoRngCore + ?Sized>(
                &self,
                rng: &mut R,
                msgs: &[&[u8]],
            ) -> crate::rsa::Result<alloc::vec::Vec<Signature>> {
                let mut rng = rng;
                self.sign_batch_inner(Some(&mut rng), msgs)
            }

            fn sign_batch_inner(
                &self,
                rng: Option<&mut dyn CryptoRngCore>,
                msgs: &[&[u8]],
            ) -> crate::rsa::Result<alloc::vec::Vec<Signature>> {
                let hashes: alloc::vec::Vec<_> = msgs.iter().map(|m| D::digest(m)).collect();
                let refs: alloc::vec::Vec<&[u8]> = hashes.iter().map(|h| &h[..]).collect();
                let sigs = self.scheme.sign_batch(rng, &self.inner, &refs)?;
                Ok(sigs.into_iter().map(Signature::from).collect())
            }
        }
    };
}

pub(crate) use signing_key_impls;

/// The conversions and comparisons every typed verifying key (`VerifyingKey<D>` wrapping an
/// [`RsaPublicKey`](crate::rsa::RsaPublicKey), with `inner`, `scheme` and `phantom` fields) has
/// alike, whatever its padding: verification through the scheme's `verify_ref` (`Verifier`,
/// `DigestVerifier`, `PrehashVerifier`), unwrapping into the key, `Clone`, `AsRef`, SPKI
/// encoding, and `PartialEq`. Invoked in the module that defines `VerifyingKey` and
/// `Signature`.
macro_rules! verifying_key_impls {
    () => {
        impl<D: Digest> From<VerifyingKey<D>> for RsaPublicKey {
            fn from(key: VerifyingKey<D>) -> Self {
                key.inner
            }
        }

        impl<D: Digest> Clone for VerifyingKey<D> {
            fn clone(&self) -> Self {
                VerifyingKey {
                    inner: self.inner.clone(),
                    scheme: self.scheme.clone(),
                    phantom: PhantomData,
                }
            }
        }

        impl<D: Digest> Verifier<Signature> for VerifyingKey<D> {
            fn verify(&self, msg: &[u8], signature: &Signature) -> signature::Result<()> {
                self.verify_digest(D::new_with_prefix(msg), signature)
            }
        }

        impl<D: Digest> DigestVerifier<D, Signature> for VerifyingKey<D> {
            fn verify_digest(&self, digest: D, signature: &Signature) -> signature::Result<()> {
                let hashed = digest.finalize();
                signature::hazmat::PrehashVerifier::verify_prehash(self, &hashed, signature)
            }
        }

        impl<D: Digest> signature::hazmat::PrehashVerifier<Signature> for VerifyingKey<D> {
            /// Verifies `signature` on the digest `prehash` (computed by the caller with `D`).
            fn verify_prehash(
                &self,
                prehash: &[u8],
                signature: &Signature,
            ) -> signature::Result<()> {
                self.scheme
                    .verify_ref(&self.inner, prehash, signature.as_bytes())
                    .map_err(sig_error)
            }
        }

        impl<D: Digest> AsRef<RsaPublicKey> for VerifyingKey<D> {
            fn as_ref(&self) -> &RsaPublicKey {
                &self.inner
            }
        }

        impl<D: Digest> spki::EncodePublicKey for VerifyingKey<D> {
            /// The wrapped key as SPKI (the scheme is not part of the encoding).
            fn to_public_key_der(&self) -> spki::Result<spki::Document> {
                self.inner.to_public_key_der()
            }
        }

        impl<D: Digest> PartialEq for VerifyingKey<D> {
            fn eq(&self, other: &Self) -> bool {
                self.inner == other.inner && self.scheme == other.scheme
            }
        }

        impl<D: Digest> Eq for VerifyingKey<D> {}
    };
}

pub(crate) use verifying_key_impls;

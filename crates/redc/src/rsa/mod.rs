//! RSA on the workbench: keys with 2 to 5 primes, the constant-time CRT private operation with
//! a fault check, key generation, PKCS#1 v1.5 / PSS / OAEP, and PKCS#1 / PKCS#8 / SPKI encodings.
//!
//! - [`RsaPublicKey`] / [`RsaPrivateKey`] (`key`): construction with validation, accessors;
//! - `private`: the CRT/Garner private operation and its fault check; `blinding`: its base
//!   blinding when the caller supplies a random number generator;
//! - `keygen` and [`prime`]: FIPS 186-5 style key generation and Miller–Rabin;
//! - `encoding`: PKCS#1 / PKCS#8 / SPKI through the RustCrypto crates (traits re-exported here);
//! - [`BoxedUint`]: the integer type key components travel in.

mod arith;
mod blinding;
mod encoding;
mod error;
mod key;
mod keygen;
mod lanes;
pub mod prime;
mod private;
mod uint;

#[cfg(test)]
pub(crate) mod test_rng;

mod ctbytes;
pub mod hash;
pub mod mgf;
pub mod oaep;
pub mod pkcs1v15;
pub mod pss;
mod sigbytes;
pub mod traits;

pub use error::{
    EncodingFault, Error, ExponentFault, InputFault, KeyFault, KeyFormat, ParameterFault, Result,
};
pub use key::{
    default_kernel, max_primes, PrivateMode, RsaPrivateKey, RsaPublicKey, MAX_BITS, MIN_GEN_BITS,
    MIN_IMPORT_BITS,
};
pub use keygen::{DEFAULT_EXPONENT, MAX_GEN_EXPONENT_BITS};
pub use uint::BoxedUint;

pub use pkcs1::{
    self, DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey,
};
pub use pkcs8::{self, DecodePrivateKey, EncodePrivateKey};
pub use spki::{self, DecodePublicKey, EncodePublicKey};

pub use hash::HashAlg;
pub use oaep::Oaep;
pub use pkcs1v15::{Pkcs1v15Encrypt, Pkcs1v15Sign};
pub use pss::Pss;
pub use traits::{PaddingScheme, SignatureScheme};

/// The `signature` crate (2.2), whose traits the typed keys in [`pkcs1v15`] and [`pss`]
/// implement, re-exported as RustCrypto's `rsa` does.
pub use ::signature;

/// The `rand_core` crate (0.6): every randomized operation takes a
/// [`CryptoRngCore`](rand_core::CryptoRngCore) from it.
pub use ::rand_core;

/// The operating system's random number generator (`getrandom`), with the `std` feature: the
/// generator to hand to key generation, blinded signing, PSS and encryption.
///
/// ```
/// use redc::rsa::{pkcs1v15::SigningKey, sha2::Sha256, OsRng, RsaPrivateKey};
/// use redc::rsa::signature::{RandomizedSigner, Verifier, Keypair};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let signing_key = SigningKey::<Sha256>::new(key);
/// let signature = signing_key.sign_with_rng(&mut OsRng, b"blinded by the OS's randomness");
/// signing_key.verifying_key().verify(b"blinded by the OS's randomness", &signature)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "std")]
pub use ::rand_core::OsRng;

/// The SHA-2 hashes (`sha2` 0.10), for the type parameters of the typed keys and paddings
/// (`SigningKey::<Sha256>`, `Oaep::new::<Sha256>()`), re-exported as RustCrypto's `rsa` does.
pub use ::sha2;

/// SHA-1 (`sha1` 0.10), for interoperating with old peers (OAEP with MGF1-SHA-1, say).
pub use ::sha1;

//! RSA: keys with 2 to 5 primes, the constant-time CRT private operation with a fault check
//! and blinding, key generation, PKCS#1 v1.5 / PSS / OAEP, and PKCS#1 / PKCS#8 / SPKI
//! encodings, in the shape of RustCrypto's `rsa` crate.
//!
//! # Tasks, and where their examples are
//!
//! | Task | Types (each documented with an example) |
//! |---|---|
//! | Generate a key (2 to 5 primes) | [`RsaPrivateKey::new`], [`RsaPrivateKey::new_multi_prime`] |
//! | Load a key, errors naming what is wrong | [`RsaPrivateKey::from_pem`] / [`from_der`](RsaPrivateKey::from_der), [`RsaPublicKey::from_pem`] / [`from_der`](RsaPublicKey::from_der), [`KeyFormat`] |
//! | Load / save through the RustCrypto traits | [`DecodePrivateKey`], [`EncodePrivateKey`], [`DecodeRsaPrivateKey`], [`EncodeRsaPrivateKey`], [`DecodePublicKey`], [`EncodePublicKey`], … |
//! | Sign / verify, PKCS#1 v1.5 | [`pkcs1v15::SigningKey`], [`pkcs1v15::VerifyingKey`], or [`Pkcs1v15Sign`] on digests |
//! | Sign / verify, PSS | [`pss::SigningKey`], [`pss::BlindedSigningKey`], [`pss::VerifyingKey`], or [`Pss`] on digests |
//! | Encrypt / decrypt, OAEP | [`oaep::EncryptingKey`], [`oaep::DecryptingKey`], or [`Oaep`] |
//! | Encrypt / decrypt, PKCS#1 v1.5 | [`pkcs1v15::EncryptingKey`], [`pkcs1v15::DecryptingKey`], or [`Pkcs1v15Encrypt`] |
//! | Many at once (side by side on AVX-512 IFMA) | `sign_batch_with_rng` on the signing keys, [`Pkcs1v15Sign::sign_batch`], [`Pss::sign_batch`], [`Oaep::decrypt_batch`], [`RsaPrivateKey::raw_private_batch`] |
//! | A hash chosen at run time | [`HashAlg`] with `from_hash` on each padding |
//! | Generic code over keys | [`traits::PublicKeyParts`], [`traits::PrivateKeyParts`] |
//!
//! # What it guarantees
//!
//! - The private operation (decryption, signing) is constant time in every secret: no branch,
//!   loop bound or memory address depends on the key or the secret intermediate values. The
//!   padding checks of decryption are constant time too, and every decryption failure is the
//!   one [`Error::Decryption`]. The repository's hardening tests check this under Valgrind.
//! - With a random number generator, the private operation is also base-blinded.
//! - Every private result is checked (`sᵉ mod n` must give the input back) before it is
//!   released: a fault gives [`Error::FaultDetected`], never a wrong signature.
//! - Keys are validated when built ([`KeyFault`] names what is wrong), secrets are zeroized
//!   on drop, and `Debug` never prints them.
//! - Import takes 512..=16384-bit moduli ([`MIN_IMPORT_BITS`], [`MAX_BITS`]), generation
//!   1024..=16384 ([`MIN_GEN_BITS`]), with OpenSSL's prime-count limits ([`max_primes`]).
//!
//! # Modules
//!
//! A tree, each folder knowing only itself and the ones listed after it:
//!
//! - `padding/`: [`pkcs1v15`], [`pss`], [`oaep`] and their typed keys, [`hash`] and [`mgf`]
//!   (what the paddings hash with), [`traits`] (the padding-scheme traits and the key parts);
//!   built on the keys' raw operations;
//! - `keygen/`: FIPS 186-5 style key generation and [`prime`] (Miller–Rabin);
//! - `key/`: [`RsaPublicKey`] / [`RsaPrivateKey`], construction with validation and
//!   accessors (their fields private to it), with `crt` (each prime's precomputed data),
//!   `private` (the CRT/Garner private operation, batches, the fault check), `blinding`, and
//!   `encoding` (PKCS#1 / PKCS#8 / SPKI through the RustCrypto crates, whose traits are
//!   re-exported here, and redc's own detecting decoders);
//! - `error` ([`Error`] and the fault kinds) and [`BoxedUint`], the integer type key
//!   components travel in.
//!
//! Below `rsa`, the key's exponentiations go to the backend through one hook
//! ([`crate::mont::backend::pow`]); the set-up arithmetic (gcd, inverses, products) is
//! `nat::arith`. Nothing here names a backend.

mod error;
mod key;
mod keygen;
mod padding;
mod uint;

pub use keygen::prime;
pub use padding::{hash, mgf, oaep, pkcs1v15, pss, traits};

pub use error::{
    EncodingFault, Error, ExponentFault, InputFault, KeyFault, KeyFormat, ParameterFault, Result,
};
pub use key::{
    default_kernel, max_primes, PrivateMode, RsaPrivateKey, RsaPublicKey, MAX_BITS,
    MAX_PBKDF2_ITERATIONS, MAX_SCRYPT_BYTES, MIN_GEN_BITS, MIN_IMPORT_BITS, PBKDF2_ITERATIONS,
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

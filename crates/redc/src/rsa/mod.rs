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

pub use error::{Error, Result};
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

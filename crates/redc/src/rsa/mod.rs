//! RSA on the workbench: keys with 2 to 5 primes, the constant-time CRT private operation with
//! a fault check, key generation, PKCS#1 v1.5 / PSS / OAEP, and PKCS#1 / PKCS#8 / SPKI encodings.
//!
//! (Being written: see the module files.)

mod error;
mod key;

mod ctbytes;
pub mod hash;
pub mod mgf;
pub mod oaep;
pub mod pkcs1v15;
pub mod pss;
mod sigbytes;
pub mod traits;

pub use error::{Error, Result};
pub use key::{RsaPrivateKey, RsaPublicKey};

pub use hash::HashAlg;
pub use oaep::Oaep;
pub use pkcs1v15::{Pkcs1v15Encrypt, Pkcs1v15Sign};
pub use pss::Pss;
pub use traits::{PaddingScheme, SignatureScheme};

/// The `signature` crate (2.2), whose traits the typed keys in [`pkcs1v15`] and [`pss`]
/// implement, re-exported as RustCrypto's `rsa` does.
pub use ::signature;

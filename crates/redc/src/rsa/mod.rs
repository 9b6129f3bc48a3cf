//! RSA on the workbench: keys with 2 to 5 primes, the constant-time CRT private operation with
//! a fault check, key generation, PKCS#1 v1.5 / PSS / OAEP, and PKCS#1 / PKCS#8 / SPKI encodings.
//!
//! (Being written: see the module files.)

mod error;
mod key;

pub use error::{Error, Result};
pub use key::{RsaPrivateKey, RsaPublicKey};

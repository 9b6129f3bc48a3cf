//! The paddings (RFC 8017 §7–9) and what they need: PKCS#1 v1.5 signatures and encryption,
//! PSS, OAEP, their typed keys, the hashes and MGF1, and the padding-scheme traits. Built on the
//! keys' raw operations (`RsaPrivateKey::raw_private`, `RsaPublicKey::raw_public`); nothing
//! here touches the arithmetic.

pub(crate) mod ctbytes;
pub mod hash;
pub mod mgf;
pub mod oaep;
pub mod pkcs1v15;
pub mod pss;
pub(crate) mod sigbytes;
pub mod traits;

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

/// The byte-level encoders take the modulus size from their caller: above redc's largest
/// modulus ([`crate::rsa::MAX_BITS`]) it is [`crate::rsa::Error::KeySize`], before anything
/// is allocated (a size near `usize::MAX` would otherwise abort the process).
pub(crate) fn check_modulus_bits(bits: usize) -> crate::rsa::Result<()> {
    use crate::rsa::MAX_BITS;
    if bits > MAX_BITS {
        return Err(crate::rsa::Error::KeySize {
            bits,
            min: 0,
            max: MAX_BITS,
        });
    }
    Ok(())
}

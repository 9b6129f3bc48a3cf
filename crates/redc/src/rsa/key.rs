//! RSA keys: PLACEHOLDER shell (the key layer is being written). The signatures here are the
//! interface the padding layer builds on.

use alloc::vec::Vec;
use zeroize::Zeroizing;

use super::{Error, Result};

/// An RSA public key `(n, e)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RsaPublicKey {
    n: Vec<u8>,
}

/// An RSA private key with 2 to 5 primes.
#[derive(Clone)]
pub struct RsaPrivateKey {
    public: RsaPublicKey,
}

impl RsaPublicKey {
    /// The modulus length in bytes, `k` in RFC 8017.
    pub fn size(&self) -> usize {
        self.n.len()
    }

    /// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2): `input^e mod n`. `input` is big-endian of at
    /// most `size()` bytes and MUST be `< n` ([`Error::InputOutOfRange`] otherwise); the output
    /// has exactly `size()` bytes. Variable time: public data only.
    pub fn raw_public(&self, input: &[u8]) -> Result<Vec<u8>> {
        let _ = input;
        Err(Error::InvalidKey)
    }
}

impl RsaPrivateKey {
    /// The public half.
    pub fn public_key(&self) -> &RsaPublicKey {
        &self.public
    }

    /// The modulus length in bytes.
    pub fn size(&self) -> usize {
        self.public.size()
    }

    /// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1): `input^d mod n` by CRT, constant time, with
    /// the fault check. `input` is big-endian of at most `size()` bytes and MUST be `< n`
    /// ([`Error::InputOutOfRange`] otherwise); the output has exactly `size()` bytes.
    /// `rng`, when given, is used for base blinding.
    pub fn raw_private(
        &self,
        rng: Option<&mut dyn rand_core::CryptoRngCore>,
        input: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>> {
        let _ = (rng, input);
        Err(Error::InvalidKey)
    }
}

// Added by the padding branch (rsapad) so that it compiles against the shell: PSS needs
// `modBits` (RFC 8017 §8.1: emBits = modBits − 1), and the end-to-end tests need key
// generation. The real key layer provides these; drop this block when merging.
impl RsaPublicKey {
    /// The modulus length in bits, `modBits` in RFC 8017. Public.
    pub fn bits(&self) -> usize {
        match self.n.iter().position(|&b| b != 0) {
            Some(i) => (self.n.len() - i) * 8 - self.n[i].leading_zeros() as usize,
            None => 0,
        }
    }
}

impl RsaPrivateKey {
    /// Generates a two-prime key of `bits` bits (shell: not implemented on this branch).
    pub fn new<R: rand_core::CryptoRngCore + ?Sized>(rng: &mut R, bits: usize) -> Result<Self> {
        let _ = (rng, bits);
        Err(Error::KeyGeneration)
    }

    /// Generates a key of `bits` bits with `primes` primes (shell: not implemented here).
    pub fn new_multi_prime<R: rand_core::CryptoRngCore + ?Sized>(
        rng: &mut R,
        bits: usize,
        primes: usize,
    ) -> Result<Self> {
        let _ = (rng, bits, primes);
        Err(Error::KeyGeneration)
    }
}

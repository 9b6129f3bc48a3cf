//! RSA keys: the public key `(n, e)` and the private key with 2 to 5 primes (RFC 8017 §3).
//!
//! Keys are validated once, when they are built ([`RsaPublicKey::new`],
//! [`RsaPrivateKey::from_components`], decoding, generation); every constant the private
//! operation needs (a [`Modulus`] per prime and for `n`, the CRT exponents as fixed-length
//! bytes, the Garner coefficients in Montgomery form) is computed then, never per operation.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use zeroize::Zeroizing;

use self::blinding::BlindingCache;
use self::crt::PrimeCrt;
use super::uint::BoxedUint;
use super::{Error, ExponentFault, InputFault, KeyFault, Result};
use crate::nat::arith;

mod blinding;
mod crt;
mod encoding;
mod legacy_pem;
mod pkcs12_pbe;
pub use encoding::{MAX_PBKDF2_ITERATIONS, MAX_SCRYPT_BYTES, PBKDF2_ITERATIONS};
mod private;
use crate::exp::{binary, sliding};
use crate::mont::backend::pow::PowMany;
use crate::mont::backend::{Backend, PublicPow};
use crate::mont::{Kernel, Modulus};
use crate::nat;

/// Smallest modulus accepted on import, in bits.
pub const MIN_IMPORT_BITS: usize = 512;
/// Smallest modulus key generation produces, in bits.
pub const MIN_GEN_BITS: usize = 1024;
/// Largest modulus accepted anywhere, in bits.
pub const MAX_BITS: usize = 16384;

/// The most primes a key of `bits` bits may have (OpenSSL's limits): 2 below 1024 bits, 3
/// from 1024, 4 from 4096, 5 from 8192.
pub fn max_primes(bits: usize) -> usize {
    match bits {
        b if b >= 8192 => 5,
        b if b >= 4096 => 4,
        b if b >= 1024 => 3,
        _ => 2,
    }
}

/// The kernel keys use unless told otherwise: the active backend's ([`Backend::active`],
/// honouring `REDC_BACKEND`). An unknown or unavailable `REDC_BACKEND` is an error here, not a
/// fallback: a key never runs on another backend than the one asked for.
pub fn default_kernel() -> crate::Result<Kernel<u64>> {
    Backend::active()?.kernel()
}

/// The checks of RFC 8017 §3.1 on a public key `(n, e)` (little-endian limbs, leading zeros
/// allowed), in the order [`RsaPublicKey::new`] reports them: `n` of
/// [`MIN_IMPORT_BITS`]`..=`[`MAX_BITS`] bits ([`Error::KeySize`]) and odd
/// ([`KeyFault::EvenModulus`]), `e` odd with `3 ≤ e < n` ([`Error::PublicExponent`]). Costs one
/// pass over each: key construction from primes runs it before computing `d`, whose cost grows
/// with the square of `e`'s length. Variable time (`n` and `e` are public).
pub(crate) fn check_public_vartime(n: &[u64], e: &[u64]) -> Result<()> {
    let bits = nat::bit_len_vartime(n);
    if !(MIN_IMPORT_BITS..=MAX_BITS).contains(&bits) {
        return Err(Error::KeySize {
            bits,
            min: MIN_IMPORT_BITS,
            max: MAX_BITS,
        });
    }
    if n[0] & 1 == 0 {
        return Err(Error::InvalidKey(KeyFault::EvenModulus));
    }
    if nat::bit_len_vartime(e) < 2 {
        return Err(Error::PublicExponent(ExponentFault::TooSmall));
    }
    if e[0] & 1 == 0 {
        return Err(Error::PublicExponent(ExponentFault::Even));
    }
    if arith::cmp_vartime(e, n) != core::cmp::Ordering::Less {
        return Err(Error::PublicExponent(ExponentFault::NotBelowModulus));
    }
    Ok(())
}

/// An RSA public key `(n, e)` (RFC 8017 §3.1).
///
/// Invariants (checked by [`RsaPublicKey::new`]): `n` odd of 512..=16384 bits, `e` odd with
/// `1 < e < n`. Holds `n`'s [`Modulus`] so that [`RsaPublicKey::raw_public`] sets nothing up.
///
/// ```
/// use redc::rsa::pkcs8::LineEnding;
/// use redc::rsa::sha2::{Digest, Sha256};
/// use redc::rsa::{EncodePublicKey, Oaep, OsRng, Pkcs1v15Sign, RsaPrivateKey, RsaPublicKey};
///
/// # let private = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// # let spki_pem = private.to_public_key().to_public_key_pem(LineEnding::LF)?;
/// # let signature = private.sign(Pkcs1v15Sign::new::<Sha256>(), &Sha256::digest(b"hello"))?;
/// // Load (SubjectPublicKeyInfo or PKCS#1, PEM or DER), verify, encrypt.
/// let key = RsaPublicKey::from_pem(&spki_pem)?;
/// key.verify(Pkcs1v15Sign::new::<Sha256>(), &Sha256::digest(b"hello"), &signature)?;
/// let ciphertext = key.encrypt(&mut OsRng, Oaep::new::<Sha256>(), b"for the key's owner")?;
/// assert_eq!(ciphertext.len(), key.size());
/// # assert_eq!(private.decrypt(Oaep::new::<Sha256>(), &ciphertext)?, b"for the key's owner");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct RsaPublicKey {
    n: BoxedUint,
    e: BoxedUint,
    e_bytes: Vec<u8>,
    size: usize,
    modulus: Modulus<u64>,
    kernel: Kernel<u64>,
    /// `n` prepared for the backend's public-exponent exponentiation, if it has one.
    public_pow: PublicPow,
}

impl PartialEq for RsaPublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.e == other.e
    }
}

impl Eq for RsaPublicKey {}

impl fmt::Debug for RsaPublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPublicKey")
            .field("bits", &self.modulus.bits())
            .field("n", &Hex(&self.n.to_be_bytes()))
            .field("e", &Hex(&self.e_bytes))
            .finish()
    }
}

struct Hex<'a>(&'a [u8]);

impl fmt::Debug for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("0x")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl RsaPublicKey {
    /// The public key `(n, e)` after checking RFC 8017 §3.1: `n` odd of 512..=16384 bits
    /// ([`Error::KeySize`] for the size, [`KeyFault::EvenModulus`] for an even `n`) and `e`
    /// odd with `3 ≤ e < n` ([`Error::PublicExponent`] saying which). Small exponents such as 3
    /// are accepted. An invalid `REDC_BACKEND` is an error here too ([`Error::Arith`]).
    ///
    /// ```
    /// use redc::rsa::{BoxedUint, Error, ExponentFault, RsaPublicKey};
    ///
    /// // n = 2^511 + 1 is odd and has 512 bits: enough for the public checks.
    /// let mut n = [0u8; 64];
    /// n[0] = 0x80;
    /// n[63] = 1;
    /// let n = BoxedUint::from_be_bytes(&n);
    /// let key = RsaPublicKey::new(n.clone(), BoxedUint::from_u64(65537))?;
    /// assert_eq!((key.bits(), key.size()), (512, 64));
    ///
    /// let even_e = RsaPublicKey::new(n, BoxedUint::from_u64(65536)).unwrap_err();
    /// assert_eq!(even_e, Error::PublicExponent(ExponentFault::Even));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(n: BoxedUint, e: BoxedUint) -> Result<Self> {
        check_public_vartime(n.as_limbs(), e.as_limbs())?;
        let bits = n.bits();
        let n = BoxedUint::from_limbs(&n.trimmed_limbs());
        let e = BoxedUint::from_limbs(&e.trimmed_limbs());
        let modulus = Modulus::new(n.as_limbs())?;
        let e_bytes = e.to_be_bytes().to_vec();
        let kernel = default_kernel()?;
        Ok(RsaPublicKey {
            size: bits.div_ceil(8),
            n,
            e,
            e_bytes,
            public_pow: PublicPow::new(&modulus, &kernel),
            modulus,
            kernel,
        })
    }

    /// The modulus `n`.
    pub fn n(&self) -> &BoxedUint {
        &self.n
    }

    /// The public exponent `e`.
    pub fn e(&self) -> &BoxedUint {
        &self.e
    }

    /// The modulus length in bytes, `k` in RFC 8017.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The modulus length in bits.
    pub fn bits(&self) -> usize {
        self.modulus.bits()
    }

    /// The Montgomery kernel this key's operations use.
    pub fn kernel(&self) -> Kernel<u64> {
        self.kernel
    }

    /// Runs this key's operations on `backend` from now on, instead of the active one
    /// ([`Backend::active`]). Every backend gives the same results; this is for measuring and
    /// comparing them. [`Error::Arith`]`(`[`BackendUnavailable`](crate::Error::BackendUnavailable)`)`
    /// if this CPU cannot run it, and the key is left as it was.
    pub fn set_backend(&mut self, backend: Backend) -> Result<()> {
        self.use_kernel(backend.kernel()?);
        Ok(())
    }

    /// Test hook (feature `test-hooks`; not for production): uses `kernel` (any of the
    /// library's kernels, e.g. one REDC algorithm of the papers) for this key's operations.
    #[cfg(feature = "test-hooks")]
    pub fn set_kernel(&mut self, kernel: Kernel<u64>) {
        self.use_kernel(kernel);
    }

    /// Runs on `kernel` from now on, with the public exponentiation prepared for it.
    fn use_kernel(&mut self, kernel: Kernel<u64>) {
        self.kernel = kernel;
        self.public_pow = PublicPow::new(&self.modulus, &kernel);
    }

    /// `n`'s Montgomery modulus.
    fn modulus(&self) -> &Modulus<u64> {
        &self.modulus
    }

    /// Reads `input` (big-endian, at most `size()` bytes) into `n`'s limb count, or
    /// [`Error::InputOutOfRange`] if it is too long or not below `n`. Leaks only whether the
    /// input was accepted, and why.
    pub(crate) fn read_input(&self, input: &[u8]) -> Result<Zeroizing<Vec<u64>>> {
        if input.len() > self.size {
            return Err(Error::InputOutOfRange(InputFault::TooLong {
                len: input.len(),
                max: self.size,
            }));
        }
        let mut x = Zeroizing::new(vec![0u64; self.modulus.limbs()]);
        if !nat::from_be_bytes(&mut x, input) || !bool::from(nat::ct_lt(&x, self.modulus.n())) {
            return Err(Error::InputOutOfRange(InputFault::NotBelowModulus));
        }
        Ok(x)
    }

    /// `out = x^e mod n` for `x < n` (`n`'s limb count). Variable time in `e` only (public):
    /// binary for exponents up to 64 bits, a 5-bit sliding window beyond. The kernels are
    /// constant time, so `x` (which may be a secret result being fault-checked) does not leak.
    pub(crate) fn pow_e(&self, out: &mut [u64], x: &[u64], kernel: &Kernel<u64>) {
        if kernel.lanes && self.public_pow.pow_vartime(out, x, &self.e_bytes) {
            return;
        }
        if self.e.bits() <= 64 {
            binary::pow_vartime(out, x, &self.e_bytes, &self.modulus, kernel);
        } else {
            sliding::pow_vartime(out, x, &self.e_bytes, &self.modulus, kernel, 5);
        }
    }

    /// [`RsaPublicKey::pow_e`] of every `x` (each `< n`, `n`'s limb count): side by side
    /// where the backend runs several per call ([`PublicPow::pow_many_vartime`]), the rest
    /// one after another.
    fn pow_e_batch(&self, xs: &[Zeroizing<Vec<u64>>]) -> Vec<Zeroizing<Vec<u64>>> {
        let s = self.modulus.limbs();
        let mut out: Vec<Zeroizing<Vec<u64>>> =
            xs.iter().map(|_| Zeroizing::new(vec![0u64; s])).collect();
        let done = if self.kernel.lanes {
            self.public_pow
                .pow_many_vartime(&mut out, xs, &self.e_bytes)
        } else {
            0
        };
        for (o, x) in out.iter_mut().zip(xs).skip(done) {
            self.pow_e(o, x, &self.kernel);
        }
        out
    }

    /// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2): `input^e mod n`. `input` is big-endian of at
    /// most `size()` bytes and MUST be `< n` ([`Error::InputOutOfRange`] otherwise); the output
    /// has exactly `size()` bytes. Variable time: public data only.
    pub fn raw_public(&self, input: &[u8]) -> Result<Vec<u8>> {
        let x = self.read_input(input)?;
        let mut y = vec![0u64; self.modulus.limbs()];
        self.pow_e(&mut y, &x, &self.kernel);
        let mut out = vec![0u8; self.size];
        let _ = nat::to_be_bytes(&y, &mut out);
        Ok(out)
    }
}

/// How [`RsaPrivateKey::raw_private_with`] computes `c^d mod n`.
///
/// ```
/// use redc::rsa::{OsRng, PrivateMode, RsaPrivateKey};
///
/// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
/// let c = [0x42u8; 100]; // any value below n
/// let crt = key.raw_private_with(None, &c, PrivateMode::Crt)?;
/// let plain = key.raw_private_with(None, &c, PrivateMode::NonCrt)?;
/// assert_eq!(crt, plain); // the same c^d mod n, CRT being the faster way there
/// # Ok::<(), redc::rsa::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PrivateMode {
    /// One fixed-window exponentiation per prime, then Garner's recombination (RFC 8017
    /// §5.1.2 step 2.b). The default.
    #[default]
    Crt,
    /// `c^d mod n` with one fixed-window exponentiation modulo `n` (RFC 8017 §5.1.2 step 2.a):
    /// for measuring what CRT saves.
    NonCrt,
}

/// An RSA private key with 2 to 5 primes (RFC 8017 §3.2), shaped like RustCrypto's `rsa`
/// crate.
///
/// Primes are kept in the order given (`p`, `q`, `r₃`, …). For each prime `rᵢ` it holds
/// `dᵢ = d mod (rᵢ − 1)` and the Garner coefficient: `qInv = q⁻¹ mod p` for `p` and
/// `tᵢ = (r₁·…·rᵢ₋₁)⁻¹ mod rᵢ` for `i ≥ 3`. All of it is validated at construction and
/// zeroized on drop; `Debug` prints no secret. Private operations given a random number
/// generator are base-blinded with a pair the key keeps (behind a mutex, so a key can be shared
/// between threads; a clone makes its own).
///
/// ```
/// use redc::rsa::pkcs8::LineEnding;
/// use redc::rsa::sha2::{Digest, Sha256};
/// use redc::rsa::{EncodePrivateKey, Oaep, OsRng, Pss, RsaPrivateKey, RsaPublicKey};
///
/// // Generate (2 primes; `new_multi_prime` for 3 to 5), save, load back.
/// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
/// let pem = key.to_pkcs8_pem(LineEnding::LF)?; // zeroized when dropped
/// let key = RsaPrivateKey::from_pem(&pem)?;
///
/// // Sign a digest (PSS; blinded with the generator that draws the salt) and check it.
/// let digest = Sha256::digest(b"hello");
/// let signature = key.sign_with_rng(&mut OsRng, Pss::new::<Sha256>(), &digest)?;
/// let public = RsaPublicKey::from(&key);
/// public.verify(Pss::new::<Sha256>(), &digest, &signature)?;
///
/// // Decrypt what the public key encrypted (blinded too).
/// let c = public.encrypt(&mut OsRng, Oaep::new::<Sha256>(), b"secret")?;
/// assert_eq!(key.decrypt_blinded(&mut OsRng, Oaep::new::<Sha256>(), &c)?, b"secret");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    d: BoxedUint,
    d_bytes: Zeroizing<Vec<u8>>,
    primes: Vec<BoxedUint>,
    crt: Vec<PrimeCrt>,
    /// The primes and CRT exponents prepared for the backend's exponentiations.
    pow: PowMany,
    /// The cached base-blinding pair (empty until the first blinded operation; without `std`
    /// there is no cache).
    #[cfg_attr(not(any(feature = "std", feature = "test-hooks")), allow(dead_code))]
    blinding: BlindingCache,
}

impl fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("public", &self.public)
            .field("primes", &self.primes.len())
            .finish_non_exhaustive()
    }
}

/// CRT values given alongside the components (from a PKCS#1 document), checked against the
/// ones computed from `d` and the primes.
struct GivenCrt {
    /// `dᵢ` for every prime, in order.
    exponents: Vec<BoxedUint>,
    /// `qInv`, then `tᵢ` for primes 3.. (one fewer than the primes).
    coefficients: Vec<BoxedUint>,
}

impl RsaPrivateKey {
    /// Builds a key from `n`, `e`, `d` and the primes `[p, q, r₃, …]`, computing the CRT values
    /// and validating everything (see [`RsaPrivateKey::validate`]): [`Error::KeySize`],
    /// [`Error::PublicExponent`], [`Error::PrimeCount`] or [`Error::InvalidKey`] naming the
    /// component and the relation that fails ([`KeyFault`]).
    ///
    /// Costs about one private operation per prime (the coefficients are computed by Fermat
    /// inversion in constant time) plus one private operation as a self-test.
    ///
    /// ```
    /// use redc::rsa::{BoxedUint, Error, KeyFault, OsRng, RsaPrivateKey};
    ///
    /// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
    /// let rebuilt = RsaPrivateKey::from_components(
    ///     key.n().clone(),
    ///     key.e().clone(),
    ///     key.d().clone(),
    ///     key.primes().to_vec(),
    /// )?;
    /// assert_eq!(rebuilt.to_public_key(), key.to_public_key());
    ///
    /// // With e = 3, d is not e's inverse: the error says so.
    /// let err = RsaPrivateKey::from_components(
    ///     key.n().clone(),
    ///     BoxedUint::from_u64(3),
    ///     key.d().clone(),
    ///     key.primes().to_vec(),
    /// )
    /// .unwrap_err();
    /// assert_eq!(err, Error::InvalidKey(KeyFault::ExponentMismatch { index: 0 }));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_components(
        n: BoxedUint,
        e: BoxedUint,
        d: BoxedUint,
        primes: Vec<BoxedUint>,
    ) -> Result<Self> {
        Self::build(n, e, d, primes, None)
    }

    fn build(
        n: BoxedUint,
        e: BoxedUint,
        d: BoxedUint,
        primes: Vec<BoxedUint>,
        given: Option<GivenCrt>,
    ) -> Result<Self> {
        let public = RsaPublicKey::new(n, e)?;
        let bits = public.bits();
        if primes.len() < 2 || primes.len() > max_primes(bits) {
            return Err(Error::PrimeCount {
                primes: primes.len(),
                bits,
                max: max_primes(bits),
            });
        }
        let kernel = public.kernel;
        let nl = public.modulus.limbs();
        // d < n, read into n's limb count (its announced length is then public).
        let mut d_limbs = Zeroizing::new(vec![0u64; nl]);
        let mut high = 0u64;
        for (i, &l) in d.as_limbs().iter().enumerate() {
            if i < nl {
                d_limbs[i] = l;
            } else {
                high |= l;
            }
        }
        if high != 0
            || !bool::from(nat::ct_lt(&d_limbs, public.modulus.n()))
            || bool::from(nat::ct_is_zero(&d_limbs))
        {
            return Err(Error::InvalidKey(KeyFault::PrivateExponentRange));
        }
        let mut d_bytes = Zeroizing::new(vec![0u8; public.size]);
        let _ = nat::to_be_bytes(&d_limbs, &mut d_bytes);

        // Each prime: odd, > 64 bits (so the chunked reduction has whole limbs to work with),
        // below n. Their product must be n (checked in `check`).
        let mut prime_limbs: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(primes.len());
        for (index, p) in primes.iter().enumerate() {
            let l = Zeroizing::new(p.trimmed_limbs());
            if l.len() < 2 {
                let bits = p.bits();
                return Err(Error::InvalidKey(KeyFault::PrimeTooSmall { index, bits }));
            }
            if l[0] & 1 == 0 {
                return Err(Error::InvalidKey(KeyFault::EvenPrime { index }));
            }
            if l.len() > nl {
                return Err(Error::InvalidKey(KeyFault::PrimeTooLarge { index }));
            }
            prime_limbs.push(l);
        }
        let mut crt = Vec::with_capacity(primes.len());
        // Garner order is q, p, r₃, …: the prefix product before p is q, before r₃ it is p·q.
        let mut prefix: Zeroizing<Vec<u64>> = Zeroizing::new(vec![0u64; 1]);
        for i in 0..primes.len() {
            let before: Zeroizing<Vec<u64>> = match i {
                0 => prime_limbs[1].clone(),
                1 => Zeroizing::new(vec![1u64]),
                2 => Zeroizing::new(arith::mul(&prime_limbs[0], &prime_limbs[1])),
                _ => Zeroizing::new(arith::mul(&prefix, &prime_limbs[i - 1])),
            };
            if i >= 2 {
                prefix = Zeroizing::new(nat::trim_vartime(&before).to_vec());
            }
            let pc = PrimeCrt::new(&prime_limbs[i], &d_limbs, &before, i != 1, &kernel)?;
            crt.push(pc);
        }
        let key = RsaPrivateKey {
            public,
            d: BoxedUint::from_limbs(&d_limbs),
            d_bytes,
            primes: prime_limbs
                .iter()
                .map(|l| BoxedUint::from_limbs(l))
                .collect(),
            pow: PowMany::new(&crt.iter().map(PrimeCrt::secret_exp).collect::<Vec<_>>()),
            crt,
            blinding: BlindingCache::default(),
        };
        // The key's own consistency first (a wrong d is reported as such, not as the stored
        // dP that no longer matches it), then the stored CRT values against the computed ones.
        key.check()?;
        if let Some(given) = given {
            key.check_given(&given)?;
        }
        // Self-test: one private operation through the fault check (catches composite "primes"
        // that slipped through the congruence checks).
        let mut probe = vec![0u8; key.size()];
        probe[key.size() - 1] = 2;
        probe[0] = 0;
        probe[1] = 0x5a;
        key.raw_private(None, &probe)
            .map_err(|_| Error::InvalidKey(KeyFault::SelfTest))?;
        Ok(key)
    }

    /// The CRT values of a PKCS#1 document against the computed ones: every comparison is
    /// made (constant time in the values), then the first mismatch, if any, is reported.
    fn check_given(&self, given: &GivenCrt) -> Result<()> {
        if given.exponents.len() != self.crt.len() || given.coefficients.len() + 1 != self.crt.len()
        {
            return Err(Error::InvalidKey(KeyFault::CrtCount));
        }
        let exponents: Vec<bool> = self
            .crt
            .iter()
            .zip(&given.exponents)
            .map(|(pc, de)| pc.d_i == *de)
            .collect();
        // The coefficients belong to primes 0, 2, 3, … (q has none).
        let coefficients: Vec<(usize, bool)> = (0..self.crt.len())
            .filter(|&i| i != 1)
            .zip(&given.coefficients)
            .map(|(i, c)| (i, self.crt[i].coeff == *c))
            .collect();
        if let Some(index) = exponents.iter().position(|&ok| !ok) {
            return Err(Error::InvalidKey(KeyFault::CrtExponent { index }));
        }
        if let Some(&(index, _)) = coefficients.iter().find(|(_, ok)| !ok) {
            return Err(Error::InvalidKey(KeyFault::CrtCoefficient { index }));
        }
        Ok(())
    }

    /// The consistency checks of RFC 8017 §3.2 (and Go's `checkPrivateKey`), each computed in
    /// constant time over the components. All are computed before any is looked at, so a valid
    /// key always takes the same path; for an invalid one the first failure is reported, in the
    /// order below (which may tell what kind of garbage it was, never anything about a valid
    /// key).
    fn check(&self) -> Result<()> {
        let n = self.public.n.as_limbs();
        let e = self.public.e.as_limbs();
        // n = ∏ rᵢ.
        let mut prod = self.primes[0].as_limbs().to_vec();
        for p in &self.primes[1..] {
            prod = arith::mul(&prod, p.as_limbs());
        }
        let product_ok = arith::eq(&prod, n);
        // Distinct primes (with n = ∏ rᵢ and rᵢ > 1 this makes them pairwise different).
        let mut repeated = None;
        for i in 0..self.primes.len() {
            for j in i + 1..self.primes.len() {
                if arith::eq(self.primes[i].as_limbs(), self.primes[j].as_limbs())
                    && repeated.is_none()
                {
                    repeated = Some((i, j));
                }
            }
        }
        let mut per_prime = Vec::with_capacity(self.crt.len());
        for (i, pc) in self.crt.iter().enumerate() {
            let r = self.primes[i].as_limbs();
            let rm1 = Zeroizing::new(arith::sub_u64(r, 1));
            // e·dᵢ ≡ 1 (mod rᵢ − 1), and dᵢ = d mod (rᵢ − 1).
            let ed = Zeroizing::new(arith::mul(e, pc.d_i.as_limbs()));
            let di = Zeroizing::new(arith::rem(self.d.as_limbs(), &rm1));
            let inverse_ok =
                arith::is_one(&arith::rem(&ed, &rm1)) & arith::eq(&di, pc.d_i.as_limbs());
            per_prime.push((
                inverse_ok,
                pc.coefficient_ok(&self.public.kernel),
                !arith::is_one(pc.d_i.as_limbs()),
            ));
        }
        if !product_ok {
            return Err(Error::InvalidKey(KeyFault::ModulusNotProduct));
        }
        if let Some((index, other)) = repeated {
            return Err(Error::InvalidKey(KeyFault::RepeatedPrime { index, other }));
        }
        if let Some(index) = per_prime.iter().position(|&(ok, _, _)| !ok) {
            return Err(Error::InvalidKey(KeyFault::ExponentMismatch { index }));
        }
        if let Some(index) = per_prime.iter().position(|&(_, ok, _)| !ok) {
            return Err(Error::InvalidKey(KeyFault::NotPrime { index }));
        }
        if let Some(index) = per_prime.iter().position(|&(_, _, ok)| !ok) {
            return Err(Error::InvalidKey(KeyFault::TrivialExponent { index }));
        }
        Ok(())
    }

    /// Re-runs the consistency checks done at construction: `n = ∏ rᵢ`, primes distinct,
    /// `e·dᵢ ≡ 1 (mod rᵢ − 1)`, `dᵢ = d mod (rᵢ − 1)`, each Garner coefficient times its
    /// prefix product `≡ 1 (mod rᵢ)`, no `dᵢ` equal to 1 ([`KeyFault::TrivialExponent`]),
    /// plus the public key's checks. Keys cannot be built without passing them, so this
    /// returns `Ok` for every key that exists.
    pub fn validate(&self) -> Result<()> {
        self.check()
    }

    /// The public half.
    pub fn public_key(&self) -> &RsaPublicKey {
        &self.public
    }

    /// A copy of the public half.
    pub fn to_public_key(&self) -> RsaPublicKey {
        self.public.clone()
    }

    /// The modulus length in bytes.
    pub fn size(&self) -> usize {
        self.public.size()
    }

    /// The modulus `n`.
    pub fn n(&self) -> &BoxedUint {
        self.public.n()
    }

    /// The public exponent `e`.
    pub fn e(&self) -> &BoxedUint {
        self.public.e()
    }

    /// The private exponent `d` (announced length: `n`'s limbs).
    pub fn d(&self) -> &BoxedUint {
        &self.d
    }

    /// The primes `[p, q, r₃, …]`.
    pub fn primes(&self) -> &[BoxedUint] {
        &self.primes
    }

    /// `dP = d mod (p − 1)`.
    pub fn dp(&self) -> &BoxedUint {
        &self.crt[0].d_i
    }

    /// `dQ = d mod (q − 1)`.
    pub fn dq(&self) -> &BoxedUint {
        &self.crt[1].d_i
    }

    /// `qInv = q⁻¹ mod p`.
    pub fn qinv(&self) -> &BoxedUint {
        &self.crt[0].coeff
    }

    /// `dᵢ = d mod (rᵢ − 1)` for prime `i` (0-based: 0 is `p`, 1 is `q`).
    pub fn crt_exponent(&self, i: usize) -> Option<&BoxedUint> {
        self.crt.get(i).map(|pc| &pc.d_i)
    }

    /// The RFC 8017 coefficient `tᵢ = (r₁·…·rᵢ₋₁)⁻¹ mod rᵢ` of prime `i` (0-based) for
    /// `i ≥ 2`; `None` for `p` and `q` (their coefficient is [`RsaPrivateKey::qinv`]).
    pub fn crt_coefficient(&self, i: usize) -> Option<&BoxedUint> {
        if i >= 2 {
            self.crt.get(i).map(|pc| &pc.coeff)
        } else {
            None
        }
    }

    /// The Montgomery kernel this key's operations use.
    pub fn kernel(&self) -> Kernel<u64> {
        self.public.kernel
    }

    /// Private operations that fill one call of the side-by-side exponentiations of
    /// [`RsaPrivateKey::raw_private_batch`] (four two-prime operations with the IFMA lanes);
    /// 1 where a batch runs its operations one after another. (For the signing service, which
    /// needs `std`.)
    #[cfg(feature = "std")]
    pub(crate) fn operations_per_call(&self) -> usize {
        self.pow.operations_per_call(self.crt.len(), &self.kernel())
    }

    /// Runs this key's operations (public and private) on `backend` from now on, instead of
    /// the active one ([`Backend::active`]). Every backend gives the same results; this is for
    /// measuring and comparing them. [`Error::Arith`]`(`[`BackendUnavailable`](crate::Error::BackendUnavailable)`)`
    /// if this CPU cannot run it, and the key is left as it was.
    pub fn set_backend(&mut self, backend: Backend) -> Result<()> {
        self.public.set_backend(backend)
    }

    /// Test hook (feature `test-hooks`; not for production): uses `kernel` (any of the
    /// library's kernels, e.g. one REDC algorithm of the papers) for this key's operations.
    #[cfg(feature = "test-hooks")]
    pub fn set_kernel(&mut self, kernel: Kernel<u64>) {
        self.public.set_kernel(kernel);
    }

    /// Test hook for the secret-taint and zeroization tests (feature `test-hooks`; not for
    /// production): calls `f(address, byte length)` for every buffer holding secret key
    /// material (`d`, the primes, and per prime its Montgomery constants, CRT exponent, Garner
    /// coefficient and prefix product, and the reduction constant). The public key's buffers
    /// are not included.
    #[cfg(feature = "test-hooks")]
    pub fn for_each_secret_region(&self, mut f: impl FnMut(*const u8, usize)) {
        f(self.d_bytes.as_ptr(), self.d_bytes.len());
        for v in core::iter::once(&self.d).chain(&self.primes) {
            f(v.as_limbs().as_ptr() as *const u8, v.as_limbs().len() * 8);
        }
        for pc in &self.crt {
            pc.for_each_secret_region(&mut f);
        }
        self.pow.for_each_secret_region(&mut f);
        self.blinding.for_each_secret_region(&mut f);
    }

    /// `d` as big-endian bytes of the modulus length (for the non-CRT mode).
    fn d_bytes(&self) -> &[u8] {
        &self.d_bytes
    }
}

impl From<&RsaPrivateKey> for RsaPublicKey {
    /// A copy of the public half ([`RsaPrivateKey::to_public_key`]).
    fn from(key: &RsaPrivateKey) -> Self {
        key.public.clone()
    }
}

impl From<RsaPrivateKey> for RsaPublicKey {
    /// The public half; the private components are zeroized as the key is dropped.
    fn from(key: RsaPrivateKey) -> Self {
        key.public.clone()
    }
}

impl AsRef<RsaPublicKey> for RsaPrivateKey {
    fn as_ref(&self) -> &RsaPublicKey {
        &self.public
    }
}

impl AsRef<RsaPublicKey> for RsaPublicKey {
    fn as_ref(&self) -> &RsaPublicKey {
        self
    }
}

//! Key generation after FIPS 186-5 Appendix A.1.3 (random probable primes), extended to
//! multi-prime keys (RFC 8017 §3.2) with OpenSSL's prime-count limits.
//!
//! 1. Each prime `rᵢ` is a random probable prime of its share of the bits with the top two
//!    bits set (three for more than two primes, so that `n` has the full size) and `gcd(e, rᵢ − 1) = 1` ([`prime::random_prime`], steps 4.2–4.7 / 5.2–5.8).
//! 2. `|rᵢ − rⱼ| > 2^(b − 100)` for the smallest prime size `b` (step 5.4's distance check),
//!    and `n = ∏ rᵢ` must have exactly the requested size; otherwise start again.
//! 3. `d = e⁻¹ mod λ(n)` with `λ = lcm(rᵢ − 1)` (FIPS 186-5 §5.1 step 3 / A.1.1), and
//!    `d > 2^(nlen/2)`.
//! 4. The key goes through full validation ([`RsaPrivateKey::from_components`]), then a
//!    pairwise consistency test encrypts and decrypts a random value (FIPS 140-3 / SP 800-56B).
//!
//! The helpers for gcd, lcm and the inverse are variable time (`_vartime`); see
//! [`super::arith`] for what that exposes.

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use self::prime::SmallPrimes;
use super::key::{check_public_vartime, max_primes, RsaPrivateKey, MAX_BITS, MIN_GEN_BITS};
use super::uint::BoxedUint;
use super::{Error, ExponentFault, KeyFault, Result};
use crate::nat;
use crate::nat::arith;

pub mod prime;

/// The default public exponent, `2^16 + 1`.
pub const DEFAULT_EXPONENT: u64 = 65537;

/// Largest public exponent key generation accepts, in bits (FIPS 186-5 §5.1: `e < 2^256`).
pub const MAX_GEN_EXPONENT_BITS: usize = 256;

impl RsaPrivateKey {
    /// A new 2-prime key of exactly `bits` bits (1024..=16384, else [`Error::KeySize`]) with
    /// `e = 65537`. Generation validates the key and runs a pairwise consistency test.
    ///
    /// ```
    /// use redc::rsa::{OsRng, RsaPrivateKey};
    ///
    /// let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
    /// assert_eq!((key.size(), key.primes().len()), (256, 2));
    /// assert!(RsaPrivateKey::new(&mut OsRng, 512).is_err()); // below the 1024-bit minimum
    /// # Ok::<(), redc::rsa::Error>(())
    /// ```
    pub fn new<R: CryptoRngCore + ?Sized>(rng: &mut R, bits: usize) -> Result<Self> {
        Self::new_multi_prime_with_exp(rng, bits, 2, &BoxedUint::from_u64(DEFAULT_EXPONENT))
    }

    /// A new 2-prime key with public exponent `exp` (odd, `3 ≤ e < 2^256`).
    pub fn new_with_exp<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bits: usize,
        exp: &BoxedUint,
    ) -> Result<Self> {
        Self::new_multi_prime_with_exp(rng, bits, 2, exp)
    }

    /// A new key with `nprimes` primes (2..=5 within [`max_primes`]) and `e = 65537`.
    /// More primes make the private operation faster (smaller exponentiations) for the same
    /// modulus size; OpenSSL reads and writes such keys (PKCS#1 `otherPrimeInfos`).
    ///
    /// ```
    /// use redc::rsa::{max_primes, OsRng, RsaPrivateKey};
    ///
    /// assert_eq!(max_primes(2048), 3);
    /// let key = RsaPrivateKey::new_multi_prime(&mut OsRng, 2048, 3)?;
    /// assert_eq!((key.primes().len(), key.n().bits()), (3, 2048));
    /// # Ok::<(), redc::rsa::Error>(())
    /// ```
    pub fn new_multi_prime<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bits: usize,
        nprimes: usize,
    ) -> Result<Self> {
        Self::new_multi_prime_with_exp(rng, bits, nprimes, &BoxedUint::from_u64(DEFAULT_EXPONENT))
    }

    /// A new key of exactly `bits` bits (1024..=16384, else [`Error::KeySize`]) with `nprimes`
    /// primes (else [`Error::PrimeCount`]) and public exponent `exp` (odd, `3 ≤ e < 2^256`,
    /// else [`Error::PublicExponent`]). See the module doc for the steps.
    pub fn new_multi_prime_with_exp<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bits: usize,
        nprimes: usize,
        exp: &BoxedUint,
    ) -> Result<Self> {
        if !(MIN_GEN_BITS..=MAX_BITS).contains(&bits) {
            return Err(Error::KeySize {
                bits,
                min: MIN_GEN_BITS,
                max: MAX_BITS,
            });
        }
        if nprimes < 2 || nprimes > max_primes(bits) {
            return Err(Error::PrimeCount {
                primes: nprimes,
                bits,
                max: max_primes(bits),
            });
        }
        if exp.bits() < 2 {
            return Err(Error::PublicExponent(ExponentFault::TooSmall));
        }
        if !exp.is_odd() {
            return Err(Error::PublicExponent(ExponentFault::Even));
        }
        if exp.bits() > MAX_GEN_EXPONENT_BITS {
            return Err(Error::PublicExponent(ExponentFault::TooLarge {
                bits: exp.bits(),
                max: MAX_GEN_EXPONENT_BITS,
            }));
        }
        // An invalid REDC_BACKEND fails here, before any prime is drawn.
        super::key::default_kernel()?;
        let e = exp.trimmed_limbs();
        let small = SmallPrimes::new();
        for _ in 0..64 {
            let Some(key) = try_generate(rng, bits, nprimes, &e, &small)? else {
                continue;
            };
            pairwise_consistency(&key, rng)?;
            return Ok(key);
        }
        Err(Error::KeyGeneration)
    }
}

/// One attempt; `Ok(None)` means "start again" (size or distance condition not met).
fn try_generate<R: CryptoRngCore + ?Sized>(
    rng: &mut R,
    bits: usize,
    nprimes: usize,
    e: &[u64],
    small: &SmallPrimes,
) -> Result<Option<RsaPrivateKey>> {
    // Step 1: the primes, each taking its share of the bits still to cover.
    let mut primes: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(nprimes);
    let mut todo = bits;
    let mut min_bits = bits;
    for i in 0..nprimes {
        let pb = todo / (nprimes - i);
        min_bits = min_bits.min(pb);
        primes.push(prime::random_prime(rng, pb, e, nprimes > 2, small)?);
        todo -= pb;
    }
    // Step 2: |rᵢ − rⱼ| > 2^(b − 100), and n of exactly `bits` bits.
    for i in 0..nprimes {
        for j in i + 1..nprimes {
            let (hi, lo) = match arith::cmp_vartime(&primes[i], &primes[j]) {
                core::cmp::Ordering::Less => (&primes[j], &primes[i]),
                _ => (&primes[i], &primes[j]),
            };
            let mut diff = Zeroizing::new(vec![0u64; hi.len().max(lo.len())]);
            diff[..hi.len()].copy_from_slice(hi);
            nat::sub_assign(&mut diff, lo);
            if nat::bit_len_vartime(&diff) <= min_bits - 100 {
                return Ok(None);
            }
        }
    }
    let mut n = Zeroizing::new(primes[0].to_vec());
    for p in &primes[1..] {
        n = Zeroizing::new(arith::mul(&n, p));
    }
    if nat::bit_len_vartime(&n) != bits {
        return Ok(None);
    }
    // Step 3: d = e⁻¹ mod λ.
    let Some(d) = private_exponent_vartime(&primes, e) else {
        return Ok(None);
    };
    // FIPS 186-5 A.1.1: d > 2^(nlen/2).
    if nat::bit_len_vartime(&d) <= bits / 2 {
        return Ok(None);
    }
    let to_uint = |x: &[u64]| BoxedUint::from_limbs(nat::trim_vartime(x));
    let key = RsaPrivateKey::from_components(
        to_uint(&n),
        to_uint(e),
        to_uint(&d),
        primes.iter().map(|p| to_uint(p)).collect(),
    )?;
    Ok(Some(key))
}

/// `d = e⁻¹ mod λ` with `λ = lcm(rᵢ − 1)` for odd primes of at least two limbs and an odd
/// `e ≥ 3` (trimmed limbs), or `None` when `e` has no inverse (`gcd(e, rᵢ − 1) > 1`).
/// With `k = −λ⁻¹ mod e`, `1 + k·λ ≡ 0 (mod e)` and `d = (1 + k·λ)/e < λ` is the inverse; this
/// needs only an inverse modulo the small `e`. Variable time (see the module documentation).
fn private_exponent_vartime(
    primes: &[Zeroizing<Vec<u64>>],
    e: &[u64],
) -> Option<Zeroizing<Vec<u64>>> {
    let mut lambda = Zeroizing::new(arith::sub_u64(&primes[0], 1));
    for p in &primes[1..] {
        let pm1 = Zeroizing::new(arith::sub_u64(p, 1));
        lambda = Zeroizing::new(arith::lcm_vartime(&lambda, &pm1));
    }
    let lambda_mod_e = Zeroizing::new(arith::rem(&lambda, e));
    let inv = Zeroizing::new(arith::inv_mod_odd_vartime(
        &lambda_mod_e,
        nat::trim_vartime(e),
    )?);
    let mut k = Zeroizing::new(nat::trim_vartime(e).to_vec());
    nat::sub_assign(&mut k, &inv);
    let mut t = Zeroizing::new(vec![0u64; lambda.len() + k.len() + 1]);
    nat::mul(&mut t[..lambda.len() + k.len()], &lambda, &k);
    nat::add_assign(&mut t, &[1]);
    Some(Zeroizing::new(arith::div(&t, e)))
}

impl RsaPrivateKey {
    /// The two-prime key of the primes `p`, `q` and the public exponent `e`, with
    /// `d = e⁻¹ mod λ(n)` ([`RsaPrivateKey::from_primes`]).
    ///
    /// ```
    /// use redc::rsa::{OsRng, RsaPrivateKey};
    ///
    /// let key = RsaPrivateKey::new(&mut OsRng, 1024)?;
    /// let [p, q] = [key.primes()[0].clone(), key.primes()[1].clone()];
    /// let rebuilt = RsaPrivateKey::from_p_q(p, q, key.e().clone())?;
    /// assert_eq!(rebuilt.d(), key.d()); // generation uses the same λ-based d
    /// # Ok::<(), redc::rsa::Error>(())
    /// ```
    pub fn from_p_q(p: BoxedUint, q: BoxedUint, public_exponent: BoxedUint) -> Result<Self> {
        Self::from_primes(Vec::from([p, q]), public_exponent)
    }

    /// The key of the primes `[p, q, r₃, …]` (2 to 5, as [`max_primes`] allows) and the public
    /// exponent `e`: `n` is their product and `d = e⁻¹ mod λ(n)`, `λ = lcm(rᵢ − 1)` (the
    /// smallest private exponent, as key generation computes it). Then the full validation of
    /// [`RsaPrivateKey::from_components`]; errors name the fault, and an `e` with no inverse
    /// is [`KeyFault::ExponentNotInvertible`].
    ///
    /// What can be refused cheaply is refused before `d` is computed, in this order: `e` below
    /// 3 or even, a prime too small or even, primes whose sizes alone put `n` above
    /// [`MAX_BITS`] ([`KeyFault::PrimesTooLarge`]), the prime count for `n`'s size
    /// ([`Error::PrimeCount`]), then [`RsaPublicKey::new`](super::RsaPublicKey::new)'s checks
    /// on `(n, e)` (`n`'s size, `e < n`). So an input of any size costs at most a product of
    /// primes totalling about [`MAX_BITS`] to refuse.
    ///
    /// Computing `d` takes variable time in the primes (gcd and inverse, as in key
    /// generation): do it where no attacker can time it, such as when importing a key.
    pub fn from_primes(primes: Vec<BoxedUint>, public_exponent: BoxedUint) -> Result<Self> {
        if public_exponent.bits() < 2 {
            return Err(Error::PublicExponent(ExponentFault::TooSmall));
        }
        if !public_exponent.is_odd() {
            return Err(Error::PublicExponent(ExponentFault::Even));
        }
        let mut limbs: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(primes.len());
        for (index, p) in primes.iter().enumerate() {
            let l = Zeroizing::new(p.trimmed_limbs());
            if l.len() < 2 {
                let bits = p.bits();
                return Err(Error::InvalidKey(KeyFault::PrimeTooSmall { index, bits }));
            }
            if l[0] & 1 == 0 {
                return Err(Error::InvalidKey(KeyFault::EvenPrime { index }));
            }
            limbs.push(l);
        }
        // A prime of b bits is at least 2^(b − 1), so n has at least Σ(bᵢ − 1) + 1 bits. The
        // product and d below take time quadratic in the primes' length (and in their number):
        // primes that cannot make an importable n are refused from their sizes first.
        let least_bits = limbs
            .iter()
            .map(|l| nat::bit_len_vartime(l) - 1)
            .sum::<usize>()
            + 1;
        if least_bits > MAX_BITS {
            return Err(Error::InvalidKey(KeyFault::PrimesTooLarge {
                bits: least_bits,
                max: MAX_BITS,
            }));
        }
        let mut n = Zeroizing::new(limbs.first().map_or(Vec::from([0]), |l| l.to_vec()));
        for p in limbs.iter().skip(1) {
            n = Zeroizing::new(arith::mul(&n, p));
        }
        let bits = nat::bit_len_vartime(&n);
        if limbs.len() < 2 || limbs.len() > max_primes(bits) {
            return Err(Error::PrimeCount {
                primes: limbs.len(),
                bits,
                max: max_primes(bits),
            });
        }
        let e = public_exponent.trimmed_limbs();
        // The public key's checks (n's size, e < n) before d, whose inverse modulo e takes
        // time quadratic in e's length, and whose failure would name another fault.
        check_public_vartime(&n, &e)?;
        let d = private_exponent_vartime(&limbs, &e)
            .ok_or(Error::InvalidKey(KeyFault::ExponentNotInvertible))?;
        let to_uint = |x: &[u64]| BoxedUint::from_limbs(nat::trim_vartime(x));
        RsaPrivateKey::from_components(to_uint(&n), to_uint(&e), to_uint(&d), primes)
    }
}

/// Pairwise consistency test: a random `x < n` must survive `raw_private(raw_public(x))`.
fn pairwise_consistency<R: CryptoRngCore + ?Sized>(key: &RsaPrivateKey, rng: &mut R) -> Result<()> {
    let mut x = Zeroizing::new(vec![0u8; key.size()]);
    rng.try_fill_bytes(&mut x[1..]).map_err(|_| Error::Rng)?;
    // The top byte is zero, so x < 2^(8(k−1)) ≤ n.
    let c = key.public_key().raw_public(&x)?;
    let back = key.raw_private(None, &c)?;
    if back[..] == x[..] {
        Ok(())
    } else {
        Err(Error::KeyGeneration)
    }
}

//! Probable primes: trial division by small primes and the Miller–Rabin test of FIPS 186-5
//! Appendix B.3.1, plus the random prime search of Appendix A.1.3 used by key generation.
//!
//! Everything here is variable time (`_vartime`): the number of candidates tried, which small
//! prime divides a rejected candidate, and how many squarings a Miller–Rabin round takes all
//! show in the timing. Rejected candidates are thrown away; for the prime that is kept, every
//! trial division runs in full and the modular exponentiations are the constant-time fixed
//! window, so what leaks about it is its size and the number of trailing zeros of `p − 1`
//! (the same as Go's `crypto/internal/fips140/rsa`).

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRngCore;
use zeroize::{Zeroize, Zeroizing};

use crate::exp::fixed;
use crate::mont::{Kernel, Modulus};
use crate::nat;
use crate::nat::arith;
use crate::rsa::{Error, Result};

/// Odd primes below this bound are used for trial division.
const SIEVE_BOUND: u32 = 4096;

/// The odd primes below [`SIEVE_BOUND`], grouped so that each group's product fits in a `u64`:
/// one `u128 % u64` per limb per group, then cheap `u64` remainders per prime.
pub(crate) struct SmallPrimes {
    groups: Vec<(u64, Vec<u32>)>,
}

impl SmallPrimes {
    /// Sieve of Eratosthenes up to [`SIEVE_BOUND`].
    pub(crate) fn new() -> Self {
        let bound = SIEVE_BOUND as usize;
        let mut composite = vec![false; bound];
        let mut groups: Vec<(u64, Vec<u32>)> = Vec::new();
        let mut product = 1u64;
        let mut members = Vec::new();
        for i in 3..bound {
            if composite[i] || i % 2 == 0 {
                continue;
            }
            for j in (i * i..bound).step_by(i) {
                composite[j] = true;
            }
            match product.checked_mul(i as u64) {
                Some(p) => {
                    product = p;
                    members.push(i as u32);
                }
                None => {
                    groups.push((product, core::mem::take(&mut members)));
                    product = i as u64;
                    members.push(i as u32);
                }
            }
        }
        groups.push((product, members));
        SmallPrimes { groups }
    }

    /// The small prime dividing `x`, if any (`x` little-endian limbs). Variable time.
    pub(crate) fn divisor_vartime(&self, x: &[u64]) -> Option<u32> {
        for (product, members) in &self.groups {
            let mut r = 0u64;
            for &limb in x.iter().rev() {
                r = ((((r as u128) << 64) | limb as u128) % *product as u128) as u64;
            }
            for &p in members {
                if r.is_multiple_of(p as u64) {
                    return Some(p);
                }
            }
        }
        None
    }
}

/// The number of Miller–Rabin rounds for a random candidate of `bits` bits.
///
/// FIPS 186-5 Table B.1 gives the minimum rounds for the primes of RSA keys (for an error
/// probability of at most 2⁻¹⁰⁰ to 2⁻¹⁴⁴ depending on the size; 5 or fewer rounds from
/// 1024-bit primes up, more for smaller primes). We err on the high side of it at every size,
/// and use 40 rounds below 256 bits where the random-candidate bounds are weak.
pub fn mr_rounds(bits: usize) -> usize {
    match bits {
        b if b >= 1536 => 5,
        b if b >= 1024 => 6,
        b if b >= 512 => 8,
        b if b >= 256 => 12,
        _ => 40,
    }
}

/// Whether the big-endian `bytes` are (probably) prime: exact for values below 2²⁴, else trial
/// division by the odd primes below 4096 and `rounds` Miller–Rabin rounds with uniformly random
/// bases from `rng` (FIPS 186-5 B.3.1). A composite passes with probability at most `4^−rounds`
/// even when chosen adversarially.
///
/// Returns false if `rng` fails. Variable time: use on public candidates (tests, vectors) or
/// inside key generation.
pub fn is_probable_prime_vartime(
    bytes: &[u8],
    rounds: usize,
    rng: &mut (impl CryptoRngCore + ?Sized),
) -> bool {
    let len = nat::limbs_for_bits(bytes.len() * 8, 64).max(1);
    let mut limbs = vec![0u64; len];
    let _ = nat::from_be_bytes(&mut limbs, bytes);
    let x = nat::trim_vartime(&limbs);
    if x.len() == 1 && x[0] < 1 << 24 {
        return is_small_prime(x[0]);
    }
    if x[0] & 1 == 0 || SmallPrimes::new().divisor_vartime(x).is_some() {
        return false;
    }
    miller_rabin_vartime(x, rounds, rng).unwrap_or(false)
}

fn is_small_prime(x: u64) -> bool {
    if x < 2 {
        return false;
    }
    let mut d = 2;
    while d * d <= x {
        if x.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

/// `rounds` Miller–Rabin rounds on the odd `w > 3` (trimmed limbs), FIPS 186-5 B.3.1.
/// Returns `Ok(true)` for "probably prime".
pub(crate) fn miller_rabin_vartime(
    w: &[u64],
    rounds: usize,
    rng: &mut (impl CryptoRngCore + ?Sized),
) -> Result<bool> {
    // Public candidates: every kernel gives the same answer, so an invalid REDC_BACKEND (which
    // key generation and key construction report) falls back to the detected backend here.
    let kernel = crate::mont::backend::Backend::active()
        .unwrap_or_else(|_| crate::mont::backend::Backend::detect())
        .kernel()?;
    let modulus = Modulus::new(w)?;
    let s = modulus.limbs();
    let bits = modulus.bits();
    let wbytes = bits.div_ceil(8);
    // Step 1–2: w − 1 = 2^a · m with m odd.
    let w_minus_1 = Zeroizing::new(arith::sub_u64(w, 1));
    let a = w_minus_1
        .iter()
        .enumerate()
        .find(|(_, &l)| l != 0)
        .map(|(i, l)| i * 64 + l.trailing_zeros() as usize)
        .unwrap_or(0);
    let mut m = w_minus_1.clone();
    arith::shr_vartime(&mut m, a);
    let mut m_bytes = Zeroizing::new(vec![0u8; wbytes]);
    let _ = nat::to_be_bytes(&m, &mut m_bytes);
    let window = fixed::window_for_bits(wbytes * 8);

    let mut b = Zeroizing::new(vec![0u64; s]);
    let mut z = Zeroizing::new(vec![0u64; s]);
    let mut one = vec![0u64; s];
    one[0] = 1;
    for _ in 0..rounds {
        // Step 4.1–4.2: a random base b with 1 < b < w − 1.
        arith::random_between(rng, &mut b, &one, &w_minus_1, bits, 1000)?;
        // Step 4.3–4.4: z = b^m mod w; 1 or w − 1 means "possibly prime".
        fixed::pow(&mut z, &b, &m_bytes, &modulus, &kernel, window);
        if arith::eq(&z, &one) || arith::eq(&z, &w_minus_1) {
            continue;
        }
        // Step 4.5: square up to a − 1 times looking for w − 1.
        let mut possibly_prime = false;
        for _ in 1..a {
            z = Zeroizing::new(square_mod(&modulus, &z, &kernel));
            if arith::eq(&z, &w_minus_1) {
                possibly_prime = true;
                break;
            }
            if arith::eq(&z, &one) {
                break;
            }
        }
        if !possibly_prime {
            return Ok(false);
        }
    }
    m.zeroize();
    Ok(true)
}

/// `z² mod w` in normal form through the Montgomery domain.
fn square_mod(m: &Modulus<u64>, z: &[u64], k: &Kernel<u64>) -> Vec<u64> {
    m.mul_mod(z, z, k)
}

/// A random prime of exactly `bits` bits (top two bits set, FIPS 186-5 A.1.3 steps 4.2–4.7 /
/// 5.2–5.8; top three with `top3`), with `gcd(e, p − 1) = 1`.
///
/// Two top bits make every prime `≥ 3/4 · 2^bits`, so a product of two always has the full
/// size; for three to five primes `(3/4)^u < 1/2` could fall a bit short, and three top bits
/// (`(7/8)^5 > 1/2`) rule that out at the cost of one bit of entropy per prime.
///
/// Candidates are independent random odd numbers (step 4.2), filtered by trial division, then
/// by the gcd condition (step 4.5), then [`mr_rounds`] Miller–Rabin rounds. Gives up with
/// [`Error::KeyGeneration`] after a number of candidates no working RNG reaches.
pub(crate) fn random_prime(
    rng: &mut (impl CryptoRngCore + ?Sized),
    bits: usize,
    e: &[u64],
    top3: bool,
    small: &SmallPrimes,
) -> Result<Zeroizing<Vec<u64>>> {
    debug_assert!(bits >= 128);
    let nbytes = bits.div_ceil(8);
    let excess = nbytes * 8 - bits;
    let limbs = nat::limbs_for_bits(bits, 64);
    let mut bytes = Zeroizing::new(vec![0u8; nbytes]);
    let rounds = mr_rounds(bits);
    for _ in 0..100 * bits {
        rng.try_fill_bytes(&mut bytes).map_err(|_| Error::Rng)?;
        bytes[0] &= 0xff >> excess;
        // Top two bits set: p ≥ 3/2 · 2^(bits−1) > √2 · 2^(bits−1) (step 4.4), and a product of
        // two such primes never falls one bit short.
        let top: u16 = if top3 { 0xe000 } else { 0xc000 };
        let top = top >> excess;
        bytes[0] |= (top >> 8) as u8;
        bytes[1] |= top as u8;
        bytes[nbytes - 1] |= 1;
        let mut p = Zeroizing::new(vec![0u64; limbs]);
        let _ = nat::from_be_bytes(&mut p, &bytes);
        if small.divisor_vartime(&p).is_some() {
            continue;
        }
        // Step 4.5: gcd(p − 1, e) = 1.
        let pm1 = Zeroizing::new(arith::sub_u64(&p, 1));
        let r = Zeroizing::new(arith::rem(&pm1, e));
        if !arith::is_one(&arith::gcd_vartime(e, &r)) {
            continue;
        }
        if miller_rabin_vartime(&p, rounds, rng)? {
            return Ok(p);
        }
    }
    Err(Error::KeyGeneration)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_rng::splitmix;

    #[test]
    fn small_and_known() {
        let mut rng = splitmix(1);
        let primes = SmallPrimes::new();
        assert_eq!(primes.divisor_vartime(&[15]), Some(3));
        assert_eq!(primes.divisor_vartime(&[4093 * 4091]), Some(4091));
        assert!(is_probable_prime_vartime(&[2], 10, &mut rng));
        assert!(is_probable_prime_vartime(&[0, 3], 10, &mut rng));
        assert!(!is_probable_prime_vartime(&[1], 10, &mut rng));
        assert!(!is_probable_prime_vartime(&[], 10, &mut rng));
        // 2^61 − 1 and 2^127 − 1 are Mersenne primes; 2^67 − 1 is not.
        let m61 = ((1u64 << 61) - 1).to_be_bytes();
        assert!(is_probable_prime_vartime(&m61, 20, &mut rng));
        let m127 = [
            0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff, 0xff,
        ];
        assert!(is_probable_prime_vartime(&m127, 20, &mut rng));
        let m67 = [0x07, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert!(!is_probable_prime_vartime(&m67, 20, &mut rng));
        // A Carmichael number: 561 = 3·11·17 (small path) and 41041·... via MR.
        assert!(!is_probable_prime_vartime(
            &561u64.to_be_bytes(),
            20,
            &mut rng
        ));
        let p = random_prime(&mut rng, 200, &[65537], true, &primes).unwrap();
        assert_eq!(nat::bit_len_vartime(&p), 200);
    }
}

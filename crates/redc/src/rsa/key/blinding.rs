//! Base blinding of the private operation (Kocher, CRYPTO '96, §10): with a secret random
//! `t`, the exponentiations see `c·tᵉ` instead of `c`, and their result `m·t` is multiplied by
//! `t⁻¹`. The private operation is constant time without it; blinding adds a second,
//! independent layer (the operands of the CRT exponentiations are fresh random values,
//! unrelated to anything an attacker chose or can see), and it is used whenever the caller
//! passes a random number generator (`sign_with_rng`, `decrypt_blinded`, the `rng` argument
//! of [`RsaPrivateKey::raw_private`]).
//!
//! A pair `(A, Aᵢ) = (tᵉ, t⁻¹)` needs a modular inversion (see [`fresh_pairs`]), so, as
//! OpenSSL's `BN_BLINDING` does, a key keeps one pair and squares both halves after each use
//! (`(t²)ᵉ = A²`, `(t²)⁻¹ = Aᵢ²`), moving to a pair of a fresh `t` every [`REFRESH`] uses.
//! The pairs are made [`PAIRS_PER_INVERSION`] at a time, each of its own independent `t`, with
//! one inversion for all of them (Montgomery's simultaneous inversion); the ones not yet in
//! use wait in the cache.
//!
//! The pair is kept in CRT form: `A mod rᵢ` and `Aᵢ mod rᵢ` for every prime `rᵢ`, each in
//! Montgomery form modulo its prime. The operation already reduces `c` modulo every prime, so
//! the blinding is one product per prime before the exponentiations (`cᵢ·tᵉ mod rᵢ`), the
//! unblinding one per prime after them (`mᵢ·t⁻¹ mod rᵢ`, before Garner's recombination, since
//! `(cᵢ·tᵉ)^dᵢ ≡ cᵢ^dᵢ·t (mod rᵢ)`), and the update two squarings per prime: for two primes
//! eight products of half the limbs, about half the work of the four products modulo `n`
//! the pair costs when kept modulo `n`. The fault check is unchanged: it tests the released
//! result against `c` itself, so it also catches a fault in the pair or in its products. The
//! non-CRT mode (for measurement) recombines the pair modulo `n` each time it is used.
//! `examples/blinding_cost.rs` measures what blinding adds to a signature, fresh pairs included.
//!
//! [`fresh_pairs`]: RsaPrivateKey::fresh_pairs
//!
//! The pairs live behind a mutex (with the `std` feature); concurrent private operations on one
//! key wait only for the squarings, or for new pairs. Without `std` every blinded operation
//! draws its own pair. A cloned key starts without pairs. The pairs are secret: their buffers
//! are zeroized when replaced or dropped.

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::crt::PrimeCrt;
use super::{PrivateMode, RsaPrivateKey};
use crate::nat::arith;
use crate::rsa::{Error, Result};

/// Uses of one blinding pair before a fresh `t` is drawn (OpenSSL's `BN_BLINDING_COUNTER`).
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub(crate) const REFRESH: u32 = 32;

/// A blinding pair in CRT form: `tᵉ·Rᵢ mod rᵢ` for every prime `rᵢ` of the key (the key's
/// order, each in its prime's limb count), then `t⁻¹·Rᵢ mod rᵢ` likewise, `Rᵢ` the Montgomery
/// radix of the prime's modulus; one buffer, so that the copy each operation takes is one
/// allocation.
#[derive(Clone)]
pub(crate) struct Pair {
    shares: Zeroizing<Vec<u64>>,
    /// Operations blinded with this pair so far (without `std` every pair is used once).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    uses: u32,
}

/// Pairs made per modular inversion (Montgomery's simultaneous inversion, see
/// [`RsaPrivateKey::fresh_pairs`]): the first is used at once, the others wait in the cache
/// for their turn, each then used [`REFRESH`] times like the first.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub(crate) const PAIRS_PER_INVERSION: usize = 4;

/// A key's cached blinding pairs (see the module documentation): the one in use and the fresh
/// ones made with it, which follow it.
#[cfg(feature = "std")]
#[derive(Default)]
struct Pairs {
    current: Option<Pair>,
    spare: Vec<Pair>,
}

/// A key's cached blinding pair (see the module documentation).
#[derive(Default)]
pub(crate) struct BlindingCache {
    #[cfg(feature = "std")]
    slot: std::sync::Mutex<Pairs>,
}

impl Clone for BlindingCache {
    /// A clone draws its own pair: two keys never share blinding values.
    fn clone(&self) -> Self {
        BlindingCache::default()
    }
}

impl BlindingCache {
    /// Test hook: the address and byte length of each buffer of the cached pair.
    #[cfg(feature = "test-hooks")]
    pub(crate) fn for_each_secret_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
        #[cfg(feature = "std")]
        {
            let slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
            for p in slot.current.iter().chain(&slot.spare) {
                f(p.shares.as_ptr() as *const u8, p.shares.len() * 8);
            }
        }
        #[cfg(not(feature = "std"))]
        let _ = f;
    }
}

impl RsaPrivateKey {
    /// `c^d mod n` computed on `c·tᵉ` and unblinded with `t⁻¹` (the module documentation);
    /// `c < n` in `n`'s limb count. The caller fault-checks the result against `c`.
    pub(crate) fn blinded_op(
        &self,
        rng: &mut dyn CryptoRngCore,
        c: &[u64],
        mode: PrivateMode,
    ) -> Result<Zeroizing<Vec<u64>>> {
        let pair = self.blinding_pair(rng)?;
        Ok(match mode {
            PrivateMode::Crt => {
                let mut ms = self.crt_ops(&[c], &[], &[Some(pair)]);
                ms.pop().expect("one result per input")
            }
            PrivateMode::NonCrt => {
                let m = self.public_key().modulus();
                let k = self.kernel();
                let mut scratch = Zeroizing::new(m.scratch());
                let (a, ai) = self.pair_mod_n(&pair);
                // REDC(c, tᵉ·R) = c·tᵉ mod n, and REDC(m·t, t⁻¹·R) = m.
                let mut cb = Zeroizing::new(vec![0u64; m.limbs()]);
                (k.mul)(&mut cb, c, &a, m.n(), m.n0(), &mut scratch);
                let mb = self.unblinded_op(&cb, mode);
                let mut out = Zeroizing::new(vec![0u64; m.limbs()]);
                (k.mul)(&mut out, &mb, &ai, m.n(), m.n0(), &mut scratch);
                out
            }
        })
    }

    /// `cs[i] ← cs[i]·tᵉ mod rᵢ` for the parts `cs[i] = c mod rᵢ` of one input (the key's
    /// prime order): the blinding of step 2's bases. `work`: [`RsaPrivateKey::prime_work`].
    pub(crate) fn blind_parts(
        &self,
        pair: &Pair,
        cs: &mut [Zeroizing<Vec<u64>>],
        work: &mut [u64],
    ) {
        self.mul_parts(self.te_shares(pair), cs, work);
    }

    /// `ms[i] ← ms[i]·t⁻¹ mod rᵢ` for the blinded results `ms[i] = (c·tᵉ)^dᵢ mod rᵢ` of one
    /// input: their unblinding, before Garner's recombination.
    pub(crate) fn unblind_parts(
        &self,
        pair: &Pair,
        ms: &mut [Zeroizing<Vec<u64>>],
        work: &mut [u64],
    ) {
        self.mul_parts(self.inverse_shares(pair), ms, work);
    }

    /// `xs[i] ← REDC(xs[i], fᵢ)` modulo prime `i`, `fᵢ` the `i`-th of `fs`'s per-prime shares
    /// (in Montgomery form: the plain product).
    fn mul_parts(&self, fs: &[u64], xs: &mut [Zeroizing<Vec<u64>>], work: &mut [u64]) {
        let k = self.kernel();
        for ((pc, f), x) in self.per_prime(fs).zip(xs) {
            pc.mul(x, f, &k, work);
        }
    }

    /// The pair's `tᵉ` shares, one per prime ([`RsaPrivateKey::per_prime`] splits them).
    fn te_shares<'a>(&self, pair: &'a Pair) -> &'a [u64] {
        &pair.shares[..self.share_limbs()]
    }

    /// The pair's `t⁻¹` shares, one per prime.
    fn inverse_shares<'a>(&self, pair: &'a Pair) -> &'a [u64] {
        &pair.shares[self.share_limbs()..]
    }

    /// Limbs of one half of a pair: the primes' limb counts together.
    fn share_limbs(&self) -> usize {
        self.crt.iter().map(|pc| pc.modulus.limbs()).sum()
    }

    /// Each prime with its share of `x` (the primes' values one after another, each in its
    /// prime's limb count).
    fn per_prime<'a>(&'a self, x: &'a [u64]) -> impl Iterator<Item = (&'a PrimeCrt, &'a [u64])> {
        self.crt.iter().scan(0, move |at, pc| {
            let s = pc.modulus.limbs();
            *at += s;
            Some((pc, &x[*at - s..*at]))
        })
    }

    /// The pair modulo `n`, in Montgomery form modulo `n`: `(tᵉ·R, t⁻¹·R)` (for the non-CRT
    /// mode), by Garner's recombination of the plain parts.
    fn pair_mod_n(&self, pair: &Pair) -> (Zeroizing<Vec<u64>>, Zeroizing<Vec<u64>>) {
        let m = self.public_key().modulus();
        let k = self.kernel();
        let mut scratch = Zeroizing::new(m.scratch());
        let mut work = self.prime_work();
        let mut whole = |shares: &[u64]| {
            let plain: Vec<Zeroizing<Vec<u64>>> = self
                .per_prime(shares)
                .map(|(pc, x)| {
                    let mut out = Zeroizing::new(vec![0u64; x.len()]);
                    pc.modulus.from_mont(&mut out, x, &k, &mut work);
                    out
                })
                .collect();
            let v = self.garner(&plain, m.limbs(), &mut work);
            let mut out = Zeroizing::new(vec![0u64; m.limbs()]);
            m.to_mont(&mut out, &v, &k, &mut scratch);
            out
        };
        (
            whole(self.te_shares(pair)),
            whole(self.inverse_shares(pair)),
        )
    }

    /// The pair for this operation: the cached one (squared in the cache for the next use),
    /// or, when there is none yet or it has been used [`REFRESH`] times, the next fresh one
    /// ([`PAIRS_PER_INVERSION`] are made at a time).
    pub(crate) fn blinding_pair(&self, rng: &mut dyn CryptoRngCore) -> Result<Pair> {
        #[cfg(feature = "std")]
        {
            // A poisoned lock only means another thread panicked mid-update: draw new pairs.
            let mut slot = self.blinding.slot.lock().unwrap_or_else(|e| {
                self.blinding.slot.clear_poison();
                let mut s = e.into_inner();
                *s = Pairs::default();
                s
            });
            let pairs = &mut *slot;
            let pair = match pairs.current.take() {
                Some(p) if p.uses < REFRESH => pairs.current.insert(p),
                // A used-up pair is dropped here (and zeroized).
                _ => {
                    if pairs.spare.is_empty() {
                        pairs.spare = self.fresh_pairs(rng, PAIRS_PER_INVERSION)?;
                    }
                    let next = pairs.spare.pop().ok_or(Error::Rng)?;
                    pairs.current.insert(next)
                }
            };
            let current = pair.clone();
            let k = self.kernel();
            let mut work = self.prime_work();
            // Both halves' shares, prime after prime: the primes' limb counts twice over.
            let mut rest = &mut pair.shares[..];
            for pc in self.crt.iter().chain(&self.crt) {
                let (x, tail) = rest.split_at_mut(pc.modulus.limbs());
                pc.sqr(x, &k, &mut work);
                rest = tail;
            }
            pair.uses += 1;
            Ok(current)
        }
        #[cfg(not(feature = "std"))]
        {
            self.fresh_pairs(rng, 1)?.pop().ok_or(Error::Rng)
        }
    }

    /// `count ≥ 1` new pairs, each from its own uniformly random `tⱼ ∈ [1, n)` drawn from
    /// `rng`, with one modular inversion for all (Montgomery's simultaneous inversion): the
    /// prefix products `Pⱼ = t₀⋯tⱼ` are made, their last one inverted, and each `tⱼ⁻¹ =
    /// Pⱼ₋₁·(t₀⋯tⱼ)⁻¹` read off on the way back (`3(count − 1)` products for `count − 1`
    /// inversions). The inversion itself is blinded as BoringSSL's `BN_mod_inverse_blinded`
    /// does: with a further fresh random `u` it inverts `x = P·u mod n`, a uniformly random
    /// number independent of the `tⱼ`, by the binary extended Euclidean algorithm (variable
    /// time, about `2·bits(n)/31` word-batched steps, seeing only `x` and the public `n`), and
    /// `x⁻¹·u = P⁻¹`; `u` is used once and zeroized. Each `tⱼᵉ` and `tⱼ⁻¹` is then reduced
    /// modulo every prime (constant time).
    fn fresh_pairs(&self, rng: &mut dyn CryptoRngCore, count: usize) -> Result<Vec<Pair>> {
        let public = self.public_key();
        let m = public.modulus();
        let k = self.kernel();
        let s = m.limbs();
        let mut scratch = Zeroizing::new(m.scratch());
        let zero = || Zeroizing::new(vec![0u64; s]);
        // All in Montgomery form (x·R mod n) until the end: REDC(x·R, y·R) = x·y·R.
        let mul = |out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]| {
            (k.mul)(out, a, b, m.n(), m.n0(), scratch);
        };
        for _ in 0..4 {
            let mut ts: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(count);
            let mut tms: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(count);
            for _ in 0..count {
                let mut t = zero();
                self.random_below_n(rng, &mut t)?;
                let mut tm = zero();
                m.to_mont(&mut tm, &t, &k, &mut scratch);
                ts.push(t);
                tms.push(tm);
            }
            // prefix[j] = (t₀⋯tⱼ)·R.
            let mut prefix: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(count);
            prefix.push(tms[0].clone());
            for tm in &tms[1..] {
                let mut p = zero();
                mul(&mut p, prefix.last().expect("one prefix"), tm, &mut scratch);
                prefix.push(p);
            }
            let (mut u, mut um, mut xm, mut x) = (zero(), zero(), zero(), zero());
            self.random_below_n(rng, &mut u)?;
            m.to_mont(&mut um, &u, &k, &mut scratch);
            mul(
                &mut xm,
                prefix.last().expect("one prefix"),
                &um,
                &mut scratch,
            );
            m.from_mont(&mut x, &xm, &k, &mut scratch);
            // None only if some tⱼ or u shares a factor with n (probability below 2⁻⁵⁰⁰ each):
            // draw again.
            let Some(inv) = arith::inv_mod_odd_vartime(&x, m.n()) else {
                continue;
            };
            let inv = Zeroizing::new(inv);
            // w = x⁻¹·u·R = (t₀⋯t_last)⁻¹·R.
            let (mut invm, mut w) = (zero(), zero());
            m.to_mont(&mut invm, &inv, &k, &mut scratch);
            mul(&mut w, &invm, &um, &mut scratch);
            // Back down: tⱼ⁻¹ = w·prefix[j−1], then w ← w·tⱼ = (t₀⋯tⱼ₋₁)⁻¹.
            let mut tis: Vec<Zeroizing<Vec<u64>>> = (0..count).map(|_| zero()).collect();
            for j in (1..count).rev() {
                let mut tim = zero();
                mul(&mut tim, &w, &prefix[j - 1], &mut scratch);
                m.from_mont(&mut tis[j], &tim, &k, &mut scratch);
                let mut next = zero();
                mul(&mut next, &w, &tms[j], &mut scratch);
                w = next;
            }
            m.from_mont(&mut tis[0], &w, &k, &mut scratch);
            let mut work = self.prime_work();
            let half = self.share_limbs();
            let mut pairs = Vec::with_capacity(count);
            for (t, ti) in ts.iter().zip(&tis) {
                let mut te = zero();
                public.pow_e(&mut te, t, &k);
                let mut shares = Zeroizing::new(vec![0u64; 2 * half]);
                let mut rest = &mut shares[..];
                for (x, pc) in [&te, ti]
                    .into_iter()
                    .flat_map(|x| self.crt.iter().map(move |pc| (x, pc)))
                {
                    let (r, tail) = rest.split_at_mut(pc.modulus.limbs());
                    pc.reduce(r, x, &k, &mut work);
                    // REDC(x mod rᵢ, R²) = x·R mod rᵢ.
                    pc.mul(r, pc.modulus.rr(), &k, &mut work);
                    rest = tail;
                }
                pairs.push(Pair { shares, uses: 0 });
            }
            return Ok(pairs);
        }
        // Four draws sharing a factor with n: the generator is not random.
        Err(Error::Rng)
    }

    /// `out` = a uniformly random number in `[1, n)` from `rng` ([`arith::random_between`]),
    /// giving up after 64 misses, each of which has probability below 1/2.
    fn random_below_n(&self, rng: &mut dyn CryptoRngCore, out: &mut [u64]) -> Result<()> {
        let m = self.public_key().modulus();
        let zero = vec![0u64; m.limbs()];
        Ok(arith::random_between(rng, out, &zero, m.n(), m.bits(), 64)?)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use rand::SeedableRng;

    /// The plain value of a pair's share modulo prime `i` (out of Montgomery form).
    fn plain(key: &RsaPrivateKey, i: usize, x: &[u64]) -> BigUint {
        let pc = &key.crt[i];
        let mut out = vec![0u64; x.len()];
        let mut scratch = pc.modulus.scratch();
        pc.modulus
            .from_mont(&mut out, x, &key.kernel(), &mut scratch);
        BigUint::from_slice(
            &out.iter()
                .flat_map(|&w| [w as u32, (w >> 32) as u32])
                .collect::<Vec<_>>(),
        )
    }

    /// Every pair the cache hands out is `(tᵉ, t⁻¹)` modulo each prime; one is squared from
    /// use to use, and after [`REFRESH`] uses the next is one of the fresh pairs made with
    /// the first, [`PAIRS_PER_INVERSION`] of them.
    #[test]
    fn pairs_are_inverse_and_follow_one_another() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        for primes in [2, 3] {
            let key = RsaPrivateKey::new_multi_prime(&mut rng, 1024, primes).unwrap();
            let e = BigUint::from_bytes_be(&key.public_key().e_bytes);
            let valid = |p: &Pair| {
                (0..primes).all(|i| {
                    let r = BigUint::from_slice(
                        &key.crt[i]
                            .modulus
                            .n()
                            .iter()
                            .flat_map(|&w| [w as u32, (w >> 32) as u32])
                            .collect::<Vec<_>>(),
                    );
                    let a = key.per_prime(key.te_shares(p)).nth(i).unwrap().1;
                    let ai = key.per_prime(key.inverse_shares(p)).nth(i).unwrap().1;
                    let (a, ai) = (plain(&key, i, a), plain(&key, i, ai));
                    (a * ai.modpow(&e, &r)) % &r == BigUint::from(1u8)
                })
            };
            let first = key.blinding_pair(&mut rng).unwrap();
            assert!(valid(&first), "{primes} primes: the first pair");
            let spare: Vec<Pair> = key.blinding.slot.lock().unwrap().spare.clone();
            assert_eq!(spare.len(), PAIRS_PER_INVERSION - 1);
            assert!(spare.iter().all(valid), "{primes} primes: the spare pairs");
            let mut last = first;
            for use_ in 1..REFRESH {
                let p = key.blinding_pair(&mut rng).unwrap();
                // The square of the one before, share by share.
                let got = key.per_prime(&p.shares);
                for ((pc, was), (_, now)) in key.per_prime(&last.shares).zip(got) {
                    let want = pc.modulus.mont_sqr(was, &key.kernel());
                    assert_eq!(now, &want[..], "{primes} primes, use {use_}");
                }
                last = p;
            }
            let next = key.blinding_pair(&mut rng).unwrap();
            let want = spare.last().unwrap();
            assert!(next.shares == want.shares, "{primes} primes");
        }
    }
}

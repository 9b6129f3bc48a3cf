//! Base blinding of the private operation (Kocher, CRYPTO '96, §10): with a secret random
//! `t`, the exponentiations see `c·tᵉ` instead of `c`, and their result `m·t` is multiplied by
//! `t⁻¹`. The private operation is constant time without it; blinding adds a second,
//! independent layer (the operands of the CRT exponentiations are fresh random values,
//! unrelated to anything an attacker chose or can see), and it is used whenever the caller
//! passes a random number generator (`sign_with_rng`, `decrypt_blinded`, the `rng` argument
//! of [`RsaPrivateKey::raw_private`]).
//!
//! A pair `(A, Aᵢ) = (tᵉ, t⁻¹)` needs a modular inversion (see [`fresh_pair`]), so, as
//! OpenSSL's `BN_BLINDING` does, a key keeps one pair and squares both halves after each use
//! (`(t²)ᵉ = A²`, `(t²)⁻¹ = Aᵢ²`), drawing a fresh `t` every [`REFRESH`] uses.
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
//! [`fresh_pair`]: RsaPrivateKey::fresh_pair
//!
//! The pair lives behind a mutex (with the `std` feature); concurrent private operations on one
//! key wait only for the squarings, or for a refresh. Without `std` every blinded operation
//! draws its own pair. A cloned key starts without a pair. The pair is secret: its buffers are
//! zeroized when replaced or dropped.

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::{PrivateMode, RsaPrivateKey};
use crate::nat::arith;
use crate::rsa::{Error, Result};

/// Uses of one blinding pair before a fresh `t` is drawn (OpenSSL's `BN_BLINDING_COUNTER`).
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub(crate) const REFRESH: u32 = 32;

/// A blinding pair in CRT form: for prime `i` of the key (the key's order), `a[i] = tᵉ·Rᵢ mod
/// rᵢ` and `ai[i] = t⁻¹·Rᵢ mod rᵢ`, `Rᵢ` the Montgomery radix of the prime's modulus.
#[derive(Clone)]
pub(crate) struct Pair {
    a: Vec<Zeroizing<Vec<u64>>>,
    ai: Vec<Zeroizing<Vec<u64>>>,
    /// Operations blinded with this pair so far (without `std` every pair is used once).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    uses: u32,
}

/// A key's cached blinding pair (see the module documentation).
#[derive(Default)]
pub(crate) struct BlindingCache {
    #[cfg(feature = "std")]
    slot: std::sync::Mutex<Option<Pair>>,
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
            if let Some(p) = slot.as_ref() {
                for x in p.a.iter().chain(&p.ai) {
                    f(x.as_ptr() as *const u8, x.len() * 8);
                }
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
        self.mul_parts(&pair.a, cs, work);
    }

    /// `ms[i] ← ms[i]·t⁻¹ mod rᵢ` for the blinded results `ms[i] = (c·tᵉ)^dᵢ mod rᵢ` of one
    /// input: their unblinding, before Garner's recombination.
    pub(crate) fn unblind_parts(
        &self,
        pair: &Pair,
        ms: &mut [Zeroizing<Vec<u64>>],
        work: &mut [u64],
    ) {
        self.mul_parts(&pair.ai, ms, work);
    }

    /// `xs[i] ← REDC(xs[i], fs[i])` modulo prime `i` (`fs[i]` in Montgomery form: the plain
    /// product).
    fn mul_parts(
        &self,
        fs: &[Zeroizing<Vec<u64>>],
        xs: &mut [Zeroizing<Vec<u64>>],
        work: &mut [u64],
    ) {
        let k = self.kernel();
        for ((pc, f), x) in self.crt.iter().zip(fs).zip(xs) {
            pc.mul(x, f, &k, work);
        }
    }

    /// The pair modulo `n`, in Montgomery form modulo `n`: `(tᵉ·R, t⁻¹·R)` (for the non-CRT
    /// mode), by Garner's recombination of the plain parts.
    fn pair_mod_n(&self, pair: &Pair) -> (Zeroizing<Vec<u64>>, Zeroizing<Vec<u64>>) {
        let m = self.public_key().modulus();
        let k = self.kernel();
        let mut scratch = Zeroizing::new(m.scratch());
        let mut work = self.prime_work();
        let mut whole = |parts: &[Zeroizing<Vec<u64>>]| {
            let plain: Vec<Zeroizing<Vec<u64>>> = self
                .crt
                .iter()
                .zip(parts)
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
        (whole(&pair.a), whole(&pair.ai))
    }

    /// The pair for this operation: the cached one (squared in the cache for the next use),
    /// or a fresh one when there is none yet or it has been used [`REFRESH`] times.
    pub(crate) fn blinding_pair(&self, rng: &mut dyn CryptoRngCore) -> Result<Pair> {
        #[cfg(feature = "std")]
        {
            // A poisoned lock only means another thread panicked mid-update: draw a new pair.
            let mut slot = self.blinding.slot.lock().unwrap_or_else(|e| {
                self.blinding.slot.clear_poison();
                let mut s = e.into_inner();
                *s = None;
                s
            });
            let pair = match slot.take() {
                Some(p) if p.uses < REFRESH => slot.insert(p),
                // A used-up pair is dropped here (and zeroized).
                _ => slot.insert(self.fresh_pair(rng)?),
            };
            let current = pair.clone();
            let k = self.kernel();
            let mut work = self.prime_work();
            for (pc, (a, ai)) in self.crt.iter().zip(pair.a.iter_mut().zip(&mut pair.ai)) {
                pc.sqr(a, &k, &mut work);
                pc.sqr(ai, &k, &mut work);
            }
            pair.uses += 1;
            Ok(current)
        }
        #[cfg(not(feature = "std"))]
        {
            self.fresh_pair(rng)
        }
    }

    /// A new pair from a uniformly random `t ∈ [1, n)` drawn from `rng`. `t⁻¹ mod n` is
    /// computed as `u·(t·u)⁻¹` with a second fresh random `u` (BoringSSL's
    /// `BN_mod_inverse_blinded`): the binary extended Euclidean algorithm, variable time, only
    /// ever sees `t·u mod n`, a uniformly random number independent of `t`, and the public `n`;
    /// `u` is used once and zeroized. The Euclid takes about `2·bits(n)/31` word-batched steps.
    /// `tᵉ` and `t⁻¹` are then reduced modulo every prime (constant time).
    fn fresh_pair(&self, rng: &mut dyn CryptoRngCore) -> Result<Pair> {
        let public = self.public_key();
        let m = public.modulus();
        let k = self.kernel();
        let s = m.limbs();
        let mut scratch = Zeroizing::new(m.scratch());
        // Both products t·u and (t·u)⁻¹·u below are REDC(x·R, y) = x·y mod n.
        let mut t = Zeroizing::new(vec![0u64; s]);
        let mut t_mont = Zeroizing::new(vec![0u64; s]);
        let mut u = Zeroizing::new(vec![0u64; s]);
        let mut ts = Zeroizing::new(vec![0u64; s]);
        for _ in 0..4 {
            self.random_below_n(rng, &mut t)?;
            self.random_below_n(rng, &mut u)?;
            m.to_mont(&mut t_mont, &t, &k, &mut scratch);
            (k.mul)(&mut ts, &t_mont, &u, m.n(), m.n0(), &mut scratch);
            // None only if t or u shares a factor with n (probability below 2⁻⁵⁰⁰): draw again.
            let Some(inv) = arith::inv_mod_odd_vartime(&ts, m.n()) else {
                continue;
            };
            let inv = Zeroizing::new(inv);
            let mut inv_mont = Zeroizing::new(vec![0u64; s]);
            m.to_mont(&mut inv_mont, &inv, &k, &mut scratch);
            let mut ti = Zeroizing::new(vec![0u64; s]);
            (k.mul)(&mut ti, &inv_mont, &u, m.n(), m.n0(), &mut scratch);
            let mut te = Zeroizing::new(vec![0u64; s]);
            public.pow_e(&mut te, &t, &k);
            // Each prime's share, in Montgomery form modulo that prime.
            let mut work = self.prime_work();
            let mut share = |x: &[u64]| -> Vec<Zeroizing<Vec<u64>>> {
                self.crt
                    .iter()
                    .map(|pc| {
                        let mut r = Zeroizing::new(vec![0u64; pc.modulus.limbs()]);
                        pc.reduce(&mut r, x, &k, &mut work);
                        // REDC(x mod rᵢ, R²) = x·R mod rᵢ.
                        pc.mul(&mut r, pc.modulus.rr(), &k, &mut work);
                        r
                    })
                    .collect()
            };
            return Ok(Pair {
                a: share(&te),
                ai: share(&ti),
                uses: 0,
            });
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

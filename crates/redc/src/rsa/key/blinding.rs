//! Base blinding of the private operation (Kocher, CRYPTO '96, §10): with a secret random
//! `t`, the exponentiations see `c·tᵉ` instead of `c`, and their result `m·t` is multiplied by
//! `t⁻¹`. The private operation is constant time without it; blinding adds a second,
//! independent layer (the operands of the CRT exponentiations are fresh random values,
//! unrelated to anything an attacker chose or can see), and it is used whenever the caller
//! passes a random number generator (`sign_with_rng`, `decrypt_blinded`, the `rng` argument
//! of [`RsaPrivateKey::raw_private`]).
//!
//! A pair `(A, Aᵢ) = (tᵉ, t⁻¹) mod n` needs a modular inversion (see [`fresh_pair`]), so, as
//! OpenSSL's `BN_BLINDING` does, a key keeps one pair and squares both halves after each use
//! (`(t²)ᵉ = A²`, `(t²)⁻¹ = Aᵢ²`: two Montgomery squarings), drawing a fresh `t` every
//! [`REFRESH`] uses. Per operation that is four Montgomery products modulo `n` (apply, remove,
//! two squarings), about 0.6 % of a 2048-bit signature, plus a fresh pair every [`REFRESH`]
//! operations (`examples/blinding_cost.rs` measures the total).
//!
//! [`fresh_pair`]: RsaPrivateKey::fresh_pair
//!
//! The pair lives behind a mutex (with the `std` feature); concurrent private operations on one
//! key wait only for the two squarings, or for a refresh. Without `std` every blinded operation
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

/// A blinding pair in the Montgomery domain of `n`: `a = tᵉ·R mod n`, `ai = t⁻¹·R mod n`.
struct Pair {
    a: Zeroizing<Vec<u64>>,
    ai: Zeroizing<Vec<u64>>,
    /// Operations blinded with this pair so far (without `std` every pair is used once).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    uses: u32,
}

/// A blinded input and the factor that unblinds its result (see [`RsaPrivateKey::blind`]).
pub(crate) type Blinded = (Zeroizing<Vec<u64>>, Zeroizing<Vec<u64>>);

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
                f(p.a.as_ptr() as *const u8, p.a.len() * 8);
                f(p.ai.as_ptr() as *const u8, p.ai.len() * 8);
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
        let (cb, ai) = self.blind(rng, c)?;
        let mb = self.unblinded_op(&cb, mode);
        Ok(self.unblind(&mb, &ai))
    }

    /// `(c·tᵉ mod n, t⁻¹·R mod n)` for this operation's blinding pair; `c < n` in `n`'s limb
    /// count. [`RsaPrivateKey::unblind`] with the second undoes the blinding of the result.
    pub(crate) fn blind(&self, rng: &mut dyn CryptoRngCore, c: &[u64]) -> Result<Blinded> {
        let Pair { a, ai, .. } = self.blinding_pair(rng)?;
        let m = self.public_key().modulus();
        let k = self.kernel();
        let mut scratch = Zeroizing::new(m.scratch());
        // REDC(c, tᵉ·R) = c·tᵉ mod n.
        let mut cb = Zeroizing::new(vec![0u64; m.limbs()]);
        (k.mul)(&mut cb, c, &a, m.n(), m.n0(), &mut scratch);
        Ok((cb, ai))
    }

    /// `m` from `mb = (c·tᵉ)^d = m·t` and `ai = t⁻¹·R`: `REDC(m·t, t⁻¹·R) = m`.
    pub(crate) fn unblind(&self, mb: &[u64], ai: &[u64]) -> Zeroizing<Vec<u64>> {
        let m = self.public_key().modulus();
        let k = self.kernel();
        let mut scratch = Zeroizing::new(m.scratch());
        let mut out = Zeroizing::new(vec![0u64; m.limbs()]);
        (k.mul)(&mut out, mb, ai, m.n(), m.n0(), &mut scratch);
        out
    }

    /// The pair for this operation: the cached one (squared in the cache for the next use),
    /// or a fresh one when there is none yet or it has been used [`REFRESH`] times.
    fn blinding_pair(&self, rng: &mut dyn CryptoRngCore) -> Result<Pair> {
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
            let current = Pair {
                a: pair.a.clone(),
                ai: pair.ai.clone(),
                uses: pair.uses,
            };
            let public = self.public_key();
            let m = public.modulus();
            let k = self.kernel();
            let mut scratch = Zeroizing::new(m.scratch());
            (k.sqr)(&mut pair.a, &current.a, m.n(), m.n0(), &mut scratch);
            (k.sqr)(&mut pair.ai, &current.ai, m.n(), m.n0(), &mut scratch);
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
            let mut a = Zeroizing::new(vec![0u64; s]);
            let mut ai = Zeroizing::new(vec![0u64; s]);
            m.to_mont(&mut a, &te, &k, &mut scratch);
            m.to_mont(&mut ai, &ti, &k, &mut scratch);
            return Ok(Pair { a, ai, uses: 0 });
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

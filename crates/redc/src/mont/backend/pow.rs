//! The backend hook of the private operation: "run these exponentiations with secret
//! exponents", which each backend answers in its own way.
//!
//! The RSA layer prepares a [`PowMany`] once per key (its primes and CRT exponents as
//! [`SecretExp`]s) and hands it every exponentiation of one operation or of a whole batch
//! ([`PowMany::pow_many`]). The ifma backend runs them side by side in AVX-512 IFMA
//! registers, up to eight per call (`ifma_plan`), with its own thresholds for when that
//! pays; the portable and MULX backends, and any job the ifma backend leaves, run one after
//! another by the kernel's fixed window ([`crate::exp::fixed::pow`]). The RSA layer names no
//! backend: a new one implements its side here.

use alloc::vec::Vec;

use zeroize::Zeroizing;

use crate::exp::fixed;
use crate::mont::{Kernel, Modulus};

/// One secret exponentiation's fixed data: `x ↦ x^exp mod modulus`.
#[derive(Clone, Copy)]
pub struct SecretExp<'a> {
    /// The modulus (odd; for RSA a prime).
    pub modulus: &'a Modulus<u64>,
    /// The exponent, big-endian, padded to the modulus's byte length (secret).
    pub exp: &'a [u8],
    /// The window of the kernel's fixed-window method for this exponent (1..=8).
    pub window: u32,
}

/// A set of [`SecretExp`]s (a key's primes and exponents) prepared once for the backends that
/// run several exponentiations per call. Cheap to clone; holds secrets (zeroized on drop).
#[derive(Clone, Default)]
pub struct PowMany {
    #[cfg(target_arch = "x86_64")]
    lanes: Option<super::ifma_plan::LanePlan>,
}

impl core::fmt::Debug for PowMany {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PowMany").finish_non_exhaustive()
    }
}

impl PowMany {
    /// The preparation for `exps` (constant time in the moduli and exponents). Prepared for
    /// every backend this CPU runs, so that a key can switch backends later.
    pub fn new(exps: &[SecretExp<'_>]) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            PowMany {
                lanes: super::ifma_plan::LanePlan::new(exps),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = exps;
            PowMany {}
        }
    }

    /// Operations of `k` exponentiations (one per prime) that fill one call of
    /// [`PowMany::pow_many`] with `kernel`: with the IFMA lanes, eight exponentiations per
    /// call (four two-prime operations, two of three or four primes, at least one); 1 where
    /// the exponentiations run one after another, so that gathering operations gains nothing.
    pub fn operations_per_call(&self, k: usize, kernel: &Kernel<u64>) -> usize {
        #[cfg(target_arch = "x86_64")]
        if self.lane_plan(kernel).is_some() {
            return (super::ifma::LANES / k.max(1)).max(1);
        }
        let _ = (k, kernel);
        1
    }

    /// `outs[j] = bases[j]^e mod m` with `(m, e)` = `exps[j mod k]` (`k = exps.len()`), for
    /// jobs that come in operations of `k` (one per prime: RSA's CRT); `bases[j] < m` and
    /// `outs[j]` in `m`'s limb count. Constant time in the bases and exponents; the grouping
    /// into calls depends only on the number of jobs. `exps` must be the ones this was
    /// prepared from, and `kernel` the key's.
    ///
    /// # Panics
    ///
    /// If `exps` is empty or `bases` and `outs` differ in length (the caller's shapes).
    pub fn pow_many(
        &self,
        exps: &[SecretExp<'_>],
        bases: &[&[u64]],
        outs: &mut [Zeroizing<Vec<u64>>],
        kernel: &Kernel<u64>,
    ) {
        let k = exps.len();
        assert!(k > 0 && bases.len() == outs.len(), "one output per base");
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if let Some((plan, token)) = self.lane_plan(kernel) {
            let jobs = outs.len();
            // A last call of few operations may run faster as single operations, each of its
            // own call (see `LanePlan::single_below`).
            let single = plan.single_below(k);
            while done < jobs {
                let rest = jobs - done;
                let take = if rest < single * k {
                    k
                } else {
                    rest.min(super::ifma::LANES)
                };
                let chunk = done..done + take;
                let primes: Vec<usize> = chunk.clone().map(|j| j % k).collect();
                plan.pow(token, &primes, &bases[chunk.clone()], &mut outs[chunk]);
                done += take;
            }
        }
        for (j, (out, base)) in outs.iter_mut().zip(bases).enumerate().skip(done) {
            let e = &exps[j % k];
            fixed::pow(out, base, e.exp, e.modulus, kernel, e.window);
        }
    }

    /// Whether [`PowMany::pow_pair_public_vartime`] runs for this preparation with `kernel`:
    /// a two-prime key whose backend runs both primes' exponentiations side by side (the IFMA
    /// duo form, at sizes where the fault check modulo the primes pays). `kernel` must be the
    /// key's.
    pub fn runs_pair_public(&self, kernel: &Kernel<u64>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some((plan, _)) = self.lane_plan(kernel) {
            return plan.pair_public_moduli().is_some();
        }
        let _ = kernel;
        false
    }

    /// `outs[i] = bases[i]^exp mod` prime `i`'s modulus, both side by side, by
    /// square-and-multiply over the public `exp`: variable time in `exp` alone, constant time
    /// in the bases. `bases[i]` is below modulus `i`, in its limb count, and so is `outs[i]`;
    /// `kernel` is the key's.
    ///
    /// # Panics
    ///
    /// Unless [`PowMany::runs_pair_public`] holds for `kernel` (the caller's shapes).
    pub fn pow_pair_public_vartime(
        &self,
        exp: &[u8],
        bases: [&[u64]; 2],
        outs: &mut [Zeroizing<Vec<u64>>; 2],
        kernel: &Kernel<u64>,
    ) {
        assert!(
            self.runs_pair_public(kernel),
            "both primes side by side only where runs_pair_public says so"
        );
        #[cfg(target_arch = "x86_64")]
        if let Some((plan, token)) = self.lane_plan(kernel) {
            plan.pow_pair_public_vartime(token, exp, bases, outs);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (exp, bases, outs);
    }

    /// Whether [`PowMany::pow_many_public_vartime`] runs for this preparation with `kernel`:
    /// a backend that runs exponentiations modulo the primes side by side, eight at a time
    /// (the IFMA lanes). `kernel` must be the key's.
    pub fn runs_many_public(&self, kernel: &Kernel<u64>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.lane_plan(kernel).is_some() {
            return true;
        }
        let _ = kernel;
        false
    }

    /// `outs[j] = bases[j]^exp mod` the modulus of prime `j mod k` (`k` primes, in the order
    /// this was prepared with), eight per call side by side, by square-and-multiply over the
    /// public `exp`: variable time in `exp` alone, constant time in the bases. `bases[j]` is
    /// below its modulus, in its limb count, and so is `outs[j]`; `kernel` is the key's.
    ///
    /// # Panics
    ///
    /// Unless [`PowMany::runs_many_public`] holds for `kernel`, `k` is the number of primes
    /// prepared and `bases` and `outs` have one length (the caller's shapes).
    pub fn pow_many_public_vartime(
        &self,
        exp: &[u8],
        k: usize,
        bases: &[&[u64]],
        outs: &mut [Zeroizing<Vec<u64>>],
        kernel: &Kernel<u64>,
    ) {
        assert!(
            self.runs_many_public(kernel),
            "side by side only where runs_many_public says so"
        );
        assert!(bases.len() == outs.len(), "one output per base");
        #[cfg(target_arch = "x86_64")]
        if let Some((plan, token)) = self.lane_plan(kernel) {
            assert!(k == plan.primes(), "one job per prepared prime");
            let primes: Vec<usize> = (0..bases.len()).map(|j| j % k).collect();
            plan.pow_lanes_public_vartime(token, exp, &primes, bases, outs);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (exp, k, bases, outs);
    }

    /// The lane plan and the proof of the CPU's IFMA, where `kernel` (the key's) runs the
    /// IFMA lanes and the plan was made: the one condition every side-by-side call here asks.
    #[cfg(target_arch = "x86_64")]
    fn lane_plan(
        &self,
        kernel: &Kernel<u64>,
    ) -> Option<(&super::ifma_plan::LanePlan, super::ifma::Token)> {
        let plan = self.lanes.as_ref().filter(|_| kernel.lanes)?;
        Some((plan, super::ifma::Token::get()?))
    }

    /// Test hook: every secret buffer.
    #[cfg(feature = "test-hooks")]
    pub(crate) fn for_each_secret_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
        #[cfg(target_arch = "x86_64")]
        if let Some(plan) = &self.lanes {
            plan.for_each_secret_region(f);
        }
        let _ = f;
    }
}

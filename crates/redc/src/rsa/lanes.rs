//! The private operation's exponentiations side by side in AVX-512 IFMA lanes
//! (`mont::backend::ifma`): the CRT parts of one operation (two to five primes) and, for the
//! batch API, the parts of several operations, up to eight per call.
//!
//! A [`LanePlan`] is built with the key when the CPU has the extensions: every prime's
//! [`Modulus52`] with one digit count for all of them (the largest prime's), and every `dᵢ`
//! padded to one byte length, since all lanes of a call share the digit count and the
//! exponent's length. It is used only when the key's kernel allows it
//! ([`crate::mont::Kernel::lanes`], the ifma backend) and [`LanePlan::worth_it`].

#[cfg(target_arch = "x86_64")]
mod imp {
    use alloc::vec;
    use alloc::vec::Vec;

    use zeroize::Zeroizing;

    use crate::mont::backend::ifma::{self, Modulus52, PowJob, Token, LANES};
    use crate::rsa::private::PrimeCrt;

    /// Every prime's lane data (see the module documentation).
    #[derive(Clone)]
    pub(crate) struct LanePlan {
        digits: usize,
        moduli: Vec<Modulus52>,
        /// `dᵢ` big-endian, all padded to the longest prime's byte length.
        exps: Vec<Zeroizing<Vec<u8>>>,
        window: u32,
    }

    impl LanePlan {
        /// The plan for these primes, if the CPU has IFMA and the primes fit a compiled digit
        /// count. Constant time in the primes and exponents.
        pub(crate) fn new(crt: &[PrimeCrt]) -> Option<Self> {
            Token::get()?;
            let bits = crt.iter().map(|pc| pc.modulus.bits()).max()?;
            let digits = ifma::digits_for(bits)?;
            let moduli = crt
                .iter()
                .map(|pc| Modulus52::new(&pc.modulus, digits))
                .collect::<Option<Vec<_>>>()?;
            let len = crt.iter().map(|pc| pc.exp().len()).max()?;
            let exps = crt
                .iter()
                .map(|pc| {
                    let e = pc.exp();
                    let mut v = Zeroizing::new(vec![0u8; len]);
                    v[len - e.len()..].copy_from_slice(e);
                    v
                })
                .collect();
            Some(LanePlan {
                digits,
                moduli,
                exps,
                window: ifma::window_for(len * 8, digits),
            })
        }

        /// Whether a call with `jobs` exponentiations beats running them one after another
        /// on the MULX kernel. A call costs the same for one job or eight; measured on an
        /// Intel Xeon (Emerald Rapids) with 1024-bit primes (20 digits) two jobs already
        /// gain (one call takes about 0.8 of two MULX exponentiations), at 1536 and 2048
        /// bits (30, 40 digits) two do not (1.1–1.2) but three do.
        pub(crate) fn worth_it(&self, jobs: usize) -> bool {
            jobs >= 3 || self.digits <= 20
        }

        /// `outs[i] = cis[i]^d_{primes[i]} mod r_{primes[i]}` for up to [`LANES`] jobs in
        /// one call; constant time.
        pub(crate) fn pow(
            &self,
            token: Token,
            primes: &[usize],
            cis: &[&[u64]],
            outs: &mut [Zeroizing<Vec<u64>>],
        ) {
            debug_assert!(primes.len() <= LANES && primes.len() == cis.len());
            let mut jobs: Vec<PowJob<'_>> = outs
                .iter_mut()
                .zip(primes.iter().zip(cis))
                .map(|(out, (&p, &ci))| PowJob {
                    out: &mut out[..],
                    base: ci,
                    exp: &self.exps[p],
                    modulus: &self.moduli[p],
                })
                .collect();
            ifma::pow_lanes(token, &mut jobs, self.window);
        }

        /// Test hook: every secret buffer.
        pub(crate) fn for_each_secret_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
            for m in &self.moduli {
                m.for_each_region(f);
            }
            for e in &self.exps {
                f(e.as_ptr(), e.len());
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod imp {
    use crate::rsa::private::PrimeCrt;

    /// No lanes on this architecture.
    #[derive(Clone)]
    pub(crate) enum LanePlan {}

    impl LanePlan {
        pub(crate) fn new(_: &[PrimeCrt]) -> Option<Self> {
            None
        }

        pub(crate) fn for_each_secret_region(&self, _: &mut dyn FnMut(*const u8, usize)) {
            match *self {}
        }
    }
}

pub(crate) use imp::LanePlan;

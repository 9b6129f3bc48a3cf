//! The ifma backend's side of [`super::pow::PowMany`]: secret exponentiations side by side in
//! AVX-512 IFMA registers: the CRT parts of one private operation (two to five primes) and,
//! for batches, the parts of several operations, up to eight per call.
//!
//! A [`LanePlan`] is built once per set of moduli (a key's primes) when the CPU has the
//! extensions: every modulus's `Modulus52` with one digit count for all of them (the
//! largest one's), and every exponent padded to one byte length, since all lanes of a call
//! share the digit count and the exponent's length; for two moduli, also their form for the
//! duo kernels (at the digit count and width [`super::cpu::Forms`] gives the CPU kind).

mod imp {
    use alloc::vec;
    use alloc::vec::Vec;

    use zeroize::Zeroizing;

    use crate::mont::backend::cpu::Forms;
    use crate::mont::backend::ifma::{self, Modulus52, PowJob, Token, LANES};
    use crate::mont::backend::ifma_duo::{duo_digits_for, pow_duo, pow_duo_public_vartime};
    use crate::mont::backend::pow::SecretExp;

    /// The largest duo digit count at which a two-prime operation's fault check runs modulo
    /// the primes (both exponentiations by `e` in one duo call, after four reductions) rather
    /// than modulo `n` on its own. Measured on the Sapphire Rapids class Xeon (family 6,
    /// model 167), signing with 2-prime keys, alternating builds: 1024-bit keys (10 digits,
    /// the 256-bit duo kernels) 6 % faster (47.1 against 50.1 µs); 2048 bits (20 digits)
    /// level to 0.6 % slower and 4096 bits no better, where the check modulo `n` already runs
    /// near the kernels' rate and the reductions cost what the halves save.
    pub(crate) const PRIME_CHECK_DIGITS: usize = 12;

    /// Every prime's lane data (see the module documentation).
    #[derive(Clone)]
    pub(crate) struct LanePlan {
        moduli: Vec<Modulus52>,
        /// `dᵢ` big-endian, all padded to the longest prime's byte length.
        exps: Vec<Zeroizing<Vec<u8>>>,
        window: u32,
        /// Every prime's [`Modulus52`] at the duo form's digit count for the CPU kind
        /// (`ifma_duo::duo_digits_for`), for calls of one or two jobs, with its window;
        /// `None` if no duo count fits.
        duo: Option<(Vec<Modulus52>, u32)>,
    }

    impl LanePlan {
        /// The plan for these moduli and exponents, if the CPU has IFMA and the moduli fit a
        /// compiled digit count. Constant time in the moduli and exponents.
        pub(crate) fn new(crt: &[SecretExp<'_>]) -> Option<Self> {
            Token::get()?;
            let bits = crt.iter().map(|pc| pc.modulus.bits()).max()?;
            let digits = ifma::digits_for(bits)?;
            let moduli = crt
                .iter()
                .map(|pc| Modulus52::new(pc.modulus, digits))
                .collect::<Option<Vec<_>>>()?;
            let len = crt.iter().map(|pc| pc.exp.len()).max()?;
            let exps = crt
                .iter()
                .map(|pc| {
                    let e = pc.exp;
                    let mut v = Zeroizing::new(vec![0u8; len]);
                    v[len - e.len()..].copy_from_slice(e);
                    v
                })
                .collect();
            // The duo form at the count `cpu`'s table gives the CPU kind, else (a count the duo
            // kernels lack) the pair form.
            let forms = Forms::current();
            let duo = duo_digits_for(bits, &forms).and_then(|d| {
                let moduli = crt
                    .iter()
                    .map(|pc| Modulus52::new(pc.modulus, d))
                    .collect::<Option<Vec<_>>>()?;
                Some((moduli, ifma::window_for(len * 8, d)))
            });
            Some(LanePlan {
                moduli,
                exps,
                window: ifma::lane_window_for(len * 8, digits, &forms),
                duo,
            })
        }

        /// `outs[i] = cis[i]^d_{primes[i]} mod r_{primes[i]}` for up to [`LANES`] jobs in
        /// one call; constant time. One or two jobs (a two-prime operation) run across the
        /// registers, both halves in every register (`ifma_duo`; interleaved, `ifma_pair`,
        /// only at a digit count the duo kernels lack, none of the compiled ones); three or more
        /// run one per lane (`ifma`), where a call costs the same for three jobs or eight.
        pub(crate) fn pow(
            &self,
            token: Token,
            primes: &[usize],
            cis: &[&[u64]],
            outs: &mut [Zeroizing<Vec<u64>>],
        ) {
            debug_assert!(primes.len() <= LANES && primes.len() == cis.len());
            let duo = self.duo.as_ref().filter(|_| primes.len() <= 2);
            let moduli = duo.map_or(&self.moduli, |(m, _)| m);
            let mut jobs: Vec<PowJob<'_>> = outs
                .iter_mut()
                .zip(primes.iter().zip(cis))
                .map(|(out, (&p, &ci))| PowJob {
                    out: &mut out[..],
                    base: ci,
                    exp: &self.exps[p],
                    modulus: &moduli[p],
                })
                .collect();
            if let Some((_, window)) = duo {
                pow_duo(token, &mut jobs, *window);
            } else if jobs.len() <= 2 {
                crate::mont::backend::ifma_pair::pow_pair(token, &mut jobs, self.window);
            } else {
                ifma::pow_lanes(token, &mut jobs, self.window);
            }
        }

        /// The number of primes (moduli) this plan was made for.
        pub(crate) fn primes(&self) -> usize {
            self.moduli.len()
        }

        /// The two primes' duo moduli if [`LanePlan::pow_pair_public_vartime`] runs this plan.
        pub(crate) fn pair_public_moduli(&self) -> Option<&[Modulus52]> {
            self.duo
                .as_ref()
                .map(|(m, _)| &m[..])
                .filter(|m| m.len() == 2 && m[0].digits() <= PRIME_CHECK_DIGITS)
        }

        /// `outs[i] = bases[i]^exp mod rᵢ` for a plan of two primes on the duo form of at most
        /// [`PRIME_CHECK_DIGITS`] digits ([`LanePlan::pair_public_moduli`]; panics for any
        /// other plan), both at once, by square-and-multiply over the public `exp` (variable
        /// time in it alone).
        pub(crate) fn pow_pair_public_vartime(
            &self,
            token: Token,
            exp: &[u8],
            bases: [&[u64]; 2],
            outs: &mut [Zeroizing<Vec<u64>>; 2],
        ) {
            let moduli = self
                .pair_public_moduli()
                .expect("a two-prime plan on the duo form");
            let [o0, o1] = outs;
            let mut jobs = [
                PowJob {
                    out: &mut o0[..],
                    base: bases[0],
                    exp,
                    modulus: &moduli[0],
                },
                PowJob {
                    out: &mut o1[..],
                    base: bases[1],
                    exp,
                    modulus: &moduli[1],
                },
            ];
            pow_duo_public_vartime(token, &mut jobs, exp);
        }

        /// `outs[j] = bases[j]^exp mod` prime `primes[j]`'s modulus for any number of jobs,
        /// eight per lane call, by the lanes' square-and-multiply over the public `exp`
        /// (variable time in `exp` alone, constant time in the bases): the fault check of a
        /// batch modulo the primes. `bases[j]` and `outs[j]` in that prime's limb count.
        pub(crate) fn pow_lanes_public_vartime(
            &self,
            token: Token,
            exp: &[u8],
            primes: &[usize],
            bases: &[&[u64]],
            outs: &mut [Zeroizing<Vec<u64>>],
        ) {
            let calls = outs
                .chunks_mut(LANES)
                .zip(bases.chunks(LANES).zip(primes.chunks(LANES)));
            for (outs, (bases, primes)) in calls {
                let mut jobs: Vec<PowJob<'_>> = outs
                    .iter_mut()
                    .zip(bases.iter().zip(primes))
                    .map(|(out, (&base, &p))| PowJob {
                        out: &mut out[..],
                        base,
                        exp,
                        modulus: &self.moduli[p],
                    })
                    .collect();
                ifma::pow_lanes_public_vartime(token, &mut jobs, exp);
            }
        }

        /// Fewer operations of `k` primes than this run faster as single operations (one
        /// call each) than together in one lane call; 0 when a lane call is never slower. Only
        /// two-prime operations on the duo form above 12 digits gain: on an AMD EPYC Zen 4
        /// (family 25 model 17) a lane call of two 2048-bit operations took 655 µs against
        /// 226 µs for one operation on the duo form (3072 bits: 2014 against 693 µs; 4096:
        /// 4440 against 1318 µs), and three cost about the same either way; at 1024 bits
        /// the lane call of two (108 µs) beat two duo calls of 12 digits (2 × 67 µs), and
        /// against the 256-bit duo kernels of 10 digits it is about even (batches of two:
        /// 20,100 sign/s against 19,700 for single operations), so it stays.
        /// Measured with `redc speed --bits B --batch N` for N = 1, 2, 3.
        pub(crate) fn single_below(&self, k: usize) -> usize {
            match &self.duo {
                Some((moduli, _)) if k == 2 && moduli[0].digits() > 12 => 3,
                _ => 0,
            }
        }

        /// Test hook: every secret buffer. (Built without `test-hooks` too, so that the ifma
        /// modulus's own hook stays in use.)
        #[cfg_attr(not(feature = "test-hooks"), allow(dead_code))]
        pub(crate) fn for_each_secret_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
            for m in self
                .moduli
                .iter()
                .chain(self.duo.iter().flat_map(|(m, _)| m))
            {
                m.for_each_region(f);
            }
            for e in &self.exps {
                f(e.as_ptr(), e.len());
            }
        }
    }
}

pub(crate) use imp::LanePlan;

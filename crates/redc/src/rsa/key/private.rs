//! The private operation RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1): multi-prime CRT with
//! Garner's recombination, in constant time, followed by the fault check.
//!
//! Per prime `rᵢ` (`s` limbs), everything is precomputed at key construction (`crt::PrimeCrt`):
//! its `Modulus`, `dᵢ` as big-endian bytes of `rᵢ`'s byte length, the window, the Garner
//! coefficient in Montgomery form, and `K = W^(s−1)·R mod rᵢ` for the reduction below.
//!
//! Per operation (`c < n`):
//! 1. `cᵢ = c mod rᵢ` without division: `c` is read in chunks of `s − 1` limbs from the top
//!    (each chunk is `< W^(s−1) ≤ rᵢ`, a valid operand): the top chunk starts `x`, and
//!    `x ← REDC(x, K) + chunk`, one masked subtraction, folds in each further one, since
//!    `REDC(x, K) = x·W^(s−1) mod rᵢ`. A prime that fills its top limb takes chunks of `s`
//!    limbs and `K = R² mod rᵢ` instead (each chunk, below `R < 2rᵢ`, is first brought below
//!    `rᵢ` by one masked subtraction): one REDC fewer for `c` of twice the prime's limbs.
//! 2. `mᵢ = cᵢ^dᵢ mod rᵢ` by the constant-time fixed window ([`fixed::pow`]).
//! 3. Garner, in the order `q, p, r₃, …` (RFC 8017 §5.1.2 step 2.b: `h = (m₁ − m₂)·qInv mod p`,
//!    `m = m₂ + q·h`, then `h = (mᵢ − m)·tᵢ mod rᵢ`, `m = m + R·h`): `m mod rᵢ` by step 1
//!    (over the limbs of `R`, the product of the primes already combined, which bounds `m`),
//!    a modular subtraction with a masked add-back, one REDC against `tᵢ·R` (which gives the
//!    plain product), and `m += R·h` by schoolbook multiplication and addition.
//! 4. The fault check: `m^e mod n` must equal `c` (constant-time compare), else
//!    [`Error::FaultDetected`] and nothing is released. Where the backend runs both primes'
//!    exponentiations by `e` side by side (two-prime keys on the IFMA duo form, small primes:
//!    `ifma_plan::PRIME_CHECK_DIGITS`), the same is asked modulo each prime, `m^e ≡ c (mod p)`
//!    and `(mod q)`, from `c mod p`, `m mod p`, … reduced afresh for the check. A batch whose
//!    `n` has no lane digit count but whose primes do (RSA-3072, RSA-4096) is checked the
//!    same way, modulo every prime, all its results' exponentiations in the lanes.
//!
//! Every loop bound and address depends only on the limb counts (public); secret temporaries
//! are zeroized. With a random number generator the operation is also base-blinded (the
//! exponentiations run on `c·tᵉ` for a secret random `t`, see `blinding`); it is constant
//! time with or without.

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRngCore;
use subtle::Choice;
use zeroize::{Zeroize, Zeroizing};

use super::blinding::Pair;
use super::crt::{work_len, PrimeCrt};
use super::{PrivateMode, RsaPrivateKey};
use crate::ct;
use crate::exp::fixed;
use crate::mont::backend::pow::SecretExp;
use crate::mont::Kernel;
use crate::nat;
use crate::rsa::{Error, Result};

impl RsaPrivateKey {
    /// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1): `input^d mod n` by CRT, constant time, with
    /// the fault check. `input` is big-endian of at most `size()` bytes and MUST be `< n`
    /// ([`Error::InputOutOfRange`] otherwise); the output has exactly `size()` bytes.
    ///
    /// With `rng` the operation is base-blinded (a secret random `t` from `rng`; the module
    /// documentation of `blinding` gives the cost); without, it is not. Constant time either
    /// way. [`Error::FaultDetected`] if the result fails the `m^e = c` check; [`Error::Rng`]
    /// if `rng` fails.
    pub fn raw_private(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        input: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>> {
        self.raw_private_with(rng, input, PrivateMode::Crt)
    }

    /// [`RsaPrivateKey::raw_private`] with the computation chosen by `mode`: CRT (the default)
    /// or one exponentiation modulo `n` (for measurement). Both are constant time, both are
    /// blinded when `rng` is given, and both are fault-checked.
    pub fn raw_private_with(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        input: &[u8],
        mode: PrivateMode,
    ) -> Result<Zeroizing<Vec<u8>>> {
        let c = self.public_key().read_input(input)?;
        let m = match rng {
            Some(rng) => self.blinded_op(rng, &c, mode)?,
            None => self.unblinded_op(&c, mode),
        };
        self.checked_output(&c, m)
    }

    /// [`RsaPrivateKey::raw_private`] for several inputs at once: RSADP / RSASP1 of each, by
    /// CRT, blinded when `rng` is given, each result fault-checked. With the AVX-512 IFMA backend the
    /// exponentiations of all inputs run side by side in AVX-512 IFMA lanes, up to eight per
    /// call (four two-prime operations, two three- or four-prime ones), which is where a batch
    /// gains; elsewhere the inputs run one after another. Constant time like the single form.
    ///
    /// All or nothing: any input out of range ([`Error::InputOutOfRange`]) fails the batch
    /// before any work, and a fault in any result ([`Error::FaultDetected`]) releases none.
    pub fn raw_private_batch(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        inputs: &[&[u8]],
    ) -> Result<Vec<Zeroizing<Vec<u8>>>> {
        for input in inputs {
            self.public_key().read_input(input)?;
        }
        // Collecting stops at the first error and drops (zeroizes) every result before it.
        self.raw_private_each(rng, inputs, &[])
            .into_iter()
            .collect()
    }

    /// [`RsaPrivateKey::raw_private_batch`] with a result per input: an input out of range
    /// ([`Error::InputOutOfRange`]), a blinding failure ([`Error::Rng`]) or a result that fails
    /// the fault check ([`Error::FaultDetected`]) fails only its own item; the others run in
    /// the lanes together and are released. `faults[i]`, when present and true, flips a bit of
    /// input `i`'s first partial result, as a fault would (test hook; pass `&[]` otherwise).
    pub(crate) fn raw_private_each(
        &self,
        mut rng: Option<&mut dyn CryptoRngCore>,
        inputs: &[&[u8]],
        faults: &[bool],
    ) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        let public = self.public_key();
        let mut results: Vec<Result<Zeroizing<Vec<u8>>>> = Vec::with_capacity(inputs.len());
        // The accepted inputs: their index, value, blinding pair, fault.
        let (mut index, mut cs, mut pairs, mut fault) = (vec![], vec![], vec![], vec![]);
        for (i, input) in inputs.iter().enumerate() {
            let prepared = public
                .read_input(input)
                .and_then(|c| match rng.as_deref_mut() {
                    Some(rng) => self.blinding_pair(rng).map(|pair| (c, Some(pair))),
                    None => Ok((c, None)),
                });
            match prepared {
                Ok((c, pair)) => {
                    index.push(i);
                    cs.push(c);
                    pairs.push(pair);
                    fault.push(faults.get(i).copied().unwrap_or(false));
                    // Replaced below by the item's own outcome.
                    results.push(Err(Error::FaultDetected));
                }
                Err(e) => results.push(Err(e)),
            }
        }
        let refs: Vec<&[u64]> = cs.iter().map(|c| &c[..]).collect();
        let ms = self.crt_ops(&refs, &fault, &pairs);
        drop(pairs);
        // Step 4 for every result: one alone modulo the primes where that pays, several by
        // their exponentiations by e side by side.
        let passed: Vec<Choice> = if let [m] = &ms[..] {
            vec![self.passes_check(&cs[0], m)]
        } else {
            self.batch_passes(&cs, &ms)
        };
        for (j, &i) in index.iter().enumerate() {
            results[i] = self.release(passed[j], &ms[j]);
        }
        results
    }

    /// RSASP1 of every encoded message (each `< n`), by [`RsaPrivateKey::raw_private_batch`],
    /// as plain signature bytes: the common tail of the signature schemes' batches.
    pub(crate) fn sign_encoded_batch(
        &self,
        rng: Option<&mut dyn CryptoRngCore>,
        ems: &[Vec<u8>],
    ) -> Result<Vec<Vec<u8>>> {
        let refs: Vec<&[u8]> = ems.iter().map(|e| &e[..]).collect();
        let sigs = self.raw_private_batch(rng, &refs)?;
        Ok(sigs.iter().map(|s| s.to_vec()).collect())
    }

    /// `c^d mod n` by `mode`, without blinding; `c < n` in `n`'s limb count.
    pub(crate) fn unblinded_op(&self, c: &[u64], mode: PrivateMode) -> Zeroizing<Vec<u64>> {
        match mode {
            PrivateMode::Crt => self.crt_op(c, false),
            PrivateMode::NonCrt => self.non_crt_op(c),
        }
    }

    /// Test hook (feature `test-hooks`; not for production): the CRT operation with one bit
    /// of the first prime's partial result flipped, as a fault would; it MUST return
    /// [`Error::FaultDetected`].
    #[cfg(feature = "test-hooks")]
    pub fn raw_private_faulty_for_tests(&self, input: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        let c = self.public_key().read_input(input)?;
        let m = self.crt_op(&c, true);
        self.checked_output(&c, m)
    }

    /// Step 4: releases `m` as `size()` bytes only if `m^e mod n == c`.
    fn checked_output(&self, c: &[u64], m: Zeroizing<Vec<u64>>) -> Result<Zeroizing<Vec<u8>>> {
        self.release(self.passes_check(c, &m), &m)
    }

    /// Step 4's test for one result (`c`, `m < n` in `n`'s limb count): whether `m^e mod n ==
    /// c`, compared in constant time. On a two-prime key whose backend runs both primes'
    /// exponentiations side by side (the IFMA duo form) it asks the same modulo each prime,
    /// `m^e ≡ c (mod p)` and `(mod q)`, which together say it modulo `n` (CRT): two
    /// exponentiations of half the digits in one, where `mod n` runs one of all the digits on
    /// its own. `c mod r` and `m mod r` are reduced afresh here, not taken from the operation,
    /// so a fault in the operation's own reductions is caught as before. Elsewhere `m^e mod n`
    /// by the public key.
    fn passes_check(&self, c: &[u64], m: &[u64]) -> Choice {
        let kernel = self.kernel();
        if let ([p, q], true) = (&self.crt[..], self.pow.runs_pair_public(&kernel)) {
            let mut reduced: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(4);
            let mut work = self.prime_work();
            for x in [c, m] {
                self.push_mod_primes(x, &kernel, &mut reduced, &mut work);
            }
            let mut checks = [
                Zeroizing::new(vec![0u64; p.modulus.limbs()]),
                Zeroizing::new(vec![0u64; q.modulus.limbs()]),
            ];
            let e = &self.public_key().e_bytes;
            let bases = [&reduced[2][..], &reduced[3][..]];
            self.pow
                .pow_pair_public_vartime(e, bases, &mut checks, &kernel);
            return nat::ct_eq(&checks[0], &reduced[0]) & nat::ct_eq(&checks[1], &reduced[1]);
        }
        let public = self.public_key();
        let mut check = Zeroizing::new(vec![0u64; c.len()]);
        public.pow_e(&mut check, m, &public.kernel());
        nat::ct_eq(&check, c)
    }

    /// Step 4's test for several results (`cs[j]`, `ms[j] < n` in `n`'s limb count): whether
    /// `ms[j]^e mod n == cs[j]`, each compared in constant time. Where `n` has no lane digit
    /// count but the primes do (RSA-3072 and RSA-4096: `mod n` would run one wide
    /// exponentiation per result), modulo each prime instead, every result's exponentiations
    /// by `e` side by side in the lanes, eight per call, `c mod r` and `m mod r` reduced afresh as in
    /// [`RsaPrivateKey::passes_check`]; elsewhere modulo `n`, side by side where `n` has
    /// lanes.
    fn batch_passes(&self, cs: &[Zeroizing<Vec<u64>>], ms: &[Zeroizing<Vec<u64>>]) -> Vec<Choice> {
        let public = self.public_key();
        let kernel = self.kernel();
        if public.public_pow.runs_many() || !self.pow.runs_many_public(&kernel) {
            let checks = public.pow_e_batch(ms);
            return cs
                .iter()
                .zip(&checks)
                .map(|(c, check)| nat::ct_eq(check, c))
                .collect();
        }
        let k = self.crt.len();
        // Job j·k + i: result j modulo prime i.
        let (mut bases, mut want) = (Vec::with_capacity(k * ms.len()), Vec::new());
        let mut work = self.prime_work();
        for (c, m) in cs.iter().zip(ms) {
            self.push_mod_primes(m, &kernel, &mut bases, &mut work);
            self.push_mod_primes(c, &kernel, &mut want, &mut work);
        }
        let mut checks: Vec<Zeroizing<Vec<u64>>> = bases
            .iter()
            .map(|b| Zeroizing::new(vec![0u64; b.len()]))
            .collect();
        let refs: Vec<&[u64]> = bases.iter().map(|b| &b[..]).collect();
        self.pow
            .pow_many_public_vartime(&public.e_bytes, k, &refs, &mut checks, &kernel);
        checks
            .chunks(k)
            .zip(want.chunks(k))
            .map(|(got, want)| {
                got.iter()
                    .zip(want)
                    .fold(Choice::from(1), |ok, (g, w)| ok & nat::ct_eq(g, w))
            })
            .collect()
    }

    /// Appends `x mod rᵢ` for every prime `rᵢ` in order (each in its prime's limb count) to
    /// `out`, by the chunked reduction of the module doc's step 1; constant time. `work`:
    /// [`RsaPrivateKey::prime_work`].
    fn push_mod_primes(
        &self,
        x: &[u64],
        kernel: &Kernel<u64>,
        out: &mut Vec<Zeroizing<Vec<u64>>>,
        work: &mut [u64],
    ) {
        for pc in &self.crt {
            let mut r = Zeroizing::new(vec![0u64; pc.modulus.limbs()]);
            pc.reduce(&mut r, x, kernel, work);
            out.push(r);
        }
    }

    /// A zeroed work buffer for any prime's [`PrimeCrt::reduce`], [`PrimeCrt::mul`] and
    /// [`PrimeCrt::sqr`] (sized for the longest prime).
    pub(super) fn prime_work(&self) -> Zeroizing<Vec<u64>> {
        Zeroizing::new(vec![0u64; work_len(self.max_prime_limbs())])
    }

    /// The longest prime's limb count.
    fn max_prime_limbs(&self) -> usize {
        self.crt
            .iter()
            .map(|pc| pc.modulus.limbs())
            .max()
            .unwrap_or(1)
    }

    /// `m` as `size()` bytes if `passed` (its fault check), else [`Error::FaultDetected`].
    fn release(&self, passed: Choice, m: &[u64]) -> Result<Zeroizing<Vec<u8>>> {
        // Declassified: whether a fault occurred is public (the caller gets Ok or Err).
        if !crate::valgrind::declassify_choice(passed) {
            return Err(Error::FaultDetected);
        }
        let mut out = Zeroizing::new(vec![0u8; self.public_key().size()]);
        let _ = nat::to_be_bytes(m, &mut out);
        Ok(out)
    }

    /// `c^d mod n` with one fixed-window exponentiation over `d` padded to `n`'s length.
    fn non_crt_op(&self, c: &[u64]) -> Zeroizing<Vec<u64>> {
        let public = self.public_key();
        let modulus = public.modulus();
        let mut m = Zeroizing::new(vec![0u64; modulus.limbs()]);
        let window = fixed::window_for_bits(self.d_bytes().len() * 8);
        fixed::pow(&mut m, c, self.d_bytes(), modulus, &public.kernel(), window);
        m
    }

    /// Steps 1–3 of the module doc; returns `m` in `n`'s limb count. `fault` flips a bit of
    /// the first prime's partial result (test hook only).
    fn crt_op(&self, c: &[u64], fault: bool) -> Zeroizing<Vec<u64>> {
        let mut ms = self.crt_ops(&[c], &[fault], &[]);
        ms.pop().expect("one result per input")
    }

    /// [`RsaPrivateKey::crt_op`] for several inputs at once: every exponentiation of every
    /// input is a job for the backend's
    /// [`PowMany::pow_many`](crate::mont::backend::pow::PowMany::pow_many), which runs them side by side
    /// where it can (so a batch fills the registers one operation leaves empty). `faults[i]`
    /// flips a bit of input `i`'s first partial result (test hook; missing entries are false).
    /// `blinds[i]`, when present, blinds input `i` with that pair in CRT form (`blinding`'s
    /// module documentation): its parts are multiplied by `tᵉ` before step 2 and its results
    /// by `t⁻¹` after it.
    pub(crate) fn crt_ops(
        &self,
        cs: &[&[u64]],
        faults: &[bool],
        blinds: &[Option<Pair>],
    ) -> Vec<Zeroizing<Vec<u64>>> {
        let kernel = self.kernel();
        let k = self.crt.len();

        // Step 1: cᵢ = c mod rᵢ, job j = (input j / k, prime j % k).
        let mut cis: Vec<Zeroizing<Vec<u64>>> = Vec::with_capacity(cs.len() * k);
        let mut work = self.prime_work();
        for c in cs {
            self.push_mod_primes(c, &kernel, &mut cis, &mut work);
        }
        for (ci, pair) in cis.chunks_mut(k).zip(blinds) {
            if let Some(pair) = pair {
                self.blind_parts(pair, ci, &mut work);
            }
        }

        // Step 2: mᵢ = cᵢ^dᵢ mod rᵢ, in lanes where that pays, else one after another.
        let mut parts: Vec<Zeroizing<Vec<u64>>> = cis
            .iter()
            .map(|ci| Zeroizing::new(vec![0u64; ci.len()]))
            .collect();
        let exps: Vec<SecretExp<'_>> = self.crt.iter().map(PrimeCrt::secret_exp).collect();
        let bases: Vec<&[u64]> = cis.iter().map(|c| &c[..]).collect();
        self.pow.pow_many(&exps, &bases, &mut parts, &kernel);
        drop(bases);
        cis.clear();
        for (i, _) in faults.iter().take(cs.len()).enumerate().filter(|(_, &f)| f) {
            parts[i * k][0] ^= 1;
        }
        for (part, pair) in parts.chunks_mut(k).zip(blinds) {
            if let Some(pair) = pair {
                self.unblind_parts(pair, part, &mut work);
            }
        }

        // Step 3, per input.
        let ms = parts
            .chunks(k)
            .map(|p| self.garner(p, cs[0].len(), &mut work))
            .collect();
        for p in parts.iter_mut() {
            p.zeroize();
        }
        ms
    }

    /// Step 3: Garner in the order q, p, r₃, … of one input's parts; `m` in `nl` limbs.
    /// `work`: [`RsaPrivateKey::prime_work`].
    pub(super) fn garner(
        &self,
        parts: &[Zeroizing<Vec<u64>>],
        nl: usize,
        work: &mut [u64],
    ) -> Zeroizing<Vec<u64>> {
        let kernel = self.kernel();
        let total: usize = self
            .crt
            .iter()
            .map(|pc| pc.modulus.limbs())
            .sum::<usize>()
            .max(nl);
        let smax = self.max_prime_limbs();
        // acc (total limbs), then x, diff, tmp (up to smax limbs each), then prefix·h (up to
        // total limbs): one buffer.
        let mut buf = Zeroizing::new(vec![0u64; 2 * total + 3 * smax]);
        let (acc, rest) = buf.split_at_mut(total);
        let (xs, rest) = rest.split_at_mut(smax);
        let (diffs, rest) = rest.split_at_mut(smax);
        let (tmps, prods) = rest.split_at_mut(smax);
        acc[..parts[1].len()].copy_from_slice(&parts[1]);
        let order = core::iter::once(0).chain(2..self.crt.len());
        for i in order {
            let pc = &self.crt[i];
            let s = pc.modulus.limbs();
            let n = pc.modulus.n();
            let (x, diff, tmp) = (&mut xs[..s], &mut diffs[..s], &mut tmps[..s]);
            // x = m mod rᵢ (m is below the prefix product, so it has at most the prefix's
            // limbs, a public count); diff = (mᵢ − x) mod rᵢ with a masked add-back.
            pc.reduce(x, &acc[..pc.prefix.len()], &kernel, work);
            let borrow = nat::sub(diff, &parts[i], x);
            tmp.copy_from_slice(diff);
            nat::add_assign(tmp, n);
            ct::assign_masked(ct::mask_from_bit(borrow), diff, tmp);
            // h = REDC(diff, coeff·R) = diff·coeff mod rᵢ.
            let (h, scratch) = work.split_at_mut(s);
            (kernel.mul)(h, diff, &pc.coeff_mont, n, pc.modulus.n0(), scratch);
            // m += prefix·h (the sum stays below prefix·rᵢ ≤ n).
            let prod = &mut prods[..pc.prefix.len() + s];
            nat::mul(prod, &pc.prefix, h);
            nat::add_assign(acc, prod);
        }
        let mut m = Zeroizing::new(vec![0u64; nl]);
        m.copy_from_slice(&acc[..nl]);
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rsa::InputFault;
    use rand::SeedableRng;

    /// The fault check refuses a result that is right modulo one prime and wrong modulo the
    /// others (the Bellcore case), whichever prime it is, and passes the right one: by the
    /// primes (two-prime keys of up to `PRIME_CHECK_DIGITS` duo digits, on IFMA) and modulo
    /// `n` (the other shapes, or without IFMA).
    #[test]
    fn fault_check_refuses_a_result_wrong_modulo_one_prime() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        for (bits, primes) in [(1024, 2), (2048, 2), (1024, 3)] {
            let key = RsaPrivateKey::new_multi_prime(&mut rng, bits, primes).unwrap();
            let mut input = vec![0x5a; key.size()];
            input[0] = 0;
            let c = key.public_key().read_input(&input).unwrap();
            let m = key.crt_op(&c, false);
            assert!(
                bool::from(key.passes_check(&c, &m)),
                "{bits} bits {primes} primes"
            );
            for (i, pc) in key.crt.iter().enumerate() {
                // m ± r: the same modulo r, another value modulo every other prime.
                let mut r = vec![0u64; m.len()];
                r[..pc.modulus.limbs()].copy_from_slice(pc.modulus.n());
                let mut bad = m.clone();
                if bool::from(nat::ct_lt(&m, &r)) {
                    nat::add_assign(&mut bad, &r);
                } else {
                    nat::sub_assign(&mut bad, &r);
                }
                assert!(
                    !bool::from(key.passes_check(&c, &bad)),
                    "{bits} bits {primes} primes: wrong except modulo prime {i}"
                );
            }
        }
    }

    /// A batch checked modulo the primes (a modulus beyond the lanes' digit counts, primes
    /// within them) refuses a result that is right modulo one prime only, in any position
    /// and for any prime, and passes the others; without IFMA the same verdicts come from the
    /// check modulo `n`.
    #[test]
    fn batch_fault_check_refuses_a_result_wrong_modulo_one_prime() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(22);
        for primes in [2, 3] {
            let key = RsaPrivateKey::new_multi_prime(&mut rng, 2176, primes).unwrap();
            let kernel = key.kernel();
            if kernel.lanes {
                assert!(
                    !key.public_key().public_pow.runs_many() && key.pow.runs_many_public(&kernel),
                    "{primes} primes: the check modulo the primes runs"
                );
            }
            let cs: Vec<Zeroizing<Vec<u64>>> = (1..6u8)
                .map(|i| {
                    let mut input = vec![i.wrapping_mul(0x5b); key.size()];
                    input[0] = 0;
                    key.public_key().read_input(&input).unwrap()
                })
                .collect();
            let ms: Vec<Zeroizing<Vec<u64>>> = cs.iter().map(|c| key.crt_op(c, false)).collect();
            let all = key.batch_passes(&cs, &ms);
            assert!(all.iter().all(|&p| bool::from(p)), "{primes} primes");
            for j in [0, 3] {
                for (i, pc) in key.crt.iter().enumerate() {
                    // m ± r: the same modulo r, another value modulo every other prime.
                    let m = &ms[j];
                    let mut r = vec![0u64; m.len()];
                    r[..pc.modulus.limbs()].copy_from_slice(pc.modulus.n());
                    let mut bad = ms.clone();
                    if bool::from(nat::ct_lt(m, &r)) {
                        nat::add_assign(&mut bad[j], &r);
                    } else {
                        nat::sub_assign(&mut bad[j], &r);
                    }
                    let got: Vec<bool> = key
                        .batch_passes(&cs, &bad)
                        .iter()
                        .map(|&p| bool::from(p))
                        .collect();
                    let want: Vec<bool> = (0..cs.len()).map(|t| t != j).collect();
                    assert_eq!(
                        got, want,
                        "{primes} primes: item {j} wrong except modulo {i}"
                    );
                }
            }
        }
    }

    /// Each item of a batch gets its own outcome: out-of-range inputs and faulted lanes fail
    /// alone, every other item is the single operation's result, with and without blinding.
    #[test]
    fn each_item_of_a_batch_has_its_own_result() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20);
        for (bits, primes) in [(1024, 2), (1024, 3), (2048, 2), (2176, 2)] {
            let key = RsaPrivateKey::new_multi_prime(&mut rng, bits, primes).unwrap();
            let k = key.size();
            let n = key.n().to_be_bytes();
            let mut inputs: Vec<Vec<u8>> = (0..11u8)
                .map(|i| {
                    let mut v = vec![i.wrapping_mul(37); k];
                    v[0] = 0;
                    v
                })
                .collect();
            inputs[2] = n.to_vec(); // = n: out of range
            inputs[7] = vec![1; k + 1]; // too long
            let refs: Vec<&[u8]> = inputs.iter().map(|v| &v[..]).collect();
            let mut faults = vec![false; refs.len()];
            faults[0] = true;
            faults[5] = true;
            faults[7] = true; // on a rejected input: nothing to fault
            for blinded in [false, true] {
                let r: Option<&mut dyn CryptoRngCore> = if blinded { Some(&mut rng) } else { None };
                let got = key.raw_private_each(r, &refs, &faults);
                assert_eq!(got.len(), refs.len());
                for (i, g) in got.iter().enumerate() {
                    let too_long = InputFault::TooLong { len: k + 1, max: k };
                    let want = match i {
                        2 => Err(Error::InputOutOfRange(InputFault::NotBelowModulus)),
                        7 => Err(Error::InputOutOfRange(too_long)),
                        0 | 5 => Err(Error::FaultDetected),
                        _ => Ok(key.raw_private(None, refs[i]).unwrap()),
                    };
                    assert_eq!(g, &want, "{bits} bits {primes} primes item {i}");
                }
            }
            // Without faults the all-or-nothing batch fails on the first bad input...
            assert_eq!(
                key.raw_private_batch(None, &refs),
                Err(Error::InputOutOfRange(InputFault::NotBelowModulus))
            );
            // ...and an empty batch is empty.
            assert!(key.raw_private_each(None, &[], &[]).is_empty());
        }
    }
}

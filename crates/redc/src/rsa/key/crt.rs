//! One prime's precomputed CRT data ([`PrimeCrt`]): its [`Modulus`], `dᵢ = d mod (rᵢ − 1)`
//! as big-endian bytes of `rᵢ`'s byte length, the window, the Garner coefficient in Montgomery
//! form and its prefix product, and `K = W^(s−1)·R mod rᵢ` for the division-free reduction
//! `c mod rᵢ` (steps 1 and 3 of `private`'s module documentation) where `rᵢ` does not fill its
//! top limb.

use alloc::vec;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::super::uint::BoxedUint;
use crate::exp::fixed;
use crate::mont::backend::pow::SecretExp;
use crate::mont::{Kernel, Modulus};
use crate::nat;
use crate::nat::arith;
use crate::rsa::Result;

/// One prime's precomputed CRT data.
#[derive(Clone)]
pub(super) struct PrimeCrt {
    pub(super) modulus: Modulus<u64>,
    /// `dᵢ` big-endian, padded to `rᵢ`'s byte length.
    pub(super) exp: Zeroizing<Vec<u8>>,
    pub(super) window: u32,
    pub(super) d_i: BoxedUint,
    /// The Garner coefficient (`qInv` for `p`, `tᵢ` for `i ≥ 3`; zero for `q`).
    pub(super) coeff: BoxedUint,
    pub(super) coeff_mont: Zeroizing<Vec<u64>>,
    /// The product of the primes before this one in Garner order (`q` for `p`, `p·q` for
    /// `r₃`, …; `1` for `q`), trimmed.
    pub(super) prefix: Zeroizing<Vec<u64>>,
    pub(super) has_coeff: bool,
    /// `K = W^(s−1)·R mod rᵢ`.
    pub(super) chunk_k: Zeroizing<Vec<u64>>,
}

impl PrimeCrt {
    /// Precomputes prime `r`'s data from `d` and its Garner prefix product `before`
    /// (`has_coeff` false for `q`, the first prime of the recombination).
    ///
    /// Constant time in the values: `dᵢ` by the bitwise [`nat::rem`], the coefficient
    /// `before⁻¹ mod r` by Fermat's little theorem (`before^(r−2)`, fixed window); a composite
    /// `r` gives a wrong coefficient, which [`PrimeCrt::coefficient_ok`] then rejects.
    pub(super) fn new(
        r: &[u64],
        d: &[u64],
        before: &[u64],
        has_coeff: bool,
        kernel: &Kernel<u64>,
    ) -> Result<Self> {
        let modulus = Modulus::new(r)?;
        let s = modulus.limbs();
        let nbytes = modulus.bits().div_ceil(8);
        let window = fixed::window_for_bits(nbytes * 8);
        let mut scratch = Zeroizing::new(modulus.scratch());

        let rm1 = Zeroizing::new(arith::sub_u64(modulus.n(), 1));
        let d_i = Zeroizing::new(arith::rem(d, &rm1));
        let mut exp = Zeroizing::new(vec![0u8; nbytes]);
        let _ = nat::to_be_bytes(&d_i, &mut exp);

        // K = to_mont(W^(s−1)); W^(s−1) < r because r has s limbs, is odd and s ≥ 2.
        let mut w_pow = vec![0u64; s];
        w_pow[s - 1] = 1;
        let mut chunk_k = Zeroizing::new(vec![0u64; s]);
        modulus.to_mont(&mut chunk_k, &w_pow, kernel, &mut scratch);

        let mut coeff = Zeroizing::new(vec![0u64; s]);
        let mut coeff_mont = Zeroizing::new(vec![0u64; s]);
        if has_coeff {
            let b = Zeroizing::new(arith::rem(before, modulus.n()));
            let rm2 = Zeroizing::new(arith::sub_u64(modulus.n(), 2));
            let mut rm2_bytes = Zeroizing::new(vec![0u8; nbytes]);
            let _ = nat::to_be_bytes(&rm2, &mut rm2_bytes);
            fixed::pow(&mut coeff, &b, &rm2_bytes, &modulus, kernel, window);
            modulus.to_mont(&mut coeff_mont, &coeff, kernel, &mut scratch);
        }
        Ok(PrimeCrt {
            exp,
            window,
            d_i: BoxedUint::from_limbs(&d_i),
            coeff: BoxedUint::from_limbs(&coeff),
            coeff_mont,
            prefix: Zeroizing::new(nat::trim_vartime(before).to_vec()),
            has_coeff,
            chunk_k,
            modulus,
        })
    }

    /// This prime's exponentiation `x ↦ x^dᵢ mod rᵢ` for the backend.
    pub(super) fn secret_exp(&self) -> SecretExp<'_> {
        SecretExp {
            modulus: &self.modulus,
            exp: &self.exp,
            window: self.window,
        }
    }

    /// Test hook: every secret buffer of this prime's data (see
    /// `RsaPrivateKey::for_each_secret_region`).
    #[cfg(feature = "test-hooks")]
    pub(super) fn for_each_secret_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
        self.modulus.for_each_region(f);
        f(self.exp.as_ptr(), self.exp.len());
        for v in [
            self.d_i.as_limbs(),
            self.coeff.as_limbs(),
            &self.coeff_mont[..],
            &self.prefix[..],
            &self.chunk_k[..],
        ] {
            f(v.as_ptr() as *const u8, v.len() * 8);
        }
    }

    /// Whether `coeff · prefix ≡ 1 (mod rᵢ)` (true for `q`, which has no coefficient).
    pub(super) fn coefficient_ok(&self, kernel: &Kernel<u64>) -> bool {
        if !self.has_coeff {
            return true;
        }
        let b = Zeroizing::new(arith::rem(&self.prefix, self.modulus.n()));
        let prod = Zeroizing::new(self.modulus.mul_mod(self.coeff.as_limbs(), &b, kernel));
        arith::is_one(&prod)
    }

    /// `out = x mod rᵢ` (`out`: `s` limbs; `x`: any length) by the chunked REDC reduction of
    /// the module doc, step 1: `x` is read in chunks from the top, and `out ← REDC(out, K) +
    /// chunk` folds in each one after the first. Where `rᵢ` fills its top limb (`2^(64s−1) <
    /// rᵢ`, the primes of every key whose size is a multiple of 128 bits) the chunks are `s`
    /// limbs and `K = R² mod rᵢ`: each chunk is below `R < 2rᵢ`, so one masked subtraction
    /// brings it below `rᵢ` before it is added. Otherwise they are `s − 1` limbs, each below
    /// `W^(s−1) ≤ rᵢ`, and `K = W^(s−1)·R mod rᵢ`. Constant time: the chunk size depends on
    /// the prime's bit length, the number of REDCs and masked subtractions on the lengths.
    /// `work`: at least [`work_len`]`(s)` limbs (one buffer serves every prime of at most as
    /// many).
    pub(super) fn reduce(&self, out: &mut [u64], x: &[u64], k: &Kernel<u64>, work: &mut [u64]) {
        let s = self.modulus.limbs();
        let n = self.modulus.n();
        let full = self.modulus.bits() == 64 * s;
        let (chunk, factor): (usize, &[u64]) = if full {
            (s, self.modulus.rr())
        } else {
            (s - 1, &self.chunk_k)
        };
        let (tmp, scratch) = work.split_at_mut(s);
        out.fill(0);
        let chunks = x.len().div_ceil(chunk);
        if chunks == 0 {
            return;
        }
        let top = (chunks - 1) * chunk;
        out[..x.len() - top].copy_from_slice(&x[top..]);
        if full {
            nat::reduce_once(out, 0, n, tmp);
        }
        for j in (0..chunks - 1).rev() {
            let lo = j * chunk;
            // out·W^chunk mod r, then add the chunk (below r): the sum is below 2r.
            (k.mul)(tmp, out, factor, n, self.modulus.n0(), scratch);
            out.copy_from_slice(tmp);
            let y = &mut scratch[..s];
            y.fill(0);
            y[..chunk].copy_from_slice(&x[lo..lo + chunk]);
            if full {
                nat::reduce_once(y, 0, n, tmp);
            }
            let carry = nat::add_assign(out, y);
            nat::reduce_once(out, carry, n, tmp);
        }
    }

    /// `x ← REDC(x, f)` modulo this prime (`x`, `f`: `s` limbs, `< rᵢ`): `x·f·R⁻¹ mod rᵢ`.
    /// `work` as for [`PrimeCrt::reduce`].
    pub(super) fn mul(&self, x: &mut [u64], f: &[u64], k: &Kernel<u64>, work: &mut [u64]) {
        let m = &self.modulus;
        let (tmp, scratch) = work.split_at_mut(m.limbs());
        (k.mul)(tmp, x, f, m.n(), m.n0(), scratch);
        x.copy_from_slice(tmp);
    }

    /// `x ← REDC(x, x)` modulo this prime; `work` as for [`PrimeCrt::reduce`]. Only the
    /// blinding pair's cache squares (it needs `std`'s lock).
    #[cfg(feature = "std")]
    pub(super) fn sqr(&self, x: &mut [u64], k: &Kernel<u64>, work: &mut [u64]) {
        let m = &self.modulus;
        let (tmp, scratch) = work.split_at_mut(m.limbs());
        (k.sqr)(tmp, x, m.n(), m.n0(), scratch);
        x.copy_from_slice(tmp);
    }
}

/// Limbs of a [`PrimeCrt`] work buffer for an `s`-limb prime: a result and a kernel's scratch.
pub(super) const fn work_len(s: usize) -> usize {
    s + crate::mont::scratch_len(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mont::backend::Backend;
    use num_bigint::{BigUint, RandBigInt};
    use rand::SeedableRng;

    fn limbs(x: &BigUint, s: usize) -> Vec<u64> {
        let mut v = x.to_u64_digits();
        v.resize(s, 0);
        v
    }

    /// `reduce` is `x mod r` for every length of `x` from empty to past three chunks
    /// (boundaries included), with the top limbs all ones or random, on every backend, for
    /// primes that fill their top limb and primes that do not.
    #[test]
    fn chunked_reduction_is_the_remainder() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
        for backend in Backend::available() {
            let kernel = backend.kernel().unwrap();
            // Primes filling their top limb (chunks of s limbs) and 5 bits short of it (s − 1).
            for (s, short) in [2usize, 3, 8, 16, 24]
                .into_iter()
                .flat_map(|s| [(s, 0), (s, 5)])
            {
                let top = BigUint::from(1u8) << (64 * s - 1 - short);
                let r = rng.gen_biguint((64 * s - short) as u64) | &top | BigUint::from(1u8);
                let d = rng.gen_biguint_below(&r);
                let pc = PrimeCrt::new(&limbs(&r, s), &limbs(&d, s), &[1], false, &kernel).unwrap();
                let mut work = Zeroizing::new(vec![0u64; work_len(s)]);
                for len in 0..=3 * s + 2 {
                    for ones in [false, true] {
                        let x = if ones {
                            (BigUint::from(1u8) << (64 * len)) - 1u8
                        } else {
                            rng.gen_biguint((64 * len) as u64)
                        };
                        let mut out = vec![u64::MAX; s];
                        pc.reduce(&mut out, &limbs(&x, len), &kernel, &mut work);
                        assert_eq!(
                            out,
                            limbs(&(&x % &r), s),
                            "{backend:?}, {s}-limb prime {short} bits short, {len}-limb x, all ones {ones}"
                        );
                    }
                }
            }
        }
    }
}

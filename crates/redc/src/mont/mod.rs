//! Montgomery arithmetic: the modulus, every REDC algorithm of the papers, the dedicated
//! squarings, and the kernel contract the fast backends satisfy.
//!
//! # The kernel contract
//!
//! A multiplication kernel is a plain function of type [`MulFn`]:
//! `mul(out, a, b, n, n0, scratch)` computes `out = a·b·R⁻¹ mod n` where `R = W^s`, `s = n.len()`.
//!
//! - `a`, `b`, `n` and `out` all have `s` limbs; `n` is odd; `n0 = −n⁻¹ mod W`.
//! - Inputs MUST be fully reduced (`a, b < n`); the output is fully reduced (`out < n`).
//! - `scratch` has at least [`scratch_len(s)`](scratch_len) limbs; its contents on entry and exit
//!   are unspecified (it may hold intermediate values: callers handling secrets zeroize it).
//! - No branch, loop bound or memory address depends on the values of `a`, `b` or `n`: only on
//!   `s`. Every variant ends with the same masked final subtraction ([`crate::nat::final_sub`]).
//!
//! A squaring kernel ([`SqrFn`]) has the same contract with `b = a`.
//!
//! Every kernel, whatever its algorithm or backend, gives the bit-identical result, since the
//! fully reduced `a·b·R⁻¹ mod n` is unique.
//!
//! # Almost Montgomery kernels
//!
//! A backend MAY also offer an "almost Montgomery" pair ([`Kernel::almost`], Gueron's AMM):
//! the same signatures, but inputs only need `a, b < R`, and the output is `< R` and congruent
//! to `a·b·R⁻¹` modulo `n`, not necessarily `< n`. With `u = (a·b + m·n)/R < R + n`, the
//! final step subtracts `n` exactly when `u ≥ R`, i.e. when the carry word out of the top is
//! set, with the same masked form: one pass instead of a trial subtraction and a select.
//! Only the fixed-window exponentiation uses it, between a fully reduced table and one
//! fully reducing conversion out of the Montgomery domain at the end: a full kernel given
//! `a < R` and `b < n` still returns `a·b·R⁻¹ mod n < n` (then `u < b + n < 2n`).

use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::nat;
use crate::word::Word;
use zeroize::Zeroize;

pub mod algo;
pub mod backend;
pub mod sqr;

/// `out = a·b·R⁻¹ mod n`; see the module's kernel contract.
pub type MulFn<W> = fn(out: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, scratch: &mut [W]);

/// `out = a·a·R⁻¹ mod n`; see the module's kernel contract.
pub type SqrFn<W> = fn(out: &mut [W], a: &[W], n: &[W], n0: W, scratch: &mut [W]);

/// Scratch limbs every kernel may use for an `s`-limb modulus (GMP's `_itch`).
pub const fn scratch_len(s: usize) -> usize {
    2 * s + 4
}

/// A multiplication and a squaring kernel that the exponentiation layer is handed.
///
/// Opaque: a kernel is only ever made of the library's own functions, by
/// [`Kernel::portable`] (one algorithm of the papers) or
/// [`Backend::kernel`](backend::Backend::kernel) (a backend's production kernel), so no code
/// outside the crate can put a function of its own into a key. Its parts can be read (and
/// called) through the accessors.
///
/// ```
/// use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};
///
/// let m = Modulus::<u64>::new(&[0xffff_ffff_ffff_ffc5])?; // the largest 64-bit prime
/// let k = Kernel::portable(Algorithm::Fios, SqrVariant::Koc);
/// assert_eq!(k.name(), "fios");
/// // REDC(3, 5) = 3·5·R⁻¹ mod n; with R² mod n, REDC(REDC(3, 5), R²) = 15.
/// let x = m.mont_mul(&[3], &[5], &k);
/// assert_eq!(m.mont_mul(&x, m.rr(), &k), [15]);
/// # Ok::<(), redc::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Kernel<W: Word> {
    /// Montgomery multiplication.
    pub(crate) mul: MulFn<W>,
    /// Montgomery squaring.
    pub(crate) sqr: SqrFn<W>,
    /// A short name for reports (`"cios+modern"`, `"mulx"`, ...).
    pub(crate) name: &'static str,
    /// The almost Montgomery multiplication and squaring (see the module documentation), if
    /// the backend has them.
    pub(crate) almost: Option<(MulFn<W>, SqrFn<W>)>,
    /// Whether the private operation may run its independent exponentiations side by side in
    /// AVX-512 IFMA lanes (`backend::ifma`). Only the ifma backend's kernel sets it, after the
    /// CPU proved it has the extensions; `mul` and `sqr` are then the MULX kernel's.
    pub(crate) lanes: bool,
}

impl<W: Word> Kernel<W> {
    /// The Montgomery multiplication (the kernel contract of the module documentation).
    pub fn mul(&self) -> MulFn<W> {
        self.mul
    }

    /// The Montgomery squaring (the kernel contract of the module documentation).
    pub fn sqr(&self) -> SqrFn<W> {
        self.sqr
    }

    /// A short name for reports (`"cios"`, `"portable"`, `"mulx"`, `"ifma"`, ...).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The almost Montgomery multiplication and squaring (see the module documentation), if
    /// the kernel has them.
    pub fn almost(&self) -> Option<(MulFn<W>, SqrFn<W>)> {
        self.almost
    }

    /// Whether the private operation runs its exponentiations side by side in AVX-512 IFMA
    /// lanes with this kernel (the ifma backend's, only after the CPU proved the extensions).
    pub fn lanes(&self) -> bool {
        self.lanes
    }

    /// The portable kernel made of one REDC algorithm and one squaring variant.
    pub fn portable(algo: Algorithm, sqr: SqrVariant) -> Self {
        Kernel {
            mul: algo.mul_fn(),
            sqr: sqr.sqr_fn(),
            name: algo.name(),
            almost: None,
            lanes: false,
        }
    }

    /// The multiplication and squaring an exponentiation loop may run on: the almost pair when
    /// the kernel has one, else `mul` and `sqr`. Values in the loop are then only `< R`, so the
    /// caller's last step must be a full `mul` with a fully reduced other operand (by 1 to leave
    /// the Montgomery domain, say), which returns a fully reduced result.
    pub fn loop_pair(&self) -> (MulFn<W>, SqrFn<W>) {
        self.almost.unwrap_or((self.mul, self.sqr))
    }
}

/// The REDC algorithms of papers 002 and 003 (see the crate's References).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Separated Operand Scanning (Koç et al.): multiply fully, then reduce.
    Sos,
    /// Coarsely Integrated Operand Scanning: a multiplication row, then a reduction row.
    Cios,
    /// Finely Integrated Operand Scanning, Koç's form with the ADD propagation.
    Fios,
    /// Finely Integrated Product Scanning: column by column with a three-word accumulator.
    Fips,
    /// Coarsely Integrated Hybrid Scanning.
    Cihs,
    /// Itoh's pipelined REDC: FIOS with two independent carry chains.
    Itoh,
    /// Furukawa et al.'s enhanced Itoh: three chains, the lower multiply never waits.
    ItohEnhanced,
}

impl Algorithm {
    /// Every algorithm, in the papers' order.
    pub const ALL: [Algorithm; 7] = [
        Algorithm::Sos,
        Algorithm::Cios,
        Algorithm::Fios,
        Algorithm::Fips,
        Algorithm::Cihs,
        Algorithm::Itoh,
        Algorithm::ItohEnhanced,
    ];

    /// The CLI name (`sos`, `cios`, `fios`, `fips`, `cihs`, `itoh`, `itoh-enhanced`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Sos => "sos",
            Algorithm::Cios => "cios",
            Algorithm::Fios => "fios",
            Algorithm::Fips => "fips",
            Algorithm::Cihs => "cihs",
            Algorithm::Itoh => "itoh",
            Algorithm::ItohEnhanced => "itoh-enhanced",
        }
    }

    /// Parses a CLI name (case-insensitive).
    pub fn from_name(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or(Error::UnknownName)
    }

    /// The portable kernel of this algorithm.
    pub fn mul_fn<W: Word>(self) -> MulFn<W> {
        match self {
            Algorithm::Sos => algo::sos::mont_mul::<W>,
            Algorithm::Cios => algo::cios::mont_mul::<W>,
            Algorithm::Fios => algo::fios::mont_mul::<W>,
            Algorithm::Fips => algo::fips::mont_mul::<W>,
            Algorithm::Cihs => algo::cihs::mont_mul::<W>,
            Algorithm::Itoh => algo::itoh::mont_mul::<W>,
            Algorithm::ItohEnhanced => algo::itoh_enhanced::mont_mul::<W>,
        }
    }
}

/// The dedicated Montgomery squarings of paper 004 (Fig. 1–5) and a modern sixth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SqrVariant {
    /// The multiplication routine with `b = a` (CIOS).
    Generic,
    /// Koç's squaring: SOS-shaped, each off-diagonal product doubled as it is added.
    Koc,
    /// Improved SR: diagonal first, then off-diagonal once doubled, `prevcar` carries.
    Improved,
    /// SR with the off-diagonal and reduction rows in one merged outer loop.
    Merged,
    /// SR with coupled inner loops.
    Coupled,
    /// Sum the off-diagonal products once, double with one shift, add the diagonal, reduce.
    Modern,
}

impl SqrVariant {
    /// Every variant, in the paper's order.
    pub const ALL: [SqrVariant; 6] = [
        SqrVariant::Generic,
        SqrVariant::Koc,
        SqrVariant::Improved,
        SqrVariant::Merged,
        SqrVariant::Coupled,
        SqrVariant::Modern,
    ];

    /// The CLI name (`generic`, `koc`, `improved`, `merged`, `coupled`, `modern`).
    pub fn name(self) -> &'static str {
        match self {
            SqrVariant::Generic => "generic",
            SqrVariant::Koc => "koc",
            SqrVariant::Improved => "improved",
            SqrVariant::Merged => "merged",
            SqrVariant::Coupled => "coupled",
            SqrVariant::Modern => "modern",
        }
    }

    /// Parses a CLI name (case-insensitive).
    pub fn from_name(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or(Error::UnknownName)
    }

    /// The portable kernel of this variant.
    pub fn sqr_fn<W: Word>(self) -> SqrFn<W> {
        match self {
            SqrVariant::Generic => sqr::generic::mont_sqr::<W>,
            SqrVariant::Koc => sqr::koc::mont_sqr::<W>,
            SqrVariant::Improved => sqr::improved::mont_sqr::<W>,
            SqrVariant::Merged => sqr::merged::mont_sqr::<W>,
            SqrVariant::Coupled => sqr::coupled::mont_sqr::<W>,
            SqrVariant::Modern => sqr::modern::mont_sqr::<W>,
        }
    }
}

/// An odd modulus `n ≥ 3` with its Montgomery constants.
///
/// `n` may be secret (an RSA prime): set-up is constant time in its value, and only its limb
/// count `s` (public: the key size) decides loop bounds.
#[derive(Clone)]
pub struct Modulus<W: Word> {
    n: Vec<W>,
    n0: W,
    rr: Vec<W>,
    one: Vec<W>,
    bits: usize,
}

impl<W: Word> core::fmt::Debug for Modulus<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The modulus may be a secret prime: print only its public size.
        f.debug_struct("Modulus")
            .field("limbs", &self.n.len())
            .finish_non_exhaustive()
    }
}

impl<W: Word> Drop for Modulus<W> {
    fn drop(&mut self) {
        // This modulus may be a secret prime.
        self.n.zeroize();
        self.rr.zeroize();
        self.one.zeroize();
        // n0 = −n⁻¹ mod W gives away n mod W; zeroize it too (found by tests/zeroize.rs).
        self.n0.zeroize();
    }
}

/// `−n0⁻¹ mod W` by Newton–Hensel iteration: `x ← x·(2 − n0·x)` doubles the number of correct
/// low bits; `x = n0` is already correct to 3 bits for odd `n0` (`n0² ≡ 1 mod 8`).
pub fn neg_inv<W: Word>(n0: W) -> W {
    let two = W::from_u64(2);
    let mut x = n0;
    let mut correct = 3;
    while correct < W::BITS {
        x = x.wrapping_mul(two.wrapping_sub(n0.wrapping_mul(x)));
        correct *= 2;
    }
    x.wrapping_neg()
}

impl<W: Word> Modulus<W> {
    /// Test hook: calls `f(address, byte length)` for each buffer that is secret when the
    /// modulus is a secret prime (`n`, `n0`, `R² mod n`, `R mod n`), for the secret-taint and
    /// zeroization tests.
    #[cfg(feature = "test-hooks")]
    pub(crate) fn for_each_region(&self, f: &mut dyn FnMut(*const u8, usize)) {
        let w = core::mem::size_of::<W>();
        for v in [&self.n, &self.rr, &self.one] {
            f(v.as_ptr() as *const u8, v.len() * w);
        }
        f(&self.n0 as *const W as *const u8, w);
    }

    /// Builds the modulus from little-endian limbs; leading zero limbs are dropped (the limb
    /// count `s` is what `n` needs). Rejects even `n` and `n < 3`.
    pub fn new(limbs: &[W]) -> Result<Self> {
        let n = nat::trim_vartime(limbs).to_vec();
        if n.is_empty() || n[0].and(W::ONE) == W::ZERO {
            return Err(if n.iter().all(|&x| x == W::ZERO) {
                Error::ModulusTooSmall
            } else {
                Error::EvenModulus
            });
        }
        if n.len() == 1 && n[0].to_u64() < 3 {
            return Err(Error::ModulusTooSmall);
        }
        let s = n.len();
        let bits = nat::bit_len_vartime(&n);
        let n0 = neg_inv(n[0]);
        // R mod n, then R² mod n, by s·w modular doublings each (constant time in n's value).
        let mut x = vec![W::ZERO; s];
        x[0] = W::ONE;
        let mut tmp = vec![W::ZERO; s];
        let total = s * W::BITS as usize;
        let mut one = Vec::new();
        for i in 0..2 * total {
            let top = nat::shl1_in(&mut x, W::ZERO);
            nat::reduce_once(&mut x, top, &n, &mut tmp);
            if i + 1 == total {
                one = x.clone();
            }
        }
        Ok(Modulus {
            n,
            n0,
            rr: x,
            one,
            bits,
        })
    }

    /// Builds the modulus from big-endian bytes.
    pub fn from_be_bytes(bytes: &[u8]) -> Result<Self> {
        let len = nat::limbs_for_bits(bytes.len() * 8, W::BITS).max(1);
        let limbs = nat::from_be_bytes_vec::<W>(bytes, len).ok_or(Error::OperandTooLarge)?;
        Self::new(&limbs)
    }

    /// The limbs of `n` (`s` of them).
    pub fn n(&self) -> &[W] {
        &self.n
    }
    /// `n' = −n⁻¹ mod W`.
    pub fn n0(&self) -> W {
        self.n0
    }
    /// `R² mod n`.
    pub fn rr(&self) -> &[W] {
        &self.rr
    }
    /// `R mod n`: one in the Montgomery domain.
    pub fn one(&self) -> &[W] {
        &self.one
    }
    /// The limb count `s`.
    pub fn limbs(&self) -> usize {
        self.n.len()
    }
    /// The bit length of `n`.
    pub fn bits(&self) -> usize {
        self.bits
    }
    /// A zeroed scratch buffer of [`scratch_len`] limbs for this modulus.
    pub fn scratch(&self) -> Vec<W> {
        vec![W::ZERO; scratch_len(self.n.len())]
    }

    /// Reads an operand of any length into `s` limbs, failing unless it is `< n`.
    /// Constant time in the value except for the final accept/reject.
    pub fn operand(&self, limbs: &[W]) -> Result<Vec<W>> {
        let s = self.limbs();
        let mut v = vec![W::ZERO; s];
        let mut high = W::ZERO;
        for (i, &x) in limbs.iter().enumerate() {
            if i < s {
                v[i] = x;
            } else {
                high = high.or(x);
            }
        }
        if high != W::ZERO || !bool::from(nat::ct_lt(&v, &self.n)) {
            return Err(Error::OperandTooLarge);
        }
        Ok(v)
    }

    /// `out = a·R mod n` (into the Montgomery domain): `REDC(a, R²)`. `a < n`.
    pub fn to_mont(&self, out: &mut [W], a: &[W], k: &Kernel<W>, scratch: &mut [W]) {
        (k.mul)(out, a, &self.rr, &self.n, self.n0, scratch);
    }

    /// `out = a·R⁻¹ mod n` (out of the Montgomery domain): `REDC(a, 1)`. `a < n`.
    pub fn from_mont(&self, out: &mut [W], a: &[W], k: &Kernel<W>, scratch: &mut [W]) {
        let mut unit = vec![W::ZERO; self.limbs()];
        unit[0] = W::ONE;
        (k.mul)(out, a, &unit, &self.n, self.n0, scratch);
    }

    /// `a·b·R⁻¹ mod n` with kernel `k`, allocating: for tests and the CLI, not hot paths.
    pub fn mont_mul(&self, a: &[W], b: &[W], k: &Kernel<W>) -> Vec<W> {
        let mut out = vec![W::ZERO; self.limbs()];
        let mut scratch = self.scratch();
        (k.mul)(&mut out, a, b, &self.n, self.n0, &mut scratch);
        out
    }

    /// `a·a·R⁻¹ mod n` with kernel `k`, allocating: for tests and the CLI, not hot paths.
    pub fn mont_sqr(&self, a: &[W], k: &Kernel<W>) -> Vec<W> {
        let mut out = vec![W::ZERO; self.limbs()];
        let mut scratch = self.scratch();
        (k.sqr)(&mut out, a, &self.n, self.n0, &mut scratch);
        out
    }

    /// `a·b mod n` through the Montgomery domain, allocating.
    pub fn mul_mod(&self, a: &[W], b: &[W], k: &Kernel<W>) -> Vec<W> {
        let mut scratch = self.scratch();
        let mut am = vec![W::ZERO; self.limbs()];
        self.to_mont(&mut am, a, k, &mut scratch);
        // REDC(a·R, b) = a·b mod n.
        self.mont_mul(&am, b, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neg_inv_is_inverse() {
        for n0 in [1u64, 3, 5, 0xffff_ffff_ffff_ffff, 0x1234_5678_9abc_def1] {
            assert_eq!(n0.wrapping_mul(neg_inv(n0)), u64::MAX);
        }
        for n0 in [1u32, 3, 0xffff_ffff, 0x8000_0001] {
            assert_eq!(n0.wrapping_mul(neg_inv(n0)), u32::MAX);
        }
    }

    #[test]
    fn rejects_bad_moduli() {
        assert_eq!(Modulus::<u64>::new(&[4]).unwrap_err(), Error::EvenModulus);
        assert_eq!(
            Modulus::<u64>::new(&[0, 0]).unwrap_err(),
            Error::ModulusTooSmall
        );
        assert_eq!(
            Modulus::<u64>::new(&[1]).unwrap_err(),
            Error::ModulusTooSmall
        );
        assert_eq!(
            Modulus::<u32>::new(&[]).unwrap_err(),
            Error::ModulusTooSmall
        );
        assert!(Modulus::<u32>::new(&[3, 0, 0]).is_ok());
    }

    #[test]
    fn constants_small() {
        let m = Modulus::<u32>::new(&[0xffff_fffb]).unwrap();
        let n = 0xffff_fffbu64;
        assert_eq!(m.one()[0] as u64, (1u64 << 32) % n);
        assert_eq!(m.rr()[0] as u128, (1u128 << 64) % n as u128);
    }
}

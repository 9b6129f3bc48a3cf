//! The fast 64-bit kernels behind one contract, chosen once at run time.
//!
//! Every backend provides a [`Kernel<u64>`] satisfying the kernel contract of [`crate::mont`] and
//! gives results bit-identical to the portable one. Which one runs is decided by
//! [`Backend::active`]: the `REDC_BACKEND` environment variable (`portable`, `mulx`, `ifma` or
//! `auto`; with the `std` feature) if set, otherwise the best the CPU supports. The variable is
//! read once per process; an unknown or unavailable value is an error
//! ([`Error::UnknownBackendEnv`], [`Error::UnavailableBackendEnv`]) that every key
//! construction reports, never a silent fallback.
//!
//! A key runs on the active backend unless told otherwise with
//! [`RsaPrivateKey::set_backend`](crate::rsa::RsaPrivateKey::set_backend):
//!
//! ```
//! use redc::mont::backend::Backend;
//!
//! // The backends this CPU runs, slowest first: always `portable`, then `mulx` and `ifma`
//! // where the CPU has BMI2/ADX and AVX-512 IFMA.
//! let names: Vec<&str> = Backend::available().map(Backend::name).collect();
//! assert_eq!(names[0], "portable");
//! assert_eq!(Backend::from_name("MULX")?, Backend::Mulx);
//! assert!(Backend::from_name("avx2").is_err());
//! # Ok::<(), redc::Error>(())
//! ```

use zeroize::Zeroizing;

use crate::error::{Error, Result};
use crate::mont::{Algorithm, Kernel, Modulus, SqrVariant};

pub mod cpu;
#[cfg(target_arch = "x86_64")]
pub mod ifma;
#[cfg(target_arch = "x86_64")]
pub mod ifma_duo;
#[cfg(target_arch = "x86_64")]
pub mod ifma_pair;
#[cfg(target_arch = "x86_64")]
mod ifma_plan;
#[cfg(target_arch = "x86_64")]
pub mod mulx;
#[cfg(target_arch = "x86_64")]
mod mulx_sized;
pub mod pow;

/// A CPU-feature answer asked once, then served from a cache (shared by the backends'
/// tokens): 0 not yet asked, 1 absent, 2 present.
#[cfg(target_arch = "x86_64")]
struct Detected(core::sync::atomic::AtomicU8);

#[cfg(target_arch = "x86_64")]
impl Detected {
    const fn new() -> Self {
        Detected(core::sync::atomic::AtomicU8::new(0))
    }

    /// Whether the features are present, calling `ask` the first time only. (Two threads may
    /// both ask the first time; they get the same answer.)
    fn get(&self, ask: fn() -> bool) -> bool {
        use core::sync::atomic::Ordering;
        let mut d = self.0.load(Ordering::Relaxed);
        if d == 0 {
            d = if ask() { 2 } else { 1 };
            self.0.store(d, Ordering::Relaxed);
        }
        d == 2
    }
}

/// A family of kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Plain Rust over `u128` products: runs everywhere.
    Portable,
    /// x86-64 MULX/ADCX/ADOX assembly (needs BMI2 and ADX).
    Mulx,
    /// x86-64 AVX-512 IFMA in radix 2^52 for the private operation's exponentiations (needs
    /// AVX512F, AVX512VL and AVX512IFMA, and BMI2 and ADX: its single products are the MULX
    /// kernel's). See [`ifma`] and [`ifma_pair`].
    Ifma,
}

impl Backend {
    /// Every backend, slowest first.
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Mulx, Backend::Ifma];

    /// The name used by `REDC_BACKEND` and `--backend`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Mulx => "mulx",
            Backend::Ifma => "ifma",
        }
    }

    /// Parses a backend name (case-insensitive).
    pub fn from_name(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or(Error::UnknownName)
    }

    /// Whether this CPU (and this build's target) can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Mulx => mulx_token().is_some(),
            Backend::Ifma => ifma_kernel().is_some(),
        }
    }

    /// The backends this CPU can run, slowest first.
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::ALL.into_iter().filter(|b| b.is_available())
    }

    /// The fastest available backend: ifma, else mulx, else portable (CPU detection runs once
    /// and is cached).
    pub fn detect() -> Backend {
        if Backend::Ifma.is_available() {
            Backend::Ifma
        } else if Backend::Mulx.is_available() {
            Backend::Mulx
        } else {
            Backend::Portable
        }
    }

    /// The backend in force: the one `REDC_BACKEND` names if it is set (with the `std`
    /// feature; empty or `auto` means [`Backend::detect`]), else [`Backend::detect`].
    ///
    /// The variable is read once, the first time this is called, and the answer is kept for
    /// the life of the process. A value naming no backend is
    /// [`Error::UnknownBackendEnv`] (with the value), one naming a backend this CPU cannot run
    /// is [`Error::UnavailableBackendEnv`]; key construction returns that error rather than
    /// run on another backend than the one asked for.
    pub fn active() -> Result<Backend> {
        #[cfg(feature = "std")]
        {
            static ACTIVE: std::sync::OnceLock<Result<Backend>> = std::sync::OnceLock::new();
            *ACTIVE.get_or_init(|| match std::env::var("REDC_BACKEND") {
                Err(std::env::VarError::NotPresent) => Ok(Self::detect()),
                Err(std::env::VarError::NotUnicode(_)) => {
                    Err(Error::UnknownBackendEnv("(not valid UTF-8)"))
                }
                Ok(v) => Self::from_env_value(&v).map_err(|e| match e {
                    // Read once per process, so this leaks at most one string.
                    Error::UnknownName => {
                        Error::UnknownBackendEnv(std::boxed::Box::leak(v.into_boxed_str()))
                    }
                    e => e,
                }),
            })
        }
        #[cfg(not(feature = "std"))]
        Ok(Self::detect())
    }

    /// What a `REDC_BACKEND` value selects: empty or `auto` the detected backend, else the
    /// named one if this CPU runs it ([`Error::UnknownName`] for no backend's name,
    /// [`Error::UnavailableBackendEnv`] for one this CPU cannot run).
    pub fn from_env_value(value: &str) -> Result<Backend> {
        if value.is_empty() || value.eq_ignore_ascii_case("auto") {
            return Ok(Self::detect());
        }
        let b = Self::from_name(value)?;
        if b.is_available() {
            Ok(b)
        } else {
            Err(Error::UnavailableBackendEnv(b))
        }
    }

    /// This backend's 64-bit kernel, or [`Error::BackendUnavailable`].
    pub fn kernel(self) -> Result<Kernel<u64>> {
        if !self.is_available() {
            return Err(Error::BackendUnavailable);
        }
        Ok(match self {
            Backend::Portable => portable_kernel(),
            Backend::Mulx => mulx_kernel().ok_or(Error::BackendUnavailable)?,
            Backend::Ifma => ifma_kernel().ok_or(Error::BackendUnavailable)?,
        })
    }
}

/// The smallest digit count [`PublicPow`] runs on the IFMA kernels: one number across the
/// lanes ([`ifma_pair::pow_wide_public_vartime`]). On an AMD EPYC Zen 4 (family 25 model 17;
/// `redc speed`, alternating on one pinned core, medians of three) it verified 301k against
/// 271k/s (16-limb MULX) at 1024 bits, 141k against 98k/s (the duo form with the modulus in
/// both halves) at 2048, 75k against 36k/s (MULX) at 3072 and 49k against 20k/s at 4096.
/// Smaller moduli (not measured) keep the MULX kernel.
#[cfg(target_arch = "x86_64")]
const PUBLIC_WIDE_MIN_DIGITS: usize = 20;

/// A modulus prepared for the backend's exponentiation by a **public** exponent (RSA's `e`,
/// for verification and the fault check), where the backend has one faster than its kernel's
/// binary and sliding-window methods: on the ifma backend, moduli of 20 to 80 digits of 52
/// bits (1,039 to 4,158 bits) run one number across the lanes
/// ([`ifma_pair::pow_wide_public_vartime`]); and for many bases at once
/// ([`PublicPow::pow_many_vartime`]), moduli of a compiled lane digit count (up to 2,078 bits)
/// run eight per call in the lanes. Built once per key; cheap to clone.
#[derive(Clone, Default)]
pub struct PublicPow {
    #[cfg(target_arch = "x86_64")]
    wide: Option<(ifma::Token, ifma::Modulus52)>,
    #[cfg(target_arch = "x86_64")]
    lanes: Option<(ifma::Token, ifma::Modulus52)>,
}

impl core::fmt::Debug for PublicPow {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PublicPow")
            .field("prepared", &self.is_prepared())
            .finish()
    }
}

impl PublicPow {
    /// The preparation for `m` under `kernel` (nothing where the kernel's backend has no faster
    /// public exponentiation, or `m` is too large for it). `m` is public.
    pub fn new(m: &Modulus<u64>, kernel: &Kernel<u64>) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            // Every IFMA kind: the wide form's product is the pair form's, one number instead
            // of two (measured at `PUBLIC_WIDE_MIN_DIGITS`).
            let wide = ifma::Token::get().filter(|_| kernel.lanes).and_then(|t| {
                let d = ifma::digits_for_bits(m.bits());
                if d < PUBLIC_WIDE_MIN_DIGITS {
                    return None;
                }
                Some((t, ifma::Modulus52::new_wide(m, d)?))
            });
            let lanes = ifma::Token::get().filter(|_| kernel.lanes).and_then(|t| {
                let d = ifma::digits_for(m.bits())?;
                Some((t, ifma::Modulus52::new(m, d)?))
            });
            PublicPow { wide, lanes }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (m, kernel);
            PublicPow {}
        }
    }

    /// Whether [`PublicPow::pow_many_vartime`] runs inputs side by side for this modulus (a
    /// compiled lane digit count on the ifma backend).
    pub fn runs_many(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.lanes.is_some()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Whether [`PublicPow::pow_vartime`] will run.
    pub fn is_prepared(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.wide.is_some()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// `out = x^exp mod m` (`x < m`, both in `m`'s limb count), fully reduced, if prepared;
    /// returns whether it ran (`out` is untouched if not). Variable time in `exp` only, which
    /// must be public; constant time in `x` and `m`.
    pub fn pow_vartime(&self, out: &mut [u64], x: &[u64], exp: &[u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some((token, m52)) = &self.wide {
            let mut job = ifma::PowJob {
                out,
                base: x,
                exp: &[],
                modulus: m52,
            };
            ifma_pair::pow_wide_public_vartime(*token, &mut job, exp);
            return true;
        }
        let _ = (out, x, exp);
        false
    }

    /// `outs[i] = xs[i]^exp mod m` for a leading run of the inputs, side by side where the
    /// backend runs several per call and that beats one after another; returns how many it
    /// did (the caller does the rest, e.g. by [`PublicPow::pow_vartime`] or the kernel).
    /// Variable time in `exp` only, which must be public.
    ///
    /// On the ifma backend the lanes run from four inputs per call at 20 digits and below and
    /// from six above: a call of eight with e = 65537 cost about 3.2 single wide
    /// exponentiations ([`PublicPow::pow_vartime`]) at 1024 bits (10.0 against 3.2 µs) and 5.1
    /// at 2048 (36.1 against 7.0 µs), on an AMD EPYC Zen 4 (family 25 model 17).
    pub fn pow_many_vartime(
        &self,
        outs: &mut [Zeroizing<alloc::vec::Vec<u64>>],
        xs: &[Zeroizing<alloc::vec::Vec<u64>>],
        exp: &[u8],
    ) -> usize {
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if let Some((token, m52)) = &self.lanes {
            let least = if m52.digits() <= 20 { 4 } else { 6 };
            for (outs, ins) in outs.chunks_mut(ifma::LANES).zip(xs.chunks(ifma::LANES)) {
                if ins.len() < least {
                    break;
                }
                let mut jobs: alloc::vec::Vec<ifma::PowJob<'_>> = outs
                    .iter_mut()
                    .zip(ins)
                    .map(|(o, x)| ifma::PowJob {
                        out: &mut o[..],
                        base: &x[..],
                        exp: &[],
                        modulus: m52,
                    })
                    .collect();
                ifma::pow_lanes_public_vartime(*token, &mut jobs, exp);
                done += ins.len();
            }
        }
        let _ = (outs, xs, exp);
        done
    }
}

impl core::fmt::Display for Backend {
    /// The backend's name ([`Backend::name`]).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The portable production kernel: CIOS multiplication with the modern dedicated squaring.
pub fn portable_kernel() -> Kernel<u64> {
    Kernel {
        mul: Algorithm::Cios.mul_fn(),
        sqr: SqrVariant::Modern.sqr_fn(),
        name: "portable",
        almost: None,
        lanes: false,
    }
}

/// The proof that the MULX backend can run here, if it can.
#[cfg(target_arch = "x86_64")]
fn mulx_token() -> Option<mulx::Token> {
    mulx::Token::get()
}

#[cfg(not(target_arch = "x86_64"))]
fn mulx_token() -> Option<()> {
    None
}

/// The ifma backend's kernel: the MULX kernel for single products, with `lanes` set so that
/// the private operation runs its exponentiations in IFMA lanes. Needs BMI2, ADX, AVX512F,
/// AVX512VL and AVX512IFMA.
#[cfg(target_arch = "x86_64")]
fn ifma_kernel() -> Option<Kernel<u64>> {
    ifma::Token::get()?;
    let k = mulx_kernel()?;
    Some(Kernel {
        name: "ifma",
        lanes: true,
        ..k
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn ifma_kernel() -> Option<Kernel<u64>> {
    None
}

/// The MULX/ADCX/ADOX kernel, only built after the CPU proved BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
fn mulx_kernel() -> Option<Kernel<u64>> {
    mulx::Token::get().map(mulx::kernel)
}

#[cfg(not(target_arch = "x86_64"))]
fn mulx_kernel() -> Option<Kernel<u64>> {
    None
}

//! The fast 64-bit kernels behind one contract, chosen once at run time.
//!
//! Every backend provides a [`Kernel<u64>`] satisfying the kernel contract of [`crate::mont`] and
//! gives results bit-identical to the portable one. Which one runs is decided by
//! [`Backend::active`]: the `REDC_BACKEND` environment variable (`portable`, `mulx`, `ifma` or
//! `auto`; with the `std` feature) if set, otherwise the best the CPU supports.

use crate::error::{Error, Result};
use crate::mont::{Algorithm, Kernel, SqrVariant};

#[cfg(target_arch = "x86_64")]
pub mod ifma;
#[cfg(target_arch = "x86_64")]
pub mod ifma_duo;
#[cfg(target_arch = "x86_64")]
pub mod ifma_pair;
#[cfg(target_arch = "x86_64")]
pub mod mulx;
#[cfg(target_arch = "x86_64")]
mod mulx_sized;

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

    /// The backend in force: `REDC_BACKEND` if set (an unavailable or unknown choice is an
    /// error), else [`Backend::detect`].
    pub fn active() -> Result<Backend> {
        #[cfg(feature = "std")]
        if let Ok(v) = std::env::var("REDC_BACKEND") {
            if v.is_empty() || v.eq_ignore_ascii_case("auto") {
                return Ok(Self::detect());
            }
            let b = Self::from_name(&v)?;
            return if b.is_available() {
                Ok(b)
            } else {
                Err(Error::BackendUnavailable)
            };
        }
        Ok(Self::detect())
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

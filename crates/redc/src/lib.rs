//! redc: constant-time RSA built on Montgomery multiplication (REDC).
//!
//! RSA with 2 to 5 primes and 512- to 16384-bit moduli: PKCS#1 v1.5 and PSS signatures,
//! OAEP and PKCS#1 v1.5 encryption, key generation, and PKCS#1 / PKCS#8 / SPKI keys in PEM and
//! DER. The private operation is constant time in every secret (CRT with Garner's
//! recombination, fixed-window exponentiation), base-blinded whenever a random number
//! generator is given, and fault-checked (`sᵉ = m` before anything is released). Its
//! Montgomery kernels are chosen per CPU at run time: portable Rust, x86-64 MULX/ADX assembly,
//! or AVX-512 IFMA, which also runs a batch's exponentiations side by side. The API has the
//! shape of RustCrypto's `rsa` crate (see `docs/migrating-from-rsa.md` in the repository).
//!
//! # Quick start
//!
//! ```toml
//! [dependencies]
//! redc = "0.1"
//! ```
//!
//! ```
//! use redc::rsa::pkcs1v15::SigningKey;
//! use redc::rsa::signature::{Keypair, RandomizedSigner, Verifier};
//! use redc::rsa::{sha2::Sha256, Oaep, OsRng, RsaPrivateKey, RsaPublicKey};
//!
//! let key = RsaPrivateKey::new(&mut OsRng, 2048)?;
//! let public = RsaPublicKey::from(&key);
//!
//! // Encrypt to the public key, decrypt with the private one.
//! let c = public.encrypt(&mut OsRng, Oaep::new::<Sha256>(), b"hello")?;
//! assert_eq!(key.decrypt(Oaep::new::<Sha256>(), &c)?, b"hello");
//!
//! // Sign and verify (PKCS#1 v1.5 with SHA-256; `redc::rsa::pss` for PSS).
//! let signing_key = SigningKey::<Sha256>::new(key);
//! let signature = signing_key.sign_with_rng(&mut OsRng, b"hello");
//! signing_key.verifying_key().verify(b"hello", &signature)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`rsa`] is the place to start: its documentation lists every task with an example.
//!
//! # Cargo features
//!
//! - `std` (default): the operating system's generator [`rsa::OsRng`], `std::error::Error`
//!   for the errors, the keys' cached blinding pair, and the `REDC_BACKEND` variable. Without
//!   it the crate is `no_std` with `alloc`.
//! - `test-hooks` (off): test and measurement hooks; not for production. The fault-injecting
//!   private operation, the addresses of a key's secret buffers, Valgrind client requests
//!   (`redc::valgrind`), and installing any of the library's kernels into a key.
//!
//! # Backends
//!
//! [`mont::backend::Backend::active`] picks the fastest backend this CPU runs; the environment
//! variable `REDC_BACKEND` (`portable`, `mulx`, `ifma` or `auto`), read once per process,
//! overrides it, and a key's [`set_backend`](rsa::RsaPrivateKey::set_backend) switches one key.
//! An unknown or unavailable `REDC_BACKEND` is an error of every key construction, never a
//! silent fallback. Every backend gives the same bytes.
//!
//! # Layers
//!
//! The crate is layered bottom-up, each layer knowing only the ones below it:
//!
//! - [`word`]: the [`Word`](word::Word) trait for `u32` and `u64` limbs;
//! - [`ct`] and [`nat`]: constant-time selection and fixed-length limb arithmetic;
//! - [`mont`]: the [`Modulus`](mont::Modulus), every REDC algorithm of the papers (one file
//!   each), the dedicated squarings, and the fast backends behind one kernel contract, with
//!   the one hook through which the RSA layer hands them whole exponentiations
//!   ([`mont::backend::pow`]) and the CPU-kind table choosing their forms
//!   ([`mont::backend::cpu`]);
//! - [`reduce`]: classical (Knuth D) and Barrett reduction, as baselines;
//! - [`exp`]: binary, m-ary and sliding-window (variable time) and fixed-window (constant time)
//!   exponentiation;
//! - [`rsa`]: keys, CRT and multi-prime private operations, padding and encodings (it names no
//!   backend);
//! - [`service`] (with `std`): the auto-batching signing service for concurrent callers.
//!
//! # References
//!
//! The documentation cites the four papers redc is built from by number ("paper 002 §3.2"),
//! and the standards and later work by name:
//!
//! - **Paper 001**: MIPS Technologies, *64-Bit Architecture Speeds RSA By 4x* (white paper):
//!   CIOS-style Montgomery products, 32- against 64-bit words, Montgomery against division.
//! - **Paper 002**: K. Furukawa, M. Takenaka, K. Itoh, *A Fast RSA Implementation on Itanium 2
//!   Processor*, ICICS 2006, LNCS 4307: Itoh's pipelined REDC and its enhanced form, the
//!   sliding window, 2-prime CRT.
//! - **Paper 003**: E. Çelebi, M. Gözütok, L. Ertaul, *Implementations of Montgomery
//!   Multiplication Algorithms in Machine Languages*: SOS, CIOS, FIOS, FIPS and CIHS compared.
//! - **Paper 004**: B. Krishnamurthy, S. Tang, Y. Xu, F. Wang, *An Efficient Implementation of
//!   Multi-Prime RSA on DSP Processor*, ICASSP 2003: dedicated squarings, m-ary
//!   exponentiation, multi-prime CRT.
//! - P. L. Montgomery, *Modular Multiplication Without Trial Division*, Math. Comp. 44 (1985).
//! - Ç. K. Koç, T. Acar, B. S. Kaliski Jr., *Analyzing and Comparing Montgomery Multiplication
//!   Algorithms*, IEEE Micro 16(3), 1996 (the SOS … CIHS taxonomy).
//! - K. Itoh, M. Takenaka, N. Torii, S. Temma, Y. Kurihara, *Fast Implementation of
//!   Public-Key Cryptography on a DSP TMS320C6201*, CHES 1999.
//! - RFC 8017, *PKCS #1: RSA Cryptography Specifications Version 2.2* (RSASP1/RSADP, EMSA-PSS,
//!   EMSA-PKCS1-v1_5, RSAES-OAEP, multi-prime keys); RFC 5958 and RFC 5280 (PKCS #8, SPKI).
//! - NIST FIPS 186-5, *Digital Signature Standard* (2023): key generation and the primality
//!   tests (with NIST SP 800-89 and FIPS 186-4 Appendix C.3 for Miller–Rabin rounds).
//! - S. Gueron, V. Krasnov, *Accelerating Big Integer Arithmetic Using Intel IFMA Extensions*,
//!   ARITH 2016: 52-bit digits and almost Montgomery products on VPMADD52.
//! - N. Drucker, S. Gueron, *Fast Modular Squaring with AVX512IFMA*, ITNG 2019: the dedicated
//!   IFMA squaring (doubled off-diagonal terms).
//! - T. Edamatsu, D. Takahashi, *Accelerating Large Integer Multiplication Using Intel
//!   AVX-512IFMA*, ICA3PP 2019.
//! - H. Garner, *The Residue Number System*, IRE Trans. Electronic Computers (1959): the CRT
//!   recombination.
#![no_std]
#![forbid(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod ct;
mod error;
pub mod exp;
pub mod mont;
pub mod nat;
pub mod reduce;
pub mod rsa;
#[cfg(feature = "std")]
pub mod service;
#[cfg(feature = "test-hooks")]
pub mod valgrind;
#[cfg(not(feature = "test-hooks"))]
#[allow(dead_code)]
mod valgrind;
pub mod word;

#[cfg(test)]
pub(crate) mod test_rng;

pub use error::{Error, Result};

/// The examples of the repository's `README.md`, run as doc tests so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The examples of `docs/quickstart.md`, run as doc tests so that the document stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/quickstart.md")]
struct QuickstartDoctests;

/// The example of `docs/migrating-from-rsa.md`, run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/migrating-from-rsa.md")]
struct MigratingDoctests;

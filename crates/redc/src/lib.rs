//! redc: constant-time RSA built on Montgomery multiplication (REDC).
//!
//! The crate is layered bottom-up, each layer knowing only the ones below it:
//!
//! - [`word`]: the [`Word`](word::Word) trait for `u32` and `u64` limbs;
//! - [`ct`] and [`nat`]: constant-time selection and fixed-length limb arithmetic;
//! - [`mont`]: the [`Modulus`](mont::Modulus), every REDC algorithm of the papers (one file
//!   each), the dedicated squarings, and the fast backends behind one kernel contract;
//! - [`reduce`]: classical (Knuth D) and Barrett reduction, as baselines;
//! - [`exp`]: binary, m-ary and sliding-window (variable time) and fixed-window (constant time)
//!   exponentiation;
//! - [`rsa`]: keys, CRT and multi-prime private operations, padding and encodings.
//!
//! The crate is `no_std` with `alloc`; the default `std` feature adds OS randomness and
//! `std::error::Error`.
#![no_std]
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

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
#[cfg(feature = "test-hooks")]
pub mod valgrind;
#[cfg(not(feature = "test-hooks"))]
#[allow(dead_code)]
mod valgrind;
pub mod word;

pub use error::{Error, Result};

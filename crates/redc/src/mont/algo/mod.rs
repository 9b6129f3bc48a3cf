//! The REDC algorithms, one file each, every one a [`MulFn`](super::MulFn) generic over
//! [`Word`](crate::word::Word) and satisfying the kernel contract of [`crate::mont`].
//!
//! Naming and loop structure follow Koç, Acar and Kaliski, *Analyzing and Comparing Montgomery
//! Multiplication Algorithms* (IEEE Micro 1996), as implemented in paper 003, and Itoh's
//! pipelined form with Furukawa et al.'s enhancement (paper 002).

pub mod cihs;
pub mod cios;
pub mod fios;
pub mod fips;
pub mod itoh;
pub mod itoh_enhanced;
pub mod sos;

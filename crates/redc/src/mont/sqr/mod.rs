//! Dedicated Montgomery squarings, one file per variant of paper 004 (Fig. 1–5) plus a modern
//! sixth; each is a [`SqrFn`](super::SqrFn) satisfying the kernel contract of [`crate::mont`].

pub mod coupled;
pub mod generic;
pub mod improved;
pub mod koc;
pub mod merged;
pub mod modern;

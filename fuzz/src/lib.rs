//! The fuzz targets' shared bodies (see `targets.rs`), and `pss_params` (padding parameters:
//! salt lengths, hashes, labels; kept out of `targets.rs`, which the smoke test includes).
pub mod pss_params;
pub mod targets;

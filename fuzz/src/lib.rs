//! The fuzz targets' shared bodies (see `targets.rs`).
pub mod targets;

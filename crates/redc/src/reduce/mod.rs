//! Reduction baselines (papers 001 and 002): classical division-based and Barrett modular
//! multiplication. They are measured against Montgomery, never used on the RSA path.

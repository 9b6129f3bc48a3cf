#![no_main]
//! cargo-fuzz target `pss_params`: see `fuzz/src/pss_params.rs`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    redc_fuzz::pss_params::pss_params(data);
});

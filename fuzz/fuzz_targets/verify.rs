#![no_main]
//! cargo-fuzz target `verify`: see `fuzz/src/targets.rs`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    redc_fuzz::targets::verify(data);
});

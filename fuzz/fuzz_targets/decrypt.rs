#![no_main]
//! cargo-fuzz target `decrypt`: see `fuzz/src/targets.rs`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    redc_fuzz::targets::decrypt(data);
});

#![no_main]
//! cargo-fuzz target `parse_key`: see `fuzz/src/targets.rs`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    redc_fuzz::targets::parse_key(data);
});

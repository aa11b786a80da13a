//! One input = an engine table (TOML text) after a fixed two-contact case: the engine reader, the translation and every renderer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        meff::fuzz::run_engine(text);
    }
});

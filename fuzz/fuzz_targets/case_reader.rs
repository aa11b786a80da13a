//! One input = one case file through the case reader only (TOML, units,
//! expressions, parameter order, validation): cheap, so it reaches many
//! more executions than the whole pipeline.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        meff::fuzz::read_case(text);
    }
});

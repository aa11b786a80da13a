//! One input = one case file: the case reader, then the whole numeric and
//! symbolic pipeline (no time-domain verification: its cost is bounded by
//! the `[verify]` limits, not by the input's size), then the Markdown and
//! HTML renderers. Any panic, hang or runaway allocation is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    meff::fuzz::run_case(text);
});

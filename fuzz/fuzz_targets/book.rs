//! One input = a book chapter through `meff mdbook`; what comes out must carry no live HTML.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        meff::fuzz::run_book(text);
    }
});

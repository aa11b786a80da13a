//! One input = any text through the Typst translations of the PDF (markup text, strings, Markdown, LaTeX math).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        meff::fuzz::typst_text(text);
    }
});

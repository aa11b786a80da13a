//! One input = a scene: first byte picks CSV (two tables split at a line `===`) or NPZ bytes, and the space; read through a case's `[scene]`, analysed, rendered as JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    meff::fuzz::run_scene(data);
});

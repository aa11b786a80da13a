//! One input = a LAMMPS dump: the first byte picks the walls and the tolerance; read through a case's `[scene]` with `dump`, analysed, rendered as JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    meff::fuzz::run_dump(data);
});

//! One input = one MJCF or URDF model text through the model reader, then
//! forward kinematics, M(q) and constraint rows at the reference
//! configuration and every keyframe.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        meff::fuzz::read_model(text);
    }
});

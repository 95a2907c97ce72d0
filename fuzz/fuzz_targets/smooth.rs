//! One line of the `smooth` binary's JSON input, parsed, solved and checked against the
//! reference solvers (see `smoothing::fuzzing::smooth`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = smoothing::fuzzing::smooth(data);
});

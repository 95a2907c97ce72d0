//! Bytes → decode → DOM → the whole pipeline (see `pagelevel::fuzzing::pipeline`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = pagelevel::fuzzing::pipeline(data);
});

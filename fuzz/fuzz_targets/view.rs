//! Bytes → pipeline → `view`, each view checked inert (see `pagelevel::fuzzing::view`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = pagelevel::fuzzing::view(data);
});

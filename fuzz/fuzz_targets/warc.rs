//! WARC bytes → records (see `pagelevel::fuzzing::warc`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = pagelevel::fuzzing::warc(data);
});

//! Bytes → DOM → Markdown and HTML of every visible node (see `pagelevel::fuzzing::render`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = pagelevel::fuzzing::render(data);
});

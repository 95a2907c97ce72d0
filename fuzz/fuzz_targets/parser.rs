//! Text → the fast parser and html5ever, which must build the same arena (see
//! `pagelevel::fuzzing::parser`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = pagelevel::fuzzing::parser(data);
});

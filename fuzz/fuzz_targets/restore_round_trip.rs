//! libFuzzer's entry for `tfgraph_fuzz::restore_round_trip` (what it checks is documented there).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfgraph_fuzz::restore_round_trip::run(data));

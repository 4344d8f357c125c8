//! libFuzzer's entry for `tfgraph_fuzz::schemas_json` (what it checks is documented there).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfgraph_fuzz::schemas_json::run(data));

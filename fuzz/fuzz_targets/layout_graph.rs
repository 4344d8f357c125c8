//! libFuzzer's entry for `tfgraph_fuzz::layout_graph` (what it checks is documented there).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tfgraph_fuzz::layout_graph::run(data));

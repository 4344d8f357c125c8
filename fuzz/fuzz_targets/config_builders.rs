//! Configuration files (the input split at NUL bytes into main.tf, variables.tf, outputs.tf,
//! main.tf.json, modules/x/main.tf, modules/x/variables.tf, override.tf, then options:
//! `-var=`, `-target=`, `-exclude=` lines) through the pipeline with every builder; each graph
//! that comes out is laid out and walked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tfgraph_fuzz::every_builder(&tfgraph_fuzz::config_request(data));
});

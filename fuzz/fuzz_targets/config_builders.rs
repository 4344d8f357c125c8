//! Configuration files (the input split at NUL bytes into main.tf, variables.tf, outputs.tf,
//! main.tf.json, modules/x/main.tf, modules/x/variables.tf, override.tf) through the pipeline
//! with every builder; each graph that comes out is laid out and walked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tfgraph::builder::BuilderKind;
use tfgraph::pipeline::Request;

fuzz_target!(|data: &[u8]| {
    let files = tfgraph_fuzz::config_files(data);
    tfgraph_fuzz::every_builder(&Request::new(files, BuilderKind::Plan));
});

//! State JSON (format version 4): the reader, then a pipeline over a small configuration with
//! that state (plan, plan-destroy and apply read it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tfgraph::pipeline::NamedText;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(state) = tfgraph::state::parse_state_json(&text) {
        let _ = state.module_instances();
        let _ = state.is_empty();
        let mut req = tfgraph_fuzz::small_request();
        req.state = Some(NamedText::new("terraform.tfstate", text.into_owned()));
        tfgraph_fuzz::every_builder(&req);
    }
});

//! Planned changes: `terraform show -json` output and the conformance `changes` list (the first
//! byte chooses which reader), then the apply graph of a small configuration with them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tfgraph::pipeline::NamedText;

fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let conformance = first & 1 == 1;
    let parsed = if conformance {
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .map(|v| tfgraph::plan::changes_from_conformance(&v).is_ok())
    } else {
        Some(tfgraph::plan::changes_from_show_json(&text).is_ok())
    };
    if parsed == Some(true) {
        let mut req = tfgraph_fuzz::small_request();
        let t = Some(NamedText::new("plan.json", text.into_owned()));
        if conformance {
            req.changes = t;
        } else {
            req.plan_json = t;
        }
        tfgraph_fuzz::every_builder(&req);
    }
});

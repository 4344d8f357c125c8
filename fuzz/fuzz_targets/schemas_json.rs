//! Provider schemas (`tofu providers schema -json`): the reader, then a pipeline over a small
//! configuration with those schemas.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tfgraph::pipeline::NamedText;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if tfgraph::schema::parse_schemas_json(&text).is_ok() {
        let mut req = tfgraph_fuzz::small_request();
        req.schemas = Some(NamedText::new("schemas.json", text.into_owned()));
        tfgraph_fuzz::every_builder(&req);
    }
});

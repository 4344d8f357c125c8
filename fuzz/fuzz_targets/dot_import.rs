//! DOT text: the DOT reader of the CLI and app (`parse_dot`), then the layout's DOT input
//! (`input_from_dot`) laid out, and the imported graph walked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use tfgraph::dag::Graph;
use tfgraph::layout::LayoutOptions;
use tfgraph::walk::{DurationModel, Scenario, WalkOptions};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok((vertices, edges)) = tfgraph::dag::import::parse_dot("in.dot", &text) {
        let mut g = Graph::new();
        let ids: BTreeMap<&str, _> = vertices
            .iter()
            .map(|v| (v.as_str(), g.add(v.clone())))
            .collect();
        for (f, t) in &edges {
            if let (Some(a), Some(b)) = (ids.get(f.as_str()), ids.get(t.as_str())) {
                g.connect(*a, *b);
            }
        }
        tfgraph_fuzz::check_walk(
            &g,
            &WalkOptions::default(),
            Scenario::new(DurationModel::table()),
            &BTreeMap::new(),
        );
    }
    if let Ok(input) = tfgraph::layout::inputs::input_from_dot(&text) {
        tfgraph_fuzz::check_layout(&input, &LayoutOptions::default());
        let _ =
            tfgraph::layout::inputs::input_to_dot(&input, tfgraph::layout::Direction::LeftToRight);
    }
});

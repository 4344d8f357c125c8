//! An arbitrary graph (names, sizes including NaN and infinities, edges with cycles and self
//! loops, nested clusters, an order hint from a previous layout) through the layout engine; every
//! vertex must be placed at finite coordinates.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use tfgraph::dag::Graph;
use tfgraph::layout::{Direction, Input, InputNode, LayoutOptions};

#[derive(Debug, Arbitrary)]
struct Node {
    name: String,
    width: f64,
    height: f64,
    /// Cluster path as indexes into a few names, so that vertices share clusters.
    cluster: Vec<u8>,
}

#[derive(Debug, Arbitrary)]
struct Case {
    nodes: Vec<Node>,
    edges: Vec<(u16, u16)>,
    left_to_right: bool,
    transpose: bool,
    max_sweeps: u8,
    coord_passes: u8,
    previous: Option<Vec<(u16, f64)>>,
    /// Lay out twice, the second time with the first layout's order hint.
    relayout: bool,
}

fuzz_target!(|case: Case| {
    let mut ids = Graph::<()>::new();
    let n = case.nodes.len();
    let input = Input {
        nodes: case
            .nodes
            .iter()
            .map(|nd| InputNode {
                id: ids.add(()),
                name: nd.name.clone(),
                width: nd.width,
                height: nd.height,
                cluster: nd
                    .cluster
                    .iter()
                    .map(|c| format!("module.m{}", c % 4))
                    .collect(),
            })
            .collect(),
        // Out-of-range indexes are kept on purpose: the layout must ignore them.
        edges: case
            .edges
            .iter()
            .map(|&(a, b)| (usize::from(a) % (n + 1), usize::from(b) % (n + 1)))
            .collect(),
    };
    let previous = case.previous.map(|p| {
        p.iter()
            .filter_map(|(i, x)| Some((case.nodes.get(usize::from(*i))?.name.clone(), *x)))
            .collect::<BTreeMap<_, _>>()
    });
    let opts = LayoutOptions {
        direction: if case.left_to_right {
            Direction::LeftToRight
        } else {
            Direction::TopToBottom
        },
        transpose: case.transpose,
        max_sweeps: usize::from(case.max_sweeps % 40),
        coord_passes: usize::from(case.coord_passes % 20),
        previous,
        ..LayoutOptions::default()
    };
    let l = tfgraph_fuzz::check_layout(&input, &opts);
    if case.relayout {
        let opts = LayoutOptions {
            previous: Some(l.order_hint()),
            ..opts
        };
        tfgraph_fuzz::check_layout(&input, &opts);
    }
});

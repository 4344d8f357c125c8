//! layout: a layered (Sugiyama-style) drawing of a dependency graph, with module clusters.
//!
//! Dependencies are drawn above their dependents (top to bottom, the direction a walk runs), or
//! left of them with [`Direction::LeftToRight`]. The pipeline, each step near-linear so that graphs
//! of 10,000 vertices lay out in well under a second (docs/layout.md has the reasoning):
//!
//! 1. `rank.rs`: cycles are broken by reversing the back edges of a deterministic DFS; layers come
//!    from a longest-path ranking followed by a greedy pass that pulls vertices with more
//!    dependents than dependencies down next to them, O(V+E) (a network simplex refinement was
//!    measured and gave no fewer crossings on Terraform-like graphs).
//! 2. `order.rs`: long edges get one dummy vertex per layer crossed; clusters get placeholders on
//!    layers they span without members; layers are ordered by alternating barycenter sweeps with
//!    a hierarchical sort that keeps every cluster contiguous and sibling clusters in one order on
//!    every layer, then adjacent-swap (transpose) refinement, keeping the order with the fewest
//!    crossings (counted with the Barth–Mutzel–Jünger accumulator tree); small graphs get
//!    several starts within a work budget.
//! 3. `coord.rs`: x positions solve a separation-constraint graph (nodes, dummies and the left and
//!    right borders of every cluster) by a left-justified longest path, then priority-ordered
//!    median moves that push cluster borders (long edges end up straight); layer positions leave
//!    room for nested cluster margins and titles.
//!
//! Hand-written rather than taken from a crate (`rust-sugiyama`, `layout-rs`): neither supports
//! nested clusters, an order hint for stability, or wasm-friendly determinism guarantees we need.

mod coord;
pub mod inputs;
pub mod metrics;
mod model;
mod order;
mod rank;
pub mod svg;

use crate::dag::{Graph, Vertex, VertexId};
use crate::rng::SplitMix;
use std::collections::BTreeMap;

pub use metrics::{Metrics, count_crossings, layer_segments, measure_dot_plain};
pub use model::{
    ClusterBox, Direction, Input, InputNode, Layout, LayoutOptions, NodeBox, RoutedEdge,
};

/// Measures on the final drawing live in [`metrics`]; the method is here so that the types in
/// `model.rs` need nothing from the steps that make them.
impl Layout {
    /// Crossings, total edge length and bounding box, measured on the final drawing.
    pub fn metrics(&self) -> Metrics {
        metrics::measure(self)
    }
}

/// Lays out a [`Graph`]: `size` gives each vertex's box (see [`monospace_size`]), `cluster` its
/// nested module path (empty for none).
pub fn layout_graph<V: Vertex>(
    g: &Graph<V>,
    size: impl FnMut(VertexId, &V) -> (f64, f64),
    cluster: impl FnMut(VertexId, &V) -> Vec<String>,
    opts: &LayoutOptions,
) -> Layout {
    layout(&Input::from_graph(g, size, cluster), opts)
}

/// Lays out an [`Input`]. Never panics: edges naming unknown indexes are ignored, sizes that are
/// negative or not finite count as zero.
pub fn layout(input: &Input, opts: &LayoutOptions) -> Layout {
    let n = input.nodes.len();
    let edges: Vec<(usize, usize)> = input
        .edges
        .iter()
        .copied()
        .filter(|&(a, b)| a < n && b < n)
        .collect();
    let ranked = rank::rank(n, &edges);
    let clusters = order::Clusters::new(input);
    let mut lg = order::LayeredGraph::build(input, opts, &ranked, &clusters);
    let hint = opts.previous.as_ref().map(|p| hint_keys(input, p));
    order::order(&mut lg, &clusters, hint.as_deref(), opts);
    coord::place(input, &edges, &ranked, &lg, &clusters, opts)
}

/// Previous positions normalised to ranks in `0..1` (any scale the caller used works).
fn hint_keys(input: &Input, previous: &BTreeMap<String, f64>) -> Vec<Option<f64>> {
    let mut known: Vec<(f64, usize)> = input
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, nd)| {
            previous
                .get(&nd.name)
                .filter(|p| p.is_finite())
                .map(|p| (*p, i))
        })
        .collect();
    known.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut out = vec![None; input.nodes.len()];
    let total = known.len().max(1) as f64;
    for (r, (_, i)) in known.into_iter().enumerate() {
        out[i] = Some((r as f64 + 0.5) / total);
    }
    out
}

/// Box size for a label in a 12px monospace font with padding: the default size estimator.
/// Lines are split on `\n`; every character counts as one cell.
pub fn monospace_size(label: &str) -> (f64, f64) {
    const CHAR_W: f64 = 7.2;
    const LINE_H: f64 = 15.0;
    let lines = label.split('\n');
    let (mut cols, mut rows) = (0usize, 0usize);
    for l in lines {
        cols = cols.max(l.chars().count());
        rows += 1;
    }
    (cols as f64 * CHAR_W + 20.0, rows as f64 * LINE_H + 12.0)
}

/// A Terraform-like random DAG of `n` vertices: vertices come in module blocks (some nested),
/// about one in eight has no dependency (variables, providers), the others 1–3 on earlier
/// vertices: 65% within their module, 25% among the previous 100 vertices (neighbouring
/// modules), 10% anywhere before (root variables, providers), each time the shallower of two
/// such candidates so that the depth stays small as in real configurations. Returns the graph and each
/// vertex's module path.
pub fn random_graph(n: usize, seed: u64) -> (Graph<String>, BTreeMap<VertexId, Vec<String>>) {
    const KINDS: [&str; 6] = [
        "aws_instance",
        "aws_security_group",
        "aws_iam_role",
        "data.aws_ami",
        "var",
        "local",
    ];
    let mut rng = SplitMix::new(seed ^ 0x0074_6667_7261_7068);
    let mut g = Graph::new();
    let mut ids = Vec::with_capacity(n);
    let mut level = vec![0usize; n];
    let mut modules = BTreeMap::new();
    // Module blocks: [start, end) index ranges with a path.
    let mut block_start = 0usize;
    let mut block_end = 0usize;
    let mut path: Vec<String> = Vec::new();
    let mut module_no = 0usize;
    for i in 0..n {
        if i >= block_end {
            block_start = i;
            block_end = i + 8 + rng.below(40);
            path = match rng.below(4) {
                0 => Vec::new(),
                1 | 2 => {
                    module_no += 1;
                    vec![format!("module.m{module_no}")]
                }
                _ => {
                    module_no += 1;
                    let mut p = path.first().cloned().into_iter().collect::<Vec<_>>();
                    if p.is_empty() {
                        p.push(format!("module.m{module_no}"));
                        module_no += 1;
                    }
                    p.push(format!("module.m{module_no}"));
                    p
                }
            };
        }
        let kind = KINDS[rng.below(KINDS.len())];
        let prefix: String = path.iter().map(|p| format!("{p}.")).collect();
        let id = g.add(format!("{prefix}{kind}.r{i}"));
        modules.insert(id, path.clone());
        if i > 0 && rng.below(8) != 0 {
            let deps = 1 + rng.below(3);
            for _ in 0..deps {
                // Of two candidates, the shallower: real configurations are wide and shallow
                // (a dozen or two layers), not long chains.
                let pick = |rng: &mut SplitMix| {
                    let roll = rng.below(20);
                    if i > block_start && roll < 13 {
                        block_start + rng.below(i - block_start)
                    } else if roll < 18 {
                        i - 1 - rng.below(i.min(100))
                    } else {
                        rng.below(i)
                    }
                };
                let (a, b) = (pick(&mut rng), pick(&mut rng));
                let j = if level[b] < level[a] { b } else { a };
                level[i] = level[i].max(level[j] + 1);
                g.connect(id, ids[j]);
            }
        }
        ids.push(id);
    }
    (g, modules)
}

/// The benchmark entry point: lays out [`random_graph`]`(n, seed)` with monospace label sizes and
/// default options.
pub fn bench_random(n: usize, seed: u64) -> Layout {
    let (g, modules) = random_graph(n, seed);
    layout_graph(
        &g,
        |_, v| monospace_size(v),
        |id, _| modules.get(&id).cloned().unwrap_or_default(),
        &LayoutOptions::default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(n: usize, edges: &[(usize, usize)], cluster: impl Fn(usize) -> Vec<String>) -> Input {
        let mut g: Graph<String> = Graph::new();
        let ids: Vec<VertexId> = (0..n).map(|i| g.add(format!("v{i}"))).collect();
        Input {
            nodes: (0..n)
                .map(|i| InputNode {
                    id: ids[i],
                    name: format!("v{i}"),
                    width: 40.0,
                    height: 20.0,
                    cluster: cluster(i),
                })
                .collect(),
            edges: edges.to_vec(),
        }
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let opts = LayoutOptions::default();
        let l = layout(&Input::default(), &opts);
        assert!(l.nodes.is_empty() && l.edges.is_empty());
        assert_eq!(l.metrics().crossings, 0);
        // A self-loop, an edge to a missing index, odd sizes.
        let mut inp = input(2, &[(0, 0), (0, 7), (1, 0)], |_| Vec::new());
        inp.nodes[0].width = f64::NAN;
        inp.nodes[1].height = -3.0;
        let l = layout(&inp, &opts);
        assert_eq!(l.edges.len(), 2);
        assert_eq!(l.edges[0].points.len(), 4);
        assert!(svg::render_names(&l).contains("</svg>"));
        // Very deep cluster paths are cut, not recursed into without bound.
        let deep = |i: usize| (0..10_000).map(|k| format!("m{}", k + i % 2)).collect();
        let l = layout(&input(3, &[(0, 1), (1, 2)], deep), &opts);
        assert_eq!(l.clusters.iter().map(|c| c.path.len()).max(), Some(32));
    }

    #[test]
    fn long_edges_run_straight() {
        // A chain 0..4 plus a shortcut 0 -> 4 and a second long edge 1 -> 4: their dummy points
        // line up.
        let inp = input(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (1, 4)], |_| {
            Vec::new()
        });
        let l = layout(&inp, &LayoutOptions::default());
        for e in &l.edges[4..] {
            let inner = &e.points[1..e.points.len() - 1];
            assert!(inner.len() >= 4);
            assert!(
                inner.iter().all(|p| (p.0 - inner[0].0).abs() < 1e-6),
                "{:?}",
                e.points
            );
        }
    }

    #[test]
    fn left_to_right_swaps_the_axes() {
        let inp = input(3, &[(0, 1), (1, 2)], |_| Vec::new());
        let tb = layout(&inp, &LayoutOptions::default());
        let lr = layout(
            &inp,
            &LayoutOptions {
                direction: Direction::LeftToRight,
                ..LayoutOptions::default()
            },
        );
        assert!(tb.nodes[0].y < tb.nodes[1].y && tb.nodes[1].y < tb.nodes[2].y);
        assert!(lr.nodes[0].x < lr.nodes[1].x && lr.nodes[1].x < lr.nodes[2].x);
        assert_eq!(lr.order_hint().len(), 3);
    }

    #[test]
    fn benchmark_graphs_are_reproducible() {
        let (a, ma) = random_graph(200, 9);
        let (b, mb) = random_graph(200, 9);
        assert_eq!(a.string(), b.string());
        assert_eq!(ma, mb);
        assert!(a.edge_count() > 200);
        assert_eq!(bench_random(50, 3), bench_random(50, 3));
    }
}

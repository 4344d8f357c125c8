//! Algorithm overlays for teaching, computed by the engine's own algorithms on the graph as drawn
//! (visible vertices, solid edges): topological order numbers
//! ([`crate::dag::Graph::reverse_topological_order`]), depth- and breadth-first visiting order
//! ([`crate::dag::Graph::walk_trace`]) with its frontier after each visit, and strongly connected
//! components ([`crate::dag::Graph::strongly_connected`], Tarjan). Indexes are the shown graph's.

use super::view::Shown;
use crate::dag::{self, WalkOrder};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverlayKind {
    None,
    Topo,
    Dfs,
    Bfs,
    Scc,
}

impl OverlayKind {
    pub const ALL: [OverlayKind; 5] = [
        OverlayKind::None,
        OverlayKind::Topo,
        OverlayKind::Dfs,
        OverlayKind::Bfs,
        OverlayKind::Scc,
    ];

    pub fn value(self) -> &'static str {
        match self {
            OverlayKind::None => "none",
            OverlayKind::Topo => "topo",
            OverlayKind::Dfs => "dfs",
            OverlayKind::Bfs => "bfs",
            OverlayKind::Scc => "scc",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            OverlayKind::None => "Overlay: none",
            OverlayKind::Topo => "Topological order",
            OverlayKind::Dfs => "Depth-first order",
            OverlayKind::Bfs => "Breadth-first order",
            OverlayKind::Scc => "Components (SCC)",
        }
    }

    pub fn parse(s: &str) -> OverlayKind {
        OverlayKind::ALL
            .into_iter()
            .find(|k| k.value() == s)
            .unwrap_or(OverlayKind::None)
    }
}

/// What an overlay shows, by vertex index of the shown graph.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OverlayData {
    /// Topological order: number (from 1) per vertex.
    pub numbers: BTreeMap<usize, usize>,
    /// DFS/BFS: visited vertices in order, and the frontier after each number of visits.
    pub visits: Vec<usize>,
    pub frontiers: Vec<Vec<usize>>,
    /// Components in the order Tarjan completes them.
    pub sccs: Vec<Vec<usize>>,
    /// A sentence about what is shown (or why nothing is).
    pub note: String,
}

/// The most frontier entries recorded over a whole walk (keeps huge graphs cheap).
const MAX_FRONTIER: usize = 200_000;

/// The drawn graph as an engine graph: visible vertices, solid edges.
fn drawn_dag(s: &Shown) -> (dag::Graph<String>, BTreeMap<dag::VertexId, usize>) {
    let (drawn, visible) = super::scene::drawn(s);
    let mut g = dag::Graph::new();
    let ids: Vec<dag::VertexId> = drawn
        .vertices()
        .iter()
        .map(|v| g.add(v.name.clone()))
        .collect();
    for &(a, b) in drawn.edges() {
        g.connect(ids[a], ids[b]);
    }
    let back = ids.into_iter().zip(visible).collect();
    (g, back)
}

pub fn compute(s: &Shown, k: OverlayKind, selected: Option<&str>) -> OverlayData {
    let (g, back) = drawn_dag(s);
    let at = |id: &dag::VertexId| back.get(id).copied();
    let mut d = OverlayData::default();
    match k {
        OverlayKind::None => {}
        OverlayKind::Topo => match g.reverse_topological_order() {
            Ok(order) => {
                d.numbers = order
                    .iter()
                    .filter_map(at)
                    .enumerate()
                    .map(|(n, i)| (i, n + 1))
                    .collect();
                d.note = "Each vertex is numbered after everything it depends on (the engine's ReverseTopologicalOrder): every arrow goes from a lower number to a higher one.".into();
            }
            Err(e) => {
                d.note = format!(
                    "No topological order: the graph has a cycle (the engine says \u{201c}{e}\u{201d}). Try the components overlay."
                );
            }
        },
        OverlayKind::Dfs | OverlayKind::Bfs => {
            let sel =
                selected.and_then(|n| g.iter().find(|(_, v)| v.as_str() == n).map(|(id, _)| id));
            let start: Vec<dag::VertexId> = match sel {
                Some(id) => vec![id],
                None => g
                    .ids()
                    .filter(|id| g.dependents(*id).next().is_none())
                    .collect(),
            };
            let order = if k == OverlayKind::Dfs {
                WalkOrder::DEPTH_FIRST_DOWN
            } else {
                WalkOrder::BREADTH_FIRST_DOWN
            };
            let t = g.walk_trace(order, start.iter().copied(), MAX_FRONTIER);
            d.visits = t.visits.iter().filter_map(|(v, _)| at(v)).collect();
            d.frontiers = t
                .frontiers
                .iter()
                .map(|f| f.iter().filter_map(at).collect())
                .collect();
            let from = match sel {
                Some(id) => g.name_of(id),
                None => "the vertices nothing depends on".to_string(),
            };
            d.note = format!(
                "{} from {from}, following dependencies (the engine's {}). Select a vertex to start there.",
                if k == OverlayKind::Dfs {
                    "Depth-first: the last vertex queued is visited next"
                } else {
                    "Breadth-first: the first vertex queued is visited next"
                },
                if k == OverlayKind::Dfs {
                    "DepthFirstWalk"
                } else {
                    "BreadthFirstWalk"
                }
            );
        }
        OverlayKind::Scc => {
            d.sccs = g
                .strongly_connected()
                .into_iter()
                .map(|c| c.iter().filter_map(at).collect())
                .collect();
            let big = d.sccs.iter().filter(|c| c.len() > 1).count();
            d.note = if big == 0 {
                format!(
                    "{} components, each a single vertex (Tarjan's algorithm): no cycles.",
                    d.sccs.len()
                )
            } else {
                format!(
                    "{} components (Tarjan's algorithm); {big} of them hold more than one vertex, each a cycle, outlined.",
                    d.sccs.len()
                )
            };
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::graph::graph_of;

    fn shown(names: &[&str], edges: &[(usize, usize)]) -> Shown {
        Shown {
            graph: graph_of(names.iter().map(|s| s.to_string()), edges.iter().copied()),
            ..Shown::default()
        }
    }

    #[test]
    fn topological_numbers_put_every_dependency_first() {
        let mut s = shown(
            &["a", "b", "c", "hidden"],
            &[(0, 1), (1, 2), (0, 2), (3, 0)],
        );
        s.hidden.insert(3);
        let d = compute(&s, OverlayKind::Topo, None);
        assert_eq!(d.numbers.len(), 3);
        assert!(!d.numbers.contains_key(&3));
        for &(a, b) in s.graph.edges() {
            if let (Some(x), Some(y)) = (d.numbers.get(&a), d.numbers.get(&b)) {
                assert!(y < x, "{b} ({y}) before {a} ({x})");
            }
        }
        let cyc = compute(
            &shown(&["a", "b"], &[(0, 1), (1, 0)]),
            OverlayKind::Topo,
            None,
        );
        assert!(cyc.numbers.is_empty());
        assert!(cyc.note.contains("cycle"), "{}", cyc.note);
    }

    #[test]
    fn searches_record_their_frontier_and_start_at_the_selection() {
        let s = shown(&["a", "b", "c", "d"], &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        let dfs = compute(&s, OverlayKind::Dfs, None);
        assert_eq!(dfs.visits.len(), 4);
        assert_eq!(dfs.visits[0], 0, "from what nothing depends on");
        assert_eq!(dfs.frontiers.len(), dfs.visits.len() + 1);
        let bfs = compute(&s, OverlayKind::Bfs, Some("b"));
        assert_eq!(bfs.visits, [1, 3]);
        assert!(bfs.note.contains("from b"), "{}", bfs.note);
    }

    #[test]
    fn components_group_the_vertices_of_a_cycle() {
        let s = shown(&["a", "b", "c"], &[(0, 1), (1, 0), (1, 2)]);
        let d = compute(&s, OverlayKind::Scc, None);
        let mut sizes: Vec<usize> = d.sccs.iter().map(Vec::len).collect();
        sizes.sort();
        assert_eq!(sizes, [1, 2]);
        assert!(d.note.contains("1 of them"), "{}", d.note);
    }
}

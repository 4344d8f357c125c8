//! The builder's recorded steps replayed: the graph as it was right after a chosen transform,
//! rebuilt from what each step added and removed, with what that step changed marked. Linear in
//! the size of the steps up to the chosen one.

use super::graph::{PageGraph, PageVertex};
use crate::builder::{Step, StepName};
use crate::kind::Typed;
use std::collections::{BTreeSet, HashMap};

/// The graph as it was after steps `0..=upto`, plus what step `upto` added and removed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub graph: PageGraph,
    pub added: BTreeSet<String>,
    pub added_edges: BTreeSet<(String, String)>,
    /// Removed by step `upto`: drawn ghosted (they are in `graph` for drawing only).
    pub removed: BTreeSet<String>,
    pub removed_edges: BTreeSet<(String, String)>,
}

/// Items in the order they were (last) added, with removal: a slot per addition and the slot of
/// each present item, so adding, removing and re-adding are O(1).
struct Ordered<T> {
    slots: Vec<Option<T>>,
    at: HashMap<T, usize>,
}

impl<T: Clone + Eq + std::hash::Hash> Ordered<T> {
    fn new() -> Self {
        Ordered {
            slots: Vec::new(),
            at: HashMap::new(),
        }
    }

    fn remove(&mut self, x: &T) {
        if let Some(i) = self.at.remove(x) {
            self.slots[i] = None;
        }
    }

    /// Adds `x` at the end unless it is present.
    fn add(&mut self, x: &T) {
        if self.at.contains_key(x) {
            return;
        }
        self.at.insert(x.clone(), self.slots.len());
        self.slots.push(Some(x.clone()));
    }

    fn contains(&self, x: &T) -> bool {
        self.at.contains_key(x)
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().flatten()
    }
}

/// Replays `steps[..=upto]` onto an empty graph. Vertices are in the order they were added (a
/// vertex removed and added again counts from its last addition), then the vertices step `upto`
/// removed, kept for drawing; edges likewise, with the edges step `upto` removed among them.
pub fn replay(steps: &[Step], upto: usize) -> Replay {
    let mut vertices: Ordered<StepName> = Ordered::new();
    let mut edges: Ordered<(StepName, StepName)> = Ordered::new();
    let mut kinds = Kinds::default();
    for step in steps.iter().take(upto + 1) {
        kinds.record(step);
        for v in &step.removed_vertices {
            vertices.remove(v);
        }
        for e in &step.removed_edges {
            edges.remove(e);
        }
        for v in &step.added_vertices {
            vertices.add(v);
        }
        for e in &step.added_edges {
            edges.add(e);
        }
    }
    let last = steps.get(upto).cloned().unwrap_or_default();
    let removed: BTreeSet<String> = last
        .removed_vertices
        .iter()
        .filter(|v| !vertices.contains(*v))
        .map(|v| v.to_string())
        .collect();
    let removed_edges: BTreeSet<(String, String)> = last.removed_edges.iter().map(owned).collect();
    let names: Vec<String> = vertices
        .iter()
        .map(|v| v.to_string())
        .chain(removed.iter().cloned())
        .collect();
    let removed_pairs = removed_edges.iter().map(|(a, b)| (a.as_str(), b.as_str()));
    Replay {
        graph: graph_by_name(names, &kinds, edges.iter().map(pair).chain(removed_pairs)),
        added: last.added_vertices.iter().map(|v| v.to_string()).collect(),
        added_edges: last.added_edges.iter().map(owned).collect(),
        removed,
        removed_edges,
    }
}

/// Every vertex and edge that exists after any of `steps` (so also what a later step removed):
/// the graph the build steps are laid out on once, so that stepping moves nothing
/// ([`super::scene::steps_layout`]). Vertices and edges in the order of their first addition.
/// Linear in the size of the steps.
pub fn union(steps: &[Step]) -> PageGraph {
    let mut vertices: Ordered<StepName> = Ordered::new();
    let mut edges: Ordered<(StepName, StepName)> = Ordered::new();
    let mut kinds = Kinds::default();
    for step in steps {
        kinds.record(step);
        for v in &step.added_vertices {
            vertices.add(v);
        }
        for e in &step.added_edges {
            edges.add(e);
        }
    }
    graph_by_name(
        vertices.iter().map(|v| v.to_string()).collect(),
        &kinds,
        edges.iter().map(pair),
    )
}

/// A step's edge as the names it joins.
fn pair((a, b): &(StepName, StepName)) -> (&str, &str) {
    (a, b)
}

/// A step's edge as strings of its own.
fn owned((a, b): &(StepName, StepName)) -> (String, String) {
    (a.to_string(), b.to_string())
}

/// The kind of each vertex the steps added, by name, as the step that last added it recorded it.
#[derive(Default)]
struct Kinds(HashMap<StepName, Typed>);

impl Kinds {
    fn record(&mut self, step: &Step) {
        for (name, typed) in step.added_vertices.iter().zip(&step.added_kinds) {
            self.0.insert(name.clone(), typed.clone());
        }
    }

    fn of(&self, name: &str) -> Typed {
        self.0.get(name).cloned().unwrap_or_default()
    }
}

/// The page graph of `names` (indexes in this order, kinds from `kinds`) and the edges between
/// them given by name; an edge naming a vertex not among `names` is left out.
fn graph_by_name<'a>(
    names: Vec<String>,
    kinds: &Kinds,
    edges: impl Iterator<Item = (&'a str, &'a str)>,
) -> PageGraph {
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let idx_edges: Vec<(usize, usize)> = edges
        .filter_map(|(a, b)| Some((*index.get(a)?, *index.get(b)?)))
        .collect();
    let vertices = names
        .into_iter()
        .map(|n| {
            let typed = kinds.of(&n);
            PageVertex::new(n, typed)
        })
        .collect();
    PageGraph::new(vertices, idx_edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::analysis::{Options, analyze};
    use std::collections::BTreeMap;

    fn step(
        name: &str,
        av: &[&str],
        rv: &[&str],
        ae: &[(&str, &str)],
        re: &[(&str, &str)],
    ) -> Step {
        let s = |v: &[&str]| v.iter().map(|x| StepName::from(*x)).collect();
        let e = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (StepName::from(*a), StepName::from(*b)))
                .collect()
        };
        Step {
            name: name.into(),
            added_vertices: s(av),
            removed_vertices: s(rv),
            added_edges: e(ae),
            removed_edges: e(re),
            ..Step::default()
        }
    }

    fn names(g: &PageGraph) -> Vec<&str> {
        g.vertices().iter().map(|v| v.name.as_str()).collect()
    }

    fn edges(g: &PageGraph) -> BTreeSet<(String, String)> {
        g.edges()
            .iter()
            .map(|&(a, b)| (names(g)[a].to_string(), names(g)[b].to_string()))
            .collect()
    }

    #[test]
    fn a_step_shows_what_it_added_and_keeps_what_it_removed_for_drawing() {
        let steps = [
            step(
                "A",
                &["a", "b", "c"],
                &[],
                &[("a", "b"), ("b", "c"), ("a", "c")],
                &[],
            ),
            step(
                "B",
                &["d"],
                &["c"],
                &[("d", "a")],
                &[("b", "c"), ("a", "c")],
            ),
        ];
        let r = replay(&steps, 0);
        assert_eq!(names(&r.graph), ["a", "b", "c"]);
        assert_eq!(r.added.len(), 3);
        assert!(r.removed.is_empty());
        let r = replay(&steps, 1);
        // c is gone after B but drawn (ghosted) with the edges B removed.
        assert_eq!(names(&r.graph), ["a", "b", "d", "c"]);
        assert_eq!(r.removed, BTreeSet::from(["c".to_string()]));
        assert_eq!(r.removed_edges.len(), 2);
        assert_eq!(edges(&r.graph).len(), 4);
        assert_eq!(r.added, BTreeSet::from(["d".to_string()]));
    }

    #[test]
    fn a_vertex_added_again_moves_to_the_end_and_edges_come_back() {
        let steps = [
            step("A", &["a", "b"], &[], &[("a", "b")], &[]),
            step("B", &[], &["a"], &[], &[("a", "b")]),
            step("C", &["a"], &[], &[("a", "b")], &[]),
        ];
        let r = replay(&steps, 2);
        assert_eq!(names(&r.graph), ["b", "a"]);
        assert_eq!(edges(&r.graph), BTreeSet::from([("a".into(), "b".into())]));
    }

    #[test]
    fn the_union_holds_every_vertex_and_edge_of_every_step() {
        let steps = [
            step("A", &["a", "b", "c"], &[], &[("a", "b"), ("a", "c")], &[]),
            step("B", &["d"], &["c"], &[("d", "a")], &[("a", "c")]),
            step("C", &["c"], &[], &[("c", "d")], &[]),
        ];
        let u = union(&steps);
        assert_eq!(names(&u), ["a", "b", "c", "d"]);
        assert_eq!(edges(&u).len(), 4);
        for k in 0..steps.len() {
            let r = replay(&steps, k);
            assert!(names(&r.graph).iter().all(|n| names(&u).contains(n)));
            assert!(edges(&r.graph).is_subset(&edges(&u)));
        }
    }

    /// Replaying every step of every example ends at the graph the builder made.
    #[test]
    fn replaying_all_steps_gives_the_final_graph_for_every_example() {
        for e in crate::page::examples::EXAMPLES {
            let files: BTreeMap<String, String> = e
                .files
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect();
            let a = analyze(&files, e.kind, &Options::default());
            let g = a.graph.expect(e.id);
            let r = replay(&a.steps, a.steps.len() - 1);
            let mut want: Vec<&str> = names(&g);
            let mut got: Vec<&str> = names(&r.graph);
            want.sort();
            got.sort();
            // The last step may remove nothing: what is drawn is exactly the final graph.
            let ghosts = r.removed.len();
            assert_eq!(got.len(), want.len() + ghosts, "{}", e.id);
            assert!(want.iter().all(|n| got.contains(n)), "{}", e.id);
            let final_edges = edges(&g);
            let replayed: BTreeSet<(String, String)> = edges(&r.graph)
                .into_iter()
                .filter(|e| !r.removed_edges.contains(e))
                .collect();
            assert_eq!(replayed, final_edges, "{}", e.id);
        }
    }
}

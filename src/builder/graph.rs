//! The graph the transforms work on: vertices are [`Node`]s, an edge `a → b` means "a depends on
//! b" (Go `dag.BasicEdge(a, b)`). Ids are allocation-ordered so every iteration is deterministic.
//!
//! Kept inside the builder (rather than a generic crate graph) because transforms need to mutate
//! node data in place and because building records, per transform, what changed ([`Step`]).

use super::nodes::Node;
use std::collections::{BTreeMap, BTreeSet};

pub type VId = usize;

#[derive(Clone, Debug, Default)]
pub struct Graph {
    nodes: BTreeMap<VId, Node>,
    down: BTreeMap<VId, BTreeSet<VId>>,
    up: BTreeMap<VId, BTreeSet<VId>>,
    next: VId,
}

/// What one transform changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    pub name: String,
    pub added_vertices: Vec<String>,
    pub removed_vertices: Vec<String>,
    /// `(from, to)`: from depends on to.
    pub added_edges: Vec<(String, String)>,
    pub removed_edges: Vec<(String, String)>,
}

/// A snapshot used to compute a [`Step`].
#[derive(Clone, Debug)]
pub struct Snapshot {
    vertices: BTreeMap<VId, String>,
    edges: BTreeSet<(VId, VId)>,
}

impl Graph {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, n: Node) -> VId {
        let id = self.next;
        self.next += 1;
        self.nodes.insert(id, n);
        self.down.insert(id, BTreeSet::new());
        self.up.insert(id, BTreeSet::new());
        id
    }

    pub fn remove(&mut self, v: VId) {
        if self.nodes.remove(&v).is_none() {
            return;
        }
        for d in self.down.remove(&v).unwrap_or_default() {
            if let Some(s) = self.up.get_mut(&d) {
                s.remove(&v);
            }
        }
        for u in self.up.remove(&v).unwrap_or_default() {
            if let Some(s) = self.down.get_mut(&u) {
                s.remove(&v);
            }
        }
    }

    /// Replaces the vertex `old` with `n`, keeping its edges (Go `Graph.Replace`).
    pub fn replace(&mut self, old: VId, n: Node) -> VId {
        let downs: Vec<VId> = self.down_edges(old);
        let ups: Vec<VId> = self.up_edges(old);
        self.remove(old);
        let id = self.add(n);
        for d in downs {
            self.connect(id, d);
        }
        for u in ups {
            self.connect(u, id);
        }
        id
    }

    /// `from` depends on `to`. Self-loops are ignored.
    pub fn connect(&mut self, from: VId, to: VId) {
        if from == to || !self.nodes.contains_key(&from) || !self.nodes.contains_key(&to) {
            return;
        }
        self.down.entry(from).or_default().insert(to);
        self.up.entry(to).or_default().insert(from);
    }

    pub fn remove_edge(&mut self, from: VId, to: VId) {
        if let Some(s) = self.down.get_mut(&from) {
            s.remove(&to);
        }
        if let Some(s) = self.up.get_mut(&to) {
            s.remove(&from);
        }
    }

    pub fn has_edge(&self, from: VId, to: VId) -> bool {
        self.down.get(&from).is_some_and(|s| s.contains(&to))
    }

    pub fn vertices(&self) -> Vec<VId> {
        self.nodes.keys().copied().collect()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, v: VId) -> &Node {
        &self.nodes[&v]
    }

    pub fn get(&self, v: VId) -> Option<&Node> {
        self.nodes.get(&v)
    }

    pub fn node_mut(&mut self, v: VId) -> Option<&mut Node> {
        self.nodes.get_mut(&v)
    }

    pub fn contains(&self, v: VId) -> bool {
        self.nodes.contains_key(&v)
    }

    /// What `v` depends on.
    pub fn down_edges(&self, v: VId) -> Vec<VId> {
        self.down
            .get(&v)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// What depends on `v`.
    pub fn up_edges(&self, v: VId) -> Vec<VId> {
        self.up
            .get(&v)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    pub fn edges(&self) -> Vec<(VId, VId)> {
        let mut out = Vec::new();
        for (f, ts) in &self.down {
            for t in ts {
                out.push((*f, *t));
            }
        }
        out
    }

    /// Everything `v` depends on, directly or not (Go `Ancestors`).
    pub fn ancestors(&self, v: VId) -> BTreeSet<VId> {
        self.reach(v, &self.down)
    }

    /// Everything that depends on `v`, directly or not (Go `Descendants`).
    pub fn descendants(&self, v: VId) -> BTreeSet<VId> {
        self.reach(v, &self.up)
    }

    fn reach(&self, v: VId, adj: &BTreeMap<VId, BTreeSet<VId>>) -> BTreeSet<VId> {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<VId> = adj
            .get(&v)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default();
        while let Some(x) = stack.pop() {
            if seen.insert(x) {
                if let Some(s) = adj.get(&x) {
                    stack.extend(s.iter().copied());
                }
            }
        }
        seen
    }

    /// Removes every edge implied by a longer path (the unique transitive reduction of a DAG).
    pub fn transitive_reduction(&mut self) {
        for u in self.vertices() {
            let targets: BTreeSet<VId> = self.down.get(&u).cloned().unwrap_or_default();
            // Everything reachable from u through at least two edges.
            let mut far = BTreeSet::new();
            for t in &targets {
                far.extend(self.ancestors(*t));
            }
            for t in targets {
                if far.contains(&t) {
                    self.remove_edge(u, t);
                }
            }
        }
    }

    /// Go `Graph.String()`: vertices sorted by name, each followed by its sorted dependencies.
    pub fn string(&self) -> String {
        let mut names: Vec<(String, VId)> =
            self.nodes.iter().map(|(id, n)| (n.name(), *id)).collect();
        names.sort();
        // With duplicate names, Go's map keeps the last vertex seen; keep one per name.
        let mut by_name: BTreeMap<String, VId> = BTreeMap::new();
        for (n, id) in names {
            by_name.insert(n, id);
        }
        let mut out = String::new();
        for (name, id) in by_name {
            out.push_str(&name);
            out.push('\n');
            let mut deps: Vec<String> = self
                .down_edges(id)
                .iter()
                .map(|d| self.node(*d).name())
                .collect();
            deps.sort();
            for d in deps {
                out.push_str("  ");
                out.push_str(&d);
                out.push('\n');
            }
        }
        out
    }

    /// Finds a vertex by name.
    pub fn find(&self, name: &str) -> Option<VId> {
        self.nodes
            .iter()
            .find(|(_, n)| n.name() == name)
            .map(|(id, _)| *id)
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            vertices: self.nodes.iter().map(|(id, n)| (*id, n.name())).collect(),
            edges: self.edges().into_iter().collect(),
        }
    }

    /// The changes since `before`, as a named step.
    pub fn diff(&self, before: &Snapshot, name: &str) -> Step {
        let after = self.snapshot();
        let vname = |id: &VId| {
            after
                .vertices
                .get(id)
                .or_else(|| before.vertices.get(id))
                .cloned()
                .unwrap_or_default()
        };
        Step {
            name: name.to_string(),
            added_vertices: after
                .vertices
                .iter()
                .filter(|(id, _)| !before.vertices.contains_key(id))
                .map(|(_, n)| n.clone())
                .collect(),
            removed_vertices: before
                .vertices
                .iter()
                .filter(|(id, _)| !after.vertices.contains_key(id))
                .map(|(_, n)| n.clone())
                .collect(),
            added_edges: after
                .edges
                .difference(&before.edges)
                .map(|(a, b)| (vname(a), vname(b)))
                .collect(),
            removed_edges: before
                .edges
                .difference(&after.edges)
                .map(|(a, b)| (vname(a), vname(b)))
                .collect(),
        }
    }

    /// Cycles (strongly connected components with more than one vertex), as vertex names.
    pub fn cycles(&self) -> Vec<Vec<String>> {
        // Iterative Tarjan over the dependency edges.
        let ids = self.vertices();
        let mut index: BTreeMap<VId, usize> = BTreeMap::new();
        let mut low: BTreeMap<VId, usize> = BTreeMap::new();
        let mut on_stack = BTreeSet::new();
        let mut stack = Vec::new();
        let mut counter = 0;
        let mut out = Vec::new();
        for &start in &ids {
            if index.contains_key(&start) {
                continue;
            }
            let mut work: Vec<(VId, usize)> = vec![(start, 0)];
            while let Some((v, i)) = work.pop() {
                if i == 0 {
                    index.insert(v, counter);
                    low.insert(v, counter);
                    counter += 1;
                    stack.push(v);
                    on_stack.insert(v);
                }
                let succ = self.down_edges(v);
                if i < succ.len() {
                    work.push((v, i + 1));
                    let w = succ[i];
                    if !index.contains_key(&w) {
                        work.push((w, 0));
                    } else if on_stack.contains(&w) {
                        let lw = index[&w].min(low[&v]);
                        low.insert(v, lw);
                    }
                    continue;
                }
                if low[&v] == index[&v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack.remove(&w);
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 {
                        let mut names: Vec<String> =
                            comp.iter().map(|c| self.node(*c).name()).collect();
                        names.sort();
                        out.push(names);
                    }
                }
                if let Some(&(parent, _)) = work.last() {
                    let lp = low[&parent].min(low[&v]);
                    low.insert(parent, lp);
                }
            }
        }
        out
    }
}

//! The graph the transforms work on: vertices are [`Node`]s, an edge `a → b` means "a depends on
//! b" (Go `dag.BasicEdge(a, b)`). Ids are allocation-ordered so every iteration is deterministic.
//!
//! A thin layer over [`crate::dag::Graph`] that adds what the builder needs: in-place access to
//! node data, per transform, a record of what changed ([`Step`]), and per edge, why it was added
//! ([`EdgeWhy`], kept for edges removed later too).

use super::nodes::Node;
use super::why::{EdgeWhy, RefSite};
use crate::config::refs::ResourceRefsMemo;
use crate::dag;
use crate::kind::Typed;
use std::collections::{BTreeMap, BTreeSet};

pub type VId = dag::VertexId;

impl dag::Vertex for Node {
    fn name(&self) -> String {
        Node::name(self)
    }

    fn typed(&self) -> Typed {
        Node::typed(self)
    }

    /// OpenTofu's `GraphNodeDotter` implementations: resources (and their instances) are boxes
    /// labelled with the resource address, provider configurations diamonds (their closers only in
    /// verbose graphs), root variables and removed outputs notes; other vertex types do not draw
    /// themselves.
    fn dot_node(&self, name: &str, opts: &dag::DotOpts) -> dag::DotVertex {
        let node = |label: String, shape: &'static str| {
            let mut attrs = BTreeMap::new();
            attrs.insert("label", label.into());
            attrs.insert("shape", shape.into());
            dag::DotVertex::Node(dag::DotNode {
                name: name.to_string(),
                attrs,
            })
        };
        match self {
            Node::Resource { d, .. }
            | Node::Instance {
                d: super::nodes::InstanceData { res: d, .. },
                ..
            } => {
                let mut label = String::with_capacity(48);
                d.addr.push_to(&mut label);
                node(label, "box")
            }
            Node::Provider { addr, .. } => node(addr.to_string(), "diamond"),
            Node::CloseProvider { .. } if !opts.verbose => dag::DotVertex::Hidden,
            Node::CloseProvider { .. } => node(self.name(), "diamond"),
            // NodeRootVariable and NodeDestroyableOutput (internal/tofu/node_output.go).
            Node::RootVariable { .. } | Node::DestroyOutput { .. } => node(self.name(), "note"),
            _ => dag::DotVertex::NotDrawable,
        }
    }
}

/// What a graph records beside its vertices and edges: each transform's [`Step`], each edge's
/// [`EdgeWhy`]. Both by default; a caller that prints neither (`tfgraph graph` in DOT) leaves them
/// out, which changes no vertex, edge or text of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub steps: bool,
    pub whys: bool,
}

impl Record {
    /// Steps and whys: what the page shows.
    pub const ALL: Record = Record {
        steps: true,
        whys: true,
    };
}

impl Default for Record {
    fn default() -> Self {
        Record::ALL
    }
}

/// The builder's graph: a [`dag::Graph`] of [`Node`]s with the operations transforms use.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    g: dag::Graph<Node>,
    /// What is recorded besides the graph (both, unless [`Graph::recording`] said otherwise).
    record: Record,
    /// Why each edge was added, by `(from, to)`; entries stay when edges are removed.
    why: Whys,
    /// The transform running now (set by the runner), recorded with each edge it adds.
    transform: &'static str,
    /// The names of removed vertices, so the why of their edges can still be found by name.
    removed_names: BTreeMap<VId, String>,
    /// What changed since the last [`Graph::take_step`], kept as the changes are made.
    changes: Changes,
    /// Resources' references found before the build ([`Graph::keep_references`]), until the
    /// `ReferenceTransformer` takes them.
    kept_references: ResourceRefsMemo,
}

/// Why each edge was added: for each `from` vertex (a slot per id, as ids are dense), the vertex
/// and its edges' `to` with their whys, sorted by `to`. (In a B-tree keyed by the pair, filled
/// mostly in order and so about half full, the whys of 70,000 edges took 9 MB at 10,000
/// resources.)
#[derive(Clone, Debug, Default)]
struct Whys(Vec<Option<(VId, WhysFrom)>>);

/// The whys of one vertex's edges: each edge's `to` and its why, sorted by `to`.
type WhysFrom = Vec<(VId, EdgeWhy)>;

impl Whys {
    fn get(&self, (from, to): (VId, VId)) -> Option<&EdgeWhy> {
        let (_, list) = self.0.get(from.slot())?.as_ref()?;
        let i = list.binary_search_by_key(&to, |(t, _)| *t).ok()?;
        Some(&list[i].1)
    }

    /// The why of `(from, to)`, made by `new` when there is none.
    fn entry(&mut self, (from, to): (VId, VId), new: impl FnOnce() -> EdgeWhy) -> &mut EdgeWhy {
        let s = from.slot();
        if self.0.len() <= s {
            self.0.resize_with(s + 1, || None);
        }
        let (_, list) = self.0[s].get_or_insert_with(|| (from, Vec::new()));
        let i = match list.binary_search_by_key(&to, |(t, _)| *t) {
            Ok(i) => i,
            Err(i) => {
                list.insert(i, (to, new()));
                i
            }
        };
        &mut list[i].1
    }

    /// Every why in `(from, to)` order.
    fn iter(&self) -> impl Iterator<Item = ((VId, VId), &EdgeWhy)> + '_ {
        self.0
            .iter()
            .flatten()
            .flat_map(|(from, list)| list.iter().map(move |(to, w)| ((*from, *to), w)))
    }
}

/// The net changes since the last [`Graph::take_step`], recorded by the graph's own add, remove,
/// connect and disconnect paths (so a step costs what the transform changed, not a copy of the
/// whole graph). Ids are never reused, so an id added and removed again, or an edge removed and
/// added again, nets out here exactly as comparing the graph before and after would.
#[derive(Clone, Debug, Default)]
struct Changes {
    /// Vertices added since, and still in the graph.
    added_vertices: BTreeSet<VId>,
    /// Vertices that were in the graph at the start and are removed, with their name then.
    removed_vertices: BTreeMap<VId, String>,
    /// The name at the start of a vertex that was there then and whose node has been replaced or
    /// handed out mutably since (it may have been renamed; a removal reports the earlier name).
    start_names: BTreeMap<VId, String>,
    /// Edges that were not in the graph at the start and are now.
    added_edges: BTreeSet<(VId, VId)>,
    /// Edges that were in the graph at the start and are not now.
    removed_edges: BTreeSet<(VId, VId)>,
}

/// A vertex's name in a [`Step`]: shared by the step's edges that end at the vertex (a step can
/// add ten thousand edges to one provider; as strings of their own the steps were a fifth of a
/// recording build's peak memory at 10,000 resources).
pub type StepName = std::sync::Arc<str>;

/// What one transform changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    pub name: String,
    pub added_vertices: Vec<StepName>,
    /// The kind and module of each added vertex, in `added_vertices`' order (not in the JSON of
    /// `tfgraph steps`, which stays OpenTofu's names).
    #[serde(skip)]
    pub added_kinds: Vec<Typed>,
    pub removed_vertices: Vec<StepName>,
    /// `(from, to)`: from depends on to.
    pub added_edges: Vec<(StepName, StepName)>,
    pub removed_edges: Vec<(StepName, StepName)>,
}

/// A snapshot used to compute a [`Step`] (the recording [`Graph::take_step`] replaced).
#[cfg(test)]
#[derive(Clone, Debug)]
pub struct Snapshot {
    vertices: BTreeMap<VId, String>,
    kinds: BTreeMap<VId, Typed>,
    edges: BTreeSet<(VId, VId)>,
}

impl Graph {
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty graph that records only what `record` asks for: without steps,
    /// [`Graph::take_step`] gives empty steps; without whys, [`Graph::why`] finds none.
    pub fn recording(record: Record) -> Self {
        Graph {
            record,
            ..Self::default()
        }
    }

    /// Resources' references already found (by the reference validation, from the bodies of
    /// the configuration this graph is built from), for the `ReferenceTransformer` to take
    /// instead of walking the bodies again.
    pub fn keep_references(&mut self, kept: ResourceRefsMemo) {
        self.kept_references = kept;
    }

    /// The references [`Graph::keep_references`] kept, taken out (the graph keeps none after).
    pub fn take_kept_references(&mut self) -> ResourceRefsMemo {
        std::mem::take(&mut self.kept_references)
    }

    /// What this graph records.
    pub fn record(&self) -> Record {
        self.record
    }

    /// The underlying generic graph (for rendering and walking).
    pub fn dag(&self) -> &dag::Graph<Node> {
        &self.g
    }

    pub fn into_dag(self) -> dag::Graph<Node> {
        self.g
    }

    pub fn add(&mut self, n: Node) -> VId {
        let v = self.g.add(n);
        if self.record.steps {
            self.changes.added_vertices.insert(v);
        }
        v
    }

    /// Removes `v` and every edge touching it.
    pub fn remove(&mut self, v: VId) {
        if !self.g.has_vertex(v) {
            return;
        }
        if self.record.steps {
            let edges: Vec<(VId, VId)> = self
                .g
                .edges_from(v)
                .into_iter()
                .chain(self.g.edges_to(v))
                .collect();
            for e in edges {
                self.edge_removed(e);
            }
        }
        let Some(n) = self.g.remove(v) else { return };
        if self.record.steps && !self.changes.added_vertices.remove(&v) {
            let start = self.changes.start_names.remove(&v);
            self.changes
                .removed_vertices
                .insert(v, start.unwrap_or_else(|| n.name()));
        }
        if self.record.whys {
            self.removed_names.insert(v, n.name());
        }
    }

    /// Replaces the vertex `old` with `n`, keeping its id and edges (Go `Graph.Replace`).
    pub fn replace(&mut self, old: VId, n: Node) -> VId {
        self.keep_start_name(old);
        self.g.replace(old, n);
        old
    }

    /// Before `v`'s node may change: keeps its name as it was when the step began.
    fn keep_start_name(&mut self, v: VId) {
        if !self.record.steps
            || self.changes.added_vertices.contains(&v)
            || self.changes.start_names.contains_key(&v)
        {
            return;
        }
        if let Some(n) = self.g.vertex(v) {
            self.changes.start_names.insert(v, n.name());
        }
    }

    fn edge_added(&mut self, e: (VId, VId)) {
        if self.record.steps && !self.changes.removed_edges.remove(&e) {
            self.changes.added_edges.insert(e);
        }
    }

    fn edge_removed(&mut self, e: (VId, VId)) {
        if self.record.steps && !self.changes.added_edges.remove(&e) {
            self.changes.removed_edges.insert(e);
        }
    }

    /// What changed since the last call (or since the graph was made), as the step `name`; starts
    /// the next step. Lists are in id order, edges in `(from, to)` id order, named as the vertices
    /// are named now (a removed vertex by its name when the step began).
    pub fn take_step(&mut self, name: &str) -> Step {
        let c = std::mem::take(&mut self.changes);
        // Each vertex named once per step: a provider or module vertex is the end of thousands of
        // the edges a transform adds, and a name is built by formatting its address.
        let names = std::cell::RefCell::new(rustc_hash::FxHashMap::<VId, StepName>::default());
        let vname = |id: &VId| -> StepName {
            names
                .borrow_mut()
                .entry(*id)
                .or_insert_with(|| match self.g.vertex(*id) {
                    Some(n) => n.name().into(),
                    None => c
                        .removed_vertices
                        .get(id)
                        .map_or_else(|| "".into(), |n| n.as_str().into()),
                })
                .clone()
        };
        Step {
            name: name.to_string(),
            added_vertices: c.added_vertices.iter().map(vname).collect(),
            added_kinds: c
                .added_vertices
                .iter()
                .map(|id| self.g.vertex(*id).map(Node::typed).unwrap_or_default())
                .collect(),
            removed_vertices: c.removed_vertices.keys().map(vname).collect(),
            added_edges: c
                .added_edges
                .iter()
                .map(|(a, b)| (vname(a), vname(b)))
                .collect(),
            removed_edges: c
                .removed_edges
                .iter()
                .map(|(a, b)| (vname(a), vname(b)))
                .collect(),
        }
    }

    /// Names the transform that is running, so the edges it adds record it.
    pub fn set_transform(&mut self, name: &'static str) {
        self.transform = name;
    }

    /// The transform that is running (empty outside a builder run).
    pub fn transform(&self) -> &'static str {
        self.transform
    }

    /// `from` depends on `to`. Self-loops are ignored. The edge's why names the running
    /// transform.
    pub fn connect(&mut self, from: VId, to: VId) {
        self.connect_why(from, to, None, Vec::new());
    }

    /// [`Graph::connect`] for a transform that adds edges of several kinds: `reason` says which
    /// ([`super::why::reason`]).
    pub fn connect_because(&mut self, from: VId, to: VId, reason: &'static str) {
        self.connect_why(from, to, Some(reason), Vec::new());
    }

    /// [`Graph::connect`] for an edge the configuration's references cause.
    pub fn connect_for_references(&mut self, from: VId, to: VId, refs: Vec<RefSite>) {
        self.connect_why(from, to, None, refs);
    }

    /// Adds the edge; a new edge gets a why of its own (replacing that of an earlier edge between
    /// the same vertices that was removed), an edge already there only gains `refs`.
    fn connect_why(
        &mut self,
        from: VId,
        to: VId,
        reason: Option<&'static str>,
        refs: Vec<RefSite>,
    ) {
        if from == to {
            return;
        }
        if self.g.connect(from, to) {
            self.edge_added((from, to));
            if !self.record.whys {
                return;
            }
            let mut w = EdgeWhy::new(self.transform, reason);
            w.add_references(refs);
            // An edge added again after a removal gets the new transform's why.
            let transform = self.transform;
            *self
                .why
                .entry((from, to), || EdgeWhy::new(transform, reason)) = w;
        } else if self.record.whys && !refs.is_empty() {
            let transform = self.transform;
            self.why
                .entry((from, to), || EdgeWhy::new(transform, reason))
                .add_references(refs);
        }
    }

    /// Why the edge `from → to` was added: for the edges of the graph, and for edges a transform
    /// (transitive reduction among them) removed since.
    pub fn why(&self, from: VId, to: VId) -> Option<&EdgeWhy> {
        self.why.get((from, to))
    }

    /// [`Graph::why`] by vertex names (as build steps and the page name edges), also for edges
    /// of vertices removed since. When several vertices had the names, the edge between
    /// vertices of the graph now wins. O(V); [`Graph::whys_by_name`] gives them all at once.
    pub fn why_named(&self, from: &str, to: &str) -> Option<&EdgeWhy> {
        let ids = |name: &str| -> Vec<VId> {
            let mut out: Vec<VId> = self
                .g
                .iter()
                .filter(|(_, n)| n.name() == name)
                .map(|(id, _)| id)
                .collect();
            out.extend(
                self.removed_names
                    .iter()
                    .filter(|(id, n)| n.as_str() == name && !self.g.has_vertex(**id))
                    .map(|(id, _)| *id),
            );
            out
        };
        let (fs, ts) = (ids(from), ids(to));
        fs.iter()
            .flat_map(|f| ts.iter().map(move |t| (*f, *t)))
            .find_map(|(f, t)| self.why(f, t))
    }

    /// The graph's plain JSON form ([`dag::render::json::JsonGraph`]) with each edge's why.
    pub fn json_graph(&self) -> dag::render::json::JsonGraph {
        let mut j = self.g.json_graph();
        for e in &mut j.edges {
            e.why = self.why(e.from, e.to).map(EdgeWhy::json);
        }
        j
    }

    /// Every recorded why by `(from name, to name)`: the edges of the graph and those removed
    /// since (for a pair of names that several edges had, the one between vertices of the graph
    /// now wins).
    pub fn whys_by_name(&self) -> BTreeMap<(String, String), &EdgeWhy> {
        let mut names: BTreeMap<VId, (String, bool)> = self
            .removed_names
            .iter()
            .map(|(id, n)| (*id, (n.clone(), false)))
            .collect();
        for (id, n) in self.g.iter() {
            names.insert(id, (n.name(), true));
        }
        let mut out: BTreeMap<(String, String), (&EdgeWhy, bool)> = BTreeMap::new();
        for ((f, t), w) in self.why.iter() {
            let (Some((fname, fcur)), Some((tname, tcur))) = (names.get(&f), names.get(&t)) else {
                continue;
            };
            let current = *fcur && *tcur;
            let key = (fname.clone(), tname.clone());
            match out.get(&key) {
                Some((_, true)) if !current => {}
                _ => {
                    out.insert(key, (w, current));
                }
            }
        }
        out.into_iter().map(|(k, (w, _))| (k, w)).collect()
    }

    pub fn remove_edge(&mut self, from: VId, to: VId) {
        if self.g.remove_edge(from, to) {
            self.edge_removed((from, to));
        }
    }

    pub fn has_edge(&self, from: VId, to: VId) -> bool {
        self.g.has_edge(from, to)
    }

    pub fn vertices(&self) -> Vec<VId> {
        self.g.ids().collect()
    }

    pub fn len(&self) -> usize {
        self.g.len()
    }

    pub fn is_empty(&self) -> bool {
        self.g.is_empty()
    }

    /// The vertex `v`; panics only on an id that was never in the graph (a builder bug).
    pub fn node(&self, v: VId) -> &Node {
        self.g.vertex(v).expect("vertex id from this graph")
    }

    pub fn get(&self, v: VId) -> Option<&Node> {
        self.g.vertex(v)
    }

    pub fn node_mut(&mut self, v: VId) -> Option<&mut Node> {
        self.keep_start_name(v);
        self.g.vertex_mut(v)
    }

    pub fn contains(&self, v: VId) -> bool {
        self.g.has_vertex(v)
    }

    /// What `v` depends on.
    pub fn down_edges(&self, v: VId) -> Vec<VId> {
        self.g.dependencies(v).collect()
    }

    /// What depends on `v`.
    pub fn up_edges(&self, v: VId) -> Vec<VId> {
        self.g.dependents(v).collect()
    }

    /// Whether anything depends on `v` ([`Graph::up_edges`] not empty, without making the list).
    pub fn has_dependents(&self, v: VId) -> bool {
        self.g.dependents(v).next().is_some()
    }

    pub fn edges(&self) -> Vec<(VId, VId)> {
        self.g.edges()
    }

    /// Both are resource instances of the same module but in different instances of it (edges
    /// between them are not made).
    pub fn in_different_module_instances(&self, a: VId, b: VId) -> bool {
        match (self.node(a).instance_addr(), self.node(b).instance_addr()) {
            (Some(x), Some(y)) => x.module.module() == y.module.module() && x.module != y.module,
            _ => false,
        }
    }

    /// Everything `v` depends on, directly or not (Go `Ancestors`).
    pub fn ancestors(&self, v: VId) -> BTreeSet<VId> {
        self.g.ancestors(v)
    }

    /// Everything that depends on `v`, directly or not (Go `Descendents`).
    pub fn descendants(&self, v: VId) -> BTreeSet<VId> {
        self.g.descendants(v)
    }

    /// Go's `TransitiveReduction`.
    pub fn transitive_reduction(&mut self) {
        self.reduce(|g| Some(g.transitive_reduction_removed()));
    }

    /// [`Graph::transitive_reduction`] when [`Graph::is_valid`] (as OpenTofu's
    /// `TransitiveReductionTransformer` does), both answered from one look at the graph.
    pub fn transitive_reduction_if_valid(&mut self) {
        self.reduce(dag::Graph::transitive_reduction_if_valid);
    }

    fn reduce(&mut self, reduction: impl FnOnce(&mut dag::Graph<Node>) -> Option<Vec<(VId, VId)>>) {
        // In the crate's tests the name-sorted walk OpenTofu makes must leave the same edges.
        #[cfg(test)]
        let by_name = {
            let mut g = self.g.clone();
            g.transitive_reduction_by_name();
            g.edges()
        };
        let Some(removed) = reduction(&mut self.g) else {
            return;
        };
        #[cfg(test)]
        assert_eq!(self.g.edges(), by_name, "transitive reduction");
        for e in removed {
            self.edge_removed(e);
        }
    }

    /// Go's `Validate`: exactly one root and no cycles.
    pub fn is_valid(&self) -> bool {
        self.g.is_valid()
    }

    /// Go `Graph.String()`: vertices sorted by name, each followed by its sorted dependencies.
    pub fn string(&self) -> String {
        self.g.string()
    }

    /// Cycles (strongly connected components with more than one vertex), as vertex names.
    pub fn cycles(&self) -> Vec<Vec<String>> {
        self.g
            .cycles()
            .into_iter()
            .map(|c| {
                let mut names: Vec<String> = c.iter().map(|v| self.node(*v).name()).collect();
                names.sort();
                names
            })
            .collect()
    }

    /// Finds a vertex by name.
    pub fn find(&self, name: &str) -> Option<VId> {
        self.g.find_by_name(name)
    }

    /// The graph's vertices and edges now: with [`Graph::changes`], the step recording as it
    /// was before [`Graph::take_step`] (kept to check that one against).
    #[cfg(test)]
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            vertices: self.g.iter().map(|(id, n)| (id, n.name())).collect(),
            kinds: self.g.iter().map(|(id, n)| (id, n.typed())).collect(),
            edges: self.edges().into_iter().collect(),
        }
    }

    /// The changes from one snapshot to a later one, as a named step.
    #[cfg(test)]
    pub fn changes(before: &Snapshot, after: &Snapshot, name: &str) -> Step {
        let vname = |id: &VId| {
            after
                .vertices
                .get(id)
                .or_else(|| before.vertices.get(id))
                .map_or_else(|| "".into(), |n| StepName::from(n.as_str()))
        };
        Step {
            name: name.to_string(),
            added_vertices: after
                .vertices
                .iter()
                .filter(|(id, _)| !before.vertices.contains_key(id))
                .map(|(_, n)| n.as_str().into())
                .collect(),
            added_kinds: after
                .kinds
                .iter()
                .filter(|(id, _)| !before.vertices.contains_key(id))
                .map(|(_, k)| k.clone())
                .collect(),
            removed_vertices: before
                .vertices
                .iter()
                .filter(|(id, _)| !after.vertices.contains_key(id))
                .map(|(_, n)| n.as_str().into())
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
}

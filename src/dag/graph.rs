//! The graph store: vertices keyed by [`VertexId`], edges as "depends on" adjacency sets.
//!
//! Hand-written over `BTreeMap`/`BTreeSet` rather than petgraph's `StableDiGraph` because OpenTofu's
//! graph is a pair of adjacency *sets* (connecting twice is a no-op), ids must never be recycled
//! (StableGraph reuses freed slots), and every iteration must be deterministic.
//! The property tests (`tests/dag_props.rs`) copy a graph into petgraph to check our algorithms
//! against its own.
//!
//! What the graph stores is defined here too: the [`Vertex`] trait (Go's `dag.Vertex` with the
//! optional interfaces OpenTofu's renderers look for, `Subgrapher` among them, which is why it
//! lives beside [`Graph`]), the stable [`VertexId`], and what a vertex tells the DOT renderer
//! about itself (Go's `DotOpts` and `DotNode` from `internal/dag/dot.go`). Everything else in
//! `dag` builds on this file; it builds on nothing else in `dag`.

use crate::kind::Typed;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A graph vertex. Mirrors Go's `dag.Vertex` plus the optional interfaces OpenTofu's renderers look
/// for (`NamedVertex`, `GraphNodeDotter`, `Subgrapher`).
pub trait Vertex {
    /// The vertex's name (Go's `dag.VertexName`): used by `String()`, sorting and every renderer.
    fn name(&self) -> String;

    /// What kind of OpenTofu vertex it is and the module it belongs to ([`crate::kind`]), for
    /// the readers that treat kinds differently (the walk's durations and expansion, the page's
    /// drawing). The default: a vertex of no known kind ([`Typed::default`], the kind `Other`).
    fn typed(&self) -> Typed {
        Typed::default()
    }

    /// How the vertex draws itself in DOT (Go's `GraphNodeDotter.DotNode`). `name` is the vertex
    /// name already escaped for a DOT string. The default, [`DotVertex::NotDrawable`], is a vertex
    /// that does not implement `GraphNodeDotter` at all: it is left out of the DOT node list and out
    /// of highlighted cycles, but its edges are still drawn (as in OpenTofu).
    fn dot_node(&self, name: &str, opts: &DotOpts) -> DotVertex {
        let _ = (name, opts);
        DotVertex::NotDrawable
    }

    /// A nested graph this vertex stands for (Go's `Subgrapher`). The DOT renderer draws it as a
    /// separate `subgraph` (a `cluster_` when a module depth is given).
    fn subgraph(&self) -> Option<&Graph<Self>>
    where
        Self: Sized,
    {
        None
    }
}

impl Vertex for String {
    fn name(&self) -> String {
        self.clone()
    }
}

impl<T: Vertex + ?Sized> Vertex for Box<T> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn dot_node(&self, name: &str, opts: &DotOpts) -> DotVertex {
        (**self).dot_node(name, opts)
    }
    fn typed(&self) -> Typed {
        (**self).typed()
    }
}

/// Identifies a vertex within one [`Graph`]. Ids are handed out in increasing order by
/// [`Graph::add`] and never reused while the graph lives, so they stay valid across removals of
/// other vertices (unlike petgraph's `StableGraph`, whose freed slots are recycled).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct VertexId(u64);

impl VertexId {
    /// The raw number (stable, unique within the graph).
    pub fn index(self) -> u64 {
        self.0
    }

    /// The id as a position in a vector with a slot per id ever given out (ids are dense).
    pub fn slot(self) -> usize {
        usize::try_from(self.0).expect("vertex ids are counted in memory")
    }
}

impl fmt::Display for VertexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// Go's `dag.DotOpts`. `Default` is Go's zero value; `tofu graph` without flags uses
/// [`DotOpts::cli_default`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DotOpts {
    /// Lets vertices that only show in the verbose graph draw themselves.
    pub verbose: bool,
    /// Draw the edges along each cycle in red.
    pub draw_cycles: bool,
    /// How many levels of nested graphs to draw: 0 = all (without `cluster_` names), negative =
    /// all (as clusters), n > 0 = n levels (as clusters). `tofu graph -module-depth`.
    pub max_depth: i64,
}

impl DotOpts {
    /// What Go's `Dot(nil)` uses: cycles drawn, every level, verbose.
    pub fn everything() -> Self {
        DotOpts {
            verbose: true,
            draw_cycles: true,
            max_depth: -1,
        }
    }

    /// The options `tofu graph` uses when given no flags.
    pub fn cli_default() -> Self {
        DotOpts {
            verbose: false,
            draw_cycles: false,
            max_depth: -1,
        }
    }
}

/// What a vertex draws (Go's `DotNode`): its DOT name and attributes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DotNode {
    pub name: String,
    /// Attribute names are DOT's own (`label`, `shape`, ...) and most values are fixed words, so
    /// neither is made anew for each of thousands of node lines.
    pub attrs: BTreeMap<&'static str, std::borrow::Cow<'static, str>>,
}

/// A vertex's answer to [`Vertex::dot_node`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DotVertex {
    /// Not a `GraphNodeDotter`: no node line, and left out of highlighted cycles.
    NotDrawable,
    /// A `GraphNodeDotter` whose `DotNode` returned nil for these options: no node line.
    Hidden,
    Node(DotNode),
}

/// A directed graph of `V`, with OpenTofu's edge convention: an edge `(from, to)` means `from`
/// depends on `to`.
///
/// Membership follows Go's `dag.Graph`, whose `Connect` does not check that either end was
/// `Add`ed: a vertex can be known to the graph as an edge end without being in its vertex set
/// ([`Graph::add_detached`]). Such a *detached* vertex is not listed by [`Graph::ids`],
/// [`Graph::len`] or [`Graph::has_vertex`] and is never a root, but its edges are real: `String()`
/// prints it among a member's dependencies, and ancestors, descendants, Tarjan's components,
/// transitive reduction and the up/down edge sets all follow edges through it, as Go's do. Only
/// callers that ask for detached vertices get them; graphs built from configuration, DOT files
/// or generators hold members only.
#[derive(Clone)]
pub struct Graph<V> {
    /// The vertex set (Go's `g.vertices`).
    vertices: Members<V>,
    /// Vertices known only as edge ends (never added, or removed and connected again).
    detached: BTreeMap<VertexId, V>,
    /// from -> its dependencies ("down" edges).
    down: Adjacency,
    /// to -> its dependents ("up" edges).
    up: Adjacency,
    next_id: u64,
}

impl<V> Default for Graph<V> {
    fn default() -> Self {
        Graph {
            vertices: Members::default(),
            detached: BTreeMap::new(),
            down: Adjacency::default(),
            up: Adjacency::default(),
            next_id: 0,
        }
    }
}

/// The member vertices by id: a slot per id ever given out, as ids are dense and never reused,
/// in chunks of [`Members::CHUNK`] slots (a chunk grows as a vector does up to that size, so no
/// vertex is moved once its chunk is full and at most one chunk is partly empty). Finding a
/// vertex is an index, not a tree search, and a vertex takes little more than its own size: a
/// B-tree's leaves, filled in id order, stay about half empty (at 10,000 resources the plan
/// graph's vertices took 13 MB there).
#[derive(Clone)]
struct Members<V> {
    chunks: Vec<Vec<Option<V>>>,
    len: usize,
}

impl<V> Default for Members<V> {
    fn default() -> Self {
        Members {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<V> Members<V> {
    /// A power of two: a vector doubling its capacity from 4 reaches it exactly.
    const CHUNK: usize = 256;

    fn place(id: &VertexId) -> (usize, usize) {
        let i = id.slot();
        (i / Self::CHUNK, i % Self::CHUNK)
    }

    fn insert(&mut self, id: VertexId, v: V) {
        let (c, i) = Self::place(&id);
        if c >= self.chunks.len() {
            self.chunks.resize_with(c + 1, Vec::new);
        }
        let chunk = &mut self.chunks[c];
        while chunk.len() <= i {
            chunk.push(None);
        }
        if chunk[i].replace(v).is_none() {
            self.len += 1;
        }
    }

    fn remove(&mut self, id: &VertexId) -> Option<V> {
        let (c, i) = Self::place(id);
        let v = self.chunks.get_mut(c)?.get_mut(i)?.take()?;
        self.len -= 1;
        Some(v)
    }

    fn get(&self, id: &VertexId) -> Option<&V> {
        let (c, i) = Self::place(id);
        self.chunks.get(c)?.get(i)?.as_ref()
    }

    fn get_mut(&mut self, id: &VertexId) -> Option<&mut V> {
        let (c, i) = Self::place(id);
        self.chunks.get_mut(c)?.get_mut(i)?.as_mut()
    }

    fn contains_key(&self, id: &VertexId) -> bool {
        self.get(id).is_some()
    }

    /// In id order.
    fn iter(&self) -> impl Iterator<Item = (VertexId, &V)> + '_ {
        self.chunks.iter().enumerate().flat_map(|(c, chunk)| {
            chunk.iter().enumerate().filter_map(move |(i, v)| {
                Some((VertexId((c * Self::CHUNK + i) as u64), v.as_ref()?))
            })
        })
    }

    fn keys(&self) -> impl Iterator<Item = VertexId> + '_ {
        self.iter().map(|(id, _)| id)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One direction of the edges: each vertex's set of neighbours, a slot per id (ids are dense
/// and never reused, so finding a vertex's set is an index, not a search of a tree keyed by id;
/// edges are looked up, added and removed in every transform). A slot of an id with no edges
/// (or never used) holds an empty set, which reads as none.
#[derive(Clone, Default)]
struct Adjacency {
    sets: Vec<IdSet>,
}

impl Adjacency {
    fn get(&self, id: &VertexId) -> Option<&IdSet> {
        self.sets.get(id.slot())
    }

    fn get_mut(&mut self, id: &VertexId) -> Option<&mut IdSet> {
        self.sets.get_mut(id.slot())
    }

    /// The set of `id`, made when it has none.
    fn set_mut(&mut self, id: VertexId) -> &mut IdSet {
        let i = id.slot();
        if i >= self.sets.len() {
            self.sets.resize_with(i + 1, IdSet::default);
        }
        &mut self.sets[i]
    }

    /// Takes the set of `id`, leaving it empty.
    fn remove(&mut self, id: &VertexId) -> Option<IdSet> {
        self.get_mut(id).map(std::mem::take)
    }

    /// Each vertex with its set, in id order.
    fn iter(&self) -> impl Iterator<Item = (VertexId, &IdSet)> + '_ {
        self.sets
            .iter()
            .enumerate()
            .map(|(i, s)| (VertexId(i as u64), s))
    }
}

/// One vertex's neighbours in one direction: a set of ids, iterated in increasing order. Most
/// vertices have a few edges, held as a sorted vector (in place up to [`IdSet::INLINE`], then one
/// small allocation, read in one or two cache lines); a set that grows past [`IdSet::FEW`] (a
/// provider's thousands of dependents) becomes a B-tree, so adding or removing one id never
/// shifts thousands of others.
#[derive(Clone, Debug)]
enum IdSet {
    Few(smallvec::SmallVec<[VertexId; IdSet::INLINE]>),
    Many(BTreeSet<VertexId>),
}

impl Default for IdSet {
    fn default() -> Self {
        IdSet::Few(smallvec::SmallVec::new())
    }
}

impl IdSet {
    /// The most ids held as a vector.
    const FEW: usize = 32;
    /// The most ids held in the set itself: a graph's vertices mostly have two to four
    /// neighbours each way, and their sets were 33,000 allocations at 10,000 resources.
    const INLINE: usize = 4;

    /// Adds `id`; whether it was not there yet.
    fn insert(&mut self, id: VertexId) -> bool {
        match self {
            IdSet::Few(v) => match v.binary_search(&id) {
                Ok(_) => false,
                Err(at) if v.len() < Self::FEW => {
                    v.insert(at, id);
                    true
                }
                Err(_) => {
                    let mut many: BTreeSet<VertexId> = v.drain(..).collect();
                    many.insert(id);
                    *self = IdSet::Many(many);
                    true
                }
            },
            IdSet::Many(m) => m.insert(id),
        }
    }

    /// Takes `id` out; whether it was there.
    fn remove(&mut self, id: &VertexId) -> bool {
        match self {
            IdSet::Few(v) => match v.binary_search(id) {
                Ok(at) => {
                    v.remove(at);
                    true
                }
                Err(_) => false,
            },
            IdSet::Many(m) => m.remove(id),
        }
    }

    fn contains(&self, id: &VertexId) -> bool {
        match self {
            IdSet::Few(v) => v.binary_search(id).is_ok(),
            IdSet::Many(m) => m.contains(id),
        }
    }

    fn len(&self) -> usize {
        match self {
            IdSet::Few(v) => v.len(),
            IdSet::Many(m) => m.len(),
        }
    }

    /// The ids in increasing order.
    fn iter(&self) -> IdSetIter<'_> {
        match self {
            IdSet::Few(v) => IdSetIter::Few(v.iter()),
            IdSet::Many(m) => IdSetIter::Many(m.iter()),
        }
    }

    /// The ids in increasing order, as a vector (the set is used up).
    fn into_vec(self) -> Vec<VertexId> {
        match self {
            IdSet::Few(v) => v.into_vec(),
            IdSet::Many(m) => m.into_iter().collect(),
        }
    }
}

/// [`IdSet::iter`]: either form's own iterator.
enum IdSetIter<'a> {
    Few(std::slice::Iter<'a, VertexId>),
    Many(std::collections::btree_set::Iter<'a, VertexId>),
}

impl<'a> Iterator for IdSetIter<'a> {
    type Item = &'a VertexId;

    fn next(&mut self) -> Option<&'a VertexId> {
        match self {
            IdSetIter::Few(i) => i.next(),
            IdSetIter::Many(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            IdSetIter::Few(i) => i.size_hint(),
            IdSetIter::Many(i) => i.size_hint(),
        }
    }
}

impl<'a> IntoIterator for &'a IdSet {
    type Item = &'a VertexId;
    type IntoIter = IdSetIter<'a>;

    fn into_iter(self) -> IdSetIter<'a> {
        self.iter()
    }
}

impl<V: fmt::Debug> fmt::Debug for Members<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: fmt::Debug> fmt::Debug for Graph<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Graph")
            .field("vertices", &self.vertices)
            .field("detached", &self.detached)
            .field("edges", &self.edges())
            .finish()
    }
}

impl<V> Graph<V> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a vertex and returns its new id. (Go's `Add` deduplicates by value identity; here every
    /// call adds a distinct vertex, use [`Graph::find_by_name`] first when that matters.)
    pub fn add(&mut self, v: V) -> VertexId {
        let id = VertexId(self.next_id);
        self.next_id += 1;
        self.vertices.insert(id, v);
        id
    }

    /// Allocates an id for a vertex that is *not* in the vertex set, so it can only be an edge end
    /// (Go: a value passed to `Connect` without `Add`). [`Graph::admit`] adds it later.
    pub fn add_detached(&mut self, v: V) -> VertexId {
        let id = VertexId(self.next_id);
        self.next_id += 1;
        self.detached.insert(id, v);
        id
    }

    /// Go's `Add` of a vertex the graph already knows as a detached edge end: it joins the vertex
    /// set with the edges it already has. Returns false for an id that is not detached.
    pub fn admit(&mut self, id: VertexId) -> bool {
        match self.detached.remove(&id) {
            Some(v) => {
                self.vertices.insert(id, v);
                true
            }
            None => false,
        }
    }

    /// Whether `id` is a detached edge end (known, not in the vertex set).
    pub fn is_detached(&self, id: VertexId) -> bool {
        self.detached.contains_key(&id)
    }

    /// Removes a vertex and every edge touching it; its id is dead afterwards. (Go keeps the
    /// value, so a later `Connect` with it makes an edge to a vertex outside the set; here that
    /// takes [`Graph::add_detached`]. No OpenTofu transform connects a vertex it removed.) A
    /// detached vertex can be removed too, which drops its edges.
    pub fn remove(&mut self, id: VertexId) -> Option<V> {
        let v = match self.vertices.remove(&id) {
            Some(v) => v,
            None => self.detached.remove(&id)?,
        };
        for to in self.down.remove(&id).unwrap_or_default().into_vec() {
            if let Some(s) = self.up.get_mut(&to) {
                s.remove(&id);
            }
        }
        for from in self.up.remove(&id).unwrap_or_default().into_vec() {
            if let Some(s) = self.down.get_mut(&from) {
                s.remove(&id);
            }
        }
        Some(v)
    }

    /// Replaces the vertex value, keeping its id and all its edges (the effect of Go's `Replace`,
    /// which copies the edges onto the replacement). Returns the old value, or `None` (dropping
    /// `v`) when `id` is not in the graph.
    pub fn replace(&mut self, id: VertexId, v: V) -> Option<V> {
        let slot = self.vertices.get_mut(&id)?;
        Some(std::mem::replace(slot, v))
    }

    /// Adds the edge "`from` depends on `to`". Connecting twice is a no-op, as in Go. Either end
    /// may be detached (Go's `Connect` does not check membership). Returns whether a new edge was
    /// added (false also when an id is unknown to this graph).
    pub fn connect(&mut self, from: VertexId, to: VertexId) -> bool {
        if !self.is_known(from) || !self.is_known(to) {
            return false;
        }
        let added = self.down.set_mut(from).insert(to);
        self.up.set_mut(to).insert(from);
        added
    }

    /// Removes the edge "`from` depends on `to`"; returns whether it existed.
    pub fn remove_edge(&mut self, from: VertexId, to: VertexId) -> bool {
        let removed = self.down.get_mut(&from).is_some_and(|s| s.remove(&to));
        if let Some(s) = self.up.get_mut(&to) {
            s.remove(&from);
        }
        removed
    }

    /// Whether `id` is in the vertex set (Go's `HasVertex`; false for a detached vertex).
    pub fn has_vertex(&self, id: VertexId) -> bool {
        self.vertices.contains_key(&id)
    }

    /// Whether `id` is a member or a detached edge end of this graph.
    pub fn is_known(&self, id: VertexId) -> bool {
        self.vertices.contains_key(&id) || self.detached.contains_key(&id)
    }

    pub fn has_edge(&self, from: VertexId, to: VertexId) -> bool {
        self.down.get(&from).is_some_and(|s| s.contains(&to))
    }

    pub fn vertex(&self, id: VertexId) -> Option<&V> {
        self.vertices.get(&id)
    }

    pub fn vertex_mut(&mut self, id: VertexId) -> Option<&mut V> {
        self.vertices.get_mut(&id)
    }

    /// All vertex ids, in increasing id (insertion) order.
    pub fn ids(&self) -> impl Iterator<Item = VertexId> + '_ {
        self.vertices.keys()
    }

    /// All vertices with their ids, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (VertexId, &V)> + '_ {
        self.vertices.iter()
    }

    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// Every edge as `(from, to)` ("from depends on to"), sorted by id pair; edges with a detached
    /// end included (Go's `Edges`).
    pub fn edges(&self) -> Vec<(VertexId, VertexId)> {
        self.down
            .iter()
            .flat_map(|(f, ts)| ts.iter().map(move |t| (f, *t)))
            .collect()
    }

    pub fn edge_count(&self) -> usize {
        self.down.sets.iter().map(IdSet::len).sum()
    }

    /// Edges whose source is `id` (Go's `EdgesFrom`).
    pub fn edges_from(&self, id: VertexId) -> Vec<(VertexId, VertexId)> {
        self.dependencies(id).map(|t| (id, t)).collect()
    }

    /// Edges whose target is `id` (Go's `EdgesTo`).
    pub fn edges_to(&self, id: VertexId) -> Vec<(VertexId, VertexId)> {
        self.dependents(id).map(|f| (f, id)).collect()
    }

    /// What `id` depends on (Go's `DownEdges`), as a copy.
    pub fn down_edges(&self, id: VertexId) -> BTreeSet<VertexId> {
        self.down
            .get(&id)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// What depends on `id` (Go's `UpEdges`), as a copy.
    pub fn up_edges(&self, id: VertexId) -> BTreeSet<VertexId> {
        self.up
            .get(&id)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// Borrowing form of [`Graph::down_edges`], in id order.
    pub fn dependencies(&self, id: VertexId) -> impl Iterator<Item = VertexId> + '_ {
        self.down.get(&id).into_iter().flatten().copied()
    }

    /// Borrowing form of [`Graph::up_edges`], in id order.
    pub fn dependents(&self, id: VertexId) -> impl Iterator<Item = VertexId> + '_ {
        self.up.get(&id).into_iter().flatten().copied()
    }

    pub(crate) fn up_len(&self, id: VertexId) -> usize {
        self.up.get(&id).map_or(0, IdSet::len)
    }

    /// Copies every vertex and edge of `other` into this graph (Go's `Subsume`, except that
    /// vertices are never merged: ids are per graph). Returns `other`'s ids mapped to the new ones.
    pub fn subsume(&mut self, other: &Graph<V>) -> BTreeMap<VertexId, VertexId>
    where
        V: Clone,
    {
        let mut map: BTreeMap<VertexId, VertexId> = other
            .iter()
            .map(|(id, v)| (id, self.add(v.clone())))
            .collect();
        for (id, v) in &other.detached {
            map.insert(*id, self.add_detached(v.clone()));
        }
        for (f, t) in other.edges() {
            if let (Some(f), Some(t)) = (map.get(&f), map.get(&t)) {
                self.connect(*f, *t);
            }
        }
        map
    }
}

impl<V: Vertex> Graph<V> {
    /// The vertex's name (members and detached vertices), or an empty string for an unknown id.
    pub fn name_of(&self, id: VertexId) -> String {
        self.vertices
            .get(&id)
            .or_else(|| self.detached.get(&id))
            .map(Vertex::name)
            .unwrap_or_default()
    }

    /// The first vertex (lowest id) with this name.
    pub fn find_by_name(&self, name: &str) -> Option<VertexId> {
        self.iter()
            .find(|(_, v)| v.name() == name)
            .map(|(id, _)| id)
    }

    /// The first vertex (lowest id) with this name, members and detached vertices alike.
    pub fn find_known_by_name(&self, name: &str) -> Option<VertexId> {
        self.find_by_name(name).or_else(|| {
            self.detached
                .iter()
                .find(|(_, v)| v.name() == name)
                .map(|(id, _)| *id)
        })
    }

    /// Every vertex id sorted by name, ties by id: the order this module uses wherever Go iterates
    /// a map.
    pub fn ids_by_name(&self) -> Vec<VertexId> {
        let mut named: Vec<(String, VertexId)> =
            self.iter().map(|(id, v)| (v.name(), id)).collect();
        named.sort();
        named.into_iter().map(|(_, id)| id).collect()
    }

    /// Go's `Graph.String()`: vertex names sorted (byte order), each followed by its dependencies'
    /// names, sorted and indented two spaces; one per line.
    pub fn string(&self) -> String {
        let mut out = String::new();
        let mut named: Vec<(String, VertexId)> =
            self.iter().map(|(id, v)| (v.name(), id)).collect();
        named.sort();
        for (name, id) in named {
            out.push_str(&name);
            out.push('\n');
            let mut deps: Vec<String> = self.dependencies(id).map(|t| self.name_of(t)).collect();
            deps.sort();
            for d in deps {
                out.push_str("  ");
                out.push_str(&d);
                out.push('\n');
            }
        }
        out
    }
}

impl<V: Vertex> fmt::Display for Graph<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.string())
    }
}

/// Ranks vertices by (name, id) so algorithms can visit sets in the same order Go's tests do
/// without recomputing names.
pub(crate) struct NameOrder {
    rank: BTreeMap<VertexId, usize>,
}

impl NameOrder {
    /// The ranking of every known vertex (detached ones included, as Go sorts by name whatever
    /// it meets) and the members sorted by name.
    pub(crate) fn new<V: Vertex>(g: &Graph<V>) -> (Self, Vec<VertexId>) {
        let sorted = g.ids_by_name();
        let rank = if g.detached.is_empty() {
            sorted.iter().enumerate().map(|(i, id)| (*id, i)).collect()
        } else {
            let mut all: Vec<(String, VertexId)> = g
                .vertices
                .iter()
                .chain(g.detached.iter().map(|(id, v)| (*id, v)))
                .map(|(id, v)| (v.name(), id))
                .collect();
            all.sort();
            all.iter()
                .enumerate()
                .map(|(i, (_, id))| (*id, i))
                .collect()
        };
        (NameOrder { rank }, sorted)
    }

    /// Sorts ids by name; ids unknown to the ranking (added later) sort last, by id.
    pub(crate) fn sort(&self, ids: &mut [VertexId]) {
        ids.sort_by_key(|id| (self.rank.get(id).copied().unwrap_or(usize::MAX), *id));
    }

    pub(crate) fn sorted(&self, it: impl Iterator<Item = VertexId>) -> Vec<VertexId> {
        let mut v: Vec<VertexId> = it.collect();
        self.sort(&mut v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_sets_stay_sets_in_increasing_order_in_both_forms() {
        // Inserted out of order and twice, past the vector's size and back down: each step is
        // checked against a B-tree set of the same ids.
        let mut s = IdSet::default();
        let mut want: BTreeSet<VertexId> = BTreeSet::new();
        let order = |i: u64| VertexId((i * 37) % 101);
        for i in 0..80 {
            assert_eq!(s.insert(order(i)), want.insert(order(i)), "insert {i}");
            assert!(!s.insert(order(i)), "twice {i}");
            assert_eq!(
                s.iter().copied().collect::<Vec<_>>(),
                want.iter().copied().collect::<Vec<_>>()
            );
            assert_eq!(s.len(), want.len());
            if i == IdSet::FEW as u64 - 1 {
                assert!(
                    matches!(s, IdSet::Few(_)),
                    "{} ids fit the vector",
                    IdSet::FEW
                );
            }
        }
        assert!(
            matches!(s, IdSet::Many(_)),
            "past {} ids, a B-tree",
            IdSet::FEW
        );
        for i in (0..101).step_by(3) {
            let id = VertexId(i);
            assert_eq!(s.remove(&id), want.remove(&id), "remove {i}");
            assert!(!s.contains(&id));
        }
        assert!(s.contains(&order(1)));
        assert_eq!(
            s.clone().into_vec(),
            want.iter().copied().collect::<Vec<_>>()
        );
        let mut few = IdSet::default();
        for i in [5, 1, 3] {
            few.insert(VertexId(i));
        }
        assert!(few.remove(&VertexId(1)) && !few.remove(&VertexId(1)));
        assert_eq!(few.into_vec(), vec![VertexId(3), VertexId(5)]);
    }

    #[test]
    fn members_across_chunks_keep_ids_order_and_count() {
        // More vertices than two chunks hold, some removed, one detached then admitted.
        let mut g: Graph<String> = Graph::new();
        let ids: Vec<VertexId> = (0..600).map(|i| g.add(format!("v{i}"))).collect();
        let late = g.add_detached("late".to_string());
        for id in ids.iter().filter(|id| id.index() % 3 == 0) {
            assert_eq!(g.remove(*id), Some(format!("v{}", id.index())));
        }
        assert_eq!(g.remove(ids[0]), None, "removed once");
        assert!(!g.has_vertex(late) && g.is_known(late));
        assert!(g.admit(late));
        let want: Vec<VertexId> = ids
            .iter()
            .copied()
            .filter(|id| id.index() % 3 != 0)
            .chain([late])
            .collect();
        assert_eq!(g.ids().collect::<Vec<_>>(), want);
        assert_eq!(g.len(), want.len());
        assert_eq!(g.vertex(ids[599]).map(String::as_str), Some("v599"));
        assert_eq!(g.vertex(ids[300]), None);
        assert_eq!(g.vertex(VertexId(100_000)), None, "an id never given out");
        if let Some(v) = g.vertex_mut(ids[256]) {
            v.push('!');
        }
        assert_eq!(g.vertex(ids[256]).map(String::as_str), Some("v256!"));
        for id in g.ids().collect::<Vec<_>>() {
            g.remove(id);
        }
        assert!(g.is_empty() && g.ids().next().is_none());
    }

    fn g3() -> (Graph<String>, [VertexId; 3]) {
        let mut g = Graph::new();
        let a = g.add("1".to_string());
        let b = g.add("2".to_string());
        let c = g.add("3".to_string());
        (g, [a, b, c])
    }

    #[test]
    fn string_sorts_names_and_dependencies() {
        let (mut g, [a, b, c]) = g3();
        g.connect(a, c);
        g.connect(a, b);
        assert_eq!(g.string(), "1\n  2\n  3\n2\n3\n");
    }

    #[test]
    fn connect_is_idempotent_and_remove_drops_edges() {
        let (mut g, [a, b, c]) = g3();
        assert!(g.connect(a, b));
        assert!(!g.connect(a, b));
        g.connect(b, c);
        assert_eq!(g.edge_count(), 2);
        g.remove(b);
        assert_eq!(g.edge_count(), 0);
        assert!(g.down_edges(a).is_empty());
        assert!(g.up_edges(c).is_empty());
        // Ids are not recycled.
        let d = g.add("4".into());
        assert!(d > c);
    }

    #[test]
    fn replace_keeps_edges() {
        let (mut g, [a, b, c]) = g3();
        g.connect(a, b);
        g.connect(b, c);
        assert_eq!(g.replace(b, "42".into()).as_deref(), Some("2"));
        assert_eq!(g.string(), "1\n  42\n3\n42\n  3\n");
    }

    /// Go's `Connect` does not check membership (internal/dag/graph.go `Graph.Connect`), and
    /// `Graph.String` prints every down-edge target of a member, added or not; `Add` of a value
    /// already connected keeps its edges (`Graph.Add` only inserts into the vertex set).
    #[test]
    fn detached_vertices_are_edge_ends_but_not_members() {
        let (mut g, [a, b, _]) = g3();
        let zero = g.add_detached("0".to_string());
        assert!(g.connect(zero, a));
        assert!(g.connect(b, zero));
        assert!(!g.has_vertex(zero) && g.is_known(zero) && g.is_detached(zero));
        assert_eq!(g.len(), 3);
        // String() lists members only, but a member's dependency may be detached.
        assert_eq!(g.string(), "1\n2\n  0\n3\n");
        assert_eq!(g.edges_to(a), vec![(zero, a)]);
        assert_eq!(g.up_edges(a), BTreeSet::from([zero]));
        // Go's Add of the same value later makes it a member with its edges.
        assert!(g.admit(zero));
        assert!(g.has_vertex(zero) && !g.is_detached(zero));
        assert_eq!(g.string(), "0\n  1\n1\n2\n  0\n3\n");
        // Unknown ids still connect nothing.
        let gone = g.add("9".into());
        g.remove(gone);
        assert!(!g.connect(a, gone));
    }
}

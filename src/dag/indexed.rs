//! [`Indexed`]: a graph frozen into dense indexes `0..n`, for readers that ask many questions of
//! one graph (the page: what a vertex depends on, its ancestors and descendants, the edges of a
//! filtered or collapsed view) rather than change it.
//!
//! Invariants: vertices keep the order they were given in; edges are unique, in range, sorted by
//! `(from, to)` and mean "from depends on to" as everywhere in [`crate::dag`]; each vertex's
//! dependency and dependent lists are sorted; a name is found in O(1) (the first vertex of that
//! name). Every query here is O(V + E) or better.
//!
//! [`Graph`] stays the store the builder edits (stable ids, adjacency sets); this is its
//! read-only, array-backed view. Hand-written rather than petgraph's `Graph`, whose node indexes
//! are the same dense numbers, because the page also needs name lookup and the view derivations
//! below, which petgraph does not have.

use super::{Graph, Vertex, VertexId};
use rustc_hash::FxHashMap as HashMap;

/// Edges as `(from, to)` index pairs.
pub type Edges = Vec<(usize, usize)>;

/// A read-only graph over dense vertex indexes (see the module docs).
#[derive(Clone)]
pub struct Indexed<V> {
    vertices: Vec<V>,
    edges: Vec<(usize, usize)>,
    down: Vec<Vec<usize>>,
    up: Vec<Vec<usize>>,
    index: HashMap<String, usize>,
}

impl<V> Default for Indexed<V> {
    fn default() -> Self {
        Indexed {
            vertices: Vec::new(),
            edges: Vec::new(),
            down: Vec::new(),
            up: Vec::new(),
            index: HashMap::default(),
        }
    }
}

/// Two graphs are equal when their vertices and edges are (the lookup tables follow from them).
impl<V: PartialEq> PartialEq for Indexed<V> {
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices && self.edges == other.edges
    }
}

/// Crosses to and from the engine's worker as its vertices and edges; the lookup tables are made
/// again on arrival ([`Indexed::new`]).
impl<V: serde::Serialize> serde::Serialize for Indexed<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(&self.vertices, &self.edges), s)
    }
}

impl<'de, V: Vertex + serde::Deserialize<'de>> serde::Deserialize<'de> for Indexed<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (vertices, edges) = <(Vec<V>, Vec<(usize, usize)>)>::deserialize(d)?;
        Ok(Indexed::new(vertices, edges))
    }
}

impl<V: std::fmt::Debug> std::fmt::Debug for Indexed<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Indexed")
            .field("vertices", &self.vertices)
            .field("edges", &self.edges)
            .finish()
    }
}

impl<V: Vertex> Indexed<V> {
    /// The graph of `vertices` (indexes in this order) and `edges` ("from depends on to");
    /// duplicate edges and edges naming an index out of range are dropped.
    pub fn new(vertices: Vec<V>, edges: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let n = vertices.len();
        let mut edges: Vec<(usize, usize)> =
            edges.into_iter().filter(|&(a, b)| a < n && b < n).collect();
        edges.sort_unstable();
        edges.dedup();
        let mut down = vec![Vec::new(); n];
        let mut up = vec![Vec::new(); n];
        // Sorted by (from, to): each `down` list comes out sorted, and each `up` list too,
        // because its entries arrive in increasing `from` order.
        for &(a, b) in &edges {
            down[a].push(b);
            up[b].push(a);
        }
        let mut index = HashMap::with_capacity_and_hasher(n, Default::default());
        for (i, v) in vertices.iter().enumerate() {
            index.entry(v.name()).or_insert(i);
        }
        Indexed {
            vertices,
            edges,
            down,
            up,
            index,
        }
    }

    /// `g` frozen: vertices in id order, with each index's id.
    pub fn from_graph(g: &Graph<V>) -> (Self, Vec<VertexId>)
    where
        V: Clone,
    {
        let ids: Vec<VertexId> = g.ids().collect();
        let at: HashMap<VertexId, usize> = ids.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let vertices = g.iter().map(|(_, v)| v.clone()).collect();
        let edges = g
            .edges()
            .into_iter()
            .filter_map(|(a, b)| Some((*at.get(&a)?, *at.get(&b)?)));
        (Indexed::new(vertices, edges), ids)
    }

    /// The index of the (first) vertex named `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }
}

impl<V> Indexed<V> {
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    pub fn vertex(&self, i: usize) -> Option<&V> {
        self.vertices.get(i)
    }

    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// Every edge `(from, to)`, sorted.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    pub fn has_edge(&self, from: usize, to: usize) -> bool {
        self.down
            .get(from)
            .is_some_and(|d| d.binary_search(&to).is_ok())
    }

    /// What `i` depends on, sorted.
    pub fn dependencies(&self, i: usize) -> &[usize] {
        self.down.get(i).map_or(&[], Vec::as_slice)
    }

    /// What depends on `i`, sorted.
    pub fn dependents(&self, i: usize) -> &[usize] {
        self.up.get(i).map_or(&[], Vec::as_slice)
    }

    /// Everything `i` depends on transitively, as a mask over the vertices (`i` itself only when
    /// it is on a cycle), as [`Graph::ancestors`]; O(V + E).
    pub fn ancestors(&self, i: usize) -> Vec<bool> {
        self.reach(i, &self.down)
    }

    /// Everything that depends on `i` transitively (a mask, as [`Indexed::ancestors`]).
    pub fn descendants(&self, i: usize) -> Vec<bool> {
        self.reach(i, &self.up)
    }

    fn reach(&self, i: usize, next: &[Vec<usize>]) -> Vec<bool> {
        let mut seen = vec![false; self.len()];
        let mut stack: Vec<usize> = next.get(i).cloned().unwrap_or_default();
        while let Some(v) = stack.pop() {
            if !std::mem::replace(&mut seen[v], true) {
                stack.extend(next[v].iter().copied().filter(|w| !seen[*w]));
            }
        }
        seen
    }

    /// The edges between the vertices `keep` marks that pass only through vertices it does not:
    /// `(u, w)` when `u` depends on `w` directly or through a chain of unmarked vertices. Stopping
    /// at marked vertices gives the same reachability between them as following every path (the
    /// rest follows by transitivity) with far fewer edges. Sorted; O(V + E) per marked vertex.
    pub fn edges_through(&self, keep: &[bool]) -> Vec<(usize, usize)> {
        let kept = |v: usize| keep.get(v).copied().unwrap_or(false);
        // `stamp[v] == u + 1` once `v` was reached from `u`: no clearing between searches.
        let mut stamp = vec![0usize; self.len()];
        let mut out = Vec::new();
        let mut stack = Vec::new();
        for u in (0..self.len()).filter(|&u| kept(u)) {
            stack.extend_from_slice(&self.down[u]);
            while let Some(w) = stack.pop() {
                if stamp[w] == u + 1 {
                    continue;
                }
                stamp[w] = u + 1;
                if kept(w) {
                    if w != u {
                        out.push((u, w));
                    }
                } else {
                    stack.extend_from_slice(&self.down[w]);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The edges once each vertex `v` is replaced by `rep[v]` (vertices merged into one stand for
    /// all of them): edges inside a group go, duplicates go. Sorted.
    pub fn contracted_edges(&self, rep: &[usize]) -> Vec<(usize, usize)> {
        let at = |v: usize| rep.get(v).copied().unwrap_or(v);
        let mut out: Vec<(usize, usize)> = self
            .edges
            .iter()
            .map(|&(a, b)| (at(a), at(b)))
            .filter(|(a, b)| a != b)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl<V: Vertex + Clone> Indexed<V> {
    /// The same graph as a [`Graph`] (for layout and walks), with each index's id.
    pub fn to_graph(&self) -> (Graph<V>, Vec<VertexId>) {
        let mut g = Graph::new();
        let ids: Vec<VertexId> = self.vertices.iter().map(|v| g.add(v.clone())).collect();
        for &(a, b) in &self.edges {
            g.connect(ids[a], ids[b]);
        }
        (g, ids)
    }

    /// The subgraph of the vertices `keep` marks, with the edges among them, and each new index's
    /// old index.
    pub fn induced(&self, keep: &[bool]) -> (Indexed<V>, Vec<usize>) {
        let old: Vec<usize> = (0..self.len())
            .filter(|&i| keep.get(i).copied().unwrap_or(false))
            .collect();
        let mut new = vec![usize::MAX; self.len()];
        for (k, &i) in old.iter().enumerate() {
            new[i] = k;
        }
        let edges = self
            .edges
            .iter()
            .filter(|&&(a, b)| new[a] != usize::MAX && new[b] != usize::MAX)
            .map(|&(a, b)| (new[a], new[b]));
        let vertices = old.iter().map(|&i| self.vertices[i].clone()).collect();
        (Indexed::new(vertices, edges), old)
    }

    /// Which of `edges` the transitive reduction ([`Graph::transitive_reduction`]) keeps and which
    /// it removes, over this graph's vertices.
    pub fn reduce(&self, edges: &[(usize, usize)]) -> (Edges, Edges) {
        let mut g = Graph::new();
        let ids: Vec<VertexId> = self.vertices.iter().map(|v| g.add(v.clone())).collect();
        let at: HashMap<VertexId, usize> = ids.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        for &(a, b) in edges {
            if a < ids.len() && b < ids.len() {
                g.connect(ids[a], ids[b]);
            }
        }
        g.transitive_reduction();
        let mut kept: Vec<(usize, usize)> = g
            .edges()
            .into_iter()
            .filter_map(|(a, b)| Some((*at.get(&a)?, *at.get(&b)?)))
            .collect();
        kept.sort_unstable();
        let mut removed: Vec<(usize, usize)> = edges
            .iter()
            .copied()
            .filter(|e| kept.binary_search(e).is_err())
            .collect();
        removed.sort_unstable();
        removed.dedup();
        (kept, removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(names: &[&str], edges: &[(usize, usize)]) -> Indexed<String> {
        Indexed::new(
            names.iter().map(|s| s.to_string()).collect(),
            edges.iter().copied(),
        )
    }

    #[test]
    fn edges_are_unique_sorted_and_in_range() {
        let x = g(&["a", "b", "c"], &[(1, 0), (0, 2), (1, 0), (0, 1), (2, 9)]);
        assert_eq!(x.edges(), [(0, 1), (0, 2), (1, 0)]);
        assert_eq!(x.dependencies(0), [1, 2]);
        assert_eq!(x.dependents(0), [1]);
        assert!(x.has_edge(1, 0) && !x.has_edge(2, 0));
        assert_eq!(x.index_of("c"), Some(2));
        assert_eq!(x.index_of("z"), None);
    }

    #[test]
    fn ancestors_and_descendants_agree_with_the_graph_store() {
        // a -> b -> c, a -> d, e alone; c -> f -> c is a cycle.
        let x = g(
            &["a", "b", "c", "d", "e", "f"],
            &[(0, 1), (1, 2), (0, 3), (2, 5), (5, 2)],
        );
        let (store, ids) = x.to_graph();
        for i in 0..x.len() {
            let as_set = |mask: Vec<bool>| -> Vec<VertexId> {
                (0..mask.len())
                    .filter(|&k| mask[k])
                    .map(|k| ids[k])
                    .collect()
            };
            let want: Vec<VertexId> = store.ancestors(ids[i]).into_iter().collect();
            assert_eq!(as_set(x.ancestors(i)), want, "ancestors of {i}");
            let want: Vec<VertexId> = store.descendants(ids[i]).into_iter().collect();
            assert_eq!(as_set(x.descendants(i)), want, "descendants of {i}");
        }
    }

    #[test]
    fn edges_through_hidden_vertices_stop_at_kept_ones() {
        // r1 -> v -> r2 -> p, r1 -> p: kept r1, r2, p.
        let x = g(&["r1", "v", "r2", "p"], &[(0, 1), (1, 2), (2, 3), (0, 3)]);
        let keep = [true, false, true, true];
        assert_eq!(x.edges_through(&keep), [(0, 2), (0, 3), (2, 3)]);
        let (kept, removed) = x.reduce(&x.edges_through(&keep));
        assert_eq!(kept, [(0, 2), (2, 3)]);
        assert_eq!(removed, [(0, 3)]);
    }

    #[test]
    fn contraction_merges_groups_and_drops_inner_edges() {
        let x = g(&["a", "m1", "m2", "b"], &[(0, 1), (1, 2), (2, 3), (0, 2)]);
        // m1 and m2 become vertex 4.
        let rep = [0, 4, 4, 3];
        assert_eq!(x.contracted_edges(&rep), [(0, 4), (4, 3)]);
    }

    #[test]
    fn induced_subgraph_keeps_inner_edges() {
        let x = g(&["a", "b", "c"], &[(0, 1), (1, 2), (0, 2)]);
        let (sub, old) = x.induced(&[true, false, true]);
        assert_eq!(old, [0, 2]);
        assert_eq!(sub.edges(), [(0, 1)]);
        assert_eq!(sub.index_of("c"), Some(1));
    }

    #[test]
    fn from_graph_round_trips() {
        let x = g(&["a", "b", "c"], &[(0, 1), (2, 1)]);
        let (store, _) = x.to_graph();
        let (back, ids) = Indexed::from_graph(&store);
        assert_eq!(back, x);
        assert_eq!(ids.len(), 3);
    }
}

//! Compound layering: each module laid out in its own band of layers, as ELK lays out a compound
//! node (a module's box is one node of its parent's layering, its members layered inside it).
//!
//! Every cluster is a *block* unless its members and its siblings depend on each other both ways
//! (a cycle among the children of its parent); such a cluster is *dissolved*: its children are
//! layered among its parent's as if it were not there (it is still drawn as a box). Blocks are
//! layered from the innermost out: a block's children (its own vertices and the blocks directly
//! inside it) get a longest-path layering in which a child block is as tall as its own layering,
//! and an edge between two children runs from the bottom of the upper one to the top of the
//! lower one; then the children with more edges below than above are pulled down next to what
//! they feed, as [`super::rank::rank`] does. A vertex's layer is then the sum of the starts of
//! everything that holds it. So two sibling blocks joined by an edge never share a layer, and an
//! edge into a module leaves the layers above its box before the box begins.
//!
//! Linear in the edges per round of dissolving; a round only runs where a parent's children form
//! a cycle, and each dissolves at least one cluster.

use super::order::Clusters;
use super::rank::{Ranked, kahn};

/// A child of a block in its layering: one of its own vertices or a block directly inside it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Child {
    Vertex(usize),
    Block(usize),
}

struct Blocks<'a> {
    cl: &'a Clusters,
    /// Per cluster: whether it is laid out among its parent's children.
    dissolved: Vec<bool>,
    /// Per block: its start within its parent block's layering.
    start: Vec<usize>,
    /// Per block: how many layers it spans.
    height: Vec<usize>,
    /// Per vertex: its layer within its innermost block.
    vstart: Vec<usize>,
}

impl Blocks<'_> {
    /// The innermost block holding vertex `v` (0: the root).
    fn block_of(&self, v: usize) -> usize {
        self.cl.chain[self.cl.of_node[v]]
            .iter()
            .rev()
            .find(|&&c| !self.dissolved[c])
            .copied()
            .unwrap_or(0)
    }

    /// The child of block `b` that holds vertex `v` (`v` inside `b`).
    fn child(&self, b: usize, v: usize) -> Child {
        let depth = self.cl.chain[b].len();
        match self.cl.chain[self.cl.of_node[v]][depth..]
            .iter()
            .find(|&&c| !self.dissolved[c])
        {
            Some(&c) => Child::Block(c),
            None => Child::Vertex(v),
        }
    }

    /// The layer of vertex `v` in the whole layering: its start in its innermost block plus the
    /// starts of the blocks holding it.
    fn layer(&self, v: usize) -> usize {
        let mut layer = self.vstart[v];
        let mut b = self.block_of(v);
        while b != 0 {
            layer += self.start[b];
            b = self.parent_block(b);
        }
        layer
    }

    /// The innermost block holding block `b` (0: the root).
    fn parent_block(&self, b: usize) -> usize {
        let mut p = self.cl.parent[b];
        while p != 0 && self.dissolved[p] {
            p = self.cl.parent[p];
        }
        p
    }
}

/// The layering described in the module documentation, from `first`'s oriented edges (its
/// cycles already broken); `None` when the graph has no cluster or every cluster is dissolved.
pub(crate) fn layering(first: &Ranked, cl: &Clusters) -> Option<Ranked> {
    let n = first.rank.len();
    if cl.len() <= 1 {
        return None;
    }
    let edges: Vec<(usize, usize)> = first
        .edges
        .iter()
        .flatten()
        .map(|&(u, l, _)| (u, l))
        .collect();
    // Edges by the innermost cluster holding both ends.
    let mut by_common: Vec<Vec<usize>> = vec![Vec::new(); cl.len()];
    for (e, &(u, l)) in edges.iter().enumerate() {
        by_common[cl.common(cl.of_node[u], cl.of_node[l])].push(e);
    }
    let mut bl = Blocks {
        cl,
        dissolved: vec![false; cl.len()],
        start: vec![0; cl.len()],
        height: vec![1; cl.len()],
        vstart: vec![0; n],
    };
    // Clusters' children, and vertices by innermost cluster.
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); cl.len()];
    for c in 1..cl.len() {
        kids[cl.parent[c]].push(c);
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); cl.len()];
    for v in 0..n {
        members[cl.of_node[v]].push(v);
    }
    // Top down (ids put parents first): dissolve the clusters caught in cycles among a block's
    // children; keep each block's children and edges for the layering.
    let mut children: Vec<Vec<Child>> = vec![Vec::new(); cl.len()];
    let mut block_edges: Vec<Vec<usize>> = vec![Vec::new(); cl.len()];
    for b in 0..cl.len() {
        if bl.dissolved[b] {
            continue;
        }
        loop {
            // Its domain: itself and the dissolved clusters directly under it.
            let mut domain = vec![b];
            let mut i = 0;
            while i < domain.len() {
                for &k in &kids[domain[i]] {
                    if bl.dissolved[k] {
                        domain.push(k);
                    }
                }
                i += 1;
            }
            let mut ch: Vec<Child> = Vec::new();
            for &d in &domain {
                ch.extend(members[d].iter().map(|&v| Child::Vertex(v)));
                ch.extend(
                    kids[d]
                        .iter()
                        .filter(|&&k| !bl.dissolved[k])
                        .map(|&k| Child::Block(k)),
                );
            }
            let es: Vec<usize> = domain
                .iter()
                .flat_map(|&d| by_common[d].iter().copied())
                .collect();
            let cyclic = in_cycles(&bl, b, &ch, &es, &edges);
            if cyclic.is_empty() {
                children[b] = ch;
                block_edges[b] = es;
                break;
            }
            for c in cyclic {
                bl.dissolved[c] = true;
            }
        }
    }
    if (1..cl.len()).all(|c| bl.dissolved[c]) {
        return None;
    }
    // Bottom up (children after parents in id order): each block's own layering.
    for b in (0..cl.len()).rev() {
        if bl.dissolved[b] || children[b].is_empty() {
            continue;
        }
        lay_block(&mut bl, b, &children[b], &block_edges[b], &edges);
    }
    let rank: Vec<usize> = (0..n).map(|v| bl.layer(v)).collect();
    let out = super::rank::compacted(rank, first.edges.clone());
    (out.rank != first.rank).then_some(out)
}

/// The clusters among `ch` (the children of block `b`) that lie on a cycle of the children's
/// graph, or between two: what neither Kahn's pass from the sources nor one from the sinks can
/// remove. Empty when the children's graph is acyclic.
fn in_cycles(
    bl: &Blocks,
    b: usize,
    ch: &[Child],
    es: &[usize],
    edges: &[(usize, usize)],
) -> Vec<usize> {
    let index = Index::new(ch);
    let arcs: Vec<(usize, usize)> = es
        .iter()
        .map(|&e| {
            let (u, l) = edges[e];
            (index.of(bl.child(b, u)), index.of(bl.child(b, l)))
        })
        .filter(|(x, y)| x != y)
        .collect();
    let m = ch.len();
    let mut removed = vec![false; m];
    for forward in [true, false] {
        let mut deg = vec![0usize; m];
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); m];
        for &(x, y) in &arcs {
            let (x, y) = if forward { (x, y) } else { (y, x) };
            if !removed[x] && !removed[y] {
                deg[y] += 1;
                out[x].push(y);
            }
        }
        // (A child removed before has no arcs left: it is taken again, and stays removed.)
        for x in kahn(deg, |x| out[x].iter().copied()) {
            removed[x] = true;
        }
    }
    (0..m)
        .filter(|&x| !removed[x])
        .filter_map(|x| match ch[x] {
            Child::Block(c) => Some(c),
            Child::Vertex(_) => None,
        })
        .collect()
}

/// Positions of a block's children in its list.
struct Index {
    blocks: std::collections::BTreeMap<usize, usize>,
    vertices: std::collections::BTreeMap<usize, usize>,
}

impl Index {
    fn new(ch: &[Child]) -> Index {
        let mut blocks = std::collections::BTreeMap::new();
        let mut vertices = std::collections::BTreeMap::new();
        for (i, c) in ch.iter().enumerate() {
            match *c {
                Child::Block(x) => blocks.insert(x, i),
                Child::Vertex(v) => vertices.insert(v, i),
            };
        }
        Index { blocks, vertices }
    }

    fn of(&self, c: Child) -> usize {
        match c {
            Child::Block(x) => self.blocks[&x],
            Child::Vertex(v) => self.vertices[&v],
        }
    }
}

/// Longest-path layering of block `b`'s children (acyclic), heights from the blocks inside,
/// then the pull; sets the children's starts and `b`'s height.
fn lay_block(bl: &mut Blocks, b: usize, ch: &[Child], es: &[usize], edges: &[(usize, usize)]) {
    let index = Index::new(ch);
    let m = ch.len();
    let height = |c: Child, bl: &Blocks| match c {
        Child::Block(x) => bl.height[x],
        Child::Vertex(_) => 1,
    };
    // Arcs (upper child, lower child, the upper one's height less one, 0): an edge leaves a child
    // block at its bottom and enters one at its top. (Letting an edge run from its own end's
    // layer inside a block instead, so that blocks may overlap in layers where nothing joins
    // them, gave 56,658 crossings on `examples/issues` against 35,507.)
    let mut arcs: Vec<(usize, usize, usize, usize)> = Vec::with_capacity(es.len());
    for &e in es {
        let (u, l) = edges[e];
        let (cu, cl) = (bl.child(b, u), bl.child(b, l));
        let (x, y) = (index.of(cu), index.of(cl));
        if x == y {
            continue;
        }
        arcs.push((x, y, height(cu, bl) - 1, 0));
    }
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); m];
    let mut inn: Vec<Vec<usize>> = vec![Vec::new(); m];
    for (a, &(x, y, _, _)) in arcs.iter().enumerate() {
        out[x].push(a);
        inn[y].push(a);
    }
    // Kahn's order, smallest position first among the ready.
    let topo = kahn(inn.iter().map(Vec::len).collect(), |x| {
        out[x].iter().map(|&a| arcs[a].1)
    });
    let mut start = vec![0usize; m];
    for &x in &topo {
        for &a in &out[x] {
            let (_, y, ou, ol) = arcs[a];
            let need = (start[x] + ou + 1).saturating_sub(ol);
            if start[y] < need {
                start[y] = need;
            }
        }
    }
    // The pull: children with more edges below than above move down next to what they feed.
    for &x in topo.iter().rev() {
        if out[x].len() > inn[x].len() {
            let lowest = out[x]
                .iter()
                .map(|&a| {
                    let (_, y, ou, ol) = arcs[a];
                    (start[y] + ol).saturating_sub(ou + 1)
                })
                .min()
                .unwrap_or(0);
            if lowest > start[x] {
                start[x] = lowest;
            }
        }
    }
    let mut h = 1;
    for (i, &c) in ch.iter().enumerate() {
        h = h.max(start[i] + height(c, bl));
        match c {
            Child::Block(x) => bl.start[x] = start[i],
            Child::Vertex(v) => bl.vstart[v] = start[i],
        }
    }
    bl.height[b] = h;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Input, InputNode};

    fn input(clusters: &[&[&str]], edges: &[(usize, usize)]) -> Input {
        let mut g: crate::dag::Graph<String> = crate::dag::Graph::new();
        Input {
            nodes: clusters
                .iter()
                .enumerate()
                .map(|(i, c)| InputNode {
                    id: g.add(format!("v{i}")),
                    name: format!("v{i}"),
                    width: 10.0,
                    height: 10.0,
                    cluster: c.iter().map(|s| s.to_string()).collect(),
                    typed: Default::default(),
                })
                .collect(),
            edges: edges.to_vec(),
        }
    }

    fn layers(inp: &Input) -> Option<Vec<usize>> {
        let first = super::super::rank::rank(inp.nodes.len(), &inp.edges);
        layering(&first, &Clusters::new(inp)).map(|r| r.rank)
    }

    /// Two modules, the second fed by the first's last vertex and by a root vertex: on shared
    /// layers the second module's head would sit beside the first module's body; as blocks, the
    /// second starts below the whole of the first.
    #[test]
    fn a_module_fed_by_another_starts_below_all_of_it() {
        let a: &[&str] = &["module.a"];
        let b: &[&str] = &["module.b"];
        // 0 -> 1 -> 2 -> 3 in a; 2 -> 4 -> 5 in b; root 6 -> 4.
        let inp = input(
            &[a, a, a, a, b, b, &[]],
            &[(0, 1), (1, 2), (2, 3), (2, 4), (4, 5), (6, 4)],
        );
        let r = layers(&inp).expect("a layering of its own");
        let a_last = (0..4).map(|v| r[v]).max().unwrap();
        let b_first = (4..6).map(|v| r[v]).min().unwrap();
        assert!(b_first > a_last, "{r:?}");
        for &(u, l) in &inp.edges {
            assert!(r[u] < r[l], "{r:?}");
        }
    }

    /// Modules that feed each other both ways cannot be blocks one below the other: they are
    /// dissolved into their parent and every edge still points down.
    #[test]
    fn modules_in_a_cycle_are_dissolved() {
        let a: &[&str] = &["module.a"];
        let b: &[&str] = &["module.b"];
        // a0 -> b2 -> a1 -> b3: a and b each before the other.
        let inp = input(&[a, a, b, b], &[(0, 2), (2, 1), (1, 3)]);
        let first = super::super::rank::rank(4, &inp.edges);
        assert!(layering(&first, &Clusters::new(&inp)).is_none());
        // With a third module below both, that one is still a block below them.
        let c: &[&str] = &["module.c"];
        let inp = input(
            &[a, a, b, b, c, c],
            &[(0, 2), (2, 1), (1, 3), (3, 4), (0, 5)],
        );
        let r = layers(&inp).expect("c is a block");
        for &(u, l) in &inp.edges {
            assert!(r[u] < r[l], "{r:?}");
        }
        assert!(r[5] > (0..4).map(|v| r[v]).max().unwrap(), "{r:?}");
    }
}

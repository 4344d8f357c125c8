//! The layered graph (real vertices, dummy vertices on long edges, cluster placeholders) and
//! crossing reduction.
//!
//! Clusters: every item carries its innermost cluster. Layers are sorted lexicographically by the
//! item's cluster chain, each level keyed by the cluster's key (the mean barycenter of all its
//! members over the whole graph, updated after every sweep) and finally by the item's own key. A
//! lexicographic sort keeps every cluster's items contiguous in each layer, and because a cluster's
//! key is global, sibling clusters come in the same order on every layer: the cluster boxes can
//! then be drawn without overlapping. A cluster that spans a layer without a member there gets a
//! zero-width placeholder item so that foreign vertices on that layer stay outside its box.

use super::metrics::accumulate_crossings;
use super::rank::Ranked;
use super::{Direction, Input, LayoutOptions};
use std::collections::BTreeMap;

/// Cluster paths are cut to this depth: several steps recurse along the nesting, and real
/// module trees are a handful of levels deep.
pub(crate) const MAX_CLUSTER_DEPTH: usize = 32;

/// Every cluster path that occurs, with its ancestors. Id 0 is the root (no cluster).
pub(crate) struct Clusters {
    pub paths: Vec<Vec<String>>,
    pub parent: Vec<usize>,
    /// Ancestors from the outermost down to the cluster itself, without the root.
    pub chain: Vec<Vec<usize>>,
    /// Innermost cluster of each input node.
    pub of_node: Vec<usize>,
}

impl Clusters {
    pub(crate) fn new(input: &Input) -> Clusters {
        let mut all: BTreeMap<Vec<String>, usize> = BTreeMap::new();
        all.insert(Vec::new(), 0);
        for nd in &input.nodes {
            for k in 1..=nd.cluster.len().min(MAX_CLUSTER_DEPTH) {
                all.insert(nd.cluster[..k].to_vec(), 0);
            }
        }
        // Ids in path order: parents before children, root first.
        for (i, v) in all.values_mut().enumerate() {
            *v = i;
        }
        let paths: Vec<Vec<String>> = all.keys().cloned().collect();
        let parent: Vec<usize> = paths
            .iter()
            .map(|p| {
                if p.is_empty() {
                    0
                } else {
                    all.get(&p[..p.len() - 1]).copied().unwrap_or(0)
                }
            })
            .collect();
        let mut chain: Vec<Vec<usize>> = Vec::with_capacity(paths.len());
        for c in 0..paths.len() {
            let ch = if c == 0 {
                Vec::new()
            } else {
                let mut ch = chain[parent[c]].clone();
                ch.push(c);
                ch
            };
            chain.push(ch);
        }
        let of_node = input
            .nodes
            .iter()
            .map(|nd| {
                let depth = nd.cluster.len().min(MAX_CLUSTER_DEPTH);
                all.get(&nd.cluster[..depth]).copied().unwrap_or(0)
            })
            .collect();
        Clusters {
            paths,
            parent,
            chain,
            of_node,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.paths.len()
    }

    /// The innermost cluster containing both.
    pub(crate) fn common(&self, a: usize, b: usize) -> usize {
        let (ca, cb) = (&self.chain[a], &self.chain[b]);
        let mut last = 0;
        for (x, y) in ca.iter().zip(cb) {
            if x != y {
                break;
            }
            last = *x;
        }
        last
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Real(usize),
    Dummy,
    Holder,
}

pub(crate) struct LayeredGraph {
    pub kind: Vec<Kind>,
    pub layer: Vec<usize>,
    pub cluster: Vec<usize>,
    /// Extent along the layer (width when top to bottom).
    pub breadth: Vec<f64>,
    /// Extent across layers (height when top to bottom).
    pub depth: Vec<f64>,
    /// Neighbours on the layer above / below.
    pub up: Vec<Vec<usize>>,
    pub down: Vec<Vec<usize>>,
    pub layers: Vec<Vec<usize>>,
    pub pos: Vec<usize>,
    /// Per ranked edge: its items from the upper end to the lower end (empty for self-loops).
    pub chains: Vec<Vec<usize>>,
    /// Per cluster: first and last layer holding one of its (nested) real vertices.
    pub span: Vec<Option<(usize, usize)>>,
    /// Whether bend points on a module's layers belong to the module of the edge's end there
    /// ([`LayeredGraph::border_cluster`]) rather than to the innermost one holding both ends.
    pub border: bool,
}

fn sane(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 {
        v.min(1e6)
    } else {
        0.0
    }
}

impl LayeredGraph {
    pub(crate) fn build(
        input: &Input,
        opts: &LayoutOptions,
        ranked: &Ranked,
        cl: &Clusters,
        border: bool,
    ) -> LayeredGraph {
        let n = input.nodes.len();
        let mut g = LayeredGraph {
            kind: (0..n).map(Kind::Real).collect(),
            layer: ranked.rank.clone(),
            cluster: cl.of_node.clone(),
            breadth: Vec::with_capacity(n),
            depth: Vec::with_capacity(n),
            up: vec![Vec::new(); n],
            down: vec![Vec::new(); n],
            layers: vec![Vec::new(); ranked.layer_count],
            pos: Vec::new(),
            chains: Vec::with_capacity(ranked.edges.len()),
            span: vec![None; cl.len()],
            border,
        };
        for nd in &input.nodes {
            let (w, h) = (sane(nd.width), sane(nd.height));
            let (b, d) = match opts.direction {
                Direction::TopToBottom => (w, h),
                Direction::LeftToRight => (h, w),
            };
            g.breadth.push(b);
            g.depth.push(d);
        }
        // Cluster spans from real vertices.
        for v in 0..n {
            let r = g.layer[v];
            for &c in &cl.chain[g.cluster[v]] {
                g.span[c] = Some(match g.span[c] {
                    None => (r, r),
                    Some((a, b)) => (a.min(r), b.max(r)),
                });
            }
        }
        for e in &ranked.edges {
            let Some((u, l, _)) = *e else {
                g.chains.push(Vec::new());
                continue;
            };
            let c = cl.common(cl.of_node[u], cl.of_node[l]);
            let mut chain = vec![u];
            let mut prev = u;
            for r in ranked.rank[u] + 1..ranked.rank[l] {
                let c = if border {
                    g.border_cluster(cl, c, u, l, r)
                } else {
                    c
                };
                let d = g.push(Kind::Dummy, r, c);
                g.link(prev, d);
                chain.push(d);
                prev = d;
            }
            g.link(prev, l);
            chain.push(l);
            g.chains.push(chain);
        }
        // Which layers of its span each cluster already occupies.
        let mut occupied: Vec<Vec<bool>> = g
            .span
            .iter()
            .map(|s| s.map_or(Vec::new(), |(a, b)| vec![false; b - a + 1]))
            .collect();
        let mark =
            |occ: &mut Vec<Vec<bool>>, span: &[Option<(usize, usize)>], c: usize, r: usize| {
                if let Some((a, b)) = span[c]
                    && r >= a
                    && r <= b
                {
                    occ[c][r - a] = true;
                }
            };
        for it in 0..g.kind.len() {
            for &c in &cl.chain[g.cluster[it]] {
                mark(&mut occupied, &g.span, c, g.layer[it]);
            }
        }
        let mut by_depth: Vec<usize> = (1..cl.len()).collect();
        by_depth.sort_by_key(|&c| (std::cmp::Reverse(cl.chain[c].len()), c));
        for c in by_depth {
            let Some((a, b)) = g.span[c] else { continue };
            for r in a..=b {
                if !occupied[c][r - a] {
                    g.push(Kind::Holder, r, c);
                    for &p in &cl.chain[c] {
                        mark(&mut occupied, &g.span, p, r);
                    }
                }
            }
        }
        for it in 0..g.kind.len() {
            g.layers[g.layer[it]].push(it);
        }
        g.pos = vec![0; g.kind.len()];
        g.refresh_pos();
        g
    }

    /// The cluster of an edge's bend point on layer `r`: the innermost cluster of either end
    /// (below `c`, the one holding both) whose span covers `r`, so that an edge enters a module box
    /// through its top and leaves through its bottom; `c` when neither does. Where both ends'
    /// clusters cover `r`, the upper end's holds the first half of the overlap.
    fn border_cluster(&self, cl: &Clusters, c: usize, u: usize, l: usize, r: usize) -> usize {
        let depth = cl.chain[c].len();
        let inner = |v: usize| {
            cl.chain[cl.of_node[v]][depth..]
                .iter()
                .rev()
                .find(|&&x| self.span[x].is_some_and(|(a, b)| a <= r && r <= b))
                .copied()
        };
        match (inner(u), inner(l)) {
            (None, None) => c,
            (Some(x), None) | (None, Some(x)) => x,
            (Some(x), Some(y)) => {
                // Overlap of the two spans on this edge's layers.
                let lo = self.span[y].map_or(r, |s| s.0).max(self.layer[u] + 1);
                let hi = self.span[x].map_or(r, |s| s.1).min(self.layer[l] - 1);
                if 2 * r <= lo + hi { x } else { y }
            }
        }
    }

    fn push(&mut self, kind: Kind, layer: usize, cluster: usize) -> usize {
        self.kind.push(kind);
        self.layer.push(layer);
        self.cluster.push(cluster);
        self.breadth.push(0.0);
        self.depth.push(0.0);
        self.up.push(Vec::new());
        self.down.push(Vec::new());
        self.kind.len() - 1
    }

    fn link(&mut self, upper: usize, lower: usize) {
        self.down[upper].push(lower);
        self.up[lower].push(upper);
    }

    pub(crate) fn refresh_pos(&mut self) {
        for l in &self.layers {
            for (p, &it) in l.iter().enumerate() {
                self.pos[it] = p;
            }
        }
    }

    fn refresh_layer(&mut self, r: usize) {
        for (p, &it) in self.layers[r].iter().enumerate() {
            self.pos[it] = p;
        }
    }

    /// Crossings between layer `r` and `r + 1` (accumulator tree).
    fn crossings_below(&self, r: usize, scratch: &mut Vec<usize>) -> u64 {
        scratch.clear();
        let mut tmp: Vec<usize> = Vec::new();
        for &u in &self.layers[r] {
            tmp.clear();
            tmp.extend(self.down[u].iter().map(|&w| self.pos[w]));
            tmp.sort_unstable();
            scratch.extend_from_slice(&tmp);
        }
        accumulate_crossings(scratch, self.layers[r + 1].len())
    }

    pub(crate) fn crossings(&self) -> u64 {
        let mut scratch = Vec::new();
        (0..self.layers.len().saturating_sub(1))
            .map(|r| self.crossings_below(r, &mut scratch))
            .sum()
    }
}

/// Sort context shared by all layers of one sweep.
pub(super) struct Keys<'a> {
    pub(super) item: Vec<f64>,
    pub(super) cluster: Vec<f64>,
    pub(super) cl: &'a Clusters,
    pub(super) hint: Option<&'a [Option<f64>]>,
}

impl Keys<'_> {
    /// The sort entry of `it` at cluster nesting `level`: its cluster there, or itself.
    /// Ties between items go to the current order (stable sweeps); between clusters to the id.
    fn entry(&self, g: &LayeredGraph, it: usize, level: usize) -> (f64, u8, usize) {
        match self.cl.chain[g.cluster[it]].get(level) {
            Some(&c) => (self.cluster[c], 0, c),
            None => (self.item[it], 1, g.pos[it]),
        }
    }

    /// Sorts `items` (all in one cluster at nesting `level`) by their entries at this level, then
    /// each run of one sub-cluster recursively: a lexicographic order over the cluster chains
    /// (outermost first), with flat keys that sort much faster than comparing whole chains.
    fn sort_level(
        &self,
        g: &LayeredGraph,
        items: &mut [usize],
        level: usize,
        buf: &mut Vec<(f64, u8, usize, usize)>,
    ) {
        buf.clear();
        buf.extend(items.iter().map(|&it| {
            let e = self.entry(g, it, level);
            (e.0, e.1, e.2, it)
        }));
        buf.sort_unstable_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.cmp(&b.1))
                .then(a.2.cmp(&b.2))
                .then(a.3.cmp(&b.3))
        });
        for (k, e) in buf.iter().enumerate() {
            items[k] = e.3;
        }
        let mut i = 0;
        while i < items.len() {
            let e = self.entry(g, items[i], level);
            let mut j = i + 1;
            if e.1 == 0 {
                while j < items.len()
                    && self.entry(g, items[j], level).1 == 0
                    && self.entry(g, items[j], level).2 == e.2
                {
                    j += 1;
                }
                if j - i > 1 {
                    self.sort_level(g, &mut items[i..j], level + 1, buf);
                }
            }
            i = j;
        }
    }

    fn hinted(&self, g: &LayeredGraph, it: usize) -> Option<f64> {
        match (g.kind[it], self.hint) {
            (Kind::Real(v), Some(h)) => h.get(v).copied().flatten(),
            _ => None,
        }
    }

    pub(super) fn sort_layer(&self, g: &mut LayeredGraph, r: usize) {
        let mut layer = std::mem::take(&mut g.layers[r]);
        let mut buf = Vec::with_capacity(layer.len());
        self.sort_level(g, &mut layer, 0, &mut buf);
        if self.hint.is_some() {
            // Vertices known from the previous layout keep their old relative order within their
            // cluster: they are dealt back into the slots the sort gave them, in hint order.
            type Slots = (Vec<usize>, Vec<(f64, usize)>);
            let mut groups: BTreeMap<usize, Slots> = BTreeMap::new();
            for (slot, &it) in layer.iter().enumerate() {
                if let Some(h) = self.hinted(g, it) {
                    let e = groups.entry(g.cluster[it]).or_default();
                    e.0.push(slot);
                    e.1.push((h, it));
                }
            }
            for (_, (slots, mut items)) in groups {
                items.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                for (s, (_, it)) in slots.into_iter().zip(items) {
                    layer[s] = it;
                }
            }
        }
        g.layers[r] = layer;
        g.refresh_layer(r);
    }
}

fn norm(p: usize, len: usize) -> f64 {
    (p as f64 + 0.5) / len.max(1) as f64
}

/// Mean normalised position of `nbrs` (on a layer of `len` items), if any.
fn barycenter(g: &LayeredGraph, nbrs: &[usize], len: usize) -> Option<f64> {
    if nbrs.is_empty() {
        return None;
    }
    let s: usize = nbrs.iter().map(|&w| g.pos[w]).sum();
    Some((s as f64 / nbrs.len() as f64 + 0.5) / len.max(1) as f64)
}

pub(super) fn add_to_clusters(cl: &Clusters, c: usize, v: f64, sum: &mut [f64], cnt: &mut [u32]) {
    for &a in &cl.chain[c] {
        sum[a] += v;
        cnt[a] += 1;
    }
}

pub(super) fn cluster_means(sum: &[f64], cnt: &[u32], old: &[f64]) -> Vec<f64> {
    sum.iter()
        .zip(cnt)
        .zip(old)
        .map(|((s, &c), &o)| if c > 0 { s / c as f64 } else { o })
        .collect()
}

/// Re-sorts every layer by current position within the current cluster keys, which makes the
/// sibling-cluster order the same on every layer.
fn normalise(g: &mut LayeredGraph, keys: &mut Keys) {
    for r in 0..g.layers.len() {
        let len = g.layers[r].len();
        for &it in &g.layers[r] {
            keys.item[it] = norm(g.pos[it], len);
        }
    }
    for r in 0..g.layers.len() {
        keys.sort_layer(g, r);
    }
}

/// Number of pairs (x in a, y in b) with x > y: crossings if a's edges are left of b's.
fn pair_crossings(a: &[usize], b: &[usize]) -> u64 {
    let mut j = 0;
    let mut total = 0u64;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        total += j as u64;
    }
    total
}

/// The positions of each item's neighbours in the layers above and below layer `r`, sorted, by
/// the item's slot in `r` when made (two flat buffers each), which transpose and sifting weigh
/// their moves by.
struct Neighbours {
    up: (Vec<usize>, Vec<usize>),
    down: (Vec<usize>, Vec<usize>),
}

impl Neighbours {
    fn of(g: &LayeredGraph, r: usize) -> Self {
        let flat = |side: &[Vec<usize>]| {
            let mut data = Vec::new();
            let mut start = Vec::with_capacity(g.layers[r].len() + 1);
            for &it in &g.layers[r] {
                start.push(data.len());
                let from = data.len();
                data.extend(side[it].iter().map(|&w| g.pos[w]));
                data[from..].sort_unstable();
            }
            start.push(data.len());
            (data, start)
        };
        Neighbours {
            up: flat(&g.up),
            down: flat(&g.down),
        }
    }

    fn ups(&self, l: usize) -> &[usize] {
        &self.up.0[self.up.1[l]..self.up.1[l + 1]]
    }

    fn downs(&self, l: usize) -> &[usize] {
        &self.down.0[self.down.1[l]..self.down.1[l + 1]]
    }

    /// Crossings between the edges of the items at slots `x` and `y`, `x` left of `y`.
    fn cost(&self, x: usize, y: usize) -> u64 {
        pair_crossings(self.ups(x), self.ups(y)) + pair_crossings(self.downs(x), self.downs(y))
    }
}

/// What one [`transpose`] of a layer did: crossings removed, and the work it took (units of
/// [`TRANSPOSE_BUDGET`]).
struct Transposed {
    gain: u64,
    work: usize,
}

/// Swaps adjacent items of one cluster, or moves an item past the neighbouring block of a
/// sub-cluster, while that lowers the crossings with both neighbouring layers; bounded passes.
/// Sibling clusters are never swapped here (their order is global). With `equal`, two items of
/// one cluster whose edges cross as often either way (and at all) are swapped too (dot's
/// "reverse" transpose): a step along a plateau that lets the following sweeps out of it.
fn transpose(g: &mut LayeredGraph, keys: &Keys, r: usize, equal: bool) -> Transposed {
    let len = g.layers[r].len();
    let mut done = Transposed { gain: 0, work: 0 };
    if len < 2 {
        return done;
    }
    let nb = Neighbours::of(g, r);
    let size = len + nb.up.0.len() + nb.down.0.len();
    done.work = size;
    // local[p] = the slot (in `nb`) of the item now at slot p
    let mut local: Vec<usize> = (0..len).collect();
    let cl = keys.cl;
    let cost = |x: usize, y: usize| nb.cost(x, y);
    for _ in 0..12 {
        done.work += size;
        let mut improved = false;
        let mut p = 0;
        while p + 1 < len {
            let (a, b) = (g.layers[r][p], g.layers[r][p + 1]);
            let (ca, cb) = (&cl.chain[g.cluster[a]], &cl.chain[g.cluster[b]]);
            let k = ca.iter().zip(cb.iter()).take_while(|(x, y)| x == y).count();
            match (k >= ca.len(), k >= cb.len()) {
                // Two items of one cluster.
                (true, true) => {
                    if keys.hinted(g, a).is_none() || keys.hinted(g, b).is_none() {
                        let (la, lb) = (local[p], local[p + 1]);
                        let (keep, swap) = (cost(la, lb), cost(lb, la));
                        if swap < keep || (equal && swap == keep && keep > 0) {
                            g.layers[r].swap(p, p + 1);
                            local.swap(p, p + 1);
                            if swap < keep {
                                done.gain += keep - swap;
                                improved = true;
                            }
                        }
                    }
                    p += 1;
                }
                // An item, then the block of a sub-cluster: move the item past the block?
                (true, false) => {
                    let c = cb[k];
                    let mut q = p + 1;
                    while q < len && cl.chain[g.cluster[g.layers[r][q]]].get(k) == Some(&c) {
                        q += 1;
                    }
                    let la = local[p];
                    let (keep, swap) = (p + 1..q).fold((0, 0), |(kp, sw), j| {
                        (kp + cost(la, local[j]), sw + cost(local[j], la))
                    });
                    if swap < keep {
                        g.layers[r][p..q].rotate_left(1);
                        local[p..q].rotate_left(1);
                        done.gain += keep - swap;
                        improved = true;
                    }
                    p = q;
                }
                // The block of a sub-cluster, then an item: move the item before the block?
                (false, true) => {
                    let c = ca[k];
                    let mut s = p;
                    while s > 0 && cl.chain[g.cluster[g.layers[r][s - 1]]].get(k) == Some(&c) {
                        s -= 1;
                    }
                    let lb = local[p + 1];
                    let (keep, swap) = (s..=p).fold((0, 0), |(kp, sw), j| {
                        (kp + cost(local[j], lb), sw + cost(lb, local[j]))
                    });
                    if swap < keep {
                        g.layers[r][s..=p + 1].rotate_right(1);
                        local[s..=p + 1].rotate_right(1);
                        done.gain += keep - swap;
                        improved = true;
                    }
                    p += 1;
                }
                // Sibling clusters keep the one order they have on every layer.
                (false, false) => p += 1,
            }
        }
        if !improved {
            break;
        }
    }
    g.refresh_layer(r);
    done
}

/// Transpose on every layer of `rows`, then again on the layers next to one that gained, until a
/// round gains nothing (dot's `transpose`, which runs to convergence), while `budget` lasts; once
/// it is spent, each layer is transposed once, as before this existed.
fn transpose_layers(
    g: &mut LayeredGraph,
    keys: &Keys,
    rows: &[usize],
    equal: bool,
    budget: &mut usize,
) {
    if *budget == 0 {
        for &r in rows {
            transpose(g, keys, r, false);
        }
        return;
    }
    let n = g.layers.len();
    let mut candidate = vec![true; n];
    loop {
        let mut gain = 0;
        for &r in rows {
            if !candidate[r] {
                continue;
            }
            candidate[r] = false;
            let t = transpose(g, keys, r, equal);
            *budget = budget.saturating_sub(t.work);
            gain += t.gain;
            // Only a layer that gained wakes its neighbours. Waking them after equal swaps too, as
            // dot does, gave 3.7% fewer crossings on the deep DAG at 1,000 vertices (seeds 1-3)
            // at 3x the time, and 4-10x the time at 10,000 (docs/layout.md, 2026-11-27).
            if t.gain > 0 {
                if r > 0 {
                    candidate[r - 1] = true;
                }
                if r + 1 < n {
                    candidate[r + 1] = true;
                }
            }
            if *budget == 0 {
                return;
            }
        }
        if gain == 0 {
            return;
        }
    }
}

/// Sifting (Matuszewski, Schönfeld and Molitor): each item in turn, most connected first, is
/// taken out of layer `r` and put back at the place among the items of its own cluster where it
/// crosses fewest edges with both neighbouring layers (never inside the block of a sub-cluster,
/// so clusters stay contiguous; hinted vertices stay where the hint put them). Moving an item
/// past another changes the crossings by the two's pair counts only, so one item costs
/// O(len · degree + edges of the layer). Returns the crossings removed.
fn sift(g: &mut LayeredGraph, keys: &Keys, r: usize) -> u64 {
    let len = g.layers[r].len();
    if len < 3 {
        return 0;
    }
    let nb = Neighbours::of(g, r);
    let (ups, downs) = (|l: usize| nb.ups(l), |l: usize| nb.downs(l));
    // Crossings between x's and y's edges with x left of y.
    let cost = |x: usize, y: usize| nb.cost(x, y);
    let cl = keys.cl;
    // The layer as local indexes (into the flat buffers), and the items behind them.
    let items: Vec<usize> = g.layers[r].clone();
    let mut seq: Vec<usize> = (0..len).collect();
    let mut by_degree: Vec<usize> = (0..len)
        .filter(|&l| keys.hinted(g, items[l]).is_none())
        .collect();
    by_degree.sort_by_key(|&l| (std::cmp::Reverse(ups(l).len() + downs(l).len()), l));
    let mut gained = 0u64;
    let mut delta: Vec<i64> = Vec::with_capacity(len);
    for v in by_degree {
        if ups(v).is_empty() && downs(v).is_empty() {
            continue;
        }
        let Some(p) = seq.iter().position(|&l| l == v) else {
            continue;
        };
        let c = g.cluster[items[v]];
        let depth = cl.chain[c].len();
        let inside =
            |l: usize| depth == 0 || cl.chain[g.cluster[items[l]]].get(depth - 1) == Some(&c);
        let child = |l: usize| cl.chain[g.cluster[items[l]]].get(depth).copied();
        let (mut s, mut e) = (p, p + 1);
        while s > 0 && inside(seq[s - 1]) {
            s -= 1;
        }
        while e < len && inside(seq[e]) {
            e += 1;
        }
        // The others of the block in order; gap k puts v before others[k].
        let others: Vec<usize> = seq[s..e].iter().copied().filter(|&l| l != v).collect();
        delta.clear();
        delta.extend(
            others
                .iter()
                .map(|&w| cost(w, v) as i64 - cost(v, w) as i64),
        );
        // Cost of each gap relative to gap 0, walking right; the best allowed gap wins, the
        // current one on a tie.
        let now = p - s;
        let (mut run, mut at_now) = (0i64, 0i64);
        let (mut best_cost, mut best_at) = (i64::MAX, now);
        for k in 0..=others.len() {
            if k > 0 {
                run += delta[k - 1];
            }
            if k == now {
                at_now = run;
            }
            let allowed = k == 0
                || k == others.len()
                || child(others[k - 1]).is_none()
                || child(others[k - 1]) != child(others[k]);
            if allowed && (run < best_cost || (run == best_cost && k == now)) {
                best_cost = run;
                best_at = k;
            }
        }
        if best_cost < at_now && best_at != now {
            gained += (at_now - best_cost) as u64;
            let mut block = others;
            block.insert(best_at, v);
            seq[s..e].copy_from_slice(&block);
        }
    }
    for (k, &l) in seq.iter().enumerate() {
        g.layers[r][k] = items[l];
    }
    g.refresh_layer(r);
    gained
}

/// Sifting rounds over all layers (down, then up, ...) while they pay, within a work budget.
fn sift_all(g: &mut LayeredGraph, keys: &Keys) {
    let layer_count = g.layers.len();
    // Work of one round: each layer's items times its edges.
    let work: usize = (0..layer_count)
        .map(|r| {
            let l = &g.layers[r];
            l.len()
                * l.iter()
                    .map(|&it| g.up[it].len() + g.down[it].len())
                    .sum::<usize>()
        })
        .sum();
    let rounds = (SIFT_BUDGET / work.max(1)).min(MAX_SIFT_ROUNDS);
    for round in 0..rounds {
        let mut gained = 0;
        for i in 0..layer_count {
            let r = if round % 2 == 0 {
                i
            } else {
                layer_count - 1 - i
            };
            gained += sift(g, keys, r);
        }
        if gained == 0 {
            break;
        }
    }
}

/// Bounds of [`sift_all`]: rounds, and the work of all rounds (items × edges summed over layers).
/// One unit is about 10 ns natively, three times that in the browser. Issue 16's deep DAG at
/// 1,000 vertices is about 350,000 a round (four rounds), at 10,000 about 3,600,000 (one round);
/// the plan graph of 1,000 generated resources, whose layers are hundreds of items wide, is
/// 5,500,000 a round: with a budget of 40,000,000 its four rounds took its layout in the page
/// from about 120 ms to 760 ms, so graphs that wide are not sifted.
const MAX_SIFT_ROUNDS: usize = 4;
const SIFT_BUDGET: usize = 4_000_000;

/// Work budget for restarts, in items: a graph of `items` items gets `RESTART_BUDGET / items`
/// starts (at most [`MAX_STARTS`], at least one). One start costs ~3.5 µs per item natively.
const RESTART_BUDGET: usize = 12_000;
const MAX_STARTS: usize = 8;
/// Work budget for sweeps, in items: above `SWEEP_BUDGET / max_sweeps` items, fewer sweeps.
const SWEEP_BUDGET: usize = 1_500_000;

/// Work budget of [`transpose_layers`] run to convergence, for all starts of one search: units of
/// a layer's items and edges per pass (about 6 ns each natively).
const TRANSPOSE_BUDGET: usize = 12_000_000;

/// Whether the transposes after sweep `sweep` swap pairs that cross as often either way: dot's
/// schedule, two sweeps of every four.
fn equal_swaps(sweep: usize) -> bool {
    sweep % 4 >= 2
}

/// Orders the layers of several layerings of one graph (the same items ranked several ways; see
/// the module's documentation), for the price of one and a start each: every one gets the first
/// start, and only the one with the fewest crossings then (the earliest on a tie) gets the other
/// starts and sifting. Returns which was kept.
pub(crate) fn order_best(
    gs: &mut [LayeredGraph],
    cl: &Clusters,
    hint: Option<&[Option<f64>]>,
    opts: &LayoutOptions,
) -> usize {
    let mut searches: Vec<Search> = gs.iter().map(|g| Search::new(g, cl, hint)).collect();
    // One transposition budget for all: what each first start leaves goes on.
    let mut budget = TRANSPOSE_BUDGET;
    let mut best: Option<(u64, usize)> = None;
    for (i, (s, g)) in searches.iter_mut().zip(gs.iter_mut()).enumerate() {
        s.budget = budget;
        let c = s.first(g, opts);
        budget = s.budget;
        if best.is_none_or(|(b, _)| c < b) {
            best = Some((c, i));
        }
    }
    let Some((_, won)) = best else { return 0 };
    let mut s = searches.swap_remove(won);
    s.budget = budget;
    s.finish(&mut gs[won], opts);
    won
}

/// The crossing-reduction search on one layered graph: several starts while the graph is small
/// (initial orders from a top-down and a bottom-up barycenter pass, then from shuffled first
/// layers, a fixed seed so still deterministic), each improved by sweeps; the best wins (the
/// earliest on a tie) and is sifted.
struct Search<'a> {
    keys: Keys<'a>,
    /// The layers as built, where every start begins.
    start: Vec<Vec<usize>>,
    starts: usize,
    rng: super::SplitMix,
    best: Option<(u64, Vec<Vec<usize>>)>,
    /// What is left of [`TRANSPOSE_BUDGET`] for all starts.
    budget: usize,
}

impl<'a> Search<'a> {
    fn new(g: &LayeredGraph, cl: &'a Clusters, hint: Option<&'a [Option<f64>]>) -> Self {
        Search {
            keys: Keys {
                item: vec![0.0; g.kind.len()],
                cluster: vec![0.5; cl.len()],
                cl,
                hint,
            },
            start: g.layers.clone(),
            starts: (RESTART_BUDGET / g.kind.len().max(1)).clamp(1, MAX_STARTS),
            rng: super::SplitMix::new(0x5eed),
            best: None,
            budget: TRANSPOSE_BUDGET,
        }
    }

    /// The first start; its crossings.
    fn first(&mut self, g: &mut LayeredGraph, opts: &LayoutOptions) -> u64 {
        self.run(g, 0, opts)
    }

    fn run(&mut self, g: &mut LayeredGraph, run: usize, opts: &LayoutOptions) -> u64 {
        if g.layers.is_empty() {
            return 0;
        }
        let keys = &mut self.keys;
        if run > 0 {
            g.layers = self.start.clone();
            g.refresh_pos();
            keys.cluster.iter_mut().for_each(|k| *k = 0.5);
        }
        let downward = run.is_multiple_of(2);
        if run >= 2 {
            let r = if downward { 0 } else { g.layers.len() - 1 };
            let layer = &mut g.layers[r];
            for i in (1..layer.len()).rev() {
                layer.swap(i, self.rng.below(i + 1));
            }
            g.refresh_layer(r);
        }
        initial(g, keys, downward, run >= 2);
        let c = improve(g, keys, opts, &mut self.budget);
        if self.best.as_ref().is_none_or(|(b, _)| c < *b) {
            self.best = Some((c, g.layers.clone()));
        }
        c
    }

    /// The other starts (until one has no crossing), then the best sifted.
    fn finish(mut self, g: &mut LayeredGraph, opts: &LayoutOptions) {
        if g.layers.is_empty() {
            return;
        }
        let mut run = 1;
        while run < self.starts && self.best.as_ref().is_some_and(|(c, _)| *c > 0) {
            self.run(g, run, opts);
            run += 1;
        }
        if let Some((_, layers)) = self.best.take() {
            g.layers = layers;
            g.refresh_pos();
        }
        // Sifting the winner only: sifting every start gave 1-2% fewer crossings at twice the time.
        if opts.transpose {
            sift_all(g, &self.keys);
        }
    }
}

/// One barycenter pass from the top (or bottom) layer; hinted vertices use their old place.
fn initial(g: &mut LayeredGraph, keys: &mut Keys, downward: bool, keep_first: bool) {
    let cl = keys.cl;
    let layer_count = g.layers.len();
    let mut sum = vec![0.0; cl.len()];
    let mut cnt = vec![0u32; cl.len()];
    for i in 0..layer_count {
        let r = if downward { i } else { layer_count - 1 - i };
        let len = g.layers[r].len();
        let fixed = if downward {
            r.checked_sub(1).map_or(0, |f| g.layers[f].len())
        } else {
            g.layers.get(r + 1).map_or(0, Vec::len)
        };
        for p in 0..len {
            let it = g.layers[r][p];
            let nb = if downward { &g.up[it] } else { &g.down[it] };
            let k = keys
                .hinted(g, it)
                .or_else(|| barycenter(g, nb, fixed))
                .unwrap_or_else(|| norm(p, len));
            keys.item[it] = k;
            add_to_clusters(cl, g.cluster[it], k, &mut sum, &mut cnt);
        }
        keys.cluster = cluster_means(&sum, &cnt, &keys.cluster);
        if !(keep_first && i == 0) {
            keys.sort_layer(g, r);
        }
    }
}

/// Alternating sweeps from the current order; leaves the best order found in `g` and returns
/// its crossings.
fn improve(g: &mut LayeredGraph, keys: &mut Keys, opts: &LayoutOptions, budget: &mut usize) -> u64 {
    let cl = keys.cl;
    let layer_count = g.layers.len();
    normalise(g, keys);
    if opts.transpose {
        let all: Vec<usize> = (0..layer_count).collect();
        transpose_layers(g, keys, &all, false, budget);
    }
    let mut best = g.crossings();
    let mut best_layers = g.layers.clone();
    let mut stall = 0;
    // Bounded work: very large layered graphs (long edges everywhere) get fewer sweeps.
    let sweeps = (SWEEP_BUDGET / g.kind.len().max(1)).clamp(4, opts.max_sweeps.max(4));
    for sweep in 0..sweeps.min(opts.max_sweeps) {
        if best == 0 {
            break;
        }
        let downward = sweep % 2 == 0;
        let mut sum = vec![0.0; cl.len()];
        let mut cnt = vec![0u32; cl.len()];
        let rows: Vec<usize> = if downward {
            (0..layer_count).collect()
        } else {
            (0..layer_count).rev().collect()
        };
        for (i, &r) in rows.iter().enumerate() {
            let len = g.layers[r].len();
            let above = r.checked_sub(1).map_or(0, |f| g.layers[f].len());
            let below = g.layers.get(r + 1).map_or(0, Vec::len);
            let (fixed_len, other_len) = if downward {
                (above, below)
            } else {
                (below, above)
            };
            for p in 0..len {
                let it = g.layers[r][p];
                let (nb, other) = if downward {
                    (&g.up[it], &g.down[it])
                } else {
                    (&g.down[it], &g.up[it])
                };
                // Without neighbours on the fixed side, follow the other side.
                let k = if i == 0 {
                    norm(p, len)
                } else {
                    barycenter(g, nb, fixed_len)
                        .or_else(|| barycenter(g, other, other_len))
                        .unwrap_or_else(|| norm(p, len))
                };
                keys.item[it] = k;
                add_to_clusters(cl, g.cluster[it], k, &mut sum, &mut cnt);
            }
            if i > 0 {
                keys.sort_layer(g, r);
            }
        }
        keys.cluster = cluster_means(&sum, &cnt, &keys.cluster);
        normalise(g, keys);
        if opts.transpose {
            // Equal swaps on two sweeps of every four, as dot does.
            transpose_layers(g, keys, &rows, equal_swaps(sweep), budget);
        }
        let c = g.crossings();
        if c < best {
            best = c;
            best_layers = g.layers.clone();
            stall = 0;
        } else {
            stall += 1;
            // A previous layout's order (an edit in the page) starts near where the sweeps
            // end: on the generated 1,000 resources (three edits) one idle sweep stops it with
            // as few crossings as a fresh layout of the same graph (22,448-23,823 against
            // 22,089-22,815; four idle sweeps gave 20,736-21,376) in 35 ms instead of 58-80.
            if stall >= if keys.hint.is_some() { 1 } else { 4 } {
                break;
            }
        }
    }
    g.layers = best_layers;
    g.refresh_pos();
    best
}

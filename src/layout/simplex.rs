//! Network simplex ranking (Gansner, Koutsofios, North and Vo, "A technique for drawing directed
//! graphs", 1993, section 2): layers that minimise the total length of the edges, every edge at
//! least one layer long. It starts from a feasible ranking (`rank.rs`'s longest path and pull),
//! builds a spanning tree of tight edges, then exchanges tree edges of negative cut value for
//! the non-tree edge of least slack that reconnects the tree, until no cut value is negative.
//! Equal in- and out-degree vertices are then moved to the least crowded layer they can take
//! (dot's top-to-bottom balancing), which keeps the length and narrows the widest layers.
//!
//! Written here rather than taken from a crate: the layout's ranks come from its own cycle
//! breaking and feed its own layered graph, and what crates offer (`rust-sugiyama`) ranks
//! petgraph graphs with no hook for a starting ranking or a work bound.
//!
//! Cut values are recomputed in full after each exchange, O(V + E): simpler than dot's
//! incremental update, and the work is bounded by [`MAX_WORK`] and [`MAX_SIZE`], so only graphs
//! where the whole optimisation fits run it (issue 16's deep DAG at 1,000 vertices, real plan
//! graphs; the layout of 10,000 vertices keeps longest path and pull).

/// Bound on exchanges × (vertices + edges), about 5 ns a unit natively. Issue 16's deep DAG at
/// 1,000 vertices takes 306 exchanges (about 900,000 units), the real plan graphs of
/// `../shared/realworld` 33-70.
pub(crate) const MAX_WORK: usize = 20_000_000;
/// Graphs larger than this (vertices + edges) are not refined: the layout orders both rankings
/// (`order::order_best`), one start more, which at the generated plan graph of 2,250 resources
/// (8,200) took its layout from about 400 to 610 ms, and refining gave it nothing. The largest
/// real plan graph measured (terraform-aws-vpc `examples/issues`) is 6,002.
pub(crate) const MAX_SIZE: usize = 7_000;

/// Ranks `rank` (feasible for `edges`: every `(upper, lower)` has `rank[upper] < rank[lower]`) so
/// that the total edge length is least, when the work fits [`MAX_WORK`]; returns whether it ran
/// to the optimum. Ranks stay feasible whatever happens; they may come back shifted (the caller
/// compacts them).
pub(crate) fn refine(
    n: usize,
    edges: &[(usize, usize)],
    weights: &[i64],
    rank: &mut [usize],
) -> bool {
    let size = n + edges.len();
    if n < 3 || edges.is_empty() {
        return true;
    }
    let mut r: Vec<i64> = rank.iter().map(|&x| x as i64).collect();
    let mut ns = Simplex::new(n, edges, weights);
    ns.tight_tree(&mut r);
    let mut optimal = false;
    let mut work = 0usize;
    let mut cursor = 0usize;
    while work + size <= MAX_WORK {
        work += size;
        ns.number();
        ns.cut_values();
        let Some(leave) = ns.leaving(&mut cursor) else {
            optimal = true;
            break;
        };
        let (enter, slack) = ns.entering(leave, &r);
        ns.exchange(leave, enter, slack, &mut r);
    }
    if optimal {
        ns.balance(&mut r);
    }
    let min = r.iter().copied().min().unwrap_or(0);
    for (out, x) in rank.iter_mut().zip(&r) {
        *out = (x - min) as usize;
    }
    optimal
}

/// A spanning forest of the graph (one tree per weakly connected component) and what the
/// exchanges read.
struct Simplex<'a> {
    edges: &'a [(usize, usize)],
    weights: &'a [i64],
    /// Edge indexes at each vertex (both directions).
    at: Vec<Vec<usize>>,
    tree: Vec<bool>,
    /// Tree edges at each vertex.
    tree_at: Vec<Vec<usize>>,
    /// Postorder number of each vertex in its tree, and the least number in its subtree.
    lim: Vec<usize>,
    low: Vec<usize>,
    /// The tree edge to each vertex's parent (`usize::MAX` at a root).
    parent: Vec<usize>,
    /// Cut value of each tree edge.
    cut: Vec<i64>,
    /// Tree edges in the order [`Simplex::number`] met them, which the search for a leaving edge
    /// walks round.
    order: Vec<usize>,
}

fn slack(r: &[i64], (u, l): (usize, usize)) -> i64 {
    r[l] - r[u] - 1
}

impl<'a> Simplex<'a> {
    fn new(n: usize, edges: &'a [(usize, usize)], weights: &'a [i64]) -> Self {
        let mut at = vec![Vec::new(); n];
        for (e, &(u, l)) in edges.iter().enumerate() {
            at[u].push(e);
            at[l].push(e);
        }
        Simplex {
            edges,
            weights,
            at,
            tree: vec![false; edges.len()],
            tree_at: vec![Vec::new(); n],
            lim: vec![0; n],
            low: vec![0; n],
            parent: vec![usize::MAX; n],
            cut: vec![0; edges.len()],
            order: Vec::new(),
        }
    }

    fn other(&self, e: usize, v: usize) -> usize {
        let (u, l) = self.edges[e];
        if u == v { l } else { u }
    }

    fn add_tree_edge(&mut self, e: usize) {
        let (u, l) = self.edges[e];
        self.tree[e] = true;
        self.tree_at[u].push(e);
        self.tree_at[l].push(e);
    }

    /// A spanning tree of tight edges in every component: grown from its first vertex along
    /// tight edges; while it does not span the component, the component's edge of least slack
    /// with one end in the tree is made tight by moving the whole tree, and growth goes on.
    fn tight_tree(&mut self, r: &mut [i64]) {
        let n = self.at.len();
        let mut in_tree = vec![false; n];
        let mut stack = Vec::new();
        for s in 0..n {
            if in_tree[s] {
                continue;
            }
            // The component's vertices and edges.
            let mut comp = vec![s];
            let mut seen_edge = Vec::new();
            let mut mark = vec![s];
            in_tree[s] = true;
            while let Some(v) = mark.pop() {
                for &e in &self.at[v] {
                    let w = self.other(e, v);
                    if !in_tree[w] {
                        in_tree[w] = true;
                        comp.push(w);
                        mark.push(w);
                    }
                }
            }
            for &v in &comp {
                in_tree[v] = false;
                for &e in &self.at[v] {
                    if self.edges[e].0 == v {
                        seen_edge.push(e);
                    }
                }
            }
            let mut members = vec![s];
            in_tree[s] = true;
            stack.push(s);
            loop {
                while let Some(v) = stack.pop() {
                    for i in 0..self.at[v].len() {
                        let e = self.at[v][i];
                        let w = self.other(e, v);
                        if !in_tree[w] && slack(r, self.edges[e]) == 0 {
                            in_tree[w] = true;
                            members.push(w);
                            self.add_tree_edge(e);
                            stack.push(w);
                        }
                    }
                }
                if members.len() == comp.len() {
                    break;
                }
                let mut best: Option<(i64, usize)> = None;
                for &e in &seen_edge {
                    let (u, l) = self.edges[e];
                    if in_tree[u] != in_tree[l] {
                        let s = slack(r, (u, l));
                        if best.is_none_or(|(b, _)| s < b) {
                            best = Some((s, e));
                        }
                    }
                }
                let Some((s, e)) = best else { break };
                let (u, _) = self.edges[e];
                // Tail in the tree: the tree moves down to the head; else up to the tail.
                let delta = if in_tree[u] { s } else { -s };
                for &v in &members {
                    r[v] += delta;
                }
                let v = if in_tree[u] { u } else { self.edges[e].1 };
                stack.push(v);
            }
        }
    }

    /// Postorder numbers (`lim`, `low`) and parent edges, by an iterative walk of each tree from
    /// its lowest-numbered vertex.
    fn number(&mut self) {
        let n = self.at.len();
        let mut done = vec![false; n];
        let mut next = 0;
        self.order.clear();
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if done[root] {
                continue;
            }
            done[root] = true;
            self.parent[root] = usize::MAX;
            self.low[root] = next;
            stack.push((root, 0));
            while let Some(&mut (v, ref mut i)) = stack.last_mut() {
                if let Some(&e) = self.tree_at[v].get(*i) {
                    *i += 1;
                    let w = self.other(e, v);
                    if !done[w] {
                        done[w] = true;
                        self.parent[w] = e;
                        self.low[w] = next;
                        self.order.push(e);
                        stack.push((w, 0));
                    }
                } else {
                    self.lim[v] = next;
                    next += 1;
                    stack.pop();
                }
            }
        }
    }

    /// The end of tree edge `e` further from the root: the other side of `e` is its subtree.
    fn below(&self, e: usize) -> usize {
        let (u, l) = self.edges[e];
        if self.parent[u] == e { u } else { l }
    }

    fn in_subtree(&self, v: usize, of: usize) -> bool {
        self.low[of] <= self.lim[v] && self.lim[v] <= self.lim[of]
    }

    /// Every tree edge's cut value: with `S` the subtree below the edge, the edges leaving `S`
    /// minus those entering it, signed by whether the tree edge itself leaves `S`.
    fn cut_values(&mut self) {
        let n = self.at.len();
        // Vertices by postorder, so that children come before their parent.
        let mut by_lim = vec![0; n];
        for v in 0..n {
            by_lim[self.lim[v]] = v;
        }
        // Net edges leaving each subtree (an edge inside it counts +1 and -1).
        let mut net = vec![0i64; n];
        for &v in &by_lim {
            let own: i64 = self.at[v]
                .iter()
                .map(|&e| {
                    if self.edges[e].0 == v {
                        self.weights[e]
                    } else {
                        -self.weights[e]
                    }
                })
                .sum();
            net[v] += own;
            let p = self.parent[v];
            if p != usize::MAX {
                let up = self.other(p, v);
                let below = net[v];
                net[up] += below;
                self.cut[p] = if self.edges[p].0 == v { below } else { -below };
            }
        }
    }

    /// A tree edge of negative cut value: among the first few found walking round from `cursor`,
    /// the most negative (dot's search).
    fn leaving(&self, cursor: &mut usize) -> Option<usize> {
        const SEARCH: usize = 30;
        let m = self.order.len();
        let mut best: Option<usize> = None;
        let mut found = 0;
        for k in 0..m {
            let e = self.order[(*cursor + k) % m];
            if self.cut[e] < 0 {
                if best.is_none_or(|b| self.cut[e] < self.cut[b]) {
                    best = Some(e);
                }
                found += 1;
                if found >= SEARCH {
                    *cursor = (*cursor + k + 1) % m;
                    return best;
                }
            }
        }
        if best.is_some() {
            *cursor = 0;
        }
        best
    }

    /// The non-tree edge of least slack going from the leaving edge's head side to its tail side.
    fn entering(&self, leave: usize, r: &[i64]) -> (usize, i64) {
        let below = self.below(leave);
        let tail_below = below == self.edges[leave].0;
        let mut best: Option<(i64, usize)> = None;
        for (f, &(x, y)) in self.edges.iter().enumerate() {
            if self.tree[f] {
                continue;
            }
            let (xb, yb) = (self.in_subtree(x, below), self.in_subtree(y, below));
            // Head side to tail side: into the subtree if the tail is below, out of it if not.
            let crosses = if tail_below { !xb && yb } else { xb && !yb };
            if crosses {
                let s = slack(r, (x, y));
                if best.is_none_or(|(b, _)| s < b) {
                    best = Some((s, f));
                }
            }
        }
        // The leaving edge itself goes tail side to head side, so a tree edge of negative cut
        // value always has an edge the other way; `leave` stands in only against a slip.
        best.map_or((leave, 0), |(s, f)| (f, s))
    }

    /// Swaps `leave` for `enter` and makes `enter` tight by moving the leaving edge's tail side.
    fn exchange(&mut self, leave: usize, enter: usize, slack: i64, r: &mut [i64]) {
        if leave == enter {
            return;
        }
        let (u, l) = self.edges[leave];
        let below = self.below(leave);
        // Moving the tail side up by `slack` is the same, up to a shift of the whole component,
        // as moving the subtree: up if it holds the tail, down if it holds the head.
        let delta = if below == u { -slack } else { slack };
        if delta != 0 {
            for (v, x) in r.iter_mut().enumerate() {
                if self.in_subtree(v, below) {
                    *x += delta;
                }
            }
        }
        self.tree[leave] = false;
        for end in [u, l] {
            self.tree_at[end].retain(|&e| e != leave);
        }
        self.add_tree_edge(enter);
    }

    /// dot's top-to-bottom balance: a vertex with as many edges in as out may take any layer
    /// between its dependencies and its dependents at no cost; it goes to the one with the fewest
    /// vertices.
    fn balance(&self, r: &mut [i64]) {
        let n = r.len();
        let min = r.iter().copied().min().unwrap_or(0);
        let max = r.iter().copied().max().unwrap_or(0);
        let mut count = vec![0usize; (max - min + 1) as usize];
        for &x in r.iter() {
            count[(x - min) as usize] += 1;
        }
        for v in 0..n {
            let (mut ins, mut outs) = (0, 0);
            let (mut low, mut high) = (min, max);
            for &e in &self.at[v] {
                let (a, b) = self.edges[e];
                if b == v {
                    ins += self.weights[e];
                    low = low.max(r[a] + 1);
                } else {
                    outs += self.weights[e];
                    high = high.min(r[b] - 1);
                }
            }
            if ins != outs || low >= high {
                continue;
            }
            let mut choice = r[v];
            for k in low..=high {
                if count[(k - min) as usize] < count[(choice - min) as usize] {
                    choice = k;
                }
            }
            if choice != r[v] {
                count[(r[v] - min) as usize] -= 1;
                count[(choice - min) as usize] += 1;
                r[v] = choice;
            }
        }
    }
}

/// A chain 0..=4 and a pair 5 -> 6 beside it (0 -> 5, 6 -> 4, and 5 -> 4 too), laid out by
/// longest path with the pair on layers 1, 2: only moving the pair together shortens it (to 2,
/// 3). Shared by the tests here and in `rank.rs`.
#[cfg(test)]
pub(super) const PAIR_BESIDE_A_CHAIN: [(usize, usize); 8] = [
    (0, 1),
    (1, 2),
    (2, 3),
    (3, 4),
    (0, 5),
    (5, 6),
    (6, 4),
    (5, 4),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn length(edges: &[(usize, usize)], r: &[usize]) -> usize {
        edges.iter().map(|&(u, l)| r[l] - r[u]).sum()
    }

    fn feasible(edges: &[(usize, usize)], r: &[usize]) -> bool {
        edges.iter().all(|&(u, l)| r[u] < r[l])
    }

    #[test]
    fn a_root_feeding_a_deep_vertex_moves_down_to_it() {
        // 0 -> 1 -> 2 -> 3 and 4 -> 3: longest path puts 4 on layer 0, three layers above 3.
        let edges = [(0, 1), (1, 2), (2, 3), (4, 3)];
        let mut r = vec![0, 1, 2, 3, 0];
        assert!(refine(5, &edges, &[1; 4], &mut r));
        assert_eq!(r, vec![0, 1, 2, 3, 2]);
    }

    #[test]
    fn a_group_moves_together_where_no_single_vertex_would() {
        // A chain 0..=4, and a pair 5 -> 6 hanging off it: 0 -> 5 and 6 -> 4. Longest path puts
        // 5, 6 on layers 1, 2, so 6 -> 4 is two layers long; moving 5 alone or 6 alone gains
        // nothing (one edge in, one out), but the pair can sit anywhere between 0 and 4.
        // 5 also feeds 4, so the pair is best as low as it fits: 5, 6 on layers 2, 3.
        let edges = PAIR_BESIDE_A_CHAIN;
        let mut r = vec![0, 1, 2, 3, 4, 1, 2];
        let before = length(&edges, &r);
        assert!(refine(7, &edges, &[1; 8], &mut r));
        assert!(feasible(&edges, &r));
        assert_eq!(r[5..], [2, 3]);
        assert_eq!(length(&edges, &r), before - 1);
    }

    #[test]
    fn the_optimum_is_never_longer_than_the_start_and_always_feasible() {
        // Random DAGs of several shapes, every start a longest-path ranking.
        let mut rng = crate::rng::SplitMix::new(16);
        for n in [5, 20, 60, 200] {
            for _ in 0..20 {
                let mut edges = Vec::new();
                for l in 1..n {
                    for _ in 0..rng.below(3) {
                        edges.push((rng.below(l), l));
                    }
                }
                let mut r = vec![0usize; n];
                for &(u, l) in &edges {
                    r[l] = r[l].max(r[u] + 1);
                }
                // Edges sorted by lower end, so one pass above gives longest path.
                let start = length(&edges, &r);
                assert!(refine(n, &edges, &vec![1; edges.len()], &mut r));
                assert!(feasible(&edges, &r));
                assert!(length(&edges, &r) <= start);
                // Optimal: no single vertex can move to shorten it (a necessary condition).
                for v in 0..n {
                    let ins = edges.iter().filter(|e| e.1 == v).count();
                    let outs = edges.iter().filter(|e| e.0 == v).count();
                    let room_down = edges
                        .iter()
                        .filter(|e| e.0 == v)
                        .map(|e| r[e.1] - r[v] - 1)
                        .min();
                    let room_up = edges
                        .iter()
                        .filter(|e| e.1 == v)
                        .map(|e| r[v] - r[e.0] - 1)
                        .min();
                    assert!(
                        !(outs > ins && room_down.is_some_and(|d| d > 0)),
                        "{v} could go down"
                    );
                    assert!(
                        !(ins > outs && room_up.is_some_and(|d| d > 0)),
                        "{v} could go up"
                    );
                }
            }
        }
    }
}

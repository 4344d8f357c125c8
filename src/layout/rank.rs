//! Cycle breaking and layer assignment.
//!
//! Ranking choice: dot's network simplex gives the minimum total edge length but costs many
//! pivots (each O(V+E)) on graphs of thousands of vertices, too slow for our one-second budget at
//! 10,000 vertices in the browser. Longest-path ranking is O(V+E) but leaves vertices with many
//! dependents and few dependencies (variables, providers, data sources: Terraform's usual roots)
//! stranded at the top, with long edges down to their users. A greedy pass in reverse topological
//! order moves each such vertex down to just above its highest dependent whenever that shortens
//! the total edge length (more edges below than above), which recovers most of network simplex's
//! gain on these graphs at linear cost. Graphs small enough for network simplex to finish in a
//! few milliseconds also get its layers ([`refined`]); the layout orders both.

use std::collections::VecDeque;

/// The layered view of the input edges.
#[derive(Clone)]
pub(crate) struct Ranked {
    /// Layer of each input node, `0..layer_count`, no empty layers.
    pub rank: Vec<usize>,
    pub layer_count: usize,
    /// For each (filtered) input edge: `Some((upper, lower, reversed))`, or `None` for a
    /// self-loop.
    pub edges: Vec<Option<(usize, usize, bool)>>,
}

/// Which edges to reverse: the back edges of a DFS that visits roots and successors in index
/// order (deterministic, and for an acyclic input it reverses nothing).
fn back_edges(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(a, _)) in edges.iter().enumerate() {
        out[a].push(e);
    }
    let mut state = vec![0u8; n]; // 0 new, 1 on the stack, 2 done
    let mut back = vec![false; edges.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            if next < out[v].len() {
                top.1 += 1;
                let e = out[v][next];
                let w = edges[e].1;
                if w == v {
                    continue;
                }
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back[e] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// Kahn's topological order of the vertices `0..indeg.len()`: those without predecessors in
/// index order, then each as the last of its predecessors is taken (first ready, first taken).
/// `indeg` counts each vertex's predecessors and `succ(v)` lists `v`'s successors, once per edge.
/// A vertex on a cycle, or after one, never becomes ready and is left out.
pub(super) fn kahn<I: IntoIterator<Item = usize>>(
    mut indeg: Vec<usize>,
    succ: impl Fn(usize) -> I,
) -> Vec<usize> {
    let mut queue: VecDeque<usize> = (0..indeg.len()).filter(|&v| indeg[v] == 0).collect();
    let mut topo = Vec::with_capacity(indeg.len());
    while let Some(v) = queue.pop_front() {
        topo.push(v);
        for w in succ(v) {
            indeg[w] -= 1;
            if indeg[w] == 0 {
                queue.push_back(w);
            }
        }
    }
    topo
}

/// `topo` followed by the vertices of `0..n` it lacks, in index order: for an order that must
/// hold every vertex even if a cycle slipped in.
pub(super) fn with_the_rest(mut topo: Vec<usize>, n: usize) -> Vec<usize> {
    if topo.len() < n {
        let mut seen = vec![false; n];
        for &v in &topo {
            seen[v] = true;
        }
        topo.extend((0..n).filter(|&v| !seen[v]));
    }
    topo
}

/// The input as a DAG: each edge oriented (self-loops `None`), successors and predecessors, and
/// a topological order (Kahn's, smallest index first among the ready vertices).
struct Dag {
    edges: Vec<Option<(usize, usize, bool)>>,
    succ: Vec<Vec<usize>>,
    pred: Vec<Vec<usize>>,
    topo: Vec<usize>,
}

fn dag(n: usize, edges: &[(usize, usize)]) -> Dag {
    let back = back_edges(n, edges);
    let mut dag: Vec<Option<(usize, usize, bool)>> = Vec::with_capacity(edges.len());
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(a, b)) in edges.iter().enumerate() {
        if a == b {
            dag.push(None);
            continue;
        }
        let (u, l) = if back[e] { (b, a) } else { (a, b) };
        dag.push(Some((u, l, back[e])));
        succ[u].push(l);
        pred[l].push(u);
    }
    let topo = kahn(pred.iter().map(Vec::len).collect(), |v| {
        succ[v].iter().copied()
    });
    // Reversing DFS back edges always yields a DAG; this only guards against a logic slip.
    let topo = with_the_rest(topo, n);
    Dag {
        edges: dag,
        succ,
        pred,
        topo,
    }
}

pub(crate) fn rank(n: usize, edges: &[(usize, usize)]) -> Ranked {
    let d = dag(n, edges);
    // Longest path from the roots.
    let mut rank = vec![0usize; n];
    for &v in &d.topo {
        for &w in &d.succ[v] {
            if rank[w] <= rank[v] {
                rank[w] = rank[v] + 1;
            }
        }
    }
    pull(&d, &mut rank, |_| true);
    compact(rank, d.edges).0
}

/// The layers of least total edge length (network simplex, `simplex.rs`), each edge `e` of the
/// input weighing `weight(e)`, from `first` ([`rank`]'s layers of the same graph); `None` when
/// the graph is over [`super::simplex::MAX_SIZE`], the optimum is not reached within its work
/// bound, or it is `first` itself.
pub(crate) fn refined(first: &Ranked, weight: impl Fn(usize) -> i64) -> Option<Ranked> {
    let n = first.rank.len();
    if n + first.edges.iter().flatten().count() > super::simplex::MAX_SIZE {
        return None;
    }
    let mut oriented = Vec::new();
    let mut weights = Vec::new();
    for (e, x) in first.edges.iter().enumerate() {
        if let Some((u, l, _)) = *x {
            oriented.push((u, l));
            weights.push(weight(e));
        }
    }
    let mut rank = first.rank.clone();
    if !super::simplex::refine(n, &oriented, &weights, &mut rank) || rank == first.rank {
        return None;
    }
    Some(compact(rank, first.edges.clone()).0)
}

/// Layers near a previous layout's (`previous[v]`: the layer vertex `v` had there, if it was
/// there): each vertex takes its old layer unless what it depends on now reaches that low or
/// lower, then the first layer below all of it; vertices without an old layer are ranked as
/// [`rank`] ranks them. Layers only ever move down from the old ones, so an edit that adds a
/// vertex or an edge moves nothing but what must move. Also returns, per layer, the index it had
/// before empty layers were dropped (the old layout's index for layers it had).
pub(crate) fn rank_near(
    n: usize,
    edges: &[(usize, usize)],
    previous: &[Option<usize>],
) -> (Ranked, Vec<usize>) {
    let d = dag(n, edges);
    // An old layer past the vertex count cannot come from a layout of a graph of this size.
    let old = |v: usize| previous.get(v).copied().flatten().map(|r| r.min(n));
    let mut rank: Vec<usize> = (0..n).map(|v| old(v).unwrap_or(0)).collect();
    for &v in &d.topo {
        for &w in &d.succ[v] {
            if rank[w] <= rank[v] {
                rank[w] = rank[v] + 1;
            }
        }
    }
    pull(&d, &mut rank, |v| old(v).is_none());
    compact(rank, d.edges)
}

/// Pulls the vertices `which` allows that have more edges below than above down to their
/// dependents, in reverse topological order.
fn pull(d: &Dag, rank: &mut [usize], which: impl Fn(usize) -> bool) {
    for &v in d.topo.iter().rev() {
        if d.succ[v].len() > d.pred[v].len() && which(v) {
            let lowest = d.succ[v].iter().map(|&w| rank[w]).min().unwrap_or(0);
            if lowest > rank[v] + 1 {
                rank[v] = lowest - 1;
            }
        }
    }
}

/// `rank` without its empty layers.
pub(crate) fn compacted(rank: Vec<usize>, edges: Vec<Option<(usize, usize, bool)>>) -> Ranked {
    compact(rank, edges).0
}

/// Drops empty layers (an empty layer has no edge across it, so order is kept); also returns
/// each remaining layer's index before.
fn compact(mut rank: Vec<usize>, edges: Vec<Option<(usize, usize, bool)>>) -> (Ranked, Vec<usize>) {
    let n = rank.len();
    let max = rank.iter().copied().max().unwrap_or(0);
    let mut used = vec![false; max + 1];
    for &r in &rank {
        used[r] = true;
    }
    let mut remap = vec![0usize; max + 1];
    let mut before = Vec::new();
    for r in 0..=max {
        remap[r] = before.len();
        if used[r] {
            before.push(r);
        }
    }
    for r in rank.iter_mut() {
        *r = remap[*r];
    }
    let layer_count = if n == 0 { 0 } else { before.len() };
    before.truncate(layer_count);
    (
        Ranked {
            rank,
            layer_count,
            edges,
        },
        before,
    )
}

/// How many layers below its own a vertex may be moved by [`wrap`].
pub(crate) const MAX_DROP: usize = 32;

/// Wraps layers wider than `max` (in `breadth` units along the layer, `sep` between two
/// vertices), from the top down: a layer too wide moves its vertices, the last ones first and
/// sinks (nothing below depends on them) before the others, one layer down, pushing down with
/// them whatever depends on them and would otherwise not be below them, until the layer fits or
/// keeps one vertex. No vertex ends more than [`MAX_DROP`] layers below its rank (a move that
/// would take one further is not made). Each layer a vertex moves lengthens its incoming edges
/// by one dummy point: the moves stop once they have added 4 (V + E) of them, so the later
/// steps' work stays linear in the graph. Every edge still points down. This is what Graphviz's
/// `unflatten` does for wide, shallow graphs (it staggers the leaves), extended to vertices with
/// dependents and aimed at a width.
pub(crate) fn wrap(r: &mut Ranked, breadth: &[f64], sep: f64, max: f64) {
    let n = r.rank.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(u, l, _) in r.edges.iter().flatten() {
        succ[u].push(l);
        pred[l].push(u);
    }
    // Each vertex's rank before the current move (usize::MAX: not moved by it).
    let mut before = vec![usize::MAX; n];
    let mut counted = vec![false; n];
    let start = r.rank.clone();
    // Dummy points the moves may add, and a bound on the work of trying them.
    let mut dummies = 8 * (n + r.edges.len());
    let mut budget = 64 * (n + r.edges.len());
    let mut changed: Vec<(usize, usize)> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    // Moves `v` one layer down with what must follow it; false (and nothing moved) when that
    // would take a vertex more than MAX_DROP below its rank or the budget is spent.
    let mut push = |rank: &mut Vec<usize>,
                    v: usize,
                    budget: &mut usize,
                    layers: &mut Vec<Vec<usize>>|
     -> bool {
        changed.clear();
        stack.clear();
        changed.push((v, rank[v]));
        rank[v] += 1;
        stack.push(v);
        let mut ok = rank[v] - start[v] <= MAX_DROP;
        while ok && let Some(u) = stack.pop() {
            for &w in &succ[u] {
                *budget = budget.saturating_sub(1);
                if rank[w] <= rank[u] {
                    changed.push((w, rank[w]));
                    rank[w] = rank[u] + 1;
                    if rank[w] - start[w] > MAX_DROP || *budget == 0 {
                        ok = false;
                        break;
                    }
                    stack.push(w);
                }
            }
        }
        // The dummy points the move adds: how much longer the edges into moved vertices got
        // (edges out of them only get shorter, or stay as long when both ends moved alike).
        for &(w, was) in &changed {
            if before[w] == usize::MAX {
                before[w] = was;
            }
        }
        let mut added = 0usize;
        for &(w, _) in &changed {
            if counted[w] {
                continue;
            }
            counted[w] = true;
            let dw = rank[w] - before[w];
            for &p in &pred[w] {
                let dp = if before[p] == usize::MAX {
                    0
                } else {
                    rank[p] - before[p]
                };
                added += dw.saturating_sub(dp);
            }
            *budget = budget.saturating_sub(pred[w].len());
        }
        for &(w, _) in &changed {
            before[w] = usize::MAX;
            counted[w] = false;
        }
        ok = ok && added <= dummies;
        if ok {
            dummies -= added;
            for &(w, _) in &changed {
                if layers.len() <= rank[w] {
                    layers.resize(rank[w] + 1, Vec::new());
                }
                layers[rank[w]].push(w);
            }
        } else {
            for &(w, was) in changed.iter().rev() {
                rank[w] = was;
            }
        }
        ok
    };
    // Each layer's vertices; a vertex moved down is added to its new layer's list (the lists
    // are filtered by rank when their turn comes).
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); r.layer_count];
    for v in 0..n {
        layers[r.rank[v]].push(v);
    }
    let mut k = 0;
    while k < layers.len() && budget > 0 {
        let mut members = std::mem::take(&mut layers[k]);
        members.retain(|&v| r.rank[v] == k);
        members.sort_unstable();
        members.dedup();
        let mut w: f64 = members.iter().map(|&v| breadth[v] + sep).sum::<f64>() - sep;
        let mut left = members.len();
        for sinks_first in [true, false] {
            for &v in members.iter().rev() {
                if w <= max || left <= 1 || budget == 0 {
                    break;
                }
                if succ[v].is_empty() == sinks_first
                    && r.rank[v] == k
                    && push(&mut r.rank, v, &mut budget, &mut layers)
                {
                    w -= breadth[v] + sep;
                    left -= 1;
                }
            }
        }
        k += 1;
    }
    // A layer that loses a vertex gains the one that pushed it, so none should be empty; should
    // one be, it is dropped as `rank` drops them (no edge ends in it, so the order is kept).
    let top = r.rank.iter().copied().max().map_or(0, |m| m + 1);
    let mut used = vec![false; top];
    for &k in &r.rank {
        used[k] = true;
    }
    let mut remap = vec![0usize; top];
    let mut next = 0;
    for k in 0..top {
        remap[k] = next;
        if used[k] {
            next += 1;
        }
    }
    for k in r.rank.iter_mut() {
        *k = remap[*k];
    }
    r.layer_count = next;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn length(r: &Ranked) -> usize {
        r.edges
            .iter()
            .flatten()
            .map(|&(u, l, _)| r.rank[l] - r.rank[u])
            .sum()
    }

    #[test]
    fn refined_layers_shorten_what_pulling_single_vertices_cannot() {
        // A chain 0..=4 and a pair 5 -> 6 between 0 and 4, 5 also feeding 4: longest path and
        // pull leave the pair at layers 1, 2 (6 has one edge in and one out, so it stays, and
        // 5 cannot pass it); the optimum moves both down one layer.
        let edges = super::super::simplex::PAIR_BESIDE_A_CHAIN;
        let first = rank(7, &edges);
        assert_eq!(first.rank[5..], [1, 2]);
        let better = refined(&first, |_| 1).expect("a shorter ranking");
        assert_eq!(better.rank, vec![0, 1, 2, 3, 4, 2, 3]);
        assert_eq!(length(&better), length(&first) - 1);
        // Already optimal: nothing to refine.
        assert!(refined(&better, |_| 1).is_none());
        // Cycles are broken first, as for `rank`: the refined layers keep every edge's
        // orientation.
        let cyclic = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 4), (4, 2)];
        let first = rank(5, &cyclic);
        let r = refined(&first, |_| 1).unwrap_or(first);
        for &(u, l, _) in r.edges.iter().flatten() {
            assert!(r.rank[u] < r.rank[l]);
        }
    }

    #[test]
    fn graphs_over_the_size_bound_keep_their_first_layers() {
        // The pair of the test above, beside a chain of `k` vertices (a second component,
        // already optimal) that makes the graph just under or just over the bound.
        let with_chain = |k: usize| {
            let mut edges = super::super::simplex::PAIR_BESIDE_A_CHAIN.to_vec();
            edges.extend((8..7 + k).map(|i| (i - 1, i)));
            (7 + k, edges)
        };
        let bound = super::super::simplex::MAX_SIZE;
        // 7 + k vertices and 8 + k - 1 edges.
        let (n, edges) = with_chain((bound - 14) / 2);
        assert!(n + edges.len() <= bound);
        assert!(refined(&rank(n, &edges), |_| 1).is_some());
        let (n, edges) = with_chain((bound - 14) / 2 + 1);
        assert!(n + edges.len() > bound);
        assert!(refined(&rank(n, &edges), |_| 1).is_none());
    }

    #[test]
    fn wide_layers_hand_their_sinks_down() {
        // One root with twelve dependents, three of which have a dependent of their own.
        let mut edges: Vec<(usize, usize)> = (1..13).map(|i| (0, i)).collect();
        edges.extend([(1, 13), (2, 14), (3, 15)]);
        let mut r = rank(16, &edges);
        assert_eq!(r.layer_count, 3);
        wrap(&mut r, &[10.0; 16], 5.0, 40.0);
        // At most three vertices of 10 with gaps of 5 per layer, where sinks allow.
        let mut per_layer = vec![0; r.layer_count];
        for &k in &r.rank {
            per_layer[k] += 1;
        }
        assert!(r.layer_count > 3, "{per_layer:?}");
        // Every layer fits three, none is empty; every edge still points down.
        assert!(
            per_layer.iter().all(|&c| (1..=3).contains(&c)),
            "{per_layer:?}"
        );
        for &(u, l, _) in r.edges.iter().flatten() {
            assert!(r.rank[u] < r.rank[l]);
        }
        for v in 1..13 {
            assert!(r.rank[v] - 1 <= MAX_DROP);
        }
    }

    #[test]
    fn wrapping_leaves_no_empty_layer() {
        // 0 has dependents 1..=6; only 6 has a dependent, 7, alone on layer 2; a layer fits one.
        let mut edges: Vec<(usize, usize)> = (1..7).map(|i| (0, i)).collect();
        edges.push((6, 7));
        let mut r = rank(8, &edges);
        wrap(&mut r, &[10.0; 8], 0.0, 10.0);
        let mut used = vec![false; r.layer_count];
        for &k in &r.rank {
            used[k] = true;
        }
        assert!(used.iter().all(|&u| u), "{:?}", r.rank);
        for &(u, l, _) in r.edges.iter().flatten() {
            assert!(r.rank[u] < r.rank[l]);
        }
    }

    #[test]
    fn chain_and_cycle() {
        let r = rank(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(r.rank, vec![0, 1, 2]);
        assert_eq!(r.edges[2], Some((0, 2, true)));
        assert_eq!(r.layer_count, 3);
    }

    #[test]
    fn roots_move_next_to_their_users() {
        // 0 -> 1 -> 2 -> 3, and 4 (a root) used only by 3 and by 3's sibling 5.
        let r = rank(6, &[(0, 1), (1, 2), (2, 3), (4, 3), (4, 5), (2, 5)]);
        assert_eq!(r.rank[4], 2);
        let r = rank(2, &[(0, 0)]);
        assert_eq!(r.edges, vec![None]);
        assert_eq!(r.layer_count, 1);
    }
}

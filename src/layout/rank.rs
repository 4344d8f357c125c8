//! Cycle breaking and layer assignment.
//!
//! Ranking choice: dot's network simplex gives the minimum total edge length but costs many
//! pivots (each O(V+E)) on graphs of thousands of vertices, too slow for our one-second budget at
//! 10,000 vertices in the browser. Longest-path ranking is O(V+E) but leaves vertices with many
//! dependents and few dependencies (variables, providers, data sources: Terraform's usual roots)
//! stranded at the top, with long edges down to their users. A greedy pass in reverse topological
//! order moves each such vertex down to just above its highest dependent whenever that shortens
//! the total edge length (more edges below than above), which recovers most of network simplex's
//! gain on these graphs at linear cost.

use std::collections::VecDeque;

/// The layered view of the input edges.
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

pub(crate) fn rank(n: usize, edges: &[(usize, usize)]) -> Ranked {
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

    // Kahn's topological order, smallest index first among the ready vertices.
    let mut indeg: Vec<usize> = pred.iter().map(Vec::len).collect();
    let mut queue: VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    let mut topo = Vec::with_capacity(n);
    while let Some(v) = queue.pop_front() {
        topo.push(v);
        for &w in &succ[v] {
            indeg[w] -= 1;
            if indeg[w] == 0 {
                queue.push_back(w);
            }
        }
    }
    // Reversing DFS back edges always yields a DAG; this only guards against a logic slip.
    if topo.len() < n {
        let mut seen = vec![false; n];
        for &v in &topo {
            seen[v] = true;
        }
        topo.extend((0..n).filter(|&v| !seen[v]));
    }

    // Longest path from the roots.
    let mut rank = vec![0usize; n];
    for &v in &topo {
        for &w in &succ[v] {
            if rank[w] <= rank[v] {
                rank[w] = rank[v] + 1;
            }
        }
    }
    // Pull vertices with more edges below than above down to their dependents.
    for &v in topo.iter().rev() {
        if succ[v].len() > pred[v].len() {
            let lowest = succ[v].iter().map(|&w| rank[w]).min().unwrap_or(0);
            if lowest > rank[v] + 1 {
                rank[v] = lowest - 1;
            }
        }
    }
    // Drop empty layers (an empty layer has no edge across it, so order is kept).
    let max = rank.iter().copied().max().unwrap_or(0);
    let mut used = vec![false; max + 1];
    for &r in &rank {
        used[r] = true;
    }
    let mut remap = vec![0usize; max + 1];
    let mut next = 0;
    for r in 0..=max {
        remap[r] = next;
        if used[r] {
            next += 1;
        }
    }
    for r in rank.iter_mut() {
        *r = remap[*r];
    }
    Ranked {
        rank,
        layer_count: if n == 0 { 0 } else { next },
        edges: dag,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

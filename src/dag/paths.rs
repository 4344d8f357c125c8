//! The paths by which one vertex waits for another: every simple path following dependencies
//! from `from` to `to`, shortest first, bounded in number and in work.
//!
//! Iterative deepening over the path length: the shortest distance of each vertex to `to` (one
//! breadth-first pass up from `to`) prunes every branch that cannot arrive in the steps left,
//! and on an acyclic graph so does the longest distance. Within one length, dependencies are
//! followed in name order, so the paths of a length come sorted by their vertices' names and the
//! result is the same on every run. Iterative (no recursion), so deep graphs cannot overflow the
//! stack.

use super::graph::NameOrder;
use super::{Graph, Vertex, VertexId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The most vertex visits one [`Graph::paths`] call makes before it returns what it found (the
/// number of paths can grow exponentially with the graph; the shortest come first).
pub const MAX_PATH_WORK: usize = 1_000_000;

impl<V: Vertex> Graph<V> {
    /// Up to `limit` paths from `from` to `to` following dependencies (`from`, a dependency of
    /// `from`, …, `to`), each a list of vertices without repeats: the shortest first, paths of one
    /// length by their vertices' names. Empty when `to` is not a dependency of `from`, directly or
    /// not, and when they are the same vertex. Stops early after [`MAX_PATH_WORK`] visits.
    pub fn paths(&self, from: VertexId, to: VertexId, limit: usize) -> Vec<Vec<VertexId>> {
        self.paths_bounded(from, to, limit, MAX_PATH_WORK)
    }

    pub(crate) fn paths_bounded(
        &self,
        from: VertexId,
        to: VertexId,
        limit: usize,
        max_work: usize,
    ) -> Vec<Vec<VertexId>> {
        let mut out = Vec::new();
        if from == to || limit == 0 || !self.is_known(from) || !self.is_known(to) {
            return out;
        }
        // Shortest number of edges from each vertex down to `to`.
        let mut dist: BTreeMap<VertexId, usize> = BTreeMap::new();
        dist.insert(to, 0);
        let mut queue = VecDeque::from([to]);
        while let Some(v) = queue.pop_front() {
            let d = dist[&v];
            for u in self.dependents(v) {
                if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(u) {
                    e.insert(d + 1);
                    queue.push_back(u);
                }
            }
        }
        let Some(&shortest) = dist.get(&from) else {
            return out;
        };
        let longest = self.longest_to(to, &dist);
        let max_len = match &longest {
            Some(l) => l.get(&from).copied().unwrap_or(shortest),
            None => dist.len().saturating_sub(1),
        };
        let (order, _) = NameOrder::new(self);
        // Each vertex's dependencies that can reach `to`, in name order.
        let mut next: BTreeMap<VertexId, Vec<VertexId>> = BTreeMap::new();
        let mut work = 0usize;
        for len in shortest..=max_len {
            // Depth-first over paths of exactly `len` edges: a stack of (vertex, next child).
            let mut path = vec![from];
            let mut on_path: BTreeSet<VertexId> = BTreeSet::from([from]);
            let mut cursor = vec![0usize];
            while let Some(&v) = path.last() {
                if work >= max_work {
                    return out;
                }
                let left = len + 1 - path.len();
                if v == to {
                    if left == 0 {
                        out.push(path.clone());
                        if out.len() >= limit {
                            return out;
                        }
                    }
                    path.pop();
                    on_path.remove(&v);
                    cursor.pop();
                    continue;
                }
                let children = next.entry(v).or_insert_with(|| {
                    order.sorted(self.dependencies(v).filter(|c| dist.contains_key(c)))
                });
                let i = cursor.last().copied().unwrap_or(0);
                let fits = |c: &VertexId| {
                    let need = dist[c] + 1;
                    need <= left
                        && longest
                            .as_ref()
                            .is_none_or(|l| l.get(c).is_some_and(|m| m + 1 >= left))
                };
                match children[i..]
                    .iter()
                    .position(|c| !on_path.contains(c) && fits(c))
                {
                    Some(k) => {
                        let c = children[i + k];
                        if let Some(top) = cursor.last_mut() {
                            *top = i + k + 1;
                        }
                        path.push(c);
                        on_path.insert(c);
                        cursor.push(0);
                        work += 1;
                    }
                    None => {
                        path.pop();
                        on_path.remove(&v);
                        cursor.pop();
                    }
                }
                work += 1;
            }
        }
        out
    }

    /// The longest number of edges from each vertex of `reach` (the vertices that reach `to`)
    /// down to `to`, or `None` when those vertices hold a cycle.
    fn longest_to(
        &self,
        to: VertexId,
        reach: &BTreeMap<VertexId, usize>,
    ) -> Option<BTreeMap<VertexId, usize>> {
        // Kahn's order over the reaching vertices, from `to` upwards: a vertex is done once all
        // its reaching dependencies are. `to`'s own dependencies are on no path to it.
        let mut pending: BTreeMap<VertexId, usize> = reach
            .keys()
            .map(|v| {
                let n = if *v == to {
                    0
                } else {
                    self.dependencies(*v)
                        .filter(|c| reach.contains_key(c))
                        .count()
                };
                (*v, n)
            })
            .collect();
        let mut longest: BTreeMap<VertexId, usize> = BTreeMap::new();
        let mut ready: Vec<VertexId> = pending
            .iter()
            .filter(|(_, n)| **n == 0)
            .map(|(v, _)| *v)
            .collect();
        while let Some(v) = ready.pop() {
            let l = if v == to {
                0
            } else {
                self.dependencies(v)
                    .filter_map(|c| longest.get(&c))
                    .max()
                    .map(|m| m + 1)
                    .unwrap_or(0)
            };
            longest.insert(v, l);
            for u in self.dependents(v) {
                if let Some(n) = pending.get_mut(&u)
                    && u != to
                {
                    *n -= 1;
                    if *n == 0 {
                        ready.push(u);
                    }
                }
            }
        }
        (longest.len() == reach.len()).then_some(longest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(es: &[(&str, &str)]) -> Graph<String> {
        let mut g: Graph<String> = Graph::new();
        for (f, t) in es {
            for n in [f, t] {
                if g.find_by_name(n).is_none() {
                    g.add(n.to_string());
                }
            }
            let (Some(f), Some(t)) = (g.find_by_name(f), g.find_by_name(t)) else {
                panic!("vertices were just added")
            };
            g.connect(f, t);
        }
        g
    }

    fn names(g: &Graph<String>, ps: &[Vec<VertexId>]) -> Vec<String> {
        ps.iter()
            .map(|p| {
                p.iter()
                    .map(|v| g.name_of(*v))
                    .collect::<Vec<_>>()
                    .join(">")
            })
            .collect()
    }

    fn id(g: &Graph<String>, n: &str) -> VertexId {
        g.find_by_name(n).expect("vertex")
    }

    #[test]
    fn shortest_first_then_by_name() {
        // a waits for d directly, through b, through c, and through b then c.
        let g = build(&[
            ("a", "d"),
            ("a", "c"),
            ("a", "b"),
            ("b", "c"),
            ("b", "d"),
            ("c", "d"),
        ]);
        let p = g.paths(id(&g, "a"), id(&g, "d"), 10);
        assert_eq!(names(&g, &p), ["a>d", "a>b>d", "a>c>d", "a>b>c>d"]);
        assert_eq!(
            names(&g, &g.paths(id(&g, "a"), id(&g, "d"), 2)),
            ["a>d", "a>b>d"]
        );
    }

    #[test]
    fn no_path_against_the_edges_or_to_itself() {
        let g = build(&[("a", "b"), ("b", "c")]);
        assert!(g.paths(id(&g, "c"), id(&g, "a"), 10).is_empty());
        assert!(g.paths(id(&g, "a"), id(&g, "a"), 10).is_empty());
        assert_eq!(names(&g, &g.paths(id(&g, "a"), id(&g, "c"), 10)), ["a>b>c"]);
    }

    #[test]
    fn cycles_give_simple_paths_only() {
        let g = build(&[("a", "b"), ("b", "c"), ("c", "b"), ("c", "d"), ("b", "d")]);
        let p = g.paths(id(&g, "a"), id(&g, "d"), 10);
        assert_eq!(names(&g, &p), ["a>b>d", "a>b>c>d"]);
    }

    #[test]
    fn many_paths_stop_at_the_limit_and_the_work_bound() {
        // A ladder of 20 diamonds: 2^20 paths from top to bottom.
        let mut es: Vec<(String, String)> = Vec::new();
        for i in 0..20 {
            let (top, bottom) = (format!("n{i:02}"), format!("n{:02}", i + 1));
            es.push((top.clone(), format!("l{i:02}")));
            es.push((top, format!("r{i:02}")));
            es.push((format!("l{i:02}"), bottom.clone()));
            es.push((format!("r{i:02}"), bottom));
        }
        let refs: Vec<(&str, &str)> = es.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let g = build(&refs);
        let (a, z) = (id(&g, "n00"), id(&g, "n20"));
        let p = g.paths(a, z, 5);
        assert_eq!(p.len(), 5);
        assert!(p.iter().all(|p| p.len() == 41));
        assert!(names(&g, &p[..1])[0].starts_with("n00>l00>n01>l01"));
        let bounded = g.paths_bounded(a, z, usize::MAX, 5_000);
        assert!(!bounded.is_empty() && bounded.len() < 5_000);
    }

    /// Brute force over small random graphs: the same set of paths, in the promised order.
    #[test]
    fn matches_brute_force() {
        let mut seed = 7u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _ in 0..200 {
            let n = 2 + rnd() % 6;
            let mut g: Graph<String> = Graph::new();
            let ids: Vec<VertexId> = (0..n).map(|i| g.add(format!("v{i}"))).collect();
            for _ in 0..rnd() % (n * 3) {
                let (a, b) = (ids[rnd() % n], ids[rnd() % n]);
                if a != b {
                    g.connect(a, b);
                }
            }
            let (from, to) = (ids[0], ids[n - 1]);
            let mut all: Vec<Vec<VertexId>> = Vec::new();
            let mut stack = vec![vec![from]];
            while let Some(p) = stack.pop() {
                let last = *p.last().expect("non-empty");
                if last == to {
                    all.push(p);
                    continue;
                }
                for c in g.dependencies(last) {
                    if !p.contains(&c) {
                        let mut q = p.clone();
                        q.push(c);
                        stack.push(q);
                    }
                }
            }
            let key =
                |p: &Vec<VertexId>| (p.len(), p.iter().map(|v| g.name_of(*v)).collect::<Vec<_>>());
            all.sort_by_key(key);
            assert_eq!(g.paths(from, to, usize::MAX), all, "{}", g.string());
        }
    }
}

//! A deterministic, synchronous version of OpenTofu's `dag.Walker`.
//!
//! Semantics kept from Go:
//! - a vertex runs only after every vertex it waits on has finished (with `reverse`, an edge's
//!   source waits on its target, i.e. dependencies first, as `AcyclicGraph.Walk` does; without it
//!   the target waits on the source);
//! - a vertex whose dependency failed (or was itself skipped for that reason) is not run: it is
//!   recorded as upstream-failed and its own "upstream dependencies failed" error is left out of
//!   the reported errors;
//! - [`Walker::update`] diffs the walker's view against the graph at any time, also between
//!   [`Walker::next_ready`] and [`Walker::complete`] (Go's `Update` during a callback): new
//!   vertices and edges join the walk, removed vertices that have not run are cancelled (never
//!   run, no error), removed edges no longer hold their waiter back; vertices that already ran keep
//!   their result.
//!
//! What Go leaves to the scheduler is fixed here: among the vertices that are ready, the one with
//! the smallest name (ties by id) runs next, one at a time. The simulated-time walker in
//! `crate::walk` follows the same rules.

use super::{Graph, Vertex, VertexId};
use std::collections::{BTreeMap, BTreeSet};

/// How one vertex's walk ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VertexOutcome<E> {
    /// Not finished yet (or never became ready).
    Pending,
    /// Handed out by [`Walker::next_ready`], not completed yet.
    Running,
    Succeeded,
    Failed(E),
    /// Not run because something it waited on failed.
    UpstreamFailed,
    /// Removed from the graph before it ran.
    Cancelled,
}

impl<E> VertexOutcome<E> {
    fn is_finished(&self) -> bool {
        !matches!(self, VertexOutcome::Pending | VertexOutcome::Running)
    }
    /// Whether waiters of this vertex must be skipped (Go: its diagnostics have errors).
    fn has_errors(&self) -> bool {
        matches!(
            self,
            VertexOutcome::Failed(_) | VertexOutcome::UpstreamFailed
        )
    }
}

/// The result of a walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkReport<E> {
    /// Vertices whose callback ran, in the order it was called.
    pub visited: Vec<VertexId>,
    /// Every vertex the walk knew about, with how it ended.
    pub outcomes: BTreeMap<VertexId, VertexOutcome<E>>,
}

impl<E> WalkReport<E> {
    /// The callback errors, by vertex (upstream-failed vertices excluded, as Go's `Wait` does).
    pub fn errors(&self) -> Vec<(VertexId, &E)> {
        self.outcomes
            .iter()
            .filter_map(|(id, o)| match o {
                VertexOutcome::Failed(e) => Some((*id, e)),
                _ => None,
            })
            .collect()
    }

    pub fn has_errors(&self) -> bool {
        self.outcomes
            .values()
            .any(|o| matches!(o, VertexOutcome::Failed(_)))
    }
}

/// Walks every vertex of a graph once, dependencies first. See the module docs.
#[derive(Debug, Clone)]
pub struct Walker<E> {
    reverse: bool,
    /// The vertices currently in the walk (Go's `w.vertices`), with the name used for ordering.
    vertices: BTreeMap<VertexId, String>,
    /// Graph edges the walker has taken into account, as (from, to).
    edges: BTreeSet<(VertexId, VertexId)>,
    /// waiter -> what it waits on.
    deps: BTreeMap<VertexId, BTreeSet<VertexId>>,
    /// dep -> who waits on it.
    waiters: BTreeMap<VertexId, BTreeSet<VertexId>>,
    /// Pending vertices whose deps have all finished, ordered by (name, id).
    ready: BTreeSet<(String, VertexId)>,
    outcomes: BTreeMap<VertexId, VertexOutcome<E>>,
    visited: Vec<VertexId>,
}

impl<E> Walker<E> {
    /// `reverse = true` is `AcyclicGraph.Walk`'s setting: a vertex waits on its dependencies.
    pub fn new(reverse: bool) -> Self {
        Walker {
            reverse,
            vertices: BTreeMap::new(),
            edges: BTreeSet::new(),
            deps: BTreeMap::new(),
            waiters: BTreeMap::new(),
            ready: BTreeSet::new(),
            outcomes: BTreeMap::new(),
            visited: Vec::new(),
        }
    }

    /// (waiter, dependency) for a graph edge.
    fn edge_parts(&self, (from, to): (VertexId, VertexId)) -> (VertexId, VertexId) {
        if self.reverse { (from, to) } else { (to, from) }
    }

    fn outcome_of(&self, id: VertexId) -> Option<&VertexOutcome<E>> {
        self.outcomes.get(&id)
    }

    /// Re-checks whether a pending vertex can run now.
    fn refresh(&mut self, id: VertexId) {
        let Some(name) = self.vertices.get(&id).cloned() else {
            return;
        };
        let pending = matches!(self.outcome_of(id), Some(VertexOutcome::Pending));
        let deps_done = self.deps.get(&id).is_none_or(|ds| {
            ds.iter()
                .all(|d| self.outcome_of(*d).is_none_or(VertexOutcome::is_finished))
        });
        if pending && deps_done {
            self.ready.insert((name, id));
        } else {
            self.ready.remove(&(name, id));
        }
    }

    fn finished(&mut self, id: VertexId) {
        let ws: Vec<VertexId> = self
            .waiters
            .get(&id)
            .into_iter()
            .flatten()
            .copied()
            .collect();
        for w in ws {
            self.refresh(w);
        }
    }

    /// Go's `Walker.Update`: brings the walk in line with the graph's current vertices and edges.
    pub fn update<V: Vertex>(&mut self, g: &Graph<V>) {
        let mut touched: BTreeSet<VertexId> = BTreeSet::new();
        // New vertices.
        for (id, v) in g.iter() {
            if let std::collections::btree_map::Entry::Vacant(slot) = self.vertices.entry(id) {
                slot.insert(v.name());
                self.outcomes.entry(id).or_insert(VertexOutcome::Pending);
                touched.insert(id);
            }
        }
        // Removed vertices: cancel those that have not run.
        let gone: Vec<VertexId> = self
            .vertices
            .keys()
            .copied()
            .filter(|id| !g.has_vertex(*id))
            .collect();
        for id in gone {
            if let Some(name) = self.vertices.remove(&id) {
                self.ready.remove(&(name, id));
            }
            if let Some(o) = self.outcomes.get_mut(&id)
                && matches!(o, VertexOutcome::Pending)
            {
                *o = VertexOutcome::Cancelled;
                self.finished(id);
            }
        }
        // New edges, between vertices both in the walk (others are retried on a later update).
        let current: BTreeSet<(VertexId, VertexId)> = g.edges().into_iter().collect();
        for e in current.difference(&self.edges).copied().collect::<Vec<_>>() {
            let (waiter, dep) = self.edge_parts(e);
            if !self.vertices.contains_key(&waiter) || !self.vertices.contains_key(&dep) {
                continue;
            }
            self.deps.entry(waiter).or_default().insert(dep);
            self.waiters.entry(dep).or_default().insert(waiter);
            self.edges.insert(e);
            touched.insert(waiter);
        }
        // Removed edges.
        for e in self.edges.difference(&current).copied().collect::<Vec<_>>() {
            let (waiter, dep) = self.edge_parts(e);
            self.edges.remove(&e);
            if let Some(ds) = self.deps.get_mut(&waiter) {
                ds.remove(&dep);
            }
            if let Some(ws) = self.waiters.get_mut(&dep) {
                ws.remove(&waiter);
            }
            touched.insert(waiter);
        }
        for id in touched {
            self.refresh(id);
        }
    }

    /// The next vertex to run (the ready vertex with the smallest name), now marked running. Ready
    /// vertices whose dependencies failed are marked upstream-failed on the way. `None` when
    /// nothing can run (the walk is over, or every remaining vertex waits on a running one).
    pub fn next_ready(&mut self) -> Option<VertexId> {
        while let Some((name, id)) = self.ready.pop_first() {
            let upstream_failed = self.deps.get(&id).is_some_and(|ds| {
                ds.iter()
                    .any(|d| self.outcome_of(*d).is_some_and(VertexOutcome::has_errors))
            });
            if upstream_failed {
                let _ = name;
                self.outcomes.insert(id, VertexOutcome::UpstreamFailed);
                self.finished(id);
                continue;
            }
            self.outcomes.insert(id, VertexOutcome::Running);
            self.visited.push(id);
            return Some(id);
        }
        None
    }

    /// Records the callback's result for a vertex handed out by [`Walker::next_ready`].
    pub fn complete(&mut self, id: VertexId, result: Result<(), E>) {
        if !matches!(self.outcome_of(id), Some(VertexOutcome::Running)) {
            return;
        }
        let o = match result {
            Ok(()) => VertexOutcome::Succeeded,
            Err(e) => VertexOutcome::Failed(e),
        };
        self.outcomes.insert(id, o);
        self.finished(id);
    }

    /// Runs every vertex that can run, calling `f` for each (Go's `Wait` after `Update`).
    pub fn run(&mut self, mut f: impl FnMut(VertexId) -> Result<(), E>) {
        while let Some(id) = self.next_ready() {
            let r = f(id);
            self.complete(id, r);
        }
    }

    pub fn outcome(&self, id: VertexId) -> Option<&VertexOutcome<E>> {
        self.outcomes.get(&id)
    }

    /// Vertices whose callback ran, in call order.
    pub fn visited(&self) -> &[VertexId] {
        &self.visited
    }

    /// Whether every vertex in the walk has finished.
    pub fn is_done(&self) -> bool {
        self.vertices
            .keys()
            .all(|id| self.outcome_of(*id).is_none_or(VertexOutcome::is_finished))
    }

    pub fn into_report(self) -> WalkReport<E> {
        WalkReport {
            visited: self.visited,
            outcomes: self.outcomes,
        }
    }
}

impl<V: Vertex> Graph<V> {
    /// Go's `AcyclicGraph.Walk`: calls `f` for every vertex after all of its dependencies, skipping
    /// vertices downstream of a failure.
    pub fn walk<E>(&self, f: impl FnMut(VertexId) -> Result<(), E>) -> WalkReport<E> {
        let mut w = Walker::new(true);
        w.update(self);
        w.run(f);
        w.into_report()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: usize) -> (Graph<String>, Vec<VertexId>) {
        let mut g = Graph::new();
        let ids: Vec<VertexId> = (1..=n).map(|i| g.add(i.to_string())).collect();
        for w in ids.windows(2) {
            g.connect(w[0], w[1]);
        }
        (g, ids)
    }

    #[test]
    fn dependencies_run_first_and_failures_cascade() {
        let (g, ids) = chain(4);
        let r = g.walk(|id| if id == ids[2] { Err("boom") } else { Ok(()) });
        assert_eq!(r.visited, vec![ids[3], ids[2]]);
        assert_eq!(r.outcomes[&ids[1]], VertexOutcome::UpstreamFailed);
        assert_eq!(r.outcomes[&ids[0]], VertexOutcome::UpstreamFailed);
        assert_eq!(r.errors(), vec![(ids[2], &"boom")]);
    }

    #[test]
    fn forward_walk_runs_sources_first() {
        let (g, ids) = chain(3);
        let mut w: Walker<()> = Walker::new(false);
        w.update(&g);
        w.run(|_| Ok(()));
        assert_eq!(w.visited(), ids.as_slice());
        assert!(w.is_done());
    }

    #[test]
    fn update_during_a_callback_adds_a_dependency() {
        let (mut g, ids) = chain(2);
        let mut w: Walker<()> = Walker::new(false);
        w.update(&g);
        let first = w.next_ready();
        assert_eq!(first, Some(ids[0]));
        let three = g.add("3".into());
        g.connect(three, ids[1]);
        w.update(&g);
        w.complete(ids[0], Ok(()));
        w.run(|_| Ok(()));
        assert_eq!(w.visited(), &[ids[0], three, ids[1]]);
    }

    #[test]
    fn removed_vertices_are_cancelled() {
        let (mut g, ids) = chain(2);
        let mut w: Walker<()> = Walker::new(false);
        w.update(&g);
        let first = w.next_ready().unwrap();
        g.remove(ids[1]);
        w.update(&g);
        w.complete(first, Ok(()));
        w.run(|_| Ok(()));
        assert_eq!(w.visited(), &[ids[0]]);
        assert_eq!(w.outcome(ids[1]), Some(&VertexOutcome::Cancelled));
    }
}

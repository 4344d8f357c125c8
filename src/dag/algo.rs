//! OpenTofu's DAG algorithms (`internal/dag/dag.go`, `tarjan.go`) over [`Graph`].
//!
//! These are hand-written rather than taken from petgraph because OpenTofu's results depend on its
//! exact traversal: which vertex order Tarjan reports inside a cycle ("Cycle: a, b" text and the
//! red DOT edges), the in-place transitive reduction's behaviour on cyclic input, and the visiting
//! order and depths of its depth/breadth-first walks. Go iterates maps; we iterate by name (see the
//! module docs). The property tests check them against petgraph and brute force.
//!
//! Everything is iterative (no recursion), so deep graphs cannot overflow the stack (wasm's is
//! small).

use super::graph::NameOrder;
use super::{Graph, Vertex, VertexId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;

/// One error from the DAG checks, worded as OpenTofu words it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DagError {
    /// Go: `multiple roots found: a, b` (names in our vertex order).
    #[error("multiple roots found: {}", .0.join(", "))]
    MultipleRoots(Vec<String>),
    #[error("no roots found")]
    NoRoots,
    /// A cycle of two or more vertices, in Tarjan's pop order.
    #[error("Cycle: {}", .0.join(", "))]
    Cycle(Vec<String>),
    #[error("Self reference: {0}")]
    SelfReference(String),
    /// Go panics with this text when asked for a topological order of a cyclic graph.
    #[error("cycle found in dag")]
    CycleInTopologicalSort,
}

/// What [`Graph::validate`] reports. A root problem stops validation and is reported alone (as
/// Go returns it bare); cycle and self-reference problems are gathered like Go's
/// `multierror.Append`, whose text this reproduces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValidationError {
    Root(DagError),
    Problems(Vec<DagError>),
}

impl ValidationError {
    /// The individual errors (what `tfdiags.Diagnostics.Append(multierror)` would split into).
    pub fn errors(&self) -> Vec<DagError> {
        match self {
            ValidationError::Root(e) => vec![e.clone()],
            ValidationError::Problems(es) => es.clone(),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidationError::Root(e) => write!(f, "{e}"),
            // go-multierror's ListFormatFunc.
            ValidationError::Problems(es) if es.len() == 1 => {
                write!(f, "1 error occurred:\n\t* {}\n\n", es[0])
            }
            ValidationError::Problems(es) => {
                let points: Vec<String> = es.iter().map(|e| format!("* {e}")).collect();
                write!(
                    f,
                    "{} errors occurred:\n\t{}\n\n",
                    es.len(),
                    points.join("\n\t")
                )
            }
        }
    }
}

impl std::error::Error for ValidationError {}

/// A recorded walk: see [`Graph::walk_trace`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkTrace {
    /// Visited vertices with their depth, in visiting order.
    pub visits: Vec<(VertexId, usize)>,
    /// The frontier before the first visit and after each visit (`visits.len() + 1` lists).
    pub frontiers: Vec<Vec<VertexId>>,
}

/// Go's internal `walkType`: depth-first (stack) or breadth-first (queue), following down edges
/// (dependencies) or up edges (dependents).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkOrder {
    pub depth_first: bool,
    pub down: bool,
}

impl WalkOrder {
    pub const DEPTH_FIRST_DOWN: WalkOrder = WalkOrder {
        depth_first: true,
        down: true,
    };
    pub const DEPTH_FIRST_UP: WalkOrder = WalkOrder {
        depth_first: true,
        down: false,
    };
    pub const BREADTH_FIRST_DOWN: WalkOrder = WalkOrder {
        depth_first: false,
        down: true,
    };
    pub const BREADTH_FIRST_UP: WalkOrder = WalkOrder {
        depth_first: false,
        down: false,
    };
}

impl<V: Vertex> Graph<V> {
    /// Go's `AcyclicGraph.Root`: the single vertex nothing depends on.
    pub fn root(&self) -> Result<VertexId, DagError> {
        // The vertices nothing depends on, in id order, then by name (ties by id) as
        // `ids_by_name` orders them: naming only the roots, not every vertex.
        let mut roots: Vec<(String, VertexId)> = self
            .ids()
            .filter(|id| self.up_len(*id) == 0)
            .map(|id| (self.name_of(id), id))
            .collect();
        roots.sort();
        let roots: Vec<VertexId> = roots.into_iter().map(|(_, id)| id).collect();
        match roots.as_slice() {
            [one] => Ok(*one),
            [] => Err(DagError::NoRoots),
            many => Err(DagError::MultipleRoots(
                many.iter().map(|id| self.name_of(*id)).collect(),
            )),
        }
    }

    /// Whether [`Graph::validate`] passes (one root, no cycle, no self reference), without
    /// naming what fails.
    pub fn is_valid(&self) -> bool {
        self.passes_validation(false)
    }

    /// [`Graph::is_valid`]; with `acyclic` the caller knows there is no cycle, so none is looked
    /// for.
    fn passes_validation(&self, acyclic: bool) -> bool {
        self.root().is_ok()
            && (acyclic || self.cycles().is_empty())
            && !self.edges().iter().any(|(f, t)| f == t)
    }

    /// Go's `AcyclicGraph.Validate`: exactly one root, no cycles, no self references.
    pub fn validate(&self) -> Result<(), ValidationError> {
        self.root().map_err(ValidationError::Root)?;
        let mut problems: Vec<DagError> = self
            .cycles()
            .into_iter()
            .map(|c| DagError::Cycle(c.into_iter().map(|id| self.name_of(id)).collect()))
            .collect();
        // Go looks at every edge, also those whose ends were never added.
        let mut selfs: Vec<String> = self
            .edges()
            .into_iter()
            .filter(|(f, t)| f == t)
            .map(|(f, _)| self.name_of(f))
            .collect();
        selfs.sort();
        problems.extend(selfs.into_iter().map(DagError::SelfReference));
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ValidationError::Problems(problems))
        }
    }

    /// Go's `AcyclicGraph.Cycles`: strongly connected components of two or more vertices.
    /// Self-loops are not reported here.
    ///
    /// A graph that Kahn's algorithm orders whole (every edge between members) has none, whatever
    /// the order: that check costs no names, so only a graph that may have a cycle gets Tarjan's
    /// name-ordered walk (which gives the cycles in Go's order).
    pub fn cycles(&self) -> Vec<Vec<VertexId>> {
        if self.dense_if_acyclic().is_some() {
            return Vec::new();
        }
        self.strongly_connected()
            .into_iter()
            .filter(|c| c.len() > 1)
            .collect()
    }

    /// Go's `StronglyConnected` (Tarjan): every component, single vertices included, in the order
    /// Tarjan completes them; each component's vertices in stack-pop order. Vertices and their
    /// dependencies are visited by name.
    pub fn strongly_connected(&self) -> Vec<Vec<VertexId>> {
        struct Frame {
            v: VertexId,
            succ: Vec<VertexId>,
            pos: usize,
            low: usize,
        }
        #[derive(Default)]
        struct State {
            index: BTreeMap<VertexId, usize>,
            on_stack: BTreeSet<VertexId>,
            stack: Vec<VertexId>,
            frames: Vec<Frame>,
        }
        impl State {
            fn visit(&mut self, v: VertexId, succ: Vec<VertexId>) {
                let i = self.index.len() + 1;
                self.index.insert(v, i);
                self.frames.push(Frame {
                    v,
                    succ,
                    pos: 0,
                    low: i,
                });
                self.stack.push(v);
                self.on_stack.insert(v);
            }
        }
        let (order, sorted) = NameOrder::new(self);
        let mut st = State::default();
        let mut out: Vec<Vec<VertexId>> = Vec::new();

        for start in sorted {
            if st.index.contains_key(&start) {
                continue;
            }
            st.visit(start, order.sorted(self.dependencies(start)));
            while let Some(top) = st.frames.last_mut() {
                if top.pos < top.succ.len() {
                    let w = top.succ[top.pos];
                    top.pos += 1;
                    match st.index.get(&w).copied() {
                        None => st.visit(w, order.sorted(self.dependencies(w))),
                        Some(wi) => {
                            if st.on_stack.contains(&w) {
                                top.low = top.low.min(wi);
                            }
                        }
                    }
                    continue;
                }
                let Some(done) = st.frames.pop() else { break };
                let vi = st.index.get(&done.v).copied().unwrap_or(0);
                if done.low == vi {
                    let mut scc = Vec::new();
                    while let Some(x) = st.stack.pop() {
                        st.on_stack.remove(&x);
                        scc.push(x);
                        if x == done.v {
                            break;
                        }
                    }
                    out.push(scc);
                }
                if let Some(parent) = st.frames.last_mut() {
                    parent.low = parent.low.min(done.low);
                }
            }
        }
        out
    }

    /// Go's `AcyclicGraph.TransitiveReduction`, in place: for each vertex `u` (by name), walk
    /// depth-first down from its dependencies and drop every edge `u -> v'` where some visited `v`
    /// also depends on `v'`. On a DAG this yields the unique transitive reduction; on cyclic input
    /// it removes the same edges Go's algorithm does for this visiting order.
    pub fn transitive_reduction(&mut self) {
        self.transitive_reduction_removed();
    }

    /// [`Graph::transitive_reduction`], returning the edges it removed (in the order it removed
    /// them), so a caller recording changes need not compare the edge sets.
    ///
    /// On an acyclic graph (the builders' graphs once they are valid) the result does not depend
    /// on the order of the walks: an edge `u -> t` goes exactly when `t` is reachable from `u` by
    /// a longer path. There it walks unsorted over dense indexes with a visited mark per vertex
    /// instead of name-sorted walks (which were most of the builders' reduction time); on a graph
    /// with a cycle, a self-loop or an edge to a detached vertex it walks by name as Go does.
    pub fn transitive_reduction_removed(&mut self) -> Vec<(VertexId, VertexId)> {
        match self.dense_if_acyclic() {
            Some(dense) => self.reduce_dense(dense),
            None => self.transitive_reduction_by_name(),
        }
    }

    /// When [`Graph::validate`] passes, [`Graph::transitive_reduction_removed`]'s edges (else
    /// `None`, the graph unchanged): OpenTofu's `TransitiveReductionTransformer`. The dense form
    /// that shows the graph acyclic is made once for both.
    pub fn transitive_reduction_if_valid(&mut self) -> Option<Vec<(VertexId, VertexId)>> {
        let dense = self.dense_if_acyclic();
        // A dense form means no cycle (Kahn's algorithm ordered every member).
        if !self.passes_validation(dense.is_some()) {
            return None;
        }
        Some(match dense {
            Some(dense) => self.reduce_dense(dense),
            None => self.transitive_reduction_by_name(),
        })
    }

    /// The reduction of an acyclic graph given as [`Graph::dense_if_acyclic`] gives it.
    fn reduce_dense(&mut self, (ids, adj): (Vec<VertexId>, Dense)) -> Vec<(VertexId, VertexId)> {
        let mut mark = vec![usize::MAX; ids.len()];
        let mut stack: Vec<usize> = Vec::new();
        let mut removed = Vec::new();
        for u in 0..ids.len() {
            let deps = adj.deps(u);
            // With one dependency, no other path can reach it (that would be a cycle).
            if deps.len() < 2 {
                continue;
            }
            // Every vertex reachable from `u` by two edges or more, each marked as it is first
            // reached (so it is pushed once).
            let mut reach = |x: usize, stack: &mut Vec<usize>| {
                for &y in adj.deps(x) {
                    if mark[y] != u {
                        mark[y] = u;
                        stack.push(y);
                    }
                }
            };
            for &d in deps {
                reach(d, &mut stack);
            }
            while let Some(x) = stack.pop() {
                reach(x, &mut stack);
            }
            removed.extend(
                deps.iter()
                    .filter(|t| mark[**t] == u)
                    .map(|t| (ids[u], ids[*t])),
            );
        }
        for &(u, t) in &removed {
            self.remove_edge(u, t);
        }
        removed
    }

    /// The vertex set as dense indexes (in id order) with each one's dependencies, when every
    /// edge from a member ends at a member and there is no cycle (Kahn's algorithm); else `None`.
    fn dense_if_acyclic(&self) -> Option<(Vec<VertexId>, Dense)> {
        let ids: Vec<VertexId> = self.ids().collect();
        // Ids are dense and never reused, so each member's index is found by its id (a vertex
        // with no index, past the last member or between members, is detached).
        let slot = |id: VertexId| usize::try_from(id.index()).ok();
        let mut index = vec![usize::MAX; ids.last().and_then(|l| slot(*l)).map_or(0, |l| l + 1)];
        for (i, id) in ids.iter().enumerate() {
            index[slot(*id)?] = i;
        }
        let mut adj = Dense {
            starts: Vec::with_capacity(ids.len() + 1),
            deps: Vec::with_capacity(self.edge_count()),
        };
        adj.starts.push(0);
        for &u in &ids {
            for t in self.dependencies(u) {
                let i = *index.get(slot(t)?)?;
                if i == usize::MAX {
                    return None;
                }
                adj.deps.push(i);
            }
            adj.starts.push(adj.deps.len());
        }
        let mut indegree = vec![0usize; ids.len()];
        for &t in &adj.deps {
            indegree[t] += 1;
        }
        let mut ready: Vec<usize> = (0..ids.len()).filter(|i| indegree[*i] == 0).collect();
        let mut done = 0;
        while let Some(u) = ready.pop() {
            done += 1;
            for &t in adj.deps(u) {
                indegree[t] -= 1;
                if indegree[t] == 0 {
                    ready.push(t);
                }
            }
        }
        (done == ids.len()).then_some((ids, adj))
    }

    /// Go's walk, name-sorted from every vertex, removing edges as it goes (also on cyclic input).
    pub(crate) fn transitive_reduction_by_name(&mut self) -> Vec<(VertexId, VertexId)> {
        let mut removed = Vec::new();
        let (order, sorted) = NameOrder::new(self);
        for u in sorted {
            let mut seen: BTreeSet<VertexId> = BTreeSet::new();
            let mut frontier: Vec<VertexId> = order.sorted(self.dependencies(u));
            while let Some(v) = frontier.pop() {
                if !seen.insert(v) {
                    continue;
                }
                let shared: Vec<VertexId> = self
                    .dependencies(v)
                    .filter(|t| self.has_edge(u, *t))
                    .collect();
                for t in shared {
                    if self.remove_edge(u, t) {
                        removed.push((u, t));
                    }
                }
                frontier.extend(order.sorted(self.dependencies(v)));
            }
        }
        removed
    }

    /// Go's `AcyclicGraph.topoOrder(upOrder)` = `TopologicalOrder()`: every vertex after all its
    /// dependents (sources before targets).
    pub fn topological_order(&self) -> Result<Vec<VertexId>, DagError> {
        self.topo_order(false)
    }

    /// Go's `ReverseTopologicalOrder()`: every vertex after all its dependencies.
    pub fn reverse_topological_order(&self) -> Result<Vec<VertexId>, DagError> {
        self.topo_order(true)
    }

    /// Depth-first post-order over down (or up) edges, starting from every vertex by name.
    fn topo_order(&self, down: bool) -> Result<Vec<VertexId>, DagError> {
        let (order, sorted) = NameOrder::new(self);
        let next = |v: VertexId| -> Vec<VertexId> {
            if down {
                order.sorted(self.dependencies(v))
            } else {
                order.sorted(self.dependents(v))
            }
        };
        let mut perm: BTreeSet<VertexId> = BTreeSet::new();
        let mut tmp: BTreeSet<VertexId> = BTreeSet::new();
        let mut out = Vec::with_capacity(self.len());
        for start in sorted {
            if perm.contains(&start) {
                continue;
            }
            let mut frames: Vec<(VertexId, Vec<VertexId>, usize)> = vec![(start, next(start), 0)];
            tmp.insert(start);
            while let Some((v, succ, pos)) = frames.last_mut() {
                if *pos < succ.len() {
                    let w = succ[*pos];
                    *pos += 1;
                    if perm.contains(&w) {
                        continue;
                    }
                    if !tmp.insert(w) {
                        return Err(DagError::CycleInTopologicalSort);
                    }
                    let s = next(w);
                    frames.push((w, s, 0));
                    continue;
                }
                let v = *v;
                frames.pop();
                tmp.remove(&v);
                perm.insert(v);
                out.push(v);
            }
        }
        Ok(out)
    }

    /// Go's internal `AcyclicGraph.walk` in its deterministic (test) mode: the start set is sorted
    /// by name; after visiting a vertex its next vertices (dependencies when `order.down`, else
    /// dependents) are sorted by name and appended; depth-first pops the last entry, breadth-first
    /// the first; already-seen vertices are skipped. `f` gets each vertex with its depth (0 for
    /// start vertices); an error from `f` stops the walk.
    pub fn walk_order<E>(
        &self,
        order: WalkOrder,
        start: impl IntoIterator<Item = VertexId>,
        f: impl FnMut(VertexId, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        self.walk_core(order, start, f, |_, _| {})
    }

    /// [`Graph::walk_order`] step by step, for showing a walk as it goes (the app's DFS/BFS
    /// overlay): each visit with its depth and the frontier left after it, that is the queued
    /// vertices not seen yet, without repeats, in queue order. `frontiers[0]` is the start set,
    /// `frontiers[k]` the frontier after `k` visits. Frontier lists stop being recorded (stay
    /// empty) once they hold `max_frontier` entries in all, so a huge graph stays cheap.
    pub fn walk_trace(
        &self,
        order: WalkOrder,
        start: impl IntoIterator<Item = VertexId>,
        max_frontier: usize,
    ) -> WalkTrace {
        let mut trace = WalkTrace::default();
        let mut total = 0usize;
        let mut record = |queue: &VecDeque<(VertexId, usize)>, seen: &BTreeSet<VertexId>| {
            let mut listed = BTreeSet::new();
            let f: Vec<VertexId> = if total < max_frontier {
                queue
                    .iter()
                    .map(|(v, _)| *v)
                    .filter(|v| !seen.contains(v) && listed.insert(*v))
                    .collect()
            } else {
                Vec::new()
            };
            total += f.len();
            trace.frontiers.push(f);
        };
        let mut visits = Vec::new();
        let _ = self.walk_core(
            order,
            start,
            |v, d| {
                visits.push((v, d));
                Ok::<(), ()>(())
            },
            &mut record,
        );
        trace.visits = visits;
        trace
    }

    /// The walk shared by [`Graph::walk_order`] and [`Graph::walk_trace`]: `queued` sees the
    /// frontier and the seen set before the first visit and after each one.
    fn walk_core<E>(
        &self,
        order: WalkOrder,
        start: impl IntoIterator<Item = VertexId>,
        mut f: impl FnMut(VertexId, usize) -> Result<(), E>,
        mut queued: impl FnMut(&VecDeque<(VertexId, usize)>, &BTreeSet<VertexId>),
    ) -> Result<(), E> {
        let (names, _) = NameOrder::new(self);
        let mut seen: BTreeSet<VertexId> = BTreeSet::new();
        let mut first: Vec<VertexId> = start.into_iter().collect();
        names.sort(&mut first);
        let mut frontier: VecDeque<(VertexId, usize)> = first.into_iter().map(|v| (v, 0)).collect();
        queued(&frontier, &seen);
        loop {
            let popped = if order.depth_first {
                frontier.pop_back()
            } else {
                frontier.pop_front()
            };
            let Some((v, depth)) = popped else { break };
            if !seen.insert(v) {
                continue;
            }
            f(v, depth)?;
            let next = if order.down {
                names.sorted(self.dependencies(v))
            } else {
                names.sorted(self.dependents(v))
            };
            frontier.extend(next.into_iter().map(|n| (n, depth + 1)));
            queued(&frontier, &seen);
        }
        Ok(())
    }

    /// Go's `DepthFirstWalk`: depth-first along dependencies.
    pub fn depth_first_walk<E>(
        &self,
        start: impl IntoIterator<Item = VertexId>,
        f: impl FnMut(VertexId, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        self.walk_order(WalkOrder::DEPTH_FIRST_DOWN, start, f)
    }

    /// Go's `ReverseDepthFirstWalk`: depth-first along dependents.
    pub fn reverse_depth_first_walk<E>(
        &self,
        start: impl IntoIterator<Item = VertexId>,
        f: impl FnMut(VertexId, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        self.walk_order(WalkOrder::DEPTH_FIRST_UP, start, f)
    }

    /// Go's `BreadthFirstWalk`: breadth-first along dependencies.
    pub fn breadth_first_walk<E>(
        &self,
        start: impl IntoIterator<Item = VertexId>,
        f: impl FnMut(VertexId, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        self.walk_order(WalkOrder::BREADTH_FIRST_DOWN, start, f)
    }

    /// Go's `ReverseBreadthFirstWalk`: breadth-first along dependents.
    pub fn reverse_breadth_first_walk<E>(
        &self,
        start: impl IntoIterator<Item = VertexId>,
        f: impl FnMut(VertexId, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        self.walk_order(WalkOrder::BREADTH_FIRST_UP, start, f)
    }

    /// Go's `Ancestors`: everything `id` transitively depends on (itself only if on a cycle).
    pub fn ancestors(&self, id: VertexId) -> BTreeSet<VertexId> {
        let mut s = BTreeSet::new();
        let _ = self.depth_first_walk(self.dependencies(id), |v, _| {
            s.insert(v);
            Ok::<(), ()>(())
        });
        s
    }

    /// Go's `Descendents`: everything that transitively depends on `id`.
    pub fn descendants(&self, id: VertexId) -> BTreeSet<VertexId> {
        let mut s = BTreeSet::new();
        let _ = self.reverse_depth_first_walk(self.dependents(id), |v, _| {
            s.insert(v);
            Ok::<(), ()>(())
        });
        s
    }

    /// Edges sorted by (from name, to name), ties by id.
    pub fn edges_by_name(&self) -> Vec<(VertexId, VertexId)> {
        let (order, sorted) = NameOrder::new(self);
        sorted
            .into_iter()
            .flat_map(|f| {
                order
                    .sorted(self.dependencies(f))
                    .into_iter()
                    .map(move |t| (f, t))
            })
            .collect()
    }
}

/// Each dense vertex's dependencies, all in one list ([`Graph::dense_if_acyclic`]): vertex `i`'s
/// are `deps[starts[i]..starts[i + 1]]`. One list rather than one per vertex: the form is made
/// twice per build (validation, then the reduction), 12,000 lists each time at 10,000 resources.
struct Dense {
    starts: Vec<usize>,
    deps: Vec<usize>,
}

impl Dense {
    fn deps(&self, i: usize) -> &[usize] {
        &self.deps[self.starts[i]..self.starts[i + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(vs: &[&str], es: &[(&str, &str)]) -> Graph<String> {
        let mut g = Graph::new();
        for v in vs {
            g.add(v.to_string());
        }
        for (f, t) in es {
            let (Some(f), Some(t)) = (g.find_by_name(f), g.find_by_name(t)) else {
                panic!()
            };
            g.connect(f, t);
        }
        g
    }

    #[test]
    fn root_errors_use_opentofu_wording() {
        let g = build(&["1", "2", "3"], &[("3", "2")]);
        assert_eq!(
            g.root().unwrap_err().to_string(),
            "multiple roots found: 1, 3"
        );
        let g = build(&["1", "2"], &[("1", "2"), ("2", "1")]);
        assert_eq!(g.root().unwrap_err().to_string(), "no roots found");
    }

    #[test]
    fn validate_reports_cycles_and_self_references_like_multierror() {
        let mut g = build(
            &["0", "1", "2", "3"],
            &[("0", "1"), ("0", "3"), ("1", "2"), ("2", "1")],
        );
        let e = g.validate().unwrap_err();
        assert_eq!(e.to_string(), "1 error occurred:\n\t* Cycle: 2, 1\n\n");
        let three = g.find_by_name("3").unwrap();
        g.connect(three, three);
        let e = g.validate().unwrap_err();
        assert_eq!(
            e.to_string(),
            "2 errors occurred:\n\t* Cycle: 2, 1\n\t* Self reference: 3\n\n"
        );
    }

    #[test]
    fn is_valid_and_the_reduction_if_valid_agree_with_validate() {
        let mut self_ref = build(&["0", "1"], &[("0", "1")]);
        let one = self_ref.find_by_name("1").unwrap();
        self_ref.connect(one, one);
        let cases = [
            (
                build(&["0", "1", "2"], &[("0", "1"), ("1", "2"), ("0", "2")]),
                true,
            ),
            (build(&["0", "1", "2"], &[("0", "1")]), false),
            (
                build(&["0", "1", "2"], &[("0", "1"), ("1", "2"), ("2", "1")]),
                false,
            ),
            (self_ref, false),
        ];
        for (mut g, valid) in cases {
            assert_eq!(g.validate().is_ok(), valid, "{}", g.string());
            assert_eq!(g.is_valid(), valid, "{}", g.string());
            let before = g.edges();
            let removed = g.transitive_reduction_if_valid();
            assert_eq!(removed.is_some(), valid, "{}", g.string());
            if !valid {
                assert_eq!(g.edges(), before, "an invalid graph is left as it is");
            }
        }
    }

    #[test]
    fn transitive_reduction_of_a_dag_leaves_the_edges_the_name_sorted_walk_leaves() {
        // Deterministic pseudo-random DAGs (edges only to earlier vertices), names not in id
        // order, from sparse to dense.
        let mut seed: u64 = 7;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for case in 0..300 {
            let n = 1 + (case % 40) as usize;
            let density = 1 + next() % 6;
            let mut g: Graph<String> = Graph::new();
            let ids: Vec<VertexId> = (0..n)
                .map(|_| g.add(format!("v{}", next() % 1000)))
                .collect();
            for i in 0..n {
                for j in 0..i {
                    if next() % 10 < density {
                        g.connect(ids[i], ids[j]);
                    }
                }
            }
            let mut by_name = g.clone();
            by_name.transitive_reduction_by_name();
            let removed = g.transitive_reduction_removed();
            assert_eq!(g.edges(), by_name.edges(), "case {case}");
            assert!(removed.iter().all(|(f, t)| !g.has_edge(*f, *t)));
        }
    }

    #[test]
    fn transitive_reduction_on_a_two_cycle_matches_go() {
        // Go: processing u=1 walks 2 then 1 again and drops 1 -> 2; 2 -> 1 survives.
        let mut g = build(&["1", "2"], &[("1", "2"), ("2", "1")]);
        g.transitive_reduction();
        assert_eq!(g.string(), "1\n2\n  1\n");
    }

    fn visits(g: &Graph<String>, order: WalkOrder, start: &[&str]) -> Vec<(String, usize)> {
        let start: Vec<VertexId> = start.iter().map(|n| g.find_by_name(n).unwrap()).collect();
        let mut out = Vec::new();
        let _ = g.walk_order(order, start, |v, d| {
            out.push((g.name_of(v), d));
            Ok::<(), ()>(())
        });
        out
    }

    fn sample() -> Graph<String> {
        let names: Vec<String> = (1..=11).map(|i| i.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        build(
            &names,
            &[
                ("1", "3"),
                ("1", "4"),
                ("2", "4"),
                ("2", "5"),
                ("3", "6"),
                ("4", "7"),
                ("5", "7"),
                ("7", "8"),
                ("7", "9"),
                ("7", "10"),
                ("8", "11"),
                ("9", "11"),
                ("10", "11"),
            ],
        )
    }

    #[test]
    fn reverse_breadth_first_matches_go() {
        // TestAcyclicGraphWalkOrder/ReverseBreadthFirst (not in the corpus).
        let got = visits(&sample(), WalkOrder::BREADTH_FIRST_UP, &["11", "6"]);
        let want: Vec<(String, usize)> = [
            ("11", 0),
            ("6", 0),
            ("10", 1),
            ("8", 1),
            ("9", 1),
            ("3", 1),
            ("7", 2),
            ("1", 2),
            ("4", 3),
            ("5", 3),
            ("2", 4),
        ]
        .iter()
        .map(|(n, d)| (n.to_string(), *d))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn descendants_and_more_go_cases() {
        // internal/dag/dag_test.go TestAcyclicGraphDescendents: vertex 0 is never added, only
        // connected (Go's Connect does not check membership); Descendents still reaches it.
        let mut g = build(
            &["1", "2", "3", "4", "5"],
            &[("1", "2"), ("2", "3"), ("3", "4"), ("4", "5")],
        );
        let zero = g.add_detached("0".to_string());
        g.connect(zero, g.find_by_name("1").unwrap());
        let two = g.find_by_name("2").unwrap();
        // TestAcyclicGraphAncestors on the same graph: what 2 depends on.
        let names: BTreeSet<String> = g.ancestors(two).into_iter().map(|v| g.name_of(v)).collect();
        assert_eq!(names, BTreeSet::from(["3", "4", "5"].map(String::from)));
        let names: BTreeSet<String> = g
            .descendants(two)
            .into_iter()
            .map(|v| g.name_of(v))
            .collect();
        assert_eq!(names, BTreeSet::from(["0".to_string(), "1".to_string()]));
        // TestAyclicGraphTransReduction_more.
        let mut g = build(
            &["1", "2", "3", "4"],
            &[
                ("1", "2"),
                ("1", "3"),
                ("1", "4"),
                ("2", "3"),
                ("2", "4"),
                ("3", "4"),
            ],
        );
        g.transitive_reduction();
        assert_eq!(g.string(), "1\n  2\n2\n  3\n3\n  4\n4\n");
        // TestAcyclicGraphValidate_cycleSelf.
        let mut g = build(&["1", "2"], &[]);
        let one = g.find_by_name("1").unwrap();
        g.connect(one, one);
        assert_eq!(
            g.validate(),
            Err(ValidationError::Problems(vec![DagError::SelfReference(
                "1".into()
            )]))
        );
    }

    #[test]
    fn walk_trace_matches_walk_order_and_lists_the_frontier() {
        let g = sample();
        let start = [g.find_by_name("1").unwrap(), g.find_by_name("2").unwrap()];
        for order in [WalkOrder::DEPTH_FIRST_DOWN, WalkOrder::BREADTH_FIRST_DOWN] {
            let t = g.walk_trace(order, start, usize::MAX);
            let mut plain = Vec::new();
            let _ = g.walk_order(order, start, |v, d| {
                plain.push((v, d));
                Ok::<(), ()>(())
            });
            assert_eq!(t.visits, plain);
            assert_eq!(t.frontiers.len(), t.visits.len() + 1);
            assert_eq!(t.frontiers[0], vec![start[0], start[1]]);
            assert!(t.frontiers.last().unwrap().is_empty());
        }
        // Breadth-first from 1 and 2: after visiting 1, its dependencies 3 and 4 join 2.
        let t = g.walk_trace(WalkOrder::BREADTH_FIRST_DOWN, start, usize::MAX);
        let names: Vec<String> = t.frontiers[1].iter().map(|v| g.name_of(*v)).collect();
        assert_eq!(names, vec!["2", "3", "4"]);
    }

    #[test]
    fn topological_order_rejects_cycles() {
        let g = build(&["1", "2"], &[("1", "2"), ("2", "1")]);
        assert_eq!(g.topological_order(), Err(DagError::CycleInTopologicalSort));
    }
}

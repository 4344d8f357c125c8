//! The parallel walk: one async task per vertex, as OpenTofu runs one goroutine per vertex.
//!
//! Each task waits until every vertex it depends on has finished, then (if none of them failed)
//! waits for a permit from the `-parallelism` semaphore, runs (asks its [`Behaviour`] what to do and
//! sleeps that long on the virtual clock), releases the permit and finishes, waking the tasks that
//! wait on it. A failed dependency makes a vertex upstream-failed without running. [`Walk::update`]
//! brings the walk in line with a changed graph at any time, [`Walk::cancel`] stops it, and a
//! vertex may expand into instance vertices (OpenTofu's `DynamicExpand`), walked under the same
//! semaphore before the vertex counts as finished.
//!
//! All shared state lives in one `RefCell`; no borrow is held across an `.await` or while a
//! [`Behaviour`] runs, so behaviours may call back into the walk.

use super::clock::Clock;
use super::driver::Executor;
use super::semaphore::{Permit, Semaphore};
use super::steps::StepRun;
use crate::dag::{Graph, Vertex, VertexId};
use crate::kind::Typed;
use futures::executor::LocalSpawner;
use futures::task::LocalSpawnExt;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

/// Identifies one task of a walk: a graph vertex, or an instance a vertex expanded into. Numbered
/// in creation order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct TaskId(pub u32);

impl TaskId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A state change of one task.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Transition {
    /// Known to the walk, waiting for what it depends on.
    WaitingOnDeps,
    /// Dependencies done and successful; waiting for a parallelism permit.
    WaitingForPermit,
    /// Holding a permit, executing.
    Running,
    /// Its own execution finished and it expanded into this many instances; the permit is
    /// released and the vertex finishes when they have.
    Expanded {
        instances: usize,
    },
    /// Its own execution finished, but how many instances it has is not known before the apply
    /// (an unknown `count` or `for_each`); the reason says which expression. None are walked and
    /// the vertex then finishes.
    InstancesUnknown(String),
    Done,
    Failed(String),
    /// Not run because something it depends on failed (or was itself upstream-failed).
    UpstreamFailed,
    /// Not run: the walk was cancelled or the vertex was removed from the graph.
    Cancelled,
}

impl Transition {
    pub fn is_finished(&self) -> bool {
        matches!(
            self,
            Transition::Done
                | Transition::Failed(_)
                | Transition::UpstreamFailed
                | Transition::Cancelled
        )
    }

    /// Whether tasks waiting on this one must not run (Go: its diagnostics have errors).
    pub fn has_errors(&self) -> bool {
        matches!(self, Transition::Failed(_) | Transition::UpstreamFailed)
    }
}

/// One entry of the event log.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// Simulated time since the walk started.
    pub time: Duration,
    pub task: TaskId,
    /// The vertex id in its graph: the walked graph, or for an instance the expansion subgraph.
    pub vertex: VertexId,
    pub name: String,
    pub transition: Transition,
}

impl Default for Execution {
    /// Instant success, no expansion.
    fn default() -> Self {
        Execution {
            duration: Duration::ZERO,
            result: Ok(()),
            expand: None,
            steps: Vec::new(),
        }
    }
}

/// What a behaviour is told about the vertex it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexRef {
    pub task: TaskId,
    pub vertex: VertexId,
    pub name: String,
    /// Its kind and module, as the walked graph's vertex tells them; an instance is of the kind
    /// of the instances its vertex expands into ([`crate::kind::VertexKind::instance`]).
    pub typed: Typed,
    /// For an instance: the task of the vertex that expanded into it.
    pub parent: Option<TaskId>,
}

/// What a vertex expands into.
#[derive(Debug, Clone)]
pub enum Expansion {
    /// A subgraph of instance vertices. Its edges mean "from depends on to", as in any OpenTofu
    /// graph.
    Instances(Graph<String>),
    /// The instances cannot be known statically; the reason.
    Unknown(String),
}

impl From<Graph<String>> for Expansion {
    fn from(g: Graph<String>) -> Self {
        Expansion::Instances(g)
    }
}

/// What executing a vertex does.
#[derive(Debug, Clone)]
pub struct Execution {
    /// How long it holds its permit.
    pub duration: Duration,
    /// `Err` = the vertex fails with this message.
    pub result: Result<(), String>,
    /// Instance vertices to walk after this one's own execution (OpenTofu's `DynamicExpand`),
    /// or word that they are not known.
    pub expand: Option<Expansion>,
    /// The evaluation steps it runs in `duration` ([`super::steps`]), kept in
    /// [`TaskInfo::steps`]; empty when the behaviour has none.
    pub steps: Vec<StepRun>,
}

/// A wait inside a vertex's callback, on something other than the graph (OpenTofu's tests block a
/// callback on a channel another vertex's callback closes). It resolves `Ok` to carry on, or
/// `Err(message)` to fail the vertex without executing it.
pub type Gate = Pin<Box<dyn Future<Output = Result<(), String>>>>;

/// Decides whether a vertex expands into instances when it runs, and into which (the engine's
/// `DynamicExpand`; the builder will supply the real one). Return `None` for no expansion; a
/// subgraph with no vertices expands into nothing.
pub trait Expander {
    fn expand(&mut self, v: &VertexRef) -> Option<Expansion>;
}

/// A closure returning the instance subgraph is an expander (it cannot report unknown instances).
impl<F: FnMut(&VertexRef) -> Option<Graph<String>>> Expander for F {
    fn expand(&mut self, v: &VertexRef) -> Option<Expansion> {
        self(v).map(Expansion::Instances)
    }
}

/// What vertices do when they run. Called with no walk state borrowed: a behaviour may call
/// [`Walk::update`] or [`Walk::cancel`] (as OpenTofu's tests call `Walker.Update` from a callback).
pub trait Behaviour {
    /// Called first when the vertex's callback starts (it holds its permit): a wait to finish
    /// before [`Behaviour::execute`], or `None` (the default) to execute at once.
    fn gate(&mut self, walk: &Walk, v: &VertexRef) -> Option<Gate> {
        let _ = (walk, v);
        None
    }

    /// The vertex got its permit (Go: the walk callback is called).
    fn execute(&mut self, walk: &Walk, v: &VertexRef) -> Execution;

    /// The vertex finished after running (Go: the callback returned); `outcome` is final.
    fn completed(&mut self, walk: &Walk, v: &VertexRef, outcome: &Transition) {
        let _ = (walk, v, outcome);
    }
}

/// Walk settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkOptions {
    /// At most this many vertices execute at once (`tofu -parallelism`, default 10; 0 counts as 1).
    pub parallelism: usize,
    /// `true` (the default, `AcyclicGraph.Walk`): a vertex waits on what it depends on (the
    /// targets of its edges). `false`: the target of an edge waits on its source, as `dag.Walker`
    /// with `Reverse: false`.
    pub reverse: bool,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            parallelism: 10,
            reverse: true,
        }
    }
}

impl WalkOptions {
    pub fn with_parallelism(parallelism: usize) -> Self {
        WalkOptions {
            parallelism,
            ..Self::default()
        }
    }
}

struct Task {
    vertex: VertexId,
    name: String,
    typed: Typed,
    parent: Option<TaskId>,
    deps: BTreeSet<TaskId>,
    waiters: BTreeSet<TaskId>,
    status: Transition,
    /// The task's waker while it waits on dependencies, a permit or its instances.
    waker: Option<Waker>,
    children: Vec<TaskId>,
    children_left: usize,
    started: Option<Duration>,
    ran_for: Duration,
    finished: Option<Duration>,
    steps: Vec<StepRun>,
}

#[derive(Default)]
struct State {
    tasks: Vec<Task>,
    /// Top-level task of every vertex of the walked graph ever seen (ids are never reused).
    task_by_vertex: BTreeMap<VertexId, TaskId>,
    /// Vertices of the walked graph currently in the walk.
    in_walk: BTreeSet<VertexId>,
    /// Graph edges taken into account, as (from, to).
    edges: BTreeSet<(VertexId, VertexId)>,
    events: Vec<Event>,
    cancelled: bool,
}

impl State {
    fn record(&mut self, now: Duration, t: TaskId, tr: Transition) {
        let task = &mut self.tasks[t.index()];
        if tr.is_finished() {
            task.finished = Some(now);
        }
        task.status = tr.clone();
        self.events.push(Event {
            time: now,
            task: t,
            vertex: task.vertex,
            name: task.name.clone(),
            transition: tr,
        });
    }

    fn new_task(
        &mut self,
        now: Duration,
        vertex: VertexId,
        name: String,
        typed: Typed,
        parent: Option<TaskId>,
    ) -> TaskId {
        let t = TaskId(u32::try_from(self.tasks.len()).unwrap_or(u32::MAX));
        self.tasks.push(Task {
            vertex,
            name,
            typed,
            parent,
            deps: BTreeSet::new(),
            waiters: BTreeSet::new(),
            status: Transition::WaitingOnDeps,
            waker: None,
            children: Vec::new(),
            children_left: 0,
            started: None,
            ran_for: Duration::ZERO,
            finished: None,
            steps: Vec::new(),
        });
        let first = if self.cancelled {
            Transition::Cancelled
        } else {
            Transition::WaitingOnDeps
        };
        self.record(now, t, first);
        t
    }

    fn status(&self, t: TaskId) -> &Transition {
        &self.tasks[t.index()].status
    }

    fn take_waker(&mut self, t: TaskId) -> Option<Waker> {
        self.tasks[t.index()].waker.take()
    }

    /// Marks a task cancelled if it is still waiting on dependencies (or, with `permit_waiters`,
    /// for a permit); returns the wakers of it and of whoever may move on.
    fn cancel_task(&mut self, now: Duration, t: TaskId, permit_waiters: bool) -> Vec<Waker> {
        let cancellable = match self.status(t) {
            Transition::WaitingOnDeps => true,
            Transition::WaitingForPermit => permit_waiters,
            _ => false,
        };
        if !cancellable {
            return Vec::new();
        }
        self.record(now, t, Transition::Cancelled);
        let mut wakers = self.finished(t);
        wakers.extend(self.take_waker(t));
        wakers
    }

    /// After `t` finished: the wakers of the tasks that may be able to move on.
    fn finished(&mut self, t: TaskId) -> Vec<Waker> {
        let mut wakers = Vec::new();
        let waiters: Vec<TaskId> = self.tasks[t.index()].waiters.iter().copied().collect();
        for w in waiters {
            if *self.status(w) == Transition::WaitingOnDeps {
                wakers.extend(self.take_waker(w));
            }
        }
        if let Some(p) = self.tasks[t.index()].parent {
            let parent = &mut self.tasks[p.index()];
            parent.children_left = parent.children_left.saturating_sub(1);
            if parent.children_left == 0 {
                wakers.extend(parent.waker.take());
            }
        }
        wakers
    }
}

struct Inner {
    state: RefCell<State>,
    behaviour: RefCell<Box<dyn Behaviour>>,
    sem: Semaphore,
    clock: Clock,
    spawner: LocalSpawner,
    reverse: bool,
    parallelism: usize,
}

/// A running walk (a cheap handle; clones share the walk).
#[derive(Clone)]
pub struct Walk {
    inner: Rc<Inner>,
}

impl std::fmt::Debug for Walk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walk")
            .field("parallelism", &self.inner.parallelism)
            .field("tasks", &self.inner.state.borrow().tasks.len())
            .finish()
    }
}

fn wake_all(wakers: Vec<Waker>) {
    for w in wakers {
        w.wake();
    }
}

impl Walk {
    /// Starts walking `g` on `exec`: one task per vertex, spawned in (name, id) order. Nothing
    /// runs until a driver runs the executor.
    pub fn start<V: Vertex>(
        exec: &Executor,
        g: &Graph<V>,
        opts: &WalkOptions,
        behaviour: impl Behaviour + 'static,
    ) -> Walk {
        let parallelism = opts.parallelism.max(1);
        let walk = Walk {
            inner: Rc::new(Inner {
                state: RefCell::new(State::default()),
                behaviour: RefCell::new(Box::new(behaviour)),
                sem: Semaphore::new(parallelism),
                clock: exec.clock().clone(),
                spawner: exec.spawner(),
                reverse: opts.reverse,
                parallelism,
            }),
        };
        walk.update(g);
        walk
    }

    pub fn parallelism(&self) -> usize {
        self.inner.parallelism
    }

    pub fn clock(&self) -> &Clock {
        &self.inner.clock
    }

    fn spawn(&self, tasks: Vec<TaskId>) {
        for t in tasks {
            // Fails only once the executor is gone, and then nothing can run anyway.
            let _ = self.inner.spawner.spawn_local(run_task(self.clone(), t));
        }
    }

    /// (waiter, dependency) for an edge of the walked graph.
    fn edge_parts(&self, (from, to): (VertexId, VertexId)) -> (VertexId, VertexId) {
        if self.inner.reverse {
            (from, to)
        } else {
            (to, from)
        }
    }

    /// Go's `Walker.Update`: new vertices join the walk, removed vertices still waiting on their
    /// dependencies are cancelled (one already waiting for a permit or running carries on, as in
    /// Go, where the permit is taken inside the callback), new edges hold back waiters that are still waiting
    /// on dependencies, removed edges release them. A vertex that already got past its
    /// dependencies is not affected by edge changes.
    pub fn update<V: Vertex>(&self, g: &Graph<V>) {
        let now = self.inner.clock.now();
        let mut wakers = Vec::new();
        let mut spawn = Vec::new();
        {
            let mut st = self.inner.state.borrow_mut();
            let st = &mut *st;
            for id in g.ids_by_name() {
                if !st.task_by_vertex.contains_key(&id) {
                    let typed = g.vertex(id).map(Vertex::typed).unwrap_or_default();
                    let t = st.new_task(now, id, g.name_of(id), typed, None);
                    st.task_by_vertex.insert(id, t);
                    st.in_walk.insert(id);
                    if !st.cancelled {
                        spawn.push(t);
                    }
                }
            }
            let gone: Vec<VertexId> = st
                .in_walk
                .iter()
                .copied()
                .filter(|v| !g.has_vertex(*v))
                .collect();
            for v in gone {
                st.in_walk.remove(&v);
                if let Some(&t) = st.task_by_vertex.get(&v) {
                    // Go only cancels a removed vertex while it waits on dependencies; past
                    // that point (its callback, where the permit is taken) it carries on.
                    wakers.extend(st.cancel_task(now, t, false));
                }
            }
            let current: BTreeSet<(VertexId, VertexId)> = g.edges().into_iter().collect();
            let added: Vec<_> = current.difference(&st.edges).copied().collect();
            for e in added {
                let (w, d) = self.edge_parts(e);
                if !st.in_walk.contains(&w) || !st.in_walk.contains(&d) {
                    continue;
                }
                let (wt, dt) = (st.task_by_vertex[&w], st.task_by_vertex[&d]);
                st.edges.insert(e);
                if *st.status(wt) == Transition::WaitingOnDeps {
                    st.tasks[wt.index()].deps.insert(dt);
                    st.tasks[dt.index()].waiters.insert(wt);
                    wakers.extend(st.take_waker(wt));
                }
            }
            let removed: Vec<_> = st.edges.difference(&current).copied().collect();
            for e in removed {
                st.edges.remove(&e);
                let (w, d) = self.edge_parts(e);
                let (Some(&wt), Some(&dt)) = (st.task_by_vertex.get(&w), st.task_by_vertex.get(&d))
                else {
                    continue;
                };
                if *st.status(wt) == Transition::WaitingOnDeps {
                    st.tasks[wt.index()].deps.remove(&dt);
                    st.tasks[dt.index()].waiters.remove(&wt);
                    wakers.extend(st.take_waker(wt));
                }
            }
        }
        wake_all(wakers);
        self.spawn(spawn);
    }

    /// Stops the walk: running vertices finish, every other vertex (and any added later) is
    /// cancelled.
    pub fn cancel(&self) {
        let now = self.inner.clock.now();
        let wakers: Vec<Waker> = {
            let mut st = self.inner.state.borrow_mut();
            st.cancelled = true;
            let n = st.tasks.len();
            (0..n)
                .flat_map(|i| st.cancel_task(now, TaskId(i as u32), true))
                .collect()
        };
        wake_all(wakers);
    }

    pub fn is_cancelled(&self) -> bool {
        self.inner.state.borrow().cancelled
    }

    /// Whether every task has finished.
    pub fn is_finished(&self) -> bool {
        self.inner
            .state
            .borrow()
            .tasks
            .iter()
            .all(|t| t.status.is_finished())
    }

    /// The events so far.
    pub fn events(&self) -> Vec<Event> {
        self.inner.state.borrow().events.clone()
    }

    /// Number of events so far (to fetch only new ones with [`Walk::events_since`]).
    pub fn event_count(&self) -> usize {
        self.inner.state.borrow().events.len()
    }

    pub fn events_since(&self, n: usize) -> Vec<Event> {
        let st = self.inner.state.borrow();
        st.events
            .get(n..)
            .map(<[Event]>::to_vec)
            .unwrap_or_default()
    }

    /// Current status of a task.
    pub fn status(&self, t: TaskId) -> Option<Transition> {
        self.inner
            .state
            .borrow()
            .tasks
            .get(t.index())
            .map(|x| x.status.clone())
    }

    /// The top-level task of a vertex of the walked graph.
    pub fn task_for(&self, v: VertexId) -> Option<TaskId> {
        self.inner.state.borrow().task_by_vertex.get(&v).copied()
    }

    /// A snapshot of the walk: the log and every task with its final (or current) state.
    pub fn result(&self) -> WalkResult {
        let st = self.inner.state.borrow();
        WalkResult {
            parallelism: self.inner.parallelism,
            events: st.events.clone(),
            tasks: st
                .tasks
                .iter()
                .enumerate()
                .map(|(i, t)| TaskInfo {
                    task: TaskId(i as u32),
                    vertex: t.vertex,
                    name: t.name.clone(),
                    parent: t.parent,
                    deps: t.deps.iter().copied().collect(),
                    children: t.children.clone(),
                    status: t.status.clone(),
                    started: t.started,
                    ran_for: t.ran_for,
                    finished: t.finished,
                    steps: t.steps.clone(),
                })
                .collect(),
        }
    }

    fn vertex_ref(&self, t: TaskId) -> VertexRef {
        let st = self.inner.state.borrow();
        let task = &st.tasks[t.index()];
        VertexRef {
            task: t,
            vertex: task.vertex,
            name: task.name.clone(),
            typed: task.typed.clone(),
            parent: task.parent,
        }
    }

    fn record(&self, t: TaskId, tr: Transition) {
        let now = self.inner.clock.now();
        self.inner.state.borrow_mut().record(now, t, tr);
    }

    /// Records a final outcome and wakes whoever can move on.
    fn finish(&self, t: TaskId, tr: Transition) {
        let now = self.inner.clock.now();
        let wakers = {
            let mut st = self.inner.state.borrow_mut();
            st.record(now, t, tr);
            st.finished(t)
        };
        wake_all(wakers);
    }

    /// Adds the instance tasks of an expansion; returns false when the walk was cancelled.
    fn expand(&self, parent: TaskId, sub: &Graph<String>) -> bool {
        let now = self.inner.clock.now();
        let mut spawn = Vec::new();
        {
            let mut st = self.inner.state.borrow_mut();
            if st.cancelled {
                return false;
            }
            let mut map: BTreeMap<VertexId, TaskId> = BTreeMap::new();
            let of_parent = &st.tasks[parent.index()].typed;
            let typed = Typed::new(of_parent.kind.instance(), of_parent.module.clone());
            for id in sub.ids_by_name() {
                let t = st.new_task(now, id, sub.name_of(id), typed.clone(), Some(parent));
                map.insert(id, t);
                spawn.push(t);
            }
            for (f, to) in sub.edges() {
                if let (Some(&w), Some(&d)) = (map.get(&f), map.get(&to)) {
                    st.tasks[w.index()].deps.insert(d);
                    st.tasks[d.index()].waiters.insert(w);
                }
            }
            let p = &mut st.tasks[parent.index()];
            p.children = spawn.clone();
            p.children_left = spawn.len();
            st.record(
                now,
                parent,
                Transition::Expanded {
                    instances: spawn.len(),
                },
            );
        }
        self.spawn(spawn);
        true
    }
}

/// A snapshot of a walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkResult {
    pub parallelism: usize,
    pub events: Vec<Event>,
    /// Indexed by [`TaskId`].
    pub tasks: Vec<TaskInfo>,
}

/// One task in a [`WalkResult`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskInfo {
    pub task: TaskId,
    pub vertex: VertexId,
    pub name: String,
    pub parent: Option<TaskId>,
    /// The tasks it waited on.
    pub deps: Vec<TaskId>,
    /// Instances it expanded into.
    pub children: Vec<TaskId>,
    /// Final state (or current, for a snapshot of an unfinished walk).
    pub status: Transition,
    /// When it got its permit.
    pub started: Option<Duration>,
    /// How long it held its permit.
    pub ran_for: Duration,
    /// When it finished (for an expanded vertex, when its instances had).
    pub finished: Option<Duration>,
    /// Its evaluation steps, offsets from `started` ([`super::steps::spans`] gives their times).
    pub steps: Vec<StepRun>,
}

impl TaskInfo {
    /// Its steps in walk time (none before it got its permit).
    pub fn step_spans(&self) -> Vec<super::steps::StepSpan> {
        match self.started {
            Some(s) => super::steps::spans(
                &self.steps,
                s,
                self.finished,
                matches!(self.status, Transition::Failed(_)),
            ),
            None => Vec::new(),
        }
    }
}

impl WalkResult {
    /// The task of a vertex of the walked graph (not an instance).
    pub fn task_for(&self, v: VertexId) -> Option<&TaskInfo> {
        self.tasks
            .iter()
            .find(|t| t.parent.is_none() && t.vertex == v)
    }

    /// The final state of a vertex of the walked graph.
    pub fn outcome(&self, v: VertexId) -> Option<&Transition> {
        self.task_for(v).map(|t| &t.status)
    }

    /// Failed tasks and their messages, in task order (upstream-failed ones left out, as Go's
    /// `Wait` does).
    pub fn errors(&self) -> Vec<(TaskId, &str)> {
        self.tasks
            .iter()
            .filter_map(|t| match &t.status {
                Transition::Failed(m) => Some((t.task, m.as_str())),
                _ => None,
            })
            .collect()
    }

    pub fn has_errors(&self) -> bool {
        self.tasks
            .iter()
            .any(|t| matches!(t.status, Transition::Failed(_)))
    }

    /// Tasks in the order they started running (Go: the order the callback was called).
    pub fn started_order(&self) -> Vec<TaskId> {
        self.events
            .iter()
            .filter(|e| e.transition == Transition::Running)
            .map(|e| e.task)
            .collect()
    }

    /// Whether every task finished (false when something still waits, e.g. on a cycle).
    pub fn is_complete(&self) -> bool {
        self.tasks.iter().all(|t| t.status.is_finished())
    }
}

enum DepsReady {
    Ok,
    UpstreamFailed,
    Cancelled,
}

/// Resolves once every dependency of a task has finished (re-reading the dependency set on each
/// poll, since [`Walk::update`] may change it).
struct WaitDeps<'a> {
    walk: &'a Walk,
    t: TaskId,
}

impl Future for WaitDeps<'_> {
    type Output = DepsReady;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<DepsReady> {
        let mut st = self.walk.inner.state.borrow_mut();
        let t = self.t;
        if *st.status(t) == Transition::Cancelled {
            return Poll::Ready(DepsReady::Cancelled);
        }
        let mut failed = false;
        for d in &st.tasks[t.index()].deps {
            let s = st.status(*d);
            if !s.is_finished() {
                st.tasks[t.index()].waker = Some(cx.waker().clone());
                return Poll::Pending;
            }
            failed |= s.has_errors();
        }
        Poll::Ready(if failed {
            DepsReady::UpstreamFailed
        } else {
            DepsReady::Ok
        })
    }
}

/// Waits for a permit unless the task gets cancelled first.
struct PermitOrCancel<'a> {
    walk: &'a Walk,
    t: TaskId,
    acquire: super::semaphore::Acquire,
}

impl Future for PermitOrCancel<'_> {
    type Output = Option<Permit>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Permit>> {
        {
            let mut st = self.walk.inner.state.borrow_mut();
            if *st.status(self.t) == Transition::Cancelled {
                return Poll::Ready(None);
            }
            st.tasks[self.t.index()].waker = Some(cx.waker().clone());
        }
        Pin::new(&mut self.acquire).poll(cx).map(Some)
    }
}

/// Waits until every instance of an expanded task has finished.
struct WaitChildren<'a> {
    walk: &'a Walk,
    t: TaskId,
}

impl Future for WaitChildren<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut st = self.walk.inner.state.borrow_mut();
        let task = &mut st.tasks[self.t.index()];
        if task.children_left == 0 {
            Poll::Ready(())
        } else {
            task.waker = Some(cx.waker().clone());
            Poll::Pending
        }
    }
}

/// The life of one vertex.
async fn run_task(walk: Walk, t: TaskId) {
    match (WaitDeps { walk: &walk, t }).await {
        DepsReady::Ok => {}
        DepsReady::UpstreamFailed => {
            walk.finish(t, Transition::UpstreamFailed);
            return;
        }
        DepsReady::Cancelled => return,
    }
    walk.record(t, Transition::WaitingForPermit);
    let acquire = walk.inner.sem.acquire();
    let Some(permit) = (PermitOrCancel {
        walk: &walk,
        t,
        acquire,
    })
    .await
    else {
        return;
    };
    let started = walk.inner.clock.now();
    {
        let mut st = walk.inner.state.borrow_mut();
        st.tasks[t.index()].started = Some(started);
        st.record(started, t, Transition::Running);
    }
    let v = walk.vertex_ref(t);
    let gate = walk.inner.behaviour.borrow_mut().gate(&walk, &v);
    if let Some(gate) = gate
        && let Err(msg) = gate.await
    {
        let ended = walk.inner.clock.now();
        walk.inner.state.borrow_mut().tasks[t.index()].ran_for = ended.saturating_sub(started);
        drop(permit);
        let outcome = Transition::Failed(msg);
        walk.finish(t, outcome.clone());
        walk.inner
            .behaviour
            .borrow_mut()
            .completed(&walk, &v, &outcome);
        return;
    }
    let mut exec = walk.inner.behaviour.borrow_mut().execute(&walk, &v);
    walk.inner.state.borrow_mut().tasks[t.index()].steps = std::mem::take(&mut exec.steps);
    walk.inner.clock.sleep(exec.duration).await;
    let ended = walk.inner.clock.now();
    walk.inner.state.borrow_mut().tasks[t.index()].ran_for = ended.saturating_sub(started);
    drop(permit);
    let outcome = match (exec.result, exec.expand) {
        (Err(msg), _) => Transition::Failed(msg),
        (Ok(()), None) => Transition::Done,
        (Ok(()), Some(Expansion::Unknown(reason))) => {
            walk.record(t, Transition::InstancesUnknown(reason));
            Transition::Done
        }
        (Ok(()), Some(Expansion::Instances(sub))) => {
            if walk.expand(t, &sub) {
                (WaitChildren { walk: &walk, t }).await;
                let st = walk.inner.state.borrow();
                let kids = &st.tasks[t.index()].children;
                let failed = kids.iter().filter(|c| st.status(**c).has_errors()).count();
                if failed > 0 {
                    Transition::Failed(format!("{failed} of {} instances failed", kids.len()))
                } else if kids.iter().any(|c| *st.status(*c) == Transition::Cancelled) {
                    Transition::Cancelled
                } else {
                    Transition::Done
                }
            } else {
                Transition::Cancelled
            }
        }
    };
    walk.finish(t, outcome.clone());
    walk.inner
        .behaviour
        .borrow_mut()
        .completed(&walk, &v, &outcome);
}

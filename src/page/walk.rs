//! The walk as the page runs it: a [`Walk`] on a [`Stepper`] (advanced per animation frame or one
//! event at a time), read back as per-vertex cells and Gantt rows that change only when their
//! vertex or task does, so a frame touches the few DOM nodes whose state moved.

use super::graph::PageGraph;
use super::walk_steps::{self, TaskSteps};
use crate::dag::VertexId;
use crate::walk::{
    DEFAULT_JITTER, DEFAULT_SEED, DurationModel, Scenario, ScenarioLog, StepTable, Stepper, TaskId,
    Transition, Walk, WalkOptions,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

mod cells;

pub use cells::{Frame, GCell, GRow, Inst, PROGRESS_STEPS, VCell, VState, WalkView};

/// What the user set up for the walks, and the seed and jitter of the durations (the CLI's
/// defaults: [`DEFAULT_SEED`], [`DEFAULT_JITTER`]).
#[derive(Debug, Clone)]
pub struct Setup {
    /// Durations set on vertices (seconds), by vertex name; one set on an expanding vertex
    /// applies to each of its instances.
    pub durations: BTreeMap<String, f64>,
    /// Vertices (or instances) made to fail, as `tfgraph walk --fail` takes them: `ADDR`, or
    /// `ADDR@STEP` to fail at one step.
    pub failures: BTreeSet<String>,
    pub expander: Option<std::sync::Arc<std::sync::Mutex<crate::walk::WalkExpander>>>,
    /// The vertices' evaluation steps ([`crate::walk::steps`]).
    pub steps: Option<std::sync::Arc<StepTable>>,
    pub seed: u64,
    pub jitter: f64,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            durations: BTreeMap::new(),
            failures: BTreeSet::new(),
            expander: None,
            steps: None,
            seed: DEFAULT_SEED,
            jitter: DEFAULT_JITTER,
        }
    }
}

impl Setup {
    /// The durations without the user's own: the table, seeded jitter.
    fn model(&self) -> DurationModel {
        DurationModel::default()
            .with_seed(self.seed)
            .with_jitter(self.jitter)
    }

    /// The walk's behaviour: the same [`Scenario`] `tfgraph walk` runs, with the user's
    /// durations as exact ones and the failures (`with_failures`).
    pub fn scenario(&self, with_failures: bool) -> Scenario {
        let mut model = self.model();
        for (name, secs) in &self.durations {
            if secs.is_finite() && *secs >= 0.0 {
                model = model.with_override(name.clone(), Duration::from_secs_f64(secs.min(1e7)));
            }
        }
        let mut s = Scenario::new(model);
        if with_failures {
            for f in &self.failures {
                s = s.fail_spec(f, "simulated failure");
            }
        }
        if let Some(e) = &self.expander {
            s = s.with_expander(e.clone());
        }
        if let Some(t) = &self.steps {
            s = s.with_steps(t.clone());
        }
        s
    }

    /// The steps the vertex `name` will run (as if it did not expand and nothing failed), with
    /// their planned durations: its details before the walk reaches it.
    pub fn planned_steps(
        &self,
        name: &str,
        kind: &crate::kind::VertexKind,
    ) -> Vec<walk_steps::StepLine> {
        let mut s = self.scenario(false);
        walk_steps::lines(&s.planned(name, kind), None, None, false, Duration::ZERO)
    }

    /// The duration in seconds of the vertex `name` of kind `kind` when the user has not set
    /// one: for an `(expand)` vertex of a resource, the duration of (each of) its instances.
    pub fn default_secs(&self, name: &str, kind: &crate::kind::VertexKind) -> f64 {
        Scenario::new(self.model())
            .duration(name, kind, None)
            .as_secs_f64()
    }
}

/// How long the walk of `g` at `parallelism` with `setup` (its failures included) takes: the same
/// walk on the instant driver (deterministic), the length [`WalkRt::start`] gives its walk.
pub fn expected(g: &PageGraph, parallelism: usize, setup: &Setup) -> f64 {
    let (dg, _) = g.to_graph();
    let opts = WalkOptions::with_parallelism(parallelism.clamp(1, 64));
    crate::walk::simulate(&dg, &opts, setup.scenario(true))
        .makespan()
        .as_secs_f64()
}

/// Makespan (seconds) for each parallelism in `ps`, from the instant driver, without failures:
/// `tfgraph walk --sweep` for the same graph and settings.
pub fn makespans(g: &PageGraph, setup: &Setup, ps: &[usize]) -> Vec<(usize, f64)> {
    let (dg, _) = g.to_graph();
    crate::walk::sweep_with(&dg, ps.iter().copied(), || setup.scenario(false))
        .into_iter()
        .map(|(p, m)| (p, m.as_secs_f64()))
        .collect()
}

/// The critical path (seconds): the makespan with no limit on parallelism, the floor of the
/// makespan chart. The same walk as [`makespans`], with as many permits as there can be tasks.
pub fn critical_path(g: &PageGraph, setup: &Setup) -> f64 {
    makespans(g, setup, &[usize::MAX])
        .first()
        .map_or(0.0, |x| x.1)
}

/// What a walk is made of, of the analysis it started on: the graph, what its vertices expand
/// into, their evaluation steps. An analysis that walks alike (an edit of a comment, of a
/// description, of anything no vertex or expansion depends on) keeps the walk under way: a new
/// analysis arrives after every pause in typing, and a walk that started again at each one could
/// not be watched while editing.
#[derive(Clone)]
pub struct WalkBasis {
    graph: PageGraph,
    expander: Option<crate::page::analysis::SharedExpander>,
    steps: Option<std::sync::Arc<StepTable>>,
}

impl WalkBasis {
    /// Whether `a` can be walked: it has a graph, without a cycle.
    fn walkable(a: &crate::page::analysis::Analysis) -> bool {
        a.graph.is_some() && a.cycles.is_empty()
    }

    /// What a walk of `a` is made of; `None` when it cannot be walked (no graph, or a cycle).
    pub fn of(a: &crate::page::analysis::Analysis) -> Option<WalkBasis> {
        if !WalkBasis::walkable(a) {
            return None;
        }
        Some(WalkBasis {
            graph: a.graph.clone()?,
            expander: a.expander.clone(),
            steps: a.step_table.clone(),
        })
    }

    /// Whether a walk of `a` is the walk this basis makes: the same vertices and edges, the same
    /// evaluation steps, and every vertex expanding into the same instances.
    pub fn walks_alike(&self, a: &crate::page::analysis::Analysis) -> bool {
        let steps = match (&self.steps, &a.step_table) {
            (None, None) => true,
            (Some(x), Some(y)) => std::sync::Arc::ptr_eq(x, y) || x == y,
            _ => false,
        };
        let expands = match (&self.expander, &a.expander) {
            (None, None) => true,
            (Some(x), Some(y)) => x.expands_alike(y, &self.graph),
            _ => false,
        };
        WalkBasis::walkable(a) && a.graph.as_ref() == Some(&self.graph) && steps && expands
    }
}

/// Which walk the analyses so far make: `number` changes only when an analysis does not walk
/// alike the one before ([`WalkBasis::walks_alike`]); a walk under way, and the makespans worked
/// out, belong to one number. Equal when the numbers are.
#[derive(Clone, Default)]
pub struct WalkEpoch {
    pub number: u64,
    basis: Option<std::sync::Arc<WalkBasis>>,
}

impl WalkEpoch {
    /// The epoch after analysis `a` (`None`: no analysis with a graph) arrived in `prev`.
    pub fn after(
        prev: Option<&WalkEpoch>,
        a: Option<&crate::page::analysis::Analysis>,
    ) -> WalkEpoch {
        if let Some(prev) = prev {
            let alike = match (&prev.basis, a) {
                (Some(b), Some(a)) => b.walks_alike(a),
                // Nothing to walk before nor now.
                (None, None) => true,
                (None, Some(a)) => !WalkBasis::walkable(a),
                (Some(_), None) => false,
            };
            if alike {
                return prev.clone();
            }
        }
        WalkEpoch {
            number: prev.map_or(0, |p| p.number + 1),
            basis: a.and_then(WalkBasis::of).map(std::sync::Arc::new),
        }
    }
}

impl PartialEq for WalkEpoch {
    fn eq(&self, other: &Self) -> bool {
        self.number == other.number
    }
}

impl std::fmt::Debug for WalkEpoch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WalkEpoch")
            .field("number", &self.number)
            .finish()
    }
}

/// What the view knows of one task.
#[derive(Debug, Clone, Default)]
struct Track {
    /// The graph vertex (its own, or the one it expanded from).
    vertex: Option<usize>,
    instance: bool,
    name: String,
    cell: GCell,
    has_row: bool,
    /// For an expanded vertex: instances in all and finished.
    instances: Option<(u32, u32)>,
    /// Expanded into the one instance of a resource without `count`/`for_each`.
    trivial: bool,
    /// Its instances running and waiting for a permit.
    inst_running: i32,
    inst_permit: i32,
    unknown: bool,
    /// When it got its permit and when it finished (walk time).
    started: Option<Duration>,
    finished: Option<Duration>,
    /// For an expanded vertex: its instances' tasks, in the order they were seen.
    kids: Vec<TaskId>,
}

/// A walk in progress.
pub struct WalkRt {
    pub stepper: Stepper,
    pub walk: Walk,
    ids: Vec<VertexId>,
    /// Each vertex's top-level task.
    tasks: Vec<Option<TaskId>>,
    by_name: BTreeMap<String, usize>,
    tracks: Vec<Track>,
    /// What the walk's scenario decided: instances' vertices, tasks' durations.
    log: ScenarioLog,
    /// Vertex id -> index.
    at: HashMap<VertexId, usize>,
    seen_events: usize,
    /// The cells as last reported.
    pub cells: Vec<VCell>,
    /// Vertices whose cell may change without an event (running: progress).
    active: BTreeSet<usize>,
    /// The Gantt's rows in order (task ids).
    rows: Vec<u32>,
    expected: f64,
    /// The animation frame's previous timestamp (ms).
    pub last_ms: Option<f64>,
    reported: bool,
    /// Vertices with events not yet reported.
    pending: BTreeSet<usize>,
    /// When the graph's cells were last reported (ms, animation frame time).
    pub cells_ms: f64,
}

impl WalkRt {
    /// Starts walking `g` (nothing runs until the stepper is advanced).
    pub fn start(g: &PageGraph, parallelism: usize, setup: &Setup) -> WalkRt {
        let mut rt = WalkRt::start_unmeasured(g, parallelism, setup);
        rt.expected = expected(g, parallelism, setup);
        rt
    }

    /// [`WalkRt::start`] without working out how long the walk will take (a whole walk on the
    /// instant clock, about 450 ms at 10,000 generated resources in the browser): the engine's
    /// worker works it out ([`expected`]) and [`WalkRt::set_expected`] says it. Until then the
    /// view's `expected` is 0.
    pub fn start_unmeasured(g: &PageGraph, parallelism: usize, setup: &Setup) -> WalkRt {
        let (dg, ids) = g.to_graph();
        let opts = WalkOptions::with_parallelism(parallelism.clamp(1, 64));
        let expected = 0.0;
        let scenario = setup.scenario(true);
        let log = scenario.log();
        let stepper = Stepper::new();
        let walk = Walk::start(stepper.executor(), &dg, &opts, scenario);
        let tasks: Vec<Option<TaskId>> = ids.iter().map(|v| walk.task_for(*v)).collect();
        let mut tracks = Vec::new();
        for (i, t) in tasks.iter().enumerate() {
            if let Some(t) = t {
                if tracks.len() <= t.index() {
                    tracks.resize(t.index() + 1, Track::default());
                }
                tracks[t.index()].vertex = Some(i);
            }
        }
        let n = ids.len();
        let at = ids.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        WalkRt {
            at,
            stepper,
            walk,
            ids,
            tasks,
            by_name: g
                .vertices()
                .iter()
                .enumerate()
                .map(|(i, v)| (v.name.clone(), i))
                .collect(),
            tracks,
            log,
            seen_events: 0,
            cells: vec![VCell::default(); n],
            active: BTreeSet::new(),
            rows: Vec::new(),
            expected,
            last_ms: None,
            reported: false,
            pending: BTreeSet::new(),
            cells_ms: f64::NEG_INFINITY,
        }
    }

    /// The state this walk has for the vertex named `name`, as last reported.
    pub fn cell_of(&self, name: &str) -> Option<VCell> {
        self.by_name
            .get(name)
            .and_then(|&i| self.cells.get(i).copied())
    }

    /// The makespan of this walk (from its instant twin), in seconds.
    pub fn expected(&self) -> f64 {
        self.expected
    }

    /// Says how long the walk will take ([`expected`] of the same graph, parallelism and setup).
    pub fn set_expected(&mut self, secs: f64) {
        self.expected = secs;
    }

    /// One animation frame at `now_ms` (real time).
    pub fn frame(&mut self, now_ms: f64, speed: f64) {
        let dt = self.last_ms.map_or(0.0, |l| (now_ms - l).clamp(0.0, 100.0));
        self.last_ms = Some(now_ms);
        self.stepper.set_speed(speed);
        self.stepper
            .advance_by(Duration::from_secs_f64(dt / 1000.0));
    }

    /// Jumps to the next event; false when nothing is left to happen.
    pub fn step(&mut self) -> bool {
        self.last_ms = None;
        self.stepper.step_to_next_event().is_some()
    }

    /// The name of the step task `t` runs now.
    fn step_now(&self, t: TaskId) -> Option<&'static str> {
        let started = self.tracks.get(t.index())?.started?;
        let runs = self.log.steps_of(t)?;
        let i = crate::walk::steps::current_step(&runs, started, self.stepper.now())?;
        Some(runs[i].step.name)
    }

    /// Task `t`'s steps at the walk's current time (none before it got its permit).
    pub fn task_steps(&self, t: u32) -> Option<TaskSteps> {
        let tid = TaskId(t);
        let tr = self.tracks.get(tid.index())?;
        let runs = self.log.steps_of(tid).unwrap_or_else(|| Vec::new().into());
        let failed = matches!(self.walk.status(tid), Some(Transition::Failed(_)));
        Some(TaskSteps {
            task: t,
            name: tr.name.clone(),
            instance: tr.instance,
            lines: walk_steps::lines(&runs, tr.started, tr.finished, failed, self.stepper.now()),
        })
    }

    /// The steps of vertex `i` (its index in the walked graph) and of the instances it expanded
    /// into, at the walk's current time; empty before the walk reached it.
    pub fn vertex_steps(&self, i: usize) -> Vec<TaskSteps> {
        let Some(t) = self.tasks.get(i).copied().flatten() else {
            return Vec::new();
        };
        let mut out: Vec<TaskSteps> = self.task_steps(t.0).into_iter().collect();
        if let Some(tr) = self.tracks.get(t.index()) {
            out.extend(tr.kids.iter().filter_map(|k| self.task_steps(k.0)));
        }
        out.retain(|s| !s.lines.is_empty());
        out
    }

    /// [`WalkRt::vertex_steps`] of the vertex named `name`.
    pub fn vertex_steps_named(&self, name: &str) -> Vec<TaskSteps> {
        self.by_name
            .get(name)
            .map_or_else(Vec::new, |&i| self.vertex_steps(i))
    }

    /// The timeline's bars for the steps of the task of row `task`.
    pub fn row_steps(&self, task: u32) -> Vec<walk_steps::StepBar> {
        let tid = TaskId(task);
        let (Some(tr), Some(runs)) = (self.tracks.get(tid.index()), self.log.steps_of(tid)) else {
            return Vec::new();
        };
        let Some(started) = tr.started else {
            return Vec::new();
        };
        let failed = matches!(self.walk.status(tid), Some(Transition::Failed(_)));
        walk_steps::bars(&crate::walk::steps::spans(
            &runs,
            started,
            tr.finished,
            failed,
        ))
    }

    fn track(&mut self, t: TaskId) -> &mut Track {
        if self.tracks.len() <= t.index() {
            self.tracks.resize(t.index() + 1, Track::default());
        }
        &mut self.tracks[t.index()]
    }

    /// What changed since the last call. The first call reports every vertex. With `cells`
    /// false the vertices are left for a later call (the Gantt and counters are still reported):
    /// the graph's drawing is repainted whole when any vertex in it changes, so the frame loop
    /// updates it a few times a second and the timeline every frame.
    pub fn collect(&mut self, cells: bool) -> Frame {
        let first = !self.reported;
        self.reported = true;
        let mut dirty = std::mem::take(&mut self.pending);
        if first {
            dirty.extend(0..self.ids.len());
        }
        let mut dirty_rows: BTreeSet<u32> = BTreeSet::new();
        let mut rows_changed = false;
        let log = self.log.clone();
        let events = self.walk.events_since(self.seen_events);
        self.seen_events += events.len();
        for e in events {
            let time = e.time.as_secs_f64();
            let known = self
                .tracks
                .get(e.task.index())
                .is_some_and(|t| t.vertex.is_some());
            if !known {
                // An instance: its vertex is the one it expanded from.
                let parent = log.parent_of(&e.name);
                let v = parent.and_then(|p| self.by_name.get(&p).copied());
                let tr = self.track(e.task);
                tr.vertex = v;
                tr.instance = true;
                if let Some(pt) = v.and_then(|v| self.tasks[v]) {
                    let kids = &mut self.track(pt).kids;
                    if !kids.contains(&e.task) {
                        kids.push(e.task);
                    }
                }
            }
            let tr = self.track(e.task);
            if e.transition == Transition::Running {
                tr.started = Some(e.time);
            }
            if e.transition.is_finished() {
                tr.finished = Some(e.time);
            }
            if tr.name.is_empty() {
                tr.name = e.name.clone();
            }
            let vertex = tr.vertex;
            let instance = tr.instance;
            match &e.transition {
                Transition::WaitingForPermit => tr.cell.ready = time,
                Transition::Running => {
                    if !tr.has_row {
                        tr.cell.ready = time;
                    }
                    tr.cell.start = Some(time);
                }
                Transition::Expanded { instances } => {
                    tr.cell.ran_until = Some(time);
                    tr.instances = Some((*instances as u32, 0));
                    let base = e.name.strip_suffix(" (expand)").unwrap_or(&e.name);
                    tr.trivial =
                        *instances == 1 && log.parent_of(base).as_deref() == Some(e.name.as_str());
                }
                Transition::InstancesUnknown(_) => {
                    tr.cell.ran_until = Some(time);
                    tr.unknown = true;
                }
                t if t.is_finished() && tr.cell.start.is_some() && tr.cell.ran_until.is_none() => {
                    tr.cell.ran_until = Some(time);
                }
                _ => {}
            }
            let old = tr.cell.state;
            tr.cell.state = VState::of(&e.transition);
            let state = tr.cell.state;
            // An expanded vertex shows what its instances do: count them by state.
            if instance
                && old != state
                && let Some(v) = vertex
                && let Some(pt) = self.tasks[v]
            {
                let p = self.track(pt);
                for (st, d) in [(old, -1), (state, 1)] {
                    match st {
                        VState::Running => p.inst_running += d,
                        VState::Permit => p.inst_permit += d,
                        _ => {}
                    }
                }
            }
            let tr = self.track(e.task);
            let expanded = matches!(tr.instances, Some((n, _)) if n > 0);
            let has_row = tr.has_row;
            // Rows: a task gets one when it becomes ready to run; a vertex that expands into
            // instances gives its row to them.
            if !has_row
                && !expanded
                && matches!(
                    state,
                    VState::Permit | VState::Running | VState::Done | VState::Failed
                )
            {
                self.track(e.task).has_row = true;
                let at = if instance {
                    // After the last row of the same vertex, else at the end.
                    self.rows
                        .iter()
                        .rposition(|r| self.tracks[*r as usize].vertex == vertex)
                        .map_or(self.rows.len(), |p| p + 1)
                } else {
                    self.rows.len()
                };
                self.rows.insert(at, e.task.0);
                rows_changed = true;
            }
            if expanded && has_row {
                self.track(e.task).has_row = false;
                self.rows.retain(|r| *r != e.task.0);
                rows_changed = true;
            }
            dirty_rows.insert(e.task.0);
            if instance
                && e.transition.is_finished()
                && let Some(v) = vertex
                && let Some(pt) = self.tasks[v]
            {
                let p = self.track(pt);
                if let Some((n, d)) = p.instances {
                    p.instances = Some((n, d + 1));
                }
            }
            if let Some(v) = vertex {
                dirty.insert(v);
            }
        }
        let now = self.stepper.now().as_secs_f64();
        let mut frame = Frame::default();
        let cells = cells || self.walk.is_finished();
        if cells {
            dirty.extend(self.active.iter().copied());
        } else {
            self.pending = dirty;
            dirty = BTreeSet::new();
        }
        for i in dirty {
            let Some(t) = self.tasks[i] else { continue };
            let tr = &self.tracks[t.index()];
            let status = self.walk.status(t);
            let state = match &status {
                // Waiting for its instances: running while one runs, else waiting for a permit
                // while one waits for one.
                Some(Transition::Expanded { .. }) if tr.inst_running <= 0 && tr.inst_permit > 0 => {
                    VState::Permit
                }
                s => s.as_ref().map_or(VState::Waiting, VState::of),
            };
            let step = match &status {
                Some(Transition::Running) => self.step_now(t),
                Some(Transition::Expanded { .. }) if state == VState::Running => tr
                    .kids
                    .iter()
                    .filter(|k| self.walk.status(**k) == Some(Transition::Running))
                    .find_map(|k| self.step_now(*k)),
                _ => None,
            };
            let mut cell = VCell {
                state,
                progress: 0,
                inst: Inst::None,
                step,
            };
            let p = match status {
                Some(Transition::Running) => {
                    let d = self.log.duration_of(t).map_or(0.0, |d| d.as_secs_f64());
                    let s = tr.cell.start.unwrap_or(now);
                    if d > 0.0 { (now - s) / d } else { 1.0 }
                }
                Some(Transition::Expanded { instances }) => {
                    let done = tr.instances.map_or(0, |x| x.1);
                    if instances == 0 {
                        1.0
                    } else {
                        f64::from(done) / instances as f64
                    }
                }
                Some(t) if t.is_finished() => {
                    if matches!(t, Transition::Done | Transition::Failed(_)) {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => 0.0,
            };
            cell.progress = (p.clamp(0.0, 1.0) * f64::from(PROGRESS_STEPS)).floor() as u16;
            if tr.unknown {
                cell.inst = Inst::Unknown;
            } else if let Some((total, done)) = tr.instances
                && !tr.trivial
            {
                cell.inst = Inst::Known { done, total };
            }
            if state == VState::Running {
                self.active.insert(i);
            } else {
                self.active.remove(&i);
            }
            if self.cells[i] != cell || first {
                self.cells[i] = cell;
                frame.cells.push((i, cell));
            }
        }
        let mut v = WalkView {
            now,
            started: true,
            // Not known yet (`start_unmeasured`): none, rather than the time so far.
            expected: if self.expected > 0.0 {
                self.expected.max(now)
            } else {
                0.0
            },
            ..WalkView::default()
        };
        for c in &self.cells {
            match c.state {
                VState::Running => v.running += 1,
                VState::Done => v.done += 1,
                VState::Failed => v.failed += 1,
                VState::Upstream => v.upstream += 1,
                VState::Waiting | VState::Permit => v.waiting += 1,
                _ => {}
            }
        }
        v.finished = self.walk.is_finished();
        if v.finished {
            let r = self.walk.result();
            let m = r.metrics();
            v.makespan = Some(m.makespan.as_secs_f64());
            v.critical_path = Some(m.critical_path_length.as_secs_f64());
            v.max_concurrency = Some(m.max_concurrency);
            for t in &m.critical_path {
                if let Some(info) = r.tasks.get(t.index())
                    && info.parent.is_none()
                    && let Some(&i) = self.at.get(&info.vertex)
                {
                    v.critical.insert(i);
                }
                // An instance on the path puts the vertex it expanded from on it.
                if let Some(tr) = self.tracks.get_mut(t.index()) {
                    if let Some(i) = tr.vertex {
                        v.critical.insert(i);
                    }
                    if !tr.cell.critical {
                        tr.cell.critical = true;
                        dirty_rows.insert(t.0);
                    }
                }
            }
        }
        frame.row_cells = dirty_rows
            .into_iter()
            .filter_map(|t| {
                let tr = self.tracks.get(t as usize)?;
                tr.has_row.then_some((t, tr.cell))
            })
            .collect();
        if rows_changed {
            frame.rows = Some(
                self.rows
                    .iter()
                    .filter_map(|&t| {
                        let tr = self.tracks.get(t as usize)?;
                        Some(GRow {
                            task: t,
                            name: tr.name.clone(),
                            vertex: tr.vertex?,
                            instance: tr.instance,
                        })
                    })
                    .collect(),
            );
        }
        frame.view = v;
        frame
    }
}

/// What a screen reader is told about the walk when `before` became `after` (and playing
/// `was` became `now`): a sentence at the moments a listener cares about (started, paused, a
/// vertex failed, finished, reset), `None` for an ordinary frame. Announced politely, so never
/// once per frame.
pub fn announcement(before: &WalkView, after: &WalkView, was: bool, now: bool) -> Option<String> {
    let counts = |v: &WalkView| {
        let mut s = format!("{} done, {} running", v.done, v.running);
        if v.failed > 0 {
            s.push_str(&format!(", {} failed", v.failed));
        }
        if v.upstream > 0 {
            s.push_str(&format!(
                ", {} skipped because something they depend on failed",
                v.upstream
            ));
        }
        s
    };
    if before.started && !after.started {
        return Some("Walk reset.".to_string());
    }
    if after.finished && !before.finished {
        return Some(format!(
            "Walk finished in {:.1} simulated seconds: {}.",
            after.makespan.unwrap_or(after.now),
            counts(after)
        ));
    }
    if after.started && !before.started {
        return Some(if now {
            "Walk started.".to_string()
        } else {
            format!("Walk stepped to {:.1} s: {}.", after.now, counts(after))
        });
    }
    if after.failed > before.failed {
        let n = after.failed - before.failed;
        return Some(format!(
            "{n} {} failed at {:.1} s.",
            if n == 1 { "vertex" } else { "vertices" },
            after.now
        ));
    }
    if was && !now && after.started && !after.finished {
        return Some(format!(
            "Walk paused at {:.1} s: {}.",
            after.now,
            counts(after)
        ));
    }
    if !was && now && after.started {
        return Some("Walk resumed.".to_string());
    }
    None
}

#[cfg(test)]
mod tests;

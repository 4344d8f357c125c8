//! The walk as the page runs it: a [`Walk`] on a [`Stepper`] (advanced per animation frame or one
//! event at a time), read back as per-vertex cells and Gantt rows that change only when their
//! vertex or task does, so a frame touches the few DOM nodes whose state moved.

use super::graph::PageGraph;
use super::walk_steps::{self, TaskSteps};
use crate::dag::VertexId;
use crate::walk::{
    DEFAULT_JITTER, DEFAULT_SEED, DurationModel, Scenario, ScenarioLog, StaticExpander, StepTable,
    Stepper, TaskId, Transition, Walk, WalkOptions,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

/// A vertex's state as drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VState {
    /// No walk yet.
    #[default]
    Idle,
    Waiting,
    Permit,
    Running,
    Done,
    Failed,
    Upstream,
    Cancelled,
}

impl VState {
    pub fn css(self) -> &'static str {
        match self {
            VState::Idle => "idle",
            VState::Waiting => "waiting",
            VState::Permit => "permit",
            VState::Running => "running",
            VState::Done => "done",
            VState::Failed => "failed",
            VState::Upstream => "upstream-failed",
            VState::Cancelled => "cancelled",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            VState::Idle => "not started",
            VState::Waiting => "waiting on dependencies",
            VState::Permit => "waiting for a parallelism permit",
            VState::Running => "running",
            VState::Done => "done",
            VState::Failed => "failed",
            VState::Upstream => "not run: something it depends on failed",
            VState::Cancelled => "cancelled",
        }
    }

    fn of(t: &Transition) -> VState {
        match t {
            Transition::WaitingOnDeps => VState::Waiting,
            Transition::WaitingForPermit => VState::Permit,
            Transition::Running | Transition::Expanded { .. } | Transition::InstancesUnknown(_) => {
                VState::Running
            }
            Transition::Done => VState::Done,
            Transition::Failed(_) => VState::Failed,
            Transition::UpstreamFailed => VState::Upstream,
            Transition::Cancelled => VState::Cancelled,
        }
    }
}

/// Steps of a progress bar: progress is drawn in 1/64ths, so a running vertex's bar changes the
/// DOM a few times a second, not every frame.
pub const PROGRESS_STEPS: u16 = 64;

/// What an `(expand)` vertex's instances are, as drawn on the vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Inst {
    /// Not expanded (yet), or expanded into the one instance of a resource without
    /// `count`/`for_each`: nothing to say.
    #[default]
    None,
    Known {
        done: u32,
        total: u32,
    },
    /// `count`/`for_each` not known statically.
    Unknown,
}

/// One vertex's walk state as the graph draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VCell {
    pub state: VState,
    /// 0..=[`PROGRESS_STEPS`].
    pub progress: u16,
    pub inst: Inst,
    /// The evaluation step running now ([`crate::inside::Step::name`]): the vertex's own, or for a
    /// vertex walking its instances the first running instance's.
    pub step: Option<&'static str>,
}

impl VCell {
    pub fn progress(self) -> f64 {
        f64::from(self.progress) / f64::from(PROGRESS_STEPS)
    }

    /// "2/3" for a vertex walking three instances, "?" when their number is not known.
    pub fn inst_label(self) -> String {
        match self.inst {
            Inst::None => String::new(),
            Inst::Known { done, total } => format!("{done}/{total}"),
            Inst::Unknown => "?".into(),
        }
    }
}

/// One Gantt row: a vertex, or an instance of an expanded vertex (which then has no row of its
/// own: its instances stand for it).
#[derive(Debug, Clone, PartialEq)]
pub struct GRow {
    pub task: u32,
    pub name: String,
    /// The graph vertex (for an instance, the vertex it expanded from).
    pub vertex: usize,
    pub instance: bool,
}

/// A Gantt row's times (simulated seconds). Bars that are still growing are drawn to the end of
/// the axis and the part after "now" is covered, so they need no update per frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GCell {
    pub state: VState,
    /// Waiting for a permit from here.
    pub ready: f64,
    pub start: Option<f64>,
    /// Its own execution ended (then it finished, or waited for its instances).
    pub ran_until: Option<f64>,
    pub critical: bool,
}

/// Everything the walk bar shows of a walk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WalkView {
    pub running: usize,
    pub done: usize,
    pub failed: usize,
    pub upstream: usize,
    pub waiting: usize,
    /// Simulated seconds since the start.
    pub now: f64,
    pub finished: bool,
    pub makespan: Option<f64>,
    pub critical_path: Option<f64>,
    /// Vertices on the critical path (indexes), once the walk is over.
    pub critical: BTreeSet<usize>,
    pub max_concurrency: Option<usize>,
    pub started: bool,
    /// The makespan this walk will have (from the instant driver at the start): the Gantt's axis.
    pub expected: f64,
}

/// What changed in a frame.
#[derive(Debug, Default)]
pub struct Frame {
    pub view: WalkView,
    /// Vertices whose cell changed.
    pub cells: Vec<(usize, VCell)>,
    /// The Gantt's rows, when they changed (added, or replaced by instances).
    pub rows: Option<Vec<GRow>>,
    /// Rows (by task) whose times or state changed.
    pub row_cells: Vec<(u32, GCell)>,
}

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
    pub expander: Option<std::sync::Arc<std::sync::Mutex<StaticExpander>>>,
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
        let (dg, ids) = g.to_graph();
        let opts = WalkOptions::with_parallelism(parallelism.clamp(1, 64));
        // The same walk on the instant driver: how long this one will take (deterministic).
        let expected = crate::walk::simulate(&dg, &opts, setup.scenario(true))
            .makespan()
            .as_secs_f64();
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
            expected: self.expected.max(now),
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
mod tests {
    use super::*;
    use crate::page::analysis::{Analysis, Options, analyze};
    use crate::page::examples::{EXAMPLES, files_of};

    fn example(id: &str) -> Analysis {
        let e = EXAMPLES.iter().find(|e| e.id == id).unwrap();
        analyze(&files_of(e), e.kind, &Options::default())
    }

    fn setup(a: &Analysis) -> Setup {
        Setup {
            expander: a.expander.as_ref().map(|e| e.expander.clone()),
            steps: a.step_table.clone(),
            ..Setup::default()
        }
    }

    fn run_to_end(rt: &mut WalkRt) -> Vec<Frame> {
        let mut frames = vec![rt.collect(true)];
        for _ in 0..10_000 {
            if !rt.step() {
                break;
            }
            frames.push(rt.collect(true));
        }
        frames.push(rt.collect(true));
        frames
    }

    fn index(g: &PageGraph, name: &str) -> usize {
        g.index_of(name).unwrap_or_else(|| panic!("no {name}"))
    }

    #[test]
    fn stepping_to_the_end_finishes_every_vertex_in_the_expected_time() {
        let a = example("references");
        let g = a.graph.clone().unwrap();
        let mut rt = WalkRt::start(&g, 10, &setup(&a));
        let frames = run_to_end(&mut rt);
        // The first report covers every vertex, later ones only what changed.
        assert_eq!(frames[0].cells.len(), g.len());
        assert!(frames[1..].iter().all(|f| f.cells.len() < g.len()));
        assert!(
            rt.cells.iter().all(|c| c.state == VState::Done),
            "{:?}",
            rt.cells
        );
        let v = &frames.last().unwrap().view;
        assert!(v.finished);
        assert_eq!(v.done, g.len());
        assert_eq!(v.makespan, Some(rt.expected()));
        assert!(v.critical_path.unwrap() <= v.makespan.unwrap());
        // The instance runs longest: it is on the critical path with what it waits for.
        let web = index(&g, "aws_instance.web (expand)");
        assert!(v.critical.contains(&web), "{:?}", v.critical);
        assert_eq!(v.max_concurrency.map(|m| m >= 1), Some(true));
        // A vertex that expanded into one instance (no count) shows no instance counter.
        assert_eq!(rt.cells[web].inst_label(), "");
    }

    #[test]
    fn a_failed_vertex_stops_what_depends_on_it() {
        let a = example("references");
        let g = a.graph.clone().unwrap();
        let mut s = setup(&a);
        s.failures.insert("aws_instance.web (expand)".into());
        let mut rt = WalkRt::start(&g, 10, &s);
        let frames = run_to_end(&mut rt);
        let state = |n: &str| rt.cells[index(&g, n)].state;
        assert_eq!(state("aws_instance.web (expand)"), VState::Failed);
        assert_eq!(state("aws_eip.web (expand)"), VState::Upstream);
        assert_eq!(state("data.aws_ami.ubuntu (expand)"), VState::Done);
        let v = &frames.last().unwrap().view;
        assert_eq!((v.failed, v.finished), (1, true));
        assert!(v.upstream >= 2, "{v:?}");
    }

    #[test]
    fn a_count_of_three_walks_three_instance_rows() {
        let a = example("count");
        let g = a.graph.clone().unwrap();
        let counted = g
            .vertices()
            .iter()
            .position(|v| v.typed.kind.is_resource_expand())
            .unwrap();
        let mut rt = WalkRt::start(&g, 10, &setup(&a));
        let frames = run_to_end(&mut rt);
        let rows = frames
            .iter()
            .rev()
            .find_map(|f| f.rows.clone())
            .expect("rows");
        let of_counted: Vec<&GRow> = rows.iter().filter(|r| r.vertex == counted).collect();
        assert!(!of_counted.is_empty());
        if of_counted.len() > 1 {
            assert!(of_counted.iter().all(|r| r.instance));
            let label = rt.cells[counted].inst_label();
            assert_eq!(label, format!("{0}/{0}", of_counted.len()));
        }
        let three = rows
            .iter()
            .filter(|r| r.instance && r.name.ends_with(']'))
            .count();
        assert!(three >= 3, "{rows:?}");
    }

    #[test]
    fn frames_move_progress_and_makespans_match_the_instant_walk() {
        let a = example("references");
        let g = a.graph.clone().unwrap();
        let s = setup(&a);
        let mut rt = WalkRt::start(&g, 10, &s);
        rt.collect(true);
        // 31 frames 16 ms apart at speed 1: half a simulated second, the provider's half way.
        let mut t = 0.0;
        for _ in 0..31 {
            t += 16.0;
            rt.frame(t, 1.0);
        }
        let f = rt.collect(true);
        assert!((f.view.now - 0.48).abs() < 1e-6, "{}", f.view.now);
        let provider = g
            .vertices()
            .iter()
            .position(|v| {
                v.typed.kind == crate::kind::VertexKind::Provider(crate::kind::ProviderRole::Config)
            })
            .unwrap();
        let c = rt.cells[provider];
        assert_eq!(c.state, VState::Running);
        // About a second with the table's jitter; progress is drawn in steps.
        let v = g.vertex(provider).unwrap();
        let d = s.default_secs(&v.name, &v.typed.kind);
        assert!((0.9..=1.1).contains(&d), "{d}");
        assert!(
            (c.progress() - 0.48 / d).abs() < 1.0 / f64::from(PROGRESS_STEPS),
            "{c:?}"
        );
        let m = makespans(&g, &s, &[1, 10]);
        assert_eq!(m[1].1, rt.expected());
        assert!(m[0].1 >= m[1].1);
    }

    #[test]
    fn the_critical_path_is_the_floor_every_setting_reaches_or_stays_above() {
        let a = example("references");
        let g = a.graph.clone().unwrap();
        let s = setup(&a);
        let cp = critical_path(&g, &s);
        let m = makespans(&g, &s, &[1, 2, 64]);
        assert!(cp > 0.0);
        assert!(m.iter().all(|x| x.1 >= cp), "{m:?} {cp}");
        // The walk's own critical path (the longest chain of what it ran) is the same figure.
        let mut rt = WalkRt::start(&g, 64, &s);
        let frames = run_to_end(&mut rt);
        assert_eq!(frames.last().unwrap().view.critical_path, Some(cp));
    }

    #[test]
    fn a_duration_set_on_an_expanding_vertex_applies_to_each_instance() {
        let a = example("references");
        let g = a.graph.clone().unwrap();
        let mut s = setup(&a);
        let before = makespans(&g, &s, &[10])[0].1;
        s.durations
            .insert("aws_instance.web (expand)".into(), 100.0);
        let after = makespans(&g, &s, &[10])[0].1;
        let web = g
            .vertex(g.index_of("aws_instance.web (expand)").unwrap())
            .unwrap();
        let default = s.default_secs(&web.name, &web.typed.kind);
        assert!(
            (after - before - (100.0 - default)).abs() < 1e-6,
            "{before} -> {after}"
        );
    }

    #[test]
    fn the_walk_is_announced_at_its_moments_not_every_frame() {
        let idle = WalkView::default();
        let running = WalkView {
            started: true,
            running: 2,
            done: 1,
            now: 3.0,
            ..WalkView::default()
        };
        assert_eq!(
            announcement(&idle, &running, false, true).as_deref(),
            Some("Walk started.")
        );
        // An ordinary frame: time and counts move, nothing is said.
        let later = WalkView {
            now: 3.5,
            done: 2,
            running: 1,
            ..running.clone()
        };
        assert_eq!(announcement(&running, &later, true, true), None);
        assert_eq!(
            announcement(&later, &later, true, false).as_deref(),
            Some("Walk paused at 3.5 s: 2 done, 1 running.")
        );
        assert_eq!(
            announcement(&later, &later, false, true).as_deref(),
            Some("Walk resumed.")
        );
        let failed = WalkView {
            failed: 1,
            upstream: 2,
            ..later.clone()
        };
        assert_eq!(
            announcement(&later, &failed, true, true).as_deref(),
            Some("1 vertex failed at 3.5 s.")
        );
        let over = WalkView {
            finished: true,
            running: 0,
            makespan: Some(12.25),
            ..failed.clone()
        };
        assert_eq!(
            announcement(&failed, &over, true, false).as_deref(),
            Some(
                "Walk finished in 12.2 simulated seconds: 2 done, 0 running, 1 failed, 2 skipped because something they depend on failed."
            )
        );
        assert_eq!(
            announcement(&over, &idle, false, false).as_deref(),
            Some("Walk reset.")
        );
        assert_eq!(
            announcement(&idle, &running, false, false).as_deref(),
            Some("Walk stepped to 3.0 s: 1 done, 2 running.")
        );
    }

    #[test]
    fn a_running_vertex_shows_its_current_step_and_its_details_list_the_steps() {
        let a = example("references");
        let g = a.graph.clone().unwrap();
        let s = setup(&a);
        let web = index(&g, "aws_instance.web (expand)");
        let mut rt = WalkRt::start(&g, 10, &s);
        rt.collect(true);
        // Frames of a tenth of a simulated second, to the end.
        let mut seen = BTreeSet::new();
        let mut ms = 0.0;
        for _ in 0..10_000 {
            if rt.walk.is_finished() {
                break;
            }
            ms += 100.0;
            rt.frame(ms, 1.0);
            rt.collect(true);
            if let Some(step) = rt.cells[web].step {
                assert_eq!(rt.cells[web].state, VState::Running);
                seen.insert(step);
            }
        }
        assert!(
            seen.contains("Ask the provider for the planned change"),
            "{seen:?}"
        );
        // Finished: no step on the vertex, and its steps (its own, then its instance's) with
        // times.
        assert_eq!(rt.cells[web].step, None);
        let lists = rt.vertex_steps(web);
        assert_eq!(lists[0].name, "aws_instance.web (expand)");
        assert_eq!(lists[0].lines.last().map(|l| l.id), Some("walk-subgraph"));
        let inst = &lists[1];
        assert!(inst.instance, "{lists:?}");
        let plan = inst.lines.iter().find(|l| l.id == "plan-change").unwrap();
        assert_eq!(plan.state, walk_steps::StepState::Done);
        assert!(plan.end.unwrap() > plan.start.unwrap());
        assert!(!rt.row_steps(inst.task).is_empty());
        // Before a walk, the steps it will run with their planned durations.
        let planned = s.planned_steps("aws_instance.web (expand)", &g.vertices()[web].typed.kind);
        assert!(
            planned
                .iter()
                .any(|l| l.id == "plan-change" && l.duration > 1.0)
        );
    }

    #[test]
    fn a_failure_at_a_step_shows_where_the_vertex_stopped() {
        let a = example("references");
        let g = a.graph.clone().unwrap();
        let mut s = setup(&a);
        s.failures
            .insert("aws_instance.web (expand)@plan-change".into());
        let mut rt = WalkRt::start(&g, 10, &s);
        run_to_end(&mut rt);
        let web = index(&g, "aws_instance.web (expand)");
        assert_eq!(rt.cells[web].state, VState::Failed);
        assert_eq!(
            rt.cells[index(&g, "aws_eip.web (expand)")].state,
            VState::Upstream
        );
        let lists = rt.vertex_steps(web);
        let inst = lists.iter().find(|l| l.instance).expect("instance steps");
        assert_eq!(inst.failed_at().map(|l| l.id), Some("plan-change"));
        assert!(
            inst.lines
                .iter()
                .any(|l| l.state == walk_steps::StepState::NotRun)
        );
    }
}

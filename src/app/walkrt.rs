//! The walk as the app runs it: a [`Walk`] on a [`Stepper`] (advanced per animation frame or one
//! event at a time), and the per-vertex view of its state that the graph draws.

use super::model::{GraphData, Kind, classify};
use crate::dag::VertexId;
use crate::walk::{
    DurationModel, Scenario, Stepper, TaskId, Transition, Walk, WalkOptions, default_duration,
};
use std::collections::{BTreeMap, BTreeSet};
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
}

/// Everything the view shows of a walk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WalkView {
    pub states: Vec<VState>,
    /// 0..1 for running vertices.
    pub progress: Vec<f64>,
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
}

/// The durations the app's walks use: the walk's default table, where a resource's or data
/// source's `(expand)` vertex stands for its instances. Without the engine's expansion hook the
/// table would count it as instant bookkeeping, so it gets the duration of its resource type.
pub fn duration_model(g: &GraphData) -> DurationModel {
    let mut model = DurationModel::table();
    for n in &g.names {
        if let Some(base) = n.strip_suffix(" (expand)")
            && matches!(classify(n), Kind::Resource | Kind::Data)
        {
            model = model.with_override(n.clone(), default_duration(base));
        }
    }
    model
}

/// Makespan (seconds) for each parallelism in `ps`, from the instant driver.
pub fn makespans(g: &GraphData, ps: &[usize]) -> Vec<(usize, f64)> {
    let (dg, _) = g.to_dag();
    crate::walk::sweep(&dg, &duration_model(g), ps.iter().copied())
        .into_iter()
        .map(|(p, d)| (p, d.as_secs_f64()))
        .collect()
}

/// A walk in progress.
pub struct WalkRt {
    pub stepper: Stepper,
    pub walk: Walk,
    ids: Vec<VertexId>,
    durations: Vec<f64>,
    /// Each vertex's top-level task, and back.
    tasks: Vec<Option<TaskId>>,
    by_task: BTreeMap<TaskId, usize>,
    /// When each vertex started running (simulated seconds), read from the event log as it grows,
    /// so a frame costs O(vertices + new events), not a copy of the whole log.
    starts: Vec<Option<f64>>,
    seen_events: usize,
    /// The animation frame's previous timestamp (ms).
    pub last_ms: Option<f64>,
}

impl WalkRt {
    /// Starts walking `g` (nothing runs until the stepper is advanced).
    pub fn start(g: &GraphData, parallelism: usize, failures: &BTreeSet<String>) -> WalkRt {
        let (dg, ids) = g.to_dag();
        let model = duration_model(g);
        let durations = g
            .names
            .iter()
            .map(|n| model.duration_of(n).as_secs_f64())
            .collect();
        let mut scenario = Scenario::new(model);
        for f in failures {
            scenario = scenario.fail(f.clone(), "injected failure");
        }
        let stepper = Stepper::new();
        let walk = Walk::start(
            stepper.executor(),
            &dg,
            &WalkOptions::with_parallelism(parallelism.clamp(1, 64)),
            scenario,
        );
        let tasks: Vec<Option<TaskId>> = ids.iter().map(|v| walk.task_for(*v)).collect();
        let by_task = tasks
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some(((*t)?, i)))
            .collect();
        let n = ids.len();
        WalkRt {
            stepper,
            walk,
            ids,
            durations,
            tasks,
            by_task,
            starts: vec![None; n],
            seen_events: 0,
            last_ms: None,
        }
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

    pub fn view(&mut self) -> WalkView {
        for e in self.walk.events_since(self.seen_events) {
            self.seen_events += 1;
            if e.transition == Transition::Running
                && let Some(&i) = self.by_task.get(&e.task)
            {
                self.starts[i] = Some(e.time.as_secs_f64());
            }
        }
        let now = self.stepper.now().as_secs_f64();
        let mut v = WalkView {
            now,
            started: true,
            ..WalkView::default()
        };
        for i in 0..self.ids.len() {
            let status = self.tasks[i].and_then(|t| self.walk.status(t));
            let (state, progress) = match status {
                None => (VState::Waiting, 0.0),
                Some(st) => match st {
                    Transition::WaitingOnDeps => (VState::Waiting, 0.0),
                    Transition::WaitingForPermit => (VState::Permit, 0.0),
                    // An unknown instance set is reported mid-run; the vertex then finishes.
                    Transition::Running
                    | Transition::Expanded { .. }
                    | Transition::InstancesUnknown(_) => {
                        let d = self.durations.get(i).copied().unwrap_or(0.0);
                        let s = self.starts[i].unwrap_or(now);
                        let p = if d > 0.0 {
                            ((now - s) / d).clamp(0.0, 1.0)
                        } else {
                            1.0
                        };
                        (VState::Running, p)
                    }
                    Transition::Done => (VState::Done, 1.0),
                    Transition::Failed(_) => (VState::Failed, 1.0),
                    Transition::UpstreamFailed => (VState::Upstream, 0.0),
                    Transition::Cancelled => (VState::Cancelled, 0.0),
                },
            };
            match state {
                VState::Running => v.running += 1,
                VState::Done => v.done += 1,
                VState::Failed => v.failed += 1,
                VState::Upstream => v.upstream += 1,
                VState::Waiting | VState::Permit => v.waiting += 1,
                _ => {}
            }
            v.states.push(state);
            v.progress.push(progress);
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
                    && let Some(i) = self.ids.iter().position(|id| *id == info.vertex)
                {
                    v.critical.insert(i);
                }
            }
        }
        v
    }
}

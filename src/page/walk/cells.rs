//! What the page draws of a walk, per vertex (cells), per timeline row and for the walk bar, and
//! what one frame changed.

use crate::walk::Transition;
use std::collections::BTreeSet;

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

    pub(super) fn of(t: &Transition) -> VState {
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

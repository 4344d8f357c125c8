//! walk: OpenTofu's parallel graph walk, simulated on a virtual clock.
//!
//! The model follows `internal/dag/walk.go` and the `-parallelism` semaphore of
//! `internal/tofu` (taken in `ContextGraphWalker.Execute`, released when the vertex's execution
//! returns):
//!
//! - every vertex is one async task ([`walker`]); it waits until everything it depends on has
//!   finished, then for a semaphore permit, then "executes" by sleeping its simulated duration on
//!   the [`Clock`], then releases the permit and finishes;
//! - at most `parallelism` (default 10) vertices execute at once; permits go to waiters in the
//!   order they asked (Go's channel semaphore hands a released slot to the longest waiter);
//! - an error is recorded per vertex; a vertex whose dependency failed (or was itself skipped for
//!   that reason) never runs and is reported upstream-failed;
//! - [`Walk::cancel`] lets running vertices finish and cancels the rest;
//! - [`Walk::update`] adds and removes vertices and edges mid-walk (Go's `Walker.Update`);
//! - a running vertex may expand into instance vertices ([`Execution::expand`], OpenTofu's
//!   `DynamicExpand`): the vertex's own execution releases its permit, the instances are walked
//!   under the same semaphore, and the vertex finishes (failed if an instance failed) when they
//!   all have.
//!
//! Tasks run on a single-threaded executor ([`Executor`], `futures`' `LocalPool`: no threads, so
//! the same code runs in wasm32). Time moves only when a driver moves it: [`Executor::run_to_end`]
//! (the instant driver: whenever every task is blocked, jump to the next timer) for tests, the CLI
//! and charts, or [`Stepper`] (advanced per animation frame, with pause, speed and single-step)
//! for the app. Everything is ordered (vertices start in name order, equal timers fire in
//! registration order, permits are FIFO), so the same inputs and seed give the same event log.
//!
//! Durations come from [`DurationModel`] (a default table by vertex kind and resource type,
//! per-type and per-vertex overrides, a durations file, seeded jitter); [`Scenario`] ([`scenario`])
//! adds failure injection, the [`Expander`] hook and the instance budget, and is the one behaviour
//! the CLI and the page both walk with. [`StaticExpander`] ([`expand`]) is the expander for plan
//! graphs: `(expand)` vertices become the instances their `count`/`for_each` give statically,
//! or record [`Transition::InstancesUnknown`] when that cannot be known.
//! [`report`] turns a finished walk or a sweep into the text and JSON `tfgraph walk` prints.
//!
//! Direction: OpenTofu walks every graph the same way, `AcyclicGraph.Walk` with `Reverse: true`
//! (`internal/dag/dag.go`, called from `internal/tofu/graph.go`): a vertex runs after what it
//! depends on. Destroy ordering (plan-destroy, applies with destroys) is not a reversed walk but
//! reversed edges: the builder's destroy-edge transformer makes a destroy vertex depend on the
//! destroys of what depended on it. So [`WalkOptions::default`] (`reverse: true`) is right for all
//! graphs the builder makes; `reverse: false` is only for `dag.Walker` tests.

pub mod clock;
pub mod driver;
pub mod durations;
pub mod expand;
pub mod metrics;
pub mod report;
pub mod scenario;
pub mod semaphore;
pub mod steps;
pub mod walker;

pub use clock::Clock;
pub use driver::{Executor, Stepper};
pub use durations::{DurationModel, table_duration};
pub use expand::{KnownExpansions, StaticExpander, WalkExpander};
pub use metrics::{Metrics, Span};
pub use scenario::{DEFAULT_JITTER, DEFAULT_PARALLELISM, DEFAULT_SEED, Scenario, ScenarioLog};
pub use steps::{Failure, StepRun, StepSpan, StepStatus, StepTable};
pub use walker::{
    Behaviour, Event, Execution, Expander, Expansion, Gate, TaskId, TaskInfo, Transition,
    VertexRef, Walk, WalkOptions, WalkResult,
};

use crate::dag::{Graph, Vertex};
use std::time::Duration;

/// Walks `g` to the end with the instant driver.
pub fn simulate<V: Vertex>(
    g: &Graph<V>,
    opts: &WalkOptions,
    behaviour: impl Behaviour + 'static,
) -> WalkResult {
    let mut exec = Executor::new();
    let walk = Walk::start(&exec, g, opts, behaviour);
    exec.run_to_end();
    walk.result()
}

/// Makespan for each parallelism in `ps` (same durations, no failures).
pub fn sweep<V: Vertex>(
    g: &Graph<V>,
    durations: &DurationModel,
    ps: impl IntoIterator<Item = usize>,
) -> Vec<(usize, Duration)> {
    ps.into_iter()
        .map(|p| {
            let r = simulate(
                g,
                &WalkOptions::with_parallelism(p),
                Scenario::new(durations.clone()),
            );
            (p, r.makespan())
        })
        .collect()
}

/// Makespan for each parallelism in `ps`, each walk with a fresh scenario from `scenario` (so
/// failures and expansion can be part of a sweep).
pub fn sweep_with<V: Vertex>(
    g: &Graph<V>,
    ps: impl IntoIterator<Item = usize>,
    mut scenario: impl FnMut() -> Scenario,
) -> Vec<(usize, Duration)> {
    ps.into_iter()
        .map(|p| {
            let r = simulate(g, &WalkOptions::with_parallelism(p), scenario());
            (p, r.makespan())
        })
        .collect()
}

#[cfg(test)]
mod tests;

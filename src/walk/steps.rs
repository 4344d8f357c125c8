//! Steps in the walk: a vertex's run is the sequence of its evaluation steps
//! ([`crate::inside::steps`]), each with its own simulated duration.
//!
//! - [`StepTable`]: which of OpenTofu's Go types each vertex of a built graph is, and the walk
//!   operation, so the walk knows each vertex's steps (instances take the steps their vertex's
//!   evaluation gives its sub-graph). A vertex the table does not know (an imported DOT file, a
//!   test graph of plain names) runs one step, "Unknown vertex type".
//! - [`plan`]: how a vertex's duration is shared among its steps. Steps that are not provider
//!   calls take their kind's default ([`default_step_duration`]), provider calls share what is
//!   left by their weight, so a vertex takes as long in all as it did before steps existed (its
//!   table, type or given duration, jitter included). A step's duration set in the durations file
//!   (by step kind, or for one vertex and step) replaces its share, and the vertex takes that much
//!   longer or shorter. A vertex shorter than its steps' defaults (a `local`, 0 s) shrinks them in
//!   proportion.
//! - A failure at a named step ([`Failure::step`]): the steps before it run, it runs and fails, the
//!   later steps do not run; the vertex's run ends with the failing step.
//!
//! The walk records each task's [`StepRun`]s (offsets from the moment it got its permit), in
//! [`crate::walk::TaskInfo::steps`] and the scenario's log; [`spans`] turns them into times.

use crate::builder::Node;
use crate::dag::Graph;
use crate::inside::steps::{Evaluation, GoNode, Operation, Step, StepKind, WALK_SUBGRAPH_ID};
use std::collections::HashMap;
use std::time::Duration;

/// The built-in duration of a step of each kind that is not a provider call (provider calls
/// share the vertex's own duration, see [`plan`]). Small next to a resource's 10 s, so a
/// resource's provider calls keep most of its time.
pub fn default_step_duration(kind: StepKind) -> Duration {
    match kind {
        StepKind::Bookkeeping | StepKind::Provider => Duration::ZERO,
        StepKind::Evaluate => Duration::from_millis(200),
        StepKind::State => Duration::from_millis(100),
        StepKind::Check => Duration::from_millis(50),
    }
}

/// Which Go type each vertex of a graph is, and the operation its walk runs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepTable {
    operation: Operation,
    go: HashMap<String, GoNode>,
}

impl StepTable {
    /// An empty table for walks of `operation`.
    pub fn new(operation: Operation) -> StepTable {
        StepTable {
            operation,
            go: HashMap::new(),
        }
    }

    /// The Go type of every vertex of a built graph, by name.
    pub fn of_graph(g: &Graph<Node>, operation: Operation) -> StepTable {
        let mut t = StepTable::new(operation);
        for (_, n) in g.iter() {
            t.go.entry(n.name())
                .or_insert_with(|| GoNode::of_node(n, operation));
        }
        t
    }

    /// Says that the vertex `name` is of Go type `go`.
    pub fn with(mut self, name: impl Into<String>, go: GoNode) -> StepTable {
        self.go.insert(name.into(), go);
        self
    }

    pub fn operation(&self) -> Operation {
        self.operation
    }

    pub fn go_of(&self, name: &str) -> Option<GoNode> {
        self.go.get(name).copied()
    }

    pub fn len(&self) -> usize {
        self.go.len()
    }

    pub fn is_empty(&self) -> bool {
        self.go.is_empty()
    }
}

/// How a step of a walked vertex ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepStatus {
    Done,
    /// The injected failure happened here.
    Failed,
    /// An earlier step failed.
    NotRun,
}

impl StepStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            StepStatus::Done => "done",
            StepStatus::Failed => "failed",
            StepStatus::NotRun => "not-run",
        }
    }
}

/// One step of a task's run, as the scenario planned it when the task got its permit. Times are
/// offsets from that moment. The step that walks an expanding vertex's instances
/// ([`WALK_SUBGRAPH_ID`]) starts when the vertex's own steps end and lasts until its instances
/// have all finished (`duration` is zero here; [`spans`] gives its end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepRun {
    pub step: Step,
    pub offset: Duration,
    pub duration: Duration,
    pub status: StepStatus,
    /// This step walks the vertex's instances, and lasts until they have all finished.
    pub instances: bool,
}

impl StepRun {
    /// The walk of an expanding vertex's instances (it lasts until they have finished).
    pub fn walks_instances(&self) -> bool {
        self.instances
    }
}

/// A failure to inject: the vertex (or instance) fails with `message`, at the step with id
/// `step` when one is given (else after all its steps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    pub step: Option<String>,
}

/// Splits a failure as the CLI's `--fail` and the page give it: `ADDR` or `ADDR@STEP`, where
/// `STEP` is a step id (lower-case letters, digits and dashes). An `@` inside an instance key
/// (`aws_instance.x["a@b"]`) is not followed by a step id, so the whole text is the address.
pub fn parse_failure(spec: &str) -> (&str, Option<&str>) {
    match spec.rsplit_once('@') {
        Some((addr, step))
            if !addr.is_empty()
                && !step.is_empty()
                && step
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') =>
        {
            (addr, Some(step))
        }
        _ => (spec, None),
    }
}

/// The steps a task runs: an expanding vertex its own steps and then the walk of its instances;
/// any other vertex its steps with its instances' steps in place of that walk (an `(expand)`
/// vertex that does not expand stands for its instances).
pub fn steps_to_run(e: &Evaluation, expands: bool) -> Vec<Step> {
    if expands {
        e.steps.clone()
    } else {
        e.flattened()
    }
}

/// Shares `nanos` among `weights` (integers) so that the shares add up to `nanos` exactly: each
/// gets its proportional part rounded down and the last weighted one the rest. All-zero weights
/// give nothing.
fn share(nanos: u128, weights: &[u128]) -> Vec<u128> {
    let total: u128 = weights.iter().sum();
    if total == 0 {
        return vec![0; weights.len()];
    }
    let mut out: Vec<u128> = weights.iter().map(|w| nanos * w / total).collect();
    let given: u128 = out.iter().sum();
    if let Some(last) = weights.iter().rposition(|w| *w > 0) {
        out[last] += nanos - given;
    }
    out
}

fn nanos(d: Duration) -> u128 {
    d.as_nanos()
}

fn from_nanos(n: u128) -> Duration {
    let secs = u64::try_from(n / 1_000_000_000).unwrap_or(u64::MAX);
    Duration::new(secs, (n % 1_000_000_000) as u32)
}

/// Plans a task's steps (see the module docs): `total` is the vertex's duration before steps
/// (zero for an expanding vertex, whose time is its instances'), `explicit` a step's duration set
/// by the user, `fail_at` the index of the step that fails. With `expands`, the step that walks
/// instances takes no time here (the instances' time is theirs); without, it is a step like the
/// others.
pub fn plan(
    steps: &[Step],
    total: Duration,
    explicit: impl Fn(&Step) -> Option<Duration>,
    fail_at: Option<usize>,
    expands: bool,
) -> Vec<StepRun> {
    let timed: Vec<bool> = steps
        .iter()
        .map(|s| !(expands && s.id == WALK_SUBGRAPH_ID))
        .collect();
    let base: Vec<u128> = steps
        .iter()
        .zip(&timed)
        .map(|(s, t)| {
            if *t {
                nanos(default_step_duration(s.kind))
            } else {
                0
            }
        })
        .collect();
    let fixed: u128 = base.iter().sum();
    let total = nanos(total);
    let mut d: Vec<u128> = if total < fixed {
        share(total, &base)
    } else {
        let rest = total - fixed;
        let weights: Vec<u128> = steps
            .iter()
            .zip(&timed)
            .map(|(s, t)| {
                if *t && s.kind == StepKind::Provider {
                    u128::from(s.weight)
                } else {
                    0
                }
            })
            .collect();
        let weights = if weights.iter().any(|w| *w > 0) {
            weights
        } else if fixed > 0 {
            base.clone()
        } else {
            timed.iter().map(|t| u128::from(*t)).collect()
        };
        share(rest, &weights)
            .into_iter()
            .zip(&base)
            .map(|(a, b)| a + b)
            .collect()
    };
    for (i, s) in steps.iter().enumerate() {
        if timed[i]
            && let Some(e) = explicit(s)
        {
            d[i] = nanos(e);
        }
    }
    let mut offset = 0u128;
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let status = match fail_at {
                Some(f) if i == f => StepStatus::Failed,
                Some(f) if i > f => StepStatus::NotRun,
                _ => StepStatus::Done,
            };
            let duration = if status == StepStatus::NotRun {
                0
            } else {
                d[i]
            };
            let run = StepRun {
                step: *s,
                offset: from_nanos(offset),
                duration: from_nanos(duration),
                status,
                instances: !timed[i],
            };
            offset += duration;
            run
        })
        .collect()
}

/// How long a task holds its permit: until its last step that runs ends.
pub fn run_time(runs: &[StepRun]) -> Duration {
    runs.iter()
        .filter(|r| r.status != StepStatus::NotRun)
        .map(|r| r.offset + r.duration)
        .max()
        .unwrap_or_default()
}

/// A step of a walked task, in walk time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepSpan {
    pub step: Step,
    /// `None` for a step that did not run.
    pub start: Option<Duration>,
    /// `None` for a step that did not run, and for the walk of instances still under way.
    pub end: Option<Duration>,
    pub status: StepStatus,
}

/// The steps of a task that got its permit at `started` and (if it has) finished at `finished`,
/// in walk time. The walk of an expanding vertex's instances ends when the vertex finishes, and
/// failed when the vertex did (one of its instances failed).
pub fn spans(
    runs: &[StepRun],
    started: Duration,
    finished: Option<Duration>,
    failed: bool,
) -> Vec<StepSpan> {
    runs.iter()
        .map(|r| {
            if r.status == StepStatus::NotRun {
                return StepSpan {
                    step: r.step,
                    start: None,
                    end: None,
                    status: r.status,
                };
            }
            let start = started + r.offset;
            if r.walks_instances() {
                return StepSpan {
                    step: r.step,
                    start: Some(start),
                    end: finished,
                    status: if failed && finished.is_some() {
                        StepStatus::Failed
                    } else {
                        r.status
                    },
                };
            }
            StepSpan {
                step: r.step,
                start: Some(start),
                end: Some(start + r.duration),
                status: r.status,
            }
        })
        .collect()
}

/// The index of the step running at `t` (`started` is when the task got its permit): the last
/// step that has started by `t` and not ended, zero-length steps skipped. `None` before the first
/// step and after the last.
pub fn current_step(runs: &[StepRun], started: Duration, t: Duration) -> Option<usize> {
    let since = t.checked_sub(started)?;
    runs.iter().position(|r| {
        r.status != StepStatus::NotRun
            && r.offset <= since
            && (since < r.offset + r.duration || r.walks_instances())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addrs::ResourceMode;
    use crate::inside::steps::evaluation;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn plan_instance() -> Vec<Step> {
        evaluation(
            GoNode::PlannableInstance(ResourceMode::Managed),
            Operation::Plan,
        )
        .steps
    }

    #[test]
    fn a_resource_keeps_its_duration_and_its_provider_calls_share_most_of_it() {
        let steps = plan_instance();
        let runs = plan(&steps, secs(10), |_| None, None, false);
        assert_eq!(run_time(&runs), secs(10));
        let total: Duration = runs.iter().map(|r| r.duration).sum();
        assert_eq!(total, secs(10));
        let of = |id: &str| runs.iter().find(|r| r.step.id == id).unwrap();
        // Planning weighs twice refreshing.
        assert_eq!(of("plan-change").duration, of("refresh").duration * 2);
        assert_eq!(of("evaluate-config").duration, Duration::from_millis(200));
        assert_eq!(of("get-provider").duration, Duration::ZERO);
        // Steps follow each other.
        for w in runs.windows(2) {
            assert_eq!(w[0].offset + w[0].duration, w[1].offset);
        }
        assert!(runs.iter().all(|r| r.status == StepStatus::Done));
    }

    #[test]
    fn a_vertex_shorter_than_its_steps_defaults_shrinks_them_and_zero_is_zero() {
        let steps = plan_instance();
        let runs = plan(&steps, Duration::from_millis(500), |_| None, None, false);
        assert_eq!(run_time(&runs), Duration::from_millis(500));
        assert!(
            runs.iter()
                .filter(|r| r.step.kind == StepKind::Provider)
                .all(|r| r.duration.is_zero())
        );
        let zero = plan(&steps, Duration::ZERO, |_| None, None, false);
        assert!(zero.iter().all(|r| r.duration.is_zero()));
    }

    #[test]
    fn without_provider_calls_or_defaults_the_duration_is_shared_evenly() {
        let unknown = evaluation(GoNode::Unknown, Operation::Plan).steps;
        let runs = plan(&unknown, secs(7), |_| None, None, false);
        assert_eq!(runs[0].duration, secs(7));
        let local = evaluation(GoNode::Local, Operation::Plan).steps;
        let runs = plan(&local, secs(3), |_| None, None, false);
        assert_eq!(run_time(&runs), secs(3));
    }

    #[test]
    fn an_explicit_step_duration_replaces_its_share() {
        let steps = plan_instance();
        let runs = plan(
            &steps,
            secs(10),
            |s| (s.id == "plan-change").then(|| secs(30)),
            None,
            false,
        );
        let base = plan(&steps, secs(10), |_| None, None, false);
        let before = base.iter().find(|r| r.step.id == "plan-change").unwrap();
        assert_eq!(run_time(&runs), secs(10) - before.duration + secs(30));
    }

    #[test]
    fn a_failing_step_ends_the_run_and_the_later_steps_do_not_run() {
        let steps = plan_instance();
        let at = steps.iter().position(|s| s.id == "plan-change").unwrap();
        let runs = plan(&steps, secs(10), |_| None, Some(at), false);
        assert_eq!(runs[at].status, StepStatus::Failed);
        assert!(runs[..at].iter().all(|r| r.status == StepStatus::Done));
        assert!(
            runs[at + 1..]
                .iter()
                .all(|r| r.status == StepStatus::NotRun)
        );
        assert_eq!(run_time(&runs), runs[at].offset + runs[at].duration);
        assert!(run_time(&runs) < secs(10));
        let sp = spans(&runs, secs(5), Some(secs(5) + run_time(&runs)), true);
        assert_eq!(sp[at].end, Some(secs(5) + run_time(&runs)));
        assert_eq!(sp[at + 1].start, None);
    }

    #[test]
    fn the_current_step_is_the_one_whose_time_holds_t() {
        let steps = plan_instance();
        let runs = plan(&steps, secs(10), |_| None, None, false);
        let started = secs(100);
        assert_eq!(current_step(&runs, started, secs(99)), None);
        let plan_change = runs
            .iter()
            .position(|r| r.step.id == "plan-change")
            .unwrap();
        let r = runs[plan_change];
        assert_eq!(
            current_step(&runs, started, started + r.offset + r.duration / 2),
            Some(plan_change)
        );
        // A zero-length step is never current: at its offset the next step with time is.
        assert_eq!(runs[0].step.id, "get-provider");
        assert_ne!(current_step(&runs, started, started), Some(0));
        assert_eq!(current_step(&runs, started, started + secs(10)), None);
    }

    #[test]
    fn failures_are_an_address_and_maybe_a_step() {
        assert_eq!(
            parse_failure("aws_instance.a@plan-change"),
            ("aws_instance.a", Some("plan-change"))
        );
        assert_eq!(parse_failure("aws_instance.a"), ("aws_instance.a", None));
        assert_eq!(
            parse_failure("aws_instance.a[\"x@y\"]"),
            ("aws_instance.a[\"x@y\"]", None)
        );
        assert_eq!(parse_failure("@plan"), ("@plan", None));
        assert_eq!(parse_failure("a@"), ("a@", None));
    }

    #[test]
    fn shares_add_up_exactly() {
        assert_eq!(share(10, &[1, 2]), vec![3, 7]);
        assert_eq!(share(10, &[0, 0]), vec![0, 0]);
        assert_eq!(share(7, &[1, 1, 0]), vec![3, 4, 0]);
    }
}

//! [`Scenario`]: the one walk behaviour of the CLI (`tfgraph walk`, `--sweep`) and the page (the
//! animated walk, its timeline and the makespan chart), so that for the same files, seed and
//! settings they give the same walk.
//!
//! What a vertex does when it gets its permit:
//!
//! - **fails** when its name (a vertex's or an instance's) is in [`Scenario::failures`]; a failing
//!   vertex does not expand;
//! - **expands** when the expander says so ([`Expander`], OpenTofu's `DynamicExpand`): its own
//!   execution then takes no time (it is bookkeeping) and its instances are walked; across the
//!   whole walk at most [`Scenario::max_instances`] instances are handed out, beyond that an
//!   expansion is reported unknown;
//! - otherwise **runs** for [`Scenario::duration`]: a duration given for its exact name, else (for
//!   an instance) the one given for the vertex it expanded from, else for an `(expand)` vertex of
//!   a resource or data source that did not expand (no expander: validate graphs, an imported
//!   DOT file) its resource's duration, as it stands for its instances, else the
//!   [`DurationModel`]'s (table, types, seeded jitter).
//!
//! The defaults ([`DEFAULT_PARALLELISM`], [`DEFAULT_JITTER`], [`DEFAULT_SEED`]) are the CLI flags'
//! and the page's.

use super::durations::DurationModel;
use super::steps::{self, Failure, StepRun, StepStatus, StepTable};
use super::walker::{Behaviour, Execution, Expander, Expansion, TaskId, VertexRef, Walk};
use crate::inside::steps::{Evaluation, GoNode, Operation, Step, WALK_SUBGRAPH_ID, evaluation};
use crate::kind::VertexKind;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// `-parallelism` when none is given (as `tofu`).
pub const DEFAULT_PARALLELISM: usize = 10;
/// Relative jitter of table durations when none is given.
pub const DEFAULT_JITTER: f64 = 0.1;
/// Seed of the jitter when none is given.
pub const DEFAULT_SEED: u64 = 0;
/// Most instances one walk expands into, over all its vertices (each vertex alone is held to
/// [`crate::config::eval::MAX_INSTANCES`]): a thousand resources of `count = 10000` would
/// otherwise make ten million walk tasks (found by fuzzing: out of memory).
pub const MAX_WALK_INSTANCES: usize = 100_000;

/// What a scenario decided while it ran, readable while the walk goes on (see
/// [`Scenario::log`]).
#[derive(Debug, Default)]
struct Record {
    /// Instance name -> the vertex it expanded from.
    parents: HashMap<String, String>,
    /// Each task's execution time as given to the walk.
    given: HashMap<TaskId, Duration>,
    /// Each task's steps as planned when it got its permit.
    steps: HashMap<TaskId, Rc<[StepRun]>>,
}

/// A read handle on a running scenario's decisions.
#[derive(Debug, Clone, Default)]
pub struct ScenarioLog(Rc<RefCell<Record>>);

impl ScenarioLog {
    /// The vertex the instance `name` expanded from.
    pub fn parent_of(&self, name: &str) -> Option<String> {
        self.0.borrow().parents.get(name).cloned()
    }

    /// How long task `t` executes (known once it got its permit).
    pub fn duration_of(&self, t: TaskId) -> Option<Duration> {
        self.0.borrow().given.get(&t).copied()
    }

    /// Task `t`'s steps, offsets from when it got its permit (known from then).
    pub fn steps_of(&self, t: TaskId) -> Option<Rc<[StepRun]>> {
        self.0.borrow().steps.get(&t).cloned()
    }
}

/// The standard [`Behaviour`] (see the module docs).
pub struct Scenario {
    pub durations: DurationModel,
    /// Vertex or instance name -> the failure injected there.
    pub failures: BTreeMap<String, Failure>,
    pub expander: Option<Box<dyn Expander>>,
    /// Each vertex's Go type, hence its steps ([`super::steps`]); without one, every vertex runs
    /// one step of unknown type.
    pub steps: Option<Arc<StepTable>>,
    /// Most instances one walk expands into, over all its vertices ([`MAX_WALK_INSTANCES`]).
    pub max_instances: usize,
    expanded: usize,
    evaluations: HashMap<GoNode, Evaluation>,
    log: ScenarioLog,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario::new(DurationModel::default())
    }
}

impl std::fmt::Debug for Scenario {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scenario")
            .field("durations", &self.durations)
            .field("failures", &self.failures)
            .field("expander", &self.expander.is_some())
            .field("steps", &self.steps.as_ref().map(|t| t.len()))
            .field("max_instances", &self.max_instances)
            .finish()
    }
}

impl Scenario {
    pub fn new(durations: DurationModel) -> Self {
        Scenario {
            durations,
            failures: BTreeMap::new(),
            expander: None,
            steps: None,
            max_instances: MAX_WALK_INSTANCES,
            expanded: 0,
            evaluations: HashMap::new(),
            log: ScenarioLog::default(),
        }
    }

    /// The vertex (or instance) `name` fails with `message` after running all its steps.
    pub fn fail(mut self, name: impl Into<String>, message: impl Into<String>) -> Self {
        self.failures.insert(
            name.into(),
            Failure {
                message: message.into(),
                step: None,
            },
        );
        self
    }

    /// The vertex (or instance) `name` fails with `message` at its step `step` (a step id): the
    /// steps after it do not run. A step its instances run, given for an expanding vertex, makes
    /// each instance fail there.
    pub fn fail_at(
        mut self,
        name: impl Into<String>,
        step: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        self.failures.insert(
            name.into(),
            Failure {
                message: message.into(),
                step: Some(step.into()),
            },
        );
        self
    }

    /// A failure as `tfgraph walk --fail` and the page give it: `ADDR` or `ADDR@STEP`
    /// ([`steps::parse_failure`]).
    pub fn fail_spec(self, spec: &str, message: impl Into<String>) -> Self {
        match steps::parse_failure(spec) {
            (name, Some(step)) => self.fail_at(name, step, message),
            (name, None) => self.fail(name, message),
        }
    }

    pub fn with_expander(mut self, e: impl Expander + 'static) -> Self {
        self.expander = Some(Box::new(e));
        self
    }

    /// Gives the vertices their steps.
    pub fn with_steps(mut self, table: Arc<StepTable>) -> Self {
        self.steps = Some(table);
        self
    }

    /// A handle that reads what this scenario decides as the walk runs: which vertex each
    /// instance came from and each task's duration.
    pub fn log(&self) -> ScenarioLog {
        self.log.clone()
    }

    /// How long the vertex `name` of kind `kind` runs when it does not expand; `parent` is the
    /// vertex an instance expanded from.
    pub fn duration(&self, name: &str, kind: &VertexKind, parent: Option<&str>) -> Duration {
        let given = |n: &str| self.durations.overrides.get(n).copied();
        if let Some(d) = given(name).or_else(|| parent.and_then(given)) {
            return d;
        }
        // An `(expand)` vertex of a resource that does not expand stands for its instances (the
        // one instance of a resource without count or for_each is named as the resource).
        if parent.is_none()
            && kind.is_resource_expand()
            && let Some(base) = name.strip_suffix(" (expand)")
        {
            return self.durations.duration_of(base, &kind.instance());
        }
        self.durations.duration_of(name, kind)
    }

    fn cached(&mut self, go: GoNode, op: Operation) -> Evaluation {
        self.evaluations
            .entry(go)
            .or_insert_with(|| evaluation(go, op))
            .clone()
    }

    /// What the vertex `name` runs: its Go type's evaluation, for an instance the one its
    /// vertex's evaluation gives its sub-graph; a vertex of unknown type otherwise.
    pub fn evaluation_of(&mut self, name: &str, parent: Option<&str>) -> Evaluation {
        let op = self
            .steps
            .as_ref()
            .map_or(Operation::Plan, |t| t.operation());
        let go = self.steps.as_ref().and_then(|t| match parent {
            None => t.go_of(name),
            Some(p) => t.go_of(p),
        });
        match (go, parent) {
            (Some(go), None) => self.cached(go, op),
            (Some(go), Some(_)) => match self.cached(go, op).instance {
                Some(i) => *i,
                None => self.cached(GoNode::Unknown, op),
            },
            (None, _) => self.cached(GoNode::Unknown, op),
        }
    }

    /// The steps the vertex `name` (of kind `kind`) runs when it does not expand and does not
    /// fail, with their durations: what it will do before the walk reaches it.
    pub fn planned(&mut self, name: &str, kind: &VertexKind) -> Vec<StepRun> {
        let eval = self.evaluation_of(name, None);
        let mut to_run = steps::steps_to_run(&eval, false);
        if to_run.is_empty() {
            to_run = self.cached(GoNode::Unknown, eval.operation).steps;
        }
        let total = self.duration(name, kind, None);
        let model = &self.durations;
        steps::plan(
            &to_run,
            total,
            |s| model.step_duration(name, None, s.id, s.kind),
            None,
            false,
        )
    }

    /// Holds an expansion to the walk's instance budget.
    fn bounded(&mut self, e: Option<Expansion>) -> Option<Expansion> {
        match e {
            Some(Expansion::Instances(g))
                if self.expanded.saturating_add(g.len()) > self.max_instances =>
            {
                Some(Expansion::Unknown(format!(
                    "{} instances would make the walk expand more than {} in all",
                    g.len(),
                    self.max_instances
                )))
            }
            Some(Expansion::Instances(g)) => {
                self.expanded += g.len();
                Some(Expansion::Instances(g))
            }
            other => other,
        }
    }
}

fn position(steps: &[Step], id: &str) -> Option<usize> {
    steps
        .iter()
        .position(|s| s.id == id && s.id != WALK_SUBGRAPH_ID)
}

impl Behaviour for Scenario {
    fn execute(&mut self, _walk: &Walk, v: &VertexRef) -> Execution {
        let parent = if v.parent.is_some() {
            self.log.parent_of(&v.name)
        } else {
            None
        };
        let eval = self.evaluation_of(&v.name, parent.as_deref());
        let failure = self.failures.get(&v.name).cloned();
        // A failure at one of the vertex's own steps (or with no step) stops it before it can
        // expand; one at a step only its instances run waits to see whether it expands.
        let fails_now = failure.as_ref().is_some_and(|f| match &f.step {
            None => true,
            Some(s) => position(&eval.steps, s).is_some(),
        });
        let expand = if fails_now {
            None
        } else {
            let e = self.expander.as_mut().and_then(|e| e.expand(v));
            self.bounded(e)
        };
        // A vertex that fails at one of its own steps before walking its sub-graph stops as an
        // expanding one does: its own steps, no time of its instances'.
        let stops_before_instances = fails_now
            && failure.as_ref().is_some_and(|f| f.step.is_some())
            && eval.steps.iter().any(|s| s.id == WALK_SUBGRAPH_ID);
        let expands = expand.is_some() || stops_before_instances;
        let mut to_run = steps::steps_to_run(&eval, expands);
        if !expands && to_run.is_empty() {
            to_run = self.cached(GoNode::Unknown, eval.operation).steps;
        }
        let fail_at = failure
            .as_ref()
            .and_then(|f| f.step.as_deref())
            .and_then(|s| position(&to_run, s));
        let failed = match &failure {
            Some(f) if f.step.is_none() || fail_at.is_some() => Some(f.message.clone()),
            _ => None,
        };
        if let (Some(Expansion::Instances(g)), Some(f)) = (&expand, &failure)
            && failed.is_none()
        {
            // The step is one the instances run: each of them fails there (unless given a
            // failure of its own).
            for (_, n) in g.iter() {
                self.failures.entry(n.clone()).or_insert_with(|| f.clone());
            }
        }
        let total = if expands {
            Duration::ZERO
        } else {
            self.duration(&v.name, &v.typed.kind, parent.as_deref())
        };
        let model = &self.durations;
        let explicit = |s: &Step| model.step_duration(&v.name, parent.as_deref(), s.id, s.kind);
        let mut runs = steps::plan(&to_run, total, explicit, fail_at, expands);
        if matches!(expand, Some(Expansion::Unknown(_))) {
            // Instances not known: none are walked.
            for r in runs.iter_mut().filter(|r| r.walks_instances()) {
                r.status = StepStatus::NotRun;
            }
        }
        let duration = steps::run_time(&runs);
        {
            let mut rec = self.log.0.borrow_mut();
            if let Some(Expansion::Instances(g)) = &expand {
                for (_, n) in g.iter() {
                    rec.parents.insert(n.clone(), v.name.clone());
                }
            }
            rec.given.insert(v.task, duration);
            rec.steps.insert(v.task, runs.clone().into());
        }
        Execution {
            duration,
            result: failed.map_or(Ok(()), Err),
            expand,
            steps: runs,
        }
    }
}

/// An expander shared between walks (the page keeps one per analysis: a copy would copy the whole
/// configuration). One thread: the lock is never contended, and a poisoned one is still usable.
impl<E: Expander> Expander for std::sync::Arc<std::sync::Mutex<E>> {
    fn expand(&mut self, v: &VertexRef) -> Option<Expansion> {
        self.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .expand(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::Graph;
    use crate::dag::import::DotVertexRead;
    use crate::walk::{Transition, WalkOptions, simulate};

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    /// `a (expand)` expands into `a[0]`, `a[1]`; `b` depends on it (by name, as a DOT file
    /// gives them).
    fn graph() -> Graph<DotVertexRead> {
        let mut g = Graph::new();
        let a = g.add(DotVertexRead::named("aws_instance.a (expand)"));
        let b = g.add(DotVertexRead::named("aws_instance.b"));
        g.connect(b, a);
        g
    }

    fn two(v: &VertexRef) -> Option<Graph<String>> {
        (v.name == "aws_instance.a (expand)").then(|| {
            let mut g = Graph::new();
            g.add("aws_instance.a[0]".to_string());
            g.add("aws_instance.a[1]".to_string());
            g
        })
    }

    #[test]
    fn instances_take_the_duration_given_to_their_vertex_unless_they_have_their_own() {
        let model = DurationModel::table()
            .with_override("aws_instance.a (expand)", secs(30))
            .with_override("aws_instance.a[1]", secs(40));
        let s = Scenario::new(model).with_expander(two);
        let log = s.log();
        let r = simulate(&graph(), &WalkOptions::default(), s);
        let ran = |n: &str| r.tasks.iter().find(|t| t.name == n).unwrap().ran_for;
        assert_eq!(ran("aws_instance.a (expand)"), Duration::ZERO);
        assert_eq!(ran("aws_instance.a[0]"), secs(30));
        assert_eq!(ran("aws_instance.a[1]"), secs(40));
        assert_eq!(ran("aws_instance.b"), secs(10));
        assert_eq!(r.makespan(), secs(50));
        assert_eq!(
            log.parent_of("aws_instance.a[1]").as_deref(),
            Some("aws_instance.a (expand)")
        );
        let t = r
            .tasks
            .iter()
            .position(|t| t.name == "aws_instance.a[0]")
            .unwrap();
        assert_eq!(log.duration_of(TaskId(t as u32)), Some(secs(30)));
    }

    #[test]
    fn an_expand_vertex_that_does_not_expand_stands_for_its_instances() {
        let s = Scenario::new(DurationModel::table());
        assert_eq!(
            s.duration(
                "aws_db_instance.d (expand)",
                &crate::dag::import::typed_from_name("aws_db_instance.d (expand)").kind,
                None
            ),
            secs(600)
        );
        assert_eq!(
            s.duration(
                "data.aws_ami.u (expand)",
                &crate::dag::import::typed_from_name("data.aws_ami.u (expand)").kind,
                None
            ),
            secs(2)
        );
        assert_eq!(
            s.duration(
                "module.m (expand)",
                &crate::dag::import::typed_from_name("module.m (expand)").kind,
                None
            ),
            Duration::ZERO
        );
        assert_eq!(
            s.duration(
                "local.x (expand)",
                &crate::dag::import::typed_from_name("local.x (expand)").kind,
                None
            ),
            Duration::ZERO
        );
        let r = simulate(&graph(), &WalkOptions::default(), s);
        assert_eq!(r.makespan(), secs(20));
    }

    #[test]
    fn failures_match_vertices_and_instances_and_a_failing_vertex_does_not_expand() {
        let s = Scenario::new(DurationModel::table())
            .with_expander(two)
            .fail("aws_instance.a[1]", "boom");
        let r = simulate(&graph(), &WalkOptions::default(), s);
        let status = |n: &str| {
            r.tasks
                .iter()
                .find(|t| t.name == n)
                .map(|t| t.status.clone())
        };
        assert_eq!(
            status("aws_instance.a[1]"),
            Some(Transition::Failed("boom".into()))
        );
        assert_eq!(status("aws_instance.b"), Some(Transition::UpstreamFailed));
        let s = Scenario::new(DurationModel::table())
            .with_expander(two)
            .fail("aws_instance.a (expand)", "boom");
        let r = simulate(&graph(), &WalkOptions::default(), s);
        assert!(!r.tasks.iter().any(|t| t.name.ends_with(']')));
    }

    #[test]
    fn the_instance_budget_is_per_walk() {
        let mut s = Scenario::new(DurationModel::table()).with_expander(two);
        s.max_instances = 1;
        let r = simulate(&graph(), &WalkOptions::default(), s);
        assert!(r.events.iter().any(|e| matches!(
            &e.transition,
            Transition::InstancesUnknown(w) if w.contains("more than 1 in all")
        )));
        // A shared expander does not carry one walk's count into the next.
        let shared = std::sync::Arc::new(std::sync::Mutex::new(two));
        for _ in 0..3 {
            let mut s = Scenario::new(DurationModel::table()).with_expander(shared.clone());
            s.max_instances = 2;
            let r = simulate(&graph(), &WalkOptions::default(), s);
            assert_eq!(r.tasks.iter().filter(|t| t.name.ends_with(']')).count(), 2);
        }
    }

    /// The step table of [`graph`]: a plan graph's resource vertices.
    fn table() -> Arc<StepTable> {
        use crate::addrs::ResourceMode::Managed;
        Arc::new(
            StepTable::new(Operation::Plan)
                .with(
                    "aws_instance.a (expand)",
                    GoNode::ExpandPlannableResource(Managed),
                )
                .with("aws_instance.b", GoNode::PlannableInstance(Managed)),
        )
    }

    fn task<'a>(r: &'a crate::walk::WalkResult, n: &str) -> &'a crate::walk::TaskInfo {
        r.tasks.iter().find(|t| t.name == n).unwrap()
    }

    fn ids(t: &crate::walk::TaskInfo) -> Vec<&'static str> {
        t.steps.iter().map(|s| s.step.id).collect()
    }

    #[test]
    fn vertices_run_their_steps_in_the_time_they_took_before() {
        let without = simulate(
            &graph(),
            &WalkOptions::default(),
            Scenario::default().with_expander(two),
        );
        let with = simulate(
            &graph(),
            &WalkOptions::default(),
            Scenario::default().with_expander(two).with_steps(table()),
        );
        // Same events, same times: steps divide a vertex's time, they do not add to it.
        assert_eq!(with.events, without.events);
        let a0 = task(&with, "aws_instance.a[0]");
        assert_eq!(ids(a0).first(), Some(&"get-provider"));
        assert!(ids(a0).contains(&"plan-change"));
        let total: Duration = a0.steps.iter().map(|s| s.duration).sum();
        assert_eq!(total, a0.ran_for);
        // The expanding vertex ran its own steps, then walked its instances until they finished.
        let a = task(&with, "aws_instance.a (expand)");
        assert_eq!(ids(a).last(), Some(&WALK_SUBGRAPH_ID));
        let spans = a.step_spans();
        let walk = spans.last().unwrap();
        assert_eq!(walk.start, a.started);
        assert_eq!(walk.end, a.finished);
        assert!(walk.end > walk.start);
        // Without a table a vertex runs one step of unknown type for its whole time.
        let b = task(&without, "aws_instance.b");
        assert_eq!(ids(b), vec!["visit"]);
        assert_eq!(b.steps[0].duration, b.ran_for);
    }

    #[test]
    fn a_failure_at_a_step_ends_the_vertex_there_and_stops_its_dependents() {
        let s = Scenario::new(DurationModel::table())
            .with_expander(two)
            .with_steps(table())
            .fail_spec("aws_instance.a[1]@plan-change", "provider error");
        let r = simulate(&graph(), &WalkOptions::default(), s);
        let a1 = task(&r, "aws_instance.a[1]");
        assert_eq!(a1.status, Transition::Failed("provider error".into()));
        let at = a1
            .steps
            .iter()
            .position(|s| s.status == StepStatus::Failed)
            .unwrap();
        assert_eq!(a1.steps[at].step.id, "plan-change");
        assert!(a1.steps[..at].iter().all(|s| s.status == StepStatus::Done));
        assert!(
            a1.steps[at + 1..]
                .iter()
                .all(|s| s.status == StepStatus::NotRun)
        );
        // It stopped when planning failed, before the time its later steps would have taken.
        assert!(a1.ran_for < secs(10));
        assert_eq!(a1.ran_for, a1.steps[at].offset + a1.steps[at].duration);
        let spans = a1.step_spans();
        assert_eq!(spans[at + 1].start, None);
        assert_eq!(task(&r, "aws_instance.a[0]").status, Transition::Done);
        assert_eq!(
            task(&r, "aws_instance.a (expand)").status,
            Transition::Failed("1 of 2 instances failed".into())
        );
        assert_eq!(
            task(&r, "aws_instance.b").status,
            Transition::UpstreamFailed
        );
    }

    #[test]
    fn a_step_of_the_instances_given_for_their_vertex_fails_each_instance() {
        let s = Scenario::new(DurationModel::table())
            .with_expander(two)
            .with_steps(table())
            .fail_spec("aws_instance.a (expand)@refresh", "no credentials");
        let r = simulate(&graph(), &WalkOptions::default(), s);
        for n in ["aws_instance.a[0]", "aws_instance.a[1]"] {
            let t = task(&r, n);
            assert_eq!(t.status, Transition::Failed("no credentials".into()), "{n}");
            let failed: Vec<_> = t
                .steps
                .iter()
                .filter(|s| s.status == StepStatus::Failed)
                .map(|s| s.step.id)
                .collect();
            assert_eq!(failed, vec!["refresh"]);
        }
        // One of the vertex's own steps: it fails there and does not expand.
        let s = Scenario::new(DurationModel::table())
            .with_expander(two)
            .with_steps(table())
            .fail_spec("aws_instance.a (expand)@expand", "bad count");
        let r = simulate(&graph(), &WalkOptions::default(), s);
        let a = task(&r, "aws_instance.a (expand)");
        assert_eq!(a.status, Transition::Failed("bad count".into()));
        assert!(a.children.is_empty());
        let last = a.steps.last().unwrap();
        assert_eq!(last.step.id, WALK_SUBGRAPH_ID);
        assert_eq!(last.status, StepStatus::NotRun);
        // A step the vertex does not have: nothing fails.
        let s = Scenario::new(DurationModel::table())
            .with_steps(table())
            .fail_spec("aws_instance.b@no-such-step", "x");
        let r = simulate(&graph(), &WalkOptions::default(), s);
        assert!(!r.has_errors());
    }

    #[test]
    fn the_durations_file_sets_steps_by_kind_and_for_one_vertex() {
        let model = DurationModel::table()
            .with_file("@evaluate 1\naws_instance.b@plan-change 20\n")
            .unwrap();
        let r = simulate(
            &graph(),
            &WalkOptions::default(),
            Scenario::new(model).with_steps(table()),
        );
        let b = task(&r, "aws_instance.b");
        let d = |id: &str| b.steps.iter().find(|s| s.step.id == id).unwrap().duration;
        assert_eq!(d("plan-change"), secs(20));
        assert_eq!(d("evaluate-config"), secs(1));
        let base = steps::plan(
            &b.steps.iter().map(|s| s.step).collect::<Vec<_>>(),
            secs(10),
            |_| None,
            None,
            false,
        );
        let base_of = |id: &str| base.iter().find(|s| s.step.id == id).unwrap().duration;
        let evaluates = b
            .steps
            .iter()
            .filter(|s| s.step.kind == crate::inside::StepKind::Evaluate)
            .count() as u32;
        assert_eq!(
            b.ran_for,
            secs(10) - base_of("plan-change")
                + secs(20)
                + (secs(1) - Duration::from_millis(200)) * evaluates
        );
        assert!(DurationModel::table().with_file("@nope 1").is_err());
    }

    #[test]
    fn the_same_seed_gives_the_same_steps() {
        let run = |seed| {
            simulate(
                &graph(),
                &WalkOptions::default(),
                Scenario::new(DurationModel::default().with_seed(seed))
                    .with_expander(two)
                    .with_steps(table()),
            )
        };
        assert_eq!(run(3), run(3));
        assert_ne!(
            task(&run(3), "aws_instance.b").steps,
            task(&run(4), "aws_instance.b").steps
        );
    }
}

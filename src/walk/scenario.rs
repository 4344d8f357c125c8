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
use super::walker::{Behaviour, Execution, Expander, Expansion, TaskId, VertexRef, Walk};
use crate::kind::VertexKind;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
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
}

/// The standard [`Behaviour`] (see the module docs).
pub struct Scenario {
    pub durations: DurationModel,
    /// Vertex or instance name -> error message: that vertex fails (after running its duration).
    pub failures: BTreeMap<String, String>,
    pub expander: Option<Box<dyn Expander>>,
    /// Most instances one walk expands into, over all its vertices ([`MAX_WALK_INSTANCES`]).
    pub max_instances: usize,
    expanded: usize,
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
            max_instances: MAX_WALK_INSTANCES,
            expanded: 0,
            log: ScenarioLog::default(),
        }
    }

    pub fn fail(mut self, name: impl Into<String>, message: impl Into<String>) -> Self {
        self.failures.insert(name.into(), message.into());
        self
    }

    pub fn with_expander(mut self, e: impl Expander + 'static) -> Self {
        self.expander = Some(Box::new(e));
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

impl Behaviour for Scenario {
    fn execute(&mut self, _walk: &Walk, v: &VertexRef) -> Execution {
        let result = match self.failures.get(&v.name) {
            Some(msg) => Err(msg.clone()),
            None => Ok(()),
        };
        let expand = if result.is_ok() {
            let e = self.expander.as_mut().and_then(|e| e.expand(v));
            self.bounded(e)
        } else {
            None
        };
        let parent = if v.parent.is_some() {
            self.log.parent_of(&v.name)
        } else {
            None
        };
        let duration = match &expand {
            Some(Expansion::Instances(g)) => {
                let mut rec = self.log.0.borrow_mut();
                for (_, n) in g.iter() {
                    rec.parents.insert(n.clone(), v.name.clone());
                }
                Duration::ZERO
            }
            Some(Expansion::Unknown(_)) => Duration::ZERO,
            None => self.duration(&v.name, &v.typed.kind, parent.as_deref()),
        };
        self.log.0.borrow_mut().given.insert(v.task, duration);
        Execution {
            duration,
            result,
            expand,
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
}

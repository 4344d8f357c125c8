//! A vertex's evaluation steps as the page shows them, before and during a walk: the details
//! panel's one list of them ([`panel`]: each step's name, sentence, what it reads and writes, its
//! planned or measured time, where the walk is or stopped), the step drawn on a running vertex,
//! and the timeline's rows of one task opened into its steps. Built from what the walk's scenario
//! planned for each task ([`crate::walk::steps`]), read at the walk's current time.

use super::inside::io;
use crate::inside::steps::{Phase, WALK_SUBGRAPH_ID};
use crate::walk::steps::{StepRun, StepSpan, StepStatus, current_step};
use std::time::Duration;

/// Where a step is at the time shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepState {
    /// Its task has not reached it.
    Pending,
    Running,
    Done,
    /// The injected failure happened here.
    Failed,
    /// An earlier step failed (or, for a walk of instances, none were known).
    NotRun,
}

impl StepState {
    pub fn css(self) -> &'static str {
        match self {
            StepState::Pending => "pending",
            StepState::Running => "running",
            StepState::Done => "done",
            StepState::Failed => "failed",
            StepState::NotRun => "not-run",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            StepState::Pending => "not reached yet",
            StepState::Running => "running",
            StepState::Done => "done",
            StepState::Failed => "failed here",
            StepState::NotRun => "not run",
        }
    }
}

/// One step of one task, in simulated seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct StepLine {
    pub id: &'static str,
    pub name: &'static str,
    pub sentence: &'static str,
    /// `Receiver.method (file.go)`.
    pub go: String,
    /// What it reads: `prior state, configuration`, or `nothing`.
    pub reads: String,
    /// What it writes, the same way.
    pub writes: String,
    /// Run by each vertex of the sub-graph (an expanding vertex's list before the walk, where
    /// its instances' steps stand in place of the walk of its sub-graph).
    pub each_instance: bool,
    /// `provider`, `evaluate`, … ([`crate::inside::StepKind::as_str`]).
    pub kind: &'static str,
    /// When it started, `None` if it never did.
    pub start: Option<f64>,
    /// When it ended, `None` while it runs (a walk of instances has no planned end) or if it
    /// never ran.
    pub end: Option<f64>,
    /// How long it takes as planned (a walk of instances: 0, it lasts as long as they do).
    pub duration: f64,
    pub state: StepState,
}

impl StepLine {
    /// "1.2 s – 3.4 s (2.2 s)", "at 1.2 s" (no time at all), "from 1.2 s", "takes 2.0 s" (not
    /// reached yet), "—" (not run).
    pub fn timing(&self) -> String {
        match (self.start, self.end, self.state) {
            (Some(s), Some(e), _) if e <= s => format!("at {s:.1} s"),
            (Some(s), Some(e), _) => format!("{s:.1} s – {e:.1} s ({})", secs(e - s)),
            (Some(s), None, _) => format!("from {s:.1} s"),
            (None, _, StepState::Pending) => format!("takes {}", secs(self.duration)),
            _ => "—".into(),
        }
    }
}

/// Seconds as a step's length reads: one decimal, two below a second (a check takes 0.05 s).
fn secs(x: f64) -> String {
    if x < 1.0 {
        format!("{x:.2} s")
    } else {
        format!("{x:.1} s")
    }
}

/// Whether a step can be made to fail (`NAME@STEP`): any but the walk of a vertex's instances,
/// whose failures are its instances'.
pub fn can_fail(id: &str) -> bool {
    id != WALK_SUBGRAPH_ID
}

/// The steps of a task that got its permit at `started` (`None`: not yet), read at `now`:
/// `finished` is when the task finished, `failed` whether it failed (a walk of instances ends
/// then, failed if the vertex did).
pub fn lines(
    runs: &[StepRun],
    started: Option<Duration>,
    finished: Option<Duration>,
    failed: bool,
    now: Duration,
) -> Vec<StepLine> {
    let current = started.and_then(|s| current_step(runs, s, now));
    runs.iter()
        .enumerate()
        .map(|(i, r)| {
            let start = started.map(|s| s + r.offset);
            let planned_end = start.map(|s| s + r.duration);
            let (start, end, state) = match (r.status, start) {
                (StepStatus::NotRun, _) | (_, None) => {
                    let state = if r.status == StepStatus::NotRun {
                        StepState::NotRun
                    } else {
                        StepState::Pending
                    };
                    (None, None, state)
                }
                (_, Some(s)) if now < s => (Some(s), None, StepState::Pending),
                (status, Some(s)) if r.walks_instances() => match finished {
                    Some(f) if f <= now => (
                        Some(s),
                        Some(f),
                        if failed || status == StepStatus::Failed {
                            StepState::Failed
                        } else {
                            StepState::Done
                        },
                    ),
                    _ => (Some(s), None, StepState::Running),
                },
                (status, Some(s)) => {
                    let e = planned_end.unwrap_or(s);
                    if current == Some(i) || now < e {
                        (Some(s), None, StepState::Running)
                    } else if status == StepStatus::Failed {
                        (Some(s), Some(e), StepState::Failed)
                    } else {
                        (Some(s), Some(e), StepState::Done)
                    }
                }
            };
            // Not yet begun: no start shown either.
            let start = if state == StepState::Pending {
                None
            } else {
                start
            };
            StepLine {
                id: r.step.id,
                name: r.step.name,
                sentence: r.step.sentence,
                go: r.step.go.to_string(),
                reads: io(r.step.reads),
                writes: io(r.step.writes),
                each_instance: r.step.phase == Phase::Instance,
                kind: r.step.kind.as_str(),
                start: start.map(|d| d.as_secs_f64()),
                end: end.map(|d| d.as_secs_f64()),
                duration: r.duration.as_secs_f64(),
                state,
            }
        })
        .collect()
}

/// One task's steps in the details panel: the vertex itself or one of its instances.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSteps {
    pub task: u32,
    pub name: String,
    pub instance: bool,
    pub lines: Vec<StepLine>,
}

impl TaskSteps {
    /// The step it failed at, if the failure was injected at one.
    pub fn failed_at(&self) -> Option<&StepLine> {
        self.lines
            .iter()
            .find(|l| l.state == StepState::Failed && l.id != WALK_SUBGRAPH_ID)
    }

    /// The step running now.
    pub fn running(&self) -> Option<&StepLine> {
        self.lines
            .iter()
            .find(|l| l.state == StepState::Running && l.id != WALK_SUBGRAPH_ID)
    }
}

/// The details panel's one list of a vertex's steps: what it runs when the walk reaches it
/// ([`crate::page::inside`]'s Go type and walk) with each step's time and state
/// ([`lines`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// `Evaluation in the plan walk (walkPlan): 9 steps`, or `Steps in the walk` for a vertex the
    /// engine knows nothing of (an imported graph).
    pub heading: String,
    /// `Run by nodeExpandPlannableResource (node_resource_plan.go)`, and its sub-graph's type.
    pub run_by: Option<String>,
    /// Before the walk reaches the vertex: planned durations.
    pub before: bool,
    /// The vertex's steps, and during a walk its instances' (one task each).
    pub tasks: Vec<TaskSteps>,
}

/// The panel of a vertex whose steps are `tasks` (`before`: planned, the walk has not reached
/// it) and whose inside is `inside` ([`crate::page::inside::of_vertex`]).
pub fn panel(
    inside: Option<&crate::page::inside::Inside>,
    tasks: Vec<TaskSteps>,
    before: bool,
) -> Panel {
    let count = tasks
        .first()
        .map_or(0, |t| t.lines.iter().filter(|l| !l.each_instance).count());
    let heading = match inside {
        Some(i) => format!(
            "Evaluation in {}: {count} {}",
            i.walk,
            if count == 1 { "step" } else { "steps" }
        ),
        None => "Steps in the walk".to_string(),
    };
    let run_by = inside.map(|i| match &i.instance {
        Some((go, _)) => format!(
            "Run by {}; each vertex of its sub-graph by {go} (its steps are marked “each instance”).",
            i.go
        ),
        None => format!("Run by {}.", i.go),
    });
    Panel {
        heading,
        run_by,
        before,
        tasks,
    }
}

/// One bar of a timeline row opened into its steps: the step's name, and its span (seconds;
/// `end` `None` while it runs: drawn to the axis's end and covered past "now").
#[derive(Debug, Clone, PartialEq)]
pub struct StepBar {
    pub id: &'static str,
    pub name: &'static str,
    pub start: f64,
    pub end: Option<f64>,
    pub state: StepState,
}

/// The timeline's bars of a task's steps ([`crate::walk::steps::spans`]: as planned when it got
/// its permit, so a bar is drawn once and the cover past "now" hides what has not happened yet).
/// Zero-length steps are left out (nothing to draw), except the one it failed at; steps that did
/// not run have no bar.
pub fn bars(spans: &[StepSpan]) -> Vec<StepBar> {
    spans
        .iter()
        .filter_map(|s| {
            let start = s.start?.as_secs_f64();
            let end = s.end.map(|e| e.as_secs_f64());
            let state = match s.status {
                StepStatus::Failed => StepState::Failed,
                StepStatus::NotRun => return None,
                StepStatus::Done if end.is_none() => StepState::Running,
                StepStatus::Done => StepState::Done,
            };
            let zero = end.is_some_and(|e| e <= start);
            (!zero || state == StepState::Failed).then_some(StepBar {
                id: s.step.id,
                name: s.step.name,
                start,
                end,
                state,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addrs::ResourceMode;
    use crate::inside::steps::{GoNode, Operation, evaluation};
    use crate::walk::steps::plan;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn runs(fail: Option<&str>) -> Vec<StepRun> {
        let steps = evaluation(
            GoNode::PlannableInstance(ResourceMode::Managed),
            Operation::Plan,
        )
        .steps;
        let at = fail.and_then(|f| steps.iter().position(|s| s.id == f));
        plan(&steps, secs(10), |_| None, at, false)
    }

    #[test]
    fn at_a_time_the_steps_before_are_done_one_runs_and_the_rest_wait() {
        let r = runs(None);
        let plan_change = r.iter().position(|s| s.step.id == "plan-change").unwrap();
        let mid = secs(5) + r[plan_change].offset + r[plan_change].duration / 2;
        let l = lines(&r, Some(secs(5)), None, false, mid);
        assert_eq!(l[plan_change].state, StepState::Running);
        assert_eq!(
            l[plan_change].name,
            "Ask the provider for the planned change"
        );
        assert_eq!(l[plan_change].end, None);
        assert!(l[..plan_change].iter().all(|s| s.state == StepState::Done));
        assert!(
            l[plan_change + 1..]
                .iter()
                .all(|s| s.state == StepState::Pending && s.start.is_none())
        );
        let done = &l[plan_change - 1];
        assert!(done.timing().ends_with(" s)"), "{}", done.timing());
        assert!(l[0].timing().starts_with("at "), "{}", l[0].timing());
        assert!(l[1].timing().ends_with("(0.05 s)"), "{}", l[1].timing());
        assert!(!can_fail("walk-subgraph") && can_fail("plan-change"));
        let t = TaskSteps {
            task: 0,
            name: "x".into(),
            instance: false,
            lines: l,
        };
        assert_eq!(t.running().map(|s| s.id), Some("plan-change"));
        // Before it started nothing has a time.
        let l = lines(&r, None, None, false, secs(100));
        assert!(l.iter().all(|s| s.state == StepState::Pending));
    }

    // Issue 15: before a walk the details showed two lists of the same steps, "Evaluation in
    // plan" (reads and writes) and "Steps in the walk" (durations, "fail here"). One list now
    // carries both: every step the evaluation lists, with what it reads and writes and its time.
    #[test]
    fn one_list_holds_the_evaluation_and_the_walks_steps() {
        use crate::page::analysis::{Options, analyze};
        let files = std::collections::BTreeMap::from([(
            "main.tf".to_string(),
            "resource \"aws_instance\" \"web\" {\n  count = 2\n}\n".to_string(),
        )]);
        let a = analyze(
            &files,
            crate::builder::BuilderKind::Plan,
            &Options::default(),
        );
        let setup = crate::page::walk::Setup {
            steps: a.step_table.clone(),
            ..Default::default()
        };
        let name = "aws_instance.web (expand)";
        let kind = a.graph.as_ref().unwrap().vertices()
            [a.graph.as_ref().unwrap().index_of(name).unwrap()]
        .typed
        .kind
        .clone();
        let inside = crate::page::inside::of_vertex(&a, name).unwrap();
        let lines = setup.planned_steps(name, &kind);
        let p = panel(
            Some(&inside),
            vec![TaskSteps {
                task: u32::MAX,
                name: name.into(),
                instance: false,
                lines,
            }],
            true,
        );
        let own: Vec<_> = inside
            .steps
            .iter()
            .filter(|s| s.name != "Walk the sub-graph")
            .collect();
        assert_eq!(
            p.heading,
            format!(
                "Evaluation in the plan walk (walkPlan): {} steps",
                own.len()
            )
        );
        assert_eq!(
            p.run_by.as_deref(),
            Some(
                "Run by nodeExpandPlannableResource (node_resource_plan.go); each vertex of its \
                 sub-graph by NodePlannableResourceInstance (its steps are marked “each instance”)."
            )
        );
        let lines = &p.tasks[0].lines;
        let (mine, each): (Vec<_>, Vec<_>) = lines.iter().partition(|l| !l.each_instance);
        let row = |l: &StepLine| {
            (
                l.name,
                l.sentence,
                l.reads.clone(),
                l.writes.clone(),
                l.go.clone(),
            )
        };
        let want = |r: &crate::page::inside::StepRow| {
            (
                r.name,
                r.sentence,
                r.reads.clone(),
                r.writes.clone(),
                r.go.clone(),
            )
        };
        assert_eq!(
            mine.iter().map(|l| row(l)).collect::<Vec<_>>(),
            own.iter().map(|r| want(r)).collect::<Vec<_>>()
        );
        let (_, inst) = inside.instance.as_ref().unwrap();
        assert_eq!(
            each.iter().map(|l| row(l)).collect::<Vec<_>>(),
            inst.iter().map(want).collect::<Vec<_>>()
        );
        assert!(lines.iter().any(|l| l.reads.contains("prior state")));
        assert!(lines.iter().all(|l| l.timing().starts_with("takes ")));
        assert!(lines.iter().all(|l| can_fail(l.id)));
        // A vertex the engine knows nothing of.
        assert_eq!(panel(None, vec![], true).heading, "Steps in the walk");
    }

    #[test]
    fn a_failed_task_shows_where_it_stopped() {
        let r = runs(Some("plan-change"));
        let end = crate::walk::steps::run_time(&r);
        let l = lines(&r, Some(secs(0)), Some(end), true, secs(60));
        let t = TaskSteps {
            task: 0,
            name: "x".into(),
            instance: false,
            lines: l,
        };
        let f = t.failed_at().unwrap();
        assert_eq!(f.id, "plan-change");
        assert_eq!(f.end, Some(end.as_secs_f64()));
        assert!(
            t.lines
                .iter()
                .skip_while(|s| s.id != "plan-change")
                .skip(1)
                .all(|s| s.state == StepState::NotRun && s.timing() == "—")
        );
        let b = bars(&crate::walk::steps::spans(&r, secs(0), Some(end), true));
        assert_eq!(b.last().map(|b| b.id), Some("plan-change"));
        // Zero-length steps have no bar.
        assert!(b.iter().all(|b| b.id != "get-provider"));
    }
}

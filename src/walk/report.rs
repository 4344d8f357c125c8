//! A finished walk as people read it: the event log with a summary (text or JSON), a parallelism
//! sweep as a table, and the `--sweep` range syntax. `tfgraph walk` prints these; they are plain
//! strings and JSON values so any front end can show the same figures.

use super::steps::{StepStatus, parse_failure};
use super::walker::{TaskId, TaskInfo, Transition, WalkResult};
use std::time::Duration;

/// Seconds with millisecond precision, as the log prints times: `12.000s`.
pub fn secs(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

/// The parallelisms of a sweep: an inclusive range `1..32` (also `1..=32`) or a list `1,2,4`.
/// Every value is at least 1; a range spans at most 100,000 values.
pub fn parse_sweep(s: &str) -> Result<Vec<usize>, String> {
    let bad = || format!("invalid --sweep {s:?}: expected a range like 1..32 or a list like 1,2,4");
    let num = |x: &str| x.trim().parse::<usize>().map_err(|_| bad());
    let ps: Vec<usize> = match s.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b.trim_start_matches('='))?);
            if a == 0 || a > b || b - a > 100_000 {
                return Err(bad());
            }
            (a..=b).collect()
        }
        None => s.split(',').map(num).collect::<Result<_, _>>()?,
    };
    if ps.is_empty() || ps.contains(&0) {
        return Err(bad());
    }
    Ok(ps)
}

/// A sweep ([`super::sweep_with`]) as a two-column table, one line per parallelism.
pub fn sweep_text(rows: &[(usize, Duration)]) -> String {
    let mut out = String::from("parallelism  makespan\n");
    for (p, m) in rows {
        out.push_str(&format!("{p:>11}  {}\n", secs(*m)));
    }
    out
}

/// A sweep as a JSON array of `{"parallelism": P, "makespan": SECONDS}`.
pub fn sweep_json(rows: &[(usize, Duration)]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|(p, m)| serde_json::json!({"parallelism": p, "makespan": m.as_secs_f64()}))
            .collect(),
    )
}

/// How the tasks of a walk ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub done: usize,
    pub failed: usize,
    pub upstream_failed: usize,
    /// Never finished: left waiting on a cycle.
    pub unfinished: usize,
    /// `(vertex name, reason)` of every vertex whose instances could not be known statically.
    pub instances_unknown: Vec<(String, String)>,
}

impl Outcome {
    pub fn of(r: &WalkResult) -> Self {
        let count =
            |f: &dyn Fn(&Transition) -> bool| r.tasks.iter().filter(|t| f(&t.status)).count();
        Outcome {
            done: count(&|s| *s == Transition::Done),
            failed: count(&|s| matches!(s, Transition::Failed(_))),
            upstream_failed: count(&|s| *s == Transition::UpstreamFailed),
            unfinished: count(&|s| !s.is_finished()),
            instances_unknown: r
                .events
                .iter()
                .filter_map(|e| match &e.transition {
                    Transition::InstancesUnknown(w) => Some((e.name.clone(), w.clone())),
                    _ => None,
                })
                .collect(),
        }
    }
}

/// The names among `wanted` (say, the vertices asked to fail) that no task of the walk had.
pub fn not_walked<'a>(r: &WalkResult, wanted: &'a [String]) -> Vec<&'a str> {
    wanted
        .iter()
        .filter(|w| !r.tasks.iter().any(|t| &t.name == *w))
        .map(String::as_str)
        .collect()
}

/// The failures among `specs` (`ADDR` or `ADDR@STEP`, as `--fail` takes them) that did not
/// happen, each with why: no vertex or instance of that name was walked, or it has no step of
/// that id (nor, for an expanding vertex, do its instances).
pub fn unmatched_failures<'a>(r: &WalkResult, specs: &'a [String]) -> Vec<(&'a str, String)> {
    specs
        .iter()
        .filter_map(|spec| {
            let (name, step) = parse_failure(spec);
            let Some(t) = r.tasks.iter().find(|t| t.name == name) else {
                return Some((
                    spec.as_str(),
                    "no vertex or instance of that name was walked".to_string(),
                ));
            };
            let step = step?;
            let has = |t: &TaskInfo| t.steps.iter().any(|s| s.step.id == step);
            let found = has(t)
                || t.children
                    .iter()
                    .any(|c| r.tasks.get(c.index()).is_some_and(has));
            // A vertex that never got to run has no steps to look at.
            (!found && t.started.is_some()).then(|| {
                let mut ids: Vec<&str> = t.steps.iter().map(|s| s.step.id).collect();
                ids.dedup();
                (
                    spec.as_str(),
                    format!(
                        "{name} has no step {step:?} (its steps: {})",
                        ids.join(", ")
                    ),
                )
            })
        })
        .collect()
}

/// The step a failed task failed at, if the failure was injected at one.
pub fn failed_step(t: &TaskInfo) -> Option<&'static str> {
    t.steps
        .iter()
        .find(|s| s.status == StepStatus::Failed)
        .map(|s| s.step.id)
}

/// A task's steps as JSON: id, name, Go function, kind, start and end (seconds; `null` for a step
/// that did not run, and for the end of a walk of instances still going on), status.
pub fn steps_json(t: &TaskInfo) -> serde_json::Value {
    serde_json::Value::Array(
        t.step_spans()
            .iter()
            .map(|s| {
                serde_json::json!({
                    "id": s.step.id,
                    "name": s.step.name,
                    "go": s.step.go.func,
                    "go_file": s.step.go.path(),
                    "kind": s.step.kind,
                    "start": s.start.map(|d| d.as_secs_f64()),
                    "end": s.end.map(|d| d.as_secs_f64()),
                    "status": s.status,
                })
            })
            .collect(),
    )
}

fn task_name(r: &WalkResult, t: TaskId) -> &str {
    r.tasks.get(t.index()).map_or("?", |x| x.name.as_str())
}

fn ran_for(r: &WalkResult, t: TaskId) -> Duration {
    r.tasks
        .get(t.index())
        .map(|x| x.ran_for)
        .unwrap_or_default()
}

/// The event log ([`WalkResult::log_text`]), a blank line and the summary: parallelism,
/// makespan, the critical path with each vertex's run time, total work, highest concurrency,
/// utilisation and how the tasks ended.
pub fn report_text(r: &WalkResult) -> String {
    let m = r.metrics();
    let o = Outcome::of(r);
    let mut out = r.log_text();
    out.push('\n');
    out.push_str("Summary\n");
    out.push_str(&format!("  parallelism          {}\n", r.parallelism));
    out.push_str(&format!("  makespan             {}\n", secs(m.makespan)));
    out.push_str(&format!(
        "  critical path        {} over {} vertices\n",
        secs(m.critical_path_length),
        m.critical_path.len()
    ));
    for t in &m.critical_path {
        out.push_str(&format!(
            "    {:>10}  {}\n",
            secs(ran_for(r, *t)),
            task_name(r, *t)
        ));
    }
    out.push_str(&format!("  total work           {}\n", secs(m.total_work)));
    out.push_str(&format!("  highest concurrency  {}\n", m.max_concurrency));
    out.push_str(&format!(
        "  utilisation          {:.1}%\n",
        m.utilisation * 100.0
    ));
    for t in &r.tasks {
        if let (Transition::Failed(m), Some(step)) = (&t.status, failed_step(t)) {
            out.push_str(&format!(
                "  failed at a step     {} at {step}: {m}\n",
                t.name
            ));
        }
    }
    out.push_str(&format!(
        "  tasks                {} ({} done, {} failed, {} upstream failed, {} instance sets unknown{})\n",
        r.tasks.len(),
        o.done,
        o.failed,
        o.upstream_failed,
        o.instances_unknown.len(),
        if o.unfinished > 0 {
            format!(", {} never finished (cycle)", o.unfinished)
        } else {
            String::new()
        }
    ));
    out
}

/// The same as [`report_text`] as JSON: `{"events": [...], "summary": {...}}`.
pub fn report_json(r: &WalkResult) -> serde_json::Value {
    let m = r.metrics();
    let o = Outcome::of(r);
    let events: Vec<_> = r
        .events
        .iter()
        .map(|e| {
            serde_json::json!({
                "time": e.time.as_secs_f64(),
                "task": e.task,
                "name": e.name,
                "transition": e.transition,
            })
        })
        .collect();
    let path: Vec<_> = m
        .critical_path
        .iter()
        .map(|t| {
            serde_json::json!({
                "task": t,
                "name": task_name(r, *t),
                "duration": ran_for(r, *t).as_secs_f64(),
            })
        })
        .collect();
    let tasks: Vec<_> = r
        .tasks
        .iter()
        .map(|t| {
            serde_json::json!({
                "task": t.task,
                "name": t.name,
                "parent": t.parent.map(|p| task_name(r, p)),
                "status": t.status,
                "started": t.started.map(|d| d.as_secs_f64()),
                "finished": t.finished.map(|d| d.as_secs_f64()),
                "failed_step": failed_step(t),
                "steps": steps_json(t),
            })
        })
        .collect();
    serde_json::json!({
        "events": events,
        "tasks": tasks,
        "summary": {
            "parallelism": r.parallelism,
            "makespan": m.makespan.as_secs_f64(),
            "critical_path_length": m.critical_path_length.as_secs_f64(),
            "critical_path": path,
            "total_work": m.total_work.as_secs_f64(),
            "max_concurrency": m.max_concurrency,
            "utilisation": m.utilisation,
            "tasks": r.tasks.len(),
            "done": o.done,
            "failed": o.failed,
            "upstream_failed": o.upstream_failed,
            "unfinished": o.unfinished,
            "instances_unknown": o
                .instances_unknown
                .iter()
                .map(|(n, w)| serde_json::json!({"name": n, "reason": w}))
                .collect::<Vec<_>>(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::Graph;
    use crate::walk::{DurationModel, Scenario, WalkOptions, simulate};

    #[test]
    fn sweeps_are_ranges_or_lists_of_positive_numbers() {
        assert_eq!(parse_sweep("1..4"), Ok(vec![1, 2, 3, 4]));
        assert_eq!(parse_sweep("2..=3"), Ok(vec![2, 3]));
        assert_eq!(parse_sweep("1, 2,8"), Ok(vec![1, 2, 8]));
        for bad in ["0..2", "3..1", "1..200000", "1,0", "", "a", "1..x"] {
            let e = parse_sweep(bad).unwrap_err();
            assert!(e.starts_with("invalid --sweep "), "{bad}: {e}");
        }
    }

    #[test]
    fn a_sweep_table_has_one_right_aligned_row_per_parallelism() {
        let rows = [
            (1, Duration::from_millis(2500)),
            (16, Duration::from_secs(1)),
        ];
        assert_eq!(
            sweep_text(&rows),
            "parallelism  makespan\n          1  2.500s\n         16  1.000s\n"
        );
        assert_eq!(
            sweep_json(&rows).to_string(),
            r#"[{"makespan":2.5,"parallelism":1},{"makespan":1.0,"parallelism":16}]"#
        );
    }

    /// `b` depends on `a`; `a` fails, so `b` is upstream-failed.
    fn failed_walk() -> WalkResult {
        let mut g = Graph::new();
        let a = g.add("a".to_string());
        let b = g.add("b".to_string());
        g.connect(b, a);
        let model = DurationModel::default().with_jitter(0.0);
        simulate(
            &g,
            &WalkOptions::with_parallelism(2),
            Scenario::new(model).fail("a", "boom"),
        )
    }

    #[test]
    fn the_summary_counts_how_tasks_ended() {
        let r = failed_walk();
        let o = Outcome::of(&r);
        assert_eq!(
            (o.done, o.failed, o.upstream_failed, o.unfinished),
            (0, 1, 1, 0)
        );
        let text = report_text(&r);
        assert!(text.starts_with(&r.log_text()), "{text}");
        assert!(
            text.contains("\nSummary\n  parallelism          2\n"),
            "{text}"
        );
        assert!(
            text.ends_with(
                "  tasks                2 (0 done, 1 failed, 1 upstream failed, 0 instance sets unknown)\n"
            ),
            "{text}"
        );
        let json = report_json(&r);
        assert_eq!(json["summary"]["failed"], 1);
        assert_eq!(json["summary"]["upstream_failed"], 1);
        assert_eq!(
            json["events"].as_array().map(Vec::len),
            Some(r.events.len())
        );
    }

    #[test]
    fn names_that_no_task_had_are_reported() {
        let r = failed_walk();
        let wanted = vec!["a".to_string(), "zzz".to_string()];
        assert_eq!(not_walked(&r, &wanted), vec!["zzz"]);
    }
}

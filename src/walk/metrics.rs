//! Figures computed from a finished walk: makespan, critical path, work, concurrency.

use super::walker::{TaskId, Transition, WalkResult};
use std::collections::VecDeque;
use std::time::Duration;

/// Summary figures of a walk.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Metrics {
    /// Time of the last event.
    pub makespan: Duration,
    /// Sum of the time every task held a permit.
    pub total_work: Duration,
    /// The longest chain of tasks, weighted by the time each held a permit, through the
    /// dependencies the walk honoured (an instance follows its expanding vertex's own run, and an
    /// expanded vertex finishes after all its instances). First task first.
    pub critical_path: Vec<TaskId>,
    pub critical_path_length: Duration,
    /// Most tasks holding a permit at the same moment.
    pub max_concurrency: usize,
    /// `total_work / (parallelism * makespan)`, 0 for an empty walk.
    pub utilisation: f64,
}

impl WalkResult {
    pub fn makespan(&self) -> Duration {
        self.events.iter().map(|e| e.time).max().unwrap_or_default()
    }

    pub fn total_work(&self) -> Duration {
        self.tasks
            .iter()
            .fold(Duration::ZERO, |acc, t| acc.saturating_add(t.ran_for))
    }

    /// Most tasks running at once, replaying the log (a task runs from its `Running` event to the
    /// next event of that task).
    pub fn max_concurrency(&self) -> usize {
        let mut running = vec![false; self.tasks.len()];
        let (mut now, mut max) = (0usize, 0usize);
        for e in &self.events {
            let Some(r) = running.get_mut(e.task.index()) else {
                continue;
            };
            if e.transition == Transition::Running {
                *r = true;
                now += 1;
                max = max.max(now);
            } else if *r {
                *r = false;
                now -= 1;
            }
        }
        max
    }

    /// The critical path (tasks, first first) and its length. Longest path over a graph with two
    /// nodes per task, "own run ended" (weight: its run time) and "finished" (weight 0), computed
    /// in Kahn order; tasks left on a cycle are ignored.
    pub fn critical_path(&self) -> (Vec<TaskId>, Duration) {
        let n = self.tasks.len();
        let own = |t: usize| 2 * t;
        let fin = |t: usize| 2 * t + 1;
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); 2 * n];
        let mut indeg = vec![0usize; 2 * n];
        let mut add = |a: usize, b: usize, succ: &mut Vec<Vec<usize>>| {
            succ[a].push(b);
            indeg[b] += 1;
        };
        for (i, t) in self.tasks.iter().enumerate() {
            for d in &t.deps {
                add(fin(d.index()), own(i), &mut succ);
            }
            if let Some(p) = t.parent {
                add(own(p.index()), own(i), &mut succ);
                add(fin(i), fin(p.index()), &mut succ);
            }
            add(own(i), fin(i), &mut succ);
        }
        let weight = |node: usize| {
            if node.is_multiple_of(2) {
                self.tasks[node / 2].ran_for
            } else {
                Duration::ZERO
            }
        };
        let mut dist: Vec<Duration> = (0..2 * n).map(weight).collect();
        let mut pred: Vec<Option<usize>> = vec![None; 2 * n];
        let mut queue: VecDeque<usize> = (0..2 * n).filter(|x| indeg[*x] == 0).collect();
        while let Some(a) = queue.pop_front() {
            for &b in &succ[a] {
                let cand = dist[a].saturating_add(weight(b));
                if cand > dist[b] || (pred[b].is_none() && cand == dist[b]) {
                    dist[b] = cand;
                    pred[b] = Some(a);
                }
                indeg[b] -= 1;
                if indeg[b] == 0 {
                    queue.push_back(b);
                }
            }
        }
        let Some(end) = (0..n)
            .map(fin)
            .max_by_key(|x| (dist[*x], std::cmp::Reverse(*x)))
        else {
            return (Vec::new(), Duration::ZERO);
        };
        let mut path = Vec::new();
        let mut cur = Some(end);
        while let Some(node) = cur {
            let t = TaskId((node / 2) as u32);
            // Count a task once, where its own run is, and leave out zero-work padding at the ends.
            if node.is_multiple_of(2) && path.last() != Some(&t) {
                path.push(t);
            }
            cur = pred[node];
        }
        path.reverse();
        (path, dist[end])
    }

    pub fn metrics(&self) -> Metrics {
        let makespan = self.makespan();
        let total_work = self.total_work();
        let (critical_path, critical_path_length) = self.critical_path();
        let denom = self.parallelism as f64 * makespan.as_secs_f64();
        Metrics {
            makespan,
            total_work,
            critical_path,
            critical_path_length,
            max_concurrency: self.max_concurrency(),
            utilisation: if denom > 0.0 {
                total_work.as_secs_f64() / denom
            } else {
                0.0
            },
        }
    }
}

/// One task's timeline, for Gantt charts.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Span {
    pub task: TaskId,
    pub name: String,
    pub parent: Option<TaskId>,
    /// When it joined the walk.
    pub created: Duration,
    /// When its dependencies were done (it started waiting for a permit).
    pub ready: Option<Duration>,
    /// When it got its permit.
    pub started: Option<Duration>,
    /// When it released its permit.
    pub ran_until: Option<Duration>,
    /// When it finished (for an expanded vertex: after its instances).
    pub finished: Option<Duration>,
    pub outcome: Transition,
}

impl WalkResult {
    /// Every task's timeline, in task order.
    pub fn spans(&self) -> Vec<Span> {
        let mut spans: Vec<Span> = self
            .tasks
            .iter()
            .map(|t| Span {
                task: t.task,
                name: t.name.clone(),
                parent: t.parent,
                created: Duration::ZERO,
                ready: None,
                started: None,
                ran_until: None,
                finished: None,
                outcome: t.status.clone(),
            })
            .collect();
        for e in &self.events {
            let Some(s) = spans.get_mut(e.task.index()) else {
                continue;
            };
            match &e.transition {
                Transition::WaitingOnDeps => s.created = e.time,
                Transition::WaitingForPermit => s.ready = Some(e.time),
                Transition::Running => s.started = Some(e.time),
                Transition::Expanded { .. } => s.ran_until = Some(e.time),
                other => {
                    if s.started.is_some() && s.ran_until.is_none() {
                        s.ran_until = Some(e.time);
                    }
                    if other.is_finished() {
                        s.finished = Some(e.time);
                    }
                }
            }
        }
        spans
    }

    /// The event log as text, one event per line: time in seconds, vertex name, transition.
    pub fn log_text(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            let what = match &e.transition {
                Transition::WaitingOnDeps => "waiting on dependencies".to_string(),
                Transition::WaitingForPermit => "waiting for a permit".to_string(),
                Transition::Running => "running".to_string(),
                Transition::Expanded { instances } => format!("expanded into {instances}"),
                Transition::InstancesUnknown(why) => format!("instances unknown: {why}"),
                Transition::Done => "done".to_string(),
                Transition::Failed(m) => format!("failed: {m}"),
                Transition::UpstreamFailed => "upstream failed".to_string(),
                Transition::Cancelled => "cancelled".to_string(),
            };
            out.push_str(&format!(
                "{:>10.3}s  {}  {}\n",
                e.time.as_secs_f64(),
                e.name,
                what
            ));
        }
        out
    }
}

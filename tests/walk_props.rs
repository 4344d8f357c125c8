#![cfg(not(target_arch = "wasm32"))]
//! Property tests of the simulated parallel walk over random DAGs, durations and parallelism.

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use tfgraph::dag::{Graph, VertexId};
use tfgraph::walk::{
    DurationModel, Scenario, Transition, WalkOptions, WalkResult, simulate, sweep,
};

/// A random DAG: vertex `i` depends on some of the vertices before it; plus a duration per vertex
/// in whole seconds (zero allowed).
fn dag_strategy() -> impl Strategy<Value = (Vec<Vec<usize>>, Vec<u64>)> {
    (1usize..40).prop_flat_map(|n| {
        let deps = (0..n)
            .map(|i| proptest::collection::btree_set(0..i.max(1), 0..=i.min(3)))
            .collect::<Vec<_>>();
        let durs = proptest::collection::vec(0u64..20, n);
        (deps, durs).prop_map(move |(deps, durs)| {
            let deps = deps
                .into_iter()
                .enumerate()
                .map(|(i, s)| s.into_iter().filter(|d| *d < i).collect())
                .collect();
            (deps, durs)
        })
    })
}

fn name(i: usize) -> String {
    format!("test_thing.v{i}")
}

fn build(deps: &[Vec<usize>]) -> (Graph<String>, Vec<VertexId>) {
    let mut g = Graph::new();
    let ids: Vec<VertexId> = (0..deps.len()).map(|i| g.add(name(i))).collect();
    for (i, ds) in deps.iter().enumerate() {
        for d in ds {
            g.connect(ids[i], ids[*d]);
        }
    }
    (g, ids)
}

fn model(durs: &[u64]) -> DurationModel {
    let mut m = DurationModel::uniform(Duration::ZERO);
    for (i, d) in durs.iter().enumerate() {
        m.overrides.insert(name(i), Duration::from_secs(*d));
    }
    m
}

/// Longest duration-weighted dependency chain, computed directly from the inputs.
fn static_critical_path(deps: &[Vec<usize>], durs: &[u64]) -> Duration {
    let mut finish = vec![0u64; deps.len()];
    for i in 0..deps.len() {
        let start = deps[i].iter().map(|d| finish[*d]).max().unwrap_or(0);
        finish[i] = start + durs[i];
    }
    Duration::from_secs(finish.into_iter().max().unwrap_or(0))
}

fn run(deps: &[Vec<usize>], durs: &[u64], p: usize) -> (WalkResult, Vec<VertexId>) {
    let (g, ids) = build(deps);
    let r = simulate(
        &g,
        &WalkOptions::with_parallelism(p),
        Scenario::new(model(durs)),
    );
    (r, ids)
}

/// Checks the log against the dependency rule and the permit limit.
fn check_log(r: &WalkResult, p: usize) -> Result<(), TestCaseError> {
    let mut finished_at: BTreeMap<usize, (usize, Duration)> = BTreeMap::new();
    let mut running = 0usize;
    let mut is_running = vec![false; r.tasks.len()];
    let mut last_time = Duration::ZERO;
    for (k, e) in r.events.iter().enumerate() {
        prop_assert!(e.time >= last_time, "log out of time order");
        last_time = e.time;
        let t = e.task.index();
        match &e.transition {
            Transition::Running => {
                running += 1;
                is_running[t] = true;
                prop_assert!(running <= p, "{running} running with parallelism {p}");
                for d in &r.tasks[t].deps {
                    let Some((dk, dt)) = finished_at.get(&d.index()) else {
                        return Err(TestCaseError::fail(format!(
                            "{} started before dependency {} finished",
                            e.name,
                            r.tasks[d.index()].name
                        )));
                    };
                    prop_assert!(*dk < k && *dt <= e.time);
                }
            }
            other => {
                if is_running[t] {
                    is_running[t] = false;
                    running -= 1;
                }
                if other.is_finished() {
                    finished_at.insert(t, (k, e.time));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn schedule_bounds((deps, durs) in dag_strategy(), p in 1usize..8) {
        let (r, _) = run(&deps, &durs, p);
        prop_assert!(r.is_complete());
        check_log(&r, p)?;
        let m = r.metrics();
        let work = Duration::from_secs(durs.iter().sum());
        prop_assert_eq!(m.total_work, work);
        prop_assert_eq!(m.critical_path_length, static_critical_path(&deps, &durs));
        prop_assert!(m.max_concurrency <= p);
        let pp = p as u32;
        prop_assert!(m.makespan >= m.critical_path_length);
        prop_assert!(m.makespan * pp >= work, "makespan below work/p");
        // Graham's bound for greedy list scheduling.
        prop_assert!(
            m.makespan * pp <= work + m.critical_path_length * pp,
            "makespan {:?} above work/p + critical path ({:?}, {:?})",
            m.makespan, work, m.critical_path_length
        );
        // The reported critical path is a dependency chain of that length.
        let cp_sum: Duration = m.critical_path.iter().map(|t| r.tasks[t.index()].ran_for).sum();
        prop_assert_eq!(cp_sum, m.critical_path_length);
        for w in m.critical_path.windows(2) {
            prop_assert!(r.tasks[w[1].index()].deps.contains(&w[0]));
        }
    }

    #[test]
    fn enough_permits_reach_the_critical_path((deps, durs) in dag_strategy()) {
        let n = deps.len();
        let (wide, _) = run(&deps, &durs, n);
        let cp = static_critical_path(&deps, &durs);
        prop_assert_eq!(wide.makespan(), cp);
        // Any parallelism at least the widest concurrency the unlimited walk used does too.
        let width = wide.max_concurrency().max(1);
        let (r, _) = run(&deps, &durs, width);
        prop_assert_eq!(r.makespan(), cp);
        // And the sweep agrees, never getting worse as permits are added... at these points.
        let s = sweep(&build(&deps).0, &model(&durs), [1, width, n]);
        prop_assert_eq!(s[1].1, cp);
        prop_assert!(s[0].1 >= s[1].1);
    }

    #[test]
    fn same_seed_same_log((deps, _) in dag_strategy(), p in 1usize..6, seed in any::<u64>()) {
        let (g, _) = build(&deps);
        let go = |seed: u64| simulate(
            &g,
            &WalkOptions::with_parallelism(p),
            Scenario::new(DurationModel::uniform(Duration::from_secs(10)).with_jitter(0.5).with_seed(seed)),
        ).events;
        prop_assert_eq!(go(seed), go(seed));
    }

    #[test]
    fn failure_skips_descendants_only(
        (deps, durs) in dag_strategy(),
        p in 1usize..6,
        pick in any::<prop::sample::Index>(),
    ) {
        let n = deps.len();
        let f = pick.index(n);
        let (g, ids) = build(&deps);
        let r = simulate(
            &g,
            &WalkOptions::with_parallelism(p),
            Scenario::new(model(&durs)).fail(name(f), "injected"),
        );
        prop_assert!(r.is_complete());
        // Descendants: everything that depends on f, directly or not.
        let mut desc: BTreeSet<usize> = BTreeSet::new();
        for (i, ds) in deps.iter().enumerate() {
            if ds.iter().any(|d| *d == f || desc.contains(d)) {
                desc.insert(i);
            }
        }
        let started: BTreeSet<usize> = r
            .started_order()
            .iter()
            .map(|t| ids.iter().position(|v| *v == r.tasks[t.index()].vertex).unwrap_or(usize::MAX))
            .collect();
        for (i, id) in ids.iter().enumerate() {
            let o = r.outcome(*id).cloned();
            if i == f {
                prop_assert_eq!(o, Some(Transition::Failed("injected".into())));
            } else if desc.contains(&i) {
                prop_assert_eq!(o, Some(Transition::UpstreamFailed));
                prop_assert!(!started.contains(&i));
            } else {
                prop_assert_eq!(o, Some(Transition::Done));
            }
        }
        prop_assert_eq!(r.errors().len(), 1);
    }
}

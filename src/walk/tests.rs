use super::*;
use crate::dag::VertexId;
use crate::dag::import::DotVertexRead;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// a <- b <- c (c depends on b depends on a), plus d depending on a.
fn small() -> (Graph<String>, [VertexId; 4]) {
    let mut g = Graph::new();
    let a = g.add("a".to_string());
    let b = g.add("b".to_string());
    let c = g.add("c".to_string());
    let d = g.add("d".to_string());
    g.connect(b, a);
    g.connect(c, b);
    g.connect(d, a);
    (g, [a, b, c, d])
}

fn transitions(r: &WalkResult, name: &str) -> Vec<(u64, Transition)> {
    r.events
        .iter()
        .filter(|e| e.name == name)
        .map(|e| (e.time.as_secs(), e.transition.clone()))
        .collect()
}

#[test]
fn chain_with_permits_and_log() {
    let (g, [a, _, c, _]) = small();
    let r = simulate(
        &g,
        &WalkOptions::with_parallelism(1),
        Scenario::new(DurationModel::uniform(secs(2))),
    );
    assert!(r.is_complete());
    assert_eq!(
        transitions(&r, "a"),
        vec![
            (0, Transition::WaitingOnDeps),
            (0, Transition::WaitingForPermit),
            (0, Transition::Running),
            (2, Transition::Done)
        ]
    );
    // With one permit: a, then b and d (b asked first: name order), then c.
    let order: Vec<String> = r
        .started_order()
        .iter()
        .map(|t| r.tasks[t.index()].name.clone())
        .collect();
    assert_eq!(order, ["a", "b", "d", "c"]);
    let m = r.metrics();
    assert_eq!(m.makespan, secs(8));
    assert_eq!(m.total_work, secs(8));
    assert_eq!(m.critical_path_length, secs(6));
    assert_eq!(m.max_concurrency, 1);
    assert_eq!(m.utilisation, 1.0);
    let cp: Vec<VertexId> = m
        .critical_path
        .iter()
        .map(|t| r.tasks[t.index()].vertex)
        .collect();
    assert_eq!(cp.first(), Some(&a));
    assert_eq!(cp.last(), Some(&c));
    assert_eq!(r.outcome(c), Some(&Transition::Done));
}

#[test]
fn parallel_run_reaches_critical_path() {
    let (g, _) = small();
    let r = simulate(
        &g,
        &WalkOptions::default(),
        Scenario::new(DurationModel::uniform(secs(2))),
    );
    let m = r.metrics();
    assert_eq!(m.makespan, secs(6));
    assert_eq!(m.max_concurrency, 2);
    assert_eq!(
        sweep(&g, &DurationModel::uniform(secs(2)), 1..=3),
        vec![(1, secs(8)), (2, secs(6)), (3, secs(6))]
    );
}

#[test]
fn failure_cascades_upstream_failed() {
    let (g, [a, b, c, d]) = small();
    let r = simulate(
        &g,
        &WalkOptions::default(),
        Scenario::new(DurationModel::uniform(secs(1))).fail("b", "boom"),
    );
    assert_eq!(r.outcome(a), Some(&Transition::Done));
    assert_eq!(r.outcome(b), Some(&Transition::Failed("boom".into())));
    assert_eq!(r.outcome(c), Some(&Transition::UpstreamFailed));
    assert_eq!(r.outcome(d), Some(&Transition::Done));
    assert_eq!(r.errors().len(), 1);
    assert!(!transitions(&r, "c").contains(&(2, Transition::Running)));
}

#[test]
fn cancel_lets_running_finish() {
    let (g, [a, b, c, d]) = small();
    let mut exec = Executor::new();
    let walk = Walk::start(
        &exec,
        &g,
        &WalkOptions::default(),
        Scenario::new(DurationModel::uniform(secs(4))),
    );
    exec.advance_by(secs(5));
    // b and d are running (started at 4).
    walk.cancel();
    exec.run_to_end();
    let r = walk.result();
    assert_eq!(r.outcome(a), Some(&Transition::Done));
    assert_eq!(r.outcome(b), Some(&Transition::Done));
    assert_eq!(r.outcome(d), Some(&Transition::Done));
    assert_eq!(r.outcome(c), Some(&Transition::Cancelled));
    assert_eq!(r.makespan(), secs(8));
    assert!(walk.is_finished());
}

#[test]
fn cancel_while_waiting_for_a_permit_passes_it_on() {
    let mut g: Graph<String> = Graph::new();
    for n in ["a", "b", "c"] {
        g.add(n.to_string());
    }
    let mut exec = Executor::new();
    let walk = Walk::start(
        &exec,
        &g,
        &WalkOptions::with_parallelism(1),
        Scenario::new(DurationModel::uniform(secs(1))),
    );
    exec.run_until_stalled();
    walk.cancel();
    exec.run_to_end();
    let r = walk.result();
    let st: Vec<Transition> = r.tasks.iter().map(|t| t.status.clone()).collect();
    assert_eq!(
        st,
        [
            Transition::Done,
            Transition::Cancelled,
            Transition::Cancelled
        ]
    );
}

#[test]
fn stepped_driver_matches_instant_driver() {
    let (g, _) = small();
    let scenario = || {
        Scenario::new(
            DurationModel::uniform(secs(10))
                .with_seed(3)
                .with_jitter(0.5),
        )
    };
    let instant = simulate(&g, &WalkOptions::with_parallelism(2), scenario());
    let mut stepper = Stepper::new();
    stepper.set_speed(4.0);
    let walk = Walk::start(
        stepper.executor(),
        &g,
        &WalkOptions::with_parallelism(2),
        scenario(),
    );
    stepper.pause();
    assert_eq!(
        stepper.advance_by(Duration::from_millis(700)),
        Duration::ZERO
    );
    stepper.resume();
    let mut frames = 0;
    while !walk.is_finished() {
        stepper.advance_by(Duration::from_millis(16));
        frames += 1;
        assert!(frames < 100_000);
    }
    assert_eq!(walk.result(), instant);
    assert_eq!(stepper.now(), instant.makespan());
    // Single-stepping gives the same log too.
    let mut stepper = Stepper::new();
    let walk = Walk::start(
        stepper.executor(),
        &g,
        &WalkOptions::with_parallelism(2),
        scenario(),
    );
    let mut times = Vec::new();
    while let Some(t) = stepper.step_to_next_event() {
        times.push(t);
    }
    assert_eq!(walk.result(), instant);
    assert!(times.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn expansion_runs_instances_under_the_same_semaphore() {
    // Vertices of a provider, a resource and an output (by name, as a DOT file gives them).
    let mut g: Graph<DotVertexRead> = Graph::new();
    let prov = g.add(DotVertexRead::named("provider[\"x\"]"));
    let res = g.add(DotVertexRead::named("aws_instance.web (expand)"));
    let out = g.add(DotVertexRead::named("output.ip"));
    g.connect(res, prov);
    g.connect(out, res);
    let expander = |v: &VertexRef| {
        let base = v.name.strip_suffix(" (expand)")?;
        let mut sub = Graph::new();
        for i in 0..5 {
            sub.add(format!("{base}[{i}]"));
        }
        Some(sub)
    };
    let r = simulate(
        &g,
        &WalkOptions::with_parallelism(2),
        Scenario::new(DurationModel::table()).with_expander(expander),
    );
    assert!(r.is_complete());
    let parent = r.task_for(res).unwrap();
    assert_eq!(parent.children.len(), 5);
    assert_eq!(parent.status, Transition::Done);
    // provider 1s, then 5 instances of 10s two at a time: 1 + 30.
    assert_eq!(r.makespan(), secs(31));
    assert_eq!(r.max_concurrency(), 2);
    let out_t = r.task_for(out).unwrap();
    assert_eq!(out_t.started, Some(secs(31)));
    assert!(
        transitions(&r, "aws_instance.web (expand)")
            .contains(&(1, Transition::Expanded { instances: 5 }))
    );
    let m = r.metrics();
    assert_eq!(m.critical_path_length, secs(11));
    assert_eq!(m.total_work, secs(51));

    // An instance failure fails the expanded vertex and what depends on it.
    let r = simulate(
        &g,
        &WalkOptions::with_parallelism(2),
        Scenario::new(DurationModel::table())
            .with_expander(expander)
            .fail("aws_instance.web[3]", "quota"),
    );
    assert_eq!(
        r.outcome(res),
        Some(&Transition::Failed("1 of 5 instances failed".into()))
    );
    assert_eq!(r.outcome(out), Some(&Transition::UpstreamFailed));
}

/// A behaviour that changes the graph while vertices run.
struct Editor {
    g: std::rc::Rc<std::cell::RefCell<Graph<String>>>,
}

impl Behaviour for Editor {
    fn execute(&mut self, walk: &Walk, v: &VertexRef) -> Execution {
        if v.name == "a" {
            let mut g = self.g.borrow_mut();
            // Remove c, add e that d now also waits on.
            if let Some(c) = g.find_by_name("c") {
                g.remove(c);
            }
            let e = g.add("e".to_string());
            if let Some(d) = g.find_by_name("d") {
                g.connect(d, e);
            }
            walk.update(&*g);
        }
        Execution {
            duration: secs(1),
            ..Execution::default()
        }
    }
}

#[test]
fn update_mid_walk() {
    let (g, [_, _, c, d]) = small();
    let shared = std::rc::Rc::new(std::cell::RefCell::new(g.clone()));
    let r = simulate(&g, &WalkOptions::default(), Editor { g: shared.clone() });
    assert!(r.is_complete());
    assert_eq!(r.outcome(c), Some(&Transition::Cancelled));
    let e = shared.borrow().find_by_name("e").unwrap();
    assert_eq!(r.outcome(e), Some(&Transition::Done));
    // e started at 0 (it was added while a ran), so d starts at 1 after both.
    assert_eq!(r.task_for(d).unwrap().started, Some(secs(1)));
    assert_eq!(r.task_for(e).unwrap().started, Some(secs(0)));
}

#[test]
fn durations_and_seed_reproduce() {
    let (g, _) = small();
    let run = |seed| {
        simulate(
            &g,
            &WalkOptions::with_parallelism(2),
            Scenario::new(
                DurationModel::uniform(secs(10))
                    .with_seed(seed)
                    .with_jitter(0.3),
            ),
        )
        .events
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
}

#[test]
fn removal_spares_a_vertex_past_its_dependencies() {
    let mut g: Graph<String> = Graph::new();
    let ids: Vec<VertexId> = ["a", "b", "c"]
        .iter()
        .map(|n| g.add(n.to_string()))
        .collect();
    g.connect(ids[2], ids[0]);
    let mut exec = Executor::new();
    let walk = Walk::start(
        &exec,
        &g,
        &WalkOptions::with_parallelism(1),
        Scenario::new(DurationModel::uniform(secs(1))),
    );
    exec.run_until_stalled();
    assert_eq!(walk.status(TaskId(1)), Some(Transition::WaitingForPermit));
    // b waits for a permit, c on a: removing both cancels only c (as Go's Update does).
    g.remove(ids[1]);
    g.remove(ids[2]);
    walk.update(&g);
    exec.run_to_end();
    let r = walk.result();
    assert_eq!(r.outcome(ids[1]), Some(&Transition::Done));
    assert_eq!(r.outcome(ids[2]), Some(&Transition::Cancelled));
    assert_eq!(r.makespan(), secs(2));
}

#[test]
fn stepped_walk_takes_new_vertices_between_frames() {
    let (mut g, [_, b, _, _]) = small();
    let mut stepper = Stepper::new();
    let walk = Walk::start(
        stepper.executor(),
        &g,
        &WalkOptions::default(),
        Scenario::new(DurationModel::uniform(secs(1))),
    );
    assert_eq!(
        stepper.advance_by(Duration::from_millis(1500)),
        Duration::from_millis(1500)
    );
    let late = g.add("late".to_string());
    g.connect(late, b);
    walk.update(&g);
    while stepper.step_to_next_event().is_some() {}
    let r = walk.result();
    assert!(r.is_complete());
    // b ran 1..2, so late runs 2..3.
    assert_eq!(r.task_for(late).unwrap().started, Some(secs(2)));
    assert_eq!(stepper.now(), secs(3));
}

#[test]
fn cancel_during_expansion_cancels_waiting_instances() {
    let mut g: Graph<String> = Graph::new();
    let m = g.add("module.m (expand)".to_string());
    let after = g.add("output.o".to_string());
    g.connect(after, m);
    let expander = |v: &VertexRef| {
        if v.parent.is_some() {
            return None;
        }
        let mut sub = Graph::new();
        let x = sub.add("test_thing.a".to_string());
        let y = sub.add("test_thing.b".to_string());
        let z = sub.add("test_thing.c".to_string());
        // Inside the expansion, c depends on a.
        sub.connect(z, x);
        let _ = y;
        Some(sub)
    };
    let mut exec = Executor::new();
    let walk = Walk::start(
        &exec,
        &g,
        &WalkOptions::with_parallelism(1),
        Scenario::new(DurationModel::uniform(secs(10))).with_expander(expander),
    );
    exec.advance_by(secs(5));
    // a runs 0..10 (an expanding vertex takes no time); b waits for the permit, c on a.
    walk.cancel();
    exec.run_to_end();
    let r = walk.result();
    let names_status: Vec<(String, Transition)> = r
        .tasks
        .iter()
        .map(|t| (t.name.clone(), t.status.clone()))
        .collect();
    assert_eq!(
        names_status,
        vec![
            ("module.m (expand)".to_string(), Transition::Cancelled),
            ("output.o".to_string(), Transition::Cancelled),
            ("test_thing.a".to_string(), Transition::Done),
            ("test_thing.b".to_string(), Transition::Cancelled),
            ("test_thing.c".to_string(), Transition::Cancelled),
        ]
    );
    assert_eq!(r.makespan(), secs(10));
}

#[test]
fn instance_edges_are_honoured() {
    let mut g: Graph<String> = Graph::new();
    g.add("module.m (expand)".to_string());
    let expander = |v: &VertexRef| {
        if v.parent.is_some() {
            return None;
        }
        let mut sub = Graph::new();
        let x = sub.add("test_thing.a".to_string());
        let z = sub.add("test_thing.c".to_string());
        sub.connect(z, x);
        Some(sub)
    };
    let r = simulate(
        &g,
        &WalkOptions::default(),
        Scenario::new(DurationModel::uniform(secs(10))).with_expander(expander),
    );
    assert_eq!(r.makespan(), secs(20));
    let m = r.metrics();
    assert_eq!(m.critical_path_length, secs(20));
    assert_eq!(m.critical_path.len(), 3);
}

#[test]
fn a_cycle_stalls_without_panicking() {
    let mut g: Graph<String> = Graph::new();
    let a = g.add("test_thing.a".to_string());
    let b = g.add("test_thing.b".to_string());
    let c = g.add("test_thing.c".to_string());
    g.connect(a, b);
    g.connect(b, a);
    let _ = c;
    let r = simulate(
        &g,
        &WalkOptions::default(),
        Scenario::new(DurationModel::uniform(secs(10))),
    );
    assert!(!r.is_complete());
    assert_eq!(r.outcome(a), Some(&Transition::WaitingOnDeps));
    assert_eq!(r.outcome(c), Some(&Transition::Done));
    let m = r.metrics();
    assert_eq!(m.makespan, secs(10));
}

#[test]
fn spans_and_log_text() {
    let (g, _) = small();
    let r = simulate(
        &g,
        &WalkOptions::with_parallelism(1),
        Scenario::new(DurationModel::uniform(secs(2))).fail("d", "nope"),
    );
    let spans = r.spans();
    let c = spans.iter().find(|s| s.name == "c").unwrap();
    assert_eq!(
        (c.created, c.ready, c.started, c.ran_until, c.finished),
        (
            secs(0),
            Some(secs(4)),
            Some(secs(6)),
            Some(secs(8)),
            Some(secs(8))
        )
    );
    let d = spans.iter().find(|s| s.name == "d").unwrap();
    assert_eq!(d.outcome, Transition::Failed("nope".into()));
    assert_eq!((d.started, d.finished), (Some(secs(4)), Some(secs(6))));
    let text = r.log_text();
    assert!(text.starts_with("     0.000s  a  waiting on dependencies\n"));
    assert!(text.contains("     6.000s  d  failed: nope\n"), "{text}");
}

use super::*;
use crate::page::analysis::{Analysis, Options, analyze};
use crate::page::examples::{EXAMPLES, files_of};

fn example(id: &str) -> Analysis {
    let e = EXAMPLES.iter().find(|e| e.id == id).unwrap();
    analyze(&files_of(e), e.kind, &Options::default())
}

fn setup(a: &Analysis) -> Setup {
    Setup {
        expander: a.expander.as_ref().map(|e| e.expander.clone()),
        steps: a.step_table.clone(),
        ..Setup::default()
    }
}

fn run_to_end(rt: &mut WalkRt) -> Vec<Frame> {
    let mut frames = vec![rt.collect(true)];
    for _ in 0..10_000 {
        if !rt.step() {
            break;
        }
        frames.push(rt.collect(true));
    }
    frames.push(rt.collect(true));
    frames
}

fn index(g: &PageGraph, name: &str) -> usize {
    g.index_of(name).unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn stepping_to_the_end_finishes_every_vertex_in_the_expected_time() {
    let a = example("references");
    let g = a.graph.clone().unwrap();
    let mut rt = WalkRt::start(&g, 10, &setup(&a));
    let frames = run_to_end(&mut rt);
    // The first report covers every vertex, later ones only what changed.
    assert_eq!(frames[0].cells.len(), g.len());
    assert!(frames[1..].iter().all(|f| f.cells.len() < g.len()));
    assert!(
        rt.cells.iter().all(|c| c.state == VState::Done),
        "{:?}",
        rt.cells
    );
    let v = &frames.last().unwrap().view;
    assert!(v.finished);
    assert_eq!(v.done, g.len());
    assert_eq!(v.makespan, Some(rt.expected()));
    assert!(v.critical_path.unwrap() <= v.makespan.unwrap());
    // The instance runs longest: it is on the critical path with what it waits for.
    let web = index(&g, "aws_instance.web (expand)");
    assert!(v.critical.contains(&web), "{:?}", v.critical);
    assert_eq!(v.max_concurrency.map(|m| m >= 1), Some(true));
    // A vertex that expanded into one instance (no count) shows no instance counter.
    assert_eq!(rt.cells[web].inst_label(), "");
}

#[test]
fn a_failed_vertex_stops_what_depends_on_it() {
    let a = example("references");
    let g = a.graph.clone().unwrap();
    let mut s = setup(&a);
    s.failures.insert("aws_instance.web (expand)".into());
    let mut rt = WalkRt::start(&g, 10, &s);
    let frames = run_to_end(&mut rt);
    let state = |n: &str| rt.cells[index(&g, n)].state;
    assert_eq!(state("aws_instance.web (expand)"), VState::Failed);
    assert_eq!(state("aws_eip.web (expand)"), VState::Upstream);
    assert_eq!(state("data.aws_ami.ubuntu (expand)"), VState::Done);
    let v = &frames.last().unwrap().view;
    assert_eq!((v.failed, v.finished), (1, true));
    assert!(v.upstream >= 2, "{v:?}");
}

#[test]
fn a_count_of_three_walks_three_instance_rows() {
    let a = example("count");
    let g = a.graph.clone().unwrap();
    let counted = g
        .vertices()
        .iter()
        .position(|v| v.typed.kind.is_resource_expand())
        .unwrap();
    let mut rt = WalkRt::start(&g, 10, &setup(&a));
    let frames = run_to_end(&mut rt);
    let rows = frames
        .iter()
        .rev()
        .find_map(|f| f.rows.clone())
        .expect("rows");
    let of_counted: Vec<&GRow> = rows.iter().filter(|r| r.vertex == counted).collect();
    assert!(!of_counted.is_empty());
    if of_counted.len() > 1 {
        assert!(of_counted.iter().all(|r| r.instance));
        let label = rt.cells[counted].inst_label();
        assert_eq!(label, format!("{0}/{0}", of_counted.len()));
    }
    let three = rows
        .iter()
        .filter(|r| r.instance && r.name.ends_with(']'))
        .count();
    assert!(three >= 3, "{rows:?}");
}

#[test]
fn frames_move_progress_and_makespans_match_the_instant_walk() {
    let a = example("references");
    let g = a.graph.clone().unwrap();
    let s = setup(&a);
    let mut rt = WalkRt::start(&g, 10, &s);
    rt.collect(true);
    // 31 frames 16 ms apart at speed 1: half a simulated second, the provider's half way.
    let mut t = 0.0;
    for _ in 0..31 {
        t += 16.0;
        rt.frame(t, 1.0);
    }
    let f = rt.collect(true);
    assert!((f.view.now - 0.48).abs() < 1e-6, "{}", f.view.now);
    let provider = g
        .vertices()
        .iter()
        .position(|v| {
            v.typed.kind == crate::kind::VertexKind::Provider(crate::kind::ProviderRole::Config)
        })
        .unwrap();
    let c = rt.cells[provider];
    assert_eq!(c.state, VState::Running);
    // About a second with the table's jitter; progress is drawn in steps.
    let v = g.vertex(provider).unwrap();
    let d = s.default_secs(&v.name, &v.typed.kind);
    assert!((0.9..=1.1).contains(&d), "{d}");
    assert!(
        (c.progress() - 0.48 / d).abs() < 1.0 / f64::from(PROGRESS_STEPS),
        "{c:?}"
    );
    let m = makespans(&g, &s, &[1, 10]);
    assert_eq!(m[1].1, rt.expected());
    assert!(m[0].1 >= m[1].1);
}

#[test]
fn the_critical_path_is_the_floor_every_setting_reaches_or_stays_above() {
    let a = example("references");
    let g = a.graph.clone().unwrap();
    let s = setup(&a);
    let cp = critical_path(&g, &s);
    let m = makespans(&g, &s, &[1, 2, 64]);
    assert!(cp > 0.0);
    assert!(m.iter().all(|x| x.1 >= cp), "{m:?} {cp}");
    // The walk's own critical path (the longest chain of what it ran) is the same figure.
    let mut rt = WalkRt::start(&g, 64, &s);
    let frames = run_to_end(&mut rt);
    assert_eq!(frames.last().unwrap().view.critical_path, Some(cp));
}

#[test]
fn a_duration_set_on_an_expanding_vertex_applies_to_each_instance() {
    let a = example("references");
    let g = a.graph.clone().unwrap();
    let mut s = setup(&a);
    let before = makespans(&g, &s, &[10])[0].1;
    s.durations
        .insert("aws_instance.web (expand)".into(), 100.0);
    let after = makespans(&g, &s, &[10])[0].1;
    let web = g
        .vertex(g.index_of("aws_instance.web (expand)").unwrap())
        .unwrap();
    let default = s.default_secs(&web.name, &web.typed.kind);
    assert!(
        (after - before - (100.0 - default)).abs() < 1e-6,
        "{before} -> {after}"
    );
}

#[test]
fn the_walk_is_announced_at_its_moments_not_every_frame() {
    let idle = WalkView::default();
    let running = WalkView {
        started: true,
        running: 2,
        done: 1,
        now: 3.0,
        ..WalkView::default()
    };
    assert_eq!(
        announcement(&idle, &running, false, true).as_deref(),
        Some("Walk started.")
    );
    // An ordinary frame: time and counts move, nothing is said.
    let later = WalkView {
        now: 3.5,
        done: 2,
        running: 1,
        ..running.clone()
    };
    assert_eq!(announcement(&running, &later, true, true), None);
    assert_eq!(
        announcement(&later, &later, true, false).as_deref(),
        Some("Walk paused at 3.5 s: 2 done, 1 running.")
    );
    assert_eq!(
        announcement(&later, &later, false, true).as_deref(),
        Some("Walk resumed.")
    );
    let failed = WalkView {
        failed: 1,
        upstream: 2,
        ..later.clone()
    };
    assert_eq!(
        announcement(&later, &failed, true, true).as_deref(),
        Some("1 vertex failed at 3.5 s.")
    );
    let over = WalkView {
        finished: true,
        running: 0,
        makespan: Some(12.25),
        ..failed.clone()
    };
    assert_eq!(
        announcement(&failed, &over, true, false).as_deref(),
        Some(
            "Walk finished in 12.2 simulated seconds: 2 done, 0 running, 1 failed, 2 skipped because something they depend on failed."
        )
    );
    assert_eq!(
        announcement(&over, &idle, false, false).as_deref(),
        Some("Walk reset.")
    );
    assert_eq!(
        announcement(&idle, &running, false, false).as_deref(),
        Some("Walk stepped to 3.0 s: 1 done, 2 running.")
    );
}

#[test]
fn a_running_vertex_shows_its_current_step_and_its_details_list_the_steps() {
    let a = example("references");
    let g = a.graph.clone().unwrap();
    let s = setup(&a);
    let web = index(&g, "aws_instance.web (expand)");
    let mut rt = WalkRt::start(&g, 10, &s);
    rt.collect(true);
    // Frames of a tenth of a simulated second, to the end.
    let mut seen = BTreeSet::new();
    let mut ms = 0.0;
    for _ in 0..10_000 {
        if rt.walk.is_finished() {
            break;
        }
        ms += 100.0;
        rt.frame(ms, 1.0);
        rt.collect(true);
        if let Some(step) = rt.cells[web].step {
            assert_eq!(rt.cells[web].state, VState::Running);
            seen.insert(step);
        }
    }
    assert!(
        seen.contains("Ask the provider for the planned change"),
        "{seen:?}"
    );
    // Finished: no step on the vertex, and its steps (its own, then its instance's) with
    // times.
    assert_eq!(rt.cells[web].step, None);
    let lists = rt.vertex_steps(web);
    assert_eq!(lists[0].name, "aws_instance.web (expand)");
    assert_eq!(lists[0].lines.last().map(|l| l.id), Some("walk-subgraph"));
    let inst = &lists[1];
    assert!(inst.instance, "{lists:?}");
    let plan = inst.lines.iter().find(|l| l.id == "plan-change").unwrap();
    assert_eq!(plan.state, walk_steps::StepState::Done);
    assert!(plan.end.unwrap() > plan.start.unwrap());
    assert!(!rt.row_steps(inst.task).is_empty());
    // Before a walk, the steps it will run with their planned durations.
    let planned = s.planned_steps("aws_instance.web (expand)", &g.vertices()[web].typed.kind);
    assert!(
        planned
            .iter()
            .any(|l| l.id == "plan-change" && l.duration > 1.0)
    );
}

#[test]
fn a_failure_at_a_step_shows_where_the_vertex_stopped() {
    let a = example("references");
    let g = a.graph.clone().unwrap();
    let mut s = setup(&a);
    s.failures
        .insert("aws_instance.web (expand)@plan-change".into());
    let mut rt = WalkRt::start(&g, 10, &s);
    run_to_end(&mut rt);
    let web = index(&g, "aws_instance.web (expand)");
    assert_eq!(rt.cells[web].state, VState::Failed);
    assert_eq!(
        rt.cells[index(&g, "aws_eip.web (expand)")].state,
        VState::Upstream
    );
    let lists = rt.vertex_steps(web);
    let inst = lists.iter().find(|l| l.instance).expect("instance steps");
    assert_eq!(inst.failed_at().map(|l| l.id), Some("plan-change"));
    assert!(
        inst.lines
            .iter()
            .any(|l| l.state == walk_steps::StepState::NotRun)
    );
}

/// The `count` example with `edit` applied to its text.
fn count_edited(edit: impl Fn(&str) -> String) -> Analysis {
    let e = EXAMPLES.iter().find(|e| e.id == "count").unwrap();
    let mut files = files_of(e);
    let text = edit(&files["main.tf"]);
    files.insert("main.tf".into(), text);
    analyze(&files, e.kind, &Options::default())
}

#[test]
fn an_edit_that_walks_alike_keeps_the_walks_epoch_and_others_start_a_new_one() {
    let a = count_edited(|t| t.to_string());
    let first = WalkEpoch::after(None, Some(&a));
    // A comment and a changed attribute that nothing expands on: the same walk.
    let comment = count_edited(|t| format!("# a note\n{t}"));
    let ami = count_edited(|t| t.replace("ami-123", "ami-456"));
    for alike in [&comment, &ami] {
        assert_ne!(
            alike.expander, a.expander,
            "files differ, so do the expanders' keys"
        );
        let next = WalkEpoch::after(Some(&first), Some(alike));
        assert_eq!(next.number, first.number);
    }
    // Four workers instead of three: the graph is the same, its walk is not.
    let four = count_edited(|t| t.replace("count = 3", "count = 4"));
    assert_eq!(four.graph, a.graph);
    let next = WalkEpoch::after(Some(&first), Some(&four));
    assert_eq!(next.number, first.number + 1);
    // And back: a change again.
    assert_eq!(
        WalkEpoch::after(Some(&next), Some(&a)).number,
        first.number + 2
    );
    // Another resource: another graph.
    let more = count_edited(|t| format!("{t}\nresource \"aws_s3_bucket\" \"more\" {{}}\n"));
    assert_ne!(more.graph, a.graph);
    assert_eq!(
        WalkEpoch::after(Some(&first), Some(&more)).number,
        first.number + 1
    );
    // No graph any more: a change; none before and none now: the same.
    let gone = WalkEpoch::after(Some(&first), None);
    assert_eq!(gone.number, first.number + 1);
    assert_eq!(WalkEpoch::after(Some(&gone), None).number, gone.number);
    // A graph with a cycle cannot be walked: as none.
    let cycle = example("cycle");
    assert_eq!(
        WalkEpoch::after(Some(&gone), Some(&cycle)).number,
        gone.number
    );
}

#[test]
fn expansions_the_engines_worker_sends_compare_by_what_they_say() {
    use crate::page::analysis::SharedExpander;
    let a = count_edited(|t| t.to_string());
    let g = a.graph.clone().unwrap();
    let known = |x: &Analysis| {
        let e = x.expander.as_ref().unwrap();
        let mut y = x.clone();
        y.expander = Some(SharedExpander::known(e.known_of(&g), e.key()));
        y
    };
    let first = WalkEpoch::after(None, Some(&known(&a)));
    let comment = known(&count_edited(|t| format!("# a note\n{t}")));
    assert_eq!(
        WalkEpoch::after(Some(&first), Some(&comment)).number,
        first.number
    );
    // A worker-made expander beside the page's own with the same answers: alike too.
    assert_eq!(
        WalkEpoch::after(Some(&first), Some(&a)).number,
        first.number
    );
    let four = known(&count_edited(|t| t.replace("count = 3", "count = 4")));
    assert_eq!(
        WalkEpoch::after(Some(&first), Some(&four)).number,
        first.number + 1
    );
}

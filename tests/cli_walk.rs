//! `tfgraph walk` as a user runs it: event log, summary, failures, sweeps, seeds, expansion.

mod support;

use std::path::PathBuf;
use support::tfgraph;

/// A root module folder with these files, unique per test.
fn module(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = support::scratch(test);
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, text).expect("write");
    }
    dir
}

const TWO_STEPS: &str = r#"
variable "n" {
  default = 2
}
resource "aws_instance" "a" {}
resource "aws_instance" "b" {
  count      = var.n
  depends_on = [aws_instance.a]
}
"#;

const DURATIONS: &str =
    "# seconds\naws_instance 10\nprovider[\"registry.opentofu.org/hashicorp/aws\"] 1\n";

/// Runs `walk` on the two-step module with known durations and no jitter.
fn walk_known(test: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = module(
        test,
        &[("main.tf", TWO_STEPS), ("durations.txt", DURATIONS)],
    );
    let d = dir.join("durations.txt");
    let mut args = vec![
        "walk",
        dir.to_str().expect("utf-8"),
        "--durations",
        d.to_str().expect("utf-8"),
        "--jitter",
        "0",
    ];
    args.extend_from_slice(extra);
    tfgraph(&args)
}

fn lines(out: &str) -> Vec<&str> {
    out.lines().map(str::trim).collect()
}

#[test]
fn event_log_has_one_line_per_transition() {
    let (code, out, err) = walk_known("log", &[]);
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    for want in [
        "0.000s  aws_instance.a (expand)  waiting on dependencies",
        "1.000s  provider[\"registry.opentofu.org/hashicorp/aws\"]  done",
        "1.000s  aws_instance.a (expand)  expanded into 1",
        "1.000s  aws_instance.a  running",
        "11.000s  aws_instance.a  done",
        "11.000s  aws_instance.b (expand)  expanded into 2",
        "11.000s  aws_instance.b[0]  running",
        "11.000s  aws_instance.b[1]  running",
        "21.000s  aws_instance.b[1]  done",
        "21.000s  root  done",
    ] {
        assert!(l.contains(&want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn summary_figures_with_known_durations() {
    let (code, out, err) = walk_known("summary", &[]);
    assert_eq!(code, 0, "{err}");
    let summary = out.split("\nSummary\n").nth(1).expect("summary block");
    let l = lines(summary);
    assert!(l.contains(&"parallelism          10"), "{summary}");
    assert!(l.contains(&"makespan             21.000s"), "{summary}");
    assert!(
        l.contains(&"critical path        21.000s over 5 vertices"),
        "{summary}"
    );
    assert!(
        l.contains(&"1.000s  provider[\"registry.opentofu.org/hashicorp/aws\"]"),
        "{summary}"
    );
    assert!(l.contains(&"10.000s  aws_instance.a"), "{summary}");
    assert!(l.contains(&"total work           31.000s"), "{summary}");
    assert!(l.contains(&"highest concurrency  2"), "{summary}");
    // 31 / (10 * 21)
    assert!(l.contains(&"utilisation          14.8%"), "{summary}");

    let (code, json, err) = walk_known("summary-json", &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["summary"]["makespan"], 21.0);
    assert_eq!(v["summary"]["critical_path_length"], 21.0);
    assert_eq!(v["summary"]["total_work"], 31.0);
    assert_eq!(v["summary"]["critical_path"][2]["name"], "aws_instance.a");
    assert!(v["events"].as_array().is_some_and(|e| e.len() > 20));
}

#[test]
fn parallelism_one_serialises() {
    let (code, out, err) = walk_known("p1", &["--parallelism", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        lines(&out).contains(&"makespan             31.000s"),
        "{out}"
    );
    assert!(
        lines(&out).contains(&"utilisation          100.0%"),
        "{out}"
    );
}

#[test]
fn failure_makes_descendants_upstream_failed() {
    let (code, out, err) = walk_known("fail", &["--fail", "aws_instance.a"]);
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    for want in [
        "11.000s  aws_instance.a  failed: simulated failure",
        "11.000s  aws_instance.a (expand)  failed: 1 of 1 instances failed",
        "11.000s  aws_instance.b (expand)  upstream failed",
        "11.000s  provider[\"registry.opentofu.org/hashicorp/aws\"] (close)  upstream failed",
        "11.000s  root  upstream failed",
    ] {
        assert!(l.contains(&want), "missing {want:?} in\n{out}");
    }
    assert!(!out.contains("aws_instance.b[0]"), "{out}");
    assert!(out.contains("2 failed, 3 upstream failed"), "{out}");

    let (_, _, err) = walk_known("fail-none", &["--fail", "aws_instance.zzz"]);
    assert!(err.contains("--fail aws_instance.zzz: no vertex"), "{err}");
}

#[test]
fn var_changes_the_instance_count() {
    let (code, out, err) = walk_known("var", &["--var", "n=5"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        lines(&out).contains(&"11.000s  aws_instance.b (expand)  expanded into 5"),
        "{out}"
    );
    let (code, _, err) = walk_known("var-bad", &["--var", "nope=1"]);
    assert_eq!(code, 1);
    assert!(err.contains("Value for undeclared variable"), "{err}");
}

#[test]
fn unknown_count_is_reported_not_guessed() {
    let dir = module(
        "unknown",
        &[(
            "main.tf",
            "data \"aws_availability_zones\" \"az\" {}\nresource \"aws_subnet\" \"s\" {\n  count = length(data.aws_availability_zones.az.names)\n}\n",
        )],
    );
    let (code, out, err) = tfgraph(&["walk", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("aws_subnet.s (expand)  instances unknown: count = length(data.aws_availability_zones.az.names) is unknown"),
        "{out}"
    );
    assert!(out.contains("1 instance sets unknown"), "{out}");
    assert!(!out.contains("aws_subnet.s[0]"), "{out}");
}

fn sweep_rows(out: &str) -> Vec<(usize, f64)> {
    out.lines()
        .skip(1)
        .map(|l| {
            let mut it = l.split_whitespace();
            let p = it.next().and_then(|x| x.parse().ok()).expect("parallelism");
            let m = it
                .next()
                .and_then(|x| x.trim_end_matches('s').parse().ok())
                .expect("makespan");
            (p, m)
        })
        .collect()
}

#[test]
fn sweep_makespan_does_not_increase_with_parallelism() {
    let dir = module(
        "sweep",
        &[(
            "main.tf",
            r#"
resource "aws_vpc" "v" {}
resource "aws_subnet" "s" {
  count  = 6
  vpc_id = aws_vpc.v.id
}
resource "aws_instance" "i" {
  for_each = toset(["a", "b", "c", "d"])
  subnet_id = aws_subnet.s[0].id
}
resource "aws_db_instance" "db" {}
"#,
        )],
    );
    let (code, out, err) = tfgraph(&["walk", dir.to_str().expect("utf-8"), "--sweep", "1..12"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("parallelism  makespan\n"), "{out}");
    let rows = sweep_rows(&out);
    assert_eq!(rows.len(), 12);
    assert_eq!(rows[0].0, 1);
    assert!(
        rows.windows(2).all(|w| w[1].1 <= w[0].1),
        "not monotone:\n{out}"
    );
    assert!(rows[11].1 < rows[0].1, "{out}");
    // With enough parallelism the makespan is the db instance (600 s, jittered) plus provider.
    assert!(rows[11].1 > 540.0 && rows[11].1 < 662.0, "{out}");
}

#[test]
fn same_seed_same_output_other_seed_other_durations() {
    let dir = module("seed", &[("main.tf", TWO_STEPS)]);
    let d = dir.to_str().expect("utf-8");
    let a = tfgraph(&["walk", d, "--seed", "7"]);
    let b = tfgraph(&["walk", d, "--seed", "7"]);
    let c = tfgraph(&["walk", d, "--seed", "8"]);
    assert_eq!(a.0, 0, "{}", a.2);
    assert_eq!(a, b);
    assert_ne!(a.1, c.1);
}

#[test]
fn bad_arguments_are_errors() {
    let dir = module("bad", &[("main.tf", TWO_STEPS), ("d.json", "{\"x\": -1}")]);
    let d = dir.to_str().expect("utf-8");
    let (code, _, err) = tfgraph(&["walk", d, "--sweep", "4..2"]);
    assert_eq!(code, 1);
    assert!(err.contains("invalid --sweep"), "{err}");
    let f = dir.join("d.json");
    let (code, _, err) = tfgraph(&["walk", d, "--durations", f.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(err.contains("d.json: \"x\": -1"), "{err}");
}

/// The page's makespan chart and `tfgraph walk --sweep` agree: for the same files, seed and
/// settings (a duration set on a vertex in the page is that vertex's line in a durations file),
/// every value is the same. Both run `walk::Scenario` with the same defaults.
#[test]
fn the_pages_makespan_chart_equals_walk_sweep() {
    use tfgraph::page::analysis::{Options, analyze};
    use tfgraph::page::examples::{EXAMPLES, files_of};
    use tfgraph::page::walk::{Setup, makespans};
    let ps = [1usize, 2, 4, 8, 16, 32, 64];
    let list = "1,2,4,8,16,32,64";
    let mut compared = 0;
    for (id, seed, duration) in [
        ("references", 0, None),
        ("count", 7, None),
        ("modules", 3, Some(("aws_instance.app (expand)", 42.5))),
        ("data", 0, Some(("data.aws_subnets.all (expand)", 5.0))),
    ] {
        let e = EXAMPLES.iter().find(|e| e.id == id).expect(id);
        let files = files_of(e);
        let mut on_disk: Vec<(String, String)> = files.clone().into_iter().collect();
        if let Some((name, secs)) = duration {
            on_disk.push(("durations.txt".into(), format!("{name} {secs}\n")));
        }
        let refs: Vec<(&str, &str)> = on_disk
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let dir = module(&format!("chart-{id}"), &refs);
        let d = dir.join("durations.txt");
        let seed_arg = seed.to_string();
        let mut args = vec![
            "walk",
            dir.to_str().expect("utf-8"),
            "--sweep",
            list,
            "--seed",
            &seed_arg,
            "--format",
            "json",
        ];
        if duration.is_some() {
            args.extend(["--durations", d.to_str().expect("utf-8")]);
        }
        let (code, out, err) = tfgraph(&args);
        assert_eq!(code, 0, "{id}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let cli: Vec<(usize, f64)> = json
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                (
                    r["parallelism"].as_u64().expect("p") as usize,
                    r["makespan"].as_f64().expect("m"),
                )
            })
            .collect();
        let a = analyze(&files, e.kind, &Options::default());
        let g = a
            .graph
            .as_ref()
            .unwrap_or_else(|| panic!("{id}: {:?}", a.errors));
        let mut setup = Setup {
            seed,
            expander: a.expander.as_ref().map(|x| x.expander.clone()),
            ..Setup::default()
        };
        if let Some((name, secs)) = duration {
            setup.durations.insert(name.to_string(), secs);
        }
        let page = makespans(g, &setup, &ps);
        assert_eq!(page, cli, "{id}");
        // The settings matter: another seed gives other values (so equality is not by chance).
        let other = makespans(
            g,
            &Setup {
                seed: seed + 1,
                ..setup.clone()
            },
            &ps,
        );
        assert_ne!(other, page, "{id}");
        compared += 1;
    }
    assert_eq!(compared, 4);
}

/// The JSON walk's task named `name`.
fn task<'a>(json: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    json["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no task {name}"))
}

fn step<'a>(t: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    t["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no step {id} in {t}"))
}

#[test]
fn json_walk_reports_each_vertex_s_steps_with_their_times() {
    let (code, out, err) = walk_known("json-steps", &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    // aws_instance.a runs from 1 s to 11 s (the event log's times): its steps fill that time,
    // one after the other, and asking the provider for the planned change is one of them.
    let a = task(&json, "aws_instance.a");
    assert_eq!(a["parent"], "aws_instance.a (expand)");
    assert_eq!(a["started"], 1.0);
    assert_eq!(a["finished"], 11.0);
    assert_eq!(a["failed_step"], serde_json::Value::Null);
    let steps = a["steps"].as_array().expect("steps");
    assert_eq!(
        steps.first().map(|s| &s["start"]),
        Some(&serde_json::json!(1.0))
    );
    let end = steps.last().and_then(|s| s["end"].as_f64()).expect("end");
    assert!((end - 11.0).abs() < 1e-9, "{end}");
    for w in steps.windows(2) {
        let (e, s) = (
            w[0]["end"].as_f64().unwrap(),
            w[1]["start"].as_f64().unwrap(),
        );
        assert!((e - s).abs() < 1e-9, "{w:?}");
    }
    let plan = step(a, "plan-change");
    assert_eq!(plan["name"], "Ask the provider for the planned change");
    assert_eq!(plan["go"], "NodeAbstractResourceInstance.plan");
    assert_eq!(
        plan["go_file"],
        "internal/tofu/node_resource_abstract_instance.go"
    );
    assert_eq!(plan["kind"], "provider");
    assert_eq!(plan["status"], "done");
    // An expanding vertex walks its instances as its last step, until they have finished.
    let b = task(&json, "aws_instance.b (expand)");
    let walk = step(b, "walk-subgraph");
    assert_eq!(walk["start"], 11.0);
    assert_eq!(walk["end"], 21.0);
    // The provider's vertex configures the provider.
    let p = task(&json, "provider[\"registry.opentofu.org/hashicorp/aws\"]");
    assert_eq!(step(p, "configure")["kind"], "provider");
}

#[test]
fn a_failure_at_a_step_stops_the_vertex_there() {
    let (code, out, err) = walk_known(
        "fail-step",
        &["--format", "json", "--fail", "aws_instance.a@plan-change"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let a = task(&json, "aws_instance.a");
    assert_eq!(a["status"]["Failed"], "simulated failure");
    assert_eq!(a["failed_step"], "plan-change");
    let plan = step(a, "plan-change");
    assert_eq!(plan["status"], "failed");
    // It stopped when the provider's answer came back: before its 11 s.
    let stopped = plan["end"].as_f64().expect("end");
    assert!(stopped < 11.0, "{stopped}");
    assert_eq!(a["finished"].as_f64(), Some(stopped));
    let after = step(a, "save-state");
    assert_eq!(after["status"], "not-run");
    assert_eq!(after["start"], serde_json::Value::Null);
    assert_eq!(step(a, "refresh")["status"], "done");
    let b = task(&json, "aws_instance.b (expand)");
    assert_eq!(b["status"], "UpstreamFailed");
    assert_eq!(b["steps"].as_array().map(Vec::len), Some(0));
    // The text summary says where it stopped.
    let (_, text, _) = walk_known("fail-step-text", &["--fail", "aws_instance.a@plan-change"]);
    assert!(
        text.contains("failed at a step     aws_instance.a at plan-change: simulated failure"),
        "{text}"
    );
    // A step the vertex does not have is a warning, and nothing fails.
    let (code, text, err) = walk_known("fail-step-none", &["--fail", "aws_instance.a@nope"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("--fail aws_instance.a@nope: aws_instance.a has no step \"nope\" (its steps: get-provider,"),
        "{err}"
    );
    assert!(text.contains("0 failed"), "{text}");
}

#[test]
fn a_step_of_the_instances_given_for_their_resource_fails_each_instance() {
    let (code, out, err) = walk_known(
        "fail-step-instances",
        &[
            "--format",
            "json",
            "--fail",
            "aws_instance.b (expand)@refresh",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    for n in ["aws_instance.b[0]", "aws_instance.b[1]"] {
        assert_eq!(task(&json, n)["failed_step"], "refresh", "{n}");
    }
    assert_eq!(json["summary"]["failed"], 3);
}

#[test]
fn the_durations_file_sets_step_durations() {
    let dir = module(
        "step-durations",
        &[
            ("main.tf", TWO_STEPS),
            (
                "durations.txt",
                "aws_instance 10\n@evaluate 0\n@state 0\n@check 0\naws_instance.a@plan-change 30\n",
            ),
        ],
    );
    let d = dir.join("durations.txt");
    let (code, out, err) = tfgraph(&[
        "walk",
        dir.to_str().unwrap(),
        "--durations",
        d.to_str().unwrap(),
        "--jitter",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let a = task(&json, "aws_instance.a");
    let plan = step(a, "plan-change");
    let len = plan["end"].as_f64().unwrap() - plan["start"].as_f64().unwrap();
    assert!((len - 30.0).abs() < 1e-9, "{plan}");
    let eval = step(a, "evaluate-config");
    assert_eq!(eval["start"], eval["end"]);
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "@nope 1\n").unwrap();
    let (code, _, err) = tfgraph(&[
        "walk",
        dir.to_str().unwrap(),
        "--durations",
        bad.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("\"@nope\": not a step kind (one of @bookkeeping"),
        "{err}"
    );
}

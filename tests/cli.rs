//! The `tfgraph` binary as a user runs it.

mod support;

use support::tfgraph;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let p = support::scratch_root().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn outline_lists_blocks_with_positions() {
    let f = temp_file(
        "ok.tf",
        "variable \"a\" {}\n\nresource \"aws_vpc\" \"main\" {\n}\n",
    );
    let (code, out, _) = tfgraph(&["outline", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    let p = f.display();
    assert_eq!(
        out,
        format!("{p}:1:1: variable \"a\"\n{p}:3:1: resource \"aws_vpc\" \"main\"\n")
    );
}

#[test]
fn outline_reports_parse_error_with_file_line_column() {
    let f = temp_file("bad.tf", "resource \"a\" \"b\" {\n  x = \n}\n");
    let (code, _, err) = tfgraph(&["outline", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("Error: {}:2:7: ", f.display())),
        "{err}"
    );
}

#[test]
fn outline_of_missing_file_is_an_error_not_a_panic() {
    let (code, _, err) = tfgraph(&["outline", "/nonexistent/x.tf"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/x.tf"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let (code, _, err) = tfgraph(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("Usage"), "{err}");
}

fn temp_module(name: &str, text: &str) -> std::path::PathBuf {
    let dir = support::scratch(&format!("module-{name}"));
    std::fs::write(dir.join("main.tf"), text).unwrap();
    dir
}

const TWO: &str =
    "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\n";

#[test]
fn graph_prints_dot_like_tofu_graph() {
    let dir = temp_module("dot", TWO);
    let (code, out, err) = tfgraph(&["graph", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("\t\t\"[root] aws_subnet.b (expand)\" -> \"[root] aws_vpc.a (expand)\"\n"),
        "{out}"
    );
}

#[test]
fn graph_text_format_is_graph_string() {
    let dir = temp_module("text", TWO);
    let (code, out, err) = tfgraph(&["graph", dir.to_str().unwrap(), "--format", "text"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("aws_subnet.b (expand)\n  aws_vpc.a (expand)\n"),
        "{out}"
    );
    assert!(out.contains("root\n"), "{out}");
}

#[test]
fn steps_lists_each_transform_with_what_it_added() {
    let dir = temp_module("steps", TWO);
    let (code, out, err) = tfgraph(&["steps", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(" 1. ConfigTransformer (+2 -0 vertices, +0 -0 edges)\n    + aws_subnet.b (expand)\n    + aws_vpc.a (expand)\n"), "{out}");
    assert!(out.contains("ReferenceTransformer (+0 -0 vertices, +1 -0 edges)\n    + aws_subnet.b (expand) -> aws_vpc.a (expand)\n"), "{out}");
}

#[test]
fn graph_errors_name_the_problem() {
    let dir = temp_module("errs", TWO);
    let d = dir.to_str().unwrap();
    let (code, _, err) = tfgraph(&["graph", d, "--type", "bogus"]);
    assert_eq!(code, 1);
    assert!(err.contains("Unsupported graph type"), "{err}");
    let (code, _, err) = tfgraph(&["graph", d, "--var", "nope=1"]);
    assert_eq!(code, 1);
    assert!(err.contains("Value for undeclared variable"), "{err}");
    let bad = temp_module("syntax", "resource \"a\" \"b\" {\n  x = \n}\n");
    let (code, _, err) = tfgraph(&["graph", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("main.tf:2,"), "{err}");
}

/// internal/command/views/graph.go `GraphHuman.Output` prints the DOT text with Println (an empty
/// last line); internal/dag/dot.go draws provider closers only in verbose graphs (tofu graph's
/// hidden -verbose); internal/command/graph.go refuses -type=eval with its own wording and
/// -target with -exclude (arguments/extended.go).
#[test]
fn graph_prints_dot_as_tofu_graph_does() {
    let dir = temp_module("tofu-graph", TWO);
    let d = dir.to_str().unwrap();
    let (code, out, err) = tfgraph(&["graph", d]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n"
        ),
        "{out}"
    );
    assert!(out.ends_with("\t}\n}\n\n"), "{out:?}");
    assert!(!out.contains("(close)\" ["), "{out}");
    let (_, verbose, _) = tfgraph(&["graph", d, "--verbose"]);
    assert!(
        verbose.contains(
            "\"[root] provider[\\\"registry.opentofu.org/hashicorp/aws\\\"] (close)\" [label = \"provider[\\\"registry.opentofu.org/hashicorp/aws\\\"] (close)\", shape = \"diamond\"]\n"
        ),
        "{verbose}"
    );
    let (code, _, err) = tfgraph(&["graph", d, "--type", "eval"]);
    assert_eq!(code, 1);
    assert!(err.contains("Graph type no longer available"), "{err}");
    let (code, _, err) = tfgraph(&[
        "graph",
        d,
        "--target",
        "aws_vpc.a",
        "--exclude",
        "aws_subnet.b",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("Invalid combination of arguments"), "{err}");
}

/// The replacement of `tofu plan`'s legend on the graph: `--actions` marks each resource vertex
/// and instance with its planned action in DOT, JSON and Mermaid; without it the DOT is what
/// `tofu graph` prints (only node lines may differ, edges never).
#[test]
fn graph_actions_mark_vertices_with_the_plans_symbols() {
    let dir = temp_module(
        "actions",
        "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n",
    );
    let state = r#"{"version": 4, "serial": 1, "lineage": "x", "outputs": {}, "resources": [
      {"mode": "managed", "type": "aws_vpc", "name": "a",
       "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
       "instances": [{"attributes": {}}]},
      {"mode": "managed", "type": "aws_subnet", "name": "b",
       "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
       "instances": [{"attributes": {}, "create_before_destroy": true}]}]}"#;
    let state = temp_file("actions-state.tfstate", state);
    let changes = temp_file(
        "actions-changes.json",
        r#"[{"addr": "aws_vpc.a", "action": "delete-then-create"},
            {"addr": "aws_subnet.b", "action": "create-then-delete"}]"#,
    );
    let d = dir.to_str().unwrap();
    let base = [
        "graph",
        d,
        "--type",
        "apply",
        "--state",
        state.to_str().unwrap(),
        "--changes",
        changes.to_str().unwrap(),
    ];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let (code, out, err) = tfgraph(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let plain = run(&[]);
    assert!(
        plain.contains("\t\t\"[root] aws_vpc.a\" [label = \"aws_vpc.a\", shape = \"box\"]\n"),
        "{plain}"
    );
    assert!(!plain.contains("class ="), "{plain}");
    let marked = run(&["--actions"]);
    assert!(
        marked.contains("\t\t\"[root] aws_vpc.a\" [class = \"delete-then-create\", color = \"red\", label = \"-/+ aws_vpc.a\", shape = \"box\"]\n"),
        "{marked}"
    );
    assert!(
        marked.contains("\t\t\"[root] aws_subnet.b\" [class = \"create-then-delete\", color = \"green\", label = \"+/- aws_subnet.b\", shape = \"box\"]\n"),
        "{marked}"
    );
    // Only node lines differ.
    let edges = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.contains(" [label") && !l.contains(" [class"))
            .map(String::from)
            .collect()
    };
    assert_eq!(edges(&plain), edges(&marked));
    assert_eq!(plain.lines().count(), marked.lines().count());

    let json = run(&["--format", "json", "--actions"]);
    let j: serde_json::Value = serde_json::from_str(&json).unwrap();
    let vertex = |name: &str| {
        j["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {json}"))
            .clone()
    };
    assert_eq!(vertex("aws_vpc.a")["action"]["symbol"], "-/+");
    assert_eq!(
        vertex("aws_vpc.a")["action"]["action"],
        "delete-then-create"
    );
    assert_eq!(vertex("aws_subnet.b")["action"]["symbol"], "+/-");
    assert!(vertex("aws_vpc.a (destroy)")["action"]["symbol"] == "-/+");
    assert!(
        vertex("provider[\"registry.opentofu.org/hashicorp/aws\"]")
            .get("action")
            .is_none()
    );
    let plain_json = run(&["--format", "json"]);
    assert!(!plain_json.contains("\"action\""), "{plain_json}");

    let mermaid = run(&["--format", "mermaid", "--actions"]);
    assert!(mermaid.contains("[\"-/+ aws_vpc.a\"]"), "{mermaid}");
    assert!(mermaid.contains("[\"+/- aws_subnet.b\"]"), "{mermaid}");
    assert!(
        mermaid.contains("classDef action_delete_then_create color:#b42318"),
        "{mermaid}"
    );
    assert!(!run(&["--format", "mermaid"]).contains("action_"));

    // Without a plan or changes there is nothing to mark.
    let (code, _, err) = tfgraph(&["graph", d, "--actions"]);
    assert_eq!(code, 1);
    assert!(err.contains("--actions needs planned changes"), "{err}");
}

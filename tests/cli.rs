//! The `tfgraph` binary as a user runs it.

mod support;

use support::tfgraph;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tfgraph-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
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
    let dir = std::env::temp_dir().join(format!("tfgraph-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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

//! Why each edge exists, as a user of the `tfgraph` binary sees it: `graph --format json` gives
//! every edge a `why`, and `tfgraph why` prints the paths by which one vertex waits for another.

mod support;

use support::tfgraph;
use tfgraph::page::examples::EXAMPLE;

fn example_dir(name: &str) -> std::path::PathBuf {
    let dir = support::scratch(name);
    std::fs::write(dir.join("main.tf"), EXAMPLE).unwrap();
    dir
}

#[test]
fn graph_json_gives_every_edge_its_why() {
    let dir = example_dir("json");
    let (code, out, err) = tfgraph(&["graph", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let name = |id: &serde_json::Value| -> String {
        j["vertices"]
            .as_array()
            .expect("vertices")
            .iter()
            .find(|v| &v["id"] == id)
            .and_then(|v| v["name"].as_str())
            .expect("vertex of the edge")
            .to_string()
    };
    let edges = j["edges"].as_array().expect("edges");
    assert!(!edges.is_empty());
    for e in edges {
        let why = &e["why"];
        assert!(
            why["transform"]
                .as_str()
                .is_some_and(|t| t.ends_with("Transformer")),
            "{e}"
        );
        assert!(why["references"].is_array(), "{e}");
        assert!(why["reason"].as_str().is_some_and(|r| !r.is_empty()), "{e}");
    }
    let web = edges
        .iter()
        .find(|e| {
            name(&e["from"]) == "aws_instance.web (expand)"
                && name(&e["to"]) == "data.aws_ami.ubuntu (expand)"
        })
        .expect("the edge from the instance to the AMI");
    // main.tf line 14 is `  ami           = data.aws_ami.ubuntu.id`: the traversal starts at
    // column 19.
    assert_eq!(
        web["why"],
        serde_json::json!({
            "transform": "ReferenceTransformer",
            "reason": "main.tf:14 data.aws_ami.ubuntu.id",
            "references": [{"file": "main.tf", "line": 14, "column": 19,
                            "text": "data.aws_ami.ubuntu.id"}]
        })
    );
    let provider = edges
        .iter()
        .find(|e| {
            name(&e["from"]) == "data.aws_ami.ubuntu (expand)"
                && name(&e["to"]).starts_with("provider[")
        })
        .expect("the data source's provider edge");
    assert_eq!(
        provider["why"],
        serde_json::json!({"transform": "ProviderTransformer",
                           "reason": "provider of this resource", "references": []})
    );
}

#[test]
fn why_prints_each_path_with_the_references_that_made_it() {
    let dir = example_dir("paths");
    let (code, out, err) = tfgraph(&[
        "why",
        dir.to_str().unwrap(),
        "output.public_ip",
        "data.aws_ami.ubuntu",
    ]);
    assert_eq!(code, 0, "{err}");
    // main.tf lines 23 `  value = aws_eip.web.public_ip`, 19 `  instance = aws_instance.web.id`
    // and 14 `  ami           = data.aws_ami.ubuntu.id`.
    assert_eq!(
        out,
        "output.public_ip (expand) waits for data.aws_ami.ubuntu (expand) by 1 path.\n\
         \n\
         Path 1 (3 edges):\n  output.public_ip (expand)\n    -> aws_eip.web (expand)\n       ReferenceTransformer: main.tf:23,11 aws_eip.web.public_ip\n    -> aws_instance.web (expand)\n       ReferenceTransformer: main.tf:19,14 aws_instance.web.id\n    -> data.aws_ami.ubuntu (expand)\n       ReferenceTransformer: main.tf:14,19 data.aws_ami.ubuntu.id\n"
    );
}

#[test]
fn why_reads_the_current_folder_without_dir() {
    let dir = example_dir("cwd");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tfgraph"))
        .args(["why", "aws_instance.web", "var.region"])
        .current_dir(&dir)
        .output()
        .expect("run tfgraph");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("aws_instance.web (expand) waits for var.region by "),
        "{text}"
    );
    assert!(
        text.contains("       ReferenceTransformer: main.tf:6,12 var.region\n"),
        "{text}"
    );
}

#[test]
fn why_fails_clearly_on_unknown_names_and_without_a_path() {
    let dir = example_dir("errors");
    let d = dir.to_str().unwrap();
    let (code, out, err) = tfgraph(&["why", d, "aws_instance.webb", "var.region"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        err,
        "Error: No vertex \"aws_instance.webb\" in the graph. Did you mean \"aws_instance.web (expand)\"?\n"
    );
    let (code, _, err) = tfgraph(&["why", d, "var.region", "aws_instance.web"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "Error: var.region does not wait for aws_instance.web (expand): no path of dependencies leads from one to the other.\n"
    );
    let (code, _, err) = tfgraph(&["why", d]);
    assert_eq!(code, 1);
    assert!(err.contains("[DIR] FROM TO"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

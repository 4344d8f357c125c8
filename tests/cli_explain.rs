//! `tfgraph explain` as a user of the binary sees it: a vertex's kind, its edges with why, its
//! evaluation steps for the graph's operation and its values, with variable values from the
//! folder's files and the command line; a name that is no vertex gets the nearest one.

mod support;

use support::tfgraph_env;

fn tfgraph(args: &[&str]) -> (i32, String, String) {
    tfgraph_env(args, &[])
}

const MAIN: &str = r#"variable "region" {
  default = "eu-west-1"
}

variable "n" {
  type    = number
  default = 1
}

provider "aws" {
  region = var.region
}

locals {
  name = "web-${var.region}"
}

resource "aws_instance" "web" {
  count = var.n
  ami   = "ami-123"
  tags = {
    Name = "${local.name}-${count.index}"
  }
}

resource "aws_eip" "ip" {
  instance = aws_instance.web[0].id
}
"#;

fn dir(name: &str) -> std::path::PathBuf {
    let dir = support::scratch(name);
    std::fs::write(dir.join("main.tf"), MAIN).unwrap();
    std::fs::write(dir.join("terraform.tfvars"), "region = \"us-east-2\"\n").unwrap();
    dir
}

#[test]
fn explain_prints_kind_edges_steps_and_values() {
    let d = dir("plan");
    let (code, out, err) = tfgraph(&[
        "explain",
        d.to_str().unwrap(),
        "aws_instance.web",
        "--var",
        "n=2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "aws_instance.web (expand)\n  kind: nodeExpandPlannableResource (internal/tofu/node_resource_plan.go), in the plan graph\n"
        ),
        "{out}"
    );
    // What it depends on and why: the reference, at its place in main.tf.
    assert!(
        out.contains(
            "  var.n (expand, reference)\n      ReferenceTransformer: main.tf:19,11 var.n\n"
        ),
        "{out}"
    );
    assert!(out.contains("  local.name (expand)\n"), "{out}");
    assert!(out.contains("\nDepended on by ("), "{out}");
    assert!(out.contains("  aws_eip.ip (expand)\n"), "{out}");
    // Its steps for the plan walk, each with what it reads and writes and its Go function.
    assert!(
        out.contains("\nEvaluation in the plan walk (walkPlan):\n  1. "),
        "{out}"
    );
    assert!(out.contains("; Go: "), "{out}");
    assert!(
        out.contains("(NodePlannableResourceInstance) then runs:"),
        "{out}"
    );
    // Its values: count from --var, the instances, each instance's arguments through the local
    // and the variable from terraform.tfvars.
    assert!(
        out.contains("\nValues:\n  aws_instance.web:\n    reads var.n = 2 (-var)\n    count = 2\n    instances = aws_instance.web[0], aws_instance.web[1]\n"),
        "{out}"
    );
    assert!(
        out.contains("  aws_instance.web[1]:\n    reads local.name = \"web-us-east-2\"\n    reads count.index = 1\n    ami = \"ami-123\"\n    tags = { Name = \"web-us-east-2-1\" }\n"),
        "{out}"
    );
}

#[test]
fn unknown_values_say_which_reference_is_unknown() {
    let d = dir("eip");
    let (code, out, err) = tfgraph(&["explain", d.to_str().unwrap(), "aws_eip.ip"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("    instance = (known after apply) (aws_instance.web[0].id is attribute \"id\" of managed resource aws_instance.web[0], which the provider returns when it plans and applies it)\n"),
        "{out}"
    );
    let (code, out, err) = tfgraph(&["explain", d.to_str().unwrap(), "var.region"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "\nValues:\n  var.region:\n    var.region = \"us-east-2\" (terraform.tfvars)\n"
        ),
        "{out}"
    );
}

#[test]
fn the_graph_type_chooses_the_steps() {
    let d = dir("validate");
    let (code, out, err) = tfgraph(&[
        "explain",
        d.to_str().unwrap(),
        "aws_instance.web",
        "--type",
        "validate",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("kind: NodeValidatableResource"), "{out}");
    assert!(
        out.contains("\nEvaluation in the validate walk (walkValidate):\n"),
        "{out}"
    );
    let (code, out, err) = tfgraph(&[
        "explain",
        d.to_str().unwrap(),
        "provider[\"registry.opentofu.org/hashicorp/aws\"] (close)",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("kind: graphNodeCloseProvider"), "{out}");
    assert!(
        out.contains("\nEvaluation in the plan walk (walkPlan):\n"),
        "{out}"
    );
    assert!(
        out.contains("(none: this vertex has no values of its own)"),
        "{out}"
    );
}

#[test]
fn a_name_that_is_no_vertex_is_an_error_naming_the_nearest() {
    let d = dir("typo");
    let (code, out, err) = tfgraph(&["explain", d.to_str().unwrap(), "aws_instance.wbe"]);
    assert_ne!(code, 0);
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "Error: No vertex \"aws_instance.wbe\" in the graph. Did you mean \"aws_instance.web (expand)\"?\n"
    );
}

#[test]
fn explain_without_a_vertex_says_what_to_give() {
    let (code, _, err) = tfgraph(&["explain"]);
    assert_ne!(code, 0);
    assert_eq!(err, "Error: give the vertex to explain: [DIR] ADDR\n");
}

//! Working directories after `tofu init`: registry modules resolved through
//! `.terraform/modules/modules.json` as OpenTofu's loader does
//! (`internal/configs/configload/loader_load.go`, `moduleWalkerLoad`), the manifest's problems in
//! its words, and calls that are not installed.

mod support;

use std::path::Path;
use support::tfgraph;
use support::workdir::{self, Record};
use tfgraph::pipeline::{FolderInputs, Output};

fn plan(dir: &Path) -> Output {
    FolderInputs::new(dir)
        .build()
        .unwrap_or_else(|e| panic!("{}", e.messages().join("\n")))
}

/// The dependency is among the dependent's ancestors in the built graph (so the edge, or a path
/// that transitive reduction left in its place, is there).
fn depends(out: &Output, from: &str, to: &str) -> bool {
    let g = out.built.graph.dag();
    let id = |n: &str| {
        g.iter()
            .find(|(_, v)| v.name() == n)
            .map(|(id, _)| id)
            .unwrap_or_else(|| panic!("no vertex {n:?}"))
    };
    g.ancestors(id(from)).contains(&id(to))
}

fn names(out: &Output) -> Vec<String> {
    out.built
        .graph
        .dag()
        .iter()
        .map(|(_, v)| v.name())
        .collect()
}

/// `resource`/`data` blocks in the `.tf` files directly in `dir`, as `TYPE.NAME` / `data.TYPE.NAME`
/// (read from the text here, independently of the loader).
fn resource_blocks(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.ends_with(".tf") {
            continue;
        }
        for line in std::fs::read_to_string(e.path()).unwrap().lines() {
            let parts: Vec<&str> = line.split('"').collect();
            match parts.first().map(|p| p.trim()) {
                Some("resource") if parts.len() >= 4 => {
                    out.push(format!("{}.{}", parts[1], parts[3]))
                }
                Some("data") if parts.len() >= 4 => {
                    out.push(format!("data.{}.{}", parts[1], parts[3]))
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}

#[test]
fn registry_modules_load_from_their_installed_folders() {
    let root = workdir::vpc_workdir("tree");
    let (cfg, diags) = support::load_dir(&root);
    assert!(diags.is_empty(), "{diags:?}");
    let kids: Vec<&String> = cfg.children.keys().collect();
    assert_eq!(kids, ["endpoints", "flow_log_example", "vpc"]);
    let vpc = &cfg.children["vpc"];
    assert_eq!(vpc.module.source_dir, ".terraform/modules/vpc");
    assert_eq!(vpc.version.as_deref(), Some("5.21.0"));
    assert_eq!(
        cfg.children["endpoints"].module.source_dir,
        ".terraform/modules/endpoints/modules/vpc-endpoints"
    );
    // Local sources inside an installed package resolve inside it; the nested registry call
    // through its own record (key "flow_log_example.s3_bucket").
    let ex = &cfg.children["flow_log_example"];
    let dirs: Vec<(&str, &str)> = ex
        .children
        .iter()
        .map(|(k, c)| (k.as_str(), c.module.source_dir.as_str()))
        .collect();
    let flow_log = ".terraform/modules/flow_log_example/modules/flow-log";
    assert_eq!(
        dirs,
        [
            ("disabled", flow_log),
            ("flow_log", flow_log),
            ("flow_log_cloudwatch_external", flow_log),
            ("flow_log_s3", flow_log),
            ("flow_log_s3_parquet", flow_log),
            ("s3_bucket", ".terraform/modules/flow_log_example.s3_bucket"),
            ("vpc", ".terraform/modules/flow_log_example"),
        ]
    );
    assert!(cfg.not_installed_calls().is_empty());
}

#[test]
fn the_graph_has_the_installed_modules_resources_and_their_edges() {
    let root = workdir::vpc_workdir("graph");
    let out = plan(&root);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let all = names(&out);
    // Every resource and data block of terraform-aws-vpc's root module, in module.vpc.
    let blocks = resource_blocks(&support::realworld().join("terraform-aws-vpc"));
    assert!(blocks.len() > 50, "{blocks:?}");
    let mut in_vpc: Vec<String> = all
        .iter()
        .filter_map(|n| n.strip_prefix("module.vpc.")?.strip_suffix(" (expand)"))
        .filter(|n| !n.starts_with("var.") && !n.starts_with("local.") && !n.starts_with("output."))
        .map(str::to_string)
        .collect();
    in_vpc.sort();
    assert_eq!(in_vpc, blocks);
    for (from, to) in [
        // (expand)/(close) around the module's contents.
        ("module.vpc.aws_vpc.this (expand)", "module.vpc (expand)"),
        ("module.vpc (close)", "module.vpc.aws_vpc.this (expand)"),
        ("module.vpc (close)", "module.vpc.output.vpc_id (expand)"),
        // The module's variables depend on the root values passed in.
        (
            "module.vpc.var.name (expand, input)",
            "var.name (expand, reference)",
        ),
        (
            "module.vpc.var.private_subnets (expand, input)",
            "var.private_subnets (expand, reference)",
        ),
        // References between modules and from the root into a module.
        (
            "module.endpoints.var.vpc_id (expand, input)",
            "module.vpc.output.vpc_id (expand)",
        ),
        (
            "module.endpoints.aws_vpc_endpoint.this (expand)",
            "module.vpc.aws_vpc.this (expand)",
        ),
        (
            "aws_instance.web (expand)",
            "module.vpc.output.private_subnets (expand)",
        ),
        // Inside the installed example: a local call inside the package and a nested registry
        // call, and a reference from one to the other.
        (
            "module.flow_log_example.module.flow_log_s3.var.log_destination (expand, input)",
            "module.flow_log_example.module.s3_bucket.output.s3_bucket_arn (expand)",
        ),
        (
            "module.flow_log_example.module.s3_bucket.aws_s3_bucket.this (expand)",
            "module.flow_log_example.module.s3_bucket (expand)",
        ),
        (
            "module.flow_log_example.module.vpc (close)",
            "module.flow_log_example.module.vpc.aws_vpc.this (expand)",
        ),
    ] {
        assert!(depends(&out, from, to), "{from} should depend on {to}");
    }
    assert!(!depends(
        &out,
        "module.vpc.var.name (expand, input)",
        "module.endpoints (expand)"
    ));
}

#[test]
fn the_walk_expands_what_terraform_tfvars_gives() {
    let root = workdir::vpc_workdir("walk");
    workdir::write(&root, "terraform.tfvars", workdir::VPC_TFVARS);
    let out = plan(&root);
    let mut e = out.expander().expect("plan graphs expand");
    let g = &out.built.graph;
    let count = |e: &mut tfgraph::walk::StaticExpander, v: &str| {
        let id = g.find(v).unwrap_or_else(|| panic!("no vertex {v}"));
        e.instances_of(&g.dag().vertex(id).expect("a vertex").typed())
            .unwrap_or_else(|| panic!("{v} does not expand"))
            .unwrap_or_else(|why| panic!("{v}: {why}"))
    };
    assert_eq!(
        count(&mut e, "aws_instance.web (expand)"),
        ["aws_instance.web[0]", "aws_instance.web[1]"]
    );
    // count = local.create_private_subnets ? local.len_private_subnets : 0 in the module.
    assert_eq!(
        count(&mut e, "module.vpc.aws_subnet.private (expand)").len(),
        3
    );
    // Without the file: the defaults (one subnet, one instance).
    std::fs::remove_file(root.join("terraform.tfvars")).unwrap();
    let mut inputs = FolderInputs::new(&root);
    inputs.vars = vec!["name=x".into()];
    let out = inputs.build().unwrap_or_else(|e| panic!("{e:?}"));
    let mut e = out.expander().unwrap();
    assert_eq!(count(&mut e, "aws_instance.web (expand)").len(), 1);
    assert_eq!(
        count(&mut e, "module.vpc.aws_subnet.private (expand)").len(),
        1
    );
}

const ONE_CALL: &str =
    "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"~> 5.0\"\n}\n";

/// A root with ONE_CALL, `vpc` installed from terraform-aws-vpc, and the manifest `records`.
fn one_call_workdir(name: &str, records: &[Record]) -> std::path::PathBuf {
    let root = workdir::temp_dir(name);
    workdir::write(&root, "main.tf", ONE_CALL);
    workdir::copy_tree(
        &support::realworld().join("terraform-aws-vpc"),
        &root.join(".terraform/modules/vpc"),
    );
    workdir::write(
        &root,
        ".terraform/modules/modules.json",
        &workdir::manifest(records),
    );
    root
}

fn errors_of(root: &Path) -> String {
    let (code, out, err) = tfgraph(&["graph", root.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

const REG: &str = "registry.opentofu.org/terraform-aws-modules/vpc/aws";

// configload/loader_load.go, moduleWalkerLoad: LoadConfigDir gave nil for record.Dir.
#[test]
fn a_record_whose_folder_is_missing() {
    let root = one_call_workdir(
        "missing",
        &[Record(
            "vpc",
            REG,
            Some("5.21.0"),
            ".terraform/modules/gone",
        )],
    );
    assert_eq!(
        errors_of(&root),
        "Error: main.tf:1,1: Module not installed: This module's local cache directory .terraform/modules/gone could not be read. Run \"tofu init\" to install all modules required by this configuration.\n"
    );
}

// moduleWalkerLoad: req.SourceAddr.String() != record.SourceAddr.
#[test]
fn a_source_that_no_longer_matches_the_call() {
    let root = one_call_workdir(
        "source",
        &[Record(
            "vpc",
            "registry.opentofu.org/terraform-aws-modules/eks/aws",
            Some("5.21.0"),
            ".terraform/modules/vpc",
        )],
    );
    assert_eq!(
        errors_of(&root),
        "Error: main.tf:2,13: Module source has changed: The source address was changed from \"registry.opentofu.org/terraform-aws-modules/eks/aws\" to \"registry.opentofu.org/terraform-aws-modules/vpc/aws\" since this module was installed. Run \"tofu init\" to install all modules required by this configuration.\n"
    );
}

// moduleWalkerLoad: the installed version fails the call's constraint, or none was recorded.
#[test]
fn a_version_that_no_longer_matches_the_call() {
    let root = one_call_workdir(
        "version",
        &[Record("vpc", REG, Some("4.0.0"), ".terraform/modules/vpc")],
    );
    assert_eq!(
        errors_of(&root),
        "Error: main.tf:2,13: Module version requirements have changed: The version requirements have changed since this module was installed and the installed version (4.0.0) is no longer acceptable. Run \"tofu init\" to install all modules required by this configuration.\n"
    );
    let root = one_call_workdir(
        "noversion",
        &[Record("vpc", REG, None, ".terraform/modules/vpc")],
    );
    assert_eq!(
        errors_of(&root),
        "Error: main.tf:2,13: Module version requirements have changed: The version requirements have changed since this module was installed and the installed version is no longer acceptable. Run \"tofu init\" to install all modules required by this configuration.\n"
    );
}

// modsdir/manifest.go, ReadManifestSnapshot, under configload.NewLoader's wrapping.
#[test]
fn a_damaged_manifest() {
    let root = one_call_workdir("damaged", &[]);
    workdir::write(
        &root,
        ".terraform/modules/modules.json",
        "{\"Modules\": [\n  {\"Key\": \"vpc\", \"Dir\": 3}\n]}\n",
    );
    assert_eq!(
        errors_of(&root),
        "Error: .terraform/modules/modules.json:2,25: failed to read module manifest: error unmarshalling snapshot: invalid type: integer `3`, expected a string\n"
    );
    workdir::write(&root, ".terraform/modules/modules.json", "{\"Modules\": [");
    assert_eq!(
        errors_of(&root),
        "Error: .terraform/modules/modules.json:1,13: failed to read module manifest: error unmarshalling snapshot: EOF while parsing a list\n"
    );
    workdir::write(
        &root,
        ".terraform/modules/modules.json",
        &workdir::manifest(&[
            Record("vpc", REG, Some("5.21.0"), ".terraform/modules/vpc"),
            Record("vpc", REG, Some("5.21.0"), ".terraform/modules/vpc"),
        ]),
    );
    assert_eq!(
        errors_of(&root),
        "Error: failed to read module manifest: snapshot file contains two records for path vpc\n"
    );
    std::fs::write(
        root.join(".terraform/modules/modules.json"),
        [0xff, 0xfe, b'{'],
    )
    .unwrap();
    assert!(
        errors_of(&root)
            .starts_with("Error: .terraform/modules/modules.json:1,1: Invalid character encoding")
    );
}

/// A manifest written by `terraform init` names Terraform's registry; the module is the same.
#[test]
fn a_manifest_written_by_terraform_init_is_read_too() {
    let root = one_call_workdir(
        "terraform",
        &[Record(
            "vpc",
            "registry.terraform.io/terraform-aws-modules/vpc/aws",
            Some("5.21.0"),
            ".terraform/modules/vpc",
        )],
    );
    let out = plan(&root);
    assert!(names(&out).contains(&"module.vpc.aws_vpc.this (expand)".to_string()));
}

const NOT_INSTALLED: &str = r#"variable "name" {}

provider "aws" {
  alias  = "east"
  region = "us-east-1"
}

locals {
  n = 1
}

resource "aws_s3_bucket" "logs" {}

module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  name   = var.name
  providers = {
    aws = aws.east
  }
}

module "sg" {
  source     = "terraform-aws-modules/security-group/aws"
  count      = local.n
  vpc_id     = module.vpc.vpc_id
  depends_on = [aws_s3_bucket.logs]
}

output "vpc_id" {
  value = module.vpc.vpc_id
}
"#;

#[test]
fn calls_that_are_not_installed_keep_their_dependencies() {
    let root = workdir::temp_dir("not-installed");
    workdir::write(&root, "main.tf", NOT_INSTALLED);
    let out = plan(&root);
    let east = "provider[\"registry.opentofu.org/hashicorp/aws\"].east";
    for (from, to) in [
        // Whatever reads module.vpc.vpc_id depends on the whole call.
        ("module.sg (expand)", "module.vpc (close)"),
        ("output.vpc_id (expand)", "module.vpc (close)"),
        // The call's arguments, count, depends_on and providers give it edges.
        ("module.vpc (expand)", "var.name (expand, reference)"),
        ("module.vpc (expand)", east),
        ("module.sg (expand)", "local.n (expand)"),
        ("module.sg (expand)", "aws_s3_bucket.logs (expand)"),
    ] {
        assert!(
            depends(&out, from, to),
            "{from} should depend on {to}\n{}",
            out.built.graph.string()
        );
    }
    let calls: Vec<String> = out
        .config
        .not_installed_calls()
        .iter()
        .map(|(p, _)| p.to_string())
        .collect();
    assert_eq!(calls, ["module.sg", "module.vpc"]);

    let (code, json, err) = tfgraph(&["graph", "--format", "json", root.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        "Warning: main.tf:23,16: Module not installed: Module \"module.sg\" (at main.tf:22) has source \"terraform-aws-modules/security-group/aws\", which is not installed: run \"tofu init\" to install it. Until then tfgraph draws the call as one opaque module: its arguments, count, for_each, depends_on and providers still give it edges, and references to its outputs depend on the whole call.\n\
         Warning: main.tf:15,12: Module not installed: Module \"module.vpc\" (at main.tf:14) has source \"terraform-aws-modules/vpc/aws\", which is not installed: run \"tofu init\" to install it. Until then tfgraph draws the call as one opaque module: its arguments, count, for_each, depends_on and providers still give it edges, and references to its outputs depend on the whole call.\n"
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["not_installed"],
        serde_json::json!([
            {"module": "module.sg", "source": "terraform-aws-modules/security-group/aws", "call": "main.tf:22,1"},
            {"module": "module.vpc", "source": "terraform-aws-modules/vpc/aws", "call": "main.tf:14,1"}
        ])
    );
}

/// With a manifest that lists one call but not the other, only the other stays opaque.
#[test]
fn a_call_missing_from_the_manifest_is_not_installed() {
    let root = one_call_workdir(
        "partial",
        &[Record("vpc", REG, Some("5.21.0"), ".terraform/modules/vpc")],
    );
    workdir::write(
        &root,
        "more.tf",
        "module \"sg\" {\n  source = \"terraform-aws-modules/security-group/aws\"\n  vpc_id = module.vpc.vpc_id\n}\n",
    );
    let out = plan(&root);
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert_eq!(out.warnings[0].summary, "Module not installed");
    assert!(depends(
        &out,
        "module.sg (expand)",
        "module.vpc.output.vpc_id (expand)"
    ));
}

//! Working directories as `tofu init` leaves them, built by the tests in a temporary folder: a
//! root module, `.terraform/modules/modules.json` and the installed module folders, copied from
//! the real-world repositories of `../shared/realworld`.

use std::path::{Path, PathBuf};

/// A fresh empty folder for one test (removed first if a previous run left it).
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tfgraph-wd-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// Writes `text` to `root/rel`, creating folders.
pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("a parent")).unwrap();
    std::fs::write(&p, text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
}

/// Copies every file under `from` to `to` (as a module installer unpacks a package).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .unwrap_or_else(|e| panic!("{}: {e}", from.display()))
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let dest = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        }
    }
}

/// One manifest record: key, source as `tofu init` writes it, version, folder.
pub struct Record<'a>(pub &'a str, pub &'a str, pub Option<&'a str>, pub &'a str);

/// The manifest text for `records` (with the root's record first, as OpenTofu writes it).
pub fn manifest(records: &[Record]) -> String {
    let mut all = vec![serde_json::json!({"Key": "", "Source": "", "Dir": "."})];
    for Record(key, source, version, dir) in records {
        let mut r = serde_json::json!({"Key": key, "Source": source, "Dir": dir});
        if let Some(v) = version {
            r["Version"] = serde_json::json!(v);
        }
        all.push(r);
    }
    serde_json::json!({ "Modules": all }).to_string()
}

/// The root module of the working directory that [`vpc_workdir`] builds.
pub const VPC_ROOT: &str = r#"variable "name" {
  type = string
}

variable "private_subnets" {
  type    = list(string)
  default = ["10.0.1.0/24"]
}

variable "web_count" {
  type    = number
  default = 1
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"

  name            = var.name
  cidr            = "10.0.0.0/16"
  azs             = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
  private_subnets = var.private_subnets
}

module "endpoints" {
  source  = "terraform-aws-modules/vpc/aws//modules/vpc-endpoints"
  version = "~> 5.0"

  vpc_id = module.vpc.vpc_id
}

module "flow_log_example" {
  source  = "terraform-aws-modules/vpc/aws//examples/flow-log"
  version = "5.21.0"
}

resource "aws_instance" "web" {
  count     = var.web_count
  subnet_id = module.vpc.private_subnets[0]
}
"#;

/// A stand-in for terraform-aws-modules/s3-bucket/aws, which `../shared` does not hold: the
/// outputs the flow-log example reads.
pub const S3_BUCKET: &str = r#"variable "bucket_prefix" {
  default = null
}
variable "force_destroy" {
  default = false
}
variable "attach_waf_log_delivery_policy" {
  default = false
}
variable "tags" {
  default = {}
}
resource "aws_s3_bucket" "this" {
  bucket_prefix = var.bucket_prefix
  force_destroy = var.force_destroy
  tags          = var.tags
}
output "s3_bucket_arn" {
  value = aws_s3_bucket.this.arn
}
"#;

/// A root module that calls terraform-aws-modules/vpc/aws (installed from terraform-aws-vpc),
/// its `modules/vpc-endpoints` subfolder with a reference to the first call's output, and its
/// `examples/flow-log` folder, whose own calls are local (`../../`, resolved inside the
/// installed package) and a nested registry call (`flow_log_example.s3_bucket`).
pub fn vpc_workdir(name: &str) -> PathBuf {
    let root = temp_dir(name);
    let vpc = super::realworld().join("terraform-aws-vpc");
    write(&root, "main.tf", VPC_ROOT);
    for dir in ["vpc", "endpoints", "flow_log_example"] {
        copy_tree(&vpc, &root.join(".terraform/modules").join(dir));
    }
    write(
        &root,
        ".terraform/modules/flow_log_example.s3_bucket/main.tf",
        S3_BUCKET,
    );
    let reg = "registry.opentofu.org/terraform-aws-modules/vpc/aws";
    let example = format!("{reg}//examples/flow-log");
    let endpoints = format!("{reg}//modules/vpc-endpoints");
    let ex_dir = ".terraform/modules/flow_log_example/examples/flow-log";
    let flow_log = ".terraform/modules/flow_log_example/modules/flow-log";
    let mut records = vec![
        Record("vpc", reg, Some("5.21.0"), ".terraform/modules/vpc"),
        Record(
            "endpoints",
            &endpoints,
            Some("5.21.0"),
            ".terraform/modules/endpoints/modules/vpc-endpoints",
        ),
        Record("flow_log_example", &example, Some("5.21.0"), ex_dir),
        Record(
            "flow_log_example.vpc",
            "../../",
            None,
            ".terraform/modules/flow_log_example",
        ),
        Record(
            "flow_log_example.s3_bucket",
            "registry.opentofu.org/terraform-aws-modules/s3-bucket/aws",
            Some("5.2.0"),
            ".terraform/modules/flow_log_example.s3_bucket",
        ),
    ];
    let locals = [
        "flow_log",
        "flow_log_cloudwatch_external",
        "flow_log_s3",
        "flow_log_s3_parquet",
        "disabled",
    ]
    .map(|c| format!("flow_log_example.{c}"));
    for k in &locals {
        records.push(Record(k, "../../modules/flow-log", None, flow_log));
    }
    write(
        &root,
        ".terraform/modules/modules.json",
        &manifest(&records),
    );
    root
}

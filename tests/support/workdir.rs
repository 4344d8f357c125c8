//! Working directories as `tofu init` leaves them, built by the tests in a temporary folder: a
//! root module, `.terraform/modules/modules.json` and the installed module folders, copied from
//! the real-world repositories of `../shared/realworld`, and what else `tofu init` leaves there
//! (a provider binary, the lock file).
//!
//! The files themselves come from [`vpc_workdir_files`], which reads nothing: the native tests
//! write them to disk ([`vpc_workdir`]), the browser test (`tests/browser.rs`, which includes
//! this file) opens them through the app's Folder input, so both check the same folder.

#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};

/// A fresh empty folder for one test (removed first if a previous run left it).
#[cfg(not(target_arch = "wasm32"))]
pub fn temp_dir(name: &str) -> PathBuf {
    super::scratch(&format!("wd-{name}"))
}

/// Writes `text` to `root/rel`, creating folders.
#[cfg(not(target_arch = "wasm32"))]
pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("a parent")).unwrap();
    std::fs::write(&p, text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
}

/// Copies every file under `from` to `to` (as a module installer unpacks a package).
#[cfg(not(target_arch = "wasm32"))]
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

/// Variable values for [`VPC_ROOT`]: two web instances, three private subnets.
pub const VPC_TFVARS: &str = "name            = \"demo\"\nprivate_subnets = [\"10.0.1.0/24\", \"10.0.2.0/24\", \"10.0.3.0/24\"]\nweb_count       = 2\n";

/// Where `tofu init` puts the AWS provider's binary, which tfgraph never reads.
pub const PROVIDER_BINARY: &str = ".terraform/providers/registry.opentofu.org/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5";

/// A stand-in for the provider binary: an ELF header and bytes that are not UTF-8 (a real one
/// is some 600 MB).
pub fn provider_binary() -> Vec<u8> {
    let mut b = b"\x7fELF\x02\x01\x01".to_vec();
    b.extend((0..100_000u32).map(|i| (i % 251) as u8 | 0x80));
    b
}

/// The files of a root module that calls terraform-aws-modules/vpc/aws (installed from
/// terraform-aws-vpc), its `modules/vpc-endpoints` subfolder with a reference to the first call's
/// output, and its `examples/flow-log` folder, whose own calls are local (`../../`, resolved
/// inside the installed package) and a nested registry call (`flow_log_example.s3_bucket`); with
/// a provider binary and a lock file, as `tofu init` leaves them. `vpc` holds terraform-aws-vpc's
/// files as (path inside it, bytes); the result is (path in the working directory, bytes).
pub fn vpc_workdir_files(vpc: &[(String, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = vec![("main.tf".into(), VPC_ROOT.into())];
    for dir in ["vpc", "endpoints", "flow_log_example"] {
        for (p, b) in vpc {
            out.push((format!(".terraform/modules/{dir}/{p}"), b.clone()));
        }
    }
    out.push((
        ".terraform/modules/flow_log_example.s3_bucket/main.tf".into(),
        S3_BUCKET.into(),
    ));
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
    out.push((
        ".terraform/modules/modules.json".into(),
        manifest(&records).into(),
    ));
    out.push((PROVIDER_BINARY.into(), provider_binary()));
    out.push((
        ".terraform.lock.hcl".into(),
        "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.100.0\"\n}\n".into(),
    ));
    out
}

/// Every file under `dir` as (path relative to it, bytes), in name order.
#[cfg(not(target_arch = "wasm32"))]
pub fn tree_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            let p = e.path();
            if p.is_dir() {
                walk(&p, &format!("{name}/"), out);
            } else {
                out.push((
                    name,
                    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out
}

/// The working directory of [`vpc_workdir_files`], written to a fresh temporary folder.
#[cfg(not(target_arch = "wasm32"))]
pub fn vpc_workdir(name: &str) -> PathBuf {
    let root = temp_dir(name);
    let vpc = tree_files(&super::realworld().join("terraform-aws-vpc"));
    for (rel, bytes) in vpc_workdir_files(&vpc) {
        let p = root.join(&rel);
        std::fs::create_dir_all(p.parent().expect("a parent")).unwrap();
        std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    }
    root
}

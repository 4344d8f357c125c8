//! Configuration loading: module tree, block decoding, diagnostics with OpenTofu's wording.

use std::collections::BTreeMap;
use tfgraph::addrs::{self, Provider, ResourceMode};
use tfgraph::config::{self, Config, Diagnostic, ModuleSource, Severity};

fn load(files: &[(&str, &str)]) -> (Option<Config>, Vec<Diagnostic>) {
    let map: BTreeMap<String, String> = files
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    config::load_files(&map)
}

fn load_ok(files: &[(&str, &str)]) -> Config {
    let (cfg, diags) = load(files);
    assert!(!config::has_errors(&diags), "{diags:#?}");
    cfg.expect("config")
}

fn errors(files: &[(&str, &str)]) -> Vec<String> {
    let (_, diags) = load(files);
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn module_tree_and_paths() {
    let cfg = load_ok(&[
        (
            "main.tf",
            "module \"a\" {\n  source = \"./modules/a\"\n}\nmodule \"r\" {\n  source = \"hashicorp/consul/aws\"\n  version = \"1.0\"\n}\n",
        ),
        (
            "modules/a/main.tf",
            "module \"b\" { source = \"../b\" }\noutput \"o\" { value = module.b.x }\n",
        ),
        ("modules/b/main.tf", "output \"x\" { value = 1 }\n"),
    ]);
    let b = cfg
        .descendant(&addrs::Module(vec!["a".into(), "b".into()].into()))
        .expect("module.a.module.b");
    assert_eq!(b.path.to_string(), "module.a.module.b");
    assert_eq!(b.module.source_dir, "modules/b");
    assert_eq!(b.source_addr, Some(ModuleSource::Local("../b".into())));
    assert!(b.module.outputs.contains_key("x"));
    assert!(
        !cfg.children.contains_key("r"),
        "registry modules stay opaque"
    );
    assert!(matches!(
        cfg.module.module_calls["r"].source,
        Some(ModuleSource::Registry(_))
    ));
    assert_eq!(cfg.all_modules().len(), 3);

    let (_, diags) = load(&[(
        "main.tf",
        "module \"r\" {\n  source = \"git::https://example.com/x.git\"\n}\n",
    )]);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].severity, Severity::Warning);
    assert_eq!(diags[0].summary, "Module not installed");
}

#[test]
fn missing_and_recursive_modules() {
    let e = errors(&[("main.tf", "module \"x\" {\n  source = \"./nope\"\n}\n")]);
    assert_eq!(
        e,
        [
            "main.tf:2,12: Unreadable module directory: The directory nope could not be read for module \"x\" at main.tf:1."
        ]
    );
    let e = errors(&[
        ("main.tf", "module \"x\" { source = \"./m\" }\n"),
        ("m/main.tf", "module \"again\" { source = \"../m\" }\n"),
    ]);
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("Module recursion"), "{e:?}");
}

#[test]
fn duplicates_use_opentofu_wording() {
    let e = errors(&[(
        "main.tf",
        "resource \"aws_instance\" \"a\" {}\nresource \"aws_instance\" \"a\" {}\nvariable \"v\" {}\nvariable \"v\" {}\n",
    )]);
    assert_eq!(
        e,
        [
            "main.tf:2,1: Duplicate resource \"aws_instance\" configuration: A aws_instance resource named \"a\" was already declared at main.tf:1,1-28. Resource names must be unique per type in each module.",
            "main.tf:4,1: Duplicate variable declaration: A variable named \"v\" was already declared at main.tf:3,1-13. Variable names must be unique within a module.",
        ]
    );
}

#[test]
fn syntax_errors_have_positions() {
    let e = errors(&[(
        "main.tf",
        "resource \"a\" \"b\" {\n  x = 1\n}\n\"oops\" = 2\n",
    )]);
    assert_eq!(e.len(), 1);
    // HCL's `ParseBody` words a body item that starts with a quote as a quoted argument name.
    assert!(
        e[0].starts_with("main.tf:4,1: Invalid argument name: Argument names must not be quoted."),
        "{e:?}"
    );
    let e = errors(&[("main.tf", "resource \"a\" \"b\" {\n  x = 1\n")]);
    assert_eq!(e.len(), 1);
    // At the unclosed block's opening brace (hclsyntax `ParseBody`, Subject `startRange`).
    assert!(
        e[0].starts_with("main.tf:1,18: Unclosed configuration block"),
        "{e:?}"
    );
    // HCL's scanner reports the newline inside the quotes before the parser says anything.
    let e = errors(&[("main.tf", "a = \"unterminated\n")]);
    assert!(
        e[0].starts_with("main.tf:1,18: Invalid multi-line string"),
        "{e:?}"
    );
    // The file ends inside the string: the template parser meets the EOF token at the end of
    // the file (hclsyntax `parseTemplateParts`, Subject `next.Range`).
    let e = errors(&[("main.tf", "a = \"unterminated")]);
    assert!(
        e[0].starts_with("main.tf:1,18: Unterminated template string"),
        "{e:?}"
    );
    let e = errors(&[("main.tf", "x {\n  y = [1,\n}\n")]);
    assert!(e[0].starts_with("main.tf:3,1: Invalid expression"), "{e:?}");
    let e = errors(&[("main.tf", "foo = 1\nbar {}\n")]);
    assert_eq!(
        e,
        [
            "main.tf:1,1: Unsupported argument: An argument named \"foo\" is not expected here.",
            "main.tf:2,1: Unsupported block type: Blocks of type \"bar\" are not expected here.",
        ]
    );
}

#[test]
fn providers_and_meta_arguments() {
    let cfg = load_ok(&[(
        "main.tf",
        r#"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
    custom = { source = "example.com/acme/thing", configuration_aliases = [custom.x] }
  }
}
provider "aws" {
  alias  = "west"
  region = var.region
}
variable "region" { default = "x" }
resource "aws_instance" "a" {
  count    = 2
  provider = aws.west
  ami      = "x"
  depends_on = [aws_instance.b]
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = false
    ignore_changes        = [tags]
    replace_triggered_by  = [aws_instance.b.id]
    precondition {
      condition     = var.region != ""
      error_message = "no"
    }
  }
  provisioner "local-exec" {
    command = "echo ${self.id}"
    when    = destroy
  }
  connection { host = self.public_ip }
}
resource "aws_instance" "b" {}
resource "custom_thing" "c" {}
resource "thing_one" "d" { provider = custom.x }
data "aws_ami" "d" { for_each = toset(["a"]) }
ephemeral "aws_secret" "e" {}
check "health" {
  data "http" "h" { url = "x" }
  assert {
    condition     = data.http.h.status == 200
    error_message = "down"
  }
}
import {
  to = aws_instance.b
  id = "i-123"
}
moved {
  from = aws_instance.old
  to   = aws_instance.b
}
removed {
  from = aws_instance.gone
  lifecycle { destroy = false }
}
"#,
    )]);
    let m = &cfg.module;
    let a = &m.managed_resources["aws_instance.a"];
    assert_eq!(a.provider, Provider::default_for("aws"));
    assert_eq!(a.provider_config_addr().key(), "aws.west");
    assert!(a.count.is_some());
    assert_eq!(a.depends_on.len(), 1);
    let mr = a.managed.as_ref().unwrap();
    assert!(mr.create_before_destroy && mr.create_before_destroy_set && mr.prevent_destroy_set);
    assert_eq!(mr.ignore_changes.len(), 1);
    assert_eq!(mr.provisioners.len(), 1);
    assert_eq!(mr.provisioners[0].when, config::ProvisionerWhen::Destroy);
    assert!(mr.connection.is_some());
    assert_eq!(a.triggers_replacement.len(), 1);
    assert_eq!(a.preconditions.len(), 1);
    assert!(a.config.body.get_attribute("ami").is_some());
    assert!(
        a.config.body.get_attribute("count").is_none(),
        "meta-arguments are removed from the body"
    );
    assert_eq!(
        m.managed_resources["custom_thing.c"].provider,
        Provider::new("example.com", "acme", "thing")
    );
    assert_eq!(
        m.managed_resources["thing_one.d"].provider,
        Provider::new("example.com", "acme", "thing")
    );
    assert_eq!(m.data_resources["data.aws_ami.d"].mode, ResourceMode::Data);
    assert_eq!(
        m.ephemeral_resources["ephemeral.aws_secret.e"].provider,
        Provider::default_for("aws")
    );
    assert_eq!(
        m.data_resources["data.http.h"].container.as_deref(),
        Some("health")
    );
    assert_eq!(m.checks["health"].asserts.len(), 1);
    assert_eq!(
        m.provider_configs["aws.west"].alias.as_deref(),
        Some("west")
    );
    assert_eq!(
        m.local_name_for_provider(&Provider::new("example.com", "acme", "thing")),
        "custom"
    );
    assert_eq!(m.imports.len(), 1);
    assert_eq!(m.imports[0].provider, Provider::default_for("aws"));
    assert_eq!(m.moved.len(), 1);
    assert_eq!(m.removed[0].destroy, Some(false));
    assert_eq!(a.decl_range.to_string(), "main.tf:13,1");
}

#[test]
fn provider_instance_keys_and_module_providers() {
    let cfg = load_ok(&[
        (
            "main.tf",
            r#"
provider "aws" {
  alias    = "by_region"
  for_each = toset(["a", "b"])
}
resource "aws_instance" "x" {
  for_each = toset(["a", "b"])
  provider = aws.by_region[each.key]
}
module "child" {
  source    = "./child"
  providers = { aws = aws.by_region["a"], "aws.other" = aws }
}
"#,
        ),
        ("child/main.tf", "resource \"aws_instance\" \"y\" {}\n"),
    ]);
    let x = &cfg.module.managed_resources["aws_instance.x"];
    let pr = x.provider_ref.as_ref().unwrap();
    assert_eq!(
        (pr.name.as_str(), pr.alias.as_deref()),
        ("aws", Some("by_region"))
    );
    assert_eq!(pr.key_expr.as_ref().unwrap().text(), "each.key");
    let refs = config::refs::resource_meta_refs(x);
    let names: Vec<String> = refs.refs.iter().map(|r| r.display_string()).collect();
    assert_eq!(names, ["each.key"]);
    let mc = &cfg.module.module_calls["child"];
    assert_eq!(mc.providers.len(), 2);
    assert_eq!(mc.providers[0].in_child.addr().key(), "aws");
    assert_eq!(mc.providers[0].in_parent.addr().key(), "aws.by_region");
    assert!(mc.providers[0].in_parent.key_expr.is_some());
    assert_eq!(mc.providers[1].in_child.addr().key(), "aws.other");
}

#[test]
fn json_files_load() {
    let cfg = load_ok(&[(
        "main.tf.json",
        r#"{"resource":{"aws_instance":{"a":{"ami":"${var.ami}"}}},"variable":{"ami":{}}}"#,
    )]);
    let a = &cfg.module.managed_resources["aws_instance.a"];
    let (refs, _) = config::refs_in_body(&a.config, None);
    assert_eq!(refs[0].display_string(), "var.ami");
}

/// OpenTofu reads a JSON string as a template whose `${…}` holds an expression: quoted strings
/// in it (escaped in the JSON) are the expression's own, not escaped quotes of the template.
#[test]
fn json_templates_may_quote_strings_inside_their_expressions() {
    let cfg = load_ok(&[(
        "main.tf.json",
        r#"{"resource":{"aws_instance":{"a":{"ami":"${lookup(var.amis, \"eu\")}-\"q\""}}},
            "variable":{"amis":{}}}"#,
    )]);
    let a = &cfg.module.managed_resources["aws_instance.a"];
    let (refs, _) = config::refs_in_body(&a.config, None);
    let names: Vec<String> = refs.iter().map(|r| r.display_string()).collect();
    assert_eq!(names, ["var.amis"]);
}

#[test]
fn empty_configuration_is_an_empty_root() {
    let cfg = load_ok(&[]);
    assert!(cfg.path.is_root());
    assert!(cfg.module.managed_resources.is_empty());
}

#[test]
fn provider_resolution_follows_go() {
    let cfg = load_ok(&[
        (
            "main.tf",
            r#"
terraform {
  required_providers {
    foo = { source = "acme/foo" }
  }
}
provider "foo" {}
module "child" {
  source    = "./child"
  providers = { bar = foo }
}
"#,
        ),
        (
            "child/main.tf",
            r#"
terraform {
  required_providers {
    bar = { source = "acme/foo" }
  }
}
resource "bar_thing" "x" {}
resource "terraform_data" "y" {}
"#,
        ),
    ]);
    // Go looks the local name up in the receiver's (root's) required_providers.
    let child_path = addrs::Module(vec!["child".into()].into());
    let abs =
        cfg.resolve_abs_provider_addr(&addrs::LocalProviderConfig::new("bar", None), &child_path);
    assert_eq!(
        abs.to_string(),
        "module.child.provider[\"registry.opentofu.org/hashicorp/bar\"]"
    );
    let child = cfg.descendant(&child_path).unwrap();
    assert_eq!(
        child.module.managed_resources["bar_thing.x"].provider,
        Provider::new("registry.opentofu.org", "acme", "foo")
    );
    assert_eq!(
        child.module.managed_resources["terraform_data.y"].provider,
        Provider::builtin("terraform")
    );
    let pp = &cfg.module.module_calls["child"].providers[0];
    assert_eq!(
        pp.in_parent.provider_type,
        Some(Provider::new("registry.opentofu.org", "acme", "foo"))
    );
    assert_eq!(
        pp.in_child.provider_type,
        Some(Provider::new("registry.opentofu.org", "acme", "foo"))
    );
    let types: Vec<String> = cfg.provider_types().iter().map(|p| p.to_string()).collect();
    assert_eq!(
        types,
        [
            "registry.opentofu.org/acme/foo",
            "terraform.io/builtin/terraform"
        ]
    );
}

#[test]
fn module_lifecycle_and_provider_map_duplicates() {
    let cfg = load_ok(&[
        (
            "main.tf",
            "module \"m\" {\n  source = \"./m\"\n  lifecycle {\n    enabled = var.on\n  }\n}\nvariable \"on\" {}\n",
        ),
        ("m/main.tf", ""),
    ]);
    let refs = config::refs::module_call_refs(&cfg.module.module_calls["m"]);
    assert_eq!(refs.refs[0].display_string(), "var.on");
    let e = errors(&[
        (
            "main.tf",
            "module \"m\" {\n  source = \"./m\"\n  providers = { aws = aws, \"aws\" = aws.x }\n}\n",
        ),
        ("m/main.tf", ""),
    ]);
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("Duplicate provider address"), "{e:?}");
}

#[test]
fn addresses_of_moved_import_removed() {
    let cfg = load_ok(&[(
        "main.tf",
        r#"
import {
  for_each = toset(["a"])
  to       = module.m[each.key].aws_instance.x[each.key]
  id       = each.key
}
moved {
  from = aws_instance.a[0]
  to   = module.n.aws_instance.b
}
removed {
  from = module.gone
}
"#,
    )]);
    let m = &cfg.module;
    assert_eq!(
        m.imports[0].to_resource().unwrap().to_string(),
        "module.m.aws_instance.x"
    );
    assert_eq!(
        m.moved[0].from_addr().unwrap().to_string(),
        "aws_instance.a[0]"
    );
    assert_eq!(
        m.moved[0].to_addr().unwrap().to_string(),
        "module.n.aws_instance.b"
    );
    assert_eq!(m.removed[0].from_addr().unwrap().to_string(), "module.gone");
    let r = config::refs::import_refs(&m.imports[0]);
    let names: Vec<String> = r.refs.iter().map(|r| r.display_string()).collect();
    assert_eq!(names, ["each.key", "each.key", "each.key"]);
}

#[test]
fn override_files_merge_like_opentofu() {
    let cfg = load_ok(&[
        (
            "main.tf",
            r#"
resource "aws_instance" "a" {
  ami   = var.base_ami
  count = 1
  ebs { size = var.base_size }
  tags = { x = 1 }
}
variable "base_ami" {}
variable "base_size" {}
variable "over" {}
locals { l = var.base_ami }
output "o" { value = local.l }
"#,
        ),
        (
            "main_override.tf",
            r#"
resource "aws_instance" "a" {
  ami = var.over
  ebs { size = 2 }
  lifecycle { create_before_destroy = true }
}
locals { l = var.over }
"#,
        ),
    ]);
    let a = &cfg.module.managed_resources["aws_instance.a"];
    assert!(a.count.is_some());
    assert!(a.managed.as_ref().unwrap().create_before_destroy);
    let (refs, _) = config::refs_in_body(&a.config, None);
    let got: Vec<String> = refs
        .iter()
        .map(|r| format!("{} at {}", r.display_string(), r.range))
        .collect();
    assert_eq!(got, ["var.over at main_override.tf:3,9"]);
    let l = &cfg.module.locals["l"];
    let (refs, _) = config::refs_in_expr(&l.expr);
    assert_eq!(refs[0].range.to_string(), "main_override.tf:7,14");

    let e = errors(&[
        ("main.tf", ""),
        (
            "override.tf",
            "resource \"x\" \"y\" {}\nmoved {\n  from = x.a\n  to = x.b\n}\n",
        ),
    ]);
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].contains("Missing resource to override"), "{e:?}");
    assert!(e[1].contains("Cannot override 'moved' blocks"), "{e:?}");
    let e = errors(&[("main.tf", ""), ("override.tf", "x = \n")]);
    assert!(
        e[0].starts_with("override.tf:1,5: Invalid expression"),
        "{e:?}"
    );
}

#[test]
fn tofu_files_take_precedence() {
    let cfg = load_ok(&[
        ("main.tf", "resource \"a_b\" \"from_tf\" {}\n"),
        ("main.tofu", "resource \"a_b\" \"from_tofu\" {}\n"),
        ("other.tf", "variable \"v\" {\n  const = true\n}\n"),
    ]);
    let names: Vec<&String> = cfg.module.managed_resources.keys().collect();
    assert_eq!(names, ["a_b.from_tofu"]);
    assert!(cfg.module.variables.contains_key("v"));
}

#[test]
fn label_errors_use_hcl_wording() {
    let e = errors(&[(
        "main.tf",
        "resource \"aws_instance\" {}\nvariable {}\nlocals \"x\" {}\n",
    )]);
    assert_eq!(
        e,
        [
            // At the opening brace, as hclsyntax `Body.PartialContent` reports it.
            "main.tf:1,25: Missing name for resource: All resource blocks must have 2 labels (type, name).",
            "main.tf:2,10: Missing name for variable: All variable blocks must have 1 labels (name).",
            "main.tf:3,8: Extraneous label for locals: No labels are expected for locals blocks.",
        ]
    );
}

#[test]
fn provider_configurations_across_modules() {
    // A module with its own provider configuration cannot be called with count.
    let e = errors(&[
        (
            "main.tf",
            "module \"legacy\" {\n  source = \"./legacy\"\n  count  = 2\n}\n",
        ),
        (
            "legacy/main.tf",
            "provider \"aws\" {\n  region = \"x\"\n}\n",
        ),
    ]);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("main.tf:3,12: Module is incompatible with count, for_each, and depends_on: The module at module.legacy is a legacy module"),
        "{e:?}"
    );
    // configuration_aliases must be passed.
    let e = errors(&[
        ("main.tf", "module \"c\" {\n  source = \"./c\"\n}\n"),
        (
            "c/main.tf",
            "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.east]\n    }\n  }\n}\n",
        ),
    ]);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("Missing required provider configuration"),
        "{e:?}"
    );
    assert!(e[0].contains("with the local name \"aws.east\""), "{e:?}");
    // Empty provider blocks in a child are a warning.
    let (_, d) = load(&[
        (
            "main.tf",
            "module \"c\" {\n  source = \"./c\"\n  providers = { aws = aws }\n}\nprovider \"aws\" {\n  region = \"x\"\n}\n",
        ),
        ("c/main.tf", "provider \"aws\" {}\n"),
    ]);
    let w: Vec<&str> = d.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(w, ["Redundant empty provider block"], "{d:?}");
    assert!(
        d[0].detail.contains("source = \"hashicorp/aws\""),
        "{}",
        d[0].detail
    );
}

#[test]
fn quoted_references_are_deprecated_but_read() {
    let (cfg, d) = load(&[(
        "main.tf",
        "resource \"a_b\" \"x\" {\n  depends_on = [\"a_b.y\"]\n  lifecycle {\n    ignore_changes = [\"tags\"]\n  }\n}\nresource \"a_b\" \"y\" {}\n",
    )]);
    let w: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].starts_with("Warning: main.tf:2,17: Quoted references are deprecated"),
        "{w:?}"
    );
    let cfg = cfg.unwrap();
    let x = &cfg.module.managed_resources["a_b.x"];
    let r = config::refs::resource_meta_refs(x);
    assert_eq!(r.refs[0].display_string(), "a_b.y");
    assert_eq!(r.refs[0].range.to_string(), "main.tf:2,18");
    assert_eq!(x.managed.as_ref().unwrap().ignore_changes[0].text(), "tags");
}

#[test]
fn load_and_validate_reports_everything_a_user_needs() {
    let files: BTreeMap<String, String> = [(
        "main.tf".to_string(),
        "output \"o\" { value = var.nope }\n".to_string(),
    )]
    .into_iter()
    .collect();
    let (cfg, d) = config::load_and_validate(&files);
    assert!(cfg.is_some());
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].summary, "Reference to undeclared input variable");
}

#[test]
fn byte_order_marks_and_crlf_are_accepted() {
    let cfg = load_ok(&[(
        "main.tf",
        "\u{feff}variable \"a\" {}\r\noutput \"o\" {\r\n  value = var.a\r\n}\r\n",
    )]);
    let (refs, _) = config::refs_in_expr(cfg.module.outputs["o"].expr.as_ref().unwrap());
    assert_eq!(refs[0].range.to_string(), "main.tf:3,11");
}

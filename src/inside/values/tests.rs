use super::*;
use crate::addrs::{self, ResourceMode};
use crate::builder::Node;
use crate::config::load_files;
use crate::config::model::Config;
use crate::config::vars::VarSource;
use crate::config::vars::{VarInput, resolve, sources};
use hcl::Value;
use model::line_of;

struct Setup {
    config: Config,
    vars: BTreeMap<String, Value>,
    sources: BTreeMap<String, VarSource>,
}

fn setup(files: &[(&str, &str)], inputs: Vec<VarInput>) -> Setup {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    let (cfg, diags) = load_files(&files);
    let config = cfg.unwrap_or_else(|| panic!("{diags:?}"));
    let (vars, d) = resolve(&config.module.variables, &inputs);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let sources = sources(&inputs);
    Setup {
        config,
        vars,
        sources,
    }
}

impl Setup {
    fn of(&self, s: Subject) -> Values {
        values(
            Inputs {
                config: &self.config,
                vars: &self.vars,
                sources: &self.sources,
            },
            &s,
        )
    }
}

/// `name = value (note)` lines of a group, reads first (prefixed `reads `).
fn lines(g: &Group) -> Vec<String> {
    g.reads
        .iter()
        .map(|n| format!("reads {}", line_of(n)))
        .chain(g.produces.iter().map(line_of))
        .collect()
}

fn group<'a>(v: &'a Values, title: &str) -> &'a Group {
    v.groups
        .iter()
        .find(|g| g.title == title)
        .unwrap_or_else(|| panic!("no group {title} in {v:#?}"))
}

fn res(t: &str, n: &str) -> ConfigResource {
    addrs::Resource::new(ResourceMode::Managed, t, n).in_module(Module::root())
}

fn root_var(name: &str) -> Subject {
    Subject::RootVariable(name.into())
}

const VARS: &str = r#"
variable "region" { default = "eu-west-1" }
variable "size" {
  type    = number
  default = 1
}
variable "zones" { type = list(string) }
variable "token" {
  default   = "s3cr3t"
  sensitive = true
}
variable "missing" {}
variable "env" {}
"#;

#[test]
fn variables_show_their_value_and_where_it_came_from() {
    let s = setup(
        &[("main.tf", VARS)],
        vec![
            VarInput::Env {
                name: "env".into(),
                value: "staging".into(),
            },
            VarInput::AutoFile {
                name: "terraform.tfvars".into(),
                text: "size = 3\nzones = [\"a\", \"b\"]\n".into(),
            },
            VarInput::var("size=4"),
        ],
    );
    let one = |n: &str| lines(&s.of(root_var(n)).groups[0]);
    assert_eq!(one("region"), ["var.region = \"eu-west-1\" (default)"]);
    assert_eq!(one("size"), ["var.size = 4 (-var)"]);
    assert_eq!(
        one("zones"),
        ["var.zones = [\"a\", \"b\"] (terraform.tfvars)"]
    );
    assert_eq!(one("env"), ["var.env = \"staging\" (TF_VAR_env)"]);
    assert_eq!(one("token"), ["var.token = (sensitive value)"]);
    let missing = s.of(root_var("missing"));
    let m = &missing.groups[0].produces[0];
    assert_eq!(m.shown.text(), "(no value)");
    assert!(
        m.shown
            .note()
            .unwrap()
            .contains("no default and no value was given"),
        "{m:?}"
    );
}

#[test]
fn locals_are_evaluated_through_other_locals_and_say_what_they_read() {
    let s = setup(
        &[(
            "main.tf",
            r#"
variable "name" { default = "web" }
locals {
  prefix = "${var.name}-${terraform.workspace}"
  names  = [for i in range(3) : "${local.prefix}-${i}"]
  ip     = aws_instance.web.private_ip
  label  = "host ${local.ip}"
}
resource "aws_instance" "web" {}
"#,
        )],
        vec![],
    );
    let local = |n: &str| {
        s.of(Subject::Local {
            module: Module::root(),
            name: n.into(),
        })
    };
    let names = local("names");
    assert_eq!(
        lines(group(&names, "local.names")),
        [
            "reads local.prefix = \"web-default\"",
            "local.names = [\"web-default-0\", \"web-default-1\", \"web-default-2\"]"
        ]
    );
    // A local that reads a resource attribute is known after apply, and a local that reads that
    // local says which attribute, through which local.
    let label = local("label");
    let v = &group(&label, "local.label").produces[0].shown;
    assert_eq!(v.text(), "(known after apply)");
    assert_eq!(
        v.note(),
        Some(
            "through local.ip: aws_instance.web.private_ip is attribute \"private_ip\" of managed resource aws_instance.web, which the provider returns when it plans and applies it"
        )
    );
}

const MODULES: &[(&str, &str)] = &[
    (
        "main.tf",
        r#"
variable "envs" { default = { dev = "10.0.0.0/16", prod = "10.1.0.0/16" } }
module "net" {
  source   = "./net"
  for_each = var.envs
  cidr     = each.value
  name     = "net-${each.key}"
}
module "one" {
  source = "./net"
  cidr   = "10.9.0.0/16"
}
output "dev_name" { value = module.net["dev"].name }
output "one" { value = module.one }
output "vpc" { value = module.one.vpc_id }
"#,
    ),
    (
        "net/main.tf",
        r#"
variable "cidr" {}
variable "name" { default = "default-net" }
resource "aws_vpc" "v" { cidr_block = var.cidr }
output "name" { value = "vpc ${var.name}" }
output "vpc_id" { value = aws_vpc.v.id }
"#,
    ),
];

#[test]
fn module_inputs_and_outputs_are_known_per_instance() {
    let s = setup(MODULES, vec![]);
    let net = Module(vec!["net".into()].into());
    let input = s.of(Subject::ModuleInput {
        module: net.clone(),
        name: "cidr".into(),
    });
    assert_eq!(
        lines(group(&input, "module.net[\"dev\"]")),
        [
            "reads each.value = \"10.0.0.0/16\"",
            "var.cidr = \"10.0.0.0/16\" (argument of module.net)"
        ]
    );
    assert_eq!(
        lines(group(&input, "module.net[\"prod\"]")),
        [
            "reads each.value = \"10.1.0.0/16\"",
            "var.cidr = \"10.1.0.0/16\" (argument of module.net)"
        ]
    );
    // The module's own output, per instance, from its input.
    let out = s.of(Subject::Output {
        module: net.clone(),
        name: "name".into(),
    });
    assert_eq!(
        lines(group(&out, "module.net[\"prod\"].output.name")),
        [
            "reads var.name = \"net-prod\" (argument of module.net)",
            "output.name = \"vpc net-prod\""
        ]
    );
    // A root output reading a module output: known where the output is.
    let root = |n: &str| {
        s.of(Subject::Output {
            module: Module::root(),
            name: n.into(),
        })
    };
    assert_eq!(
        lines(group(&root("dev_name"), "output.dev_name")),
        [
            "reads module.net[\"dev\"].name = \"vpc net-dev\"",
            "output.dev_name = \"vpc net-dev\""
        ]
    );
    let vpc = root("vpc");
    let v = &group(&vpc, "output.vpc").produces[0].shown;
    assert_eq!(v.text(), "(known after apply)");
    assert_eq!(
        v.note(),
        Some(
            "through module.one.vpc_id: aws_vpc.v.id is attribute \"id\" of managed resource aws_vpc.v, which the provider returns when it plans and applies it"
        )
    );
    // The whole module object is unknown when one of its outputs is.
    assert_eq!(
        group(&root("one"), "output.one").produces[0].shown.text(),
        "(known after apply)"
    );
    // The module call: its for_each and the inputs of each instance.
    let call = s.of(Subject::Module(net));
    assert_eq!(
        lines(group(&call, "module.net")),
        [
            "reads var.envs = { dev = \"10.0.0.0/16\", prod = \"10.1.0.0/16\" } (default)",
            "for_each = { dev = \"10.0.0.0/16\", prod = \"10.1.0.0/16\" }",
            "instances = module.net[\"dev\"], module.net[\"prod\"]"
        ]
    );
    assert_eq!(
        lines(group(&call, "module.net[\"dev\"] inputs")),
        [
            "reads each.value = \"10.0.0.0/16\"",
            "reads each.key = \"dev\"",
            "cidr = \"10.0.0.0/16\"",
            "name = \"net-dev\""
        ]
    );
}

#[test]
fn count_and_for_each_give_instances_and_their_arguments() {
    let s = setup(
        &[(
            "main.tf",
            r#"
variable "n" {
  type    = number
  default = 2
}
variable "amis" { default = ["ami-1", "ami-2"] }
resource "aws_subnet" "a" {}
resource "aws_instance" "web" {
  count         = var.n
  ami           = var.amis[count.index]
  subnet_id     = aws_subnet.a.id
  tags = {
    Name = "web-${count.index}"
  }
  root_block_device {
    volume_size = 8 * (count.index + 1)
  }
}
resource "aws_s3_bucket" "b" {
  for_each = toset(["logs", "data"])
  bucket   = "acme-${each.key}"
}
resource "aws_eip" "ip" {
  count = length(aws_instance.web)
}
resource "aws_vpc" "off" {
  lifecycle { enabled = false }
}
"#,
        )],
        vec![VarInput::var("n=3")],
    );
    let web = s.of(Subject::Resource(res("aws_instance", "web")));
    assert_eq!(
        lines(group(&web, "aws_instance.web")),
        [
            "reads var.n = 3 (-var)",
            "count = 3",
            "instances = aws_instance.web[0], aws_instance.web[1], aws_instance.web[2]"
        ]
    );
    let one = group(&web, "aws_instance.web[1]");
    assert_eq!(
        lines(one),
        [
            "reads var.amis = [\"ami-1\", \"ami-2\"] (default)",
            "reads count.index = 1",
            "reads aws_subnet.a.id = (known after apply) (aws_subnet.a.id is attribute \"id\" of managed resource aws_subnet.a, which the provider returns when it plans and applies it)",
            "ami = \"ami-2\"",
            "subnet_id = (known after apply) (aws_subnet.a.id is attribute \"id\" of managed resource aws_subnet.a, which the provider returns when it plans and applies it)",
            "tags = { Name = \"web-1\" }",
            "root_block_device.volume_size = 16"
        ]
    );
    // Index 2 is past the list: the evaluator's error, not a guess.
    let third = group(&web, "aws_instance.web[2]");
    let ami = third.produces.iter().find(|n| n.name == "ami").unwrap();
    assert_eq!(ami.shown.text(), "(not known statically)");
    assert!(
        ami.shown.note().unwrap().contains("var.amis[count.index]"),
        "{ami:?}"
    );

    let b = s.of(Subject::Resource(res("aws_s3_bucket", "b")));
    assert_eq!(
        lines(group(&b, "aws_s3_bucket.b[\"data\"]")),
        ["reads each.key = \"data\"", "bucket = \"acme-data\""]
    );
    assert_eq!(
        group(&b, "aws_s3_bucket.b").produces[1].shown.text(),
        "aws_s3_bucket.b[\"data\"], aws_s3_bucket.b[\"logs\"]"
    );
    // An unknown count: the instances are unknown, with the reference that is.
    let eip = s.of(Subject::Resource(res("aws_eip", "ip")));
    let g = group(&eip, "aws_eip.ip");
    assert_eq!(g.produces[0].name, "count");
    assert_eq!(g.produces[0].shown.text(), "(known after apply)");
    let instances = &g.produces[1];
    assert_eq!(instances.shown.text(), "(known after apply)");
    assert_eq!(
        instances.shown.note(),
        Some(
            "count = length(aws_instance.web) is unknown (aws_instance.web is the whole of managed resource aws_instance.web, which the provider returns when it plans and applies it)"
        )
    );
    let off = s.of(Subject::Resource(res("aws_vpc", "off")));
    assert_eq!(
        lines(group(&off, "aws_vpc.off")),
        ["enabled = false", "instances = (none)"]
    );
    // One instance vertex of an apply graph.
    let inst = s.of(Subject::Instance(
        addrs::Resource::new(ResourceMode::Managed, "aws_instance", "web")
            .instance(InstanceKey::Int(0))
            .absolute(ModuleInstance::root()),
    ));
    assert_eq!(inst.groups.len(), 1);
    assert!(
        lines(&inst.groups[0]).contains(&"ami = \"ami-1\"".to_string()),
        "{inst:?}"
    );
}

#[test]
fn data_sources_providers_and_unevaluated_functions_say_why() {
    let s = setup(
        &[(
            "main.tf",
            r#"
variable "region" { default = "eu-west-1" }
provider "aws" {
  region = var.region
}
data "aws_ami" "u" {}
resource "aws_instance" "x" {
  ami  = data.aws_ami.u.id
  cidr = cidrsubnet("10.0.0.0/16", 8, 1)
  dir  = path.module
}
"#,
        )],
        vec![],
    );
    let p = s.of(Subject::Provider {
        module: Module::root(),
        provider: addrs::Provider::implied("aws"),
        alias: None,
    });
    assert_eq!(
        lines(group(&p, "provider")),
        [
            "reads var.region = \"eu-west-1\" (default)",
            "region = \"eu-west-1\""
        ]
    );
    let x = s.of(Subject::Resource(res("aws_instance", "x")));
    let g = group(&x, "aws_instance.x");
    let by = |n: &str| {
        g.produces
            .iter()
            .find(|x| x.name == n)
            .unwrap()
            .shown
            .clone()
    };
    assert_eq!(by("ami").text(), "(known once read)");
    assert_eq!(
        by("ami").note(),
        Some(
            "data.aws_ami.u.id is attribute \"id\" of data source data.aws_ami.u, which the provider reads during the walk"
        )
    );
    assert_eq!(by("cidr").text(), "(not known statically)");
    assert!(
        by("cidr").note().unwrap().contains("cidrsubnet"),
        "{:?}",
        by("cidr")
    );
    assert_eq!(
        by("dir").note(),
        Some("path.module is not evaluated by tfgraph")
    );
}

#[test]
fn large_values_are_cut_with_a_count() {
    let v: Value = hcl::from_str::<hcl::Value>("x = [1, 2, 3, 4, 5, 6, 7]")
        .map(|b| match b {
            Value::Object(m) => m["x"].clone(),
            _ => unreachable!(),
        })
        .unwrap();
    assert_eq!(render(&v), "[1, 2, 3, 4, 5, … 2 more]");
    let long = Value::from("a".repeat(100));
    assert_eq!(
        render(&long),
        format!("\"{}…\" (100 characters)", "a".repeat(60))
    );
    let nested = hcl::from_str::<hcl::Value>("x = { \"a b\" = { c = [[1]] }, d = null }").unwrap();
    assert_eq!(
        render(&nested),
        "{ x = { \"a b\" = {… 1 keys}, d = null } }"
    );
}

#[test]
fn cycles_and_vertices_without_values_do_not_hang() {
    let s = setup(
        &[(
            "main.tf",
            "locals {\n  a = local.b\n  b = local.a\n}\nresource \"x_y\" \"z\" {\n  count = length(local.a)\n}\n",
        )],
        vec![],
    );
    let a = s.of(Subject::Local {
        module: Module::root(),
        name: "a".into(),
    });
    assert_eq!(
        a.groups[0].produces[0].shown.text(),
        "(not known statically)"
    );
    let z = s.of(Subject::Resource(res("x_y", "z")));
    assert!(!z.groups[0].produces[1].shown.is_known());
    assert_eq!(Subject::of_node(&Node::Root), None);
}

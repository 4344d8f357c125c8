//! The kind and module every node type tells ([`super::Node::typed`]), on graphs built from a
//! configuration and a state, and what the DOT reader reads back from each name alone.

use crate::builder::{BuilderKind, Inputs, build, test_config};
use crate::kind::{Mode, ProviderRole, ResourceRole, Typed, VariableRole, VertexKind as K};

const MAIN: &str = r#"
variable "region" {}
provider "aws" {}
locals { tags = var.region }
data "aws_ami" "ubuntu" {}
ephemeral "aws_secret" "s" {}
resource "aws_instance" "web" { ami = data.aws_ami.ubuntu.id }
module "net" {
  source = "./net"
  cidr   = var.region
}
output "ip" { value = aws_instance.web.id }
check "health" {
  assert {
condition     = true
error_message = "x"
  }
}
"#;
const NET: &str = r#"
variable "cidr" {}
provider "aws" { alias = "net" }
resource "aws_vpc" "this" {
  provider   = aws.net
  cidr_block = var.cidr
}
"#;
const STATE: &str = r#"{"version": 4, "resources": [
  {"mode": "managed", "type": "aws_instance", "name": "web",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
   "instances": [{"attributes": {}}, {"deposed": "00000001", "attributes": {}}]},
  {"mode": "managed", "type": "aws_instance", "name": "old",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
   "instances": [{"attributes": {}}]}]}"#;

fn inputs() -> Inputs {
    Inputs {
        config: Some(test_config(&[("main.tf", MAIN), ("net/main.tf", NET)])),
        state: Some(crate::state::parse_state_json(STATE).expect("state")),
        read_bodies_without_schema: true,
        ..Default::default()
    }
}

fn res(mode: Mode, t: &str, n: &str, role: ResourceRole) -> K {
    K::resource(mode, t, n, role)
}

/// The kind and module of the vertex `name` of a graph built by `kind`; also what the DOT
/// reader reads from the name alone (a resource without suffix aside, see below).
fn typed_of(kind: BuilderKind, name: &str) -> Typed {
    let b = build(&inputs(), kind);
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    let g = &b.graph;
    let id = g
        .find(name)
        .unwrap_or_else(|| panic!("no {name} in {}", g.string()));
    g.dag().vertex(id).expect("vertex").typed()
}

#[test]
fn every_node_type_tells_its_kind_and_module() {
    use BuilderKind::{Plan, PlanDestroy, Validate};
    let aws = "provider[\"registry.opentofu.org/hashicorp/aws\"]";
    let net = |k: K| Typed::new(k, vec!["net".into()]);
    let top = |k: K| Typed::new(k, Vec::new());
    let cases = [
        (Plan, "root".to_string(), top(K::Root)),
        (
            Plan,
            "var.region".into(),
            top(K::Variable(VariableRole::Root)),
        ),
        (
            Plan,
            "module.net.var.cidr (expand, input)".into(),
            net(K::Variable(VariableRole::Input)),
        ),
        (
            Plan,
            "module.net.var.cidr (expand, reference)".into(),
            net(K::Variable(VariableRole::Reference)),
        ),
        (
            Plan,
            "local.tags (expand)".into(),
            top(K::Local {
                name: "tags".into(),
            }),
        ),
        (
            Plan,
            "output.ip (expand)".into(),
            top(K::Output { name: "ip".into() }),
        ),
        (
            Plan,
            "aws_instance.web (expand)".into(),
            top(res(
                Mode::Managed,
                "aws_instance",
                "web",
                ResourceRole::Expand,
            )),
        ),
        (
            Plan,
            "data.aws_ami.ubuntu (expand)".into(),
            top(res(Mode::Data, "aws_ami", "ubuntu", ResourceRole::Expand)),
        ),
        (
            Plan,
            "ephemeral.aws_secret.s (expand)".into(),
            top(res(
                Mode::Ephemeral,
                "aws_secret",
                "s",
                ResourceRole::Expand,
            )),
        ),
        (
            Plan,
            "ephemeral.aws_secret.s (close)".into(),
            top(res(Mode::Ephemeral, "aws_secret", "s", ResourceRole::Close)),
        ),
        (
            Plan,
            "module.net.aws_vpc.this (expand)".into(),
            net(res(Mode::Managed, "aws_vpc", "this", ResourceRole::Expand)),
        ),
        (Plan, aws.into(), top(K::Provider(ProviderRole::Config))),
        (
            Plan,
            format!("{aws} (close)"),
            top(K::Provider(ProviderRole::Close)),
        ),
        (
            Plan,
            format!("module.net.{aws}.net"),
            net(K::Provider(ProviderRole::Config)),
        ),
        (Plan, "module.net (expand)".into(), net(K::ModuleExpand)),
        (Plan, "module.net (close)".into(), net(K::ModuleClose)),
        (Plan, "check.health (expand)".into(), top(K::CheckExpand)),
        (
            Plan,
            "aws_instance.old (orphan)".into(),
            top(res(
                Mode::Managed,
                "aws_instance",
                "old",
                ResourceRole::Orphan,
            )),
        ),
        (
            Plan,
            "aws_instance.web (deposed 00000001)".into(),
            top(res(
                Mode::Managed,
                "aws_instance",
                "web",
                ResourceRole::Deposed,
            )),
        ),
        (
            PlanDestroy,
            "aws_instance.web (destroy)".into(),
            top(res(
                Mode::Managed,
                "aws_instance",
                "web",
                ResourceRole::Destroy,
            )),
        ),
        (
            Validate,
            "aws_instance.web".into(),
            top(res(
                Mode::Managed,
                "aws_instance",
                "web",
                ResourceRole::Whole,
            )),
        ),
    ];
    for (kind, name, want) in cases {
        let got = typed_of(kind, &name);
        assert_eq!(got, want, "{kind:?} {name}");
        // The DOT reader reads the same from the name alone, except that a resource without
        // a suffix reads as an instance (a validate graph's whole resource has the same name).
        let mut read_want = want.clone();
        if let K::Resource { role, .. } = &mut read_want.kind
            && *role == ResourceRole::Whole
        {
            *role = ResourceRole::Instance;
        }
        assert_eq!(
            crate::dag::import::typed_from_name(&name),
            read_want,
            "read {name}"
        );
    }
}

#[test]
fn an_instance_in_a_module_instance_belongs_to_it_with_its_key() {
    use crate::addrs::{AbsResourceInstance, InstanceKey, ModuleInstance, Resource};
    use crate::builder::nodes::{InstanceData, InstanceKind, Node};
    let addr = AbsResourceInstance {
        module: ModuleInstance::root().child("a", InstanceKey::Str("x.y".into())),
        resource: Resource::new(crate::addrs::ResourceMode::Managed, "t", "n")
            .instance(InstanceKey::Int(0)),
    };
    let n = Node::Instance {
        kind: InstanceKind::Destroy,
        d: InstanceData::new(addr),
    };
    assert_eq!(n.name(), "module.a[\"x.y\"].t.n[0] (destroy)");
    let t = n.typed();
    assert_eq!(t.module, ["a[\"x.y\"]"]);
    assert_eq!(t.clusters(), ["module.a[\"x.y\"]"]);
    assert_eq!(crate::dag::import::typed_from_name(&n.name()), t);
}

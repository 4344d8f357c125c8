use super::*;
use crate::builder::BuilderKind;
use std::collections::BTreeMap;

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Builds `kind`'s graph of the files and expands the vertex named `vertex`.
fn expand_named(
    list: &[(&str, &str)],
    kind: BuilderKind,
    vars: &[&str],
    state: Option<&State>,
    vertex: &str,
) -> Option<Result<Expansion, String>> {
    let files = files(list);
    let (built, diags) = crate::builder::build_from_files(&files, kind, true);
    let built = built.unwrap_or_else(|| panic!("{diags:?}"));
    let (cfg, _) = crate::config::load_files(&files);
    let vars: Vec<String> = vars.iter().map(|s| s.to_string()).collect();
    let mut eval = StaticEval::new(cfg.expect("config"), &vars);
    let g = built.graph.dag();
    let id = g
        .find_by_name(vertex)
        .unwrap_or_else(|| panic!("no vertex {vertex}: {}", g.string()));
    let mut ctx = Context {
        eval: &mut eval,
        state,
        op: Operation::of_builder(kind),
    };
    expand(g.vertex(id).unwrap(), &mut ctx)
}

fn names(list: &[(&str, &str)], vertex: &str) -> Vec<String> {
    expand_named(list, BuilderKind::Plan, &[], None, vertex)
        .expect("expands")
        .expect("known")
        .names()
}

const MAIN: &str = r#"
variable "n" {
  type    = number
  default = 2
}
variable "zones" { default = ["b", "a"] }
locals { size = var.n + 1 }
resource "aws_instance" "web" { count = local.size }
resource "aws_instance" "map" {
  for_each = { x = 1, y = 2 }
}
resource "aws_instance" "set" { for_each = toset(var.zones) }
resource "aws_instance" "one" {}
resource "aws_instance" "later" { count = length(aws_instance.web) }
data "aws_ami" "ubuntu" { count = 2 }
module "net" {
  source   = "./net"
  for_each = toset(["east", "west"])
  cidr     = each.key
}
module "db" {
  source = "./db"
  count  = 2
}
output "ip" { value = aws_instance.one.id }
check "health" {
  assert {
    condition     = true
    error_message = "down"
  }
}
"#;

const NET: &str = r#"
variable "cidr" {}
locals { tag = "net-${var.cidr}" }
resource "aws_subnet" "s" { count = var.cidr == "east" ? 1 : 2 }
module "inner" {
  source = "./inner"
  count  = 2
}
output "id" { value = aws_subnet.s[0].id }
"#;

const INNER: &str = r#"resource "aws_eip" "e" { for_each = toset(["p"]) }"#;

const DB: &str = r#"resource "aws_db_instance" "d" {}"#;

fn corpus() -> Vec<(&'static str, &'static str)> {
    vec![
        ("main.tf", MAIN),
        ("net/main.tf", NET),
        ("net/inner/main.tf", INNER),
        ("db/main.tf", DB),
    ]
}

#[test]
fn count_instances_are_keyed_by_index() {
    // nodeExpandPlannableResource.DynamicExpand with count = local.size (3).
    let e = expand_named(
        &corpus(),
        BuilderKind::Plan,
        &[],
        None,
        "aws_instance.web (expand)",
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        e.names(),
        [
            "aws_instance.web[0]",
            "aws_instance.web[1]",
            "aws_instance.web[2]"
        ]
    );
    assert_eq!(e.go, GoNode::ExpandPlannableResource(ResourceMode::Managed));
    assert!(e.members().iter().all(|m| m.go
        == Some(GoNode::PlannableInstance(ResourceMode::Managed))
        && m.role == Role::Instance));
    // Each member tells its kind and module, as the builder's vertices do.
    assert_eq!(
        e.members()[0].typed,
        crate::kind::Typed::new(
            crate::kind::VertexKind::resource(
                crate::kind::Mode::Managed,
                "aws_instance",
                "web",
                crate::kind::ResourceRole::Instance
            ),
            vec![]
        )
    );
    // The root depends on each instance (addRootNodeToGraph), and nothing else has edges.
    let root = e.graph.find_by_name("root").expect("root");
    assert_eq!(e.graph.dependencies(root).count(), 3);
    assert_eq!(e.graph.edge_count(), 3);
    // --var reaches the count through the local.
    let e = expand_named(
        &corpus(),
        BuilderKind::Plan,
        &["n=4"],
        None,
        "aws_instance.web (expand)",
    )
    .unwrap()
    .unwrap();
    assert_eq!(e.names().len(), 5);
    // Data sources expand the same way, into data instances.
    let d = expand_named(
        &corpus(),
        BuilderKind::Plan,
        &[],
        None,
        "data.aws_ami.ubuntu (expand)",
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        d.names(),
        ["data.aws_ami.ubuntu[0]", "data.aws_ami.ubuntu[1]"]
    );
    assert_eq!(
        d.members()[0].go,
        Some(GoNode::PlannableInstance(ResourceMode::Data))
    );
}

#[test]
fn for_each_instances_are_keyed_by_string() {
    assert_eq!(
        names(&corpus(), "aws_instance.map (expand)"),
        [r#"aws_instance.map["x"]"#, r#"aws_instance.map["y"]"#]
    );
    // A set from a variable's default, in the set's order.
    assert_eq!(
        names(&corpus(), "aws_instance.set (expand)"),
        [r#"aws_instance.set["a"]"#, r#"aws_instance.set["b"]"#]
    );
    // No count or for_each: the single unkeyed instance.
    assert_eq!(
        names(&corpus(), "aws_instance.one (expand)"),
        ["aws_instance.one"]
    );
}

#[test]
fn resources_in_counted_and_for_each_modules_expand_per_module_instance() {
    assert_eq!(
        names(&corpus(), "module.db.aws_db_instance.d (expand)"),
        [
            "module.db[0].aws_db_instance.d",
            "module.db[1].aws_db_instance.d"
        ]
    );
    // for_each module whose argument sets the resource's count: east 1, west 2.
    assert_eq!(
        names(&corpus(), "module.net.aws_subnet.s (expand)"),
        [
            r#"module.net["east"].aws_subnet.s[0]"#,
            r#"module.net["west"].aws_subnet.s[0]"#,
            r#"module.net["west"].aws_subnet.s[1]"#,
        ]
    );
}

#[test]
fn nested_modules_multiply_out() {
    let n = names(&corpus(), "module.net.module.inner.aws_eip.e (expand)");
    assert_eq!(n.len(), 4);
    assert_eq!(n[0], r#"module.net["east"].module.inner[0].aws_eip.e["p"]"#);
    assert_eq!(n[3], r#"module.net["west"].module.inner[1].aws_eip.e["p"]"#);
}

#[test]
fn values_expand_once_per_module_instance_with_opentofus_names() {
    assert_eq!(
        names(&corpus(), "module.net.local.tag (expand)"),
        [
            r#"module.net["east"].local.tag"#,
            r#"module.net["west"].local.tag"#
        ]
    );
    assert_eq!(names(&corpus(), "local.size (expand)"), ["local.size"]);
    assert_eq!(
        names(&corpus(), "module.net.output.id (expand)"),
        [
            r#"module.net["east"].output.id"#,
            r#"module.net["west"].output.id"#
        ]
    );
    // nodeModuleVariable.Name: no space before "(input)".
    assert_eq!(
        names(&corpus(), "module.net.var.cidr (expand, input)"),
        [
            r#"module.net["east"].var.cidr(input)"#,
            r#"module.net["west"].var.cidr(input)"#
        ]
    );
    assert_eq!(
        names(&corpus(), "check.health (expand)"),
        ["check.health (assertions)"]
    );
}

#[test]
fn a_module_opens_into_its_instances_and_their_contents() {
    let e = expand_named(
        &corpus(),
        BuilderKind::Plan,
        &[],
        None,
        "module.net (expand)",
    )
    .unwrap()
    .unwrap();
    assert_eq!(e.go, GoNode::ExpandModule);
    let n = e.names();
    assert!(n.contains(&r#"module.net["east"]"#.to_string()), "{n:?}");
    assert!(n.contains(&r#"module.net["west"]"#.to_string()));
    // 3 subnets and 4 inner eips live inside the two instances.
    assert_eq!(n.len(), 2 + 3 + 4, "{n:?}");
    let east = e.graph.find_by_name(r#"module.net["east"]"#).unwrap();
    let inside_east: Vec<String> = e
        .graph
        .dependents(east)
        .map(|id| e.graph.vertex(id).unwrap().name.clone())
        .collect();
    assert_eq!(
        inside_east,
        [
            r#"module.net["east"].aws_subnet.s[0]"#,
            r#"module.net["east"].module.inner[0].aws_eip.e["p"]"#,
            r#"module.net["east"].module.inner[1].aws_eip.e["p"]"#,
        ]
    );
    // Only the contents are leaves: the root waits for them.
    let root = e.graph.find_by_name("root").unwrap();
    assert_eq!(e.graph.dependencies(root).count(), 7);
}

#[test]
fn an_unknown_count_gives_the_reason() {
    let why = expand_named(
        &corpus(),
        BuilderKind::Plan,
        &[],
        None,
        "aws_instance.later (expand)",
    )
    .unwrap()
    .unwrap_err();
    assert!(why.contains("count = length(aws_instance.web)"), "{why}");
}

#[test]
fn orphans_come_from_the_prior_state() {
    // Two objects in state for a count of 3 give nothing extra; index 7 and a key that the
    // for_each no longer has become orphans (OrphanResourceInstanceCountTransformer).
    let state = crate::state::parse_state_json(
        r#"{"version":4,"serial":1,"lineage":"x","outputs":{},"resources":[
          {"mode":"managed","type":"aws_instance","name":"web",
           "provider":"provider[\"registry.opentofu.org/hashicorp/aws\"]",
           "instances":[{"index_key":0,"attributes":{}},{"index_key":7,"attributes":{}}]},
          {"mode":"managed","type":"aws_instance","name":"map",
           "provider":"provider[\"registry.opentofu.org/hashicorp/aws\"]",
           "instances":[{"index_key":"x","attributes":{}},{"index_key":"gone","attributes":{}}]}
        ]}"#,
    )
    .unwrap();
    let e = expand_named(
        &corpus(),
        BuilderKind::Plan,
        &[],
        Some(&state),
        "aws_instance.web (expand)",
    )
    .unwrap()
    .unwrap();
    let orphans: Vec<&Member> = e
        .members()
        .into_iter()
        .filter(|m| m.role == Role::Orphan)
        .collect();
    assert_eq!(orphans.len(), 1);
    assert_eq!(orphans[0].name, "aws_instance.web[7] (orphan)");
    assert_eq!(
        orphans[0].go,
        Some(GoNode::PlannableOrphan(ResourceMode::Managed))
    );
    let e = expand_named(
        &corpus(),
        BuilderKind::Plan,
        &[],
        Some(&state),
        "aws_instance.map (expand)",
    )
    .unwrap()
    .unwrap();
    assert!(
        e.names()
            .contains(&r#"aws_instance.map["gone"] (orphan)"#.to_string())
    );
}

#[test]
fn validate_walks_see_one_unkeyed_module_instance_and_no_resource_expansion() {
    // nodeValidateModule records every module as a single instance.
    let e = expand_named(
        &corpus(),
        BuilderKind::Validate,
        &[],
        None,
        "module.net.local.tag (expand)",
    )
    .unwrap()
    .unwrap();
    assert_eq!(e.names(), ["module.net.local.tag"]);
    // NodeValidatableResource has no DynamicExpand.
    assert!(
        expand_named(
            &corpus(),
            BuilderKind::Validate,
            &[],
            None,
            "aws_instance.web"
        )
        .is_none()
    );
}

#[test]
fn vertices_that_do_not_expand() {
    for v in [
        "var.n",
        "provider[\"registry.opentofu.org/hashicorp/aws\"]",
        "module.net (close)",
    ] {
        assert!(
            expand_named(&corpus(), BuilderKind::Plan, &[], None, v).is_none(),
            "{v}"
        );
    }
}

use super::*;
use crate::builder::BuilderKind;
use crate::pipeline::{NamedText, Request, run};

const CONFIG: &str = r#"
resource "aws_instance" "web" { count = 2 }
resource "aws_instance" "db" {
  lifecycle { create_before_destroy = true }
}
resource "aws_instance" "cache" {}
data "aws_ami" "ubuntu" {}
"#;

const CHANGES: &str = r#"[
  {"addr": "aws_instance.web[0]", "action": "create"},
  {"addr": "aws_instance.web[1]", "action": "update"},
  {"addr": "aws_instance.db", "action": "create-then-delete"},
  {"addr": "aws_instance.cache", "action": "delete-then-create"},
  {"addr": "aws_instance.gone", "action": "delete"},
  {"addr": "data.aws_ami.ubuntu", "action": "read"}
]"#;

/// The prior state: the object the plan deletes and the two it replaces (a replacement of an
/// object missing from the state is an error, as in OpenTofu's DiffTransformer).
const STATE: &str = r#"{"version": 4, "serial": 1, "lineage": "x", "outputs": {}, "resources": [
  {"mode": "managed", "type": "aws_instance", "name": "gone",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
   "instances": [{"attributes": {}}]},
  {"mode": "managed", "type": "aws_instance", "name": "db",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
   "instances": [{"attributes": {}, "create_before_destroy": true}]},
  {"mode": "managed", "type": "aws_instance", "name": "cache",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
   "instances": [{"attributes": {}}]}
]}"#;

fn changes() -> Changes {
    crate::plan::changes_from_conformance(&serde_json::from_str(CHANGES).unwrap()).unwrap()
}

/// The apply graph of CONFIG with CHANGES: name -> mark symbol.
fn apply_marks() -> BTreeMap<String, String> {
    let mut req = Request::new(
        [("main.tf".to_string(), CONFIG.to_string())].into(),
        BuilderKind::Apply,
    );
    req.changes = Some(NamedText::new("changes.json", CHANGES));
    req.state = Some(NamedText::new("terraform.tfstate", STATE));
    let out = run(&req).unwrap_or_else(|d| panic!("{d:?}"));
    let c = changes();
    out.built
        .graph
        .dag()
        .iter()
        .filter_map(|(_, n)| mark(n, &c).map(|m| (n.name(), m.symbol())))
        .collect()
}

#[test]
fn symbols_are_tofu_plans() {
    // DiffActionSymbol / actionDescription in OpenTofu's plan renderer.
    let sym = |a| style(a).symbol;
    assert_eq!(sym(Action::Create), "+");
    assert_eq!(sym(Action::Update), "~");
    assert_eq!(sym(Action::DeleteThenCreate), "-/+");
    assert_eq!(sym(Action::CreateThenDelete), "+/-");
    assert_eq!(sym(Action::Delete), "-");
    assert_eq!(sym(Action::Read), "<=");
    assert_eq!(sym(Action::Forget), ".");
    assert_eq!(sym(Action::NoOp), "");
    assert_eq!(style(Action::DeleteThenCreate).colours, ("red", "green"));
    assert_eq!(style(Action::CreateThenDelete).colours, ("green", "red"));
    assert_eq!(style(Action::Read).colours.0, "cyan");
    // Every action has its own class and symbol.
    let classes: std::collections::BTreeSet<_> = ORDER.iter().map(|a| style(*a).class).collect();
    let symbols: std::collections::BTreeSet<_> = ORDER.iter().map(|a| style(*a).symbol).collect();
    assert_eq!(classes.len(), ORDER.len());
    assert_eq!(symbols.len(), ORDER.len());
}

#[test]
fn instances_and_both_halves_of_a_replacement_are_marked() {
    let m = apply_marks();
    assert_eq!(m["aws_instance.web[0]"], "+");
    assert_eq!(m["aws_instance.web[1]"], "~");
    // The instance and its (destroy) vertex both show the replacement.
    assert_eq!(m["aws_instance.db"], "+/-");
    // create_before_destroy: the old object is destroyed as a deposed object (DiffTransformer
    // allocates its key in advance).
    assert_eq!(m["aws_instance.db (destroy deposed 00000001)"], "+/-");
    assert_eq!(m["aws_instance.cache"], "-/+");
    assert_eq!(m["aws_instance.cache (destroy)"], "-/+");
    assert_eq!(m["aws_instance.gone (destroy)"], "-");
    assert_eq!(m["data.aws_ami.ubuntu"], "<=");
    // The whole resource: mixed, with a count per action.
    assert_eq!(m["aws_instance.web (expand)"], "+1 ~1");
    assert_eq!(m["aws_instance.db (expand)"], "+/-");
    // Vertices that are not resources carry no mark.
    assert!(!m.keys().any(|k| k.starts_with("provider")));
}

#[test]
fn counts_and_summary_follow_tofu_plan() {
    let c = changes();
    let n = counts(&c);
    assert_eq!(n[&Action::Create], 1);
    assert_eq!(n[&Action::DeleteThenCreate], 1);
    assert_eq!(n.values().sum::<usize>(), 6);
    // A replacement is one to add and one to destroy; reads are not counted.
    assert_eq!(summary(&c), "Plan: 3 to add, 1 to change, 3 to destroy.");
    let forget = crate::plan::changes_from_conformance(
        &serde_json::json!([{"addr": "a_b.c", "action": "forget"}]),
    )
    .unwrap();
    assert_eq!(
        summary(&forget),
        "Plan: 0 to add, 0 to change, 0 to destroy, 1 to forget."
    );
}

#[test]
fn mixed_marks_describe_each_action() {
    let mut m = BTreeMap::new();
    m.insert(Action::Update, 1);
    m.insert(Action::Create, 2);
    m.insert(Action::NoOp, 4);
    let mark = Mark::Mixed(m);
    assert_eq!(mark.symbol(), "+2 ~1");
    assert_eq!(
        mark.description(),
        "2 create, 1 update in-place, 4 no changes"
    );
    assert_eq!(mark.class(), "mixed");
    assert_eq!(mark.action(), None);
}

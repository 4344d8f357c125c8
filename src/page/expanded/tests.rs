use super::*;
use crate::builder::BuilderKind;
use crate::kind::{ResourceRole, VertexKind};
use crate::page::analysis::{Options, analyze};
use crate::page::view::{ViewOpts, opened_by, shown};
use std::collections::BTreeMap;

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const MAIN: &str = r#"
variable "n" { default = 2 }
variable "unknown" {}
resource "aws_vpc" "v" {}
resource "aws_instance" "web" {
  count = var.n
  vpc   = aws_vpc.v.id
}
resource "aws_instance" "map" {
  for_each = { x = 1, y = 2 }
}
resource "aws_eip" "ip" { instance = aws_instance.web[0].id }
resource "aws_instance" "later" { count = length(var.unknown) }
module "net" {
  source   = "./net"
  for_each = toset(["east", "west"])
  cidr     = each.key
}
module "db" {
  source = "./db"
  count  = 2
}
"#;

const NET: &str = r#"
variable "cidr" {}
resource "aws_subnet" "s" { count = var.cidr == "east" ? 1 : 2 }
module "inner" {
  source = "./inner"
  count  = 2
}
"#;

const INNER: &str = r#"resource "aws_eip" "e" { for_each = toset(["p"]) }"#;

const DB: &str = r#"resource "aws_db_instance" "d" {}"#;

fn analysis() -> Analysis {
    let f = files(&[
        ("main.tf", MAIN),
        ("net/main.tf", NET),
        ("net/inner/main.tf", INNER),
        ("db/main.tf", DB),
    ]);
    let a = analyze(&f, BuilderKind::Plan, &Options::default());
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    a
}

fn opened(a: &Analysis, open: &[&str]) -> crate::page::view::Shown {
    shown(
        a,
        None,
        &ViewOpts {
            open: open.iter().map(|s| s.to_string()).collect(),
            ..ViewOpts::default()
        },
    )
}

fn names(s: &crate::page::view::Shown, is: &[usize]) -> Vec<String> {
    is.iter()
        .map(|&i| s.graph.vertex(i).unwrap().name.clone())
        .collect()
}

fn deps(s: &crate::page::view::Shown, name: &str) -> Vec<String> {
    let i = s
        .graph
        .index_of(name)
        .unwrap_or_else(|| panic!("no {name}"));
    crate::page::view::neighbours(&s.graph, i).0
}

fn users(s: &crate::page::view::Shown, name: &str) -> Vec<String> {
    let i = s
        .graph
        .index_of(name)
        .unwrap_or_else(|| panic!("no {name}"));
    crate::page::view::neighbours(&s.graph, i).1
}

#[test]
fn a_count_opens_into_its_indexed_instances_drawn_in_place_of_the_vertex() {
    let a = analysis();
    let closed = opened(&a, &[]);
    let s = opened(&a, &["aws_instance.web (expand)"]);
    let x = s.graph.index_of("aws_instance.web (expand)").unwrap();
    assert_eq!(
        names(&s, &s.opened[&x]),
        ["aws_instance.web[0]", "aws_instance.web[1]"]
    );
    // Appended: the shown graph's indexes stay valid.
    assert_eq!(s.graph.len(), closed.graph.len() + 2);
    for i in 0..closed.graph.len() {
        assert_eq!(s.graph.vertex(i), closed.graph.vertex(i));
    }
    let web0 = s.graph.vertex(s.opened[&x][0]).unwrap();
    assert_eq!(
        web0.typed.kind,
        VertexKind::resource(
            crate::kind::Mode::Managed,
            "aws_instance",
            "web",
            ResourceRole::Instance
        )
    );
    assert_eq!(web0.kind, crate::page::graph::Kind::Resource);
    // The vertex stands for the sub-graph's root: it depends on its instances...
    assert_eq!(
        deps(&s, "aws_instance.web (expand)"),
        names(&s, &s.opened[&x])
    );
    // ...each instance on what the vertex depended on...
    let before = deps(&closed, "aws_instance.web (expand)");
    assert!(
        before.contains(&"aws_vpc.v (expand)".to_string()),
        "{before:?}"
    );
    assert_eq!(deps(&s, "aws_instance.web[0]"), before);
    assert_eq!(deps(&s, "aws_instance.web[1]"), before);
    // ...and what depended on the vertex still does (it waits for the whole sub-graph).
    assert_eq!(
        users(&s, "aws_instance.web (expand)"),
        users(&closed, "aws_instance.web (expand)")
    );
    assert!(users(&s, "aws_instance.web (expand)").contains(&"aws_eip.ip (expand)".to_string()));
    assert_eq!(opened_by(&s, s.opened[&x][1]), Some(x));
    assert_eq!(opened_by(&s, x), Some(x));
    assert_eq!(opened_by(&s, 0).filter(|&o| o != x), None);
}

#[test]
fn a_for_each_opens_into_instances_keyed_by_string() {
    let a = analysis();
    let s = opened(&a, &["aws_instance.map (expand)"]);
    let x = s.graph.index_of("aws_instance.map (expand)").unwrap();
    assert_eq!(
        names(&s, &s.opened[&x]),
        [r#"aws_instance.map["x"]"#, r#"aws_instance.map["y"]"#]
    );
    match of_vertex(&a, "aws_instance.map (expand)") {
        Some(Opening::Sub(sub)) => {
            assert_eq!(
                sub.go,
                "nodeExpandPlannableResource (node_resource_plan.go)"
            );
            assert_eq!(Opening::Sub(sub).summary(), "2 instances");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn module_for_each_opens_into_its_instances_with_their_contents_nested_modules_included() {
    let a = analysis();
    let s = opened(&a, &["module.net (expand)"]);
    let x = s.graph.index_of("module.net (expand)").unwrap();
    let ms = names(&s, &s.opened[&x]);
    let want = [
        r#"module.net["east"]"#,
        r#"module.net["east"].aws_subnet.s[0]"#,
        r#"module.net["east"].module.inner[0].aws_eip.e["p"]"#,
        r#"module.net["east"].module.inner[1].aws_eip.e["p"]"#,
        r#"module.net["west"]"#,
        r#"module.net["west"].aws_subnet.s[0]"#,
        r#"module.net["west"].aws_subnet.s[1]"#,
        r#"module.net["west"].module.inner[0].aws_eip.e["p"]"#,
        r#"module.net["west"].module.inner[1].aws_eip.e["p"]"#,
    ];
    assert_eq!(ms, want);
    // Drawn in the module's box, where its expand vertex is.
    for &m in &s.opened[&x] {
        assert_eq!(s.graph.vertex(m).unwrap().cluster, ["module.net"]);
    }
    let east = s.graph.vertex(s.opened[&x][0]).unwrap();
    assert_eq!(east.typed.kind, VertexKind::ModuleInstance);
    assert_eq!(east.typed.module, [r#"net["east"]"#]);
    // What is inside a module instance depends on it; the module's expand vertex depends on
    // what nothing in the sub-graph depends on (the resource instances).
    assert_eq!(
        deps(&s, r#"module.net["west"].aws_subnet.s[1]"#),
        [r#"module.net["west"]"#]
    );
    assert_eq!(deps(&s, "module.net (expand)").len(), 7);
}

#[test]
fn module_count_opens_into_indexed_instances() {
    let a = analysis();
    let s = opened(&a, &["module.db (expand)"]);
    let x = s.graph.index_of("module.db (expand)").unwrap();
    assert_eq!(
        names(&s, &s.opened[&x]),
        [
            "module.db[0]",
            "module.db[0].aws_db_instance.d",
            "module.db[1]",
            "module.db[1].aws_db_instance.d"
        ]
    );
}

#[test]
fn a_nested_modules_resource_opens_across_every_instance_of_its_modules() {
    let a = analysis();
    let name = "module.net.module.inner.aws_eip.e (expand)";
    let s = opened(&a, &[name]);
    let x = s.graph.index_of(name).unwrap();
    assert_eq!(s.opened[&x].len(), 4);
    assert_eq!(
        s.graph.vertex(x).unwrap().cluster,
        s.graph.vertex(s.opened[&x][0]).unwrap().cluster
    );
    // Opened together with the module: the same instances are the same vertices, with the
    // edges of both.
    let both = opened(&a, &[name, "module.net (expand)"]);
    let m = both.graph.index_of("module.net (expand)").unwrap();
    let r = both.graph.index_of(name).unwrap();
    let shared: BTreeSet<usize> = both.opened[&r].iter().copied().collect();
    assert!(shared.iter().all(|i| both.opened[&m].contains(i)));
    assert_eq!(both.graph.len(), opened(&a, &[]).graph.len() + 9);
    let e = r#"module.net["east"].module.inner[1].aws_eip.e["p"]"#;
    let d = deps(&both, e);
    assert!(d.contains(&r#"module.net["east"]"#.to_string()), "{d:?}");
    assert!(users(&both, e).contains(&name.to_string()));
}

#[test]
fn instances_not_known_statically_say_why_and_stay_closed() {
    let a = analysis();
    let name = "aws_instance.later (expand)";
    match of_vertex(&a, name) {
        Some(Opening::Unknown(why)) => assert!(why.contains("var.unknown"), "{why}"),
        other => panic!("{other:?}"),
    }
    let closed = opened(&a, &[]);
    let s = opened(&a, &[name]);
    assert_eq!(s.graph, closed.graph);
    assert!(s.opened.is_empty());
    // What does not expand at all.
    assert_eq!(of_vertex(&a, "var.n"), None);
    assert_eq!(of_vertex(&a, "root"), None);
}

#[test]
fn the_open_set_keeps_the_names_an_edit_keeps() {
    let a = analysis();
    let g = a.graph.as_ref().unwrap();
    let open: BTreeSet<String> = ["aws_instance.web (expand)", "aws_instance.gone (expand)"]
        .map(String::from)
        .into();
    assert_eq!(
        prune(&open, g),
        BTreeSet::from(["aws_instance.web (expand)".to_string()])
    );
}

#[test]
fn a_hidden_vertex_is_not_opened_and_a_dashed_edge_moves_dashed() {
    let a = analysis();
    let s = shown(
        &a,
        None,
        &ViewOpts {
            collapsed: BTreeSet::from(["module.net".to_string()]),
            open: BTreeSet::from(["module.net (expand)".to_string()]),
            ..ViewOpts::default()
        },
    );
    assert!(s.opened.is_empty());
    // Reduction off: a removed edge of the opened vertex comes back dashed from its instances.
    let f = files(&[(
        "main.tf",
        "resource \"a\" \"x\" {}\nresource \"a\" \"y\" { v = a.x.id }\nresource \"a\" \"z\" {\n  count = 2\n  v = a.y.id\n  w = a.x.id\n}\n",
    )]);
    let a = analyze(&f, BuilderKind::Plan, &Options::default());
    let off = |open: &[&str]| {
        shown(
            &a,
            None,
            &ViewOpts {
                reduce: false,
                open: open.iter().map(|s| s.to_string()).collect(),
                ..ViewOpts::default()
            },
        )
    };
    let s = off(&["a.z (expand)"]);
    let n = |k: &str| s.graph.index_of(k).unwrap();
    assert!(off(&[]).dashed.contains(&(
        off(&[]).graph.index_of("a.z (expand)").unwrap(),
        off(&[]).graph.index_of("a.x (expand)").unwrap()
    )));
    assert!(s.dashed.contains(&(n("a.z[1]"), n("a.x (expand)"))));
    assert!(!s.graph.has_edge(n("a.z (expand)"), n("a.x (expand)")));
    assert!(s.graph.has_edge(n("a.z[0]"), n("a.y (expand)")));
    assert!(!s.dashed.contains(&(n("a.z[0]"), n("a.y (expand)"))));
}

#[test]
fn a_replayed_step_opens_nothing() {
    let a = analysis();
    let s = shown(
        &a,
        Some(1),
        &ViewOpts {
            open: BTreeSet::from(["aws_instance.web (expand)".to_string()]),
            ..ViewOpts::default()
        },
    );
    assert!(s.opened.is_empty());
}

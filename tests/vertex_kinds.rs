//! The kinds vertices carry: for every vertex the builder makes from the conformance corpus, the
//! page's examples and the real-world repositories, the kind derived from its name alone (the DOT
//! import's one name parse, `dag::import::typed_from_name`) equals the kind the builder's vertex
//! tells, and so do how the page draws it and how long the walk's table makes it run.
//!
//! (Before the kinds were typed, the page and the walk each read kinds from names, in two ways.
//! The commit that introduced the typed kinds checked them against both over these corpora: the
//! same drawing, module boxes and table durations for all 2,830 vertices, except providers inside
//! modules, which the walk's reading timed as 10 s resources of type `provider["registry…`.)

mod support;

use std::collections::BTreeMap;
use tfgraph::builder::{BuilderKind, Inputs, Node, build};
use tfgraph::dag;
use tfgraph::dag::import::typed_from_name;
use tfgraph::kind::{ResourceRole, Typed, VertexKind};
use tfgraph::page::graph::Kind;
use tfgraph::walk::durations::table_duration;

/// Every built graph of the corpora, by where it came from.
fn corpus() -> Vec<(String, dag::Graph<Node>)> {
    let mut out = Vec::new();
    let conf = support::conformance().join("graph");
    let mut cases: Vec<_> = std::fs::read_dir(&conf)
        .expect("conformance graph cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    cases.sort();
    for case in cases {
        if let Some(g) = tfgraph::conformance::graph::case_graph(&case) {
            out.push((case.display().to_string(), g.into_dag()));
        }
    }
    for e in tfgraph::page::examples::EXAMPLES {
        let files = tfgraph::page::examples::files_of(e);
        for kind in BuilderKind::ALL {
            let req = tfgraph::pipeline::memory_request(&files, "", kind);
            if let Ok(o) = tfgraph::pipeline::run(&req) {
                out.push((
                    format!("example {} {kind:?}", e.id),
                    o.built.graph.into_dag(),
                ));
            }
        }
    }
    let root = support::realworld();
    for folder in support::tf_folders(&root)
        .into_iter()
        .filter(|f| f.parent() == Some(root.as_path()))
    {
        let (config, _) = support::load_dir(&folder);
        let inputs = Inputs {
            config: Some(config),
            read_bodies_without_schema: true,
            ..Default::default()
        };
        for kind in [BuilderKind::Plan, BuilderKind::Validate] {
            let b = build(&inputs, kind);
            out.push((format!("{} {kind:?}", folder.display()), b.graph.into_dag()));
        }
    }
    out
}

/// The one thing a name cannot tell: a resource vertex without a suffix is an instance in plan
/// and apply graphs and the whole resource in validate graphs; both are drawn and timed alike.
fn comparable(t: &Typed) -> Typed {
    let mut t = t.clone();
    if let VertexKind::Resource { role, .. } = &mut t.kind
        && *role == ResourceRole::Whole
    {
        *role = ResourceRole::Instance;
    }
    t
}

#[test]
fn a_vertex_names_kind_is_the_kind_its_node_tells() {
    let mut checked = 0;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    for (from, g) in corpus() {
        for (_, node) in g.iter() {
            let name = node.name();
            let typed = node.typed();
            let read = typed_from_name(&name);
            *seen
                .entry(format!("{:?}", Kind::of(&typed.kind)))
                .or_default() += 1;
            checked += 1;
            if read != comparable(&typed)
                || Kind::of(&read.kind) != Kind::of(&typed.kind)
                || table_duration(&read.kind) != table_duration(&typed.kind)
            {
                wrong.push(format!("{from}: {name:?}: read {read:?}, node {typed:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 1000, "only {checked} vertices");
    println!("{checked} vertices: {seen:?}");
}

//! The kinds vertices carry: for every vertex the builder makes from the conformance corpus, the
//! page's examples and the real-world repositories, the kind derived from its name alone (the DOT
//! import's one name parse, `dag::import::typed_from_name`) equals the kind the builder's vertex
//! tells, and so do how the page draws it and how long the walk's table makes it run.

mod support;

use std::collections::BTreeMap;
use tfgraph::builder::{BuilderKind, Inputs, Node, build};
use tfgraph::dag;
use tfgraph::dag::import::typed_from_name;
use tfgraph::kind::{ProviderRole, ResourceRole, Typed, VertexKind};
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

/// Before the kinds were typed, the page and the walk each read a vertex's kind from its name
/// (`page::graph::classify`, `cluster_of`, `walk::durations::default_duration`). The typed kinds
/// give the same drawing, boxes and durations for every vertex of the corpora, except where the
/// old reading was wrong (listed).
#[test]
fn typed_kinds_draw_and_time_as_the_name_parse_did() {
    let mut wrong = Vec::new();
    for (from, g) in corpus() {
        for (_, node) in g.iter() {
            let name = node.name();
            let typed = node.typed();
            let old_kind = tfgraph::page::graph::classify(&name);
            let old_box = tfgraph::page::graph::cluster_of(&name);
            let old_secs = tfgraph::walk::default_duration(&name);
            // The old reading timed a provider configuration inside a module as a resource of
            // type `provider["registry…` (10 s): it is a provider (1 s).
            let provider_in_module = typed.kind == VertexKind::Provider(ProviderRole::Config)
                && !typed.module.is_empty();
            if old_kind != Kind::of(&typed.kind)
                || old_box != typed.clusters()
                || (old_secs != table_duration(&typed.kind) && !provider_in_module)
            {
                wrong.push(format!(
                    "{from}: {name:?}: old {old_kind:?} {old_box:?} {old_secs:?}, typed {:?} {:?} {:?} ({typed:?})",
                    Kind::of(&typed.kind),
                    typed.clusters(),
                    table_duration(&typed.kind)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n{} differences",
        wrong.join("\n"),
        wrong.len()
    );
}

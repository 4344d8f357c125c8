//! Every folder of the real-world repositories that holds `.tf` files builds plan graphs without
//! diagnostics and without cycles (bodies read in full), and at the repository roots plan and
//! validate graphs build the way OpenTofu reads them without schemas.

mod support;

use tfgraph::builder::{BuilderKind, Inputs, build};

#[test]
fn realworld_plan_and_validate_graphs_build() {
    let root = support::realworld();
    let mut built_count = 0;
    for folder in support::tf_folders(&root) {
        // The product path: the crate's loader, with bodies read in full; the graph must be
        // valid and its DOT must parse.
        let (config, _) = support::load_dir(&folder);
        let permissive = Inputs {
            config: Some(config.clone()),
            read_bodies_without_schema: true,
            ..Default::default()
        };
        let b = build(&permissive, BuilderKind::Plan);
        assert!(
            b.diagnostics.is_empty(),
            "{} permissive: {:?}",
            folder.display(),
            b.diagnostics
        );
        let dot =
            tfgraph::dag::render::dot::render(b.graph.dag(), &tfgraph::dag::DotOpts::everything());
        assert!(
            graphviz_rust::parse(&dot).is_ok(),
            "{}: DOT does not parse",
            folder.display()
        );
        built_count += 1;

        // Strict (no body reading without schemas, as OpenTofu), at repo roots.
        if folder.parent() != Some(root.as_path()) {
            continue;
        }
        let inputs = Inputs {
            config: Some(config),
            ..Default::default()
        };
        for kind in [BuilderKind::Plan, BuilderKind::Validate] {
            let b = build(&inputs, kind);
            assert!(
                b.diagnostics.is_empty(),
                "{} {kind:?}: {:?}",
                folder.display(),
                b.diagnostics
            );
            assert!(b.graph.len() > 1, "{}: empty graph", folder.display());
            built_count += 1;
        }
    }
    println!("built {built_count} graphs");
}

#![cfg(not(target_arch = "wasm32"))]
//! The page's drawing of real configurations: what the layout makes of them as the graph pane
//! shows them (issue 18, defect 10).

mod support;

use std::collections::BTreeMap;
use tfgraph::builder::BuilderKind;
use tfgraph::page::analysis::{Options, analyze};
use tfgraph::page::scene::{drawn, fit, scene};
use tfgraph::page::view::{ViewOpts, shown};

/// The `.tf` files at the top of a folder, by name.
fn root_files(dir: &std::path::Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("folder") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "tf") {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            out.insert(name, std::fs::read_to_string(&p).expect("read"));
        }
    }
    out
}

// "Resources only" on terraform-aws-vpc drew one row 10,070 px wide and 400 px tall (11,117 x
// 505 today: one component, its widest layer 30 resources), and Fit stopped at 15%, so it did
// not fit.
#[test]
fn resources_only_on_the_vpc_module_fits_a_canvas_at_a_readable_scale() {
    let files = root_files(&support::realworld().join("terraform-aws-vpc"));
    let a = analyze(&files, BuilderKind::Plan, &Options::default());
    let s = shown(
        &a,
        None,
        &ViewOpts {
            resources_only: true,
            ..ViewOpts::default()
        },
    );
    let (g, visible) = drawn(&s);
    assert!(g.len() > 50, "{} vertices", g.len());
    let sc = scene(&g, &visible, None);
    eprintln!(
        "terraform-aws-vpc, resources only: {} vertices, {} edges, {:.0} x {:.0}",
        g.len(),
        g.edge_count(),
        sc.width,
        sc.height
    );
    let ratio = sc.width / sc.height;
    assert!((0.5..=3.0).contains(&ratio), "{} x {}", sc.width, sc.height);
    // A laptop's graph pane shows it whole at over a third of its size.
    let (tx, ty, k) = fit(sc.width, sc.height, 1200.0, 800.0);
    assert!(k >= 0.33, "scale {k}");
    assert!(tx >= 0.0 && tx + sc.width * k <= 1200.0);
    assert!(ty >= 0.0 && ty + sc.height * k <= 800.0);
}

/// How long the page's layout of a large generated configuration takes with resources only (the
/// view that wraps wide layers); prints, asserts no time.
#[test]
fn large_resources_only_drawings_stay_drawable() {
    for (resources, modules) in [(1_000, 10), (2_000, 20)] {
        let files = tfgraph::generator::generate(&tfgraph::generator::GenOptions {
            resources,
            modules,
            seed: 1,
        });
        let a = analyze(&files, BuilderKind::Plan, &Options::default());
        for resources_only in [false, true] {
            let s = shown(
                &a,
                None,
                &ViewOpts {
                    resources_only,
                    ..ViewOpts::default()
                },
            );
            let (g, visible) = drawn(&s);
            let t = std::time::Instant::now();
            let sc = scene(&g, &visible, None);
            assert!(sc.too_big.is_none());
            assert_eq!(sc.nodes.len(), g.len());
            eprintln!(
                "generated {resources}, resources only {resources_only}: {} vertices, {:.0} x {:.0}, {:?}",
                g.len(),
                sc.width,
                sc.height,
                t.elapsed()
            );
        }
    }
}

// Issue 15, item 4: every vertex of terraform-aws-vpc that may expand opens into its sub-graph or
// says why it cannot, and with all of them open the drawing still lays out.
#[test]
fn every_expand_vertex_of_the_vpc_module_opens_or_says_why() {
    use tfgraph::page::expanded::{Opening, of_vertex};
    let files = root_files(&support::realworld().join("terraform-aws-vpc"));
    let a = analyze(&files, BuilderKind::Plan, &Options::default());
    let g = a.graph.as_ref().expect("built");
    let t = std::time::Instant::now();
    let (mut open, mut unknown, mut none) = (Vec::new(), 0, 0);
    for v in g.vertices() {
        match of_vertex(&a, &v.name) {
            Some(Opening::Sub(_)) => open.push(v.name.clone()),
            Some(Opening::Unknown(why)) => {
                assert!(!why.is_empty(), "{}", v.name);
                unknown += 1;
            }
            Some(Opening::TooMany(n)) => panic!("{}: {n}", v.name),
            None => none += 1,
        }
    }
    let expanded = t.elapsed();
    assert!(open.len() > 50, "{} open", open.len());
    let o = ViewOpts {
        open: open.iter().cloned().collect(),
        ..ViewOpts::default()
    };
    let t = std::time::Instant::now();
    let s = shown(&a, None, &o);
    let derived = t.elapsed();
    // Those with instances are opened (a count of 0 leaves the vertex as it was).
    assert!(s.opened.len() > 10, "{} opened", s.opened.len());
    assert!(s.graph.len() > g.len());
    let (dg, visible) = drawn(&s);
    let t = std::time::Instant::now();
    let sc = scene(&dg, &visible, None);
    assert!(sc.width > 0.0);
    eprintln!(
        "terraform-aws-vpc: {} vertices, {} open into their sub-graphs, {unknown} not known \
         statically, {none} do not expand; expanding all {:?}, deriving the graph with all open \
         ({} vertices) {:?}, laying it out {:?}",
        g.len(),
        open.len(),
        expanded,
        s.graph.len(),
        derived,
        t.elapsed()
    );
}

/// terraform-aws-vpc's `examples/issues` (three instances of the vpc module side by side, 2,176
/// vertices): its plan graph had 55,098 crossings with every module on the shared layers, ELK
/// (elkjs 0.12.1, compound nodes) 30,983 and dot 55,625. With each module in a band of layers of
/// its own (`layout::compound`), ours is at or below ELK's.
#[test]
fn modules_side_by_side_are_laid_out_in_their_own_layers() {
    let folder = tfgraph::pipeline::FolderInputs {
        dir: support::realworld().join("terraform-aws-vpc/examples/issues"),
        ..Default::default()
    };
    let built = folder
        .build()
        .unwrap_or_else(|e| panic!("{:?}", e.messages()));
    let (input, _) = tfgraph::layout::inputs::input_from_plan(built.built.graph.dag(), false);
    let l = tfgraph::layout::layout(&input, &tfgraph::layout::LayoutOptions::default());
    let crossings = l.metrics().crossings;
    assert!(crossings <= 30_983, "{crossings} crossings");
}

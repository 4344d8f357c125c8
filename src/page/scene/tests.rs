use super::*;
use crate::page::graph::{graph_of, name};
use crate::page::view::{Shown, ViewOpts, apply};

fn shown(names: &[&str], edges: &[(usize, usize)]) -> Shown {
    Shown {
        graph: graph_of(names.iter().map(|s| s.to_string()), edges.iter().copied()),
        ..Shown::default()
    }
}

/// The scene of the graph `names`/`edges` as the page draws it, and its box for `aws_instance.a`.
fn scene_and_instance(names: &[&str], edges: &[(usize, usize)]) -> (Scene, SNode) {
    let s = shown(names, edges);
    let (g, visible) = drawn(&s);
    let sc = scene(&g, &visible, None);
    let n = sc
        .nodes
        .iter()
        .find(|n| n.name == "aws_instance.a")
        .expect("aws_instance.a is drawn")
        .clone();
    (sc, n)
}

#[test]
fn tenths_are_written_as_the_float_formatter_writes_them() {
    // Away from exact ties the two agree digit for digit.
    let mut r = crate::rng::SplitMix::new(7);
    for i in 0..20_000 {
        let v = match i % 4 {
            0 => (r.next_u64() % 2_000_000) as f64 / 997.0,
            1 => -((r.next_u64() % 2_000_000) as f64 / 991.0),
            2 => (r.next_u64() % 100) as f64,
            _ => (r.next_u64() % 10_000) as f64 / 10.0 + 0.01,
        };
        let mut got = String::new();
        push_tenths(&mut got, v);
        let want = format!("{v:.1}");
        let want = if want == "-0.0" {
            "0.0".to_string()
        } else {
            want
        };
        assert_eq!(got, want, "{v}");
    }
    let mut big = String::new();
    push_tenths(&mut big, 1e300);
    assert_eq!(big, format!("{:.1}", 1e300));
    let mut zero = String::new();
    push_tenths(&mut zero, -0.01);
    assert_eq!(zero, "0.0");
}

// Issue 18, defect 10: choosing a search match did not move the view to it.
#[test]
fn the_view_centres_on_a_vertex_and_fit_keeps_the_drawing_in_the_canvas() {
    let (sc, n) = scene_and_instance(&["aws_instance.a", "aws_vpc.b", "var.c"], &[(0, 1), (1, 2)]);
    // At a readable scale the scale stays; too small, it becomes 1.
    for (scale, want) in [(0.8, 0.8), (0.2, 1.0)] {
        let (tx, ty, s) =
            centre_on(&sc, "aws_instance.a", (5.0, 5.0, scale), 600.0, 400.0).expect("drawn");
        assert_eq!(s, want);
        assert!(((n.x + n.w / 2.0) * s + tx - 300.0).abs() < 1e-9);
        assert!(((n.y + n.h / 2.0) * s + ty - 200.0).abs() < 1e-9);
    }
    assert_eq!(
        centre_on(&sc, "nothing", (0.0, 0.0, 1.0), 600.0, 400.0),
        None
    );
    let (tx, ty, s) = fit(sc.width, sc.height, 600.0, 400.0);
    assert!((MIN_FIT_SCALE..=1.0).contains(&s));
    assert!(tx >= 0.0 && ty >= 8.0 && tx + sc.width * s <= 600.0);
    assert_eq!(fit(0.0, 10.0, 600.0, 400.0), (0.0, 0.0, 1.0));
    // A very wide drawing fits whole (Fit used to stop at 15%).
    let (tx, ty, s) = fit(10_070.0, 400.0, 800.0, 600.0);
    assert!(tx >= 0.0 && tx + 10_070.0 * s <= 800.0, "{tx} {s}");
    assert!(ty >= 0.0 && ty + 400.0 * s <= 600.0, "{ty} {s}");
}

#[test]
fn a_vertex_centred_stays_centred_when_the_canvas_changes_size() {
    let (sc, n) = scene_and_instance(&["aws_instance.a", "aws_vpc.b"], &[(0, 1)]);
    let centre = |xf: Xf, (cw, ch): (f64, f64)| {
        (
            xf.0 + (n.x + n.w / 2.0) * xf.2 - cw / 2.0,
            xf.1 + (n.y + n.h / 2.0) * xf.2 - ch / 2.0,
        )
    };
    let before = (807.0, 259.0);
    let xf = centre_on(&sc, "aws_instance.a", (3.0, 4.0, 0.75), before.0, before.1).unwrap();
    assert_eq!(centre(xf, before), (0.0, 0.0));
    for now in [(749.0, 175.0), (1200.0, 900.0), (807.0, 259.0)] {
        let kept = keep_centre(xf, before, now);
        let (dx, dy) = centre(kept, now);
        assert!(
            dx.abs() < 1e-9 && dy.abs() < 1e-9,
            "{now:?}: off by {dx}, {dy}"
        );
        assert_eq!(kept.2, xf.2, "the zoom is kept");
    }
}

#[test]
fn the_view_is_a_css_transform_in_pixels_from_the_top_left() {
    // A point p of the drawing shows at (x, y) + scale * p: translate first, then scale.
    assert_eq!(
        view_transform((12.34, -5.0, 0.25)),
        "translate(12.3px, -5.0px) scale(0.2500)"
    );
    assert_eq!(
        view_transform((0.0, 0.0, 1.0)),
        "translate(0.0px, 0.0px) scale(1.0000)"
    );
}

// Issue 18, defect 11: the SVG (and the PNG made from it) lost the kinds' colours and shapes.
#[test]
fn the_exported_svg_keeps_each_kinds_shape_and_colour() {
    let s = shown(
        &[
            "aws_instance.a",
            "provider[\"registry.opentofu.org/hashicorp/aws\"]",
            "data.aws_ami.x",
            "var.region",
        ],
        &[(0, 1), (0, 2), (1, 3)],
    );
    let (g, visible) = drawn(&s);
    let svg = scene(&g, &visible, None).svg();
    let line = |needle: &str| {
        svg.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle} in {svg}"))
            .to_string()
    };
    let provider = line("<title>provider[");
    assert!(
        provider.contains("<polygon class=\"tfg-node tfg-node-provider\""),
        "{provider}"
    );
    assert!(provider.contains("stroke=\"#d55e00\""), "{provider}");
    let data = line("<title>data.aws_ami.x");
    assert!(data.contains("stroke-dasharray=\"5 3\""), "{data}");
    assert!(data.contains("stroke=\"#009e73\""), "{data}");
    let resource = line("<title>aws_instance.a");
    assert!(resource.contains("fill=\"#ebf4f9\""), "{resource}");
    // A variable is a pill: its corner radius is half its height.
    let var = line("<title>var.region");
    let attr = |l: &str, a: &str| -> f64 {
        let at = l.find(&format!(" {a}=\"")).expect(a) + a.len() + 3;
        l[at..].split('"').next().unwrap().parse().unwrap()
    };
    assert!(
        (attr(&var, "rx") - attr(&var, "height") / 2.0).abs() < 0.1,
        "{var}"
    );
}

#[test]
fn every_vertex_and_edge_is_keyed_by_name_and_indexes_are_the_shown_graphs() {
    let mut s = shown(
        &[
            "aws_instance.b",
            "aws_instance.a",
            "var.x",
            "module.m.aws_vpc.v",
        ],
        &[(0, 1), (1, 2), (0, 3)],
    );
    // Hide var.x: the scene keeps the shown graph's indexes.
    s.hidden.insert(2);
    let (g, visible) = drawn(&s);
    assert_eq!(visible, [0, 1, 3]);
    let sc = scene(&g, &visible, None);
    let by_name: BTreeMap<&str, usize> = sc
        .nodes
        .iter()
        .map(|n| (n.name.as_str(), n.index))
        .collect();
    assert_eq!(
        by_name,
        BTreeMap::from([
            ("aws_instance.a", 1),
            ("aws_instance.b", 0),
            ("module.m.aws_vpc.v", 3)
        ])
    );
    let mut keys: Vec<(String, String)> = sc.edges.iter().map(|e| e.key.clone()).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            ("aws_instance.b".to_string(), "aws_instance.a".to_string()),
            (
                "aws_instance.b".to_string(),
                "module.m.aws_vpc.v".to_string()
            )
        ]
    );
    for e in &sc.edges {
        assert_eq!(e.key.0, s.graph.vertex(e.from).unwrap().name);
        assert_eq!(e.key.1, s.graph.vertex(e.to).unwrap().name);
    }
    assert_eq!(sc.clusters.len(), 1);
    assert_eq!(sc.clusters[0].path, "module.m");
    // Keys are unique.
    let names: std::collections::BTreeSet<&str> =
        sc.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names.len(), sc.nodes.len());
}

#[test]
fn an_edit_keeps_the_order_of_what_stayed() {
    // A chain with a side branch; adding a vertex keeps the others left to right as before.
    let names = ["r.a", "r.b", "r.c", "r.d"];
    let s = shown(&names, &[(1, 0), (2, 0), (3, 0)]);
    let (g, v) = drawn(&s);
    let first = scene(&g, &v, None);
    let order = |sc: &Scene| {
        let mut xs: Vec<(i64, String)> = sc
            .nodes
            .iter()
            .filter(|n| n.name != "r.new")
            .map(|n| ((n.x * 10.0) as i64, n.name.clone()))
            .collect();
        xs.sort();
        xs.into_iter().map(|x| x.1).collect::<Vec<_>>()
    };
    let s2 = shown(
        &["r.a", "r.b", "r.c", "r.d", "r.new"],
        &[(1, 0), (2, 0), (3, 0), (4, 0)],
    );
    let (g2, v2) = drawn(&s2);
    let second = scene(&g2, &v2, first.previous());
    assert_eq!(order(&first), order(&second));
}

#[test]
fn dashed_edges_join_their_ends_and_leave_the_layout_alone() {
    let steps = crate::page::analysis::reduced_of(&[crate::builder::Step {
        name: "TransitiveReductionTransformer".into(),
        removed_edges: vec![("r.a".into(), "r.c".into())],
        ..Default::default()
    }]);
    let base = shown(&["r.a", "r.b", "r.c"], &[(0, 1), (1, 2)]);
    let on = apply(
        base.clone(),
        &steps,
        &ViewOpts {
            reduce: true,
            ..ViewOpts::default()
        },
    );
    let off = apply(
        base,
        &steps,
        &ViewOpts {
            reduce: false,
            ..ViewOpts::default()
        },
    );
    assert_eq!(off.dashed.len(), 1);
    let (g1, v1) = drawn(&on);
    let (g2, v2) = drawn(&off);
    let (a, b) = (scene(&g1, &v1, None), scene(&g2, &v2, None));
    assert_eq!(a.nodes, b.nodes);
    let d = dashed_paths(&off, &b);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].key, ("r.a".to_string(), "r.c".to_string()));
    assert!(d[0].d.starts_with('M'));
}

// Issue 18, defect 9: the graph was laid out again at every build step, so vertices jumped.
#[test]
fn build_steps_keep_every_vertex_where_it_was_and_draw_exactly_each_steps_edges() {
    use crate::page::analysis::{Options, analyze};
    use crate::page::examples::{EXAMPLES, files_of};
    use crate::page::view::shown_steps;
    let mut checked = 0;
    for e in EXAMPLES {
        let a = analyze(&files_of(e), e.kind, &Options::default());
        assert!(a.steps.len() > 1, "{}", e.id);
        // The views too: resources only, and the first module collapsed.
        let module = a
            .graph
            .as_ref()
            .and_then(|g| g.vertices().iter().find_map(|v| v.cluster.first().cloned()));
        let mut views = vec![
            ViewOpts::default(),
            ViewOpts {
                resources_only: true,
                ..ViewOpts::default()
            },
        ];
        if let Some(m) = module {
            views.push(ViewOpts {
                collapsed: [m].into(),
                ..ViewOpts::default()
            });
        }
        for o in views {
            let (ug, _) = drawn(&shown_steps(&a, &o));
            let all = steps_layout(&ug).expect("drawable");
            let mut at: BTreeMap<String, (f64, f64)> = BTreeMap::new();
            let mut size = None;
            for k in 0..a.steps.len() {
                let s = crate::page::view::shown(&a, Some(k), &o);
                let (g, visible) = drawn(&s);
                let sc = at_step(&all, &g, &visible);
                let what = format!("{} {o:?} step {k}", e.id);
                // Every vertex drawn, once, where it was at every other step.
                let mut names: Vec<&str> = sc.nodes.iter().map(|n| n.name.as_str()).collect();
                let mut want: Vec<&str> = g.vertices().iter().map(|v| v.name.as_str()).collect();
                names.sort_unstable();
                want.sort_unstable();
                assert_eq!(names, want, "{what}");
                for n in &sc.nodes {
                    assert_eq!(
                        s.graph.vertex(n.index).map(|v| v.name.as_str()),
                        Some(n.name.as_str())
                    );
                    let key = step_key(&n.name).to_string();
                    let centre = (n.x + n.w / 2.0, n.y + n.h / 2.0);
                    let was = *at.entry(key).or_insert(centre);
                    assert_eq!(was, centre, "{what}: {} moved", n.name);
                }
                // Exactly the step's edges.
                let mut keys: Vec<(String, String)> =
                    sc.edges.iter().map(|e| e.key.clone()).collect();
                let mut want: Vec<(String, String)> = g
                    .edges()
                    .iter()
                    .map(|&(x, y)| (name(&g, x).to_string(), name(&g, y).to_string()))
                    .collect();
                keys.sort();
                want.sort();
                assert_eq!(keys, want, "{what}");
                // One size for every step, so Fit does not change either.
                let wh = (sc.width, sc.height);
                assert_eq!(*size.get_or_insert(wh), wh, "{what}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn build_steps_too_big_for_one_layout_say_so() {
    let names: Vec<String> = (0..MAX_DRAWN + 1).map(|i| format!("r.x{i}")).collect();
    let g = graph_of(names, []);
    assert!(steps_layout(&g).is_err());
}

#[test]
fn too_many_vertices_are_not_laid_out() {
    let names: Vec<String> = (0..MAX_DRAWN + 1).map(|i| format!("r.x{i}")).collect();
    let g = graph_of(names, []);
    let v: Vec<usize> = (0..g.len()).collect();
    let s = scene(&g, &v, None);
    assert!(s.nodes.is_empty());
    assert_eq!(
        s.too_big
            .as_deref()
            .map(|m| m.split(';').next().unwrap_or_default()),
        Some("This graph has 5001 vertices")
    );
}

#[test]
fn too_many_edges_are_not_laid_out() {
    // Two layers, each of the first `n` vertices depending on each of the last `n`.
    let bipartite = |n: usize| {
        let names: Vec<String> = (0..2 * n).map(|i| format!("r.x{i}")).collect();
        let edges: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (n..2 * n).map(move |b| (a, b)))
            .collect();
        graph_of(names, edges)
    };
    let g = bipartite(150);
    assert_eq!(g.edge_count(), 22_500);
    let v: Vec<usize> = (0..g.len()).collect();
    let s = scene(&g, &v, None);
    assert!(s.nodes.is_empty() && s.edges.is_empty());
    assert!(
        s.too_big.as_deref().is_some_and(
            |m| m.starts_with("This graph has 22500 edges; the app draws up to 20000.")
        ),
        "{:?}",
        s.too_big
    );
    // Below the limit it is drawn.
    let g = bipartite(140);
    assert_eq!(g.edge_count(), 19_600);
    assert_eq!(too_big(&g), None);
}

#[test]
fn graphs_whose_edges_span_many_layers_are_not_laid_out() {
    // Each vertex depends on every vertex before it: few edges, but the edge from the last
    // to the first spans every layer.
    let complete = |n: usize| {
        let names: Vec<String> = (0..n).map(|i| format!("r.x{i}")).collect();
        let edges: Vec<(usize, usize)> = (0..n).flat_map(|a| (0..a).map(move |b| (a, b))).collect();
        graph_of(names, edges)
    };
    // Vertex a sits on layer a; edge (a, b) needs a - b - 1 dummies: (a - 1) a / 2 for a.
    assert_eq!(long_edge_steps(&complete(5)), 1 + 3 + 6);
    let g = complete(120);
    assert!(g.edge_count() < MAX_DRAWN_EDGES);
    assert_eq!(
        long_edge_steps(&g),
        (0..120u64)
            .map(|a| a.saturating_sub(1) * a / 2)
            .sum::<u64>()
    );
    let v: Vec<usize> = (0..g.len()).collect();
    let s = scene(&g, &v, None);
    assert!(s.nodes.is_empty());
    assert!(
        s.too_big
            .as_deref()
            .is_some_and(|m| m.contains("spanning many layers")),
        "{:?}",
        s.too_big
    );
    // A chain is cheap however long; a cycle does not hang the count.
    let chain = graph_of(
        (0..1000).map(|i| format!("r.x{i}")),
        (1..1000).map(|i| (i, i - 1)),
    );
    assert_eq!(long_edge_steps(&chain), 0);
    let cycle = graph_of(["a".to_string(), "b".to_string()], [(0, 1), (1, 0)]);
    assert_eq!(long_edge_steps(&cycle), 0);
    // Cycles are counted once broken, as the layout breaks them. Every vertex depending on
    // every other (found by fuzzing as a DOT file: 152 vertices, 9,824 edges, 2.7 s to lay
    // out) was counted as no long edge at all; broken, its vertices are a chain, and each
    // pair's two edges span the layers between them.
    let n = 100;
    let dense = graph_of(
        (0..n).map(|i| format!("r.x{i}")),
        (0..n).flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b))),
    );
    assert!(dense.edge_count() < MAX_DRAWN_EDGES);
    let spans: u64 = (1..n as u64).map(|d| 2 * (n as u64 - d) * (d - 1)).sum();
    assert_eq!(long_edge_steps(&dense), spans);
    assert!(
        too_big(&dense).is_some_and(|m| m.contains("spanning many layers")),
        "{:?}",
        too_big(&dense)
    );
}

#[test]
fn the_examples_and_large_generated_configurations_stay_drawable() {
    use crate::builder::BuilderKind;
    use crate::page::analysis::{Options, analyze};
    use crate::page::examples::{EXAMPLES, files_of};
    let mut cases: Vec<(String, std::collections::BTreeMap<String, String>)> = EXAMPLES
        .iter()
        .map(|e| (e.id.to_string(), files_of(e)))
        .collect();
    for (resources, modules) in [(1_000, 10), (2_000, 20)] {
        let files = crate::generator::generate(&crate::generator::GenOptions {
            resources,
            modules,
            seed: 1,
        });
        cases.push((format!("generated {resources}"), files));
    }
    for (name, files) in cases {
        let a = analyze(&files, BuilderKind::Plan, &Options::default());
        let Some(g) = a.graph else { continue };
        let steps = long_edge_steps(&g);
        assert!(
            too_big(&g).is_none(),
            "{name}: {} vertices, {} edges, {steps} long-edge steps",
            g.len(),
            g.edge_count()
        );
    }
}

// Issue 16, item 5: labels are drawn only where they can be read.
#[test]
fn labels_are_drawn_only_at_a_readable_zoom() {
    assert!(labels_shown(1.0, None));
    assert!(labels_shown(LABEL_SCALE, None));
    assert!(!labels_shown(0.1, None));
    // Between the two thresholds the labels stay as they were: zooming around one threshold
    // does not switch them on and off.
    let between = (LABEL_SCALE + LABEL_HIDE_SCALE) / 2.0;
    assert!(labels_shown(between, Some(true)));
    assert!(!labels_shown(between, Some(false)));
    assert!(!labels_shown(LABEL_HIDE_SCALE * 0.99, Some(true)));
    assert!(labels_shown(LABEL_SCALE, Some(false)));
    // A vertex centred for reading (a search match, a click in a list) has its label drawn.
    let (g, visible) = drawn(&shown(&["a"], &[]));
    let sc = scene(&g, &visible, None);
    let xf = centre_on(&sc, "a", (0.0, 0.0, 0.05), 800.0, 600.0).expect("drawn");
    assert!(labels_shown(xf.2, None));
    // The fit of a small graph keeps its labels; of a large one it does not.
    assert!(labels_shown(fit(400.0, 300.0, 1200.0, 700.0).2, None));
    assert!(!labels_shown(fit(20_000.0, 3_000.0, 1200.0, 700.0).2, None));
}

#[test]
fn an_edit_moves_only_what_it_changed() {
    // Resources added one by one, as typed in the editor: after the first (which also brings
    // its provider), each new resource is drawn without moving any vertex or edge already drawn.
    let mut files = crate::generator::generate(&crate::generator::GenOptions {
        resources: 120,
        modules: 3,
        seed: 1,
    });
    let o = crate::page::analysis::Options::default();
    let scene_of = |files: &BTreeMap<String, String>, prev: Option<&Scene>| {
        let a = crate::page::analysis::run::analyze(files, crate::builder::BuilderKind::Plan, &o);
        let s = crate::page::view::shown(&a, None, &crate::page::view::ViewOpts::default());
        let (g, v) = drawn(&s);
        scene(&g, &v, prev.and_then(Scene::previous))
    };
    let mut prev = scene_of(&files, None);
    for k in 0..3 {
        files.get_mut("main.tf").unwrap().push_str(&format!(
            "\nresource \"null_resource\" \"typed_{k}\" {{}}\n"
        ));
        let next = scene_of(&files, Some(&prev));
        let new = format!("null_resource.typed_{k} (expand)");
        assert!(next.nodes.iter().any(|n| n.name == new), "{new} drawn");
        if k > 0 {
            let old: BTreeMap<&str, (f64, f64)> = prev
                .nodes
                .iter()
                .map(|n| (n.name.as_str(), (n.x, n.y)))
                .collect();
            for n in &next.nodes {
                if let Some(&(x, y)) = old.get(n.name.as_str()) {
                    assert!(
                        (x - n.x).abs() < 1e-6 && (y - n.y).abs() < 1e-6,
                        "{} moved",
                        n.name
                    );
                }
            }
            let old: BTreeMap<_, _> = prev.edges.iter().map(|e| (&e.key, &e.d)).collect();
            for e in &next.edges {
                if let Some(d) = old.get(&e.key) {
                    assert_eq!(*d, &e.d, "{:?} rerouted", e.key);
                }
            }
        }
        prev = next;
    }
}

#[test]
fn too_big_to_lay_out_names_the_first_limit_a_graph_passes() {
    use std::iter::{empty, repeat_n};
    assert_eq!(too_big_to_lay_out(MAX_DRAWN, empty()), None);
    assert_eq!(
        too_big_to_lay_out(MAX_DRAWN + 1, empty()),
        Some(TooBig::Vertices)
    );
    assert_eq!(
        too_big_to_lay_out(2, repeat_n((0, 1), MAX_DRAWN_EDGES)),
        None
    );
    assert_eq!(
        too_big_to_lay_out(2, repeat_n((0, 1), MAX_DRAWN_EDGES + 1)),
        Some(TooBig::Edges)
    );
    // Every vertex of 100 before every later one: 4,950 edges, one layer each, so the edge
    // i -> j spans j - i layers: C(100, 3) = 161,700 dummies in all.
    let complete: Vec<(usize, usize)> =
        (0..100).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
    assert_eq!(
        too_big_to_lay_out(100, complete.iter().copied()),
        Some(TooBig::LongEdges)
    );
    let chain = (1..1000).map(|j| (j - 1, j));
    assert_eq!(too_big_to_lay_out(1000, chain), None);
}

#[test]
fn while_the_worker_lays_out_the_last_drawing_is_carried_over_to_the_shown_graph() {
    // Before: a -> b -> c in module m, and d; after: b is gone, e is new, and the shown graph
    // lists the vertices in another order (so every index changes).
    let before = shown(
        &[
            "module.m.aws_instance.a",
            "module.m.aws_instance.b",
            "module.m.aws_instance.c",
            "aws_instance.d",
        ],
        &[(0, 1), (1, 2), (3, 2)],
    );
    let (g0, v0) = drawn(&before);
    let old = scene(&g0, &v0, None);
    assert_eq!(old.clusters.len(), 1, "module m is boxed");
    let after = shown(
        &[
            "aws_instance.e",
            "aws_instance.d",
            "module.m.aws_instance.c",
            "module.m.aws_instance.a",
        ],
        &[(3, 2), (1, 2), (0, 1)],
    );
    let (g, visible) = drawn(&after);
    let c = carried(&old, &g, &visible, laying_out(&g));
    assert_eq!(c.pending.as_deref(), Some("Laying out 4 vertices"));
    // What stayed is where it was, under its new index; the gone vertex is not drawn, the new
    // one not yet.
    let names: Vec<(&str, usize)> = c.nodes.iter().map(|n| (n.name.as_str(), n.index)).collect();
    assert_eq!(
        names
            .iter()
            .map(|(n, _)| *n)
            .collect::<std::collections::BTreeSet<_>>(),
        [
            "aws_instance.d",
            "module.m.aws_instance.a",
            "module.m.aws_instance.c"
        ]
        .into_iter()
        .collect()
    );
    for n in &c.nodes {
        assert_eq!(
            after.graph.vertex(n.index).map(|v| v.name.as_str()),
            Some(n.name.as_str())
        );
        let was = old
            .nodes
            .iter()
            .find(|o| o.name == n.name)
            .expect("was drawn");
        assert_eq!((n.x, n.y, n.w, n.h), (was.x, was.y, was.w, was.h));
    }
    // Only edges of the shown graph are kept (a -> b and b -> c went with b; d -> c stays; e -> d
    // is new), indexed as the shown graph's.
    let edges: Vec<(String, String)> = c.edges.iter().map(|e| e.key.clone()).collect();
    assert_eq!(
        edges,
        vec![(
            "aws_instance.d".to_string(),
            "module.m.aws_instance.c".to_string()
        )]
    );
    assert_eq!((c.edges[0].from, c.edges[0].to), (1, 2));
    assert_eq!(c.clusters, old.clusters, "module m still has vertices");
    assert_eq!((c.width, c.height), (old.width, old.height));
    assert!(
        c.previous().is_some(),
        "the next layout stays near the old one"
    );
    // Once m is empty its box goes.
    let gone = shown(&["aws_instance.d"], &[]);
    let (g, visible) = drawn(&gone);
    assert!(
        carried(&old, &g, &visible, String::new())
            .clusters
            .is_empty()
    );
}

#[test]
fn only_large_drawable_graphs_go_to_the_worker() {
    let chain = |n: usize| {
        let names: Vec<String> = (0..n).map(|i| format!("aws_instance.r{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (i, i - 1)).collect();
        drawn(&shown(&refs, &edges)).0
    };
    // A chain has no long edges: its cost is its length.
    let bound = OFF_THREAD_FROM as usize;
    assert_eq!(layout_cost(&chain(bound)), Ok(OFF_THREAD_FROM));
    assert!(!off_thread(&chain(bound - 1), None));
    assert!(off_thread(&chain(bound), None));
    // Too big to draw is said at once, not sent.
    assert!(!off_thread(&chain(MAX_DRAWN + 1), None));
    // A few vertices whose edges span many layers cost as many: each vertex of a chain of 80
    // after the second also depends on the first; `extra` vertices depend on the last.
    let fan = |n: usize, extra: usize| {
        let names: Vec<String> = (0..n + extra)
            .map(|i| format!("aws_instance.r{i}"))
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut edges: Vec<(usize, usize)> = (1..n).map(|i| (i, i - 1)).collect();
        edges.extend((2..n).map(|i| (i, 0)));
        edges.extend((n..n + extra).map(|i| (i, n - 1)));
        drawn(&shown(&refs, &edges)).0
    };
    let g = fan(80, 0);
    let cost = layout_cost(&g).expect("drawable");
    assert_eq!(cost, 80 + (2..80u64).map(|i| i - 1).sum::<u64>());
    assert!(g.len() < bound && cost >= OFF_THREAD_FROM);
    assert!(off_thread(&g, None));
    // An edit's small change stays near the last drawing, on the page; a large one does not.
    let last = scene(&g, &(0..g.len()).collect::<Vec<_>>(), None)
        .previous()
        .expect("laid out");
    assert!(!off_thread(&fan(80, 2), Some(&last)));
    assert!(off_thread(&fan(80, 40), Some(&last)));
}

#![cfg(not(target_arch = "wasm32"))]
//! Property tests of the layered layout: geometry invariants, clusters, determinism, stability
//! hints, and the crossing counter against brute force.

use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use tfgraph::dag::{Graph, VertexId};
use tfgraph::layout::{
    self, Direction, Layout, LayoutOptions, count_crossings, monospace_size, random_graph,
};

const PATHS: [&[&str]; 6] = [
    &[],
    &["module.a"],
    &["module.a", "module.b"],
    &["module.a", "module.c"],
    &["module.d"],
    &["module.d", "module.e"],
];

#[derive(Debug, Clone)]
struct Case {
    sizes: Vec<(f64, f64)>,
    clusters: Vec<usize>,
    edges: Vec<(usize, usize)>,
}

/// Random graphs; with `acyclic`, every edge points from a later vertex to an earlier one.
fn case(acyclic: bool) -> impl Strategy<Value = Case> {
    (1usize..28).prop_flat_map(move |n| {
        let sizes = prop::collection::vec((1.0f64..120.0, 1.0f64..50.0), n);
        let clusters = prop::collection::vec(0usize..PATHS.len(), n);
        let edges = prop::collection::vec((0..n, 0..n), 0..n * 2 + 1);
        (sizes, clusters, edges).prop_map(move |(sizes, clusters, edges)| {
            let edges = edges
                .into_iter()
                .filter_map(|(a, b)| {
                    if !acyclic {
                        Some((a, b))
                    } else if a == b {
                        None
                    } else {
                        Some((a.max(b), a.min(b)))
                    }
                })
                .collect();
            Case {
                sizes,
                clusters,
                edges,
            }
        })
    })
}

fn build(c: &Case) -> (Graph<String>, Vec<VertexId>) {
    let mut g = Graph::new();
    let ids: Vec<VertexId> = (0..c.sizes.len()).map(|i| g.add(format!("v{i}"))).collect();
    for &(a, b) in &c.edges {
        // a depends on b
        g.connect(ids[a], ids[b]);
    }
    (g, ids)
}

fn run(c: &Case, opts: &LayoutOptions) -> (Layout, Graph<String>, Vec<VertexId>) {
    let (g, ids) = build(c);
    let index: BTreeMap<VertexId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let l = layout::layout_graph(
        &g,
        |id, _| c.sizes[index[&id]],
        |id, _| {
            PATHS[c.clusters[index[&id]]]
                .iter()
                .map(|s| s.to_string())
                .collect()
        },
        opts,
    );
    (l, g, ids)
}

/// `c` with only the vertices `keep` (renumbered, edges among them kept), and the maps from the
/// subset's names to `c`'s and back (`v{k}` in the subset is `v{keep[k]}` in `c`).
fn subset(c: &Case, keep: &[usize]) -> (Case, BTreeMap<String, String>, BTreeMap<String, String>) {
    let pos: BTreeMap<usize, usize> = keep.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let small = Case {
        sizes: keep.iter().map(|&i| c.sizes[i]).collect(),
        clusters: keep.iter().map(|&i| c.clusters[i]).collect(),
        edges: c
            .edges
            .iter()
            .filter_map(|(a, b)| Some((*pos.get(a)?, *pos.get(b)?)))
            .collect(),
    };
    let to_big: BTreeMap<String, String> = keep
        .iter()
        .enumerate()
        .map(|(k, &i)| (format!("v{k}"), format!("v{i}")))
        .collect();
    let to_small = to_big.iter().map(|(a, b)| (b.clone(), a.clone())).collect();
    (small, to_big, to_small)
}

const EPS: f64 = 1e-6;

fn overlap(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 < b.0 + b.2 - EPS && b.0 < a.0 + a.2 - EPS && a.1 < b.1 + b.3 - EPS && b.1 < a.1 + a.3 - EPS
}

fn inside(inner: (f64, f64, f64, f64), outer: (f64, f64, f64, f64)) -> bool {
    inner.0 >= outer.0 - EPS
        && inner.1 >= outer.1 - EPS
        && inner.0 + inner.2 <= outer.0 + outer.2 + EPS
        && inner.1 + inner.3 <= outer.1 + outer.3 + EPS
}

fn check_geometry(c: &Case, l: &Layout) -> Result<(), TestCaseError> {
    // No two vertex boxes overlap.
    for (i, a) in l.nodes.iter().enumerate() {
        for b in &l.nodes[i + 1..] {
            prop_assert!(
                !overlap((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)),
                "{} overlaps {}",
                a.name,
                b.name
            );
        }
    }
    // Cluster boxes contain exactly their vertices; nested boxes nest, siblings are disjoint.
    for cb in &l.clusters {
        let r = (cb.x, cb.y, cb.w, cb.h);
        for (i, nb) in l.nodes.iter().enumerate() {
            let p = PATHS[c.clusters[i]];
            let member = p.len() >= cb.path.len() && p[..cb.path.len()] == cb.path[..];
            let nr = (nb.x, nb.y, nb.w, nb.h);
            if member {
                prop_assert!(inside(nr, r), "{} not inside {:?}", nb.name, cb.path);
            } else {
                prop_assert!(!overlap(nr, r), "{} inside foreign {:?}", nb.name, cb.path);
            }
        }
        for other in &l.clusters {
            let or = (other.x, other.y, other.w, other.h);
            if other.path.len() > cb.path.len() && other.path[..cb.path.len()] == cb.path[..] {
                prop_assert!(inside(or, r), "{:?} not inside {:?}", other.path, cb.path);
            } else if other.path.len() == cb.path.len() && other.path != cb.path {
                prop_assert!(!overlap(or, r), "{:?} overlaps {:?}", other.path, cb.path);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn acyclic_layouts_are_sound(c in case(true), lr in any::<bool>(), wrap in any::<bool>()) {
        let opts = LayoutOptions {
            direction: if lr { Direction::LeftToRight } else { Direction::TopToBottom },
            wrap,
            ..LayoutOptions::default()
        };
        let (l, g, _) = run(&c, &opts);
        check_geometry(&c, &l)?;
        let layer: BTreeMap<VertexId, usize> = l.nodes.iter().map(|n| (n.id, n.layer)).collect();
        prop_assert_eq!(l.edges.len(), g.edge_count());
        for e in &l.edges {
            prop_assert!(!e.reversed);
            prop_assert!(layer[&e.from] < layer[&e.to], "{:?}", e);
            prop_assert!(g.has_edge(e.to, e.from));
            // The route runs down (or right) through the layers.
            for w in e.points.windows(2) {
                let (a, b) = if lr { (w[0].0, w[1].0) } else { (w[0].1, w[1].1) };
                prop_assert!(a <= b + EPS);
            }
        }
    }

    #[test]
    fn cyclic_inputs_are_laid_out(c in case(false), wrap in any::<bool>()) {
        let (l, g, _) = run(&c, &LayoutOptions { wrap, ..LayoutOptions::default() });
        check_geometry(&c, &l)?;
        let layer: BTreeMap<VertexId, usize> = l.nodes.iter().map(|n| (n.id, n.layer)).collect();
        prop_assert_eq!(l.edges.len(), g.edge_count());
        for e in &l.edges {
            if e.from == e.to {
                continue;
            }
            if e.reversed {
                prop_assert!(layer[&e.from] > layer[&e.to]);
            } else {
                prop_assert!(layer[&e.from] < layer[&e.to]);
            }
        }
    }

    #[test]
    fn same_input_same_output(c in case(false)) {
        let (a, _, _) = run(&c, &LayoutOptions::default());
        let (b, _, _) = run(&c, &LayoutOptions::default());
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    }

    #[test]
    fn hint_keeps_relative_order(
        c in case(true),
        drop in prop::collection::vec(any::<bool>(), 28),
        grow in any::<bool>(),
    ) {
        // `small` is `c` without the dropped vertices (renumbered). Lay out one of the two, then
        // the other with the first as the hint: vertices removed (or added) between the two.
        let keep: Vec<usize> = (0..c.sizes.len()).filter(|&i| !drop[i]).collect();
        let (small, to_big, to_small) = subset(&c, &keep);
        let (before, after_case, rename) = if grow {
            (run(&small, &LayoutOptions::default()).0, &c, &to_big)
        } else {
            (run(&c, &LayoutOptions::default()).0, &small, &to_small)
        };
        let hint: BTreeMap<String, f64> = before
            .order_hint()
            .into_iter()
            .filter_map(|(name, p)| Some((rename.get(&name)?.clone(), p)))
            .collect();
        let opts = LayoutOptions { previous: Some(hint.clone()), ..LayoutOptions::default() };
        let (after, _, _) = run(after_case, &opts);
        // Within one layer and one cluster, retained vertices keep their old relative order.
        for a in &after.nodes {
            for b in &after.nodes {
                let (Some(ha), Some(hb)) = (hint.get(&a.name), hint.get(&b.name)) else { continue };
                let (ia, ib) = (name_index(&a.name), name_index(&b.name));
                if a.layer == b.layer && after_case.clusters[ia] == after_case.clusters[ib] && ha < hb {
                    prop_assert!(a.x < b.x, "{} / {}", a.name, b.name);
                }
            }
        }
    }

    #[test]
    fn sticky_layout_of_the_same_graph_is_the_old_one(c in case(false), lr in any::<bool>(), wrap in any::<bool>()) {
        // One drawing (no packing of components, which lays parts out alone): laid out again
        // near itself, nothing moves.
        let opts = LayoutOptions {
            direction: if lr { Direction::LeftToRight } else { Direction::TopToBottom },
            wrap,
            aspect: None,
            ..LayoutOptions::default()
        };
        let (old, _, _) = run(&c, &opts);
        let again = LayoutOptions { sticky: Some(Arc::new(old.clone())), ..opts };
        let (new, _, _) = run(&c, &again);
        prop_assert_eq!(new.nodes.len(), old.nodes.len());
        for (a, b) in new.nodes.iter().zip(&old.nodes) {
            prop_assert_eq!(a.layer, b.layer);
            prop_assert!((a.x - b.x).abs() < EPS && (a.y - b.y).abs() < EPS, "{} moved: {:?} -> {:?}", a.name, (b.x, b.y), (a.x, a.y));
        }
        for (a, b) in new.edges.iter().zip(&old.edges) {
            prop_assert_eq!(a.points.len(), b.points.len());
            for (p, q) in a.points.iter().zip(&b.points) {
                prop_assert!((p.0 - q.0).abs() < EPS && (p.1 - q.1).abs() < EPS, "{:?} -> {:?}", b.points, a.points);
            }
        }
        for (a, b) in new.clusters.iter().zip(&old.clusters) {
            prop_assert!((a.x - b.x).abs() < EPS && (a.w - b.w).abs() < EPS, "{:?}", a.path);
        }
    }

    #[test]
    fn sticky_layouts_after_an_edit_are_sound_and_keep_the_old_order(
        c in case(false),
        drop in prop::collection::vec(0usize..28, 0..3),
        grow in any::<bool>(),
        lr in any::<bool>(),
        pack in any::<bool>(),
    ) {
        // A few vertices added (or removed): the new drawing is as sound as a fresh one, and
        // vertices that stay on one layer in one cluster keep their order there.
        let keep: Vec<usize> = (0..c.sizes.len()).filter(|i| !drop.contains(i)).collect();
        let (small, to_big, to_small) = subset(&c, &keep);
        let opts = LayoutOptions {
            direction: if lr { Direction::LeftToRight } else { Direction::TopToBottom },
            aspect: if pack { Some(layout::DEFAULT_ASPECT) } else { None },
            ..LayoutOptions::default()
        };
        let (mut before, after_case, rename) = if grow {
            (run(&small, &opts).0, &c, &to_big)
        } else {
            (run(&c, &opts).0, &small, &to_small)
        };
        for (k, n) in before.nodes.iter_mut().enumerate() {
            n.name = rename.get(&n.name).cloned().unwrap_or_else(|| format!("gone{k}"));
        }
        let old: BTreeMap<String, layout::NodeBox> =
            before.nodes.iter().map(|n| (n.name.clone(), n.clone())).collect();
        let sticky = LayoutOptions { sticky: Some(Arc::new(before)), ..opts };
        let (after, g, _) = run(after_case, &sticky);
        check_geometry(after_case, &after)?;
        prop_assert_eq!(after.edges.len(), g.edge_count());
        let layer: BTreeMap<VertexId, usize> = after.nodes.iter().map(|n| (n.id, n.layer)).collect();
        for e in &after.edges {
            if e.from != e.to {
                prop_assert_eq!(e.reversed, layer[&e.from] > layer[&e.to]);
                prop_assert!(layer[&e.from] != layer[&e.to]);
            }
            prop_assert!(e.points.iter().all(|p| p.0.is_finite() && p.1.is_finite()));
        }
        let along = |n: &layout::NodeBox| if lr { n.y } else { n.x };
        for a in &after.nodes {
            for b in &after.nodes {
                let (Some(oa), Some(ob)) = (old.get(&a.name), old.get(&b.name)) else { continue };
                let (ia, ib) = (name_index(&a.name), name_index(&b.name));
                if a.layer == b.layer && oa.layer == ob.layer
                    && after_case.clusters[ia] == after_case.clusters[ib] && along(oa) < along(ob)
                {
                    prop_assert!(along(a) < along(b), "{} / {}", a.name, b.name);
                }
            }
        }
    }

    #[test]
    fn crossing_counter_matches_brute_force(
        gaps in prop::collection::vec(prop::collection::vec((0u8..6, 0u8..6), 0..14), 1..4)
    ) {
        let f: Vec<Vec<(f64, f64)>> = gaps
            .iter()
            .map(|g| g.iter().map(|&(a, b)| (a as f64, b as f64)).collect())
            .collect();
        let mut brute = 0u64;
        for g in &gaps {
            for i in 0..g.len() {
                for j in i + 1..g.len() {
                    let (a, b) = (g[i], g[j]);
                    if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                        brute += 1;
                    }
                }
            }
        }
        prop_assert_eq!(count_crossings(&f), brute);
    }
}

fn name_index(name: &str) -> usize {
    name[1..].parse().unwrap()
}

#[test]
fn random_benchmark_graph_lays_out_soundly() {
    let (g, modules) = random_graph(400, 7);
    let l = layout::layout_graph(
        &g,
        |_, v| monospace_size(v),
        |id, _| modules[&id].clone(),
        &LayoutOptions::default(),
    );
    assert_eq!(l.nodes.len(), 400);
    for e in &l.edges {
        let lf = l.nodes.iter().find(|n| n.id == e.from).unwrap().layer;
        let lt = l.nodes.iter().find(|n| n.id == e.to).unwrap().layer;
        assert!(lf < lt);
    }
    for (i, a) in l.nodes.iter().enumerate() {
        for b in &l.nodes[i + 1..] {
            assert!(!overlap((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)));
        }
    }
    let m = l.metrics();
    assert!(m.total_edge_length > 0.0);
    let svg = layout::svg::render_names(&l);
    assert!(svg.starts_with("<svg") && svg.contains("module.m"));
}

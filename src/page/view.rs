//! The graph on screen, derived from an analysis: the built graph or the replay of the builder up
//! to a chosen step, with its cycles marked, and the views applied before layout: transitive
//! reduction off (the edges the engine's reduction removed come back, drawn dashed), resources
//! only (resources and data sources, with edges for the paths between them through hidden
//! vertices, reduced) and collapsed modules (one vertex per collapsed module, its edges merged).
//! Also what is related to a selected vertex.
//!
//! Hidden vertices keep their index in [`Shown::graph`], so everything indexed by vertex (the
//! walk's states, the critical path, cycle marks) stays valid; collapsed modules are appended.

use super::analysis::Analysis;
use super::graph::{Kind, PageGraph, PageVertex};
use super::replay::{Replay, replay};
use super::walk::VState;
use crate::builder::StepName;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The graph on screen and how it is drawn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shown {
    pub graph: PageGraph,
    pub replay: Option<Replay>,
    pub cycle_nodes: BTreeSet<usize>,
    pub cycle_edges: BTreeSet<(usize, usize)>,
    // Set by the graph views ([`apply`]).
    /// Vertices of `graph` not drawn (resource-only view, collapsed modules).
    pub hidden: BTreeSet<usize>,
    /// Edges of `graph` drawn dashed: removed by transitive reduction, shown with it off.
    pub dashed: BTreeSet<(usize, usize)>,
    /// How many edges the reduction removed (shown or not).
    pub reduced: usize,
    /// Vertices standing for collapsed modules: module path and the vertices they hide.
    pub collapsed: BTreeMap<usize, (String, Vec<usize>)>,
    /// Opened `(expand)` vertices and the vertices drawn for their sub-graphs
    /// ([`super::expanded`]), by index.
    pub opened: BTreeMap<usize, Vec<usize>>,
}

/// Whether vertex name `name` matches the search `query` (case-insensitive substring; an empty
/// query matches nothing). The drawing marks matches with this, and [`search`] lists them.
pub fn matches_query(name: &str, query: &str) -> bool {
    let q = query.trim();
    !q.is_empty() && name.to_lowercase().contains(&q.to_lowercase())
}

/// The drawn vertices of `s` matching `query`, in name order: what Enter in the search field
/// steps through.
pub fn search(s: &Shown, query: &str) -> Vec<String> {
    let mut out: Vec<String> = s
        .graph
        .vertices()
        .iter()
        .enumerate()
        .filter(|(i, v)| !s.hidden.contains(i) && matches_query(&v.name, query))
        .map(|(_, v)| v.name.clone())
        .collect();
    out.sort();
    out
}

/// The match after `current` (before it when `back`), wrapping around; the first (last) when
/// `current` is not a match. With its position, 1-based, for "2 of 5".
pub fn next_match<'a>(
    matches: &'a [String],
    current: Option<&str>,
    back: bool,
) -> Option<(usize, &'a str)> {
    let n = matches.len();
    if n == 0 {
        return None;
    }
    let at = current.and_then(|c| matches.iter().position(|m| m == c));
    let i = match (at, back) {
        (Some(i), false) => (i + 1) % n,
        (Some(i), true) => (i + n - 1) % n,
        (None, false) => 0,
        (None, true) => n - 1,
    };
    Some((i + 1, matches[i].as_str()))
}

/// The header's figures for what is drawn: vertices and solid edges between drawn vertices (not
/// the edges reduction removed, nor what the replayed step removed, which are drawn faded), and
/// how many vertices are hidden.
pub fn counts(s: &Shown) -> String {
    let gone: BTreeSet<usize> = match &s.replay {
        Some(r) => s
            .graph
            .vertices()
            .iter()
            .enumerate()
            .filter(|(_, v)| r.removed.contains(&v.name))
            .map(|(i, _)| i)
            .collect(),
        None => BTreeSet::new(),
    };
    let drawn = |i: usize| !s.hidden.contains(&i) && !gone.contains(&i);
    let vertices = (0..s.graph.len()).filter(|&i| drawn(i)).count();
    let edges = s
        .graph
        .edges()
        .iter()
        .filter(|&&(a, b)| {
            drawn(a)
                && drawn(b)
                && !s.dashed.contains(&(a, b))
                && !s.replay.as_ref().is_some_and(|r| {
                    r.removed_edges.contains(&(
                        s.graph
                            .vertex(a)
                            .map(|v| v.name.clone())
                            .unwrap_or_default(),
                        s.graph
                            .vertex(b)
                            .map(|v| v.name.clone())
                            .unwrap_or_default(),
                    ))
                })
        })
        .count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut t = format!(
        "{} · {}",
        plural(vertices, "vertex", "vertices"),
        plural(edges, "edge", "edges")
    );
    if !s.hidden.is_empty() {
        t.push_str(&format!(" · {} hidden", s.hidden.len()));
    }
    t
}

/// What the graph pane says when it has nothing to draw: why (the first error of a
/// configuration that does not build, where it is), or how to start.
pub fn empty_text(a: &Analysis) -> String {
    match a.errors.first() {
        Some(e) => {
            let more = match a.errors.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            let place = e
                .place
                .as_deref()
                .map(|p| format!(" at {p}"))
                .unwrap_or_default();
            format!(
                "Nothing to draw: this configuration does not build. {}{place}{more}. The errors are listed under the editor.",
                e.summary
            )
        }
        None => "No graph yet: write some configuration on the left, or load an example.".into(),
    }
}

/// Whether the legend starts open in a viewport of this size (CSS pixels; unknown counts as
/// large): on phones (narrower than 760) and on screens shorter than 1,000 it starts closed, so
/// the graph keeps its height. The stylesheet's media queries hold the same numbers.
pub fn legend_open_by_default(width: Option<f64>, height: Option<f64>) -> bool {
    width.is_none_or(|w| w >= 760.0) && height.is_none_or(|h| h >= 1000.0)
}

/// Above this many vertices, a configuration starts with its modules collapsed when it is
/// opened (an example, files, a folder, a share link, the saved work when the page loads): at
/// Fit, a thousand vertices are marks too small to tell apart (the labels' scale is far off), and
/// laying out and drawing them all costs the browser seconds; a collapsed module is one vertex
/// with the edges of what it hides, opened by a click or "Expand all modules".
pub const COLLAPSE_ABOVE: usize = 1_000;

/// The modules a configuration starts with collapsed, its graph being `g`: each top-level module
/// (`module.a`, which holds its own nested modules) when `g` has more than [`COLLAPSE_ABOVE`]
/// vertices; none otherwise.
pub fn start_collapsed(g: &PageGraph) -> BTreeSet<String> {
    if g.vertices().len() <= COLLAPSE_ABOVE {
        return BTreeSet::new();
    }
    g.vertices()
        .iter()
        .filter_map(|v| v.cluster.first().cloned())
        .collect()
}

/// The view settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewOpts {
    /// Transitive reduction on (as `tofu graph` prints): the edges it removed are not drawn.
    pub reduce: bool,
    pub resources_only: bool,
    /// Collapsed module paths (`module.a.module.b`).
    pub collapsed: BTreeSet<String>,
    /// `(expand)` vertices opened into their sub-graphs ([`super::expanded`]); the built graph
    /// only (a replayed build step opens nothing).
    pub open: BTreeSet<String>,
}

impl Default for ViewOpts {
    fn default() -> Self {
        ViewOpts {
            reduce: true,
            resources_only: false,
            collapsed: BTreeSet::new(),
            open: BTreeSet::new(),
        }
    }
}

/// The graph to show for `a`: the replay up to step `step` when one is chosen, else the built
/// graph with its cycles marked; then the views `o`, and last the opened vertices `o.open`.
pub fn shown(a: &Analysis, step: Option<usize>, o: &ViewOpts) -> Shown {
    if let Some(k) = step.filter(|k| *k < a.steps.len()) {
        let r = replay(&a.steps, k);
        let s = Shown {
            graph: r.graph.clone(),
            replay: Some(r),
            ..Shown::default()
        };
        return apply(s, &[], o);
    }
    let graph = a.graph.clone().unwrap_or_default();
    let mut cycle_nodes = BTreeSet::new();
    let mut cycle_edges = BTreeSet::new();
    for c in &a.cycles {
        let members: BTreeSet<usize> = c.iter().filter_map(|n| graph.index_of(n)).collect();
        for &m in &members {
            for &d in graph.dependencies(m) {
                if members.contains(&d) {
                    cycle_edges.insert((m, d));
                }
            }
        }
        cycle_nodes.extend(members);
    }
    let s = Shown {
        graph,
        cycle_nodes,
        cycle_edges,
        ..Shown::default()
    };
    let s = apply(s, &a.reduced, o);
    if o.open.is_empty() {
        return s;
    }
    let subs = subs(a, &s, &o.open);
    open(s, &subs)
}

/// Every vertex and edge any build step of `a` shows ([`super::replay::union`]), with the views
/// `o` applied as to a replayed step: what the build steps are laid out on once.
pub fn shown_steps(a: &Analysis, o: &ViewOpts) -> Shown {
    let s = Shown {
        graph: super::replay::union(&a.steps),
        ..Shown::default()
    };
    // No steps: as at a replayed step, no edge comes back dashed.
    apply(s, &[], o)
}

/// The edges the engine's transitive reduction removed (as the builder recorded them) that join
/// two vertices of `g` and are not edges of it.
pub fn reduced_edges(reduced: &[(StepName, StepName)], g: &PageGraph) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = reduced
        .iter()
        .filter_map(|(a, b)| Some((g.index_of(a)?, g.index_of(b)?)))
        .filter(|&(a, b)| !g.has_edge(a, b))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Kinds the resource-only view keeps.
pub fn is_resource(kind: Kind) -> bool {
    matches!(kind, Kind::Resource | Kind::Data | Kind::Destroy)
}

/// Applies the view settings to the shown graph (`reduced`: the edges the builder's transitive
/// reduction removed, [`Analysis::reduced`]).
pub fn apply(mut s: Shown, reduced: &[(StepName, StepName)], o: &ViewOpts) -> Shown {
    let n = s.graph.len();
    // The final graph only: a replayed step shows its own edges.
    let mut removed = Vec::new();
    if s.replay.is_none() {
        removed = reduced_edges(reduced, &s.graph);
        s.reduced = removed.len();
    }
    let mut dashed = if o.reduce {
        Vec::new()
    } else {
        removed.clone()
    };
    let mut edges: Vec<(usize, usize)> = s.graph.edges().to_vec();
    if o.resources_only {
        let keep: Vec<bool> = s
            .graph
            .vertices()
            .iter()
            .map(|v| is_resource(v.kind))
            .collect();
        // From the graph before the engine's reduction, so the view's own reduction has the
        // same edges to remove whether they are shown or not.
        let unreduced = PageGraph::new(
            s.graph.vertices().to_vec(),
            edges.iter().chain(removed.iter()).copied(),
        );
        let (kept, removed) = unreduced.reduce(&unreduced.edges_through(&keep));
        s.reduced = removed.len();
        edges = kept;
        dashed = if o.reduce { Vec::new() } else { removed };
        s.hidden = (0..n).filter(|&i| !keep[i]).collect();
    }
    // Collapsed modules: each visible vertex inside one goes to the outermost collapsed module.
    let mut vertices = s.graph.vertices().to_vec();
    let mut rep: Vec<usize> = (0..n).collect();
    if !o.collapsed.is_empty() {
        // By module path: the box it is drawn in (its parent's) and its members.
        let mut members: BTreeMap<String, (Vec<String>, Vec<usize>)> = BTreeMap::new();
        for (i, v) in s.graph.vertices().iter().enumerate() {
            if s.hidden.contains(&i) {
                continue;
            }
            let path = &v.cluster;
            if let Some(k) = (1..=path.len()).find(|&k| o.collapsed.contains(&path[..k].join(".")))
            {
                members
                    .entry(path[..k].join("."))
                    .or_insert_with(|| (path[..k - 1].to_vec(), Vec::new()))
                    .1
                    .push(i);
            }
        }
        for (path, (parent, ms)) in members {
            let v = vertices.len();
            vertices.push(PageVertex::collapsed(&path, ms.len(), parent));
            for &m in &ms {
                rep[m] = v;
                s.hidden.insert(m);
            }
            s.collapsed.insert(v, (path, ms));
            rep.push(v);
        }
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (a, b) in edges {
        let e = (rep[a], rep[b]);
        if e.0 != e.1 && seen.insert(e) {
            out.push(e);
        }
    }
    let mut shown_dashed = BTreeSet::new();
    for (a, b) in dashed {
        let e = (rep[a], rep[b]);
        if e.0 != e.1 && seen.insert(e) {
            out.push(e);
            shown_dashed.insert(e);
        }
    }
    s.graph = PageGraph::new(vertices, out);
    s.dashed = shown_dashed;
    s
}

/// The opened vertices of `open` that `s` shows (not hidden) and that have a sub-graph, with it.
pub fn subs(
    a: &Analysis,
    s: &Shown,
    open: &BTreeSet<String>,
) -> BTreeMap<String, super::expanded::Sub> {
    open.iter()
        .filter(|n| s.graph.index_of(n).is_some_and(|i| !s.hidden.contains(&i)))
        .filter_map(|n| match super::expanded::of_vertex(a, n)? {
            super::expanded::Opening::Sub(sub) => Some((n.clone(), sub)),
            _ => None,
        })
        .collect()
}

/// `s` with each vertex of `subs` opened (the edges they get: [`super::expanded`]). Records in
/// [`Shown::opened`] each opened vertex's members by index.
pub fn open(mut s: Shown, subs: &BTreeMap<String, super::expanded::Sub>) -> Shown {
    if subs.is_empty() {
        return s;
    }
    let mut vertices = s.graph.vertices().to_vec();
    let mut edges: Vec<(usize, usize)> = s.graph.edges().to_vec();
    let mut by_name: HashMap<String, usize> = vertices
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.clone(), i))
        .collect();
    for (name, sub) in subs {
        let Some(&x) = by_name.get(name) else {
            continue;
        };
        if sub.members.is_empty() || s.hidden.contains(&x) {
            continue;
        }
        let cluster = vertices[x].cluster.clone();
        let idx: Vec<usize> = sub
            .members
            .iter()
            .map(|m| {
                *by_name.entry(m.name.clone()).or_insert_with(|| {
                    vertices.push(PageVertex {
                        cluster: cluster.clone(),
                        ..m.clone()
                    });
                    vertices.len() - 1
                })
            })
            .collect();
        let mine: BTreeSet<usize> = idx.iter().copied().collect();
        // What X depended on moves to the sub-graph's entries.
        let deps: Vec<(usize, usize)> = edges
            .iter()
            .copied()
            .filter(|&(a, b)| a == x && !mine.contains(&b))
            .collect();
        edges.retain(|&(a, b)| a != x || mine.contains(&b));
        for e in sub.entries() {
            for &(_, d) in &deps {
                edges.push((idx[e], d));
                if s.dashed.contains(&(x, d)) {
                    s.dashed.insert((idx[e], d));
                }
            }
        }
        edges.extend(sub.edges.iter().map(|&(a, b)| (idx[a], idx[b])));
        edges.extend(sub.leaves().into_iter().map(|l| (x, idx[l])));
        s.opened.insert(x, idx);
    }
    let mut seen = BTreeSet::new();
    edges.retain(|&(a, b)| a != b && seen.insert((a, b)));
    s.dashed.retain(|e| seen.contains(e));
    s.graph = PageGraph::new(vertices, edges);
    s
}

/// The opened vertex that vertex `i` of `s` was drawn for (itself when it is one), if any.
pub fn opened_by(s: &Shown, i: usize) -> Option<usize> {
    if s.opened.contains_key(&i) {
        return Some(i);
    }
    s.opened
        .iter()
        .find(|(_, ms)| ms.contains(&i))
        .map(|(&x, _)| x)
}

/// The selected vertex and what is upstream (ancestors) and downstream (descendants) of it, as
/// masks over the shown graph's vertices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Related {
    pub selected: Option<usize>,
    up: Vec<bool>,
    down: Vec<bool>,
}

impl Related {
    /// What is related to the vertex named `name` in `g` (nothing when it is not there).
    pub fn of(g: &PageGraph, name: &str) -> Related {
        match g.index_of(name) {
            Some(i) => Related {
                selected: Some(i),
                up: g.ancestors(i),
                down: g.descendants(i),
            },
            None => Related::default(),
        }
    }

    /// Whether `i` is something the selected vertex waits for.
    pub fn is_up(&self, i: usize) -> bool {
        self.up.get(i).copied().unwrap_or(false)
    }

    /// Whether `i` waits for the selected vertex.
    pub fn is_down(&self, i: usize) -> bool {
        self.down.get(i).copied().unwrap_or(false)
    }

    pub fn up_count(&self) -> usize {
        self.up.iter().filter(|x| **x).count()
    }

    pub fn down_count(&self) -> usize {
        self.down.iter().filter(|x| **x).count()
    }
}

/// What vertex `i` of `g` depends on and what depends on it, by name, sorted.
pub fn neighbours(g: &PageGraph, i: usize) -> (Vec<String>, Vec<String>) {
    let names = |is: &[usize]| {
        let mut v: Vec<String> = is
            .iter()
            .filter_map(|&k| Some(g.vertex(k)?.name.clone()))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    (names(g.dependencies(i)), names(g.dependents(i)))
}

/// The walk state of a collapsed module, from the states of the vertices it hides: running while
/// any runs (or waits for a permit), then failed if any failed, done when all are done.
pub fn combined_state(states: impl Iterator<Item = VState>) -> VState {
    let all: Vec<VState> = states.collect();
    let any = |s: VState| all.contains(&s);
    if any(VState::Running) {
        VState::Running
    } else if any(VState::Permit) {
        VState::Permit
    } else if any(VState::Failed) {
        VState::Failed
    } else if !all.is_empty() && all.iter().all(|s| *s == VState::Done) {
        VState::Done
    } else if any(VState::Waiting) {
        VState::Waiting
    } else if any(VState::Upstream) || any(VState::Cancelled) {
        VState::Upstream
    } else {
        VState::Idle
    }
}

#[cfg(test)]
mod tests {
    // Issue 18, defect 9: the header's edge count disagreed with the drawing at the step that
    // removes edges (it counted the faded ones) and counted edges to hidden vertices.
    #[test]
    fn the_header_counts_what_is_drawn_solid() {
        let mut s = Shown {
            graph: crate::page::graph::graph_of(
                ["a", "b", "c", "d"].iter().map(|x| x.to_string()),
                [(0, 1), (1, 2), (0, 2), (2, 3)],
            ),
            ..Shown::default()
        };
        assert_eq!(counts(&s), "4 vertices · 4 edges");
        s.dashed.insert((0, 2));
        assert_eq!(counts(&s), "4 vertices · 3 edges");
        s.hidden.insert(3);
        assert_eq!(counts(&s), "3 vertices · 2 edges · 1 hidden");
        s.replay = Some(Replay {
            graph: s.graph.clone(),
            removed_edges: [("a".to_string(), "b".to_string())].into_iter().collect(),
            removed: ["c".to_string()].into_iter().collect(),
            ..Replay::default()
        });
        assert_eq!(counts(&s), "2 vertices · 0 edges · 1 hidden");
    }

    // Issue 18, defect 10: Enter in the search always took the first match.
    #[test]
    fn enter_steps_through_the_drawn_matches_and_wraps() {
        let mut s = Shown {
            graph: crate::page::graph::graph_of(
                [
                    "aws_subnet.b",
                    "aws_vpc.a",
                    "var.vpc_cidr",
                    "aws_instance.c",
                ]
                .iter()
                .map(|x| x.to_string()),
                [],
            ),
            ..Shown::default()
        };
        s.hidden.insert(3);
        let m = search(&s, " VPC ");
        assert_eq!(m, ["aws_vpc.a", "var.vpc_cidr"]);
        assert_eq!(next_match(&m, None, false), Some((1, "aws_vpc.a")));
        assert_eq!(
            next_match(&m, Some("aws_vpc.a"), false),
            Some((2, "var.vpc_cidr"))
        );
        assert_eq!(
            next_match(&m, Some("var.vpc_cidr"), false),
            Some((1, "aws_vpc.a"))
        );
        assert_eq!(
            next_match(&m, Some("aws_vpc.a"), true),
            Some((2, "var.vpc_cidr"))
        );
        assert_eq!(
            next_match(&m, Some("aws_subnet.b"), true),
            Some((2, "var.vpc_cidr"))
        );
        assert_eq!(next_match(&[], None, false), None);
        // A hidden vertex is not a match; nor is anything for an empty query.
        assert!(search(&s, "instance").is_empty());
        assert!(search(&s, "  ").is_empty());
    }

    use super::*;
    use crate::builder::BuilderKind;
    use crate::page::analysis::{Options, analyze};
    use crate::page::graph::graph_of;

    fn files(text: &str) -> BTreeMap<String, String> {
        BTreeMap::from([("main.tf".to_string(), text.to_string())])
    }

    fn name_edges(
        s: &Shown,
        set: impl IntoIterator<Item = (usize, usize)>,
    ) -> BTreeSet<(String, String)> {
        let n = |i: usize| s.graph.vertex(i).unwrap().name.clone();
        set.into_iter().map(|(a, b)| (n(a), n(b))).collect()
    }

    fn solid(s: &Shown) -> BTreeSet<(String, String)> {
        name_edges(
            s,
            s.graph
                .edges()
                .iter()
                .copied()
                .filter(|e| !s.dashed.contains(e)),
        )
    }

    const CHAIN: &str = "variable \"v\" {}\nresource \"a\" \"x\" { v = var.v }\nresource \"a\" \"y\" { v = a.x.id }\nresource \"a\" \"z\" {\n  v = a.y.id\n  w = a.x.id\n}\n";

    #[test]
    fn reduction_off_brings_back_exactly_the_removed_edges_dashed() {
        let a = analyze(&files(CHAIN), BuilderKind::Plan, &Options::default());
        let on = shown(&a, None, &ViewOpts::default());
        let off = shown(
            &a,
            None,
            &ViewOpts {
                reduce: false,
                ..ViewOpts::default()
            },
        );
        assert!(on.dashed.is_empty());
        assert!(on.reduced > 0);
        assert_eq!(off.dashed.len(), on.reduced);
        // Solid edges are the same either way; the dashed ones are what the step removed.
        assert_eq!(solid(&on), solid(&off));
        let step: BTreeSet<(String, String)> = a
            .steps
            .iter()
            .filter(|s| s.name == "TransitiveReductionTransformer")
            .flat_map(|s| s.removed_edges.iter())
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(name_edges(&off, off.dashed.iter().copied()), step);
        assert!(step.contains(&("a.z (expand)".to_string(), "a.x (expand)".to_string())));
    }

    #[test]
    fn resources_only_joins_resources_through_hidden_vertices_reduced() {
        let text = "resource \"a\" \"x\" {}\nlocals { l = a.x.id }\nresource \"a\" \"y\" { v = local.l }\nresource \"a\" \"z\" {\n  v = a.y.id\n  w = local.l\n}\n";
        let a = analyze(&files(text), BuilderKind::Plan, &Options::default());
        let s = shown(
            &a,
            None,
            &ViewOpts {
                resources_only: true,
                ..ViewOpts::default()
            },
        );
        let visible: BTreeSet<String> = (0..s.graph.len())
            .filter(|i| !s.hidden.contains(i))
            .map(|i| s.graph.vertex(i).unwrap().name.clone())
            .collect();
        assert_eq!(
            visible,
            ["a.x (expand)", "a.y (expand)", "a.z (expand)"]
                .map(String::from)
                .into()
        );
        let e = |a: &str, b: &str| (format!("a.{a} (expand)"), format!("a.{b} (expand)"));
        // z -> x through local.l is implied by z -> y -> (local.l) -> x: reduced away.
        assert_eq!(solid(&s), BTreeSet::from([e("y", "x"), e("z", "y")]));
        assert_eq!(s.reduced, 1);
        let off = shown(
            &a,
            None,
            &ViewOpts {
                resources_only: true,
                reduce: false,
                ..ViewOpts::default()
            },
        );
        assert_eq!(
            name_edges(&off, off.dashed.iter().copied()),
            BTreeSet::from([e("z", "x")])
        );
    }

    #[test]
    fn a_large_configuration_starts_with_its_top_level_modules_collapsed() {
        let analysis = |resources| {
            let f = crate::generator::generate(&crate::generator::GenOptions {
                resources,
                modules: 4,
                seed: 1,
            });
            analyze(&f, BuilderKind::Plan, &Options::default())
        };
        let small = analysis(200).graph.expect("built");
        assert!(small.vertices().len() <= COLLAPSE_ABOVE);
        assert!(start_collapsed(&small).is_empty());
        let a = analysis(1_000);
        let large = a.graph.as_ref().expect("built");
        assert!(large.vertices().len() > COLLAPSE_ABOVE);
        let tops: BTreeSet<String> = large
            .vertices()
            .iter()
            .filter_map(|v| v.cluster.first().cloned())
            .collect();
        let c = start_collapsed(large);
        assert!(!c.is_empty());
        assert_eq!(c, tops);
        assert!(
            c.iter()
                .all(|p| p.starts_with("module.") && !p.contains(".module."))
        );
        // Collapsed, what is drawn is small again: the root module's vertices and one per module.
        let o = ViewOpts {
            collapsed: c.clone(),
            ..ViewOpts::default()
        };
        let s = shown(&a, None, &o);
        assert_eq!(s.collapsed.len(), c.len());
        let drawn = s.graph.vertices().len() - s.hidden.len();
        assert!(drawn < large.vertices().len() / 2, "{drawn} drawn");
    }

    #[test]
    fn a_collapsed_module_is_one_vertex_with_the_edges_of_what_it_hides() {
        let mut f = files(
            "module \"m\" {\n  source = \"./m\"\n}\nresource \"a\" \"top\" { v = module.m.o }\n",
        );
        f.insert(
            "m/main.tf".into(),
            "resource \"a\" \"in\" {}\noutput \"o\" { value = a.in.id }\n".into(),
        );
        let a = analyze(&f, BuilderKind::Plan, &Options::default());
        let g = a.graph.as_ref().expect("built");
        let inside = g
            .vertices()
            .iter()
            .filter(|v| v.cluster == ["module.m"])
            .count();
        let o = ViewOpts {
            collapsed: BTreeSet::from(["module.m".to_string()]),
            ..ViewOpts::default()
        };
        let s = shown(&a, None, &o);
        assert_eq!(s.collapsed.len(), 1);
        let (&c, (path, members)) = s.collapsed.iter().next().unwrap();
        assert_eq!(path, "module.m");
        assert_eq!(members.len(), inside);
        assert_eq!(
            s.graph.vertex(c).unwrap().name,
            format!("module.m (collapsed: {inside})")
        );
        assert_eq!(s.graph.vertex(c).unwrap().kind, Kind::Collapsed);
        assert!(members.iter().all(|m| s.hidden.contains(m)));
        // The top resource now depends on the collapsed module.
        let top = s.graph.index_of("a.top (expand)").unwrap();
        assert!(s.graph.has_edge(top, c));
        // No edge touches a hidden member.
        assert!(
            s.graph
                .edges()
                .iter()
                .all(|(a, b)| !s.hidden.contains(a) && !s.hidden.contains(b))
        );
    }

    #[test]
    fn a_replayed_step_is_shown_with_its_own_edges() {
        let a = analyze(&files(CHAIN), BuilderKind::Plan, &Options::default());
        let k = a
            .steps
            .iter()
            .position(|s| s.name == "ReferenceTransformer")
            .unwrap();
        let s = shown(&a, Some(k), &ViewOpts::default());
        assert!(s.replay.is_some());
        assert_eq!(s.reduced, 0);
        assert!(!s.replay.as_ref().unwrap().added_edges.is_empty());
        // Out of range: the final graph.
        assert!(shown(&a, Some(999), &ViewOpts::default()).replay.is_none());
    }

    #[test]
    fn related_vertices_are_the_ancestors_and_descendants() {
        let g = graph_of(
            ["a", "b", "c", "d"].map(String::from),
            [(0, 1), (1, 2), (3, 0)],
        );
        let r = Related::of(&g, "b");
        assert_eq!(r.selected, Some(1));
        assert!(r.is_up(2) && !r.is_up(0));
        assert!(r.is_down(0) && r.is_down(3) && !r.is_down(2));
        assert_eq!((r.up_count(), r.down_count()), (1, 2));
        assert_eq!(
            neighbours(&g, 0),
            (vec!["b".to_string()], vec!["d".to_string()])
        );
        assert_eq!(Related::of(&g, "zz"), Related::default());
    }

    #[test]
    fn a_collapsed_modules_state_combines_what_it_hides() {
        use VState::*;
        assert_eq!(
            combined_state([Done, Running, Waiting].into_iter()),
            Running
        );
        assert_eq!(combined_state([Done, Failed].into_iter()), Failed);
        assert_eq!(combined_state([Done, Done].into_iter()), Done);
        assert_eq!(combined_state([Done, Waiting].into_iter()), Waiting);
        assert_eq!(combined_state([Upstream, Done].into_iter()), Upstream);
        assert_eq!(combined_state([].into_iter()), Idle);
    }

    #[test]
    fn an_empty_pane_says_why_a_configuration_did_not_build() {
        use crate::page::analysis::{Options, analyze};
        let files =
            |t: &str| std::collections::BTreeMap::from([("main.tf".to_string(), t.to_string())]);
        let fresh = analyze(
            &files("resource \"a_b\" \"c\" {}\n"),
            crate::builder::BuilderKind::Plan,
            &Options::default(),
        );
        assert!(fresh.errors.is_empty());
        assert!(empty_text(&fresh).starts_with("No graph yet"));
        let bad = analyze(
            &files("module \"m\" {\n  source = \"../../\"\n}\nresource \"a_b\" \"c\" {\n"),
            crate::builder::BuilderKind::Plan,
            &Options::default(),
        );
        let t = empty_text(&bad);
        assert!(
            t.starts_with("Nothing to draw: this configuration does not build. "),
            "{t}"
        );
        assert!(
            t.contains(&bad.errors[0].summary) && t.contains(" at main.tf line "),
            "{t}"
        );
    }

    #[test]
    fn the_legend_starts_closed_on_phones_and_short_screens() {
        assert!(legend_open_by_default(Some(1920.0), Some(1080.0)));
        assert!(legend_open_by_default(None, None));
        assert!(!legend_open_by_default(Some(1366.0), Some(768.0)));
        assert!(!legend_open_by_default(Some(390.0), Some(1200.0)));
        // The stylesheet's media queries use the same limits.
        let css = include_str!("../../style/main.css");
        assert!(
            css.contains("@media (max-height: 999px)") && css.contains("@media (max-width: 760px)")
        );
    }
}

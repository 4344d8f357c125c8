//! The laid-out scene the graph view draws: vertex boxes, routed edges and module boxes, each
//! with a stable key (a vertex's name; an edge's two names; a module's path), so a drawing can be
//! updated by key: an edit moves what stayed, adds what is new and removes what went.
//!
//! Indexes in a scene are the shown graph's ([`super::view::Shown::graph`]): the layout sees only
//! the drawn part (visible vertices, solid edges) and the scene maps back.

use super::graph::Kind;
use super::graph::PageGraph;
use super::view::Shown;
use crate::dag::Graph;
use crate::layout::{self, Input, InputNode, LayoutOptions};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A vertex as drawn; its key is its name.
#[derive(Debug, Clone, PartialEq)]
pub struct SNode {
    /// Its index in the shown graph.
    pub index: usize,
    pub name: String,
    pub kind: super::graph::Kind,
    /// Its kind and module as the engine knows them.
    pub typed: crate::kind::Typed,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// An edge as drawn, from the dependency to the dependent; its key is [`SEdge::key`].
#[derive(Debug, Clone, PartialEq)]
pub struct SEdge {
    /// The dependent ("from depends on to" in OpenTofu's words), as an index of the shown graph.
    pub from: usize,
    pub to: usize,
    /// The dependent's and the dependency's names.
    pub key: (String, String),
    /// SVG path data.
    pub d: String,
}

/// A module box; its key is its path.
#[derive(Debug, Clone, PartialEq)]
pub struct SCluster {
    pub title: String,
    /// The whole module path, `module.a.module.b`: the key for collapsing it.
    pub path: String,
    pub depth: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// The layout a [`Scene`] was drawn from. Two are equal when they are the same layout (the
/// scene's own fields say whether two drawings look the same).
#[derive(Debug, Clone, Default)]
pub struct Drawn(Option<std::sync::Arc<layout::Layout>>, Vec<Kind>);

impl PartialEq for Drawn {
    fn eq(&self, other: &Drawn) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Scene {
    /// The layout this scene was drawn from, for the next one to stay near (an edit moves only
    /// what it changed: see [`layout::LayoutOptions::sticky`]).
    pub fn previous(&self) -> Option<std::sync::Arc<layout::Layout>> {
        self.layout.0.clone()
    }

    /// The drawing as a standalone SVG document (the layout's own renderer, each vertex styled
    /// by kind), for export; empty when nothing was laid out.
    pub fn svg(&self) -> String {
        match &self.layout.0 {
            Some(l) => {
                let kinds = &self.layout.1;
                // The scratch graph's ids are the drawn graph's indexes (see `from_layout`).
                layout::svg::render_styled(
                    l,
                    |n| n.name.clone(),
                    |n| {
                        let kind = kinds
                            .get(n.id.index() as usize)
                            .copied()
                            .unwrap_or(Kind::Other);
                        super::graph::svg_style(kind, n.w, n.h)
                    },
                )
            }
            None => String::new(),
        }
    }
}

/// A laid-out graph.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    pub nodes: Vec<SNode>,
    pub edges: Vec<SEdge>,
    pub clusters: Vec<SCluster>,
    pub width: f64,
    pub height: f64,
    /// The layout it was drawn from: for the standalone SVG ([`Scene::svg`]), made only when
    /// exported (formatting every coordinate of a large drawing at each edit cost more than the
    /// drawing's own update), and for the next layout to stay near ([`Scene::previous`]).
    pub layout: Drawn,
    /// Set when the graph is too big to draw (see [`MAX_DRAWN`], [`MAX_DRAWN_EDGES`]): what the
    /// page says instead of drawing it.
    pub too_big: Option<String>,
    /// Set while the engine's worker lays the shown graph out ([`OFF_THREAD_FROM`]): what the
    /// page says meanwhile. The scene is then the last drawing carried over to the shown graph
    /// ([`carried`]), not a layout of it.
    pub pending: Option<String>,
}

/// The size, in vertices plus the dummy vertices of long edges ([`layout_cost`]), from which the
/// page has the engine's worker lay a drawing out afresh, off the page's thread, when a worker
/// is running. A layout's time grows with both (each is an item to order and place): natively
/// (release build, 2026-11-27) the 1,000 generated resources with their modules collapsed (242
/// vertices, 1,922 dummies) took 28 ms, the build steps' one layout of the same view (242
/// vertices, 4,767 dummies) 49 ms, the graph expanded (1,266 vertices, 12,235 dummies) 227 ms
/// and its build steps' layout (1,266 vertices, 90,473 dummies) 775 ms; the browser takes about
/// twice as long. Below the bound a layout is done at once: no frame shows the old drawing.
pub const OFF_THREAD_FROM: u64 = 3_000;

/// What laying `g` out costs, as vertices plus the dummy vertices of its long edges (counted as
/// [`long_edge_steps`] counts them), or why it is too big to lay out at all.
pub fn layout_cost(g: &PageGraph) -> Result<u64, TooBig> {
    let (n, dummies) = lay_out_size(g.len(), layout_edges(g))?;
    Ok(n as u64 + dummies)
}

/// Whether `g` (what [`drawn`] gave) is laid out by the engine's worker when there is one: big
/// enough to hold the page's thread ([`OFF_THREAD_FROM`]), small enough to be laid out at all
/// ([`too_big`] is said at once), and not an edit's small change to the drawing `previous`: that
/// layout stays near the old one ([`layout::stays_near`]) and takes about 20 ms at 1,266
/// vertices, less than the round trip to the worker and the extra frame would add.
pub fn off_thread(g: &PageGraph, previous: Option<&std::sync::Arc<layout::Layout>>) -> bool {
    layout_cost(g).is_ok_and(|c| c >= OFF_THREAD_FROM)
        && !previous
            .is_some_and(|p| layout::stays_near(&layout_input(g), &layout_options(Some(p.clone()))))
}

/// The scene shown while `g` (what [`drawn`] gave, with `visible` mapping its indexes to the shown
/// graph's) is laid out elsewhere: `old`'s vertices, edges and module boxes that are still in `g`,
/// where they were, re-indexed to the shown graph, with `message` as [`Scene::pending`]. What `g`
/// adds appears when its layout arrives.
pub fn carried(old: &Scene, g: &PageGraph, visible: &[usize], message: String) -> Scene {
    let at: std::collections::HashMap<&str, usize> = g
        .vertices()
        .iter()
        .enumerate()
        .map(|(k, v)| (v.name.as_str(), k))
        .collect();
    let edges: std::collections::HashSet<(usize, usize)> = g.edges().iter().copied().collect();
    let nodes = old
        .nodes
        .iter()
        .filter_map(|n| {
            let k = *at.get(n.name.as_str())?;
            let v = g.vertex(k)?;
            Some(SNode {
                index: *visible.get(k)?,
                kind: v.kind,
                typed: v.typed.clone(),
                ..n.clone()
            })
        })
        .collect();
    let edges = old
        .edges
        .iter()
        .filter_map(|e| {
            let from = *at.get(e.key.0.as_str())?;
            let to = *at.get(e.key.1.as_str())?;
            if !edges.contains(&(from, to)) {
                return None;
            }
            Some(SEdge {
                from: *visible.get(from)?,
                to: *visible.get(to)?,
                ..e.clone()
            })
        })
        .collect();
    let modules: std::collections::HashSet<String> = g
        .vertices()
        .iter()
        .flat_map(|v| (1..=v.cluster.len()).map(|d| v.cluster[..d].join(".")))
        .collect();
    let clusters = old
        .clusters
        .iter()
        .filter(|c| modules.contains(&c.path))
        .cloned()
        .collect();
    Scene {
        nodes,
        edges,
        clusters,
        width: old.width,
        height: old.height,
        layout: old.layout.clone(),
        too_big: None,
        pending: Some(message),
    }
}

/// What the page says while the worker lays out `g`.
pub fn laying_out(g: &PageGraph) -> String {
    format!("Laying out {} vertices", g.len())
}

/// The most vertices the app lays out and draws. A larger graph is still built, checked,
/// exported and walked, but drawing it would hold the page for seconds and show nothing legible;
/// the app says so and suggests narrowing the view.
pub const MAX_DRAWN: usize = 5_000;

/// The most edges the app lays out. A small graph can still have very many edges (a DOT file of
/// a few kilobytes with 885 vertices and 193,386 edges, found by fuzzing, took seconds to lay
/// out); plan graphs stay far below: terraform-aws-vpc's `examples/complete` has fewer than
/// 3,000 edges.
pub const MAX_DRAWN_EDGES: usize = 20_000;

/// The most layer steps of long edges the app lays out. The layered layout routes an edge that
/// spans k layers through k - 1 dummy vertices, so a few hundred vertices that each depend on all
/// the ones before (a complete DAG) make over a million of them and minutes of layout, with few
/// edges. Counted on the layout's first ranks, before its refinements ([`long_edge_steps`]); on
/// a graph with cycles, once they are broken: a DOT file of 1.3 KB naming 152 vertices, each
/// depending on most of the others, has 275,911 once they are, and took 2.7 s natively to lay
/// out (found by fuzzing, when the count put every vertex of a cycle on layer 0 and saw none).
pub const MAX_DRAWN_LONG_EDGE_STEPS: u64 = 100_000;

/// How many dummy vertices long edges need when the layout ranks `g` ([`layout::long_edge_steps`]:
/// cycles broken as the layout breaks them, then its first layers).
pub fn long_edge_steps(g: &PageGraph) -> u64 {
    layout::long_edge_steps(g.len(), &layout_edges(g).collect::<Vec<_>>())
}

/// `g`'s edges as the layout takes them: from the dependency to the dependent.
fn layout_edges(g: &PageGraph) -> impl ExactSizeIterator<Item = (usize, usize)> + '_ {
    g.edges().iter().map(|&(a, b)| (b, a))
}

const NARROW: &str = "It is built and can be exported and walked; to see it, narrow it with Resources only or -target, or export DOT and use the tfgraph command-line tool.";

/// Why a graph is too big for the page to lay out ([`too_big_to_lay_out`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooBig {
    /// More than [`MAX_DRAWN`] vertices.
    Vertices,
    /// More than [`MAX_DRAWN_EDGES`] edges.
    Edges,
    /// Long edges that would need more than [`MAX_DRAWN_LONG_EDGE_STEPS`] dummy vertices.
    LongEdges,
}

/// Whether `n` vertices joined by `edges` (as the layout takes them: from the dependency to the
/// dependent) are too big for the page to lay out, and why. The one test of the page's limits:
/// [`too_big`] words it, and the `dot_layout` fuzz target skips what it refuses. The edges are
/// collected only when the first two limits hold.
pub fn too_big_to_lay_out(
    n: usize,
    edges: impl ExactSizeIterator<Item = (usize, usize)>,
) -> Option<TooBig> {
    lay_out_size(n, edges).err()
}

/// `n` and the dummy vertices of the long `edges`, or the first of the page's limits they pass
/// ([`too_big_to_lay_out`]).
fn lay_out_size(
    n: usize,
    edges: impl ExactSizeIterator<Item = (usize, usize)>,
) -> Result<(usize, u64), TooBig> {
    if n > MAX_DRAWN {
        return Err(TooBig::Vertices);
    }
    if edges.len() > MAX_DRAWN_EDGES {
        return Err(TooBig::Edges);
    }
    let dummies = layout::long_edge_steps(n, &edges.collect::<Vec<_>>());
    if dummies > MAX_DRAWN_LONG_EDGE_STEPS {
        return Err(TooBig::LongEdges);
    }
    Ok((n, dummies))
}

/// What the page says instead of drawing `g`, when it is too big to draw.
pub fn too_big(g: &PageGraph) -> Option<String> {
    let why = too_big_to_lay_out(g.len(), layout_edges(g))?;
    Some(match why {
        TooBig::Vertices => format!(
            "This graph has {} vertices; the app draws up to {MAX_DRAWN}. {NARROW}",
            g.len()
        ),
        TooBig::Edges => format!(
            "This graph has {} edges; the app draws up to {MAX_DRAWN_EDGES}. {NARROW}",
            g.edge_count()
        ),
        TooBig::LongEdges => format!(
            "This graph has {} vertices and {} edges, many of them spanning many layers; laying it out would hold the page for a long time. {NARROW}",
            g.len(),
            g.edge_count()
        ),
    })
}

/// The view's transform: translation (x, y) in canvas pixels, then scale.
pub type Xf = (f64, f64, f64);

/// The smallest scale Fit goes to, against degenerate sizes only: Fit shows the whole drawing
/// (issue 18, defect 10: it stopped at 15%, so a wide drawing did not fit). Components are
/// packed into rows by the layout, so real drawings fit at readable scales.
pub const MIN_FIT_SCALE: f64 = 0.001;

/// The transform that fits a `w` x `h` drawing in a `cw` x `ch` canvas (16 px margins), centred,
/// never enlarged, never below [`MIN_FIT_SCALE`] (then the top stays in view).
pub fn fit(w: f64, h: f64, cw: f64, ch: f64) -> Xf {
    if !(w > 0.0 && h > 0.0 && cw > 0.0 && ch > 0.0) {
        return (0.0, 0.0, 1.0);
    }
    let s = ((cw - 32.0) / w)
        .min((ch - 32.0) / h)
        .clamp(MIN_FIT_SCALE, 1.0);
    ((cw - w * s) / 2.0, ((ch - h * s) / 2.0).max(8.0), s)
}

/// The smallest zoom at which the drawing shows text. Below it a vertex's 12 px label is under
/// 5 px on screen, which nobody reads, so vertices are drawn as coloured marks of their kind and
/// state without labels or arrowheads (level of detail): the browser then lays out and paints no
/// text and no markers, which at 1,000 vertices was about 70 ms of every redraw (of 130 ms of
/// style, layout and paint). Zooming in brings them back.
pub const LABEL_SCALE: f64 = 0.4;

/// Zooming out, drawn labels go only below this scale (one zoom button's step, 1.25x, under
/// [`LABEL_SCALE`]): without the band, a wheel or trackpad zoom that hovers around the threshold
/// switched every label (and arrowhead) of the drawing on and off from one frame to the next.
pub const LABEL_HIDE_SCALE: f64 = LABEL_SCALE / 1.25;

/// Whether labels are drawn at zoom `scale` (see [`LABEL_SCALE`]) when they were drawn
/// (`Some(true)`) or not (`Some(false)`, or `None`: the first drawing) just before.
pub fn labels_shown(scale: f64, before: Option<bool>) -> bool {
    match before {
        Some(true) => scale >= LABEL_HIDE_SCALE,
        _ => scale >= LABEL_SCALE,
    }
}

/// The transform that puts vertex `name` at the centre of a `cw` x `ch` canvas, keeping the
/// scale of `xf` unless its label would be too small to read there (then 1); `None` if the
/// vertex is not drawn.
pub fn centre_on(sc: &Scene, name: &str, xf: Xf, cw: f64, ch: f64) -> Option<Xf> {
    let n = sc.nodes.iter().find(|n| n.name == name)?;
    let s = if xf.2 >= 0.6 { xf.2 } else { 1.0 };
    let (cx, cy) = (n.x + n.w / 2.0, n.y + n.h / 2.0);
    Some((cw / 2.0 - cx * s, ch / 2.0 - cy * s, s))
}

/// The view after the canvas changed size from `before` to `now` (a panel opening beside or
/// below it): what was at the canvas's centre stays at its centre, so a vertex the search just
/// centred stays centred when the details that the same press opened take room.
pub fn keep_centre(xf: Xf, before: (f64, f64), now: (f64, f64)) -> Xf {
    (
        xf.0 + (now.0 - before.0) / 2.0,
        xf.1 + (now.1 - before.1) / 2.0,
        xf.2,
    )
}

/// Box size for a label drawn in the SVG's 12px monospace font.
pub fn label_size(name: &str) -> (f64, f64) {
    let (w, h) = layout::monospace_size(name);
    (w + 8.0, h + 4.0)
}

/// What the layout sees of `s`: the visible vertices and the solid edges between them (the
/// dashed ones are drawn by [`dashed_paths`], so showing them moves nothing), with each vertex's
/// index in `s.graph`.
pub fn drawn(s: &Shown) -> (PageGraph, Vec<usize>) {
    let keep: Vec<bool> = (0..s.graph.len()).map(|i| !s.hidden.contains(&i)).collect();
    let solid: Vec<(usize, usize)> = s
        .graph
        .edges()
        .iter()
        .copied()
        .filter(|e| !s.dashed.contains(e))
        .collect();
    let g = PageGraph::new(s.graph.vertices().to_vec(), solid);
    g.induced(&keep)
}

/// Lays out `g` (what [`drawn`] gave) and maps the scene's indexes through `visible` (each
/// vertex's index in the shown graph); near `previous` (the last scene's layout), vertices that
/// were there before stay where they were when the change is small, else keep their old order.
pub fn scene(
    g: &PageGraph,
    visible: &[usize],
    previous: Option<std::sync::Arc<layout::Layout>>,
) -> Scene {
    if let Some(message) = too_big(g) {
        return Scene {
            too_big: Some(message),
            ..Scene::default()
        };
    }
    let l = lay_out(g, previous);
    from_layout(g, visible, l)
}

/// What the layout is given for `g`: each vertex's box (sized for its label) with its module and
/// kind, and the edges from the dependency to the dependent. Vertex `k` has the id
/// `scratch_ids(..)[k]` (see [`from_layout`]).
pub fn layout_input(g: &PageGraph) -> Input {
    let ids = scratch_ids(g.len());
    Input {
        nodes: g
            .vertices()
            .iter()
            .zip(ids)
            .map(|(v, id)| {
                let (width, height) = label_size(&v.name);
                InputNode {
                    id,
                    name: v.name.clone(),
                    width,
                    height,
                    cluster: v.cluster.clone(),
                    typed: v.typed.clone(),
                }
            })
            .collect(),
        // Layout edges run from the dependency (drawn upstream) to the dependent.
        edges: layout_edges(g).collect(),
    }
}

/// The page's layout options, staying near `previous` (the last drawing's layout).
pub fn layout_options(previous: Option<std::sync::Arc<layout::Layout>>) -> LayoutOptions {
    // Wide, shallow graphs (resources only: dozens of resources on one VPC) wrap their widest
    // layers so that Fit shows them legibly.
    LayoutOptions {
        sticky: previous,
        wrap: true,
        ..LayoutOptions::default()
    }
}

/// Ids handed out by a scratch graph, so that they are ordinary vertex ids: id `k` is `g`'s
/// vertex `k` (see [`from_layout`]).
fn scratch_ids(n: usize) -> Vec<crate::dag::VertexId> {
    let mut ids = Graph::<()>::new();
    (0..n).map(|_| ids.add(())).collect()
}

/// The layout of `g`, whose vertex `k` has the id `scratch_ids(..)[k]`.
fn lay_out(g: &PageGraph, previous: Option<std::sync::Arc<layout::Layout>>) -> layout::Layout {
    layout::layout(&layout_input(g), &layout_options(previous))
}

/// The scene of `l`, a layout of `g` whose ids are [`scratch_ids`] (made from [`layout_input`],
/// here or by the engine's worker), with indexes mapped through `visible`.
pub fn from_layout(g: &PageGraph, visible: &[usize], l: layout::Layout) -> Scene {
    // The scratch graph's ids are 0, 1, 2, …: an id's number is the vertex's index in `g`.
    let local = |id: crate::dag::VertexId| id.index() as usize;
    let nodes = l
        .nodes
        .iter()
        .filter_map(|n| {
            let k = local(n.id);
            Some(SNode {
                index: *visible.get(k)?,
                name: n.name.clone(),
                kind: g.vertex(k)?.kind,
                typed: g.vertex(k)?.typed.clone(),
                x: n.x,
                y: n.y,
                w: n.w,
                h: n.h,
            })
        })
        .collect();
    let edges = l
        .edges
        .iter()
        .filter_map(|e| {
            // Routed from the dependency (`e.from`) to the dependent (`e.to`).
            let (dependency, dependent) = (local(e.from), local(e.to));
            Some(SEdge {
                from: *visible.get(dependent)?,
                to: *visible.get(dependency)?,
                key: (
                    g.vertex(dependent)?.name.clone(),
                    g.vertex(dependency)?.name.clone(),
                ),
                d: path_data(&e.points),
            })
        })
        .collect();
    let clusters = l
        .clusters
        .iter()
        .map(|c| SCluster {
            title: c.path.last().cloned().unwrap_or_default(),
            path: c.path.join("."),
            depth: c.path.len(),
            x: c.x,
            y: c.y,
            w: c.w,
            h: c.h,
        })
        .collect();
    Scene {
        nodes,
        edges,
        clusters,
        width: l.width,
        height: l.height,
        layout: Drawn(
            Some(std::sync::Arc::new(l)),
            g.vertices().iter().map(|v| v.kind).collect(),
        ),
        too_big: None,
        pending: None,
    }
}

/// The layout of every vertex and edge the build steps draw (what [`drawn`] gives of
/// [`super::view::shown_steps`]), made once so that stepping through the builder's transforms
/// moves nothing: each step is drawn as the part of it present then ([`at_step`]). The
/// message of [`too_big`] when it is too big to lay out (then each step is laid out alone).
pub fn steps_layout(g: &PageGraph) -> Result<layout::Layout, String> {
    match too_big(g) {
        Some(message) => Err(message),
        None => Ok(lay_out(g, None)),
    }
}

/// What identifies a vertex across steps: its name, or for a collapsed module the module path
/// (its name counts the vertices it hides, which differ from step to step).
fn step_key(name: &str) -> &str {
    super::graph::collapsed_path(name).unwrap_or(name)
}

/// The scene of one build step: `g` (what [`drawn`] gives of the step's shown graph, indexes
/// mapped through `visible`) drawn at the places `all` ([`steps_layout`]) gave its vertices, with
/// `all`'s routes for its edges and the module boxes that hold any of its vertices; the drawing's
/// size is `all`'s, so Fit does not change from step to step. An edge `all` did not route (the
/// resources-only view reduces the paths between resources differently on a part of the graph)
/// is drawn straight from its dependency to its dependent; a vertex `all` does not have (none
/// should) goes in a row below.
pub fn at_step(all: &layout::Layout, g: &PageGraph, visible: &[usize]) -> Scene {
    let ids = scratch_ids(g.len());
    let place: BTreeMap<&str, &layout::NodeBox> =
        all.nodes.iter().map(|n| (step_key(&n.name), n)).collect();
    let mut spare_x = all.width;
    let mut height = all.height;
    let mut width = all.width;
    let nodes: Vec<layout::NodeBox> = g
        .vertices()
        .iter()
        .zip(&ids)
        .enumerate()
        .map(|(k, (v, &id))| {
            let (w, h) = label_size(&v.name);
            let (x, y, layer, order) = match place.get(step_key(&v.name)) {
                // Centred where the whole layout put it (a collapsed module's label may differ
                // in length).
                Some(u) => (
                    u.x + (u.w - w) / 2.0,
                    u.y + (u.h - h) / 2.0,
                    u.layer,
                    u.order,
                ),
                None => {
                    let x = if spare_x >= all.width { 12.0 } else { spare_x };
                    spare_x = x + w + 24.0;
                    width = width.max(spare_x);
                    height = height.max(all.height + h + 12.0);
                    (x, all.height, all.layer_centres.len(), k)
                }
            };
            layout::NodeBox {
                id,
                name: v.name.clone(),
                x,
                y,
                w,
                h,
                layer,
                order,
            }
        })
        .collect();
    let routes: BTreeMap<(&str, &str), &layout::RoutedEdge> = {
        let name_of: BTreeMap<crate::dag::VertexId, &str> = all
            .nodes
            .iter()
            .map(|n| (n.id, step_key(&n.name)))
            .collect();
        all.edges
            .iter()
            .filter_map(|e| Some(((*name_of.get(&e.from)?, *name_of.get(&e.to)?), e)))
            .collect()
    };
    let edges = g
        .edges()
        .iter()
        .filter_map(|&(dependent, dependency)| {
            let (a, b) = (nodes.get(dependency)?, nodes.get(dependent)?);
            let key = (step_key(&a.name), step_key(&b.name));
            let (points, reversed) = match routes.get(&key) {
                Some(r) => (r.points.clone(), r.reversed),
                None => (
                    vec![(a.x + a.w / 2.0, a.y + a.h), (b.x + b.w / 2.0, b.y)],
                    false,
                ),
            };
            Some(layout::RoutedEdge {
                from: a.id,
                to: b.id,
                points,
                reversed,
            })
        })
        .collect();
    let held: std::collections::BTreeSet<&[String]> = g
        .vertices()
        .iter()
        .flat_map(|v| (1..=v.cluster.len()).map(|k| &v.cluster[..k]))
        .collect();
    let clusters = all
        .clusters
        .iter()
        .filter(|c| held.contains(c.path.as_slice()))
        .cloned()
        .collect();
    let l = layout::Layout {
        direction: all.direction,
        nodes,
        edges,
        clusters,
        width,
        height,
        layer_centres: all.layer_centres.clone(),
        borders: all.borders,
    };
    from_layout(g, visible, l)
}

/// SVG path data through the routed points: vertical runs straight, steps between layers as
/// S-curves leaving and entering vertically (the layout's own renderer draws the same shape; its
/// helper is private to the layout module).
pub fn path_data(points: &[(f64, f64)]) -> String {
    let mut d = String::new();
    let Some(&(x0, y0)) = points.first() else {
        return d;
    };
    let point = |d: &mut String, sep: &str, x: f64, y: f64| {
        d.push_str(sep);
        push_tenths(d, x);
        d.push(',');
        push_tenths(d, y);
    };
    point(&mut d, "M", x0, y0);
    for w in points.windows(2) {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        if (ax - bx).abs() < 0.5 {
            point(&mut d, " L", bx, by);
        } else {
            let m = (ay + by) / 2.0;
            point(&mut d, " C", ax, m);
            point(&mut d, " ", bx, m);
            point(&mut d, " ", bx, by);
        }
    }
    d
}

/// The view `(x, y, scale)` as a CSS transform of the drawing's SVG element (from its top-left
/// corner): a point `p` of the drawing is shown at `(x, y) + scale * p` in the canvas.
pub fn view_transform((x, y, scale): (f64, f64, f64)) -> String {
    format!("translate({x:.1}px, {y:.1}px) scale({scale:.4})")
}

/// `v` with one decimal, as `{:.1}` writes it, through integer formatting: the exact float
/// formatting behind `{:.1}` was about 4% of an edit's time at 1,000 resources (the profile of
/// issue 11). It rounds `v * 10` half away from zero, so at an exact tie the last digit may
/// differ from `{:.1}`'s (which rounds the decimal expansion half to even); `-0.0` is `0.0`.
pub(crate) fn push_tenths(d: &mut String, v: f64) {
    let t = (v * 10.0).round();
    if t.is_nan() || t.abs() >= 1e15 {
        let _ = write!(d, "{v:.1}");
        return;
    }
    let t = t as i64;
    if t < 0 {
        d.push('-');
    }
    let a = t.unsigned_abs();
    let _ = write!(d, "{}.{}", a / 10, a % 10);
}

/// A dashed edge as drawn: removed by transitive reduction, shown with the reduction off.
#[derive(Debug, Clone, PartialEq)]
pub struct DashedEdge {
    pub dependent: usize,
    pub dependency: usize,
    /// The dependent's and the dependency's names.
    pub key: (String, String),
    pub d: String,
}

/// Paths for the dashed edges, from the dependency's bottom to the dependent's top (they are
/// not routed by the layout).
pub fn dashed_paths(s: &Shown, sc: &Scene) -> Vec<DashedEdge> {
    let at: BTreeMap<usize, &SNode> = sc.nodes.iter().map(|n| (n.index, n)).collect();
    s.dashed
        .iter()
        .filter_map(|&(dependent, dependency)| {
            let (a, b) = (at.get(&dependency)?, at.get(&dependent)?);
            let from = (a.x + a.w / 2.0, a.y + a.h);
            let to = (b.x + b.w / 2.0, b.y);
            Some(DashedEdge {
                dependent,
                dependency,
                key: (b.name.clone(), a.name.clone()),
                d: path_data(&[from, to]),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;

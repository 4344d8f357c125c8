//! What the layout reads and writes: the [`Input`] graph with box sizes and cluster paths, the
//! [`LayoutOptions`], and the laid-out [`Layout`] (boxes, routed edges, cluster frames). Plain
//! serialisable data; every step of the pipeline (`rank`, `order`, `coord`) and every consumer
//! (`svg`, `metrics`, the page) speaks these types, and they depend on none of them.

use crate::dag::{Graph, Vertex, VertexId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which way dependencies flow on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Direction {
    /// Dependencies above dependents (layers are rows).
    #[default]
    TopToBottom,
    /// Dependencies left of dependents (layers are columns).
    LeftToRight,
}

/// The default [`LayoutOptions::aspect`]: 4:3, near a laptop's graph pane.
pub const DEFAULT_ASPECT: f64 = 4.0 / 3.0;

/// Tuning knobs; [`LayoutOptions::default`] gives Graphviz-like spacing for 12px labels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayoutOptions {
    pub direction: Direction,
    /// Gap between two vertex boxes of one layer.
    pub node_sep: f64,
    /// Gap between an edge's dummy point and its neighbours in a layer.
    pub edge_sep: f64,
    /// Minimum gap between two layers.
    pub rank_sep: f64,
    /// Space between a cluster border and what it contains.
    pub cluster_pad: f64,
    /// Height of the strip at the top of a cluster box that holds its title.
    pub cluster_title: f64,
    /// Width of one character of a cluster title (titles use the last path element).
    pub title_char_width: f64,
    /// Margin around the whole drawing.
    pub margin: f64,
    /// Upper bound on crossing-reduction sweeps (each sweep is one pass over all layers).
    pub max_sweeps: usize,
    /// Whether to refine each sweep by swapping adjacent vertices (transpose).
    pub transpose: bool,
    /// Coordinate-assignment passes (each is one sweep down or up the layers).
    pub coord_passes: usize,
    /// Optional previous layout: vertex name -> position in its layer (any increasing scale,
    /// e.g. [`Layout::order_hint`]). Vertices named here keep their relative order within their
    /// cluster and layer; new vertices are placed by the usual heuristics.
    pub previous: Option<BTreeMap<String, f64>>,
    /// Optional previous layout of a slightly changed graph (an edit): when few vertices were
    /// added or removed, vertices, bends and ports found in it keep their layer and place where
    /// the new graph allows, and only new items are placed (see `sticky.rs`). A bigger change,
    /// or a graph that is packed as several components, is laid out afresh keeping the old
    /// order as [`LayoutOptions::previous`] does. Takes precedence over `previous`.
    #[serde(skip)]
    pub sticky: Option<std::sync::Arc<Layout>>,
    /// The width / height the drawing of a graph with several weakly connected components aims
    /// at: each component is laid out alone and the drawings are packed into rows. `None` (or a
    /// value that is not finite and positive) keeps every component side by side in one row of
    /// layers, which for many small components is a very wide strip. A connected graph is drawn
    /// the same either way.
    pub aspect: Option<f64>,
    /// Whether to wrap layers much wider than [`LayoutOptions::aspect`] allows: the vertices of
    /// such a layer that nothing depends on (sinks) move down to the layers below, new ones if
    /// need be, each at most a few layers. For wide, shallow graphs (one resource that dozens
    /// depend on); off by default, so that a connected graph is drawn as before.
    pub wrap: bool,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            direction: Direction::TopToBottom,
            node_sep: 24.0,
            edge_sep: 10.0,
            rank_sep: 44.0,
            cluster_pad: 10.0,
            cluster_title: 20.0,
            title_char_width: 7.2,
            margin: 12.0,
            max_sweeps: 24,
            transpose: true,
            coord_passes: 12,
            previous: None,
            sticky: None,
            aspect: Some(DEFAULT_ASPECT),
            wrap: false,
        }
    }
}

/// One vertex to lay out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputNode {
    pub id: VertexId,
    pub name: String,
    pub width: f64,
    pub height: f64,
    /// Nested cluster names from outermost to innermost (e.g. `["module.a", "module.b"]`); empty
    /// for the root module. Paths deeper than 32 are cut to their first 32 names.
    pub cluster: Vec<String>,
    /// Its kind and module as the graph's vertex tells them (the layout itself does not read
    /// them; what builds the input may).
    #[serde(skip)]
    pub typed: crate::kind::Typed,
}

/// A graph to lay out, independent of [`Graph`]'s vertex type.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub nodes: Vec<InputNode>,
    /// `(dependency, dependent)` as indexes into `nodes`: the dependency is drawn upstream.
    pub edges: Vec<(usize, usize)>,
}

impl Input {
    /// Collects a [`Graph`]'s vertices (in id order) and edges. OpenTofu's edge `a -> b` ("a
    /// depends on b") becomes `(b, a)`.
    pub fn from_graph<V: Vertex>(
        g: &Graph<V>,
        mut size: impl FnMut(VertexId, &V) -> (f64, f64),
        mut cluster: impl FnMut(VertexId, &V) -> Vec<String>,
    ) -> Input {
        let mut index = BTreeMap::new();
        let mut nodes = Vec::with_capacity(g.len());
        for (id, v) in g.iter() {
            index.insert(id, nodes.len());
            let (width, height) = size(id, v);
            nodes.push(InputNode {
                id,
                name: v.name(),
                width,
                height,
                cluster: cluster(id, v),
                typed: v.typed(),
            });
        }
        let edges = g
            .edges()
            .into_iter()
            .filter_map(|(from, to)| Some((*index.get(&to)?, *index.get(&from)?)))
            .collect();
        Input { nodes, edges }
    }
}

/// A laid-out vertex. `x`, `y` is the top-left corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeBox {
    pub id: VertexId,
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// Layer index, 0 = the most upstream layer.
    pub layer: usize,
    /// Position within the layer (0 = leftmost, or topmost when left to right).
    pub order: usize,
}

/// A routed edge, from the dependency (`from`) to the dependent (`to`): the walk's direction.
/// `points` run from `from`'s border to `to`'s border through one or two points per layer
/// crossed; draw them as a polyline or a smooth curve through the points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoutedEdge {
    pub from: VertexId,
    pub to: VertexId,
    pub points: Vec<(f64, f64)>,
    /// True when the edge was reversed to break a cycle (it then runs against the direction).
    pub reversed: bool,
}

/// A cluster (module) box. `x`, `y` is the top-left corner; the title goes in the top strip.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterBox {
    pub path: Vec<String>,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// The result of [`layout`](super::layout()).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Layout {
    pub direction: Direction,
    /// In input order.
    pub nodes: Vec<NodeBox>,
    /// In input edge order.
    pub edges: Vec<RoutedEdge>,
    /// Sorted by path (parents before children).
    pub clusters: Vec<ClusterBox>,
    pub width: f64,
    pub height: f64,
    /// The centre of each layer along the flow axis (y when top to bottom, x when left to right).
    pub layer_centres: Vec<f64>,
    /// Whether a long edge's bend points on the layers of a module box holding one of its ends
    /// lie inside that box (it enters the box at its top, leaves at its bottom), as they do
    /// when the compound layering won; an edit laid out near this layout keeps to the same rule.
    #[serde(default)]
    pub borders: bool,
}

impl Layout {
    /// Vertex name -> position along its layer: feed it back as [`LayoutOptions::previous`] to
    /// keep the next layout of a changed graph close to this one.
    pub fn order_hint(&self) -> BTreeMap<String, f64> {
        self.nodes
            .iter()
            .map(|n| {
                let p = match self.direction {
                    Direction::TopToBottom => n.x + n.w / 2.0,
                    Direction::LeftToRight => n.y + n.h / 2.0,
                };
                (n.name.clone(), p)
            })
            .collect()
    }
}

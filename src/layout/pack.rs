//! Weakly connected components packed into rows. A layered layout puts every component side by
//! side in the same layers, so a graph of many small unrelated parts (the resources-only view of
//! a configuration, a flat configuration) becomes one very wide row that no zoom can show
//! legibly. Here each component is laid out alone (exactly as a connected graph is) and the
//! drawings are placed in rows whose width makes the whole drawing's aspect ratio come near
//! [`LayoutOptions::aspect`](super::LayoutOptions::aspect).
//!
//! Hand-written: shelf packing of a few thousand rectangles is a few lines, and the crates that
//! pack rectangles (for texture atlases) fill a fixed bin rather than aim at an aspect ratio.

use super::Direction;
use super::model::{ClusterBox, Input, Layout, NodeBox, RoutedEdge};

/// The weakly connected components of `input` (with `edges`, already checked to be in range),
/// where vertices of one outermost cluster count as connected (a module box is never split).
/// Components are listed by their first vertex, each with its vertices in input order.
pub(super) fn components(input: &Input, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let n = input.nodes.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    let join = |parent: &mut Vec<usize>, a: usize, b: usize| {
        let (ra, rb) = (find(parent, a), find(parent, b));
        if ra != rb {
            // The smaller index is the root: the component is named by its first vertex.
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            parent[hi] = lo;
        }
    };
    for &(a, b) in edges {
        join(&mut parent, a, b);
    }
    let mut first_in: std::collections::BTreeMap<&str, usize> = Default::default();
    for (i, nd) in input.nodes.iter().enumerate() {
        if let Some(top) = nd.cluster.first() {
            match first_in.get(top.as_str()) {
                Some(&f) => join(&mut parent, f, i),
                None => {
                    first_in.insert(top, i);
                }
            }
        }
    }
    let mut slot = vec![usize::MAX; n];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for v in 0..n {
        let r = find(&mut parent, v);
        if slot[r] == usize::MAX {
            slot[r] = out.len();
            out.push(Vec::new());
        }
        out[slot[r]].push(v);
    }
    out
}

/// Splits `input` into its `components`: each part's input (vertices in input order, the edges
/// among them) and the index in `edges` of each of its edges. Linear in the input.
pub(super) fn split(
    input: &Input,
    edges: &[(usize, usize)],
    components: &[Vec<usize>],
) -> Vec<(Input, Vec<usize>)> {
    let n = input.nodes.len();
    let (mut component_of, mut local) = (vec![0usize; n], vec![0usize; n]);
    for (c, members) in components.iter().enumerate() {
        for (k, &v) in members.iter().enumerate() {
            component_of[v] = c;
            local[v] = k;
        }
    }
    let mut parts: Vec<(Input, Vec<usize>)> = components
        .iter()
        .map(|members| {
            let nodes = members.iter().map(|&v| input.nodes[v].clone()).collect();
            (
                Input {
                    nodes,
                    edges: Vec::new(),
                },
                Vec::new(),
            )
        })
        .collect();
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (sub, which) = &mut parts[component_of[a]];
        sub.edges.push((local[a], local[b]));
        which.push(e);
    }
    parts
}

/// What was drawn of a component, as far as its ink goes: `(left, top, right, bottom)`.
fn ink(l: &Layout) -> (f64, f64, f64, f64) {
    let mut b = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    let mut add = |x0: f64, y0: f64, x1: f64, y1: f64| {
        b = (b.0.min(x0), b.1.min(y0), b.2.max(x1), b.3.max(y1));
    };
    for n in &l.nodes {
        add(n.x, n.y, n.x + n.w, n.y + n.h);
    }
    for c in &l.clusters {
        add(c.x, c.y, c.x + c.w, c.y + c.h);
    }
    for e in &l.edges {
        for &(x, y) in &e.points {
            add(x, y, x, y);
        }
    }
    if b.0.is_finite() && b.1.is_finite() && b.2.is_finite() && b.3.is_finite() {
        b
    } else {
        (0.0, 0.0, 0.0, 0.0)
    }
}

/// Shelf packing of boxes `sizes` (in the order given) into rows at most `row` wide (a box wider
/// than that gets a row of its own): each box's top-left corner, and the packed width and height.
fn shelves(sizes: &[(f64, f64)], row: f64, gap: (f64, f64)) -> (Vec<(f64, f64)>, f64, f64) {
    let mut at = Vec::with_capacity(sizes.len());
    let (mut x, mut y, mut row_h, mut width) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for &(w, h) in sizes {
        if x > 0.0 && x + w > row {
            y += row_h + gap.1;
            x = 0.0;
            row_h = 0.0;
        }
        at.push((x, y));
        width = width.max(x + w);
        row_h = row_h.max(h);
        x += w + gap.0;
    }
    (at, width, y + row_h)
}

/// The row width whose packing comes nearest to `aspect` (width / height, with the margins),
/// found by bisection between the widest box and one row of them all; the same sizes always
/// give the same width.
fn row_width(sizes: &[(f64, f64)], gap: (f64, f64), margin: f64, aspect: f64) -> f64 {
    let widest = sizes.iter().map(|s| s.0).fold(0.0f64, f64::max);
    let all: f64 = sizes.iter().map(|s| s.0 + gap.0).sum();
    let ratio = |row: f64| {
        let (_, w, h) = shelves(sizes, row, gap);
        (w + 2.0 * margin) / (h + 2.0 * margin).max(1e-9)
    };
    let off = |row: f64| (ratio(row) / aspect).ln().abs();
    let (mut lo, mut hi) = (widest, all.max(widest));
    let mut best = (off(hi), hi);
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        let r = ratio(mid);
        let o = (r / aspect).ln().abs();
        if o < best.0 || (o == best.0 && mid < best.1) {
            best = (o, mid);
        }
        if r < aspect {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let o = off(widest);
    if o < best.0 { widest } else { best.1 }
}

/// One component laid out alone: its layout and the indexes, in the whole input, of its
/// vertices and of its edges.
pub(super) struct Part {
    pub layout: Layout,
    pub members: Vec<usize>,
    pub edges: Vec<usize>,
}

/// Places the components' drawings in rows (tallest first, then the larger, then by first
/// vertex) so that the whole drawing's aspect ratio comes near `aspect`, and merges them into one
/// layout over the whole input: vertices in input order, edges in `edges`' order, cluster boxes by
/// path. Layers become the distinct layer centres of all the parts, in flow order.
pub(super) fn pack(
    parts: Vec<Part>,
    n_nodes: usize,
    n_edges: usize,
    direction: Direction,
    gap: (f64, f64),
    margin: f64,
    aspect: f64,
) -> Layout {
    let inks: Vec<(f64, f64, f64, f64)> = parts.iter().map(|p| ink(&p.layout)).collect();
    let sizes: Vec<(f64, f64)> = inks.iter().map(|b| (b.2 - b.0, b.3 - b.1)).collect();
    let layers = |p: &Part| p.layout.layer_centres.len();
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|&a, &b| {
        layers(&parts[b])
            .cmp(&layers(&parts[a]))
            .then(parts[b].members.len().cmp(&parts[a].members.len()))
            .then(parts[a].members[0].cmp(&parts[b].members[0]))
    });
    let sorted: Vec<(f64, f64)> = order.iter().map(|&i| sizes[i]).collect();
    let row = row_width(&sorted, gap, margin, aspect);
    let (at, width, height) = shelves(&sorted, row, gap);
    let mut shift = vec![(0.0, 0.0); parts.len()];
    for (k, &i) in order.iter().enumerate() {
        shift[i] = (margin + at[k].0 - inks[i].0, margin + at[k].1 - inks[i].1);
    }
    let flow = |(x, y): (f64, f64)| match direction {
        Direction::TopToBottom => y,
        Direction::LeftToRight => x,
    };
    // Every part's layer centres, moved, then merged: a vertex's layer is its centre's place.
    let mut centres: Vec<f64> = Vec::new();
    for (p, &(dx, dy)) in parts.iter().zip(&shift) {
        let d = flow((dx, dy));
        centres.extend(p.layout.layer_centres.iter().map(|c| c + d));
    }
    centres.sort_by(f64::total_cmp);
    centres.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    let layer_of = |c: f64| centres.partition_point(|x| *x < c - 1e-6);

    let mut nodes: Vec<Option<NodeBox>> = vec![None; n_nodes];
    let mut edges: Vec<Option<RoutedEdge>> = vec![None; n_edges];
    let mut clusters: Vec<ClusterBox> = Vec::new();
    for (p, &(dx, dy)) in parts.into_iter().zip(&shift) {
        let d = flow((dx, dy));
        let Part {
            layout,
            members,
            edges: which,
        } = p;
        for (nb, v) in layout.nodes.into_iter().zip(members) {
            let centre = layout.layer_centres.get(nb.layer).copied().unwrap_or(0.0) + d;
            nodes[v] = Some(NodeBox {
                x: nb.x + dx,
                y: nb.y + dy,
                layer: layer_of(centre),
                ..nb
            });
        }
        for (re, e) in layout.edges.into_iter().zip(which) {
            edges[e] = Some(RoutedEdge {
                points: re.points.iter().map(|&(x, y)| (x + dx, y + dy)).collect(),
                ..re
            });
        }
        clusters.extend(layout.clusters.into_iter().map(|c| ClusterBox {
            x: c.x + dx,
            y: c.y + dy,
            ..c
        }));
    }
    clusters.sort_by(|a, b| a.path.cmp(&b.path));
    let mut nodes: Vec<NodeBox> = nodes.into_iter().flatten().collect();
    // Positions within each merged layer, along it.
    let along = |n: &NodeBox| match direction {
        Direction::TopToBottom => n.x,
        Direction::LeftToRight => n.y,
    };
    let mut by_layer: Vec<Vec<usize>> = vec![Vec::new(); centres.len()];
    for (i, n) in nodes.iter().enumerate() {
        if let Some(l) = by_layer.get_mut(n.layer) {
            l.push(i);
        }
    }
    for l in &mut by_layer {
        l.sort_by(|&a, &b| {
            along(&nodes[a])
                .total_cmp(&along(&nodes[b]))
                .then(a.cmp(&b))
        });
        for (k, &i) in l.iter().enumerate() {
            nodes[i].order = k;
        }
    }
    Layout {
        direction,
        nodes,
        edges: edges.into_iter().flatten().collect(),
        clusters,
        width: width + 2.0 * margin,
        height: height + 2.0 * margin,
        layer_centres: centres,
        // Packed parts are never laid out near an old drawing (sticky.rs).
        borders: false,
    }
}

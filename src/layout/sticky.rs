//! Staying near a previous layout ([`LayoutOptions::sticky`](super::LayoutOptions::sticky)): an
//! edit in the page changes a handful of vertices and edges, and everything else should stay
//! where the reader last saw it (a drawing that moves under a keystroke loses the reader's mental
//! map, and the browser then redraws every element).
//!
//! When the new graph is close to the old one (few vertices added or gone), the usual pipeline is
//! replaced by one that reads the old drawing: vertices keep their layer unless what they depend
//! on now pushes them lower ([`rank::rank_near`](super::rank::rank_near)); vertices and the
//! bend points of long edges keep their order and their place along the layer when the
//! separations allow, and new items go into the nearest room beside their neighbours
//! ([`order_near`], [`coord`](super::coord)); an edge that was there keeps its ports. Nothing is
//! optimised again, so many edits in a row may leave gaps where vertices were; a layout without
//! `sticky` (the page's Tidy button, a reload) starts over. The maps here are only looked up,
//! never iterated, so the result stays deterministic.

use super::Direction;
use super::LayoutOptions;
use super::model::{Input, Layout};
use super::order::{Clusters, Keys, Kind, LayeredGraph, add_to_clusters, cluster_means};
use super::rank::Ranked;
use std::collections::HashMap;

/// A previous layout's facts about the new input, by the new input's indexes.
pub(super) struct Near {
    /// Per input node: its layer and its centre along the layer in the old layout.
    pub node: Vec<Option<(usize, f64)>>,
    /// Per input edge: its points' coordinates along the layer, from its upper end to its lower
    /// end, and the old layers of those ends, when the old layout had the edge.
    edge: Vec<Option<OldEdge>>,
    /// Old cluster boxes by path: their left and right ends along the layers.
    cluster: HashMap<Vec<String>, (f64, f64)>,
}

struct OldEdge {
    /// Old layers of the upper and the lower end.
    upper: usize,
    lower: usize,
    /// Name index of the upper end (to tell whether the edge still runs the same way).
    upper_node: usize,
    /// Along-the-layer coordinate of every point, upper end first.
    along: Vec<f64>,
}

/// How many vertices may differ (added plus gone) for the old layout to be kept: a few, or a
/// twentieth of the graph. A larger change (another view, a collapsed module, a pasted file) is
/// laid out afresh, since gaps and long detours would outweigh the stability.
fn allowed_change(n: usize) -> usize {
    (n / 20).max(4)
}

/// Each of `input`'s nodes' index in `prev`, or `None` when the graphs differ too much to stay
/// near (more than [`allowed_change`] vertices added or gone, none in common) or run in another
/// direction.
fn matched(input: &Input, prev: &Layout, direction: Direction) -> Option<Vec<Option<usize>>> {
    let n = input.nodes.len();
    if n == 0 || prev.direction != direction {
        return None;
    }
    let by_name: HashMap<&str, usize> = prev
        .nodes
        .iter()
        .enumerate()
        .map(|(i, nb)| (nb.name.as_str(), i))
        .collect();
    let old_index: Vec<Option<usize>> = input
        .nodes
        .iter()
        .map(|nd| by_name.get(nd.name.as_str()).copied())
        .collect();
    let matched = old_index.iter().flatten().count();
    let changed = (n - matched) + prev.nodes.len().saturating_sub(matched);
    if matched == 0 || changed > allowed_change(n.max(prev.nodes.len())) {
        return None;
    }
    Some(old_index)
}

/// Whether `input` is close enough to `prev` for a layout to stay near it (see [`matched`]).
pub(super) fn close(input: &Input, prev: &Layout, direction: Direction) -> bool {
    matched(input, prev, direction).is_some()
}

impl Near {
    /// What `prev` knows about `input` (its in-range `edges`), or `None` when the graphs differ
    /// too much or run in another direction.
    pub(super) fn new(
        input: &Input,
        edges: &[(usize, usize)],
        prev: &Layout,
        direction: Direction,
    ) -> Option<Near> {
        let old_index = matched(input, prev, direction)?;
        let along = |p: (f64, f64)| match direction {
            Direction::TopToBottom => p.0,
            Direction::LeftToRight => p.1,
        };
        let node = old_index
            .iter()
            .map(|o| {
                let nb = &prev.nodes[(*o)?];
                let c = along((nb.x + nb.w / 2.0, nb.y + nb.h / 2.0));
                c.is_finite().then_some((nb.layer, c))
            })
            .collect();
        // Old edges by (dependency, dependent) as old node indexes.
        let by_id: HashMap<crate::dag::VertexId, usize> = prev
            .nodes
            .iter()
            .enumerate()
            .map(|(i, nb)| (nb.id, i))
            .collect();
        let mut old_edges: HashMap<(usize, usize), usize> = HashMap::new();
        for (k, e) in prev.edges.iter().enumerate() {
            if let (Some(&a), Some(&b)) = (by_id.get(&e.from), by_id.get(&e.to)) {
                old_edges.entry((a, b)).or_insert(k);
            }
        }
        let edge = edges
            .iter()
            .map(|&(a, b)| {
                let (oa, ob) = (old_index[a]?, old_index[b]?);
                let e = &prev.edges[*old_edges.get(&(oa, ob))?];
                let (la, lb) = (prev.nodes[oa].layer, prev.nodes[ob].layer);
                if la == lb || e.points.len() < 2 {
                    return None;
                }
                // Points run from the dependency to the dependent; upper end first here.
                let mut pts: Vec<f64> = e.points.iter().map(|&p| along(p)).collect();
                if la > lb {
                    pts.reverse();
                }
                pts.iter().all(|p| p.is_finite()).then(|| OldEdge {
                    upper: la.min(lb),
                    lower: la.max(lb),
                    upper_node: if la < lb { a } else { b },
                    along: pts,
                })
            })
            .collect();
        let cluster = prev
            .clusters
            .iter()
            .filter_map(|c| {
                let (lo, hi) = match direction {
                    Direction::TopToBottom => (c.x, c.x + c.w),
                    Direction::LeftToRight => (c.y, c.y + c.h),
                };
                (lo.is_finite() && hi.is_finite()).then(|| (c.path.clone(), (lo, hi)))
            })
            .collect();
        Some(Near {
            node,
            edge,
            cluster,
        })
    }

    /// Each input node's old layer, for [`rank_near`](super::rank::rank_near).
    pub(super) fn layers(&self) -> Vec<Option<usize>> {
        self.node.iter().map(|o| o.map(|(l, _)| l)).collect()
    }

    /// Where each item of `g` was along its layer: real vertices from the old boxes, the bend
    /// points of long edges from the old routes when they crossed the same (old) layer; `None`
    /// for new items and cluster placeholders. `before[r]` is layer `r`'s index in the old
    /// layout (what `rank_near` returns).
    pub(super) fn places(&self, g: &LayeredGraph, before: &[usize]) -> Vec<Option<f64>> {
        let mut out = vec![None; g.kind.len()];
        for (it, k) in g.kind.iter().enumerate() {
            if let Kind::Real(v) = *k {
                out[it] = self.node.get(v).copied().flatten().map(|(_, c)| c);
            }
        }
        for (e, chain) in g.chains.iter().enumerate() {
            let (Some(old), true) = (self.edge.get(e).and_then(Option::as_ref), chain.len() > 2)
            else {
                continue;
            };
            let bends = old.lower - old.upper - 1;
            if bends == 0 {
                continue;
            }
            let per = (old.along.len() - 2) / bends;
            if !(per == 1 || per == 2) || per * bends != old.along.len() - 2 {
                continue;
            }
            for &d in &chain[1..chain.len() - 1] {
                let Some(&was) = before.get(g.layer[d]) else {
                    continue;
                };
                if was > old.upper && was < old.lower {
                    out[d] = Some(old.along[1 + (was - old.upper - 1) * per]);
                }
            }
        }
        out
    }

    /// Per cluster of `cl` (index 0, the root, has none): its old box's ends along the layers.
    pub(super) fn borders(&self, cl: &Clusters) -> Vec<Option<(f64, f64)>> {
        cl.paths
            .iter()
            .enumerate()
            .map(|(c, p)| {
                if c == 0 {
                    None
                } else {
                    self.cluster.get(p).copied()
                }
            })
            .collect()
    }

    /// Per input edge: its old port offsets from the centres of its upper and lower ends, when
    /// the old layout had it running the same way.
    pub(super) fn ports(&self, ranked: &Ranked) -> Vec<Option<(f64, f64)>> {
        self.edge
            .iter()
            .zip(&ranked.edges)
            .map(|(old, now)| {
                let old = old.as_ref()?;
                let (u, l, _) = (*now)?;
                if old.upper_node != u {
                    return None;
                }
                let (cu, cl) = (self.node.get(u)?.as_ref()?.1, self.node.get(l)?.as_ref()?.1);
                let (first, last) = (old.along.first()?, old.along.last()?);
                Some((first - cu, last - cl))
            })
            .collect()
    }
}

/// The order near a previous layout (see `sticky.rs`): `places` gives the old place along the
/// layer of the items that had one. They keep their old order; a new item goes where the mean
/// of its neighbours' places above (else below) puts it, and a cluster where the mean of its
/// members' old places does, so that sibling clusters and the vertices beside them keep the old
/// order too. No sweeps: what was there is not reordered.
pub(super) fn order_near(
    g: &mut LayeredGraph,
    cl: &Clusters,
    places: &[Option<f64>],
    borders: &[Option<(f64, f64)>],
    opts: &LayoutOptions,
) {
    let items = g.kind.len();
    let mut key: Vec<Option<f64>> = (0..items)
        .map(|it| places.get(it).copied().flatten().filter(|p| p.is_finite()))
        .collect();
    let layer_count = g.layers.len();
    let mut roomed = vec![false; items];
    for downward in [true, false] {
        for i in 0..layer_count {
            let r = if downward { i } else { layer_count - 1 - i };
            for &it in &g.layers[r] {
                if key[it].is_some() {
                    continue;
                }
                let nb = if downward { &g.up[it] } else { &g.down[it] };
                let (sum, cnt) = nb
                    .iter()
                    .filter_map(|&w| key[w])
                    .fold((0.0, 0u32), |(s, c), k| (s + k, c + 1));
                if cnt > 0 {
                    key[it] = Some(sum / cnt as f64);
                }
            }
            // Room is found layer by layer, so that the next layer's new items (the bends of a
            // new long edge) follow where this layer's went.
            find_room(g, cl, r, (places, borders), &mut key, &mut roomed, opts);
        }
    }
    // Items with no neighbour that has a place (placeholders, a new part of the graph) go right
    // of everything, where there is room: inserted among old items they would push them aside.
    let right = key.iter().flatten().fold(0.0f64, |m, &k| m.max(k)) + 1.0;
    let item: Vec<f64> = key.iter().map(|k| k.unwrap_or(right)).collect();
    let (mut sum, mut cnt) = (vec![0.0; cl.len()], vec![0u32; cl.len()]);
    let (mut all_sum, mut all_cnt) = (vec![0.0; cl.len()], vec![0u32; cl.len()]);
    for (it, &k) in item.iter().enumerate() {
        if places.get(it).copied().flatten().is_some() {
            add_to_clusters(cl, g.cluster[it], k, &mut sum, &mut cnt);
        }
        add_to_clusters(cl, g.cluster[it], k, &mut all_sum, &mut all_cnt);
    }
    let fallback = cluster_means(&all_sum, &all_cnt, &vec![0.0; cl.len()]);
    let keys = Keys {
        item,
        cluster: cluster_means(&sum, &cnt, &fallback),
        cl,
        hint: None,
    };
    for r in 0..layer_count {
        keys.sort_layer(g, r);
    }
}

/// Per item its old place along the layer, per cluster its old box's ends (see `sticky.rs`).
type Old<'a> = (&'a [Option<f64>], &'a [Option<(f64, f64)>]);

/// How far (along the layer) a new item may go from where its neighbours put it to find room.
const ROOM_SEARCH: f64 = 3000.0;

/// Moves the key of each new real or dummy item of layer `r` to the nearest place where it fits
/// between two old items inside its own cluster (not inside a sub-cluster's box: `borders`
/// gives the old boxes' ends along the layer), or in the root cluster before or after all of
/// them, for a vertex within [`ROOM_SEARCH`] of the key its neighbours gave it (for a bend of a
/// long edge at any distance: an edge may go round a module box), since inserted where old items
/// are packed tight, it would push everything right of it aside. An item with no such room keeps
/// its key. Room taken by one new item is not offered to the next; an item is placed once
/// (`roomed`).
fn find_room(
    g: &LayeredGraph,
    cl: &Clusters,
    r: usize,
    near: Old,
    key: &mut [Option<f64>],
    roomed: &mut [bool],
    opts: &LayoutOptions,
) {
    let (places, borders) = near;
    let old = |it: usize| places.get(it).copied().flatten();
    // (centre, breadth, item) of the layer's old items (and new ones already given room), in
    // order along the layer.
    let mut placed: Vec<(f64, f64, usize)> = g.layers[r]
        .iter()
        .filter_map(|&it| {
            let at = old(it).or(if roomed[it] { key[it] } else { None })?;
            Some((at, g.breadth[it], it))
        })
        .collect();
    if placed.is_empty() {
        return;
    }
    placed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let real = |it: usize| matches!(g.kind[it], Kind::Real(_));
    let sep = |a: usize, b: usize| {
        if real(a) && real(b) {
            opts.node_sep
        } else {
            opts.edge_sep
        }
    };
    let border = |c: usize| borders.get(c).copied().flatten();
    let depth = |c: usize| cl.chain[c].len();
    // Where an item of cluster `c` may start right of old item `l` (its box and the boxes of
    // `l`'s clusters inside `c`), and where it must end left of old item `rt`.
    let after = |l: usize, it: usize, c: usize, centre: f64, b: f64| {
        let inner = &cl.chain[g.cluster[l]][depth(c).min(depth(g.cluster[l]))..];
        let mut edge = centre + b / 2.0;
        for &k in inner {
            edge = edge.max(border(k).map_or(f64::INFINITY, |(_, hi)| hi));
        }
        edge + if inner.is_empty() {
            sep(l, it)
        } else {
            opts.node_sep
        }
    };
    let before = |rt: usize, it: usize, c: usize, centre: f64, b: f64| {
        let inner = &cl.chain[g.cluster[rt]][depth(c).min(depth(g.cluster[rt]))..];
        let mut edge = centre - b / 2.0;
        for &k in inner {
            edge = edge.min(border(k).map_or(f64::NEG_INFINITY, |(lo, _)| lo));
        }
        edge - if inner.is_empty() {
            sep(it, rt)
        } else {
            opts.node_sep
        }
    };
    let margin = opts.margin.max(0.0);
    for &it in &g.layers[r] {
        if old(it).is_some() || roomed[it] || matches!(g.kind[it], Kind::Holder) {
            continue;
        }
        let Some(t) = key[it] else { continue };
        let (b, c) = (g.breadth[it], g.cluster[it]);
        // A bend may go round a module box however wide; a vertex stays near its neighbours.
        let reach = if real(it) { ROOM_SEARCH } else { f64::INFINITY };
        // Best (distance, centre, slot in `placed`).
        let mut best: Option<(f64, f64, usize)> = None;
        let mut offer = |lo: f64, hi: f64, slot: usize| {
            if lo.is_finite() && hi.is_finite() && lo <= hi {
                let centre = t.clamp(lo, hi);
                let d = (centre - t).abs();
                if d <= reach && best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, centre, slot));
                }
            }
        };
        for k in 0..placed.len().saturating_sub(1) {
            let ((pl, bl, l), (pr, br, rt)) = (placed[k], placed[k + 1]);
            if cl.common(g.cluster[l], g.cluster[rt]) != c
                || !cl.chain[g.cluster[l]].starts_with(&cl.chain[c])
                || !cl.chain[g.cluster[rt]].starts_with(&cl.chain[c])
            {
                continue;
            }
            let lo = after(l, it, c, pl, bl) + b / 2.0;
            let hi = before(rt, it, c, pr, br) - b / 2.0;
            offer(lo, hi, k + 1);
        }
        if c == 0 {
            let (pf, bf, f) = placed[0];
            offer(margin + b / 2.0, before(f, it, c, pf, bf) - b / 2.0, 0);
            let (pl, bl, l) = placed[placed.len() - 1];
            offer(after(l, it, c, pl, bl) + b / 2.0, f64::MAX, placed.len());
        }
        roomed[it] = true;
        if let Some((_, centre, slot)) = best {
            key[it] = Some(centre);
            placed.insert(slot, (centre, b, it));
        }
    }
}

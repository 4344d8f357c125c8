//! Staying near a previous layout ([`LayoutOptions::sticky`](super::LayoutOptions::sticky)): an
//! edit in the page changes a handful of vertices and edges, and everything else should stay
//! where the reader last saw it (a drawing that moves under a keystroke loses the reader's mental
//! map, and the browser then redraws every element).
//!
//! When the new graph is close to the old one (few vertices added or gone), the usual pipeline is
//! replaced by one that reads the old drawing: vertices keep their layer unless what they depend
//! on now pushes them lower ([`rank::rank_near`](super::rank::rank_near)); vertices and the
//! bend points of long edges keep their order and their place along the layer when the
//! separations allow, and new items go between them next to their neighbours
//! ([`order::order_near`](super::order::order_near), [`coord`](super::coord)); an edge that was
//! there keeps its ports. Nothing is optimised again, so many edits in a row may leave gaps
//! where vertices were; a layout without `sticky` (Fit's "lay out again", a reload) starts over.

use super::Direction;
use super::model::{Input, Layout};
use super::order::{Clusters, Kind, LayeredGraph};
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

impl Near {
    /// What `prev` knows about `input` (its in-range `edges`), or `None` when the graphs differ
    /// too much or run in another direction.
    pub(super) fn new(
        input: &Input,
        edges: &[(usize, usize)],
        prev: &Layout,
        direction: Direction,
    ) -> Option<Near> {
        let n = input.nodes.len();
        if n == 0 || prev.direction != direction {
            return None;
        }
        let along = |p: (f64, f64)| match direction {
            Direction::TopToBottom => p.0,
            Direction::LeftToRight => p.1,
        };
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
            .map(|(c, p)| if c == 0 { None } else { self.cluster.get(p).copied() })
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

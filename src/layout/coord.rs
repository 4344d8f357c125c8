//! Coordinate assignment and edge routing.
//!
//! Positions along the layers come from a separation-constraint graph whose variables are the
//! items of the layered graph plus a left and a right border per cluster: consecutive items of a
//! layer must be apart by half their sizes plus a gap, and entering or leaving a cluster goes
//! through its borders with padding. The constraint graph is acyclic because the ordering gives
//! sibling clusters one order on every layer. A longest path gives a compact left-justified
//! placement; then passes down, up and both ways move each item towards the median of its
//! neighbours, processing items that move right from the right end and items that move left from
//! the left end (a priority method that lets whole rows shift), pushing the borders of the
//! clusters they belong to. Each pass is linear in the size of the layered graph. Finally the
//! dummy chains of long edges are straightened, longest first, shoving lower-priority items
//! aside within a work budget, and the real vertices settle around them.
//!
//! Brandes–Köpf was the other candidate: it is linear and straightens long edges too, but it has
//! no notion of cluster borders spanning several layers; the constraint graph handles both.

use super::order::{Clusters, Kind, LayeredGraph};
use super::rank::{Ranked, kahn, with_the_rest};
use super::{ClusterBox, Direction, Input, Layout, LayoutOptions, NodeBox, RoutedEdge};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Item,
    Left,
    Right,
}

struct Constraints {
    /// Per variable: (predecessor, separation): x[v] >= x[p] + sep.
    preds: Vec<Vec<(usize, f64)>>,
    /// Per variable: (successor, separation): x[s] >= x[v] + sep.
    succs: Vec<Vec<(usize, f64)>>,
    role: Vec<Role>,
    topo: Vec<usize>,
}

fn left_var(items: usize, c: usize) -> usize {
    items + 2 * (c - 1)
}

fn right_var(items: usize, c: usize) -> usize {
    items + 2 * (c - 1) + 1
}

fn build_constraints(g: &LayeredGraph, cl: &Clusters, opts: &LayoutOptions) -> Constraints {
    let items = g.kind.len();
    let vars = items + 2 * (cl.len().saturating_sub(1));
    let mut role = vec![Role::Item; vars];
    for c in 1..cl.len() {
        role[left_var(items, c)] = Role::Left;
        role[right_var(items, c)] = Role::Right;
    }
    let pad = opts.cluster_pad;
    let title_b = match opts.direction {
        Direction::TopToBottom => 0.0,
        Direction::LeftToRight => opts.cluster_title,
    };
    let mut cons: Vec<(usize, usize, f64)> = Vec::new();
    let real = |it: usize| matches!(g.kind[it], Kind::Real(_));
    let empty: Vec<usize> = Vec::new();
    let mut seq: Vec<usize> = Vec::new();
    for layer in &g.layers {
        for k in 0..=layer.len() {
            let a = k.checked_sub(1).map(|i| layer[i]);
            let b = layer.get(k).copied();
            let ca = a.map_or(&empty, |a| &cl.chain[g.cluster[a]]);
            let cb = b.map_or(&empty, |b| &cl.chain[g.cluster[b]]);
            let common = ca.iter().zip(cb.iter()).take_while(|(x, y)| x == y).count();
            seq.clear();
            seq.extend(a);
            seq.extend(ca[common..].iter().rev().map(|&c| right_var(items, c)));
            seq.extend(cb[common..].iter().map(|&c| left_var(items, c)));
            seq.extend(b);
            for w in seq.windows(2) {
                let (u, v) = (w[0], w[1]);
                let sep = match (role[u], role[v]) {
                    (Role::Item, Role::Item) => {
                        let gap = if real(u) && real(v) {
                            opts.node_sep
                        } else {
                            opts.edge_sep
                        };
                        (g.breadth[u] + g.breadth[v]) / 2.0 + gap
                    }
                    (Role::Item, Role::Right) => g.breadth[u] / 2.0 + pad,
                    (Role::Right, Role::Right) => pad,
                    (Role::Right, Role::Left) => opts.node_sep,
                    (Role::Left, Role::Left) => pad + title_b,
                    (Role::Left, Role::Item) => pad + title_b + g.breadth[v] / 2.0,
                    (Role::Item, Role::Left) => g.breadth[u] / 2.0 + opts.node_sep,
                    (Role::Right, Role::Item) => opts.node_sep + g.breadth[v] / 2.0,
                    // Not produced by the walk above.
                    (Role::Left, Role::Right) => 2.0 * pad,
                };
                cons.push((u, v, sep));
            }
        }
    }
    for c in 1..cl.len() {
        let title = match opts.direction {
            Direction::TopToBottom => {
                let name = cl.paths[c].last().map_or(0, |s| s.chars().count());
                name as f64 * opts.title_char_width + 2.0 * pad
            }
            Direction::LeftToRight => 2.0 * pad,
        };
        cons.push((left_var(items, c), right_var(items, c), title));
    }
    cons.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(b.2.total_cmp(&a.2)));
    cons.dedup_by(|later, first| later.0 == first.0 && later.1 == first.1);

    let mut preds = vec![Vec::new(); vars];
    let mut succs = vec![Vec::new(); vars];
    for &(u, v, s) in &cons {
        succs[u].push((v, s));
        preds[v].push((u, s));
    }
    let topo = kahn(preds.iter().map(Vec::len).collect(), |v| {
        succs[v].iter().map(|&(w, _)| w)
    });
    // A cycle cannot happen with a consistent cluster order; keep going rather than panic.
    let topo = with_the_rest(topo, vars);
    Constraints {
        preds,
        succs,
        role,
        topo,
    }
}

struct Solver<'a> {
    c: &'a Constraints,
    x: Vec<f64>,
}

impl Solver<'_> {
    /// Leftmost position `v` can take, moving the left borders of its own clusters as needed.
    fn lo(&self, v: usize) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for &(p, s) in &self.c.preds[v] {
            let b = if self.c.role[p] == Role::Left {
                self.lo(p)
            } else {
                self.x[p]
            };
            best = best.max(b + s);
        }
        best
    }

    fn hi(&self, v: usize) -> f64 {
        let mut best = f64::INFINITY;
        for &(s, sep) in &self.c.succs[v] {
            let b = if self.c.role[s] == Role::Right {
                self.hi(s)
            } else {
                self.x[s]
            };
            best = best.min(b - sep);
        }
        best
    }

    fn push_left(&mut self, v: usize, nx: f64) {
        self.x[v] = nx;
        for i in 0..self.c.preds[v].len() {
            let (p, s) = self.c.preds[v][i];
            if self.c.role[p] == Role::Left && self.x[p] > nx - s {
                self.push_left(p, nx - s);
            }
        }
    }

    fn push_right(&mut self, v: usize, nx: f64) {
        self.x[v] = nx;
        for i in 0..self.c.succs[v].len() {
            let (s, sep) = self.c.succs[v][i];
            if self.c.role[s] == Role::Right && self.x[s] < nx + sep {
                self.push_right(s, nx + sep);
            }
        }
    }

    /// Moves `v` to `nx` (right when `right`), shoving its successors (predecessors) along as
    /// far as the separations require. Fails, leaving the moves in `log` for the caller to undo,
    /// when it would move a `locked` variable not in `mine` or make more than `budget` moves.
    #[allow(clippy::too_many_arguments)]
    fn shove(
        &mut self,
        v: usize,
        nx: f64,
        right: bool,
        locked: &[bool],
        mine: &[bool],
        log: &mut Vec<(usize, f64)>,
        budget: usize,
    ) -> bool {
        let start = log.len();
        let mut stack = vec![(v, nx)];
        while let Some((u, want)) = stack.pop() {
            let needed = if right {
                self.x[u] < want
            } else {
                self.x[u] > want
            };
            if !needed {
                continue;
            }
            if (locked[u] && !mine[u]) || log.len() - start >= budget {
                return false;
            }
            log.push((u, self.x[u]));
            self.x[u] = want;
            if right {
                for &(w, sep) in &self.c.succs[u] {
                    if self.x[w] < want + sep {
                        stack.push((w, want + sep));
                    }
                }
            } else {
                for &(w, sep) in &self.c.preds[u] {
                    if self.x[w] > want - sep {
                        stack.push((w, want - sep));
                    }
                }
            }
        }
        true
    }

    /// [`Solver::tighten`] for the borders `new` marks only (those without an old place).
    fn tighten_new(&mut self, new: &[bool]) {
        for i in (0..self.c.topo.len()).rev() {
            let v = self.c.topo[i];
            if self.c.role[v] == Role::Left && new[v] && !self.c.succs[v].is_empty() {
                self.x[v] = self.c.succs[v]
                    .iter()
                    .map(|&(s, sep)| self.x[s] - sep)
                    .fold(f64::INFINITY, f64::min);
            }
        }
        for i in 0..self.c.topo.len() {
            let v = self.c.topo[i];
            if self.c.role[v] == Role::Right && new[v] && !self.c.preds[v].is_empty() {
                self.x[v] = self.c.preds[v]
                    .iter()
                    .map(|&(p, sep)| self.x[p] + sep)
                    .fold(f64::NEG_INFINITY, f64::max);
            }
        }
    }

    /// Borders hug their contents again (so neighbours may come closer next pass).
    fn tighten(&mut self) {
        for i in (0..self.c.topo.len()).rev() {
            let v = self.c.topo[i];
            if self.c.role[v] == Role::Left && !self.c.succs[v].is_empty() {
                let h = self.c.succs[v]
                    .iter()
                    .map(|&(s, sep)| self.x[s] - sep)
                    .fold(f64::INFINITY, f64::min);
                self.x[v] = h;
            }
        }
        for i in 0..self.c.topo.len() {
            let v = self.c.topo[i];
            if self.c.role[v] == Role::Right && !self.c.preds[v].is_empty() {
                let l = self.c.preds[v]
                    .iter()
                    .map(|&(p, sep)| self.x[p] + sep)
                    .fold(f64::NEG_INFINITY, f64::max);
                self.x[v] = l;
            }
        }
    }
}

fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

#[derive(Clone, Copy)]
enum Side {
    Above,
    Below,
    Both,
}

fn assign_breadth(g: &LayeredGraph, cl: &Clusters, opts: &LayoutOptions) -> Vec<f64> {
    let cons = build_constraints(g, cl, opts);
    let mut s = Solver {
        c: &cons,
        x: vec![0.0; cons.role.len()],
    };
    for &v in &cons.topo {
        let x = cons.preds[v]
            .iter()
            .map(|&(p, sep)| s.x[p] + sep)
            .fold(0.0, f64::max);
        s.x[v] = x;
    }
    s.tighten();
    let passes = opts.coord_passes;
    for pass in 0..passes {
        let side = if pass + 2 >= passes {
            Side::Both
        } else if pass % 2 == 0 {
            Side::Above
        } else {
            Side::Below
        };
        median_pass(&mut s, g, side, true, None);
        s.tighten();
    }
    // Long edges straight: each dummy chain moves to one position all its points can take;
    // then the real vertices settle around the straightened chains.
    straighten(&mut s, g);
    median_pass(&mut s, g, Side::Both, false, None);
    straighten(&mut s, g);
    s.tighten();
    s.x
}

/// Positions near a previous layout (see `sticky.rs`): in the constraint graph's order, each
/// variable (item or cluster border) takes its old place unless what is left of it needs the
/// room, then the first position right of that. Borders and items without an old place start as
/// far left as they can, so a new item fills the room beside its left neighbour and pushes only
/// what it must; then new items move towards the median of their neighbours within the room they
/// have, and new borders hug their contents. Nothing that had a place is tightened or moved
/// otherwise, so a graph laid out near its own layout is drawn exactly as before.
fn assign_near(g: &LayeredGraph, cl: &Clusters, opts: &LayoutOptions, near: &Near) -> Vec<f64> {
    let cons = build_constraints(g, cl, opts);
    let items = g.kind.len();
    let vars = cons.role.len();
    let margin = opts.margin.max(0.0);
    let mut old: Vec<Option<f64>> = (0..items)
        .map(|it| near.places.get(it).copied().flatten())
        .collect();
    old.resize(vars, None);
    for (c, b) in near.borders.iter().enumerate().skip(1).take(cl.len() - 1) {
        if let Some((lo, hi)) = *b {
            old[left_var(items, c)] = Some(lo);
            old[right_var(items, c)] = Some(hi);
        }
    }
    let mut s = Solver {
        c: &cons,
        x: vec![0.0; vars],
    };
    for &v in &cons.topo {
        let start = if v < items {
            margin + g.breadth[v] / 2.0
        } else {
            margin
        };
        let lo = cons.preds[v]
            .iter()
            .map(|&(p, sep)| s.x[p] + sep)
            .fold(start, f64::max);
        s.x[v] = match old[v] {
            Some(p) if p.is_finite() => p.max(lo),
            _ => lo,
        };
    }
    let new: Vec<bool> = old.iter().map(Option::is_none).collect();
    if new[..items].iter().any(|&b| b) {
        s.tighten_new(&new);
        median_pass(&mut s, g, Side::Both, true, Some(&new));
    }
    s.tighten_new(&new);
    s.x
}

/// A previous layout's places for [`place`]: per item its old place along the layer, per input
/// edge its old port offsets at its upper and lower ends.
pub(crate) struct Near<'a> {
    pub places: &'a [Option<f64>],
    pub ports: &'a [Option<(f64, f64)>],
    /// Per cluster: its old box's ends along the layers (see `sticky::Near::borders`).
    pub borders: &'a [Option<(f64, f64)>],
}

/// One pass over the layers moving items towards the median of their neighbours on `side`
/// (dummy points too, unless `dummies` is false).
fn median_pass(
    s: &mut Solver,
    g: &LayeredGraph,
    side: Side,
    dummies: bool,
    movable: Option<&[bool]>,
) {
    let layers = g.layers.len();
    let rows: Vec<usize> = match side {
        Side::Below => (0..layers).rev().collect(),
        _ => (0..layers).collect(),
    };
    let mut targets: Vec<Option<f64>> = Vec::new();
    let mut nb: Vec<f64> = Vec::new();
    for r in rows {
        let layer = &g.layers[r];
        targets.clear();
        for &it in layer {
            nb.clear();
            let may = movable.is_none_or(|m| m.get(it).copied().unwrap_or(false));
            if may && (dummies || matches!(g.kind[it], Kind::Real(_))) {
                if !matches!(side, Side::Below) {
                    nb.extend(g.up[it].iter().map(|&w| s.x[w]));
                }
                if !matches!(side, Side::Above) {
                    nb.extend(g.down[it].iter().map(|&w| s.x[w]));
                }
            }
            targets.push(median(&mut nb));
        }
        for p in (0..layer.len()).rev() {
            let it = layer[p];
            if let Some(t) = targets[p]
                && t > s.x[it] + 1e-9
            {
                let nx = t.min(s.hi(it));
                if nx > s.x[it] {
                    s.push_right(it, nx);
                }
            }
        }
        for p in 0..layer.len() {
            let it = layer[p];
            if let Some(t) = targets[p]
                && t < s.x[it] - 1e-9
            {
                let nx = t.max(s.lo(it));
                if nx < s.x[it] {
                    s.push_left(it, nx);
                }
            }
        }
    }
}

/// Moves the dummy points of each long edge (longest first) to one common position (the median
/// of the chain's points and ends), shoving aside whatever is in the way, except points of
/// chains already straightened: the priority method, with long edges first. A chain whose move
/// would disturb a straightened one, or take more than its share of work, keeps its bends.
fn straighten(s: &mut Solver, g: &LayeredGraph) {
    let mut chains: Vec<usize> = (0..g.chains.len())
        .filter(|&e| g.chains[e].len() >= 4)
        .collect();
    chains.sort_by_key(|&e| (std::cmp::Reverse(g.chains[e].len()), e));
    let vars = s.x.len();
    let mut locked = vec![false; vars];
    let mut mine = vec![false; vars];
    let mut log: Vec<(usize, f64)> = Vec::new();
    let mut cand: Vec<f64> = Vec::new();
    // Work bounds for shoving: per chain (local nudges only: larger shoves were measured to
    // widen drawings by up to 40% for no more straight edges), and for the whole pass.
    let per_chain = 48;
    let mut total = 20_000 + 2 * vars;
    for e in chains {
        let chain = &g.chains[e];
        let dummies = &chain[1..chain.len() - 1];
        cand.clear();
        cand.extend(chain.iter().map(|&d| s.x[d]));
        let Some(t) = median(&mut cand) else { continue };
        // First choice: a common position every point reaches without disturbing anything.
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        for &d in dummies {
            lo = lo.max(s.lo(d));
            hi = hi.min(s.hi(d));
        }
        if lo <= hi {
            let t = t.clamp(lo, hi);
            for &d in dummies {
                // Borders pushed by earlier points of the chain may have moved: clamp again.
                let nx = t.clamp(s.lo(d), s.hi(d));
                if nx > s.x[d] {
                    s.push_right(d, nx);
                } else if nx < s.x[d] {
                    s.push_left(d, nx);
                }
                locked[d] = true;
            }
            continue;
        }
        if total == 0 {
            continue;
        }
        for &d in dummies {
            mine[d] = true;
        }
        log.clear();
        let mut ok = true;
        for &d in dummies {
            ok = if t > s.x[d] {
                s.shove(d, t, true, &locked, &mine, &mut log, per_chain.min(total))
            } else {
                s.shove(d, t, false, &locked, &mine, &mut log, per_chain.min(total))
            };
            if !ok {
                break;
            }
        }
        total = total.saturating_sub(log.len());
        if ok {
            for &d in dummies {
                locked[d] = true;
            }
        } else {
            for &(v, old) in log.iter().rev() {
                s.x[v] = old;
            }
        }
        for &d in dummies {
            mine[d] = false;
        }
    }
}

pub(crate) fn place(
    input: &Input,
    edges: &[(usize, usize)],
    ranked: &Ranked,
    g: &LayeredGraph,
    cl: &Clusters,
    opts: &LayoutOptions,
    near: Option<Near>,
) -> Layout {
    let n = input.nodes.len();
    let items = g.kind.len();
    let mut x = match &near {
        Some(near) => assign_near(g, cl, opts, near),
        None => assign_breadth(g, cl, opts),
    };
    let layers = g.layers.len();
    let pad = opts.cluster_pad;
    let title_d = match opts.direction {
        Direction::TopToBottom => opts.cluster_title,
        Direction::LeftToRight => 0.0,
    };

    // Shift the breadth axis so the drawing starts at the margin.
    let mut min_b = f64::INFINITY;
    for (xi, b) in x.iter().zip(&g.breadth) {
        min_b = min_b.min(xi - b / 2.0);
    }
    for c in 1..cl.len() {
        if g.span[c].is_some() {
            min_b = min_b.min(x[left_var(items, c)]);
        }
    }
    // Near a previous layout, the drawing moves only when something now starts left of the
    // margin (room left by a removed vertex stays, rather than everything shifting into it).
    if near.is_some() {
        min_b = min_b.min(opts.margin);
    }
    if min_b.is_finite() {
        for v in x.iter_mut() {
            *v += opts.margin - min_b;
        }
    }

    // Layer bands along the flow axis, with room for nested cluster margins and titles.
    let mut band = vec![0.0f64; layers];
    for v in 0..n {
        band[g.layer[v]] = band[g.layer[v]].max(g.depth[v]);
    }
    let mut ext_top = vec![0.0f64; cl.len()];
    let mut ext_bottom = vec![0.0f64; cl.len()];
    for c in (1..cl.len()).rev() {
        ext_top[c] = ext_top[c].max(pad + title_d);
        ext_bottom[c] = ext_bottom[c].max(pad);
        let p = cl.parent[c];
        if p != 0
            && let (Some(sc), Some(sp)) = (g.span[c], g.span[p])
        {
            if sc.0 == sp.0 {
                ext_top[p] = ext_top[p].max(ext_top[c] + pad + title_d);
            }
            if sc.1 == sp.1 {
                ext_bottom[p] = ext_bottom[p].max(ext_bottom[c] + pad);
            }
        }
    }
    let mut stack_top = vec![0.0f64; layers];
    let mut stack_bottom = vec![0.0f64; layers];
    for c in 1..cl.len() {
        if let Some((a, b)) = g.span[c] {
            stack_top[a] = stack_top[a].max(ext_top[c]);
            stack_bottom[b] = stack_bottom[b].max(ext_bottom[c]);
        }
    }
    let mut band_top = vec![0.0f64; layers];
    for r in 0..layers {
        band_top[r] = if r == 0 {
            opts.margin + stack_top[0]
        } else {
            let gap = opts
                .rank_sep
                .max(stack_bottom[r - 1] + stack_top[r] + opts.rank_sep * 0.5);
            band_top[r - 1] + band[r - 1] + gap
        };
    }
    let centre = |r: usize| band_top[r] + band[r] / 2.0;

    let map = |b: f64, d: f64| match opts.direction {
        Direction::TopToBottom => (b, d),
        Direction::LeftToRight => (d, b),
    };
    let size = |it: usize| match opts.direction {
        Direction::TopToBottom => (g.breadth[it], g.depth[it]),
        Direction::LeftToRight => (g.depth[it], g.breadth[it]),
    };

    let nodes: Vec<NodeBox> = (0..n)
        .map(|v| {
            let (cx, cy) = map(x[v], centre(g.layer[v]));
            let (w, h) = size(v);
            NodeBox {
                id: input.nodes[v].id,
                name: input.nodes[v].name.clone(),
                x: cx - w / 2.0,
                y: cy - h / 2.0,
                w,
                h,
                layer: g.layer[v],
                order: g.pos[v],
            }
        })
        .collect();

    // Ports: spread the edges leaving (entering) a vertex along its border, in the order of
    // their next (previous) points.
    let mut out_ports: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    let mut in_ports: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (e, chain) in g.chains.iter().enumerate() {
        if chain.len() >= 2 {
            out_ports[chain[0]].push((g.pos[chain[1]], e));
            in_ports[chain[chain.len() - 1]].push((g.pos[chain[chain.len() - 2]], e));
        }
    }
    let mut out_off = vec![0.0f64; g.chains.len()];
    let mut in_off = vec![0.0f64; g.chains.len()];
    for (ports, off) in [(&mut out_ports, &mut out_off), (&mut in_ports, &mut in_off)] {
        for (v, list) in ports.iter_mut().enumerate() {
            list.sort_unstable();
            let k = list.len();
            if k < 2 {
                continue;
            }
            let step = (g.breadth[v] * 0.6 / (k - 1) as f64).min(10.0);
            for (i, &(_, e)) in list.iter().enumerate() {
                off[e] = (i as f64 - (k - 1) as f64 / 2.0) * step;
            }
        }
    }

    if let Some(near) = &near {
        for (e, p) in near.ports.iter().enumerate().take(g.chains.len()) {
            if let Some((o, i)) = *p
                && o.is_finite()
                && i.is_finite()
            {
                out_off[e] = o;
                in_off[e] = i;
            }
        }
    }

    let mut routed = Vec::with_capacity(edges.len());
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (from, to) = (input.nodes[a].id, input.nodes[b].id);
        let Some((u, l, reversed)) = ranked.edges.get(e).copied().flatten() else {
            // Self-loop: a small loop beside the vertex.
            let c = centre(g.layer[a]);
            let side = x[a] + g.breadth[a] / 2.0;
            let q = (g.depth[a] / 4.0).max(3.0);
            let pts = [
                (side, c - q),
                (side + 14.0, c - q),
                (side + 14.0, c + q),
                (side, c + q),
            ];
            routed.push(RoutedEdge {
                from,
                to,
                points: pts.iter().map(|&(pb, pd)| map(pb, pd)).collect(),
                reversed: false,
            });
            continue;
        };
        let chain = &g.chains[e];
        let mut pts = Vec::with_capacity(2 * chain.len());
        pts.push(map(
            x[u] + out_off[e],
            centre(g.layer[u]) + g.depth[u] / 2.0,
        ));
        for &d in &chain[1..chain.len() - 1] {
            let r = g.layer[d];
            pts.push(map(x[d], band_top[r]));
            if band[r] > 0.0 {
                pts.push(map(x[d], band_top[r] + band[r]));
            }
        }
        pts.push(map(x[l] + in_off[e], centre(g.layer[l]) - g.depth[l] / 2.0));
        if reversed {
            pts.reverse();
        }
        routed.push(RoutedEdge {
            from,
            to,
            points: pts,
            reversed,
        });
    }

    let mut clusters = Vec::new();
    for c in 1..cl.len() {
        let Some((a, b)) = g.span[c] else { continue };
        let (l, r) = (x[left_var(items, c)], x[right_var(items, c)]);
        let top = band_top[a] - ext_top[c];
        let bottom = band_top[b] + band[b] + ext_bottom[c];
        let (bx, by) = map(l, top);
        let (w, h) = match opts.direction {
            Direction::TopToBottom => (r - l, bottom - top),
            Direction::LeftToRight => (bottom - top, r - l),
        };
        clusters.push(ClusterBox {
            path: cl.paths[c].clone(),
            x: bx,
            y: by,
            w,
            h,
        });
    }

    let mut width: f64 = 0.0;
    let mut height: f64 = 0.0;
    for nb in &nodes {
        width = width.max(nb.x + nb.w);
        height = height.max(nb.y + nb.h);
    }
    for c in &clusters {
        width = width.max(c.x + c.w);
        height = height.max(c.y + c.h);
    }
    for e in &routed {
        for p in &e.points {
            width = width.max(p.0);
            height = height.max(p.1);
        }
    }
    Layout {
        direction: opts.direction,
        nodes,
        edges: routed,
        clusters,
        width: width + opts.margin,
        height: height + opts.margin,
        layer_centres: (0..layers).map(centre).collect(),
        borders: g.border,
    }
}

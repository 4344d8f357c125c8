//! Views of the shown graph, applied before layout: transitive reduction off (the edges the
//! engine's reduction removed come back, drawn dashed), resources only (resources and data sources,
//! with edges for the paths between them through hidden vertices, reduced) and collapsed modules
//! (one vertex per collapsed module, its edges merged). Also the light/dark theme switch.
//!
//! Hidden vertices keep their index in [`Shown::graph`], so everything indexed by vertex (the
//! walk's states, the critical path, cycle marks) stays valid; collapsed modules are appended.

use super::*;
use crate::builder::Step;
use crate::dag;

/// The view settings (signals), grouped in one `Ctx` field.
#[derive(Clone, Copy)]
pub struct GraphView {
    /// Transitive reduction on (the default, as `tofu graph` prints): removed edges hidden.
    pub reduce: RwSignal<bool>,
    pub resources_only: RwSignal<bool>,
    /// Collapsed module paths (`module.a.module.b`), kept while the graph changes.
    pub collapsed: RwSignal<BTreeSet<String>>,
}

/// A plain copy of the settings, for the `shown` memo.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ViewOpts {
    pub reduce: bool,
    pub resources_only: bool,
    pub collapsed: BTreeSet<String>,
}

impl GraphView {
    pub fn new() -> GraphView {
        GraphView {
            reduce: RwSignal::new(true),
            resources_only: RwSignal::new(false),
            collapsed: RwSignal::new(BTreeSet::new()),
        }
    }

    pub fn opts(self) -> ViewOpts {
        ViewOpts {
            reduce: self.reduce.get(),
            resources_only: self.resources_only.get(),
            collapsed: self.collapsed.get(),
        }
    }

    pub fn toggle_module(self, path: &str) {
        self.collapsed.update(|c| {
            if !c.remove(path) {
                c.insert(path.to_string());
            }
        });
    }
}

/// The edges the engine's transitive reduction removed (as the builder recorded them) that join
/// two vertices of the final graph and are not edges of it.
pub fn reduced_edges(steps: &[Step], g: &GraphData) -> BTreeSet<(usize, usize)> {
    let index: BTreeMap<&str, usize> = g
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let have: BTreeSet<(usize, usize)> = g.edges.iter().copied().collect();
    steps
        .iter()
        .filter(|s| s.name == "TransitiveReductionTransformer")
        .flat_map(|s| s.removed_edges.iter())
        .filter_map(|(a, b)| Some((*index.get(a.as_str())?, *index.get(b.as_str())?)))
        .filter(|e| !have.contains(e))
        .collect()
}

/// Edges as vertex index pairs.
pub type EdgeSet = BTreeSet<(usize, usize)>;

/// Kinds the resource-only view keeps.
pub fn is_resource(name: &str) -> bool {
    matches!(
        model::classify(name),
        Kind::Resource | Kind::Data | Kind::Destroy
    )
}

/// Edges between kept vertices: `u -> w` when a path leads from `u` to `w` through vertices that
/// are not kept, then transitively reduced by the engine. Returns (kept edges, edges the
/// reduction removed). Stopping at kept vertices gives the same reachability between them as
/// following every path (the rest follows by transitivity) with far fewer edges; this walk is
/// not one of the engine's (it stops at a set of vertices), the reduction is.
pub fn derived_edges(g: &GraphData, keep: &[bool]) -> (EdgeSet, EdgeSet) {
    let mut deps: Vec<Vec<usize>> = vec![Vec::new(); g.names.len()];
    for &(a, b) in &g.edges {
        if a < deps.len() {
            deps[a].push(b);
        }
    }
    let mut all = BTreeSet::new();
    for u in (0..g.names.len()).filter(|&u| keep[u]) {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<usize> = deps[u].clone();
        while let Some(w) = stack.pop() {
            if !seen.insert(w) {
                continue;
            }
            if keep.get(w).copied().unwrap_or(false) {
                if w != u {
                    all.insert((u, w));
                }
            } else {
                stack.extend(deps.get(w).into_iter().flatten().copied());
            }
        }
    }
    let mut dg: dag::Graph<String> = dag::Graph::new();
    let ids: Vec<dag::VertexId> = g.names.iter().map(|n| dg.add(n.clone())).collect();
    let back: BTreeMap<dag::VertexId, usize> =
        ids.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    for &(a, b) in &all {
        dg.connect(ids[a], ids[b]);
    }
    dg.transitive_reduction();
    let kept: BTreeSet<(usize, usize)> = dg
        .edges()
        .into_iter()
        .filter_map(|(a, b)| Some((*back.get(&a)?, *back.get(&b)?)))
        .collect();
    let removed = all.difference(&kept).copied().collect();
    (kept, removed)
}

/// Applies the view settings to the shown graph (`steps`: the builder's, for the reduction).
pub fn apply(mut s: Shown, steps: &[Step], o: &ViewOpts) -> Shown {
    let n = s.graph.names.len();
    // The final graph only: a replayed step shows its own edges.
    let mut removed = BTreeSet::new();
    if s.replay.is_none() {
        removed = reduced_edges(steps, &s.graph);
        s.reduced = removed.len();
    }
    let mut dashed = if o.reduce {
        BTreeSet::new()
    } else {
        removed.clone()
    };
    let mut edges: Vec<(usize, usize)> = s.graph.edges.clone();
    if o.resources_only {
        let keep: Vec<bool> = s.graph.names.iter().map(|n| is_resource(n)).collect();
        // From the graph before the engine's reduction, so the view's own reduction has the
        // same edges to remove whether they are shown or not.
        let unreduced = GraphData {
            names: s.graph.names.clone(),
            edges: edges.iter().chain(removed.iter()).copied().collect(),
        };
        let (kept, removed) = derived_edges(&unreduced, &keep);
        s.reduced = removed.len();
        edges = kept.into_iter().collect();
        dashed = if o.reduce { BTreeSet::new() } else { removed };
        s.hidden = (0..n).filter(|&i| !keep[i]).collect();
    }
    // Collapsed modules: each visible vertex inside one goes to the outermost collapsed module.
    let mut rep: Vec<usize> = (0..n).collect();
    if !o.collapsed.is_empty() {
        let mut members: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, name) in s.graph.names.iter().enumerate() {
            if s.hidden.contains(&i) {
                continue;
            }
            let path = model::cluster_of(name);
            if let Some(p) = (1..=path.len())
                .map(|k| path[..k].join("."))
                .find(|p| o.collapsed.contains(p))
            {
                members.entry(p).or_default().push(i);
            }
        }
        for (path, ms) in members {
            let v = s.graph.names.len();
            s.graph.names.push(model::collapsed_name(&path, ms.len()));
            for &m in &ms {
                rep[m] = v;
                s.hidden.insert(m);
            }
            s.collapsed.insert(v, (path, ms));
            rep.push(v);
        }
    }
    let mut seen = BTreeSet::new();
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
    s.graph.edges = out;
    s.dashed = shown_dashed;
    s
}

/// The last layout: its input graph and the scene.
pub type SceneCache = StoredValue<Option<(GraphData, Scene)>>;

/// Lays out the visible part of `s` without its dashed edges (indexes in the scene are
/// `s.graph`'s), so showing or hiding the reduction's edges moves nothing; they are drawn by
/// [`dashed_paths`]. When the input is the same as last time the last scene is reused.
pub fn scene(s: &Shown, hint: Option<BTreeMap<String, f64>>, cache: SceneCache) -> Scene {
    let visible: Vec<usize> = (0..s.graph.names.len())
        .filter(|i| !s.hidden.contains(i))
        .collect();
    let local: BTreeMap<usize, usize> = visible.iter().enumerate().map(|(k, i)| (*i, k)).collect();
    let g = GraphData {
        names: visible.iter().map(|&i| s.graph.names[i].clone()).collect(),
        edges: s
            .graph
            .edges
            .iter()
            .filter(|e| !s.dashed.contains(e))
            .filter_map(|(a, b)| Some((*local.get(a)?, *local.get(b)?)))
            .collect(),
    };
    let same = cache.with_value(|c| match c {
        Some((last, sc)) if *last == g => Some(sc.clone()),
        _ => None,
    });
    let mut sc = match same {
        Some(sc) => return sc,
        None => model::scene(&g, hint),
    };
    for n in &mut sc.nodes {
        n.index = visible[n.index];
    }
    for e in &mut sc.edges {
        e.from = visible[e.from];
        e.to = visible[e.to];
    }
    cache.set_value(Some((g, sc.clone())));
    sc
}

/// Paths for the dashed edges, from the dependency's bottom to the dependent's top (they are
/// not routed by the layout): `(dependent, dependency, path data)`.
pub fn dashed_paths(s: &Shown, sc: &Scene) -> Vec<(usize, usize, String)> {
    let at: BTreeMap<usize, &model::SNode> = sc.nodes.iter().map(|n| (n.index, n)).collect();
    s.dashed
        .iter()
        .filter_map(|&(dependent, dependency)| {
            let (a, b) = (at.get(&dependency)?, at.get(&dependent)?);
            let from = (a.x + a.w / 2.0, a.y + a.h);
            let to = (b.x + b.w / 2.0, b.y);
            Some((dependent, dependency, model::path_data(&[from, to])))
        })
        .collect()
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

const THEME_KEY: &str = "tfgraph.theme";

/// Sets `data-theme` on the page (`light`, `dark`, or none to follow the system).
fn set_theme(t: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = if t == "auto" {
            el.remove_attribute("data-theme")
        } else {
            el.set_attribute("data-theme", t)
        };
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// Auto (the system's prefers-color-scheme), light or dark; remembered on this device.
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let saved = local_storage()
        .and_then(|s| s.get_item(THEME_KEY).ok().flatten())
        .filter(|t| t == "light" || t == "dark")
        .unwrap_or_else(|| "auto".to_string());
    let theme = RwSignal::new(saved);
    Effect::new(move |_| {
        let t = theme.get();
        set_theme(&t);
        if let Some(s) = local_storage() {
            let _ = s.set_item(THEME_KEY, &t);
        }
    });
    view! {
        <label class="theme-toggle" title="Colour theme (auto follows the system)">
            <span class="sr-only">"Theme"</span>
            <select
                id="theme"
                prop:value=move || theme.get()
                on:change=move |ev| theme.set(event_target_value(&ev))
            >
                <option value="auto">"Auto theme"</option>
                <option value="light">"Light"</option>
                <option value="dark">"Dark"</option>
            </select>
        </label>
    }
}

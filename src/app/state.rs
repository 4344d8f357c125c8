//! The app's per-concern state that the context's concerns ([`super::ctx`]) hold: which mode, pane and
//! side tab are shown, the walk's per-vertex cells and rows ([`WalkUi`]), the algorithm
//! overlays' signals ([`Overlays`]) and Learn mode's ([`LearnUi`]). The graph views' settings are `view.rs`'s [`super::view::GraphView`].
//!
//! Invariant: state only, no views; nothing here uses the context.

use crate::page::overlay::{OverlayData, OverlayKind, compute};
use crate::page::view::Shown;
use crate::page::walk::{GCell, GRow, VCell};
use leptos::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Inspect,
    Walk,
}

/// The pane a phone shows (at most 760 px wide the panes switch by tabs instead of standing
/// side by side; wider screens show all three and ignore this).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pane {
    Graph,
    Code,
    Panels,
}

impl Pane {
    pub(super) fn title(self) -> &'static str {
        match self {
            Pane::Graph => "The graph and the walk",
            Pane::Code => "The files, the targets and the diagnostics",
            Pane::Panels => "Vertex details, build steps, examples, lessons and export",
        }
    }

    pub(super) fn css(self) -> &'static str {
        match self {
            Pane::Graph => "graph",
            Pane::Code => "code",
            Pane::Panels => "panels",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tab {
    Details,
    Steps,
    Examples,
    Learn,
    Export,
}

/// Learn mode's state ([`crate::page::lessons`]): the progress (saved under its own key), the
/// open lesson, the verdict on the last answer, the vertices the lesson points at.
#[derive(Clone, Copy)]
pub struct LearnUi {
    pub(super) progress: RwSignal<crate::page::lessons::Progress>,
    /// The open lesson's index in `LESSONS`; `None` shows the list.
    pub(super) open: RwSignal<Option<usize>>,
    pub(super) verdict: RwSignal<Option<crate::page::lessons::Verdict>>,
    pub(super) highlight: RwSignal<std::collections::BTreeSet<String>>,
    /// The lesson whose build step and walk were set up on its graph last.
    pub(super) staged: StoredValue<Option<usize>>,
}

impl LearnUi {
    pub(super) fn new(progress: crate::page::lessons::Progress) -> LearnUi {
        let open = progress
            .current
            .as_deref()
            .and_then(crate::page::lessons::index_of);
        LearnUi {
            progress: RwSignal::new(progress),
            open: RwSignal::new(open),
            verdict: RwSignal::new(None),
            highlight: RwSignal::new(Default::default()),
            staged: StoredValue::new(None),
        }
    }
}

/// The walk's view state that is not one signal per frame: a cell per vertex and per Gantt row
/// (set only when that vertex or row changes), the hovered vertex, and the user's durations.
#[derive(Clone, Copy)]
pub struct WalkUi {
    pub(super) cells: StoredValue<Vec<ArcRwSignal<VCell>>>,
    /// Bumped when `cells` is replaced (a collapsed module reads its members' cells again).
    pub cells_version: RwSignal<u64>,
    pub(super) rows: RwSignal<Vec<GRowView>>,
    pub(super) row_cells: StoredValue<BTreeMap<u32, ArcRwSignal<GCell>>>,
    /// The Gantt's time axis (seconds): the walk's makespan, known at its start.
    pub(super) axis: RwSignal<f64>,
    /// The vertex under the pointer, in the graph or the Gantt.
    pub hover: RwSignal<Option<usize>>,
    /// Durations set by the user (seconds), by vertex name.
    pub durations: RwSignal<BTreeMap<String, f64>>,
    /// Whether the hover came from the graph (then the Gantt scrolls to the vertex's row).
    pub hover_from_graph: StoredValue<bool>,
    pub gantt: NodeRef<leptos::html::Div>,
    pub(super) chart: ChartCache,
}

#[derive(Clone)]
pub(super) struct GRowView {
    pub(super) row: GRow,
    pub(super) cell: ArcRwSignal<GCell>,
}

impl WalkUi {
    pub fn new() -> WalkUi {
        WalkUi {
            cells: StoredValue::new(Vec::new()),
            cells_version: RwSignal::new(0),
            rows: RwSignal::new(Vec::new()),
            row_cells: StoredValue::new(BTreeMap::new()),
            axis: RwSignal::new(1.0),
            hover: RwSignal::new(None),
            durations: RwSignal::new(BTreeMap::new()),
            hover_from_graph: StoredValue::new(false),
            gantt: NodeRef::new(),
            chart: StoredValue::new_local((None, BTreeMap::new())),
        }
    }

    /// The drawn vertices' cells by index in the shown graph (the graph view sets them when it
    /// draws; each drawn vertex keeps its own cell while its name is drawn).
    pub fn set_cells(self, cells: Vec<ArcRwSignal<VCell>>) {
        self.cells.set_value(cells);
        self.cells_version.update(|v| *v += 1);
    }

    /// The cells of vertices `ms` (a collapsed module's members).
    pub fn cells_of(self, ms: &[usize]) -> Vec<ArcRwSignal<VCell>> {
        self.cells
            .with_value(|c| ms.iter().filter_map(|m| c.get(*m).cloned()).collect())
    }

    pub(super) fn clear(self) {
        self.cells.with_value(|cells| {
            for c in cells {
                if c.get_untracked() != VCell::default() {
                    c.set(VCell::default());
                }
            }
        });
        self.rows.set(Vec::new());
        self.row_cells.set_value(BTreeMap::new());
    }
}

/// What the makespan chart's walks depend on: the walk's epoch (the graph, its expansions and
/// steps, [`crate::page::walk::WalkEpoch`]) and the durations set.
pub(super) type ChartKey = (u64, BTreeMap<String, f64>);
/// Makespans by -parallelism for one [`ChartKey`].
pub(super) type ChartCache = StoredValue<(Option<ChartKey>, BTreeMap<usize, f64>), LocalStorage>;

/// The overlay's signals, grouped in one `Ctx` field.
#[derive(Clone, Copy)]
pub struct Overlays {
    pub kind: RwSignal<OverlayKind>,
    /// DFS/BFS: how many vertices are visited so far.
    pub step: RwSignal<usize>,
    pub playing: RwSignal<bool>,
    pub data: Memo<OverlayData>,
}

impl Overlays {
    pub fn new(shown: Memo<Shown>, selected: RwSignal<Option<String>>) -> Overlays {
        let kind = RwSignal::new(OverlayKind::None);
        let data = Memo::new(move |_| {
            let k = kind.get();
            if k == OverlayKind::None {
                return OverlayData::default();
            }
            let sel = if matches!(k, OverlayKind::Dfs | OverlayKind::Bfs) {
                selected.get()
            } else {
                None
            };
            shown.with(|s| compute(s, k, sel.as_deref()))
        });
        Overlays {
            kind,
            step: RwSignal::new(0),
            playing: RwSignal::new(false),
            data,
        }
    }
}

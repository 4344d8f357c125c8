//! The web app (Leptos 0.8, client-side rendering), mounted by Trunk from `src/bin/tfgraph-web.rs`.
//!
//! Layout: a header; the editor (files, block outline, diagnostics) on the left; the graph in the
//! middle (SVG drawn from [`crate::page::scene::Scene`], pan/zoom, legend); a side panel with the selected
//! vertex, the builder's steps and the examples; the walk controls at the bottom. Every view reads
//! engine results; user text is only ever set as text, attribute or form values, never as HTML.

mod crash;
mod editor;
mod files;
mod gantt;
mod graph;
mod overlay;
mod side;
mod storage;
mod view;
mod walk;

use crate::builder::BuilderKind;
use crate::outline::outline;
use crate::page::analysis::{self as model, Analysis};
use crate::page::examples::{EXAMPLES, Example};
use crate::page::graph::{Kind, PageGraph};
use crate::page::notices::{self, Notice};
use crate::page::scene::{SNode, Scene};
use crate::page::view::{Related, Shown};
use crate::page::walk::{self as walkrt, VState, WalkRt, WalkView};
use crate::page::{explain, highlight};
use leptos::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use editor::*;
use graph::*;
use side::*;
use walk::*;

/// How long typing must pause before the graph is rebuilt.
const DEBOUNCE: Duration = Duration::from_millis(250);

/// Mounts the app on the page body. Called by the `tfgraph-web` binary.
pub fn start() {
    crash::install();
    // index.html's first view, painted while the wasm loaded.
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
    leptos::mount::mount_to_body(App);
    crash::debug_trigger();
    storage::register_service_worker();
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Inspect,
    Walk,
}

/// The pane a phone shows (at most 760 px wide the panes switch by tabs instead of standing
/// side by side; wider screens show all three and ignore this).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pane {
    Graph,
    Code,
    Panels,
}

impl Pane {
    fn title(self) -> &'static str {
        match self {
            Pane::Graph => "The graph and the walk",
            Pane::Code => "The files, the targets and the diagnostics",
            Pane::Panels => "Vertex details, build steps, examples and export",
        }
    }

    fn css(self) -> &'static str {
        match self {
            Pane::Graph => "graph",
            Pane::Code => "code",
            Pane::Panels => "panels",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Details,
    Steps,
    Examples,
    Export,
}

/// Every signal the views share (all `Copy` handles).
#[derive(Clone, Copy)]
struct Ctx {
    files: RwSignal<BTreeMap<String, String>>,
    active: RwSignal<String>,
    analyzed: RwSignal<BTreeMap<String, String>>,
    kind: RwSignal<BuilderKind>,
    /// The latest finished analysis; large inputs are analysed in slices (see [`Ctx::reanalyze`]).
    analysis: RwSignal<Analysis>,
    /// Where a sliced analysis is (for the progress bar); `None` when idle.
    progress: RwSignal<Option<model::Progress>>,
    /// Bumped by every new analysis, so a sliced one that was overtaken stops.
    generation: StoredValue<u64>,
    /// The `generation` whose analysis is shown (equal to it once the latest request is built).
    built: RwSignal<u64>,
    /// Reads of opened or dropped files under way.
    reading: RwSignal<u32>,
    /// The last analysis with a graph, of the files as they were replaced last (an edit keeps
    /// showing the last graph that built; another configuration never does).
    good: Memo<Option<Analysis>>,
    /// Bumped whenever the files are replaced as a whole (an example, opened files or a folder,
    /// a share link, a restore), and the number the shown analysis was started under.
    workspace: StoredValue<u64>,
    analysis_workspace: StoredValue<u64>,
    step: RwSignal<Option<usize>>,
    shown: Memo<Shown>,
    scene: Memo<Scene>,
    selected: RwSignal<Option<String>>,
    /// The vertex with the keyboard focus, the drawn vertices in the arrow keys' order, and the
    /// one vertex Tab reaches (`page::keys`).
    focused: RwSignal<Option<String>>,
    key_order: Memo<Vec<String>>,
    tab_stop: Memo<Option<String>>,
    /// Whether a walk has started: its own memo, so what depends only on that (each vertex's
    /// spoken label) is not run again at every walk frame.
    walking: Memo<bool>,
    related: Memo<Related>,
    mode: RwSignal<Mode>,
    tab: RwSignal<Tab>,
    /// The pane shown on a phone.
    pane: RwSignal<Pane>,
    xf: RwSignal<(f64, f64, f64)>,
    canvas: NodeRef<leptos::html::Div>,
    dragged: StoredValue<bool>,
    rt: StoredValue<Option<WalkRt>, LocalStorage>,
    walk_view: RwSignal<WalkView>,
    playing: RwSignal<bool>,
    speed: RwSignal<f64>,
    parallelism: RwSignal<u32>,
    failures: RwSignal<BTreeSet<String>>,
    search: RwSignal<String>,
    /// A place to show in the editor: (file, line, column, length of the text to select), set
    /// by a click on a reference in the details panel.
    goto: RwSignal<Option<(String, usize, usize, usize)>>,
    /// The walk's critical path (vertex indexes): its own memo, so walk frames that do not
    /// change it do not touch every edge.
    critical: Memo<BTreeSet<usize>>,
    /// Messages for the user (see [`Notice`]), and whether autosave may write.
    notices: RwSignal<Vec<Notice>>,
    save_ok: StoredValue<bool>,
    /// Another tab saved over the revision this tab knew: this tab's edits go to a kept-aside
    /// copy instead of the workspace until it is reloaded.
    conflicted: StoredValue<bool>,
    /// Per-vertex walk cells, Gantt rows, hover, durations (walk.rs).
    walk_ui: walk::WalkUi,
    /// The root module's folder among the files (`""`: the top folder).
    root: RwSignal<String>,
    /// `-target` and `-exclude` addresses as typed.
    targets: RwSignal<String>,
    excludes: RwSignal<String>,
    /// Graph views (reduction, resources only, collapsed modules) and algorithm overlays.
    gv: view::GraphView,
    ov: overlay::Overlays,
}

fn example_files(e: &Example) -> BTreeMap<String, String> {
    crate::page::examples::files_of(e)
}

/// How the notice that the files are not being saved starts.
const NOT_SAVED: &str = "Your edits are not being saved:";

/// Runs `f` between two performance marks and records a `tfgraph-<name>` measure, so the
/// browser's performance timeline (and the e2e timing test) shows where an update's time goes.
fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let perf = web_sys::window().and_then(|w| w.performance());
    let (start, end) = (
        format!("tfgraph-{name}-start"),
        format!("tfgraph-{name}-end"),
    );
    if let Some(p) = &perf {
        let _ = p.mark(&start);
    }
    let out = f();
    if let Some(p) = &perf {
        let _ = p.mark(&end);
        let _ = p.measure_with_start_mark_and_end_mark(&format!("tfgraph-{name}"), &start, &end);
    }
    out
}

/// Resolves on a new browser task (a zero timeout), letting the page paint and handle input.
async fn yield_to_browser() {
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    set_timeout(
        move || {
            let _ = tx.send(());
        },
        Duration::ZERO,
    );
    let _ = rx.await;
}

fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl Ctx {
    fn new() -> Ctx {
        let restored = storage::restore();
        let mut notices = Vec::new();
        if let Some(n) = restored.notice {
            notices::push(
                &mut notices,
                n.message,
                n.aside.map(|(key, text)| (format!("{key}.json"), text)),
                false,
                false,
                |_| false,
            );
        }
        let start = restored
            .files
            .filter(|f| !f.is_empty())
            .unwrap_or_else(|| example_files(&EXAMPLES[0]));
        let root = storage::load_root()
            .filter(|r| crate::page::files::root_candidates(start.keys()).contains(r))
            .unwrap_or_else(|| crate::page::files::default_root(start.keys()));
        let first =
            crate::page::files::first_file(&start, &root).unwrap_or_else(|| "main.tf".into());
        let files = RwSignal::new(start.clone());
        let analyzed = RwSignal::new(start);
        let kind = RwSignal::new(BuilderKind::Plan);
        let analysis = RwSignal::new(Analysis::default());
        let workspace = StoredValue::new(0u64);
        let analysis_workspace = StoredValue::new(0u64);
        let good_workspace = StoredValue::new(0u64);
        let good = Memo::new(move |prev: Option<&Option<Analysis>>| {
            let a = analysis.get();
            let ws = analysis_workspace.get_value();
            if a.graph.is_some() {
                good_workspace.set_value(ws);
                Some(a)
            } else if good_workspace.get_value() == ws {
                prev.cloned().flatten()
            } else {
                None
            }
        });
        let step = RwSignal::new(None::<usize>);
        let gv = view::GraphView::new();
        let shown = Memo::new(move |_| {
            let opts = gv.opts();
            let step = step.get();
            good.with(|g| match g {
                Some(a) => crate::page::view::shown(a, step, &opts),
                None => Shown::default(),
            })
        });
        let hint = StoredValue::new(None::<BTreeMap<String, f64>>);
        let layout_cache: view::SceneCache = StoredValue::new(None);
        // While a build step is chosen: every step's vertices and edges laid out once, so that
        // stepping moves nothing (`None` when too big: then each step is laid out alone).
        let stepping = Memo::new(move |_| step.get().is_some());
        let steps_layout = Memo::new(move |_| {
            if !stepping.get() {
                return None;
            }
            let opts = gv.opts();
            good.with(|g| {
                let a = g.as_ref()?;
                timed("steps-layout", || view::steps_layout(a, &opts))
            })
        });
        let scene = Memo::new(move |_| {
            shown.with(|s| {
                let at_step = s.replay.as_ref().and_then(|_| {
                    steps_layout.with(|all| all.as_ref().map(|all| view::at_step(all, s)))
                });
                let sc = at_step.unwrap_or_else(|| {
                    timed("layout", || view::scene(s, hint.get_value(), layout_cache))
                });
                hint.set_value(Some(sc.hint.clone()));
                sc
            })
        });
        let selected = RwSignal::new(None::<String>);
        let related = Memo::new(move |_| {
            let Some(name) = selected.get() else {
                return Related::default();
            };
            shown.with(|s| Related::of(&s.graph, &name))
        });
        let focused = RwSignal::new(None::<String>);
        let key_order = Memo::new(move |_| scene.with(crate::page::keys::order));
        let tab_stop = Memo::new(move |_| {
            key_order.with(|o| {
                focused.with(|f| {
                    selected.with(|s| {
                        crate::page::keys::tab_stop(o, f.as_deref(), s.as_deref()).map(String::from)
                    })
                })
            })
        });
        let walk_view = RwSignal::new(WalkView::default());
        let walking = Memo::new(move |_| walk_view.with(|v| v.started));
        let ov = overlay::Overlays::new(shown, selected);
        Ctx {
            files,
            active: RwSignal::new(first),
            analyzed,
            kind,
            analysis,
            progress: RwSignal::new(None),
            generation: StoredValue::new(0),
            built: RwSignal::new(0),
            reading: RwSignal::new(0),
            good,
            workspace,
            analysis_workspace,
            step,
            shown,
            scene,
            selected,
            focused,
            key_order,
            tab_stop,
            walking,
            related,
            mode: RwSignal::new(Mode::Inspect),
            tab: RwSignal::new(Tab::Details),
            pane: RwSignal::new(Pane::Graph),
            xf: RwSignal::new((0.0, 0.0, 1.0)),
            canvas: NodeRef::new(),
            dragged: StoredValue::new(false),
            rt: StoredValue::new_local(None),
            walk_view,
            playing: RwSignal::new(false),
            speed: RwSignal::new(4.0),
            parallelism: RwSignal::new(10),
            failures: RwSignal::new(BTreeSet::new()),
            search: RwSignal::new(String::new()),
            goto: RwSignal::new(None),
            critical: Memo::new(move |_| walk_view.with(|v| v.critical.clone())),
            gv,
            ov,
            notices: RwSignal::new(notices),
            save_ok: StoredValue::new(storage::can_save()),
            conflicted: StoredValue::new(false),
            walk_ui: walk::WalkUi::new(),
            root: RwSignal::new(root),
            targets: RwSignal::new(String::new()),
            excludes: RwSignal::new(String::new()),
        }
    }

    /// Analyses the files: small inputs at once; large ones in slices that give the browser back
    /// control between phases (one per transform) and report progress, so typing into a large
    /// configuration never freezes the page. A newer call stops an older sliced one.
    fn reanalyze(self, files: BTreeMap<String, String>, kind: BuilderKind, opts: model::Options) {
        self.generation.update_value(|g| *g += 1);
        let mine = self.generation.get_value();
        let ws = self.workspace.get_value();
        let size: usize = files.iter().map(|(p, t)| p.len() + t.len()).sum();
        if size < model::SLICE_FROM_BYTES {
            self.progress.set(None);
            let a = timed("analysis", || model::analyze(&files, kind, &opts));
            self.analysis_workspace.set_value(ws);
            self.analysis.set(a);
            self.built.set(mine);
            return;
        }
        let live = move || self.generation.try_get_value() == Some(mine);
        leptos::task::spawn_local(async move {
            let pause = move |p: model::Progress| async move {
                if !live() {
                    return false;
                }
                self.progress.set(Some(p));
                yield_to_browser().await;
                live()
            };
            if let Some(a) = model::analyze_with(&files, kind, &opts, pause).await
                && live()
            {
                self.progress.set(Some(model::Progress {
                    label: "Laying out and drawing".into(),
                    done: 1,
                    total: 1,
                }));
                yield_to_browser().await;
                if live() {
                    self.analysis_workspace.set_value(ws);
                    self.analysis.set(a);
                    self.progress.set(None);
                    self.built.set(mine);
                }
            }
        });
    }

    /// Shows a notice (see `page::notices::push`).
    fn notify(self, text: String, download: Option<(String, String)>) {
        self.notices
            .update(|ns| _ = notices::push(ns, text, download, false, false, |_| false));
    }

    /// The targets and excludes as addresses.
    fn options(self) -> model::Options {
        model::Options {
            root: self.root.get(),
            targets: crate::page::files::address_list(&self.targets.get()),
            excludes: crate::page::files::address_list(&self.excludes.get()),
        }
    }

    /// Saves the files; a refusal is told once, not on every keystroke.
    fn autosave(self, files: &BTreeMap<String, String>) {
        if self.conflicted.get_value() {
            // Another tab's save overtook this tab's: its edits go on into its kept-aside copy.
            let kept = storage::keep_conflict_copy(files);
            crash::remember(files, kept.is_ok());
            return;
        }
        if !self.save_ok.get_value() {
            return;
        }
        let saved = storage::save_files(files);
        crash::remember(files, saved == Ok(storage::Saving::Saved));
        let is_not_saved = |n: &Notice| n.text.starts_with(NOT_SAVED);
        match saved {
            Ok(storage::Saving::Conflict) => {
                // Another tab saved since this one opened the work: writing would lose its
                // work, so this tab's files go aside and this tab stops saving.
                self.conflicted.set_value(true);
                let text = match storage::keep_conflict_copy(files) {
                    Ok(()) => "Another tab saved its work after this tab opened it. So that neither is lost, this tab no longer saves over it: this tab's files are kept aside as you edit. Reload to continue from the other tab's work; Restore then brings this tab's files back.".to_string(),
                    Err(e) => format!("Another tab saved its work after this tab opened it, and this tab's files could not be kept aside ({e}): download them before reloading."),
                };
                let download = Some((
                    "tfgraph-files.json".to_string(),
                    crate::saved::envelope(files),
                ));
                self.notices
                    .update(|ns| _ = notices::push(ns, text, download, true, false, |_| false));
            }
            Err(why) => {
                // The files stay in the page; the notice offers them as they are now (its
                // download follows every edit) and goes away once a save succeeds.
                let text = format!("{NOT_SAVED} {why}. Download your files to keep them.");
                let download = Some((
                    "tfgraph-files.json".to_string(),
                    crate::saved::envelope(files),
                ));
                // Replaced, under a new id: the notices are drawn keyed by id.
                self.notices
                    .update(|ns| _ = notices::push(ns, text, download, true, false, is_not_saved));
            }
            Ok(storage::Saving::Saved) => {
                if self
                    .notices
                    .with_untracked(|ns| ns.iter().any(is_not_saved))
                {
                    self.notices.update(|ns| ns.retain(|n| !is_not_saved(n)));
                    self.notify(
                        "Saving works again: your edits are saved in this browser.".to_string(),
                        None,
                    );
                }
            }
        }
    }

    /// Fits the drawing into the canvas.
    fn fit(self) {
        let (w, h) = self.scene.with_untracked(|s| (s.width, s.height));
        let (cw, ch) = self.canvas_size();
        let xf = crate::page::scene::fit(w, h, cw, ch);
        self.xf.set(xf);
        self.walk_ui.fitted.set_value(Some(xf));
    }

    /// The graph canvas's size in pixels (a default before it is laid out).
    fn canvas_size(self) -> (f64, f64) {
        self.canvas
            .get_untracked()
            .map(|el| (el.client_width() as f64, el.client_height() as f64))
            .filter(|(w, h)| *w > 0.0 && *h > 0.0)
            .unwrap_or((800.0, 600.0))
    }

    /// Selects the next (previous) drawn vertex matching the search, shows its details and
    /// moves the view to it.
    fn next_search_match(self, back: bool) {
        let q = self.search.get_untracked();
        let matches = self
            .shown
            .with_untracked(|s| crate::page::view::search(s, &q));
        let current = self.selected.get_untracked();
        let Some((_, name)) = crate::page::view::next_match(&matches, current.as_deref(), back)
        else {
            return;
        };
        let name = name.to_string();
        let (cw, ch) = self.canvas_size();
        let xf = self.xf.get_untracked();
        if let Some(to) = self
            .scene
            .with_untracked(|sc| crate::page::scene::centre_on(sc, &name, xf, cw, ch))
        {
            self.xf.set(to);
        }
        self.selected.set(Some(name));
        self.tab.set(Tab::Details);
    }

    /// Moves the keyboard focus to the drawn vertex `name` (a sibling of `from`, the vertex that
    /// had it), and the view to it when it is not wholly on the canvas.
    fn focus_vertex(self, name: &str, from: &web_sys::Element) {
        use wasm_bindgen::JsCast;
        let Some(layer) = from.parent_element() else {
            return;
        };
        let Ok(list) = layer.query_selector_all("g.vertex") else {
            return;
        };
        let target = (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
            .find(|e| e.get_attribute("data-name").as_deref() == Some(name));
        let Some(target) = target else { return };
        let (cw, ch) = self.canvas_size();
        let xf = self.xf.get_untracked();
        let off_screen = self.scene.with_untracked(|sc| {
            sc.nodes.iter().find(|n| n.name == name).is_some_and(|n| {
                let (x, y) = (xf.0 + n.x * xf.2, xf.1 + n.y * xf.2);
                x < 0.0 || y < 0.0 || x + n.w * xf.2 > cw || y + n.h * xf.2 > ch
            })
        });
        if off_screen
            && let Some(to) = self
                .scene
                .with_untracked(|sc| crate::page::scene::centre_on(sc, name, xf, cw, ch))
        {
            self.xf.set(to);
        }
        let _ = target.unchecked_ref::<web_sys::SvgElement>().focus();
    }

    /// "2 of 5" while a match is selected, else how many vertices match (empty without a query).
    fn search_position(self) -> String {
        let q = self.search.get();
        if q.trim().is_empty() {
            return String::new();
        }
        let matches = self.shown.with(|s| crate::page::view::search(s, &q));
        let n = matches.len();
        match self.selected.with(|sel| {
            sel.as_ref()
                .and_then(|x| matches.iter().position(|m| m == x))
        }) {
            _ if n == 0 => "no match".to_string(),
            Some(i) => format!("{} of {n}", i + 1),
            None if n == 1 => "1 match · Enter".to_string(),
            None => format!("{n} matches · Enter"),
        }
    }

    /// Zooms by `factor` about the canvas point (`cx`, `cy`), or its centre.
    fn zoom(self, factor: f64, at: Option<(f64, f64)>) {
        let (cx, cy) = at.unwrap_or_else(|| {
            self.canvas
                .get_untracked()
                .map(|el| {
                    (
                        el.client_width() as f64 / 2.0,
                        el.client_height() as f64 / 2.0,
                    )
                })
                .unwrap_or((400.0, 300.0))
        });
        self.xf.update(|(tx, ty, s)| {
            // Never below 10% by zooming, but Fit may have gone lower: zooming in from there
            // must not jump.
            let ns = (*s * factor).clamp(0.1f64.min(*s), 4.0);
            let k = ns / *s;
            *tx = cx - (cx - *tx) * k;
            *ty = cy - (cy - *ty) * k;
            *s = ns;
        });
    }

    /// Rebuilds the graph from the current files at once.
    fn analyze_now(self) {
        self.analyzed.set(self.files.get_untracked());
    }

    /// True when what is drawn is built from the files as they are: no typing waits for its
    /// debounce, no file is being read, and the latest analysis has finished. Shown as the app's
    /// `data-settled` attribute, which tests (and scripts driving the page) wait for instead of
    /// guessing a delay.
    fn settled(self) -> bool {
        self.reading.get() == 0
            && self.progress.with(Option::is_none)
            && self.built.get() == self.generation.get_value()
            && self.files.with(|f| self.analyzed.with(|a| f == a))
    }

    fn load_example(self, e: &Example) {
        let why = format!("before loading the example {}", e.title);
        if files::keep_aside(self, &why) {
            let kept = self.files.with_untracked(crate::page::files::worth_keeping);
            self.kind.set(e.kind);
            files::set_workspace(self, example_files(e));
            self.pane.set(Pane::Graph);
            if kept {
                files::notify(
                    self,
                    false,
                    format!(
                        "Loaded the example {}. Your previous files were kept aside.",
                        e.title
                    ),
                    true,
                );
            }
        }
    }

    fn reset_walk(self) {
        self.playing.set(false);
        self.rt.set_value(None);
        self.clear_walk_view();
    }

    /// Starts a walk of the built graph if none is under way; false when there is nothing to walk
    /// (no graph, or a graph with a cycle).
    fn ensure_walk(self) -> bool {
        if self.rt.with_value(|r| r.is_some()) {
            return true;
        }
        let g = self.good.with_untracked(|g| {
            g.as_ref()
                .filter(|a| a.cycles.is_empty())
                .and_then(|a| a.graph.clone())
        });
        let Some(g) = g else {
            return false;
        };
        // Only on a change: a needless set refits the view, which repaints the whole drawing.
        if self.step.get_untracked().is_some() {
            self.step.set(None);
        }
        if self.mode.get_untracked() != Mode::Walk {
            self.mode.set(Mode::Walk);
        }
        // Performance marks (read by the e2e timing test): what starting a walk costs.
        let perf = web_sys::window().and_then(|w| w.performance());
        let mark = |name: &str| {
            if let Some(p) = &perf {
                let _ = p.mark(name);
            }
        };
        mark("walk-start-0");
        let setup = untrack(|| self.walk_setup(true));
        let p = self.parallelism.get_untracked() as usize;
        let mut rt = WalkRt::start(&g, p, &setup);
        if setup.failures.is_empty() {
            self.seed_chart(&g, p, rt.expected());
        }
        mark("walk-start-1");
        let frame = rt.collect(true);
        self.rt.set_value(Some(rt));
        mark("walk-start-2");
        self.apply_frame(frame);
        mark("walk-start-3");
        if let Some(p) = &perf {
            for (m, a, b) in [
                ("walk-start-walks", "walk-start-0", "walk-start-1"),
                ("walk-start-collect", "walk-start-1", "walk-start-2"),
                ("walk-start-signals", "walk-start-2", "walk-start-3"),
            ] {
                let _ = p.measure_with_start_mark_and_end_mark(m, a, b);
            }
        }
        true
    }

    fn play(self) {
        if self.walk_view.with_untracked(|v| v.finished) {
            self.reset_walk();
        }
        if !self.ensure_walk() {
            return;
        }
        self.rt.update_value(|r| {
            if let Some(r) = r {
                r.last_ms = None;
            }
        });
        self.playing.set(true);
        frame_loop(self);
    }

    fn step_walk(self) {
        self.playing.set(false);
        if !self.ensure_walk() {
            return;
        }
        let f = self.rt.try_update_value(|r| {
            r.as_mut().map(|r| {
                r.step();
                r.collect(true)
            })
        });
        if let Some(Some(f)) = f {
            self.apply_frame(f);
        }
    }

    /// A click on a vertex shows its details; with `fail` (Shift or Alt held) in Walk mode it
    /// marks the vertex to fail in the next walk instead, or clears that mark.
    fn click_vertex(self, name: String, fail: bool) {
        if self.dragged.get_value() {
            return;
        }
        if fail && self.mode.get_untracked() == Mode::Walk {
            self.failures.update(|f| {
                if !f.remove(&name) {
                    f.insert(name);
                }
            });
            self.walk_settings_changed();
        } else {
            self.selected.set(Some(name));
            self.tab.set(Tab::Details);
        }
    }
}

/// Advances the walk once per animation frame while playing.
fn frame_loop(ctx: Ctx) {
    request_animation_frame(move || {
        if !ctx.playing.get_untracked() {
            return;
        }
        let now = performance_now();
        let speed = ctx.speed.get_untracked();
        // Performance marks (read by the e2e timing test): the simulation vs the view update.
        let perf = web_sys::window().and_then(|w| w.performance());
        let mark = |name: &str| {
            if let Some(p) = &perf {
                let _ = p.mark(name);
            }
        };
        mark("walk-frame-start");
        let v = ctx.rt.try_update_value(|r| {
            r.as_mut().map(|r| {
                r.frame(now, speed);
                // The graph at about 15 Hz, the timeline and counters every frame.
                let cells = now - r.cells_ms >= 60.0;
                if cells {
                    r.cells_ms = now;
                }
                (r.collect(cells), r.stepper.has_pending_timers())
            })
        });
        mark("walk-frame-simulated");
        match v {
            Some(Some((frame, pending))) => {
                let stop = frame.view.finished || !pending;
                ctx.apply_frame(frame);
                mark("walk-frame-drawn");
                if let Some(p) = &perf {
                    let _ = p.measure_with_start_mark_and_end_mark(
                        "walk-simulation",
                        "walk-frame-start",
                        "walk-frame-simulated",
                    );
                    let _ = p.measure_with_start_mark_and_end_mark(
                        "walk-view-update",
                        "walk-frame-simulated",
                        "walk-frame-drawn",
                    );
                    p.clear_marks();
                }
                if stop {
                    ctx.playing.set(false);
                } else {
                    frame_loop(ctx);
                }
            }
            _ => ctx.playing.set(false),
        }
    });
}

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let ctx = Ctx::new();
    files::open_fragment(ctx);
    // The service worker serves a new bundle as soon as the network has one: say so once.
    if storage::bundle_changed() {
        files::notify(
            ctx,
            false,
            "tfgraph was updated since your last visit.",
            false,
        );
    }
    let hash = window_event_listener(leptos::ev::hashchange, move |_| files::open_fragment(ctx));
    on_cleanup(move || hash.remove());
    Effect::new(move |_| ctx.files.with(|f| ctx.autosave(f)));
    // Another tab saved the work, or kept its files aside because this tab had saved over them:
    // say so at once (the event fires in every other tab of the origin).
    let other_tab = window_event_listener(leptos::ev::storage, move |ev| {
        let key = ev.key();
        if key.as_deref() == Some(crate::saved::KEY)
            && crate::saved::revision(ev.new_value().as_deref()) != storage::base_revision()
            && !ctx.conflicted.get_value()
        {
            ctx.notify(
                "Your work was changed in another tab. Reload this tab to continue from it; if you edit here first, this tab's files will be kept aside.".to_string(),
                None,
            );
        } else if key.as_deref() == Some(crate::saved::BACKUP_KEY)
            && crate::saved::read_backups(ev.new_value().as_deref())
                .first()
                .is_some_and(|b| b.why == storage::CONFLICT_WHY)
        {
            let text = "Another tab's files were kept aside, as this tab had saved since it opened the work: Restore brings them back here.".to_string();
            ctx.notices
                .update(|ns| _ = notices::push(ns, text, None, false, true, |_| false));
        }
    });
    on_cleanup(move || other_tab.remove());
    Effect::new(move |_| ctx.root.with(|r| storage::save_root(r)));
    Effect::new(move |_| ctx.reanalyze(ctx.analyzed.get(), ctx.kind.get(), ctx.options()));
    // A new graph or builder step: fit it, and forget a walk of the old one.
    Effect::new(move |_| {
        ctx.scene.track();
        ctx.step.track();
        // After the frame's layout, so a banner that just appeared is accounted for.
        request_animation_frame(move || ctx.fit());
    });
    Effect::new(move |prev: Option<()>| {
        ctx.good.track();
        if prev.is_some() {
            ctx.reset_walk();
            ctx.step.set(None);
        }
    });

    let help = RwSignal::new(false);
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        use wasm_bindgen::JsCast;
        let in_field = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT"));
        if in_field || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let n_steps = ctx
            .good
            .with_untracked(|g| g.as_ref().map_or(0, |a| a.steps.len()));
        match ev.key().as_str() {
            " " | "p" => {
                if ctx.playing.get_untracked() {
                    ctx.playing.set(false);
                } else {
                    ctx.play();
                }
            }
            "s" | "." => ctx.step_walk(),
            "r" => ctx.reset_walk(),
            "f" => ctx.fit(),
            "+" | "=" => ctx.zoom(1.25, None),
            "-" | "_" => ctx.zoom(0.8, None),
            "w" => ctx.mode.update(|m| {
                *m = if *m == Mode::Walk {
                    Mode::Inspect
                } else {
                    Mode::Walk
                }
            }),
            "]" if n_steps > 0 => {
                ctx.tab.set(Tab::Steps);
                ctx.step
                    .update(|s| *s = Some(s.map_or(0, |k| (k + 1).min(n_steps - 1))));
            }
            "[" if n_steps > 0 => {
                ctx.tab.set(Tab::Steps);
                ctx.step
                    .update(|s| *s = Some(s.map_or(n_steps - 1, |k| k.saturating_sub(1))));
            }
            "Escape" => {
                ctx.selected.set(None);
                help.set(false);
            }
            "?" => help.update(|h| *h = !*h),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || keys.remove());
    let resize = window_event_listener(leptos::ev::resize, move |_| ctx.fit());
    on_cleanup(move || resize.remove());

    // A reference opened from the details panel shows the editor, also on a phone.
    Effect::new(move |prev: Option<()>| {
        ctx.goto.track();
        if prev.is_some() && ctx.goto.with_untracked(Option::is_some) {
            ctx.pane.set(Pane::Code);
        }
    });

    view! {
        <div
            class="app"
            data-settled=move || ctx.settled().to_string()
            data-pane=move || ctx.pane.get().css()
            // On a phone, a vertex chosen on the graph shows its details in a sheet over the
            // graph's lower half instead of far below it.
            data-sheet=move || {
                (ctx.pane.get() == Pane::Graph
                    && ctx.tab.get() == Tab::Details
                    && ctx.selected.with(Option::is_some))
                .then_some("true")
            }
        >
            <header class="app-header">
                <h1 class="brand">"tfgraph"</h1>
                <p class="tagline">
                    "How Terraform and OpenTofu turn configuration into a dependency graph, and walk it."
                </p>
                <span class="spacer"></span>
                <view::ThemeToggle />
                <button type="button" class="help-button" title="Keyboard shortcuts (?)" on:click=move |_| help.update(|h| *h = !*h)>
                    "Shortcuts"
                </button>
            </header>
            <Show when=move || help.get()>
                <div class="help-overlay" role="dialog" aria-label="Keyboard shortcuts" on:click=move |_| help.set(false)>
                    <div class="help-card" on:click=|ev| ev.stop_propagation()>
                        <h2>"Keyboard shortcuts"</h2>
                        <dl>
                            <dt>"Space / p"</dt><dd>"play or pause the walk"</dd>
                            <dt>"s"</dt><dd>"step the walk to its next event"</dd>
                            <dt>"r"</dt><dd>"reset the walk"</dd>
                            <dt>"w"</dt><dd>"switch between Inspect and Walk"</dd>
                            <dt>"Shift+click"</dt><dd>"in Walk: make a vertex fail in the next walk"</dd>
                            <dt>"[ ]"</dt><dd>"previous / next builder step"</dd>
                            <dt>"f"</dt><dd>"fit the graph"</dd>
                            <dt>"+ −"</dt><dd>"zoom in / out"</dd>
                            <dt>"Esc"</dt><dd>"clear the selection"</dd>
                            <dt>"Enter / Shift+Enter"</dt><dd>"in Find a vertex: next / previous match, centred"</dd>
                            <dt>"?"</dt><dd>"this list"</dd>
                        </dl>
                        <p class="muted small">"Shortcuts work when the editor does not have the focus. Drag to pan, scroll to zoom."</p>
                        <button type="button" on:click=move |_| help.set(false)>"Close"</button>
                    </div>
                </div>
            </Show>
            // Always present (empty when quiet), so the grid keeps its rows.
            <div class="app-messages">
                <ProgressBar ctx=ctx />
            </div>
            <PhoneTabs ctx=ctx />
            <main class="workspace">
                <EditorPane ctx=ctx />
                <GraphPane ctx=ctx />
                <SidePanel ctx=ctx />
            </main>
            <WalkPanel ctx=ctx />
            <files::DropTarget ctx=ctx />
        </div>
    }
}

/// The notices bar: one line per notice, with its download and a dismiss button.
#[component]
fn Notices(ctx: Ctx) -> impl IntoView {
    view! {
        <div class="notices" role="status" aria-live="polite">
            <For each=move || ctx.notices.get() key=|n| n.id let:n>
                {
                    let id = n.id;
                    view! {
                        <div class="notice" class:error=n.error>
                            <span class="notice-text">{n.text.clone()}</span>
                            {n.restore.then(|| view! {
                                <button type="button" class="notice-restore" on:click=move |_| {
                                    files::restore_backup(ctx);
                                    ctx.notices.update(|v| v.retain(|x| x.id != id));
                                }>"Restore previous files"</button>
                            })}
                            {n.download.clone().map(|(name, text)| view! {
                                <a class="notice-download" download=name href=explain::data_url("application/json", &text)>
                                    "Download the kept copy"
                                </a>
                            })}
                            <button type="button" class="notice-dismiss" title="Dismiss"
                                on:click=move |_| ctx.notices.update(|ns| ns.retain(|x| x.id != id))>
                                "Dismiss"
                            </button>
                        </div>
                    }
                }
            </For>
        </div>
    }
}

/// A slim bar under the header while a large input is analysed in slices.
#[component]
fn ProgressBar(ctx: Ctx) -> impl IntoView {
    move || {
        ctx.progress.get().map(|p| {
            let pct = 100.0 * p.done as f64 / p.total.max(1) as f64;
            view! {
                <div class="build-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
                    aria-valuenow=format!("{pct:.0}")>
                    <div class="build-progress-fill" style=format!("width: {pct:.1}%")></div>
                    <span class="build-progress-label">{p.label}</span>
                </div>
            }
        })
    }
}

/// The pane switcher shown on phones (hidden by the stylesheet above 760 px).
#[component]
fn PhoneTabs(ctx: Ctx) -> impl IntoView {
    let tab = move |p: Pane, label: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                class="phone-tab"
                id=format!("pane-{}", p.css())
                title=p.title()
                class:active=move || ctx.pane.get() == p
                aria-selected=move || (ctx.pane.get() == p).to_string()
                on:click=move |_| ctx.pane.set(p)
            >
                {label}
                // The notices live above the files: a count says they are there.
                {(p == Pane::Code).then(|| view! {
                    <Show when=move || ctx.notices.with(|n| !n.is_empty())>
                        <span class="tab-badge">
                            {move || ctx.notices.with(|n| n.len())}
                            <span class="sr-only">" notices"</span>
                        </span>
                    </Show>
                })}
            </button>
        }
    };
    view! {
        <nav class="phone-tabs" aria-label="Panes">
            <div class="phone-tab-list" role="tablist">
                {tab(Pane::Graph, "Graph")}
                {tab(Pane::Code, "Code")}
                {tab(Pane::Panels, "Details")}
            </div>
        </nav>
    }
}

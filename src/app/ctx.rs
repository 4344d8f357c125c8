//! The app's context: every signal the views share, built once by [`Ctx::new`], and the methods
//! that change the files, the analysis and the view (fit, zoom, search). The walk's methods are in
//! `walk.rs`, loading an example in `files.rs`.
//!
//! Invariant: only signals and browser glue; what they compute is `crate::page`.

use super::state::{LearnUi, Mode, Overlays, Pane, Tab, WalkUi};
use super::{crash, storage, view};
use crate::builder::BuilderKind;
use crate::page::analysis::{self as model, Analysis};
use crate::page::examples::EXAMPLES;
use crate::page::notices::{self, Notice};
use crate::page::scene::Scene;
use crate::page::view::{Related, Shown};
use crate::page::walk::{WalkRt, WalkView};
use leptos::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

/// How long typing must pause before the graph is rebuilt.
pub(super) const DEBOUNCE: Duration = Duration::from_millis(250);

/// Every signal the views share (all `Copy` handles).
#[derive(Clone, Copy)]
pub(super) struct Ctx {
    pub(super) files: RwSignal<BTreeMap<String, String>>,
    pub(super) active: RwSignal<String>,
    pub(super) analyzed: RwSignal<BTreeMap<String, String>>,
    pub(super) kind: RwSignal<BuilderKind>,
    /// The latest finished analysis; large inputs are analysed in slices (see [`Ctx::reanalyze`]).
    /// Shared, so the memos and views that keep it (`good`) hold it without a copy.
    pub(super) analysis: RwSignal<Arc<Analysis>>,
    /// Where a sliced analysis is (for the progress bar); `None` when idle.
    pub(super) progress: RwSignal<Option<model::Progress>>,
    /// Bumped by every new analysis, so a sliced one that was overtaken stops.
    pub(super) generation: StoredValue<u64>,
    /// The `generation` whose analysis is shown (equal to it once the latest request is built).
    pub(super) built: RwSignal<u64>,
    /// Reads of opened or dropped files under way.
    pub(super) reading: RwSignal<u32>,
    /// The last analysis with a graph, of the files as they were replaced last (an edit keeps
    /// showing the last graph that built; another configuration never does).
    pub(super) good: Memo<Option<Arc<Analysis>>>,
    /// Bumped whenever the files are replaced as a whole (an example, opened files or a folder,
    /// a share link, a restore), and the number the shown analysis was started under.
    pub(super) workspace: StoredValue<u64>,
    pub(super) analysis_workspace: StoredValue<u64>,
    pub(super) step: RwSignal<Option<usize>>,
    pub(super) shown: Memo<Shown>,
    pub(super) scene: Memo<Scene>,
    pub(super) selected: RwSignal<Option<String>>,
    /// The vertex with the keyboard focus, the drawn vertices in the arrow keys' order, and the
    /// one vertex Tab reaches (`page::keys`).
    pub(super) focused: RwSignal<Option<String>>,
    pub(super) key_order: Memo<Vec<String>>,
    pub(super) tab_stop: Memo<Option<String>>,
    /// Whether a walk has started: its own memo, so what depends only on that (each vertex's
    /// spoken label) is not run again at every walk frame.
    pub(super) walking: Memo<bool>,
    pub(super) related: Memo<Related>,
    pub(super) mode: RwSignal<Mode>,
    pub(super) tab: RwSignal<Tab>,
    /// The pane shown on a phone.
    pub(super) pane: RwSignal<Pane>,
    pub(super) xf: RwSignal<(f64, f64, f64)>,
    pub(super) canvas: NodeRef<leptos::html::Div>,
    /// The canvas's size as the last layout left it (kept by a `ResizeObserver` in `graph.rs`),
    /// so fitting a new drawing reads no size from the DOM: reading `clientWidth` right after a
    /// redraw made the browser lay out the whole drawing at once, a second time that frame.
    pub(super) canvas_px: StoredValue<Option<(f64, f64)>>,
    pub(super) dragged: StoredValue<bool>,
    pub(super) rt: StoredValue<Option<WalkRt>, LocalStorage>,
    pub(super) walk_view: RwSignal<WalkView>,
    pub(super) playing: RwSignal<bool>,
    pub(super) speed: RwSignal<f64>,
    pub(super) parallelism: RwSignal<u32>,
    pub(super) failures: RwSignal<BTreeSet<String>>,
    pub(super) search: RwSignal<String>,
    /// A place to show in the editor: (file, line, column, length of the text to select), set
    /// by a click on a reference in the details panel.
    pub(super) goto: RwSignal<Option<(String, usize, usize, usize)>>,
    /// The walk's critical path (vertex indexes): its own memo, so walk frames that do not
    /// change it do not touch every edge.
    pub(super) critical: Memo<BTreeSet<usize>>,
    /// Messages for the user (see [`Notice`]), and whether autosave may write.
    pub(super) notices: RwSignal<Vec<Notice>>,
    pub(super) save_ok: StoredValue<bool>,
    /// Another tab saved over the revision this tab knew: this tab's edits go to a kept-aside
    /// copy instead of the workspace until it is reloaded.
    pub(super) conflicted: StoredValue<bool>,
    /// Per-vertex walk cells, Gantt rows, hover, durations (walk.rs).
    pub(super) walk_ui: WalkUi,
    /// The root module's folder among the files (`""`: the top folder).
    pub(super) root: RwSignal<String>,
    /// `-target` and `-exclude` addresses as typed.
    pub(super) targets: RwSignal<String>,
    pub(super) excludes: RwSignal<String>,
    /// Graph views (reduction, resources only, collapsed modules) and algorithm overlays.
    pub(super) gv: view::GraphView,
    pub(super) ov: Overlays,
    /// Learn mode: progress, the open lesson, its verdict and marks (`learn.rs`).
    pub(super) learn: LearnUi,
}

/// How the notice that the files are not being saved starts.
pub(super) const NOT_SAVED: &str = "Your edits are not being saved:";

/// Runs `f` between two performance marks and records a `tfgraph-<name>` measure, so the
/// browser's performance timeline (and the e2e timing test) shows where an update's time goes.
pub(super) fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
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
pub(super) async fn yield_to_browser() {
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    set_timeout(
        move || {
            let _ = tx.send(());
        },
        Duration::ZERO,
    );
    let _ = rx.await;
}

pub(super) fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl Ctx {
    pub(super) fn new() -> Ctx {
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
            .unwrap_or_else(|| crate::page::examples::files_of(&EXAMPLES[0]));
        let root = storage::load_root()
            .filter(|r| crate::page::files::root_candidates(start.keys()).contains(r))
            .unwrap_or_else(|| crate::page::files::default_root(start.keys()));
        let first =
            crate::page::files::first_file(&start, &root).unwrap_or_else(|| "main.tf".into());
        let files = RwSignal::new(start.clone());
        let analyzed = RwSignal::new(start);
        let kind = RwSignal::new(BuilderKind::Plan);
        let analysis = RwSignal::new(Arc::new(Analysis::default()));
        let workspace = StoredValue::new(0u64);
        let analysis_workspace = StoredValue::new(0u64);
        let good_workspace = StoredValue::new(0u64);
        // Compared by identity: a new analysis is a new `Arc` (comparing two analyses field by
        // field, and copying one per build, took tens of milliseconds at 1,000 resources).
        let good = Memo::new_with_compare(
            move |prev: Option<&Option<Arc<Analysis>>>| {
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
            },
            |a, b| match (a, b) {
                (Some(Some(a)), Some(Some(b))) => !Arc::ptr_eq(a, b),
                (Some(None), Some(None)) => false,
                _ => true,
            },
        );
        let step = RwSignal::new(None::<usize>);
        let gv = view::GraphView::new();
        let mode = RwSignal::new(Mode::Inspect);
        let shown = Memo::new(move |_| {
            let mut opts = gv.opts();
            // Opened vertices are drawn in Inspect mode: the walk runs on the graph as built
            // (and expands what it reaches itself).
            if mode.get() != Mode::Inspect {
                opts.open.clear();
            }
            let step = step.get();
            good.with(|g| match g {
                Some(a) => timed("shown", || crate::page::view::shown(a, step, &opts)),
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
        let ov = Overlays::new(shown, selected);
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
            mode,
            tab: RwSignal::new(Tab::Details),
            pane: RwSignal::new(Pane::Graph),
            xf: RwSignal::new((0.0, 0.0, 1.0)),
            canvas: NodeRef::new(),
            canvas_px: StoredValue::new(None),
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
            learn: LearnUi::new(storage::load_lessons()),
            notices: RwSignal::new(notices),
            save_ok: StoredValue::new(storage::can_save()),
            conflicted: StoredValue::new(false),
            walk_ui: WalkUi::new(),
            root: RwSignal::new(root),
            targets: RwSignal::new(String::new()),
            excludes: RwSignal::new(String::new()),
        }
    }

    /// Analyses the files: small inputs at once; large ones in slices that give the browser back
    /// control between phases (one per transform) and report progress, so typing into a large
    /// configuration never freezes the page. A newer call stops an older sliced one.
    pub(super) fn reanalyze(
        self,
        files: BTreeMap<String, String>,
        kind: BuilderKind,
        opts: model::Options,
    ) {
        self.generation.update_value(|g| *g += 1);
        let mine = self.generation.get_value();
        let ws = self.workspace.get_value();
        let size: usize = files.iter().map(|(p, t)| p.len() + t.len()).sum();
        if size < model::SLICE_FROM_BYTES {
            self.progress.set(None);
            let a = timed("analysis", || model::analyze(&files, kind, &opts));
            self.analysis_workspace.set_value(ws);
            self.analysis.set(Arc::new(a));
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
                    self.analysis.set(Arc::new(a));
                    self.progress.set(None);
                    self.built.set(mine);
                }
            }
        });
    }

    /// Shows a notice (see `page::notices::push`).
    pub(super) fn notify(self, text: String, download: Option<(String, String)>) {
        self.notices
            .update(|ns| _ = notices::push(ns, text, download, false, false, |_| false));
    }

    /// The targets and excludes as addresses.
    pub(super) fn options(self) -> model::Options {
        model::Options {
            root: self.root.get(),
            targets: crate::page::files::address_list(&self.targets.get()),
            excludes: crate::page::files::address_list(&self.excludes.get()),
        }
    }

    /// Saves the files; a refusal is told once, not on every keystroke.
    pub(super) fn autosave(self, files: &BTreeMap<String, String>) {
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

    /// Opens the `(expand)` vertex `name` into its sub-graph, or closes the opened vertex it is
    /// or was drawn for (which is then selected); from Walk mode it goes back to Inspect mode,
    /// where opened vertices are drawn. False when `name` has no sub-graph to open
    /// ([`crate::page::expanded::of_vertex`]: its details say why).
    pub(super) fn toggle_expansion(self, name: &str) -> bool {
        let inspecting = self.mode.get_untracked() == Mode::Inspect;
        let opened = self.shown.with_untracked(|s| {
            let i = s.graph.index_of(name)?;
            let x = crate::page::view::opened_by(s, i)?;
            Some(s.graph.vertex(x)?.name.clone())
        });
        if let Some(x) = opened.filter(|_| inspecting) {
            self.gv.toggle_open(&x);
            if x != name {
                self.selected.set(Some(x));
            }
            return true;
        }
        let opens = self.good.with_untracked(|g| {
            g.as_ref().is_some_and(|a| {
                matches!(
                    crate::page::expanded::of_vertex(a, name),
                    Some(crate::page::expanded::Opening::Sub(_))
                )
            })
        });
        if !opens {
            return false;
        }
        if !inspecting {
            self.mode.set(Mode::Inspect);
        }
        self.gv.open.update(|o| {
            o.insert(name.to_string());
        });
        true
    }

    /// Fits the drawing into the canvas (its size read from the page: a Fit the user asks for
    /// sees a change of the canvas made in the same frame).
    pub(super) fn fit(self) {
        self.fit_to(self.canvas_size());
    }

    /// Fits a drawing just redrawn, to the canvas's size as the last layout left it: reading the
    /// size from the page here would lay out the whole new drawing at once, and the browser lays
    /// it out again when the view moves. Should the canvas have changed size in this frame, the
    /// `ResizeObserver` of `graph.rs` fits again once the layout is done.
    pub(super) fn fit_redrawn(self) {
        let size = self.canvas_px.try_get_value().flatten();
        self.fit_to(size.unwrap_or_else(|| self.canvas_size()));
    }

    fn fit_to(self, (cw, ch): (f64, f64)) {
        let (w, h) = self.scene.with_untracked(|s| (s.width, s.height));
        let xf = crate::page::scene::fit(w, h, cw, ch);
        self.xf.set(xf);
        self.walk_ui.fitted.set_value(Some(xf));
    }

    /// The graph canvas's size in pixels, read from the page (a default before it is laid out).
    pub(super) fn canvas_size(self) -> (f64, f64) {
        self.canvas
            .get_untracked()
            .map(|el| (el.client_width() as f64, el.client_height() as f64))
            .filter(|(w, h)| *w > 0.0 && *h > 0.0)
            .unwrap_or((800.0, 600.0))
    }

    /// Selects the next (previous) drawn vertex matching the search, shows its details and
    /// moves the view to it.
    pub(super) fn next_search_match(self, back: bool) {
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
    pub(super) fn focus_vertex(self, name: &str, from: &web_sys::Element) {
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
    pub(super) fn search_position(self) -> String {
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
    pub(super) fn zoom(self, factor: f64, at: Option<(f64, f64)>) {
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
    pub(super) fn analyze_now(self) {
        self.analyzed.set(self.files.get_untracked());
    }

    /// True when what is drawn is built from the files as they are: no typing waits for its
    /// debounce, no file is being read, and the latest analysis has finished. Shown as the app's
    /// `data-settled` attribute, which tests (and scripts driving the page) wait for instead of
    /// guessing a delay.
    pub(super) fn settled(self) -> bool {
        self.reading.get() == 0
            && self.progress.with(Option::is_none)
            && self.built.get() == self.generation.get_value()
            && self.files.with(|f| self.analyzed.with(|a| f == a))
    }
}

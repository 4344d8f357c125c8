//! The app's context, one `Copy` struct per concern, each built once and provided to the views
//! (`provide_context` in `App`): [`Work`] (the files and their safekeeping), [`Build`] (the
//! analysis and the graph shown of it), [`Selection`] (the chosen and focused vertex, search,
//! goto), [`Canvas`] (where the drawing sits on the canvas), [`Walk`] (the simulated walk),
//! [`Shell`] (mode, side tab, phone pane), with the graph views ([`view::GraphView`]), the
//! overlays ([`Overlays`]) and Learn mode ([`LearnUi`]). [`Ctx`] bundles the handles for what
//! coordinates several concerns (analysing the files, a click on a vertex, search, opening an
//! `(expand)` vertex). The walk's methods are in `walk.rs`, loading an example in `files.rs`.
//!
//! Invariant: only signals and browser glue; what they compute is `crate::page`. A concern's
//! methods touch that concern only (a handle it reads from another is named as such); what
//! touches several is a method of `Ctx`.

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

/// The last analysis with a graph (see [`Build::good`]).
pub(super) type Good = Memo<Option<Arc<Analysis>>>;

/// The user's files and their safekeeping: the files as edited, the open one, the files the
/// shown analysis was asked for, the root module, reads under way, the workspace counter, the
/// notices and autosave's state.
///
/// Invariant: `analyzed` is `files` as they were when an analysis was last asked for (equal to
/// them once typing has paused for [`DEBOUNCE`]); `workspace` changes only when the files are
/// replaced as a whole; autosave writes only while `save_ok` and never while `conflicted`.
#[derive(Clone, Copy)]
pub(super) struct Work {
    pub(super) files: RwSignal<BTreeMap<String, String>>,
    pub(super) active: RwSignal<String>,
    pub(super) analyzed: RwSignal<BTreeMap<String, String>>,
    /// The root module's folder among the files (`""`: the top folder).
    pub(super) root: RwSignal<String>,
    /// Reads of opened or dropped files under way.
    pub(super) reading: RwSignal<u32>,
    /// Bumped whenever the files are replaced as a whole (an example, opened files or a folder,
    /// a share link, a restore).
    pub(super) workspace: StoredValue<u64>,
    /// Messages for the user (see [`Notice`]), and whether autosave may write.
    pub(super) notices: RwSignal<Vec<Notice>>,
    pub(super) save_ok: StoredValue<bool>,
    /// Another tab saved over the revision this tab knew: this tab's edits go to a kept-aside
    /// copy instead of the workspace until it is reloaded.
    pub(super) conflicted: StoredValue<bool>,
    /// Edits not saved yet: a large workspace is saved a moment after the last edit
    /// ([`Work::files_changed`]); the page is not settled until it is.
    pub(super) unsaved: RwSignal<bool>,
    pending_save: StoredValue<Option<leptos::prelude::TimeoutHandle>>,
    /// Keystrokes whose text is in `files` but not yet told to what reads them: the editor tells
    /// them once per frame ([`Work::typed`], [`Work::typed_frame`]), and leaving the page saves
    /// them at once ([`Work::save_pending`]).
    typing: StoredValue<bool>,
}

/// The graph built from the files: the builder, the latest analysis and where a sliced one is,
/// the last one with a graph, the chosen build step, and what is shown and drawn of it; the
/// `-target` and `-exclude` fields.
///
/// Invariant: `built == generation` once the latest analysis has finished; `good` is the last
/// analysis with a graph of the current workspace; `shown` and `scene` derive from `good`, the
/// step, the graph views and the mode, and are never set by hand.
#[derive(Clone, Copy)]
pub(super) struct Build {
    pub(super) kind: RwSignal<BuilderKind>,
    /// The latest finished analysis; large inputs are analysed in slices (see [`Ctx::reanalyze`]).
    /// Shared, so the memos and views that keep it (`good`) hold it without a copy.
    pub(super) analysis: RwSignal<Arc<Analysis>>,
    /// Where a sliced analysis is (for the progress bar); `None` when idle.
    pub(super) progress: RwSignal<Option<model::Progress>>,
    /// The input is large enough to be analysed in slices or by the worker: the progress bar
    /// stays between builds (showing `took`), so its coming and going does not move the page.
    pub(super) large: RwSignal<bool>,
    /// How long the last large build took, in ms ([`model::built_in`]).
    pub(super) took: RwSignal<Option<f64>>,
    /// Bumped by every new analysis, so a sliced one that was overtaken stops.
    pub(super) generation: StoredValue<u64>,
    /// The `generation` whose analysis is shown (equal to it once the latest request is built).
    pub(super) built: RwSignal<u64>,
    /// The last analysis with a graph, of the files as they were replaced last (an edit keeps
    /// showing the last graph that built; another configuration never does).
    pub(super) good: Good,
    /// The [`Work::workspace`] number the shown analysis was started under.
    pub(super) analysis_workspace: StoredValue<u64>,
    pub(super) step: RwSignal<Option<usize>>,
    pub(super) shown: Memo<Shown>,
    /// The shown graph of an analysis about to be installed, worked out in a task before it
    /// ([`Build::prepare_shown`]), which `shown` takes instead of working it out again.
    prepared: StoredValue<Option<Prepared>>,
    pub(super) scene: Memo<Arc<Scene>>,
    /// Bumped by "Tidy": the next scene is laid out afresh instead of near the last one (an
    /// edit keeps what it did not change in place, so gaps can gather over many edits).
    pub(super) tidy: RwSignal<u64>,
    /// `-target` and `-exclude` addresses as typed.
    pub(super) targets: RwSignal<String>,
    pub(super) excludes: RwSignal<String>,
    /// The engine's worker: large analyses and layouts are made there.
    pub(super) off: super::engine::OffThread,
}

/// The selected vertex and what is related to it, the keyboard focus and order, the search
/// field, and a place in the files to show.
///
/// Invariant: names are OpenTofu's vertex names, as Build's shown graph has them; `related`,
/// `key_order` and `tab_stop` derive from `selected`, `focused` and Build's `shown` and `scene`,
/// and are never set by hand.
#[derive(Clone, Copy)]
pub(super) struct Selection {
    pub(super) selected: RwSignal<Option<String>>,
    pub(super) related: Memo<Related>,
    /// The vertex with the keyboard focus, the drawn vertices in the arrow keys' order, and the
    /// one vertex Tab reaches (`page::keys`).
    pub(super) focused: RwSignal<Option<String>>,
    pub(super) key_order: Memo<Vec<String>>,
    pub(super) tab_stop: Memo<Option<String>>,
    pub(super) search: RwSignal<String>,
    /// A place to show in the editor: (file, line, column, length of the text to select), set
    /// by a click on a reference in the details panel.
    pub(super) goto: RwSignal<Option<(String, usize, usize, usize)>>,
}

/// Where the drawing sits on the graph's canvas: the pan and zoom, the canvas element and its
/// size, whether the pointer dragged, the view the last fit gave. Reads Build's `scene` (the
/// same memo) to fit and centre.
///
/// Invariant: only the view moves here, never what is drawn; `xf` is (x, y, scale) with a
/// scale in (0, 4].
#[derive(Clone, Copy)]
pub(super) struct Canvas {
    pub(super) xf: RwSignal<(f64, f64, f64)>,
    pub(super) node: NodeRef<leptos::html::Div>,
    /// The canvas's size as the last layout left it (kept by a `ResizeObserver` in `graph.rs`),
    /// so fitting a new drawing reads no size from the DOM: reading `clientWidth` right after a
    /// redraw made the browser lay out the whole drawing at once, a second time that frame.
    pub(super) px: RwSignal<Option<(f64, f64)>>,
    pub(super) dragged: StoredValue<bool>,
    /// The view the last fit gave: when the timeline opens or closes and the user has not moved
    /// the view since, the graph is fitted again to the canvas's new size.
    pub(super) fitted: StoredValue<Option<(f64, f64, f64)>>,
    /// Build's scene (read only): what is drawn.
    pub(super) scene: Memo<Arc<Scene>>,
    /// Whether the view is moving under a gesture (a drag or the wheel), until
    /// [`SETTLE_MS`] after its last move: meanwhile the drawing is a layer of its own that the
    /// browser moves and scales without painting it again (see [`Canvas::moved`]).
    pub(super) moving: RwSignal<bool>,
    settle: StoredValue<Option<leptos::prelude::TimeoutHandle>>,
}

/// How long after a gesture's last move the drawing is painted again at the view's scale.
const SETTLE_MS: u64 = 200;

/// The simulated walk of Build's `good` graph: its runtime, the view of its latest frame, play,
/// speed, `-parallelism`, the failures to inject, and the per-vertex cells and Gantt rows.
///
/// Invariant: `rt` is `None` until a walk starts and is dropped by [`Walk::reset`] whenever
/// `epoch` changes (an analysis that does not walk alike the one before); `view`, `ui`'s cells
/// and rows are what `rt`'s last frame gave; `walking` and `critical` derive from `view`.
#[derive(Clone, Copy)]
pub(super) struct Walk {
    pub(super) rt: StoredValue<Option<WalkRt>, LocalStorage>,
    /// Bumped by every walk started, so that what arrives for an older one (its length, worked
    /// out in the engine's worker) is dropped.
    pub(super) serial: StoredValue<u64>,
    pub(super) view: RwSignal<WalkView>,
    pub(super) playing: RwSignal<bool>,
    pub(super) speed: RwSignal<f64>,
    pub(super) parallelism: RwSignal<u32>,
    pub(super) failures: RwSignal<BTreeSet<String>>,
    /// Whether a walk has started: its own memo, so what depends only on that (each vertex's
    /// spoken label) is not run again at every walk frame.
    pub(super) walking: Memo<bool>,
    /// The walk's critical path (vertex indexes): its own memo, so walk frames that do not
    /// change it do not touch every edge.
    pub(super) critical: Memo<BTreeSet<usize>>,
    /// Per-vertex walk cells, Gantt rows, hover, durations (walk.rs).
    pub(super) ui: WalkUi,
    /// Build's `good` (read only): the graph walked, its expander and step table.
    pub(super) good: Good,
    /// Changes only when an analysis does not walk alike the one before: a walk and the
    /// makespans belong to one epoch ([`crate::page::walk::WalkEpoch`]).
    pub(super) epoch: Memo<crate::page::walk::WalkEpoch>,
}

/// What the page shows: Inspect or Walk mode, the side panel's tab, the pane a phone shows.
///
/// Invariant: opened `(expand)` vertices are drawn in Inspect mode only (Build's `shown` reads
/// `mode`).
#[derive(Clone, Copy)]
pub(super) struct Shell {
    pub(super) mode: RwSignal<Mode>,
    pub(super) tab: RwSignal<Tab>,
    /// The pane shown on a phone.
    pub(super) pane: RwSignal<Pane>,
    /// How much of the page is mounted (`App` mounts in stages; 2 is all of it).
    pub(super) stage: RwSignal<u8>,
}

/// Every concern's handles, for what coordinates several (all `Copy`).
#[derive(Clone, Copy)]
pub(super) struct Ctx {
    pub(super) work: Work,
    pub(super) build: Build,
    pub(super) sel: Selection,
    pub(super) canvas: Canvas,
    pub(super) walk: Walk,
    pub(super) shell: Shell,
    /// Graph views (reduction, resources only, collapsed modules, opened vertices).
    pub(super) gv: view::GraphView,
    /// Algorithm overlays.
    pub(super) ov: Overlays,
    /// Learn mode: progress, the open lesson, its verdict and marks (`learn.rs`).
    pub(super) learn: LearnUi,
}

/// How long the page's first build runs before it lets the browser have a task (see
/// `Ctx::reanalyze`): under Lighthouse's 4x slowdown, a quarter of its 50 ms long task.
const FIRST_BUILD_TASK_MS: f64 = 12.0;

/// How the notice that the files are not being saved starts.
pub(super) const NOT_SAVED: &str = "Your edits are not being saved:";

pub(super) use super::marks::timed;

/// Times a sliced analysis slice by slice: each call closes the slice begun at the call before
/// (a `tfgraph-slice <label>` measure, the label being what that slice did) and begins the slice
/// `next` names, if any. So the browser's performance timeline (and the e2e typing test) shows
/// which part of a large build holds the page's thread.
#[derive(Clone, Default)]
struct Slices(std::rc::Rc<std::cell::RefCell<Option<String>>>);

impl Slices {
    fn next(&self, next: Option<&str>) {
        use super::marks::{mark, measure};
        if let Some(prev) = self.0.borrow_mut().take() {
            mark("tfgraph-slice-end");
            measure(
                &format!("tfgraph-slice {prev}"),
                "tfgraph-slice",
                "tfgraph-slice-end",
                &["tfgraph-slice", "tfgraph-slice-end"],
            );
        }
        if let Some(n) = next {
            // A slice begun by an analysis that a newer one replaced was never measured.
            super::marks::forget(&["tfgraph-slice"]);
            mark("tfgraph-slice");
            *self.0.borrow_mut() = Some(n.to_string());
        }
    }
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

/// Calls `changed` with the element's client width and height after each layout that resized it
/// (a `ResizeObserver`, disconnected with the owner; it also reports the first layout), and with
/// `now` once as soon as the element is in the page (a layout of the page then): what a view reads
/// of its size, so that it never asks the page in the middle of a frame.
pub(super) fn watch_size(
    node: NodeRef<leptos::html::Div>,
    now: bool,
    changed: impl Fn(f64, f64) + 'static,
) {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    let observer: StoredValue<Option<web_sys::ResizeObserver>, LocalStorage> =
        StoredValue::new_local(None);
    node.on_load(move |el| {
        let target: web_sys::Element = (*el).clone().unchecked_into();
        let read = target.clone();
        let call = move || {
            changed(
                f64::from(read.client_width()),
                f64::from(read.client_height()),
            )
        };
        if now {
            call();
        }
        let call = Closure::<dyn FnMut()>::new(call);
        if let Ok(ro) = web_sys::ResizeObserver::new(call.as_ref().unchecked_ref()) {
            ro.observe(&target);
            observer.set_value(Some(ro));
        }
        // Owned by the observer from now on; the observer is disconnected with its owner.
        call.forget();
    });
    on_cleanup(move || {
        if let Some(ro) = observer.try_get_value().flatten() {
            ro.disconnect();
        }
    });
}

impl Work {
    /// The files as storage kept them (else the first example), with their root module and the
    /// notice of what the restore found.
    fn restore() -> Work {
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
        Work {
            files: RwSignal::new(start.clone()),
            active: RwSignal::new(first),
            analyzed: RwSignal::new(start),
            root: RwSignal::new(root),
            reading: RwSignal::new(0),
            workspace: StoredValue::new(0),
            notices: RwSignal::new(notices),
            save_ok: StoredValue::new(storage::can_save()),
            conflicted: StoredValue::new(false),
            unsaved: RwSignal::new(false),
            pending_save: StoredValue::new(None),
            typing: StoredValue::new(false),
        }
    }
}

/// A shown graph worked out ahead: of `analysis` at `step` with `opts`.
struct Prepared {
    analysis: Arc<Analysis>,
    step: Option<usize>,
    opts: crate::page::view::ViewOpts,
    shown: Shown,
}

/// The view settings the shown graph is worked out with (tracked): opened vertices are drawn in
/// Inspect mode only. The walk runs on the graph as built (and expands what it reaches itself);
/// the mode is read only when something is opened: otherwise starting a walk would work the
/// shown graph out again for the same result (17 ms at 10,000 resources, in the click's task).
fn shown_opts(gv: view::GraphView, mode: RwSignal<Mode>) -> crate::page::view::ViewOpts {
    let mut opts = gv.opts();
    if !opts.open.is_empty() && mode.get() != Mode::Inspect {
        opts.open.clear();
    }
    opts
}

impl Build {
    /// Works out the shown graph of `a`, about to be installed, as the view stands now, so that
    /// installing it (in a later task) does not: at 10,000 generated resources these are
    /// 14–20 ms of the install's task, whose layout and drawing take as long again.
    pub(super) fn prepare_shown(
        self,
        a: &Arc<Analysis>,
        gv: view::GraphView,
        mode: RwSignal<Mode>,
    ) {
        if a.graph.is_none() {
            return;
        }
        let step = self.step.get_untracked();
        let opts = untrack(|| shown_opts(gv, mode));
        let shown = timed("shown-ahead", || crate::page::view::shown(a, step, &opts));
        self.prepared.set_value(Some(Prepared {
            analysis: a.clone(),
            step,
            opts,
            shown,
        }));
    }

    /// Nothing built yet; what is shown follows the graph views `gv` and the `mode`.
    fn new(gv: view::GraphView, mode: RwSignal<Mode>) -> Build {
        let analysis = RwSignal::new(Arc::new(Analysis::default()));
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
        let off = super::engine::OffThread::start();
        let prepared = StoredValue::new(None::<Prepared>);
        let shown = Memo::new(move |_| {
            let opts = shown_opts(gv, mode);
            let step = step.get();
            // Taken whether it fits or not: it is of the analysis just installed, if any.
            let ahead = prepared.try_update_value(Option::take).flatten();
            good.with(|g| match g {
                Some(a) => {
                    if let Some(p) = ahead
                        .filter(|p| Arc::ptr_eq(&p.analysis, a) && p.step == step && p.opts == opts)
                    {
                        return p.shown;
                    }
                    // Opened vertices of an analysis the worker made are drawn once it has
                    // said what they open into.
                    if a.remote.is_some() && !opts.open.is_empty() {
                        off.track_answers();
                        for name in &opts.open {
                            if let Err(q) = crate::page::expanded::lookup(a, name) {
                                off.ask_about(a, q);
                            }
                        }
                    }
                    timed("shown", || crate::page::view::shown(a, step, &opts))
                }
                None => Shown::default(),
            })
        });
        let hint = StoredValue::new(None::<Arc<crate::layout::Layout>>);
        let tidy = RwSignal::new(0u64);
        let tidied = StoredValue::new(0u64);
        let layout_cache: view::SceneCache = StoredValue::new(None);
        // While a build step is chosen: every step's vertices and edges laid out once, so that
        // stepping moves nothing (`None` when too big: then each step is laid out alone; a
        // large one is made by the engine's worker, meanwhile the last drawing stays).
        let stepping = Memo::new(move |_| step.get().is_some());
        let steps_layout = Memo::new(move |_| {
            if !stepping.get() {
                return None;
            }
            let opts = gv.opts();
            good.with(|g| {
                let a = g.as_ref()?;
                timed("steps-layout", || view::steps_layout(a, &opts, off))
            })
        });
        // Compared by identity, as `good`: a new layout is a new scene.
        let scene = Memo::new_with_compare(
            move |_| {
                let asked = tidy.get();
                if asked != tidied.get_value() {
                    tidied.set_value(asked);
                    hint.set_value(None);
                    if let Some(old) = layout_cache.try_update_value(Option::take).flatten() {
                        view::drop_when_idle(old);
                    }
                }
                shown.with(|s| {
                    let at_step = s.replay.as_ref().and_then(|_| {
                        steps_layout.with(|all| {
                            all.as_ref().map(|all| match all {
                                view::StepsLayout::Ready(all) => Arc::new(view::at_step(all, s)),
                                view::StepsLayout::Pending(message) => {
                                    view::step_pending(s, layout_cache, message)
                                }
                            })
                        })
                    });
                    let sc = at_step.unwrap_or_else(|| {
                        timed("layout", || {
                            view::scene(s, hint.get_value(), layout_cache, off)
                        })
                    });
                    hint.set_value(sc.previous());
                    sc
                })
            },
            |a: Option<&Arc<Scene>>, b: Option<&Arc<Scene>>| match (a, b) {
                (Some(a), Some(b)) => !Arc::ptr_eq(a, b),
                _ => true,
            },
        );
        Build {
            kind: RwSignal::new(BuilderKind::Plan),
            analysis,
            progress: RwSignal::new(None),
            large: RwSignal::new(false),
            took: RwSignal::new(None),
            generation: StoredValue::new(0),
            built: RwSignal::new(0),
            good,
            analysis_workspace,
            step,
            shown,
            prepared,
            scene,
            tidy,
            targets: RwSignal::new(String::new()),
            excludes: RwSignal::new(String::new()),
            off,
        }
    }
}

impl Selection {
    /// Nothing selected, focused or searched, over `build`'s shown graph and scene.
    fn new(build: Build) -> Selection {
        let (shown, scene) = (build.shown, build.scene);
        let selected = RwSignal::new(None::<String>);
        let related = Memo::new(move |_| {
            let Some(name) = selected.get() else {
                return Related::default();
            };
            shown.with(|s| Related::of(&s.graph, &name))
        });
        let focused = RwSignal::new(None::<String>);
        let key_order = Memo::new(move |_| scene.with(|sc| crate::page::keys::order(sc)));
        let tab_stop = Memo::new(move |_| {
            key_order.with(|o| {
                focused.with(|f| {
                    selected.with(|s| {
                        crate::page::keys::tab_stop(o, f.as_deref(), s.as_deref()).map(String::from)
                    })
                })
            })
        });
        Selection {
            selected,
            related,
            focused,
            key_order,
            tab_stop,
            search: RwSignal::new(String::new()),
            goto: RwSignal::new(None),
        }
    }
}

impl Canvas {
    /// The identity view of `scene` on a canvas not laid out yet.
    fn new(scene: Memo<Arc<Scene>>) -> Canvas {
        Canvas {
            xf: RwSignal::new((0.0, 0.0, 1.0)),
            node: NodeRef::new(),
            px: RwSignal::new(None),
            dragged: StoredValue::new(false),
            fitted: StoredValue::new(None),
            scene,
            moving: RwSignal::new(false),
            settle: StoredValue::new(None),
        }
    }
}

impl Walk {
    /// No walk yet of the graph `good`.
    fn new(good: Good) -> Walk {
        let view = RwSignal::new(WalkView::default());
        Walk {
            rt: StoredValue::new_local(None),
            serial: StoredValue::new(0),
            view,
            playing: RwSignal::new(false),
            speed: RwSignal::new(4.0),
            parallelism: RwSignal::new(10),
            failures: RwSignal::new(BTreeSet::new()),
            walking: Memo::new(move |_| view.with(|v| v.started)),
            critical: Memo::new(move |_| view.with(|v| v.critical.clone())),
            ui: WalkUi::new(),
            good,
            epoch: Memo::new(move |prev: Option<&crate::page::walk::WalkEpoch>| {
                good.with(|g| crate::page::walk::WalkEpoch::after(prev, g.as_deref()))
            }),
        }
    }
}

impl Ctx {
    pub(super) fn new() -> Ctx {
        let work = Work::restore();
        let gv = view::GraphView::new();
        let shell = Shell {
            mode: RwSignal::new(Mode::Inspect),
            tab: RwSignal::new(Tab::Details),
            pane: RwSignal::new(Pane::Graph),
            stage: RwSignal::new(2),
        };
        let build = Build::new(gv, shell.mode);
        let sel = Selection::new(build);
        Ctx {
            work,
            build,
            sel,
            canvas: Canvas::new(build.scene),
            walk: Walk::new(build.good),
            shell,
            gv,
            ov: Overlays::new(build.shown, sel.selected),
            learn: LearnUi::new(storage::load_lessons()),
        }
    }

    /// Provides the bundle and each concern as a context of their own, so a view that needs one
    /// concern takes only that one (`expect_context::<Walk>()`).
    pub(super) fn provide(self) {
        provide_context(self);
        provide_context(self.work);
        provide_context(self.build);
        provide_context(self.sel);
        provide_context(self.canvas);
        provide_context(self.walk);
        provide_context(self.shell);
        provide_context(self.gv);
        provide_context(self.ov);
        provide_context(self.learn);
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
        let b = self.build;
        b.generation.update_value(|g| *g += 1);
        let mine = b.generation.get_value();
        let ws = self.work.workspace.get_value();
        let size: usize = files.iter().map(|(p, t)| p.len() + t.len()).sum();
        let large = size >= model::SLICE_FROM_BYTES;
        if b.large.get_untracked() != large {
            b.large.set(large);
        }
        let asked = performance_now();
        let live = move || b.generation.try_get_value() == Some(mine);
        let install = move |a: Arc<model::Analysis>| {
            self.gv.collapse_on_open(a.graph.as_ref(), ws);
            b.analysis_workspace.set_value(ws);
            view::drop_when_idle(b.analysis.get_untracked());
            b.analysis.set(a);
            b.built.set(mine);
            if large {
                b.took.set(Some(performance_now() - asked));
            }
        };
        if size < model::SLICE_FROM_BYTES && mine == 1 {
            // The page's first build: the mount, the analysis and the drawing each in a task of
            // their own, so that the page answers input between them while it starts (one task
            // of about 550 ms on a phone-speed CPU before, Lighthouse's total blocking time).
            b.progress.set(None);
            leptos::task::spawn_local(async move {
                yield_to_browser().await;
                if !live() {
                    return;
                }
                // The analysis itself also gives the browser a task between two of its phases
                // once it has run `FIRST_BUILD_TASK_MS` since the last: on a phone-speed CPU the
                // example's build was one task of about 85 ms, blocking time for Lighthouse.
                // Where it yields changes nothing in what it makes.
                let since = std::rc::Rc::new(std::cell::Cell::new(performance_now()));
                let pause = |_| {
                    let since = since.clone();
                    let due = performance_now() - since.get() >= FIRST_BUILD_TASK_MS;
                    async move {
                        if due {
                            yield_to_browser().await;
                            since.set(performance_now());
                        }
                        live()
                    }
                };
                super::marks::begin("analysis");
                let a = model::analyze_with(&files, kind, &opts, pause).await;
                super::marks::end("analysis");
                let Some(a) = a else { return };
                yield_to_browser().await;
                if live() {
                    install(Arc::new(a));
                }
            });
            return;
        }
        if size < model::SLICE_FROM_BYTES {
            b.progress.set(None);
            install(Arc::new(timed("analysis", || {
                model::analyze(&files, kind, &opts)
            })));
            return;
        }
        // In the engine's worker when there is one (tracked: if it fails, this runs again and
        // analyses on the page).
        if b.off.usable() {
            b.progress.set(Some(model::Progress {
                label: "Loading the configuration".into(),
                done: 0,
                total: 1,
            }));
            b.off.analyze(
                &files,
                kind,
                &opts,
                move |p| {
                    if live() {
                        b.progress.set(Some(p));
                    }
                },
                move |a| {
                    if !live() {
                        return;
                    }
                    b.progress.set(Some(model::Progress {
                        label: "Laying out and drawing".into(),
                        done: 1,
                        total: 1,
                    }));
                    // The shown graph in a task of its own, then the install (the layout
                    // and the drawing) in the next: each a frame's work or so at 10,000
                    // generated resources, where together they missed two or three frames.
                    leptos::task::spawn_local(async move {
                        yield_to_browser().await;
                        if !live() {
                            return;
                        }
                        let a = Arc::new(a);
                        b.prepare_shown(&a, self.gv, self.shell.mode);
                        yield_to_browser().await;
                        if live() {
                            install(a);
                            b.progress.set(None);
                        }
                    });
                },
            );
            return;
        }
        let slices = Slices::default();
        let timing = slices.clone();
        leptos::task::spawn_local(async move {
            let pause = move |p: model::Progress| {
                let timing = timing.clone();
                async move {
                    timing.next(None);
                    if !live() {
                        return false;
                    }
                    let label = p.label.clone();
                    b.progress.set(Some(p));
                    yield_to_browser().await;
                    timing.next(Some(&label));
                    live()
                }
            };
            let analysed = model::analyze_with(&files, kind, &opts, pause).await;
            slices.next(None);
            if let Some(a) = analysed
                && live()
            {
                b.progress.set(Some(model::Progress {
                    label: "Laying out and drawing".into(),
                    done: 1,
                    total: 1,
                }));
                yield_to_browser().await;
                if live() {
                    install(Arc::new(a));
                    b.progress.set(None);
                }
            }
        });
    }

    /// The root module, targets and excludes as the analysis takes them.
    pub(super) fn options(self) -> model::Options {
        model::Options {
            root: self.work.root.get(),
            targets: crate::page::files::address_list(&self.build.targets.get()),
            excludes: crate::page::files::address_list(&self.build.excludes.get()),
        }
    }

    /// Opens the `(expand)` vertex `name` into its sub-graph, or closes the opened vertex it is
    /// or was drawn for (which is then selected); from Walk mode it goes back to Inspect mode,
    /// where opened vertices are drawn. False when `name` has no sub-graph to open
    /// ([`crate::page::expanded::of_vertex`]: its details say why).
    pub(super) fn toggle_expansion(self, name: &str) -> bool {
        let mode = self.shell.mode;
        let inspecting = mode.get_untracked() == Mode::Inspect;
        let opened = self.build.shown.with_untracked(|s| {
            let i = s.graph.index_of(name)?;
            let x = crate::page::view::opened_by(s, i)?;
            Some(s.graph.vertex(x)?.name.clone())
        });
        if let Some(x) = opened.filter(|_| inspecting) {
            self.gv.toggle_open(&x);
            if x != name {
                self.sel.selected.set(Some(x));
            }
            return true;
        }
        // (For an analysis the worker made whose answer has not arrived, it is asked for: the
        // details panel then offers to open it.)
        let opens = self.build.good.with_untracked(|g| {
            g.as_ref()
                .is_some_and(|a| match crate::page::expanded::lookup(a, name) {
                    Ok(o) => matches!(o, Some(crate::page::expanded::Opening::Sub(_))),
                    Err(q) => {
                        self.build.off.ask_about(a, q);
                        false
                    }
                })
        });
        if !opens {
            return false;
        }
        if !inspecting {
            mode.set(Mode::Inspect);
        }
        self.gv.open.update(|o| {
            o.insert(name.to_string());
        });
        true
    }

    /// Selects the next (previous) drawn vertex matching the search, shows its details and
    /// moves the view to it.
    pub(super) fn next_search_match(self, back: bool) {
        let q = self.sel.search.get_untracked();
        let matches = self
            .build
            .shown
            .with_untracked(|s| crate::page::view::search(s, &q));
        let current = self.sel.selected.get_untracked();
        let Some((_, name)) = crate::page::view::next_match(&matches, current.as_deref(), back)
        else {
            return;
        };
        let name = name.to_string();
        self.canvas.centre_on(&name);
        self.sel.selected.set(Some(name));
        self.shell.tab.set(Tab::Details);
    }

    /// "2 of 5" while a match is selected, else how many vertices match (empty without a query).
    pub(super) fn search_position(self) -> String {
        let q = self.sel.search.get();
        if q.trim().is_empty() {
            return String::new();
        }
        let matches = self.build.shown.with(|s| crate::page::view::search(s, &q));
        let n = matches.len();
        match self.sel.selected.with(|sel| {
            sel.as_ref()
                .and_then(|x| matches.iter().position(|m| m == x))
        }) {
            _ if n == 0 => "no match".to_string(),
            Some(i) => format!("{} of {n}", i + 1),
            None if n == 1 => "1 match · Enter".to_string(),
            None => format!("{n} matches · Enter"),
        }
    }

    /// True when the whole page is mounted and what is drawn is built from the files as they are:
    /// no typing waits for its debounce, no file is being read, and the latest analysis has
    /// finished and is drawn (no layout is under way in the engine's worker). Shown as the app's
    /// `data-settled` attribute, which tests (and scripts driving the page) wait for instead of
    /// guessing a delay.
    pub(super) fn settled(self) -> bool {
        let (w, b) = (self.work, self.build);
        self.shell.stage.get() == 2
            && w.reading.get() == 0
            && !w.unsaved.get()
            && b.progress.with(Option::is_none)
            && b.scene.with(|s| s.pending.is_none())
            && b.built.get() == b.generation.get_value()
            && w.files.with(|f| w.analyzed.with(|a| f == a))
    }
}

impl Work {
    /// Shows a notice (see `page::notices::push`).
    pub(super) fn notify(self, text: String, download: Option<(String, String)>) {
        self.notices
            .update(|ns| _ = notices::push(ns, text, download, false, false, |_| false));
    }

    /// Rebuilds the graph from the current files at once.
    pub(super) fn analyze_now(self) {
        self.analyzed.set(self.files.get_untracked());
    }

    /// The files changed: saves them at once, or for a large workspace a moment after the last
    /// edit ([`crate::page::files::save_delay`]; the crash banner meanwhile knows them as
    /// unsaved, and leaving or hiding the page saves them at once: [`Work::save_pending`]).
    pub(super) fn files_changed(self) {
        if let Some(h) = self.pending_save.get_value() {
            h.clear();
            self.pending_save.set_value(None);
        }
        match self.files.with_untracked(crate::page::files::save_delay) {
            None => {
                self.files.with_untracked(|f| self.autosave(f));
                if self.unsaved.get_untracked() {
                    self.unsaved.set(false);
                }
            }
            Some(ms) => {
                self.files.with_untracked(|f| crash::remember(f, false));
                if !self.unsaved.get_untracked() {
                    self.unsaved.set(true);
                }
                let later =
                    set_timeout_with_handle(move || self.save_pending(), Duration::from_millis(ms));
                self.pending_save.set_value(later.ok());
            }
        }
    }

    /// A keystroke put its text into `files` without telling what reads them. Returns whether it
    /// is the first since the last frame: the caller then asks for a frame, at which
    /// [`Work::typed_frame`] tells them.
    pub(super) fn typed(self) -> bool {
        let first = !self.typing.get_value();
        self.typing.set_value(true);
        first
    }

    /// The frame after keystrokes: what reads the files hears of them (the highlighted text, the
    /// textarea's value, the autosave's timer).
    pub(super) fn typed_frame(self) {
        if self.typing.try_get_value() == Some(true) {
            _ = self.typing.try_set_value(false);
            self.files.notify();
        }
    }

    /// Saves edits that wait for their delayed save, now, with keystrokes made since the last
    /// frame. Called from a timer and from page events, so it touches nothing of a page already
    /// taken down.
    pub(super) fn save_pending(self) {
        if self.typing.try_get_value() == Some(true) {
            // The page is left within the frame of a keystroke: saved at once (a large
            // workspace's delayed save is started here and done just below).
            self.typed_frame();
            self.files_changed();
        }
        if let Some(h) = self.pending_save.try_get_value().flatten() {
            h.clear();
            _ = self.pending_save.try_set_value(None);
        }
        if self.unsaved.try_get_untracked() == Some(true) {
            _ = self.files.try_with_untracked(|f| self.autosave(f));
            _ = self.unsaved.try_set(false);
        }
    }

    /// Saves the files; a refusal is told once, not on every keystroke.
    pub(super) fn autosave(self, files: &BTreeMap<String, String>) {
        // Measured (`tfgraph-save`): a save of a large workspace is one task the page waits for.
        timed("save", || self.save_now(files));
    }

    fn save_now(self, files: &BTreeMap<String, String>) {
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
}

impl Canvas {
    /// The size taken for the canvas before it has been laid out.
    pub(super) const UNKNOWN_SIZE: (f64, f64) = (800.0, 600.0);

    /// Fits the drawing into the canvas (its size read from the page: a Fit the user asks for
    /// sees a change of the canvas made in the same frame).
    pub(super) fn fit(self) {
        self.fit_to(self.size());
    }

    /// Fits a drawing just redrawn, to the canvas's size as the last layout left it: reading the
    /// size from the page here would lay out the whole new drawing at once, and the browser lays
    /// it out again when the view moves. Should the canvas have changed size in this frame, the
    /// `ResizeObserver` of `graph.rs` fits again once the layout is done. Before the canvas's
    /// first layout (the page's first drawing) the fit is to a guess, and its observer's first
    /// report, later in the same frame and before the paint, fits again ([`Canvas::first_size`]):
    /// asking the page then laid the whole page out at once (on a phone-speed CPU a task of
    /// about 35 ms, blocking time for Lighthouse).
    pub(super) fn fit_redrawn(self) {
        let size = self.px.try_get_untracked().flatten();
        self.fit_to(size.unwrap_or(Self::UNKNOWN_SIZE));
    }

    /// The canvas's first size once laid out: a view as the last fit left it is fitted to it.
    pub(super) fn first_size(self, now: (f64, f64)) {
        if self.as_fitted() {
            self.fit_to(now);
        }
    }

    /// Whether the view is as the last fit left it (neither the user nor the search moved it).
    fn as_fitted(self) -> bool {
        self.fitted.try_get_value().flatten() == self.xf.try_get_untracked()
    }

    fn fit_to(self, (cw, ch): (f64, f64)) {
        let (w, h) = self.scene.with_untracked(|s| (s.width, s.height));
        let xf = crate::page::scene::fit(w, h, cw, ch);
        // Only on a change: each set moves (and repaints) the whole drawing.
        if self.xf.get_untracked() != xf {
            self.xf.set(xf);
        }
        self.fitted.set_value(Some(xf));
    }

    /// The graph canvas's size in pixels, read from the page (a default before it is laid out).
    pub(super) fn size(self) -> (f64, f64) {
        self.node
            .get_untracked()
            .map(|el| (el.client_width() as f64, el.client_height() as f64))
            .filter(|(w, h)| *w > 0.0 && *h > 0.0)
            .unwrap_or(Self::UNKNOWN_SIZE)
    }

    /// Moves the view so that the drawn vertex `name` is in the canvas's centre.
    pub(super) fn centre_on(self, name: &str) {
        let (cw, ch) = self.size();
        let xf = self.xf.get_untracked();
        if let Some(to) = self
            .scene
            .with_untracked(|sc| crate::page::scene::centre_on(sc, name, xf, cw, ch))
        {
            self.xf.set(to);
        }
    }

    /// After the canvas changed size from `before` to `now`: a view the last fit left is fitted
    /// again; a view the user (or the search) moved keeps what was at its centre there.
    pub(super) fn resized(self, before: (f64, f64), now: (f64, f64)) {
        let xf = self.xf.get_untracked();
        if self.as_fitted() {
            self.refit_if_untouched();
        } else {
            self.xf
                .set(crate::page::scene::keep_centre(xf, before, now));
        }
    }

    /// Fits the graph again after the canvas changed size, unless the user moved the view.
    /// To the canvas's size as last laid out (`px`, [`Canvas::fit_redrawn`]): reading it here
    /// would lay out the page at once (the timeline opening is a thousand rows at 10,000
    /// resources), and when the canvas did change size its `ResizeObserver` fits again.
    pub(super) fn refit_if_untouched(self) {
        request_animation_frame(move || {
            if self.as_fitted() {
                self.fit_redrawn();
            }
        });
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
        let (cw, ch) = self.size();
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

    /// The view moved under a gesture: the drawing becomes (or stays) a compositor layer until
    /// the gesture has been still for [`SETTLE_MS`]. Moving such a layer costs the browser no
    /// paint: with 5,000 vertices, a pan or a wheel zoom that set the drawing's SVG transform
    /// repainted every element each frame (21 frames/s panning at Fit, 6.5 zooming with labels).
    /// The layer keeps the scale it was painted at, so a zoom looks soft until it settles and is
    /// painted again at the new scale.
    pub(super) fn moved(self) {
        if !self.moving.get_untracked() {
            self.moving.set(true);
        }
        if let Some(h) = self.settle.get_value() {
            h.clear();
        }
        let settled = leptos::prelude::set_timeout_with_handle(
            move || {
                _ = self.moving.try_set(false);
            },
            std::time::Duration::from_millis(SETTLE_MS),
        );
        self.settle.set_value(settled.ok());
    }

    /// Zooms by `factor` about the canvas point (`cx`, `cy`), or its centre.
    pub(super) fn zoom(self, factor: f64, at: Option<(f64, f64)>) {
        let (cx, cy) = at.unwrap_or_else(|| {
            self.node
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
}

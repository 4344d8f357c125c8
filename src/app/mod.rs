//! The web app (Leptos 0.8, client-side rendering), mounted by Trunk from `src/bin/tfgraph-web.rs`.
//!
//! Layout: a header; the editor (files, block outline, diagnostics) on the left; the graph in the
//! middle (SVG drawn from [`model::Scene`], pan/zoom, legend); a side panel with the selected
//! vertex, the builder's steps and the examples; the walk controls at the bottom. Every view reads
//! engine results; user text is only ever set as text, attribute or form values, never as HTML.

mod examples;
mod model;
mod storage;
mod walkrt;

use crate::builder::BuilderKind;
use crate::outline::outline;
use examples::{EXAMPLES, Example};
use leptos::prelude::*;
use model::{Analysis, GraphData, Kind, Replay, SNode, Scene};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use walkrt::{VState, WalkRt, WalkView};

/// The example loaded on first visit: small, but it shows references, a data source, a variable and
/// an output, so the first graph has something to say.
pub const EXAMPLE: &str = r#"variable "region" {
  default = "eu-west-1"
}

provider "aws" {
  region = var.region
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

resource "aws_instance" "web" {
  ami           = data.aws_ami.ubuntu.id
  instance_type = "t3.micro"
}

resource "aws_eip" "web" {
  instance = aws_instance.web.id
}

output "public_ip" {
  value = aws_eip.web.public_ip
}
"#;

/// How long typing must pause before the graph is rebuilt.
const DEBOUNCE: Duration = Duration::from_millis(250);

/// Mounts the app on the page body. Called by the `tfgraph-web` binary.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Inspect,
    Walk,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Details,
    Steps,
    Examples,
    Export,
}

/// The graph on screen: the built graph, or the replay of the builder up to a chosen step.
#[derive(Debug, Clone, Default, PartialEq)]
struct Shown {
    graph: GraphData,
    replay: Option<Replay>,
    cycle_nodes: BTreeSet<usize>,
    cycle_edges: BTreeSet<(usize, usize)>,
}

/// The selected vertex and what is upstream (ancestors) and downstream (descendants) of it.
#[derive(Debug, Clone, Default, PartialEq)]
struct Related {
    selected: Option<usize>,
    up: BTreeSet<usize>,
    down: BTreeSet<usize>,
}

/// Every signal the views share (all `Copy` handles).
#[derive(Clone, Copy)]
struct Ctx {
    files: RwSignal<BTreeMap<String, String>>,
    active: RwSignal<String>,
    analyzed: RwSignal<BTreeMap<String, String>>,
    kind: RwSignal<BuilderKind>,
    analysis: Memo<Analysis>,
    good: Memo<Option<Analysis>>,
    step: RwSignal<Option<usize>>,
    shown: Memo<Shown>,
    scene: Memo<Scene>,
    selected: RwSignal<Option<String>>,
    related: Memo<Related>,
    mode: RwSignal<Mode>,
    tab: RwSignal<Tab>,
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
    /// The walk's critical path (vertex indexes): its own memo, so walk frames that do not
    /// change it do not touch every edge.
    critical: Memo<BTreeSet<usize>>,
}

fn example_files(e: &Example) -> BTreeMap<String, String> {
    e.files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

fn initial_files() -> BTreeMap<String, String> {
    storage::load_files()
        .filter(|f| !f.is_empty())
        .or_else(|| storage::load_text().map(|t| BTreeMap::from([("main.tf".to_string(), t)])))
        .unwrap_or_else(|| example_files(&EXAMPLES[0]))
}

fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl Ctx {
    fn new() -> Ctx {
        let start = initial_files();
        let first = if start.contains_key("main.tf") {
            "main.tf".to_string()
        } else {
            start
                .keys()
                .next()
                .cloned()
                .unwrap_or_else(|| "main.tf".into())
        };
        let files = RwSignal::new(start.clone());
        let analyzed = RwSignal::new(start);
        let kind = RwSignal::new(BuilderKind::Plan);
        let analysis = Memo::new(move |_| analyzed.with(|f| model::analyze(f, kind.get())));
        let good = Memo::new(move |prev: Option<&Option<Analysis>>| {
            let a = analysis.get();
            if a.graph.is_some() {
                Some(a)
            } else {
                prev.cloned().flatten()
            }
        });
        let step = RwSignal::new(None::<usize>);
        let shown = Memo::new(move |_| {
            good.with(|g| {
                let Some(a) = g else {
                    return Shown::default();
                };
                if let Some(k) = step.get().filter(|k| *k < a.steps.len()) {
                    let r = model::replay(&a.steps, k);
                    return Shown {
                        graph: r.graph.clone(),
                        replay: Some(r),
                        ..Shown::default()
                    };
                }
                let graph = a.graph.clone().unwrap_or_default();
                let mut cycle_nodes = BTreeSet::new();
                let mut cycle_edges = BTreeSet::new();
                for c in &a.cycles {
                    let members: BTreeSet<usize> =
                        c.iter().filter_map(|n| graph.index_of(n)).collect();
                    for &(x, y) in &graph.edges {
                        if members.contains(&x) && members.contains(&y) {
                            cycle_edges.insert((x, y));
                        }
                    }
                    cycle_nodes.extend(members);
                }
                Shown {
                    graph,
                    replay: None,
                    cycle_nodes,
                    cycle_edges,
                }
            })
        });
        let hint = StoredValue::new(None::<BTreeMap<String, f64>>);
        let scene = Memo::new(move |_| {
            shown.with(|s| {
                let sc = model::scene(&s.graph, hint.get_value());
                hint.set_value(Some(sc.hint.clone()));
                sc
            })
        });
        let selected = RwSignal::new(None::<String>);
        let related = Memo::new(move |_| {
            let Some(name) = selected.get() else {
                return Related::default();
            };
            shown.with(|s| match s.graph.index_of(&name) {
                Some(i) => Related {
                    selected: Some(i),
                    up: s.graph.reach(i, true),
                    down: s.graph.reach(i, false),
                },
                None => Related::default(),
            })
        });
        let walk_view = RwSignal::new(WalkView::default());
        Ctx {
            files,
            active: RwSignal::new(first),
            analyzed,
            kind,
            analysis,
            good,
            step,
            shown,
            scene,
            selected,
            related,
            mode: RwSignal::new(Mode::Inspect),
            tab: RwSignal::new(Tab::Details),
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
            critical: Memo::new(move |_| walk_view.with(|v| v.critical.clone())),
        }
    }

    /// Fits the drawing into the canvas.
    fn fit(self) {
        let (w, h) = self.scene.with_untracked(|s| (s.width, s.height));
        let (cw, ch) = self
            .canvas
            .get_untracked()
            .map(|el| (el.client_width() as f64, el.client_height() as f64))
            .filter(|(w, h)| *w > 0.0 && *h > 0.0)
            .unwrap_or((800.0, 600.0));
        if w <= 0.0 || h <= 0.0 {
            self.xf.set((0.0, 0.0, 1.0));
            return;
        }
        let s = ((cw - 32.0) / w).min((ch - 32.0) / h).clamp(0.15, 1.0);
        self.xf
            .set(((cw - w * s) / 2.0, ((ch - h * s) / 2.0).max(8.0), s));
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
            let ns = (*s * factor).clamp(0.1, 4.0);
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

    fn load_example(self, e: &Example) {
        self.reset_walk();
        self.failures.set(BTreeSet::new());
        self.files.set(example_files(e));
        self.active.set("main.tf".into());
        self.selected.set(None);
        self.step.set(None);
        self.analyze_now();
    }

    fn reset_walk(self) {
        self.playing.set(false);
        self.rt.set_value(None);
        self.walk_view.set(WalkView::default());
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
        self.step.set(None);
        self.mode.set(Mode::Walk);
        let mut rt = WalkRt::start(
            &g,
            self.parallelism.get_untracked() as usize,
            &self.failures.get_untracked(),
        );
        self.walk_view.set(rt.view());
        self.rt.set_value(Some(rt));
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
        let v = self.rt.try_update_value(|r| {
            r.as_mut().map(|r| {
                r.step();
                r.view()
            })
        });
        if let Some(Some(v)) = v {
            self.walk_view.set(v);
        }
    }

    fn click_vertex(self, name: String) {
        if self.dragged.get_value() {
            return;
        }
        match self.mode.get_untracked() {
            Mode::Inspect => {
                self.selected.set(Some(name));
                self.tab.set(Tab::Details);
            }
            Mode::Walk => {
                self.failures.update(|f| {
                    if !f.remove(&name) {
                        f.insert(name);
                    }
                });
                // A walk that has not moved yet picks the change up.
                if self
                    .walk_view
                    .with_untracked(|v| v.now == 0.0 && v.done == 0)
                {
                    self.reset_walk();
                }
            }
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
                (r.view(), r.stepper.has_pending_timers())
            })
        });
        mark("walk-frame-simulated");
        match v {
            Some(Some((view, pending))) => {
                let stop = view.finished || !pending;
                ctx.walk_view.set(view);
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
    Effect::new(move |_| ctx.files.with(storage::save_files));
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

    view! {
        <div class="app">
            <header class="app-header">
                <h1 class="brand">"tfgraph"</h1>
                <p class="tagline">
                    "How Terraform and OpenTofu turn configuration into a dependency graph, and walk it."
                </p>
                <span class="spacer"></span>
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
                            <dt>"w"</dt><dd>"switch between Inspect and Walk clicks"</dd>
                            <dt>"[ ]"</dt><dd>"previous / next builder step"</dd>
                            <dt>"f"</dt><dd>"fit the graph"</dd>
                            <dt>"+ −"</dt><dd>"zoom in / out"</dd>
                            <dt>"Esc"</dt><dd>"clear the selection"</dd>
                            <dt>"?"</dt><dd>"this list"</dd>
                        </dl>
                        <p class="muted small">"Shortcuts work when the editor does not have the focus. Drag to pan, scroll to zoom."</p>
                        <button type="button" on:click=move |_| help.set(false)>"Close"</button>
                    </div>
                </div>
            </Show>
            <main class="workspace">
                <EditorPane ctx=ctx />
                <GraphPane ctx=ctx />
                <SidePanel ctx=ctx />
            </main>
            <WalkPanel ctx=ctx />
        </div>
    }
}

#[component]
fn EditorPane(ctx: Ctx) -> impl IntoView {
    let generation = StoredValue::new(0u64);
    let gutter: NodeRef<leptos::html::Div> = NodeRef::new();
    let text = move || {
        let a = ctx.active.get();
        ctx.files.with(|f| f.get(&a).cloned().unwrap_or_default())
    };
    let parsed = Memo::new(move |_| outline(&text()));
    let on_input = move |ev| {
        let value = event_target_value(&ev);
        let a = ctx.active.get_untracked();
        ctx.files.update(|f| {
            f.insert(a, value);
        });
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        set_timeout(
            move || {
                if generation.try_get_value() == Some(mine) {
                    ctx.analyze_now();
                }
            },
            DEBOUNCE,
        );
    };
    view! {
        <section class="pane editor-pane" aria-label="Configuration">
            <div class="pane-title file-tabs">
                {move || {
                    ctx.files
                        .with(|f| f.keys().cloned().collect::<Vec<_>>())
                        .into_iter()
                        .map(|name| {
                            let n2 = name.clone();
                            let n3 = name.clone();
                            view! {
                                <button
                                    type="button"
                                    class="file-tab"
                                    class:active=move || ctx.active.get() == n2
                                    on:click=move |_| ctx.active.set(n3.clone())
                                >
                                    {name}
                                </button>
                            }
                        })
                        .collect_view()
                }}
            </div>
            <div class="editor-wrap">
                <div class="gutter" node_ref=gutter aria-hidden="true">
                    {move || {
                        let lines = text().lines().count().max(1) + 1;
                        let a = ctx.active.get();
                        let bad: BTreeSet<usize> = ctx.analysis.with(|an| {
                            an.errors
                                .iter()
                                .filter(|d| d.file.as_deref() == Some(a.as_str()))
                                .map(|d| d.line)
                                .collect()
                        });
                        (1..=lines)
                            .map(|n| view! { <div class:bad=bad.contains(&n)>{n}</div> })
                            .collect_view()
                    }}
                </div>
                <textarea
                    id="editor"
                    class="editor"
                    spellcheck="false"
                    autocomplete="off"
                    wrap="off"
                    aria-label="HCL configuration"
                    prop:value=text
                    on:input=on_input
                    on:scroll=move |ev| {
                        use wasm_bindgen::JsCast;
                        if let (Some(g), Some(t)) = (
                            gutter.get_untracked(),
                            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()),
                        ) {
                            g.set_scroll_top(t.scroll_top());
                        }
                    }
                ></textarea>
            </div>
            <Diagnostics ctx=ctx />
            <div class="outline" aria-label="Blocks in this file">
                {move || match parsed.get() {
                    Ok(blocks) => {
                        let count = blocks.len();
                        view! {
                            <p class="outline-summary">
                                {format!("{count} block{}", if count == 1 { "" } else { "s" })}
                            </p>
                            <ul class="block-list">
                                {blocks
                                    .into_iter()
                                    .map(|b| {
                                        view! {
                                            <li class="block" data-kind=b.kind.clone()>
                                                <span class="block-kind">{b.kind.clone()}</span>
                                                <span class="block-labels">{b.labels.join(".")}</span>
                                                <span class="block-line">
                                                    {format!("line {}", b.line)}
                                                </span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                            .into_any()
                    }
                    Err(_) => {
                        view! { <p class="outline-summary">"Blocks: fix the syntax error first."</p> }
                            .into_any()
                    }
                }}
            </div>
        </section>
    }
}

#[component]
fn Diagnostics(ctx: Ctx) -> impl IntoView {
    view! {
        <div class="diagnostics" aria-live="polite">
            {move || {
                ctx.analysis
                    .with(|a| a.errors.iter().chain(a.warnings.iter()).cloned().collect::<Vec<_>>())
                    .into_iter()
                    .map(|d| {
                        let file = d.file.clone();
                        let line = d.line;
                        view! {
                            <div
                                class="diagnostic"
                                class:error=d.error
                                class:warning=!d.error
                                role=if d.error { "alert" } else { "status" }
                                on:click=move |_| {
                                    if let Some(f) = file.clone()
                                        && line > 0 && ctx.files.with_untracked(|m| m.contains_key(&f)) {
                                            ctx.active.set(f);
                                        }
                                }
                            >
                                {d.place.map(|p| view! { <span class="diag-where">{p}</span> })}
                                <span class="diag-message">
                                    <strong>{d.summary.clone()}</strong>
                                    {if d.detail.is_empty() { String::new() } else { format!(": {}", d.detail) }}
                                </span>
                            </div>
                        }
                    })
                    .collect_view()
            }}
        </div>
    }
}

/// Corner points of a vertex's shape, by kind.
fn shape_points(kind: Kind, w: f64, h: f64) -> Option<String> {
    let c = 7.0_f64.min(h / 3.0);
    let pts: Vec<(f64, f64)> = match kind {
        Kind::Provider => vec![
            (c, 0.0),
            (w - c, 0.0),
            (w, c),
            (w, h - c),
            (w - c, h),
            (c, h),
            (0.0, h - c),
            (0.0, c),
        ],
        Kind::ModuleExpand => vec![(c, 0.0), (w - c, 0.0), (w, h), (0.0, h)],
        Kind::ModuleClose => vec![(0.0, 0.0), (w, 0.0), (w - c, h), (c, h)],
        _ => return None,
    };
    Some(
        pts.iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn rounding(kind: Kind, h: f64) -> f64 {
    match kind {
        Kind::Variable | Kind::Local | Kind::Output | Kind::Root => h / 2.0,
        _ => 4.0,
    }
}

/// One vertex: shape, label, walk progress. Classes carry kind, state and highlighting.
fn vertex_view(ctx: Ctx, n: SNode) -> impl IntoView {
    let i = n.index;
    // Memos per vertex: a walk frame recomputes these cheaply, and the DOM is touched only for
    // the vertices whose state or progress changed.
    let st = Memo::new(move |_| {
        ctx.walk_view
            .with(|v| v.states.get(i).copied().unwrap_or_default())
    });
    let critical = Memo::new(move |_| ctx.critical.with(|v| v.contains(&i)));
    let progress = Memo::new(move |_| {
        ctx.walk_view
            .with(|v| (v.progress.get(i).copied().unwrap_or(0.0) * 200.0).round() / 200.0)
    });
    let name = n.name.clone();
    let n_for_class = n.name.clone();
    let class = move || {
        let mut c = format!("vertex kind-{}", n.kind.css());
        ctx.shown.with(|s| {
            if let Some(r) = &s.replay {
                if r.removed.contains(&n_for_class) {
                    c.push_str(" removed");
                } else if r.added.contains(&n_for_class) {
                    c.push_str(" added");
                }
            }
            if s.cycle_nodes.contains(&i) {
                c.push_str(" cycle");
            }
        });
        ctx.related.with(|r| {
            if r.selected == Some(i) {
                c.push_str(" selected");
            } else if r.up.contains(&i) {
                c.push_str(" ancestor");
            } else if r.down.contains(&i) {
                c.push_str(" descendant");
            } else if r.selected.is_some() {
                c.push_str(" dim");
            }
        });
        if ctx.failures.with(|f| f.contains(&n_for_class)) {
            c.push_str(" inject");
        }
        if critical.get() {
            c.push_str(" critical");
        }
        ctx.search.with(|q| {
            let q = q.trim();
            if !q.is_empty() {
                let hit = n_for_class.to_lowercase().contains(&q.to_lowercase());
                c.push_str(if hit { " match" } else { " nomatch" });
            }
        });
        c
    };
    let state = move || st.get().css();
    let progress_w = move || progress.get() * n.w;
    let shape = match shape_points(n.kind, n.w, n.h) {
        Some(p) => view! { <polygon class="shape" points=p></polygon> }.into_any(),
        None => view! {
            <rect class="shape" width=n.w height=n.h rx=rounding(n.kind, n.h)></rect>
        }
        .into_any(),
    };
    let click_name = name.clone();
    let data_name = name.clone();
    view! {
        <g
            class=class
            data-name=data_name
            data-state=state
            transform=format!("translate({:.1},{:.1})", n.x, n.y)
            on:click=move |ev| {
                ev.stop_propagation();
                ctx.click_vertex(click_name.clone());
            }
        >
            {shape}
            <rect
                class="progress"
                x="0"
                y=n.h - 3.0
                height="3"
                width=move || format!("{:.1}", progress_w())
            ></rect>
            <text class="label" x=n.w / 2.0 y=n.h / 2.0>
                {name}
            </text>
        </g>
    }
}

#[component]
fn GraphPane(ctx: Ctx) -> impl IntoView {
    let drag = StoredValue::new(None::<(f64, f64, f64, f64)>);
    let on_down = move |ev: web_sys::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        let (tx, ty, _) = ctx.xf.get_untracked();
        drag.set_value(Some((ev.client_x() as f64, ev.client_y() as f64, tx, ty)));
        ctx.dragged.set_value(false);
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if let Some((x0, y0, tx, ty)) = drag.get_value() {
            let dx = ev.client_x() as f64 - x0;
            let dy = ev.client_y() as f64 - y0;
            if dx.abs() + dy.abs() > 4.0 {
                ctx.dragged.set_value(true);
            }
            if ctx.dragged.get_value() {
                ctx.xf.update(|(a, b, _)| {
                    *a = tx + dx;
                    *b = ty + dy;
                });
            }
        }
    };
    let on_up = move |_| drag.set_value(None);
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let at = ctx.canvas.get_untracked().map(|el| {
            let r = el.get_bounding_client_rect();
            (
                ev.client_x() as f64 - r.left(),
                ev.client_y() as f64 - r.top(),
            )
        });
        ctx.zoom((-ev.delta_y() * 0.0015).clamp(-0.5, 0.5).exp(), at);
    };
    let stale = move || {
        ctx.analysis
            .with(|a| !a.errors.is_empty() && a.graph.is_none())
            && ctx.good.with(|g| g.is_some())
    };
    let counts = move || {
        ctx.shown.with(|s| {
            format!(
                "{} vertices · {} edges",
                s.graph.names.len(),
                s.graph.edges.len()
            )
        })
    };
    let step_banner = move || {
        let k = ctx.step.get()?;
        ctx.good.with(|g| {
            let a = g.as_ref()?;
            let s = a.steps.get(k)?;
            Some(view! {
                <div class="step-banner">
                    <strong>{format!("Step {} of {}: {}", k + 1, a.steps.len(), s.name)}</strong>
                    <span>{model::explain(&s.name)}</span>
                    <span class="step-delta">
                        {format!(
                            "+{} / −{} vertices, +{} / −{} edges",
                            s.added_vertices.len(),
                            s.removed_vertices.len(),
                            s.added_edges.len(),
                            s.removed_edges.len(),
                        )}
                    </span>
                </div>
            })
        })
    };
    view! {
        <section class="pane graph-pane" aria-label="Graph">
            <div class="pane-title graph-toolbar">
                <label class="graph-kind">
                    <span class="sr-only">"Graph type"</span>
                    <select
                        id="graph-kind"
                        prop:value=move || ctx.kind.get().as_str()
                        on:change=move |ev| {
                            if let Some(k) = BuilderKind::parse(&event_target_value(&ev)) {
                                ctx.kind.set(k);
                            }
                        }
                    >
                        {BuilderKind::ALL
                            .into_iter()
                            .map(|k| view! { <option value=k.as_str()>{k.as_str()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <div class="segmented" role="group" aria-label="Click mode">
                    <button
                        type="button"
                        class:active=move || ctx.mode.get() == Mode::Inspect
                        on:click=move |_| ctx.mode.set(Mode::Inspect)
                        title="Click a vertex to see its details"
                    >
                        "Inspect"
                    </button>
                    <button
                        type="button"
                        id="mode-walk"
                        class:active=move || ctx.mode.get() == Mode::Walk
                        on:click=move |_| ctx.mode.set(Mode::Walk)
                        title="Click a vertex to make it fail in the next walk"
                    >
                        "Walk"
                    </button>
                </div>
                <input
                    type="search"
                    class="graph-search"
                    placeholder="Find a vertex"
                    aria-label="Find a vertex"
                    prop:value=move || ctx.search.get()
                    on:input=move |ev| ctx.search.set(event_target_value(&ev))
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            let q = ctx.search.get_untracked().trim().to_lowercase();
                            let hit = ctx.shown.with_untracked(|s| {
                                s.graph.names.iter().find(|n| n.to_lowercase().contains(&q)).cloned()
                            });
                            if let Some(h) = hit.filter(|_| !q.is_empty()) {
                                ctx.selected.set(Some(h));
                                ctx.tab.set(Tab::Details);
                            }
                        }
                    }
                />
                <span class="graph-counts">{counts}</span>
                <span class="spacer"></span>

            </div>
            {step_banner}
            <div
                class="graph-canvas"
                node_ref=ctx.canvas
                on:pointerdown=on_down
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointerleave=on_up
                on:wheel=on_wheel
                on:click=move |_| {
                    if !ctx.dragged.get_value() {
                        ctx.selected.set(None);
                    }
                }
            >
                <svg class="graph-svg" width="100%" height="100%" role="img" aria-label="Dependency graph">
                    <defs>
                        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                            <path d="M0,0 L10,5 L0,10 z" class="arrowhead"></path>
                        </marker>
                        <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                            <line x1="0" y1="0" x2="0" y2="6" class="hatch-line"></line>
                        </pattern>
                    </defs>
                    <g transform=move || {
                        let (tx, ty, s) = ctx.xf.get();
                        format!("translate({tx:.1},{ty:.1}) scale({s:.4})")
                    }>
                        {move || {
                            ctx.scene
                                .with(|sc| sc.clusters.clone())
                                .into_iter()
                                .map(|c| {
                                    view! {
                                        <g class="cluster" data-depth=c.depth.to_string()>
                                            <rect x=c.x y=c.y width=c.w height=c.h rx="6"></rect>
                                            <text class="cluster-title" x=c.x + 8.0 y=c.y + 14.0>
                                                {c.title.clone()}
                                            </text>
                                        </g>
                                    }
                                })
                                .collect_view()
                        }}
                        {move || {
                            let names = ctx.shown.with(|s| s.graph.names.clone());
                            ctx.scene
                                .with(|sc| sc.edges.clone())
                                .into_iter()
                                .map(|e| {
                                    let key = (
                                        names.get(e.from).cloned().unwrap_or_default(),
                                        names.get(e.to).cloned().unwrap_or_default(),
                                    );
                                    let (a, b) = (e.from, e.to);
                                    let class = move || {
                                        let mut c = String::from("edge");
                                        ctx.shown.with(|s| {
                                            if let Some(r) = &s.replay {
                                                if r.removed_edges.contains(&key) {
                                                    c.push_str(" removed");
                                                } else if r.added_edges.contains(&key) {
                                                    c.push_str(" added");
                                                }
                                            }
                                            if s.cycle_edges.contains(&(a, b)) {
                                                c.push_str(" cycle");
                                            }
                                        });
                                        if ctx.critical.with(|v| v.contains(&a) && v.contains(&b)) {
                                            c.push_str(" critical");
                                        }
                                        ctx.related.with(|r| {
                                            if let Some(sel) = r.selected {
                                                let up = (a == sel || r.up.contains(&a)) && r.up.contains(&b);
                                                let down = (b == sel || r.down.contains(&b)) && r.down.contains(&a);
                                                c.push_str(if up || down { " related" } else { " dim" });
                                            }
                                        });
                                        c
                                    };
                                    view! { <path class=class d=e.d marker-end="url(#arrow)"></path> }
                                })
                                .collect_view()
                        }}
                        {move || {
                            ctx.scene
                                .with(|sc| sc.nodes.clone())
                                .into_iter()
                                .map(|n| vertex_view(ctx, n))
                                .collect_view()
                        }}
                    </g>
                </svg>
                <div class="zoom-buttons" on:click=|ev| ev.stop_propagation() on:pointerdown=|ev| ev.stop_propagation()>
                    <button type="button" title="Zoom out" aria-label="Zoom out" on:click=move |_| ctx.zoom(1.0 / 1.25, None)>
                        "−"
                    </button>
                    <button type="button" title="Zoom in" aria-label="Zoom in" on:click=move |_| ctx.zoom(1.25, None)>
                        "+"
                    </button>
                    <button type="button" title="Fit the graph" on:click=move |_| ctx.fit()>
                        "Fit"
                    </button>
                </div>
                <Show when=stale>
                    <span class="stale" title="The configuration has errors: fix them to update the graph">
                        "Showing the last graph that built"
                    </span>
                </Show>
                <Show when=move || ctx.shown.with(|s| s.graph.names.is_empty())>
                    <p class="empty-graph">"No graph yet: write some configuration on the left, or load an example."</p>
                </Show>
            </div>
            <Legend ctx=ctx />
        </section>
    }
}

#[component]
fn Legend(ctx: Ctx) -> impl IntoView {
    // None: the stylesheet decides (open on wide screens, closed on phones).
    let open = RwSignal::new(None::<bool>);
    let toggle = move |_| {
        let wide = web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|v| v.as_f64())
            .is_none_or(|w| w >= 760.0);
        let now = open.get_untracked().unwrap_or(wide);
        open.set(Some(!now));
    };
    view! {
        <div class="legend" class:collapsed=move || open.get() == Some(false) class:expanded=move || open.get() == Some(true)>
            <button type="button" class="legend-toggle" on:click=toggle>
                "Legend"
            </button>
                <ul class="legend-list">
                    {Kind::LEGEND
                        .into_iter()
                        .map(|k| {
                            let (w, h) = (26.0, 14.0);
                            let shape = match shape_points(k, w, h) {
                                Some(p) => view! { <polygon class="shape" points=p></polygon> }.into_any(),
                                None => view! { <rect class="shape" width=w height=h rx=rounding(k, h)></rect> }.into_any(),
                            };
                            view! {
                                <li>
                                    <svg width="28" height="16" class=format!("vertex kind-{}", k.css())>
                                        <g transform="translate(1,1)">{shape}</g>
                                    </svg>
                                    <span>{k.label()}</span>
                                </li>
                            }
                        })
                        .collect_view()}
                    <li class="legend-note">"Arrows: from what runs first to what waits for it."</li>
                    <Show when=move || ctx.mode.get() == Mode::Walk>
                        {[VState::Waiting, VState::Permit, VState::Running, VState::Done, VState::Failed, VState::Upstream]
                            .into_iter()
                            .map(|s| {
                                view! {
                                    <li>
                                        <span class=format!("state-dot state-{}", s.css())></span>
                                        <span>{s.label()}</span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </Show>
                </ul>
        </div>
    }
}

#[component]
fn SidePanel(ctx: Ctx) -> impl IntoView {
    let tab_button = move |t: Tab, label: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                class="tab"
                class:active=move || ctx.tab.get() == t
                aria-selected=move || (ctx.tab.get() == t).to_string()
                on:click=move |_| ctx.tab.set(t)
            >
                {label}
            </button>
        }
    };
    view! {
        <aside class="pane side-pane" aria-label="Details">
            <div class="pane-title tabs" role="tablist">
                {tab_button(Tab::Details, "Vertex")}
                {tab_button(Tab::Steps, "Build steps")}
                {tab_button(Tab::Examples, "Examples")}
                {tab_button(Tab::Export, "Export")}
            </div>
            <div class="side-body">
                {move || match ctx.tab.get() {
                    Tab::Details => view! { <Details ctx=ctx /> }.into_any(),
                    Tab::Steps => view! { <Steps ctx=ctx /> }.into_any(),
                    Tab::Examples => view! { <Gallery ctx=ctx /> }.into_any(),
                    Tab::Export => view! { <Export ctx=ctx /> }.into_any(),
                }}
            </div>
        </aside>
    }
}

#[component]
fn Details(ctx: Ctx) -> impl IntoView {
    let link = move |n: String| {
        let n2 = n.clone();
        view! {
            <li>
                <button type="button" class="vertex-link" on:click=move |_| ctx.selected.set(Some(n2.clone()))>
                    {n}
                </button>
            </li>
        }
    };
    move || {
        let Some(name) = ctx.selected.get() else {
            return view! {
                <div class="details empty">
                    <p class="muted">"Click a vertex to see where it is declared, what it depends on and what depends on it."</p>
                    <p class="muted">"In Walk mode, clicking a vertex makes it fail in the next walk instead."</p>
                </div>
            }
            .into_any();
        };
        let kind = model::classify(&name);
        let (deps, users, index) = ctx.shown.with(|s| match s.graph.index_of(&name) {
            Some(i) => {
                let (d, u) = s.graph.neighbours(i);
                (d, u, Some(i))
            }
            None => (Vec::new(), Vec::new(), None),
        });
        let (up, down) = ctx.related.with(|r| (r.up.len(), r.down.len()));
        let decl = ctx
            .good
            .with(|g| g.as_ref().and_then(|a| a.decls.get(&name).cloned()));
        let code = decl.as_ref().map(|d| {
            let lines = ctx.files.with(|f| model::snippet(f, d, 16));
            let file = d.file.clone();
            view! {
                <div class="decl">
                    <p class="decl-where">{format!("{} line {}", d.file, d.line)}</p>
                    <pre class="snippet">
                        {lines
                            .into_iter()
                            .map(|(n, l)| view! { <span class="snippet-line"><span class="ln">{format!("{n:>3} ")}</span>{l}"\n"</span> })
                            .collect_view()}
                    </pre>
                    <button type="button" class="link" on:click=move |_| ctx.active.set(file.clone())>
                        "Open the file"
                    </button>
                </div>
            }
        });
        // Its own reactive scope, so walk frames update this line only.
        let state = move || {
            index
                .and_then(|i| {
                    ctx.walk_view
                        .with(|v| v.started.then(|| v.states.get(i).copied().unwrap_or_default()))
                })
                .map(|s| view! { <p class=format!("detail-state state-{}", s.css())>{s.label()}</p> })
        };
        let n_fail = name.clone();
        view! {
            <div class="details">
                <p class=format!("detail-kind kind-{}", kind.css())>{kind.label()}</p>
                <h2 class="detail-name">{name.clone()}</h2>
                {state}
                {code}
                {decl.is_none().then(|| view! { <p class="muted">"Added by the builder; no declaration in the configuration."</p> })}
                <h3>{format!("Depends on ({})", deps.len())}</h3>
                <ul class="vertex-links deps">{deps.into_iter().map(link).collect_view()}</ul>
                <h3>{format!("Depended on by ({})", users.len())}</h3>
                <ul class="vertex-links users">{users.into_iter().map(link).collect_view()}</ul>
                <p class="muted small">
                    {format!("{up} ancestors (everything it waits for) and {down} descendants are highlighted.")}
                </p>
                <button
                    type="button"
                    class="secondary"
                    on:click=move |_| {
                        let n = n_fail.clone();
                        ctx.failures.update(|f| {
                            if !f.remove(&n) {
                                f.insert(n);
                            }
                        });
                    }
                >
                    {
                        let n = name.clone();
                        move || if ctx.failures.with(|f| f.contains(&n)) { "Do not fail in walks" } else { "Make it fail in walks" }
                    }
                </button>
            </div>
        }
        .into_any()
    }
}

#[component]
fn Steps(ctx: Ctx) -> impl IntoView {
    move || {
        let steps = ctx
            .good
            .with(|g| g.as_ref().map(|a| a.steps.clone()).unwrap_or_default());
        let n = steps.len();
        let tr = steps.iter().rposition(|s| {
            s.name == "TransitiveReductionTransformer" && !s.removed_edges.is_empty()
        });
        view! {
            <div class="steps">
                <p class="muted small">
                    "OpenTofu builds the graph by running these transforms in order. Choose one to see the graph as it was right after it: what it added is outlined, what it removed is faded."
                </p>
                <div class="step-nav">
                    <button type="button" on:click=move |_| ctx.step.update(|s| *s = Some(s.map_or(0, |k| k.saturating_sub(1))))>"◀ Previous"</button>
                    <button type="button" on:click=move |_| ctx.step.update(|s| *s = Some(s.map_or(0, |k| (k + 1).min(n.saturating_sub(1)))))>"Next ▶"</button>
                    <button type="button" class:active=move || ctx.step.get().is_none() on:click=move |_| ctx.step.set(None)>"Final graph"</button>
                    {tr.map(|k| view! {
                        <button
                            type="button"
                            class:active=move || ctx.step.get() == Some(k)
                            title="The final graph with the edges transitive reduction removed, dashed"
                            on:click=move |_| ctx.step.set(Some(k))
                        >
                            "Reduced edges"
                        </button>
                    })}
                </div>
                <ol class="step-list">
                    {steps
                        .into_iter()
                        .enumerate()
                        .map(|(k, s)| {
                            let changed = !(s.added_vertices.is_empty() && s.removed_vertices.is_empty() && s.added_edges.is_empty() && s.removed_edges.is_empty());
                            let delta = format!(
                                "+{} −{} · +{} −{}",
                                s.added_vertices.len(),
                                s.removed_vertices.len(),
                                s.added_edges.len(),
                                s.removed_edges.len()
                            );
                            view! {
                                <li class="step" class:active=move || ctx.step.get() == Some(k) class:unchanged=!changed>
                                    <button type="button" on:click=move |_| ctx.step.set(Some(k)) title=model::explain(&s.name)>
                                        <span class="step-no">{k + 1}</span>
                                        <span class="step-name">{s.name.clone()}</span>
                                        <span class="step-delta">{delta}</span>
                                    </button>
                                    <Show when=move || ctx.step.get() == Some(k)>
                                        <p class="step-explain">{model::explain(&s.name)}</p>
                                    </Show>
                                </li>
                            }
                        })
                        .collect_view()}
                </ol>
            </div>
        }
    }
}

#[component]
fn Gallery(ctx: Ctx) -> impl IntoView {
    view! {
        <ul class="gallery">
            {EXAMPLES
                .iter()
                .map(|e| {
                    view! {
                        <li class="example" data-example=e.id>
                            <button type="button" on:click=move |_| ctx.load_example(e)>
                                <span class="example-title">{e.title}</span>
                                <span class="example-about">{e.about}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

#[component]
fn Export(ctx: Ctx) -> impl IntoView {
    move || {
        let (dot, mermaid, json) = ctx.good.with(|g| {
            g.as_ref()
                .map(|a| (a.dot.clone(), a.mermaid.clone(), a.json.clone()))
                .unwrap_or_default()
        });
        let svg = ctx.scene.with(|s| s.svg.clone());
        let link = |label: &'static str, file: &'static str, mime: &'static str, text: &str| {
            view! {
                <a class="export-link" download=file href=model::data_url(mime, text)>
                    {label}
                </a>
            }
        };
        view! {
            <div class="export">
                <p class="muted small">
                    "The built graph (the final one, not a builder step). DOT is exactly what tofu graph prints."
                </p>
                <div class="export-links">
                    {link("DOT", "graph.dot", "text/vnd.graphviz", &dot)}
                    {link("Mermaid", "graph.mmd", "text/plain", &mermaid)}
                    {link("JSON", "graph.json", "application/json", &json)}
                    {link("SVG", "graph.svg", "image/svg+xml", &svg)}
                </div>
                <pre class="export-dot">{dot}</pre>
            </div>
        }
    }
}

/// Makespan against -parallelism (instant driver, no failures), the current setting marked.
/// Computed only in Walk mode: it walks the graph once per setting.
#[component]
fn MakespanChart(ctx: Ctx) -> impl IntoView {
    const W: f64 = 150.0;
    const H: f64 = 30.0;
    let points = Memo::new(move |_| {
        if ctx.mode.get() != Mode::Walk {
            return Vec::new();
        }
        let p = ctx.parallelism.get() as usize;
        let g = ctx.good.with(|g| {
            g.as_ref()
                .filter(|a| a.cycles.is_empty())
                .and_then(|a| a.graph.clone())
        });
        let Some(g) = g.filter(|g| !g.names.is_empty()) else {
            return Vec::new();
        };
        let mut ps = vec![1, 2, 4, 8, 16, 32, 64, p];
        ps.sort_unstable();
        ps.dedup();
        walkrt::makespans(&g, &ps)
    });
    move || {
        let pts = points.get();
        if pts.is_empty() {
            return None;
        }
        let max = pts.iter().map(|x| x.1).fold(0.0_f64, f64::max).max(1e-9);
        let xy = |p: usize, m: f64| ((p as f64).log2() / 6.0 * W, H - 2.0 - m / max * (H - 6.0));
        let line = pts
            .iter()
            .map(|&(p, m)| {
                let (x, y) = xy(p, m);
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ");
        let cur = ctx.parallelism.get_untracked() as usize;
        let (cp, cm) = pts.iter().copied().find(|x| x.0 == cur).unwrap_or(pts[0]);
        let (cx, cy) = xy(cp, cm);
        Some(view! {
            <div class="chart" title="Makespan of a walk without failures for -parallelism 1 to 64 (log scale); the dot is the current setting">
                <svg width=W + 8.0 height=H viewBox=format!("-4 0 {} {H}", W + 8.0)>
                    <polyline class="chart-line" points=line></polyline>
                    <circle class="chart-dot" cx=cx cy=cy r="3.5"></circle>
                </svg>
                <span class="chart-label">{format!("makespan {cm:.1} s at {cp}")}</span>
            </div>
        })
    }
}

#[component]
fn WalkPanel(ctx: Ctx) -> impl IntoView {
    let status = move || {
        ctx.walk_view.with(|v| {
            if !v.started {
                if ctx.good.with(|g| g.as_ref().is_some_and(|a| !a.cycles.is_empty())) {
                    return "A graph with a cycle cannot be walked: nothing in the cycle could ever start.".to_string();
                }
                let f = ctx.failures.with(|f| f.len());
                return if f == 0 {
                    "Play walks the graph as OpenTofu would, with simulated durations.".to_string()
                } else {
                    format!("{f} vertex(es) will fail. Play walks the graph.")
                };
            }
            let mut s = format!(
                "running {} · done {} · failed {} · upstream failed {} · t {:.1} s",
                v.running, v.done, v.failed, v.upstream, v.now
            );
            if let Some(m) = v.makespan {
                s.push_str(&format!(" · makespan {m:.1} s"));
            }
            if let Some(c) = v.critical_path {
                s.push_str(&format!(" · critical path {c:.1} s"));
            }
            if let Some(m) = v.max_concurrency {
                s.push_str(&format!(" · max concurrency {m}"));
            }
            s
        })
    };
    view! {
        <footer class="walk-panel" aria-label="Walk">
            <div class="walk-buttons">
                <button
                    type="button"
                    id="walk-play"
                    class="primary"
                    on:click=move |_| if ctx.playing.get_untracked() { ctx.playing.set(false) } else { ctx.play() }
                >
                    {move || if ctx.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" id="walk-step" title="Jump to the next event" on:click=move |_| ctx.step_walk()>
                    "Step"
                </button>
                <button type="button" id="walk-reset" title="Back to the start" on:click=move |_| ctx.reset_walk()>
                    "Reset"
                </button>
            </div>
            <label class="speed">
                <span>"speed"</span>
                <select
                    prop:value=move || ctx.speed.get().to_string()
                    on:change=move |ev| {
                        if let Ok(s) = event_target_value(&ev).parse::<f64>() {
                            ctx.speed.set(s);
                        }
                    }
                >
                    <option value="1">"1×"</option>
                    <option value="4">"4×"</option>
                    <option value="16">"16×"</option>
                    <option value="64">"64×"</option>
                </select>
            </label>
            <label class="parallelism" title="Applies to the next walk">
                <span>"-parallelism"</span>
                <input
                    type="range"
                    min="1"
                    max="64"
                    prop:value=move || ctx.parallelism.get().to_string()
                    on:input=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                            ctx.parallelism.set(n.clamp(1, 64));
                        }
                    }
                />
                <output class="parallelism-value">{move || ctx.parallelism.get()}</output>
            </label>
            <MakespanChart ctx=ctx />
            <span class="walk-status" aria-live="polite">{status}</span>
        </footer>
    }
}

//! The web app (Leptos 0.8, client-side rendering), mounted by Trunk from `src/bin/tfgraph-web.rs`.
//!
//! Layout: a header; the editor (files, block outline, diagnostics) on the left; the graph in the
//! middle (SVG drawn from [`crate::page::scene::Scene`], pan/zoom, legend); a side panel with the selected
//! vertex, the builder's steps and the examples; the walk controls at the bottom. Every view reads
//! engine results; user text is only ever set as text, attribute or form values, never as HTML.

mod crash;
mod ctx;
mod editor;
mod engine;
mod files;
mod gantt;
mod graph;
mod learn;
mod legend;
mod marks;
mod minimap;
mod overlay;
mod prelude;
mod side;
mod state;
mod storage;
mod view;
mod walk;

use editor::EditorPane;
use graph::GraphPane;
use prelude::*;
use side::SidePanel;
use walk::WalkPanel;

/// Mounts the app on the page body. Called by the `tfgraph-web` binary.
pub fn start() {
    // The engine's worker runs this same module: there it answers the page instead of mounting.
    if web_sys::window().is_none() {
        engine::serve();
        return;
    }
    crash::install();
    // An edit reloads every file: unchanged ones reuse their syntax trees.
    crate::config::decode::keep_parses(true);
    after_first_view(|| {
        // index.html's first view, painted while the wasm loaded.
        if let Some(boot) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("boot"))
        {
            boot.remove();
        }
        mount_in_stages(true);
        leptos::mount::mount_to_body(App);
        crash::debug_trigger();
        storage::register_service_worker();
    });
}

/// Runs `mount` once the browser has shown index.html's first view: when its first contentful
/// paint is recorded (at once if it already was, as on a slow connection, where the view was up
/// long before the wasm), checked each frame, waiting at most 500 ms (a background tab draws no
/// frames). On a fast connection the wasm can arrive before that first frame was presented;
/// replacing the view then left Chromium nothing to report as the page's largest paint (it
/// drops a candidate removed before its frame is presented), and Lighthouse timed the largest
/// paint by the app's own text, after the wasm's download.
fn after_first_view(mount: impl FnOnce() + 'static) {
    let painted = || {
        web_sys::window()
            .and_then(|w| w.performance())
            .is_none_or(|p| {
                p.get_entries_by_name_with_entry_type("first-contentful-paint", "paint")
                    .length()
                    > 0
            })
    };
    wasm_bindgen_futures::spawn_local(async move {
        let t0 = performance_now();
        while !painted() && performance_now() - t0 < 500.0 {
            next_frame_or(std::time::Duration::from_millis(50)).await;
        }
        mount();
    });
}

/// The next animation frame, or `most` from now if that comes first.
async fn next_frame_or(most: std::time::Duration) {
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    let tx = std::rc::Rc::new(std::cell::Cell::new(Some(tx)));
    let fire = move || {
        if let Some(tx) = tx.take() {
            let _ = tx.send(());
        }
    };
    request_animation_frame(fire.clone());
    set_timeout(fire, most);
    let _ = rx.await;
}

thread_local! {
    static STAGED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether [`App`] mounts in stages from now on: [`start`] says yes; tests that mount the app
/// themselves get it whole in one go unless they ask.
pub fn mount_in_stages(on: bool) {
    STAGED.set(on);
}

/// The whole app.
///
/// Started by [`start`], it mounts in three tasks: the frame and the graph, then the editor,
/// then the details panel, the walk bar and the drop target, each in a place of its own size
/// held from the start. Built at once, the page took one task of 300–500 ms on a phone-speed CPU
/// (Lighthouse's 4x slowdown), all of it blocking time; the first build then runs in tasks of
/// its own after these (`Ctx::reanalyze`).
#[component]
pub fn App() -> impl IntoView {
    let ctx = Ctx::new();
    ctx.provide();
    let stage = ctx.shell.stage;
    if STAGED.get() {
        stage.set(0);
        set_timeout(
            move || {
                stage.set(1);
                set_timeout(move || stage.set(2), std::time::Duration::ZERO);
            },
            std::time::Duration::ZERO,
        );
    }
    files::open_fragment(ctx);
    learn::open_fragment(ctx);
    // The service worker serves a new bundle as soon as the network has one: say so once.
    if storage::bundle_changed() {
        files::notify(
            ctx,
            false,
            "tfgraph was updated since your last visit.",
            false,
        );
    }
    let hash = window_event_listener(leptos::ev::hashchange, move |_| {
        files::open_fragment(ctx);
        learn::open_fragment(ctx);
    });
    on_cleanup(move || hash.remove());
    Effect::new(move |_| {
        ctx.work.files.track();
        ctx.work.files_changed();
    });
    // Edits waiting for their delayed save are saved when the page is hidden or left.
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| ctx.work.save_pending());
    let hidden = window_event_listener_untyped("visibilitychange", move |_| {
        let hidden = web_sys::window()
            .and_then(|w| w.document())
            .is_some_and(|d| d.hidden());
        if hidden {
            ctx.work.save_pending();
        }
    });
    on_cleanup(move || {
        leaving.remove();
        hidden.remove();
    });
    // Another tab saved the work, or kept its files aside because this tab had saved over them:
    // say so at once (the event fires in every other tab of the origin).
    let other_tab = window_event_listener(leptos::ev::storage, move |ev| {
        let key = ev.key();
        storage::changed_elsewhere(key.as_deref());
        if key.as_deref() == Some(crate::saved::KEY)
            && crate::saved::revision(ev.new_value().as_deref()) != storage::base_revision()
            && !ctx.work.conflicted.get_value()
        {
            ctx.work.notify(
                "Your work was changed in another tab. Reload this tab to continue from it; if you edit here first, this tab's files will be kept aside.".to_string(),
                None,
            );
        } else if key.as_deref() == Some(crate::saved::BACKUP_KEY)
            && crate::saved::read_backups(ev.new_value().as_deref())
                .first()
                .is_some_and(|b| b.why == storage::CONFLICT_WHY)
        {
            let text = "Another tab's files were kept aside, as this tab had saved since it opened the work: Restore brings them back here.".to_string();
            ctx.work
                .notices
                .update(|ns| _ = notices::push(ns, text, None, false, true, |_| false));
        }
    });
    on_cleanup(move || other_tab.remove());
    Effect::new(move |_| ctx.work.root.with(|r| storage::save_root(r)));
    Effect::new(move |_| {
        ctx.reanalyze(ctx.work.analyzed.get(), ctx.build.kind.get(), ctx.options())
    });
    // Opened vertices stay open across edits while their names are in the graph.
    Effect::new(move |_| {
        ctx.build.good.with(|g| {
            if let Some(g) = g.as_ref().and_then(|a| a.graph.as_ref()) {
                let kept = ctx
                    .gv
                    .open
                    .with_untracked(|o| crate::page::expanded::prune(o, g));
                if ctx.gv.open.with_untracked(|o| *o != kept) {
                    ctx.gv.open.set(kept);
                }
            }
        })
    });
    // A new graph or builder step: fit it.
    Effect::new(move |_| {
        ctx.build.scene.track();
        ctx.build.step.track();
        // On the next frame, to the canvas's size as last laid out; a banner that appears with
        // the new graph resizes the canvas, and the canvas's observer fits again.
        request_animation_frame(move || ctx.canvas.fit_redrawn());
    });
    Effect::new(move |prev: Option<()>| {
        ctx.build.good.track();
        if prev.is_some() && ctx.build.step.get_untracked().is_some() {
            ctx.build.step.set(None);
        }
    });
    // A walk goes on through an analysis that walks alike (an edit of a comment), and is
    // forgotten when the graph, an expansion or a step changed.
    // The number compared, not only tracked: the effect may run again without the epoch having
    // changed (its analysis was set again).
    Effect::new(move |prev: Option<u64>| {
        let now = ctx.walk.epoch.with(|e| e.number);
        if prev.is_some_and(|p| p != now) {
            ctx.walk.reset();
        }
        now
    });
    // After the effect above, which forgets the step and walk of a graph that changed: a
    // lesson sets up its own on its new graph.
    learn::bind(ctx);

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
            .build
            .good
            .with_untracked(|g| g.as_ref().map_or(0, |a| a.steps.len()));
        match ev.key().as_str() {
            " " | "p" => {
                if ctx.walk.playing.get_untracked() {
                    ctx.walk.playing.set(false);
                } else {
                    ctx.play();
                }
            }
            "s" | "." => ctx.step_walk(),
            "r" => ctx.walk.reset(),
            "f" => ctx.canvas.fit(),
            "+" | "=" => ctx.canvas.zoom(1.25, None),
            "-" | "_" => ctx.canvas.zoom(0.8, None),
            "w" => ctx.shell.mode.update(|m| {
                *m = if *m == Mode::Walk {
                    Mode::Inspect
                } else {
                    Mode::Walk
                }
            }),
            "]" if n_steps > 0 => {
                ctx.shell.tab.set(Tab::Steps);
                ctx.build
                    .step
                    .update(|s| *s = Some(s.map_or(0, |k| (k + 1).min(n_steps - 1))));
            }
            "[" if n_steps > 0 => {
                ctx.shell.tab.set(Tab::Steps);
                ctx.build
                    .step
                    .update(|s| *s = Some(s.map_or(n_steps - 1, |k| k.saturating_sub(1))));
            }
            "Escape" => {
                ctx.sel.selected.set(None);
                help.set(false);
            }
            "?" => help.update(|h| *h = !*h),
            "o" => {
                if let Some(name) = ctx.sel.selected.get_untracked() {
                    ctx.toggle_expansion(&name);
                }
            }
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || keys.remove());
    let resize = window_event_listener(leptos::ev::resize, move |_| ctx.canvas.fit());
    on_cleanup(move || resize.remove());

    // A reference opened from the details panel shows the editor, also on a phone.
    Effect::new(move |prev: Option<()>| {
        ctx.sel.goto.track();
        if prev.is_some() && ctx.sel.goto.with_untracked(Option::is_some) {
            ctx.shell.pane.set(Pane::Code);
        }
    });

    view! {
        <div
            class="app"
            data-settled=move || ctx.settled().to_string()
            data-pane=move || ctx.shell.pane.get().css()
            // On a phone, a vertex chosen on the graph shows its details in a sheet over the
            // graph's lower half instead of far below it.
            data-sheet=move || {
                (ctx.shell.pane.get() == Pane::Graph
                    && ctx.shell.tab.get() == Tab::Details
                    && ctx.sel.selected.with(Option::is_some))
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
                            <dt>"o / double-click"</dt><dd>"open an (expand) vertex into its instances, or close it"</dd>
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
                <ProgressBar />
            </div>
            <PhoneTabs />
            <main class="workspace">
                <Show
                    when=move || { stage.get() >= 1 }
                    fallback=|| view! { <section class="pane editor-pane" aria-label="Configuration"></section> }
                >
                    <EditorPane ctx=ctx />
                </Show>
                <GraphPane ctx=ctx />
                <Show
                    when=move || { stage.get() >= 2 }
                    fallback=|| view! { <aside class="pane side-pane" aria-label="Details"></aside> }
                >
                    <SidePanel ctx=ctx />
                </Show>
            </main>
            <Show
                when=move || { stage.get() >= 2 }
                fallback=|| view! { <footer class="walk-panel waiting" aria-label="Walk"></footer> }
            >
                <WalkPanel ctx=ctx />
                <files::DropTarget ctx=ctx />
            </Show>
        </div>
    }
}

/// A slim bar under the header while a large input is analysed in slices; between builds of a
/// large input it stays, saying how long the last one took (see [`model::built_in`]).
#[component]
fn ProgressBar() -> impl IntoView {
    let build = expect_context::<Build>();
    move || {
        // A build under way, else a drawing the engine's worker is laying out.
        let pending = move || {
            build.scene.with(|s| {
                s.pending.clone().map(|label| model::Progress {
                    label,
                    done: 1,
                    total: 1,
                })
            })
        };
        match build.progress.get().or_else(pending) {
            Some(p) => {
                let pct = 100.0 * p.done as f64 / p.total.max(1) as f64;
                Some(view! {
                    <div class="build-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
                        aria-valuenow=format!("{pct:.0}")>
                        <div class="build-progress-fill" style=format!("width: {pct:.1}%")></div>
                        <span class="build-progress-label">{p.label}</span>
                    </div>
                }
                .into_any())
            }
            None if build.large.get() => Some(view! {
                // Not `.build-progress`: tests and scripts wait for that to go.
                <div class="build-status">
                    <span class="build-progress-label">{build.took.get().map(model::built_in)}</span>
                </div>
            }
            .into_any()),
            None => None,
        }
    }
}

/// The pane switcher shown on phones (hidden by the stylesheet above 760 px).
#[component]
fn PhoneTabs() -> impl IntoView {
    let (pane, notices) = (
        expect_context::<Shell>().pane,
        expect_context::<Work>().notices,
    );
    let tab = move |p: Pane, label: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                class="phone-tab"
                id=format!("pane-{}", p.css())
                title=p.title()
                class:active=move || pane.get() == p
                aria-selected=move || (pane.get() == p).to_string()
                on:click=move |_| pane.set(p)
            >
                {label}
                // The notices live above the files: a count says they are there.
                {(p == Pane::Code).then(|| view! {
                    <Show when=move || notices.with(|n| !n.is_empty())>
                        <span class="tab-badge">
                            {move || notices.with(|n| n.len())}
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

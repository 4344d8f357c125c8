//! The graph views' settings as signals (reduction, resources only, collapsed modules, opened
//! `(expand)` vertices; what they
//! do is `crate::page::view`), the layout's cache, and the light/dark theme switch.

use crate::layout::Layout;
use crate::page::graph::PageGraph;
use crate::page::scene::Scene;
use crate::page::view::Shown;
use crate::page::view::ViewOpts;
use leptos::prelude::*;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The view settings (signals), grouped in one `Ctx` field.
#[derive(Clone, Copy)]
pub struct GraphView {
    /// Transitive reduction on (the default, as `tofu graph` prints): removed edges hidden.
    pub reduce: RwSignal<bool>,
    pub resources_only: RwSignal<bool>,
    /// Collapsed module paths (`module.a.module.b`), kept while the graph changes.
    pub collapsed: RwSignal<BTreeSet<String>>,
    /// `(expand)` vertices opened into their sub-graphs (`crate::page::expanded`), kept while
    /// their names are in the graph; drawn in Inspect mode only.
    pub open: RwSignal<BTreeSet<String>>,
    /// The workspace (`Work::workspace`) whose first graph last set `collapsed`
    /// ([`GraphView::collapse_on_open`]).
    collapsed_for: StoredValue<Option<u64>>,
}

impl GraphView {
    pub fn new() -> GraphView {
        GraphView {
            reduce: RwSignal::new(true),
            resources_only: RwSignal::new(false),
            collapsed: RwSignal::new(BTreeSet::new()),
            open: RwSignal::new(BTreeSet::new()),
            collapsed_for: StoredValue::new(None),
        }
    }

    /// The first graph `g` of each opened configuration (workspace number `ws`) sets which
    /// modules start collapsed ([`crate::page::view::start_collapsed`]); later graphs of the same
    /// workspace, an edit's, keep what the user chose. Called before the analysis is shown, so
    /// a large graph is never laid out whole first.
    pub fn collapse_on_open(self, g: Option<&PageGraph>, ws: u64) {
        let Some(g) = g else { return };
        if self.collapsed_for.get_value() == Some(ws) {
            return;
        }
        self.collapsed_for.set_value(Some(ws));
        let start = crate::page::view::start_collapsed(g);
        if self.collapsed.with_untracked(|c| *c != start) {
            self.collapsed.set(start);
        }
    }

    pub fn opts(self) -> ViewOpts {
        ViewOpts {
            reduce: self.reduce.get(),
            resources_only: self.resources_only.get(),
            collapsed: self.collapsed.get(),
            open: self.open.get(),
        }
    }

    /// Opens the `(expand)` vertex `name`, or closes it when it is open.
    pub fn toggle_open(self, name: &str) {
        self.open.update(|o| {
            if !o.remove(name) {
                o.insert(name.to_string());
            }
        });
    }

    pub fn toggle_module(self, path: &str) {
        self.collapsed.update(|c| {
            if !c.remove(path) {
                c.insert(path.to_string());
            }
        });
    }
}

/// Keeps `v` until the browser is idle after the next frame, then drops it: freeing the
/// previous analysis of 1,000 resources took about 9 ms, which an edit's redraw need not wait for.
pub(super) fn drop_when_idle<T: 'static>(v: T) {
    let v = std::cell::Cell::new(Some(v));
    request_idle_callback(move || drop(v.take()));
}

/// The last layout: its input graph and the scene.
pub type SceneCache = StoredValue<Option<(PageGraph, Arc<Scene>)>>;

/// The scene of `s`, laid out near `previous` (the last scene's layout), or the last one if `s`
/// draws the same graph. Shared: the cache and the page hold one scene (copying one of 1,000
/// resources took milliseconds). A large drawing laid out afresh
/// ([`crate::page::scene::off_thread`]) is laid out by the engine's worker where one can run
/// ([`super::engine::OffThread::usable`]): until its layout arrives the scene is the last drawing
/// carried over, saying so ([`crate::page::scene::carried`]).
pub fn scene(
    s: &Shown,
    previous: Option<Arc<Layout>>,
    cache: SceneCache,
    off: super::engine::OffThread,
) -> Arc<Scene> {
    use crate::page::scene as sc;
    let (g, visible) = sc::drawn(s);
    let same = cache.with_value(|c| match c {
        Some((last, drawn)) if *last == g => Some(drawn.clone()),
        _ => None,
    });
    if let Some(drawn) = same {
        return drawn;
    }
    let made = if sc::off_thread(&g, previous.as_ref()) && off.usable() {
        match off.layout_of(super::engine::Purpose::Drawing, &g, previous) {
            Some((id, l)) => {
                let made = Arc::new(sc::from_layout(&g, &visible, l));
                off.drew(id, made.previous());
                made
            }
            None => return carried(&g, &visible, cache, sc::laying_out(&g)),
        }
    } else {
        Arc::new(sc::scene(&g, &visible, previous))
    };
    if let Some(old) = cache
        .try_update_value(|c| c.replace((g, made.clone())))
        .flatten()
    {
        drop_when_idle(old);
    }
    made
}

/// The last drawing (the cache's) carried over to `g` while its layout is made elsewhere, saying
/// `message` ([`crate::page::scene::carried`]).
fn carried(g: &PageGraph, visible: &[usize], cache: SceneCache, message: String) -> Arc<Scene> {
    let old = cache.with_value(|c| c.as_ref().map(|(_, old)| old.clone()));
    Arc::new(match old {
        Some(old) => crate::page::scene::carried(&old, g, visible, message),
        None => Scene {
            pending: Some(message),
            ..Scene::default()
        },
    })
}

/// The build steps' one layout ([`steps_layout`]): made, or being made by the engine's worker.
#[derive(Clone, PartialEq)]
pub enum StepsLayout {
    Ready(Arc<Layout>),
    /// What the page says meanwhile.
    Pending(String),
}

/// The layout of every vertex and edge the build steps of `a` draw with the views `o`
/// ([`crate::page::scene::steps_layout`]); `None` when it is too big to lay out. A large one is
/// asked of the engine's worker, as a large drawing is ([`scene`]).
pub fn steps_layout(
    a: &crate::page::analysis::Analysis,
    o: &ViewOpts,
    off: super::engine::OffThread,
) -> Option<StepsLayout> {
    use crate::page::scene as sc;
    let (g, _) = sc::drawn(&crate::page::view::shown_steps(a, o));
    if sc::off_thread(&g, None) && off.usable() {
        return Some(
            match off.layout_of(super::engine::Purpose::Steps, &g, None) {
                Some((_, l)) => StepsLayout::Ready(Arc::new(l)),
                None => StepsLayout::Pending(sc::laying_out(&g)),
            },
        );
    }
    sc::steps_layout(&g)
        .ok()
        .map(|l| StepsLayout::Ready(Arc::new(l)))
}

/// The scene of the build step `s` while the steps' one layout is being made: the last drawing
/// carried over, saying `message`.
pub fn step_pending(s: &Shown, cache: SceneCache, message: &str) -> Arc<Scene> {
    let (g, visible) = crate::page::scene::drawn(s);
    carried(&g, &visible, cache, message.to_string())
}

/// The scene of the build step `s` shows, at the places `all` gives ([`steps_layout`]).
pub fn at_step(all: &Layout, s: &Shown) -> Scene {
    let (g, visible) = crate::page::scene::drawn(s);
    crate::page::scene::at_step(all, &g, &visible)
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

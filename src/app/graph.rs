//! The graph pane: the laid-out SVG (vertex shapes by kind, edges, module boxes), pan/zoom and
//! search; the legend under it is `legend.rs`.

use super::legend::Legend;
use super::overlay;
use super::prelude::*;
use std::sync::Arc;

pub use crate::page::graph::{Placed, rounding};

/// A drawn vertex kept from one drawing to the next under its name ([`crate::page::keyed`]): its
/// place, size, kind and index in the shown graph are a signal, updated in place when the graph
/// changes, and its walk cell is its own.
#[derive(Clone)]
pub struct VSlot {
    /// Shared: `<For>` clones every slot's key at every redraw.
    name: Arc<str>,
    /// What it is, its size and its place. A change of place alone is written untracked (and
    /// straight to its element, see [`Elements`]): an edit moves most vertices but changes few,
    /// and what reads this (kind, size, index) then does not run again.
    node: ArcRwSignal<SNode>,
    cell: ArcRwSignal<walkrt::VCell>,
    /// For a collapsed module, the vertices it hides (indexes in the shown graph).
    members: ArcRwSignal<Option<Vec<usize>>>,
    /// What [`mark_all`] gives it.
    marks: ArcRwSignal<VMarks>,
}

/// A vertex's marks: its classes besides kind ([`crate::page::decor::vertex`]), whether it is
/// the graph's Tab stop, and whether a walk has started (what it says to a screen reader).
#[derive(Clone, Default, PartialEq)]
pub struct VMarks {
    classes: String,
    tab_stop: bool,
    walking: bool,
    /// The plan's action on it, if a plan is loaded and a change concerns it
    /// ([`crate::page::actions`]).
    action: Option<crate::page::actions::Badge>,
}

/// A drawn edge kept under its two names; its path and end indexes are a signal.
#[derive(Clone)]
pub struct ESlot {
    /// Shared, as [`VSlot::name`].
    key: Arc<(String, String)>,
    edge: ArcRwSignal<crate::page::scene::SEdge>,
    /// Its classes besides `edge` ([`crate::page::decor::edge`]).
    marks: ArcRwSignal<String>,
}

/// The drawn vertices' and edges' elements under their keys, so that a new layout writes the
/// places of what moved straight into the DOM. An edit of the generated 1,000 resources moves
/// almost every vertex and edge; a reactive binding per place re-ran ~3,700 render effects, each
/// costing several times its `setAttribute`.
#[derive(Clone, Copy)]
pub struct Elements {
    vertices: ElementMap<String>,
    edges: ElementMap<(String, String)>,
    /// Numbers the registrations, so that the cleanup of an element removes only itself.
    next: StoredValue<u64>,
}

type ElementMap<K> =
    StoredValue<std::collections::HashMap<K, (u64, web_sys::Element)>, LocalStorage>;

impl Elements {
    fn new() -> Elements {
        Elements {
            vertices: StoredValue::new_local(Default::default()),
            edges: StoredValue::new_local(Default::default()),
            next: StoredValue::new(0),
        }
    }
}

/// Sets `attr` of the element drawn under `key` in `map`, if one is.
fn write<K, Q>(map: ElementMap<K>, key: &Q, attr: &str, value: &str)
where
    K: std::hash::Hash + Eq + std::borrow::Borrow<Q> + 'static,
    Q: std::hash::Hash + Eq + ?Sized,
{
    map.with_value(|m| {
        if let Some((_, el)) = m.get(key) {
            _ = el.set_attribute(attr, value);
        }
    });
}

/// Keeps the element `el_ref` will hold in `map` under `key` while the calling view is drawn
/// (the cleanup of an earlier element under the same key does not remove a later one). `sync`
/// writes its current place when it is loaded, in case a layout came between the view's build
/// and then.
fn register<K: std::hash::Hash + Eq + Clone + Send + Sync + 'static, E>(
    els: Elements,
    map: ElementMap<K>,
    key: K,
    el_ref: NodeRef<E>,
    sync: impl Fn(&web_sys::Element) + 'static,
) where
    E: leptos::tachys::html::element::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
{
    els.next.update_value(|n| *n += 1);
    let id = els.next.get_value();
    let k = key.clone();
    el_ref.on_load(move |el| {
        use wasm_bindgen::JsCast;
        let el: web_sys::Element = el.unchecked_into();
        sync(&el);
        map.update_value(|m| {
            m.insert(k, (id, el));
        });
    });
    on_cleanup(move || {
        _ = map.try_update_value(|m| {
            if m.get(&key).is_some_and(|(i, _)| *i == id) {
                m.remove(&key);
            }
        });
    });
}

/// The box of the scene's vertex `n`.
fn placed(n: &SNode) -> Placed {
    Placed::new(n.x, n.y, n.w, n.h)
}

/// Writes the places of a drawn vertex's parts (the children of its group `g`) for the box `p`:
/// a vertex is drawn where it is, not moved by a transform (see [`Placed`] for why), so a move
/// writes each part's place. Numbers are written as the view writes them (`f64`'s `Display`).
fn place_parts(g: &web_sys::Element, p: Placed, kind: Kind) {
    let set = |el: &web_sys::Element, (x, y): (f64, f64)| {
        _ = el.set_attribute("x", &x.to_string());
        _ = el.set_attribute("y", &y.to_string());
    };
    let mut child = g.first_element_child();
    while let Some(c) = child {
        let class = c.get_attribute("class").unwrap_or_default();
        match class.split(' ').next().unwrap_or("") {
            "shape" => match p.shape_points(kind) {
                Some(points) => _ = c.set_attribute("points", &points),
                None => set(&c, (p.x, p.y)),
            },
            "progress" => set(&c, p.progress()),
            "label" => set(&c, p.label()),
            "inst" => set(&c, p.instances()),
            "action-badge" => set(&c, p.badge()),
            "step-now" => set(&c, p.step()),
            _ => {}
        }
        child = c.next_element_sibling();
    }
}

/// Whether `old` is `n` but for its place (every other field named, so a new one is not missed).
fn same_but_place(old: &SNode, n: &SNode) -> bool {
    let SNode {
        index,
        name,
        kind,
        typed,
        x: _,
        y: _,
        w,
        h,
    } = old;
    *index == n.index
        && *name == n.name
        && *kind == n.kind
        && *typed == n.typed
        && *w == n.w
        && *h == n.h
}

/// Sets `s` to `v` unless it already holds it (so nothing that reads it runs again).
fn set_if_changed<T: PartialEq + Clone + Send + Sync + 'static>(s: &ArcRwSignal<T>, v: &T) {
    if s.with_untracked(|old| old != v) {
        s.set(v.clone());
    }
}

/// The scene's vertices as kept slots, the walk's cells pointed at them (tracks the scene).
fn vertex_slots(
    ctx: Ctx,
    slots: StoredValue<std::collections::HashMap<String, VSlot>>,
    drawn: RwSignal<u64>,
    els: Elements,
) -> Vec<VSlot> {
    let current: Vec<walkrt::VCell> = ctx
        .walk
        .rt
        .with_value(|r| r.as_ref().map(|r| r.cells.clone()).unwrap_or_default());
    let cell_of = |i: usize| current.get(i).copied().unwrap_or_default();
    // The scene's vertices are read in place (a redraw used to copy them all first), and the
    // shown graph once for all of them.
    let out = ctx.build.scene.with(|sc| {
        ctx.build.shown.with_untracked(|shown| {
            let members_of = |i: usize| shown.collapsed.get(&i).map(|(_, m)| m.clone());
            slots.try_update_value(|map| {
                crate::page::keyed::reconcile(
                    map,
                    sc.nodes.iter(),
                    |n| &n.name,
                    |n| VSlot {
                        name: Arc::from(n.name.as_str()),
                        node: ArcRwSignal::new((*n).clone()),
                        cell: ArcRwSignal::new(cell_of(n.index)),
                        members: ArcRwSignal::new(members_of(n.index)),
                        marks: ArcRwSignal::new(VMarks::default()),
                    },
                    |s, n| {
                        let (moved, changed) = s.node.with_untracked(|old| {
                            ((old.x, old.y) != (n.x, n.y), !same_but_place(old, n))
                        });
                        if changed {
                            s.node.set((*n).clone());
                        } else if moved {
                            s.node.update_untracked(|old| *old = (*n).clone());
                        }
                        if moved {
                            els.vertices.with_value(|m| {
                                if let Some((_, el)) = m.get(&*s.name) {
                                    place_parts(el, placed(n), n.kind);
                                }
                            });
                        }
                        set_if_changed(&s.cell, &cell_of(n.index));
                        set_if_changed(&s.members, &members_of(n.index));
                    },
                )
                .0
            })
        })
    });
    let out = out.unwrap_or_default();
    let n = out
        .iter()
        .map(|s| s.node.with_untracked(|n| n.index) + 1)
        .max()
        .unwrap_or(0);
    let mut cells: Vec<ArcRwSignal<walkrt::VCell>> = Vec::with_capacity(n);
    cells.resize_with(n, || ArcRwSignal::new(walkrt::VCell::default()));
    for s in &out {
        cells[s.node.with_untracked(|n| n.index)] = s.cell.clone();
    }
    ctx.walk.ui.set_cells(cells);
    // The marks of what was just drawn (new elements start unmarked).
    drawn.update(|d| *d += 1);
    out
}

/// The scene's edges as kept slots (tracks the scene).
fn edge_slots(
    ctx: Ctx,
    slots: StoredValue<std::collections::HashMap<(String, String), ESlot>>,
    drawn: RwSignal<u64>,
    els: Elements,
) -> Vec<ESlot> {
    let out = ctx.build.scene.with(|sc| {
        slots.try_update_value(|map| {
            crate::page::keyed::reconcile(
                map,
                sc.edges.iter(),
                |e| &e.key,
                |e| ESlot {
                    key: Arc::new(e.key.clone()),
                    edge: ArcRwSignal::new((*e).clone()),
                    marks: ArcRwSignal::new(String::new()),
                },
                |s, e| {
                    // Only the path is drawn from the edge; what else reads it reads it
                    // untracked (`mark_all`), so the path is written here and nothing re-runs.
                    if s.edge.with_untracked(|old| old != *e) {
                        if s.edge.with_untracked(|old| old.d != e.d) {
                            write(els.edges, &*s.key, "d", &e.d);
                        }
                        s.edge.update_untracked(|old| *old = (*e).clone());
                    }
                },
            )
            .0
        })
    });
    let out = out.unwrap_or_default();
    drawn.update(|d| *d += 1);
    out
}

/// Sets the marks of every drawn vertex and edge (tracks the selection, the shown graph, the
/// walk's critical path, failures, hover, search and the Tab stop). One subscriber for all of
/// them: see [`crate::page::decor`] for why not one per element.
fn mark_all(
    ctx: Ctx,
    vertices: StoredValue<std::collections::HashMap<String, VSlot>>,
    edges: StoredValue<std::collections::HashMap<(String, String), ESlot>>,
    drawn: RwSignal<u64>,
) {
    drawn.track();
    let walking = ctx.walk.walking.get();
    let hover = ctx.walk.ui.hover.get();
    let tab_stop = ctx.sel.tab_stop.get();
    let search = ctx.sel.search.get();
    let lesson = ctx.learn.highlight.get();
    ctx.build.good.with(|g| {
        let not_installed = g.as_ref().map_or(&[][..], |a| a.not_installed.as_slice());
        let actions = g.as_ref().and_then(|a| a.actions.as_ref());
        ctx.build.shown.with(|shown| {
            ctx.sel.related.with(|related| {
                ctx.walk.failures.with(|failures| {
                    ctx.walk.critical.with(|critical| {
                        let m = crate::page::decor::Marks {
                            shown,
                            related,
                            failures,
                            critical,
                            hover,
                            search: &search,
                            not_installed,
                            actions,
                            lesson: &lesson,
                        };
                        vertices.with_value(|map| {
                            for slot in map.values() {
                                let marks = slot.node.with_untracked(|n| VMarks {
                                    classes: crate::page::decor::vertex(
                                        &m, &slot.name, &n.typed, n.index,
                                    ),
                                    tab_stop: tab_stop.as_deref() == Some(&*slot.name),
                                    walking,
                                    action: crate::page::decor::badge(&m, &slot.name).cloned(),
                                });
                                set_if_changed(&slot.marks, &marks);
                            }
                        });
                        edges.with_value(|map| {
                            for slot in map.values() {
                                let (a, b) = slot.edge.with_untracked(|e| (e.from, e.to));
                                let classes = crate::page::decor::edge(&m, &slot.key, a, b);
                                set_if_changed(&slot.marks, &classes);
                            }
                        });
                    })
                })
            })
        })
    });
}

/// One vertex: shape, label, walk progress. Classes carry kind, state and highlighting. Kept
/// while its name is drawn: what it shows follows its slot's signals.
pub fn vertex_view(ctx: Ctx, slot: VSlot, els: Elements) -> impl IntoView {
    let VSlot {
        name,
        node,
        cell,
        members,
        marks,
    } = slot;
    let name = name.to_string();
    // The vertex reads only its own slot's signals (and the walk cells of the vertices a
    // collapsed module hides): see `crate::page::decor` for why.
    // The vertex's own walk cell: a walk frame sets only the cells of vertices that changed, and
    // these memos split it so the DOM is touched only for what changed.
    // A collapsed module shows the walk of the vertices it hides, taken together.
    let member_cells = Memo::new(move |_| {
        members.with(|ms| {
            ms.as_ref().map(|ms| {
                ctx.walk.ui.cells_version.track();
                ctx.walk.ui.cells_of(ms)
            })
        })
    });
    let c = cell.clone();
    let st = Memo::new(move |_| {
        member_cells.with(|mc| match mc {
            Some(ms) => crate::page::view::combined_state(ms.iter().map(|m| m.get().state)),
            None => c.get().state,
        })
    });
    let c = cell.clone();
    let progress = Memo::new(move |_| {
        member_cells.with(|mc| match mc {
            Some(ms) if !ms.is_empty() => {
                let done = ms.iter().filter(|m| m.get().state == VState::Done).count();
                (done as f64 / ms.len() as f64 * 200.0).round() / 200.0
            }
            _ => c.get().progress(),
        })
    });
    let c = cell.clone();
    let inst = Memo::new(move |_| c.get().inst_label());
    // The evaluation step a running vertex is in (`page::walk_steps`).
    let step = Memo::new(move |_| cell.get().step);
    let nd = node.clone();
    let kind = Memo::new(move |_| nd.with(|n| n.kind));
    let nd = node.clone();
    let size = Memo::new(move |_| nd.with(|n| (n.w, n.h)));
    // The box, for what changes with the size: its place alone is written by `vertex_slots`
    // (`place_parts`), so it is read untracked.
    let nd = RwSignal::from(node.clone());
    let pl = move || {
        size.track();
        nd.with_untracked(placed)
    };
    let nd = node.clone();
    let index = Memo::new(move |_| nd.with(|n| n.index));
    let m = marks.clone();
    let class = move || m.with(|m| format!("vertex kind-{}{}", kind.get().css(), m.classes));
    let m = marks.clone();
    let tab_stop = Memo::new(move |_| m.with(|m| m.tab_stop));
    let m = marks.clone();
    let action = Memo::new(move |_| m.with(|m| m.action.clone()));
    // The plan's symbol above the top-left corner, each part in its colour (its words are in
    // the vertex's aria-label).
    let badge = move || {
        action.get().filter(|b| !b.parts.is_empty()).map(|b| {
            view! {
                <text class="action-badge" x=pl().badge().0 y=pl().badge().1 aria-hidden="true">
                    {b
                        .parts
                        .into_iter()
                        .map(|p| view! { <tspan class=format!("a-{}", p.colour)>{p.text}</tspan> })
                        .collect_view()}
                </text>
            }
        })
    };
    let walking = Memo::new(move |_| marks.with(|m| m.walking));
    let state = move || st.get().css();
    let progress_w = move || progress.get() * size.get().0;
    let shape = move || {
        let p = pl();
        let k = kind.get();
        match p.shape_points(k) {
            Some(pts) => view! { <polygon class="shape" points=pts></polygon> }.into_any(),
            None => view! {
                <rect class="shape" x=p.x y=p.y width=p.w height=p.h rx=rounding(k, p.h)></rect>
            }
            .into_any(),
        }
    };
    let el_ref = NodeRef::<leptos::svg::G>::new();
    let at = node.clone();
    register(els, els.vertices, name.clone(), el_ref, move |el| {
        let (p, k) = at.with_untracked(|n| (placed(n), n.kind));
        place_parts(el, p, k);
    });
    let at = node.with_untracked(placed);
    let click_name = name.clone();
    let data_name = name.clone();
    let label_name = name.clone();
    let focus_name = name.clone();
    let key_name = name.clone();
    let dbl_name = name.clone();
    view! {
        <g
            class=class
            data-name=data_name
            data-state=state
            // The keyboard: one vertex is the graph's Tab stop; the arrow keys move the focus in
            // reading order, Enter or Space does what a click does (`page::keys`).
            role="button"
            tabindex=move || if tab_stop.get() { "0" } else { "-1" }
            aria-label=move || {
                let mut l = crate::page::keys::label_with_step(
                    &label_name,
                    kind.get(),
                    walking.get().then(|| st.get().label()),
                    step.get(),
                );
                if let Some(b) = action.get() {
                    l.push_str(", ");
                    l.push_str(&b.words);
                }
                l
            }
            on:focus=move |_| ctx.sel.focused.set(Some(focus_name.clone()))
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                let key = ev.key();
                if crate::page::keys::is_move_key(&key) {
                    ev.prevent_default();
                    ev.stop_propagation();
                    let next = ctx.sel.key_order.with_untracked(|o| {
                        crate::page::keys::step(o, Some(&key_name), &key).map(String::from)
                    });
                    if let (Some(next), Some(from)) = (next, ev.current_target()) {
                        use wasm_bindgen::JsCast;
                        if let Ok(from) = from.dyn_into::<web_sys::Element>() {
                            ctx.canvas.focus_vertex(&next, &from);
                        }
                    }
                } else if key == "Enter" || key == " " {
                    // Not also a shortcut (Space plays the walk).
                    ev.prevent_default();
                    ev.stop_propagation();
                    if let Some(p) = crate::page::graph::collapsed_path(&key_name) {
                        ctx.gv.toggle_module(p);
                    } else {
                        // A key is never the end of a drag.
                        ctx.canvas.dragged.set_value(false);
                        ctx.click_vertex(key_name.clone(), ev.shift_key());
                    }
                }
            }
            node_ref=el_ref
            on:click=move |ev| {
                ev.stop_propagation();
                // A collapsed module opens again when clicked.
                if let Some(p) = crate::page::graph::collapsed_path(&click_name) {
                    if !ctx.canvas.dragged.get_value() {
                        ctx.gv.toggle_module(p);
                    }
                    return;
                }
                // Shift (or Alt) + click marks it to fail in the next walk; a plain click
                // shows its details, in Walk mode too (a skipped vertex can be inspected).
                // Read as plain properties: a click dispatched as a bare `Event` (scripts,
                // assistive tools) has no modifier keys, and the typed getters would throw.
                let held = |key: &str| {
                    js_sys::Reflect::get(&ev, &wasm_bindgen::JsValue::from_str(key))
                        .ok()
                        .and_then(|v| v.as_bool())
                        .unwrap_or(false)
                };
                ctx.click_vertex(click_name.clone(), held("shiftKey") || held("altKey"));
            }
            // A double click opens an (expand) vertex into its instances, or closes it.
            on:dblclick=move |ev| {
                ev.stop_propagation();
                ctx.toggle_expansion(&dbl_name);
            }
            on:mouseenter=move |_| {
                ctx.walk.ui.hover_from_graph.set_value(true);
                ctx.walk.ui.hover.set(Some(index.get_untracked()));
            }
            on:mouseleave=move |_| ctx.walk.ui.hover.set(None)
        >
            {shape}
            // Placed here at first; later places are written by `vertex_slots` (`place_parts`).
            <rect
                class="progress"
                x=at.progress().0
                y=move || pl().progress().1
                height="3"
                width=move || format!("{:.1}", progress_w())
            ></rect>
            <text class="label" x=move || pl().label().0 y=move || pl().label().1>
                {name}
            </text>
            <text class="inst" x=move || pl().instances().0 y=at.instances().1>
                {move || inst.get()}
            </text>
            {badge}
            {move || step.get().map(|s| view! { <text class="step-now" x=pl().step().0 y=move || pl().step().1>{s}</text> })}
        </g>
    }
}

/// One edge, from the dependency to the dependent. Kept while its two names are drawn.
fn edge_view(slot: ESlot, els: Elements) -> impl IntoView {
    let ESlot { key, edge, marks } = slot;
    let key = (*key).clone();
    let class = move || marks.with(|m| format!("edge{m}"));
    let el_ref = NodeRef::<leptos::svg::Path>::new();
    let path = edge.clone();
    register(els, els.edges, key.clone(), el_ref, move |el| {
        _ = path.with_untracked(|e| el.set_attribute("d", &e.d));
    });
    let (dependent, dependency) = key;
    view! {
        <path
            class=class
            node_ref=el_ref
            // Drawn here once; later paths are written by `edge_slots`.
            d=edge.with_untracked(|e| e.d.clone())
            marker-end="url(#arrow)"
            data-dependent=dependent
            data-dependency=dependency
        ></path>
    }
}

/// Keeps `ctx.canvas.px` equal to the canvas's size after each layout that changed it; when the
/// canvas changed size (a notice, the timeline or the details appearing), fits the graph again if
/// the view was as the last fit left it, else keeps the view's centre (`Canvas::resized`); its
/// first size fits a view the last fit left (`Canvas::first_size`).
fn watch_canvas_size(ctx: Ctx) {
    watch_size(ctx.canvas.node, false, move |w, h| {
        let now = (w, h);
        let before = ctx.canvas.px.try_get_untracked().flatten();
        if before == Some(now) {
            return;
        }
        _ = ctx.canvas.px.try_set(Some(now));
        match before {
            Some(before) => ctx.canvas.resized(before, now),
            None => ctx.canvas.first_size(now),
        }
    });
}

#[component]
pub fn GraphPane(ctx: Ctx) -> impl IntoView {
    // The drawn vertices and edges, kept by name from one drawing to the next.
    let vertex_store = StoredValue::new(std::collections::HashMap::new());
    let edge_store = StoredValue::new(std::collections::HashMap::new());
    let drawn = RwSignal::new(0u64);
    let els = Elements::new();
    Effect::new(move |_| mark_all(ctx, vertex_store, edge_store, drawn));
    let drag = StoredValue::new(None::<(f64, f64, f64, f64)>);
    let on_down = move |ev: web_sys::PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        let (tx, ty, _) = ctx.canvas.xf.get_untracked();
        drag.set_value(Some((ev.client_x() as f64, ev.client_y() as f64, tx, ty)));
        ctx.canvas.dragged.set_value(false);
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if let Some((x0, y0, tx, ty)) = drag.get_value() {
            let dx = ev.client_x() as f64 - x0;
            let dy = ev.client_y() as f64 - y0;
            if dx.abs() + dy.abs() > 4.0 {
                ctx.canvas.dragged.set_value(true);
            }
            if ctx.canvas.dragged.get_value() {
                ctx.canvas.moved();
                ctx.canvas.xf.update(|(a, b, _)| {
                    *a = tx + dx;
                    *b = ty + dy;
                });
            }
        }
    };
    let on_up = move |_| drag.set_value(None);
    watch_canvas_size(ctx);
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let at = ctx.canvas.node.get_untracked().map(|el| {
            let r = el.get_bounding_client_rect();
            (
                ev.client_x() as f64 - r.left(),
                ev.client_y() as f64 - r.top(),
            )
        });
        ctx.canvas.moved();
        ctx.canvas
            .zoom((-ev.delta_y() * 0.0015).clamp(-0.5, 0.5).exp(), at);
    };
    let stale = move || {
        ctx.build
            .analysis
            .with(|a| !a.errors.is_empty() && a.graph.is_none())
            && ctx.build.good.with(|g| g.is_some())
    };
    let counts = move || ctx.build.shown.with(crate::page::view::counts);
    let reduced_label = move || {
        ctx.build.shown.with(|s| {
            if s.replay.is_some() && !ctx.gv.resources_only.get() {
                "Transitive reduction".to_string()
            } else {
                format!("Transitive reduction ({} removed)", s.reduced)
            }
        })
    };
    let any_collapsed = move || ctx.gv.collapsed.with(|c| !c.is_empty());
    // Level of detail: labels only at a zoom where they can be read (`page::scene::labels_shown`);
    // a memo, so panning and zooming touch the class only when the threshold is crossed.
    let labelled = Memo::new(move |before: Option<&bool>| {
        crate::page::scene::labels_shown(ctx.canvas.xf.get().2, before.copied())
    });
    let svg_class = move || match (labelled.get(), ctx.canvas.moving.get()) {
        (true, false) => "graph-svg",
        (false, false) => "graph-svg marks-only",
        (true, true) => "graph-svg moving",
        (false, true) => "graph-svg marks-only moving",
    };
    let step_banner = move || {
        let k = ctx.build.step.get()?;
        ctx.build.good.with(|g| {
            let a = g.as_ref()?;
            let s = a.steps.get(k)?;
            Some(view! {
                <div class="step-banner">
                    <span class=format!("phase-tag phase-{}", explain::phase_of(&s.name).css())>
                        {explain::phase_of(&s.name).tag()}
                    </span>
                    <strong>{format!("Step {} of {}: {}", k + 1, a.steps.len(), s.name)}</strong>
                    <span>{explain::explain(&s.name)}</span>
                    <span class="step-delta">{explain::delta_text(s)}</span>
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
                        prop:value=move || ctx.build.kind.get().as_str()
                        on:change=move |ev| {
                            if let Some(k) = BuilderKind::parse(&event_target_value(&ev)) {
                                ctx.build.kind.set(k);
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
                        class:active=move || ctx.shell.mode.get() == Mode::Inspect
                        on:click=move |_| ctx.shell.mode.set(Mode::Inspect)
                        title="Click a vertex to see its details"
                    >
                        "Inspect"
                    </button>
                    <button
                        type="button"
                        id="mode-walk"
                        class:active=move || ctx.shell.mode.get() == Mode::Walk
                        on:click=move |_| ctx.shell.mode.set(Mode::Walk)
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
                    prop:value=move || ctx.sel.search.get()
                    on:input=move |ev| ctx.sel.search.set(event_target_value(&ev))
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            ev.prevent_default();
                            ctx.next_search_match(ev.shift_key());
                        }
                    }
                />
                <span class="search-count" aria-live="polite">{move || ctx.search_position()}</span>
                <span class="graph-counts">{counts}</span>
                <span class="spacer"></span>
            </div>
            <div class="pane-title graph-viewbar">
                <label class="check" title="On: as tofu graph prints it. Off: the edges the reduction removed come back, dashed.">
                    <input
                        type="checkbox"
                        id="view-reduce"
                        prop:checked=move || ctx.gv.reduce.get()
                        on:change=move |ev| ctx.gv.reduce.set(event_target_checked(&ev))
                    />
                    <span class="reduced-label">{reduced_label}</span>
                </label>
                <label class="check" title="Only resources and data sources, joined where a path leads from one to another">
                    <input
                        type="checkbox"
                        id="view-resources"
                        prop:checked=move || ctx.gv.resources_only.get()
                        on:change=move |ev| ctx.gv.resources_only.set(event_target_checked(&ev))
                    />
                    <span>"Resources only"</span>
                </label>
                <Show when=any_collapsed>
                    <button type="button" id="expand-all" class="small-button" on:click=move |_| ctx.gv.collapsed.set(BTreeSet::new())>
                        "Expand all modules"
                    </button>
                </Show>
                <overlay::OverlayBar />
            </div>
            {overlay::note(ctx)}
            {step_banner}
            <div
                class="graph-canvas"
                node_ref=ctx.canvas.node
                on:pointerdown=on_down
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointerleave=on_up
                on:wheel=on_wheel
                on:click=move |_| {
                    if !ctx.canvas.dragged.get_value() {
                        ctx.sel.selected.set(None);
                    }
                }
            >
                // The view's pan and zoom are the SVG element's CSS transform, not an SVG
                // transform inside it: the browser can then move the drawing as one layer
                // (`Canvas::moved`) instead of painting it again.
                <svg
                    class=svg_class
                    width="100%"
                    height="100%"
                    role="group"
                    aria-label="Dependency graph"
                    overflow="visible"
                    style:transform-origin="0 0"
                    style:transform=move || crate::page::scene::view_transform(ctx.canvas.xf.get())
                >
                    <defs>
                        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                            <path d="M0,0 L10,5 L0,10 z" class="arrowhead"></path>
                        </marker>
                        <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                            <line x1="0" y1="0" x2="0" y2="6" class="hatch-line"></line>
                        </pattern>
                    </defs>
                    <g class="view">
                        {move || {
                            ctx.build.scene
                                .with(|sc| sc.clusters.clone())
                                .into_iter()
                                .map(|c| {
                                    let path = c.path.clone();
                                    view! {
                                        <g class="cluster" data-depth=c.depth.to_string() data-path=c.path.clone()>
                                            <rect x=c.x y=c.y width=c.w height=c.h rx="6"></rect>
                                            <g
                                                class="cluster-header"
                                                role="button"
                                                tabindex="0"
                                                aria-label=format!("Collapse {}", c.path)
                                                on:click={
                                                    let path = path.clone();
                                                    move |ev| {
                                                        ev.stop_propagation();
                                                        if !ctx.canvas.dragged.get_value() {
                                                            ctx.gv.toggle_module(&path);
                                                        }
                                                    }
                                                }
                                                on:keydown=move |ev| {
                                                    if ev.key() == "Enter" || ev.key() == " " {
                                                        // Not also a shortcut (space plays the walk).
                                                        ev.prevent_default();
                                                        ev.stop_propagation();
                                                        ctx.gv.toggle_module(&path);
                                                    }
                                                }
                                            >
                                                <title>"Collapse this module into one vertex"</title>
                                                <rect class="cluster-hit" x=c.x y=c.y width=c.w height="20"></rect>
                                                <text class="cluster-toggle" x=c.x + 7.0 y=c.y + 14.0>"▾"</text>
                                                <text class="cluster-title" x=c.x + 19.0 y=c.y + 14.0>
                                                    {c.title.clone()}
                                                </text>
                                            </g>
                                        </g>
                                    }
                                })
                                .collect_view()
                        }}
                        <For each=move || super::ctx::timed("draw-edges", || edge_slots(ctx, edge_store, drawn, els)) key=|e| e.key.clone() let:e>
                            {edge_view(e, els)}
                        </For>
                        {move || {
                            let paths = ctx
                                .build.shown
                                .with(|s| ctx.build.scene.with(|sc| crate::page::scene::dashed_paths(s, sc)));
                            paths
                                .into_iter()
                                .map(|e| {
                                    let (a, b, d) = (e.key.0, e.key.1, e.d);
                                    view! {
                                        <path class="edge reduced" d=d marker-end="url(#arrow)" data-dependent=a data-dependency=b>
                                            <title>"Removed by transitive reduction: a longer path already orders these two"</title>
                                        </path>
                                    }
                                })
                                .collect_view()
                        }}
                        <For each=move || super::ctx::timed("draw-vertices", || vertex_slots(ctx, vertex_store, drawn, els)) key=|v| v.name.clone() let:v>
                            {vertex_view(ctx, v, els)}
                        </For>
                        {overlay::layer(ctx)}
                    </g>
                </svg>
                <div class="zoom-buttons" on:click=|ev| ev.stop_propagation() on:pointerdown=|ev| ev.stop_propagation()>
                    <button type="button" title="Zoom out" aria-label="Zoom out" on:click=move |_| ctx.canvas.zoom(1.0 / 1.25, None)>
                        "−"
                    </button>
                    <button type="button" title="Zoom in" aria-label="Zoom in" on:click=move |_| ctx.canvas.zoom(1.25, None)>
                        "+"
                    </button>
                    <button type="button" title="Fit the graph" on:click=move |_| ctx.canvas.fit()>
                        "Fit"
                    </button>
                    <button type="button" id="tidy" title="Lay the graph out afresh: edits keep what they did not change in place, which can leave gaps" on:click=move |_| ctx.build.tidy.update(|n| *n += 1)>
                        "Tidy"
                    </button>
                </div>
                <super::minimap::Minimap ctx=ctx />
                <Show when=stale>
                    <span class="stale" title="The configuration has errors: fix them to update the graph">
                        "Showing the last graph that built"
                    </span>
                </Show>
                {move || ctx.build.good.with(|g| g.as_ref().and_then(|a| model::not_installed_notice(&a.not_installed))).map(|text| view! {
                    <p class="not-installed-note" role="status">{text}</p>
                })}
                {move || ctx.build.scene.with(|s| s.too_big.clone()).map(|text| view! {
                    <p class="empty-graph too-big">{text}</p>
                })}
                // Said once an analysis is there to say it of: the first build of the page runs
                // over several tasks, and meanwhile "No graph yet" would be untrue.
                <Show when=move || ctx.build.built.get() != 0 && ctx.build.shown.with(|s| s.graph.is_empty())>
                    <p class="empty-graph">{move || ctx.build.analysis.with(|a| crate::page::view::empty_text(a))}</p>
                </Show>
            </div>
            <Legend />
        </section>
    }
}

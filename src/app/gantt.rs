//! The Gantt timeline of a walk: a row per vertex (or per instance of an expanded vertex) that has
//! become ready to run, its wait for a permit and its run as bars on an axis of the walk's
//! makespan, a "now" cursor, the critical path marked; hovering a row highlights its vertex in the
//! graph and hovering a vertex highlights its rows.
//!
//! A frame changes only the rows whose task moved, and the cursor: a bar still growing is drawn to
//! the end of the axis and a cover from "now" onwards (moved by a transform) hides its future.

use super::prelude::*;
use crate::page::view::Shown;
use walkrt::GCell;

fn pct(t: f64, axis: f64) -> f64 {
    (t / axis.max(1e-9) * 100.0).clamp(0.0, 100.0)
}

fn bar_style(from: f64, to: Option<f64>, axis: f64) -> String {
    let a = pct(from, axis);
    let b = to.map_or(100.0, |t| pct(t, axis));
    format!("left:{a:.3}%;width:{:.3}%", (b - a).max(0.0))
}

#[component]
pub fn Gantt() -> impl IntoView {
    let (walk, canvas) = (expect_context::<Walk>(), expect_context::<Canvas>());
    let shown = expect_context::<Build>().shown;
    let ui = walk.ui;
    let now = Memo::new(move |_| {
        walk.view
            .with(|v| (pct(v.now, ui.axis.get()) * 10.0).round() / 10.0)
    });
    let axis_label = move || {
        let a = ui.axis.get();
        format!("0 – {a:.0} s")
    };
    // The timeline takes room from the graph's canvas (and gives it back when it closes).
    canvas.refit_if_untouched();
    on_cleanup(move || canvas.refit_if_untouched());
    // New rows are added at the bottom: follow them unless the user scrolled up.
    let follow = StoredValue::new(true);
    Effect::new(move |_| {
        ui.rows.track();
        // After the rows are in the DOM.
        request_animation_frame(move || {
            // The timeline may have closed since (a reset).
            if follow.try_get_value() == Some(true)
                && let Some(g) = ui.gantt.get_untracked()
            {
                g.set_scroll_top(g.scroll_height());
            }
        });
    });
    let on_scroll = move |_| {
        if let Some(g) = ui.gantt.get_untracked() {
            follow.set_value(g.scroll_height() - g.scroll_top() - g.client_height() < 24);
        }
    };
    // Hovering a vertex in the graph brings its first row into view.
    Effect::new(move |_| {
        let Some(i) = ui.hover.get() else { return };
        if !ui.hover_from_graph.get_value() {
            return;
        }
        let Some(task) = ui
            .rows
            .with_untracked(|rows| rows.iter().find(|r| r.row.vertex == i).map(|r| r.row.task))
        else {
            return;
        };
        let el = ui.gantt.get_untracked().and_then(|g| {
            g.query_selector(&format!(".g-row[data-task='{task}']"))
                .ok()
                .flatten()
        });
        if let (Some(el), Some(g)) = (el, ui.gantt.get_untracked()) {
            use wasm_bindgen::JsCast;
            if let Ok(row) = el.dyn_into::<web_sys::HtmlElement>() {
                let top = f64::from(row.offset_top());
                let h = f64::from(g.client_height());
                let st = f64::from(g.scroll_top());
                if top < st || top + 24.0 > st + h {
                    follow.set_value(false);
                    g.set_scroll_top((top - h / 2.0).max(0.0) as i32);
                }
            }
        }
    });
    // Closed, the timeline leaves its height to the graph; its box can also be dragged taller.
    let open = RwSignal::new(true);
    view! {
        <div class="gantt-wrap" class:collapsed=move || !open.get()>
            <div class="gantt-head">
                <button
                    type="button"
                    class="gantt-toggle"
                    aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    {move || if open.get() { "Hide" } else { "Show" }}
                </button>
                <span class="gantt-title">"Timeline"</span>
                <span class="g-key g-key-wait">"waiting for a permit"</span>
                <span class="g-key g-key-run">"running"</span>
                <span class="g-key g-key-done">"done"</span>
                <span class="g-key g-key-failed">"failed"</span>
                <span class="g-key g-key-critical">"critical path"</span>
                <span class="spacer"></span>
                <span class="gantt-axis">{axis_label}</span>
            </div>
            <div class="gantt" node_ref=ui.gantt role="list" aria-label="Walk timeline" tabindex="0" on:scroll=on_scroll>
                <div class="gantt-inner">
                    <For
                        each=move || ui.rows.get()
                        key=|r| r.row.task
                        children=move |r| gantt_row(walk, shown, r.row, r.cell)
                    />
                    <div class="g-cover" aria-hidden="true">
                        <div class="g-future" style:transform=move || format!("translateX({:.1}%)", now.get())></div>
                    </div>
                </div>
            </div>
        </div>
    }
}

fn gantt_row(
    walk: Walk,
    shown: Memo<Shown>,
    row: walkrt::GRow,
    cell: ArcRwSignal<GCell>,
) -> impl IntoView {
    let ui = walk.ui;
    let v = row.vertex;
    let hovered = Memo::new(move |_| ui.hover.get() == Some(v));
    // The axis through a memo of the row's own: the bars run again at every change of the row's
    // cell, and a closure that runs again leaves every source it read, a cost that grows with
    // the source's readers (all rows read the axis; see `crate::page::decor`).
    let axis = Memo::new(move |_| ui.axis.get());
    let c = cell.clone();
    let class = move || {
        let g = c.get();
        let mut s = format!("g-row state-{}", g.state.css());
        if row.instance {
            s.push_str(" instance");
        }
        if g.critical {
            s.push_str(" critical");
        }
        if hovered.get() {
            s.push_str(" hover");
        }
        s
    };
    let c = cell.clone();
    let wait = move || {
        let g = c.get();
        bar_style(g.ready, g.start, axis.get())
    };
    let c = cell.clone();
    let run = move || {
        let g = c.get();
        g.start
            .map(|s| bar_style(s, g.ran_until, axis.get()))
            .unwrap_or_else(|| "display:none".into())
    };
    let c = cell.clone();
    let tname = row.name.clone();
    let title = move || {
        let g = c.get();
        let mut t = format!("{tname}: {}", g.state.label());
        if let Some(s) = g.start {
            t.push_str(&format!(", started at {s:.1} s"));
            if g.start.is_some_and(|s| s > g.ready) {
                t.push_str(&format!(" after {:.1} s waiting for a permit", s - g.ready));
            }
        }
        if let Some(e) = g.ran_until {
            t.push_str(&format!(", ran until {e:.1} s"));
        }
        if g.critical {
            t.push_str("; on the critical path");
        }
        t
    };
    let vertex_name = shown.with_untracked(|s| crate::page::graph::name(&s.graph, v).to_string());
    let name = row.name.clone();
    // Opened, the row shows its task's steps as bars of their own, one row each.
    let open = RwSignal::new(false);
    let task = row.task;
    let c = cell;
    let steps = move || {
        if !open.get() {
            return None;
        }
        // Drawn again when the row's task moves (starts, finishes): step times are planned when
        // it starts, and the cover hides what has not happened yet.
        let _ = c.get();
        let bars = walk
            .rt
            .with_value(|r| r.as_ref().map(|r| r.row_steps(task)))
            .unwrap_or_default();
        let axis = axis.get();
        let rows = if bars.is_empty() {
            view! {
                <div class="g-row g-step" role="listitem">
                    <span class="g-label muted">"no steps yet"</span>
                    <span class="g-track"></span>
                </div>
            }
            .into_any()
        } else {
            bars.into_iter()
                .map(|b| {
                    let title = format!(
                        "{}: {}",
                        b.name,
                        match b.end {
                            Some(e) => format!("{:.1} s – {e:.1} s", b.start),
                            None => format!("from {:.1} s", b.start),
                        }
                    );
                    view! {
                        <div class=format!("g-row g-step state-{}", b.state.css()) role="listitem" data-step-id=b.id title=title>
                            <span class="g-label">{b.name}</span>
                            <span class="g-track">
                                <span class="g-bar g-run" style=bar_style(b.start, b.end, axis)></span>
                            </span>
                        </div>
                    }
                })
                .collect_view()
                .into_any()
        };
        Some(rows)
    };
    view! {
        <div
            class=class
            role="listitem"
            data-task=row.task.to_string()
            data-vertex=vertex_name
            title=title
            on:mouseenter=move |_| {
                ui.hover_from_graph.set_value(false);
                ui.hover.set(Some(v));
            }
            on:mouseleave=move |_| ui.hover.set(None)
        >
            // Beside the label, not in it: the label is the row's name.
            <button
                type="button"
                class="g-open"
                aria-expanded=move || open.get().to_string()
                aria-label=format!("Steps of {name}")
                title="Show this row's evaluation steps"
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {move || if open.get() { "▾" } else { "▸" }}
            </button>
            <span class="g-label">{row.name.clone()}</span>
            <span class="g-track">
                <span class="g-bar g-wait" style=wait></span>
                <span class="g-bar g-run" style=run></span>
            </span>
        </div>
        {steps}
    }
}

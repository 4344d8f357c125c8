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
    use crate::page::timeline;
    let walk = expect_context::<Walk>();
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
    // The timeline takes room from the graph's canvas (and gives it back when it closes): the
    // canvas's `ResizeObserver` fits the graph again (app/graph.rs).
    //
    // Only the rows in the box (and a few either side) are drawn (`page::timeline`): the box's
    // scroll position and height as last seen, the opened rows (by task), and whether it
    // follows the rows added at the bottom (until the user scrolls up).
    let scroll = RwSignal::new((0.0_f64, 0.0_f64));
    let opened = RwSignal::new(BTreeSet::<u32>::new());
    let follow = RwSignal::new(true);
    // Where the timeline last scrolled itself to: the scroll event that follows is not the
    // user's (rows may have been added since, so it is not at the bottom any more).
    let scrolled_to = StoredValue::new(None::<i32>);
    let tops =
        Memo::new(move |_| {
            let open = opened.get();
            ui.rows.with(|rows| {
                timeline::tops(rows.len(), |i| {
                    let r = &rows[i];
                    if !open.contains(&r.row.task) {
                        return None;
                    }
                    // Its steps are planned when its task starts: counted again when it moves.
                    r.cell.track();
                    Some(walk.rt.with_value(|rt| {
                        rt.as_ref().map_or(0, |rt| rt.row_steps(r.row.task).len())
                    }))
                })
            })
        });
    let win = Memo::new(move |_| {
        let (top, height) = scroll.get();
        tops.with(|t| timeline::window(t, top, height, follow.get()))
    });
    // Following: once the rows are drawn, the box is scrolled to the bottom (a layout of the
    // few rows drawn).
    Effect::new(move |_| {
        let w = win.get();
        if !follow.get() {
            return;
        }
        // The box's place and height as last seen (its scroll events, its `ResizeObserver`):
        // read from the page here, they would lay it out in the middle of a walk frame.
        request_animation_frame(move || {
            let Some((top, _)) = scroll.try_get_untracked() else {
                return;
            };
            let to = w.scroll.round();
            if (top - to).abs() >= 1.0
                && let Some(g) = ui.gantt.get_untracked()
            {
                g.set_scroll_top(to as i32);
                scrolled_to.set_value(Some(to as i32));
            }
        });
    });
    let on_scroll = move |_| {
        if let Some(g) = ui.gantt.get_untracked() {
            let at = g.scroll_top();
            let (top, h) = (f64::from(at), scroll.with_untracked(|s| s.1));
            scroll.set((top, h));
            let ours = scrolled_to.get_value().is_some_and(|t| (t - at).abs() <= 1);
            scrolled_to.set_value(None);
            if ours {
                return;
            }
            let bottom = timeline::at_bottom(win.with_untracked(|w| w.total), top, h);
            if follow.get_untracked() != bottom {
                follow.set(bottom);
            }
        }
    };
    // The box's height: read when it is first drawn (at once: until then no row would be known
    // to be in view) and when it is resized (dragged taller, the window resized).
    watch_size(ui.gantt, true, move |_, h| {
        if scroll.try_with_untracked(|s| s.1 != h) == Some(true) {
            scroll.update(|s| s.1 = h);
        }
    });
    // Hovering a vertex in the graph brings its first row into view.
    Effect::new(move |_| {
        let Some(i) = ui.hover.get() else { return };
        if !ui.hover_from_graph.get_value() {
            return;
        }
        let Some(row) = ui
            .rows
            .with_untracked(|rows| rows.iter().position(|r| r.row.vertex == i))
        else {
            return;
        };
        let h = scroll.with_untracked(|s| s.1);
        let top = win.with_untracked(|w| w.scroll);
        if let Some(to) = tops.with_untracked(|t| timeline::scroll_to(t, row, top, h))
            && let Some(g) = ui.gantt.get_untracked()
        {
            follow.set(false);
            g.set_scroll_top(to as i32);
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
            <div
                class="gantt"
                node_ref=ui.gantt
                role="list"
                aria-label="Walk timeline"
                tabindex="0"
                on:scroll=on_scroll
            >
                <div class="gantt-inner" style:height=move || format!("{}px", win.get().total)>
                    <div class="g-rows" style:transform=move || format!("translateY({}px)", win.get().offset)>
                        <For
                            each=move || {
                                let w = win.get();
                                ui.rows.with(|rows| {
                                    rows.get(w.first..w.end)
                                        .unwrap_or_default()
                                        .iter()
                                        .enumerate()
                                        .map(|(k, r)| (w.first + k, r.clone()))
                                        .collect::<Vec<_>>()
                                })
                            }
                            // By task and place: a row's stripe follows its place, which moves
                            // when an expanded vertex's row gives way to its instances.
                            key=|(i, r)| (r.row.task, *i)
                            children=move |(i, r)| gantt_row(walk, shown, r.row, r.cell, i, opened)
                        />
                        <div class="g-cover" aria-hidden="true">
                            <div class="g-future" style:transform=move || format!("translateX({:.1}%)", now.get())></div>
                        </div>
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
    index: usize,
    opened: RwSignal<BTreeSet<u32>>,
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
        if index % 2 == 1 {
            s.push_str(" odd");
        }
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
    let task = row.task;
    let open = Memo::new(move |_| opened.with(|o| o.contains(&task)));
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
            // Only some rows are drawn: each says where it is in the whole list.
            aria-posinset=index + 1
            aria-setsize=move || walk.ui.rows.with(Vec::len)
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
                on:click=move |_| opened.update(|o| {
                    if !o.remove(&task) {
                        o.insert(task);
                    }
                })
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

//! The algorithm overlays' controls and drawing (what they compute is `crate::page::overlay`):
//! the selector, DFS/BFS stepped or animated, badges and rings over the vertices.

use super::prelude::*;
use crate::page::overlay::OverlayKind;

/// Advances the DFS/BFS animation about twice a second while playing.
fn animate(ov: Overlays, last: Option<f64>, acc: f64) {
    request_animation_frame(move || {
        if !ov.playing.get_untracked() {
            return;
        }
        let now = performance_now();
        let mut acc = acc + last.map_or(0.0, |l| now - l);
        if acc >= 450.0 {
            acc = 0.0;
            let n = ov.data.with_untracked(|d| d.visits.len());
            let k = ov.step.get_untracked();
            if k >= n {
                ov.playing.set(false);
                return;
            }
            ov.step.set(k + 1);
        }
        animate(ov, Some(now), acc);
    });
}

/// The overlay selector and, for DFS/BFS, the step controls.
#[component]
pub fn OverlayBar() -> impl IntoView {
    let (ov, canvas) = (expect_context::<Overlays>(), expect_context::<Canvas>());
    // A new walk (other overlay, start or graph) starts from nothing visited.
    Effect::new(move |_| {
        ov.data.track();
        ov.step.set(0);
        ov.playing.set(false);
    });
    // The bar grows or shrinks with the overlay's controls: fit the graph to the new canvas.
    Effect::new(move |prev: Option<()>| {
        ov.kind.track();
        if prev.is_some() {
            request_animation_frame(move || canvas.fit());
        }
    });
    let walking = move || matches!(ov.kind.get(), OverlayKind::Dfs | OverlayKind::Bfs);
    let total = move || ov.data.with(|d| d.visits.len());
    let play = move |_| {
        if ov.playing.get_untracked() {
            ov.playing.set(false);
            return;
        }
        if ov.step.get_untracked() >= total() {
            ov.step.set(0);
        }
        ov.playing.set(true);
        animate(ov, None, 450.0);
    };
    view! {
        <label class="overlay-select">
            <span class="sr-only">"Overlay"</span>
            <select
                id="overlay"
                prop:value=move || ov.kind.get().value()
                on:change=move |ev| ov.kind.set(OverlayKind::parse(&event_target_value(&ev)))
            >
                {OverlayKind::ALL
                    .into_iter()
                    .map(|k| view! { <option value=k.value()>{k.label()}</option> })
                    .collect_view()}
            </select>
        </label>
        <Show when=walking>
            <div class="overlay-steps" role="group" aria-label="Search steps">
                <button type="button" id="overlay-reset" title="Back to the start" on:click=move |_| { ov.playing.set(false); ov.step.set(0); }>"Restart"</button>
                <button type="button" id="overlay-play" on:click=play>
                    {move || if ov.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button
                    type="button"
                    id="overlay-step"
                    title="Visit the next vertex"
                    on:click=move |_| {
                        ov.playing.set(false);
                        let n = total();
                        ov.step.update(|k| *k = (*k + 1).min(n));
                    }
                >
                    "Step"
                </button>
                <button type="button" id="overlay-end" title="Visit everything" on:click=move |_| { ov.playing.set(false); ov.step.set(total()); }>"End"</button>
                <span class="overlay-count">
                    {move || {
                        let k = ov.step.get();
                        let f = ov.data.with(|d| d.frontiers.get(k).map_or(0, Vec::len));
                        format!("visited {k} of {} · frontier {f}", total())
                    }}
                </span>
            </div>
        </Show>
    }
}

/// The overlay drawn over the vertices (numbers, frontier, components), in scene coordinates.
pub fn layer(ctx: Ctx) -> impl IntoView {
    move || {
        let kind = ctx.ov.kind.get();
        if kind == OverlayKind::None {
            return None;
        }
        let nodes: BTreeMap<usize, (f64, f64, f64, f64)> = ctx.build.scene.with(|sc| {
            sc.nodes
                .iter()
                .map(|n| (n.index, (n.x, n.y, n.w, n.h)))
                .collect()
        });
        let step = ctx.ov.step.get();
        let d = ctx.ov.data.get();
        let names: Vec<String> = ctx
            .build
            .shown
            .with_untracked(|s| s.graph.vertices().iter().map(|v| v.name.clone()).collect());
        let badge = |i: usize, text: String, class: String| {
            nodes.get(&i).map(|&(x, y, w, _)| {
                let number = text.clone();
                let name = names.get(i).cloned().unwrap_or_default();
                view! {
                    <g class=format!("badge {class}") data-name=name data-number=number transform=format!("translate({:.1},{:.1})", x + w, y)>
                        <circle r="9"></circle>
                        <text>{text}</text>
                    </g>
                }
            })
        };
        let ring = |i: usize, class: &'static str| {
            nodes.get(&i).map(|&(x, y, w, h)| {
                view! {
                    <rect class=class data-name=names.get(i).cloned().unwrap_or_default() x=x - 4.0 y=y - 4.0 width=w + 8.0 height=h + 8.0 rx="7"></rect>
                }
            })
        };
        let mut out: Vec<AnyView> = Vec::new();
        match kind {
            OverlayKind::None => {}
            OverlayKind::Topo => {
                for (&i, &n) in &d.numbers {
                    out.extend(badge(i, n.to_string(), "topo".into()).map(IntoAny::into_any));
                }
            }
            OverlayKind::Dfs | OverlayKind::Bfs => {
                for &i in d.frontiers.get(step).into_iter().flatten() {
                    out.extend(ring(i, "frontier").map(IntoAny::into_any));
                }
                if let Some(&cur) = step.checked_sub(1).and_then(|k| d.visits.get(k)) {
                    out.extend(ring(cur, "current").map(IntoAny::into_any));
                }
                for (k, &i) in d.visits.iter().take(step).enumerate() {
                    out.extend(
                        badge(i, (k + 1).to_string(), "visit".into()).map(IntoAny::into_any),
                    );
                }
            }
            OverlayKind::Scc => {
                let mut colour = 0usize;
                for (k, c) in d.sccs.iter().enumerate() {
                    let class = if c.len() > 1 {
                        colour += 1;
                        format!("scc big scc-c{}", (colour - 1) % 7)
                    } else {
                        "scc".to_string()
                    };
                    if c.len() > 1 {
                        // Each member outlined in the component's colour (a box around all of
                        // them could take in vertices that are not members).
                        let members = c
                            .iter()
                            .filter_map(|i| names.get(*i).cloned())
                            .collect::<Vec<_>>()
                            .join("\n");
                        let rings = c
                            .iter()
                            .filter_map(|i| nodes.get(i))
                            .map(|&(x, y, w, h)| {
                                view! {
                                    <rect x=x - 6.0 y=y - 6.0 width=w + 12.0 height=h + 12.0 rx="9"></rect>
                                }
                            })
                            .collect_view();
                        out.push(
                            view! {
                                <g class=format!("scc-hull scc-c{}", (colour - 1) % 7) data-members=members>
                                    {rings}
                                </g>
                            }
                            .into_any(),
                        );
                    }
                    for &i in c {
                        out.extend(
                            badge(i, format!("C{}", k + 1), class.clone()).map(IntoAny::into_any),
                        );
                    }
                }
            }
        }
        Some(view! { <g class="overlay-layer">{out}</g> })
    }
}

/// The overlay's explanation, under the toolbar.
pub fn note(ctx: Ctx) -> impl IntoView {
    move || {
        let n = ctx.ov.data.with(|d| d.note.clone());
        (!n.is_empty()).then(|| view! { <p class="overlay-note">{n}</p> })
    }
}

//! The graph's legend (each drawn kind with its swatch, the plan's actions with their counts) and
//! its glossary dialog.

use super::prelude::*;
use crate::page::graph::{rounding, shape_points};

#[component]
pub fn Legend() -> impl IntoView {
    let (build, ov) = (expect_context::<Build>(), expect_context::<Overlays>());
    let mode = expect_context::<Shell>().mode;
    // None: the stylesheet decides (open on large screens, closed on phones and short screens).
    let open = RwSignal::new(None::<bool>);
    let glossary = RwSignal::new(false);
    let toggle = move |_| {
        let size = |v: Option<Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>>| {
            v.and_then(|v| v.ok()).and_then(|v| v.as_f64())
        };
        let w = web_sys::window();
        let by_default = crate::page::view::legend_open_by_default(
            size(w.as_ref().map(|w| w.inner_width())),
            size(w.as_ref().map(|w| w.inner_height())),
        );
        let now = open.get_untracked().unwrap_or(by_default);
        open.set(Some(!now));
    };
    view! {
        <div class="legend" class:collapsed=move || open.get() == Some(false) class:expanded=move || open.get() == Some(true)>
            <button type="button" class="legend-toggle" on:click=toggle>
                "Legend"
            </button>
            <button
                type="button"
                class="legend-glossary"
                aria-haspopup="dialog"
                title="What each kind of vertex and each name suffix means"
                on:click=move |_| glossary.set(true)
            >
                "Glossary"
            </button>
            <Show when=move || glossary.get()>
                <Glossary close=move || glossary.set(false) />
            </Show>
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
                    {move || plan_rows(build)}
                    <Show when=move || build.good.with(|g| g.as_ref().is_some_and(|a| !a.not_installed.is_empty()))>
                        <li>
                            <svg width="28" height="16" class="vertex kind-module-expand not-installed">
                                <g transform="translate(1,1)"><rect class="shape" width="26" height="14" rx="2"></rect></g>
                            </svg>
                            <span>"module not installed (run tofu init)"</span>
                        </li>
                    </Show>
                    <li><svg width="28" height="10" class="legend-edge"><line class="edge" x1="1" y1="5" x2="27" y2="5"></line></svg><span>"depends on (arrow: from what runs first)"</span></li>
                    <li><svg width="28" height="10" class="legend-edge"><line class="edge reduced" x1="1" y1="5" x2="27" y2="5"></line></svg><span>"removed by transitive reduction"</span></li>
                    <li><svg width="28" height="10" class="legend-edge"><line class="edge cycle" x1="1" y1="5" x2="27" y2="5"></line></svg><span>"cycle"</span></li>
                    <Show when=move || build.step.get().is_some()>
                        <li><svg width="28" height="10" class="legend-edge"><line class="edge added" x1="1" y1="5" x2="27" y2="5"></line></svg><span>"added by this step"</span></li>
                        <li><svg width="28" height="10" class="legend-edge"><line class="edge removed" x1="1" y1="5" x2="27" y2="5"></line></svg><span>"removed by this step"</span></li>
                    </Show>
                    <Show when=move || ov.kind.get() != crate::page::overlay::OverlayKind::None>
                        <li><span class="legend-badge">"3"</span><span>"order number / component"</span></li>
                    </Show>
                    <Show when=move || matches!(ov.kind.get(), crate::page::overlay::OverlayKind::Dfs | crate::page::overlay::OverlayKind::Bfs)>
                        <li><span class="legend-ring frontier"></span><span>"frontier (queued)"</span></li>
                        <li><span class="legend-ring current"></span><span>"just visited"</span></li>
                    </Show>
                    <Show when=move || mode.get() == Mode::Walk>
                        <li class="legend-will-fail">
                            <svg width="28" height="16" class="vertex inject" aria-hidden="true">
                                <g transform="translate(1,1)"><rect class="shape" width="26" height="14" rx="4"></rect></g>
                            </svg>
                            <span>"will fail in the next walk (Shift+click)"</span>
                        </li>
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

/// The legend's rows for a loaded plan: `tofu plan`'s summary line, then each action present
/// with its symbol and how many changes have it ([`crate::page::actions`]).
fn plan_rows(build: Build) -> Option<impl IntoView> {
    let acts = build
        .good
        .with(|g| g.as_ref().and_then(|a| a.actions.clone()))?;
    let rows = acts
        .legend
        .into_iter()
        .map(|r| {
            view! {
                <li class=format!("legend-action {}", r.class)>
                    <span class="action-symbol">
                        {r
                            .parts
                            .into_iter()
                            .map(|p| view! { <span class=format!("a-{}", p.colour)>{p.text}</span> })
                            .collect_view()}
                    </span>
                    <span>{r.description}</span>
                    <span class="action-count">{r.count}</span>
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <li class="plan-summary">{acts.summary}</li>
        {rows}
    })
}

/// The glossary the legend opens: every vertex kind with its swatch and every name suffix, in
/// `page::glossary`'s words. Closed by its button, Escape or a click outside the card.
#[component]
fn Glossary(close: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    let card = NodeRef::<leptos::html::Div>::new();
    // The dialog takes the focus, so Escape and screen readers start inside it.
    Effect::new(move |_| {
        if let Some(c) = card.get() {
            let _ = c.focus();
        }
    });
    let row = |e: crate::page::glossary::Entry| {
        let swatch = e.kind.map(|k| {
            let (w, h) = (26.0, 14.0);
            let shape = match shape_points(k, w, h) {
                Some(p) => view! { <polygon class="shape" points=p></polygon> }.into_any(),
                None => view! { <rect class="shape" width=w height=h rx=rounding(k, h)></rect> }.into_any(),
            };
            view! {
                <svg width="28" height="16" class=format!("vertex kind-{}", k.css()) aria-hidden="true">
                    <g transform="translate(1,1)">{shape}</g>
                </svg>
            }
        });
        view! {
            <div class="glossary-entry">
                <dt>{swatch}<span class="glossary-term">{e.term}</span></dt>
                <dd>
                    <code class="glossary-example">{e.example}</code>
                    <span>{e.text}</span>
                </dd>
            </div>
        }
    };
    view! {
        <div class="help-overlay glossary-overlay" on:click=move |_| close()>
            <div
                class="help-card glossary-card"
                role="dialog"
                aria-modal="true"
                aria-labelledby="glossary-title"
                tabindex="-1"
                node_ref=card
                on:click=|ev| ev.stop_propagation()
                on:keydown=move |ev| {
                    if ev.key() == "Escape" {
                        ev.stop_propagation();
                        close();
                    }
                }
            >
                <h2 id="glossary-title">"Glossary: the vertices of a graph"</h2>
                <h3>"Kinds (colour and shape)"</h3>
                <dl class="glossary-list">
                    {crate::page::glossary::kinds().into_iter().map(row).collect_view()}
                </dl>
                <h3>"Name suffixes"</h3>
                <dl class="glossary-list">
                    {crate::page::glossary::suffixes().into_iter().map(row).collect_view()}
                </dl>
                <button type="button" class="glossary-close" on:click=move |_| close()>"Close"</button>
            </div>
        </div>
    }
}

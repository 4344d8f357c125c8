//! The editor pane: file tabs, the text, the block outline and the diagnostics list.

use super::*;

#[component]
pub fn EditorPane(ctx: Ctx) -> impl IntoView {
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
pub fn Diagnostics(ctx: Ctx) -> impl IntoView {
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

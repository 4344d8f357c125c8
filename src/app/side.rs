//! The side panel: the selected vertex, the builder's steps, the examples gallery and export.

use super::*;

#[component]
pub fn SidePanel(ctx: Ctx) -> impl IntoView {
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
pub fn Details(ctx: Ctx) -> impl IntoView {
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
pub fn Steps(ctx: Ctx) -> impl IntoView {
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
pub fn Gallery(ctx: Ctx) -> impl IntoView {
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
pub fn Export(ctx: Ctx) -> impl IntoView {
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

//! The side panel: the selected vertex, the builder's steps, the examples gallery, the lessons
//! (`learn.rs`) and export.

use super::files;
use super::learn::Learn;
use super::prelude::*;
use super::walk::{DurationEditor, VertexSteps};
use crate::page::engine::{Answer, Question};

#[component]
pub fn SidePanel(ctx: Ctx) -> impl IntoView {
    let tab_button = move |t: Tab, label: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                class="tab"
                class:active=move || ctx.shell.tab.get() == t
                aria-selected=move || (ctx.shell.tab.get() == t).to_string()
                on:click=move |_| ctx.shell.tab.set(t)
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
                // Last, so the other tabs keep their places.
                {tab_button(Tab::Learn, "Learn")}
                // Shown only when the details are a sheet over the graph (phones).
                <span class="spacer sheet-only"></span>
                <button
                    type="button"
                    class="sheet-close sheet-only"
                    aria-label="Close the details"
                    title="Close the details"
                    on:click=move |_| ctx.sel.selected.set(None)
                >
                    "×"
                </button>
            </div>
            <div class="side-body">
                {move || match ctx.shell.tab.get() {
                    Tab::Details => view! { <Details ctx=ctx /> }.into_any(),
                    Tab::Steps => view! { <Steps /> }.into_any(),
                    Tab::Examples => view! { <Gallery ctx=ctx /> }.into_any(),
                    Tab::Learn => view! { <Learn ctx=ctx /> }.into_any(),
                    Tab::Export => view! { <Export ctx=ctx /> }.into_any(),
                }}
            </div>
        </aside>
    }
}

#[component]
pub fn Details(ctx: Ctx) -> impl IntoView {
    // One dependency or dependent: the vertex, why the edge exists, its references (each opens
    // the file at the reference), and whether transitive reduction removed it.
    let link = move |l: crate::page::details::Link| {
        let n = l.name.clone();
        let refs = l
            .refs
            .into_iter()
            .map(|r| {
                let place = (r.file.clone(), r.line, r.column, r.text.chars().count());
                view! {
                    <button
                        type="button"
                        class="link ref-link"
                        title="Open the file at this reference"
                        on:click=move |_| ctx.sel.goto.set(Some(place.clone()))
                    >
                        {format!("{}:{}", r.file, r.line)}
                        " "
                        <code>{r.text}</code>
                    </button>
                }
            })
            .collect_view();
        view! {
            <li class:reduced=l.reduced>
                <button type="button" class="vertex-link" on:click=move |_| ctx.sel.selected.set(Some(n.clone()))>
                    {l.name}
                </button>
                <span class="why muted small">
                    {(!l.reason.is_empty()).then(|| l.reason.clone())}
                    {l.reduced.then_some(" · implied by a longer path: removed by transitive reduction")}
                </span>
                <span class="refs">{refs}</span>
            </li>
        }
    };
    move || {
        let Some(name) = ctx.sel.selected.get() else {
            return view! {
                <div class="details empty">
                    <p class="muted">"Click a vertex to see where it is declared, what it depends on and why, and what depends on it."</p>
                    <p class="muted">"In Walk mode, Shift+click a vertex (or use the button in its details) to make it fail in the next walk."</p>
                </div>
            }
            .into_any();
        };
        let found = ctx.build.shown.with(|s| {
            let i = s.graph.index_of(&name)?;
            Some((i, s.graph.vertex(i)?.clone()))
        });
        let Some((index, vertex)) = found else {
            // The graph changed (another graph type, an edit, a step) and no longer has it.
            return view! {
                <div class="details empty gone">
                    <p class="muted">{format!("{name} is not in this graph.")}</p>
                    <p class="muted">"Click a vertex to see its details."</p>
                </div>
            }
            .into_any();
        };
        let (index, kind) = (Some(index), vertex.kind);
        let (deps, users) = ctx.build.shown.with(|s| {
            ctx.build
                .analysis
                .with(|a| crate::page::details::links(a, s, &name))
        });
        let (up, down) = ctx.sel.related.with(|r| (r.up_count(), r.down_count()));
        let decl = ctx
            .build
            .good
            .with(|g| g.as_ref().and_then(|a| a.decls.get(&name).cloned()));
        let code = decl.as_ref().map(|d| {
            let lines = ctx.work.files.with(|f| explain::snippet(f, d, 16));
            let file = d.file.clone();
            view! {
                <div class="decl">
                    <p class="decl-where">{format!("{} line {}", d.file, d.line)}</p>
                    <pre class="snippet" tabindex="0" aria-label="The declaration">
                        {
                            // Highlighted as in the editor (lexed together, so a string or
                            // comment spanning lines keeps its colour); each reference is a
                            // button that selects the vertex it refers to.
                            let segments = ctx.build.good.with(|g| {
                                g.as_ref()
                                    .map(|a| crate::page::inside::snippet_segments(a, &name, &d.file, &lines))
                                    .unwrap_or_default()
                            });
                            let spans = |pieces: Vec<(Option<highlight::Class>, String)>| {
                                pieces
                                    .into_iter()
                                    .map(|(class, t)| match class {
                                        Some(c) => view! { <span class=c.css()>{t}</span> }.into_any(),
                                        None => t.into_any(),
                                    })
                                    .collect_view()
                            };
                            lines
                                .iter()
                                .zip(segments)
                                .map(|((n, _), line)| {
                                    let pieces = line
                                        .into_iter()
                                        .map(|seg| match seg.vertex {
                                            Some(v) => {
                                                // A focusable span, not a <button>: a reference is
                                                // a word in the code, not a finger-sized control.
                                                let title = format!("Select {v}");
                                                let key_v = v.clone();
                                                view! {
                                                    <span
                                                        class="snippet-ref"
                                                        role="button"
                                                        tabindex="0"
                                                        title=title
                                                        on:click=move |_| ctx.sel.selected.set(Some(v.clone()))
                                                        on:keydown=move |ev| {
                                                            if ev.key() == "Enter" || ev.key() == " " {
                                                                // Not also a shortcut (space plays the walk).
                                                                ev.prevent_default();
                                                                ev.stop_propagation();
                                                                ctx.sel.selected.set(Some(key_v.clone()));
                                                            }
                                                        }
                                                    >
                                                        {spans(seg.pieces)}
                                                    </span>
                                                }
                                                .into_any()
                                            }
                                            None => spans(seg.pieces).into_any(),
                                        })
                                        .collect_view();
                                    view! { <span class="snippet-line"><span class="ln">{format!("{n:>3} ")}</span>{pieces}"\n"</span> }
                                })
                                .collect_view()
                        }
                    </pre>
                    <button type="button" class="link" on:click=move |_| ctx.work.active.set(file.clone())>
                        "Open the file"
                    </button>
                </div>
            }
        });
        // Its own reactive scope, so walk frames update this line only.
        let state = move || {
            index
                .and_then(|i| ctx.walk.cell(i))
                .filter(|c| c.state != VState::Idle)
                .map(|c| view! { <p class=format!("detail-state state-{}", c.state.css())>{c.state.label()}</p> })
        };
        let n_fail = name.clone();
        view! {
            <div class="details">
                <p class=format!("detail-kind kind-{}", kind.css())>{kind.label()}</p>
                <h2 class="detail-name">{name.clone()}</h2>
                {state}
                <DurationEditor name=name.clone() typed=vertex.typed.clone() />
                {index.map(|i| view! { <VertexSteps name=name.clone() i=i typed=vertex.typed.clone() /> })}
                {code}
                {decl.is_none().then(|| view! { <p class="muted no-decl">{crate::page::details::without_declaration(&vertex.typed)}</p> })}
                <p class="about-kind small">{crate::page::details::about(&vertex.typed)}</p>
                <Expansion ctx=ctx name=name.clone() index=index.unwrap_or(usize::MAX) />
                <VertexInside name=name.clone() />
                <h3>{format!("Depends on ({})", deps.len())}</h3>
                <ul class="vertex-links deps">{deps.into_iter().map(link).collect_view()}</ul>
                <h3>{format!("Depended on by ({})", users.len())}</h3>
                <ul class="vertex-links users">{users.into_iter().map(link).collect_view()}</ul>
                <p class="muted small">{crate::page::details::related_text(up, down)}</p>
                <button
                    type="button"
                    class="secondary"
                    on:click=move |_| {
                        let n = n_fail.clone();
                        ctx.walk.failures.update(|f| {
                            if !f.remove(&n) {
                                f.insert(n);
                            }
                        });
                    }
                >
                    {
                        let n = name.clone();
                        move || if ctx.walk.failures.with(|f| f.contains(&n)) { "Do not fail in walks" } else { "Make it fail in walks" }
                    }
                </button>
            </div>
        }
        .into_any()
    }
}

/// An `(expand)` vertex's sub-graph (`crate::page::expanded`): how many instances it opens
/// into, with the button that opens or closes it, or why they are not known statically; for a
/// vertex drawn for an opened one, the button that closes that one.
#[component]
fn Expansion(ctx: Ctx, name: String, index: usize) -> impl IntoView {
    let drawn_for = ctx.build.shown.with_untracked(|s| {
        let x = crate::page::view::opened_by(s, index)?;
        Some((x == index, s.graph.vertex(x)?.name.clone()))
    });
    if let Some((false, x)) = drawn_for {
        return view! {
            <section class="expansion">
                <p class="small">{format!("Drawn for the opened {x}: one vertex of the sub-graph its expansion builds.")}</p>
                <button type="button" class="secondary expansion-toggle" on:click=move |_| { ctx.toggle_expansion(&x); }>
                    "Close the sub-graph"
                </button>
            </section>
        }
        .into_any();
    }
    let open = drawn_for.is_some();
    // For an analysis the engine's worker made, what it opens into is asked of it.
    let off = ctx.build.off;
    (move || {
        off.track_answers();
        let found = ctx.build.good.with_untracked(|g| {
            let a = g.as_ref()?;
            Some(crate::page::expanded::lookup(a, &name).map_err(|q| off.ask_about(a, q)))
        });
        match found {
            Some(Ok(Some(opening))) => opening_view(ctx, name.clone(), opening, open),
            Some(Err(())) => view! {
                <section class="expansion">
                    <h3>"Expansion"</h3>
                    <p class="expansion-summary muted" role="status">"Working out its instances…"</p>
                </section>
            }
            .into_any(),
            _ => ().into_any(),
        }
    })
    .into_any()
}

/// What [`Expansion`] shows of `opening`, `open` when its sub-graph is drawn.
fn opening_view(
    ctx: Ctx,
    name: String,
    opening: crate::page::expanded::Opening,
    open: bool,
) -> AnyView {
    let summary = opening.summary();
    let (go, note, can_open) = match &opening {
        crate::page::expanded::Opening::Sub(s) => (
            Some(s.go.clone()),
            Some(s.note.clone()),
            !s.members.is_empty(),
        ),
        _ => (None, None, false),
    };
    let known = matches!(opening, crate::page::expanded::Opening::Sub(_));
    let walking = ctx.shell.mode.get_untracked() != Mode::Inspect;
    view! {
        <section class="expansion">
            <h3>"Expansion"</h3>
            <p class="expansion-summary" class:expansion-unknown=!known>{summary}</p>
            {go.map(|g| view! { <p class="muted small">{format!("Built by {g}. ")}{note}</p> })}
            {(can_open || open).then(|| view! {
                <button
                    type="button"
                    class="secondary expansion-toggle"
                    aria-pressed=open.to_string()
                    on:click=move |_| { ctx.toggle_expansion(&name); }
                >
                    {if open { "Close its instances" } else { "Open its instances" }}
                </button>
                {walking.then_some(view! { <span class="muted small">" (drawn in Inspect mode)"</span> })}
            })}
        </section>
    }
    .into_any()
}

/// Inside the selected vertex: its values (each value it reads a button to the vertex that
/// provides it). Its evaluation steps are in the one list of its steps ([`VertexSteps`]).
///
/// For an analysis the engine's worker made, the values are asked of it ("Working out the
/// values it sees" until the answer arrives).
#[component]
fn VertexInside(name: String) -> impl IntoView {
    let (build, selected) = (
        expect_context::<Build>(),
        expect_context::<Selection>().selected,
    );
    move || {
        build.off.track_answers();
        let found = build.good.with_untracked(|g| {
            let a = g.as_ref()?;
            Some(crate::page::inside::lookup(a, &name).map_err(|q| build.off.ask_about(a, q)))
        });
        match found {
            Some(Ok(Some(inside))) => values_view(inside, selected),
            Some(Err(())) => view! {
                <section class="vertex-inside">
                    <h3>"Values"</h3>
                    <p class="muted small" role="status">"Working out the values it sees…"</p>
                </section>
            }
            .into_any(),
            _ => ().into_any(),
        }
    }
}

/// The values of [`VertexInside`].
fn values_view(inside: crate::page::inside::Inside, selected: RwSignal<Option<String>>) -> AnyView {
    let row = move |r: crate::page::inside::ValueRow| {
        let link = r.vertex.clone().map(|v| {
            let title = format!("Select {v}");
            view! {
                <button type="button" class="vertex-link value-from" title=title on:click=move |_| selected.set(Some(v.clone()))>
                    {r.name.clone()}
                </button>
            }
        });
        let plain = r
            .vertex
            .is_none()
            .then(|| view! { <span class="value-name">{r.name.clone()}</span> });
        view! {
            <li class="value" class:read=r.read class:unknown=!r.known>
                {r.read.then_some(view! { <span class="muted small">"reads "</span> })}
                {link}
                {plain}
                " = "
                <code class="value-text">{r.text}</code>
                {r.note.map(|n| view! { <span class="value-note muted small">{n}</span> })}
            </li>
        }
    };
    let empty = inside.values.is_empty() && inside.notes.is_empty();
    view! {
        <section class="vertex-inside">
            <h3>"Values"</h3>
            {empty.then_some(view! { <p class="muted small">"No values of its own."</p> })}
            {inside
                .values
                .into_iter()
                .map(|g| {
                    view! {
                        <div class="value-group">
                            <p class="value-title">{g.title}</p>
                            <ul class="values">{g.rows.into_iter().map(row).collect_view()}</ul>
                        </div>
                    }
                })
                .collect_view()}
            {inside.notes.into_iter().map(|n| view! { <p class="value-notes muted small">{n}</p> }).collect_view()}
        </section>
    }
    .into_any()
}

#[component]
pub fn Steps() -> impl IntoView {
    let build = expect_context::<Build>();
    // The chosen step stays in view in the list (keys [ ] and the phase buttons move it).
    Effect::new(move |_| {
        let Some(k) = build.step.get() else {
            return;
        };
        request_animation_frame(move || {
            let item = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                d.query_selector(&format!(".steps .step[data-step=\"{k}\"]"))
                    .ok()
                    .flatten()
            });
            if let Some(item) = item {
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
                item.scroll_into_view_with_scroll_into_view_options(&opts);
            }
        });
    });
    move || {
        if let Some(f) = build
            .good
            .with(|g| g.as_ref().and_then(|a| a.imported.clone()))
        {
            return view! {
                <p class="muted imported-note">
                    {format!("This graph was imported from {f}: it is drawn and walked as it is. No builder ran, so there are no build steps.")}
                </p>
            }
            .into_any();
        }
        let (steps, valid) = build.good.with(|g| {
            g.as_ref()
                .map(|a| {
                    let valid = if a.cycles.is_empty() {
                        "Passed: one root, no cycles.".to_string()
                    } else {
                        let c: Vec<String> = a.cycles.iter().map(|c| c.join(", ")).collect();
                        format!("Failed: Cycle: {}", c.join("; Cycle: "))
                    };
                    (Vec::clone(&a.steps), valid)
                })
                .unwrap_or_default()
        });
        let n = steps.len();
        let tr = steps.iter().rposition(|s| {
            s.name == "TransitiveReductionTransformer" && !s.removed_edges.is_empty()
        });
        // Where each phase of the description first happens, and how many steps it has.
        let mut first: BTreeMap<explain::Phase, (usize, usize)> = BTreeMap::new();
        for (k, s) in steps.iter().enumerate() {
            first.entry(explain::phase_of(&s.name)).or_insert((k, 0)).1 += 1;
        }
        let phases = explain::Phase::ALL
            .into_iter()
            .enumerate()
            .map(|(no, p)| {
                let at = first.get(&p).copied();
                let count = match (p, at) {
                    (explain::Phase::Validation, _) => "after the last step".to_string(),
                    (_, Some((_, c))) => format!("{c} step{}", if c == 1 { "" } else { "s" }),
                    (_, None) => "no step here".to_string(),
                };
                view! {
                    <li class=format!("phase phase-{}", p.css()) class:empty=at.is_none() && p != explain::Phase::Validation>
                        <button
                            type="button"
                            disabled=at.is_none()
                            title=p.about()
                            on:click=move |_| {
                                if let Some((k, _)) = at {
                                    build.step.set(Some(k));
                                }
                            }
                        >
                            <span class="phase-no">{no + 1}</span>
                            <span class=format!("phase-tag phase-{}", p.css())>{p.tag()}</span>
                            <span class="phase-count">{count}</span>
                        </button>
                    </li>
                }
            })
            .collect_view();
        let mut prev: Option<explain::Phase> = None;
        let rows = steps
            .into_iter()
            .enumerate()
            .map(|(k, s)| {
                let phase = explain::phase_of(&s.name);
                // Inside the step's item, so the list keeps one item per step.
                let heading = (prev != Some(phase)).then(|| {
                    view! {
                        <div class=format!("step-phase phase-{}", phase.css())>
                            <span class=format!("phase-tag phase-{}", phase.css())>{phase.tag()}</span>
                            <span class="phase-about">{phase.about()}</span>
                        </div>
                    }
                });
                prev = Some(phase);
                let changed = !(s.added_vertices.is_empty() && s.removed_vertices.is_empty() && s.added_edges.is_empty() && s.removed_edges.is_empty());
                let delta = explain::delta_text(&s);
                view! {
                    <li class="step" data-phase=phase.tag() class:active=move || build.step.get() == Some(k) class:unchanged=!changed data-step=k>
                        {heading}
                        <button type="button" on:click=move |_| build.step.set(Some(k)) title=explain::explain(&s.name)>
                            <span class="step-no">{k + 1}</span>
                            <span class="step-name">{s.name.clone()}</span>
                            <span class="step-delta">{delta}</span>
                        </button>
                        <Show when=move || build.step.get() == Some(k)>
                            <p class="step-explain">
                                <span class=format!("phase-tag phase-{}", phase.css())>{phase.tag()}</span>
                                " "
                                {explain::explain(&s.name)}
                            </p>
                        </Show>
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="steps">
                <p class="muted small">
                    "OpenTofu builds the graph by running these transforms in order. Choose one to see the graph as it was right after it: what it added is outlined, what it removed is faded."
                </p>
                <details class="phases" open>
                    <summary>"Terraform's \"Resource Graph\" steps"</summary>
                    <ol class="phase-list">{phases}</ol>
                    <p class="muted small">"The description's order is for explaining; OpenTofu runs its transforms in its own order, so a phase can come back later in the list."</p>
                </details>
                <div class="step-nav">
                    <button type="button" on:click=move |_| build.step.update(|s| *s = Some(s.map_or(0, |k| k.saturating_sub(1))))>"◀ Previous"</button>
                    <button type="button" on:click=move |_| build.step.update(|s| *s = Some(s.map_or(0, |k| (k + 1).min(n.saturating_sub(1)))))>"Next ▶"</button>
                    <button type="button" class:active=move || build.step.get().is_none() on:click=move |_| build.step.set(None)>"Final graph"</button>
                    {tr.map(|k| view! {
                        <button
                            type="button"
                            class:active=move || build.step.get() == Some(k)
                            title="The reduction step: the edges it removed, dashed"
                            on:click=move |_| build.step.set(Some(k))
                        >
                            "Reduced edges"
                        </button>
                    })}
                </div>
                <ol class="step-list">
                    {rows}
                    <li class="validation-result">
                        <div class="step-phase phase-validation">
                            <span class="phase-tag phase-validation">"validation"</span>
                            <span class="phase-about">{explain::Phase::Validation.about()}</span>
                        </div>
                        <p class="step-explain">{valid}</p>
                    </li>
                </ol>
            </div>
        }
        .into_any()
    }
}

#[component]
pub fn Gallery(ctx: Ctx) -> impl IntoView {
    view! {
        <ul class="gallery">
            {EXAMPLES
                .iter()
                .map(|e| {
                    let chosen = move || ctx.work.files.with(|f| crate::page::examples::shown_example(f) == Some(e.id));
                    view! {
                        <li class="example" class:chosen=chosen data-example=e.id>
                            <button
                                type="button"
                                aria-current=move || chosen().then_some("true")
                                on:click=move |_| ctx.load_example(e)
                            >
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
    let share_url = RwSignal::new(String::new());
    let links = move || {
        // An analysis the engine's worker made has its exports asked of it.
        let off = ctx.build.off;
        off.track_answers();
        let texts = ctx.build.good.with(|g| {
            let a = g.as_ref()?;
            let texts = match &a.remote {
                None => Some((a.exports.dot(), a.exports.mermaid(), a.exports.json())),
                Some(r) => match r.answer(&Question::Exports) {
                    Some(Answer::Exports { dot, mermaid, json }) => Some((dot, mermaid, json)),
                    _ => {
                        off.ask_about(a, Question::Exports);
                        None
                    }
                },
            };
            Some(
                texts
                    .ok_or(())
                    .map(|(d, m, j)| (d, m, j, a.imported.clone())),
            )
        });
        let (dot, mermaid, json, imported) = match texts {
            Some(Ok(t)) => t,
            Some(Err(())) => {
                return view! {
                    <p class="muted small" role="status">"Preparing the exports…"</p>
                }
                .into_any();
            }
            None => (String::new(), String::new(), String::new(), None),
        };
        let svg = ctx.build.scene.with(|s| s.svg());
        let link = |label: &'static str, file: &'static str, mime: &'static str, text: &str| {
            view! {
                <a class="export-link" download=file href=explain::data_url(mime, text)>
                    {label}
                </a>
            }
        };
        view! {
            <p class="muted small">
                {match imported {
                    Some(f) => format!("The graph imported from {f}; DOT is that file as it was opened."),
                    None => "The built graph (the final one, not a builder step). DOT is exactly what tofu graph prints.".to_string(),
                }}
            </p>
            <div class="export-links">
                {link("DOT", "graph.dot", "text/vnd.graphviz", &dot)}
                {link("Mermaid", "graph.mmd", "text/plain", &mermaid)}
                {link("JSON", "graph.json", "application/json", &json)}
                {link("SVG", "graph.svg", "image/svg+xml", &svg)}
                <button
                    type="button"
                    class="export-link export-png"
                    on:click=move |_| {
                        let (svg, w, h) = ctx.build.scene.with_untracked(|s| (s.svg(), s.width, s.height));
                        files::export_png(ctx, svg, w, h);
                    }
                >
                    "PNG"
                </button>
            </div>
            <pre class="export-dot" tabindex="0" aria-label="The graph in DOT">{dot}</pre>
        }
        .into_any()
    };
    view! {
        <div class="export">
            <div class="share">
                <button type="button" id="share-link" class="primary" on:click=move |_| files::share(ctx, share_url)>
                    "Share link"
                </button>
                <span class="muted small">"Every file goes into the link itself (compressed); nothing is uploaded."</span>
                <Show when=move || !share_url.get().is_empty()>
                    <input
                        type="text"
                        class="share-url"
                        readonly
                        aria-label="Share link"
                        prop:value=move || share_url.get()
                        on:focus=move |ev| {
                            use wasm_bindgen::JsCast;
                            if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                i.select();
                            }
                        }
                    />
                </Show>
            </div>
            {links}
        </div>
    }
}

//! Learn mode: the lessons tab (the list with done marks, the open lesson's words, its question
//! and answer, Back/Next, its link), loading a lesson's configuration and setting up its stage,
//! the `#lesson=<id>` link, and the progress saved under its own key.
//!
//! Invariant: binding only. The lessons, their right answers and the checks are
//! `crate::page::lessons`.

use super::files;
use super::prelude::*;
use super::storage;
use crate::page::lessons::{self, LESSONS, Lesson, StageMode};

/// Binds Learn mode for the app's lifetime: the stage set up once the lesson's graph is built,
/// a click on a vertex as an answer while the Learn tab is open, the progress saved.
pub(super) fn bind(ctx: Ctx) {
    let learn = ctx.learn;
    // Saved when it changes (not at start: a visit that never opens Learn writes nothing).
    Effect::new(move |prev: Option<()>| {
        learn.progress.with(|p| {
            if prev.is_some() {
                storage::save_lessons(p);
            }
        });
    });
    // The build step and the walk need the lesson's analysis: set them up when it is there.
    Effect::new(move |_| {
        let Some(i) = learn.open.get() else { return };
        // The analysis must be of the files as they are now: right after the files are
        // replaced the app counts as settled until the new analysis starts.
        ctx.build.good.track();
        if !ctx.settled()
            || learn.staged.get_value() == Some(i)
            || ctx.build.analysis_workspace.get_value() != ctx.work.workspace.get_value()
        {
            return;
        }
        let l = &LESSONS[i];
        if !ctx.work.files.with(|f| l.is_loaded(f)) {
            return;
        }
        let step = ctx
            .build
            .good
            .with(|g| g.as_ref().and_then(|a| l.build_step_index(&a.steps)));
        learn.staged.set_value(Some(i));
        // On a new task: the app's own effect that forgets the step and the walk of a graph
        // that changed runs on this same change, in an order not to be relied on.
        set_timeout(
            move || {
                if learn.open.try_get_untracked().flatten() != Some(i) {
                    return;
                }
                if let Some(k) = step {
                    ctx.build.step.set(Some(k));
                }
                if l.stage.walk {
                    ctx.play();
                }
            },
            Duration::ZERO,
        );
    });
    // A vertex chosen on the graph answers a question that asks for a vertex.
    Effect::new(move |prev: Option<()>| {
        let sel = ctx.sel.selected.get();
        if prev.is_none() || untrack(|| ctx.shell.tab.get()) != Tab::Learn {
            return;
        }
        if let Some(name) = sel
            && untrack(|| solved(ctx)).is_some_and(|s| s.is_ok_and(|s| s.vertex))
        {
            answer(ctx, &name);
        }
    });
}

/// Opens the lesson of a `#lesson=<id>` address and removes the fragment (as a share link's),
/// so a reload keeps the learner's own state.
pub(super) fn open_fragment(ctx: Ctx) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hash = window.location().hash().unwrap_or_default();
    if !hash.starts_with("#lesson=") {
        return;
    }
    match lessons::from_fragment(&hash).and_then(|l| lessons::index_of(l.id)) {
        Some(i) => open_lesson(ctx, i),
        None => files::notify(ctx, true, "The link names no lesson tfgraph knows.", false),
    }
    let url = format!(
        "{}{}",
        window.location().pathname().unwrap_or_default(),
        window.location().search().unwrap_or_default()
    );
    if let Ok(h) = window.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Opens lesson `i`: loads its configuration (the user's files kept aside, as loading an
/// example does) unless it is loaded already, and sets up its stage.
pub(super) fn open_lesson(ctx: Ctx, i: usize) {
    let Some(l) = LESSONS.get(i) else { return };
    let learn = ctx.learn;
    learn.open.set(Some(i));
    learn.verdict.set(None);
    learn.staged.set_value(None);
    learn
        .progress
        .update(|p| p.current = Some(l.id.to_string()));
    ctx.shell.tab.set(Tab::Learn);
    if let Some(e) = l.source.example()
        && ctx.build.kind.get_untracked() != e.kind
    {
        ctx.build.kind.set(e.kind);
    }
    if !ctx.work.files.with_untracked(|f| l.is_loaded(f))
        && let Some(e) = l.source.example()
    {
        ctx.load_example(e);
    } else {
        ctx.walk.reset();
        ctx.build.step.set(None);
    }
    // Answers come from walks with the default durations.
    ctx.walk.ui.durations.set(BTreeMap::new());
    ctx.sel.selected.set(None);
    ctx.shell.mode.set(match l.stage.mode {
        StageMode::Inspect => Mode::Inspect,
        StageMode::Walk => Mode::Walk,
    });
    if let Some(p) = l.stage.parallelism {
        ctx.walk.parallelism.set(p);
    }
    learn
        .highlight
        .set(l.stage.highlight.iter().map(|s| s.to_string()).collect());
}

/// Closes the open lesson (back to the list); its marks go.
fn close_lesson(ctx: Ctx) {
    ctx.learn.open.set(None);
    ctx.learn.verdict.set(None);
    ctx.learn.highlight.set(BTreeSet::new());
    ctx.learn.progress.update(|p| p.current = None);
}

/// The open lesson's question answered by the engine on the shown analysis: `None` while there
/// is no lesson or its graph is being built, `Err` when the files are not the lesson's.
fn solved(ctx: Ctx) -> Option<Result<lessons::Solved, String>> {
    let l = &LESSONS[ctx.learn.open.get()?];
    let kind = l.source.example().map(|e| e.kind);
    if !ctx.work.files.with(|f| l.is_loaded(f)) || kind != Some(ctx.build.kind.get()) {
        return Some(Err(
            "The files are not this lesson's any more: load the lesson again to answer."
                .to_string(),
        ));
    }
    if !ctx.settled() {
        return None;
    }
    ctx.build
        .good
        .with(|g| g.as_ref().map(|a| lessons::solve(l, a)))
}

/// Checks `text` as the answer to the open lesson's question.
fn answer(ctx: Ctx, text: &str) {
    let Some(i) = ctx.learn.open.get_untracked() else {
        return;
    };
    let l: &Lesson = &LESSONS[i];
    let Some(Ok(s)) = untrack(|| solved(ctx)) else {
        return;
    };
    let v = lessons::check(l, &s, text);
    if v.right {
        ctx.learn.progress.update(|p| p.mark_done(l.id));
    }
    ctx.learn.verdict.set(Some(v));
}

/// The Learn tab.
#[component]
pub(super) fn Learn(ctx: Ctx) -> impl IntoView {
    let learn = ctx.learn;
    let count = move || {
        learn.progress.with(|p| {
            let (d, n) = p.count();
            format!("{d} of {n} lessons done")
        })
    };
    let list = move || {
        view! {
            <ol class="lesson-list">
                {LESSONS
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        let done = move || learn.progress.with(|p| p.done.contains(l.id));
                        view! {
                            <li class="lesson-item" class:done=done data-lesson=l.id>
                                <button
                                    type="button"
                                    aria-current=move || (learn.open.get() == Some(i)).then_some("true")
                                    on:click=move |_| open_lesson(ctx, i)
                                >
                                    <span class="lesson-title">{l.title}</span>
                                    <span class="lesson-done">
                                        <span aria-hidden="true">{move || if done() { "✓" } else { "" }}</span>
                                        <span class="sr-only">{move || if done() { " (done)" } else { "" }}</span>
                                    </span>
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        }
    };
    view! {
        <section class="learn" aria-label="Lessons">
            <p class="learn-count small muted">{count}</p>
            {move || match learn.open.get() {
                None => list().into_any(),
                Some(i) => view! {
                    <LessonView ctx=ctx i=i />
                    <details class="lesson-index">
                        <summary>"All lessons"</summary>
                        {list()}
                    </details>
                }
                .into_any(),
            }}
        </section>
    }
}

/// The open lesson: its words, question, answer, verdict, Back/Next and link.
#[component]
fn LessonView(ctx: Ctx, i: usize) -> impl IntoView {
    let l: &'static Lesson = &LESSONS[i];
    let learn = ctx.learn;
    let solved = Memo::new(move |_| solved(ctx));
    let choice = RwSignal::new(String::new());
    let link = RwSignal::new(String::new());
    let n = LESSONS.len();
    view! {
        <article class="lesson" data-lesson=l.id>
            <h2 class="lesson-heading">{format!("{}. {}", i + 1, l.title)}</h2>
            {l.text.iter().map(|t| view! { <p class="lesson-text">{*t}</p> }).collect_view()}
            <p class="lesson-question"><strong>{l.question}</strong></p>
            {move || match solved.get() {
                None => view! { <p class="muted small">"Building the lesson's graph…"</p> }.into_any(),
                Some(Err(e)) => view! {
                    <p class="lesson-unavailable small">{e}</p>
                    <button type="button" class="lesson-reload" on:click=move |_| {
                        if let Some(e) = l.source.example() {
                            ctx.load_example(e);
                        }
                        open_lesson(ctx, i);
                    }>"Load the lesson again"</button>
                }
                .into_any(),
                Some(Ok(s)) => {
                    let first = s.choices.first().cloned().unwrap_or_default();
                    let offered = s.choices.clone();
                    // The select shows the first choice until one is chosen.
                    let chosen = move || {
                        let c = choice.get();
                        if offered.contains(&c) { c } else { first.clone() }
                    };
                    let chosen2 = chosen.clone();
                    view! {
                        {s.vertex.then(|| view! {
                            <p class="small muted">"Click the vertex in the graph, or choose it here."</p>
                        })}
                        <div class="lesson-answer-row">
                            <label class="lesson-answer-label">
                                <span class="sr-only">"Your answer"</span>
                                <select
                                    class="lesson-answer"
                                    prop:value=chosen
                                    on:change=move |ev| choice.set(event_target_value(&ev))
                                >
                                    {s.choices.iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                                </select>
                            </label>
                            <button type="button" class="lesson-check" on:click=move |_| answer(ctx, &untrack(&chosen2))>
                                "Check"
                            </button>
                        </div>
                    }
                    .into_any()
                }
            }}
            <p
                class="lesson-verdict"
                class:right=move || learn.verdict.with(|v| v.as_ref().is_some_and(|v| v.right))
                class:wrong=move || learn.verdict.with(|v| v.as_ref().is_some_and(|v| !v.right))
                role="status"
                aria-live="polite"
            >
                {move || learn.verdict.with(|v| v.as_ref().map(|v| v.text.clone()).unwrap_or_default())}
            </p>
            <nav class="lesson-nav" aria-label="Lesson navigation">
                <button type="button" class="lesson-back" disabled={i == 0} on:click=move |_| open_lesson(ctx, i - 1)>
                    "Back"
                </button>
                <button type="button" class="lesson-close link" on:click=move |_| close_lesson(ctx)>
                    "All lessons"
                </button>
                <button type="button" class="lesson-next" disabled={i + 1 >= n} on:click=move |_| open_lesson(ctx, i + 1)>
                    "Next"
                </button>
            </nav>
            <p class="lesson-share small">
                <button type="button" class="link" on:click=move |_| link.set(files::link_for(&lessons::fragment(l.id)))>
                    "Link to this lesson"
                </button>
                <Show when=move || !link.with(String::is_empty)>
                    <input class="lesson-link" type="text" readonly aria-label="Link to this lesson" prop:value=move || link.get() />
                </Show>
            </p>
        </article>
    }
}

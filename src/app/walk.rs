//! The walk bar (play/pause/step, speed, -parallelism, counters, the makespan chart), the Gantt
//! timeline, per-vertex durations, and the per-vertex walk cells the graph draws.

use super::gantt;
use super::prelude::*;
use super::state::{ChartCache, ChartKey};
use crate::page::chart;
use crate::page::walk_steps;
use walkrt::{Frame, Setup, VCell};

impl Walk {
    /// The walks' setup: user durations, injected failures, the graph's expander.
    pub(super) fn setup(self, failures: bool) -> Setup {
        Setup {
            durations: self.ui.durations.get(),
            failures: if failures {
                self.failures.get()
            } else {
                BTreeSet::new()
            },
            expander: self.good.with(|g| {
                g.as_ref()
                    .and_then(|a| a.expander.as_ref())
                    .map(|e| e.expander.clone())
            }),
            steps: self
                .good
                .with(|g| g.as_ref().and_then(|a| a.step_table.clone())),
            ..Setup::default()
        }
    }

    /// Shows what changed in a walk frame.
    pub(super) fn apply_frame(self, f: Frame) {
        let ui = self.ui;
        ui.cells.with_value(|cells| {
            for (i, c) in f.cells {
                if let Some(s) = cells.get(i) {
                    s.set(c);
                }
            }
        });
        if let Some(rows) = f.rows {
            let views = ui.row_cells.try_update_value(|map| {
                let keep: BTreeSet<u32> = rows.iter().map(|r| r.task).collect();
                map.retain(|t, _| keep.contains(t));
                rows.into_iter()
                    .map(|row| {
                        let cell = map.entry(row.task).or_default().clone();
                        GRowView { row, cell }
                    })
                    .collect::<Vec<_>>()
            });
            if let Some(v) = views {
                ui.rows.set(v);
            }
        }
        ui.row_cells.with_value(|map| {
            for (t, c) in f.row_cells {
                if let Some(s) = map.get(&t) {
                    s.set(c);
                }
            }
        });
        if f.view.expected > 0.0 && ui.axis.get_untracked() != f.view.expected {
            ui.axis.set(f.view.expected);
        }
        self.view.set(f.view);
    }

    /// Vertex `i`'s walk cell (tracked).
    pub(super) fn cell(self, i: usize) -> Option<VCell> {
        self.ui
            .cells
            .with_value(|c| c.get(i).cloned())
            .map(|c| c.get())
    }

    pub(super) fn clear(self) {
        self.ui.clear();
        self.view.set(WalkView::default());
    }
}

async fn wait_ms(ms: u64) {
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    set_timeout(
        move || {
            let _ = tx.send(());
        },
        Duration::from_millis(ms),
    );
    let _ = rx.await;
}

impl Walk {
    /// The chart's key (tracked): the walk's epoch and the durations set.
    fn chart_key(self) -> ChartKey {
        (self.epoch.get().number, self.ui.durations.get())
    }

    /// A walk without failures just measured the makespan at `p`: the chart need not.
    pub(super) fn seed_chart(self, p: usize, makespan: f64) {
        let key = untrack(|| self.chart_key());
        self.ui.chart.update_value(|(k, m)| {
            if k.as_ref() != Some(&key) {
                *k = Some(key);
                m.clear();
            }
            m.insert(p, makespan);
        });
    }
}

/// The key under which the chart's cache keeps the critical path (no setting is this large).
const CRITICAL: usize = usize::MAX;

/// The chart's known makespans by setting, and the critical path.
type ChartPoints = (Vec<(usize, f64)>, Option<f64>);

/// Shows the makespans known so far (settings 1–64) and the critical path.
fn publish(cache: ChartCache, points: RwSignal<ChartPoints>) {
    let v = cache.with_value(|(_, m)| {
        (
            m.range(1..=chart::MAX_P)
                .map(|(p, x)| (*p, *x))
                .collect::<Vec<_>>(),
            m.get(&CRITICAL).copied(),
        )
    });
    if points.with_untracked(|p| *p != v) {
        points.set(v);
    }
}

/// Makespan against -parallelism 1–64 (instant driver, no failures; `page::chart` makes the
/// drawing), the current setting marked and the critical path as its floor. Computed only in
/// Walk mode: it walks the graph once per setting.
#[component]
pub fn MakespanChart() -> impl IntoView {
    let (walk, mode) = (expect_context::<Walk>(), expect_context::<Shell>().mode);
    let off = expect_context::<Build>().off;
    // One walk per setting on the instant driver: with a large graph that is a few tens of
    // milliseconds each, so they run one per browser task (the current setting first) and are
    // kept while only the setting moves. Of an analysis the engine's worker made (a large
    // input: hundreds of ms each at 10,000 resources), they are walked there, one at a time.
    let points = RwSignal::new(ChartPoints::default());
    let cache = walk.ui.chart;
    let generation = StoredValue::new(0_u64);
    Effect::new(move |_| {
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        if mode.get() != Mode::Walk {
            points.set((Vec::new(), None));
            return;
        }
        let p = walk.parallelism.get() as usize;
        // The analysis is shared, not its graph copied (12,000 vertices at 10,000 resources).
        let a = walk.good.with(|g| {
            g.clone()
                .filter(|a| a.cycles.is_empty() && a.graph.as_ref().is_some_and(|g| !g.is_empty()))
        });
        let Some(a) = a else {
            points.set((Vec::new(), None));
            return;
        };
        let setup = walk.setup(false);
        let remote = walk
            .good
            .with(|g| g.as_ref().and_then(|a| a.remote.as_ref()).map(|r| r.build));
        let key = walk.chart_key();
        cache.update_value(|(k, m)| {
            if k.as_ref() != Some(&key) {
                *k = Some(key);
                m.clear();
            }
        });
        publish(cache, points);
        let mut order = chart::settings_in_order(p);
        order.insert(order.len().min(1), CRITICAL);
        let small = a.graph.as_ref().map_or(0, |g| g.len()) < 200;
        leptos::task::spawn_local(async move {
            let Some(g) = a.graph.as_ref() else {
                return;
            };
            for (i, q) in order.iter().copied().enumerate() {
                if cache.with_value(|(_, m)| m.contains_key(&q)) {
                    continue;
                }
                if i > 0 {
                    yield_to_browser().await;
                    // A walk playing keeps the browser busy every frame: the rest of the chart
                    // waits for a pause. So does the engine's worker: its walks of a large
                    // analysis (hundreds of ms each, 64 settings) took one of a two-core
                    // machine's cores from the browser for the whole walk, and the walk's
                    // frames with it.
                    while !small
                        && walk.playing.get_untracked()
                        && generation.try_get_value() == Some(mine)
                    {
                        wait_ms(250).await;
                    }
                }
                if generation.try_get_value() != Some(mine) {
                    return;
                }
                if let Some(build) = remote {
                    let ask = crate::page::engine::WalkAsk::of(&setup, q);
                    let Some(x) = off.length(build, ask).await else {
                        return;
                    };
                    if generation.try_get_value() != Some(mine) {
                        return;
                    }
                    cache.update_value(|(_, c)| {
                        c.insert(q, x);
                    });
                    publish(cache, points);
                    continue;
                }
                let m = if q == CRITICAL {
                    vec![(CRITICAL, walkrt::critical_path(g, &setup))]
                } else {
                    walkrt::makespans(g, &setup, &[q])
                };
                cache.update_value(|(_, c)| c.extend(m));
                if !small || i < 2 {
                    publish(cache, points);
                }
            }
            publish(cache, points);
        });
    });
    move || {
        let (pts, critical) = points.get();
        let c = chart::chart(&pts, walk.parallelism.get() as usize, critical)?;
        let (l, t, r, b) = c.plot;
        let x_ticks = c
            .x_ticks
            .iter()
            .map(|k| {
                view! {
                    <line class="chart-tick" x1=k.at y1=b x2=k.at y2=b + 2.5></line>
                    <text class="chart-tick-label" x=k.at y=chart::HEIGHT - 1.0 text-anchor="middle">{k.label.clone()}</text>
                }
            })
            .collect_view();
        let y_ticks = c
            .y_ticks
            .iter()
            .map(|k| {
                view! {
                    <text class="chart-tick-label" x=l - 3.0 y=k.at + 3.0 text-anchor="end">{k.label.clone()}</text>
                }
            })
            .collect_view();
        let floor = c.floor.map(|f| {
            view! { <line class="chart-floor" x1=l y1=f x2=r y2=f></line> }
        });
        let dot = c.current.map(|(x, y)| {
            view! { <circle class="chart-dot" cx=x cy=y r="3.5"></circle> }
        });
        Some(view! {
            <div class="chart" data-makespans=c.exact.clone() title=c.description.clone()>
                <svg width=chart::WIDTH height=chart::HEIGHT viewBox=format!("0 0 {} {}", chart::WIDTH, chart::HEIGHT) role="img" aria-label=c.description.clone()>
                    <line class="chart-axis" x1=l y1=b x2=r y2=b></line>
                    <line class="chart-axis" x1=l y1=t x2=l y2=b></line>
                    {x_ticks}
                    {y_ticks}
                    {floor}
                    <polyline class="chart-line" points=c.line.clone()></polyline>
                    {dot}
                </svg>
                <span class="chart-text">
                    <span class="chart-label">{c.label.clone()}</span>
                    {c.floor_label.clone().map(|f| view! { <span class="chart-floor-label">{f}</span> })}
                </span>
            </div>
        })
    }
}

#[component]
pub fn WalkPanel(ctx: Ctx) -> impl IntoView {
    // Durations set on vertices are kept while the graph changes, for the vertices still in it.
    Effect::new(move |_| {
        let names: Option<BTreeSet<String>> = ctx.build.good.with(|g| {
            g.as_ref()
                .and_then(|a| a.graph.as_ref())
                .map(|g| g.vertices().iter().map(|v| v.name.clone()).collect())
        });
        let Some(names) = names else { return };
        let stale = ctx
            .walk
            .ui
            .durations
            .with_untracked(|d| d.keys().any(|k| !names.contains(k)));
        if stale {
            ctx.walk
                .ui
                .durations
                .update(|d| d.retain(|k, _| names.contains(k)));
        }
    });
    let status = move || {
        ctx.walk.view.with(|v| {
            if !v.started {
                if ctx.build.good.with(|g| g.as_ref().is_some_and(|a| !a.cycles.is_empty())) {
                    return "A graph with a cycle cannot be walked: nothing in the cycle could ever start.".to_string();
                }
                let f = ctx.walk.failures.with(|f| f.len());
                return if f == 0 {
                    "Play walks the graph as OpenTofu would, with simulated durations.".to_string()
                } else {
                    format!("{f} vertex(es) will fail. Play walks the graph.")
                };
            }
            let mut s = format!(
                "running {} · done {} · failed {} · upstream failed {} · t {:.1} s",
                v.running, v.done, v.failed, v.upstream, v.now
            );
            if let Some(m) = v.makespan {
                s.push_str(&format!(" · makespan {m:.1} s"));
            }
            if let Some(c) = v.critical_path {
                s.push_str(&format!(" · critical path {c:.1} s"));
            }
            if let Some(m) = v.max_concurrency {
                s.push_str(&format!(" · max concurrency {m}"));
            }
            s
        })
    };
    // The walk's moments (started, paused, a failure, finished), said once each.
    let announce = RwSignal::new(String::new());
    let last = StoredValue::new((WalkView::default(), false));
    Effect::new(move |_| {
        let now = ctx.walk.view.with(Clone::clone);
        let playing = ctx.walk.playing.get();
        let (before, was) = last.get_value();
        if let Some(text) = crate::page::walk::announcement(&before, &now, was, playing) {
            announce.set(text);
        }
        last.set_value((now, playing));
    });
    view! {
        <footer class="walk-panel" aria-label="Walk">
            <div class="walk-buttons">
                <button
                    type="button"
                    id="walk-play"
                    class="primary"
                    on:click=move |_| if ctx.walk.playing.get_untracked() { ctx.walk.playing.set(false) } else { ctx.play() }
                >
                    {move || if ctx.walk.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" id="walk-step" title="Jump to the next event" on:click=move |_| ctx.step_walk()>
                    "Step"
                </button>
                <button type="button" id="walk-reset" title="Back to the start" on:click=move |_| ctx.walk.reset()>
                    "Reset"
                </button>
            </div>
            <label class="speed">
                <span>"speed"</span>
                <select
                    prop:value=move || ctx.walk.speed.get().to_string()
                    on:change=move |ev| {
                        if let Ok(s) = event_target_value(&ev).parse::<f64>() {
                            ctx.walk.speed.set(s);
                        }
                    }
                >
                    <option value="1">"1×"</option>
                    <option value="4">"4×"</option>
                    <option value="16">"16×"</option>
                    <option value="64">"64×"</option>
                </select>
            </label>
            <label class="parallelism" title="Applies to the next walk">
                <span>"-parallelism"</span>
                <input
                    type="range"
                    min="1"
                    max="64"
                    prop:value=move || ctx.walk.parallelism.get().to_string()
                    on:input=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                            ctx.walk.parallelism.set(n.clamp(1, 64));
                        }
                    }
                />
                <output class="parallelism-value">{move || ctx.walk.parallelism.get()}</output>
            </label>
            <MakespanChart />
            <Show when=move || ctx.walk.ui.durations.with(|d| !d.is_empty())>
                <button
                    type="button"
                    class="reset-durations"
                    title="Forget the durations set on vertices"
                    on:click=move |_| {
                        ctx.walk.ui.durations.set(BTreeMap::new());
                        ctx.walk.settings_changed();
                    }
                >
                    {move || format!("Reset {} duration(s)", ctx.walk.ui.durations.with(|d| d.len()))}
                </button>
            </Show>
            // Changes every frame: read by sight. Screen readers get the announcements below.
            <span class="walk-status">{status}</span>
            <p class="sr-only walk-announce" role="status" aria-live="polite">{move || announce.get()}</p>
            <Show when=move || ctx.walk.view.with(|v| v.started)>
                <gantt::Gantt />
            </Show>
        </footer>
    }
}

/// The duration of one vertex in walks: the default from the table, or what the user set.
#[component]
pub fn DurationEditor(name: String, typed: crate::kind::Typed) -> impl IntoView {
    let walk = expect_context::<Walk>();
    let default = untrack(|| walk.setup(false)).default_secs(&name, &typed.kind);
    let expands = typed.kind.is_expand()
        && walk
            .good
            .with_untracked(|g| g.as_ref().is_some_and(|a| a.expander.is_some()));
    let n_get = name.clone();
    let current = move || walk.ui.durations.with(|d| d.get(&n_get).copied());
    let n_set = name.clone();
    let set = move |text: String| {
        let text = text.trim().to_string();
        let value = text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0);
        if text.is_empty() || value.is_some() {
            walk.ui.durations.update(|d| match value {
                Some(v) if (v - default).abs() > 1e-9 => {
                    d.insert(n_set.clone(), v);
                }
                _ => {
                    d.remove(&n_set);
                }
            });
            walk.settings_changed();
        }
    };
    let n_reset = name.clone();
    let current2 = current.clone();
    view! {
        <div class="duration-edit">
            <label>
                <span>{if expands { "Duration of each instance" } else { "Duration in walks" }}</span>
                <input
                    type="number"
                    class="duration-input"
                    min="0"
                    step="1"
                    prop:value=move || current().map_or(format!("{default}"), |v| format!("{v}"))
                    on:change=move |ev| set(event_target_value(&ev))
                />
                <span class="muted">"s"</span>
            </label>
            <Show when=move || current2().is_some()>
                <button
                    type="button"
                    class="link duration-reset"
                    on:click={
                        let n = n_reset.clone();
                        move |_| {
                            walk.ui.durations.update(|d| {
                                d.remove(&n);
                            });
                            walk.settings_changed();
                        }
                    }
                >
                    {format!("reset to {default} s")}
                </button>
            </Show>
        </div>
    }
}

impl Walk {
    /// Failures or durations changed: a walk that has not moved yet picks the change up; one
    /// under way keeps its settings (the next walk uses the new ones).
    pub(super) fn settings_changed(self) {
        if self.view.with_untracked(|v| v.now == 0.0 && v.done == 0) {
            self.reset();
        }
    }
}

/// One step of a vertex in the details panel: name, kind, timing, its Go function, and a toggle
/// that makes the task fail there in the next walk.
fn step_item(walk: Walk, task: String, l: walk_steps::StepLine) -> impl IntoView {
    let spec = format!("{task}@{}", l.id);
    let s_pressed = spec.clone();
    let pressed = move || walk.failures.with(|f| f.contains(&s_pressed)).to_string();
    let can_fail = walk_steps::can_fail(l.id);
    view! {
            <li class=format!("walk-step state-{}", l.state.css()) data-step-id=l.id>
                <span class="ws-name">{l.name}</span>
                {l.each_instance.then_some(view! { <span class="ws-each small">"each instance"</span> })}
                <span class="ws-time small">{l.timing()}</span>
                <span class="ws-kind small muted">{l.kind}</span>
                <span class="ws-sentence small">{l.sentence}</span>
                <span class="ws-io muted small">{format!("reads {}; writes {}; Go: {}", l.reads, l.writes, l.go)}</span>
    {can_fail.then(|| view! {
                <button
                    type="button"
                    class="link ws-fail small"
                    aria-pressed=pressed
                    title="Make it fail at this step in the next walk"
                    on:click=move |_| {
                        let s = spec.clone();
                        walk.failures.update(|f| {
                            if !f.remove(&s) {
                                f.insert(s);
                            }
                        });
                        walk.settings_changed();
                    }
                >
                    "fail here"
                </button>
                })}
            </li>
        }
}

/// The details panel's steps of vertex `name` (index `i` in the shown graph): during a walk, its
/// steps and its instances' with their times, the one running and where it stopped; before, the
/// steps it will run with their durations.
#[component]
pub fn VertexSteps(name: String, i: usize, typed: crate::kind::Typed) -> impl IntoView {
    let walk = expect_context::<Walk>();
    // One list: the evaluation's steps (`page::inside`: its Go type and walk) with each step's
    // reads, writes and time in the walk (`page::walk_steps::panel`). The details are drawn
    // again when the graph changes, so this is read once.
    let inside = walk.good.with_untracked(|g| {
        g.as_ref()
            .and_then(|a| crate::page::inside::steps_of(a, &name))
    });
    move || {
        // Redrawn when the vertex's walk cell changes (state, progress, step).
        let cell = walk.cell(i);
        let walked = walk
            .rt
            .with_value(|r| r.as_ref().map(|r| r.vertex_steps_named(&name)))
            .filter(|_| cell.is_some_and(|c| c.state != VState::Idle));
        let lists = match walked {
            Some(l) if !l.is_empty() => l,
            _ => vec![walk_steps::TaskSteps {
                task: u32::MAX,
                name: name.clone(),
                instance: false,
                lines: untrack(|| walk.setup(false)).planned_steps(&name, &typed.kind),
            }],
        };
        let before = lists.first().is_some_and(|l| l.task == u32::MAX);
        let p = walk_steps::panel(inside.as_ref(), lists, before);
        let body = p
            .tasks
            .into_iter()
            .map(|t| {
                let stopped = t.failed_at().map(|l| {
                    view! {
                        <p class="ws-stopped">
                            {format!("{} stopped at “{}”: {}.", t.name, l.name, l.go)}
                        </p>
                    }
                });
                let task = t.name.clone();
                view! {
                    <div class="task-steps" data-task=t.name.clone()>
                        {t.instance.then(|| view! { <h4 class="small">{t.name.clone()}</h4> })}
                        {stopped}
                        <ol class="walk-step-list">
                            {t.lines.into_iter().map(|l| step_item(walk, task.clone(), l)).collect_view()}
                        </ol>
                    </div>
                }
            })
            .collect_view();
        view! {
            <section class="walk-steps" aria-label="Steps">
                <h3>{p.heading}</h3>
                {p.run_by.map(|r| view! { <p class="muted small ws-run-by">{r}</p> })}
                {p.before.then(|| view! {
                    <p class="muted small">"What it runs when the walk reaches it, with the time each step takes; Play or Step the walk to follow them."</p>
                })}
                {body}
            </section>
        }
    }
}

impl Walk {
    pub(super) fn reset(self) {
        // What the worker says of the walk forgotten is dropped when it arrives.
        self.serial.update_value(|s| *s += 1);
        self.playing.set(false);
        self.rt.set_value(None);
        self.clear();
    }
}

impl Ctx {
    /// Starts a walk of the built graph if none is under way; false when there is nothing to walk
    /// (no graph, or a graph with a cycle).
    pub(super) fn ensure_walk(self) -> bool {
        if self.walk.rt.with_value(|r| r.is_some()) {
            return true;
        }
        // The analysis is shared, not its graph copied: 28 ms of the walk's start at 10,000
        // resources went to that copy.
        let a = self
            .build
            .good
            .with_untracked(|g| g.clone().filter(|a| a.cycles.is_empty()));
        let Some(g) = a.as_ref().and_then(|a| a.graph.as_ref()) else {
            return false;
        };
        // Only on a change: a needless set refits the view, which repaints the whole drawing.
        if self.build.step.get_untracked().is_some() {
            self.build.step.set(None);
        }
        if self.shell.mode.get_untracked() != Mode::Walk {
            self.shell.mode.set(Mode::Walk);
        }
        // Performance marks (read by the e2e timing test): what starting a walk costs.
        use super::marks::{mark, measure};
        mark("walk-start-0");
        let setup = untrack(|| self.walk.setup(true));
        let p = self.walk.parallelism.get_untracked() as usize;
        // Of an analysis the engine's worker made, the walk's length (a whole walk on the
        // instant clock) is worked out there, and said when it arrives.
        let remote = self
            .build
            .good
            .with_untracked(|g| g.as_ref().and_then(|a| a.remote.as_ref()).map(|r| r.build));
        self.walk.serial.update_value(|s| *s += 1);
        let mut rt = match remote {
            Some(build) => {
                self.measure_in_worker(build, p, &setup);
                WalkRt::start_unmeasured(g, p, &setup)
            }
            None => WalkRt::start(g, p, &setup),
        };
        if remote.is_none() && setup.failures.is_empty() {
            self.walk.seed_chart(p, rt.expected());
        }
        mark("walk-start-1");
        let frame = rt.collect(true);
        self.walk.rt.set_value(Some(rt));
        mark("walk-start-2");
        self.walk.apply_frame(frame);
        mark("walk-start-3");
        measure(
            "walk-start-walks",
            "walk-start-0",
            "walk-start-1",
            &["walk-start-0"],
        );
        measure(
            "walk-start-collect",
            "walk-start-1",
            "walk-start-2",
            &["walk-start-1"],
        );
        measure(
            "walk-start-signals",
            "walk-start-2",
            "walk-start-3",
            &["walk-start-2", "walk-start-3"],
        );
        true
    }

    /// Asks the engine's worker how long the walk just started (of its analysis `build`, at `p`
    /// with `setup`) takes, and says it to the walk if it is still under way (not reset since).
    fn measure_in_worker(self, build: u64, p: usize, setup: &Setup) {
        let (walk, off) = (self.walk, self.build.off);
        let serial = walk.serial.get_value();
        let ask = crate::page::engine::WalkAsk::of(setup, p);
        let seeds_chart = setup.failures.is_empty();
        leptos::task::spawn_local(async move {
            let Some(secs) = off.length(build, ask).await else {
                return;
            };
            if walk.serial.try_get_value() != Some(serial) {
                return;
            }
            // Shown at once (the timeline's axis), not at the next step or frame.
            let frame = walk
                .rt
                .try_update_value(|r| {
                    r.as_mut().map(|r| {
                        r.set_expected(secs);
                        r.collect(false)
                    })
                })
                .flatten();
            if let Some(f) = frame {
                walk.apply_frame(f);
            }
            if seeds_chart {
                walk.seed_chart(p, secs);
            }
        });
    }

    pub(super) fn play(self) {
        if self.walk.view.with_untracked(|v| v.finished) {
            self.walk.reset();
        }
        if !self.ensure_walk() {
            return;
        }
        self.walk.rt.update_value(|r| {
            if let Some(r) = r {
                r.last_ms = None;
            }
        });
        self.walk.playing.set(true);
        frame_loop(self.walk);
    }

    pub(super) fn step_walk(self) {
        self.walk.playing.set(false);
        if !self.ensure_walk() {
            return;
        }
        let f = self.walk.rt.try_update_value(|r| {
            r.as_mut().map(|r| {
                r.step();
                r.collect(true)
            })
        });
        if let Some(Some(f)) = f {
            self.walk.apply_frame(f);
        }
    }

    /// A click on a vertex shows its details; with `fail` (Shift or Alt held) in Walk mode it
    /// marks the vertex to fail in the next walk instead, or clears that mark.
    pub(super) fn click_vertex(self, name: String, fail: bool) {
        if self.canvas.dragged.get_value() {
            return;
        }
        if fail && self.shell.mode.get_untracked() == Mode::Walk {
            self.walk.failures.update(|f| {
                if !f.remove(&name) {
                    f.insert(name);
                }
            });
            self.walk.settings_changed();
        } else {
            self.sel.selected.set(Some(name));
            // In Learn, a click may answer the lesson's question: the lesson stays in view.
            if self.shell.tab.get_untracked() != Tab::Learn {
                self.shell.tab.set(Tab::Details);
            }
        }
    }
}

/// Advances the walk once per animation frame while playing.
pub(super) fn frame_loop(walk: Walk) {
    request_animation_frame(move || {
        if !walk.playing.get_untracked() {
            return;
        }
        let now = performance_now();
        let speed = walk.speed.get_untracked();
        // Performance marks (read by the e2e timing test): the simulation vs the view update.
        use super::marks::{mark, measure};
        mark("walk-frame-start");
        let v = walk.rt.try_update_value(|r| {
            r.as_mut().map(|r| {
                r.frame(now, speed);
                // The graph at about 15 Hz, the timeline and counters every frame.
                let cells = now - r.cells_ms >= 60.0;
                if cells {
                    r.cells_ms = now;
                }
                (r.collect(cells), r.stepper.has_pending_timers())
            })
        });
        mark("walk-frame-simulated");
        match v {
            Some(Some((frame, pending))) => {
                let stop = frame.view.finished || !pending;
                walk.apply_frame(frame);
                mark("walk-frame-drawn");
                measure(
                    "walk-simulation",
                    "walk-frame-start",
                    "walk-frame-simulated",
                    &["walk-frame-start"],
                );
                measure(
                    "walk-view-update",
                    "walk-frame-simulated",
                    "walk-frame-drawn",
                    &["walk-frame-simulated", "walk-frame-drawn"],
                );
                if stop {
                    walk.playing.set(false);
                } else {
                    frame_loop(walk);
                }
            }
            _ => {
                super::marks::forget(&["walk-frame-start", "walk-frame-simulated"]);
                walk.playing.set(false);
            }
        }
    });
}

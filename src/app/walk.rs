//! The walk bar: play/pause/step, speed, -parallelism, counters and the makespan chart.

use super::*;

/// Makespan against -parallelism (instant driver, no failures), the current setting marked.
/// Computed only in Walk mode: it walks the graph once per setting.
#[component]
pub fn MakespanChart(ctx: Ctx) -> impl IntoView {
    const W: f64 = 150.0;
    const H: f64 = 30.0;
    let points = Memo::new(move |_| {
        if ctx.mode.get() != Mode::Walk {
            return Vec::new();
        }
        let p = ctx.parallelism.get() as usize;
        let g = ctx.good.with(|g| {
            g.as_ref()
                .filter(|a| a.cycles.is_empty())
                .and_then(|a| a.graph.clone())
        });
        let Some(g) = g.filter(|g| !g.names.is_empty()) else {
            return Vec::new();
        };
        let mut ps = vec![1, 2, 4, 8, 16, 32, 64, p];
        ps.sort_unstable();
        ps.dedup();
        walkrt::makespans(&g, &ps)
    });
    move || {
        let pts = points.get();
        if pts.is_empty() {
            return None;
        }
        let max = pts.iter().map(|x| x.1).fold(0.0_f64, f64::max).max(1e-9);
        let xy = |p: usize, m: f64| ((p as f64).log2() / 6.0 * W, H - 2.0 - m / max * (H - 6.0));
        let line = pts
            .iter()
            .map(|&(p, m)| {
                let (x, y) = xy(p, m);
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ");
        let cur = ctx.parallelism.get_untracked() as usize;
        let (cp, cm) = pts.iter().copied().find(|x| x.0 == cur).unwrap_or(pts[0]);
        let (cx, cy) = xy(cp, cm);
        Some(view! {
            <div class="chart" title="Makespan of a walk without failures for -parallelism 1 to 64 (log scale); the dot is the current setting">
                <svg width=W + 8.0 height=H viewBox=format!("-4 0 {} {H}", W + 8.0)>
                    <polyline class="chart-line" points=line></polyline>
                    <circle class="chart-dot" cx=cx cy=cy r="3.5"></circle>
                </svg>
                <span class="chart-label">{format!("makespan {cm:.1} s at {cp}")}</span>
            </div>
        })
    }
}

#[component]
pub fn WalkPanel(ctx: Ctx) -> impl IntoView {
    let status = move || {
        ctx.walk_view.with(|v| {
            if !v.started {
                if ctx.good.with(|g| g.as_ref().is_some_and(|a| !a.cycles.is_empty())) {
                    return "A graph with a cycle cannot be walked: nothing in the cycle could ever start.".to_string();
                }
                let f = ctx.failures.with(|f| f.len());
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
    view! {
        <footer class="walk-panel" aria-label="Walk">
            <div class="walk-buttons">
                <button
                    type="button"
                    id="walk-play"
                    class="primary"
                    on:click=move |_| if ctx.playing.get_untracked() { ctx.playing.set(false) } else { ctx.play() }
                >
                    {move || if ctx.playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" id="walk-step" title="Jump to the next event" on:click=move |_| ctx.step_walk()>
                    "Step"
                </button>
                <button type="button" id="walk-reset" title="Back to the start" on:click=move |_| ctx.reset_walk()>
                    "Reset"
                </button>
            </div>
            <label class="speed">
                <span>"speed"</span>
                <select
                    prop:value=move || ctx.speed.get().to_string()
                    on:change=move |ev| {
                        if let Ok(s) = event_target_value(&ev).parse::<f64>() {
                            ctx.speed.set(s);
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
                    prop:value=move || ctx.parallelism.get().to_string()
                    on:input=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                            ctx.parallelism.set(n.clamp(1, 64));
                        }
                    }
                />
                <output class="parallelism-value">{move || ctx.parallelism.get()}</output>
            </label>
            <MakespanChart ctx=ctx />
            <span class="walk-status" aria-live="polite">{status}</span>
        </footer>
    }
}

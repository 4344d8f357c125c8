//! The pipeline benchmark in wasm, in headless Chromium: the same generated configurations and the
//! same phases as `tfgraph bench` natively (`tfgraph::bench::measure_pipeline`), timed with
//! `performance.now()`. Ignored unless asked for: `scripts/bench` runs it with
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test --release
//! --target wasm32-unknown-unknown --test bench_wasm -- --include-ignored --nocapture` (the
//! speed profile; `--profile wasm-release` measures the app's size-optimised code instead). Each
//! result is one line `BENCH-WASM <resources> <phase>=<ms> ...` that `tfgraph bench --wasm FILE`
//! puts beside the native figures.
#![cfg(target_arch = "wasm32")]

use tfgraph::bench::{best_of, measure_pipeline};
use tfgraph::generator::{GenOptions, generate};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now() -> f64 {
    let perf = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).expect("performance");
    let f: js_sys::Function = js_sys::Reflect::get(&perf, &"now".into())
        .expect("performance.now")
        .into();
    f.call0(&perf).ok().and_then(|v| v.as_f64()).unwrap_or(0.0)
}

#[wasm_bindgen_test]
#[ignore]
fn pipeline_phases_in_the_browser() {
    for (resources, runs) in [(1_000, 5), (10_000, 3)] {
        let files = generate(&GenOptions {
            resources,
            modules: resources / 100,
            seed: 1,
        });
        let mut clock = now;
        let all: Vec<_> = (0..runs)
            .map(|_| measure_pipeline(&files, &mut clock).expect("pipeline ran"))
            .collect();
        let t = best_of(&all);
        console_log!(
            "BENCH-WASM {resources} raw_parse={:.1} load={:.1} transforms={:.1} reduction={:.1} validate={:.1} whole={:.1} vertices={} edges={}",
            t.raw_parse,
            t.load,
            t.transforms,
            t.reduction,
            t.validate,
            t.whole,
            t.vertices,
            t.edges
        );
    }
}

/// Issue 16: "layout speed at 10k: 10,000 vertices / 20,000 edges of the deep kind ... under 2 s
/// in the browser". The deep generated DAG (`tfgraph::bench::deep_graph`, as `tfgraph bench`
/// lays it out natively), default options, best of 2 per seed. One line
/// `BENCH-WASM-LAYOUT deep <n> seed=<s> ms=<best> crossings=<c>` each.
#[wasm_bindgen_test]
#[ignore]
fn deep_dag_layout_in_the_browser() {
    use tfgraph::layout::{self, Input, LayoutOptions};
    for seed in 1..=2 {
        let g = tfgraph::bench::deep_graph(10_000, 60, 2, seed);
        let input = Input::from_graph(&g, |_, v| layout::monospace_size(v), |_, _| Vec::new());
        let mut best = f64::INFINITY;
        let mut crossings = 0;
        for _ in 0..2 {
            let t = now();
            let l = layout::layout(&input, &LayoutOptions::default());
            best = best.min(now() - t);
            crossings = l.metrics().crossings;
        }
        console_log!(
            "BENCH-WASM-LAYOUT deep {} seed={seed} edges={} ms={best:.0} crossings={crossings}",
            g.len(),
            g.edge_count()
        );
    }
}

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

/// A step's edges as strings of their own.
fn owned(
    edges: &[(tfgraph::builder::StepName, tfgraph::builder::StepName)],
) -> Vec<(String, String)> {
    edges
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

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

/// Issue 16, item 4 (docs/worker.md): what a build's reply from a Web Worker would cost the page's
/// thread. The analysis of 10,000 generated resources, as the page makes it, copied into plain
/// serde types of the same shape as what would cross (`Reply` below: the graph with each vertex's
/// name, drawing kind and module box; declarations; diagnostics; and, separately, the steps and
/// the whys); each part is converted with `serde-wasm-bindgen` (the worker's side), copied with
/// `structuredClone` (what `postMessage` does), and converted back (the page's side), and the
/// same through a JSON string (`serde_json` to a string, the string copied, parsed back), for
/// comparison. Best of 3. One line `BENCH-WASM-REPLY <part> bytes=<json bytes> to=<ms>
/// clone=<ms> from=<ms> json_to=<ms> json_clone=<ms> json_from=<ms>` per part. Results in
/// docs/worker.md.
#[wasm_bindgen_test]
#[ignore]
fn worker_reply_in_the_browser() {
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;
    use tfgraph::page::analysis::{Options, analyze};

    #[derive(Serialize, Deserialize)]
    struct Graph {
        names: Vec<String>,
        kinds: Vec<String>,
        clusters: Vec<Vec<String>>,
        edges: Vec<(u32, u32)>,
        decls: BTreeMap<String, (String, u32, u32)>,
        diags: Vec<(bool, Option<String>, String, String)>,
    }
    #[derive(Serialize, Deserialize)]
    struct Step {
        name: String,
        added_vertices: Vec<String>,
        removed_vertices: Vec<String>,
        added_edges: Vec<(String, String)>,
        removed_edges: Vec<(String, String)>,
    }
    #[derive(Serialize, Deserialize)]
    struct Why {
        from: String,
        to: String,
        reason: String,
        transform: String,
        refs: Vec<(String, u32, u32, String)>,
    }

    fn measure<T: Serialize + for<'de> Deserialize<'de>>(part: &str, value: &T) {
        let clone: js_sys::Function =
            js_sys::Reflect::get(&js_sys::global(), &"structuredClone".into())
                .expect("structuredClone")
                .into();
        let (mut to, mut cl, mut from) = (f64::MAX, f64::MAX, f64::MAX);
        let (mut jto, mut jcl, mut jfrom) = (f64::MAX, f64::MAX, f64::MAX);
        let mut bytes = 0;
        for _ in 0..3 {
            let t = now();
            let js = serde_wasm_bindgen::to_value(value).expect("to_value");
            let t1 = now();
            let copied = clone
                .call1(&wasm_bindgen::JsValue::NULL, &js)
                .expect("clone");
            let t2 = now();
            let back: T = serde_wasm_bindgen::from_value(copied).expect("from_value");
            let t3 = now();
            std::hint::black_box(&back);
            let text = serde_json::to_string(value).expect("json");
            let s = wasm_bindgen::JsValue::from_str(&text);
            let t4 = now();
            let s = clone
                .call1(&wasm_bindgen::JsValue::NULL, &s)
                .expect("clone");
            let t45 = now();
            let got: String = s.as_string().expect("string");
            let back: T = serde_json::from_str(&got).expect("json back");
            let t5 = now();
            std::hint::black_box(&back);
            bytes = text.len();
            to = to.min(t1 - t);
            cl = cl.min(t2 - t1);
            from = from.min(t3 - t2);
            jto = jto.min(t4 - t3);
            jcl = jcl.min(t45 - t4);
            jfrom = jfrom.min(t5 - t45);
        }
        console_log!(
            "BENCH-WASM-REPLY {part} bytes={bytes} to={to:.1} clone={cl:.1} from={from:.1} json_to={jto:.1} json_clone={jcl:.1} json_from={jfrom:.1}"
        );
    }

    let files = generate(&GenOptions {
        resources: 10_000,
        modules: 100,
        seed: 1,
    });
    let a = analyze(
        &files,
        tfgraph::builder::BuilderKind::Plan,
        &Options::default(),
    );
    let g = a.graph.as_ref().expect("a graph");
    let graph = Graph {
        names: g.vertices().iter().map(|v| v.name.clone()).collect(),
        kinds: g
            .vertices()
            .iter()
            .map(|v| v.kind.css().to_string())
            .collect(),
        clusters: g.vertices().iter().map(|v| v.cluster.clone()).collect(),
        edges: g
            .edges()
            .iter()
            .map(|&(a, b)| (a as u32, b as u32))
            .collect(),
        decls: a
            .decls
            .iter()
            .map(|(k, d)| {
                (
                    k.clone(),
                    (d.file.clone(), d.line as u32, d.end_line as u32),
                )
            })
            .collect(),
        diags: a
            .errors
            .iter()
            .chain(&a.warnings)
            .map(|d| {
                (
                    d.error,
                    d.place.clone(),
                    d.summary.clone(),
                    d.detail.clone(),
                )
            })
            .collect(),
    };
    let steps: Vec<Step> = a
        .steps
        .iter()
        .map(|s| Step {
            name: s.name.clone(),
            added_vertices: s.added_vertices.iter().map(|v| v.to_string()).collect(),
            removed_vertices: s.removed_vertices.iter().map(|v| v.to_string()).collect(),
            added_edges: owned(&s.added_edges),
            removed_edges: owned(&s.removed_edges),
        })
        .collect();
    let whys: Vec<Why> = a
        .whys
        .iter()
        .map(|((from, to), w)| Why {
            from: from.clone(),
            to: to.clone(),
            reason: w.reason.clone(),
            transform: w.transform.to_string(),
            refs: w
                .refs
                .iter()
                .map(|r| {
                    (
                        r.file.clone(),
                        r.line as u32,
                        r.column as u32,
                        r.text.clone(),
                    )
                })
                .collect(),
        })
        .collect();
    console_log!(
        "BENCH-WASM-REPLY shape vertices={} edges={} decls={} steps={} step_edges={} whys={}",
        graph.names.len(),
        graph.edges.len(),
        graph.decls.len(),
        steps.len(),
        steps
            .iter()
            .map(|s| s.added_edges.len() + s.removed_edges.len())
            .sum::<usize>(),
        whys.len()
    );
    measure("graph", &graph);
    measure("steps", &steps);
    measure("whys", &whys);

    // The reply the worker sends now (`page::engine::analysis_reply`): made in the worker,
    // carried as `postMessage` carries it (serde-wasm-bindgen, then a structured clone), and read
    // by the page (`read_analysis`; the steps and whys stay text until they are read).
    use tfgraph::page::engine::{Reply, analysis_reply, read_analysis};
    let clone: js_sys::Function =
        js_sys::Reflect::get(&js_sys::global(), &"structuredClone".into())
            .expect("structuredClone")
            .into();
    let (mut make, mut carry, mut read, mut bytes) = (f64::MAX, f64::MAX, f64::MAX, (0, 0, 0));
    for _ in 0..3 {
        let t = now();
        let reply = analysis_reply(1, &a);
        let t1 = now();
        let js = serde_wasm_bindgen::to_value(&reply).expect("to_value");
        let copied = clone
            .call1(&wasm_bindgen::JsValue::NULL, &js)
            .expect("clone");
        let t2 = now();
        let Reply::Analysis {
            analysis,
            parts,
            steps,
            whys,
            ..
        } = serde_wasm_bindgen::from_value(copied).expect("from_value")
        else {
            panic!("an analysis");
        };
        bytes = (analysis.len(), steps.len(), whys.len());
        let got = read_analysis(1, analysis, parts, move || steps, move || whys).expect("reads");
        let t3 = now();
        assert_eq!(got.graph, a.graph);
        make = make.min(t1 - t);
        carry = carry.min(t2 - t1);
        read = read.min(t3 - t2);
    }
    console_log!(
        "BENCH-WASM-REPLY analysis_reply bytes={bytes:?} make={make:.1} carry={carry:.1} read={read:.1}"
    );
}

//! Phase-by-phase timing of the pipeline, the same code natively (`tfgraph bench`) and in wasm
//! (`tests/bench_wasm.rs`, headless Chromium). The clock is passed in (milliseconds, any origin:
//! `Instant` natively, `performance.now()` in the browser), so nothing here needs std::time,
//! which wasm32-unknown-unknown lacks.
//!
//! Phases: the raw hcl-rs parse of every file (the floor), the configuration loader (its own
//! parse plus decoding into the crate's model), the plan builder's transforms without step
//! recording, its transitive reduction, and the final validation (one root, no cycles); then the
//! whole [`crate::pipeline::run`] as the CLI and the app call it (with step recording).
//!
//! [`report`] is `tfgraph bench`: those phases and our layout against Graphviz as Markdown tables
//! (README's figures), with the clock and the `dot` program handed in by the caller.

use crate::builder::{self, BuilderKind};
use crate::pipeline::{self, Request};
use std::collections::BTreeMap;

/// Milliseconds spent in each phase of one pipeline run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct PhaseTimes {
    /// `hcl::parse` of every file: the floor.
    pub raw_parse: f64,
    /// `config::load_files`: parse and decode into the configuration model.
    pub load: f64,
    /// Every transform of the plan builder except the transitive reduction.
    pub transforms: f64,
    pub reduction: f64,
    pub validate: f64,
    /// `pipeline::run`, the whole as users run it (includes recording every step's changes).
    pub whole: f64,
    pub vertices: usize,
    pub edges: usize,
    pub bytes: usize,
}

/// Times each phase once on `files`; `now` returns milliseconds.
pub fn measure_pipeline(
    files: &BTreeMap<String, String>,
    now: &mut dyn FnMut() -> f64,
) -> Result<PhaseTimes, String> {
    let mut t = PhaseTimes {
        bytes: files.values().map(String::len).sum(),
        ..Default::default()
    };
    let t0 = now();
    for (name, text) in files {
        hcl::parse(text).map_err(|e| format!("{name}: {e}"))?;
    }
    let t1 = now();
    t.raw_parse = t1 - t0;

    let (cfg, diags) = crate::config::load_files(files);
    let t2 = now();
    t.load = t2 - t1;
    let cfg = match cfg {
        Some(c) if !crate::config::has_errors(&diags) => c,
        _ => return Err(format!("configuration did not load: {diags:?}")),
    };
    let mut inputs = builder::inputs_from_crate(Some(&cfg), None, None, None);
    inputs.read_bodies_without_schema = true;
    let steps = builder::plan_steps(&inputs, BuilderKind::Plan);
    let mut g = builder::Graph::new();
    let t3 = now();
    for s in &steps {
        let a = now();
        s.transform(&mut g)
            .map_err(|d| format!("{}: {d:?}", s.name()))?;
        let b = now();
        if s.name() == "TransitiveReductionTransformer" {
            t.reduction += b - a;
        } else {
            t.transforms += b - a;
        }
    }
    let t4 = now();
    // Time not attributed to a transform (the loop itself) counts with the transforms.
    t.transforms += (t4 - t3) - (t.transforms + t.reduction);
    g.dag().validate().map_err(|e| e.to_string())?;
    let t5 = now();
    t.validate = t5 - t4;
    t.vertices = g.dag().len();
    t.edges = g.dag().edge_count();

    let t6 = now();
    pipeline::run(&Request::new(files.clone(), BuilderKind::Plan))
        .map_err(|d| format!("pipeline: {d:?}"))?;
    t.whole = now() - t6;
    Ok(t)
}

/// The element-wise minimum of several runs (the usual way to read noisy timings).
pub fn best_of(runs: &[PhaseTimes]) -> PhaseTimes {
    let mut best = runs.first().cloned().unwrap_or_default();
    for r in runs.iter().skip(1) {
        best.raw_parse = best.raw_parse.min(r.raw_parse);
        best.load = best.load.min(r.load);
        best.transforms = best.transforms.min(r.transforms);
        best.reduction = best.reduction.min(r.reduction);
        best.validate = best.validate.min(r.validate);
        best.whole = best.whole.min(r.whole);
    }
    best
}

/// A harsher layout benchmark than [`crate::layout::random_graph`]: `n` vertices, each after the
/// first `deps` depending on `deps` distinct earlier vertices chosen uniformly (long edges
/// everywhere, dozens of layers), no clusters. `n = 10_000, deps = 2` gives 20,000 edges (minus
/// the first vertices' missing ones).
pub fn uniform_graph(n: usize, deps: usize, seed: u64) -> crate::dag::Graph<String> {
    let mut rng = crate::rng::SplitMix::new(seed);
    let mut g = crate::dag::Graph::new();
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let id = g.add(format!("aws_instance.v{i}"));
        for _ in 0..deps.min(i) {
            let mut j = rng.below(i);
            while g.has_edge(id, ids[j]) {
                j = rng.below(i);
            }
            g.connect(id, ids[j]);
        }
        ids.push(id);
    }
    g
}

/// `12.3 ms`, `123 ms`, `1.23 s`: milliseconds as the benchmark tables print them.
pub fn ms(x: f64) -> String {
    if x >= 1000.0 {
        format!("{:.2} s", x / 1000.0)
    } else if x >= 10.0 {
        format!("{x:.0} ms")
    } else {
        format!("{x:.1} ms")
    }
}

/// `12,345`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The `BENCH-WASM <resources> key=value ...` lines `tests/bench_wasm.rs` prints (anywhere in a
/// line, so a test runner's prefixes do not matter): phase milliseconds by resource count.
/// Other lines, and values that are not numbers, are skipped.
pub fn parse_wasm_lines(text: &str) -> BTreeMap<usize, BTreeMap<String, f64>> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.split("BENCH-WASM ").nth(1) else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let Some(n) = words.next().and_then(|w| w.parse::<usize>().ok()) else {
            continue;
        };
        let kv = words
            .filter_map(|w| {
                let (k, v) = w.split_once('=')?;
                Some((k.to_string(), v.parse::<f64>().ok()?))
            })
            .collect();
        out.insert(n, kv);
    }
    out
}

/// The sizes `tfgraph bench` measures.
#[derive(Debug, Clone, PartialEq)]
pub struct Sizes {
    /// `(resources, runs)` of the pipeline table.
    pub pipeline: Vec<(usize, usize)>,
    /// The small, middle and large graph sizes of the layout table: the small and middle ones are
    /// also laid out by dot, the large one only by us.
    pub layout: (usize, usize, usize),
}

impl Sizes {
    /// What README's figures come from.
    pub fn full() -> Self {
        Sizes {
            pipeline: vec![(1_000, 5), (10_000, 3)],
            layout: (1_000, 3_000, 10_000),
        }
    }

    /// Small sizes only: a smoke test of the benchmark itself (`--quick`).
    pub fn quick() -> Self {
        Sizes {
            pipeline: vec![(100, 3), (300, 3)],
            layout: (200, 400, 1_000),
        }
    }
}

/// Runs Graphviz on a layout input: wall-clock milliseconds and `dot -Tplain`'s output.
pub type RunDot<'a> = &'a mut dyn FnMut(&Input) -> Result<(f64, String), String>;

/// What [`report`] needs from the machine it runs on.
pub struct Host<'a> {
    /// Milliseconds since any fixed origin.
    pub now: &'a mut dyn FnMut() -> f64,
    /// Graphviz; `None` skips dot.
    pub dot: Option<RunDot<'a>>,
    /// `(name, text)` of a file with `BENCH-WASM` lines, to compare wasm with native.
    pub wasm: Option<(String, String)>,
}

use crate::layout::{self, Direction, Input, LayoutOptions};

/// The plan graph of `tfgraph gen --resources N --modules N/100 --seed 1` as a layout input.
fn plan_input(resources: usize) -> Result<Input, String> {
    let files = crate::generator::generate(&crate::generator::GenOptions {
        resources,
        modules: resources / 100,
        seed: 1,
    });
    let out =
        pipeline::run(&Request::new(files, BuilderKind::Plan)).map_err(|d| format!("{d:?}"))?;
    Ok(layout::inputs::input_from_plan(out.built.graph.dag(), false).0)
}

fn random_input(n: usize) -> Input {
    let (g, modules) = layout::random_graph(n, 1);
    Input::from_graph(
        &g,
        |_, v| layout::monospace_size(v),
        |id, _| modules.get(&id).cloned().unwrap_or_default(),
    )
}

fn uniform_input(n: usize) -> Input {
    let g = uniform_graph(n, 2, 1);
    Input::from_graph(&g, |_, v| layout::monospace_size(v), |_, _| Vec::new())
}

/// Best of `runs` timings of `f` (milliseconds by `now`), and its last result.
fn best_ms<T>(runs: usize, now: &mut dyn FnMut() -> f64, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = now();
        let r = f();
        best = best.min(now() - t);
        last = Some(r);
    }
    (best, last.expect("at least one run"))
}

/// `tfgraph bench`: the pipeline table, the layout table against dot and, with wasm figures,
/// the wasm against native table, as Markdown written to `out` row by row (a full run takes
/// minutes).
pub fn report(sizes: &Sizes, host: Host<'_>, out: &mut dyn std::io::Write) -> Result<(), String> {
    let Host { now, mut dot, wasm } = host;
    let mut w = |s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    w(
        "### Pipeline (plan graph of `tfgraph gen --resources N --modules N/100 --seed 1`)\n"
            .into(),
    )?;
    w("Best of several runs, wall clock. Load includes the loader's own parse.\n".into())?;
    w("| resources | vertices | edges | text | raw hcl-rs parse (floor) | load (parse + decode) | transforms | transitive reduction | validate | whole pipeline | whole / floor |".into())?;
    w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|".into())?;
    let mut native: BTreeMap<usize, PhaseTimes> = BTreeMap::new();
    for &(n, runs) in &sizes.pipeline {
        let files = crate::generator::generate(&crate::generator::GenOptions {
            resources: n,
            modules: n / 100,
            seed: 1,
        });
        let all = (0..runs)
            .map(|_| measure_pipeline(&files, now))
            .collect::<Result<Vec<_>, _>>()?;
        let t = best_of(&all);
        w(format!(
            "| {} | {} | {} | {:.1} MB | {} | {} | {} | {} | {} | {} | {:.2}x |",
            thousands(n as u64),
            thousands(t.vertices as u64),
            thousands(t.edges as u64),
            t.bytes as f64 / 1e6,
            ms(t.raw_parse),
            ms(t.load),
            ms(t.transforms),
            ms(t.reduction),
            ms(t.validate),
            ms(t.whole),
            t.whole / t.raw_parse
        ))?;
        native.insert(n, t);
    }

    w("\n### Layout against Graphviz dot 2.43\n".into())?;
    w("Ours: best of 3, wall clock. dot: one `dot -Tplain` run on the same graph (same box sizes, same nested clusters), wall clock. Crossings counted the same way for both (`layout::measure_dot_plain` on dot's output, `Layout::metrics` on ours).\n".into())?;
    w(
        "| graph | vertices | edges | ours | dot | crossings ours | crossings dot | ours / dot |"
            .into(),
    )?;
    w("|---|---:|---:|---:|---:|---:|---:|---:|".into())?;
    let (k1, k3, k10) = sizes.layout;
    let mut graphs: Vec<(String, Input, bool)> = vec![
        (
            format!("random_graph({k1}), modules"),
            random_input(k1),
            true,
        ),
        (
            format!("random_graph({k3}), modules"),
            random_input(k3),
            true,
        ),
    ];
    // Generated configurations whose plan graphs have about k1 and k3 vertices.
    for res in [k1 * 3 / 4, k3 * 3 / 4] {
        graphs.push((
            format!("plan graph, gen {res} resources"),
            plan_input(res)?,
            true,
        ));
    }
    graphs.push((
        format!("random_graph({k10}), modules"),
        random_input(k10),
        false,
    ));
    graphs.push((
        format!("uniform {k10} vertices x 2 dependencies"),
        uniform_input(k10),
        false,
    ));
    graphs.push((
        format!("plan graph, gen {k10} resources"),
        plan_input(k10)?,
        false,
    ));
    let opts = LayoutOptions::default();
    for (name, input, with_dot) in &graphs {
        let (t, l) = best_ms(3, now, || layout::layout(input, &opts));
        let m = l.metrics();
        let (dot_t, dot_c) = match dot.as_mut() {
            Some(run_dot) if *with_dot => {
                let (dt, plain) = run_dot(input)?;
                let dm = layout::measure_dot_plain(&plain, Direction::TopToBottom);
                (ms(dt), Some(dm.crossings))
            }
            _ => ("(not run)".to_string(), None),
        };
        w(format!(
            "| {name} | {} | {} | {} | {dot_t} | {} | {} | {} |",
            thousands(input.nodes.len() as u64),
            thousands(input.edges.len() as u64),
            ms(t),
            thousands(m.crossings),
            dot_c.map(thousands).unwrap_or_default(),
            dot_c
                .map(|d| format!("{:.2}x", m.crossings as f64 / d.max(1) as f64))
                .unwrap_or_default()
        ))?;
    }

    if let Some((name, text)) = wasm {
        let wt = parse_wasm_lines(&text);
        w("\n### wasm (headless Chromium) against native\n".into())?;
        w(
            "| resources | phase | native | wasm | wasm / native |\n|---:|---|---:|---:|---:|"
                .into(),
        )?;
        for (n, t) in &native {
            let Some(wt) = wt.get(n) else { continue };
            for (phase, nat) in [
                ("raw_parse", t.raw_parse),
                ("load", t.load),
                ("transforms", t.transforms),
                ("reduction", t.reduction),
                ("validate", t.validate),
                ("whole", t.whole),
            ] {
                if let Some(&x) = wt.get(phase) {
                    w(format!(
                        "| {} | {phase} | {} | {} | {:.2}x |",
                        thousands(*n as u64),
                        ms(nat),
                        ms(x),
                        x / nat
                    ))?;
                }
            }
        }
        if wt.is_empty() {
            w(format!("(no BENCH-WASM lines in {name})"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{GenOptions, generate};

    #[test]
    fn measures_every_phase_of_a_generated_configuration() {
        let files = generate(&GenOptions {
            resources: 60,
            modules: 2,
            seed: 3,
        });
        let mut tick = 0.0;
        let mut clock = || {
            tick += 1.0;
            tick
        };
        let t = measure_pipeline(&files, &mut clock).expect("measured");
        assert!(t.raw_parse > 0.0 && t.load > 0.0 && t.whole > 0.0);
        assert!(t.reduction >= 1.0 && t.transforms >= 1.0);
        assert!(t.vertices > 60 && t.edges > 60);
    }

    #[test]
    fn figures_print_as_the_tables_want_them() {
        assert_eq!(ms(3.06), "3.1 ms");
        assert_eq!(ms(42.4), "42 ms");
        assert_eq!(ms(1234.0), "1.23 s");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn wasm_lines_are_found_anywhere_in_a_line() {
        let text =
            "noise\nconsole.log: BENCH-WASM 1000 load=12.5 whole=30 bad=x\nBENCH-WASM x y=1\n";
        let w = parse_wasm_lines(text);
        assert_eq!(w.len(), 1);
        assert_eq!(w[&1000].get("load"), Some(&12.5));
        assert_eq!(w[&1000].get("whole"), Some(&30.0));
        assert_eq!(w[&1000].get("bad"), None);
    }

    /// The three tables with tiny sizes, a counting clock and a fake dot: every row is there
    /// and dot's figures appear only for the graphs it runs on.
    #[test]
    fn the_report_has_every_table_and_row() {
        let mut tick = 0.0;
        let mut now = || {
            tick += 1.0;
            tick
        };
        let mut dot_runs = 0;
        let mut dot = |_: &Input| {
            dot_runs += 1;
            Ok((5.0, "graph 1 1 1\nstop\n".to_string()))
        };
        let sizes = Sizes {
            pipeline: vec![(20, 2)],
            layout: (20, 30, 40),
        };
        let mut out = Vec::new();
        report(
            &sizes,
            Host {
                now: &mut now,
                dot: Some(&mut dot),
                wasm: Some(("w.txt".into(), "BENCH-WASM 20 load=3 whole=4\n".into())),
            },
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(dot_runs, 4, "dot runs on the small and middle graphs only");
        for row in [
            "| 20 | ",
            "| random_graph(20), modules | 20 | ",
            "| plan graph, gen 15 resources | ",
            "| uniform 40 vertices x 2 dependencies | 40 | 77 | ",
            "| plan graph, gen 40 resources | ",
            "| 20 | load | ",
            "| 20 | whole | ",
        ] {
            assert!(text.contains(row), "{row}\n{text}");
        }
        assert_eq!(text.matches("(not run)").count(), 3, "{text}");
    }
}

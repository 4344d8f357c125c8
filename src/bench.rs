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

/// The deep benchmark of issue 16: `n` vertices, vertex `i` depending on `deps` distinct vertices
/// chosen uniformly among the `window` before it (fewer for the first ones). Unlike the wide plan
/// graphs this is deep (about `n / 12` layers for a window of 60) with many long edges; at
/// `n = 10_000, deps = 2` it has 20,000 edges less three.
pub fn deep_graph(n: usize, window: usize, deps: usize, seed: u64) -> crate::dag::Graph<String> {
    let mut rng = crate::rng::SplitMix::new(seed ^ 0x6465_6570);
    let mut g = crate::dag::Graph::new();
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let id = g.add(format!("aws_instance.v{i}"));
        let lo = i.saturating_sub(window.max(1));
        for _ in 0..deps.min(i - lo) {
            let mut j = lo + rng.below(i - lo);
            while g.has_edge(id, ids[j]) {
                j = lo + rng.below(i - lo);
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
    /// also laid out by dot and ELK, the large one only by us. `None` leaves the table out.
    pub layout: Option<(usize, usize, usize)>,
    /// Seeds (1..=this) of the deep generated DAG ([`deep_graph`]) at the small and large sizes.
    pub deep_seeds: u64,
    /// Only the layout rows whose graph name contains this (empty: all).
    pub only: String,
}

impl Sizes {
    /// What README's figures come from.
    pub fn full() -> Self {
        Sizes {
            pipeline: vec![(1_000, 5), (10_000, 3)],
            layout: Some((1_000, 3_000, 10_000)),
            deep_seeds: 3,
            only: String::new(),
        }
    }

    /// Small sizes only: a smoke test of the benchmark itself (`--quick`).
    pub fn quick() -> Self {
        Sizes {
            pipeline: vec![(100, 3), (300, 3)],
            layout: Some((200, 400, 1_000)),
            deep_seeds: 2,
            only: String::new(),
        }
    }
}

/// Runs another layout program on an input: its layout time in milliseconds and its output
/// (`dot -Tplain` for Graphviz, `scripts/elk-layout.mjs`'s JSON for ELK).
pub type RunTool<'a> = &'a mut dyn FnMut(&Input) -> Result<(f64, String), String>;

/// What [`report`] needs from the machine it runs on.
pub struct Host<'a> {
    /// Milliseconds since any fixed origin.
    pub now: &'a mut dyn FnMut() -> f64,
    /// Graphviz; `None` skips dot.
    pub dot: Option<RunTool<'a>>,
    /// ELK (elkjs under Node.js); `None` skips it.
    pub elk: Option<RunTool<'a>>,
    /// `(name, text)` of a file with `BENCH-WASM` lines, to compare wasm with native.
    pub wasm: Option<(String, String)>,
    /// Plan graphs of real configurations (`(root folder, input)`), laid out by all three.
    pub realworld: Vec<(String, Input)>,
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

fn deep_input(n: usize, seed: u64) -> Input {
    let g = deep_graph(n, 60, 2, seed);
    Input::from_graph(&g, |_, v| layout::monospace_size(v), |_, _| Vec::new())
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

const LAYOUT_NOTE: &str = "Ours: best of 3, wall clock, default options (components packed). dot: one `dot -Tplain` run on the same graph (same box sizes, same nested clusters), wall clock. ELK: elkjs's layered algorithm under Node.js (`scripts/elk-layout.mjs`, clusters as compound nodes laid out as a whole), its layout call timed. Crossings counted the same way for all three: layers from vertex centres, edges as polylines (`Layout::metrics`, `layout::measure_dot_plain`, `layout::measure_elk`). Best = the fewer of dot's and ELK's.\n";
const LAYOUT_HEADER: &str = "| graph | vertices | edges | ours | dot | ELK | crossings ours | dot | ELK | ours / best |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

/// One line of the layout tables.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Row {
    pub vertices: usize,
    pub edges: usize,
    pub ours_ms: f64,
    pub ours: u64,
    /// `(ms, crossings)` of dot and ELK where they ran.
    pub dot: Option<(f64, u64)>,
    pub elk: Option<(f64, u64)>,
}

impl Row {
    fn add(&mut self, r: &Row) {
        let sum = |a: Option<(f64, u64)>, b: Option<(f64, u64)>, first: bool| match (a, b) {
            (Some(a), Some(b)) => Some((a.0 + b.0, a.1 + b.1)),
            (None, b) if first => b,
            _ => None,
        };
        let first = self.vertices == 0;
        self.vertices += r.vertices;
        self.edges += r.edges;
        self.ours_ms += r.ours_ms;
        self.ours += r.ours;
        self.dot = sum(self.dot, r.dot, first);
        self.elk = sum(self.elk, r.elk, first);
    }

    /// The fewer crossings of dot and ELK, where either ran.
    pub fn best(&self) -> Option<u64> {
        match (self.dot, self.elk) {
            (Some(d), Some(e)) => Some(d.1.min(e.1)),
            (Some(d), None) => Some(d.1),
            (None, Some(e)) => Some(e.1),
            (None, None) => None,
        }
    }

    fn line(&self, name: &str) -> String {
        let t = |x: Option<(f64, u64)>| x.map_or("(not run)".to_string(), |x| ms(x.0));
        let c = |x: Option<(f64, u64)>| x.map(|x| thousands(x.1)).unwrap_or_default();
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            thousands(self.vertices as u64),
            thousands(self.edges as u64),
            ms(self.ours_ms),
            t(self.dot),
            t(self.elk),
            thousands(self.ours),
            c(self.dot),
            c(self.elk),
            self.best()
                .map(|b| format!("{:.2}x", self.ours as f64 / b.max(1) as f64))
                .unwrap_or_default()
        )
    }
}

/// Lays `input` out with ours (best of 3) and, with `others`, dot and ELK where present.
fn compare(
    input: &Input,
    others: bool,
    now: &mut dyn FnMut() -> f64,
    dot: &mut Option<RunTool<'_>>,
    elk: &mut Option<RunTool<'_>>,
) -> Result<Row, String> {
    let opts = LayoutOptions::default();
    let (t, l) = best_ms(3, now, || layout::layout(input, &opts));
    let mut row = Row {
        vertices: input.nodes.len(),
        edges: input.edges.len(),
        ours_ms: t,
        ours: l.metrics().crossings,
        ..Default::default()
    };
    if others {
        if let Some(run) = dot.as_mut() {
            let (dt, plain) = run(input)?;
            row.dot = Some((
                dt,
                layout::measure_dot_plain(&plain, Direction::TopToBottom).crossings,
            ));
        }
        if let Some(run) = elk.as_mut() {
            let (et, text) = run(input)?;
            row.elk = Some((
                et,
                layout::measure_elk(&text, Direction::TopToBottom)?.crossings,
            ));
        }
    }
    Ok(row)
}

/// `tfgraph bench`: the pipeline table, the layout table against dot and, with wasm figures,
/// the wasm against native table, as Markdown written to `out` row by row (a full run takes
/// minutes).
pub fn report(sizes: &Sizes, host: Host<'_>, out: &mut dyn std::io::Write) -> Result<(), String> {
    let Host {
        now,
        mut dot,
        mut elk,
        wasm,
        realworld,
    } = host;
    let mut w = |s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    if !sizes.pipeline.is_empty() {
        w(
            "### Pipeline (plan graph of `tfgraph gen --resources N --modules N/100 --seed 1`)\n"
                .into(),
        )?;
        w("Best of several runs, wall clock. Load includes the loader's own parse.\n".into())?;
        w("| resources | vertices | edges | text | raw hcl-rs parse (floor) | load (parse + decode) | transforms | transitive reduction | validate | whole pipeline | whole / floor |".into())?;
        w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|".into())?;
    }
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

    if let Some((k1, k3, k10)) = sizes.layout {
        // (name, what makes the input (graph kind, size, seed), whether dot and ELK run on it)
        #[derive(Clone, Copy)]
        enum Kind {
            Deep(u64),
            Random,
            Plan,
            Uniform,
        }
        let mut graphs: Vec<(String, Kind, usize, bool)> = Vec::new();
        for seed in 1..=sizes.deep_seeds {
            graphs.push((
                format!("deep({k1}), seed {seed}"),
                Kind::Deep(seed),
                k1,
                true,
            ));
        }
        for k in [k1, k3] {
            graphs.push((format!("random_graph({k}), modules"), Kind::Random, k, true));
        }
        // Generated configurations whose plan graphs have about k1 and k3 vertices.
        for res in [k1 * 3 / 4, k3 * 3 / 4] {
            graphs.push((
                format!("plan graph, gen {res} resources"),
                Kind::Plan,
                res,
                true,
            ));
        }
        for seed in 1..=sizes.deep_seeds {
            graphs.push((
                format!("deep({k10}), seed {seed}"),
                Kind::Deep(seed),
                k10,
                false,
            ));
        }
        graphs.push((
            format!("random_graph({k10}), modules"),
            Kind::Random,
            k10,
            false,
        ));
        graphs.push((
            format!("uniform {k10} vertices x 2 dependencies"),
            Kind::Uniform,
            k10,
            false,
        ));
        graphs.push((
            format!("plan graph, gen {k10} resources"),
            Kind::Plan,
            k10,
            false,
        ));
        w("\n### Layout against Graphviz dot and ELK\n".into())?;
        w(LAYOUT_NOTE.into())?;
        w(LAYOUT_HEADER.into())?;
        for (name, kind, n, others) in graphs.iter().filter(|g| g.0.contains(&sizes.only)) {
            let input = match *kind {
                Kind::Deep(seed) => deep_input(*n, seed),
                Kind::Random => random_input(*n),
                Kind::Plan => plan_input(*n)?,
                Kind::Uniform => uniform_input(*n),
            };
            let row = compare(&input, *others, now, &mut dot, &mut elk)?;
            w(row.line(name))?;
        }
    }
    if !realworld.is_empty() {
        w("\n### Plan graphs of real configurations\n".into())?;
        w(LAYOUT_NOTE.into())?;
        w(LAYOUT_HEADER.into())?;
        let mut total = Row::default();
        for (name, input) in realworld.iter().filter(|g| g.0.contains(&sizes.only)) {
            let row = compare(input, true, now, &mut dot, &mut elk)?;
            w(row.line(name))?;
            total.add(&row);
        }
        w(total.line("**total**"))?;
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

    /// Every table with tiny sizes, a counting clock and fake dot and ELK: every row is there
    /// and their figures appear only for the graphs they run on.
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
        let mut elk_runs = 0;
        let mut elk = |_: &Input| {
            elk_runs += 1;
            Ok((7.0, r#"{"nodes": [], "edges": []}"#.to_string()))
        };
        let sizes = Sizes {
            pipeline: vec![(20, 2)],
            layout: Some((20, 30, 40)),
            deep_seeds: 2,
            only: String::new(),
        };
        let mut out = Vec::new();
        report(
            &sizes,
            Host {
                now: &mut now,
                dot: Some(&mut dot),
                elk: Some(&mut elk),
                wasm: Some(("w.txt".into(), "BENCH-WASM 20 load=3 whole=4\n".into())),
                realworld: vec![("a/b".into(), deep_input(10, 1))],
            },
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            (dot_runs, elk_runs),
            (7, 7),
            "dot and ELK run on the small and middle graphs and the real ones only"
        );
        for row in [
            "| 20 | ",
            "| deep(20), seed 1 | 20 | 37 | ",
            "| deep(20), seed 2 | 20 | 37 | ",
            "| deep(40), seed 2 | 40 | 77 | ",
            "| random_graph(20), modules | 20 | ",
            "| plan graph, gen 15 resources | ",
            "| uniform 40 vertices x 2 dependencies | 40 | 77 | ",
            "| plan graph, gen 40 resources | ",
            "| a/b | 10 | 17 | ",
            "| **total** | 10 | 17 | ",
            "| 20 | load | ",
            "| 20 | whole | ",
        ] {
            assert!(text.contains(row), "{row}\n{text}");
        }
        assert_eq!(text.matches("(not run)").count(), 10, "{text}");
    }

    #[test]
    fn deep_graphs_depend_within_the_window() {
        let g = deep_graph(500, 60, 2, 7);
        assert_eq!(g.edge_count(), 2 * 500 - 3);
        let index = |v: &String| -> usize { v.rsplit('v').next().unwrap().parse().unwrap() };
        for (a, b) in g.edges() {
            let (i, j) = (index(g.vertex(a).unwrap()), index(g.vertex(b).unwrap()));
            assert!(j < i && i - j <= 60, "{i} -> {j}");
        }
        assert_eq!(
            deep_graph(500, 60, 2, 7).edges(),
            g.edges(),
            "deterministic"
        );
    }
}

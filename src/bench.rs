//! Phase-by-phase timing of the pipeline, the same code natively (`tfgraph bench`) and in wasm
//! (`tests/bench_wasm.rs`, headless Chromium). The clock is passed in (milliseconds, any origin:
//! `Instant` natively, `performance.now()` in the browser), so nothing here needs std::time,
//! which wasm32-unknown-unknown lacks.
//!
//! Phases: the raw hcl-rs parse of every file (the floor), the configuration loader (its own
//! parse plus decoding into the crate's model), the plan builder's transforms without step
//! recording, its transitive reduction, and the final validation (one root, no cycles); then the
//! whole [`crate::pipeline::run`] as the CLI and the app call it (with step recording).

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
    let mut rng = crate::layout::SplitMix::new(seed);
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
}

//! The async walker on the instant driver over an arbitrary graph (a DAG, or with cycles when
//! asked), arbitrary durations (zero, huge, a durations file, NaN or infinite jitter), parallelism
//! 0..=255, injected failures and expansion into instances. The log must obey the walk's rules.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::time::Duration;
use tfgraph::dag::Graph;
use tfgraph::walk::{DurationModel, Scenario, VertexRef, WalkOptions};

#[derive(Debug, Arbitrary)]
enum Name {
    /// `aws_instance.v<i>`-style names, classified as resources.
    Resource(u8),
    Data(u8),
    Provider(u8),
    Module(u8),
    Any(String),
}

#[derive(Debug, Arbitrary)]
struct V {
    name: Name,
    /// Exact duration in nanoseconds (any u64, huge included).
    nanos: Option<u64>,
    /// Fails with this message.
    fail: Option<String>,
    /// Expands into this many instances (mod 9); instance `k` fails when bit k of the mask is set.
    expand: Option<(u8, u8)>,
}

#[derive(Debug, Arbitrary)]
struct Case {
    vertices: Vec<V>,
    /// `(from, to)`: from depends on to. Without `cycles`, only edges to an earlier vertex are kept.
    edges: Vec<(u8, u8)>,
    cycles: bool,
    parallelism: u8,
    reverse: bool,
    jitter: f64,
    seed: u64,
    uniform_secs: Option<u64>,
    durations_file: Option<String>,
}

fn name(n: &Name) -> String {
    match n {
        Name::Resource(i) => format!("aws_instance.v{i}"),
        Name::Data(i) => format!("data.aws_ami.v{i}"),
        Name::Provider(i) => format!("provider[\"registry.opentofu.org/hashicorp/p{i}\"]"),
        Name::Module(i) => format!("module.m{i} (expand)"),
        Name::Any(s) => s.clone(),
    }
}

fuzz_target!(|case: Case| {
    let mut g = Graph::new();
    let names: Vec<String> = case.vertices.iter().map(|v| name(&v.name)).collect();
    let ids: Vec<_> = names.iter().map(|n| g.add(n.clone())).collect();
    if !ids.is_empty() {
        for &(a, b) in &case.edges {
            let (a, b) = (usize::from(a) % ids.len(), usize::from(b) % ids.len());
            if case.cycles || b < a {
                g.connect(ids[a], ids[b]);
            }
        }
    }
    let mut durations = DurationModel::table()
        .with_seed(case.seed)
        .with_jitter(case.jitter);
    durations.uniform = case.uniform_secs.map(Duration::from_secs);
    if let Some(f) = &case.durations_file
        && let Ok(d) = durations.clone().with_file(f)
    {
        durations = d;
    }
    let mut failing = BTreeMap::new();
    let mut expansions = BTreeMap::new();
    for (v, n) in case.vertices.iter().zip(&names) {
        if let Some(ns) = v.nanos {
            durations
                .overrides
                .insert(n.clone(), Duration::from_nanos(ns));
        }
        if let Some(m) = &v.fail {
            failing.insert(n.clone(), m.clone());
        }
        if let Some((k, mask)) = v.expand {
            let k = usize::from(k % 9);
            for i in 0..k {
                if mask & (1 << i) != 0 {
                    failing.insert(format!("{n}[{i}]"), format!("instance {i} failed"));
                }
            }
            expansions.insert(n.clone(), k);
        }
    }
    let mut scenario = Scenario::new(durations);
    scenario.failures = failing.clone();
    let scenario = scenario.with_expander(move |v: &VertexRef| {
        if v.parent.is_some() {
            return None;
        }
        let k = *expansions.get(&v.name)?;
        let mut sub = Graph::new();
        let mut prev = None;
        for i in 0..k {
            let id = sub.add(format!("{}[{i}]", v.name));
            // Every other instance depends on the one before it.
            if let Some(p) = prev.filter(|_| i % 2 == 1) {
                sub.connect(id, p);
            }
            prev = Some(id);
        }
        Some(sub)
    });
    let opts = WalkOptions {
        parallelism: usize::from(case.parallelism),
        reverse: case.reverse,
    };
    tfgraph_fuzz::check_walk(&g, &opts, scenario, &failing);
});

//! The simulated walk in wasm32 (no threads): both drivers finish a walk with the expected log.
//! Run with `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test
//! --target wasm32-unknown-unknown --test walk_wasm` (runs in Node.js; no browser needed).
#![cfg(target_arch = "wasm32")]

use std::time::Duration;
use tfgraph::dag::Graph;
use tfgraph::dag::import::DotVertexRead;
use tfgraph::walk::{
    DurationModel, Scenario, Stepper, Transition, VertexRef, Walk, WalkOptions, simulate,
};
use wasm_bindgen_test::*;

/// A provider, a slow resource, an expanding resource and an output, by name as a DOT file gives
/// them.
fn graph() -> Graph<DotVertexRead> {
    let mut g = Graph::new();
    let p = g.add(DotVertexRead::named(
        "provider[\"registry.opentofu.org/hashicorp/aws\"]",
    ));
    let db = g.add(DotVertexRead::named("aws_db_instance.main"));
    let web = g.add(DotVertexRead::named("aws_instance.web (expand)"));
    let out = g.add(DotVertexRead::named("output.url"));
    g.connect(db, p);
    g.connect(web, p);
    g.connect(web, db);
    g.connect(out, web);
    g
}

fn scenario() -> Scenario {
    Scenario::new(DurationModel::default().with_seed(42)).with_expander(|v: &VertexRef| {
        let base = v.name.strip_suffix(" (expand)")?;
        let mut sub = Graph::new();
        for i in 0..3 {
            sub.add(format!("{base}[{i}]"));
        }
        Some(sub)
    })
}

#[wasm_bindgen_test]
fn instant_and_stepped_drivers_agree() {
    let opts = WalkOptions::with_parallelism(2);
    let instant = simulate(&graph(), &opts, scenario());
    assert!(instant.is_complete());
    assert!(instant.tasks.iter().all(|t| t.status == Transition::Done));
    assert!(instant.makespan() > Duration::from_secs(500));

    let mut stepper = Stepper::new();
    stepper.set_speed(120.0);
    let walk = Walk::start(stepper.executor(), &graph(), &opts, scenario());
    let mut frames = 0;
    while !walk.is_finished() && frames < 100_000 {
        stepper.advance_by(Duration::from_millis(16));
        frames += 1;
    }
    assert_eq!(walk.result(), instant);
}

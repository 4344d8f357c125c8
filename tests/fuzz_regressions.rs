//! Every input under `fuzz/regressions/TARGET/` (inputs that once crashed or hung a fuzz target)
//! replayed natively through that target's checks, without a fuzzer: the same `TARGET::run` that
//! `fuzz/fuzz_targets/TARGET.rs` hands libFuzzer's bytes to. A fixed crash cannot come back
//! unnoticed, and `scripts/test` needs no nightly tools for it.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
#[path = "../fuzz/src/lib.rs"]
mod tfgraph_fuzz;

use std::path::Path;

/// A fuzz target's checks: libFuzzer's bytes in, a panic when a check fails.
type Checks = fn(&[u8]);

/// Each fuzz target by the name of its `[[bin]]` in `fuzz/Cargo.toml`.
const TARGETS: &[(&str, Checks)] = &[
    ("config_plan", tfgraph_fuzz::config_plan::run),
    ("config_apply", tfgraph_fuzz::config_apply::run),
    ("config_validate", tfgraph_fuzz::config_validate::run),
    (
        "config_plan_destroy",
        tfgraph_fuzz::config_plan_destroy::run,
    ),
    (
        "config_plan_refresh_only",
        tfgraph_fuzz::config_plan_refresh_only::run,
    ),
    ("state_json", tfgraph_fuzz::state_json::run),
    ("plan_json", tfgraph_fuzz::plan_json::run),
    ("schemas_json", tfgraph_fuzz::schemas_json::run),
    ("var_files", tfgraph_fuzz::var_files::run),
    ("module_manifest", tfgraph_fuzz::module_manifest::run),
    ("dot_import", tfgraph_fuzz::dot_import::run),
    ("dot_layout", tfgraph_fuzz::dot_layout::run),
    ("layout_graph", tfgraph_fuzz::layout_graph::run),
    ("walk", tfgraph_fuzz::walk::run),
    ("share_link", tfgraph_fuzz::share_link::run),
    ("saved_data", tfgraph_fuzz::saved_data::run),
    ("restore_round_trip", tfgraph_fuzz::restore_round_trip::run),
];

fn fuzz_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz"))
}

fn target(name: &str) -> Checks {
    TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("fuzz/regressions/{name}: no such fuzz target"))
        .1
}

#[test]
fn every_regression_input_passes_its_targets_checks() {
    let mut replayed = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(fuzz_dir().join("regressions"))
        .expect("fuzz/regressions")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let run = target(&name);
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .expect("target folder")
            .map(|e| e.expect("entry").path())
            .collect();
        inputs.sort();
        for input in inputs {
            let bytes = std::fs::read(&input).expect("input");
            let outcome = std::panic::catch_unwind(|| run(&bytes));
            assert!(outcome.is_ok(), "{} fails {name}'s checks", input.display());
            replayed += 1;
        }
    }
    // The inputs kept so far: the configuration explosions and the DOT nesting depths.
    assert!(replayed >= 13, "only {replayed} regression inputs found");
}

/// The list above and `fuzz/Cargo.toml` name the same targets, and each has its entry file.
#[test]
fn every_fuzz_target_is_replayed_here() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("Cargo.toml");
    let mut declared: Vec<&str> = manifest
        .lines()
        .skip_while(|l| !l.starts_with("[[bin]]"))
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .collect();
    declared.sort();
    let mut here: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
    here.sort();
    assert_eq!(declared, here);
    for n in here {
        let entry = fuzz_dir().join("fuzz_targets").join(format!("{n}.rs"));
        let text = std::fs::read_to_string(&entry).expect("entry file");
        assert!(
            text.contains(&format!("tfgraph_fuzz::{n}::run(data)")),
            "{} does not hand its bytes to {n}::run",
            entry.display()
        );
    }
}

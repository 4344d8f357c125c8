//! OpenTofu's graph builders: configuration, state and planned changes in, a dependency graph out,
//! built by ordered, named transforms whose effects are recorded step by step.
//!
//! The inputs are the crate's own types: the configuration tree of [`crate::config`] (whose
//! reference analysis, [`crate::config::refs`], the vertices use), addresses from
//! [`crate::addrs`], state from [`crate::state`], planned changes from [`crate::plan`] and
//! provider schemas from [`crate::schema`]. Layout: [`nodes`] (vertex types), [`graph`] (the
//! graph and step recording), one `transform_*` module per OpenTofu transform file, and
//! [`builders`] (the ordered transform lists), [`why`] (why each edge exists: the transform
//! that added it and the references that caused it), [`why_paths`] (the paths by which one
//! vertex waits for another, for `tfgraph why`).
//!
//! Use: [`build_from_files`] (files → crate loader → graph), or [`inputs_from_crate`] with the
//! crate's config/state/plan/schema readers and then [`build`] with a [`BuilderKind`]. The result
//! ([`Built`]) holds the graph (a [`crate::dag::Graph`] of [`Node`]s inside [`Graph`]), one
//! [`Step`] per transform (vertices and edges added and removed) and error diagnostics
//! ([`crate::config::Diagnostic`]s, with the source range of the block concerned where there is
//! one).
//! Transforms are plain structs implementing [`Transform`], so any of them can run on its own.
//!
//! Fidelity: vertex names, edges and the transform order follow OpenTofu v1.12.6 (all 54 graph
//! conformance cases). Two opt-in or edge-case departures are documented where they live:
//! [`Inputs::read_bodies_without_schema`] and references to outputs of unreadable modules.

pub mod builders;
pub mod graph;
#[cfg(test)]
mod kinds_check;
pub mod nodes;
pub mod operation;
#[cfg(test)]
mod steps_check;
pub mod transform;
pub mod transform_attach_schema;
pub mod transform_check;
pub mod transform_closeable_resource;
pub mod transform_config;
pub mod transform_destroy_cbd;
pub mod transform_destroy_edge;
pub mod transform_diff;
pub mod transform_local;
pub mod transform_module_expansion;
pub mod transform_output;
pub mod transform_provider;
pub mod transform_reference;
pub mod transform_root;
pub mod transform_state;
pub mod transform_targets;
pub mod transform_variable;
pub mod why;
pub mod why_paths;

pub use builders::{
    BuilderKind, Built, Runner, apply_steps, build, plan_steps, run_steps, steps, validate_built,
};
pub use graph::{Graph, Record, Step, StepName, VId};
pub use nodes::Node;
pub use transform::{Diagnostics, Inputs, Operation, Transform, inputs_from_crate};
pub use why::{EdgeWhy, RefSite, describe};

/// Loads `files` (relative path → contents) with the crate's configuration loader and builds the
/// graph of `kind`. Returns the build (when the configuration loaded without errors) and the
/// loader's diagnostics. Without provider schemas, set `read_bodies_without_schema` to have
/// resource and provider bodies analysed in full (OpenTofu itself would need the schemas).
pub fn build_from_files(
    files: &std::collections::BTreeMap<String, String>,
    kind: BuilderKind,
    read_bodies_without_schema: bool,
) -> (Option<Built>, Vec<crate::config::Diagnostic>) {
    let (cfg, diags) = crate::config::load_files(files);
    if crate::config::has_errors(&diags) {
        return (None, diags);
    }
    let Some(cfg) = cfg else { return (None, diags) };
    let mut inputs = inputs_from_crate(Some(&cfg), None, None, None);
    inputs.read_bodies_without_schema = read_bodies_without_schema;
    (Some(build(&inputs, kind)), diags)
}

/// The configuration of `files` (path → contents) through the crate's loader, for unit tests.
#[cfg(test)]
pub(crate) fn test_config(files: &[(&str, &str)]) -> crate::config::Config {
    let files: std::collections::BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let (cfg, diags) = crate::config::load_files(&files);
    assert!(!crate::config::has_errors(&diags), "{diags:?}");
    cfg.expect("configuration")
}

/// Inputs for behaviour tests: configuration files, and optionally a state (format 4 JSON), planned
/// changes (the conformance `changes` list as JSON) and provider schemas
/// (`tofu providers schema -json`).
#[cfg(test)]
pub(crate) fn test_inputs(
    files: &[(&str, &str)],
    state: Option<&str>,
    changes: Option<&str>,
    schemas: Option<&str>,
) -> Inputs {
    Inputs {
        config: Some(test_config(files)),
        state: state.map(|s| crate::state::parse_state_json(s).expect("state")),
        changes: changes.map(|c| {
            let v: serde_json::Value = serde_json::from_str(c).expect("changes JSON");
            crate::plan::changes_from_conformance(&v).expect("changes")
        }),
        schemas: schemas.map(|s| crate::schema::parse_schemas_json(s).expect("schemas")),
        ..Default::default()
    }
}

/// OpenTofu's `simpleTestSchema` for provider `hashicorp/test` (provider configuration, managed,
/// data and ephemeral `test_object`), as the tests' `simpleMockPluginLibrary` gives it.
#[cfg(test)]
pub(crate) const TEST_SCHEMAS: &str = r#"{"format_version": "1.0", "provider_schemas": {
  "registry.opentofu.org/hashicorp/test": {
    "provider": {"version": 0, "block": SIMPLE},
    "resource_schemas": {"test_object": {"version": 0, "block": SIMPLE}},
    "data_source_schemas": {"test_object": {"version": 0, "block": SIMPLE}},
    "ephemeral_resource_schemas": {"test_object": {"version": 0, "block": SIMPLE}}}}}"#;

/// [`TEST_SCHEMAS`] with its blocks filled in.
#[cfg(test)]
pub(crate) fn test_schemas() -> String {
    let simple = r#"{"attributes": {"test_string": {"type": "string", "optional": true},
      "test_number": {"type": "number", "optional": true},
      "test_bool": {"type": "bool", "optional": true},
      "test_list": {"type": ["list", "string"], "optional": true},
      "test_map": {"type": ["map", "string"], "optional": true}},
      "description_kind": "plain"}"#;
    TEST_SCHEMAS.replace("SIMPLE", simple)
}

/// A state (format 4) of managed `test_object` resources in the root module: `(name, instances)`
/// where each instance is the JSON of one `instances` entry.
#[cfg(test)]
pub(crate) fn test_state(resources: &[(&str, &str)]) -> String {
    let rs: Vec<String> = resources
        .iter()
        .map(|(name, instances)| {
            format!(
                r#"{{"mode": "managed", "type": "test_object", "name": "{name}",
                 "provider": "provider[\"registry.opentofu.org/hashicorp/test\"]",
                 "instances": {instances}}}"#
            )
        })
        .collect();
    format!(r#"{{"version": 4, "resources": [{}]}}"#, rs.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_from_files_through_the_crate_loader() {
        let mut files = std::collections::BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "variable \"n\" {}\nresource \"null_resource\" \"x\" { count = var.n }\n".to_string(),
        );
        let (built, diags) = build_from_files(&files, BuilderKind::Plan, false);
        assert!(diags.is_empty(), "{diags:?}");
        let built = built.expect("built");
        assert!(built.graph.string().contains("null_resource.x (expand)\n  provider[\"registry.opentofu.org/hashicorp/null\"]\n  var.n (expand, reference)\n"), "{}", built.graph.string());
        let mut bad = std::collections::BTreeMap::new();
        bad.insert("main.tf".to_string(), "resource \"x\" {".to_string());
        let (built, diags) = build_from_files(&bad, BuilderKind::Plan, false);
        assert!(built.is_none() && !diags.is_empty());
    }
}

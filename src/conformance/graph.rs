//! Runner for the `graph/` conformance cases: builds the case's graph with the named builder or
//! transform list and checks it (`exact`, `edges`, `regex`) as the conformance README describes.

use super::strict::{keys, opt_array, opt_bool, opt_str, opt_strings, req_str};
use super::{Outcome, read_json};
use crate::addrs::{ResourceMode, Targetable, parse_abs_resource_instance};
use crate::builder::graph::{Graph, VId};
use crate::builder::nodes::{InstanceKind, Node, ProviderKind, ResourceKind};
use crate::builder::transform::{Inputs, Operation, Transform};
use crate::builder::transform_attach_schema::AttachSchemaTransformer;
use crate::builder::transform_check::{CheckStartTransformer, CheckTransformer};
use crate::builder::transform_config::{AttachResourceConfigTransformer, ConfigTransformer};
use crate::builder::transform_destroy_cbd::{CBDEdgeTransformer, ForcedCBDTransformer};
use crate::builder::transform_destroy_edge::{DestroyEdgeTransformer, PruneUnusedNodesTransformer};
use crate::builder::transform_diff::DiffTransformer;
use crate::builder::transform_local::LocalTransformer;
use crate::builder::transform_module_expansion::ModuleExpansionTransformer;
use crate::builder::transform_output::OutputTransformer;
use crate::builder::transform_provider::*;
use crate::builder::transform_reference::*;
use crate::builder::transform_root::*;
use crate::builder::transform_state::*;
use crate::builder::transform_targets::TargetingTransformer;
use crate::builder::transform_variable::{ModuleVariableTransformer, RootVariableTransformer};
use crate::builder::{BuilderKind, apply_steps, plan_steps, run_steps};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Runs one `graph` case: configuration, state, changes and schemas read by the crate's readers.
pub fn run_case(path: &Path) -> Outcome {
    match run(path) {
        Ok(o) => o,
        Err(e) => Outcome::Fail(e),
    }
}

fn read_dir_files(
    dir: &Path,
    prefix: &str,
    out: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let p = e.path();
        if p.is_dir() {
            read_dir_files(&p, &rel, out)?;
        } else {
            let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            out.insert(rel, text);
        }
    }
    Ok(())
}

/// The `-target`-style addresses listed at `key`.
fn targetables(o: &Value, key: &str) -> Result<Vec<Targetable>, String> {
    opt_strings(o, key, "case")?
        .iter()
        .map(|t| Targetable::parse(t))
        .collect()
}

/// The fields a graph case may have.
const CASE_FIELDS: &[&str] = &[
    "origin",
    "builder",
    "transforms",
    "transform_options",
    "transforms_source",
    "operation",
    "changes",
    "targets",
    "excludes",
    "check",
    "expected_regex",
    "edges",
    "vertices",
    "vertex_count",
    "post_filter",
    "notes",
    "schemas_attached",
];

/// The fields a planned change may have (the corpus README's `changes[]`).
const CHANGE_FIELDS: &[&str] = &[
    "addr",
    "action",
    "provider",
    "prev_run_addr",
    "action_reason",
    "deposed",
    "before",
    "after",
];

/// Everything about a case that is not its inputs, checked before anything runs.
fn check_case_shape(case: &Value) -> Result<(), String> {
    keys(case, "case", CASE_FIELDS)?;
    for c in opt_array(case, "changes", "case")? {
        keys(c, "change", CHANGE_FIELDS)?;
    }
    for e in opt_array(case, "edges", "case")? {
        keys(e, "edge", &["from", "to", "present", "transitive"])?;
        req_str(e, "from", "edge")?;
        req_str(e, "to", "edge")?;
        opt_bool(e, "present", "edge")?;
        opt_bool(e, "transitive", "edge")?;
    }
    for v in opt_array(case, "vertices", "case")? {
        keys(v, "vertex", &["name", "present", "count"])?;
        req_str(v, "name", "vertex")?;
        opt_bool(v, "present", "vertex")?;
        if v.get("count").is_some_and(|c| !c.is_u64()) {
            return Err(format!("vertex: count is not a number: {v}"));
        }
    }
    if case.get("vertex_count").is_some_and(|c| !c.is_u64()) {
        return Err("vertex_count is not a number".to_string());
    }
    opt_bool(case, "schemas_attached", "case")?;
    match opt_str(case, "post_filter", "case")? {
        None | Some("resource_instances") => {}
        Some(other) => return Err(format!("unknown post_filter {other:?}")),
    }
    let check = opt_str(case, "check", "case")?.unwrap_or("exact");
    match check {
        "exact" | "edges" => {}
        "regex" => match opt_str(case, "expected_regex", "case")? {
            Some(p) if !p.trim().is_empty() => {}
            _ => return Err("a regex case without a pattern (expected_regex)".to_string()),
        },
        other => return Err(format!("unknown check {other:?}")),
    }
    if check != "regex" && case.get("expected_regex").is_some() {
        return Err(format!("expected_regex in a {check:?} case"));
    }
    if check != "edges"
        && ["edges", "vertices", "vertex_count"]
            .iter()
            .any(|k| case.get(*k).is_some())
    {
        return Err(format!("edge or vertex expectations in a {check:?} case"));
    }
    Ok(())
}

/// The graph a case builds (after its post filter), for checks over the whole corpus; `None` for
/// a case that does not build one.
pub fn case_graph(path: &Path) -> Option<Graph> {
    let case = read_json(&path.join("case.json")).ok()?;
    check_case_shape(&case).ok()?;
    build_case(path, &case).ok()?.ok()
}

fn run(path: &Path) -> Result<Outcome, String> {
    let case = read_json(&path.join("case.json"))?;
    check_case_shape(&case)?;
    let g = match build_case(path, &case)? {
        Ok(g) => g,
        Err(fail) => return Ok(Outcome::Fail(fail)),
    };
    let actual = g.string();
    let actual = actual.trim();
    match opt_str(&case, "check", "case")?.unwrap_or("exact") {
        "exact" => {
            let expected =
                std::fs::read_to_string(path.join("expected.txt")).map_err(|e| e.to_string())?;
            let expected = expected.trim();
            if expected == actual {
                Ok(Outcome::Pass)
            } else {
                Ok(Outcome::Fail(first_difference(expected, actual)))
            }
        }
        "regex" => {
            let re_s = req_str(&case, "expected_regex", "case")?.trim();
            let re = regex::Regex::new(re_s).map_err(|e| e.to_string())?;
            if re.is_match(actual) {
                Ok(Outcome::Pass)
            } else {
                Ok(Outcome::Fail(format!(
                    "graph does not match {re_s:?}:\n{actual}"
                )))
            }
        }
        "edges" => Ok(check_edges(&case, &g)),
        other => Err(format!("unknown check {other:?}")),
    }
}

/// Builds the case's graph: `Ok(Err(message))` when the case fails (configuration errors, build
/// diagnostics), `Err` when the case itself is malformed.
fn build_case(path: &Path, case: &Value) -> Result<Result<Graph, String>, String> {
    let case = case.clone();
    let mut inputs = Inputs::default();
    let config_dir = path.join("config");
    if config_dir.is_dir() {
        let mut files = BTreeMap::new();
        read_dir_files(&config_dir, "", &mut files)?;
        let (cfg, diags) = crate::config::load_files(&files);
        let errors: Vec<String> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.to_string())
            .collect();
        if !errors.is_empty() {
            return Ok(Err(format!("configuration errors: {}", errors.join("; "))));
        }
        inputs.config = Some(cfg.ok_or("configuration did not load")?);
    }
    let read = |name: &str| std::fs::read_to_string(path.join(name)).map_err(|e| e.to_string());
    if path.join("state.json").is_file() {
        let st = crate::state::parse_state_json(&read("state.json")?).map_err(|d| d.to_string())?;
        inputs.state = Some(st);
    }
    if let Some(c) = case.get("changes") {
        inputs.changes = Some(crate::plan::changes_from_conformance(c).map_err(|d| d.to_string())?);
    }
    let schemas_attached = opt_bool(&case, "schemas_attached", "case")?.unwrap_or(false);
    if schemas_attached {
        if !path.join("schemas.json").is_file() {
            return Err("schemas_attached without a schemas.json".to_string());
        }
        let sc =
            crate::schema::parse_schemas_json(&read("schemas.json")?).map_err(|d| d.to_string())?;
        inputs.schemas = Some(sc);
    }
    inputs.targets = targetables(&case, "targets")?;
    inputs.excludes = targetables(&case, "excludes")?;
    let operation = match opt_str(&case, "operation", "case")? {
        None => None,
        Some(o) => Some(Operation::from_go(o).ok_or_else(|| format!("unknown operation {o:?}"))?),
    };

    let builder = req_str(&case, "builder", "case")?;
    if builder != "transforms"
        && ["transforms", "transform_options", "transforms_source"]
            .iter()
            .any(|k| case.get(*k).is_some())
    {
        return Err(format!("transform lists in a {builder:?} case"));
    }
    let built = match builder {
        "plan" => {
            // PlanGraphBuilder.Steps() panics for operations it has no init for.
            let kind = match operation.unwrap_or(Operation::Plan) {
                Operation::Plan => BuilderKind::Plan,
                Operation::PlanDestroy => BuilderKind::PlanDestroy,
                Operation::Validate => BuilderKind::Validate,
                other => return Err(format!("a plan case with operation {other:?}")),
            };
            run_steps(&plan_steps(&inputs, kind))
        }
        "apply" => run_steps(&apply_steps(
            &inputs,
            operation.unwrap_or(Operation::Invalid),
        )),
        "transforms" => {
            let operation = operation.unwrap_or(Operation::Invalid);
            let steps = match opt_str(&case, "transforms_source", "case")? {
                Some(src) => {
                    if !src.starts_with("ApplyGraphBuilder.Steps()") {
                        return Err(format!("unknown transforms_source {src:?}"));
                    }
                    if case.get("transform_options").is_some() {
                        return Err("transforms_source and transform_options together".into());
                    }
                    apply_prefix_steps(&case, &inputs, operation)?
                }
                None => transforms_from_case(&case, &inputs)?,
            };
            run_steps(&steps)
        }
        other => return Err(format!("unknown builder {other:?}")),
    };
    if !built.diagnostics.is_empty() {
        return Ok(Err(format!(
            "build failed: {}",
            built
                .diagnostics
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    let mut g = built.graph;
    if opt_str(&case, "post_filter", "case")? == Some("resource_instances") {
        filter_instances(&mut g);
    }
    Ok(Ok(g))
}

/// `ApplyGraphBuilder.Steps()` (configured by the case) cut after the last of its transforms the
/// case lists, followed by the case's remaining transforms with zero-value options.
fn apply_prefix_steps<'a>(
    case: &Value,
    inputs: &'a Inputs,
    operation: Operation,
) -> Result<Vec<Box<dyn Transform + 'a>>, String> {
    let names = opt_strings(case, "transforms", "case")?;
    let mut steps = apply_steps(inputs, operation);
    // Keep the builder's steps while they line up with the case's list.
    let mut keep = 0;
    while keep < steps.len() && keep < names.len() && steps[keep].name() == names[keep] {
        keep += 1;
    }
    steps.truncate(keep);
    let zero = Value::Object(Default::default());
    for name in &names[keep..] {
        steps.push(transform(name, &zero, inputs)?);
    }
    Ok(steps)
}

/// A short line-oriented difference: the first differing line with a little context.
fn first_difference(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let i = e.iter().zip(a.iter()).take_while(|(x, y)| x == y).count();
    let mut s = format!("first difference at line {}:\n", i + 1);
    for l in e.iter().skip(i).take(4) {
        s.push_str(&format!("-{l}\n"));
    }
    for l in a.iter().skip(i).take(4) {
        s.push_str(&format!("+{l}\n"));
    }
    s.push_str("--- actual graph ---\n");
    s.push_str(actual);
    s
}

/// Go's `filterInstances` test helper: drops every non-instance vertex, connecting its
/// dependents to its dependencies first.
fn filter_instances(g: &mut Graph) {
    for v in g.vertices() {
        if matches!(g.node(v), Node::Instance { .. }) {
            continue;
        }
        let ups = g.up_edges(v);
        let downs = g.down_edges(v);
        for u in &ups {
            for d in &downs {
                g.connect(*u, *d);
            }
        }
        g.remove(v);
    }
}

/// Does the vertex name `n` match `pattern`, where `<deposed>` stands for a deposed key?
fn name_matches(pattern: &str, n: &str) -> bool {
    match pattern.split_once("<deposed>") {
        None => pattern == n,
        Some((pre, post)) => {
            n.len() > pre.len() + post.len()
                && n.starts_with(pre)
                && n.ends_with(post)
                && n[pre.len()..n.len() - post.len()]
                    .chars()
                    .all(|c| c.is_ascii_hexdigit())
        }
    }
}

fn check_edges(case: &Value, g: &Graph) -> Outcome {
    let all: Vec<(String, VId)> = g
        .vertices()
        .into_iter()
        .map(|v| (g.node(v).name(), v))
        .collect();
    let matching = |pattern: &str| -> Vec<VId> {
        all.iter()
            .filter(|(n, _)| name_matches(pattern, n))
            .map(|(_, v)| *v)
            .collect()
    };
    for v in items(case, "vertices") {
        let name = v["name"].as_str().unwrap_or("");
        let present = v["present"].as_bool().unwrap_or(true);
        let found = matching(name).len();
        if present != (found > 0) {
            return Outcome::Fail(format!(
                "vertex {name:?} should be {}\n{}",
                if present { "present" } else { "absent" },
                g.string()
            ));
        }
        if let Some(c) = v["count"].as_u64()
            && found as u64 != c
        {
            return Outcome::Fail(format!(
                "expected {c} vertices named {name:?}, found {found}\n{}",
                g.string()
            ));
        }
    }
    if let Some(n) = case["vertex_count"].as_u64()
        && g.len() as u64 != n
    {
        return Outcome::Fail(format!(
            "expected {n} vertices, found {}\n{}",
            g.len(),
            g.string()
        ));
    }
    for e in items(case, "edges") {
        let from = e["from"].as_str().unwrap_or("");
        let to = e["to"].as_str().unwrap_or("");
        let present = e["present"].as_bool().unwrap_or(true);
        let transitive = e["transitive"].as_bool().unwrap_or(false);
        let (f, t) = (matching(from), matching(to));
        let (Some(&f), Some(&t)) = (f.first(), t.first()) else {
            if present {
                return Outcome::Fail(format!(
                    "edge {from:?} -> {to:?}: vertex missing\n{}",
                    g.string()
                ));
            }
            continue;
        };
        let has = if transitive {
            g.ancestors(f).contains(&t)
        } else {
            g.has_edge(f, t)
        };
        if has != present {
            return Outcome::Fail(format!(
                "edge {from:?} -> {to:?} should be {}\n{}",
                if present { "present" } else { "absent" },
                g.string()
            ));
        }
    }
    // The prune case also asserts that no two vertices share a name.
    let mut seen = BTreeSet::new();
    for v in g.vertices() {
        if !seen.insert(g.node(v).name())
            && case["origin"].as_str().is_some_and(|o| o.contains("prune"))
        {
            return Outcome::Fail(format!("duplicate vertex {}", g.node(v).name()));
        }
    }
    Outcome::Pass
}

/// The elements of the array at `key` (none when absent or not an array).
fn items<'a>(o: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    o.get(key).and_then(Value::as_array).into_iter().flatten()
}

/// The value of option `key` of a transform, which must be `want` (the corpus's placeholders
/// such as `"<case config>"`) when present; true when present.
fn placeholder(o: &Value, key: &str, want: &str) -> Result<bool, String> {
    match o.get(key) {
        None => Ok(false),
        Some(Value::String(s)) if s == want => Ok(true),
        Some(other) => Err(format!("option {key}: expected {want:?}, got {other}")),
    }
}

/// The operation in option `key` (Go zero value `walkInvalid` when absent).
fn operation_option(o: &Value, key: &str) -> Result<Operation, String> {
    match opt_str(o, key, "transform options")? {
        None => Ok(Operation::Invalid),
        Some(s) => Operation::from_go(s).ok_or_else(|| format!("unknown operation {s:?}")),
    }
}

/// The `ModeFilter` descriptions the corpus uses, as the modes kept (`None`: no filter).
fn mode_filter(o: &Value) -> Result<Option<Vec<ResourceMode>>, String> {
    let Some(v) = o.get("ModeFilter") else {
        return Ok(None);
    };
    let Some(s) = v.as_str() else {
        return if v.is_null() {
            Ok(None)
        } else {
            Err(format!("option ModeFilter: {v}"))
        };
    };
    let only = |m| Ok(Some(vec![m]));
    match s {
        "func returns false for every mode (nothing skipped)" => Ok(Some(vec![
            ResourceMode::Managed,
            ResourceMode::Data,
            ResourceMode::Ephemeral,
        ])),
        "func returns true (skip) for every mode except managed" => only(ResourceMode::Managed),
        "func returns true (skip) for every mode except data" => only(ResourceMode::Data),
        "func returns true (skip) for every mode except ephemeral" => only(ResourceMode::Ephemeral),
        other => Err(format!("unknown ModeFilter {other:?}")),
    }
}

/// Builds the transform list a `transforms` case names, with the options it sets.
fn transforms_from_case<'a>(
    case: &Value,
    inputs: &'a Inputs,
) -> Result<Vec<Box<dyn Transform + 'a>>, String> {
    let names = opt_strings(case, "transforms", "case")?;
    let opts = opt_array(case, "transform_options", "case")?;
    if opts.len() > names.len() {
        return Err("more transform_options than transforms".to_string());
    }
    let zero = Value::Object(Default::default());
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let o = match opts.get(i) {
                None | Some(Value::Null) => &zero,
                Some(o) => o,
            };
            transform(name, o, inputs).map_err(|e| format!("{name}: {e}"))
        })
        .collect()
}

/// One transform with the Go fields `o` sets (every other field the Go zero value). Fails on a
/// transform, option or option value this runner does not understand.
fn transform<'a>(
    name: &str,
    o: &Value,
    inputs: &'a Inputs,
) -> Result<Box<dyn Transform + 'a>, String> {
    let allowed: &[&str] = match name {
        "ConfigTransformer" => &["Config", "Concrete", "ModeFilter", "importTargets"],
        "AttachResourceConfigTransformer"
        | "RootVariableTransformer"
        | "ModuleVariableTransformer"
        | "LocalTransformer"
        | "ProviderTransformer"
        | "ModuleExpansionTransformer" => &["Config"],
        "OutputTransformer" => &["Config", "Destroying", "RefreshOnly", "Planning"],
        "DiffTransformer" => &["Config", "State", "Changes", "Concrete"],
        "checkTransformer" | "checkStartTransformer" => &["Config", "Operation"],
        "AttachStateTransformer" => &["State"],
        "OrphanOutputTransformer" => &["Config", "State", "Planning"],
        "ProviderConfigTransformer" => &["Config", "Concrete", "Operation"],
        "MissingProviderTransformer" => &["Config", "Concrete"],
        "ProviderFunctionTransformer" => &["Config", "ProviderFunctionTracker"],
        "RemovedModuleTransformer" => &["Config", "State"],
        "AttachSchemaTransformer" => &["Plugins", "Config"],
        "DestroyEdgeTransformer" => &["Changes", "Operation"],
        "pruneUnusedNodesTransformer" => &["Op"],
        "CloseRootModuleTransformer" => &["RootConfig"],
        "TargetingTransformer" => &["Targets", "Excludes"],
        "OrphanResourceInstanceTransformer" => &["Concrete", "State", "Config"],
        "OrphanResourceInstanceCountTransformer" => &["Concrete", "Addr", "InstanceAddrs", "State"],
        "ProviderUnconfiguredTransformer"
        | "PruneProviderTransformer"
        | "CloseProviderTransformer"
        | "ExternalReferenceTransformer"
        | "ReferenceTransformer"
        | "AttachDependenciesTransformer"
        | "ForcedCBDTransformer"
        | "CBDEdgeTransformer"
        | "RootTransformer"
        | "TransitiveReductionTransformer" => &[],
        other => return Err(format!("unknown transform {other:?}")),
    };
    keys(o, "transform options", allowed)?;
    let config = if placeholder(o, "Config", "<case config>")? {
        inputs.config.as_ref()
    } else {
        None
    };
    let state = if placeholder(o, "State", "<case state>")? {
        inputs.state.as_ref()
    } else {
        None
    };
    let changes = if placeholder(o, "Changes", "<case changes>")? {
        inputs.changes.as_ref()
    } else {
        None
    };
    let concrete = opt_str(o, "Concrete", "transform options")?;
    let bool_opt = |k: &str| opt_bool(o, k, "transform options").map(|b| b.unwrap_or(false));
    let provider_kind = || match concrete {
        None => Ok(ProviderKind::Abstract),
        Some("NodeEvalableProvider") => Ok(ProviderKind::Evalable),
        Some("NodeApplyableProvider") => Ok(ProviderKind::Applyable),
        Some(other) => Err(format!("unknown Concrete {other:?}")),
    };
    let test_orphan = || match concrete {
        Some(c) if c.starts_with("test-only node (testOrphanResourceConcreteFunc)") => {
            Ok(InstanceKind::TestOrphan)
        }
        None => Ok(InstanceKind::Abstract),
        Some(other) => Err(format!("unknown Concrete {other:?}")),
    };
    Ok(match name {
        "ConfigTransformer" => {
            let kind = match concrete {
                None => ResourceKind::Abstract,
                Some("nodeExpandApplyableResource") => ResourceKind::ExpandApplyable,
                Some("nodeExpandPlannableResource") => ResourceKind::ExpandPlannable,
                Some("NodeValidatableResource") => ResourceKind::Validatable,
                Some(other) => return Err(format!("unknown Concrete {other:?}")),
            };
            let import_targets = placeholder(
                o,
                "importTargets",
                "<one ImportTarget{Config: block} per import block of the root module>",
            )?;
            Box::new(ConfigTransformer {
                config,
                concrete: kind,
                modes: mode_filter(o)?,
                import_targets,
                force_add_import_targets: false,
            })
        }
        "AttachResourceConfigTransformer" => Box::new(AttachResourceConfigTransformer { config }),
        "RootVariableTransformer" => Box::new(RootVariableTransformer { config }),
        "ModuleVariableTransformer" => Box::new(ModuleVariableTransformer { config }),
        "LocalTransformer" => Box::new(LocalTransformer { config }),
        "OutputTransformer" => Box::new(OutputTransformer {
            config,
            destroying: bool_opt("Destroying")?,
            refresh_only: bool_opt("RefreshOnly")?,
            planning: bool_opt("Planning")?,
        }),
        "DiffTransformer" => Box::new(DiffTransformer {
            config,
            state,
            changes,
            concrete: match concrete {
                None => InstanceKind::Abstract,
                Some("NodeApplyableResourceInstance") => InstanceKind::Applyable,
                Some(other) => return Err(format!("unknown Concrete {other:?}")),
            },
        }),
        "checkTransformer" => Box::new(CheckTransformer {
            config,
            operation: operation_option(o, "Operation")?,
        }),
        "checkStartTransformer" => Box::new(CheckStartTransformer {
            config,
            operation: operation_option(o, "Operation")?,
        }),
        "AttachStateTransformer" => Box::new(AttachStateTransformer { state }),
        "OrphanOutputTransformer" => {
            // Planning only changes how the output vertex evaluates.
            bool_opt("Planning")?;
            Box::new(OrphanOutputTransformer { config, state })
        }
        "ProviderConfigTransformer" => Box::new(ProviderConfigTransformer {
            config,
            concrete: provider_kind()?,
            operation: operation_option(o, "Operation")?,
        }),
        // Without a Concrete, MissingProviderTransformer makes NodeEvalableProvider vertices.
        "MissingProviderTransformer" => Box::new(MissingProviderTransformer {
            concrete: match provider_kind()? {
                ProviderKind::Abstract => ProviderKind::Evalable,
                k => k,
            },
        }),
        "ProviderTransformer" => Box::new(ProviderTransformer),
        "ProviderUnconfiguredTransformer" => Box::new(ProviderUnconfiguredTransformer),
        "ProviderFunctionTransformer" => {
            placeholder(
                o,
                "ProviderFunctionTracker",
                "<empty ProviderFunctionMapping>",
            )?;
            Box::new(ProviderFunctionTransformer { config })
        }
        "PruneProviderTransformer" => Box::new(PruneProviderTransformer { config }),
        "CloseProviderTransformer" => Box::new(CloseProviderTransformer),
        "RemovedModuleTransformer" => Box::new(RemovedModuleTransformer { config, state }),
        "AttachSchemaTransformer" => {
            // Plugins is what the test gave; its schemas are the case's schemas.json.
            if o.get("Plugins").is_none() {
                return Err("AttachSchemaTransformer without Plugins".to_string());
            }
            if inputs.schemas.is_none() {
                return Err("Plugins without schemas (schemas_attached is false)".to_string());
            }
            Box::new(AttachSchemaTransformer {
                schemas: inputs.schemas.as_ref(),
                permissive_fallback: false,
            })
        }
        "ModuleExpansionTransformer" => Box::new(ModuleExpansionTransformer { config }),
        "ExternalReferenceTransformer" => Box::new(ExternalReferenceTransformer),
        "ReferenceTransformer" => Box::new(ReferenceTransformer),
        "AttachDependenciesTransformer" => Box::new(AttachDependenciesTransformer),
        "ForcedCBDTransformer" => Box::new(ForcedCBDTransformer),
        "DestroyEdgeTransformer" => Box::new(DestroyEdgeTransformer {
            changes,
            operation: operation_option(o, "Operation")?,
        }),
        "CBDEdgeTransformer" => Box::new(CBDEdgeTransformer),
        "pruneUnusedNodesTransformer" => Box::new(PruneUnusedNodesTransformer {
            op: operation_option(o, "Op")?,
        }),
        "CloseRootModuleTransformer" => {
            placeholder(o, "RootConfig", "<case config>")?;
            Box::new(CloseRootModuleTransformer)
        }
        "RootTransformer" => Box::new(RootTransformer),
        "TransitiveReductionTransformer" => Box::new(TransitiveReductionTransformer),
        "TargetingTransformer" => Box::new(TargetingTransformer {
            targets: targetables(o, "Targets")?,
            excludes: targetables(o, "Excludes")?,
        }),
        "OrphanResourceInstanceTransformer" => Box::new(OrphanResourceInstanceTransformer {
            config,
            state,
            concrete: test_orphan()?,
            skip: false,
        }),
        "OrphanResourceInstanceCountTransformer" => {
            let addr = opt_str(o, "Addr", "transform options")?
                .map(parse_abs_resource_instance)
                .transpose()?;
            let instance_addrs = opt_strings(o, "InstanceAddrs", "transform options")?
                .iter()
                .map(|a| parse_abs_resource_instance(a))
                .collect::<Result<_, _>>()?;
            Box::new(OrphanResourceInstanceCountTransformer {
                state,
                addr,
                instance_addrs,
                concrete: test_orphan()?,
            })
        }
        other => return Err(format!("unknown transform {other:?}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn base() -> Value {
        json!({"origin": "t", "builder": "transforms", "transforms": ["RootTransformer"],
               "check": "exact", "notes": "", "schemas_attached": false})
    }

    #[test]
    fn unknown_fields_checks_and_builders_fail() {
        assert_eq!(check_case_shape(&base()), Ok(()));
        let mut c = base();
        c["surprise"] = json!(true);
        assert!(check_case_shape(&c).unwrap_err().contains("unknown field"));
        let mut c = base();
        c["check"] = json!("fuzzy");
        assert!(check_case_shape(&c).unwrap_err().contains("unknown check"));
        let mut c = base();
        c["post_filter"] = json!("providers_only");
        assert!(check_case_shape(&c).unwrap_err().contains("post_filter"));
        let mut c = base();
        c["changes"] = json!([{"addr": "a.b", "action": "create", "colour": "red"}]);
        assert!(
            check_case_shape(&c)
                .unwrap_err()
                .contains("change: unknown field")
        );
        let mut c = base();
        c["vertices"] = json!([{"name": "x", "present": true, "shape": "box"}]);
        assert!(
            check_case_shape(&c)
                .unwrap_err()
                .contains("vertex: unknown field")
        );
    }

    #[test]
    fn a_regex_case_needs_its_pattern() {
        let mut c = base();
        c["check"] = json!("regex");
        assert!(
            check_case_shape(&c)
                .unwrap_err()
                .contains("without a pattern")
        );
        c["expected_regex"] = json!("  ");
        assert!(
            check_case_shape(&c)
                .unwrap_err()
                .contains("without a pattern")
        );
        c["expected_regex"] = json!("root");
        assert_eq!(check_case_shape(&c), Ok(()));
    }

    #[test]
    fn unknown_transforms_options_and_values_fail() {
        let inputs = Inputs::default();
        let zero = json!({});
        assert!(transform("RootTransformer", &zero, &inputs).is_ok());
        let e = transform("TeleportTransformer", &zero, &inputs)
            .err()
            .unwrap();
        assert!(e.contains("unknown transform"), "{e}");
        let e = transform(
            "RootTransformer",
            &json!({"Config": "<case config>"}),
            &inputs,
        )
        .err()
        .unwrap();
        assert!(e.contains("unknown field \"Config\""), "{e}");
        let e = transform(
            "ConfigTransformer",
            &json!({"ModeFilter": "only on Tuesdays"}),
            &inputs,
        )
        .err()
        .unwrap();
        assert!(e.contains("unknown ModeFilter"), "{e}");
        let e = transform(
            "ConfigTransformer",
            &json!({"Concrete": "nodeMystery"}),
            &inputs,
        )
        .err()
        .unwrap();
        assert!(e.contains("unknown Concrete"), "{e}");
        let e = transform(
            "ConfigTransformer",
            &json!({"Config": "<other config>"}),
            &inputs,
        )
        .err()
        .unwrap();
        assert!(e.contains("option Config"), "{e}");
        let e = transform(
            "pruneUnusedNodesTransformer",
            &json!({"Op": "walkSideways"}),
            &inputs,
        )
        .err()
        .unwrap();
        assert!(e.contains("unknown operation"), "{e}");
        assert!(
            transform(
                "ConfigTransformer",
                &json!({"ModeFilter": "func returns true (skip) for every mode except ephemeral"}),
                &inputs
            )
            .is_ok()
        );
    }
}

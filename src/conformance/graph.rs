//! Runner for the `graph/` conformance cases: builds the case's graph with the named builder or
//! transform list and checks it (`exact`, `edges`, `regex`) as the conformance README describes.

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
use crate::builder::{apply_steps, plan_steps, run_steps};
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
    strings(o, key).into_iter().map(Targetable::parse).collect()
}

fn run(path: &Path) -> Result<Outcome, String> {
    let case = read_json(&path.join("case.json"))?;
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
            return Ok(Outcome::Fail(format!(
                "configuration errors: {}",
                errors.join("; ")
            )));
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
    if case
        .get("schemas_attached")
        .and_then(|s| s.as_bool())
        .unwrap_or(false)
        && path.join("schemas.json").is_file()
    {
        let sc =
            crate::schema::parse_schemas_json(&read("schemas.json")?).map_err(|d| d.to_string())?;
        inputs.schemas = Some(sc);
    }
    inputs.targets = targetables(&case, "targets")?;
    inputs.excludes = targetables(&case, "excludes")?;
    let operation = Operation::parse(
        case.get("operation")
            .and_then(|o| o.as_str())
            .unwrap_or("walkInvalid"),
    );

    let builder = case.get("builder").and_then(|b| b.as_str()).unwrap_or("");
    let built = match builder {
        "plan" => run_steps(&plan_steps(&inputs, crate::builder::BuilderKind::Plan)),
        "apply" => run_steps(&apply_steps(&inputs, operation)),
        "transforms" if case.get("transform_options").is_none() && source_is_apply(&case) => {
            run_steps(&apply_prefix_steps(&case, &inputs, operation))
        }
        "transforms" => {
            let steps = transforms_from_case(&case, &inputs, operation)?;
            run_steps(&steps)
        }
        other => return Ok(Outcome::Skip(format!("unknown builder {other:?}"))),
    };
    if !built.diagnostics.is_empty() {
        return Ok(Outcome::Fail(format!(
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
    if case.get("post_filter").and_then(|p| p.as_str()) == Some("resource_instances") {
        filter_instances(&mut g);
    }
    let actual = g.string();
    let actual = actual.trim();
    match case
        .get("check")
        .and_then(|c| c.as_str())
        .unwrap_or("exact")
    {
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
            let re_s = case
                .get("expected_regex")
                .and_then(|r| r.as_str())
                .unwrap_or("");
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
        other => Ok(Outcome::Skip(format!("unknown check {other:?}"))),
    }
}

fn source_is_apply(case: &Value) -> bool {
    opt_str(case, "transforms_source").is_some_and(|s| s.starts_with("ApplyGraphBuilder.Steps()"))
}

/// `ApplyGraphBuilder.Steps()` (configured by the case) cut after the last of its transforms the
/// case lists, followed by the case's remaining transforms with zero-value options.
fn apply_prefix_steps<'a>(
    case: &Value,
    inputs: &'a Inputs,
    operation: Operation,
) -> Vec<Box<dyn Transform + 'a>> {
    let names = strings(case, "transforms");
    let mut steps = apply_steps(inputs, operation);
    // Keep the builder's steps while they line up with the case's list.
    let mut keep = 0;
    while keep < steps.len() && keep < names.len() && steps[keep].name() == names[keep] {
        keep += 1;
    }
    steps.truncate(keep);
    for name in &names[keep..] {
        match *name {
            "CloseRootModuleTransformer" => steps.push(Box::new(CloseRootModuleTransformer)),
            "TransitiveReductionTransformer" => {
                steps.push(Box::new(TransitiveReductionTransformer))
            }
            "CloseProviderTransformer" => steps.push(Box::new(CloseProviderTransformer)),
            _ => {}
        }
    }
    steps
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

fn check_edges(case: &Value, g: &Graph) -> Outcome {
    // Resolve "<deposed>" to the key of the single deposed-destroy vertex of that instance.
    let names: BTreeMap<String, VId> = g
        .vertices()
        .into_iter()
        .map(|v| (g.node(v).name(), v))
        .collect();
    let resolve = |name: &str| -> String {
        if let Some(prefix) = name.strip_suffix(" (destroy deposed <deposed>)") {
            for n in names.keys() {
                if let Some(rest) = n.strip_prefix(&format!("{prefix} (destroy deposed "))
                    && rest.ends_with(')')
                {
                    return n.clone();
                }
            }
        }
        name.to_string()
    };
    for v in items(case, "vertices") {
        let name = resolve(opt_str(v, "name").unwrap_or(""));
        let present = v.get("present").and_then(|p| p.as_bool()).unwrap_or(true);
        let count = g
            .vertices()
            .into_iter()
            .filter(|x| g.node(*x).name() == name)
            .count();
        if present != (count > 0) {
            return Outcome::Fail(format!(
                "vertex {name:?} should be {}\n{}",
                if present { "present" } else { "absent" },
                g.string()
            ));
        }
        if let Some(c) = v.get("count").and_then(|c| c.as_u64()) {
            // count = how many vertices of that kind (deposed-destroy objects) exist.
            let kind_count = g
                .vertices()
                .into_iter()
                .filter(|x| {
                    matches!(
                        g.node(*x),
                        Node::Instance {
                            kind: InstanceKind::DestroyDeposed(_),
                            ..
                        }
                    )
                })
                .count();
            if kind_count as u64 != c {
                return Outcome::Fail(format!(
                    "expected {c} deposed-destroy vertices, found {kind_count}"
                ));
            }
        }
    }
    if let Some(n) = case.get("vertex_count").and_then(|c| c.as_u64())
        && g.len() as u64 != n
    {
        return Outcome::Fail(format!(
            "expected {n} vertices, found {}\n{}",
            g.len(),
            g.string()
        ));
    }
    for e in items(case, "edges") {
        let from = resolve(opt_str(e, "from").unwrap_or(""));
        let to = resolve(opt_str(e, "to").unwrap_or(""));
        let present = e.get("present").and_then(|p| p.as_bool()).unwrap_or(true);
        let transitive = e
            .get("transitive")
            .and_then(|p| p.as_bool())
            .unwrap_or(false);
        let (Some(&f), Some(&t)) = (names.get(&from), names.get(&to)) else {
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
            && case
                .get("origin")
                .and_then(|o| o.as_str())
                .is_some_and(|o| o.contains("prune"))
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

/// The strings of the array at `key`.
fn strings<'a>(o: &'a Value, key: &str) -> Vec<&'a str> {
    items(o, key).filter_map(Value::as_str).collect()
}

fn opt_str<'a>(o: &'a Value, k: &str) -> Option<&'a str> {
    o.get(k).and_then(|v| v.as_str())
}

/// Builds the transform list a `transforms` case names, with the options it sets.
fn transforms_from_case<'a>(
    case: &Value,
    inputs: &'a Inputs,
    operation: Operation,
) -> Result<Vec<Box<dyn Transform + 'a>>, String> {
    let names = strings(case, "transforms");
    let empty = Value::Object(Default::default());
    let opts: Vec<&Value> = case
        .get("transform_options")
        .and_then(|t| t.as_array())
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let mut out: Vec<Box<dyn Transform + 'a>> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let o = opts.get(i).copied().unwrap_or(&empty);
        let config = if o.get("Config").is_some() {
            inputs.config.as_ref()
        } else {
            None
        };
        let state = if o.get("State").is_some() {
            inputs.state.as_ref()
        } else {
            None
        };
        let concrete = opt_str(o, "Concrete").unwrap_or("");
        let provider_kind = match concrete {
            "NodeEvalableProvider" => ProviderKind::Evalable,
            "NodeApplyableProvider" => ProviderKind::Applyable,
            _ => ProviderKind::Abstract,
        };
        let t: Box<dyn Transform + 'a> = match *name {
            "ConfigTransformer" => {
                let modes = match opt_str(o, "ModeFilter") {
                    Some(s) if s.contains("except data") => Some(vec![ResourceMode::Data]),
                    Some(s) if s.contains("except managed") => Some(vec![ResourceMode::Managed]),
                    _ => None,
                };
                let kind = match concrete {
                    "nodeExpandApplyableResource" => ResourceKind::ExpandApplyable,
                    "nodeExpandPlannableResource" => ResourceKind::ExpandPlannable,
                    _ => ResourceKind::Abstract,
                };
                Box::new(ConfigTransformer {
                    config,
                    concrete: kind,
                    modes,
                    skip: false,
                    import_targets: o.get("importTargets").is_some(),
                })
            }
            "AttachResourceConfigTransformer" => {
                Box::new(AttachResourceConfigTransformer { config })
            }
            "RootVariableTransformer" => Box::new(RootVariableTransformer { config }),
            "ModuleVariableTransformer" => Box::new(ModuleVariableTransformer { config }),
            "LocalTransformer" => Box::new(LocalTransformer { config }),
            "OutputTransformer" => Box::new(OutputTransformer {
                config,
                destroying: operation == Operation::Destroy,
                refresh_only: false,
                planning: false,
            }),
            "DiffTransformer" => Box::new(DiffTransformer {
                config,
                state,
                changes: if o.get("Changes").is_some() {
                    inputs.changes.as_ref()
                } else {
                    None
                },
                concrete: if concrete == "NodeApplyableResourceInstance" {
                    InstanceKind::Applyable
                } else {
                    InstanceKind::Abstract
                },
            }),
            "checkTransformer" => Box::new(CheckTransformer { config, operation }),
            "checkStartTransformer" => Box::new(CheckStartTransformer { config, operation }),
            "AttachStateTransformer" => Box::new(AttachStateTransformer {
                state: inputs.state.as_ref(),
            }),
            "OrphanOutputTransformer" => Box::new(OrphanOutputTransformer),
            "ProviderConfigTransformer" => Box::new(ProviderConfigTransformer {
                config,
                concrete: provider_kind,
            }),
            "MissingProviderTransformer" => Box::new(MissingProviderTransformer {
                concrete: provider_kind,
            }),
            "ProviderTransformer" => Box::new(ProviderTransformer),
            "ProviderUnconfiguredTransformer" => Box::new(ProviderUnconfiguredTransformer),
            "ProviderFunctionTransformer" => Box::new(ProviderFunctionTransformer { config }),
            "PruneProviderTransformer" => Box::new(PruneProviderTransformer { config }),
            "CloseProviderTransformer" => Box::new(CloseProviderTransformer),
            "RemovedModuleTransformer" => Box::new(RemovedModuleTransformer {
                config: inputs.config.as_ref(),
                state: inputs.state.as_ref(),
            }),
            "AttachSchemaTransformer" => Box::new(AttachSchemaTransformer {
                schemas: inputs.schemas.as_ref(),
                permissive_fallback: false,
            }),
            "ModuleExpansionTransformer" => Box::new(ModuleExpansionTransformer { config }),
            "ExternalReferenceTransformer" => Box::new(ExternalReferenceTransformer),
            "ReferenceTransformer" => Box::new(ReferenceTransformer),
            "AttachDependenciesTransformer" => Box::new(AttachDependenciesTransformer),
            "ForcedCBDTransformer" => Box::new(ForcedCBDTransformer),
            "DestroyEdgeTransformer" => Box::new(DestroyEdgeTransformer {
                changes: inputs.changes.as_ref(),
                operation,
            }),
            "CBDEdgeTransformer" => Box::new(CBDEdgeTransformer),
            "pruneUnusedNodesTransformer" => Box::new(PruneUnusedNodesTransformer { skip: false }),
            "CloseRootModuleTransformer" => Box::new(CloseRootModuleTransformer),
            "RootTransformer" => Box::new(RootTransformer),
            "TransitiveReductionTransformer" => Box::new(TransitiveReductionTransformer),
            "TargetingTransformer" => Box::new(TargetingTransformer {
                targets: targetables(o, "Targets")?,
                excludes: targetables(o, "Excludes")?,
            }),
            "OrphanResourceInstanceTransformer" => Box::new(OrphanResourceInstanceTransformer {
                config,
                state,
                concrete: InstanceKind::TestOrphan,
                skip: false,
            }),
            "OrphanResourceInstanceCountTransformer" => {
                let addr = opt_str(o, "Addr")
                    .map(parse_abs_resource_instance)
                    .transpose()?;
                let instance_addrs = strings(o, "InstanceAddrs")
                    .into_iter()
                    .map(parse_abs_resource_instance)
                    .collect::<Result<_, _>>()?;
                Box::new(OrphanResourceInstanceCountTransformer {
                    state,
                    addr,
                    instance_addrs,
                    concrete: InstanceKind::TestOrphan,
                })
            }
            other => return Err(format!("unknown transform {other:?}")),
        };
        out.push(t);
    }
    Ok(out)
}

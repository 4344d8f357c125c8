//! Terraform/OpenTofu state snapshots, format version 4 (the JSON `terraform.tfstate` holds),
//! as far as graph building needs them: resources, their instances, deposed objects,
//! dependencies and provider configurations.
#![allow(clippy::result_large_err)] // diagnostics are returned unboxed: rare, and not on hot paths

use crate::addrs::{
    self, AbsProviderConfig, AbsResource, ConfigResource, InstanceKey, ModuleInstance, Resource,
    ResourceMode,
};
use crate::diag::Diagnostic;
use crate::strconv::go_quote;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Ready or tainted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ObjectStatus {
    #[default]
    Ready,
    Tainted,
}

/// One object of an instance (current or deposed).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InstanceObject {
    pub status: ObjectStatus,
    pub schema_version: u64,
    pub attributes: Value,
    pub dependencies: Vec<ConfigResource>,
    pub create_before_destroy: bool,
}

/// One resource instance: its current object and any deposed objects by deposed key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InstanceState {
    pub current: Option<InstanceObject>,
    pub deposed: BTreeMap<String, InstanceObject>,
}

/// One resource in state.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceState {
    pub addr: AbsResource,
    pub provider: AbsProviderConfig,
    pub instances: BTreeMap<InstanceKey, InstanceState>,
}

/// A state snapshot.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    pub terraform_version: Option<String>,
    pub serial: u64,
    pub lineage: String,
    /// Resources by absolute address.
    pub resources: BTreeMap<AbsResource, ResourceState>,
    /// Root output names.
    pub outputs: BTreeMap<String, Value>,
}

impl State {
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }
    /// Resources in one module instance.
    pub fn module_resources<'a>(
        &'a self,
        m: &'a ModuleInstance,
    ) -> impl Iterator<Item = &'a ResourceState> {
        self.resources.values().filter(move |r| &r.addr.module == m)
    }
    /// The module instances that hold resources.
    pub fn module_instances(&self) -> Vec<ModuleInstance> {
        let mut v: Vec<_> = self.resources.keys().map(|a| a.module.clone()).collect();
        v.sort();
        v.dedup();
        v
    }
}

#[derive(Deserialize)]
struct Version {
    version: Option<Value>,
    terraform_version: Option<String>,
}

#[derive(Deserialize)]
struct StateV4 {
    terraform_version: Option<String>,
    #[serde(default)]
    serial: u64,
    #[serde(default)]
    lineage: String,
    #[serde(default)]
    outputs: BTreeMap<String, Value>,
    #[serde(default)]
    resources: Vec<ResourceV4>,
}

#[derive(Deserialize)]
struct ResourceV4 {
    module: Option<String>,
    mode: String,
    #[serde(rename = "type")]
    type_name: String,
    name: String,
    #[serde(default)]
    each: Option<String>,
    provider: String,
    #[serde(default)]
    instances: Vec<InstanceV4>,
}

#[derive(Deserialize)]
struct InstanceV4 {
    #[serde(default)]
    index_key: Option<Value>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    deposed: Option<String>,
    #[serde(default)]
    schema_version: u64,
    #[serde(default)]
    attributes: Option<Value>,
    #[serde(default)]
    dependencies: Vec<String>,
    #[serde(default)]
    create_before_destroy: bool,
}

/// The OpenTofu version whose behaviour (and error wording) tfgraph reproduces.
pub const OPENTOFU_VERSION: &str = "1.12.6";

/// Go reports JSON syntax errors by byte offset; serde_json gives line and column.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return off + column.min(l.len());
        }
        off += l.len();
    }
    off
}

fn err(summary: &str, detail: String) -> Diagnostic {
    Diagnostic::error(summary, detail, None)
}

/// The prior state a `tofu show -json PLANFILE` document carries (`prior_state`), as far as it
/// holds what the apply graph reads: each resource instance (current or deposed), its recorded
/// `depends_on` and root outputs. `None` when the plan has no prior state. The JSON gives only
/// the provider's source address, so every resource is recorded as using that provider's default
/// configuration in the root module (the binary plan keeps the exact configuration).
pub fn state_from_show_json(text: &str) -> Result<Option<State>, Diagnostic> {
    let bad = |detail: String| err("Invalid plan JSON", detail);
    // A plan that is not JSON is reported by the reader of its changes.
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return Ok(None);
    };
    let Some(values) = v.get("prior_state").and_then(|p| p.get("values")) else {
        return Ok(None);
    };
    let mut state = State::default();
    if let Some(outputs) = values.get("outputs").and_then(Value::as_object) {
        for (name, o) in outputs {
            state.outputs.insert(name.clone(), o.clone());
        }
    }
    let mut modules: Vec<&Value> = values.get("root_module").into_iter().collect();
    while let Some(m) = modules.pop() {
        if let Some(children) = m.get("child_modules").and_then(Value::as_array) {
            modules.extend(children);
        }
        for r in m
            .get("resources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let address = r.get("address").and_then(Value::as_str).unwrap_or("");
            let inst = addrs::parse_abs_resource_instance(address)
                .map_err(|e| bad(format!("prior_state resource {address:?}: {e}")))?;
            let provider_name = r.get("provider_name").and_then(Value::as_str).unwrap_or("");
            let provider = addrs::Provider::parse_source(provider_name)
                .map_err(|e| bad(format!("{address}: provider_name {provider_name:?}: {e}")))?;
            let mut dependencies = Vec::new();
            for d in r
                .get("depends_on")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let a = addrs::parse_abs_resource(d)
                    .map_err(|e| bad(format!("{address}: depends_on {d:?}: {e}")))?;
                dependencies.push(a.config());
            }
            let obj = InstanceObject {
                attributes: r.get("values").cloned().unwrap_or(Value::Null),
                dependencies,
                ..InstanceObject::default()
            };
            let res_addr = inst.contains_resource();
            let entry = state
                .resources
                .entry(res_addr.clone())
                .or_insert_with(|| ResourceState {
                    addr: res_addr,
                    provider: AbsProviderConfig::new(addrs::Module::root(), provider, None),
                    instances: BTreeMap::new(),
                });
            let slot = entry.instances.entry(inst.resource.key).or_default();
            match r.get("deposed_key").and_then(Value::as_str) {
                Some(dk) if !dk.is_empty() => {
                    slot.deposed.insert(dk.to_string(), obj);
                }
                _ => slot.current = Some(obj),
            }
        }
    }
    Ok(Some(state))
}

/// Parses a state snapshot (format version 4; wording of errors as OpenTofu's statefile reader).
pub fn parse_state_json(text: &str) -> Result<State, Diagnostic> {
    const UNSUPPORTED: &str = "Unsupported state file format";
    let ver: Version = serde_json::from_str(text).map_err(|e| {
        let detail = if e.is_syntax() || e.is_eof() {
            format!(
                "The state file could not be parsed as JSON: syntax error at byte offset {}.",
                byte_offset(text, e.line(), e.column())
            )
        } else {
            "The state file could not be parsed as JSON.".to_string()
        };
        let mut d = err(UNSUPPORTED, detail);
        d.range = crate::diag::json_error_range(text, &e);
        d
    })?;
    // Go `sniffJSONStateVersion` (states/statefile/read.go) decodes `version` into a `*uint64`;
    // a value of another kind is a `json.UnmarshalTypeError`, whose `Value` names the JSON kind
    // ("string", "bool", "array", "object", or "number" and the literal), and `null` leaves the
    // version unset.
    let version = match &ver.version {
        Some(Value::Null) | None => None,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(v) => Some(v),
            None => {
                return Err(err(
                    UNSUPPORTED,
                    format!(
                        "The version in the state file is number {n}. A positive whole number is required."
                    ),
                ));
            }
        },
        Some(other) => {
            let kind = match other {
                Value::String(_) => "string",
                Value::Bool(_) => "bool",
                Value::Array(_) => "array",
                _ => "object",
            };
            return Err(err(
                UNSUPPORTED,
                format!(
                    "The version in the state file is {kind}. A positive whole number is required."
                ),
            ));
        }
    };
    let version = match version {
        Some(v) => v,
        None => {
            return Err(err(
                UNSUPPORTED,
                "The state file does not have a \"version\" attribute, which is required to identify the format version.".into(),
            ));
        }
    };
    match version {
        4 => {}
        0 => {
            return Err(err(
                UNSUPPORTED,
                "The state file uses JSON syntax but has a version number of zero. There was never a JSON-based state format zero, so this state file is invalid and cannot be processed.".into(),
            ));
        }
        1..=3 => {
            // OpenTofu upgrades these in memory; tfgraph does not carry the upgrade code.
            return Err(err(
                UNSUPPORTED,
                format!(
                    "The state file uses format version {version}, which tfgraph does not upgrade. Run any OpenTofu command that writes state (for example \"tofu refresh\") to upgrade it to format version 4 first."
                ),
            ));
        }
        v => {
            let by = ver.terraform_version.filter(|s| {
                s.split('.').all(|p| !p.is_empty())
                    && s.chars().next().is_some_and(|c| c.is_ascii_digit())
            });
            let detail = match by {
                Some(by) => format!(
                    "The state file uses format version {v}, which is not supported by OpenTofu {OPENTOFU_VERSION}. This state file was created by OpenTofu {by}."
                ),
                None => format!(
                    "The state file uses format version {v}, which is not supported by OpenTofu {OPENTOFU_VERSION}. This state file may have been created by a newer version of OpenTofu."
                ),
            };
            return Err(err(UNSUPPORTED, detail));
        }
    }
    let raw: StateV4 = serde_json::from_str(text).map_err(|e| {
        let mut d = err(
            "Failed to decode state",
            format!(
                "The state file could not be decoded: {}.",
                crate::diag::json_error_message(&e)
            ),
        );
        d.range = crate::diag::json_error_range(text, &e);
        d
    })?;
    let mut state = State {
        terraform_version: raw.terraform_version,
        serial: raw.serial,
        lineage: raw.lineage,
        resources: BTreeMap::new(),
        outputs: raw.outputs,
    };
    for r in raw.resources {
        let mode = match r.mode.as_str() {
            "managed" => ResourceMode::Managed,
            "data" => ResourceMode::Data,
            "ephemeral" => ResourceMode::Ephemeral,
            other => {
                // Go `prepareStateV4` (states/statefile/version4.go).
                let mut d = err(
                    "Invalid resource mode in state",
                    format!(
                        "State contains a resource with mode {} ({} {}) which is not supported.",
                        go_quote(other),
                        go_quote(&r.type_name),
                        go_quote(&r.name)
                    ),
                );
                d.range = crate::diag::json_value_range(text, &[other]);
                return Err(d);
            }
        };
        let module = match r.module.as_deref() {
            None | Some("") => ModuleInstance::root(),
            Some(m) => match addrs::Targetable::parse(m) {
                Ok(addrs::Targetable::Module(mi)) => mi,
                _ => {
                    return Err(err(
                        "Invalid module instance address in state",
                        format!("Invalid module instance address {m:?}."),
                    ));
                }
            },
        };
        let provider = AbsProviderConfig::parse(&r.provider)
            .map_err(|e| err("Invalid provider config address in state", e))?;
        let addr = Resource::new(mode, &r.type_name, &r.name).absolute(module);
        let _ = r.each;
        let entry = state
            .resources
            .entry(addr.clone())
            .or_insert_with(|| ResourceState {
                addr: addr.clone(),
                provider: provider.clone(),
                instances: BTreeMap::new(),
            });
        for i in r.instances {
            let key = match &i.index_key {
                None | Some(Value::Null) => InstanceKey::None,
                Some(Value::Number(n)) => match n.as_i64() {
                    Some(k) => InstanceKey::Int(k),
                    None => {
                        return Err(err(
                            "Invalid resource instance metadata in state",
                            format!("Resource {addr} has an invalid index_key {n}."),
                        ));
                    }
                },
                Some(Value::String(s)) => InstanceKey::Str(s.clone()),
                Some(other) => {
                    return Err(err(
                        "Invalid resource instance metadata in state",
                        format!("Resource {addr} has an invalid index_key {other}."),
                    ));
                }
            };
            let status = match i.status.as_deref() {
                None | Some("") => ObjectStatus::Ready,
                Some("tainted") => ObjectStatus::Tainted,
                Some(other) => {
                    return Err(err(
                        "Invalid resource instance metadata in state",
                        format!(
                            "Instance {} has invalid status {other:?}.",
                            addr.instance(key.clone())
                        ),
                    ));
                }
            };
            let mut deps = Vec::new();
            for d in &i.dependencies {
                let a = addrs::parse_abs_resource(d).map_err(|e| {
                    err(
                        "Invalid resource instance metadata in state",
                        format!(
                            "Instance {} has invalid dependency {d:?}: {e}",
                            addr.instance(key.clone())
                        ),
                    )
                })?;
                deps.push(a.config());
            }
            let obj = InstanceObject {
                status,
                schema_version: i.schema_version,
                attributes: i.attributes.unwrap_or(Value::Null),
                dependencies: deps,
                create_before_destroy: i.create_before_destroy,
            };
            let inst = entry.instances.entry(key.clone()).or_default();
            match i.deposed {
                Some(dk) if !dk.is_empty() => {
                    inst.deposed.insert(dk, obj);
                }
                _ => {
                    if inst.current.is_some() {
                        return Err(err(
                            "Duplicate resource instance in state",
                            format!(
                                "Instance {} appears multiple times in the state file.",
                                addr.instance(key)
                            ),
                        ));
                    }
                    inst.current = Some(obj);
                }
            }
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_v4() {
        let t = r#"{"version":4,"terraform_version":"1.9.0","serial":1,"lineage":"x","outputs":{},
          "resources":[{"mode":"managed","type":"test_object","name":"A","module":"module.child[0]",
            "provider":"module.child.provider[\"registry.opentofu.org/hashicorp/test\"].foo",
            "instances":[{"index_key":1,"attributes":{},"dependencies":["test_object.B"],"create_before_destroy":true},
                         {"index_key":1,"deposed":"00000001","status":"tainted","attributes":{}}]}]}"#;
        let s = parse_state_json(t).unwrap();
        let r = s.resources.values().next().unwrap();
        assert_eq!(r.addr.to_string(), "module.child[0].test_object.A");
        assert_eq!(r.provider.alias.as_deref(), Some("foo"));
        let i = &r.instances[&InstanceKey::Int(1)];
        assert!(i.current.as_ref().unwrap().create_before_destroy);
        assert_eq!(
            i.current.as_ref().unwrap().dependencies[0].to_string(),
            "test_object.B"
        );
        assert_eq!(i.deposed["00000001"].status, ObjectStatus::Tainted);
    }

    #[test]
    fn rejects_versions() {
        let e = parse_state_json(r#"{"version":5,"terraform_version":"9.9.9"}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Unsupported state file format: The state file uses format version 5, which is not supported by OpenTofu 1.12.6. This state file was created by OpenTofu 9.9.9."
        );
        let e = parse_state_json("{\"version\": 4,").unwrap_err();
        assert!(e.detail.contains("syntax error at byte offset"), "{e}");
        assert!(parse_state_json(r#"{"version":3}"#).is_err());
        assert!(parse_state_json("nope").is_err());
    }

    /// internal/command/graph.go renders an apply graph from a plan with the plan's prior state
    /// (`lr.Plan.PriorState`); `tofu show -json` carries it as `prior_state`
    /// (internal/command/jsonstate: `address`, `provider_name`, `depends_on`, `deposed_key`).
    #[test]
    fn prior_state_from_a_json_plan() {
        let plan = r#"{"format_version": "1.2", "prior_state": {"values": {
          "outputs": {"o": {"sensitive": false, "value": 1}},
          "root_module": {"resources": [
            {"address": "aws_instance.a[0]", "mode": "managed", "type": "aws_instance",
             "name": "a", "index": 0, "provider_name": "registry.opentofu.org/hashicorp/aws",
             "values": {}}],
           "child_modules": [{"address": "module.m", "resources": [
            {"address": "module.m.aws_instance.b", "mode": "managed", "type": "aws_instance",
             "name": "b", "provider_name": "registry.opentofu.org/hashicorp/aws",
             "depends_on": ["aws_instance.a"], "values": {}},
            {"address": "module.m.aws_instance.b", "mode": "managed", "type": "aws_instance",
             "name": "b", "provider_name": "registry.opentofu.org/hashicorp/aws",
             "deposed_key": "00000001", "values": {}}]}]}}}}"#;
        let st = state_from_show_json(plan)
            .expect("valid")
            .expect("a prior state");
        assert_eq!(st.resources.len(), 2);
        assert!(st.outputs.contains_key("o"));
        let b = st
            .resources
            .get(&addrs::parse_abs_resource("module.m.aws_instance.b").unwrap())
            .expect("b");
        let inst = &b.instances[&InstanceKey::None];
        assert_eq!(
            inst.current.as_ref().unwrap().dependencies[0].to_string(),
            "aws_instance.a"
        );
        assert!(inst.deposed.contains_key("00000001"));
        assert_eq!(
            b.provider.to_string(),
            "provider[\"registry.opentofu.org/hashicorp/aws\"]"
        );
        assert_eq!(state_from_show_json("{}").expect("valid"), None);
    }
}

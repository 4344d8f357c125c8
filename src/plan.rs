//! Planned changes: the conformance `changes` list and `terraform show -json` / `tofu show -json`
//! `resource_changes`, both mapped to OpenTofu's `plans.Action`.
#![allow(clippy::result_large_err)] // diagnostics are returned unboxed: rare, and not on hot paths

use crate::addrs::{self, AbsProviderConfig, AbsResourceInstance};
use crate::diag::Diagnostic;
use serde_json::Value;
use std::fmt;

/// OpenTofu's change actions (Go `plans.Action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    NoOp,
    Create,
    Read,
    Update,
    DeleteThenCreate,
    CreateThenDelete,
    Delete,
    Forget,
    /// `lifecycle { destroy = false }` on a replaced object: forget the old one, create anew.
    ForgetThenCreate,
}

impl Action {
    /// The conformance spelling: `create`, `delete-then-create`, `no-op`, ...
    pub fn parse(s: &str) -> Option<Action> {
        Some(match s {
            "no-op" | "noop" => Action::NoOp,
            "create" => Action::Create,
            "read" => Action::Read,
            "update" => Action::Update,
            "delete-then-create" => Action::DeleteThenCreate,
            "create-then-delete" => Action::CreateThenDelete,
            "delete" => Action::Delete,
            "forget" => Action::Forget,
            "forget-then-create" => Action::ForgetThenCreate,
            _ => return None,
        })
    }
    /// From a `show -json` actions array (`["delete","create"]` etc.).
    pub fn from_actions(actions: &[&str]) -> Option<Action> {
        Some(match actions {
            ["no-op"] => Action::NoOp,
            ["create"] => Action::Create,
            ["read"] => Action::Read,
            ["update"] => Action::Update,
            ["delete", "create"] => Action::DeleteThenCreate,
            ["create", "delete"] => Action::CreateThenDelete,
            ["delete"] => Action::Delete,
            ["forget"] => Action::Forget,
            ["forget", "create"] => Action::ForgetThenCreate,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Action::NoOp => "no-op",
            Action::Create => "create",
            Action::Read => "read",
            Action::Update => "update",
            Action::DeleteThenCreate => "delete-then-create",
            Action::CreateThenDelete => "create-then-delete",
            Action::Delete => "delete",
            Action::Forget => "forget",
            Action::ForgetThenCreate => "forget-then-create",
        }
    }
    /// True for the replace actions.
    pub fn is_replace(self) -> bool {
        matches!(self, Action::DeleteThenCreate | Action::CreateThenDelete)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One planned resource instance change (Go `plans.ResourceInstanceChangeSrc`, the parts graph
/// building reads).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceInstanceChange {
    pub addr: AbsResourceInstance,
    pub prev_run_addr: Option<AbsResourceInstance>,
    /// The deposed key when the change is for a deposed object.
    pub deposed: Option<String>,
    pub provider: Option<AbsProviderConfig>,
    pub action: Action,
    pub action_reason: Option<String>,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// A set of planned changes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Changes {
    pub resources: Vec<ResourceInstanceChange>,
}

fn bad(detail: String) -> Diagnostic {
    Diagnostic::error("Invalid plan changes", detail, None)
}

/// `v[key]` as a string, if it is one.
fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn addr_field(v: &Value, key: &str) -> Result<Option<AbsResourceInstance>, Diagnostic> {
    match v.get(key).and_then(Value::as_str) {
        None => Ok(None),
        Some(s) => addrs::parse_abs_resource_instance(s)
            .map(Some)
            .map_err(|e| bad(format!("{key} {s:?}: {e}"))),
    }
}

/// Reads the conformance `changes` array: objects with `addr`, `action` and optional
/// `provider`, `prev_run_addr`, `deposed`, `action_reason`, `before`, `after`.
pub fn changes_from_conformance(list: &Value) -> Result<Changes, Diagnostic> {
    let arr = list
        .as_array()
        .ok_or_else(|| bad("\"changes\" must be an array".into()))?;
    let mut out = Changes::default();
    for c in arr {
        let addr = addr_field(c, "addr")?.ok_or_else(|| bad("change without \"addr\"".into()))?;
        let action_s = c.get("action").and_then(Value::as_str).unwrap_or("");
        let action =
            Action::parse(action_s).ok_or_else(|| bad(format!("unknown action {action_s:?}")))?;
        let provider = match c.get("provider").and_then(Value::as_str) {
            Some(p) => Some(AbsProviderConfig::parse(p).map_err(bad)?),
            None => None,
        };
        out.resources.push(ResourceInstanceChange {
            addr,
            prev_run_addr: addr_field(c, "prev_run_addr")?,
            deposed: str_field(c, "deposed"),
            provider,
            action,
            action_reason: str_field(c, "action_reason"),
            before: c.get("before").cloned(),
            after: c.get("after").cloned(),
        });
    }
    Ok(out)
}

/// Reads `resource_changes` from `tofu show -json` (or `terraform show -json`) plan output.
/// `provider_name` there is an FQN; the provider configuration is taken as the default
/// configuration of that provider in the root module (the JSON does not record aliases).
pub fn changes_from_show_json(text: &str) -> Result<Changes, Diagnostic> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        let mut d = bad(format!("not JSON: {}", crate::diag::json_error_message(&e)));
        d.range = crate::diag::json_error_range(text, &e);
        d
    })?;
    if !v.is_object() {
        return Err(bad(
            "the plan must be a JSON object, as \"tofu show -json PLANFILE\" prints it".into(),
        ));
    }
    let mut out = Changes::default();
    let Some(rcs) = v.get("resource_changes").and_then(Value::as_array) else {
        return Ok(out);
    };
    for rc in rcs {
        let addr_text = rc.get("address").and_then(Value::as_str).unwrap_or("");
        let addr = addr_field(rc, "address")
            .map_err(|mut d| {
                d.range = crate::diag::json_value_range(text, &[addr_text]);
                d
            })?
            .ok_or_else(|| bad("resource change without \"address\"".into()))?;
        let change = rc.get("change").unwrap_or(&Value::Null);
        let actions: Vec<&str> = change
            .get("actions")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let action = Action::from_actions(&actions).ok_or_else(|| {
            let mut d = bad(format!("{addr}: unknown actions {actions:?}"));
            // Point at the first action that is not one of OpenTofu's (else at the address).
            let odd = actions
                .iter()
                .find(|a| Action::parse(a).is_none())
                .or(actions.first());
            let mut needles = vec![addr_text];
            needles.extend(odd.copied());
            d.range = crate::diag::json_value_range(text, &needles);
            d
        })?;
        let provider = match rc.get("provider_name").and_then(Value::as_str) {
            Some(p) => Some(AbsProviderConfig::new(
                addrs::Module::root(),
                addrs::Provider::parse_source(p).map_err(bad)?,
                None,
            )),
            None => None,
        };
        out.resources.push(ResourceInstanceChange {
            addr,
            prev_run_addr: addr_field(rc, "previous_address")?,
            deposed: str_field(rc, "deposed"),
            provider,
            action,
            action_reason: str_field(rc, "action_reason"),
            before: change.get("before").cloned(),
            after: change.get("after").cloned(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conformance_format() {
        let v: Value = serde_json::from_str(
            r#"[{"addr":"module.c.test.a[0]","action":"delete","prev_run_addr":"test.a","provider":"provider[\"registry.opentofu.org/foo/test\"]","before":{},"after":null},
                {"addr":"aws_instance.foo","action":"create-then-delete"}]"#,
        )
        .unwrap();
        let c = changes_from_conformance(&v).unwrap();
        assert_eq!(c.resources[0].addr.to_string(), "module.c.test.a[0]");
        assert_eq!(c.resources[0].action, Action::Delete);
        assert_eq!(c.resources[1].action, Action::CreateThenDelete);
        assert!(
            changes_from_conformance(&serde_json::json!([{"addr":"a.b","action":"explode"}]))
                .is_err()
        );
    }

    #[test]
    fn show_json_format() {
        let t = r#"{"resource_changes":[{"address":"aws_instance.a[\"k\"]","provider_name":"registry.terraform.io/hashicorp/aws",
            "change":{"actions":["delete","create"],"before":{},"after":{}}},
            {"address":"data.x.y","change":{"actions":["read"]}},
            {"address":"x.y","change":{"actions":["no-op"]}}]}"#;
        let c = changes_from_show_json(t).unwrap();
        assert_eq!(c.resources[0].action, Action::DeleteThenCreate);
        assert_eq!(c.resources[1].action, Action::Read);
        assert_eq!(c.resources[2].action, Action::NoOp);
        assert_eq!(
            c.resources[0].provider.as_ref().unwrap().to_string(),
            "provider[\"registry.terraform.io/hashicorp/aws\"]"
        );
    }
}

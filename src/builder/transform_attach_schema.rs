//! `AttachSchemaTransformer`: gives resource and provider vertices their provider schema, which
//! reference analysis of their bodies needs.

use super::graph::Graph;
use super::nodes::{AttachedSchema, Node};
use super::transform::{Diagnostics, Transform};
use crate::schema::{self, ProviderSchemas};
use std::sync::Arc;

pub struct AttachSchemaTransformer<'a> {
    pub schemas: Option<&'a ProviderSchemas>,
    /// Where no schema is known, attach [`AttachedSchema::ReadAll`] so bodies are still read in
    /// full. Not OpenTofu behaviour: for callers that have no provider schemas (off in
    /// conformance runs).
    pub permissive_fallback: bool,
}

/// The built-in `terraform.io/builtin/terraform` provider's schema, which OpenTofu always has
/// (internal/builtin/providers/tf: `dataStoreResourceSchema` for `terraform_data`,
/// `dataSourceRemoteStateGetSchema` for `terraform_remote_state`, an empty provider block).
const BUILTIN_TERRAFORM: &str = r#"{"format_version": "1.0", "provider_schemas": {
  "terraform.io/builtin/terraform": {
    "provider": {"version": 0, "block": {"description_kind": "plain"}},
    "resource_schemas": {"terraform_data": {"version": 0, "block": {"attributes": {
      "input": {"type": "dynamic", "optional": true},
      "output": {"type": "dynamic", "computed": true},
      "triggers_replace": {"type": "dynamic", "optional": true},
      "id": {"type": "string", "computed": true}}, "description_kind": "plain"}}},
    "data_source_schemas": {"terraform_remote_state": {"version": 0, "block": {"attributes": {
      "backend": {"type": "string", "required": true},
      "config": {"type": "dynamic", "optional": true},
      "defaults": {"type": "dynamic", "optional": true},
      "outputs": {"type": "dynamic", "computed": true},
      "workspace": {"type": "string", "optional": true}}, "description_kind": "plain"}}}}}}"#;

/// `schemas` with the built-in provider's added when they do not describe it.
fn with_builtin(schemas: &ProviderSchemas) -> Option<ProviderSchemas> {
    let builtin = crate::schema::parse_schemas_json(BUILTIN_TERRAFORM).ok()?;
    let (p, s) = builtin.providers.into_iter().next()?;
    if schemas.providers.contains_key(&p) {
        return None;
    }
    let mut all = schemas.clone();
    all.providers.insert(p, s);
    Some(all)
}

impl Transform for AttachSchemaTransformer<'_> {
    fn name(&self) -> &'static str {
        "AttachSchemaTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let empty = ProviderSchemas::default();
        let schemas = match self.schemas {
            Some(s) => s,
            None if self.permissive_fallback => &empty,
            None => return Ok(()),
        };
        // Schemas a user gives come from `tofu providers schema -json`, which may leave the
        // built-in provider out; OpenTofu itself always knows it.
        let completed = match self.schemas {
            Some(s) if !self.permissive_fallback => with_builtin(s),
            _ => None,
        };
        let schemas = completed.as_ref().unwrap_or(schemas);
        let fallback = self.permissive_fallback.then_some(AttachedSchema::ReadAll);
        // One shared copy of each block attached, by its place in `schemas`.
        let mut shared: std::collections::HashMap<*const schema::Block, Arc<schema::Block>> =
            std::collections::HashMap::new();
        let mut share = |b: &schema::Block| {
            AttachedSchema::Provider(
                shared
                    .entry(std::ptr::from_ref(b))
                    .or_insert_with(|| Arc::new(b.clone()))
                    .clone(),
            )
        };
        for v in g.vertices() {
            let Some(n) = g.node_mut(v) else { continue };
            match n {
                Node::Provider { addr, schema, .. } => {
                    *schema = schemas
                        .get(&addr.provider)
                        .and_then(|ps| ps.provider.as_ref())
                        .map(&mut share)
                        .or_else(|| fallback.clone());
                }
                _ => {
                    let Some(d) = n.resource_data_mut() else {
                        continue;
                    };
                    let r = &d.addr.resource;
                    let found = schemas
                        .resource(&d.provider_held(), r.mode, &r.type_name)
                        .map(&mut share);
                    if let Some(s) = found.or_else(|| fallback.clone()) {
                        d.schema = Some(s);
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::{BuilderKind, build, test_inputs, test_schemas};

    /// internal/builtin/providers/tf/resource_data.go `dataStoreResourceSchema`: OpenTofu always
    /// has the built-in provider's schema, so with user-given schemas that lack it a
    /// `terraform_data` body is still read through `input` and `triggers_replace`.
    #[test]
    fn the_builtin_provider_schema_is_always_known() {
        let config = "resource \"terraform_data\" \"x\" {\n  input = \"a\"\n}\nresource \"terraform_data\" \"y\" {\n  triggers_replace = [terraform_data.x.output]\n}\n";
        let schemas = test_schemas();
        let inputs = test_inputs(&[("main.tf", config)], None, None, Some(&schemas));
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("terraform_data.y (expand)\n  terraform_data.x (expand)\n"),
            "{s}"
        );
    }
}

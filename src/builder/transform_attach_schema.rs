//! `AttachSchemaTransformer`: gives resource and provider vertices their provider schema, which
//! reference analysis of their bodies needs.

use super::graph::Graph;
use super::nodes::{AttachedSchema, Node};
use super::transform::{Diagnostics, Transform};
use crate::schema::ProviderSchemas;

pub struct AttachSchemaTransformer<'a> {
    pub schemas: Option<&'a ProviderSchemas>,
    /// Where no schema is known, attach [`AttachedSchema::ReadAll`] so bodies are still read in
    /// full. Not OpenTofu behaviour: for callers that have no provider schemas (off in
    /// conformance runs).
    pub permissive_fallback: bool,
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
        let fallback = self.permissive_fallback.then_some(AttachedSchema::ReadAll);
        for v in g.vertices() {
            let Some(n) = g.node_mut(v) else { continue };
            match n {
                Node::Provider { addr, schema, .. } => {
                    *schema = schemas
                        .get(&addr.provider)
                        .and_then(|ps| ps.provider.clone())
                        .map(AttachedSchema::Provider)
                        .or_else(|| fallback.clone());
                }
                _ => {
                    let Some(d) = n.resource_data_mut() else {
                        continue;
                    };
                    let r = &d.addr.resource;
                    let found = schemas
                        .resource(&d.provider(), r.mode, &r.type_name)
                        .cloned()
                        .map(AttachedSchema::Provider);
                    if let Some(s) = found.or_else(|| fallback.clone()) {
                        d.schema = Some(s);
                    }
                }
            }
        }
        Ok(())
    }
}

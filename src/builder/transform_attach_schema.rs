//! `AttachSchemaTransformer`: gives resource and provider vertices their provider schema, which
//! reference analysis of their bodies needs.

use super::addr::Mode;
use super::graph::Graph;
use super::nodes::Node;
use super::schema::{Block, Schemas};
use super::transform::{Diagnostics, Transform};

pub struct AttachSchemaTransformer<'a> {
    pub schemas: Option<&'a Schemas>,
    /// Where no schema is known, attach a permissive one so bodies are still read in full. Not
    /// OpenTofu behaviour: for callers that have no provider schemas (off in conformance runs).
    pub permissive_fallback: bool,
}

impl Transform for AttachSchemaTransformer<'_> {
    fn name(&self) -> &'static str {
        "AttachSchemaTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let empty = Schemas::default();
        let schemas = match self.schemas {
            Some(s) => s,
            None if self.permissive_fallback => &empty,
            None => return Ok(()),
        };
        let fallback = self.permissive_fallback.then(Block::permissive);
        for v in g.vertices() {
            let Some(n) = g.node_mut(v) else { continue };
            match n {
                Node::Provider { addr, schema, .. } => {
                    *schema = schemas
                        .providers
                        .get(&addr.provider.to_string())
                        .and_then(|ps| ps.provider.clone())
                        .or_else(|| fallback.clone());
                }
                _ => {
                    let Some(d) = n.resource_data_mut() else {
                        continue;
                    };
                    let fqn = d.provider().to_string();
                    let r = &d.addr.resource;
                    let found = schemas.providers.get(&fqn).and_then(|ps| match r.mode {
                        Mode::Managed => ps.resources.get(&r.ty),
                        Mode::Data => ps.data_sources.get(&r.ty),
                        Mode::Ephemeral => ps.ephemeral.get(&r.ty),
                    });
                    if let Some(s) = found.cloned().or_else(|| fallback.clone()) {
                        d.schema = Some(s);
                    }
                }
            }
        }
        Ok(())
    }
}

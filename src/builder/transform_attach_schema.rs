//! `AttachSchemaTransformer`: gives resource and provider vertices their provider schema, which
//! reference analysis of their bodies needs.

use super::addr::Mode;
use super::graph::Graph;
use super::nodes::Node;
use super::schema::Schemas;
use super::transform::{Diagnostics, Transform};

pub struct AttachSchemaTransformer<'a> {
    pub schemas: Option<&'a Schemas>,
}

impl Transform for AttachSchemaTransformer<'_> {
    fn name(&self) -> &'static str {
        "AttachSchemaTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(schemas) = self.schemas else {
            return Ok(());
        };
        for v in g.vertices() {
            let Some(n) = g.node_mut(v) else { continue };
            match n {
                Node::Provider { addr, schema, .. } => {
                    if let Some(ps) = schemas.providers.get(&addr.provider.to_string()) {
                        *schema = ps.provider.clone();
                    }
                }
                _ => {
                    let Some(d) = n.resource_data_mut() else {
                        continue;
                    };
                    let fqn = d.provider().to_string();
                    let Some(ps) = schemas.providers.get(&fqn) else {
                        continue;
                    };
                    let r = &d.addr.resource;
                    let s = match r.mode {
                        Mode::Managed => ps.resources.get(&r.ty),
                        Mode::Data => ps.data_sources.get(&r.ty),
                        Mode::Ephemeral => ps.ephemeral.get(&r.ty),
                    };
                    if let Some(s) = s {
                        d.schema = Some(s.clone());
                    }
                }
            }
        }
        Ok(())
    }
}

//! The provider transforms: `ProviderConfigTransformer` (vertices for provider blocks, proxies for
//! configurations passed to child modules), `MissingProviderTransformer` (implied default
//! configurations in the root module), `ProviderTransformer` (consumer → provider edges with
//! inheritance), `ProviderUnconfiguredTransformer`, `ProviderFunctionTransformer`,
//! `CloseProviderTransformer` and `PruneProviderTransformer`.

use super::addr::{AbsProviderConfig, Subject};
use super::graph::{Graph, VId};
use super::model::Module;
use super::nodes::{Node, ProviderKind, ProviderRequest};
use super::transform::{Diagnostics, Transform};
use std::collections::BTreeMap;

/// Provider vertices (concrete and proxy) by address string (`providerVertexMap`).
fn provider_vertex_map(g: &Graph) -> BTreeMap<String, VId> {
    let mut m = BTreeMap::new();
    for v in g.vertices() {
        if let Some(a) = g.node(v).provider_addr() {
            m.insert(a.to_string(), v);
        }
    }
    m
}

/// Follows proxies to the concrete provider vertex they stand for.
fn resolve_proxy(g: &Graph, m: &BTreeMap<String, VId>, mut v: VId) -> Option<VId> {
    for _ in 0..64 {
        match g.get(v) {
            Some(Node::ProxyProvider { target, .. }) => v = *m.get(&target.to_string())?,
            Some(_) => return Some(v),
            None => return None,
        }
    }
    None
}

pub struct ProviderConfigTransformer<'a> {
    pub config: Option<&'a Module>,
    pub concrete: ProviderKind,
}

impl ProviderConfigTransformer<'_> {
    fn walk(
        &self,
        g: &mut Graph,
        providers: &mut BTreeMap<String, VId>,
        parent: Option<&Module>,
        m: &Module,
    ) {
        let mut proxiable: BTreeMap<String, bool> = BTreeMap::new();
        if m.path.is_empty() {
            for (name, fqn) in &m.required_providers {
                if m.provider_blocks
                    .iter()
                    .any(|p| &p.name == name && p.alias.is_none())
                {
                    continue;
                }
                let addr = AbsProviderConfig {
                    module: Vec::new(),
                    provider: fqn.clone(),
                    alias: None,
                };
                let key = addr.to_string();
                if providers.contains_key(&key) {
                    continue;
                }
                let v = g.add(Node::Provider {
                    kind: self.concrete,
                    addr,
                    config: None,
                    schema: None,
                });
                providers.insert(key, v);
            }
        }
        for p in &m.provider_blocks {
            let addr = AbsProviderConfig {
                module: m.path.clone(),
                provider: p.provider.clone(),
                alias: p.alias.clone(),
            };
            let key = addr.to_string();
            if providers.contains_key(&key) {
                continue;
            }
            let v = g.add(Node::Provider {
                kind: self.concrete,
                addr,
                config: None,
                schema: None,
            });
            providers.insert(key.clone(), v);
            if !m.path.is_empty() {
                // Proxyable when the block has nothing but meta-arguments.
                let empty = p.body.iter().all(|s| match s {
                    hcl::structure::Structure::Attribute(a) => {
                        matches!(a.key.as_str(), "alias" | "version")
                    }
                    hcl::structure::Structure::Block(_) => false,
                });
                proxiable.insert(key, empty);
            }
        }
        if let (Some(parent), Some(call_name)) = (parent, m.path.last())
            && let Some(call) = parent.module_calls.get(call_name)
        {
            let parent_path = parent.path.clone();
            for ((child_local, child_alias), (_, parent_alias)) in &call.providers {
                let fqn = m.provider_for_local(child_local);
                let addr = AbsProviderConfig {
                    module: m.path.clone(),
                    provider: fqn.clone(),
                    alias: child_alias.clone(),
                };
                let target = AbsProviderConfig {
                    module: parent_path.clone(),
                    provider: fqn,
                    alias: parent_alias.clone(),
                };
                if !providers.contains_key(&target.to_string()) {
                    // OpenTofu reports "missing provider" here; the configuration is then
                    // inherited as usual instead.
                    continue;
                }
                let key = addr.to_string();
                let proxy = Node::ProxyProvider { addr, target };
                match providers.get(&key).copied() {
                    Some(existing) => {
                        if proxiable.get(&key).copied().unwrap_or(false) {
                            let nv = g.replace(existing, proxy);
                            providers.insert(key, nv);
                        }
                    }
                    None => {
                        let nv = g.add(proxy);
                        providers.insert(key, nv);
                    }
                }
            }
        }
        for c in m.children.values() {
            self.walk(g, providers, Some(m), c);
        }
    }
}

impl Transform for ProviderConfigTransformer<'_> {
    fn name(&self) -> &'static str {
        "ProviderConfigTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        let mut providers = BTreeMap::new();
        self.walk(g, &mut providers, None, root);
        // Attach each provider block to its vertex.
        for v in g.vertices() {
            let Some(Node::Provider { addr, config, .. }) = g.node_mut(v) else {
                continue;
            };
            let Some(mc) = root.descendant(&addr.module) else {
                continue;
            };
            let local = mc
                .required_providers
                .iter()
                .find(|(_, f)| **f == addr.provider)
                .map(|(k, _)| k.clone())
                .unwrap_or_else(|| addr.provider.ty.clone());
            if let Some(p) = mc
                .provider_blocks
                .iter()
                .find(|p| p.name == local && p.alias == addr.alias)
            {
                *config = Some(p.clone());
            }
        }
        Ok(())
    }
}

pub struct MissingProviderTransformer {
    pub concrete: ProviderKind,
}

impl Transform for MissingProviderTransformer {
    fn name(&self) -> &'static str {
        "MissingProviderTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let mut m = provider_vertex_map(g);
        for v in g.vertices() {
            let Some(d) = g.node(v).resource_data() else {
                continue;
            };
            let addr = AbsProviderConfig {
                module: Vec::new(),
                provider: d.provider(),
                alias: None,
            };
            let key = addr.to_string();
            if m.contains_key(&key) {
                continue;
            }
            let nv = g.add(Node::Provider {
                kind: self.concrete,
                addr,
                config: None,
                schema: None,
            });
            m.insert(key, nv);
        }
        Ok(())
    }
}

pub struct ProviderTransformer;

impl Transform for ProviderTransformer {
    fn name(&self) -> &'static str {
        "ProviderTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let m = provider_vertex_map(g);
        let mut diags = Vec::new();
        let mut proxies_used = Vec::new();
        for v in g.vertices() {
            let node = g.node(v);
            let Some(d) = node.resource_data() else {
                continue;
            };
            let (req, exact) = match d.provided_by() {
                ProviderRequest::Exact(p) => (p, true),
                ProviderRequest::Local { alias } => (
                    AbsProviderConfig {
                        module: node.module_path().unwrap_or_default(),
                        provider: d.provider(),
                        alias,
                    },
                    false,
                ),
            };
            let mut target = m.get(&req.to_string()).copied();
            if target.is_none() && !exact {
                let mut p = req.inherited();
                while let Some(pp) = p {
                    if let Some(t) = m.get(&pp.to_string()) {
                        target = Some(*t);
                        break;
                    }
                    p = pp.inherited();
                }
            }
            let Some(t) = target else {
                let name = node.name();
                diags.push(format!(
                    "Provider configuration not present: To work with {name} its original provider configuration at {req} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy {name}, after which you can remove the provider configuration again."
                ));
                continue;
            };
            if matches!(g.node(t), Node::ProxyProvider { .. }) {
                proxies_used.push(t);
            }
            let Some(concrete) = resolve_proxy(g, &m, t) else {
                continue;
            };
            let resolved = g.node(concrete).provider_addr().cloned();
            g.connect(v, concrete);
            if let (Some(r), Some(d)) =
                (resolved, g.node_mut(v).and_then(|n| n.resource_data_mut()))
            {
                d.resolved_provider = Some(r);
            }
        }
        for p in proxies_used {
            g.remove(p);
        }
        if diags.is_empty() { Ok(()) } else { Err(diags) }
    }
}

/// Reports configurations that are used but cannot be configured; it changes no vertices or edges.
pub struct ProviderUnconfiguredTransformer;

impl Transform for ProviderUnconfiguredTransformer {
    fn name(&self) -> &'static str {
        "ProviderUnconfiguredTransformer"
    }
    fn transform(&self, _g: &mut Graph) -> Result<(), Diagnostics> {
        Ok(())
    }
}

pub struct ProviderFunctionTransformer<'a> {
    pub config: Option<&'a Module>,
}

impl Transform for ProviderFunctionTransformer<'_> {
    fn name(&self) -> &'static str {
        "ProviderFunctionTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        let mut m = provider_vertex_map(g);
        let mut diags = Vec::new();
        for v in g.vertices() {
            let node = g.node(v);
            let Some(path) = node.module_path() else {
                continue;
            };
            let mut refs = node.references();
            refs.extend(node.root_references());
            for r in refs {
                let Subject::ProviderFunction {
                    provider, alias, ..
                } = &r.subject
                else {
                    continue;
                };
                let Some(mc) = root.descendant(&path) else {
                    continue;
                };
                let Some(fqn) = mc.required_providers.get(provider).cloned() else {
                    diags.push(format!(
                        "Unknown function provider: Provider {provider:?} does not exist within the required_providers of this module"
                    ));
                    continue;
                };
                let abs = AbsProviderConfig {
                    module: path.clone(),
                    provider: fqn.clone(),
                    alias: alias.clone(),
                };
                let target = match m.get(&abs.to_string()) {
                    Some(t) => *t,
                    None => {
                        let stub = AbsProviderConfig {
                            module: Vec::new(),
                            provider: fqn,
                            alias: None,
                        };
                        match m.get(&stub.to_string()) {
                            Some(t) => *t,
                            None => {
                                let key = stub.to_string();
                                let nv = g.add(Node::Provider {
                                    kind: ProviderKind::Evalable,
                                    addr: stub,
                                    config: None,
                                    schema: None,
                                });
                                m.insert(key, nv);
                                nv
                            }
                        }
                    }
                };
                if let Some(c) = resolve_proxy(g, &m, target) {
                    g.connect(v, c);
                }
            }
        }
        if diags.is_empty() { Ok(()) } else { Err(diags) }
    }
}

pub struct CloseProviderTransformer;

/// Vertices OpenTofu treats as `GraphNodeReferencer` (for close-provider edges).
fn is_referencer(n: &Node) -> bool {
    !matches!(
        n,
        Node::CloseProvider { .. }
            | Node::CloseModule { .. }
            | Node::Root
            | Node::ProxyProvider { .. }
            | Node::CheckStart
    )
}

impl Transform for CloseProviderTransformer {
    fn name(&self) -> &'static str {
        "CloseProviderTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let pm = provider_vertex_map(g);
        let mut closers: BTreeMap<String, VId> = BTreeMap::new();
        for (key, p) in pm {
            let Some(addr) = g.node(p).provider_addr().cloned() else {
                continue;
            };
            let closer = match closers.get(&key) {
                Some(c) => *c,
                None => {
                    let c = g.add(Node::CloseProvider { addr });
                    closers.insert(key, c);
                    c
                }
            };
            g.connect(closer, p);
            for s in g.up_edges(p) {
                if s != closer && is_referencer(g.node(s)) {
                    g.connect(closer, s);
                }
            }
        }
        Ok(())
    }
}

pub struct PruneProviderTransformer;

impl Transform for PruneProviderTransformer {
    fn name(&self) -> &'static str {
        "PruneProviderTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        for v in g.vertices() {
            if !g.contains(v) {
                continue;
            }
            match g.node(v) {
                Node::ProxyProvider { .. } => g.remove(v),
                Node::Provider { .. } if g.up_edges(v).is_empty() => {
                    g.remove(v);
                }
                _ => {}
            }
        }
        Ok(())
    }
}

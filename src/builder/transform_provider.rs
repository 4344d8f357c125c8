//! The provider transforms: `ProviderConfigTransformer` (vertices for provider blocks, proxies for
//! configurations passed to child modules), `MissingProviderTransformer` (implied default
//! configurations in the root module), `ProviderTransformer` (consumer → provider edges with
//! inheritance), `ProviderUnconfiguredTransformer`, `ProviderFunctionTransformer`,
//! `CloseProviderTransformer` and `PruneProviderTransformer`.

use super::graph::{Graph, VId};
use super::nodes::{Node, ProviderKind, ProviderRequest};
use super::transform::{Diagnostics, Transform};
use crate::addrs::{AbsProviderConfig, Module, Provider};
use crate::config::{Config, Diagnostic};
use crate::strconv::go_quote;
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

/// The provider vertex for `addr` in `map`, added (of `kind`, its configuration attached later)
/// when there is none; the flag says whether it was added.
fn provider_vertex(
    g: &mut Graph,
    map: &mut BTreeMap<String, VId>,
    kind: ProviderKind,
    addr: AbsProviderConfig,
) -> (VId, bool) {
    let key = addr.to_string();
    if let Some(v) = map.get(&key) {
        return (*v, false);
    }
    let v = g.add(Node::Provider {
        kind,
        addr,
        config: None,
        schema: None,
    });
    map.insert(key, v);
    (v, true)
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
    pub config: Option<&'a Config>,
    pub concrete: ProviderKind,
}

impl ProviderConfigTransformer<'_> {
    /// The module at `path`; `m` is `None` for a call whose source could not be loaded.
    fn walk(
        &self,
        g: &mut Graph,
        providers: &mut BTreeMap<String, VId>,
        parent: Option<&Config>,
        path: &Module,
        m: Option<&Config>,
    ) {
        let mut proxiable: BTreeMap<String, bool> = BTreeMap::new();
        let module = m.map(|c| &c.module);
        if let Some(module) = module.filter(|_| path.is_root()) {
            for (name, rp) in &module.required_providers {
                if module
                    .provider_configs
                    .values()
                    .any(|p| &p.name == name && p.alias.is_none())
                {
                    continue;
                }
                let addr = AbsProviderConfig::new(Module::root(), rp.provider.clone(), None);
                provider_vertex(g, providers, self.concrete, addr);
            }
        }
        for p in module.into_iter().flat_map(|m| m.provider_configs.values()) {
            let addr = AbsProviderConfig::new(path.clone(), p.provider.clone(), p.alias.as_deref());
            let key = addr.to_string();
            let (_, added) = provider_vertex(g, providers, self.concrete, addr);
            if added && !path.is_root() {
                // Proxyable when the block has nothing but meta-arguments (which the loader
                // has already taken out of the body).
                proxiable.insert(key, p.config.body.is_empty());
            }
        }
        if let (Some(parent), Some(call_name)) = (parent, path.0.last())
            && let Some(call) = parent.module.module_calls.get(call_name)
        {
            for passed in &call.providers {
                let (child, in_parent) = (&passed.in_child, &passed.in_parent);
                let fqn = match module {
                    Some(m) => m.provider_for_local_name(&child.name),
                    None => Provider::implied(&child.name),
                };
                let addr =
                    AbsProviderConfig::new(path.clone(), fqn.clone(), child.alias.as_deref());
                let target =
                    AbsProviderConfig::new(parent.path.clone(), fqn, in_parent.alias.as_deref());
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
        let Some(m) = m else { return };
        for name in m.module.module_calls.keys() {
            let child_path = path.child(name);
            self.walk(g, providers, Some(m), &child_path, m.children.get(name));
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
        self.walk(g, &mut providers, None, &root.path, Some(root));
        // Attach each provider block to its vertex.
        for v in g.vertices() {
            let Some(Node::Provider { addr, config, .. }) = g.node_mut(v) else {
                continue;
            };
            let Some(mc) = root.descendant(&addr.module) else {
                continue;
            };
            let local = mc
                .module
                .required_providers
                .iter()
                .find(|(_, rp)| rp.provider == addr.provider)
                .map(|(k, _)| k.clone())
                .unwrap_or_else(|| addr.provider.type_name.clone());
            if let Some(p) = mc
                .module
                .provider_configs
                .values()
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
            let addr = AbsProviderConfig::new(Module::root(), d.provider(), None);
            provider_vertex(g, &mut m, self.concrete, addr);
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
                diags.push(Diagnostic::error(
                    "Provider configuration not present",
                    format!(
                        "To work with {name} its original provider configuration at {req} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy {name}, after which you can remove the provider configuration again."
                    ),
                    node.decl_range(),
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
    pub config: Option<&'a Config>,
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
            for f in refs.funcs {
                let Some(mc) = root.descendant(&path) else {
                    continue;
                };
                let Some(fqn) = mc
                    .module
                    .required_providers
                    .get(&f.provider_name)
                    .map(|rp| rp.provider.clone())
                else {
                    diags.push(Diagnostic::error(
                        "Unknown function provider",
                        format!(
                            "Provider {} does not exist within the required_providers of this module",
                            go_quote(&f.provider_name)
                        ),
                        Some(f.range.clone()),
                    ));
                    continue;
                };
                let abs = AbsProviderConfig::new(path.clone(), fqn.clone(), f.alias.as_deref());
                let target = match m.get(&abs.to_string()) {
                    Some(t) => *t,
                    None => {
                        let stub = AbsProviderConfig::new(Module::root(), fqn, None);
                        provider_vertex(g, &mut m, ProviderKind::Evalable, stub).0
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
                if s != closer && g.node(s).is_referencer() {
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

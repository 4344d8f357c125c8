//! The provider transforms: `ProviderConfigTransformer` (vertices for provider blocks, proxies for
//! configurations passed to child modules), `MissingProviderTransformer` (implied default
//! configurations in the root module), `ProviderTransformer` (consumer → provider edges with
//! inheritance), `ProviderUnconfiguredTransformer`, `ProviderFunctionTransformer`,
//! `CloseProviderTransformer` and `PruneProviderTransformer`.

use super::graph::{Graph, VId};
use super::nodes::{Node, ProviderKind, ProviderRequest};
use super::transform::{Diagnostics, Transform};
use super::why::{RefSite, reason};
use crate::addrs::{AbsProviderConfig, Module, Provider};
use crate::config::{Config, Diagnostic};
use crate::strconv::go_quote;
use std::collections::BTreeMap;

/// Provider vertices (concrete and proxy) by address string (`providerVertexMap`).
pub(super) fn provider_vertex_map(g: &Graph) -> BTreeMap<String, VId> {
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
pub(super) fn resolve_proxy(g: &Graph, m: &BTreeMap<String, VId>, mut v: VId) -> Option<VId> {
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
    /// While validating, the root module's `configuration_aliases` get vertices too.
    pub operation: super::transform::Operation,
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
        missing: &mut Vec<String>,
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
                if providers.contains_key(&addr.to_string()) {
                    continue;
                }
                provider_vertex(g, providers, self.concrete, addr);
                if self.operation == super::transform::Operation::Validate {
                    for a in &rp.configuration_aliases {
                        let addr = AbsProviderConfig::new(
                            Module::root(),
                            rp.provider.clone(),
                            a.alias.as_deref(),
                        );
                        provider_vertex(g, providers, self.concrete, addr);
                    }
                }
            }
        }
        // Provider blocks are evaluable vertices when no concrete type is given.
        let block_kind = match self.concrete {
            ProviderKind::Abstract => ProviderKind::Evalable,
            k => k,
        };
        for p in module.into_iter().flat_map(|m| m.provider_configs.values()) {
            let addr = AbsProviderConfig::new(path.clone(), p.provider.clone(), p.alias.as_deref());
            let key = addr.to_string();
            let (_, added) = provider_vertex(g, providers, block_kind, addr);
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
                    // addProxyProviders: a passed configuration the parent does not have stops
                    // the build.
                    missing.push(target.to_string());
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
            self.walk(
                g,
                providers,
                Some(m),
                &child_path,
                m.children.get(name),
                missing,
            );
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
        let mut missing = Vec::new();
        self.walk(
            g,
            &mut providers,
            None,
            &root.path,
            Some(root),
            &mut missing,
        );
        if !missing.is_empty() {
            // Go returns the first one it meets.
            return Err(vec![Diagnostic::error(
                format!("missing provider {}", missing[0]),
                "",
                None,
            )]);
        }
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
                *config = Some(std::sync::Arc::new(p.clone()));
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
        // Each provider once: resources share a few, and the map is keyed by printed addresses.
        let mut done: std::collections::BTreeSet<Provider> = std::collections::BTreeSet::new();
        for v in g.vertices() {
            let Some(d) = g.node(v).resource_data() else {
                continue;
            };
            let provider = d.provider_held();
            if done.contains(provider.as_ref()) {
                continue;
            }
            let provider = provider.into_owned();
            done.insert(provider.clone());
            let addr = AbsProviderConfig::new(Module::root(), provider, None);
            provider_vertex(g, &mut m, self.concrete, addr);
        }
        Ok(())
    }
}

/// The provider vertex a request finds: its own configuration, else (unless the request is
/// exact) the nearest one it inherits from a parent module.
fn find_provider(m: &BTreeMap<String, VId>, req: &AbsProviderConfig, exact: bool) -> Option<VId> {
    if let Some(t) = m.get(&req.to_string()) {
        return Some(*t);
    }
    if exact {
        return None;
    }
    let mut p = req.inherited();
    while let Some(pp) = p {
        if let Some(t) = m.get(&pp.to_string()) {
            return Some(*t);
        }
        p = pp.inherited();
    }
    None
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
        // The vertex each request finds (the map and the provider vertices do not change in this
        // loop): a module's resources ask for a few configurations, each found once.
        let mut found: rustc_hash::FxHashMap<(AbsProviderConfig, bool), Option<VId>> =
            Default::default();
        for v in g.vertices() {
            let node = g.node(v);
            let Some(d) = node.resource_data() else {
                continue;
            };
            // No provider is required (data and ephemeral orphans and destroys).
            let Some(request) = node.provided_by() else {
                continue;
            };
            let (req, exact) = match request {
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
            let key = (req, exact);
            let target = match found.get(&key) {
                Some(t) => *t,
                None => {
                    let t = find_provider(&m, &key.0, exact);
                    found.insert(key.clone(), t);
                    t
                }
            };
            let req = key.0;
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

/// Turns applyable provider vertices that have no configuration block and no edges at all into
/// evaluable ones (`NodeEvalableProvider`), so their functions can be called unconfigured. The
/// replacement carries no schema, as Go's new vertex does not.
pub struct ProviderUnconfiguredTransformer;

impl Transform for ProviderUnconfiguredTransformer {
    fn name(&self) -> &'static str {
        "ProviderUnconfiguredTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        for v in provider_vertex_map(g).into_values() {
            let Some(Node::Provider {
                kind: ProviderKind::Applyable,
                addr,
                config: None,
                ..
            }) = g.get(v)
            else {
                continue;
            };
            if !g.down_edges(v).is_empty() || !g.up_edges(v).is_empty() {
                continue;
            }
            let addr = addr.clone();
            g.replace(
                v,
                Node::Provider {
                    kind: ProviderKind::Evalable,
                    addr,
                    config: None,
                    schema: None,
                },
            );
        }
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
        // A provider-defined function is called by its namespaced name (`provider::NAME::FUNC`),
        // so a configuration none of whose files holds `::` calls none: the walk over every
        // vertex's references (a sixth of a build of 10,000 generated resources) is skipped.
        // (A JSON file's text here is already the native syntax it was rewritten to.)
        let calls_none = root
            .all_modules()
            .iter()
            .all(|c| c.module.files.values().all(|f| !f.text.contains("::")));
        if calls_none {
            return Ok(());
        }
        let mut m = provider_vertex_map(g);
        let mut diags = Vec::new();
        for v in g.vertices() {
            let node = g.node(v);
            if !node.is_referencer() {
                continue;
            }
            let Some(path) = node.reference_path().map(std::borrow::Cow::into_owned) else {
                continue;
            };
            // References() are read where the vertex resolves references (the calling module
            // for module inputs and expansion); RootReferences() (import blocks) in the root.
            let calls = node
                .references()
                .funcs
                .into_iter()
                .map(|f| (path.clone(), f))
                .chain(
                    node.root_references()
                        .funcs
                        .into_iter()
                        .map(|f| (Module::root(), f)),
                );
            for (path, f) in calls {
                let Some(mc) = root.descendant(&path) else {
                    diags.push(Diagnostic::error(
                        "Unknown Descendent Module",
                        path.to_string(),
                        Some(f.range.clone()),
                    ));
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
                    let site = RefSite::of_function(&f);
                    g.connect_for_references(v, c, vec![site]);
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
            g.connect_because(closer, p, reason::CLOSES_PROVIDER);
            // Everything that uses the provider closes first: its consumers, referencers, and
            // the closers of ephemeral resources (added late, just before this transform).
            for s in g.up_edges(p) {
                let n = g.node(s);
                if s != closer
                    && (n.is_provider_consumer()
                        || n.is_referencer()
                        || matches!(n, Node::CloseableResource { .. }))
                {
                    g.connect_because(closer, s, reason::PROVIDER_CLOSES_AFTER_USERS);
                }
            }
        }
        Ok(())
    }
}

pub struct PruneProviderTransformer<'a> {
    pub config: Option<&'a Config>,
}

impl Transform for PruneProviderTransformer<'_> {
    fn name(&self) -> &'static str {
        "PruneProviderTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        // Beyond OpenTofu: a configuration passed to a module that is not installed has unknown
        // consumers; it is kept for the call's edge (ModuleExpansionTransformer).
        let map = provider_vertex_map(g);
        let keep: Vec<VId> = g
            .vertices()
            .into_iter()
            .filter(|v| match g.node(*v) {
                Node::ProxyProvider { addr, .. } => self
                    .config
                    .and_then(|c| c.descendant(&addr.module.parent()?))
                    .zip(addr.module.0.last())
                    .and_then(|(p, call)| p.module.module_calls.get(call))
                    .is_some_and(|c| c.not_installed),
                _ => false,
            })
            .filter_map(|v| resolve_proxy(g, &map, v))
            .collect();
        for v in g.vertices() {
            if !g.contains(v) {
                continue;
            }
            match g.node(v) {
                Node::ProxyProvider { .. } => g.remove(v),
                Node::Provider { .. } if g.up_edges(v).is_empty() && !keep.contains(&v) => {
                    g.remove(v);
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::nodes::{Node, ProviderKind};
    use crate::builder::{BuilderKind, Inputs, build, test_config, test_inputs};

    /// internal/tofu/node_resource_plan_orphan.go `NodePlannableResourceInstanceOrphan.
    /// ProvidedBy`: a data source orphan needs no provider (it is only dropped from state), so
    /// it gets no provider edge and the implied provider is pruned as unused.
    #[test]
    fn data_source_orphans_need_no_provider() {
        let state = r#"{"version": 4, "resources": [
          {"mode": "data", "type": "aws_ami", "name": "old",
           "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
           "instances": [{"attributes": {}}]}]}"#;
        let inputs = test_inputs(&[("main.tf", "")], Some(state), None, None);
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(s.contains("data.aws_ami.old (orphan)\n"), "{s}");
        assert!(!s.contains("provider["), "{s}");
    }

    /// internal/tofu/transform_provider.go `ProviderUnconfiguredTransformer`: an applyable
    /// provider vertex with no configuration and no edges becomes `NodeEvalableProvider`, so its
    /// functions work without configuring it; one that is configured stays applyable.
    #[test]
    fn unconfigured_unused_providers_become_evaluable() {
        let config = r#"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
    google = { source = "hashicorp/google" }
  }
}
provider "google" {}
locals {
  arn = provider::aws::arn_parse("arn:aws:s3:::b")
}
resource "google_x" "y" {}
"#;
        let inputs = Inputs {
            config: Some(test_config(&[("main.tf", config)])),
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let kind_of = |name: &str| {
            let v = b.graph.find(name).unwrap_or_else(|| panic!("{name}"));
            match b.graph.node(v) {
                Node::Provider { kind, .. } => *kind,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(
            kind_of("provider[\"registry.opentofu.org/hashicorp/aws\"]"),
            ProviderKind::Evalable
        );
        assert_eq!(
            kind_of("provider[\"registry.opentofu.org/hashicorp/google\"]"),
            ProviderKind::Applyable
        );
        assert!(
            b.graph.string().contains(
                "local.arn (expand)\n  provider[\"registry.opentofu.org/hashicorp/aws\"]\n"
            ),
            "{}",
            b.graph.string()
        );
    }

    /// internal/tofu/transform_provider.go `ProviderFunctionTransformer`: references are read
    /// where the vertex resolves them (`GraphNodeReferenceOutside`: a module input's expression
    /// belongs to the calling module) and import blocks' references in the root module
    /// (`GraphNodeRootReferencer`), so the function's provider comes from those modules'
    /// `required_providers`, not the child's.
    #[test]
    fn provider_functions_resolve_where_the_expression_is_written() {
        let root = r#"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
module "m" {
  source = "./m"
  arn    = provider::aws::arn_parse("arn:aws:s3:::b")
}
import {
  to = module.m.null_resource.x
  id = provider::aws::arn_build("aws", "s3", "", "", "b")
}
"#;
        let child = "variable \"arn\" {}\nresource \"null_resource\" \"x\" {}\n";
        let inputs = Inputs {
            config: Some(test_config(&[("main.tf", root), ("m/main.tf", child)])),
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("module.m.var.arn (expand, input)\n  module.m (expand)\n  provider[\"registry.opentofu.org/hashicorp/aws\"]\n"),
            "{s}"
        );
        assert!(
            s.contains("module.m.null_resource.x (expand)\n  module.m (expand)\n  provider[\"registry.opentofu.org/hashicorp/aws\"]\n"),
            "{s}"
        );
    }

    /// The only call of a provider-defined function is in a child module's JSON file (the root's
    /// files hold no `::`): the local still depends on the function's provider.
    #[test]
    fn a_function_called_only_in_a_child_modules_json_file_gets_its_provider() {
        let root = "module \"m\" {\n  source = \"./m\"\n  x      = \"arn\"\n}\n";
        let child = r#"{
  "terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}}},
  "variable": {"x": {}},
  "locals": {"arn": "${provider::aws::arn_parse(var.x)}"}
}"#;
        let inputs = Inputs {
            config: Some(test_config(&[("main.tf", root), ("m/main.tf.json", child)])),
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("module.m.local.arn (expand)\n  module.m.var.x (expand, reference)\n  provider[\"registry.opentofu.org/hashicorp/aws\"]\n"),
            "{s}"
        );
        let step = b
            .steps
            .iter()
            .find(|s| s.name == "ProviderFunctionTransformer")
            .expect("the step");
        assert_eq!(
            step.added_vertices,
            ["provider[\"registry.opentofu.org/hashicorp/aws\"]".into()]
        );
    }

    /// internal/tofu/transform_provider.go `ProviderConfigTransformer.addProxyProviders`: a
    /// module call that passes a configuration its module does not have stops the build with
    /// "missing provider".
    #[test]
    fn passing_a_configuration_the_parent_lacks_is_an_error() {
        let root = "module \"a\" {\n  source = \"./a\"\n}\n";
        let a = "module \"b\" {\n  source = \"./b\"\n  providers = {\n    aws = aws.west\n  }\n}\n";
        let b = "resource \"aws_instance\" \"x\" {}\n";
        let inputs = Inputs {
            config: Some(test_config(&[
                ("main.tf", root),
                ("a/main.tf", a),
                ("a/b/main.tf", b),
            ])),
            ..Default::default()
        };
        let built = build(&inputs, BuilderKind::Plan);
        assert_eq!(built.diagnostics.len(), 1, "{:?}", built.diagnostics);
        assert_eq!(
            built.diagnostics[0].summary,
            "missing provider module.a.provider[\"registry.opentofu.org/hashicorp/aws\"].west"
        );
    }

    /// internal/tofu/transform_provider.go `ProviderConfigTransformer.transformSingle`: while
    /// validating, each `configuration_aliases` entry of the root module's `required_providers`
    /// gets a provider vertex too (planning leaves them out).
    #[test]
    fn validation_adds_the_root_configuration_aliases() {
        let config = r#"
terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.west]
    }
  }
}
resource "aws_instance" "x" {
  provider = aws.west
}
"#;
        let inputs = Inputs {
            config: Some(test_config(&[("main.tf", config)])),
            ..Default::default()
        };
        let v = build(&inputs, BuilderKind::Validate);
        assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
        assert!(
            v.graph.string().contains(
                "aws_instance.x\n  provider[\"registry.opentofu.org/hashicorp/aws\"].west\n"
            ),
            "{}",
            v.graph.string()
        );
    }
}

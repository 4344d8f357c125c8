//! Builds the builder's input model from the crate's configuration loader ([`crate::config`]),
//! which reads files with spans and reports diagnostics in OpenTofu's wording. This is the path
//! the CLI and web app use; [`super::model::load_config`] is the small loader of the builder's own
//! tests.

use super::addr::{ConfigResource, Mode, Provider, Resource};
use super::model::{
    Check, Condition, Import, Local, Module, ModuleCall, Output, ProviderBlock, Provisioner,
    ResourceConfig, Variable,
};
use super::refs::{Reference, refs_in_expr};
use crate::addrs;
use crate::config;
use hcl::expr::{Expression, TraversalOperator};

fn expr(e: &config::model::Expr) -> Expression {
    Expression::from(e.expr.clone())
}

fn body(b: &config::model::HclBody) -> hcl::Body {
    hcl::Body::from(b.body.clone())
}

fn provider(p: &addrs::Provider) -> Provider {
    Provider {
        hostname: p.hostname.clone(),
        namespace: p.namespace.clone(),
        ty: p.type_name.clone(),
    }
}

fn mode(m: addrs::ResourceMode) -> Mode {
    match m {
        addrs::ResourceMode::Managed => Mode::Managed,
        addrs::ResourceMode::Data => Mode::Data,
        addrs::ResourceMode::Ephemeral => Mode::Ephemeral,
    }
}

fn condition(c: &config::model::CheckRule) -> Condition {
    Condition {
        condition: Some(expr(&c.condition)),
        error_message: c.error_message.as_ref().map(expr),
    }
}

fn refs_of(list: &[config::model::Expr]) -> Vec<Reference> {
    list.iter().flat_map(|e| refs_in_expr(&expr(e))).collect()
}

fn local_ref(p: &config::model::ProviderConfigRef) -> (String, Option<String>) {
    (p.name.clone(), p.alias.clone())
}

fn resource(r: &config::model::Resource) -> ResourceConfig {
    let managed = r.managed.as_ref();
    ResourceConfig {
        addr: Resource::new(mode(r.mode), &r.type_name, &r.name),
        provider_ref: r.provider_ref.as_ref().map(local_ref),
        provider: provider(&r.provider),
        provider_key: r
            .provider_ref
            .as_ref()
            .and_then(|p| p.key_expr.as_ref())
            .map(expr),
        count: r.count.as_ref().map(expr),
        for_each: r.for_each.as_ref().map(expr),
        enabled: r.enabled.as_ref().map(expr),
        depends_on: refs_of(&r.depends_on),
        body: body(&r.config),
        create_before_destroy: managed
            .filter(|m| m.create_before_destroy_set)
            .map(|m| m.create_before_destroy),
        prevent_destroy: managed
            .and_then(|m| m.prevent_destroy_expr.as_ref())
            .map(expr),
        replace_triggered_by: r.triggers_replacement.iter().map(expr).collect(),
        preconditions: r.preconditions.iter().map(condition).collect(),
        postconditions: r.postconditions.iter().map(condition).collect(),
        connection: managed
            .and_then(|m| m.connection.as_ref())
            .map(|c| body(&c.config)),
        provisioners: managed
            .map(|m| {
                m.provisioners
                    .iter()
                    .map(|p| Provisioner {
                        ty: p.type_name.clone(),
                        when_destroy: p.when == config::model::ProvisionerWhen::Destroy,
                        body: body(&p.config),
                        connection: p.connection.as_ref().map(|c| body(&c.config)),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        container: r.container.clone(),
    }
}

/// The static resource address an import block's `to` names (`module.a.aws_instance.b[...]`).
fn import_target(e: &Expression) -> Option<ConfigResource> {
    let mut names = Vec::new();
    let mut cur = e;
    let ops: Vec<TraversalOperator>;
    if let Expression::Traversal(t) = cur {
        ops = t.operators.clone();
        cur = &t.expr;
    } else {
        ops = Vec::new();
    }
    let Expression::Variable(root) = cur else {
        return None;
    };
    names.push(root.to_string());
    for op in ops {
        if let TraversalOperator::GetAttr(a) = op {
            names.push(a.to_string());
        }
    }
    let mut module = Vec::new();
    let mut i = 0;
    while names.get(i).map(|s| s.as_str()) == Some("module") {
        module.push(names.get(i + 1)?.clone());
        i += 2;
    }
    let resource = match &names[i..] {
        [d, t, n] if d == "data" => Resource::new(Mode::Data, t, n),
        [t, n] => Resource::new(Mode::Managed, t, n),
        _ => return None,
    };
    Some(ConfigResource { module, resource })
}

/// Converts one configuration node and its descendants.
pub fn module_from_config(c: &config::Config) -> Module {
    let m = &c.module;
    let mut out = Module {
        path: c.path.0.clone(),
        ..Default::default()
    };
    for r in m.all_resources() {
        out.resources.push(resource(r));
    }
    for ch in m.checks.values() {
        for r in &ch.data_resources {
            out.resources.push(resource(r));
        }
        out.checks.push(Check {
            name: ch.name.clone(),
            asserts: ch.asserts.iter().map(condition).collect(),
            data: ch
                .data_resources
                .iter()
                .map(|r| Resource::new(mode(r.mode), &r.type_name, &r.name))
                .collect(),
        });
    }
    for v in m.variables.values() {
        out.variables.push(Variable {
            name: v.name.clone(),
            has_default: v.default.is_some(),
            validations: v.validations.iter().map(condition).collect(),
        });
    }
    for l in m.locals.values() {
        out.locals.push(Local {
            name: l.name.clone(),
            expr: expr(&l.expr),
        });
    }
    for o in m.outputs.values() {
        out.outputs.push(Output {
            name: o.name.clone(),
            expr: o.expr.as_ref().map(expr),
            depends_on: refs_of(&o.depends_on),
            preconditions: o.preconditions.iter().map(condition).collect(),
        });
    }
    for call in m.module_calls.values() {
        let mut inputs = std::collections::BTreeMap::new();
        for s in body(&call.config).into_iter() {
            if let hcl::structure::Structure::Attribute(a) = s {
                inputs.insert(a.key.to_string(), a.expr);
            }
        }
        out.module_calls.insert(
            call.name.clone(),
            ModuleCall {
                name: call.name.clone(),
                source: call
                    .source
                    .as_ref()
                    .map(|s| s.as_str().to_string())
                    .unwrap_or_default(),
                count: call.count.as_ref().map(expr),
                for_each: call.for_each.as_ref().map(expr),
                enabled: None,
                depends_on: refs_of(&call.depends_on),
                providers: call
                    .providers
                    .iter()
                    .map(|p| (local_ref(&p.in_child), local_ref(&p.in_parent)))
                    .collect(),
                inputs,
            },
        );
    }
    for p in m.provider_configs.values() {
        out.provider_blocks.push(ProviderBlock {
            name: p.name.clone(),
            alias: p.alias.clone(),
            provider: provider(&p.provider),
            body: body(&p.config),
        });
    }
    for (name, rp) in &m.required_providers {
        out.required_providers
            .insert(name.clone(), provider(&rp.provider));
    }
    for i in &m.imports {
        let to = expr(&i.to);
        out.imports.push(Import {
            to_resource: import_target(&to),
            to: Some(to),
            id: i.id.as_ref().map(expr),
            for_each: i.for_each.as_ref().map(expr),
            provider_ref: i.provider_ref.as_ref().map(local_ref),
        });
    }
    // Every module call gets a child; calls the loader could not follow stay empty modules.
    for name in m.module_calls.keys() {
        let child = match c.children.get(name) {
            Some(cc) => module_from_config(cc),
            None => {
                let mut path = out.path.clone();
                path.push(name.clone());
                Module {
                    path,
                    ..Default::default()
                }
            }
        };
        out.children.insert(name.clone(), child);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// State, planned changes and provider schemas parsed by the crate's own readers.

use super::addr::{AbsProviderConfig, AbsResourceInstance, InstanceKey, ModuleInstanceStep};
use super::model::{Action, Change, Changes, State, StateInstance, StateResource};
use super::schema::{AttrType, Block, NestedBlock, Nesting, ProviderSchema, Schemas};

fn key(k: &addrs::InstanceKey) -> InstanceKey {
    match k {
        addrs::InstanceKey::None => InstanceKey::NoKey,
        addrs::InstanceKey::Int(i) => InstanceKey::Int(*i),
        addrs::InstanceKey::Str(s) => InstanceKey::Str(s.clone()),
    }
}

fn module_instance(m: &addrs::ModuleInstance) -> Vec<ModuleInstanceStep> {
    m.0.iter()
        .map(|s| ModuleInstanceStep {
            name: s.name.clone(),
            key: key(&s.key),
        })
        .collect()
}

fn abs_provider(p: &addrs::AbsProviderConfig) -> AbsProviderConfig {
    AbsProviderConfig {
        module: p.module.0.clone(),
        provider: provider(&p.provider),
        alias: p.alias.clone(),
    }
}

fn res(r: &addrs::Resource) -> Resource {
    Resource::new(mode(r.mode), &r.type_name, &r.name)
}

fn config_resource(c: &addrs::ConfigResource) -> ConfigResource {
    ConfigResource {
        module: c.module.0.clone(),
        resource: res(&c.resource),
    }
}

fn instance(a: &addrs::AbsResourceInstance) -> AbsResourceInstance {
    AbsResourceInstance {
        module: module_instance(&a.module),
        resource: res(&a.resource.resource),
        key: key(&a.resource.key),
    }
}

/// Converts a state read by [`crate::state::parse_state_json`].
pub fn state_from_crate(s: &crate::state::State) -> State {
    let mut out = State::default();
    for rs in s.resources.values() {
        let mut sr = StateResource {
            module: module_instance(&rs.addr.module),
            addr: res(&rs.addr.resource),
            provider: abs_provider(&rs.provider),
            instances: Vec::new(),
        };
        for (k, is) in &rs.instances {
            if let Some(cur) = &is.current {
                sr.instances.push(StateInstance {
                    key: key(k),
                    deposed: None,
                    dependencies: cur.dependencies.iter().map(config_resource).collect(),
                    create_before_destroy: cur.create_before_destroy,
                });
            }
            for (dk, obj) in &is.deposed {
                sr.instances.push(StateInstance {
                    key: key(k),
                    deposed: Some(dk.clone()),
                    dependencies: obj.dependencies.iter().map(config_resource).collect(),
                    create_before_destroy: obj.create_before_destroy,
                });
            }
        }
        out.resources.push(sr);
    }
    out
}

/// Converts planned changes read by [`crate::plan`].
pub fn changes_from_crate(c: &crate::plan::Changes) -> Changes {
    let mut out = Changes::default();
    for rc in &c.resources {
        let addr = instance(&rc.addr);
        let action = match rc.action {
            crate::plan::Action::NoOp => Action::NoOp,
            crate::plan::Action::Create => Action::Create,
            crate::plan::Action::Read => Action::Read,
            crate::plan::Action::Update => Action::Update,
            crate::plan::Action::DeleteThenCreate => Action::DeleteThenCreate,
            crate::plan::Action::CreateThenDelete => Action::CreateThenDelete,
            crate::plan::Action::Delete => Action::Delete,
            crate::plan::Action::Forget => Action::Forget,
        };
        out.resources.push(Change {
            prev_run_addr: rc
                .prev_run_addr
                .as_ref()
                .map(instance)
                .unwrap_or_else(|| addr.clone()),
            provider: rc
                .provider
                .as_ref()
                .map(abs_provider)
                .unwrap_or_else(|| AbsProviderConfig {
                    module: Vec::new(),
                    provider: Provider::default_for(&addr.resource.implied_provider()),
                    alias: None,
                }),
            deposed: rc.deposed.clone(),
            action,
            addr,
        });
    }
    out
}

fn cty_json(t: &crate::schema::CtyType) -> serde_json::Value {
    use crate::schema::CtyType as T;
    use serde_json::{Value, json};
    match t {
        T::String => json!("string"),
        T::Number => json!("number"),
        T::Bool => json!("bool"),
        T::Dynamic => json!("dynamic"),
        T::List(e) => json!(["list", cty_json(e)]),
        T::Set(e) => json!(["set", cty_json(e)]),
        T::Map(e) => json!(["map", cty_json(e)]),
        T::Object(m) => {
            let o: serde_json::Map<String, Value> =
                m.iter().map(|(k, v)| (k.clone(), cty_json(v))).collect();
            json!(["object", o])
        }
        T::Tuple(v) => json!(["tuple", v.iter().map(cty_json).collect::<Vec<_>>()]),
    }
}

fn block(b: &crate::schema::Block) -> Block {
    let mut out = Block::default();
    for (k, a) in &b.attributes {
        out.attributes.insert(k.clone(), AttrType(cty_json(&a.ty)));
    }
    for (k, nb) in &b.block_types {
        let nesting = match nb.nesting {
            crate::schema::NestingMode::Single => Nesting::Single,
            crate::schema::NestingMode::Group => Nesting::Group,
            crate::schema::NestingMode::List => Nesting::List,
            crate::schema::NestingMode::Set => Nesting::Set,
            crate::schema::NestingMode::Map => Nesting::Map,
        };
        out.block_types.insert(
            k.clone(),
            NestedBlock {
                nesting,
                block: block(&nb.block),
            },
        );
    }
    out
}

/// Converts provider schemas read by [`crate::schema::parse_schemas_json`].
pub fn schemas_from_crate(s: &crate::schema::ProviderSchemas) -> Schemas {
    let mut out = Schemas::default();
    for (p, ps) in &s.providers {
        let conv = |m: &std::collections::BTreeMap<String, crate::schema::Block>| {
            m.iter().map(|(k, b)| (k.clone(), block(b))).collect()
        };
        out.providers.insert(
            provider(p).to_string(),
            ProviderSchema {
                provider: ps.provider.as_ref().map(block),
                resources: conv(&ps.resource_types),
                data_sources: conv(&ps.data_sources),
                ephemeral: conv(&ps.ephemeral_resources),
            },
        );
    }
    out
}

/// Everything a builder needs, from the crate's readers.
pub fn inputs_from_crate(
    config: Option<&config::Config>,
    state: Option<&crate::state::State>,
    changes: Option<&crate::plan::Changes>,
    schemas: Option<&crate::schema::ProviderSchemas>,
) -> super::Inputs {
    super::Inputs {
        config: config.map(module_from_config),
        state: state.map(state_from_crate),
        changes: changes.map(changes_from_crate),
        schemas: schemas.map(schemas_from_crate),
        ..Default::default()
    }
}

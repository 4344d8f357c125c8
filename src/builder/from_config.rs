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

//! The values a vertex sees and produces, where the configuration and the root variable values
//! decide them: variables (and where their value came from: default, a variables file, `-var`,
//! `TF_VAR_`), locals, module inputs and outputs, `count` / `for_each` / `enabled` and the
//! instances they give, provider and resource arguments that depend only on those. Everything
//! else is unknown with its reason: the reference that is not known (`aws_instance.web.id`, an
//! attribute of a resource the provider returns), followed through locals, variables and module
//! outputs to where it starts, as OpenTofu's plan prints `(known after apply)`.
//!
//! Expressions are evaluated with hcl-rs's evaluator through [`crate::config::eval::evaluate`],
//! the evaluator the walk's expansion uses; what differs is how references are found: here each
//! reference an expression makes is resolved on demand (a local's own expression, a module
//! call's argument in the calling instance, a module's output in the module's instance), so a
//! value can be explained by the references it reads, and `module.NAME.OUTPUT` is known when
//! the output is. Every resolution is memoised per module instance and guarded against cycles;
//! every expression is metered as the expansion's are. Plain data and pure functions.

use crate::addrs::{AbsResourceInstance, ConfigResource, InstanceKey, Module, ModuleInstance};
use crate::config::eval::Instance;
use crate::config::model::Expr;
use std::collections::BTreeMap;

/// Most arguments listed per block.
const MAX_ARGUMENTS: usize = 40;

mod model;
mod render;
mod resolve;

pub use model::{Group, Inputs, Named, Shown, Subject, Unknown, UnknownKind, Values};
pub use render::render;
use render::{list_text, plural};
pub use resolve::MAX_LISTED_INSTANCES;
use resolve::{Resolver, ShownExt};

/// The values of the vertex `subject` stands for.
pub fn values(inputs: Inputs<'_>, subject: &Subject) -> Values {
    let mut r = Resolver::new(inputs);
    let mut out = Values::default();
    match subject {
        Subject::RootVariable(name) => {
            let shown = r.var(&ModuleInstance::root(), name).shown();
            out.groups.push(Group::one(
                format!("var.{name}"),
                Vec::new(),
                format!("var.{name}"),
                shown,
            ));
        }
        Subject::VariableReference { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let shown = r.var(mi, name).shown();
                Group::one(mi.to_string(), Vec::new(), format!("var.{name}"), shown)
            });
        }
        Subject::ModuleInput { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let reads = match r.call_argument(mi, name) {
                    Some((parent, expr, inst)) => r.reads(&parent, &expr, inst.as_ref()),
                    None => Vec::new(),
                };
                let shown = r.var(mi, name).shown();
                Group::one(mi.to_string(), reads, format!("var.{name}"), shown)
            });
        }
        Subject::Local { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let expr = r
                    .module_config(mi)
                    .and_then(|c| c.module.locals.get(name))
                    .map(|l| l.expr.clone());
                let reads = expr.map(|e| r.reads(mi, &e, None)).unwrap_or_default();
                let shown = r.local(mi, name).shown();
                Group::one(
                    title_in(mi, &format!("local.{name}")),
                    reads,
                    format!("local.{name}"),
                    shown,
                )
            });
        }
        Subject::Output { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let expr = r
                    .module_config(mi)
                    .and_then(|c| c.module.outputs.get(name))
                    .and_then(|o| o.expr.clone());
                let reads = expr.map(|e| r.reads(mi, &e, None)).unwrap_or_default();
                let shown = r.output(mi, name).shown();
                Group::one(
                    title_in(mi, &format!("output.{name}")),
                    reads,
                    format!("output.{name}"),
                    shown,
                )
            });
        }
        Subject::Module(path) => module_values(&mut r, path, &mut out),
        Subject::Resource(cr) => resource_values(&mut r, cr, &mut out),
        Subject::Instance(abs) => instance_values(&mut r, abs, &mut out),
        Subject::Provider {
            module,
            provider,
            alias,
        } => {
            let Some(block) = r.config.descendant(module).and_then(|c| {
                let local = c.module.local_name_for_provider(provider);
                let key = match alias {
                    Some(a) => format!("{local}.{a}"),
                    None => local,
                };
                c.module.provider_configs.get(&key).cloned()
            }) else {
                out.notes.push(
                    "No provider block: the provider is configured with no arguments.".to_string(),
                );
                return out;
            };
            let args = arguments(&block.config);
            r.per_module_instance(module, &mut out, |r, mi| {
                let title = if mi.is_root() {
                    "provider".to_string()
                } else {
                    mi.to_string()
                };
                r.block_group(title, mi, &args, None)
            });
        }
    }
    out
}

/// `module.m[0].local.x`, or `local.x` in the root module.
fn title_in(mi: &ModuleInstance, rest: &str) -> String {
    if mi.is_root() {
        rest.to_string()
    } else {
        format!("{mi}.{rest}")
    }
}

fn module_values(r: &mut Resolver<'_>, path: &Module, out: &mut Values) {
    let Some(parent) = path.parent() else {
        return;
    };
    let name = path.0.last().cloned().unwrap_or_default();
    let Some(call) = r
        .config
        .descendant(&parent)
        .and_then(|c| c.module.module_calls.get(&name))
        .cloned()
    else {
        return;
    };
    // The repetition, in each instance of the calling module.
    let mut children = Vec::new();
    r.per_module_instance(&parent, out, |r, pmi| {
        let mut g = Group {
            title: title_in(pmi, &format!("module.{name}")),
            ..Group::default()
        };
        let metas = [
            ("count", call.count.as_ref()),
            ("for_each", call.for_each.as_ref()),
            ("enabled", call.enabled.as_ref()),
        ];
        r.repetition(pmi, &metas, &mut g);
        match r.call_instances(pmi, &name) {
            Ok(keys) => {
                let names: Vec<String> = keys
                    .iter()
                    .map(|i| pmi.child(&name, i.key.clone()).to_string())
                    .collect();
                g.produces.push(Named {
                    name: "instances".into(),
                    shown: Shown::Known {
                        text: list_text(&names),
                        from: None,
                    },
                });
                children.extend(keys.into_iter().map(|i| pmi.child(&name, i.key)));
            }
            Err(u) => g.produces.push(Named {
                name: "instances".into(),
                shown: Shown::Unknown(u),
            }),
        }
        g
    });
    // The inputs each instance receives.
    let args = arguments(&call.config);
    let more = children.len().saturating_sub(MAX_LISTED_INSTANCES);
    for mi in children.into_iter().take(MAX_LISTED_INSTANCES) {
        let Some(pmi) = mi.parent() else { continue };
        let inst = r.call_instance(&pmi, &name, &mi);
        let title = format!("{mi} inputs");
        out.groups
            .push(r.block_group(title, &pmi, &args, inst.as_ref()));
    }
    if more > 0 {
        out.notes.push(format!(
            "… and {more} more instance{} of module.{name}.",
            plural(more)
        ));
    }
}

fn resource_values(r: &mut Resolver<'_>, cr: &ConfigResource, out: &mut Values) {
    let Some(res) = r
        .config
        .descendant(&cr.module)
        .and_then(|c| c.module.resource(&cr.resource))
        .cloned()
    else {
        out.notes.push(format!(
            "{cr} is not in the configuration: it has no values to show."
        ));
        return;
    };
    let mut instances = Vec::new();
    r.per_module_instance(&cr.module, out, |r, mi| {
        let mut g = Group {
            title: title_in(mi, &cr.resource.to_string()),
            ..Group::default()
        };
        let metas = [
            ("count", res.count.as_ref()),
            ("for_each", res.for_each.as_ref()),
            ("enabled", res.enabled.as_ref()),
        ];
        r.repetition(mi, &metas, &mut g);
        let repeated = metas.iter().any(|(_, e)| e.is_some());
        match r.resource_instances(mi, &cr.resource) {
            Ok(keys) => {
                if repeated {
                    let names: Vec<String> = keys
                        .iter()
                        .map(|i| {
                            cr.resource
                                .instance(i.key.clone())
                                .absolute(mi.clone())
                                .to_string()
                        })
                        .collect();
                    g.produces.push(Named {
                        name: "instances".into(),
                        shown: Shown::Known {
                            text: list_text(&names),
                            from: None,
                        },
                    });
                }
                instances.extend(keys.into_iter().map(|i| (mi.clone(), i)));
            }
            Err(u) => g.produces.push(Named {
                name: "instances".into(),
                shown: Shown::Unknown(u),
            }),
        }
        g
    });
    // A resource that is not repeated, in the root module: one group says it all.
    let single = out.groups.len() == 1
        && out.groups[0].produces.is_empty()
        && instances.len() == 1
        && instances[0].1.key == InstanceKey::None;
    if single {
        out.groups.clear();
    }
    let args = arguments(&res.config);
    let more = instances.len().saturating_sub(MAX_LISTED_INSTANCES);
    for (mi, inst) in instances.into_iter().take(MAX_LISTED_INSTANCES) {
        let title = cr
            .resource
            .instance(inst.key.clone())
            .absolute(mi.clone())
            .to_string();
        out.groups
            .push(r.block_group(title, &mi, &args, Some(&inst)));
    }
    if more > 0 {
        out.notes.push(format!(
            "… and {more} more instance{} of {}.",
            plural(more),
            cr.resource
        ));
    }
}

fn instance_values(r: &mut Resolver<'_>, abs: &AbsResourceInstance, out: &mut Values) {
    let module = abs.module.module();
    let Some(res) = r
        .config
        .descendant(&module)
        .and_then(|c| c.module.resource(&abs.resource.resource))
        .cloned()
    else {
        out.notes.push(format!(
            "{abs} is not in the configuration (it comes from the state): it has no values to show."
        ));
        return;
    };
    let inst = match &abs.resource.key {
        InstanceKey::None => None,
        key => Some(
            r.resource_instances(&abs.module, &abs.resource.resource)
                .ok()
                .and_then(|v| v.into_iter().find(|i| &i.key == key))
                .unwrap_or(Instance {
                    key: key.clone(),
                    each_value: None,
                }),
        ),
    };
    let args = arguments(&res.config);
    out.groups
        .push(r.block_group(abs.to_string(), &abs.module, &args, inst.as_ref()));
}

/// Each argument of a body, nested blocks' as `block.argument` (`block[1].argument` when the
/// block is repeated), at most [`MAX_ARGUMENTS`]; `dynamic` blocks are left out.
fn arguments(body: &crate::config::model::HclBody) -> Vec<(String, Expr)> {
    let mut out = Vec::new();
    collect_arguments(&body.body, &body.file, "", &mut out);
    out
}

fn collect_arguments(
    body: &hcl::edit::structure::Body,
    file: &std::sync::Arc<crate::diag::SourceFile>,
    prefix: &str,
    out: &mut Vec<(String, Expr)>,
) {
    for a in body.attributes() {
        if out.len() >= MAX_ARGUMENTS {
            return;
        }
        out.push((
            format!("{prefix}{}", a.key.as_str()),
            Expr::new(a.value.clone(), file),
        ));
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for b in body.blocks() {
        *counts.entry(b.ident.as_str()).or_default() += 1;
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for b in body.blocks() {
        let ident = b.ident.as_str();
        if ident == "dynamic" {
            continue;
        }
        let i = seen.entry(ident).or_default();
        let name = if counts[ident] > 1 {
            format!("{prefix}{ident}[{i}].")
        } else {
            format!("{prefix}{ident}.")
        };
        *i += 1;
        collect_arguments(&b.body, file, &name, out);
    }
}

#[cfg(test)]
mod tests;

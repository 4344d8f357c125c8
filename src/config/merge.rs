//! Override files (`override.tf`, `*_override.tf`): merging their blocks into the module's,
//! following OpenTofu's `Module.mergeFile` and the `merge` methods of each block type.
//!
//! Arguments set in the override win; bodies merge argument by argument, and any nested block
//! type present in the override replaces all base blocks of that type (also `dynamic` ones).

use super::model::{HclBody, Module};
use crate::addrs;
use crate::diag::{Diagnostic, SourceFile};
use crate::strconv::go_quote;
use hcl::edit::structure::{Body, Structure};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Merges two bodies (Go `MergeBodies`).
pub fn merge_bodies(base: &HclBody, over: &HclBody) -> HclBody {
    let mut over_attrs = BTreeSet::new();
    let mut over_blocks = BTreeSet::new();
    for s in over.body.iter() {
        match s {
            Structure::Attribute(a) => {
                over_attrs.insert(a.key.value().to_string());
            }
            Structure::Block(b) => {
                let ty = b.ident.value().to_string();
                if ty == "dynamic"
                    && let Some(l) = b.labels.first()
                {
                    over_blocks.insert(l.as_str().to_string());
                }
                over_blocks.insert(ty);
            }
        }
    }
    let mut body = Body::new();
    for s in base.body.iter() {
        let keep = match s {
            Structure::Attribute(a) => !over_attrs.contains(a.key.value().as_str()),
            Structure::Block(b) => {
                let ty = b.ident.value().as_str();
                let dyn_label = (ty == "dynamic")
                    .then(|| b.labels.first().map(|l| l.as_str().to_string()))
                    .flatten();
                !over_blocks.contains(ty) && !dyn_label.is_some_and(|l| over_blocks.contains(&l))
            }
        };
        if keep {
            body.push(s.clone());
        }
    }
    for s in over.body.iter() {
        body.push(s.clone());
    }
    HclBody {
        body,
        file: SourceFile::composite(&[base.file.clone(), over.file.clone()]),
    }
}

fn missing(
    diags: &mut Vec<Diagnostic>,
    summary: &str,
    detail: String,
    at: &crate::diag::SourceRange,
) {
    diags.push(Diagnostic::error(summary, detail, Some(at.clone())));
}

fn no_depends_on(diags: &mut Vec<Diagnostic>, deps: &[super::model::Expr]) {
    if let Some(first) = deps.first() {
        diags.push(Diagnostic::error(
            "Unsupported override",
            "The depends_on argument may not be overridden.",
            Some(first.range()),
        ));
    }
}

/// Merges an override file's declarations (decoded on their own into `over`) into `base`.
pub fn merge_override(base: &mut Module, over: Module, diags: &mut Vec<Diagnostic>) {
    for (name, rp) in over.required_providers {
        base.required_providers.insert(name, rp);
    }
    if over.backend.is_some() {
        base.backend = over.backend;
    }
    for (key, p) in over.provider_configs {
        match base.provider_configs.get_mut(&key) {
            Some(existing) => existing.config = merge_bodies(&existing.config, &p.config),
            None if p.alias.is_none() => {
                base.provider_configs.insert(key, p);
            }
            None => missing(
                diags,
                "Missing base provider configuration for override",
                format!(
                    "There is no {} provider configuration with the alias {}. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.",
                    p.name,
                    go_quote(p.alias.as_deref().unwrap_or_default())
                ),
                &p.decl_range,
            ),
        }
    }
    for (name, v) in over.variables {
        let Some(e) = base.variables.get_mut(&name) else {
            missing(
                diags,
                "Missing base variable declaration to override",
                format!(
                    "There is no variable named {}. An override file can only override a variable that was already declared in a primary configuration file.",
                    go_quote(&name)
                ),
                &v.decl_range,
            );
            continue;
        };
        if v.description.is_some() {
            e.description = v.description;
        }
        if v.sensitive {
            e.sensitive = true;
        }
        if v.default.is_some() {
            e.default = v.default;
        }
        if v.type_expr.is_some() {
            e.type_expr = v.type_expr;
        }
        if v.nullable.is_some() {
            e.nullable = v.nullable;
        }
    }
    for (name, l) in over.locals {
        let Some(e) = base.locals.get_mut(&name) else {
            missing(
                diags,
                "Missing base local value definition to override",
                format!(
                    "There is no local value named {}. An override file can only override a local value that was already defined in a primary configuration file.",
                    go_quote(&name)
                ),
                &l.decl_range,
            );
            continue;
        };
        e.expr = l.expr;
        e.decl_range = l.decl_range;
    }
    for (name, o) in over.outputs {
        let Some(e) = base.outputs.get_mut(&name) else {
            missing(
                diags,
                "Missing base output definition to override",
                format!(
                    "There is no output named {}. An override file can only override an output that was already defined in a primary configuration file.",
                    go_quote(&name)
                ),
                &o.decl_range,
            );
            continue;
        };
        if o.description.is_some() {
            e.description = o.description;
        }
        if o.expr.is_some() {
            e.expr = o.expr;
        }
        if o.sensitive {
            e.sensitive = true;
        }
        no_depends_on(diags, &o.depends_on);
    }
    for (name, mc) in over.module_calls {
        let Some(e) = base.module_calls.get_mut(&name) else {
            missing(
                diags,
                "Missing module call to override",
                format!(
                    "There is no module call named {}. An override file can only override a module call that was defined in a primary configuration file.",
                    go_quote(&name)
                ),
                &mc.decl_range,
            );
            continue;
        };
        if mc.source.is_some() {
            e.source = mc.source;
            e.source_range = mc.source_range;
        }
        if mc.count.is_some() {
            e.count = mc.count;
        }
        if mc.for_each.is_some() {
            e.for_each = mc.for_each;
        }
        if mc.version.is_some() {
            e.version = mc.version;
        }
        e.config = merge_bodies(&e.config, &mc.config);
        if !mc.providers.is_empty() {
            e.providers = mc.providers;
        }
        no_depends_on(diags, &mc.depends_on);
    }
    let kinds = [
        (
            over.managed_resources,
            "Missing resource to override",
            "resource",
            "resource",
        ),
        (
            over.data_resources,
            "Missing data resource to override",
            "data resource",
            "data",
        ),
        (
            over.ephemeral_resources,
            "Missing ephemeral resource to override",
            "ephemeral resource",
            "ephemeral",
        ),
    ];
    for (map, summary, what, block) in kinds {
        for (key, r) in map {
            // The override file's block is its own (nothing else holds it yet).
            let r = Arc::unwrap_or_clone(r);
            if r.container.is_some() {
                continue;
            }
            let target = match r.mode {
                addrs::ResourceMode::Managed => base.managed_resources.get_mut(&key),
                addrs::ResourceMode::Data => base.data_resources.get_mut(&key),
                addrs::ResourceMode::Ephemeral => base.ephemeral_resources.get_mut(&key),
            }
            .map(Arc::make_mut);
            let Some(e) = target else {
                missing(
                    diags,
                    summary,
                    format!(
                        "There is no {} {what} named {}. An override file can only override a {block} block defined in a primary configuration file.",
                        r.type_name,
                        go_quote(&r.name)
                    ),
                    &r.decl_range,
                );
                continue;
            };
            if r.count.is_some() {
                e.count = r.count;
            }
            if r.for_each.is_some() {
                e.for_each = r.for_each;
            }
            if r.enabled.is_some() {
                e.enabled = r.enabled;
            }
            if r.provider_ref.is_some() {
                e.provider_ref = r.provider_ref;
            }
            if let (Some(em), Some(om)) = (e.managed.as_mut(), r.managed) {
                if om.connection.is_some() {
                    em.connection = om.connection;
                }
                if om.create_before_destroy_set {
                    em.create_before_destroy = om.create_before_destroy;
                    em.create_before_destroy_set = true;
                }
                if !om.ignore_changes.is_empty() {
                    em.ignore_changes = om.ignore_changes;
                }
                if om.ignore_all_changes {
                    em.ignore_all_changes = true;
                }
                if om.prevent_destroy_set {
                    em.prevent_destroy = om.prevent_destroy;
                    em.prevent_destroy_set = true;
                    em.prevent_destroy_expr = om.prevent_destroy_expr;
                }
                if !om.provisioners.is_empty() {
                    em.provisioners = om.provisioners;
                }
            }
            e.config = merge_bodies(&e.config, &r.config);
            no_depends_on(diags, &r.depends_on);
        }
    }
    for m in &over.moved {
        diags.push(Diagnostic::error(
            "Cannot override 'moved' blocks",
            "Records of moved objects can appear only in normal files, not in override files.",
            Some(m.decl_range.clone()),
        ));
    }
    for i in &over.imports {
        diags.push(Diagnostic::error(
            "Cannot override 'import' blocks",
            "Import blocks can appear only in normal files, not in override files.",
            Some(i.decl_range.clone()),
        ));
    }
    for r in &over.removed {
        diags.push(Diagnostic::error(
            "Cannot override 'Removed' blocks",
            "Removed blocks can appear only in normal files, not in override files.",
            Some(r.decl_range.clone()),
        ));
    }
}

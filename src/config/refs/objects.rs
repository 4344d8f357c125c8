//! What each configuration object refers to: a resource's meta-arguments, body (with or without
//! its provider schema) and provisioners, an output, a module call and its inputs, a variable's
//! validations, a check, an import, a provider block, a `depends_on` entry. OpenTofu asks the same
//! of its graph nodes (`References()` in `internal/tofu/node_*.go`).

#![allow(clippy::result_large_err)] // diagnostics are returned unboxed: rare, and not on hot paths

use super::references::{Refs, index_key_refs, refs_in_body_full, refs_in_expr_full};
use crate::addrs::{Reference, parse_ref};
use crate::config::model::{
    Check, CheckRule, Expr, Import, ModuleCall, Output, ProviderBlock, Resource, Variable,
};
use crate::diag::Diagnostic;
use crate::schema;

/// References of several expressions together.
pub fn exprs_refs<'e>(exprs: impl IntoIterator<Item = &'e Expr>) -> Refs {
    let mut out = Refs::default();
    for e in exprs {
        out.extend(refs_in_expr_full(e));
    }
    out
}

/// References of check rules (`precondition`, `postcondition`, `validation`, `assert`): the
/// condition and the error message.
pub fn rules_refs(rules: &[CheckRule]) -> Refs {
    let mut out = Refs::default();
    for r in rules {
        out.extend(refs_in_expr_full(&r.condition));
        if let Some(m) = &r.error_message {
            out.extend(refs_in_expr_full(m));
        }
    }
    out
}

/// The references of a resource block split the way OpenTofu's `NodeAbstractResource.References`
/// needs them (see the conformance README, "How a reimplementation should use it").
#[derive(Debug, Clone, Default)]
pub struct ResourceRefParts {
    /// Never needs a schema: `depends_on`, `count`, `for_each`, `lifecycle.enabled`, the provider
    /// instance-key expression, `replace_triggered_by`, `prevent_destroy`, pre/postconditions and
    /// `connection` blocks (read in full, as against the connection superset schema).
    pub meta: Refs,
    /// The resource body: read only when a schema is attached (`None` schema = every attribute,
    /// for user-facing analysis; OpenTofu itself skips the body when the schema is nil).
    pub body: Refs,
    /// Create-time provisioner bodies (and their connection blocks).
    pub provisioners: Refs,
}

/// References in the meta-arguments of a resource (never schema-dependent).
pub fn resource_meta_refs(r: &Resource) -> Refs {
    let mut out = Refs::default();
    out.extend(exprs_refs(&r.depends_on));
    out.extend(exprs_refs(r.count.iter()));
    out.extend(exprs_refs(r.for_each.iter()));
    out.extend(exprs_refs(r.enabled.iter()));
    if let Some(p) = &r.provider_ref {
        out.extend(exprs_refs(p.key_expr.iter()));
    }
    out.extend(exprs_refs(&r.triggers_replacement));
    if let Some(m) = &r.managed {
        out.extend(exprs_refs(m.prevent_destroy_expr.iter()));
    }
    out.extend(rules_refs(&r.preconditions));
    out.extend(rules_refs(&r.postconditions));
    if let Some(m) = &r.managed
        && let Some(c) = &m.connection
    {
        out.extend(refs_in_body_full(&c.config, None));
    }
    out
}

/// References in a resource's create-time provisioners. `schema_for(type)` gives a provisioner
/// schema; `None` from it reads nothing (OpenTofu's nil provisioner schema) unless
/// `read_all_without_schema` is set (user-facing mode).
pub fn resource_provisioner_refs(
    r: &Resource,
    schema_for: &dyn Fn(&str) -> Option<schema::Block>,
    read_all_without_schema: bool,
) -> Refs {
    let mut out = Refs::default();
    let Some(m) = &r.managed else { return out };
    for p in &m.provisioners {
        if p.when != crate::config::model::ProvisionerWhen::Create {
            continue;
        }
        match schema_for(&p.type_name) {
            Some(s) => out.extend(refs_in_body_full(&p.config, Some(&s))),
            None if read_all_without_schema => out.extend(refs_in_body_full(&p.config, None)),
            None => {}
        }
        if let Some(c) = &p.connection {
            out.extend(refs_in_body_full(&c.config, None));
        }
    }
    out
}

/// All parts of a resource's references. `schema` is the resource type's schema; with
/// `schema_nil_reads_nothing` the body is skipped when `schema` is `None` (OpenTofu's
/// behaviour), otherwise every attribute is read.
pub fn resource_refs(
    r: &Resource,
    schema: Option<&schema::Block>,
    schema_nil_reads_nothing: bool,
) -> ResourceRefParts {
    let body = match (schema, schema_nil_reads_nothing) {
        (Some(s), _) => refs_in_body_full(&r.config, Some(s)),
        (None, true) => Refs::default(),
        (None, false) => refs_in_body_full(&r.config, None),
    };
    ResourceRefParts {
        meta: resource_meta_refs(r),
        body,
        provisioners: resource_provisioner_refs(r, &|_| None, !schema_nil_reads_nothing),
    }
}

/// [`resource_refs`] without a schema (every attribute read, `schema_nil_reads_nothing` false)
/// for a resource whose body was not kept: `body` holds the body's references, found where the
/// body was parsed ([`super::refs_in_structures`]).
pub fn resource_refs_of_body(r: &Resource, body: Refs) -> ResourceRefParts {
    ResourceRefParts {
        meta: resource_meta_refs(r),
        body,
        provisioners: resource_provisioner_refs(r, &|_| None, true),
    }
}

/// All of a resource's references in one list: the meta-arguments', the body's, then the
/// create-time provisioners' (the order of `NodeAbstractResource.References`).
pub fn all_resource_refs(parts: ResourceRefParts) -> Refs {
    let mut out = parts.meta;
    out.extend(parts.body);
    out.extend(parts.provisioners);
    out
}

/// Resources' references as [`resource_refs`] reads them without a schema (every attribute):
/// found once and handed on instead of walking the same bodies again. The CLI's loader finds them
/// as it finishes each module, while its bodies are still in the processor's caches
/// (`config::load_dir_keeping_references`); the reference validation takes those (or walks) and
/// keeps them again for the graph's `ReferenceTransformer`. At 10,000 resources each walk of the
/// bodies after loading was about 8% of `tfgraph graph`'s time, most of it waiting on memory.
/// Kept by the resource's place in memory, so an entry is only good while the configuration that
/// holds the resource is alive and unchanged: one load and one build of one configuration. Each
/// entry also holds the resource's [`Resource::serial`], checked when it is taken: a resource
/// found at a place where another one was kept (a configuration dropped and another made in its
/// memory) gets nothing, and its body is walked as without a memo. (The check was a hash of the
/// resource's type, name and file: three strings read again for each of the 20,000 inserts and
/// takes at 10,000 resources, most of them cache misses.) The parts are held in the table itself:
/// boxed, each entry was an allocation more, `tfgraph graph` 4% slower and the JSON graph's peak
/// 2 MB higher.
#[derive(Clone, Default)]
pub struct ResourceRefsMemo {
    by_resource: rustc_hash::FxHashMap<usize, (crate::config::model::Serial, ResourceRefParts)>,
}

impl std::fmt::Debug for ResourceRefsMemo {
    // The keys are addresses in memory: only the count is worth showing.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ResourceRefsMemo({} resources)", self.by_resource.len())
    }
}

impl ResourceRefsMemo {
    fn key(r: &Resource) -> usize {
        std::ptr::from_ref(r) as usize
    }

    /// Keeps `parts` as `r`'s references (replacing any kept before).
    pub fn insert(&mut self, r: &Resource, parts: ResourceRefParts) {
        self.by_resource.insert(Self::key(r), (r.serial, parts));
    }

    /// `r`'s references when they were kept for it, taken out (each is used once).
    pub fn take(&mut self, r: &Resource) -> Option<ResourceRefParts> {
        let (serial, parts) = self.by_resource.remove(&Self::key(r))?;
        (serial == r.serial).then_some(parts)
    }

    pub fn len(&self) -> usize {
        self.by_resource.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_resource.is_empty()
    }
}

/// References of an output: `value`, `depends_on`, preconditions.
pub fn output_refs(o: &Output) -> Refs {
    let mut out = exprs_refs(o.expr.iter());
    out.extend(exprs_refs(&o.depends_on));
    out.extend(rules_refs(&o.preconditions));
    out
}

/// References of a module call's meta-arguments: `count`, `for_each`, `lifecycle.enabled`,
/// `depends_on` and the
/// provider instance keys in `providers`. Input variables are per argument, see
/// [`module_input_refs`].
pub fn module_call_refs(m: &ModuleCall) -> Refs {
    let mut out = exprs_refs(m.count.iter());
    out.extend(exprs_refs(m.for_each.iter()));
    out.extend(exprs_refs(m.enabled.iter()));
    out.extend(exprs_refs(&m.depends_on));
    for p in &m.providers {
        out.extend(exprs_refs(p.in_parent.key_expr.iter()));
    }
    out
}

/// References in one input-variable argument of a module call (`None` when not set).
pub fn module_input_refs(m: &ModuleCall, variable: &str) -> Option<Refs> {
    m.config.attr(variable).map(|e| refs_in_expr_full(&e))
}

/// References in every argument of a module call body (all inputs).
pub fn module_inputs_refs(m: &ModuleCall) -> Refs {
    refs_in_body_full(&m.config, None)
}

/// References of a variable's validation rules and default.
pub fn variable_refs(v: &Variable) -> Refs {
    let mut out = exprs_refs(v.default.iter());
    out.extend(rules_refs(&v.validations));
    out
}

/// References of a check block's asserts (its scoped data block is a resource of its own).
pub fn check_refs(c: &Check) -> Refs {
    rules_refs(&c.asserts)
}

/// References of an import block (`id`, `identity`, `for_each`, the provider key and the
/// index expressions inside `to`).
pub fn import_refs(i: &Import) -> Refs {
    let mut out = exprs_refs(i.id.iter());
    out.extend(exprs_refs(i.identity.iter()));
    out.extend(exprs_refs(i.for_each.iter()));
    if let Some(p) = &i.provider_ref {
        out.extend(exprs_refs(p.key_expr.iter()));
    }
    out.extend(import_to_refs(i));
    out
}

/// The references in the computed index keys of an import block's `to` (Go
/// `referencesInImportAddress`); the address itself is not a reference.
pub fn import_to_refs(i: &Import) -> Refs {
    index_key_refs(&i.to)
}

/// References of a provider block body read through its schema (`None`: every attribute), plus
/// its `for_each`.
pub fn provider_block_refs(p: &ProviderBlock, schema: Option<&schema::Block>) -> Refs {
    let mut out = refs_in_body_full(&p.config, schema);
    out.extend(exprs_refs(p.for_each.iter()));
    out
}

/// The static traversal steps and referenceable of a `depends_on` element (Go parses these with
/// `ParseRef`), or the diagnostic.
pub fn depends_on_ref(e: &Expr) -> Result<Reference, Diagnostic> {
    match crate::addrs::traversal::static_traversal(&e.expr) {
        Some(steps) => parse_ref(&steps, &e.range()),
        None => Err(Diagnostic::error(
            "Invalid expression",
            "A single static variable reference is required.",
            Some(e.range()),
        )),
    }
}

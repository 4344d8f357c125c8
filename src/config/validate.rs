//! Checks that every reference in a configuration names something declared, with the
//! diagnostics OpenTofu's validate walk gives for undeclared objects.
//!
//! This reads bodies without provider schemas (every attribute counts), which is the
//! user-facing mode: a reference in an argument the provider does not declare is still checked.

use super::model::{Config, Module, ProvisionerWhen};
use super::refs::{self, Refs};
use crate::addrs::Reference;
use crate::addrs::traversal::Step;
use crate::addrs::{self, Referenceable, ResourceMode};
use crate::diag::Diagnostic;
use crate::strconv::go_quote;

/// Where a group of references is written: the check block (if any) and whether `count` /
/// `each` are available there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefContext {
    pub container: Option<String>,
    pub count: bool,
    pub for_each: bool,
}

/// Every reference and provider-function call in one module, read without schemas, grouped by
/// the context they are written in.
pub fn module_refs_by_context(m: &Module) -> Vec<(RefContext, Refs)> {
    refs_by_context(
        m,
        &mut refs::ResourceRefsMemo::default(),
        None,
        &mut |_, _| {},
    )
    .into_iter()
    .map(|(ctx, r, _)| (ctx, r))
    .collect()
}

/// The references in a resource's `count` and `for_each` expressions (which cannot use
/// `count`/`each` themselves).
fn meta_self_refs(r: &super::model::Resource) -> Refs {
    refs::exprs_refs(r.count.iter().chain(&r.for_each))
}

/// [`module_refs_by_context`], handing each resource's references to `parts` first (the
/// self-reference check reads the body's, so they are walked once); a resource's references are
/// taken from `found` when it has them. With `keep`, each resource's references are to be kept
/// there for the graph's `ReferenceTransformer`: a resource's entry that holds exactly the list
/// the transformer reads (the meta-arguments', the body's and the create-time provisioners', in
/// that order: no destroy-time provisioner and no reference in `count` or `for_each`, the usual
/// case) names the resource, for the caller to keep once it has checked them; any other
/// resource's are kept here, copied before they are merged.
fn refs_by_context<'m>(
    m: &'m Module,
    found: &mut refs::ResourceRefsMemo,
    mut keep: Option<&mut refs::ResourceRefsMemo>,
    parts: &mut dyn FnMut(&super::model::Resource, &refs::ResourceRefParts),
) -> Vec<(RefContext, Refs, Option<&'m super::model::Resource>)> {
    // Two entries per resource, then one per module call, import and provider configuration
    // and the rest (checks may add more): reserved, as an entry is large.
    let mut out: Vec<(RefContext, Refs, Option<&super::model::Resource>)> = Vec::with_capacity(
        2 * m.all_resources_with_checks().count()
            + m.module_calls.len()
            + m.imports.len()
            + m.provider_configs.len()
            + 1,
    );
    let plain = RefContext::default();
    for r in m.all_resources_with_checks() {
        let mut here = Refs::default();
        let r_parts = found
            .take(r)
            .unwrap_or_else(|| refs::resource_refs(r, None, false));
        parts(r, &r_parts);
        let parts = r_parts;
        let mut destroy = Refs::default();
        if let Some(mr) = &r.managed {
            for p in &mr.provisioners {
                if p.when == ProvisionerWhen::Destroy {
                    destroy.extend(refs::refs_in_body_full(&p.config, None));
                }
            }
        }
        // The count and for_each expressions themselves cannot use count/each.
        let meta_self = meta_self_refs(r);
        let whole = meta_self.refs.is_empty()
            && destroy.refs.is_empty()
            && destroy.funcs.is_empty()
            && destroy.diags.is_empty();
        if !whole && let Some(keep) = keep.as_deref_mut() {
            keep.insert(r, parts.clone());
        }
        here.extend(parts.meta);
        here.extend(parts.body);
        here.extend(destroy);
        here.extend(parts.provisioners);
        let ctx = RefContext {
            container: r.container.clone(),
            count: r.count.is_some(),
            for_each: r.for_each.is_some(),
        };
        here.refs.retain(|x| !meta_self.refs.contains(x));
        out.push((ctx, here, (whole && keep.is_some()).then_some(r)));
        out.push((
            RefContext {
                container: r.container.clone(),
                ..RefContext::default()
            },
            meta_self,
            None,
        ));
    }
    let mut rest = Refs::default();
    for o in m.outputs.values() {
        rest.extend(refs::output_refs(o));
    }
    for l in m.locals.values() {
        rest.extend(refs::refs_in_expr_full(&l.expr));
    }
    for mc in m.module_calls.values() {
        let meta = refs::exprs_refs(mc.count.iter().chain(&mc.for_each));
        let mut inner = refs::module_call_refs(mc);
        inner.extend(refs::module_inputs_refs(mc));
        inner.refs.retain(|x| !meta.refs.contains(x));
        rest.extend(meta);
        out.push((
            RefContext {
                container: None,
                count: mc.count.is_some(),
                for_each: mc.for_each.is_some(),
            },
            inner,
            None,
        ));
    }
    for v in m.variables.values() {
        rest.extend(refs::variable_refs(v));
    }
    for i in &m.imports {
        let r = refs::import_refs(i);
        let ctx = RefContext {
            container: None,
            count: false,
            for_each: i.for_each.is_some(),
        };
        out.push((ctx, r, None));
    }
    for p in m.provider_configs.values() {
        let ctx = RefContext {
            container: None,
            count: false,
            for_each: p.for_each.is_some(),
        };
        out.push((ctx, refs::provider_block_refs(p, None), None));
    }
    out.push((plain, rest, None));
    for c in m.checks.values() {
        out.push((
            RefContext {
                container: Some(c.name.clone()),
                ..RefContext::default()
            },
            refs::check_refs(c),
            None,
        ));
    }
    out
}

/// Like [`module_refs_by_context`], grouped by check block only.
pub fn module_refs_by_container(m: &Module) -> Vec<(Option<String>, Refs)> {
    module_refs_by_context(m)
        .into_iter()
        .map(|(c, r)| (c.container, r))
        .collect()
}

/// Every reference and provider-function call in one module, read without schemas.
pub fn module_refs(m: &Module) -> Refs {
    let mut out = Refs::default();
    for (_, r) in module_refs_by_container(m) {
        out.extend(r);
    }
    out
}

/// Go `staticValidateModuleCallReference` (tofu/evaluate_valid.go): the closest module call name,
/// among the sorted names, as " Did you mean …?" (empty when none is close).
fn module_suggestion(m: &Module, name: &str) -> String {
    let names: Vec<&str> = m.module_calls.keys().map(String::as_str).collect();
    crate::didyoumean::name_suggestion(name, &names)
        .map(|s| format!(" Did you mean {}?", go_quote(s)))
        .unwrap_or_default()
}

/// The module a diagnostic names ("the root module" or its path), written only when a
/// diagnostic is: a string made for every reference checked was a quarter of the checking.
struct ModuleDisplay<'a>(&'a Config);

impl std::fmt::Display for ModuleDisplay<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.path.is_root() {
            f.write_str("the root module")
        } else {
            write!(f, "{}", self.0.path)
        }
    }
}

/// Checks one reference against the module it appears in; `None` when it resolves. `container`
/// is the check block the reference is written in, if any: data blocks scoped in a check can
/// only be referenced from inside that check.
pub fn check_reference(c: &Config, r: &Reference, ctx: &RefContext) -> Option<Diagnostic> {
    let container = ctx.container.as_deref();
    let m = &c.module;
    let here = ModuleDisplay(c);
    let err = |summary: &str, detail: String| {
        Some(Diagnostic::error(summary, detail, Some(r.range.get())))
    };
    match &r.subject {
        Referenceable::Resource(a) | Referenceable::ResourceInstance(addrs::ResourceInstance { resource: a, .. }) => {
            // Go `staticValidateResourceReference` and `candidateSuggestion`
            // (tofu/evaluate_valid.go).
            let adjective = |mode: ResourceMode| match mode {
                ResourceMode::Managed => "managed",
                ResourceMode::Data => "data",
                ResourceMode::Ephemeral => "ephemeral",
            };
            if let Some(found) = m.resource(a) {
                return match &found.container {
                    Some(check) if container != Some(check.as_str()) => err(
                        "Reference to scoped resource",
                        format!(
                            "The referenced {} resource {} {} is not available from this context.",
                            adjective(a.mode),
                            go_quote(&a.type_name),
                            go_quote(&a.name)
                        ),
                    ),
                    _ => None,
                };
            }
            // A common slip is leaving out (or adding) the `data.` / `ephemeral.` prefix.
            let others = match a.mode {
                ResourceMode::Managed => [ResourceMode::Data, ResourceMode::Ephemeral],
                ResourceMode::Data => [ResourceMode::Managed, ResourceMode::Ephemeral],
                ResourceMode::Ephemeral => [ResourceMode::Managed, ResourceMode::Data],
            };
            let suggestion = others
                .into_iter()
                .map(|mode| addrs::Resource {
                    mode,
                    ..a.clone()
                })
                .find(|cand| m.resource(cand).is_some())
                .map(|cand| {
                    let block = match cand.mode {
                        ResourceMode::Managed => "resource",
                        ResourceMode::Data => "data",
                        ResourceMode::Ephemeral => "ephemeral",
                    };
                    format!("\n\nDid you mean the {block} resource {cand}?")
                })
                .unwrap_or_default();
            err(
                "Reference to undeclared resource",
                format!(
                    "There is no {} resource {} {} definition in {here}.{suggestion}",
                    adjective(a.mode),
                    go_quote(&a.type_name),
                    go_quote(&a.name)
                ),
            )
        }
        Referenceable::ModuleCall(call)
        | Referenceable::ModuleCallInstance(addrs::ModuleCallInstance { call, .. }) => {
            if m.module_calls.contains_key(&call.name) {
                None
            } else {
                err(
                    "Reference to undeclared module",
                    format!(
                        "No module call named {} is declared in {here}.{}",
                        go_quote(&call.name),
                        module_suggestion(m, &call.name)
                    ),
                )
            }
        }
        Referenceable::ModuleCallInstanceOutput(o) => {
            let name = &o.call.call.name;
            if !m.module_calls.contains_key(name) {
                return err(
                    "Reference to undeclared module",
                    format!(
                        "No module call named {} is declared in {here}.{}",
                        go_quote(name),
                        module_suggestion(m, name)
                    ),
                );
            }
            match c.children.get(name) {
                // HCL's `GetAttr` (ops.go) on the module's object, reached through the
                // traversal step `.NAME`: its range starts at the dot (hclsyntax parser.go
                // builds `TraverseAttr.SrcRange` from the dot to the name). The step is the
                // reference's last, so it ends where the reference ends.
                Some(child) if !child.module.outputs.contains_key(&o.name) => {
                    let mut at = r.range.get();
                    let chars = o.name.chars().count() + 1;
                    if at.end.line == at.start.line && at.end.column > at.start.column + chars {
                        at.start.column = at.end.column - chars;
                        at.start.byte = at.end.byte.saturating_sub(o.name.len() + 1);
                    }
                    Some(Diagnostic::error(
                        "Unsupported attribute",
                        format!(
                            "This object does not have an attribute named {}.",
                            go_quote(&o.name)
                        ),
                        Some(at),
                    ))
                }
                _ => None,
            }
        }
        // Go `GetInputVariable` / `GetLocalValue` (tofu/evaluate.go): a close name is suggested
        // (`didyoumean.NameSuggestion` over the module's names; Go's map order is random, ours
        // sorted).
        Referenceable::InputVariable(n) => (!m.variables.contains_key(n)).then(|| {
            let names: Vec<&str> = m.variables.keys().map(String::as_str).collect();
            let hint = match crate::didyoumean::name_suggestion(n, &names) {
                Some(s) => format!(" Did you mean {}?", go_quote(s)),
                None => format!(
                    " This variable can be declared with a variable {} {{}} block.",
                    go_quote(n)
                ),
            };
            Diagnostic::error(
                "Reference to undeclared input variable",
                format!(
                    "An input variable with the name {} has not been declared.{hint}",
                    go_quote(n)
                ),
                Some(r.range.get()),
            )
        }),
        Referenceable::LocalValue(n) => (!m.locals.contains_key(n)).then(|| {
            let names: Vec<&str> = m.locals.keys().map(String::as_str).collect();
            let hint = crate::didyoumean::name_suggestion(n, &names)
                .map(|s| format!(" Did you mean {}?", go_quote(s)))
                .unwrap_or_default();
            Diagnostic::error(
                "Reference to undeclared local value",
                format!(
                    "A local value with the name {} has not been declared.{hint}",
                    go_quote(n)
                ),
                Some(r.range.get()),
            )
        }),
        // Go `GetCountAttr` / `GetForEachAttr` (tofu/evaluate.go) check the attribute name
        // first and the context after, so `count.foo` outside a counted block is an invalid
        // attribute, and `each.value` without `for_each` has a wording of its own.
        Referenceable::CountAttr(n) if n != "index" => err(
            "Invalid \"count\" attribute",
            format!(
                "The \"count\" object does not have an attribute named {}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set.",
                go_quote(n)
            ),
        ),
        Referenceable::CountAttr(_) if !ctx.count => err(
            "Reference to \"count\" in non-counted context",
            "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.".to_string(),
        ),
        Referenceable::ForEachAttr(n) if n != "key" && n != "value" => err(
            "Invalid \"each\" attribute",
            format!(
                "The \"each\" object does not have an attribute named {}. The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set.",
                go_quote(n)
            ),
        ),
        Referenceable::ForEachAttr(n) if !ctx.for_each && n == "value" => err(
            "each.value cannot be used in this context",
            "A reference to \"each.value\" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its \"for_each\" expression. Remove this reference to each.value in your configuration to work around this error.".to_string(),
        ),
        Referenceable::ForEachAttr(_) if !ctx.for_each => err(
            "Reference to \"each\" in context without for_each",
            "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.".to_string(),
        ),
        Referenceable::PathAttr(n) if !matches!(n.as_str(), "module" | "root" | "cwd") => err(
            "Invalid \"path\" attribute",
            format!(
                "The \"path\" object does not have an attribute named {}.{}",
                go_quote(n),
                crate::didyoumean::name_suggestion(n, &["cwd", "module", "root"])
                    .map(|s| format!(" Did you mean {}?", go_quote(s)))
                    .unwrap_or_default()
            ),
        ),
        Referenceable::TerraformAttr { alias, name } if name != "workspace" => err(
            &format!("Invalid {} attribute", go_quote(alias)),
            format!(
                "The {} object does not have an attribute named {}. The only supported attribute is {alias}.workspace, the name of the currently-selected workspace.",
                go_quote(alias),
                go_quote(name)
            ),
        ),
        _ => None,
    }
}

/// Checks every reference in every module of a configuration. Returns the diagnostics (in
/// source order) and the number of references checked.
pub fn validate_references(cfg: &Config) -> (Vec<Diagnostic>, usize) {
    validate_references_keeping(cfg, &mut refs::ResourceRefsMemo::default(), None)
}

/// [`validate_references`], taking resources' references from `found` when it has them (the
/// loader's, [`super::load_dir_keeping_references`]) and keeping each resource's in `keep` when
/// given (the graph builder's `ReferenceTransformer` reads bodies without a schema the same way;
/// see [`refs::ResourceRefsMemo`]).
pub fn validate_references_keeping(
    cfg: &Config,
    found: &mut refs::ResourceRefsMemo,
    mut keep: Option<&mut refs::ResourceRefsMemo>,
) -> (Vec<Diagnostic>, usize) {
    let mut diags = Vec::new();
    let mut checked = 0;
    // Each module's self-referencing resources, found in the same walk, reported where they
    // always were: after every module's undeclared references.
    let mut resources_referring_to_themselves = Vec::new();
    for c in cfg.all_modules() {
        let mut own = Vec::new();
        let by_context = refs_by_context(&c.module, found, keep.as_deref_mut(), &mut |r, parts| {
            own.extend(self_references_of(r, &parts.body));
        });
        resources_referring_to_themselves.push(own);
        for (ctx, r, whole) in by_context {
            diags.extend(r.diags.iter().cloned());
            for reference in &r.refs {
                checked += 1;
                if let Some(d) = check_reference(c, reference, &ctx) {
                    diags.push(d);
                }
            }
            // A resource's whole list, checked: kept as it is (see `refs_by_context`).
            if let (Some(res), Some(keep)) = (whole, keep.as_deref_mut()) {
                let meta = r;
                keep.insert(
                    res,
                    refs::ResourceRefParts {
                        meta,
                        ..Default::default()
                    },
                );
            }
        }
    }
    for (c, own) in cfg
        .all_modules()
        .into_iter()
        .zip(resources_referring_to_themselves)
    {
        diags.extend(own);
        diags.extend(self_referencing_locals(&c.module));
        diags.extend(meta_literals(&c.module));
        diags.extend(module_call_arguments(c));
    }
    // Report in source order (file, then position), as a user reads them.
    diags.sort_by(|a, b| {
        let key = |d: &Diagnostic| d.range.as_ref().map(|r| (r.file.clone(), r.start.byte));
        key(a).cmp(&key(b))
    });
    (diags, checked)
}

/// The byte ranges of a reference's remaining steps in its file's text, as HCL's parser makes
/// them (`TraverseAttr`: from the dot to the name; `TraverseIndex`: from `[` to `]`, or the dot
/// and number of a legacy `.0`), found by reading the text after the reference's subject. `None`
/// if the text does not read as those steps.
fn step_ranges(text: &str, from: usize, steps: &[Step]) -> Option<Vec<(usize, usize)>> {
    let b = text.as_bytes();
    let skip = |mut i: usize| {
        while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
            i += 1;
        }
        i
    };
    let mut at = from;
    let mut out = Vec::new();
    for step in steps {
        let start = skip(at);
        match (b.get(start), step) {
            (Some(b'.'), _) => {
                let name = skip(start + 1);
                let len = text
                    .get(name..)?
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                    .unwrap_or(text.len() - name);
                if len == 0 {
                    return None;
                }
                at = name + len;
            }
            (Some(b'['), Step::Index(_)) => {
                let mut depth = 0usize;
                let mut i = start;
                let mut in_str = false;
                loop {
                    match (b.get(i)?, in_str) {
                        (b'\\', true) => i += 1,
                        (b'"', _) => in_str = !in_str,
                        (b'[', false) => depth += 1,
                        (b']', false) => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                at = i + 1;
            }
            _ => return None,
        }
        out.push((start, at));
    }
    Some(out)
}

/// Go `Block.StaticValidateTraversal` and `NestedBlock.staticValidateTraversal`
/// (configschema/validate_traversal.go): the steps after a resource must name what its schema
/// has. Attribute steps past an attribute are left to evaluation, as Go leaves them to HCL.
fn static_validate_traversal(
    block: &crate::schema::Block,
    steps: &[Step],
    ranges: &[crate::diag::SourceRange],
) -> Option<Diagnostic> {
    use crate::schema::NestingMode;
    let (first, range) = (steps.first()?, ranges.first()?.clone());
    let name = match first {
        Step::Attr(n) => n,
        Step::Index(key) => {
            let detail = match key {
                addrs::InstanceKey::Str(s) if crate::hclsyntax::valid_identifier(s) => format!(
                    "Only attribute access is allowed here. Did you mean to access attribute {} using the dot operator?",
                    go_quote(s)
                ),
                _ => "Only attribute access is allowed here, using the dot operator.".to_string(),
            };
            return Some(Diagnostic::error(
                "Invalid index operation",
                detail,
                Some(range),
            ));
        }
    };
    if block.attributes.contains_key(name) {
        return None;
    }
    if let Some(nested) = block.block_types.get(name) {
        let (after, after_ranges) = (&steps[1..], &ranges[1..]);
        return match nested.nesting {
            NestingMode::Single | NestingMode::Group => {
                static_validate_traversal(&nested.block, after, after_ranges)
            }
            _ if after.is_empty() => None,
            NestingMode::Set => Some(Diagnostic::error(
                "Cannot index a set value",
                format!(
                    "Block type {} is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a \"for\" expression with an \"if\" clause.",
                    go_quote(name)
                ),
                after_ranges.first().cloned(),
            )),
            NestingMode::List => match after[0] {
                Step::Index(_) => {
                    static_validate_traversal(&nested.block, &after[1..], &after_ranges[1..])
                }
                Step::Attr(_) => Some(Diagnostic::error(
                    "Invalid operation",
                    format!(
                        "Block type {} is represented by a list of objects, so it must be indexed using a numeric key, like .{name}[0].",
                        go_quote(name)
                    ),
                    after_ranges.first().cloned(),
                )),
            },
            NestingMode::Map => {
                static_validate_traversal(&nested.block, &after[1..], &after_ranges[1..])
            }
        };
    }
    let names: Vec<&str> = block
        .attributes
        .keys()
        .chain(block.block_types.keys())
        .map(String::as_str)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let hint = crate::didyoumean::name_suggestion(name, &names)
        .map(|s| format!(" Did you mean {}?", go_quote(s)))
        .unwrap_or_default();
    Some(Diagnostic::error(
        "Unsupported attribute",
        format!(
            "This object has no argument, nested block, or exported attribute named {}.{hint}",
            go_quote(name)
        ),
        Some(range),
    ))
}

/// With provider schemas: every reference to a declared resource is checked against the
/// resource type's schema, as OpenTofu's `staticValidateResourceReference`
/// (tofu/evaluate_valid.go) does once it has the schema: "Unsupported attribute" with a
/// close name suggested (`didyoumean.NameSuggestion` over the sorted attribute and block type
/// names), at the step's range. Resources whose type the schemas do not have are left alone.
pub fn validate_reference_attributes(
    cfg: &Config,
    schemas: &crate::schema::ProviderSchemas,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for c in cfg.all_modules() {
        let m = &c.module;
        for (_, r) in module_refs_by_context(m) {
            for reference in &r.refs {
                let addr = match &reference.subject {
                    Referenceable::Resource(a) => a,
                    Referenceable::ResourceInstance(i) => &i.resource,
                    _ => continue,
                };
                if reference.remaining.is_empty() {
                    continue;
                }
                let Some(res) = m.resource(addr) else {
                    continue;
                };
                let Some(block) = schemas.resource(&res.provider, addr.mode, &addr.type_name)
                else {
                    continue;
                };
                let at = &reference.range.get();
                let Some(file) = m.files.values().find(|f| f.name == at.file) else {
                    continue;
                };
                let Some(ranges) = step_ranges(&file.text, at.end.byte, &reference.remaining)
                else {
                    continue;
                };
                let ranges: Vec<_> = ranges
                    .into_iter()
                    .map(|(s, e)| file.range(file.offset + s..file.offset + e))
                    .collect();
                if let Some(d) = static_validate_traversal(block, &reference.remaining, &ranges) {
                    diags.push(d);
                }
            }
        }
    }
    diags.sort_by(|a, b| {
        let key = |d: &Diagnostic| d.range.as_ref().map(|r| (r.file.clone(), r.start.byte));
        key(a).cmp(&key(b))
    });
    diags
}

/// References of a resource's body (`resource_refs(r, None, false).body`) to the resource
/// itself, worded as OpenTofu's validate walk words them ("Self-referential block"; a local value
/// referring to itself is [`self_referencing_locals`]). Without this check such a reference is
/// silently dropped: a graph vertex never depends on itself.
fn self_references_of(r: &super::model::Resource, body: &Refs) -> Vec<Diagnostic> {
    let addr = r.addr();
    let mut out = Vec::new();
    for reference in &body.refs {
        let target = match &reference.subject {
            Referenceable::Resource(a) => a,
            Referenceable::ResourceInstance(i) => &i.resource,
            _ => continue,
        };
        if *target == addr {
            out.push(Diagnostic::error(
                "Self-referential block",
                format!("Configuration for {addr} may not refer to itself."),
                Some(reference.range.get()),
            ));
        }
    }
    out
}

/// "Self-referencing local value": a local whose expression refers to itself.
fn self_referencing_locals(m: &Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, local) in &m.locals {
        let here = refs::refs_in_expr_full(&local.expr);
        for reference in &here.refs {
            if matches!(&reference.subject, Referenceable::LocalValue(n) if n == name) {
                out.push(Diagnostic::error(
                    "Self-referencing local value",
                    format!("Local value local.{name} cannot use its own result as part of its expression."),
                    Some(reference.range.get()),
                ));
            }
        }
    }
    out
}

/// A module call's arguments against the called module's variables, worded as HCL words a body
/// that does not fit its schema: an argument no variable declares, and a variable without a
/// default that the call does not set (reported at the call's opening brace, where HCL puts a
/// missing item).
fn module_call_arguments(c: &Config) -> Vec<Diagnostic> {
    use hcl::edit::Span;
    let mut out = Vec::new();
    for (name, call) in &c.module.module_calls {
        let Some(child) = c.children.get(name) else {
            continue;
        };
        let vars = &child.module.variables;
        let body = &call.config;
        for v in vars.values() {
            if v.default.is_none() && body.body.get_attribute(&v.name).is_none() {
                let mut at = call.decl_range.clone();
                let file = body.file.parts.iter().find(|f| f.name == at.file);
                let text = file
                    .map(|f| f.text.as_str())
                    .unwrap_or(body.file.text.as_str());
                if let Some(gap) = text.get(at.end.byte..).and_then(|t| t.find('{')) {
                    let between = text.get(at.end.byte..at.end.byte + gap).unwrap_or("");
                    at.start = at.end;
                    at.start.byte += gap;
                    if let Some(nl) = between.rfind('\n') {
                        at.start.line += between.matches('\n').count();
                        at.start.column = between[nl + 1..].chars().count() + 1;
                    } else {
                        at.start.column += between.chars().count();
                    }
                    at.end = at.start;
                }
                out.push(Diagnostic::error(
                    "Missing required argument",
                    format!(
                        "The argument {} is required, but no definition was found.",
                        go_quote(&v.name)
                    ),
                    Some(at),
                ));
            }
        }
        for attr in body.body.attributes() {
            let key = attr.key.as_str();
            if !vars.contains_key(key) {
                // hclsyntax `Body.Content` (structure.go) suggests the closest variable the call
                // does not set yet.
                let unset: Vec<&str> = vars
                    .keys()
                    .map(String::as_str)
                    .filter(|n| body.body.get_attribute(n).is_none())
                    .collect();
                let hint = crate::didyoumean::name_suggestion(key, &unset)
                    .map(|s| format!(" Did you mean {}?", go_quote(s)))
                    .unwrap_or_default();
                out.push(Diagnostic::error(
                    "Unsupported argument",
                    format!(
                        "An argument named {} is not expected here.{hint}",
                        go_quote(key)
                    ),
                    Some(body.file.range_opt(attr.key.span())),
                ));
            }
        }
    }
    out
}

/// A `count` or `for_each` written as a literal of the wrong type, worded as OpenTofu words it when
/// it evaluates them (`internal/tofu/eval_count.go`, `eval_for_each.go`). Only literals are
/// judged here; anything computed is left to [`super::eval`], which reports an unknown instead.
fn meta_literals(m: &Module) -> Vec<Diagnostic> {
    use hcl::edit::expr::{Expression as E, UnaryOperator};
    let mut out = Vec::new();
    let resources = m
        .all_resources_with_checks()
        .map(|r| (r.count.as_ref(), r.for_each.as_ref()));
    let calls = m
        .module_calls
        .values()
        .map(|c| (c.count.as_ref(), c.for_each.as_ref()));
    for (count, for_each) in resources.chain(calls).collect::<Vec<_>>() {
        if let Some(e) = count {
            // The value of a literal number, negated numbers included.
            let number = match &*e.expr {
                E::Number(n) => n.value().as_f64(),
                E::UnaryOp(u) if *u.operator.value() == UnaryOperator::Neg => match &u.expr {
                    E::Number(n) => n.value().as_f64().map(|v| -v),
                    _ => None,
                },
                _ => None,
            };
            let detail = match (&*e.expr, number) {
                (_, Some(v)) if v.fract() != 0.0 || !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&v) => Some((
                    "Invalid count argument",
                    "The given \"count\" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.".to_string(),
                )),
                (_, Some(v)) if v < 0.0 => Some((
                    "Invalid count argument",
                    "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.".to_string(),
                )),
                (E::Null(_), _) => Some((
                    "Invalid count argument",
                    "The given \"count\" argument value is null. An integer is required.".to_string(),
                )),
                (E::String(s), _) if s.value().trim().parse::<f64>().is_err() => Some((
                    "Incorrect value type",
                    "Invalid expression value: a number is required.".to_string(),
                )),
                (E::Bool(_) | E::Array(_) | E::Object(_), _) => Some((
                    "Incorrect value type",
                    "Invalid expression value: number required.".to_string(),
                )),
                _ => None,
            };
            if let Some((summary, detail)) = detail {
                out.push(Diagnostic::error(summary, detail, Some(e.range())));
            }
        }
        if let Some(e) = for_each {
            let ty = match &*e.expr {
                E::Number(_) => Some("number"),
                E::String(_) | E::StringTemplate(_) | E::HeredocTemplate(_) => Some("string"),
                E::Bool(_) => Some("bool"),
                E::Array(_) => Some("tuple"),
                _ => None,
            };
            if let Some(ty) = ty {
                out.push(Diagnostic::error(
                    "Invalid for_each argument",
                    format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {ty}."),
                    Some(e.range()),
                ));
            } else if matches!(*e.expr, E::Null(_)) {
                out.push(Diagnostic::error(
                    "Invalid for_each argument",
                    "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.",
                    Some(e.range()),
                ));
            }
        }
    }
    out
}

/// Loads a configuration and checks its references: every diagnostic a user should see for
/// these files, loading problems first, then reference problems in source order.
pub fn load_and_validate(
    files: &std::collections::BTreeMap<String, String>,
) -> (Option<Config>, Vec<Diagnostic>) {
    let (cfg, mut diags) = super::load::load_files(files);
    if let Some(c) = &cfg
        && !crate::diag::has_errors(&diags)
    {
        diags.extend(validate_references(c).0);
    }
    (cfg, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn references_kept_are_each_resources_own_and_taken_once() {
        let files: BTreeMap<String, String> = [(
            "main.tf".to_string(),
            "resource \"aws_instance\" \"a\" {\n  ami = var.ami\n}\nresource \"aws_instance\" \"b\" {\n  count = length(var.ns)\n  ami   = aws_instance.a.ami\n  provisioner \"local-exec\" {\n    command = local.cmd\n  }\n}\nvariable \"ns\" {}\nlocals {\n  cmd = \"x\"\n}\n"
                .to_string(),
        )]
        .into_iter()
        .collect();
        let (cfg, diags) = crate::config::load_files(&files);
        let cfg = cfg.unwrap_or_else(|| panic!("{diags:?}"));
        let subjects = |p: refs::ResourceRefParts| -> Vec<String> {
            let all = refs::all_resource_refs(p);
            all.refs.iter().map(|x| x.subject.to_string()).collect()
        };
        let a = &cfg.module.managed_resources["aws_instance.a"];
        let b = &cfg.module.managed_resources["aws_instance.b"];
        let mut kept = refs::ResourceRefsMemo::default();
        let (without, _) = validate_references(&cfg);
        let (with, _) = validate_references_keeping(
            &cfg,
            &mut refs::ResourceRefsMemo::default(),
            Some(&mut kept),
        );
        assert_eq!(
            format!("{without:?}"),
            format!("{with:?}"),
            "keeping changes no diagnostic"
        );
        assert_eq!(without.len(), 1, "var.ami is not declared: {without:?}");
        assert_eq!(kept.len(), 2);
        // Each the list the builder would have walked for it: meta-arguments, body, provisioners.
        let b_parts = kept.take(b).expect("b kept");
        assert_eq!(subjects(b_parts), ["var.ns", "aws_instance.a", "local.cmd"]);
        assert!(kept.take(b).is_none(), "taken once");
        // Another resource with the same contents is not the one kept.
        let copy = (**a).clone();
        assert!(kept.take(&copy).is_none());
        assert_eq!(subjects(kept.take(a).expect("a kept")), ["var.ami"]);
        assert!(kept.is_empty());
        // A different resource at the place of the one kept (here the same memory, decoded
        // again from other text, so with a serial of its own) gets nothing: the entry's serial
        // does not match it.
        let mut moved = (**a).clone();
        let mut at_place = refs::ResourceRefsMemo::default();
        at_place.insert(&moved, refs::ResourceRefParts::default());
        moved.name = "other".into();
        moved.serial = crate::config::model::Serial::next();
        assert!(at_place.take(&moved).is_none());
        // The same block at the same place is found.
        at_place.insert(&moved, refs::ResourceRefParts::default());
        assert!(at_place.take(&moved).is_some());
        // References found before (as the loader finds them) are taken instead of walking: here
        // `a`'s are said to be none, so its undeclared variable goes unseen.
        let mut found = refs::ResourceRefsMemo::default();
        found.insert(a, refs::ResourceRefParts::default());
        let (taken, _) = validate_references_keeping(&cfg, &mut found, None);
        assert!(taken.is_empty(), "{taken:?}");
        assert!(found.is_empty());
    }

    #[test]
    fn self_references_in_every_module_in_source_order() {
        let files: BTreeMap<String, String> = [
            (
                "main.tf",
                "resource \"aws_instance\" \"a\" {\n  ami = aws_instance.a.id\n  x   = var.nope\n}\nlocals {\n  l = local.l\n}\nmodule \"m\" {\n  source = \"./m\"\n}\n",
            ),
            (
                "m/main.tf",
                "resource \"aws_instance\" \"b\" {\n  count = 1\n  ami = aws_instance.b[0].id\n}\ndata \"aws_ami\" \"d\" {\n  f = data.aws_ami.d.id\n}\nlocals {\n  q = local.q\n}\n",
            ),
        ]
        .into_iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        let (cfg, diags) = crate::config::load_files(&files);
        assert!(diags.is_empty(), "{diags:?}");
        let (d, _) = validate_references(&cfg.unwrap());
        let got: Vec<String> = d.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            got,
            [
                "m/main.tf:3,9: Self-referential block: Configuration for aws_instance.b may not refer to itself.",
                "m/main.tf:6,7: Self-referential block: Configuration for data.aws_ami.d may not refer to itself.",
                "m/main.tf:9,7: Self-referencing local value: Local value local.q cannot use its own result as part of its expression.",
                "main.tf:2,9: Self-referential block: Configuration for aws_instance.a may not refer to itself.",
                "main.tf:3,9: Reference to undeclared input variable: An input variable with the name \"nope\" has not been declared. This variable can be declared with a variable \"nope\" {} block.",
                "main.tf:6,7: Self-referencing local value: Local value local.l cannot use its own result as part of its expression.",
            ]
        );
    }

    #[test]
    fn undeclared() {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            r#"
variable "a" {}
locals { l = var.a }
resource "aws_instance" "x" {
  ami = local.l
  tags = { n = var.missing, m = aws_instance.nope.id, o = module.child.out, p = module.child.nope }
}
module "child" { source = "./child" }
check "c" {
  data "http" "h" {}
  assert {
    condition     = data.http.h.ok
    error_message = "x"
  }
}
output "leak" { value = data.http.h.ok }
resource "aws_instance" "counted" {
  count = 2
  ami   = count.index
  tags  = { k = each.key }
}
"#
            .to_string(),
        );
        files.insert(
            "child/main.tf".to_string(),
            "output \"out\" { value = 1 }\n".to_string(),
        );
        let (cfg, diags) = crate::config::load_files(&files);
        assert!(diags.is_empty(), "{diags:?}");
        let (d, n) = validate_references(&cfg.unwrap());
        assert_eq!(n, 10);
        let s: Vec<String> = d.iter().map(|d| d.summary.clone()).collect();
        assert_eq!(
            s,
            [
                "Reference to undeclared input variable",
                "Reference to undeclared resource",
                "Unsupported attribute",
                "Reference to scoped resource",
                "Reference to \"each\" in context without for_each"
            ]
        );
        assert_eq!(
            d[1].to_string(),
            "main.tf:6,33: Reference to undeclared resource: There is no managed resource \"aws_instance\" \"nope\" definition in the root module."
        );
    }

    #[test]
    fn references_are_checked_against_provider_schemas() {
        let text = r#"resource "aws_instance" "w" {
  ami = "x"
}
resource "other_thing" "o" {}
output "a" { value = aws_instance.w.ami }
output "b" { value = aws_instance.w.amii }
output "c" { value = aws_instance.w.disk.size }
output "d" { value = aws_instance.w.disk[0].sise }
output "e" { value = aws_instance.w.root.size }
output "f" { value = aws_instance.w.root.sise }
output "g" { value = aws_instance.w ["ami"] }
output "h" { value = other_thing.o.anything }
"#;
        let files = BTreeMap::from([("main.tf".to_string(), text.to_string())]);
        let (cfg, diags) = crate::config::load_files(&files);
        assert!(diags.is_empty(), "{diags:?}");
        let schemas = crate::schema::parse_schemas_json(
            r#"{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/aws":{"resource_schemas":{"aws_instance":{"block":{
"attributes":{"ami":{"type":"string","optional":true}},
"block_types":{"disk":{"nesting_mode":"list","block":{"attributes":{"size":{"type":"number","optional":true}}}},
"root":{"nesting_mode":"single","block":{"attributes":{"size":{"type":"number","optional":true}}}}}}}}}}}"#,
        )
        .unwrap();
        let d: Vec<String> = validate_reference_attributes(&cfg.unwrap(), &schemas)
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert_eq!(
            d,
            [
                "main.tf:6,36: Unsupported attribute: This object has no argument, nested block, or exported attribute named \"amii\". Did you mean \"ami\"?",
                "main.tf:7,41: Invalid operation: Block type \"disk\" is represented by a list of objects, so it must be indexed using a numeric key, like .disk[0].",
                "main.tf:8,44: Unsupported attribute: This object has no argument, nested block, or exported attribute named \"sise\". Did you mean \"size\"?",
                "main.tf:10,41: Unsupported attribute: This object has no argument, nested block, or exported attribute named \"sise\". Did you mean \"size\"?",
            ]
        );
    }
}

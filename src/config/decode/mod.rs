//! Decoding one file's top-level blocks into a [`Module`] (OpenTofu's `configs` block decoders),
//! with OpenTofu's diagnostic wording for the checks we make.
//!
//! This file reads a file ([`decode_file`]: JSON rewritten to native syntax, parsed, then each
//! top-level block handed to its decoder and added to the module with OpenTofu's duplicate
//! checks) and finishes a module once all its files are in ([`finish_module`]). One file per block
//! kind, named after OpenTofu's `internal/configs` file for it: `resource.rs` (resource, data,
//! ephemeral, lifecycle), `provisioner.rs`, `module_call.rs`, `provider.rs`, `named_values.rs`
//! (variable, locals, output), `terraform.rs` (the terraform block, required_providers),
//! `moved.rs`, `import.rs`, `removed.rs`, `check.rs`; `check_rule.rs` (condition rules),
//! `meta_args.rs` (`depends_on`, `provider`) and `body.rs` (the decoding context and body helpers)
//! are what several kinds share; `syntax.rs` words parse errors as HCL does.

mod body;
mod check;
mod check_rule;
mod import;
mod meta_args;
mod module_call;
mod moved;
mod named_values;
mod provider;
mod provisioner;
mod removed;
mod resource;
mod syntax;
pub use syntax::keep_parses;
pub(crate) use syntax::{parse_errors, parse_expr_checked, refused};
mod terraform;

use super::model::*;
use body::{Ctx, insert_unique, insert_unique_with};
use check::decode_check;
use import::{decode_import, import_target_implied_provider};
use module_call::decode_module_call;
use moved::decode_moved;
use named_values::{decode_locals, decode_output, decode_variable};
use provider::decode_provider_block;
use removed::decode_removed;
use resource::decode_resource;
use terraform::decode_terraform_block;

use crate::addrs::{self, ResourceMode};
use crate::diag::{Diagnostic, SourceFile, go_range};
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::structure::Structure;
use std::sync::Arc;

/// A trailing comma in a JSON configuration, as HCL's JSON parser reports it: at the comma, with
/// its own wording for objects and arrays (hcl `json/parser.go`, `parseObject` and
/// `parseArray`). serde_json reports the closing bracket after it.
fn trailing_comma(file: &SourceFile, e: &serde_json::Error) -> Option<Diagnostic> {
    if crate::diag::json_error_message(e) != "trailing comma" {
        return None;
    }
    let close = crate::diag::json_error_range(&file.text, e)?.start.byte;
    let (summary, detail) = match file.text.as_bytes().get(close)? {
        b'}' => (
            "Trailing comma in object",
            "JSON does not permit a trailing comma after the final property in an object.",
        ),
        b']' => (
            "Trailing comma in array",
            "JSON does not permit a trailing comma after the final value in an array.",
        ),
        _ => return None,
    };
    let comma = file.text.get(..close)?.trim_end().strip_suffix(',')?.len();
    let at = file.offset + comma;
    Some(Diagnostic::error(
        summary,
        detail,
        Some(file.range(at..at + 1)),
    ))
}

/// Decodes one configuration file into `module`. JSON files are read by converting them to
/// native syntax first (see [`super::json`]).
pub fn decode_file(
    file: &Arc<SourceFile>,
    module: &mut Module,
    is_override: bool,
    diags: &mut Vec<Diagnostic>,
) {
    decode_file_with(file, module, is_override, diags, None);
}

pub use body::BodyRefs;

/// [`decode_file`] of a primary file (not an override) for a caller that needs of each resource
/// body only its references, read without a schema: those go into `body_refs` under the
/// resource's [`Resource::serial`], and each top-level resource's `config` is left empty. (A
/// data block nested in a `check` keeps its body.)
pub fn decode_file_keeping_body_refs(
    file: &Arc<SourceFile>,
    module: &mut Module,
    diags: &mut Vec<Diagnostic>,
    body_refs: &mut BodyRefs,
) {
    decode_file_with(file, module, false, diags, Some(body_refs));
}

fn decode_file_with(
    file: &Arc<SourceFile>,
    module: &mut Module,
    is_override: bool,
    diags: &mut Vec<Diagnostic>,
    body_refs: Option<&mut BodyRefs>,
) {
    let mut file = file.clone();
    if file.name.ends_with(".json") {
        match crate::config::json::json_to_native(&file.text) {
            Ok(native) => {
                file = SourceFile::with_offset(&file.name, &native, file.offset);
                module.files.insert(file.name.to_string(), file.clone());
            }
            Err(msg) => {
                // A syntax error is placed where serde_json found it; a structural problem
                // (which has no position after the rewrite) at the start of the file.
                let parsed = serde_json::from_str::<serde_json::Value>(&file.text);
                if let Err(e) = &parsed
                    && let Some(d) = trailing_comma(&file, e)
                {
                    diags.push(d);
                    return;
                }
                let (msg, range) = match parsed {
                    Err(e) => match crate::diag::json_error_range(&file.text, &e) {
                        Some(mut r) => {
                            r.file = file.name.clone();
                            (
                                format!(
                                    "The file is not valid JSON: {}.",
                                    crate::diag::json_error_message(&e)
                                ),
                                r,
                            )
                        }
                        None => (msg, file.range(0..0)),
                    },
                    Ok(_) => (msg, file.range(0..0)),
                };
                diags.push(Diagnostic::error(
                    "Invalid JSON configuration",
                    msg,
                    Some(range),
                ));
                return;
            }
        }
    }
    let file = &file;
    // A UTF-8 byte-order mark is blanked out (same byte length, so spans stay aligned).
    let mut text = file.padded_text().into_owned();
    if text[file.offset..].starts_with('\u{feff}') {
        text.replace_range(file.offset..file.offset + 3, "   ");
    }
    if let Some(errors) = syntax::refused(file) {
        diags.extend(errors);
        return;
    }
    let body = match syntax::parsed(&text) {
        Ok(b) => b,
        Err(e) => {
            diags.extend(parse_errors(file, &e));
            return;
        }
    };
    // HCL's own syntax errors were asked for before the parse (`syntax::refused`): none.
    let mut cx = Ctx {
        file,
        diags,
        is_override,
        body_refs,
        implied_providers: Default::default(),
    };
    for s in body.iter() {
        let b = match s {
            Structure::Block(b) => b,
            Structure::Attribute(a) => {
                cx.err(
                    "Unsupported argument",
                    format!(
                        "An argument named {} is not expected here.",
                        go_quote(a.key.value())
                    ),
                    a.key.span(),
                );
                continue;
            }
        };
        match b.ident.value().as_str() {
            "terraform" => decode_terraform_block(&mut cx, b, module),
            "required_providers" => {
                cx.err(
                    "Unsupported block type",
                    "Blocks of type \"required_providers\" are not expected here. Did you mean to define this block inside a \"terraform\" block?",
                    b.ident.span(),
                );
            }
            "provider" => {
                if let Some(p) = decode_provider_block(&mut cx, b) {
                    let key = p.addr().key();
                    insert_unique(
                        cx.diags,
                        &mut module.provider_configs,
                        (key, p),
                        |p| &p.decl_range,
                        "Duplicate provider configuration",
                        |p, prev| match &p.alias {
                            None => format!(
                                "A default (non-aliased) provider configuration for {} was already given at {prev}. If multiple configurations are required, set the \"alias\" argument for alternative configurations.",
                                go_quote(&p.name)
                            ),
                            Some(al) => format!(
                                "A provider configuration for {} with alias {} was already given at {prev}. Each configuration for the same provider must have a distinct alias.",
                                go_quote(&p.name),
                                go_quote(al)
                            ),
                        },
                    );
                }
            }
            "variable" => {
                if let Some(v) = decode_variable(&mut cx, b) {
                    insert_unique(
                        cx.diags,
                        &mut module.variables,
                        (v.name.clone(), v),
                        |v| &v.decl_range,
                        "Duplicate variable declaration",
                        |v, prev| {
                            format!(
                                "A variable named {} was already declared at {prev}. Variable names must be unique within a module.",
                                go_quote(&v.name)
                            )
                        },
                    );
                }
            }
            "locals" => decode_locals(&mut cx, b, module),
            "output" => {
                if let Some(o) = decode_output(&mut cx, b) {
                    insert_unique(
                        cx.diags,
                        &mut module.outputs,
                        (o.name.clone(), o),
                        |o| &o.decl_range,
                        "Duplicate output definition",
                        |o, prev| {
                            format!(
                                "An output named {} was already defined at {prev}. Output names must be unique within a module.",
                                go_quote(&o.name)
                            )
                        },
                    );
                }
            }
            "module" => {
                if let Some(m) = decode_module_call(&mut cx, b) {
                    insert_unique(
                        cx.diags,
                        &mut module.module_calls,
                        (m.name.clone(), m),
                        |m| &m.decl_range,
                        "Duplicate module call",
                        |m, prev| {
                            format!(
                                "A module call named {} was already defined at {prev}. Module calls must have unique names within a module.",
                                go_quote(&m.name)
                            )
                        },
                    );
                }
            }
            kind @ ("resource" | "data" | "ephemeral") => {
                let mode = match kind {
                    "resource" => ResourceMode::Managed,
                    "data" => ResourceMode::Data,
                    _ => ResourceMode::Ephemeral,
                };
                if let Some(r) = decode_resource(&mut cx, b, mode, false) {
                    let key = crate::strconv::exact(format_args!("{}", r.addr()));
                    let map = match mode {
                        ResourceMode::Managed => &mut module.managed_resources,
                        ResourceMode::Data => &mut module.data_resources,
                        ResourceMode::Ephemeral => &mut module.ephemeral_resources,
                    };
                    // OpenTofu names the kind differently in the summary and the detail.
                    let (summary_kind, detail_kind) = match mode {
                        ResourceMode::Managed => ("resource", "resource"),
                        ResourceMode::Data => ("data", "data resource"),
                        ResourceMode::Ephemeral => ("ephemeral resource", "ephemeral resource"),
                    };
                    let type_name = r.type_name.clone();
                    let summary = || {
                        format!(
                            "Duplicate {summary_kind} {} configuration",
                            go_quote(&type_name)
                        )
                    };
                    insert_unique_with(
                        cx.diags,
                        map,
                        (key, Arc::new(r)),
                        |r| &r.decl_range,
                        summary,
                        |r, prev| {
                            format!(
                                "A {} {detail_kind} named {} was already declared at {prev}. Resource names must be unique per type in each module.",
                                r.type_name,
                                go_quote(&r.name)
                            )
                        },
                    );
                }
            }
            "moved" => {
                if let Some(m) = decode_moved(&mut cx, b) {
                    module.moved.push(m);
                }
            }
            "import" => {
                if let Some(i) = decode_import(&mut cx, b) {
                    module.imports.push(i);
                }
            }
            "removed" => {
                if let Some(r) = decode_removed(&mut cx, b) {
                    module.removed.push(r);
                }
            }
            "check" => {
                if let Some(c) = decode_check(&mut cx, b) {
                    if let Some(prev) = module.checks.get(&c.name) {
                        let d = format!(
                            "A check block named {} was already declared at {}. Check blocks must be unique within each module.",
                            go_quote(&c.name),
                            go_range(&prev.decl_range)
                        );
                        let summary =
                            format!("Duplicate check {} configuration", go_quote(&c.name));
                        cx.diags
                            .push(Diagnostic::error(summary, d, Some(c.decl_range.clone())));
                    } else {
                        // Go merges a check's scoped data block into the module's data resources.
                        for r in &c.data_resources {
                            let key = r.addr().to_string();
                            let summary =
                                format!("Duplicate data {} configuration", go_quote(&r.type_name));
                            insert_unique(
                                cx.diags,
                                &mut module.data_resources,
                                (key, Arc::new(r.clone())),
                                |r| &r.decl_range,
                                &summary,
                                |r, prev| {
                                    format!(
                                        "A {} data resource named {} was already declared at {prev}. Resource names must be unique per type in each module, including within check blocks.",
                                        r.type_name,
                                        go_quote(&r.name)
                                    )
                                },
                            );
                        }
                        module.checks.insert(c.name.clone(), c);
                    }
                }
            }
            other => {
                // hclsyntax `Body.Content` suggests the closest block type of the file schema,
                // in its order (Go `configFileSchema`, configs/parser_config.go).
                const FILE_BLOCKS: &[&str] = &[
                    "language",
                    "required_providers",
                    "provider",
                    "variable",
                    "locals",
                    "output",
                    "module",
                    "resource",
                    "data",
                    "ephemeral",
                    "moved",
                    "import",
                    "check",
                    "removed",
                    "terraform",
                ];
                let suggestion = crate::didyoumean::name_suggestion(other, FILE_BLOCKS)
                    .map(|s| format!(" Did you mean {}?", go_quote(s)))
                    .unwrap_or_default();
                cx.err(
                    "Unsupported block type",
                    format!(
                        "Blocks of type {} are not expected here.{suggestion}",
                        go_quote(other)
                    ),
                    b.ident.span(),
                );
            }
        }
    }
}

/// Work done once every file of a module is in: provider local names, and each resource's and
/// provider block's provider FQN (Go `Module` post-processing in `NewModule`).
pub fn finish_module(module: &mut Module, diags: &mut Vec<Diagnostic>) {
    let _ = diags;
    module.provider_local_names = module
        .required_providers
        .values()
        .map(|rp| (rp.provider.clone(), rp.name.clone()))
        .collect();
    let rps = module.required_providers.clone();
    let mut implied = body::ImpliedProviders::default();
    let mut lookup = |local: &str| match rps.get(local) {
        Some(rp) => rp.provider.clone(),
        None => implied.get(local),
    };
    for p in module.provider_configs.values_mut() {
        p.provider = match rps.get(&p.name) {
            Some(rp) => rp.provider.clone(),
            None => addrs::Provider::default_for(&p.name),
        };
    }
    // The local name of `provider_config_addr()`, read in place (that address is made with
    // copies of its names).
    let mut fix = |r: &mut Resource| {
        r.provider = match &r.provider_ref {
            Some(p) => lookup(&p.name),
            None => lookup(addrs::implied_provider_prefix(&r.type_name)),
        };
    };
    for r in module
        .managed_resources
        .values_mut()
        .chain(module.data_resources.values_mut())
        .chain(module.ephemeral_resources.values_mut())
    {
        fix(Arc::make_mut(r));
    }
    for c in module.checks.values_mut() {
        c.data_resources.iter_mut().for_each(&mut fix);
    }
    module.imports.iter_mut().for_each(|i| {
        i.provider = match &i.provider_ref {
            Some(p) => lookup(&p.name),
            None => match crate::addrs::traversal::static_traversal(&i.to.expr) {
                Some(steps) => lookup(&import_target_implied_provider(&steps)),
                None => addrs::Provider::implied(""),
            },
        };
    });
}

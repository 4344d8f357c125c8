//! The `terraform` block: `required_version`, `required_providers` (OpenTofu's
//! `configs/provider_requirements.go`), `backend`, `cloud` and the rest of `configs/parser_config.go`'s
//! handling of it.

use super::body::{
    BAD_IDENTIFIER_DETAIL, Ctx, check_labels, content, decode_string_attr, literal_string,
};
use crate::addrs;
use crate::addrs::traversal::{Step, static_traversal};
use crate::config::model::*;
use crate::diag::{Diagnostic, SourceFile, go_range};
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::{Expression, ObjectKey};
use hcl::edit::structure::{Block, Structure};

pub(super) fn decode_terraform_block(cx: &mut Ctx, b: &Block, module: &mut Module) {
    check_labels(cx, b, &[]);
    let c = content(
        cx,
        &b.body,
        &["required_version", "experiments", "language"],
        &[
            "required_providers",
            "backend",
            "cloud",
            "provider_meta",
            "encryption",
        ],
    );
    if let Some(a) = c.attrs.get("required_version")
        && let Some(s) = decode_string_attr(cx, a)
    {
        module.required_core.push(s);
    }
    for blk in c.blocks {
        match blk.ident.value().as_str() {
            "required_providers" => {
                let here = cx.def_range(blk);
                match &module.required_providers_decl {
                    Some(prev) if !is_override_file(cx.file) => {
                        let d = format!(
                            "A module may have only one required providers configuration. The required providers were previously configured at {}.",
                            go_range(prev)
                        );
                        cx.diags.push(Diagnostic::error(
                            "Duplicate required providers configuration",
                            d,
                            Some(here),
                        ));
                    }
                    _ => {
                        if module.required_providers_decl.is_none() {
                            module.required_providers_decl = Some(here);
                        }
                        decode_required_providers(cx, blk, module);
                    }
                }
            }
            "backend" if check_labels(cx, blk, &["type"]) => {
                if let Some(prev) = &module.backend {
                    let d = format!(
                        "A module may have only one backend configuration. The backend was previously configured at {}.",
                        go_range(&prev.decl_range)
                    );
                    cx.err("Duplicate backend configuration", d, blk.ident.span());
                } else {
                    module.backend = Some(Backend {
                        type_name: blk.labels[0].as_str().to_string(),
                        config: HclBody::new(blk.body.clone(), cx.file),
                        decl_range: cx.def_range(blk),
                    });
                }
            }
            "cloud" => {
                module.backend = Some(Backend {
                    type_name: "cloud".into(),
                    config: HclBody::new(blk.body.clone(), cx.file),
                    decl_range: cx.def_range(blk),
                });
            }
            _ => {}
        }
    }
}

pub(super) fn is_override_file(f: &SourceFile) -> bool {
    crate::config::file_names::is_override_file_name(f.name.rsplit('/').next().unwrap_or(&f.name))
}

pub(super) fn decode_required_providers(cx: &mut Ctx, b: &Block, module: &mut Module) {
    check_labels(cx, b, &[]);
    for s in b.body.iter() {
        let a = match s {
            Structure::Attribute(a) => a,
            Structure::Block(blk) => {
                cx.err(
                    "Unsupported block type",
                    format!(
                        "Blocks of type {} are not expected here.",
                        go_quote(blk.ident.value())
                    ),
                    blk.ident.span(),
                );
                continue;
            }
        };
        let name = a.key.value().to_string();
        let decl_range = cx.range(a.span());
        if !addrs::is_identifier(&name) {
            cx.err(
                "Invalid provider local name",
                BAD_IDENTIFIER_DETAIL,
                a.key.span(),
            );
            continue;
        }
        let mut rp = RequiredProvider {
            name: name.clone(),
            source: None,
            provider: addrs::Provider::implied(&name),
            version_constraint: None,
            configuration_aliases: Vec::new(),
            decl_range,
        };
        match &a.value {
            Expression::Object(obj) => {
                for (k, v) in obj.iter() {
                    let key = match k {
                        ObjectKey::Ident(i) => i.value().to_string(),
                        ObjectKey::Expression(e) => literal_string(e).unwrap_or_default(),
                    };
                    match key.as_str() {
                        "source" => match literal_string(v.expr()) {
                            Some(src) => match addrs::Provider::parse_source(&src) {
                                Ok(p) => {
                                    rp.provider = p;
                                    rp.source = Some(src);
                                }
                                Err(d) => cx.err("Invalid provider source string", d, v.expr().span()),
                            },
                            None => cx.err("Invalid source", "Source must be specified as a string.", v.expr().span()),
                        },
                        "version" => rp.version_constraint = literal_string(v.expr()),
                        "configuration_aliases" => {
                            if let Expression::Array(arr) = v.expr() {
                                for e in arr.iter() {
                                    match static_traversal(e).as_deref() {
                                        Some([Step::Attr(n), Step::Attr(al)]) => rp
                                            .configuration_aliases
                                            .push(addrs::LocalProviderConfig::new(n, Some(al))),
                                        _ => cx.err(
                                            "Invalid configuration_aliases value",
                                            "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias",
                                            e.span(),
                                        ),
                                    }
                                }
                            }
                        }
                        other => cx.err(
                            "Invalid required_providers object",
                            format!("required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block. Unexpected attribute {}.", go_quote(other)),
                            k.span(),
                        ),
                    }
                }
            }
            other => {
                // Legacy form: aws = "~> 3.0"
                if let Some(v) = literal_string(other) {
                    rp.version_constraint = Some(v);
                } else {
                    cx.err(
                        "Invalid required_providers object",
                        "required_providers entries must be strings or objects.",
                        other.span(),
                    );
                }
            }
        }
        if !is_override_file(cx.file)
            && let Some(prev) = module.required_providers.get(&name)
        {
            let d = format!(
                "Provider {} was already required at {}.",
                go_quote(&name),
                go_range(&prev.decl_range)
            );
            cx.err("Duplicate required provider", d, a.key.span());
            continue;
        }
        module.required_providers.insert(name, rp);
    }
}

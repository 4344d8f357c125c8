//! Static checks of provider configurations across the module tree: OpenTofu's
//! `validateProviderConfigs`, run when a configuration is built. It compares each module's
//! provider blocks, `required_providers` and `configuration_aliases` with what its caller
//! passes in `providers`, with OpenTofu's diagnostics (errors and warnings).

use super::model::{Config, ModuleCall, ModuleSource, PassedProviderConfig};
use crate::addrs::{self, AbsProviderConfig, Provider};
use crate::diag::{Diagnostic, SourceRange};
use crate::strconv::go_quote;
use std::collections::BTreeMap;

fn provider_name(name: &str, alias: Option<&str>) -> String {
    match alias {
        Some(a) => format!("{name}.{a}"),
        None => name.to_string(),
    }
}

fn is_default_provider(p: &Provider) -> bool {
    p.hostname == addrs::DEFAULT_PROVIDER_REGISTRY_HOST
        && p.namespace == addrs::DEFAULT_PROVIDER_NAMESPACE
}

/// Runs the checks over the whole tree under `root`.
pub fn validate_provider_configs(root: &Config) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    walk(None, None, root, None, &mut diags);
    diags
}

fn walk(
    parent_call: Option<&ModuleCall>,
    parent: Option<&Config>,
    cfg: &Config,
    no_provider_config_range: Option<SourceRange>,
    diags: &mut Vec<Diagnostic>,
) {
    let m = &cfg.module;
    for (name, child) in &cfg.children {
        let Some(mc) = m.module_calls.get(name) else {
            continue;
        };
        // count, for_each or depends_on on a call forbid provider configurations below it.
        let child_range = if let Some(c) = &mc.count {
            Some(c.range())
        } else if let Some(f) = &mc.for_each {
            Some(f.range())
        } else if let Some(d) = mc.depends_on.first() {
            Some(d.range())
        } else {
            no_provider_config_range.clone()
        };
        walk(Some(mc), Some(cfg), child, child_range, diags);
    }

    let mut empty_configs: BTreeMap<String, SourceRange> = BTreeMap::new();
    let mut configured: BTreeMap<String, SourceRange> = BTreeMap::new();
    let mut config_aliases: BTreeMap<String, AbsProviderConfig> = BTreeMap::new();
    let mut local_names: BTreeMap<String, Provider> = BTreeMap::new();

    for pc in m.provider_configs.values() {
        let name = provider_name(&pc.name, pc.alias.as_deref());
        if !pc.config.body.is_empty() || pc.version.is_some() {
            configured.insert(name, pc.decl_range.clone());
        } else {
            empty_configs.insert(name, pc.decl_range.clone());
        }
    }

    let mut local_types: BTreeMap<String, String> = BTreeMap::new();
    for req in m.required_providers.values() {
        let ty = req.provider.to_string();
        if let Some(prev) = local_types.get(&ty) {
            diags.push(Diagnostic::warning(
                "Duplicate required provider",
                format!(
                    "Provider {} with the local name {} was previously required as {}. A provider can only be required once within required_providers.",
                    req.provider.for_display(),
                    go_quote(&req.name),
                    go_quote(prev)
                ),
                Some(req.decl_range.clone()),
            ));
        } else if is_default_provider(&req.provider) {
            let implied = &req.provider.type_name;
            if req.name != *implied && m.provider_configs.values().any(|pc| pc.name == *implied) {
                diags.push(Diagnostic::warning(
                    "Duplicate required provider",
                    format!(
                        "Provider {} with the local name {} was implicitly required via a configuration block as {}. The provider configuration block name must match the name used in required_providers.",
                        req.provider.for_display(),
                        go_quote(&req.name),
                        go_quote(implied)
                    ),
                    Some(req.decl_range.clone()),
                ));
            }
        }
        local_types.insert(ty, req.name.clone());
        local_names.insert(req.name.clone(), req.provider.clone());
        for alias in &req.configuration_aliases {
            config_aliases.insert(
                provider_name(&alias.local_name, alias.alias.as_deref()),
                AbsProviderConfig::new(
                    cfg.path.clone(),
                    req.provider.clone(),
                    alias.alias.as_deref(),
                ),
            );
        }
    }

    // The provider each implied local name stands for, made once per name (resources share a
    // few).
    let mut implied: BTreeMap<&str, Provider> = BTreeMap::new();
    for r in m
        .managed_resources
        .values()
        .chain(m.data_resources.values())
    {
        if r.provider_ref.is_some() {
            continue;
        }
        let local = addrs::implied_provider_prefix(&r.type_name);
        if local_names.contains_key(local) {
            continue;
        }
        let def = &*implied
            .entry(local)
            .or_insert_with(|| Provider::implied(local));
        for (prev_local, addr) in &local_names {
            if addr == def {
                diags.push(Diagnostic::warning(
                    "Duplicate required provider",
                    format!(
                        "Provider {} was implicitly required via resource {}, but listed in required_providers as {}. Either the local name in required_providers must match the resource name, or the {} provider must be assigned within the resource block.",
                        go_quote(&def.to_string()),
                        go_quote(&r.addr().to_string()),
                        go_quote(prev_local),
                        go_quote(prev_local)
                    ),
                    Some(r.decl_range.clone()),
                ));
            }
        }
    }

    let mut passed_in: BTreeMap<String, &PassedProviderConfig> = BTreeMap::new();
    if let Some(pc) = parent_call {
        for passed in &pc.providers {
            passed_in.insert(
                provider_name(&passed.in_child.name, passed.in_child.alias.as_deref()),
                passed,
            );
        }
    }

    let module_text = if cfg.path.is_root() {
        "the root module".to_string()
    } else {
        cfg.path.to_string()
    };
    let parent_module_text = match cfg.path.parent() {
        Some(p) if !p.is_root() => p.to_string(),
        _ => "the root module".to_string(),
    };

    for mc in m.module_calls.values() {
        for passed in &mc.providers {
            if passed.in_parent.alias.is_some() {
                continue;
            }
            let name = &passed.in_parent.name;
            let conf_ok = configured.contains_key(name);
            let local_ok = local_names.contains_key(name);
            let passed_ok = passed_in.contains_key(name);
            if !(conf_ok || local_ok) {
                let def = Provider::default_for(name);
                diags.push(Diagnostic::warning(
                    "Reference to undefined provider",
                    format!(
                        "There is no explicit declaration for local provider name {} in {module_text}, so OpenTofu is assuming you mean to pass a configuration for provider {}.\n\nTo clarify your intent and silence this warning, add to {parent_module_text} a required_providers entry named {} with source = {}, or a different source address if appropriate.",
                        go_quote(name),
                        go_quote(&def.for_display()),
                        go_quote(name),
                        go_quote(&def.for_display())
                    ),
                    Some(passed.in_parent.name_range.clone()),
                ));
                continue;
            }
            if !(cfg.path.is_root() || conf_ok || passed_ok)
                && let Some(pc) = parent_call
            {
                let def = Provider::default_for(name);
                diags.push(Diagnostic::warning(
                    "Missing required provider configuration",
                    format!(
                        "The configuration for {module_text} expects to inherit a configuration for provider {} with local name {}, but {parent_module_text} doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for {} to the \"providers\" argument in the module {} block.",
                        def.for_display(),
                        go_quote(name),
                        go_quote(name),
                        go_quote(&pc.name)
                    ),
                    Some(pc.decl_range.clone()),
                ));
            }
        }
    }

    if cfg.path.is_root() {
        return;
    }

    if !configured.is_empty()
        && let Some(range) = &no_provider_config_range
    {
        let source = cfg
            .source_addr
            .as_ref()
            .map(ModuleSource::as_str)
            .unwrap_or("");
        diags.push(Diagnostic::error(
            "Module is incompatible with count, for_each, and depends_on",
            format!(
                "The module at {} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module {}, consider updating this module to instead expect provider configurations to be passed by its caller.",
                cfg.path,
                go_quote(source)
            ),
            Some(range.clone()),
        ));
    }

    for name in configured.keys() {
        if let Some(passed) = passed_in.get(name) {
            diags.push(Diagnostic::error(
                "Cannot override provider configuration",
                format!(
                    "The configuration of {module_text} has its own local configuration for {name}, and so it cannot accept an overridden configuration provided by {parent_module_text}."
                ),
                Some(passed.in_child.name_range.clone()),
            ));
        }
    }

    if let Some(pc) = parent_call {
        for (name, addr) in &config_aliases {
            if configured.contains_key(name) || passed_in.contains_key(name) {
                continue;
            }
            diags.push(Diagnostic::error(
                "Missing required provider configuration",
                format!(
                    "The child module requires an additional configuration for provider {}, with the local name {}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for {name} in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.",
                    addr.provider.for_display(),
                    go_quote(name)
                ),
                Some(pc.decl_range.clone()),
            ));
        }
    }

    for (name, passed) in &passed_in {
        let child_ty = passed
            .in_child
            .provider_type
            .clone()
            .unwrap_or_else(|| Provider::default_for(&passed.in_child.name));
        let mut provider_addr =
            AbsProviderConfig::new(cfg.path.clone(), child_ty, passed.in_child.alias.as_deref());
        let local = local_names.get(name);
        if let Some(l) = local {
            provider_addr.provider = l.clone();
        }
        let alias = config_aliases.get(name);
        if let Some(a) = alias {
            provider_addr = a.clone();
        }
        let empty = empty_configs.contains_key(name);
        if local.is_none() && alias.is_none() && !empty {
            if is_default_provider(&provider_addr.provider) {
                diags.push(Diagnostic::warning(
                    "Reference to undefined provider",
                    format!(
                        "There is no explicit declaration for local provider name {} in {module_text}, so OpenTofu is assuming you mean to pass a configuration for {}.\n\nIf you also control the child module, add a required_providers entry named {} with the source address {}.",
                        go_quote(name),
                        go_quote(&provider_addr.provider.for_display()),
                        go_quote(name),
                        go_quote(&provider_addr.provider.for_display())
                    ),
                    Some(passed.in_child.name_range.clone()),
                ));
            } else {
                diags.push(Diagnostic::error(
                    "Reference to undefined provider",
                    format!(
                        "The child module does not declare any provider requirement with the local name {}.\n\nIf you also control the child module, you can add a required_providers entry named {} with the source address {} to accept this provider configuration.",
                        go_quote(name),
                        go_quote(name),
                        go_quote(&provider_addr.provider.for_display())
                    ),
                    Some(passed.in_child.name_range.clone()),
                ));
            }
        }

        let mut parent_provider = passed
            .in_parent
            .provider_type
            .clone()
            .unwrap_or_else(|| Provider::default_for(&passed.in_parent.name));
        if let Some(req) = parent.and_then(|p| p.module.required_providers.get(name)) {
            parent_provider = req.provider.clone();
        }
        if provider_addr.provider != parent_provider {
            let other_local = local_names
                .iter()
                .find(|(_, src)| **src == parent_provider)
                .map(|(n, _)| n.clone());
            let in_child = provider_name(&passed.in_child.name, passed.in_child.alias.as_deref());
            let detail = match other_local {
                Some(other) => format!(
                    "The assigned configuration is for provider {}, but local name {} in {parent_module_text} represents {}.\n\nTo pass this configuration to the child module, use the local name {} instead.",
                    go_quote(&provider_addr.provider.for_display()),
                    go_quote(&passed.in_child.name),
                    go_quote(&parent_provider.for_display()),
                    go_quote(&other)
                ),
                None => format!(
                    "The local name {} in {parent_module_text} represents provider {}, but {} in {module_text} represents {}.\n\nEach provider has its own distinct configuration schema and provider types, so this module's {} can be assigned only a configuration for {}, which is not required by {module_text}.",
                    go_quote(&passed.in_parent.name),
                    go_quote(&parent_provider.for_display()),
                    go_quote(&in_child),
                    go_quote(&provider_addr.provider.for_display()),
                    go_quote(&in_child),
                    provider_addr.provider.for_display()
                ),
            };
            let subject = if detail.starts_with("The assigned") {
                passed.in_child.name_range.clone()
            } else {
                passed.in_parent.name_range.clone()
            };
            diags.push(Diagnostic::error(
                "Provider type mismatch",
                detail,
                Some(subject),
            ));
        }
    }

    // Empty ("proxy") provider blocks: one warning per provider local name.
    let mut suggestions: BTreeMap<String, (Provider, Vec<SourceRange>, Vec<String>, usize)> =
        BTreeMap::new();
    for (name, range) in &empty_configs {
        let local = name.split('.').next().unwrap_or(name).to_string();
        let source = local_names
            .get(name)
            .cloned()
            .unwrap_or_else(|| Provider::default_for(&local));
        let entry = suggestions
            .entry(local.clone())
            .or_insert_with(|| (source, Vec::new(), Vec::new(), 0));
        if local != *name {
            entry.3 += 1;
        }
        entry.2.push(name.clone());
        entry.1.push(range.clone());
    }
    for (name, (source, mut ranges, mut configs, alias_count)) in suggestions {
        let mut buf = format!(
            "Earlier versions of OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider {} blocks and then adding or updating an entry like the following to the required_providers block of {module_text}:\n",
            go_quote(&name)
        );
        buf.push_str(&format!("    {name} = {{\n"));
        buf.push_str(&format!(
            "      source = {}\n",
            go_quote(&source.for_display())
        ));
        if alias_count > 0 {
            configs.sort();
            buf.push_str("      configuration_aliases = [\n");
            for c in &configs {
                buf.push_str(&format!("        {c},\n"));
            }
            buf.push_str("      ]\n");
        }
        buf.push_str("    }");
        ranges.sort_by_key(crate::diag::go_range);
        diags.push(Diagnostic::warning(
            "Redundant empty provider block",
            buf,
            ranges.first().cloned(),
        ));
    }
}

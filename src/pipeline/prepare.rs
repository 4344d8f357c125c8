//! Everything checked and read before the builder runs: references, state, changes, schemas,
//! variable values and targets ([`prepare`]), and turning the builder's graph into the output
//! ([`Prepared::finish`]).

use super::output::{Failed, Output};
use super::request::{NamedText, Request, var_inputs};
use crate::builder::{self, BuilderKind, Built};
use crate::config::{self, Config, Diagnostic};
use std::collections::BTreeMap;

/// Everything checked and read, ready for the builder: [`run_loaded`] up to the transforms, for
/// callers that run the transforms one at a time ([`builder::Runner`]) and then [`Prepared::finish`].
pub struct Prepared {
    /// The builder's inputs; `inputs.config` holds the loaded configuration (always `Some`),
    /// moved there rather than copied: [`Prepared::config`] reads it, [`Prepared::finish`] hands
    /// it to the output. (A copy of the whole tree, hcl-edit expressions and all, was a tenth of
    /// the peak memory at 10,000 resources.)
    pub inputs: builder::Inputs,
    /// Warnings of loading so far.
    warnings: Vec<Diagnostic>,
    kind: BuilderKind,
    vars: BTreeMap<String, hcl::Value>,
    var_sources: BTreeMap<String, config::vars::VarSource>,
    /// Resources' references as the validation found them, for the builder's
    /// `ReferenceTransformer` ([`builder::Runner::keep_references`]); kept only when resource
    /// bodies are read without schemas, as the validation reads them.
    pub kept_references: config::refs::ResourceRefsMemo,
}

/// Loads nothing itself: checks references, reads state, changes and schemas, and parses targets.
#[allow(clippy::result_large_err)]
pub fn prepare(
    loaded: (Option<Config>, Vec<Diagnostic>),
    req: &Request,
) -> Result<Prepared, Vec<Diagnostic>> {
    prepare_with(loaded, config::refs::ResourceRefsMemo::default(), req)
}

/// [`prepare`], with resources' references the loader already found (`found`, taken by the
/// reference validation instead of walking those bodies again).
#[allow(clippy::result_large_err)]
pub fn prepare_with(
    loaded: (Option<Config>, Vec<Diagnostic>),
    mut found: config::refs::ResourceRefsMemo,
    req: &Request,
) -> Result<Prepared, Vec<Diagnostic>> {
    let (cfg, mut diags) = loaded;
    let cfg = match cfg {
        Some(c) if !config::has_errors(&diags) => c,
        _ => {
            if !config::has_errors(&diags) {
                diags.push(Diagnostic::error(
                    "No configuration files",
                    "The root module has no .tf or .tf.json files.",
                    None,
                ));
            }
            return Err(diags);
        }
    };
    // References to undeclared objects (and self-references) are errors OpenTofu reports before
    // it builds any graph; the graph builders themselves silently skip them.
    let mut kept_references = config::refs::ResourceRefsMemo::default();
    let keep = req.schemas.is_none().then_some(&mut kept_references);
    let (ref_diags, _) = config::validate_references_keeping(&cfg, &mut found, keep);
    // Any the validation did not take (none, when they came from this configuration's loading).
    drop(found);
    if config::has_errors(&ref_diags) {
        return Err(ref_diags.into_iter().filter(|d| d.is_error()).collect());
    }
    let mut errors = Vec::new();

    let inputs_of_vars = var_inputs(req);
    let (vars, var_diags) = config::vars::resolve(&cfg.module.variables, &inputs_of_vars);
    let var_sources = config::vars::sources(&inputs_of_vars)
        .into_iter()
        .filter(|(name, _)| vars.contains_key(name))
        .collect();
    for d in var_diags {
        if d.is_error() {
            errors.push(d);
        } else {
            diags.push(d);
        }
    }
    let mut state = read(&req.state, crate::state::parse_state_json, &mut errors);
    // Without a state file, a JSON plan's prior state stands for the state OpenTofu reads from
    // a plan file (internal/command/graph.go: the apply graph uses the plan's PriorState).
    if req.state.is_none() {
        state = read(
            &req.plan_json,
            crate::state::state_from_show_json,
            &mut errors,
        )
        .flatten();
    }
    let mut changes = read(
        &req.plan_json,
        crate::plan::changes_from_show_json,
        &mut errors,
    );
    if let Some(c) = read(
        &req.changes,
        |t| {
            let v: serde_json::Value = serde_json::from_str(t).map_err(|e| {
                Diagnostic::error(
                    "Invalid changes file",
                    format!(
                        "The file is not valid JSON: {}.",
                        config::json_error_message(&e)
                    ),
                    config::json_error_range(t, &e),
                )
            })?;
            crate::plan::changes_from_conformance(&v)
        },
        &mut errors,
    ) {
        changes = Some(c);
    }
    let schemas = read(&req.schemas, crate::schema::parse_schemas_json, &mut errors);
    // With the providers' schemas, references to resources are checked against them as
    // OpenTofu's validate walk does ("Unsupported attribute", with a close name suggested).
    if let Some(s) = &schemas {
        errors.extend(config::validate_reference_attributes(&cfg, s));
    }

    let read_bodies_without_schema = schemas.is_none();
    let mut inputs = builder::Inputs {
        config: None,
        state,
        changes,
        schemas,
        targets: Vec::new(),
        excludes: Vec::new(),
        read_bodies_without_schema,
    };
    // OpenTofu refuses -target together with -exclude before it builds anything
    // (internal/command/arguments/extended.go `parseRawTargetsAndExcludes`).
    if !req.targets.is_empty() && !req.excludes.is_empty() {
        errors.push(Diagnostic::error(
            "Invalid combination of arguments",
            "The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options.",
            None,
        ));
    }
    for (list, out) in [
        (&req.targets, &mut inputs.targets),
        (&req.excludes, &mut inputs.excludes),
    ] {
        for t in list {
            match crate::addrs::Targetable::parse(t) {
                Ok(a) => out.push(a),
                Err(e) => errors.push(Diagnostic::error(
                    "Invalid target address",
                    format!("{t:?}: {e}"),
                    None,
                )),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // OpenTofu plans quietly with a -target that matches nothing (and the graph shrinks to its
    // root); a mistyped address deserves a word. Our own warning, not OpenTofu's.
    for (list, summary, flag) in [
        (&inputs.targets, "Target matches nothing", "-target"),
        (&inputs.excludes, "Exclude matches nothing", "-exclude"),
    ] {
        for t in list {
            if !target_matches(t, &cfg, inputs.state.as_ref()) {
                diags.push(unmatched_target(
                    t,
                    summary,
                    flag,
                    &cfg,
                    inputs.state.as_ref(),
                ));
            }
        }
    }

    inputs.config = Some(cfg);
    Ok(Prepared {
        inputs,
        warnings: diags,
        kind: req.kind,
        vars,
        var_sources,
        kept_references,
    })
}

impl Prepared {
    /// The loaded configuration (the builder's `inputs.config`).
    pub fn config(&self) -> &Config {
        self.inputs
            .config
            .as_ref()
            .expect("prepare always sets the inputs' configuration")
    }

    /// The output for the graph the builder made from [`Prepared::inputs`] (validated with
    /// [`builder::validate_built`]), or its errors.
    #[allow(clippy::result_large_err)]
    pub fn finish(self, built: Built) -> Result<Output, Vec<Diagnostic>> {
        self.finish_keeping(built).map_err(|f| f.diagnostics)
    }

    /// As [`Prepared::finish`], keeping the graph of a build that failed in [`Failed::built`].
    #[allow(clippy::result_large_err)]
    pub fn finish_keeping(self, built: Built) -> Result<Output, Failed> {
        if config::has_errors(&built.diagnostics) {
            return Err(Failed {
                diagnostics: built.diagnostics.clone(),
                built: Some(built),
            });
        }
        let mut warnings = self.warnings;
        warnings.extend(built.diagnostics.iter().cloned());
        warnings.retain(|d| !d.is_error());
        Ok(Output {
            config: self
                .inputs
                .config
                .expect("prepare always sets the inputs' configuration"),
            built,
            warnings,
            kind: self.kind,
            vars: self.vars,
            var_sources: self.var_sources,
            changes: self.inputs.changes,
        })
    }
}

/// Does a `-target`/`-exclude` address name anything the configuration declares or the state
/// holds? Instance keys are not checked against the configuration (they are known only when the
/// walk expands it): `aws_instance.web[5]` matches when `aws_instance.web` is declared.
fn target_matches(
    t: &crate::addrs::Targetable,
    cfg: &Config,
    state: Option<&crate::state::State>,
) -> bool {
    use crate::addrs::Targetable;
    let (module, resource) = match t {
        Targetable::Module(m) => (m, None),
        Targetable::Resource(r) => (&r.module, Some(&r.resource)),
        Targetable::ResourceInstance(ri) => (&ri.module, Some(&ri.resource.resource)),
    };
    let in_config = match resource {
        None => !module.0.is_empty() && cfg.declares_module_path(&module.module()),
        Some(r) => cfg
            .descendant(&module.module())
            .is_some_and(|c| c.module.resource(r).is_some()),
    };
    let in_state = state.is_some_and(|s| {
        s.resources.keys().any(|a| match resource {
            None => crate::builder::transform_targets::module_prefix_matches(module, &a.module),
            Some(r) => &a.resource == r && a.module.module() == module.module(),
        })
    });
    in_config || in_state
}

/// The warning for an address that matches nothing, with the closest declared address as a
/// suggestion.
fn unmatched_target(
    t: &crate::addrs::Targetable,
    summary: &str,
    flag: &str,
    cfg: &Config,
    state: Option<&crate::state::State>,
) -> Diagnostic {
    let mut known: Vec<String> = Vec::new();
    for c in cfg.all_modules() {
        if !c.path.0.is_empty() {
            known.push(c.path.to_string());
        }
        for r in c.module.all_resources_with_checks() {
            let addr = r.addr().to_string();
            known.push(if c.path.0.is_empty() {
                addr
            } else {
                format!("{}.{addr}", c.path)
            });
        }
    }
    if let Some(s) = state {
        known.extend(s.resources.keys().map(|a| a.to_string()));
    }
    known.sort();
    known.dedup();
    let given = t.to_string();
    let candidates: Vec<&str> = known.iter().map(String::as_str).collect();
    let hint = crate::didyoumean::name_suggestion(&given, &candidates)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    Diagnostic::warning(
        summary,
        format!(
            "The {flag} address {given:?} names no resource, data source or module in the configuration or the state, so it selects nothing.{hint}"
        ),
        None,
    )
}

/// Reads one optional JSON input; a failure becomes a diagnostic naming the file.
fn read<T>(
    input: &Option<NamedText>,
    parse: impl Fn(&str) -> Result<T, Diagnostic>,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    let input = input.as_ref()?;
    match parse(&input.text) {
        Ok(v) => Some(v),
        Err(mut d) => {
            // Readers see only the text: a position they found gets the file's name here, and a
            // problem with the whole file names the file in its summary.
            match &mut d.range {
                Some(r) if r.file.is_empty() => r.file = input.name.as_str().into(),
                Some(_) => {}
                None => d.summary = format!("{}: {}", input.name, d.summary),
            }
            errors.push(d);
            None
        }
    }
}

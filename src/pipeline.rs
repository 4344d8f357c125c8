//! The whole pipeline as the CLI and the app use it: named input texts in (configuration files,
//! optionally a state, planned changes, provider schemas, targets), a built graph out, with every
//! problem as a diagnostic that names its file. One entry point, so the browser and the command line
//! cannot drift apart.

use crate::builder::{self, BuilderKind, Built};
pub use crate::config::vars::VarInput;
use crate::config::{self, Config, Diagnostic};
use std::collections::BTreeMap;

/// A named text: the file name the user knows and its contents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NamedText {
    pub name: String,
    pub text: String,
}

impl NamedText {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        NamedText {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// Everything one graph build reads.
#[derive(Debug, Clone)]
pub struct Request {
    /// Configuration files by path relative to the root module (`main.tf`, `modules/net/main.tf`);
    /// ignored by [`run_loaded`].
    pub files: BTreeMap<String, String>,
    /// Which of OpenTofu's graph builders to run.
    pub kind: BuilderKind,
    /// A Terraform/OpenTofu state (format version 4).
    pub state: Option<NamedText>,
    /// A plan as `terraform show -json PLANFILE` prints it (its `resource_changes`).
    pub plan_json: Option<NamedText>,
    /// Planned changes as a JSON list in the conformance corpus' `changes` format.
    pub changes: Option<NamedText>,
    /// Provider schemas as `tofu providers schema -json` prints them. Without them every
    /// attribute of a resource counts as a possible reference (OpenTofu reads only declared ones).
    pub schemas: Option<NamedText>,
    /// Root module variable values: `TF_VAR_` environment variables, variables files and
    /// `-var` assignments ([`VarInput`]). Their precedence is OpenTofu's whatever their order
    /// here: the environment, then the files read automatically (those among [`Request::files`]
    /// at the root come first, then the `AutoFile`s listed here), then `-var` and `-var-file`
    /// in the order listed.
    pub vars: Vec<VarInput>,
    /// `-target` addresses.
    pub targets: Vec<String>,
    /// `-exclude` addresses.
    pub excludes: Vec<String>,
}

impl Request {
    pub fn new(files: BTreeMap<String, String>, kind: BuilderKind) -> Self {
        Request {
            files,
            kind,
            state: None,
            plan_json: None,
            changes: None,
            schemas: None,
            vars: Vec::new(),
            targets: Vec::new(),
            excludes: Vec::new(),
        }
    }
}

/// A successful build: the loaded configuration, the graph with its recorded steps, and the
/// warnings met on the way.
pub struct Output {
    pub config: Config,
    pub built: Built,
    pub warnings: Vec<Diagnostic>,
    /// The builder that made the graph.
    pub kind: BuilderKind,
    /// The root variable values the request's inputs give ([`config::vars::resolve`]), by
    /// name.
    pub vars: BTreeMap<String, hcl::Value>,
    /// Where each of [`Output::vars`] came from (the input that set it last).
    pub var_sources: BTreeMap<String, config::vars::VarSource>,
}

impl Output {
    /// What the graph's vertices expand into when it is walked: for plan graphs, the instances
    /// that follow statically from the configuration and [`Output::vars`]
    /// ([`crate::walk::expand`]); `None` for graphs whose vertices are already instances (apply,
    /// plan-destroy) or that OpenTofu walks unexpanded (validate).
    pub fn expander(&self) -> Option<crate::walk::StaticExpander> {
        match self.kind {
            BuilderKind::Plan | BuilderKind::PlanRefreshOnly => Some(
                crate::walk::StaticExpander::with_values(self.config.clone(), self.vars.clone()),
            ),
            BuilderKind::PlanDestroy | BuilderKind::Validate | BuilderKind::Apply => None,
        }
    }
}

impl Output {
    /// Each vertex's Go type in the walk of this graph, hence the steps it runs
    /// ([`crate::walk::steps`]).
    pub fn step_table(&self) -> crate::walk::StepTable {
        crate::walk::StepTable::of_graph(
            self.built.graph.dag(),
            crate::inside::Operation::of_builder(self.kind),
        )
    }
}

/// Runs the pipeline. Errors come back as diagnostics (at least one); warnings of a successful run
/// are in [`Output::warnings`]. Never panics on user input.
pub fn run(req: &Request) -> Result<Output, Vec<Diagnostic>> {
    run_loaded(config::load_files(&req.files), req)
}

/// As [`run`], with the configuration already loaded by the caller (natively, `config::load_dir`
/// follows `../` module sources outside the root folder); `req.files` is not read.
// Diagnostics are this module's error type throughout; boxing them would only add noise.
#[allow(clippy::result_large_err)]
pub fn run_loaded(
    loaded: (Option<Config>, Vec<Diagnostic>),
    req: &Request,
) -> Result<Output, Vec<Diagnostic>> {
    use futures::FutureExt as _;
    run_paced(req, Some(loaded), |_| std::future::ready(true))
        .now_or_never()
        .flatten()
        .expect("a pipeline that never pauses finishes at once")
        .map_err(|f| f.diagnostics)
}

/// Where a paced run is (see [`run_paced`]): what comes next, and how far along it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub label: String,
    /// Stages begun and the stages in all (loading, checking, each transform, preparing the
    /// result). The total is a typical builder's length until the builder's transforms are known.
    pub done: usize,
    pub total: usize,
}

/// A run that failed. When the builder ran (the graph failed validation, e.g. a cycle, or a
/// transform reported an error) its graph and steps are kept, so the caller can show the graph
/// that failed from the very inputs that made it.
pub struct Failed {
    pub diagnostics: Vec<Diagnostic>,
    pub built: Option<Built>,
}

/// The pipeline as [`run`] and [`run_loaded`] run it, calling `pause` before each stage
/// (loading, checking, each transform) and once at the end; a `pause` that resolves to false
/// stops the run and `None` comes back. The web app pauses to give the browser back control
/// during a large build (and stops when a newer edit replaced it); the CLI never pauses. `loaded`
/// is the configuration the caller loaded itself (`None`: load `req.files`).
#[allow(clippy::result_large_err)]
pub async fn run_paced<P, F>(
    req: &Request,
    loaded: Option<(Option<Config>, Vec<Diagnostic>)>,
    mut pause: P,
) -> Option<Result<Output, Failed>>
where
    P: FnMut(Progress) -> F,
    F: std::future::Future<Output = bool>,
{
    let mut total = 34;
    let mut done = 0;
    let mut next = |label: &str, total: usize| {
        done += 1;
        Progress {
            label: label.to_string(),
            done,
            total,
        }
    };
    if !pause(next("Loading the configuration", total)).await {
        return None;
    }
    let loaded = loaded.unwrap_or_else(|| config::load_files(&req.files));
    if !pause(next("Checking references and inputs", total)).await {
        return None;
    }
    let prepared = match prepare(loaded, req) {
        Ok(p) => p,
        Err(diagnostics) => {
            return Some(Err(Failed {
                diagnostics,
                built: None,
            }));
        }
    };
    let transforms = builder::steps(&prepared.inputs, req.kind);
    total = transforms.len() + 3;
    let mut runner = builder::Runner::new();
    for t in &transforms {
        if !pause(next(&format!("Running {}", t.name()), total)).await {
            return None;
        }
        if !runner.apply(t.as_ref()) {
            break;
        }
    }
    drop(transforms);
    let mut built = runner.into_built();
    builder::validate_built(&mut built);
    if !pause(next("Preparing the drawing", total)).await {
        return None;
    }
    Some(prepared.finish_keeping(built))
}

/// Everything checked and read, ready for the builder: [`run_loaded`] up to the transforms, for
/// callers that run the transforms one at a time ([`builder::Runner`]) and then [`Prepared::finish`].
pub struct Prepared {
    pub config: Config,
    pub inputs: builder::Inputs,
    /// Warnings of loading so far.
    warnings: Vec<Diagnostic>,
    kind: BuilderKind,
    vars: BTreeMap<String, hcl::Value>,
    var_sources: BTreeMap<String, config::vars::VarSource>,
}

/// Loads nothing itself: checks references, reads state, changes and schemas, and parses targets.
#[allow(clippy::result_large_err)]
pub fn prepare(
    loaded: (Option<Config>, Vec<Diagnostic>),
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
    let (ref_diags, _) = config::validate_references(&cfg);
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

    let mut inputs = builder::inputs_from_crate(
        Some(&cfg),
        state.as_ref(),
        changes.as_ref(),
        schemas.as_ref(),
    );
    inputs.read_bodies_without_schema = schemas.is_none();
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
            if !target_matches(t, &cfg, state.as_ref()) {
                diags.push(unmatched_target(t, summary, flag, &cfg, state.as_ref()));
            }
        }
    }

    Ok(Prepared {
        config: cfg,
        inputs,
        warnings: diags,
        kind: req.kind,
        vars,
        var_sources,
    })
}

impl Prepared {
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
            config: self.config,
            built,
            warnings,
            kind: self.kind,
            vars: self.vars,
            var_sources: self.var_sources,
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
                Some(r) if r.file.is_empty() => r.file = input.name.clone(),
                Some(_) => {}
                None => d.summary = format!("{}: {}", input.name, d.summary),
            }
            errors.push(d);
            None
        }
    }
}

/// The module calls of `cfg` that are not installed, as the JSON graph lists them.
pub fn not_installed_json(cfg: &Config) -> Vec<crate::dag::render::json::JsonNotInstalled> {
    cfg.not_installed_calls()
        .into_iter()
        .map(|(path, call)| crate::dag::render::json::JsonNotInstalled {
            module: path.to_string(),
            source: call
                .source
                .as_ref()
                .map(|s| s.as_str().to_string())
                .unwrap_or_default(),
            call: call.decl_range.to_string(),
        })
        .collect()
}

/// The request's variable inputs in OpenTofu's order of precedence (lowest first): the
/// environment, the automatic files among the root's files, the listed automatic files, then
/// `-var` and `-var-file` as listed.
pub fn var_inputs(req: &Request) -> Vec<VarInput> {
    let mut out: Vec<VarInput> = req
        .vars
        .iter()
        .filter(|v| matches!(v, VarInput::Env { .. }))
        .cloned()
        .collect();
    let root_names = req.files.keys().filter(|k| !k.contains('/'));
    for name in config::vars::auto_var_files(root_names.map(String::as_str)) {
        out.push(VarInput::AutoFile {
            text: req.files[&name].clone(),
            name,
        });
    }
    out.extend(
        req.vars
            .iter()
            .filter(|v| matches!(v, VarInput::AutoFile { .. }))
            .cloned(),
    );
    out.extend(
        req.vars
            .iter()
            .filter(|v| matches!(v, VarInput::Var(_) | VarInput::File { .. }))
            .cloned(),
    );
    out
}

/// The request for a folder held in memory, as the web app holds an opened folder or dropped
/// files: `files` by path relative to that folder, `root` the root module's folder among them
/// (`""`: the top). Configuration files, variables files and module manifests are passed on by
/// path relative to the root module (`../../main.tf`), the names the CLI gives the files of a
/// folder on disk ([`config::load_dir`]); so the root's `.terraform/modules/modules.json` is the
/// manifest and the root's `terraform.tfvars` and `*.auto.tfvars` are read first
/// ([`var_inputs`]), as for `tfgraph graph ROOT`. State, plan, changes and schemas are the
/// caller's to set.
pub fn memory_request(files: &BTreeMap<String, String>, root: &str, kind: BuilderKind) -> Request {
    use config::file_names::{is_config_file_name, relative_to};
    let manifest = config::manifest::MANIFEST_PATH;
    let rooted = files
        .iter()
        .filter(|(p, _)| {
            let base = p.rsplit('/').next().unwrap_or(p);
            is_config_file_name(base)
                || config::vars::is_var_file_name(base)
                || p.as_str() == manifest
                || p.ends_with(&format!("/{manifest}"))
        })
        .map(|(p, t)| (relative_to(root, p), t.clone()))
        .collect();
    Request::new(rooted, kind)
}

/// One graph build described by paths, as the CLI takes it: the root module folder and the files
/// given beside it (`--state`, `--plan`, `--changes`, `--schemas`), with `--var`, `--var-file`,
/// `--target` and `--exclude` and the `TF_VAR_` environment. Every subcommand that reads a folder goes through [`FolderInputs::build`], so they
/// read their inputs the same way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderInputs {
    /// The root module folder (local module sources are followed from it).
    pub dir: std::path::PathBuf,
    /// The builder's name as the user wrote it (`--type`); see [`builder_kind`].
    pub kind: Option<String>,
    pub state: Option<std::path::PathBuf>,
    pub plan: Option<std::path::PathBuf>,
    pub changes: Option<std::path::PathBuf>,
    pub schemas: Option<std::path::PathBuf>,
    /// `--var` and `--var-file`, in command-line order (a later one wins).
    pub vars: Vec<VarArg>,
    /// The environment's `TF_VAR_NAME` values as (NAME, value) (the CLI passes its own).
    pub env_vars: Vec<(String, String)>,
    pub targets: Vec<String>,
    pub excludes: Vec<String>,
}

/// A `--var NAME=VALUE` or `--var-file FILE` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarArg {
    Var(String),
    File(std::path::PathBuf),
}

impl From<&str> for VarArg {
    fn from(s: &str) -> Self {
        VarArg::Var(s.to_string())
    }
}

/// Why [`FolderInputs::build`] made no graph.
#[derive(Debug, Clone, PartialEq)]
pub enum FolderError {
    /// An input could not be read, or `--type` names no builder: one message.
    Input(String),
    /// The configuration, state, plan or schemas are wrong: the pipeline's diagnostics.
    Diagnostics(Vec<Diagnostic>),
}

impl FolderError {
    /// One line per problem, each to be printed after `Error: `.
    pub fn messages(&self) -> Vec<String> {
        match self {
            FolderError::Input(m) => vec![m.clone()],
            FolderError::Diagnostics(d) => d.iter().map(|d| d.to_string()).collect(),
        }
    }
}

/// The builder a `--type` names; without one, apply when a plan is given (its changes only make
/// sense to the apply graph), plan otherwise. That is `tofu graph`'s default
/// (`internal/command/graph.go`, `GraphCommand.Run`: a plan file selects the apply graph).
pub fn builder_kind(kind: Option<&str>, has_plan: bool) -> Result<BuilderKind, String> {
    match kind {
        // `tofu graph` dropped these two; tfgraph keeps validate, a builder OpenTofu still runs.
        Some("eval") => Err(
            "Graph type no longer available: The graph type \"eval\" is no longer available. Use -type=plan instead to get a similar result.".to_string(),
        ),
        Some(k) => BuilderKind::parse(k).ok_or_else(|| {
            "Unsupported graph type: The -type=... argument must be either \"plan\", \"plan-refresh-only\", \"plan-destroy\", or \"apply\" (tfgraph also accepts \"validate\").".to_string()
        }),
        None if has_plan => Ok(BuilderKind::Apply),
        None => Ok(BuilderKind::Plan),
    }
}

impl FolderInputs {
    pub fn new(dir: impl Into<std::path::PathBuf>) -> Self {
        FolderInputs {
            dir: dir.into(),
            ..Self::default()
        }
    }

    /// The request these inputs make, with the named files read (a file that cannot be read is
    /// an error naming it); `files` is left empty, [`FolderInputs::build`] loads the folder.
    pub fn request(&self) -> Result<Request, String> {
        let kind = builder_kind(self.kind.as_deref(), self.plan.is_some())?;
        let named = |p: &Option<std::path::PathBuf>| -> Result<Option<NamedText>, String> {
            p.as_ref()
                .map(|p| {
                    std::fs::read_to_string(p)
                        .map(|t| NamedText::new(p.display().to_string(), t))
                        .map_err(|e| format!("{}: {e}", p.display()))
                })
                .transpose()
        };
        let mut req = Request::new(BTreeMap::new(), kind);
        req.state = named(&self.state)?;
        req.plan_json = named(&self.plan)?;
        req.changes = named(&self.changes)?;
        req.schemas = named(&self.schemas)?;
        req.vars = config::vars::env_inputs(
            self.env_vars
                .iter()
                .map(|(k, v)| (format!("TF_VAR_{k}"), v.clone())),
        );
        req.vars.extend(self.auto_var_files()?);
        for a in &self.vars {
            req.vars.push(match a {
                VarArg::Var(v) => VarInput::Var(v.clone()),
                VarArg::File(p) => VarInput::File {
                    name: p.display().to_string(),
                    text: read_var_file(p)?,
                },
            });
        }
        req.targets = self.targets.clone();
        req.excludes = self.excludes.clone();
        Ok(req)
    }

    /// The variables files OpenTofu reads from the folder without being told, in its order.
    fn auto_var_files(&self) -> Result<Vec<VarInput>, String> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Ok(Vec::new());
        };
        let names: Vec<String> = rd
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        config::vars::auto_var_files(names.iter().map(String::as_str))
            .into_iter()
            .map(|name| {
                Ok(VarInput::AutoFile {
                    text: read_var_file(&self.dir.join(&name))?,
                    name,
                })
            })
            .collect()
    }

    /// Reads everything and runs the pipeline on the folder ([`config::load_dir`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn build(&self) -> Result<Output, FolderError> {
        let req = self.request().map_err(FolderError::Input)?;
        if !self.dir.is_dir() {
            return Err(FolderError::Input(format!(
                "{}: not a folder",
                self.dir.display()
            )));
        }
        run_loaded(config::load_dir(&self.dir), &req).map_err(FolderError::Diagnostics)
    }
}

/// A variables file's text, or OpenTofu's "Failed to read variables file" (`addVarsFromFile`).
fn read_var_file(p: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(p).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "Failed to read variables file: Given variables file {} does not exist.",
                p.display()
            )
        } else {
            format!(
                "Failed to read variables file: Error while reading {}: {e}.",
                p.display()
            )
        }
    })?;
    config::text_from_bytes(&p.display().to_string(), bytes).map_err(|d| d.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Preparing, running the transforms one at a time and finishing gives what `run` gives.
    #[test]
    fn the_stepwise_pipeline_equals_the_whole_one() {
        let text = "variable \"n\" {}\nresource \"a\" \"x\" { v = var.n }\nresource \"a\" \"y\" { v = a.x.id }\noutput \"o\" { value = a.y.id }\n";
        for kind in [BuilderKind::Plan, BuilderKind::Validate, BuilderKind::Apply] {
            let req = Request::new(
                BTreeMap::from([("main.tf".to_string(), text.to_string())]),
                kind,
            );
            let whole = run(&req).unwrap_or_else(|d| panic!("{d:?}"));
            let prepared = prepare(config::load_files(&req.files), &req).unwrap();
            let mut runner = builder::Runner::new();
            let steps = builder::steps(&prepared.inputs, kind);
            let mut applied = 0;
            for t in &steps {
                applied += 1;
                if !runner.apply(t.as_ref()) {
                    break;
                }
            }
            assert_eq!(applied, steps.len());
            drop(steps);
            let mut built = runner.into_built();
            builder::validate_built(&mut built);
            let stepwise = prepared.finish(built).unwrap();
            assert_eq!(
                stepwise.built.graph.dag().string(),
                whole.built.graph.dag().string()
            );
            assert_eq!(stepwise.built.steps, whole.built.steps);
            if kind == BuilderKind::Plan {
                assert!(whole.built.graph.dag().string().contains("a.y"));
            }
        }
    }

    fn files(text: &str) -> BTreeMap<String, String> {
        BTreeMap::from([("main.tf".to_string(), text.to_string())])
    }

    #[test]
    fn builds_the_plan_graph_with_references_without_schemas() {
        let req = Request::new(
            files(
                "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\n",
            ),
            BuilderKind::Plan,
        );
        let out = run(&req).unwrap_or_else(|e| panic!("{e:?}"));
        let g = out.built.graph.string();
        assert!(
            g.contains("aws_subnet.b (expand)\n  aws_vpc.a (expand)\n"),
            "subnet depends on vpc:\n{g}"
        );
    }

    #[test]
    fn plan_graphs_get_a_static_expander_with_the_request_vars() {
        let text =
            "variable \"n\" {\n  default = 1\n}\nresource \"a_b\" \"c\" {\n  count = var.n\n}\n";
        let mut req = Request::new(files(text), BuilderKind::Plan);
        req.vars = vec![VarInput::var("n=3")];
        let out = run(&req).unwrap_or_else(|e| panic!("{e:?}"));
        let mut e = out.expander().expect("plan graphs expand");
        let names = e.instances_of("a_b.c (expand)").expect("expands");
        assert_eq!(names.map(|v| v.len()), Ok(3));
        let apply =
            run(&Request::new(files(text), BuilderKind::Apply)).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(apply.expander().is_none());
    }

    #[test]
    fn syntax_error_names_file_line_and_column() {
        let errs = run(&Request::new(
            files("resource \"a\" \"b\" {\n  x = \n}\n"),
            BuilderKind::Plan,
        ))
        .err()
        .expect("error");
        let text = errs[0].to_string();
        assert!(text.starts_with("main.tf:2,"), "{text}");
    }

    #[test]
    fn undeclared_variable_is_reported_in_opentofu_words() {
        let mut req = Request::new(files("variable \"a\" {}\n"), BuilderKind::Plan);
        req.vars = vec![VarInput::var("a=1"), VarInput::var("b=2")];
        let errs = run(&req).err().expect("error");
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].summary, "Value for undeclared variable");
        assert!(errs[0].detail.contains("\"b\""));
    }

    #[test]
    fn bad_state_is_an_error_naming_the_file() {
        let mut req = Request::new(files("resource \"a_b\" \"c\" {}\n"), BuilderKind::Plan);
        req.state = Some(NamedText::new("terraform.tfstate", "{\"version\": 3}"));
        let errs = run(&req).err().expect("error");
        assert!(
            errs[0].summary.starts_with("terraform.tfstate: "),
            "{}",
            errs[0]
        );
    }

    #[test]
    fn cycle_is_reported_with_cycle_wording() {
        let req = Request::new(
            files(
                "resource \"a_b\" \"x\" {\n  depends_on = [a_b.y]\n}\nresource \"a_b\" \"y\" {\n  depends_on = [a_b.x]\n}\n",
            ),
            BuilderKind::Plan,
        );
        let errs = run(&req).err().expect("cycle");
        let all: Vec<String> = errs.iter().map(|d| d.to_string()).collect();
        assert!(all.iter().any(|e| e.contains("Cycle: ")), "{all:?}");
    }

    #[test]
    fn the_builder_is_the_named_one_else_apply_with_a_plan_else_plan() {
        assert_eq!(builder_kind(None, false), Ok(BuilderKind::Plan));
        assert_eq!(builder_kind(None, true), Ok(BuilderKind::Apply));
        assert_eq!(
            builder_kind(Some("validate"), true),
            Ok(BuilderKind::Validate)
        );
        // internal/command/graph.go `GraphCommand.Run`: OpenTofu's wording for an unknown type
        // and for the dropped "eval" type.
        let e = builder_kind(Some("bogus"), false).unwrap_err();
        assert_eq!(
            e,
            "Unsupported graph type: The -type=... argument must be either \"plan\", \"plan-refresh-only\", \"plan-destroy\", or \"apply\" (tfgraph also accepts \"validate\")."
        );
        let e = builder_kind(Some("eval"), false).unwrap_err();
        assert_eq!(
            e,
            "Graph type no longer available: The graph type \"eval\" is no longer available. Use -type=plan instead to get a similar result."
        );
    }

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let d =
            std::env::temp_dir().join(format!("tfgraph-pipeline-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn folder_inputs_read_their_files_and_build() {
        let d = temp_dir("ok");
        std::fs::write(
            d.join("main.tf"),
            "variable \"n\" {}\nresource \"a_b\" \"c\" {\n  v = var.n\n}\n",
        )
        .unwrap();
        let schemas = d.join("schemas.json");
        std::fs::write(&schemas, "{\"format_version\": \"1.0\"}").unwrap();
        let mut inputs = FolderInputs::new(&d);
        inputs.schemas = Some(schemas.clone());
        inputs.vars = vec!["n=2".into()];
        inputs.targets = vec!["a_b.c".into()];
        let req = inputs.request().unwrap();
        assert_eq!(req.kind, BuilderKind::Plan);
        assert_eq!(
            req.schemas.as_ref().map(|s| s.name.clone()),
            Some(schemas.display().to_string())
        );
        assert_eq!((req.vars.len(), req.targets.len()), (1, 1));
        let out = inputs.build().unwrap_or_else(|e| panic!("{e:?}"));
        assert!(out.built.graph.string().contains("a_b.c (expand)"));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn folder_inputs_name_what_they_could_not_read() {
        let d = temp_dir("bad");
        let mut inputs = FolderInputs::new(d.join("missing"));
        assert_eq!(
            inputs.build().err().expect("fails").messages(),
            vec![format!("{}: not a folder", d.join("missing").display())]
        );
        inputs.dir = d.clone();
        inputs.state = Some(d.join("nope.tfstate"));
        let msg = &inputs.build().err().expect("fails").messages()[0];
        assert!(
            msg.starts_with(&format!("{}: ", d.join("nope.tfstate").display())),
            "{msg}"
        );
        inputs.state = None;
        std::fs::write(d.join("main.tf"), "resource \"a\" \"b\" {\n  x = \n}\n").unwrap();
        let msgs = inputs.build().err().expect("fails").messages();
        assert!(msgs[0].starts_with("main.tf:2,"), "{msgs:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// internal/command/arguments/extended.go `parseRawTargetsAndExcludes`: -target and
    /// -exclude together are an error, worded as OpenTofu words it.
    #[test]
    fn targets_and_excludes_are_mutually_exclusive() {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "resource \"a_b\" \"c\" {}\n".to_string(),
        );
        let mut req = Request::new(files, BuilderKind::Plan);
        req.targets = vec!["a_b.c".into()];
        req.excludes = vec!["a_b.d".into()];
        let errs = prepare(config::load_files(&req.files), &req)
            .err()
            .expect("an error");
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].summary, "Invalid combination of arguments");
        req.excludes.clear();
        assert!(prepare(config::load_files(&req.files), &req).is_ok());
    }

    #[test]
    fn a_target_that_matches_nothing_is_warned_about_with_a_suggestion() {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "resource \"aws_instance\" \"web\" {}\nmodule \"net\" {\n  source = \"./net\"\n}\n"
                .to_string(),
        );
        files.insert(
            "net/main.tf".to_string(),
            "resource \"aws_vpc\" \"main\" {}\n".to_string(),
        );
        let warnings = |targets: &[&str], excludes: &[&str]| {
            let mut req = Request::new(files.clone(), BuilderKind::Plan);
            req.targets = targets.iter().map(|t| t.to_string()).collect();
            req.excludes = excludes.iter().map(|t| t.to_string()).collect();
            let out = run(&req).expect("builds");
            out.warnings
                .iter()
                .filter(|d| d.summary.ends_with("matches nothing"))
                .map(|d| format!("{}: {}", d.summary, d.detail))
                .collect::<Vec<_>>()
        };
        // Everything declared matches, instance keys included.
        for ok in [
            "aws_instance.web",
            "aws_instance.web[3]",
            "module.net",
            "module.net[\"a\"]",
            "module.net.aws_vpc.main",
        ] {
            assert_eq!(warnings(&[ok], &[]), Vec::<String>::new(), "{ok}");
        }
        let w = warnings(&["aws_instance.wbe"], &[]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("Target matches nothing: "), "{w:?}");
        assert!(
            w[0].contains("\"aws_instance.wbe\"")
                && w[0].ends_with("Did you mean \"aws_instance.web\"?"),
            "{w:?}"
        );
        let w = warnings(&[], &["module.nett.aws_vpc.main"]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("Exclude matches nothing: "), "{w:?}");
        assert!(
            w[0].ends_with("Did you mean \"module.net.aws_vpc.main\"?"),
            "{w:?}"
        );
        // Nothing close: no suggestion.
        let w = warnings(&["aws_s3_bucket.logs"], &[]);
        assert!(w.len() == 1 && !w[0].contains("Did you mean"), "{w:?}");
    }

    #[test]
    fn a_target_held_only_by_the_state_matches() {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "resource \"a_b\" \"c\" {}\n".to_string(),
        );
        let mut req = Request::new(files, BuilderKind::Plan);
        req.state = Some(NamedText::new(
            "terraform.tfstate",
            r#"{"version":4,"terraform_version":"1.12.0","serial":1,"lineage":"x","outputs":{},"resources":[{"mode":"managed","type":"a_b","name":"gone","provider":"provider[\"registry.opentofu.org/hashicorp/a\"]","instances":[{"schema_version":0,"attributes":{}}]}]}"#,
        ));
        req.targets = vec!["a_b.gone".into()];
        let out = run(&req).expect("builds");
        assert!(
            !out.warnings
                .iter()
                .any(|d| d.summary == "Target matches nothing"),
            "{:?}",
            out.warnings
        );
    }
}

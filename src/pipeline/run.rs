//! The pipeline's one entry, [`run_paced`], which the page pauses between stages, and its plain
//! forms [`run`] and [`run_loaded`] that the CLI uses.

use super::output::{Failed, Output};
use super::prepare::prepare_with;
use super::request::Request;
use crate::builder;
use crate::config::{self, Config, Diagnostic};

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
    run_loaded_keeping(loaded, config::refs::ResourceRefsMemo::default(), req)
}

/// As [`run_loaded`], with resources' references the loader already found
/// (`config::load_dir_keeping_references`), so the reference validation does not walk those
/// bodies again.
#[allow(clippy::result_large_err)]
pub fn run_loaded_keeping(
    loaded: (Option<Config>, Vec<Diagnostic>),
    found: config::refs::ResourceRefsMemo,
    req: &Request,
) -> Result<Output, Vec<Diagnostic>> {
    use futures::FutureExt as _;
    run_paced_with(req, Some(loaded), found, |_| std::future::ready(true))
        .now_or_never()
        .flatten()
        .expect("a pipeline that never pauses finishes at once")
        .map_err(|f| f.diagnostics)
}

/// Where a paced run is (see [`run_paced`]): what comes next, and how far along it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    pub label: String,
    /// Stages begun and the stages in all (loading, checking, each transform, preparing the
    /// result). The total is a typical builder's length until the builder's transforms are known.
    pub done: usize,
    pub total: usize,
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
    pause: P,
) -> Option<Result<Output, Failed>>
where
    P: FnMut(Progress) -> F,
    F: std::future::Future<Output = bool>,
{
    run_paced_with(
        req,
        loaded,
        config::refs::ResourceRefsMemo::default(),
        pause,
    )
    .await
}

/// [`run_paced`] with resources' references already found ([`run_loaded_keeping`]).
#[allow(clippy::result_large_err)]
async fn run_paced_with<P, F>(
    req: &Request,
    loaded: Option<(Option<Config>, Vec<Diagnostic>)>,
    found: config::refs::ResourceRefsMemo,
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
    let mut prepared = match prepare_with(loaded, found, req) {
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
    let mut runner = builder::Runner::recording(req.record);
    runner.keep_references(std::mem::take(&mut prepared.kept_references));
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

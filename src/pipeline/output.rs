//! What a build gives: the [`Output`] of a successful one, what a [`Failed`] one keeps, and the
//! module calls not installed as the JSON graph lists them.

use crate::builder::{BuilderKind, Built};
use crate::config::{Config, Diagnostic};
use std::collections::BTreeMap;

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
    pub var_sources: BTreeMap<String, crate::config::vars::VarSource>,
    /// The planned changes the request's plan or changes list gave (what [`crate::actions`]
    /// marks the graph's vertices with), `None` without either.
    pub changes: Option<crate::plan::Changes>,
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

/// A run that failed. When the builder ran (the graph failed validation, e.g. a cycle, or a
/// transform reported an error) its graph and steps are kept, so the caller can show the graph
/// that failed from the very inputs that made it.
pub struct Failed {
    pub diagnostics: Vec<Diagnostic>,
    pub built: Option<Built>,
}

/// The module calls of `cfg` that are not installed, as the JSON graph lists them.
pub fn not_installed_json(cfg: &Config) -> Vec<crate::dag::render::json::JsonNotInstalled> {
    cfg.not_installed_calls()
        .into_iter()
        .map(|(path, call)| crate::dag::render::json::JsonNotInstalled {
            module: path.to_string(),
            source: call.source_text(),
            call: call.decl_range.to_string(),
        })
        .collect()
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

//! What one analysis holds, and the options it is asked with.

use super::expander::SharedExpander;
use super::not_installed::NotInstalled;
use super::places::{Decl, Diag, RefLink};
use crate::builder::Step;
use crate::page::graph::PageGraph;
use std::collections::{BTreeMap, BTreeSet};

/// One run of the engine on the editor's files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    /// The built graph; also present for a cycle error (the graph that has the cycle).
    pub graph: Option<PageGraph>,
    pub decls: BTreeMap<String, Decl>,
    pub steps: Vec<Step>,
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
    /// Vertex names of each cycle.
    pub cycles: Vec<Vec<String>>,
    /// The built graph as `tofu graph` prints it (DOT), as Mermaid and as JSON.
    pub dot: String,
    pub mermaid: String,
    pub json: String,
    /// What `(expand)` vertices expand into when the graph is walked (plan graphs).
    pub expander: Option<SharedExpander>,
    /// The DOT file the graph was imported from (no builder ran), if any.
    pub imported: Option<String>,
    /// Module calls that are not installed (see [`NotInstalled`]).
    pub not_installed: Vec<NotInstalled>,
    /// Why each edge exists, by `(from, to)` names: every edge the builder added, also those a
    /// transform (transitive reduction among them) removed since. References carry the editor's
    /// paths.
    pub whys: BTreeMap<(String, String), Why>,
    /// The configuration files the built configuration read (every local and installed module's,
    /// the root's own), by the editor's paths; `None` when the configuration did not load (then
    /// what is in the graph is not known by file). [`super::tree`] says what lies outside it.
    pub config_files: Option<BTreeSet<String>>,
}

/// Why one edge exists, for the details panel ([`crate::builder::why`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// The edge's kind in words when no reference caused it ("provider of this resource");
    /// "a reference" or "depends_on" when references did.
    pub reason: String,
    /// The transform that added it (OpenTofu's name).
    pub transform: &'static str,
    /// The references that caused it.
    pub refs: Vec<RefLink>,
}

/// The most text (all files together) the app analyses. Above it the app says so instead of
/// working for seconds on every keystroke; the CLI has no such limit.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// Inputs at least this large are analysed in slices that give the browser back control between
/// phases (and show progress); smaller ones are analysed at once, which is quicker than yielding.
pub const SLICE_FROM_BYTES: usize = 256 * 1024;

/// What the editor's files hold besides configuration, and how the graph is limited.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The root module's folder among the files (`""`: the top folder); see
    /// [`crate::page::files::root_candidates`].
    pub root: String,
    /// `-target` addresses.
    pub targets: Vec<String>,
    /// `-exclude` addresses.
    pub excludes: Vec<String>,
}

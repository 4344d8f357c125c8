//! The engine run on the editor's files, as the page shows it: the files routed by role to the
//! pipeline's inputs, the pipeline run through its one paced entry ([`pipeline::run_paced`]), and
//! the result as plain data: the graph (also the graph that failed validation, drawn from the very
//! inputs that made it), where each vertex is declared, the builder's steps, diagnostics, cycles,
//! the exports. An imported DOT file stands in for the builder.
//!
//! The files are those of the folder that was opened (paths relative to it); the root module is
//! one of its folders ([`Options::root`]). The pipeline sees them as the CLI sees a folder on
//! disk: paths relative to the root module (`../../main.tf` for a file two levels up), the
//! module manifest at `.terraform/modules/modules.json` of the root, the root's automatic
//! variables files ([`pipeline::memory_request`]); diagnostics and declarations come back with
//! the editor's paths.
//!
//! One file per concept: [`model`] (what an analysis holds and the options it is asked with),
//! [`places`] (diagnostics, declarations and references with the editor's paths), [`built`] (the
//! built or imported graph as the page's, with its declarations, whys and cycles), [`expander`]
//! (the walks' shared static expander), [`not_installed`] (module calls not installed), [`run`]
//! (the files routed to the pipeline and the paced run).

pub mod built;
pub mod expander;
pub mod model;
pub mod not_installed;
pub mod places;
pub mod remote;
pub mod run;

pub use crate::pipeline::Progress;
pub use expander::SharedExpander;
pub use model::{
    Analysis, Exports, InsideData, JsonSource, Lazy, MAX_INPUT_BYTES, OUTLINE_AT_ONCE_BYTES,
    Options, Outline, SLICE_FROM_BYTES, SharedInside, Why, built_in, is_outlined, outlines_of,
    reduced_of,
};
pub use not_installed::{NotInstalled, is_not_installed, not_installed_notice};
pub use places::{Decl, Diag, RefLink};
pub use run::{analyze, analyze_with};

#[cfg(test)]
mod tests;

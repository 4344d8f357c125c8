//! The whole pipeline as the CLI and the app use it: named input texts in (configuration files,
//! optionally a state, planned changes, provider schemas, targets), a built graph out, with every
//! problem as a diagnostic that names its file. One entry point, so the browser and the command line
//! cannot drift apart.
//!
//! One file per concept: [`request`] (what a build reads: named texts, the request, a folder held
//! in memory, the variable inputs in their order), [`prepare`] (checking and reading everything
//! before the builder runs), [`run`] (the one paced entry and its plain forms), [`output`] (what a
//! build gives, or what a failed one keeps), [`folder`] (a folder on disk and the CLI's flags).

pub mod folder;
pub mod output;
pub mod prepare;
pub mod request;
pub mod run;

pub use crate::config::vars::VarInput;
pub use folder::{FolderError, FolderInputs, VarArg, builder_kind};
pub use output::{Failed, Output, not_installed_json};
pub use prepare::{Prepared, prepare, prepare_with};
pub use request::{NamedText, Request, memory_request, var_inputs};
pub use run::{Progress, run, run_loaded, run_loaded_keeping, run_paced};

#[cfg(test)]
mod tests;

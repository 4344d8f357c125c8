//! Reading `.tf` files into [`Config`]: the root module and local child modules.

use super::diag::Diagnostic;
use super::model::Config;
use std::collections::BTreeMap;

/// Loads a configuration from in-memory files keyed by path relative to the root module folder
/// (`main.tf`, `modules/net/main.tf`). Returns the tree (when the root module could be read at
/// all) and every diagnostic, errors and warnings.
pub fn load_files(files: &BTreeMap<String, String>) -> (Option<Config>, Vec<Diagnostic>) {
    let _ = files;
    (None, Vec::new())
}

/// Loads a configuration from a folder on disk: every `.tf`/`.tf.json` file below it is read
/// (skipping `.terraform` and hidden folders) and passed to [`load_files`].
#[cfg(not(target_arch = "wasm32"))]
pub fn load_dir(path: &std::path::Path) -> (Option<Config>, Vec<Diagnostic>) {
    let _ = path;
    (None, Vec::new())
}

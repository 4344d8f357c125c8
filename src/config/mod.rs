//! Configuration loading (OpenTofu's `internal/configs`) and reference analysis
//! (`internal/lang/references.go`, `addrs.ParseRef`).
//!
//! Entry points: [`load_files`] for an in-memory set of files (web app, tests) and, natively,
//! [`load_dir`]. References: [`refs_in_expr`], [`refs_in_body`] and the per-object helpers in
//! [`refs`].

pub mod decode;
pub mod diag;
pub mod json;
pub mod load;
pub mod merge;
pub mod model;
pub mod refs;
pub mod traversal;
pub mod validate;

pub use diag::{Diagnostic, Pos, Severity, SourceFile, SourceRange, has_errors};
#[cfg(not(target_arch = "wasm32"))]
pub use load::load_dir;
pub use load::load_files;
pub use model::*;
pub use refs::{
    ProviderFunctionRef, Reference, Refs, ResourceRefParts, parse_ref, parse_ref_str,
    provider_funcs_in_body, provider_funcs_in_expr, refs_in_body, refs_in_body_full, refs_in_expr,
    refs_in_expr_full,
};
pub use validate::{module_refs, validate_references};

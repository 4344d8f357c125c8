//! Configuration loading (OpenTofu's `internal/configs`) and reference analysis
//! (`internal/lang/references.go`; what a reference names is [`crate::addrs::parse_ref`]).
//!
//! - [`load_files`] reads an in-memory set of files keyed by path relative to the root module
//!   (web app, tests); natively, [`load_dir`] reads a folder. Local module sources are followed,
//!   registry and remote ones stay opaque calls with a warning. The result is a [`Config`] tree
//!   like Go's `configs.Config`, holding one [`Module`] per node.
//! - Submodules: [`decode`] (block decoders and OpenTofu's diagnostics), [`merge`] (override
//!   files), [`json`] (`.tf.json`), [`load`] (files and module tree), [`file_names`] (which files
//!   load, which override), [`model`] (the types), [`eval`] (static count/for_each),
//!   [`provider_validation`], [`validate`]. Diagnostics are [`crate::diag`]'s (re-exported here),
//!   static traversals [`crate::addrs::traversal`]'s.
//! - References: [`refs_in_expr`] / [`refs_in_body`] (with or without a provider schema) and the
//!   per-object helpers in [`refs`], which also split a resource's references into the parts
//!   OpenTofu reads with and without a schema ([`refs::resource_refs`]).
//! - [`validate_references`] checks that every reference names a declared object.
//!
//! Expressions stay hcl-edit syntax trees (re-exported by hcl-rs as `hcl::edit`), chosen because
//! they carry byte spans for every block, attribute and expression.

pub mod decode;
pub mod eval;
pub mod file_names;
pub mod json;
pub mod load;
pub mod manifest;
pub mod merge;
pub mod model;
pub mod provider_validation;
pub mod refs;
pub mod validate;
pub mod vars;
pub mod version;

pub use crate::diag::{
    Diagnostic, Pos, Severity, SourceFile, SourceRange, has_errors, json_error_message,
    json_error_range, json_value_range,
};
pub use load::text_from_bytes;
pub use load::{Bodies, load_files};
#[cfg(not(target_arch = "wasm32"))]
pub use load::{load_dir, load_dir_keeping_references};
pub use model::*;
// References are addresses (`addrs.Reference`, `addrs.ParseRef`); named here as well because the
// configuration's callers look for them next to `refs_in_expr`.
pub use crate::addrs::{Reference, parse_ref, parse_ref_str};
pub use refs::{
    ProviderFunctionRef, Refs, ResourceRefParts, provider_funcs_in_body, provider_funcs_in_expr,
    refs_in_body, refs_in_body_full, refs_in_expr, refs_in_expr_full,
};
pub use validate::{
    RefContext, load_and_validate, module_refs, module_refs_by_container, module_refs_by_context,
    validate_reference_attributes, validate_references, validate_references_keeping,
};

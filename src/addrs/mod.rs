//! Addresses of configuration and state objects, printed exactly as OpenTofu v1.12.6 prints them
//! (its `internal/addrs` String() forms), because graph vertex names are built from these strings
//! and the conformance cases compare graph text byte for byte.
//!
//! The string forms are hand-written rather than derived: OpenTofu's quoting of instance keys
//! (Go `%q`) and its provider-address forms are specific to it.

//!
//! One file per kind of address, named after OpenTofu's file for it; [`traversal`] holds the
//! static traversals (HCL's `hcl.Traversal`) that addresses and references are parsed from, and
//! [`parse_ref`] is `addrs.ParseRef`. Nothing here knows about configuration files, graphs or the
//! page: addresses are values.

mod instance_key;
mod module;
mod module_call;
mod module_source;
mod parse_ref;
mod provider;
mod referenceable;
mod resource;
mod targetable;
pub mod traversal;

pub use instance_key::InstanceKey;
pub use module::{Module, ModuleInstance, ModuleInstanceStep};
pub use module_call::{ModuleCall, ModuleCallInstance, ModuleCallInstanceOutput};
pub use module_source::{ModuleSource, parse_module_source};
pub use parse_ref::{
    ParseStep, RefError, Reference, StepRef, parse_ref, parse_ref_steps, parse_ref_steps_taking,
    parse_ref_str,
};
pub use provider::{
    AbsProviderConfig, BUILTIN_PROVIDER_HOST, BUILTIN_PROVIDER_NAMESPACE,
    DEFAULT_PROVIDER_NAMESPACE, DEFAULT_PROVIDER_REGISTRY_HOST, LEGACY_PROVIDER_NAMESPACE,
    LocalProviderConfig, Provider,
};
pub use referenceable::Referenceable;
pub use resource::{
    AbsResource, AbsResourceInstance, ConfigResource, Resource, ResourceInstance, ResourceMode,
    implied_provider_local_name, implied_provider_prefix,
};
pub use targetable::{Targetable, parse_abs_resource, parse_abs_resource_instance};

/// HCL identifier rule (letters, digits, `_`, `-`; not starting with a digit or `-`).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

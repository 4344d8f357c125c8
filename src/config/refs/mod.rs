//! References: `references.rs` finds the traversals in expressions and bodies and what each names
//! (`lang.References`); `objects.rs` says what each configuration object refers to.

mod objects;
mod references;

pub use objects::{
    ResourceRefParts, ResourceRefsMemo, all_resource_refs, check_refs, depends_on_ref, exprs_refs,
    import_refs, import_to_refs, module_call_refs, module_input_refs, module_inputs_refs,
    output_refs, provider_block_refs, resource_meta_refs, resource_provisioner_refs, resource_refs,
    resource_refs_of_body, rules_refs, variable_refs,
};
pub use references::{
    ProviderFunctionRef, Refs, provider_funcs_in_body, provider_funcs_in_expr, refs_in_body,
    refs_in_body_full, refs_in_expr, refs_in_expr_full, refs_in_structures,
};

//! OpenTofu's graph builders: configuration, state and planned changes in, a dependency graph out,
//! built by ordered, named transforms whose effects are recorded step by step.
//!
//! Layout: [`addr`] (addresses and their printed forms), [`model`] (the inputs), [`refs`]
//! (reference analysis), [`schema`] (provider schemas), [`nodes`] (vertex types), [`graph`]
//! (the graph and step recording), one `transform_*` module per OpenTofu transform file, and
//! [`builders`] (the ordered transform lists).

pub mod addr;
pub mod builders;
pub mod from_config;
pub mod graph;
pub mod model;
pub mod nodes;
pub mod refs;
pub mod schema;
pub mod transform;
pub mod transform_attach_schema;
pub mod transform_check;
pub mod transform_config;
pub mod transform_destroy_cbd;
pub mod transform_destroy_edge;
pub mod transform_diff;
pub mod transform_local;
pub mod transform_module_expansion;
pub mod transform_output;
pub mod transform_provider;
pub mod transform_reference;
pub mod transform_root;
pub mod transform_state;
pub mod transform_targets;
pub mod transform_variable;

pub use builders::{BuilderKind, Built, apply_steps, build, plan_steps, run_steps};
pub use from_config::inputs_from_crate;
pub use graph::{Graph, Step, VId};
pub use nodes::Node;
pub use transform::{Diagnostics, Inputs, Operation, Transform};

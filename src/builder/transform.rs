//! The transform interface and the inputs transforms share.

use super::graph::Graph;
use crate::addrs::Targetable;
use crate::{config, plan, schema, state};

/// Error diagnostics (OpenTofu's wording where it has one, with a source range where there is
/// one).
pub type Diagnostics = Vec<config::Diagnostic>;

pub use super::operation::Operation;

/// Everything a builder is given: the crate's configuration tree, state, planned changes and
/// provider schemas, plus the `-target`/`-exclude` addresses.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub config: Option<config::Config>,
    pub state: Option<state::State>,
    pub changes: Option<plan::Changes>,
    pub schemas: Option<schema::ProviderSchemas>,
    pub targets: Vec<Targetable>,
    pub excludes: Vec<Targetable>,
    /// Without provider schemas OpenTofu reads no resource or provider bodies; set this to read
    /// every attribute and block of bodies whose schema is unknown instead (app/CLI convenience).
    pub read_bodies_without_schema: bool,
}

/// Inputs from the crate's readers (cloned, so the builder owns them).
pub fn inputs_from_crate(
    config: Option<&config::Config>,
    state: Option<&state::State>,
    changes: Option<&plan::Changes>,
    schemas: Option<&schema::ProviderSchemas>,
) -> Inputs {
    Inputs {
        config: config.cloned(),
        state: state.cloned(),
        changes: changes.cloned(),
        schemas: schemas.cloned(),
        ..Default::default()
    }
}

/// One named graph transform (Go `GraphTransformer`).
pub trait Transform {
    /// The Go type name (e.g. `ReferenceTransformer`).
    fn name(&self) -> &'static str;
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics>;
}

//! The transform interface and the inputs transforms share.

use super::addr::Targetable;
use super::graph::Graph;
use super::model::{Changes, Module, State};
use super::schema::Schemas;

/// Error diagnostics (one message each, OpenTofu's wording where it has one).
pub type Diagnostics = Vec<String>;

/// Go's `walkOperation`, as far as graph building looks at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Invalid,
    Validate,
    Plan,
    PlanDestroy,
    Apply,
    Destroy,
    Import,
}

impl Operation {
    pub fn parse(s: &str) -> Self {
        match s {
            "walkValidate" => Operation::Validate,
            "walkPlan" => Operation::Plan,
            "walkPlanDestroy" => Operation::PlanDestroy,
            "walkApply" => Operation::Apply,
            "walkDestroy" => Operation::Destroy,
            "walkImport" => Operation::Import,
            _ => Operation::Invalid,
        }
    }
}

/// Everything a builder is given.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub config: Option<Module>,
    pub state: Option<State>,
    pub changes: Option<Changes>,
    pub schemas: Option<Schemas>,
    pub targets: Vec<Targetable>,
    pub excludes: Vec<Targetable>,
    /// Without provider schemas OpenTofu reads no resource or provider bodies; set this to read
    /// every attribute and block of bodies whose schema is unknown instead (app/CLI convenience).
    pub read_bodies_without_schema: bool,
}

/// One named graph transform (Go `GraphTransformer`).
pub trait Transform {
    /// The Go type name (e.g. `ReferenceTransformer`).
    fn name(&self) -> &'static str;
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics>;
}

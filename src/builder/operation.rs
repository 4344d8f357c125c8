//! Go's `walkOperation`: which walk a graph is built for. Its own module because vertices
//! (`nodes`) and transforms (`transform`) both ask it.

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
    Eval,
}

impl Operation {
    /// The Go constant's name (`walkPlan`, ...); anything else is `walkInvalid`.
    pub fn parse(s: &str) -> Self {
        Self::from_go(s).unwrap_or(Operation::Invalid)
    }

    /// The operation a Go constant name stands for, `None` for a name Go does not have.
    pub fn from_go(s: &str) -> Option<Self> {
        Some(match s {
            "walkInvalid" => Operation::Invalid,
            "walkValidate" => Operation::Validate,
            "walkPlan" => Operation::Plan,
            "walkPlanDestroy" => Operation::PlanDestroy,
            "walkApply" => Operation::Apply,
            "walkDestroy" => Operation::Destroy,
            "walkImport" => Operation::Import,
            "walkEval" => Operation::Eval,
            _ => return None,
        })
    }
}

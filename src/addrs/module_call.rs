//! Module calls as expressions name them: `module.x`, `module.x[0]`, `module.x[0].out`
//! (`module_call.go`).

use super::InstanceKey;
use std::fmt;

/// `module.name`: a module call in the calling module.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleCall {
    pub name: String,
}

impl fmt::Display for ModuleCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("module.")?;
        f.write_str(&self.name)
    }
}

/// `module.name[key]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleCallInstance {
    pub call: ModuleCall,
    pub key: InstanceKey,
}

impl fmt::Display for ModuleCallInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.call.fmt(f)?;
        self.key.fmt(f)
    }
}

/// `module.name[key].output`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleCallInstanceOutput {
    pub call: ModuleCallInstance,
    pub name: String,
}

impl fmt::Display for ModuleCallInstanceOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.call.fmt(f)?;
        f.write_str(".")?;
        f.write_str(&self.name)
    }
}

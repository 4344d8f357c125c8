//! Instance keys (OpenTofu's `internal/addrs/instance_key.go`): none, a `count` index or a
//! `for_each` key, printed as `[0]` and `["k"]` (Go `%q`).

use crate::strconv::go_quote;
use std::fmt;

/// An instance key: none, a `count` index or a `for_each` key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum InstanceKey {
    #[default]
    None,
    Int(i64),
    Str(String),
}

impl InstanceKey {
    pub fn is_none(&self) -> bool {
        matches!(self, InstanceKey::None)
    }
}

impl fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::None => Ok(()),
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::Str(s) => {
                f.write_str("[")?;
                f.write_str(&go_quote(s))?;
                f.write_str("]")
            }
        }
    }
}

//! The pipeline's static expander, shared by the walks of one analysis.

use crate::builder::BuilderKind;
use std::collections::BTreeMap;

/// The pipeline's static expander, shared by the walks of one analysis. Equal when made from the
/// same files and graph type, so an unchanged re-analysis does not restart a walk.
#[derive(Clone)]
pub struct SharedExpander {
    /// Shared, not cloned per walk: a clone copies the whole configuration.
    pub expander: std::sync::Arc<std::sync::Mutex<crate::walk::StaticExpander>>,
    key: u64,
}

impl SharedExpander {
    pub(super) fn new(
        e: crate::walk::StaticExpander,
        files: &BTreeMap<String, String>,
        kind: BuilderKind,
        root: &str,
    ) -> Self {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        files.hash(&mut h);
        root.hash(&mut h);
        kind.as_str().hash(&mut h);
        SharedExpander {
            expander: std::sync::Arc::new(std::sync::Mutex::new(e)),
            key: h.finish(),
        }
    }
}

impl PartialEq for SharedExpander {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl std::fmt::Debug for SharedExpander {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedExpander")
            .field("key", &self.key)
            .finish()
    }
}

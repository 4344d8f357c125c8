//! The walks' expander of one analysis, shared by its walks.

use crate::builder::BuilderKind;
use crate::walk::{KnownExpansions, StaticExpander, WalkExpander};
use std::collections::BTreeMap;

/// The walks' expander of one analysis, shared by its walks: the pipeline's static expander
/// when the page analysed, or its answers for every vertex when the engine's worker did
/// ([`KnownExpansions`]). Equal when made from the same files and graph type (the makespan
/// chart's cache keeps its walks while they are); [`SharedExpander::expands_alike`] also looks at
/// what each vertex expands into.
#[derive(Clone)]
pub struct SharedExpander {
    /// Shared, not cloned per walk: a clone copies the whole configuration.
    pub expander: std::sync::Arc<std::sync::Mutex<WalkExpander>>,
    key: u64,
}

impl SharedExpander {
    pub(super) fn new(
        e: StaticExpander,
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
            expander: std::sync::Arc::new(std::sync::Mutex::new(WalkExpander::Static(e))),
            key: h.finish(),
        }
    }

    /// The expander the page's walks use for an analysis the worker made: its answers `known`,
    /// equal to the worker's own expander (same `key`).
    pub fn known(known: KnownExpansions, key: u64) -> Self {
        SharedExpander {
            expander: std::sync::Arc::new(std::sync::Mutex::new(WalkExpander::Known(known))),
            key,
        }
    }

    /// What it tells [`SharedExpander::known`] to be equal to it.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Its answers for every vertex of `g` (the engine's worker sends them to the page).
    pub fn known_of(&self, g: &crate::page::graph::PageGraph) -> KnownExpansions {
        let mut e = self
            .expander
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match &mut *e {
            WalkExpander::Static(s) => {
                s.known(g.vertices().iter().map(|v| (v.name.clone(), &v.typed)))
            }
            WalkExpander::Known(k) => k.clone(),
        }
    }
}

impl SharedExpander {
    /// Whether walks of graph `g` expand alike with either: equal (the same files), or with the
    /// same instances for every vertex of `g`. Either's answers are worked out for the second
    /// (the worker's are known already; the page's expander evaluates `count`/`for_each`, which
    /// a walk of `g` would do anyway).
    pub fn expands_alike(&self, other: &SharedExpander, g: &crate::page::graph::PageGraph) -> bool {
        if self == other || std::sync::Arc::ptr_eq(&self.expander, &other.expander) {
            return true;
        }
        {
            fn lock(e: &SharedExpander) -> std::sync::MutexGuard<'_, WalkExpander> {
                e.expander
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
            }
            let (mine, theirs) = (lock(self), lock(other));
            if let (WalkExpander::Known(a), WalkExpander::Known(b)) = (&*mine, &*theirs) {
                return a == b;
            }
        }
        self.known_of(g) == other.known_of(g)
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

//! The learner's progress: the lessons done and the current one, stored as JSON under its own
//! localStorage key ([`KEY`]), apart from the workspace's files.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Where the app stores the progress.
pub const KEY: &str = "tfgraph.lessons";

/// The lessons done and the one open.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Ids of the lessons answered right.
    #[serde(default)]
    pub done: BTreeSet<String>,
    /// The lesson open (id), if any.
    #[serde(default)]
    pub current: Option<String>,
}

impl Progress {
    /// Reads stored text; anything unreadable, and ids of lessons that no longer exist, count
    /// as no progress (never an error: progress is a convenience).
    pub fn parse(text: Option<&str>) -> Progress {
        let mut p: Progress = text
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default();
        p.done.retain(|id| super::by_id(id).is_some());
        p.current = p.current.filter(|id| super::by_id(id).is_some());
        p
    }

    /// The text to store.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Marks lesson `id` done.
    pub fn mark_done(&mut self, id: &str) {
        self.done.insert(id.to_string());
    }

    /// How many lessons are done, of how many.
    pub fn count(&self) -> (usize, usize) {
        (self.done.len(), super::LESSONS.len())
    }
}

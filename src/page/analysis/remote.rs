//! What the page keeps of an analysis the engine's worker made (`crate::page::engine`): the
//! questions it asks about what stays in the worker, the answers, and the plain data they carry
//! (a vertex's values for `crate::page::inside`, what an `(expand)` vertex opens into for
//! `crate::page::expanded`). Here, below both and below the engine's messages, so that an
//! [`super::Analysis`] can hold its answers ([`Remote`]).

use crate::page::graph::PageVertex;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

/// What the page asks of an analysis the worker made, when a view needs what stays in the
/// worker (it holds the configuration).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Question {
    /// The values vertex `name` sees ([`crate::page::inside::values_of`]).
    Values(String),
    /// What opening the `(expand)` vertex `name` gives ([`crate::page::expanded::of_vertex`]).
    Opening(String),
    /// The built graph's exports (DOT, Mermaid, JSON).
    Exports,
}

/// The worker's answer to a [`Question`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// The value groups and notes ([`crate::page::inside::Inside`]'s `values` and `notes`);
    /// `None` when the vertex has none to show.
    Values(Option<(Vec<ValueGroup>, Vec<String>)>),
    Opening(Option<Opening>),
    Exports {
        dot: String,
        mermaid: String,
        json: String,
    },
}

/// The page's side of an analysis the worker made: the build it is, and the answers to the
/// questions asked of it so far. Equal when of the same build.
pub struct Remote {
    pub build: u64,
    answers: Mutex<BTreeMap<Question, Answer>>,
    asked: Mutex<BTreeSet<Question>>,
}

impl Remote {
    pub fn new(build: u64) -> Remote {
        Remote {
            build,
            answers: Mutex::default(),
            asked: Mutex::default(),
        }
    }

    /// The answer to `q`, if it arrived.
    pub fn answer(&self, q: &Question) -> Option<Answer> {
        lock(&self.answers).get(q).cloned()
    }

    /// Keeps the answer `a` to `q`.
    pub fn keep(&self, q: Question, a: Answer) {
        lock(&self.answers).insert(q, a);
    }

    /// True the first time `q` is to be asked (so each question is sent once).
    pub fn first_ask(&self, q: &Question) -> bool {
        lock(&self.asked).insert(q.clone())
    }
}

/// One thread: never contended, and a poisoned lock is still usable.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl PartialEq for Remote {
    fn eq(&self, other: &Remote) -> bool {
        self.build == other.build
    }
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Remote({})", self.build)
    }
}

/// One value row.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ValueRow {
    /// `var.region`, `count`, `ami`.
    pub name: String,
    /// A value the vertex reads (else one it produces).
    pub read: bool,
    /// The value, `(known after apply)`, `(sensitive value)`.
    pub text: String,
    /// Where a known value came from, or why it is unknown.
    pub note: Option<String>,
    pub known: bool,
    /// The vertex that provides a value it reads (a dependency), to select.
    pub vertex: Option<String>,
}

/// The values of one instance.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ValueGroup {
    pub title: String,
    pub rows: Vec<ValueRow>,
}

/// The sub-graph of one opened vertex as the page draws it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sub {
    /// The opened vertex.
    pub of: String,
    /// Its vertices without the root, in name order (their module box is set when drawn).
    pub members: Vec<PageVertex>,
    /// Which of them are orphans (in the prior state only).
    pub orphans: BTreeSet<usize>,
    /// The sub-graph's edges between members, by index in `members` ("from depends on to").
    pub edges: Vec<(usize, usize)>,
    /// `nodeExpandPlannableResource (node_resource_plan.go)`: what builds it in OpenTofu.
    pub go: String,
    /// How OpenTofu builds it, in one sentence.
    pub note: std::borrow::Cow<'static, str>,
}

/// What opening a vertex gives.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Opening {
    /// Its sub-graph.
    Sub(Sub),
    /// Its instances are not known from the configuration: why ([`crate::inside::expansion::expand`]'s reason).
    Unknown(String),
    /// More vertices than [`crate::page::expanded::MAX_OPEN_MEMBERS`]: how many.
    TooMany(usize),
}

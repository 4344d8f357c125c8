//! Learn mode: short ordered lessons that follow the concepts (vertices and edges, references,
//! transforms, providers, reduction, cycles, the walk, parallelism, the critical path, destroy
//! edges, expansion, evaluation inside a vertex), each ending with a question.
//!
//! A lesson is plain data ([`data::LESSONS`]): its words, the configuration it loads (a gallery
//! example or its own files), what it sets up on the page ([`Stage`]) and a [`Rule`] that says how
//! the right answer is found. The answer is never written down: [`solve`] asks the engine, on the
//! lesson's own analysis, for it (the graph's edges, the builder's record of why each edge exists,
//! the transitive reduction's removed edges, Tarjan's cycles, the simulated walk, the makespans
//! `tfgraph walk --sweep` prints, the evaluation steps), and [`check`] compares a learner's answer
//! with it, explaining why in one sentence (with a hint when the answer is wrong).
//!
//! Also here: the learner's progress as stored text ([`Progress`]) and the lesson link's URL
//! fragment (`#lesson=<id>`, [`fragment`], [`from_fragment`]).
//!
//! Invariant: nothing here knows about the DOM; every right answer comes from the engine.

pub mod data;
mod progress;
mod solve;

pub use data::LESSONS;
pub use progress::{KEY, Progress};
pub use solve::{Solved, Verdict, check, solve};

use crate::page::examples::{EXAMPLES, Example};

/// One lesson.
pub struct Lesson {
    /// Stable id: the link's `#lesson=<id>` and the progress' key.
    pub id: &'static str,
    pub title: &'static str,
    /// A few short sentences.
    pub text: &'static [&'static str],
    /// The configuration the lesson loads.
    pub source: Source,
    /// What the lesson sets up on the page once its configuration is built.
    pub stage: Stage,
    /// The question, in words.
    pub question: &'static str,
    /// How the right answer is found from the engine.
    pub rule: Rule,
    /// Said after a wrong answer.
    pub hint: &'static str,
}

/// The configuration a lesson loads.
pub enum Source {
    /// A gallery example, by id ([`crate::page::examples::EXAMPLES`]).
    Example(&'static str),
    /// The lesson's own small configuration.
    Own(Example),
}

/// Which mode the graph pane is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageMode {
    Inspect,
    Walk,
}

/// What a lesson sets up on the page: the mode, the side panel's build steps at a transform,
/// vertices to mark, the walk's -parallelism, whether a walk starts.
#[derive(Debug, Clone, Copy)]
pub struct Stage {
    pub mode: StageMode,
    /// Show the build step of this transform (the first step it ran as).
    pub build_step: Option<&'static str>,
    /// Vertices (by name) to mark on the drawing.
    pub highlight: &'static [&'static str],
    /// -parallelism for the walk.
    pub parallelism: Option<u32>,
    /// Start the walk.
    pub walk: bool,
}

impl Stage {
    pub const INSPECT: Stage = Stage {
        mode: StageMode::Inspect,
        build_step: None,
        highlight: &[],
        parallelism: None,
        walk: false,
    };
}

/// How a lesson's right answer is found, on the lesson's analysis. Vertex names are OpenTofu's.
#[derive(Debug, Clone, Copy)]
pub enum Rule {
    /// A vertex: what this vertex depends on directly (the built graph's edges).
    DependencyOf(&'static str),
    /// A vertex: what this vertex depends on through an edge the ReferenceTransformer added
    /// (a reference or a `depends_on` entry), by the builder's record.
    ReferencedBy(&'static str),
    /// A transform: the one that added the edge from the first vertex to the second.
    TransformOf(&'static str, &'static str),
    /// A vertex: the close vertex of the provider configuration this vertex uses.
    ProviderCloseOf(&'static str),
    /// An edge: among the reference edges between resources, the one(s) transitive reduction
    /// removed.
    ReducedEdge,
    /// A vertex: one of a cycle's (Tarjan's strongly connected components of the failed graph).
    InCycle,
    /// A vertex: the resource or data source that starts first in the walk.
    FirstResourceToStart,
    /// A number: the smallest -parallelism (1 to 10) whose makespan is the shortest.
    SmallestFastestParallelism,
    /// A vertex: a resource whose walk is not on the critical path.
    OffCriticalPath,
    /// A vertex: of this resource's instance, destroy and deposed vertices, the one that
    /// starts first in the walk.
    FirstOfResource(&'static str),
    /// A number: how many instances this `(expand)` vertex's sub-graph has, all module instances
    /// together, in the walk.
    InstanceCount(&'static str),
    /// A step: the first evaluation step one instance of this `(expand)` vertex runs.
    FirstStep(&'static str),
}

impl Source {
    /// The example the lesson loads (`None` only for an id that is not in the gallery, which
    /// a test rules out).
    pub fn example(&self) -> Option<&Example> {
        match self {
            Source::Example(id) => EXAMPLES.iter().find(|e| e.id == *id),
            Source::Own(e) => Some(e),
        }
    }
}

impl Lesson {
    /// True when `files` are exactly the lesson's configuration, untouched (its questions are
    /// answered on those files only).
    pub fn is_loaded(&self, files: &std::collections::BTreeMap<String, String>) -> bool {
        self.source.example().is_some_and(|e| {
            e.files.len() == files.len()
                && e.files
                    .iter()
                    .all(|(p, t)| files.get(*p).is_some_and(|f| f == t))
        })
    }

    /// The index, among `steps`, of the build step the lesson shows (the first its transform
    /// ran as).
    pub fn build_step_index(&self, steps: &[crate::builder::Step]) -> Option<usize> {
        let t = self.stage.build_step?;
        steps.iter().position(|s| s.name == t)
    }
}

/// The lesson with id `id`.
pub fn by_id(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The position of lesson `id` in the list.
pub fn index_of(id: &str) -> Option<usize> {
    LESSONS.iter().position(|l| l.id == id)
}

/// The URL fragment of a link to lesson `id` (without the `#`).
pub fn fragment(id: &str) -> String {
    format!("lesson={id}")
}

/// The lesson a page address' fragment (`#lesson=<id>`, with or without the `#`) opens; `None`
/// for any other fragment or an unknown id.
pub fn from_fragment(hash: &str) -> Option<&'static Lesson> {
    let h = hash.strip_prefix('#').unwrap_or(hash);
    by_id(h.strip_prefix("lesson=")?)
}

#[cfg(test)]
mod tests;

//! What the page shows, as plain data: nothing here knows about the DOM.
//!
//! The web app (`crate::app`) binds these to Leptos signals and SVG; everything it computes that
//! is not binding lives here, compiles natively and is unit-tested natively. Data flows:
//!
//! - [`files`]: the editor's files by role (configuration, state, plan, changes, schemas, DOT),
//!   and what to do with opened files;
//! - [`tree`]: many files as a folder tree with a filter, and what lies outside the root module;
//! - [`analysis`]: the engine run on those files through the pipeline's one paced entry, as an
//!   [`analysis::Analysis`] (graph, declarations, steps, diagnostics, cycles, exports);
//! - [`graph`]: the page's graph type (a `dag::Indexed` of vertices with their drawing kind and
//!   module box);
//! - [`replay`]: the builder's steps replayed up to a chosen transform;
//! - [`view`]: the graph on screen: replay or final graph, cycles, reduction toggle, resources
//!   only, collapsed modules, what is related to a selection;
//! - [`scene`]: the laid-out drawing, every item keyed by name;
//! - [`engine`]: the messages between the page and the engine's worker, and the worker's answers
//!   (large drawings are laid out there);
//! - [`minimap`]: the whole drawing in a corner box, the view framed in it;
//! - [`actions`]: a plan's actions on the graph (badges, the legend's counts, the summary line);
//! - [`keys`]: the graph from the keyboard (reading order, the one Tab stop, vertex labels);
//! - [`notices`]: the notices above the files, and how one joins the list;
//! - [`overlay`]: the teaching overlays (topological order, DFS/BFS with frontier, Tarjan);
//! - [`walk`]: the walk as the page animates it, reported per changed vertex and timeline row;
//! - [`timeline`]: the window of the walk's timeline rows drawn (the rest are not);
//! - [`walk_steps`]: a vertex's evaluation steps in the walk: the list with timings, the step
//!   running now, the timeline's bars of one task's steps;
//! - [`chart`]: the makespan chart (makespan against -parallelism, the critical path as floor);
//! - [`explain`]: words for transforms and phases, declaration snippets, download URLs;
//! - [`highlight`]: the tolerant HCL lexer the editor colours text with;
//! - [`examples`]: the gallery's configurations;
//! - [`glossary`]: every vertex kind and name suffix in words (the legend's glossary);
//! - [`lessons`]: Learn mode's lessons, each question answered by the engine, the progress and
//!   the lesson links;
//! - [`crash`]: what the page says when the engine panics;
//! - [`measures`]: how many of its performance measures the page keeps.

pub mod actions;
pub mod analysis;
pub mod chart;
pub mod crash;
pub mod decor;
pub mod details;
pub mod engine;
pub mod examples;
pub mod expanded;
pub mod explain;
pub mod files;
pub mod glossary;
pub mod graph;
pub mod highlight;
pub mod inside;
pub mod keyed;
pub mod keys;
pub mod lessons;
pub mod measures;
pub mod minimap;
pub mod notices;
pub mod overlay;
pub mod replay;
pub mod scene;
pub mod timeline;
pub mod tree;
pub mod view;
pub mod walk;
pub mod walk_steps;

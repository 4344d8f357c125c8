//! What the engine's worker does for the page, as plain data: the messages between the page and
//! the worker, and the worker's answer to each. Nothing here knows about the DOM or about
//! workers: `crate::app::engine` carries these messages across `postMessage` (converted with
//! `serde-wasm-bindgen`) and runs [`Engine::answer`] in the worker; natively, the same answers are
//! unit-tested here.
//!
//! The worker lays out large drawings ([`super::scene::OFF_THREAD_FROM`]) and analyses large
//! inputs ([`model::SLICE_FROM_BYTES`]), so that the page's thread stays free for input and the
//! walk's animation while it does. Of an analysis, the page gets the plain parts; the worker
//! keeps the analysis, whose configuration answers what the page asks later ([`Question`]:
//! a vertex's values, what an `(expand)` vertex opens into, the exports). docs/worker.md has
//! the measurements behind the split.
//!
//! Bulky payloads travel as JSON inside the typed messages: a layout's input and its result as
//! text, an analysis as UTF-8 bytes whose buffers are transferred ([`Reply::Analysis`]). At 10,000
//! resources a graph cost the page's thread about 13 ms as JSON text against 53 ms as a tree of
//! JavaScript objects (docs/worker.md, "What a reply costs"). `serde_json` is built with
//! `float_roundtrip`, so every coordinate arrives exactly as it was computed and the worker's
//! drawing is the one the page would have made.

use crate::builder::{BuilderKind, Step, StepName};
use crate::kind::Typed;
use crate::layout::{self, Input, Layout};
pub use crate::page::analysis::remote::{Answer, Question, Remote};
use crate::page::analysis::{self as model, Analysis, Lazy, Progress, SharedExpander, Why};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A message from the page to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Lay out `input` (a [`layout::Input`] as JSON, from [`super::scene::layout_input`]) with
    /// the page's options ([`super::scene::layout_options`]), near `near`. The reply carries
    /// `id` back. With `keep`, the worker keeps the layout for the next one to stay near
    /// ([`Near::Made`]): the drawing's layouts, not the build steps' one layout.
    Layout {
        id: u64,
        input: String,
        near: Near,
        keep: bool,
    },
    /// Analyse `files` (the editor's files, packed by [`pack_files`]) with the builder `kind` and
    /// `opts`, as [`model::analyze_with`] does, reporting each phase ([`Reply::Progress`]); a
    /// newer `Analyze` stops an older one at its next phase. The reply is [`Reply::Analysis`]
    /// with `id`, and what stays in the worker is asked for by that `id` ([`Request::Ask`]).
    Analyze {
        id: u64,
        #[serde(with = "serde_bytes")]
        files: Vec<u8>,
        kind: BuilderKind,
        opts: model::Options,
    },
    /// A question about the analysis `build` made (the worker keeps its last one).
    Ask { build: u64, question: Question },
    /// How long the walk of the analysis `build`'s graph takes with `walk` (a whole walk on the
    /// instant clock, which takes the page's thread hundreds of ms at 10,000 resources).
    Length { id: u64, build: u64, walk: WalkAsk },
    /// The files were edited since the analysis `id` was asked for: it stops at its next phase,
    /// as it would for a newer `Analyze`, and is not sent. Typing into a large configuration
    /// then leaves the machine's cores to the page until a pause in typing asks for the next
    /// analysis (an older analysis ran on while the keys of the next edit were typed).
    Stop { id: u64 },
}

/// The page's walk settings for a [`Request::Length`]; the expander and the evaluation steps
/// are the analysis' own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WalkAsk {
    pub durations: BTreeMap<String, f64>,
    pub failures: BTreeSet<String>,
    pub seed: u64,
    pub jitter: f64,
    /// 1 to 64, or `usize::MAX` for the critical path (no limit, no failures).
    pub parallelism: usize,
}

impl WalkAsk {
    /// The settings of `setup` at `parallelism`.
    pub fn of(setup: &crate::page::walk::Setup, parallelism: usize) -> WalkAsk {
        WalkAsk {
            durations: setup.durations.clone(),
            failures: setup.failures.clone(),
            seed: setup.seed,
            jitter: setup.jitter,
            parallelism,
        }
    }

    /// How long the walk of `a`'s graph takes with these settings: [`crate::page::walk::expected`],
    /// or the critical path.
    pub fn length(&self, a: &Analysis) -> Option<f64> {
        let g = a.graph.as_ref()?;
        let setup = crate::page::walk::Setup {
            durations: self.durations.clone(),
            failures: self.failures.clone(),
            expander: a.expander.as_ref().map(|e| e.expander.clone()),
            steps: a.step_table.clone(),
            seed: self.seed,
            jitter: self.jitter,
        };
        Some(if self.parallelism == usize::MAX {
            crate::page::walk::critical_path(g, &setup)
        } else {
            crate::page::walk::expected(g, self.parallelism, &setup)
        })
    }
}

/// The layout a new one stays near (see [`layout::LayoutOptions::sticky`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Near {
    /// None: laid out afresh (the first drawing, or Tidy).
    Nothing,
    /// The layout this worker made for request `id`; if it no longer holds it (it keeps the
    /// last one only), the layout is made afresh.
    Made(u64),
    /// A layout the page made itself (a drawing below [`super::scene::OFF_THREAD_FROM`]), as
    /// JSON.
    Given(String),
}

/// A message from the worker to the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The worker has started and takes requests.
    Ready,
    /// The layout asked for by request `id`, as JSON (a [`layout::Layout`]).
    Layout { id: u64, layout: String },
    /// Request `id` could not be answered (its input did not decode): the page lays it out
    /// itself.
    Failed { id: u64, message: String },
    /// The analysis `id` is at `progress`.
    Progress { id: u64, progress: Progress },
    /// The analysis `id`: its plain parts as JSON ([`read_analysis`]), and its build steps and
    /// edges' whys as JSON the page parses when it first reads them ([`Lazy`]). As UTF-8 bytes:
    /// in the browser they cross as `Uint8Array`s whose buffers are transferred, where text
    /// (about 20 MB at 10,000 resources) was copied, and turned from UTF-16 to UTF-8, on the
    /// page's thread.
    Analysis {
        id: u64,
        #[serde(with = "serde_bytes")]
        analysis: Vec<u8>,
        /// Where each of `analysis`' parts ends ([`Reading`]).
        parts: Vec<u32>,
        #[serde(with = "serde_bytes")]
        steps: Vec<u8>,
        #[serde(with = "serde_bytes")]
        whys: Vec<u8>,
    },
    /// The walk's length asked for by request `id` (`None`: the analysis is no longer held).
    Length { id: u64, secs: Option<f64> },
    /// The answer to `question` about the analysis `build`.
    Answer {
        build: u64,
        question: Question,
        answer: Answer,
    },
    /// The analysis `id` will stop ([`Request::Stop`]; the worker sends nothing for it).
    Stopped { id: u64 },
}

impl Reply {
    /// The request this reply answers, if any.
    pub fn id(&self) -> Option<u64> {
        match self {
            Reply::Ready => None,
            Reply::Layout { id, .. }
            | Reply::Failed { id, .. }
            | Reply::Progress { id, .. }
            | Reply::Length { id, .. }
            | Reply::Stopped { id }
            | Reply::Analysis { id, .. } => Some(*id),
            Reply::Answer { build, .. } => Some(*build),
        }
    }
}

/// The worker's state between requests: the last layout it made, for the next one to stay near;
/// the newest analysis asked for, and the last one made, for the questions about it.
#[derive(Default)]
pub struct Engine {
    last: Option<(u64, Arc<Layout>)>,
    newest: u64,
    /// The newest analysis told to stop ([`Request::Stop`]).
    stopped: u64,
    built: Option<(u64, Analysis)>,
}

/// What an [`Request::Analyze`] asks, read ([`Engine::begin`]).
pub struct Asked {
    pub id: u64,
    pub files: BTreeMap<String, String>,
    pub kind: BuilderKind,
    pub opts: model::Options,
}

impl Engine {
    /// The answer to `request`; an analysis is made at once (the worker makes it with pauses:
    /// [`Engine::begin`], [`model::analyze_with`], [`Engine::finish`]).
    pub fn answer(&mut self, request: Request) -> Reply {
        match request {
            Request::Analyze { .. } => match self.begin(request) {
                Ok(asked) => {
                    let a = model::analyze(&asked.files, asked.kind, &asked.opts);
                    self.finish(&asked, a).unwrap_or(Reply::Failed {
                        id: asked.id,
                        message: "overtaken".into(),
                    })
                }
                Err(reply) => *reply,
            },
            Request::Stop { id } => {
                self.stop(id);
                Reply::Stopped { id }
            }
            Request::Length { id, build, walk } => Reply::Length {
                id,
                secs: self
                    .built
                    .as_ref()
                    .filter(|(b, _)| *b == build)
                    .and_then(|(_, a)| walk.length(a)),
            },
            Request::Ask { build, question } => match &self.built {
                Some((id, a)) if *id == build => Reply::Answer {
                    build,
                    answer: answer_of(a, &question),
                    question,
                },
                _ => Reply::Failed {
                    id: build,
                    message: "the analysis asked about is no longer held".into(),
                },
            },
            Request::Layout {
                id,
                input,
                near,
                keep,
            } => {
                let input: Input = match serde_json::from_str(&input) {
                    Ok(i) => i,
                    Err(e) => {
                        return Reply::Failed {
                            id,
                            message: format!("the layout's input did not decode: {e}"),
                        };
                    }
                };
                let previous = match near {
                    Near::Nothing => None,
                    Near::Made(made) => self
                        .last
                        .as_ref()
                        .filter(|(last, _)| *last == made)
                        .map(|(_, l)| l.clone()),
                    Near::Given(text) => serde_json::from_str::<Layout>(&text).ok().map(Arc::new),
                };
                let l = layout::layout(&input, &super::scene::layout_options(previous));
                let text = serde_json::to_string(&l).unwrap_or_default();
                if keep {
                    self.last = Some((id, Arc::new(l)));
                }
                Reply::Layout { id, layout: text }
            }
        }
    }
}

impl Engine {
    /// Starts the analysis `request` asks for: it is now the newest (an older one stops at its
    /// next pause: [`Engine::is_newest`]). `Err` with the reply when it does not decode.
    pub fn begin(&mut self, request: Request) -> Result<Asked, Box<Reply>> {
        let Request::Analyze {
            id,
            files,
            kind,
            opts,
        } = request
        else {
            return Err(Box::new(Reply::Failed {
                id: request.id(),
                message: "not an analysis".into(),
            }));
        };
        self.newest = self.newest.max(id);
        match unpack_files(&files) {
            Some(files) => Ok(Asked {
                id,
                files,
                kind,
                opts,
            }),
            None => Err(Box::new(Reply::Failed {
                id,
                message: "the files did not decode".into(),
            })),
        }
    }

    /// Whether the analysis `id` is still the newest asked for, and not told to stop.
    pub fn is_newest(&self, id: u64) -> bool {
        self.newest == id && self.stopped < id
    }

    /// The analysis `id` (and any older one) stops at its next phase ([`Request::Stop`]).
    pub fn stop(&mut self, id: u64) {
        self.stopped = self.stopped.max(id);
    }

    /// The reply carrying the analysis `a` made for `id`, which the engine keeps for the
    /// questions about it; `None` when a newer one was asked for meanwhile.
    pub fn finish(&mut self, asked: &Asked, mut a: Analysis) -> Option<Reply> {
        if !self.is_newest(asked.id) {
            return None;
        }
        a.outlines = model::outlines_of(&asked.files);
        let reply = analysis_reply(asked.id, &a);
        self.built = Some((asked.id, a));
        Some(reply)
    }
}

impl Request {
    /// The id its reply carries back.
    pub fn id(&self) -> u64 {
        match self {
            Request::Layout { id, .. }
            | Request::Analyze { id, .. }
            | Request::Length { id, .. }
            | Request::Stop { id } => *id,
            Request::Ask { build, .. } => *build,
        }
    }
}

/// The answer to `q` about the analysis `a` (made where the configuration is held).
pub fn answer_of(a: &Analysis, q: &Question) -> Answer {
    match q {
        Question::Values(name) => Answer::Values(crate::page::inside::values_of(a, name)),
        Question::Opening(name) => Answer::Opening(crate::page::expanded::of_vertex(a, name)),
        Question::Exports => Answer::Exports {
            dot: a.exports.dot(),
            mermaid: a.exports.mermaid(),
            json: a.exports.json(),
        },
    }
}

/// The plain parts of an analysis, as they cross to the page: everything but what holds the
/// configuration (asked for instead), and the steps and whys (sent beside it, parsed when read).
/// The walks' expander crosses as its answers for every vertex, with its equality key.
///
/// Each of [`PARTS`] is JSON of its own, one after the other in the reply's bytes, so that the
/// page parses them in separate tasks ([`Reading`]): at 10,000 generated resources the 6.3 MB
/// were one task of about 35 ms on the page's thread, two frames of the walk's animation; the
/// parts are 2.1 MB (the graph), 1.2 (the declarations), 1.1 (the expansions), 1.0 (the
/// reduction's removed edges) and 1.0 (the rest, the step table most of it).
#[derive(Serialize, Deserialize, Default)]
struct Rest {
    errors: Vec<model::Diag>,
    warnings: Vec<model::Diag>,
    cycles: Vec<Vec<String>>,
    imported: Option<String>,
    not_installed: Vec<model::NotInstalled>,
    config_files: Option<BTreeSet<String>>,
    actions: Option<super::actions::PlanActions>,
    step_table: Option<crate::walk::StepTable>,
    outlines: BTreeMap<String, model::Outline>,
}

/// How many parts an analysis crosses in: the graph, the declarations, the expansions, the
/// removed edges, the rest.
pub const PARTS: usize = 5;

/// Pairs of names as they cross to the page: each distinct name once, in order of first
/// appearance, and the pairs as indexes into that list. The transitive reduction's removed edges
/// at 10,000 generated resources are 44,631 pairs of about 12,000 names: 3.6 MB of JSON as
/// names, which the page's thread parsed (a string made per name) at every build; about 1 MB so.
#[derive(Serialize, Deserialize, Default)]
struct NamePairs {
    names: Vec<String>,
    pairs: Vec<(u32, u32)>,
}

impl NamePairs {
    fn of(pairs: &[(StepName, StepName)]) -> NamePairs {
        let mut at: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
        let mut wire = NamePairs::default();
        for (a, b) in pairs {
            let mut pair = [0u32; 2];
            for (slot, name) in pair.iter_mut().zip([a, b]) {
                *slot = *at.entry(name).or_insert_with(|| {
                    wire.names.push(name.to_string());
                    (wire.names.len() - 1) as u32
                });
            }
            wire.pairs.push((pair[0], pair[1]));
        }
        wire
    }

    /// The pairs; `None` if an index is outside the names.
    fn pairs(self) -> Option<Vec<(StepName, StepName)>> {
        let names: Vec<StepName> = self.names.into_iter().map(StepName::from).collect();
        let name = |i: u32| names.get(i as usize).cloned();
        self.pairs
            .into_iter()
            .map(|(a, b)| Some((name(a)?, name(b)?)))
            .collect()
    }
}

/// The reply carrying `a` (see [`Rest`]).
pub fn analysis_reply(id: u64, a: &Analysis) -> Reply {
    let rest = Rest {
        errors: a.errors.clone(),
        warnings: a.warnings.clone(),
        cycles: a.cycles.clone(),
        imported: a.imported.clone(),
        not_installed: a.not_installed.clone(),
        config_files: a.config_files.clone(),
        actions: a.actions.clone(),
        step_table: a.step_table.as_deref().cloned(),
        outlines: a.outlines.clone(),
    };
    let expansions = a
        .expander
        .as_ref()
        .zip(a.graph.as_ref())
        .map(|(e, g)| (e.known_of(g), e.key()));
    let mut analysis = Vec::new();
    let mut parts = Vec::with_capacity(PARTS);
    push_part(&mut analysis, &mut parts, &a.graph);
    push_part(&mut analysis, &mut parts, &a.decls);
    push_part(&mut analysis, &mut parts, &expansions);
    push_part(&mut analysis, &mut parts, &NamePairs::of(&a.reduced));
    push_part(&mut analysis, &mut parts, &rest);
    let steps: Vec<(&Step, &Vec<Typed>)> = a.steps.iter().map(|s| (s, &s.added_kinds)).collect();
    let whys: Vec<(&(String, String), &Why)> = a.whys.iter().collect();
    Reply::Analysis {
        id,
        analysis,
        parts,
        steps: serde_json::to_vec(&steps).unwrap_or_default(),
        whys: serde_json::to_vec(&whys).unwrap_or_default(),
    }
}

/// Appends `value` to `out` as JSON and where it ends to `ends`. A part that could not be written
/// has no end: the reply then has too few parts and does not read, and the page analyses by
/// itself.
fn push_part(out: &mut Vec<u8>, ends: &mut Vec<u32>, value: &impl Serialize) {
    if serde_json::to_writer(&mut *out, value).is_ok() {
        ends.push(u32::try_from(out.len()).unwrap_or(u32::MAX));
    }
}

/// An analysis reply read on the page a part at a time ([`Rest`]): [`Reading::read_part`] parses one
/// part, [`Reading::finish`] gives the analysis once all are read.
pub struct Reading {
    id: u64,
    bytes: Vec<u8>,
    ends: Vec<u32>,
    read: usize,
    failed: bool,
    a: Analysis,
}

impl Reading {
    /// The reply's plain parts `analysis`, which end at `parts`.
    pub fn new(id: u64, analysis: Vec<u8>, parts: Vec<u32>) -> Reading {
        Reading {
            id,
            failed: parts.len() != PARTS,
            bytes: analysis,
            ends: parts,
            read: 0,
            a: Analysis::default(),
        }
    }

    /// Parses the next part: true while parts are left to read, false once the last is read or
    /// one did not decode.
    pub fn read_part(&mut self) -> bool {
        if self.failed || self.read >= PARTS {
            return false;
        }
        let start = match self.read {
            0 => 0,
            n => self.ends[n - 1] as usize,
        };
        let end = self.ends[self.read] as usize;
        let Some(json) = self.bytes.get(start..end) else {
            self.failed = true;
            return false;
        };
        let a = &mut self.a;
        let read = match self.read {
            0 => serde_json::from_slice(json).map(|g| a.graph = g).is_ok(),
            1 => serde_json::from_slice(json).map(|d| a.decls = d).is_ok(),
            2 => serde_json::from_slice::<Option<(crate::walk::KnownExpansions, u64)>>(json)
                .map(|e| a.expander = e.map(|(k, key)| SharedExpander::known(k, key)))
                .is_ok(),
            3 => serde_json::from_slice::<NamePairs>(json)
                .ok()
                .and_then(NamePairs::pairs)
                .map(|r| a.reduced = Arc::new(r))
                .is_some(),
            _ => serde_json::from_slice::<Rest>(json)
                .map(|r| {
                    a.errors = r.errors;
                    a.warnings = r.warnings;
                    a.cycles = r.cycles;
                    a.imported = r.imported;
                    a.not_installed = r.not_installed;
                    a.config_files = r.config_files;
                    a.actions = r.actions;
                    a.step_table = r.step_table.map(Arc::new);
                    a.outlines = r.outlines;
                })
                .is_ok(),
        };
        self.failed = !read;
        self.read += 1;
        read && self.read < PARTS
    }

    /// The analysis, once every part has been read ([`read_analysis`] for `steps` and `whys`);
    /// `None` if a part did not decode or is unread.
    pub fn finish(
        self,
        steps: impl FnOnce() -> Vec<u8> + Send + 'static,
        whys: impl FnOnce() -> Vec<u8> + Send + 'static,
    ) -> Option<Analysis> {
        if self.failed || self.read < PARTS {
            return None;
        }
        Some(Analysis {
            steps: Lazy::from_source(steps, read_steps),
            whys: Lazy::from_source(whys, read_whys),
            remote: Some(Arc::new(Remote::new(self.id))),
            ..self.a
        })
    }
}

/// The analysis a [`Reply::Analysis`] carries, as the page holds it; `None` if it does not
/// decode. The build steps' and whys' JSON is asked of `steps` and `whys` when first read: in the
/// browser it stays in the JavaScript arrays it arrived in until then.
pub fn read_analysis(
    id: u64,
    analysis: Vec<u8>,
    parts: Vec<u32>,
    steps: impl FnOnce() -> Vec<u8> + Send + 'static,
    whys: impl FnOnce() -> Vec<u8> + Send + 'static,
) -> Option<Analysis> {
    let mut reading = Reading::new(id, analysis, parts);
    while reading.read_part() {}
    reading.finish(steps, whys)
}

fn read_steps(json: &[u8]) -> Vec<Step> {
    serde_json::from_slice::<Vec<(Step, Vec<Typed>)>>(json)
        .unwrap_or_default()
        .into_iter()
        .map(|(mut s, kinds)| {
            s.added_kinds = kinds;
            s
        })
        .collect()
}

fn read_whys(json: &[u8]) -> BTreeMap<(String, String), Why> {
    serde_json::from_slice::<Vec<((String, String), Why)>>(json)
        .unwrap_or_default()
        .into_iter()
        .collect()
}

/// The request to analyse `files` (see [`Request::Analyze`]).
pub fn analyze_request(
    id: u64,
    files: &BTreeMap<String, String>,
    kind: BuilderKind,
    opts: &model::Options,
) -> Request {
    Request::Analyze {
        id,
        files: pack_files(files),
        kind,
        opts: opts.clone(),
    }
}

/// The editor's files as they cross to the worker: each path and text, in order, after its length
/// in bytes (a `u32`, little-endian). Written by hand, not as JSON: escaping the 2.1 MB of the
/// generated 10,000 resources as a JSON string, and turning it into a JS string, took the page's
/// thread about 26 ms at each build; this is a copy, and its buffer is transferred to the worker.
/// (No crate for a compact binary form is in the bundle, which issue 14 wants smaller.)
pub fn pack_files(files: &BTreeMap<String, String>) -> Vec<u8> {
    let size: usize = files.iter().map(|(p, t)| 8 + p.len() + t.len()).sum();
    let mut out = Vec::with_capacity(size);
    for (path, text) in files {
        for piece in [path, text] {
            // A text over 4 GiB is far above the page's limit (`model::MAX_INPUT_BYTES`).
            let len = u32::try_from(piece.len()).unwrap_or(u32::MAX);
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&piece.as_bytes()[..len as usize]);
        }
    }
    out
}

/// The files [`pack_files`] packed; `None` if `bytes` are not such a packing (cut short, a
/// length past the end, text that is not UTF-8).
pub fn unpack_files(mut bytes: &[u8]) -> Option<BTreeMap<String, String>> {
    fn take(bytes: &mut &[u8]) -> Option<String> {
        let (len, rest) = bytes.split_first_chunk::<4>()?;
        let len = u32::from_le_bytes(*len) as usize;
        let (piece, rest) = rest.split_at_checked(len)?;
        *bytes = rest;
        std::str::from_utf8(piece).ok().map(str::to_string)
    }
    let mut files = BTreeMap::new();
    while !bytes.is_empty() {
        let path = take(&mut bytes)?;
        let text = take(&mut bytes)?;
        files.insert(path, text);
    }
    Some(files)
}

/// The request to lay out `g` (what [`super::scene::drawn`] gives) near `near`, kept by the
/// worker if `keep` (see [`Request::Layout`]).
pub fn layout_request(id: u64, g: &super::graph::PageGraph, near: Near, keep: bool) -> Request {
    Request::Layout {
        id,
        input: serde_json::to_string(&super::scene::layout_input(g)).unwrap_or_default(),
        near,
        keep,
    }
}

/// The layout in a [`Reply::Layout`], as the page reads it.
pub fn read_layout(text: &str) -> Option<Layout> {
    serde_json::from_str(text).ok()
}

/// A layout as [`Near::Given`] sends it.
pub fn given(l: &Layout) -> Near {
    Near::Given(serde_json::to_string(l).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::Typed;
    use crate::page::graph::{PageGraph, PageVertex};
    use crate::page::scene;

    /// A chain of `n` resources, each depending on the one before, with a side branch every
    /// fifth vertex, so the layout has several layers and orders to choose.
    fn graph(n: usize, extra: &str) -> PageGraph {
        let mut vertices: Vec<PageVertex> = (0..n)
            .map(|i| PageVertex::new(format!("aws_instance.r{i}"), Typed::default()))
            .collect();
        let mut edges: Vec<(usize, usize)> = (1..n).map(|i| (i, i - 1)).collect();
        edges.extend((5..n).step_by(5).map(|i| (i, i - 5)));
        if !extra.is_empty() {
            vertices.push(PageVertex::new(extra, Typed::default()));
            edges.push((n, 0));
        }
        PageGraph::new(vertices, edges)
    }

    fn laid_out(reply: Reply) -> Layout {
        match reply {
            Reply::Layout { layout, .. } => read_layout(&layout).expect("a layout"),
            other => panic!("not a layout: {other:?}"),
        }
    }

    #[test]
    fn the_workers_layout_is_the_one_the_page_would_make() {
        let g = graph(40, "");
        let visible: Vec<usize> = (0..g.len()).collect();
        let mut engine = Engine::default();
        let reply = engine.answer(layout_request(7, &g, Near::Nothing, true));
        assert_eq!(reply.id(), Some(7));
        let theirs = scene::from_layout(&g, &visible, laid_out(reply));
        let ours = scene::scene(&g, &visible, None);
        // Every coordinate equal, not close: the JSON round trip keeps each f64 exactly.
        assert_eq!(theirs.nodes, ours.nodes);
        assert_eq!(theirs.edges, ours.edges);
        assert_eq!(theirs.clusters, ours.clusters);
        assert_eq!((theirs.width, theirs.height), (ours.width, ours.height));
    }

    #[test]
    fn a_layout_near_one_the_worker_made_is_the_one_the_page_would_make_near_it() {
        let (before, after) = (graph(40, ""), graph(40, "aws_s3_bucket.new"));
        let (vb, va): (Vec<usize>, Vec<usize>) =
            ((0..before.len()).collect(), (0..after.len()).collect());
        let mut engine = Engine::default();
        let first = laid_out(engine.answer(layout_request(1, &before, Near::Nothing, true)));
        let near = laid_out(engine.answer(layout_request(2, &after, Near::Made(1), true)));
        let page_first = scene::scene(&before, &vb, None);
        let page_near = scene::scene(&after, &va, page_first.previous());
        assert_eq!(
            scene::from_layout(&before, &vb, first).nodes,
            page_first.nodes
        );
        assert_eq!(scene::from_layout(&after, &va, near).nodes, page_near.nodes);
        // And near a layout the page sent, the same again.
        let mut other = Engine::default();
        let given_near = laid_out(other.answer(layout_request(
            9,
            &after,
            given(&page_first.previous().expect("laid out")),
            true,
        )));
        assert_eq!(
            scene::from_layout(&after, &va, given_near).nodes,
            page_near.nodes
        );
    }

    #[test]
    fn a_layout_the_worker_no_longer_holds_is_made_afresh() {
        let (before, after) = (graph(30, ""), graph(30, "aws_s3_bucket.new"));
        let va: Vec<usize> = (0..after.len()).collect();
        let mut engine = Engine::default();
        engine.answer(layout_request(1, &before, Near::Nothing, true));
        engine.answer(layout_request(2, &before, Near::Nothing, true));
        // The worker holds request 2's layout, not 1's.
        let stale = laid_out(engine.answer(layout_request(3, &after, Near::Made(1), true)));
        assert_eq!(
            scene::from_layout(&after, &va, stale).nodes,
            scene::scene(&after, &va, None).nodes
        );
    }

    #[test]
    fn a_layout_not_kept_leaves_the_kept_one_to_stay_near() {
        let (before, after) = (graph(40, ""), graph(40, "aws_s3_bucket.new"));
        let (vb, va): (Vec<usize>, Vec<usize>) =
            ((0..before.len()).collect(), (0..after.len()).collect());
        let mut engine = Engine::default();
        engine.answer(layout_request(1, &before, Near::Nothing, true));
        // The build steps' one layout, in between, is not kept.
        engine.answer(layout_request(2, &graph(70, ""), Near::Nothing, false));
        let near = laid_out(engine.answer(layout_request(3, &after, Near::Made(1), true)));
        let page_near = scene::scene(&after, &va, scene::scene(&before, &vb, None).previous());
        // (Near the old drawing is not where a fresh layout puts them: the two can be told.)
        assert_ne!(page_near.nodes, scene::scene(&after, &va, None).nodes);
        assert_eq!(scene::from_layout(&after, &va, near).nodes, page_near.nodes);
        // Kept, it replaces the drawing's.
        engine.answer(layout_request(4, &graph(70, ""), Near::Nothing, true));
        let afresh = laid_out(engine.answer(layout_request(5, &after, Near::Made(3), true)));
        assert_eq!(
            scene::from_layout(&after, &va, afresh).nodes,
            scene::scene(&after, &va, None).nodes
        );
    }

    #[test]
    fn an_analysis_told_to_stop_is_not_sent_and_a_newer_one_is() {
        let ex = crate::page::examples::EXAMPLES.first().expect("an example");
        let files = crate::page::examples::files_of(ex);
        let opts = model::Options::default();
        let mut engine = Engine::default();
        let asked = engine
            .begin(analyze_request(3, &files, BuilderKind::Plan, &opts))
            .expect("begun");
        assert!(engine.is_newest(3));
        assert_eq!(
            engine.answer(Request::Stop { id: 3 }),
            Reply::Stopped { id: 3 }
        );
        // Its next phase sees it is not the newest any more, and what it made is not sent.
        assert!(!engine.is_newest(3));
        let made = model::analyze(&asked.files, asked.kind, &asked.opts);
        assert_eq!(engine.finish(&asked, made.clone()), None);
        // The next analysis is made and sent; a late stop of the older one leaves it alone.
        let newer = engine
            .begin(analyze_request(5, &files, BuilderKind::Plan, &opts))
            .expect("begun");
        engine.answer(Request::Stop { id: 3 });
        assert!(engine.is_newest(5));
        assert!(matches!(
            engine.finish(&newer, made),
            Some(Reply::Analysis { id: 5, .. })
        ));
    }

    fn analysed_by_the_worker(
        engine: &mut Engine,
        id: u64,
        files: &BTreeMap<String, String>,
        kind: BuilderKind,
    ) -> Analysis {
        let opts = model::Options::default();
        match engine.answer(analyze_request(id, files, kind, &opts)) {
            Reply::Analysis {
                id: got,
                analysis,
                parts,
                steps,
                whys,
            } => {
                assert_eq!(got, id);
                read_analysis(id, analysis, parts, move || steps, move || whys).expect("decodes")
            }
            other => panic!("not an analysis: {other:?}"),
        }
    }

    /// Asks the engine `q` about `a` (made by it) and keeps the answer in `a`.
    fn ask(engine: &mut Engine, a: &Analysis, q: Question) {
        let build = a.remote.as_ref().expect("the worker's").build;
        match engine.answer(Request::Ask { build, question: q }) {
            Reply::Answer {
                build: b,
                question,
                answer,
            } => {
                assert_eq!(b, build);
                a.remote.as_ref().unwrap().keep(question, answer);
            }
            other => panic!("not an answer: {other:?}"),
        }
    }

    /// Every example with every builder: what the page gets from the worker equals what it
    /// makes itself, part by part, and each question about a vertex (its values, what opening it
    /// gives) is answered as the page's own analysis answers it, once asked; until then the
    /// question is what the page is told to ask.
    #[test]
    fn the_workers_analysis_is_the_one_the_page_would_make() {
        use crate::page::{examples, expanded, inside};
        let mut engine = Engine::default();
        let mut id = 0;
        let mut asked_values = 0;
        let mut asked_openings = 0;
        let mut dashed = 0;
        for ex in examples::EXAMPLES {
            let files = examples::files_of(ex);
            for kind in [BuilderKind::Plan, BuilderKind::Apply, BuilderKind::Validate] {
                id += 1;
                let here = model::analyze(&files, kind, &model::Options::default());
                let there = analysed_by_the_worker(&mut engine, id, &files, kind);
                let what = format!("{} ({kind:?})", ex.id);
                // Showing the graph, reduced edges dashed, does not parse the build steps.
                let o = crate::page::view::ViewOpts {
                    reduce: false,
                    ..Default::default()
                };
                let shown = crate::page::view::shown(&there, None, &o);
                assert!(!there.steps.is_read(), "{what}");
                assert_eq!(shown, crate::page::view::shown(&here, None, &o), "{what}");
                assert_eq!(there.reduced, here.reduced, "{what}");
                dashed += shown.dashed.len();
                assert_eq!(there.graph, here.graph, "{what}");
                assert_eq!(there.decls, here.decls, "{what}");
                assert_eq!(there.errors, here.errors, "{what}");
                assert_eq!(there.warnings, here.warnings, "{what}");
                assert_eq!(there.cycles, here.cycles, "{what}");
                assert_eq!(there.not_installed, here.not_installed, "{what}");
                assert_eq!(there.config_files, here.config_files, "{what}");
                assert_eq!(there.actions, here.actions, "{what}");
                assert_eq!(there.step_table, here.step_table, "{what}");
                assert_eq!(there.expander, here.expander, "{what}");
                assert_eq!(*there.whys, *here.whys, "{what}");
                assert_eq!(*there.steps, *here.steps, "{what}");
                let kinds = |a: &Analysis| -> Vec<Vec<Typed>> {
                    a.steps.iter().map(|s| s.added_kinds.clone()).collect()
                };
                assert_eq!(kinds(&there), kinds(&here), "{what}");
                assert!(there.inside.is_none() && there.remote.is_some(), "{what}");
                let Some(g) = &here.graph else { continue };
                for v in g.vertices() {
                    let name = &v.name;
                    let mine = inside::of_vertex(&here, name);
                    if let Err(q) = inside::lookup(&there, name) {
                        assert_eq!(q, Question::Values(name.clone()));
                        ask(&mut engine, &there, q);
                        asked_values += 1;
                    }
                    assert_eq!(inside::lookup(&there, name), Ok(mine), "{what} {name}");
                    let opening = expanded::of_vertex(&here, name);
                    if let Err(q) = expanded::lookup(&there, name) {
                        assert_eq!(q, Question::Opening(name.clone()));
                        ask(&mut engine, &there, q);
                        asked_openings += 1;
                    }
                    assert_eq!(expanded::lookup(&there, name), Ok(opening), "{what} {name}");
                }
                ask(&mut engine, &there, Question::Exports);
                assert_eq!(
                    there.remote.as_ref().unwrap().answer(&Question::Exports),
                    Some(Answer::Exports {
                        dot: here.exports.dot(),
                        mermaid: here.exports.mermaid(),
                        json: here.exports.json(),
                    }),
                    "{what}"
                );
            }
        }
        // (Questions were asked: the comparisons above are of answers, not of two `None`s.)
        assert!(asked_values > 100, "{asked_values}");
        assert!(asked_openings > 10, "{asked_openings}");
        assert!(dashed > 10, "reduced edges shown dashed: {dashed}");
    }

    /// The page's walks of a worker-made analysis expand each `(expand)` vertex into the
    /// instances its own analysis would: the same events, task by task.
    #[test]
    fn a_walk_of_the_workers_analysis_expands_as_the_pages_own() {
        use crate::page::examples;
        let mut engine = Engine::default();
        for (id, name) in [(1, "count"), (2, "modules")] {
            let ex = examples::EXAMPLES.iter().find(|e| e.id == name).unwrap();
            let files = examples::files_of(ex);
            let here = model::analyze(&files, BuilderKind::Plan, &model::Options::default());
            let there = analysed_by_the_worker(&mut engine, id, &files, BuilderKind::Plan);
            let walk = |a: &Analysis| {
                let setup = crate::page::walk::Setup {
                    expander: a.expander.as_ref().map(|e| e.expander.clone()),
                    steps: a.step_table.clone(),
                    ..Default::default()
                };
                let (g, _) = a.graph.as_ref().unwrap().to_graph();
                let r = crate::walk::simulate(
                    &g,
                    &crate::walk::WalkOptions::default(),
                    setup.scenario(false),
                );
                (format!("{:?}", r.events), r.tasks.len())
            };
            let (mine, tasks) = walk(&here);
            assert!(
                tasks > here.graph.as_ref().unwrap().len(),
                "{name}: it expanded"
            );
            assert_eq!(walk(&there), (mine, tasks), "{name}");
        }
    }

    /// The walk's length the worker works out (for the walk's timeline and the makespan chart)
    /// is the one the page's own walk of its own analysis has, with failures and without, and
    /// the critical path too.
    #[test]
    fn the_workers_walk_lengths_are_the_pages() {
        use crate::page::{examples, walk};
        let mut engine = Engine::default();
        for (id, name) in [(1, "count"), (2, "modules"), (3, "references")] {
            let ex = examples::EXAMPLES.iter().find(|e| e.id == name).unwrap();
            let files = examples::files_of(ex);
            let here = model::analyze(&files, BuilderKind::Plan, &model::Options::default());
            let there = analysed_by_the_worker(&mut engine, id, &files, BuilderKind::Plan);
            let g = here.graph.as_ref().unwrap();
            let first = g.vertices()[0].name.clone();
            for failures in [BTreeSet::new(), BTreeSet::from([first])] {
                let setup = walk::Setup {
                    durations: BTreeMap::from([(g.vertices()[1].name.clone(), 42.0)]),
                    failures,
                    expander: here.expander.as_ref().map(|e| e.expander.clone()),
                    steps: here.step_table.clone(),
                    ..Default::default()
                };
                for p in [1, 3, 10, usize::MAX] {
                    let mine = if p == usize::MAX {
                        walk::critical_path(g, &setup)
                    } else {
                        walk::expected(g, p, &setup)
                    };
                    assert!(mine > 0.0, "{name}");
                    let build = there.remote.as_ref().unwrap().build;
                    let reply = engine.answer(Request::Length {
                        id: 100 + p.min(99) as u64,
                        build,
                        walk: WalkAsk::of(&setup, p),
                    });
                    assert_eq!(
                        reply,
                        Reply::Length {
                            id: 100 + p.min(99) as u64,
                            secs: Some(mine)
                        },
                        "{name} at {p}"
                    );
                }
                // The page's own walk says the same length.
                assert_eq!(
                    walk::WalkRt::start(g, 10, &setup).expected(),
                    walk::expected(g, 10, &setup)
                );
            }
        }
        // About an analysis it no longer holds, the worker says so.
        let gone = engine.answer(Request::Length {
            id: 9,
            build: 1,
            walk: WalkAsk::of(&crate::page::walk::Setup::default(), 10),
        });
        assert_eq!(gone, Reply::Length { id: 9, secs: None });
    }

    /// The worker's analysis carries the outline of each large configuration file, as the
    /// editor would make it, and the page reads it from the reply; small files and other roles
    /// are left to the editor.
    #[test]
    fn the_worker_outlines_the_large_configuration_files_with_its_analysis() {
        let mut files = crate::page::examples::files_of(&crate::page::examples::EXAMPLES[0]);
        let big: String = (0..800)
            .map(|i| {
                format!(
                    "resource \"null_resource\" \"r{i}\" {{\n  triggers = {{ n = \"{i}\" }}\n}}\n"
                )
            })
            .collect();
        assert!(big.len() > model::OUTLINE_AT_ONCE_BYTES);
        let broken = format!("{big}resource \"x\" {{\n");
        files.insert("big.tf".into(), big.clone());
        files.insert("modules/m/broken.tf".into(), broken.clone());
        files.insert(
            "big.tf.json".into(),
            format!("{{\"locals\": {{\"a\": \"{}\"}}}}", "x".repeat(40_000)),
        );
        files.insert(
            "terraform.tfvars".into(),
            format!("a = \"{}\"\n", "x".repeat(40_000)),
        );
        let opts = model::Options::default();
        let reply = Engine::default().answer(analyze_request(7, &files, BuilderKind::Plan, &opts));
        let Reply::Analysis {
            id,
            analysis,
            parts,
            steps,
            whys,
        } = reply
        else {
            panic!("an analysis: {reply:?}");
        };
        let a =
            read_analysis(id, analysis, parts, move || steps, move || whys).expect("it decodes");
        assert_eq!(
            a.outlines.keys().collect::<Vec<_>>(),
            ["big.tf", "modules/m/broken.tf"],
            "only the large HCL configuration files"
        );
        let outlined = a.outlines["big.tf"].as_ref().expect("big.tf parses");
        assert_eq!(outlined.len(), 800);
        assert_eq!(Ok(outlined.clone()), crate::outline::outline(&big));
        assert_eq!(
            a.outlines["modules/m/broken.tf"],
            crate::outline::outline(&broken)
        );
        assert!(a.outlines["modules/m/broken.tf"].is_err());
        // The page's own analysis leaves outlining to the editor.
        assert!(
            model::analyze(&files, BuilderKind::Plan, &opts)
                .outlines
                .is_empty()
        );
    }

    #[test]
    fn a_newer_analysis_stops_the_older_and_questions_are_about_the_last_one_made() {
        let files = crate::page::examples::files_of(&crate::page::examples::EXAMPLES[0]);
        let opts = model::Options::default();
        let mut engine = Engine::default();
        let first = engine
            .begin(analyze_request(1, &files, BuilderKind::Plan, &opts))
            .ok()
            .unwrap();
        assert!(engine.is_newest(1));
        let second = engine
            .begin(analyze_request(2, &files, BuilderKind::Plan, &opts))
            .ok()
            .unwrap();
        assert!(!engine.is_newest(1));
        let made = |a: &Asked| model::analyze(&a.files, a.kind, &a.opts);
        // The older one, finished after all, is not sent.
        assert_eq!(engine.finish(&first, made(&first)), None);
        assert!(matches!(
            engine.finish(&second, made(&second)),
            Some(Reply::Analysis { id: 2, .. })
        ));
        let about = |build| Request::Ask {
            build,
            question: Question::Exports,
        };
        assert!(matches!(
            engine.answer(about(2)),
            Reply::Answer { build: 2, .. }
        ));
        match engine.answer(about(1)) {
            Reply::Failed { id: 1, message } => assert!(message.contains("no longer held")),
            other => panic!("{other:?}"),
        }
        // Files that do not decode are refused with the request's id.
        let bad = Request::Analyze {
            id: 3,
            files: vec![9, 0, 0, 0, b'm'],
            kind: BuilderKind::Plan,
            opts,
        };
        assert!(matches!(engine.answer(bad), Reply::Failed { id: 3, .. }));
        assert!(engine.is_newest(3));
    }

    /// Name pairs cross as they were, in order, each name made once; an index past the names is
    /// refused.
    /// The page reads an analysis a part at a time, and only whole: a part that is unread, cut
    /// or missing gives no analysis (the page then analyses by itself). The build steps' bytes
    /// are asked for when the steps are first read, once.
    #[test]
    fn an_analysis_is_read_a_part_at_a_time_and_only_whole() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let files = crate::page::examples::files_of(&crate::page::examples::EXAMPLES[0]);
        let here = model::analyze(&files, BuilderKind::Plan, &model::Options::default());
        let Reply::Analysis {
            analysis,
            parts,
            steps,
            whys,
            ..
        } = analysis_reply(3, &here)
        else {
            panic!("an analysis");
        };
        assert_eq!(parts.len(), PARTS);
        assert_eq!(*parts.last().unwrap() as usize, analysis.len());
        let mut reading = Reading::new(3, analysis.clone(), parts.clone());
        let mut reads = 1;
        while reading.read_part() {
            reads += 1;
        }
        assert_eq!(reads, PARTS, "one part per call");
        assert!(!reading.read_part(), "nothing is left to read");
        let asked = std::sync::Arc::new(AtomicUsize::new(0));
        let counted = asked.clone();
        let steps_json = steps.clone();
        let a = reading
            .finish(
                move || {
                    counted.fetch_add(1, Ordering::SeqCst);
                    steps_json
                },
                move || whys,
            )
            .expect("read whole");
        assert_eq!(a.graph, here.graph);
        assert_eq!(a.decls, here.decls);
        assert_eq!(a.reduced, here.reduced);
        assert_eq!(a.step_table, here.step_table);
        assert_eq!(asked.load(Ordering::SeqCst), 0, "not asked before read");
        assert_eq!(*a.steps, *here.steps);
        assert_eq!(*a.clone().steps, *here.steps);
        assert_eq!(asked.load(Ordering::SeqCst), 1, "asked once");

        let no = || Vec::new();
        // Read in part only.
        let mut part_read = Reading::new(3, analysis.clone(), parts.clone());
        assert!(part_read.read_part());
        assert!(part_read.finish(no, no).is_none());
        // A part cut short: its JSON ends early, and the next begins inside it.
        let mut cut = parts.clone();
        cut[1] -= 1;
        assert!(read_analysis(3, analysis.clone(), cut, no, no).is_none());
        // A part past the end, or a part missing.
        let mut past = parts.clone();
        past[PARTS - 1] += 1;
        assert!(read_analysis(3, analysis.clone(), past, no, no).is_none());
        assert!(read_analysis(3, analysis.clone(), parts[..PARTS - 1].to_vec(), no, no).is_none());
        assert!(read_analysis(3, analysis, parts, no, no).is_some());
    }

    #[test]
    fn name_pairs_cross_in_order_with_each_name_once() {
        let n = |s: &str| StepName::from(s);
        let pairs = vec![
            (n("a"), n("root")),
            (n("b"), n("root")),
            (n("a"), n("b")),
            (n("a"), n("root")),
        ];
        let wire = NamePairs::of(&pairs);
        assert_eq!(wire.names, ["a", "root", "b"]);
        let json = serde_json::to_vec(&wire).expect("json");
        let back: NamePairs = serde_json::from_slice(&json).expect("back");
        let got = back.pairs().expect("pairs");
        assert_eq!(got, pairs);
        assert!(Arc::ptr_eq(&got[0].1, &got[1].1), "one string per name");
        assert!(NamePairs::of(&[]).pairs().expect("none").is_empty());
        let bad = NamePairs {
            names: vec!["a".into()],
            pairs: vec![(0, 1)],
        };
        assert!(bad.pairs().is_none());
    }

    /// Packed files come back as they were (any text, empty ones, in order); anything else is
    /// refused, never misread.
    #[test]
    fn files_packed_for_the_worker_unpack_to_the_same_files() {
        let files = BTreeMap::from([
            (
                "main.tf".to_string(),
                "resource \"a\" \"b\" {}\n".to_string(),
            ),
            ("empty.tf".to_string(), String::new()),
            (
                "modules/ü/日本.tf".to_string(),
                "# é \u{1F600}\n\0x".to_string(),
            ),
        ]);
        let packed = pack_files(&files);
        assert_eq!(unpack_files(&packed), Some(files.clone()));
        assert_eq!(
            unpack_files(&pack_files(&BTreeMap::new())),
            Some(BTreeMap::new())
        );
        // Cut anywhere but at a file's end, it is refused.
        let ends: Vec<usize> = {
            let mut at = 0;
            files
                .iter()
                .map(|(p, t)| {
                    at += 8 + p.len() + t.len();
                    at
                })
                .collect()
        };
        for cut in 0..packed.len() {
            let got = unpack_files(&packed[..cut]);
            assert_eq!(
                got.is_some(),
                cut == 0 || ends.contains(&cut),
                "cut at {cut}: {got:?}"
            );
        }
        // A length past the end, and text that is not UTF-8.
        assert_eq!(unpack_files(&[200, 0, 0, 0, b'a']), None);
        assert_eq!(unpack_files(&[1, 0, 0, 0, b'a', 1, 0, 0, 0, 0xff]), None);
    }

    #[test]
    fn an_input_that_does_not_decode_is_refused_with_its_id() {
        let mut engine = Engine::default();
        let reply = engine.answer(Request::Layout {
            id: 4,
            input: "{\"nodes\": 3".into(),
            near: Near::Nothing,
            keep: true,
        });
        match reply {
            Reply::Failed { id, message } => {
                assert_eq!(id, 4);
                assert!(message.contains("did not decode"), "{message}");
            }
            other => panic!("not refused: {other:?}"),
        }
        assert_eq!(Reply::Ready.id(), None);
    }
}

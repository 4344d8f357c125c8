//! What the engine's worker does for the page, as plain data: the messages between the page and
//! the worker, and the worker's answer to each. Nothing here knows about the DOM or about
//! workers: `crate::app::engine` carries these messages across `postMessage` (converted with
//! `serde-wasm-bindgen`) and runs [`Engine::answer`] in the worker; natively, the same answers are
//! unit-tested here.
//!
//! Today the worker lays out large drawings ([`super::scene::OFF_THREAD_FROM`]), so that the
//! page's thread stays free for input and the walk's animation while it does; the analysis still
//! runs on the page (docs/worker.md says what moving it takes).
//!
//! Bulky payloads (a layout's input and its result) travel as JSON text inside the typed
//! messages: at 10,000 resources a graph cost the page's thread about 13 ms as JSON text against
//! 53 ms as a tree of JavaScript objects (docs/worker.md, "What a reply costs"). `serde_json` is
//! built with `float_roundtrip`, so every coordinate arrives exactly as it was computed and the
//! worker's drawing is the one the page would have made.

use crate::layout::{self, Input, Layout};
use serde::{Deserialize, Serialize};
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
}

impl Reply {
    /// The request this reply answers, if any.
    pub fn id(&self) -> Option<u64> {
        match self {
            Reply::Ready => None,
            Reply::Layout { id, .. } | Reply::Failed { id, .. } => Some(*id),
        }
    }
}

/// The worker's state between requests: the last layout it made, for the next one to stay near.
#[derive(Default)]
pub struct Engine {
    last: Option<(u64, Arc<Layout>)>,
}

impl Engine {
    /// The answer to `request`.
    pub fn answer(&mut self, request: Request) -> Reply {
        match request {
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

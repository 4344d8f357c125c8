//! The engine's worker, browser glue only: what it does is [`crate::page::engine`].
//!
//! The page starts `static/worker.js` as a module worker and sends it the URL of the page's own
//! wasm-bindgen glue and the page's compiled `WebAssembly.Module`, so the worker runs the same
//! engine without a second download, a second compile or a second copy of the engine in the
//! bundle (issue 14 counts its size). In the worker, the binary's `main` finds no window and
//! calls [`serve`] instead of mounting the app. Where no worker can start (the browser tests'
//! page has no Trunk bundle to point it at, or a browser without module workers), or once it
//! failed, the page lays everything out itself, as before.
//!
//! The page asks for one layout at a time: a layout asked for while another is under way waits
//! for it, and only the newest waiting one of each purpose (the drawing, the build steps) is
//! sent, so a burst of edits costs the worker one stale layout at most.

// Not the app's prelude: `ctx` (which the prelude re-exports) holds an `OffThread`.
use crate::layout::Layout;
use crate::page::engine::{self, Engine, Near, Reply, Request};
use crate::page::graph::PageGraph;
use leptos::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Runs in the worker: answers each request the page posts ([`Engine::answer`]), and says it is
/// ready.
pub fn serve() {
    console_error_panic_hook::set_once();
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let engine = RefCell::new(Engine::default());
    let out = scope.clone();
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        // Anything that is not a request (there is nothing else) is ignored.
        let Ok(request) = serde_wasm_bindgen::from_value::<Request>(e.data()) else {
            return;
        };
        let reply = engine.borrow_mut().answer(request);
        post(&out, &reply);
    });
    scope.set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    post(&scope, &Reply::Ready);
}

fn post(scope: &web_sys::DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Ok(v) = serde_wasm_bindgen::to_value(reply) {
        let _ = scope.post_message(&v);
    }
}

/// What a layout is for: the drawing, or the build steps' one layout of every step
/// ([`crate::page::scene::steps_layout`]). Each has its own newest request and answer, so
/// stepping does not drop the drawing's and the other way round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Purpose {
    Drawing = 0,
    Steps = 1,
}

/// The page's side of the worker: whether it can be used, and per [`Purpose`] what was asked
/// and what came back. Copy handles, as Leptos' signals are.
#[derive(Clone, Copy)]
pub(super) struct OffThread {
    /// Set when the worker failed after it started (tracked by what asks, which then lays out
    /// on the page's thread).
    failed: RwSignal<bool>,
    slots: [Slot; 2],
    /// The layout the page drew from the worker's reply `id`, so that the next request can name
    /// it ([`Near::Made`]) instead of sending it back.
    made: StoredValue<Option<(u64, Arc<Layout>)>>,
    /// The worker, its state and the requests waiting to be sent.
    link: StoredValue<Link, LocalStorage>,
}

/// One purpose's newest request and its answer.
#[derive(Clone, Copy)]
struct Slot {
    /// The id of the newest layout that arrived for what is asked (tracked by what asks).
    arrived: RwSignal<u64>,
    /// That layout, until it is taken.
    layout: StoredValue<Option<(u64, Layout)>>,
    /// The graph of the newest request and its id.
    asked: StoredValue<Option<(u64, PageGraph)>>,
}

/// How long a started worker has to say it is ready (it took well under a second in headless
/// Chromium on a 2-core machine: importing the glue and instantiating the page's module).
const READY_WITHIN: Duration = Duration::from_secs(10);

#[derive(Default)]
struct Link {
    /// Whether starting the worker was tried (then `worker` is it, or `None`: no worker here).
    started: bool,
    worker: Option<web_sys::Worker>,
    /// Whether it said it is ready.
    ready: bool,
    /// Whether a request is under way.
    busy: bool,
    /// Per purpose, the newest request made while the worker was starting or busy.
    waiting: [Option<Request>; 2],
    next_id: u64,
}

impl OffThread {
    /// The page's side, with the worker started once the browser is idle: starting it while the
    /// page loads made the first drawing of the 1,000 generated resources about 80 ms later (e2e
    /// timing, two runs each). A large layout asked for before then starts it at once
    /// ([`OffThread::usable`]) and waits for it.
    pub(super) fn start() -> OffThread {
        let slot = || Slot {
            arrived: RwSignal::new(0),
            layout: StoredValue::new(None),
            asked: StoredValue::new(None),
        };
        let off = OffThread {
            failed: RwSignal::new(false),
            slots: [slot(), slot()],
            made: StoredValue::new(None),
            link: StoredValue::new_local(Link::default()),
        };
        request_idle_callback(move || {
            off.usable_untracked();
        });
        off
    }

    /// Whether layouts can be asked of the worker: it is starting or up (started now if it was
    /// not yet), and has not failed. Tracks failure.
    pub(super) fn usable(self) -> bool {
        !self.failed.get() && self.usable_untracked()
    }

    fn usable_untracked(self) -> bool {
        let first = self
            .link
            .try_update_value(|l| !std::mem::replace(&mut l.started, true))
            .unwrap_or(false);
        if first {
            let worker = glue_url().and_then(|glue| launch(&glue, self));
            let launched = worker.is_some();
            self.link.update_value(|l| l.worker = worker);
            // A worker that loads but never says it is ready (its module without the engine's
            // entry) would hold every large drawing back: it is given up.
            if launched {
                set_timeout(
                    move || {
                        if !self.link.with_value(|l| l.ready) {
                            self.failed();
                        }
                    },
                    READY_WITHIN,
                );
            }
        }
        self.link.with_value(|l| l.worker.is_some())
    }

    /// The layout of `g` for `purpose` if the worker's answer to the request for exactly `g`
    /// has arrived (taken: the caller keeps it), else asks for it near `previous` (unless it was
    /// asked for already) and gives `None`. Tracks the arrival.
    pub(super) fn layout_of(
        self,
        purpose: Purpose,
        g: &PageGraph,
        previous: Option<Arc<Layout>>,
    ) -> Option<(u64, Layout)> {
        let slot = self.slots[purpose as usize];
        let arrived = slot.arrived.get();
        let asked = slot
            .asked
            .with_value(|a| a.as_ref().filter(|(_, last)| last == g).map(|(id, _)| *id));
        match asked {
            Some(id) if id == arrived => {
                let got = slot
                    .layout
                    .try_update_value(|l| l.take_if(|(got, _)| *got == id))
                    .flatten();
                if got.is_some() {
                    return got;
                }
                // Taken by an earlier run that then lost its result: ask again.
                self.ask(purpose, g, previous);
                None
            }
            Some(_) => None,
            None => {
                self.ask(purpose, g, previous);
                None
            }
        }
    }

    /// Records that the drawing made from the worker's layout `id` holds `l`.
    pub(super) fn drew(self, id: u64, l: Option<Arc<Layout>>) {
        self.made.set_value(l.map(|l| (id, l)));
    }

    fn ask(self, purpose: Purpose, g: &PageGraph, previous: Option<Arc<Layout>>) {
        let near = match previous {
            None => Near::Nothing,
            Some(p) => match self.made.with_value(|m| {
                m.as_ref()
                    .filter(|(_, l)| Arc::ptr_eq(l, &p))
                    .map(|(id, _)| *id)
            }) {
                Some(id) => Near::Made(id),
                None => engine::given(&p),
            },
        };
        let id = self
            .link
            .try_update_value(|l| {
                l.next_id += 1;
                l.next_id
            })
            .unwrap_or(0);
        self.slots[purpose as usize]
            .asked
            .set_value(Some((id, g.clone())));
        let request = engine::layout_request(id, g, near, purpose == Purpose::Drawing);
        self.link.update_value(|l| {
            if l.busy || !l.ready {
                l.waiting[purpose as usize] = Some(request);
            } else if let Some(w) = &l.worker {
                l.busy = send(w, &request);
            }
        });
    }

    /// The purpose whose newest request is `id`, if any.
    fn asker(self, id: u64) -> Option<Slot> {
        self.slots.into_iter().find(|s| {
            s.asked
                .with_value(|a| a.as_ref().is_some_and(|(asked, _)| *asked == id))
        })
    }

    /// A reply from the worker.
    fn received(self, reply: Reply) {
        match reply {
            Reply::Ready => {
                self.link.update_value(|l| l.ready = true);
                self.next();
            }
            Reply::Layout { id, layout } => {
                self.next();
                if let Some(slot) = self.asker(id) {
                    match engine::read_layout(&layout) {
                        Some(l) => {
                            slot.layout.set_value(Some((id, l)));
                            slot.arrived.set(id);
                        }
                        None => self.failed(),
                    }
                }
            }
            Reply::Failed { id, message } => {
                web_sys::console::warn_1(&format!("tfgraph's worker: {message}").into());
                self.next();
                if self.asker(id).is_some() {
                    self.failed();
                }
            }
        }
    }

    /// Sends a waiting request, if any (the drawing's first), now that the worker is free.
    fn next(self) {
        self.link.update_value(|l| {
            l.busy = false;
            let first = l.waiting.iter_mut().find_map(Option::take);
            if let (Some(r), Some(w)) = (first, &l.worker) {
                l.busy = send(w, &r);
            }
        });
    }

    /// The worker is no use: the page lays out by itself from now on (what asked, tracking
    /// `failed`, is made again at once).
    fn failed(self) {
        self.link.update_value(|l| {
            if let Some(w) = l.worker.take() {
                w.terminate();
            }
            l.busy = false;
            l.waiting = [None, None];
        });
        self.failed.set(true);
    }
}

fn send(w: &web_sys::Worker, request: &Request) -> bool {
    serde_wasm_bindgen::to_value(request)
        .ok()
        .is_some_and(|v| w.post_message(&v).is_ok())
}

/// The URL of the page's wasm-bindgen glue: the module Trunk's `modulepreload` link names.
fn glue_url() -> Option<String> {
    let doc = web_sys::window()?.document()?;
    let link = doc
        .query_selector("link[rel=modulepreload][href$='.js']")
        .ok()??;
    let href = link.get_attribute("href")?;
    web_sys::Url::new_with_base(&href, &doc.base_uri().ok()??)
        .ok()
        .map(|u| u.href())
}

/// Starts `static/worker.js` with the glue at `glue` and the page's module; its replies go to
/// `off`. `None` when the browser refuses to start it.
fn launch(glue: &str, off: OffThread) -> Option<web_sys::Worker> {
    let opts = web_sys::WorkerOptions::new();
    opts.set_type(web_sys::WorkerType::Module);
    opts.set_name("tfgraph engine");
    let worker = web_sys::Worker::new_with_options("static/worker.js", &opts).ok()?;
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if let Ok(reply) = serde_wasm_bindgen::from_value::<Reply>(e.data()) {
                off.received(reply);
            }
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // A worker that fails to load, or whose engine panics, is given up.
    let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| off.failed());
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    let start = js_sys::Object::new();
    js_sys::Reflect::set(&start, &"glue".into(), &glue.into()).ok()?;
    js_sys::Reflect::set(&start, &"module".into(), &wasm_bindgen::module()).ok()?;
    worker.post_message(&start).ok()?;
    Some(worker)
}

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
//!
//! Large inputs are analysed by the worker too ([`OffThread::analyze`]): it runs the pipeline
//! with a pause between phases, in which it reports progress, answers layouts and reads newer
//! requests (a newer analysis stops the older one there). The page gets the analysis' plain
//! parts; what holds the configuration stays in the worker and is asked for when a view needs it
//! ([`OffThread::ask_about`]; `crate::page::engine::Question`).

// Not the app's prelude: `ctx` (which the prelude re-exports) holds an `OffThread`.
use super::marks::timed;
use crate::builder::BuilderKind;
use crate::layout::Layout;
use crate::page::analysis::{self as model, Analysis};
use crate::page::engine::{self, Engine, Near, Question, Remote, Reply, Request};
use crate::page::graph::PageGraph;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Runs in the worker: answers each request the page posts ([`Engine::answer`]; an analysis with
/// pauses, [`analyze`]), and says it is ready.
pub fn serve() {
    console_error_panic_hook::set_once();
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let engine = Rc::new(RefCell::new(Engine::default()));
    let out = scope.clone();
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        // Anything that is not a request (there is nothing else) is ignored.
        let Ok(request) = serde_wasm_bindgen::from_value::<Request>(e.data()) else {
            return;
        };
        if let Request::Stop { id } = request {
            engine.borrow_mut().stop(id);
            return;
        }
        if matches!(request, Request::Analyze { .. }) {
            let begun = engine.borrow_mut().begin(request);
            match begun {
                Ok(asked) => {
                    wasm_bindgen_futures::spawn_local(analyze(engine.clone(), out.clone(), asked));
                }
                Err(reply) => post(&out, &reply),
            }
            return;
        }
        let reply = engine.borrow_mut().answer(request);
        post(&out, &reply);
    });
    scope.set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    post(&scope, &Reply::Ready);
}

/// Makes the analysis `asked` in the worker: before each phase it reports where it is and gives
/// the worker's event loop a turn (layouts asked for meanwhile are answered, a newer analysis is
/// read), and stops if a newer analysis was asked for.
async fn analyze(
    engine: Rc<RefCell<Engine>>,
    out: web_sys::DedicatedWorkerGlobalScope,
    asked: engine::Asked,
) {
    let id = asked.id;
    let pause = |progress: model::Progress| {
        let (engine, out) = (engine.clone(), out.clone());
        async move {
            if !engine.borrow().is_newest(id) {
                return false;
            }
            post(&out, &Reply::Progress { id, progress });
            next_task().await;
            engine.borrow().is_newest(id)
        }
    };
    let made = model::analyze_with(&asked.files, asked.kind, &asked.opts, pause).await;
    let reply = made.and_then(|a| engine.borrow_mut().finish(&asked, a));
    if let Some(reply) = reply {
        post(&out, &reply);
    }
}

/// Resolves in a task of its own (a `setTimeout` of 0), so that messages that arrived meanwhile
/// are handled first.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let timer = js_sys::Reflect::get(&js_sys::global(), &"setTimeout".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let called = timer.is_some_and(|f| f.call2(&JsValue::NULL, &resolve, &0.into()).is_ok());
        if !called {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

fn post(scope: &web_sys::DedicatedWorkerGlobalScope, reply: &Reply) {
    let Ok(v) = serde_wasm_bindgen::to_value(reply) else {
        return;
    };
    // An analysis' JSON goes as bytes (`Uint8Array`s, see `Reply::Analysis`) whose buffers are
    // transferred: the page receives them without a copy on its thread.
    let transfer = if matches!(reply, Reply::Analysis { .. }) {
        buffers(&v, "Analysis", &["analysis", "steps", "whys"])
    } else {
        js_sys::Array::new()
    };
    let _ = if transfer.length() == 0 {
        scope.post_message(&v)
    } else {
        scope.post_message_with_transfer(&v, &transfer)
    };
}

/// The `Uint8Array` field `name` of the message `v`'s variant `variant` (a `serde_bytes` field as
/// serde-wasm-bindgen makes it), with the object that holds it.
fn bytes_field(v: &JsValue, variant: &str, name: &str) -> Option<(JsValue, js_sys::Uint8Array)> {
    let fields = js_sys::Reflect::get(v, &variant.into())
        .ok()
        .filter(JsValue::is_object)?;
    let bytes = js_sys::Reflect::get(&fields, &name.into())
        .ok()?
        .dyn_into::<js_sys::Uint8Array>()
        .ok()?;
    Some((fields, bytes))
}

/// The buffers of the `Uint8Array` fields `names` of the message `v`'s variant `variant`, to be
/// transferred with it instead of copied.
fn buffers(v: &JsValue, variant: &str, names: &[&str]) -> js_sys::Array {
    names
        .iter()
        .filter_map(|name| bytes_field(v, variant, name))
        .map(|(_, bytes)| bytes.buffer())
        .collect()
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
    /// The analysis under way in the worker, and what to do with its progress and result.
    analysis: StoredValue<Option<Analyzing>, LocalStorage>,
    /// The last analysis the worker made, whose answers arrive ([`OffThread::ask_about`]).
    remote: StoredValue<Option<Arc<Remote>>>,
    /// Bumped when an answer arrives (tracked by the views that asked).
    answered: RwSignal<u64>,
    /// The walks' lengths asked for, by request id ([`OffThread::length`]).
    lengths: StoredValue<BTreeMap<u64, LengthAsked>, LocalStorage>,
}

/// A walk's length asked of the worker, and everyone waiting for it: the same question asked
/// again while it is under way (a walk's start and the makespan chart both ask for the
/// current setting) waits for the one answer instead of walking the graph twice.
struct LengthAsked {
    build: u64,
    walk: engine::WalkAsk,
    waiting: Vec<futures::channel::oneshot::Sender<Option<f64>>>,
}

/// An analysis asked of the worker.
struct Analyzing {
    id: u64,
    /// Told to stop ([`OffThread::stop_analysis`]).
    stopped: bool,
    progress: Box<dyn Fn(model::Progress)>,
    done: Box<dyn FnOnce(Analysis)>,
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
    busy: Option<u64>,
    /// Per purpose, the newest request made while the worker was starting or busy.
    waiting: [Option<Request>; 2],
    /// An analysis asked for before the worker was ready.
    waiting_analysis: Option<Request>,
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
            analysis: StoredValue::new_local(None),
            remote: StoredValue::new(None),
            answered: RwSignal::new(0),
            lengths: StoredValue::new_local(BTreeMap::new()),
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

    /// Asks the worker to analyse `files` (see [`Request::Analyze`]): `progress` gets each
    /// phase, `done` the analysis. A newer call replaces this one (its `done` is never called).
    /// If the worker fails meanwhile, neither is: what asked tracks [`OffThread::usable`] and
    /// analyses on the page instead.
    pub(super) fn analyze(
        self,
        files: &BTreeMap<String, String>,
        kind: BuilderKind,
        opts: &model::Options,
        progress: impl Fn(model::Progress) + 'static,
        done: impl FnOnce(Analysis) + 'static,
    ) {
        let id = self.next_id();
        let request = engine::analyze_request(id, files, kind, opts);
        self.analysis.set_value(Some(Analyzing {
            id,
            stopped: false,
            progress: Box::new(progress),
            done: Box::new(done),
        }));
        let sent = self
            .link
            .try_update_value(|l| {
                if !l.ready {
                    l.waiting_analysis = Some(request);
                    return true;
                }
                l.worker.as_ref().is_some_and(|w| send(w, &request))
            })
            .unwrap_or(false);
        if !sent {
            self.failed();
        }
    }

    /// The files were edited since the analysis under way was asked for: the worker stops it at
    /// its next phase ([`Request::Stop`]); the next one is asked for once typing pauses. Its
    /// progress stays shown until then.
    pub(super) fn stop_analysis(self) {
        let Some(id) = self
            .analysis
            .try_update_value(|a| {
                let a = a.as_mut().filter(|a| !a.stopped)?;
                a.stopped = true;
                Some(a.id)
            })
            .flatten()
        else {
            return;
        };
        self.link.update_value(|l| {
            if !l.ready {
                // Not sent yet: it need not be.
                l.waiting_analysis = None;
            } else if let Some(w) = &l.worker {
                send(w, &Request::Stop { id });
            }
        });
    }

    /// Asks the worker `q` about `a` if `a` is the worker's and `q` was not asked yet; the answer
    /// is kept in `a` and bumps what [`OffThread::track_answers`] tracks.
    pub(super) fn ask_about(self, a: &Analysis, q: Question) {
        let Some(r) = &a.remote else {
            return;
        };
        if !r.first_ask(&q) {
            return;
        }
        let request = Request::Ask {
            build: r.build,
            question: q,
        };
        self.link.with_value(|l| {
            if let Some(w) = &l.worker {
                send(w, &request);
            }
        });
    }

    /// How long the walk of the analysis `build` (the worker's) takes with `walk`, worked out
    /// in the worker; `None` if it cannot say (the worker failed, or holds a newer analysis).
    pub(super) async fn length(self, build: u64, walk: engine::WalkAsk) -> Option<f64> {
        let (tx, rx) = futures::channel::oneshot::channel();
        let mut tx = Some(tx);
        self.lengths.update_value(|l| {
            if let Some(a) = l.values_mut().find(|a| a.build == build && a.walk == walk) {
                a.waiting.extend(tx.take());
            }
        });
        let Some(tx) = tx else {
            return rx.await.ok().flatten();
        };
        let id = self.next_id();
        self.lengths.update_value(|l| {
            l.insert(
                id,
                LengthAsked {
                    build,
                    walk: walk.clone(),
                    waiting: vec![tx],
                },
            );
        });
        let request = Request::Length { id, build, walk };
        let sent = self
            .link
            .with_value(|l| l.worker.as_ref().is_some_and(|w| send(w, &request)));
        if !sent {
            self.lengths.update_value(|l| {
                l.remove(&id);
            });
            return None;
        }
        rx.await.ok().flatten()
    }

    /// Tracks the arrival of answers.
    pub(super) fn track_answers(self) {
        self.answered.track();
    }

    fn next_id(self) -> u64 {
        self.link
            .try_update_value(|l| {
                l.next_id += 1;
                l.next_id
            })
            .unwrap_or(0)
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
        let id = self.next_id();
        self.slots[purpose as usize]
            .asked
            .set_value(Some((id, g.clone())));
        let request = engine::layout_request(id, g, near, purpose == Purpose::Drawing);
        self.link.update_value(|l| {
            if l.busy.is_some() || !l.ready {
                l.waiting[purpose as usize] = Some(request);
            } else if let Some(w) = &l.worker {
                l.busy = send(w, &request).then_some(id);
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

    /// A reply from the worker (with an analysis' parts it left in JavaScript).
    fn received(self, reply: Reply, held: Option<Held>) {
        match reply {
            Reply::Ready => {
                self.link.update_value(|l| {
                    l.ready = true;
                    if let (Some(r), Some(w)) = (l.waiting_analysis.take(), &l.worker) {
                        send(w, &r);
                    }
                });
                self.next();
            }
            Reply::Progress { id, progress } => {
                self.analysis.with_value(|a| {
                    if let Some(a) = a.as_ref().filter(|a| a.id == id) {
                        (a.progress)(progress);
                    }
                });
            }
            Reply::Analysis {
                id,
                analysis,
                parts,
                steps,
                whys,
            } => {
                let Some(asked) = self
                    .analysis
                    .try_update_value(|a| a.take_if(|a| a.id == id))
                    .flatten()
                else {
                    return;
                };
                let (steps, whys): (model::JsonSource, model::JsonSource) = match held {
                    Some(h) => (Box::new(when_read(h.steps)), Box::new(when_read(h.whys))),
                    None => (Box::new(move || steps), Box::new(move || whys)),
                };
                // A part per task (`engine::Reading`), the first after the message's own: the
                // walk's frames go on between them.
                leptos::task::spawn_local(async move {
                    let mut reading = engine::Reading::new(id, analysis, parts);
                    loop {
                        next_task().await;
                        if !timed("read", || reading.read_part()) {
                            break;
                        }
                    }
                    match reading.finish(steps, whys) {
                        Some(a) => {
                            // An older analysis read after a newer one keeps its answers to
                            // itself: what is asked about is the newest.
                            self.remote.update_value(|r| {
                                if r.as_ref().is_none_or(|r| r.build <= id) {
                                    *r = a.remote.clone();
                                }
                            });
                            (asked.done)(a);
                        }
                        None => self.failed(),
                    }
                });
            }
            // Not sent by the worker ([`Request::Stop`] has no reply).
            Reply::Stopped { .. } => {}
            Reply::Length { id, secs } => {
                if let Some(a) = self.lengths.try_update_value(|l| l.remove(&id)).flatten() {
                    for tx in a.waiting {
                        let _ = tx.send(secs);
                    }
                }
            }
            Reply::Answer {
                build,
                question,
                answer,
            } => {
                let kept = self.remote.with_value(|r| match r {
                    Some(r) if r.build == build => {
                        r.keep(question, answer);
                        true
                    }
                    _ => false,
                });
                if kept {
                    self.answered.update(|n| *n += 1);
                }
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
                // A question about an analysis the worker no longer holds needs no answer: a newer
                // analysis replaced it.
                if self.link.with_value(|l| l.busy == Some(id)) {
                    self.next();
                }
                let analysing = self
                    .analysis
                    .with_value(|a| a.as_ref().is_some_and(|a| a.id == id));
                if analysing || self.asker(id).is_some() {
                    self.failed();
                }
            }
        }
    }

    /// Sends a waiting request, if any (the drawing's first), now that the worker is free.
    fn next(self) {
        self.link.update_value(|l| {
            l.busy = None;
            let first = l.waiting.iter_mut().find_map(Option::take);
            if let (Some(r), Some(w)) = (first, &l.worker) {
                l.busy = send(w, &r).then(|| r.id());
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
            l.busy = None;
            l.waiting = [None, None];
            l.waiting_analysis = None;
        });
        self.analysis.set_value(None);
        // Lengths asked for are answered `None` (their senders dropped).
        self.lengths.update_value(BTreeMap::clear);
        self.failed.set(true);
    }
}

fn send(w: &web_sys::Worker, request: &Request) -> bool {
    let Ok(v) = serde_wasm_bindgen::to_value(request) else {
        return false;
    };
    // The files to analyse go as bytes (`engine::pack_files`) whose buffer is transferred.
    if matches!(request, Request::Analyze { .. }) {
        w.post_message_with_transfer(&v, &buffers(&v, "Analyze", &["files"]))
            .is_ok()
    } else {
        w.post_message(&v).is_ok()
    }
}

/// The build steps' and whys' JSON of an analysis reply `data`, taken out of it (left empty) so
/// that reading the reply does not copy them into the page's wasm memory: they stay JavaScript
/// arrays until a view first reads them ([`crate::page::analysis::Lazy`]).
fn hold_lazy_parts(data: &JsValue) -> Option<Held> {
    let take = |name: &str| -> Option<js_sys::Uint8Array> {
        let (fields, bytes) = bytes_field(data, "Analysis", name)?;
        js_sys::Reflect::set(
            &fields,
            &name.into(),
            &js_sys::Uint8Array::new_with_length(0),
        )
        .ok()?;
        Some(bytes)
    };
    Some(Held {
        steps: take("steps")?,
        whys: take("whys")?,
    })
}

/// An analysis reply's parts left in JavaScript ([`hold_lazy_parts`]).
struct Held {
    steps: js_sys::Uint8Array,
    whys: js_sys::Uint8Array,
}

/// The bytes of `array` when first asked for: the analysis that holds the closure is shared as
/// `Send`, but lives and is read on the page's one thread.
fn when_read(array: js_sys::Uint8Array) -> impl FnOnce() -> Vec<u8> + Send + 'static {
    let array = send_wrapper::SendWrapper::new(array);
    move || array.to_vec()
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
            let data = e.data();
            let held = hold_lazy_parts(&data);
            if let Ok(reply) = serde_wasm_bindgen::from_value::<Reply>(data) {
                off.received(reply, held);
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

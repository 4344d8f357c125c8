//! Files from outside the editor: the Open buttons, drag-and-drop of files and whole folders,
//! share links in the URL fragment, and the notices that tell the user what happened.
//!
//! Every file that comes in is classified by [`classify`]: configuration files keep their path
//! relative to the opened or dropped folder; variables files, the module manifest, a state, a plan
//! (`terraform show -json`), a changes list, provider schemas and a DOT graph go to their inputs
//! (they stay files in the editor's set, which [`crate::page::analysis::analyze_with`] routes).
//! Files of a folder that [`wanted`] turns down are not read at all, only counted; anything
//! else is named in a notice.

use super::prelude::*;
use super::storage;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::page::files::{MAX_FILES, Read, has_plan, relative_path, skipped_dir, wanted};
pub use crate::page::files::{Role, classify};

/// The largest file read (a bigger one is named in a notice and skipped).
const MAX_FILE_BYTES: f64 = 16.0 * 1024.0 * 1024.0;

/// Shows a notice (`page::notices::push`: the same text once, a short list).
pub fn notify(ctx: Ctx, error: bool, text: impl Into<String>, restore: bool) {
    let text = text.into();
    let mut id = 0;
    ctx.work.notices.update(|n| {
        id = crate::page::notices::push(n, text, None, error, restore, |_| false);
    });
    // Plain news (saved, copied, opened without a restore offer) goes away by itself, once the
    // page has been quiet for a while: a notice about opened files must not be gone before the
    // long build of those files has drawn anything.
    if !error && !restore {
        dismiss_when_quiet(ctx, Some(id), 0);
    }
}

/// Removes notice `id` after the page was settled at two checks in a row, 4 s apart (so at the
/// earliest 8 s after it was shown, and 4 s after a build ends).
fn dismiss_when_quiet(ctx: Ctx, id: Option<u64>, quiet_checks: u8) {
    set_timeout(
        move || {
            // The app is gone (a test unmounted it): nothing to dismiss.
            if ctx.work.notices.try_with_untracked(|_| ()).is_none() {
                return;
            }
            let quiet = untrack(|| ctx.settled());
            if quiet && quiet_checks >= 1 {
                ctx.work
                    .notices
                    .try_update(|n| n.retain(|x| Some(x.id) != id));
            } else {
                dismiss_when_quiet(ctx, id, if quiet { quiet_checks + 1 } else { 0 });
            }
        },
        Duration::from_secs(4),
    );
}

/// Replaces the editor's files and shows the new set from its start.
pub fn set_workspace(ctx: Ctx, files: BTreeMap<String, String>) {
    // Another configuration: if it does not build, no graph of the files before is shown.
    ctx.work.workspace.update_value(|w| *w += 1);
    ctx.walk.reset();
    ctx.walk.failures.set(BTreeSet::new());
    let root = crate::page::files::default_root(files.keys());
    let first = crate::page::files::first_file(&files, &root);
    ctx.work.root.set(root);
    // As `tofu graph`: with a plan, the graph shown is the apply graph.
    if has_plan(&files) {
        ctx.build.kind.set(BuilderKind::Apply);
    }
    ctx.work.files.set(files);
    if let Some(f) = first {
        ctx.work.active.set(f);
    }
    ctx.sel.selected.set(None);
    ctx.build.step.set(None);
    ctx.work.analyze_now();
}

async fn read_text(file: &web_sys::File) -> Result<String, String> {
    if file.size() > MAX_FILE_BYTES {
        return Err(format!(
            "it is {:.1} MB; the most tfgraph reads is {} MB",
            file.size() / 1048576.0,
            MAX_FILE_BYTES / 1048576.0
        ));
    }
    let v = JsFuture::from(file.text()).await.map_err(js_error)?;
    v.as_string().ok_or_else(|| "it is not text".to_string())
}

fn js_error(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the browser could not read it".into())
}

/// Takes in files read from the Open buttons or a drop (sorted by
/// [`crate::page::files::intake`]): configuration files or a DOT graph start a new set of files
/// (the previous ones are saved aside and can be restored); a state, plan or schemas file alone is
/// added to the current files, in place of one of the same kind.
pub fn take_in(ctx: Ctx, read: Vec<Read>, skipped: Vec<String>, unread: Vec<(String, u64)>) {
    let intake = crate::page::files::intake(read, skipped, &unread);
    for (error, text) in intake.notices {
        notify(ctx, error, text, false);
    }
    if intake.opened.is_empty() {
        return;
    }
    let summary = intake.summary;
    if intake.replaces {
        let dot = if intake.has_dot {
            " A DOT graph is drawn and walked as it is: no builder runs, so there are no build steps."
        } else {
            ""
        };
        replace_workspace(
            ctx,
            intake.opened,
            &format!("before opening {summary}"),
            &format!("Opened {summary}.{dot}"),
        );
    } else {
        ctx.work
            .files
            .update(|f| crate::page::files::add_in_place(f, &intake.opened));
        if has_plan(&intake.opened) {
            ctx.build.kind.set(BuilderKind::Apply);
        }
        ctx.walk.reset();
        ctx.work.analyze_now();
        notify(ctx, false, format!("Added {summary}."), false);
    }
}

/// Reads the files of a file input (the Open and Open folder buttons).
pub fn open_list(ctx: Ctx, list: web_sys::FileList) {
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    ctx.work.reading.update(|n| *n += 1);
    spawn_local(async move {
        let mut read = Vec::new();
        let mut skipped = Vec::new();
        let mut unread = Vec::new();
        for f in files {
            let rel = js_sys::Reflect::get(&f, &"webkitRelativePath".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            let (raw, in_folder) = if rel.is_empty() {
                (f.name(), false)
            } else {
                (rel, true)
            };
            let Some(p) = relative_path(&raw, in_folder) else {
                skipped.push(format!("{raw}: not an acceptable file path"));
                continue;
            };
            // Files picked one by one are all read; a folder's only when tfgraph uses them.
            if in_folder && !wanted(&p) {
                unread.push((p, f.size() as u64));
                continue;
            }
            if read.len() >= MAX_FILES {
                skipped.push(format!("files after the first {MAX_FILES}"));
                break;
            }
            read.push((p, read_text(&f).await));
        }
        take_in(ctx, read, skipped, unread);
        ctx.work.reading.update(|n| *n -= 1);
    });
}

/// A promise for a callback-style browser API: `start` is given resolve and reject.
async fn callback<F: FnMut(&js_sys::Function, &js_sys::Function)>(
    mut start: F,
) -> Result<JsValue, String> {
    let p = js_sys::Promise::new(&mut |resolve, reject| start(&resolve, &reject));
    JsFuture::from(p).await.map_err(js_error)
}

/// Reads a drop: files, and folders through their entries (each folder read to its end, breadth
/// first, skipping [`skipped_dir`]s). Items without an entry (some browsers, synthetic drops) are
/// read as plain files.
pub fn open_drop(ctx: Ctx, dt: web_sys::DataTransfer) {
    let items = dt.items();
    let mut entries = Vec::new();
    let mut plain = Vec::new();
    for i in 0..items.length() {
        let Some(item) = items.get(i) else { continue };
        if item.kind() != "file" {
            continue;
        }
        match item.webkit_get_as_entry() {
            Ok(Some(e)) => entries.push(e),
            _ => {
                if let Ok(Some(f)) = item.get_as_file() {
                    plain.push(f);
                }
            }
        }
    }
    if entries.is_empty()
        && plain.is_empty()
        && let Some(list) = dt.files()
    {
        plain = (0..list.length()).filter_map(|i| list.get(i)).collect();
    }
    ctx.work.reading.update(|n| *n += 1);
    spawn_local(async move {
        let mut read = Vec::new();
        let mut skipped = Vec::new();
        let mut unread = Vec::new();
        for f in plain {
            let name = f.name();
            match relative_path(&name, false) {
                Some(p) => read.push((p, read_text(&f).await)),
                None => skipped.push(format!("{name}: not an acceptable file path")),
            }
        }
        // (entry, whether it lies inside a dropped folder)
        let mut queue: std::collections::VecDeque<(web_sys::FileSystemEntry, bool)> =
            entries.into_iter().map(|e| (e, false)).collect();
        while let Some((entry, in_folder)) = queue.pop_front() {
            if read.len() >= MAX_FILES {
                skipped.push(format!("files after the first {MAX_FILES}"));
                break;
            }
            let full = entry.full_path();
            if entry.is_directory() {
                if skipped_dir(&entry.name()) {
                    continue;
                }
                let dir: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
                let reader = dir.create_reader();
                // readEntries returns the entries in batches until an empty one.
                loop {
                    let batch = callback(|ok, err| {
                        let _ = reader.read_entries_with_callback_and_callback(ok, err);
                    })
                    .await;
                    let batch = match batch {
                        Ok(b) => js_sys::Array::from(&b),
                        Err(e) => {
                            skipped.push(format!("{}: {e}", full.trim_start_matches('/')));
                            break;
                        }
                    };
                    if batch.length() == 0 {
                        break;
                    }
                    for e in batch.iter() {
                        queue.push_back((e.unchecked_into(), true));
                    }
                }
            } else {
                let fe: web_sys::FileSystemFileEntry = entry.unchecked_into();
                let Some(p) = relative_path(&full, in_folder) else {
                    skipped.push(format!(
                        "{}: not an acceptable file path",
                        full.trim_start_matches('/')
                    ));
                    continue;
                };
                // Getting the File object reads nothing: its size is known without its bytes.
                let file = callback(|ok, err| fe.file_with_callback_and_callback(ok, err)).await;
                if in_folder && !wanted(&p) {
                    let size = file
                        .as_ref()
                        .map_or(0.0, |f| f.unchecked_ref::<web_sys::File>().size());
                    unread.push((p, size as u64));
                    continue;
                }
                let text = match file {
                    Ok(f) => read_text(f.unchecked_ref()).await,
                    Err(e) => Err(e),
                };
                read.push((p, text));
            }
        }
        take_in(ctx, read, skipped, unread);
        ctx.work.reading.update(|n| *n -= 1);
    });
}

/// Drop target for the whole window, with an overlay while files are dragged over it.
#[component]
pub fn DropTarget(ctx: Ctx) -> impl IntoView {
    let over = RwSignal::new(false);
    let has_files = |ev: &web_sys::DragEvent| {
        ev.data_transfer().is_some_and(|dt| {
            let types = dt.types();
            types
                .iter()
                .any(|t| t.as_string().as_deref() == Some("Files"))
        })
    };
    let h1 = window_event_listener(leptos::ev::dragover, move |ev| {
        if has_files(&ev) {
            ev.prevent_default();
            over.set(true);
        }
    });
    let h2 = window_event_listener(leptos::ev::dragleave, move |ev| {
        // Leaving the window (not moving between elements) has no related target.
        if ev.related_target().is_none() {
            over.set(false);
        }
    });
    let h3 = window_event_listener(leptos::ev::drop, move |ev| {
        over.set(false);
        // Text dragged inside the page (within the editor) is the browser's business.
        if !has_files(&ev) {
            return;
        }
        if let Some(dt) = ev.data_transfer() {
            ev.prevent_default();
            open_drop(ctx, dt);
        }
    });
    on_cleanup(move || {
        h1.remove();
        h2.remove();
        h3.remove();
    });
    view! {
        <Show when=move || over.get()>
            <div class="drop-overlay" aria-hidden="true">
                <div class="drop-card">
                    <strong>"Drop to open"</strong>
                    <span>".tf files or a whole folder (a working directory after tofu init too), terraform.tfvars, a terraform.tfstate, a plan or provider schemas JSON, or a DOT graph"</span>
                </div>
            </div>
        </Show>
    }
}

/// The Open and Open folder buttons (hidden file inputs behind ordinary buttons).
#[component]
pub fn OpenButtons(ctx: Ctx) -> impl IntoView {
    let files_in: NodeRef<leptos::html::Input> = NodeRef::new();
    let folder_in: NodeRef<leptos::html::Input> = NodeRef::new();
    Effect::new(move |_| {
        if let Some(i) = folder_in.get() {
            let _ = i.set_attribute("webkitdirectory", "");
        }
    });
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(list) = input.files() {
            open_list(ctx, list);
        }
        // So choosing the same file again fires another change.
        input.set_value("");
    };
    view! {
        <span class="open-buttons">
            <button type="button" class="small-button" id="open-files" title="Open .tf files, a state, a plan, provider schemas or a DOT graph (or drop them anywhere)"
                on:click=move |_| if let Some(i) = files_in.get_untracked() { i.click() }>
                "Open"
            </button>
            <button type="button" class="small-button" id="open-folder" title="Open a whole configuration folder or repository, .terraform included (or drop it anywhere): only the files tfgraph uses are read"
                on:click=move |_| if let Some(i) = folder_in.get_untracked() { i.click() }>
                "Folder"
            </button>
            <input type="file" multiple class="sr-only" id="open-files-input" tabindex="-1" aria-hidden="true" node_ref=files_in on:change=on_change />
            <input type="file" multiple class="sr-only" id="open-folder-input" tabindex="-1" aria-hidden="true" node_ref=folder_in on:change=on_change />
        </span>
    }
}

/// Replaces the files with `files` (an example, opened files or a folder, a share link), keeping
/// the current ones aside first when they hold work ([`crate::page::files::worth_keeping`]); the
/// notice `done` then offers them back. When they cannot be kept (storage full or disabled),
/// nothing is replaced: the notice says so and offers them as a download.
pub fn replace_workspace(ctx: Ctx, files: BTreeMap<String, String>, why: &str, done: &str) {
    if keep_aside(ctx, why) {
        let kept = ctx
            .work
            .files
            .with_untracked(crate::page::files::worth_keeping);
        set_workspace(ctx, files);
        if kept {
            notify(
                ctx,
                false,
                format!("{done} Your previous files were kept aside."),
                true,
            );
        } else {
            notify(ctx, false, done.to_string(), false);
        }
    }
}

/// Keeps the current files aside if they hold work; false (with an error notice offering them
/// as a download) when the browser refused to store them.
pub fn keep_aside(ctx: Ctx, why: &str) -> bool {
    let current = ctx.work.files.get_untracked();
    if !crate::page::files::worth_keeping(&current) {
        return true;
    }
    match storage::push_backup(why, &current) {
        Ok(()) => true,
        Err(e) => {
            let text = format!(
                "Nothing was replaced: your files could not be kept aside first ({e}). Download them, then try again."
            );
            let download = Some((
                "tfgraph-files.json".to_string(),
                crate::saved::envelope(&current),
            ));
            ctx.work.notices.update(|n| {
                _ = crate::page::notices::push(n, text, download, true, false, |_| false);
            });
            false
        }
    }
}

/// Puts back the newest kept files (an undo of the last replacement); the files they replace are
/// kept aside in turn, so restoring twice swaps back.
pub fn restore_backup(ctx: Ctx) {
    let Some(b) = storage::pop_backup() else {
        notify(ctx, true, "There are no kept files to restore.", false);
        return;
    };
    if !keep_aside(ctx, "before restoring kept files") {
        // Put the popped copy back: nothing changes.
        let _ = storage::push_backup(&b.why, &b.files);
        return;
    }
    set_workspace(ctx, b.files);
    notify(
        ctx,
        false,
        format!("Restored the files kept {}.", b.why),
        false,
    );
}

/// The page address with `fragment` as its fragment.
pub(super) fn link_for(fragment: &str) -> String {
    let loc = web_sys::window().map(|w| w.location());
    let base = loc
        .map(|l| {
            format!(
                "{}{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default(),
                l.search().unwrap_or_default()
            )
        })
        .unwrap_or_default();
    format!("{base}#{fragment}")
}

/// Makes a share link of the current files, shows it in `out`, and copies it when the browser lets
/// us write the clipboard.
pub fn share(ctx: Ctx, out: RwSignal<String>) {
    let encoded = ctx.work.files.with_untracked(crate::share::encode);
    match encoded {
        Err(e) => {
            out.set(String::new());
            notify(ctx, true, format!("No share link: {e}"), false);
        }
        Ok(fragment) => {
            let link = link_for(&fragment);
            out.set(link.clone());
            let clipboard = web_sys::window()
                .map(|w| w.navigator())
                .filter(|n| {
                    js_sys::Reflect::get(n, &"clipboard".into()).is_ok_and(|c| !c.is_undefined())
                })
                .map(|n| n.clipboard());
            match clipboard {
                Some(c) => spawn_local(async move {
                    let copied = JsFuture::from(c.write_text(&link)).await.is_ok();
                    notify(
                        ctx,
                        false,
                        if copied {
                            format!(
                                "Share link copied ({} characters). It holds every file; no server sees it.",
                                link.len()
                            )
                        } else {
                            "The share link is in the field below: copy it from there.".to_string()
                        },
                        false,
                    );
                }),
                None => notify(
                    ctx,
                    false,
                    "The share link is in the field below: copy it from there.",
                    false,
                ),
            }
        }
    }
}

/// Opens the files of a `#v1.` fragment in the page address, if there is one. The user's files
/// are saved aside first; a link that does not decode leaves them in place and says why. The
/// fragment is then removed from the address, so a reload does not open the link again.
pub fn open_fragment(ctx: Ctx) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hash = window.location().hash().unwrap_or_default();
    if !hash.starts_with("#v1.") {
        return;
    }
    match crate::share::decode(&hash) {
        Ok(files) if files.is_empty() => {
            notify(ctx, true, "The share link holds no files.", false);
        }
        Ok(files) => {
            let n = files.len();
            let s = if n == 1 { "" } else { "s" };
            replace_workspace(
                ctx,
                files,
                "before opening a share link",
                &format!("Opened {n} file{s} from the share link."),
            );
        }
        Err(e) => notify(ctx, true, e.to_string(), false),
    }
    let url = format!(
        "{}{}",
        window.location().pathname().unwrap_or_default(),
        window.location().search().unwrap_or_default()
    );
    if let Ok(h) = window.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Downloads the drawn graph as a PNG: the SVG is drawn onto a canvas through a Blob URL image (no
/// network) at twice its size, and the canvas is saved with `toBlob`.
pub fn export_png(ctx: Ctx, svg: String, width: f64, height: f64) {
    let fail = move |what: String| notify(ctx, true, format!("PNG export failed: {what}."), false);
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Browsers refuse canvases much larger than this on a side.
    let scale = (2.0f64)
        .min(16000.0 / width.max(1.0))
        .min(16000.0 / height.max(1.0));
    let (w, h) = (
        (width * scale).ceil().max(1.0) as u32,
        (height * scale).ceil().max(1.0) as u32,
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&svg));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("image/svg+xml");
    let blob = match web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) {
        Ok(b) => b,
        Err(e) => return fail(js_error(e)),
    };
    let url = match web_sys::Url::create_object_url_with_blob(&blob) {
        Ok(u) => u,
        Err(e) => return fail(js_error(e)),
    };
    let img = match web_sys::HtmlImageElement::new() {
        Ok(i) => i,
        Err(e) => return fail(js_error(e)),
    };
    let img2 = img.clone();
    let url2 = url.clone();
    let onload = Closure::once(move || {
        let _ = web_sys::Url::revoke_object_url(&url2);
        let drawn = (|| -> Result<web_sys::HtmlCanvasElement, JsValue> {
            let canvas: web_sys::HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
            canvas.set_width(w);
            canvas.set_height(h);
            let g: web_sys::CanvasRenderingContext2d = canvas
                .get_context("2d")?
                .ok_or_else(|| JsValue::from_str("no 2D context"))?
                .dyn_into()?;
            g.set_fill_style_str("#ffffff");
            g.fill_rect(0.0, 0.0, w as f64, h as f64);
            g.draw_image_with_html_image_element_and_dw_and_dh(
                &img2, 0.0, 0.0, w as f64, h as f64,
            )?;
            Ok(canvas)
        })();
        let canvas = match drawn {
            Ok(c) => c,
            Err(e) => return fail(js_error(e)),
        };
        let saved = Closure::once(move |blob: Option<web_sys::Blob>| {
            let Some(blob) = blob else {
                return fail("the browser could not encode the image".into());
            };
            if let (Ok(u), Some(doc)) = (
                web_sys::Url::create_object_url_with_blob(&blob),
                web_sys::window().and_then(|w| w.document()),
            ) && let Ok(a) = doc.create_element("a")
            {
                let _ = a.set_attribute("href", &u);
                let _ = a.set_attribute("download", "graph.png");
                if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
                    a.click();
                }
                // After the download has started.
                set_timeout(
                    move || {
                        let _ = web_sys::Url::revoke_object_url(&u);
                    },
                    Duration::from_secs(5),
                );
                notify(ctx, false, "Saved graph.png.", false);
            }
        });
        if let Err(e) = canvas.to_blob(saved.as_ref().unchecked_ref()) {
            fail(js_error(e));
        }
        saved.forget();
    });
    let onerror = Closure::once(move || fail("the graph's SVG could not be drawn".into()));
    img.set_onload(Some(onload.as_ref().unchecked_ref()));
    img.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    onload.forget();
    onerror.forget();
    img.set_src(&url);
}

impl Ctx {
    pub(super) fn load_example(self, e: &Example) {
        let why = format!("before loading the example {}", e.title);
        if keep_aside(self, &why) {
            let kept = self
                .work
                .files
                .with_untracked(crate::page::files::worth_keeping);
            self.build.kind.set(e.kind);
            set_workspace(self, crate::page::examples::files_of(e));
            self.shell.pane.set(Pane::Graph);
            if kept {
                notify(
                    self,
                    false,
                    format!(
                        "Loaded the example {}. Your previous files were kept aside.",
                        e.title
                    ),
                    true,
                );
            }
        }
    }
}

/// The notices bar: one line per notice, with its download and a dismiss button.
#[component]
pub(super) fn Notices(ctx: Ctx) -> impl IntoView {
    view! {
        <div class="notices" role="status" aria-live="polite">
            <For each=move || ctx.work.notices.get() key=|n| n.id let:n>
                {
                    let id = n.id;
                    view! {
                        <div class="notice" class:error=n.error>
                            <span class="notice-text">{n.text.clone()}</span>
                            {n.restore.then(|| view! {
                                <button type="button" class="notice-restore" on:click=move |_| {
                                    restore_backup(ctx);
                                    ctx.work.notices.update(|v| v.retain(|x| x.id != id));
                                }>"Restore previous files"</button>
                            })}
                            {n.download.clone().map(|(name, text)| view! {
                                <a class="notice-download" download=name href=explain::data_url("application/json", &text)>
                                    "Download the kept copy"
                                </a>
                            })}
                            <button type="button" class="notice-dismiss" title="Dismiss"
                                on:click=move |_| ctx.work.notices.update(|ns| ns.retain(|x| x.id != id))>
                                "Dismiss"
                            </button>
                        </div>
                    }
                }
            </For>
        </div>
    }
}

//! Autosave of the user's files in the browser's localStorage, so a reload or a browser restart
//! loses nothing, and saved data that cannot be used is never silently thrown away.
//!
//! The format and the decision of what stored strings amount to are in `crate::saved`. On start,
//! [`restore`] reads the keys; anything unusable — text that is not the JSON, a format from a newer
//! tfgraph, bad paths — and format 1's keys are copied under a key of their own starting with
//! [`ASIDE_PREFIX`] before anything is written, and the app is told, so it can say what happened
//! and offer the kept copy for download.

use crate::saved::{
    ASIDE_PREFIX, KEY, Restored, SaveDecision, V1_FILES, V1_MAIN, classify, decide_save,
    envelope_at, revision,
};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

thread_local! {
    /// The saved revision this tab started from or wrote last: it saves only over that one.
    static BASE: Cell<u64> = const { Cell::new(0) };
    /// The files saved under [`KEY`] at revision [`BASE`], as this tab read or wrote them, while
    /// no other tab has written the key since ([`changed_elsewhere`]). A save then neither reads
    /// the saved text back nor writes unchanged files: at 10,000 generated resources reading the
    /// 2 MB back and serialising the files twice made each delayed save a 16–27 ms task, with the
    /// walk's animation waiting on it.
    static KNOWN: RefCell<Option<BTreeMap<String, String>>> = const { RefCell::new(None) };
}

/// Another tab wrote `key` (`None`: it cleared the storage): what this tab knew of the saved
/// files no longer holds, and its next save reads them back. (Called from the page's `storage`
/// listener: the browser tells every other tab of the origin of each write.)
pub fn changed_elsewhere(key: Option<&str>) {
    if key.is_none_or(|k| k == KEY) {
        forget_known();
    }
}

fn forget_known() {
    KNOWN.with(|k| k.borrow_mut().take());
}

fn know(files: &BTreeMap<String, String>) {
    KNOWN.with(|k| *k.borrow_mut() = Some(files.clone()));
}

/// Why files are kept aside when another tab's save overtook this tab's (see
/// [`crate::saved::decide_save`]); other tabs recognise it.
pub const CONFLICT_WHY: &str = "when another tab had saved over them";

/// The revision this tab saves over.
pub fn base_revision() -> u64 {
    BASE.with(Cell::get)
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn get(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok()?
}

/// Copies `text` under the first free `tfgraph.aside.<n>` key; returns that key.
fn keep_aside(text: &str) -> Result<String, String> {
    let s = local_storage().ok_or("this browser gives the page no storage")?;
    let key = (1..)
        .map(|n| format!("{ASIDE_PREFIX}{n}"))
        .find(|k| s.get_item(k).ok().flatten().is_none())
        .unwrap_or_else(|| ASIDE_PREFIX.to_string());
    s.set_item(&key, text)
        .map_err(|_| "the browser's storage is full".to_string())?;
    Ok(key)
}

/// What the app starts with, and a notice when saved data was unusable or converted.
pub struct Start {
    pub files: Option<BTreeMap<String, String>>,
    pub notice: Option<StorageNotice>,
}

/// Told to the user on start: what happened to their saved data, and where the old copy is.
#[derive(Debug, Clone, PartialEq)]
pub struct StorageNotice {
    pub message: String,
    /// The kept copy's key and text, offered for download.
    pub aside: Option<(String, String)>,
}

/// Reads the saved files, keeping aside (and reporting) whatever cannot be used, and remembers
/// the revision this tab starts from.
pub fn restore() -> Start {
    forget_known();
    let start = restore_files();
    BASE.with(|b| b.set(revision(get(KEY).as_deref())));
    start
}

fn restore_files() -> Start {
    let restored = classify(
        get(KEY).as_deref(),
        get(V1_FILES).as_deref(),
        get(V1_MAIN).as_deref(),
    );
    let remove_old = || {
        if let Some(s) = local_storage() {
            let _ = s.remove_item(V1_FILES);
            let _ = s.remove_item(V1_MAIN);
        }
    };
    match restored {
        Restored::Nothing => Start {
            files: None,
            notice: None,
        },
        Restored::Files(files) => {
            know(&files);
            Start {
                files: Some(files),
                notice: None,
            }
        }
        Restored::Converted { files, old } => {
            let notice = match keep_aside(&old) {
                Ok(key) => {
                    remove_old();
                    StorageNotice {
                        message: format!(
                            "Your files were saved by an earlier version of tfgraph and have been converted. The old copy is kept in this browser under \u{201c}{key}\u{201d}."
                        ),
                        aside: Some((key, old)),
                    }
                }
                Err(e) => StorageNotice {
                    message: format!(
                        "Your files were saved by an earlier version of tfgraph and have been converted, but the old copy could not be kept ({e}); it is still under its old key."
                    ),
                    aside: None,
                },
            };
            Start {
                files: Some(files),
                notice: Some(notice),
            }
        }
        Restored::Unusable { raw, why } => {
            let notice = match keep_aside(&raw) {
                Ok(key) => {
                    if let Some(s) = local_storage() {
                        let _ = s.remove_item(KEY);
                    }
                    remove_old();
                    StorageNotice {
                        message: format!(
                            "Your saved files could not be restored: {why}. They are kept in this browser under \u{201c}{key}\u{201d}, and you can download them; an example is open instead."
                        ),
                        aside: Some((key, raw)),
                    }
                }
                // Nothing could be copied: leave the data where it is, and do not overwrite it.
                Err(e) => StorageNotice {
                    message: format!(
                        "Your saved files could not be restored: {why}. They could not be kept aside ({e}), so they stay where they are and this visit will not be saved."
                    ),
                    aside: None,
                },
            };
            Start {
                files: None,
                notice: Some(notice),
            }
        }
    }
}

/// The files saved now, if the saved data is usable (no side effects, unlike [`restore`]).
pub fn saved_files() -> Option<BTreeMap<String, String>> {
    match classify(get(KEY).as_deref(), None, None) {
        Restored::Files(f) => Some(f),
        _ => None,
    }
}

/// Whether saving is safe: false when unusable data could not be kept aside and would be overwritten.
pub fn can_save() -> bool {
    match get(KEY) {
        None => true,
        Some(raw) => !matches!(classify(Some(&raw), None, None), Restored::Unusable { .. }),
    }
}

/// What a save did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saving {
    Saved,
    /// Another tab saved since this one started from or saved its revision: nothing written.
    Conflict,
}

/// Saves every file, over the revision this tab knows only. Returns the reason when the browser
/// refused (storage full or disabled).
pub fn save_files(files: &BTreeMap<String, String>) -> Result<Saving, String> {
    let s = local_storage().ok_or("this browser gives the page no storage")?;
    let write = |rev: u64| -> Result<Saving, String> {
        s.set_item(KEY, &envelope_at(files, rev)).map_err(|_| {
            "the browser's storage is full or disabled, so edits are not being saved".to_string()
        })?;
        BASE.with(|b| b.set(rev));
        know(files);
        Ok(Saving::Saved)
    };
    // The key holds what this tab last read or wrote, at its revision.
    match KNOWN.with(|k| k.borrow().as_ref().map(|known| known == files)) {
        Some(true) => return Ok(Saving::Saved),
        Some(false) => return write(base_revision() + 1),
        None => {}
    }
    // Read back from here on: events that arrive later are of writes after this read.
    forget_known();
    let stored = get(KEY);
    // Already saved as they are (by this tab, or by another with the same files): nothing to
    // write, and no new revision that would make other tabs' next save a conflict.
    let stored_rev = revision(stored.as_deref());
    if stored.as_deref() == Some(envelope_at(files, stored_rev).as_str()) {
        BASE.with(|b| b.set(stored_rev));
        know(files);
        return Ok(Saving::Saved);
    }
    match decide_save(stored.as_deref(), base_revision()) {
        SaveDecision::Conflict { .. } => Ok(Saving::Conflict),
        SaveDecision::Write { rev } => write(rev),
    }
}

/// Keeps `files` aside (newest of [`crate::saved::MAX_BACKUPS`]) before a replacement; `why` says
/// what replaced them. Err with the reason when the browser refused the write.
pub fn push_backup(why: &str, files: &BTreeMap<String, String>) -> Result<(), String> {
    let s = local_storage().ok_or("this browser gives the page no storage")?;
    let raw = get(crate::saved::BACKUP_KEY);
    s.set_item(
        crate::saved::BACKUP_KEY,
        &crate::saved::push_backup(raw.as_deref(), why, files),
    )
    .map_err(|_| "the browser's storage is full or disabled".to_string())
}

/// Keeps `files` aside as this tab's copy after another tab's save overtook it, updating that
/// copy on later edits (see [`crate::saved::replace_newest_backup`]).
pub fn keep_conflict_copy(files: &BTreeMap<String, String>) -> Result<(), String> {
    let s = local_storage().ok_or("this browser gives the page no storage")?;
    let raw = get(crate::saved::BACKUP_KEY);
    s.set_item(
        crate::saved::BACKUP_KEY,
        &crate::saved::replace_newest_backup(raw.as_deref(), CONFLICT_WHY, files),
    )
    .map_err(|_| "the browser's storage is full or disabled".to_string())
}

/// Takes the newest kept workspace out of storage.
pub fn pop_backup() -> Option<crate::saved::Backup> {
    let s = local_storage()?;
    let (newest, rest) = crate::saved::pop_backup(get(crate::saved::BACKUP_KEY).as_deref());
    let newest = newest?;
    s.set_item(crate::saved::BACKUP_KEY, &rest).ok()?;
    Some(newest)
}

/// Where the chosen root module folder is kept (beside the files: a folder name, not user text
/// that could be lost).
/// Learn mode's progress, under its own key (never the workspace's).
pub fn load_lessons() -> crate::page::lessons::Progress {
    crate::page::lessons::Progress::parse(get(crate::page::lessons::KEY).as_deref())
}

/// Saves Learn mode's progress; a refusal loses only the marks, so it is not told.
pub fn save_lessons(p: &crate::page::lessons::Progress) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(crate::page::lessons::KEY, &p.to_text());
    }
}

const ROOT_KEY: &str = "tfgraph.root";

/// The root module folder chosen last time, if one was saved.
pub fn load_root() -> Option<String> {
    get(ROOT_KEY)
}

/// Keeps the chosen root module folder for the next visit.
pub fn save_root(root: &str) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(ROOT_KEY, root);
    }
}

/// Where the page's bundle is remembered between visits.
const BUNDLE_KEY: &str = "tfgraph.bundle";

/// Whether the page runs a different bundle than on the last visit (its wasm's hashed name, from
/// the preload link Trunk writes into index.html), remembering this one. `false` on a first
/// visit, and where the page has no such link (the component tests).
pub fn bundle_changed() -> bool {
    let Some(now) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("link[rel='preload'][as='fetch']")
                .ok()
                .flatten()
        })
        .and_then(|l| l.get_attribute("href"))
    else {
        return false;
    };
    let before = get(BUNDLE_KEY);
    if before.as_deref() != Some(now.as_str())
        && let Some(s) = local_storage()
    {
        let _ = s.set_item(BUNDLE_KEY, &now);
    }
    before.is_some_and(|b| b != now)
}

/// Registers the service worker (`static/sw.js`, copied to the site's root), which keeps the
/// bundle so that the app opens without a network after one visit. Only on http(s) pages whose
/// browser has service workers; a refusal is left alone (the app works without it).
pub fn register_service_worker() {
    use wasm_bindgen::{JsCast, JsValue};
    let Some(w) = web_sys::window() else { return };
    let http = w
        .location()
        .protocol()
        .is_ok_and(|p| p == "http:" || p == "https:");
    let sw = js_sys::Reflect::get(&w.navigator(), &JsValue::from_str("serviceWorker"))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null());
    let (true, Some(sw)) = (http, sw) else { return };
    let register = js_sys::Reflect::get(&sw, &JsValue::from_str("register"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(register) = register
        && let Ok(p) = register.call1(&sw, &JsValue::from_str("./sw.js"))
        && let Ok(p) = p.dyn_into::<js_sys::Promise>()
    {
        // A rejected registration is not an error of the page: await it and let it go.
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(p).await;
        });
    }
}

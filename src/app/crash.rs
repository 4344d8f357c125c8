//! A panic is not a dead page: the panic hook saves the files if the autosave had not, and puts a
//! banner over the page (what happened, whether the files are safe, a download of them, a
//! reload). The words are `page::crash`'s. In wasm a panic aborts, so the hook works with plain
//! DOM calls: the reactive runtime may be half way through an update and is not used again. All
//! text goes in as text, never as HTML.

use crate::page::crash::{self, FilesState};
use std::cell::RefCell;
use std::collections::BTreeMap;

thread_local! {
    /// The files as last seen by the autosave, and whether that save worked.
    static LATEST: RefCell<Option<(BTreeMap<String, String>, bool)>> = const { RefCell::new(None) };
}

/// Called by the autosave with the files it just tried to save.
pub fn remember(files: &BTreeMap<String, String>, saved: bool) {
    LATEST.with(|l| *l.borrow_mut() = Some((files.clone(), saved)));
}

/// Installs the hook: the browser console still gets the panic and its stack.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "an unknown error".to_string());
        let message = match info.location() {
            Some(l) => format!("{message} (at {}:{})", l.file(), l.line()),
            None => message,
        };
        show(&message);
    }));
}

/// Panics on purpose once the app has started when the address asks for it
/// ([`crash::DEBUG_PANIC`]): the end-to-end test's way to check the banner on the release bundle.
pub fn debug_trigger() {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    if crash::wants_debug_panic(&search) {
        leptos::task::spawn_local(async {
            panic!(
                "the debug panic trigger ({} in the address)",
                crash::DEBUG_PANIC
            );
        });
    }
}

fn show(message: &str) {
    let latest = LATEST.with(|l| l.borrow().clone());
    let (files, state) = match latest {
        Some((files, true)) => (files, FilesState::Saved),
        Some((files, false)) => {
            let state = match super::storage::save_files(&files) {
                Ok(super::storage::Saving::Saved) => FilesState::SavedNow,
                // Another tab saved since: keep these aside rather than overwrite its work.
                Ok(super::storage::Saving::Conflict) => {
                    match super::storage::push_backup(super::storage::CONFLICT_WHY, &files) {
                        Ok(()) => FilesState::NotSaved(
                            "another tab saved its work since; these are kept aside, and Restore brings them back after a reload".into(),
                        ),
                        Err(e) => FilesState::NotSaved(e),
                    }
                }
                Err(e) => FilesState::NotSaved(e),
            };
            (files, state)
        }
        // The panic came before the autosave's first run: what is saved is what the page opened.
        None => match super::storage::saved_files() {
            Some(files) => (files, FilesState::Saved),
            None => (
                BTreeMap::new(),
                FilesState::NotSaved("none were open yet".into()),
            ),
        },
    };
    let _ = draw(&crash::banner(message, &state), &files);
}

fn draw(b: &crash::Banner, files: &BTreeMap<String, String>) -> Option<()> {
    let window = web_sys::window()?;
    let doc = window.document()?;
    let body = doc.body()?;
    let el = |tag: &str, class: &str, text: Option<&str>| -> Option<web_sys::Element> {
        let e = doc.create_element(tag).ok()?;
        e.set_class_name(class);
        if let Some(t) = text {
            e.set_text_content(Some(t));
        }
        Some(e)
    };
    let banner = el("div", "crash-banner", None)?;
    banner.set_attribute("role", "alert").ok()?;
    let title = el("strong", "crash-title", Some(&b.title))?;
    banner.append_child(&title).ok()?;
    for line in &b.lines {
        let p = el("p", "crash-line", Some(line))?;
        banner.append_child(&p).ok()?;
    }
    let actions = el("p", "crash-actions", None)?;
    let download = el("a", "crash-download", Some("Download your files"))?;
    download
        .set_attribute("download", "tfgraph-files.json")
        .ok()?;
    download
        .set_attribute(
            "href",
            &crate::page::explain::data_url("application/json", &crate::saved::envelope(files)),
        )
        .ok()?;
    actions.append_child(&download).ok()?;
    let reload = el("a", "crash-reload", Some("Reload tfgraph"))?;
    let href = window.location().href().unwrap_or_default();
    reload
        .set_attribute("href", &crash::reload_address(&href))
        .ok()?;
    actions.append_child(&reload).ok()?;
    banner.append_child(&actions).ok()?;
    body.prepend_with_node_1(&banner).ok()?;
    Some(())
}

//! Autosave of the editor text in the browser's localStorage, so a reload loses nothing.

const KEY: &str = "tfgraph.v1.main.tf";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The text saved by an earlier visit, if any.
pub fn load_text() -> Option<String> {
    local_storage()?.get_item(KEY).ok()?
}

/// Saves the text; a full or disabled storage is not an error worth stopping the app for.
pub fn save_text(text: &str) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(KEY, text);
    }
}

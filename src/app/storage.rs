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

const FILES_KEY: &str = "tfgraph.v1.files";

/// All files of the last visit (the example may have several), if saved.
pub fn load_files() -> Option<std::collections::BTreeMap<String, String>> {
    let text = local_storage()?.get_item(FILES_KEY).ok()??;
    serde_json::from_str(&text).ok()
}

/// Saves every file; `main.tf` also under its own key (older visits read only that).
pub fn save_files(files: &std::collections::BTreeMap<String, String>) {
    if let Some(s) = local_storage()
        && let Ok(json) = serde_json::to_string(files)
    {
        let _ = s.set_item(FILES_KEY, &json);
    }
    if let Some(main) = files.get("main.tf") {
        save_text(main);
    }
}

const BACKUP_KEY: &str = "tfgraph.v1.backup";

/// Saves the files aside before a share link or an opened folder replaces them.
pub fn save_backup(files: &std::collections::BTreeMap<String, String>) {
    if let Some(s) = local_storage()
        && let Ok(json) = serde_json::to_string(files)
    {
        let _ = s.set_item(BACKUP_KEY, &json);
    }
}

/// The files saved aside by [`save_backup`], if any.
pub fn load_backup() -> Option<std::collections::BTreeMap<String, String>> {
    let text = local_storage()?.get_item(BACKUP_KEY).ok()??;
    serde_json::from_str(&text).ok()
}

//! What the page says when the engine panics. In the browser a panic aborts the wasm (it cannot
//! be caught there), so the page cannot go on; it must not go dark either. The panic hook
//! (`app::crash`) shows a banner with these words, saves the files if they were not saved, and
//! offers them as a download and a reload.

/// Whether the files were saved when the panic happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilesState {
    /// The autosave had written every edit.
    Saved,
    /// They were not, and the hook saved them now.
    SavedNow,
    /// They could not be saved (the reason).
    NotSaved(String),
}

/// The banner's words: a title and the lines under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    pub title: String,
    pub lines: Vec<String>,
}

/// The longest panic message shown (the rest is cut, marked with an ellipsis).
const MAX_MESSAGE: usize = 400;

/// The banner for a panic with `message` and the files in `state`.
pub fn banner(message: &str, state: &FilesState) -> Banner {
    let mut shown: String = message.chars().take(MAX_MESSAGE).collect();
    if message.chars().count() > MAX_MESSAGE {
        shown.push('…');
    }
    let files = match state {
        FilesState::Saved => {
            "Your files are saved in this browser: reloading brings them back.".to_string()
        }
        FilesState::SavedNow => {
            "Your files were saved just now: reloading brings them back.".to_string()
        }
        FilesState::NotSaved(why) => {
            format!("Your files could not be saved ({why}): download them before you reload.")
        }
    };
    Banner {
        title: "tfgraph stopped: an internal error ended the engine".to_string(),
        lines: vec![
            format!("The error: {shown}"),
            files,
            "This is a bug in tfgraph, not in your configuration. The download below holds your files; a report with them helps.".to_string(),
        ],
    }
}

/// The address to reload: the current one without the debug trigger (so a reload does not panic
/// again) and without a share link's fragment (already opened).
pub fn reload_address(href: &str) -> String {
    let (base, _) = href.split_once('#').unwrap_or((href, ""));
    match base.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|p| {
                    !p.is_empty() && *p != DEBUG_PANIC && !p.starts_with("tfgraph-debug-panic=")
                })
                .collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => base.to_string(),
    }
}

/// The query parameter that makes the page panic on purpose once it has started, so the end-to-end
/// test can check the banner on the release bundle. It does nothing else.
pub const DEBUG_PANIC: &str = "tfgraph-debug-panic";

/// Whether the page address's query (`?a=1&tfgraph-debug-panic`) asks for the debug panic.
pub fn wants_debug_panic(search: &str) -> bool {
    search
        .trim_start_matches('?')
        .split('&')
        .any(|p| p == DEBUG_PANIC || p.starts_with("tfgraph-debug-panic="))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_says_what_happened_and_whether_the_files_are_safe() {
        let b = banner("index out of bounds", &FilesState::Saved);
        assert!(b.lines[0].ends_with("index out of bounds"));
        assert!(b.lines[1].contains("saved in this browser"));
        let b = banner("x", &FilesState::NotSaved("storage is full".into()));
        assert!(b.lines[1].contains("could not be saved (storage is full)"));
        assert!(b.lines[1].contains("download"));
        let long = "a".repeat(1000);
        let b = banner(&long, &FilesState::SavedNow);
        assert_eq!(
            b.lines[0].chars().count(),
            "The error: ".len() + MAX_MESSAGE + 1
        );
    }

    #[test]
    fn the_reload_drops_the_trigger_and_the_fragment_only() {
        assert_eq!(
            reload_address("http://h/app/?tfgraph-debug-panic#v1.xyz"),
            "http://h/app/"
        );
        assert_eq!(
            reload_address("http://h/?a=1&tfgraph-debug-panic&b=2"),
            "http://h/?a=1&b=2"
        );
        assert_eq!(reload_address("http://h/"), "http://h/");
        assert!(wants_debug_panic("?x=1&tfgraph-debug-panic"));
        assert!(!wants_debug_panic("?tfgraph-debug-panicky"));
        assert!(!wants_debug_panic(""));
    }
}

//! The saved-files format of the web app's autosave, and what to make of whatever is stored.
//!
//! The app saves `{"format": 2, "files": {path: text}}` in localStorage. [`classify`] decides what
//! the stored strings amount to — usable files, format 1 data to convert, or something unusable and
//! why — without touching a browser API, so it is tested natively; `src/app/storage.rs` does the
//! reading, the keeping aside and the writing.

use crate::share::check_path;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The most files saved (and opened from a folder at once): a repository after `tofu init`
/// holds its installed modules' files too, many more than a share link's
/// [`crate::share::MAX_FILES`].
pub const MAX_FILES: usize = 2000;

/// Where the files are saved.
pub const KEY: &str = "tfgraph.workspace";
/// The format written now.
pub const FORMAT: u64 = 2;
/// Format 1's keys: the whole file map, and `main.tf` alone.
pub const V1_FILES: &str = "tfgraph.v1.files";
pub const V1_MAIN: &str = "tfgraph.v1.main.tf";
/// Saved data that could not be used is copied under `tfgraph.aside.<n>`.
pub const ASIDE_PREFIX: &str = "tfgraph.aside.";

#[derive(Serialize, Deserialize)]
struct Saved {
    format: u64,
    files: BTreeMap<String, String>,
}

/// What the stored strings amount to.
#[derive(Debug, Clone, PartialEq)]
pub enum Restored {
    /// Nothing saved: a first visit.
    Nothing,
    /// The saved files, usable as they are.
    Files(BTreeMap<String, String>),
    /// Format 1 data, converted; the old text should be kept aside.
    Converted {
        files: BTreeMap<String, String>,
        old: String,
    },
    /// Unusable data: `why` says what is wrong with `raw`, which should be kept aside.
    Unusable { raw: String, why: String },
}

fn check_files(files: &BTreeMap<String, String>) -> Result<(), String> {
    if files.len() > MAX_FILES {
        return Err(format!(
            "it holds {} files, more than the {MAX_FILES} tfgraph keeps",
            files.len()
        ));
    }
    for p in files.keys() {
        check_path(p).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Decides what to do with the stored strings: the current key, then format 1's two keys.
pub fn classify(current: Option<&str>, v1_files: Option<&str>, v1_main: Option<&str>) -> Restored {
    if let Some(raw) = current {
        let unusable = |why: String| Restored::Unusable {
            raw: raw.to_string(),
            why,
        };
        let value: serde_json::Value = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => return unusable(format!("it is not valid JSON ({e})")),
        };
        let format = value.get("format").and_then(serde_json::Value::as_u64);
        match format {
            Some(FORMAT) => {}
            Some(f) if f > FORMAT => {
                return unusable(format!(
                    "it was saved by a newer tfgraph (format {f}; this one reads format {FORMAT})"
                ));
            }
            _ => return unusable("it has no format number tfgraph knows".into()),
        }
        return match serde_json::from_value::<Saved>(value) {
            Ok(s) => match check_files(&s.files) {
                Ok(()) => Restored::Files(s.files),
                Err(why) => unusable(why),
            },
            Err(e) => unusable(format!("its files are not a map of names to texts ({e})")),
        };
    }
    if let Some(raw) = v1_files {
        return match serde_json::from_str::<BTreeMap<String, String>>(raw) {
            Ok(files) if !files.is_empty() && check_files(&files).is_ok() => Restored::Converted {
                files,
                old: raw.to_string(),
            },
            _ => Restored::Unusable {
                raw: raw.to_string(),
                why: "it was saved by an earlier tfgraph and cannot be read".into(),
            },
        };
    }
    if let Some(main) = v1_main {
        return Restored::Converted {
            files: BTreeMap::from([("main.tf".to_string(), main.to_string())]),
            old: main.to_string(),
        };
    }
    Restored::Nothing
}

/// The JSON saved under [`KEY`] for these files.
pub fn envelope(files: &BTreeMap<String, String>) -> String {
    let saved = Saved {
        format: FORMAT,
        files: files.clone(),
    };
    serde_json::to_string(&saved).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn saved_files_come_back() {
        let f = files(&[("main.tf", "a"), ("modules/x/main.tf", "b")]);
        assert_eq!(
            classify(Some(&envelope(&f)), None, None),
            Restored::Files(f)
        );
        assert_eq!(classify(None, None, None), Restored::Nothing);
    }

    #[test]
    fn unusable_data_says_why() {
        let why = |raw: &str| match classify(Some(raw), None, None) {
            Restored::Unusable { raw: r, why } => {
                assert_eq!(r, raw);
                why
            }
            other => panic!("{raw}: {other:?}"),
        };
        assert!(why("{not json").contains("not valid JSON"));
        assert!(why(r#"{"format":3,"files":{}}"#).contains("newer tfgraph (format 3"));
        assert!(why(r#"{"files":{}}"#).contains("no format number"));
        assert!(why(r#"{"format":2,"files":{"a":1}}"#).contains("not a map"));
        assert!(why(r#"{"format":2,"files":{"../x.tf":""}}"#).contains("../x.tf"));
    }

    #[test]
    fn format_1_is_converted() {
        let f = files(&[("main.tf", "x")]);
        let raw = serde_json::to_string(&f).unwrap();
        assert_eq!(
            classify(None, Some(&raw), Some("x")),
            Restored::Converted {
                files: f.clone(),
                old: raw
            }
        );
        assert_eq!(
            classify(None, None, Some("x")),
            Restored::Converted {
                files: f,
                old: "x".into()
            }
        );
        assert!(matches!(
            classify(None, Some("[1]"), None),
            Restored::Unusable { .. }
        ));
    }

    #[test]
    fn the_current_key_wins_over_format_1() {
        let f = files(&[("main.tf", "new")]);
        assert_eq!(
            classify(Some(&envelope(&f)), Some("{}"), Some("old")),
            Restored::Files(f)
        );
    }
}

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

/// Read with the files owned; [`envelope_at`] writes it borrowing them (`F = &BTreeMap`), so a
/// 2 MB workspace is not copied to be saved.
#[derive(Serialize, Deserialize)]
struct Saved<F = BTreeMap<String, String>> {
    format: u64,
    /// How many saves the workspace has had: each tab remembers the revision it started from
    /// and saves only over that one ([`decide_save`]). Absent in saves of earlier versions (0).
    /// Written before the files, so [`revision`] reads it without parsing them.
    #[serde(default, skip_serializing_if = "is_zero")]
    rev: u64,
    files: F,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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

/// The JSON saved under [`KEY`] for these files (revision 0: a download, a kept copy).
pub fn envelope(files: &BTreeMap<String, String>) -> String {
    envelope_at(files, 0)
}

/// The JSON saved under [`KEY`] for these files as revision `rev`.
pub fn envelope_at(files: &BTreeMap<String, String>, rev: u64) -> String {
    let saved = Saved {
        format: FORMAT,
        rev,
        files,
    };
    serde_json::to_string(&saved).unwrap_or_default()
}

/// The revision of what is stored under [`KEY`] (0 for nothing, an earlier version's save, or
/// data that cannot be read).
pub fn revision(stored: Option<&str>) -> u64 {
    let Some(raw) = stored else { return 0 };
    // What `envelope_at` writes starts `{"format":2,"rev":N,`: read N without parsing the files
    // (this runs at every autosave); anything else is parsed whole.
    let prefix = format!("{{\"format\":{FORMAT},\"rev\":");
    if let Some(rest) = raw.strip_prefix(&prefix) {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if rest[digits.len()..].starts_with(',') {
            return digits.parse().unwrap_or(0);
        }
    }
    serde_json::from_str::<serde_json::Value>(raw)
        .ok()
        .and_then(|v| v.get("rev").and_then(serde_json::Value::as_u64))
        .unwrap_or(0)
}

/// What a tab that started from revision `base` may do when it saves over `stored`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveDecision {
    /// Nobody saved since: write as this revision (and remember it as the new base).
    Write { rev: u64 },
    /// Another tab saved revision `theirs` since: writing would lose its work.
    Conflict { theirs: u64 },
}

/// Several tabs share one saved workspace; the last to save must not silently overwrite the
/// others' work. A tab saves only over the revision it started from or saved last.
pub fn decide_save(stored: Option<&str>, base: u64) -> SaveDecision {
    let theirs = revision(stored);
    if theirs == base {
        SaveDecision::Write { rev: base + 1 }
    } else {
        SaveDecision::Conflict { theirs }
    }
}

/// Where the files a replacement took the place of are kept: loading an example, opening files
/// or a folder, a share link, deleting a file, restoring. Newest first, at most [`MAX_BACKUPS`].
pub const BACKUP_KEY: &str = "tfgraph.backup";
/// How many replaced workspaces are kept.
pub const MAX_BACKUPS: usize = 5;

/// One kept workspace and what replaced it ("before loading the example Count").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Backup {
    pub why: String,
    pub files: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize)]
struct Backups {
    format: u64,
    backups: Vec<Backup>,
}

/// The kept workspaces stored under [`BACKUP_KEY`], newest first. Reads the earlier single-copy
/// form (one saved-files envelope) as one backup; anything unreadable as none.
pub fn read_backups(raw: Option<&str>) -> Vec<Backup> {
    let Some(raw) = raw else {
        return Vec::new();
    };
    if let Ok(b) = serde_json::from_str::<Backups>(raw)
        && b.format == FORMAT
    {
        return b
            .backups
            .into_iter()
            .filter(|b| check_files(&b.files).is_ok())
            .take(MAX_BACKUPS)
            .collect();
    }
    match classify(Some(raw), None, None) {
        Restored::Files(files) => vec![Backup {
            why: "before an earlier replacement".to_string(),
            files,
        }],
        _ => Vec::new(),
    }
}

fn write_backups(backups: Vec<Backup>) -> String {
    serde_json::to_string(&Backups {
        format: FORMAT,
        backups,
    })
    .unwrap_or_default()
}

/// [`push_backup`], except that when the newest kept copy was kept for the same reason `why`,
/// it is updated instead of a new one added: a tab whose saves another tab overtook keeps one
/// copy aside that follows its edits, and older copies are not pushed out.
pub fn replace_newest_backup(
    raw: Option<&str>,
    why: &str,
    files: &BTreeMap<String, String>,
) -> String {
    let mut all = read_backups(raw);
    match all.first_mut() {
        Some(b) if b.why == why => {
            b.files = files.clone();
            write_backups(all)
        }
        _ => push_backup(raw, why, files),
    }
}

/// What to store under [`BACKUP_KEY`] after keeping `files` aside: they become the newest; the
/// same files kept twice in a row are kept once; beyond [`MAX_BACKUPS`] the oldest goes.
pub fn push_backup(raw: Option<&str>, why: &str, files: &BTreeMap<String, String>) -> String {
    let mut all = read_backups(raw);
    if all.first().is_some_and(|b| &b.files == files) {
        all.remove(0);
    }
    all.insert(
        0,
        Backup {
            why: why.to_string(),
            files: files.clone(),
        },
    );
    all.truncate(MAX_BACKUPS);
    write_backups(all)
}

/// The newest kept workspace, and what to store once it is taken out.
pub fn pop_backup(raw: Option<&str>) -> (Option<Backup>, String) {
    let mut all = read_backups(raw);
    let newest = (!all.is_empty()).then(|| all.remove(0));
    (newest, write_backups(all))
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

    // Issue 17: every replacement keeps the old work; a second replacement must not push the
    // first one's kept copy out.
    #[test]
    fn replaced_workspaces_are_kept_newest_first_and_bounded() {
        let a = files(&[("main.tf", "a")]);
        let b = files(&[("main.tf", "b")]);
        let raw = push_backup(None, "before loading the example Count", &a);
        let raw = push_backup(Some(&raw), "before opening 3 files", &b);
        let kept = read_backups(Some(&raw));
        assert_eq!(kept.len(), 2);
        assert_eq!(
            (kept[0].files.clone(), kept[1].files.clone()),
            (b.clone(), a.clone())
        );
        assert_eq!(kept[1].why, "before loading the example Count");
        // The same files twice in a row are kept once, with the newer reason.
        let raw = push_backup(Some(&raw), "before deleting x.tf", &b);
        assert_eq!(read_backups(Some(&raw)).len(), 2);
        assert_eq!(read_backups(Some(&raw))[0].why, "before deleting x.tf");
        // Taking the newest out leaves the older.
        let (newest, rest) = pop_backup(Some(&raw));
        assert_eq!(newest.map(|b| b.files), Some(b));
        assert_eq!(read_backups(Some(&rest))[0].files, a);
        let (none, _) = pop_backup(Some(&pop_backup(Some(&rest)).1));
        assert_eq!(none, None);
        // At most MAX_BACKUPS, the oldest dropped.
        let mut raw = String::new();
        for i in 0..MAX_BACKUPS + 2 {
            raw = push_backup(Some(&raw), "x", &files(&[("main.tf", &i.to_string())]));
        }
        let kept = read_backups(Some(&raw));
        assert_eq!(kept.len(), MAX_BACKUPS);
        assert_eq!(kept[0].files["main.tf"], (MAX_BACKUPS + 1).to_string());
    }

    #[test]
    fn the_earlier_single_backup_is_read_and_garbage_is_none() {
        let a = files(&[("main.tf", "a")]);
        let old = envelope(&a);
        assert_eq!(read_backups(Some(&old))[0].files, a);
        assert!(read_backups(Some("{not json")).is_empty());
        assert!(read_backups(None).is_empty());
        let bad = r#"{"format":2,"backups":[{"why":"x","files":{"../etc":"a"}}]}"#;
        assert!(read_backups(Some(bad)).is_empty());
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

    #[test]
    fn a_tab_saves_only_over_the_revision_it_started_from() {
        let files = BTreeMap::from([("main.tf".to_string(), "a".to_string())]);
        // Nothing stored, or an earlier version's save without a revision: revision 0.
        assert_eq!(decide_save(None, 0), SaveDecision::Write { rev: 1 });
        assert_eq!(
            decide_save(Some(&envelope(&files)), 0),
            SaveDecision::Write { rev: 1 }
        );
        let one = envelope_at(&files, 1);
        assert_eq!(revision(Some(&one)), 1);
        // The tab that wrote revision 1 goes on; a tab that started from 0 does not.
        assert_eq!(decide_save(Some(&one), 1), SaveDecision::Write { rev: 2 });
        assert_eq!(
            decide_save(Some(&one), 0),
            SaveDecision::Conflict { theirs: 1 }
        );
        // The revision does not change what is restored, and a download carries none.
        assert_eq!(
            classify(Some(&one), None, None),
            Restored::Files(files.clone())
        );
        assert!(!envelope(&files).contains("rev"));
        assert_eq!(revision(Some("not json")), 0);
        // Read from the front as written, and from any JSON that has it.
        assert!(envelope_at(&files, 42).starts_with("{\"format\":2,\"rev\":42,"));
        assert_eq!(revision(Some(&envelope_at(&files, 42))), 42);
        assert_eq!(revision(Some(r#"{"files":{},"rev":7,"format":2}"#)), 7);
    }

    #[test]
    fn a_conflict_copy_follows_the_edits_without_pushing_out_older_copies() {
        let f = |t: &str| BTreeMap::from([("main.tf".to_string(), t.to_string())]);
        let raw = push_backup(None, "before loading the example X", &f("older"));
        let raw = replace_newest_backup(Some(&raw), "conflict", &f("o"));
        let raw = replace_newest_backup(Some(&raw), "conflict", &f("ou"));
        let raw = replace_newest_backup(Some(&raw), "conflict", &f("out"));
        let all = read_backups(Some(&raw));
        assert_eq!(all.len(), 2);
        assert_eq!(
            (all[0].why.as_str(), &all[0].files),
            ("conflict", &f("out"))
        );
        assert_eq!(all[1].files, f("older"));
    }
}

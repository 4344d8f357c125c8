//! The editor's files by role, and what to do with files that come in: each file is
//! configuration, variable values, the module manifest, a state, a plan (`terraform show -json`),
//! a changes list, provider schemas, a DOT graph, or unknown ([`classify`]); [`wanted`] decides
//! which files of an opened or dropped folder are read at all (a whole repository after
//! `tofu init`: `.terraform/providers` and everything else tfgraph does not use is skipped
//! unread); [`intake`] decides whether opened files replace the set or join it and what the
//! user is told; [`root_candidates`] lists the folders that can be the root module.

use crate::config::file_names::{is_config_file_name, relative_to};
use std::collections::{BTreeMap, BTreeSet};

/// The most files taken from one open or drop (files that are skipped unread do not count), as
/// many as autosave keeps.
pub const MAX_FILES: usize = crate::saved::MAX_FILES;

/// What a file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Config,
    /// Root variable values (`.tfvars`, `.tfvars.json`); see [`auto_var_file`].
    Vars,
    /// `.terraform/modules/modules.json`, written by `tofu init`.
    Manifest,
    State,
    Plan,
    Changes,
    Schemas,
    Dot,
    Unknown,
}

impl Role {
    /// Words for people.
    pub fn label(self) -> &'static str {
        match self {
            Role::Config => "configuration",
            Role::Vars => "variable values",
            Role::Manifest => "module manifest",
            Role::State => "state",
            Role::Plan => "plan",
            Role::Changes => "planned changes",
            Role::Schemas => "provider schemas",
            Role::Dot => "DOT graph",
            Role::Unknown => "unknown",
        }
    }
}

/// The file name of a path (its last segment).
fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Configuration by name, as OpenTofu picks a folder's files (`.tf`, `.tf.json`, `.tofu`,
/// `.tofu.json`, not hidden), whatever the case of the extension.
pub fn is_config_path(path: &str) -> bool {
    is_config_file_name(&base_name(path).to_ascii_lowercase())
}

/// A variables file by name (`.tfvars`, `.tfvars.json`), as `-var-file` takes them.
fn is_vars_path(path: &str) -> bool {
    crate::config::vars::is_var_file_name(&base_name(path).to_ascii_lowercase())
}

/// The module manifest of a working directory: `.terraform/modules/modules.json` at the top or
/// in a folder (the working directory of another root module).
pub fn is_manifest_path(path: &str) -> bool {
    let m = crate::config::manifest::MANIFEST_PATH;
    path == m || path.ends_with(&format!("/{m}"))
}

/// Whether the file lies inside a `.terraform` folder (installed modules, the manifest).
pub fn is_installed_path(path: &str) -> bool {
    path.split('/').any(|s| s == ".terraform")
}

/// Classifies a file by its name and, for JSON and extensionless text, its content.
pub fn classify(name: &str, text: &str) -> Role {
    let lower = name.to_ascii_lowercase();
    if is_config_path(name) {
        return Role::Config;
    }
    if is_manifest_path(name) {
        return Role::Manifest;
    }
    if is_vars_path(name) {
        return Role::Vars;
    }
    if lower.ends_with(".tfstate") || lower.ends_with(".tfstate.backup") {
        return Role::State;
    }
    if lower.ends_with(".dot") || lower.ends_with(".gv") {
        return Role::Dot;
    }
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with("digraph") || t.starts_with("strict digraph") {
        return Role::Dot;
    }
    json_role(t).unwrap_or(Role::Unknown)
}

/// The role of a JSON document by its top-level keys, read without building the whole value.
fn json_role(t: &str) -> Option<Role> {
    use serde::de::IgnoredAny;
    if t.starts_with('[') {
        // The conformance corpus' changes list: objects with "addr" and "action".
        let list: Vec<BTreeMap<String, IgnoredAny>> = serde_json::from_str(t).ok()?;
        return list
            .first()
            .filter(|o| o.contains_key("addr") && o.contains_key("action"))
            .map(|_| Role::Changes);
    }
    if !t.starts_with('{') {
        return None;
    }
    let keys: BTreeMap<String, IgnoredAny> = serde_json::from_str(t).ok()?;
    if keys.contains_key("provider_schemas") {
        Some(Role::Schemas)
    } else if keys.contains_key("resource_changes") || keys.contains_key("planned_values") {
        Some(Role::Plan)
    } else if keys.contains_key("version") && keys.contains_key("resources") {
        Some(Role::State)
    } else {
        None
    }
}

/// Whether a file of an opened or dropped folder is read, decided by its path (relative to
/// that folder) alone, before reading it: configuration, variables files, states, JSON (a plan,
/// a changes list or provider schemas, known once read) and DOT files. Inside a `.terraform`
/// folder only the module manifest and the configuration files of installed modules
/// (`.terraform/modules/…`) are read: provider binaries (`.terraform/providers`), the backend's
/// state cache and the rest are skipped, as are [`skipped_dir`]s and every other file.
pub fn wanted(path: &str) -> bool {
    let segs: Vec<&str> = path.split('/').collect();
    let Some((base, dirs)) = segs.split_last() else {
        return false;
    };
    if dirs.iter().any(|d| skipped_dir(d)) {
        return false;
    }
    if let Some(i) = dirs.iter().position(|d| *d == ".terraform") {
        let rest = &segs[i + 1..];
        return rest == ["modules", "modules.json"]
            || (rest.len() > 2 && rest[0] == "modules" && is_config_path(base));
    }
    let lower = base.to_ascii_lowercase();
    is_config_path(base)
        || is_vars_path(base)
        || [".tfstate", ".tfstate.backup", ".json", ".dot", ".gv"]
            .iter()
            .any(|e| lower.ends_with(e))
}

/// Whether a variables file at `path` gives root variable values when the root module is the
/// folder `root` (both relative to the opened folder): OpenTofu reads `terraform.tfvars`,
/// `terraform.tfvars.json` and `*.auto.tfvars(.json)` in the root module's folder by itself
/// (`addVarsFromDir`, [`crate::config::vars::auto_var_files`]); any other only with `-var-file`.
pub fn auto_var_file(path: &str, root: &str) -> bool {
    let rel = relative_to(root, path);
    !rel.contains('/') && !crate::config::vars::auto_var_files([rel.as_str()]).is_empty()
}

/// The folders that can be the root module: those holding configuration files, outside
/// `.terraform` (installed modules are not roots), in name order with the top folder (`""`)
/// first.
pub fn root_candidates<'a>(paths: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let set: BTreeSet<String> = paths
        .into_iter()
        .filter(|p| is_config_path(p) && !is_installed_path(p))
        .map(|p| {
            p.rsplit_once('/')
                .map_or(String::new(), |(d, _)| d.to_string())
        })
        .collect();
    set.into_iter().collect()
}

/// The root module a new set of files starts with: the top folder if it holds configuration,
/// else the first folder that does (else the top folder).
pub fn default_root<'a>(paths: impl IntoIterator<Item = &'a String>) -> String {
    let c = root_candidates(paths);
    if c.first().is_some_and(|r| r.is_empty()) {
        return String::new();
    }
    c.into_iter().next().unwrap_or_default()
}

/// The root folder as people read it: `.` for the top folder.
pub fn root_label(root: &str) -> &str {
    if root.is_empty() { "." } else { root }
}

/// The path a file keeps: relative to the folder that was opened or dropped (its first segment is
/// that folder's own name when `in_folder`), with `/` separators. `None` for a path that cannot be
/// a relative file path.
pub fn relative_path(raw: &str, in_folder: bool) -> Option<String> {
    let raw = raw.trim_start_matches('/').replace('\\', "/");
    let rel = if in_folder {
        raw.split_once('/').map_or(raw.as_str(), |(_, rest)| rest)
    } else {
        raw.as_str()
    };
    crate::share::check_path(rel).ok().map(|_| rel.to_string())
}

/// Folders never walked into in a dropped or opened tree: version control data and other tools'
/// caches (`.terraform` is walked: its manifest and installed modules are read, see [`wanted`]).
pub fn skipped_dir(name: &str) -> bool {
    matches!(name, ".git" | "node_modules" | ".terragrunt-cache")
}
/// Whether the files hold planned changes (a plan JSON or a changes list): then the graph shown
/// Whether replacing `files` would lose work: false for no files, files that are all blank, or
/// exactly one of the examples (those come back from the gallery).
pub fn worth_keeping(files: &BTreeMap<String, String>) -> bool {
    if files.values().all(|t| t.trim().is_empty()) {
        return false;
    }
    !crate::page::examples::EXAMPLES
        .iter()
        .any(|e| &crate::page::examples::files_of(e) == files)
}

/// is the apply graph, as `tofu graph` shows it.
pub fn has_plan(files: &BTreeMap<String, String>) -> bool {
    files
        .iter()
        .any(|(n, t)| matches!(classify(n, t), Role::Plan | Role::Changes))
}

/// The file a new set opens at: `main.tf` of the root module folder `root`, else its first
/// configuration file, else the first configuration file, else the first file.
pub fn first_file(files: &BTreeMap<String, String>, root: &str) -> Option<String> {
    let main = if root.is_empty() {
        "main.tf".to_string()
    } else {
        format!("{root}/main.tf")
    };
    if files.contains_key(&main) {
        return Some(main);
    }
    let in_root = |n: &String| n.rsplit_once('/').map_or("", |(d, _)| d) == root;
    files
        .keys()
        .find(|n| is_config_path(n) && in_root(n))
        .or_else(|| {
            files
                .iter()
                .find(|(n, t)| classify(n, t) == Role::Config)
                .map(|(n, _)| n)
        })
        .or_else(|| files.keys().next())
        .cloned()
}

/// Addresses typed one per line or separated by commas (the `-target` and `-exclude` fields).
pub fn address_list(text: &str) -> Vec<String> {
    text.split([',', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// One file taken in: its path and its text, or why it could not be read.
pub type Read = (String, Result<String, String>);

/// What opening or dropping files comes to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Intake {
    /// The files that can be used, by path.
    pub opened: BTreeMap<String, String>,
    /// Messages for the user, each with whether it reports an error.
    pub notices: Vec<(bool, String)>,
    /// Configuration files or a DOT graph start a new set of files (the old one is kept aside);
    /// a state, plan, schemas or variables file alone joins the current files ([`add_in_place`]).
    pub replaces: bool,
    /// What was opened, for the closing notice: "2 configuration files, a state (t.tfstate)".
    pub summary: String,
    pub has_dot: bool,
    /// Files of an opened folder that were not read because tfgraph does not use them
    /// ([`wanted`]): how many, and their size in bytes.
    pub unread: (usize, u64),
}

/// Sorts files read from the Open buttons or a drop (see [`Intake`]); `skipped` names files that
/// could not be taken (too large, a bad path); `unread` lists the files of a folder that were
/// left unread because [`wanted`] said so, with their sizes.
pub fn intake(read: Vec<Read>, skipped: Vec<String>, unread: &[(String, u64)]) -> Intake {
    let mut out = Intake::default();
    let mut unknown = Vec::new();
    for (path, text) in read {
        match text {
            Err(e) => out
                .notices
                .push((true, format!("Could not read {path}: {e}."))),
            Ok(text) => {
                if classify(&path, &text) == Role::Unknown {
                    unknown.push(path);
                } else {
                    out.opened.insert(path, text);
                }
            }
        }
    }
    if !skipped.is_empty() {
        out.notices
            .push((true, format!("Skipped {}.", skipped.join("; "))));
    }
    if !unread.is_empty() {
        let bytes: u64 = unread.iter().map(|(_, n)| n).sum();
        out.unread = (unread.len(), bytes);
        out.notices.push((
            false,
            format!(
                "Skipped {} without reading {} ({}), as tfgraph does not use {}: {}.",
                plural(unread.len(), "file"),
                if unread.len() == 1 { "it" } else { "them" },
                size_text(bytes),
                if unread.len() == 1 { "it" } else { "them" },
                some_of(unread.iter().map(|(p, _)| p.as_str()))
            ),
        ));
    }
    if !unknown.is_empty() {
        out.notices.push((
            unknown.len() == 1 && out.opened.is_empty(),
            format!(
                "Not opened (not configuration, variable values, a state, a plan, provider schemas or a DOT graph): {}.",
                some_of(unknown.iter().map(String::as_str))
            ),
        ));
    }
    let roles: BTreeMap<&String, Role> = out
        .opened
        .iter()
        .map(|(p, t)| (p, classify(p, t)))
        .collect();
    out.replaces = roles
        .values()
        .any(|r| matches!(r, Role::Config | Role::Dot));
    out.has_dot = roles.values().any(|r| *r == Role::Dot);
    out.summary = summarize(&roles);
    out
}

/// "3 files", "1 file".
fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A size in bytes as people read it: "812 bytes", "4.2 KB", "96.0 MB".
pub fn size_text(bytes: u64) -> String {
    if bytes < 1000 {
        format!("{bytes} byte{}", if bytes == 1 { "" } else { "s" })
    } else if bytes < 1_000_000 {
        format!("{:.1} KB", bytes as f64 / 1e3)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

/// The first eight of `items`, then "and N more".
fn some_of<'a>(items: impl ExactSizeIterator<Item = &'a str>) -> String {
    let n = items.len();
    let shown: Vec<&str> = items.take(8).collect();
    let more = n.saturating_sub(shown.len());
    format!(
        "{}{}",
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// Adds `opened` to `files`, each in place of the file of the same role it had (a state, a
/// plan, schemas); variables files and configuration are added beside the others.
pub fn add_in_place(files: &mut BTreeMap<String, String>, opened: &BTreeMap<String, String>) {
    for (path, text) in opened {
        let role = classify(path, text);
        if !matches!(role, Role::Config | Role::Vars) {
            files.retain(|p, t| p == path || classify(p, t) != role);
        }
        files.insert(path.clone(), text.clone());
    }
}

/// "2 configuration files (1 of an installed module), variable values (terraform.tfvars)".
fn summarize(roles: &BTreeMap<&String, Role>) -> String {
    let mut by_role: BTreeMap<Role, Vec<&str>> = BTreeMap::new();
    for (p, r) in roles {
        by_role.entry(*r).or_default().push(p.as_str());
    }
    by_role
        .into_iter()
        .map(|(r, paths)| {
            if r == Role::Config {
                let installed = paths.iter().filter(|p| is_installed_path(p)).count();
                format!(
                    "{}{}",
                    plural(paths.len(), "configuration file"),
                    if installed > 0 {
                        format!(" ({installed} of installed modules)")
                    } else {
                        String::new()
                    }
                )
            } else {
                format!("{} ({})", r.label(), some_of(paths.into_iter()))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Workspaces up to this size are saved at every edit; larger ones [`SAVE_DELAY_MS`] after the
/// last edit (and at once when the page is hidden or left). A save writes the whole workspace,
/// so with `tfgraph gen --resources 10000` (2.1 MB) each keystroke cost the page about 400 ms of
/// reading, serialising and writing it.
pub const SAVE_AT_ONCE_BYTES: usize = 256 * 1024;

/// How long after the last edit a large workspace is saved.
pub const SAVE_DELAY_MS: u64 = 1_000;

/// When to save `files` after an edit: at once (`None`) or after how many milliseconds.
pub fn save_delay(files: &BTreeMap<String, String>) -> Option<u64> {
    let size: usize = files.iter().map(|(p, t)| p.len() + t.len()).sum();
    (size > SAVE_AT_ONCE_BYTES).then_some(SAVE_DELAY_MS)
}

#[cfg(test)]
mod tests {
    #[test]
    fn small_workspaces_are_saved_at_once_large_ones_after_a_pause() {
        use super::*;
        let mut f = BTreeMap::from([("main.tf".to_string(), "x".repeat(1000))]);
        assert_eq!(save_delay(&f), None);
        f.insert("big.tf".into(), "y".repeat(SAVE_AT_ONCE_BYTES));
        assert_eq!(save_delay(&f), Some(SAVE_DELAY_MS));
    }

    use super::*;

    // Issue 17: loading an example over an untouched example keeps nothing aside (there is no
    // work to lose), so the kept copies are the user's own.
    #[test]
    fn blank_files_and_untouched_examples_are_not_worth_keeping() {
        let ex = &crate::page::examples::EXAMPLES[0];
        let mut f = crate::page::examples::files_of(ex);
        assert!(!worth_keeping(&f));
        f.values_mut().next().unwrap().push_str("\n# mine\n");
        assert!(worth_keeping(&f));
        assert!(!worth_keeping(&BTreeMap::new()));
        let blank = BTreeMap::from([("main.tf".to_string(), "  \n".to_string())]);
        assert!(!worth_keeping(&blank));
    }

    #[test]
    fn files_are_classified_by_name_then_content() {
        assert_eq!(classify("main.tf", ""), Role::Config);
        assert_eq!(classify("x.TF.JSON", "{}"), Role::Config);
        assert_eq!(classify("terraform.tfstate", ""), Role::State);
        assert_eq!(classify("g.gv", ""), Role::Dot);
        assert_eq!(classify("graph.txt", "\u{feff} digraph {}"), Role::Dot);
        assert_eq!(
            classify("s.json", r#"{"version": 4, "resources": []}"#),
            Role::State
        );
        assert_eq!(
            classify("p.json", r#"{"resource_changes": []}"#),
            Role::Plan
        );
        assert_eq!(
            classify("c.json", r#"[{"addr": "a.b", "action": "create"}]"#),
            Role::Changes
        );
        assert_eq!(
            classify("s.json", r#"{"provider_schemas": {}}"#),
            Role::Schemas
        );
        assert_eq!(classify("notes.md", "# hi"), Role::Unknown);
        assert_eq!(classify("x.json", "{\"a\": 1}"), Role::Unknown);
        assert_eq!(
            classify(
                "plan.json",
                "{\"format_version\":\"1.2\",\"resource_changes\":[]}"
            ),
            Role::Plan
        );
    }

    #[test]
    fn paths_are_relative_to_the_opened_folder() {
        assert_eq!(
            relative_path("repo/modules/net/main.tf", true).as_deref(),
            Some("modules/net/main.tf")
        );
        assert_eq!(relative_path("main.tf", false).as_deref(), Some("main.tf"));
        assert_eq!(relative_path("a\\b.tf", false).as_deref(), Some("a/b.tf"));
        assert_eq!(relative_path("../x.tf", false), None);
        assert_eq!(
            relative_path("/net/main.tf", true).as_deref(),
            Some("main.tf")
        );
        assert_eq!(relative_path("net/../x.tf", true), None);
    }

    #[test]
    fn configuration_replaces_the_set_and_a_state_joins_it() {
        let read = |files: &[(&str, &str)]| {
            files
                .iter()
                .map(|(p, t)| (p.to_string(), Ok(t.to_string())))
                .collect::<Vec<Read>>()
        };
        let i = intake(read(&[("main.tf", ""), ("notes.md", "x")]), vec![], &[]);
        assert!(i.replaces && !i.has_dot);
        assert_eq!(i.summary, "1 configuration file");
        assert_eq!(i.notices.len(), 1, "{:?}", i.notices);
        assert!(
            !i.notices[0].0,
            "an unknown file beside a good one is not an error"
        );
        let state = r#"{"version": 4, "resources": []}"#;
        let i = intake(
            read(&[("b.tfstate", state)]),
            vec!["big.tf: too large".into()],
            &[],
        );
        assert!(!i.replaces);
        assert_eq!(i.summary, "state (b.tfstate)");
        assert_eq!(
            i.notices,
            [(true, "Skipped big.tf: too large.".to_string())]
        );
        let mut files = BTreeMap::from([
            ("main.tf".to_string(), String::new()),
            ("a.tfstate".to_string(), state.to_string()),
        ]);
        add_in_place(&mut files, &i.opened);
        assert_eq!(files.keys().collect::<Vec<_>>(), ["b.tfstate", "main.tf"]);
        let i = intake(
            vec![("x.tf".into(), Err("it is not text".into()))],
            vec![],
            &[],
        );
        assert!(i.opened.is_empty());
        assert_eq!(
            i.notices,
            [(true, "Could not read x.tf: it is not text.".to_string())]
        );
    }

    #[test]
    fn variable_files_and_the_manifest_have_roles_of_their_own() {
        assert_eq!(classify("terraform.tfvars", "a = 1"), Role::Vars);
        assert_eq!(classify("envs/prod.auto.tfvars.json", "{}"), Role::Vars);
        assert_eq!(
            classify(".terraform/modules/modules.json", "{\"Modules\": []}"),
            Role::Manifest
        );
        assert_eq!(
            classify("envs/dev/.terraform/modules/modules.json", "{}"),
            Role::Manifest
        );
        assert_eq!(classify("modules.json", "{}"), Role::Unknown);
        // .tofu files are configuration, as OpenTofu reads them; hidden files are not.
        assert_eq!(classify("main.tofu", ""), Role::Config);
        assert_eq!(classify("x.tofu.json", "{}"), Role::Config);
        assert_eq!(classify("net/.hidden.tf", ""), Role::Unknown);
        assert_eq!(Role::Vars.label(), "variable values");
    }

    #[test]
    fn only_files_tfgraph_uses_are_read_from_a_folder() {
        for used in [
            "main.tf",
            "modules/net/main.tofu",
            "terraform.tfvars",
            "envs/prod.tfvars.json",
            "terraform.tfstate",
            "plan.json",
            "graph.dot",
            ".terraform/modules/modules.json",
            ".terraform/modules/vpc/main.tf",
            ".terraform/modules/vpc/modules/vpc-endpoints/main.tf",
            "envs/dev/.terraform/modules/modules.json",
        ] {
            assert!(wanted(used), "{used} is read");
        }
        for unused in [
            ".terraform/providers/registry.opentofu.org/hashicorp/aws/5.0.0/linux_amd64/terraform-provider-aws_v5.0.0_x5",
            ".terraform/terraform.tfstate",
            ".terraform/environment",
            ".terraform/modules/vpc/README.md",
            ".terraform/modules/vpc/LICENSE",
            ".terraform.lock.hcl",
            "README.md",
            "LICENSE",
            "docs/diagram.png",
            ".git/config",
            ".git/objects/ab/cdef.json",
            "node_modules/x/package.json",
        ] {
            assert!(!wanted(unused), "{unused} is skipped");
        }
        assert!(!skipped_dir(".terraform"), "its modules are read");
        assert!(skipped_dir(".git"));
    }

    #[test]
    fn skipped_files_are_counted_with_their_size_and_named() {
        let i = intake(
            vec![("main.tf".into(), Ok(String::new()))],
            vec![],
            &[
                (
                    ".terraform/providers/p/terraform-provider-aws".into(),
                    2_500_000,
                ),
                ("LICENSE".into(), 11_357),
            ],
        );
        assert_eq!(i.unread, (2, 2_511_357));
        assert_eq!(i.notices.len(), 1, "{:?}", i.notices);
        assert!(!i.notices[0].0, "skipping what is not used is no error");
        assert!(
            i.notices[0].1.starts_with(
                "Skipped 2 files without reading them (2.5 MB), as tfgraph does not use them: "
            ),
            "{}",
            i.notices[0].1
        );
        assert!(i.notices[0].1.ends_with("terraform-provider-aws, LICENSE."));
        assert_eq!(size_text(999), "999 bytes");
        assert_eq!(size_text(4_200), "4.2 KB");
    }

    #[test]
    fn variable_files_join_the_set_and_are_summarised_by_role() {
        let read = vec![
            ("terraform.tfvars".to_string(), Ok("n = 2".to_string())),
            ("b.auto.tfvars".to_string(), Ok("m = 1".to_string())),
        ];
        let i = intake(read, vec![], &[]);
        assert!(!i.replaces);
        assert_eq!(
            i.summary,
            "variable values (b.auto.tfvars, terraform.tfvars)"
        );
        let mut files = BTreeMap::from([
            ("main.tf".to_string(), String::new()),
            ("x.auto.tfvars".to_string(), String::new()),
        ]);
        add_in_place(&mut files, &i.opened);
        assert_eq!(
            files.len(),
            4,
            "variables files are added beside the others"
        );
        let i = intake(
            vec![
                ("main.tf".into(), Ok(String::new())),
                (".terraform/modules/vpc/main.tf".into(), Ok(String::new())),
                (".terraform/modules/modules.json".into(), Ok("{}".into())),
            ],
            vec![],
            &[],
        );
        assert_eq!(
            i.summary,
            "2 configuration files (1 of installed modules), module manifest (.terraform/modules/modules.json)"
        );
    }

    #[test]
    fn automatic_variable_files_are_those_in_the_root_folder() {
        assert!(auto_var_file("terraform.tfvars", ""));
        assert!(auto_var_file("a.auto.tfvars.json", ""));
        assert!(!auto_var_file("prod.tfvars", ""));
        assert!(!auto_var_file("envs/terraform.tfvars", ""));
        assert!(auto_var_file("envs/prod/terraform.tfvars", "envs/prod"));
        assert!(!auto_var_file("terraform.tfvars", "envs/prod"));
    }

    #[test]
    fn root_candidates_are_the_folders_with_configuration() {
        let paths: Vec<String> = [
            "README.md",
            "main.tf",
            "examples/complete/main.tf",
            "examples/complete/outputs.tf",
            "examples/simple/main.tofu",
            "modules/net/variables.tf",
            ".terraform/modules/vpc/main.tf",
            "terraform.tfvars",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            root_candidates(&paths),
            ["", "examples/complete", "examples/simple", "modules/net"]
        );
        assert_eq!(default_root(&paths), "");
        let no_top: Vec<String> = ["README.md", "envs/prod/main.tf", "envs/dev/main.tf"]
            .map(String::from)
            .into();
        assert_eq!(default_root(&no_top), "envs/dev");
        assert_eq!(default_root(&Vec::<String>::new()), "");
        assert_eq!(root_label(""), ".");
        assert_eq!(root_label("envs/dev"), "envs/dev");
    }

    #[test]
    fn addresses_split_on_commas_and_lines() {
        assert_eq!(
            address_list(" a.b, module.m\n\nc.d ,"),
            ["a.b", "module.m", "c.d"]
        );
    }

    #[test]
    fn a_new_set_opens_at_main_tf_or_its_first_configuration_file() {
        let f = |names: &[&str]| -> BTreeMap<String, String> {
            names
                .iter()
                .map(|n| (n.to_string(), String::new()))
                .collect()
        };
        assert_eq!(
            first_file(&f(&["a.tf", "main.tf"]), "").as_deref(),
            Some("main.tf")
        );
        assert_eq!(
            first_file(&f(&["a.tfstate", "b.tf"]), "").as_deref(),
            Some("b.tf")
        );
        assert_eq!(
            first_file(&f(&["a.tfstate"]), "").as_deref(),
            Some("a.tfstate")
        );
        assert_eq!(first_file(&f(&[]), ""), None);
        // In a repository whose root module is a folder: that folder's main.tf, else its first
        // configuration file.
        let repo = f(&[
            "a.tf",
            "envs/prod/main.tf",
            "envs/prod/b.tf",
            "envs/dev/x.tf",
        ]);
        assert_eq!(
            first_file(&repo, "envs/prod").as_deref(),
            Some("envs/prod/main.tf")
        );
        assert_eq!(
            first_file(&repo, "envs/dev").as_deref(),
            Some("envs/dev/x.tf")
        );
    }
}

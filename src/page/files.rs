//! The editor's files by role, and what to do with files that come in: each file is
//! configuration, a state, a plan (`terraform show -json`), a changes list, provider schemas, a DOT
//! graph, or unknown ([`classify`]); [`intake`] decides whether opened files replace the set or
//! join it and what the user is told.

use std::collections::BTreeMap;

/// What a file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Config,
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
            Role::State => "state",
            Role::Plan => "plan",
            Role::Changes => "planned changes",
            Role::Schemas => "provider schemas",
            Role::Dot => "DOT graph",
            Role::Unknown => "unknown",
        }
    }
}

/// Classifies a file by its name and, for JSON and extensionless text, its content.
pub fn classify(name: &str, text: &str) -> Role {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".tf") || lower.ends_with(".tf.json") {
        return Role::Config;
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

/// Folders never read from a dropped or opened tree: provider plugins and VCS data.
pub fn skipped_dir(name: &str) -> bool {
    matches!(
        name,
        ".terraform" | ".git" | "node_modules" | ".terragrunt-cache"
    )
}
/// Whether the files hold planned changes (a plan JSON or a changes list): then the graph shown
/// is the apply graph, as `tofu graph` shows it.
pub fn has_plan(files: &BTreeMap<String, String>) -> bool {
    files
        .iter()
        .any(|(n, t)| matches!(classify(n, t), Role::Plan | Role::Changes))
}

/// The file a new set opens at: `main.tf`, else the first configuration file, else the first.
pub fn first_file(files: &BTreeMap<String, String>) -> Option<String> {
    if files.contains_key("main.tf") {
        return Some("main.tf".to_string());
    }
    files
        .iter()
        .find(|(n, t)| classify(n, t) == Role::Config)
        .or_else(|| files.iter().next())
        .map(|(n, _)| n.clone())
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
    /// a state, plan or schemas file alone joins the current files ([`add_in_place`]).
    pub replaces: bool,
    /// What was opened, for the closing notice: "2 configuration files, a state (t.tfstate)".
    pub summary: String,
    pub has_dot: bool,
}

/// Sorts files read from the Open buttons or a drop (see [`Intake`]); `skipped` names files that
/// were not read at all.
pub fn intake(read: Vec<Read>, skipped: Vec<String>) -> Intake {
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
    if !unknown.is_empty() {
        let shown: Vec<&str> = unknown.iter().take(8).map(String::as_str).collect();
        let more = unknown.len().saturating_sub(shown.len());
        out.notices.push((
            unknown.len() == 1 && out.opened.is_empty(),
            format!(
                "Not opened (not a .tf or .tf.json file, a state, a plan, provider schemas or a DOT graph): {}{}.",
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
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

/// Adds `opened` to `files`, each in place of the file of the same role it had.
pub fn add_in_place(files: &mut BTreeMap<String, String>, opened: &BTreeMap<String, String>) {
    for (path, text) in opened {
        let role = classify(path, text);
        files.retain(|p, t| p == path || classify(p, t) != role);
        files.insert(path.clone(), text.clone());
    }
}

/// "2 configuration files, a state (terraform.tfstate)".
fn summarize(roles: &BTreeMap<&String, Role>) -> String {
    let mut by_role: BTreeMap<Role, Vec<&str>> = BTreeMap::new();
    for (p, r) in roles {
        by_role.entry(*r).or_default().push(p.as_str());
    }
    by_role
        .into_iter()
        .map(|(r, paths)| {
            if r == Role::Config {
                format!(
                    "{} configuration file{}",
                    paths.len(),
                    if paths.len() == 1 { "" } else { "s" }
                )
            } else {
                format!("{} ({})", r.label(), paths.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let i = intake(read(&[("main.tf", ""), ("notes.md", "x")]), vec![]);
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
        let i = intake(vec![("x.tf".into(), Err("it is not text".into()))], vec![]);
        assert!(i.opened.is_empty());
        assert_eq!(
            i.notices,
            [(true, "Could not read x.tf: it is not text.".to_string())]
        );
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
            first_file(&f(&["a.tf", "main.tf"])).as_deref(),
            Some("main.tf")
        );
        assert_eq!(
            first_file(&f(&["a.tfstate", "b.tf"])).as_deref(),
            Some("b.tf")
        );
        assert_eq!(first_file(&f(&["a.tfstate"])).as_deref(), Some("a.tfstate"));
        assert_eq!(first_file(&f(&[])), None);
    }
}

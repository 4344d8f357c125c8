//! The editor's files as a folder tree, for sets too many for a row of tabs (a repository such as
//! terraform-aws-vpc: 77 files in 23 folders): folders and files in name order, each folder with
//! its file count and whether it is the root module's folder or another folder that could be a
//! root module and is not in the graph; which folders start open; a filter on the path; and one
//! sentence about the files the graph leaves out ([`outside_root`]).
//!
//! Installed modules' files (under `.terraform`) stay out, as they have no tabs either: the
//! editor's working-directory line counts them.

use super::files::{is_config_path, is_installed_path};
use std::collections::{BTreeMap, BTreeSet};

/// Up to this many files the editor shows tabs (a row or two of them, the built-in examples);
/// more files show as the tree.
pub const MAX_TABS: usize = 10;
/// Up to this many files every folder of the tree starts open.
pub const OPEN_ALL_UP_TO: usize = 30;

/// Whether `count` files (installed ones not counted) show as tabs rather than as the tree.
pub fn shows_tabs(count: usize) -> bool {
    count <= MAX_TABS
}

/// The folder a path lies in (`""`: the top folder).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// The last segment of a path.
fn name_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The folders holding `path`, outermost first (`a/b/c.tf` → `a`, `a/b`); not the top folder.
pub fn folders_of(path: &str) -> Vec<String> {
    path.match_indices('/')
        .map(|(i, _)| path[..i].to_string())
        .collect()
}

/// Whether the configuration file `file` is part of the graph of root module `root`: it was read
/// (`read`, the analysis' [`super::analysis::Analysis::config_files`]), or, when that is not known
/// (the configuration did not load), it lies in the root module's folder.
fn in_graph(file: &str, root: &str, read: Option<&BTreeSet<String>>) -> bool {
    match read {
        Some(r) => r.contains(file),
        None => parent(file) == root,
    }
}

/// A filter as matched: lower case, trimmed; `None` when empty.
fn needle(filter: &str) -> Option<String> {
    let n = filter.trim().to_lowercase();
    (!n.is_empty()).then_some(n)
}

/// What a folder is to the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderRole {
    /// The chosen root module's folder.
    Root,
    /// A folder holding configuration that is not in the graph: it could be a root module of
    /// its own (choose it under Root module).
    OtherRoot,
    /// Neither (a folder of folders, a module the root calls, variables files only).
    Plain,
}

/// One line of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A folder: its files (all below it; under a filter, the matching ones), whether it is
    /// open, and what it is to the graph.
    Folder {
        files: usize,
        open: bool,
        role: FolderRole,
    },
    File,
}

/// One line of the tree as shown: the full path (what opens or toggles it), the name shown (its
/// last segment), how deep it lies (0: in the top folder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub path: String,
    pub name: String,
    pub depth: usize,
    pub kind: Kind,
}

/// The lines of the tree to show, and with a filter how many files match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    pub rows: Vec<Row>,
    pub matches: Option<usize>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Folder {
    /// Direct subfolders and files by full path (one parent, so path order is name order).
    dirs: BTreeSet<String>,
    files: BTreeSet<String>,
    /// Files below it, at any depth.
    count: usize,
}

/// The tree of a set of files for a root module.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileTree {
    /// Every folder by path, the top folder as `""`.
    folders: BTreeMap<String, Folder>,
    root: String,
    other_roots: BTreeSet<String>,
}

impl FileTree {
    /// The tree of `paths` (installed files left out) for root module folder `root`; `read` as
    /// in [`outside_root`].
    pub fn new<'a>(
        paths: impl IntoIterator<Item = &'a String>,
        root: &str,
        read: Option<&BTreeSet<String>>,
    ) -> FileTree {
        let mut folders: BTreeMap<String, Folder> = BTreeMap::new();
        folders.insert(String::new(), Folder::default());
        let mut config_dirs: BTreeMap<&str, bool> = BTreeMap::new();
        for p in paths.into_iter().filter(|p| !is_installed_path(p)) {
            if is_config_path(p) {
                *config_dirs.entry(parent(p)).or_default() |= in_graph(p, root, read);
            }
            folders
                .entry(parent(p).to_string())
                .or_default()
                .files
                .insert(p.clone());
            let mut up = String::new();
            for f in folders_of(p) {
                folders.entry(up).or_default().dirs.insert(f.clone());
                up = f;
            }
            folders.entry(String::new()).or_default().count += 1;
            for f in folders_of(p) {
                folders.entry(f).or_default().count += 1;
            }
        }
        let other_roots = config_dirs
            .into_iter()
            .filter(|(d, read)| !read && *d != root)
            .map(|(d, _)| d.to_string())
            .collect();
        FileTree {
            folders,
            root: root.to_string(),
            other_roots,
        }
    }

    /// How many files the tree holds.
    pub fn len(&self) -> usize {
        self.folders.get("").map_or(0, |f| f.count)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn role(&self, folder: &str) -> FolderRole {
        if folder == self.root {
            FolderRole::Root
        } else if self.other_roots.contains(folder) {
            FolderRole::OtherRoot
        } else {
            FolderRole::Plain
        }
    }

    /// The folders open when the tree is first shown: every one for a small set
    /// ([`OPEN_ALL_UP_TO`] files), else the root module's folder and those leading to it and to
    /// the `active` file.
    pub fn initially_open(&self, active: &str) -> BTreeSet<String> {
        if self.len() <= OPEN_ALL_UP_TO {
            return self
                .folders
                .keys()
                .filter(|f| !f.is_empty())
                .cloned()
                .collect();
        }
        let mut open: BTreeSet<String> = folders_of(active).into_iter().collect();
        if !self.root.is_empty() {
            open.extend(folders_of(&self.root));
            open.insert(self.root.clone());
        }
        open.retain(|f| self.folders.contains_key(f));
        open
    }

    /// The number of matching files below each folder (the top folder as `""`); `None` for no
    /// filter. The filter is a case-insensitive part of the path.
    fn match_counts(&self, filter: &str) -> Option<BTreeMap<String, usize>> {
        let needle = needle(filter)?;
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for file in self.folders.values().flat_map(|f| f.files.iter()) {
            if file.to_lowercase().contains(&needle) {
                *counts.entry(String::new()).or_default() += 1;
                for f in folders_of(file) {
                    *counts.entry(f).or_default() += 1;
                }
            }
        }
        Some(counts)
    }

    /// The folders leading to files that match `filter`: those a filter opens.
    pub fn matching_folders(&self, filter: &str) -> BTreeSet<String> {
        self.match_counts(filter)
            .unwrap_or_default()
            .into_keys()
            .filter(|f| !f.is_empty())
            .collect()
    }

    /// The lines to show: folders (those in `open` open) before files, each in name order; with
    /// a `filter`, only matching files and the folders leading to them, and the match count.
    pub fn rows(&self, open: &BTreeSet<String>, filter: &str) -> Listing {
        let counts = self.match_counts(filter);
        let needle = needle(filter).unwrap_or_default();
        let mut rows = Vec::new();
        let filter = counts.as_ref().map(|c| (needle.as_str(), c));
        self.push_rows("", 0, open, filter, &mut rows);
        Listing {
            rows,
            matches: counts.map(|c| c.get("").copied().unwrap_or(0)),
        }
    }

    fn push_rows(
        &self,
        folder: &str,
        depth: usize,
        open: &BTreeSet<String>,
        filter: Option<(&str, &BTreeMap<String, usize>)>,
        rows: &mut Vec<Row>,
    ) {
        let Some(f) = self.folders.get(folder) else {
            return;
        };
        for d in &f.dirs {
            let files = match filter {
                Some((_, c)) => match c.get(d) {
                    Some(&n) => n,
                    None => continue,
                },
                None => self.folders.get(d).map_or(0, |s| s.count),
            };
            let is_open = open.contains(d);
            rows.push(Row {
                path: d.clone(),
                name: name_of(d).to_string(),
                depth,
                kind: Kind::Folder {
                    files,
                    open: is_open,
                    role: self.role(d),
                },
            });
            if is_open {
                self.push_rows(d, depth + 1, open, filter, rows);
            }
        }
        for file in &f.files {
            if filter.is_some_and(|(n, _)| !file.to_lowercase().contains(n)) {
                continue;
            }
            rows.push(Row {
                path: file.clone(),
                name: name_of(file).to_string(),
                depth,
                kind: Kind::File,
            });
        }
    }
}

/// "1 file", "5 files".
fn files_text(n: usize) -> String {
    format!("{n} file{}", if n == 1 { "" } else { "s" })
}

/// A folder as the sentence names it.
fn folder_text(folder: &str) -> String {
    if folder.is_empty() {
        "the top folder (.)".to_string()
    } else {
        folder.to_string()
    }
}

/// At most this many groups of left-out files are named one by one.
const NAMED_GROUPS: usize = 4;

/// One sentence for the page about the configuration files outside the graph of root module
/// `root`, or `None` when every configuration file is in it. `read` is what the built
/// configuration read ([`super::analysis::Analysis::config_files`]: the root's files and those of
/// the local modules it calls); when it is not known, the root module's folder stands for it.
/// Files left out are grouped by their top folder, largest group first: "The root module is the
/// top folder (.): 5 files. Not in this graph: 52 files in examples/ (13 folders), …; to draw one
/// of those folders, choose it under Root module."
pub fn outside_root<'a>(
    paths: impl IntoIterator<Item = &'a String>,
    root: &str,
    read: Option<&BTreeSet<String>>,
) -> Option<String> {
    let config: Vec<&String> = paths
        .into_iter()
        .filter(|p| is_config_path(p) && !is_installed_path(p))
        .collect();
    let (inside, outside): (Vec<&String>, Vec<&String>) =
        config.into_iter().partition(|p| in_graph(p, root, read));
    if outside.is_empty() {
        return None;
    }
    let own = inside.iter().filter(|p| parent(p) == root).count();
    let called = inside.len() - own;
    let mut text = format!(
        "The root module is {}: {}",
        folder_text(root),
        files_text(own)
    );
    if called > 0 {
        text.push_str(&format!(
            ", and {} of the local modules it calls",
            files_text(called)
        ));
    }
    // Left out, by top folder ("" for the top folder's own files): files and folders.
    let mut groups: BTreeMap<&str, (usize, BTreeSet<&str>)> = BTreeMap::new();
    for p in &outside {
        let dir = parent(p);
        let top = dir.split('/').next().unwrap_or("");
        let g = groups.entry(top).or_default();
        g.0 += 1;
        g.1.insert(dir);
    }
    let mut groups: Vec<(&str, usize, BTreeSet<&str>)> =
        groups.into_iter().map(|(k, (n, d))| (k, n, d)).collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut parts: Vec<String> = groups
        .iter()
        .take(NAMED_GROUPS)
        .map(|(top, n, dirs)| {
            if dirs.len() == 1 {
                let only = dirs.iter().next().copied().unwrap_or_default();
                format!("{} in {}", files_text(*n), folder_text(only))
            } else {
                format!("{} in {top}/ ({} folders)", files_text(*n), dirs.len())
            }
        })
        .collect();
    let rest = &groups[groups.len().min(NAMED_GROUPS)..];
    if !rest.is_empty() {
        let n: usize = rest.iter().map(|g| g.1).sum();
        let d: usize = rest.iter().map(|g| g.2.len()).sum();
        parts.push(format!(
            "{} in {d} other folder{}",
            files_text(n),
            if d == 1 { "" } else { "s" }
        ));
    }
    let folders: usize = groups.iter().map(|g| g.2.len()).sum();
    text.push_str(&format!(
        ". Not in this graph: {}; to draw {}, choose it under Root module.",
        parts.join(", "),
        if folders == 1 {
            "that folder"
        } else {
            "one of those folders"
        }
    ));
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files of terraform-aws-vpc (`../shared/realworld/terraform-aws-vpc`) that opening the
    /// folder reads (its LICENSE is skipped unread): 77 configuration files.
    fn vpc() -> Vec<String> {
        let four = ["main.tf", "outputs.tf", "variables.tf", "versions.tf"];
        let mut p: Vec<String> = ["main.tf", "outputs.tf", "variables.tf", "versions.tf"]
            .iter()
            .chain(&["vpc-flow-logs.tf"])
            .map(|s| s.to_string())
            .collect();
        let examples = [
            "block-public-access",
            "complete",
            "flow-log",
            "ipam",
            "ipv6-dualstack",
            "ipv6-only",
            "issues",
            "manage-default-vpc",
            "network-acls",
            "outpost",
            "secondary-cidr-blocks",
            "separate-route-tables",
            "simple",
        ];
        let mut dirs: Vec<String> = examples.iter().map(|e| format!("examples/{e}/")).collect();
        dirs.extend(["modules/flow-log/", "modules/vpc-endpoints/", "wrappers/"].map(String::from));
        dirs.extend(["wrappers/flow-log/", "wrappers/vpc-endpoints/"].map(String::from));
        for d in dirs {
            p.extend(four.iter().map(|f| format!("{d}{f}")));
        }
        p.sort();
        p
    }

    fn line(r: &Row) -> String {
        let pad = "  ".repeat(r.depth);
        match &r.kind {
            Kind::Folder { files, open, role } => format!(
                "{pad}{}{}/ {files}{}",
                if *open { "v " } else { "> " },
                r.name,
                match role {
                    FolderRole::Root => " root",
                    FolderRole::OtherRoot => " other",
                    FolderRole::Plain => "",
                }
            ),
            Kind::File => format!("{pad}{}", r.name),
        }
    }

    fn lines(l: &Listing) -> Vec<String> {
        l.rows.iter().map(line).collect()
    }

    #[test]
    fn the_vpc_repository_starts_as_its_top_folders_and_root_files() {
        let paths = vpc();
        assert_eq!(paths.len(), 77);
        assert!(!shows_tabs(paths.len()));
        let t = FileTree::new(&paths, "", None);
        assert_eq!(t.len(), 77);
        let open = t.initially_open("main.tf");
        assert!(open.is_empty(), "{open:?}");
        assert_eq!(
            lines(&t.rows(&open, "")),
            vec![
                "> examples/ 52",
                "> modules/ 8",
                "> wrappers/ 12 other",
                "main.tf",
                "outputs.tf",
                "variables.tf",
                "versions.tf",
                "vpc-flow-logs.tf",
            ]
        );
        // Opening examples shows its 13 folders, each a root module of its own, closed.
        let open = BTreeSet::from(["examples".to_string(), "examples/simple".to_string()]);
        let l = lines(&t.rows(&open, ""));
        assert_eq!(l[0], "v examples/ 52");
        assert_eq!(l[1], "  > block-public-access/ 4 other");
        assert_eq!(l[13], "  v simple/ 4 other");
        assert_eq!(l[14], "    main.tf");
        assert_eq!(l[18], "> modules/ 8");
        assert_eq!(l.len(), 1 + 13 + 4 + 2 + 5);
    }

    #[test]
    fn the_root_module_folder_and_the_active_files_folder_start_open() {
        let paths = vpc();
        let t = FileTree::new(&paths, "examples/complete", None);
        let open = t.initially_open("modules/flow-log/main.tf");
        assert_eq!(
            open,
            [
                "examples",
                "examples/complete",
                "modules",
                "modules/flow-log"
            ]
            .map(String::from)
            .into()
        );
        let l = lines(&t.rows(&open, ""));
        assert!(l.contains(&"  v complete/ 4 root".to_string()), "{l:?}");
        assert!(l.contains(&"    versions.tf".to_string()), "{l:?}");
        // Without what the build read, the top folder's files count as outside the graph too.
        assert!(l.contains(&"  v flow-log/ 4 other".to_string()), "{l:?}");
        // A folder of a file that does not exist is not opened.
        assert!(!t.initially_open("nowhere/x.tf").contains("nowhere"));
    }

    #[test]
    fn a_small_set_starts_all_open() {
        let paths: Vec<String> = ["a/b/c.tf", "a/d.tf", "e.tf", "z/terraform.tfvars"]
            .map(String::from)
            .into();
        let t = FileTree::new(&paths, "", None);
        let open = t.initially_open("e.tf");
        assert_eq!(
            lines(&t.rows(&open, "")),
            vec![
                "v a/ 2 other",
                "  v b/ 1 other",
                "    c.tf",
                "  d.tf",
                "v z/ 1",
                "  terraform.tfvars",
                "e.tf"
            ]
        );
    }

    #[test]
    fn the_filter_keeps_matching_files_and_the_folders_to_them_open() {
        let paths = vpc();
        let t = FileTree::new(&paths, "", None);
        let filter = "  COMPLETE/Ma ";
        let open = t.matching_folders(filter);
        assert_eq!(
            open,
            ["examples", "examples/complete"].map(String::from).into()
        );
        let l = t.rows(&open, filter);
        assert_eq!(l.matches, Some(1));
        assert_eq!(
            lines(&l),
            vec!["v examples/ 1", "  v complete/ 1 other", "    main.tf"]
        );
        assert_eq!(l.rows[2].path, "examples/complete/main.tf");
        // 1 at the top, 13 examples, 2 modules, 3 wrappers; a folder closed under the filter
        // hides its matches.
        let mut open = t.matching_folders("versions");
        let all = t.rows(&open, "versions");
        assert_eq!(all.matches, Some(19));
        assert_eq!(all.rows.iter().filter(|r| r.kind == Kind::File).count(), 19);
        open.remove("examples");
        let l = t.rows(&open, "versions");
        assert_eq!(l.matches, Some(19));
        assert_eq!(lines(&l)[0], "> examples/ 13");
        assert_eq!(l.rows.iter().filter(|r| r.kind == Kind::File).count(), 6);
        // No match: nothing shown; a blank filter is no filter.
        assert_eq!(
            t.rows(&open, "zzz"),
            Listing {
                rows: vec![],
                matches: Some(0)
            }
        );
        assert_eq!(t.rows(&BTreeSet::new(), "  ").matches, None);
    }

    #[test]
    fn installed_files_stay_out_of_the_tree() {
        let paths: Vec<String> = [
            "main.tf",
            ".terraform/modules/modules.json",
            ".terraform/modules/vpc/main.tf",
        ]
        .map(String::from)
        .into();
        let t = FileTree::new(&paths, "", None);
        assert_eq!(t.len(), 1);
        assert_eq!(
            lines(&t.rows(&t.initially_open("main.tf"), "")),
            vec!["main.tf"]
        );
        assert_eq!(outside_root(&paths, "", None), None);
    }

    #[test]
    fn the_sentence_names_what_the_graph_leaves_out() {
        let paths = vpc();
        assert_eq!(
            outside_root(&paths, "", None).as_deref(),
            Some(
                "The root module is the top folder (.): 5 files. Not in this graph: 52 files in examples/ (13 folders), 12 files in wrappers/ (3 folders), 8 files in modules/ (2 folders); to draw one of those folders, choose it under Root module."
            )
        );
        // examples/complete calls the top folder and modules/vpc-endpoints: those are in.
        let read: BTreeSet<String> = paths
            .iter()
            .filter(|p| {
                p.starts_with("examples/complete/")
                    || !p.contains('/')
                    || p.starts_with("modules/vpc-endpoints/")
            })
            .cloned()
            .collect();
        assert_eq!(
            outside_root(&paths, "examples/complete", Some(&read)).as_deref(),
            Some(
                "The root module is examples/complete: 4 files, and 9 files of the local modules it calls. Not in this graph: 48 files in examples/ (12 folders), 12 files in wrappers/ (3 folders), 4 files in modules/flow-log; to draw one of those folders, choose it under Root module."
            )
        );
        let t = FileTree::new(&paths, "examples/complete", Some(&read));
        let open: BTreeSet<String> = ["modules".to_string()].into();
        let l = lines(&t.rows(&open, ""));
        assert_eq!(
            &l[..3],
            ["> examples/ 52", "v modules/ 8", "  > flow-log/ 4 other"]
        );
        assert_eq!(l[3], "  > vpc-endpoints/ 4");
        // One folder left out; more than four groups.
        let two: Vec<String> = ["main.tf", "examples/one/main.tf", "examples/one/x.tfvars"]
            .map(String::from)
            .into();
        assert_eq!(
            outside_root(&two, "", None).as_deref(),
            Some(
                "The root module is the top folder (.): 1 file. Not in this graph: 1 file in examples/one; to draw that folder, choose it under Root module."
            )
        );
        let many: Vec<String> = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .map(|d| format!("{d}/main.tf"))
            .chain(["main.tf".to_string()])
            .collect();
        assert_eq!(
            outside_root(&many, "a", None).as_deref(),
            Some(
                "The root module is a: 1 file. Not in this graph: 1 file in the top folder (.), 1 file in b, 1 file in c, 1 file in d, 2 files in 2 other folders; to draw one of those folders, choose it under Root module."
            )
        );
    }

    #[test]
    fn a_module_the_root_calls_is_in_the_graph() {
        let ex = crate::page::examples::EXAMPLES
            .iter()
            .find(|e| crate::page::examples::files_of(e).contains_key("modules/net/main.tf"))
            .expect("the modules example");
        let files = crate::page::examples::files_of(ex);
        let a = crate::page::analysis::analyze(
            &files,
            crate::builder::BuilderKind::Plan,
            &Default::default(),
        );
        let read = a.config_files.expect("built");
        assert_eq!(
            read,
            ["main.tf", "modules/net/main.tf"].map(String::from).into()
        );
        assert_eq!(outside_root(files.keys(), "", Some(&read)), None);
        let t = FileTree::new(files.keys(), "", Some(&read));
        assert_eq!(
            lines(&t.rows(&t.initially_open("main.tf"), "")),
            vec!["v modules/ 1", "  v net/ 1", "    main.tf", "main.tf"]
        );
        // Built from examples/one, the top folder's files are outside (it calls nothing).
        let mut files = files;
        files.insert(
            "examples/one/main.tf".into(),
            "resource \"a\" \"b\" {}\n".into(),
        );
        let a = crate::page::analysis::analyze(
            &files,
            crate::builder::BuilderKind::Plan,
            &crate::page::analysis::Options {
                root: "examples/one".into(),
                ..Default::default()
            },
        );
        let read = a.config_files.expect("built");
        assert_eq!(read, ["examples/one/main.tf".to_string()].into());
        assert_eq!(
            outside_root(files.keys(), "examples/one", Some(&read)).as_deref(),
            Some(
                "The root module is examples/one: 1 file. Not in this graph: 1 file in the top folder (.), 1 file in modules/net; to draw one of those folders, choose it under Root module."
            )
        );
    }
}

//! No module cycles in `src/`: reads the source tree, works out which module uses which, and fails
//! naming the cycle if there is one, among the top-level modules and among the modules inside each
//! folder (`config/`, `builder/`, `dag/`, `dag/render/`, `walk/`, `layout/`, ...). A folder's
//! `mod.rs` counts as a module of that folder.
//!
//! How uses are found: the module tree is followed from `src/lib.rs` through its `mod`
//! declarations; in each file, comments, strings and `#[cfg(test)]` items are skipped, and every
//! path (`use` trees, and paths in code starting with `crate::`, `super::`, `self::`, a child
//! module or a module brought in by `use`) is resolved to the module that defines the item,
//! following `pub use` re-exports (so `super::Diagnostic` in `config/refs.rs` counts as a use of
//! `config::diag`, not of `config`). A module's `pub use` of its own descendants is a re-export,
//! not a use. Test code may use anything: only the code that ships is layered.
//!
//! `src/app` is checked too: its views use `app::prelude` (the context and shared types), never
//! `app/mod.rs`, which only mounts the app.
//!
//! `cargo test --test module_graph -- --nocapture` prints the module graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules not checked (see the module comment).
const EXCLUDED: &[&str] = &[];

// ---------------------------------------------------------------------------------------------
// Lexing: code without comments, strings and characters, as tokens.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Tokens of Rust source with comments and literals removed (a literal becomes `Punct('"')`).
fn lex(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let n = c.len();
    while i < n {
        let ch = c[i];
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < n && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < n {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_string(&c, i);
            out.push(Tok::Punct('"'));
        } else if (ch == 'r' || ch == 'b')
            && raw_or_byte_string_start(&c, i).is_some()
            && !prev_is_ident(&c, i)
        {
            i = raw_or_byte_string_start(&c, i).unwrap_or(i + 1);
            out.push(Tok::Punct('"'));
        } else if ch == '\'' {
            // A character literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < n && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(Tok::Punct('"'));
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push(Tok::Punct('"'));
            } else {
                i += 1;
                while i < n && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < n && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // Raw identifiers: r#gen is `gen`.
            if word == "r"
                && c.get(i) == Some(&'#')
                && c.get(i + 1).is_some_and(|x| x.is_alphabetic())
            {
                continue;
            }
            out.push(Tok::Ident(word));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else if ch.is_whitespace() || ch.is_ascii_digit() {
            i += 1;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    // `r#gen` lexes as `r`, `#`, `gen`: drop the `#` after a lone `r`.
    let mut clean = Vec::with_capacity(out.len());
    let mut k = 0;
    while k < out.len() {
        if out[k] == Tok::Ident("r".into())
            && out.get(k + 1) == Some(&Tok::Punct('#'))
            && matches!(out.get(k + 2), Some(Tok::Ident(_)))
        {
            k += 2;
            continue;
        }
        clean.push(out[k].clone());
        k += 1;
    }
    clean
}

fn prev_is_ident(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// Index after a `"…"` starting at `i`.
fn skip_string(c: &[char], mut i: usize) -> usize {
    i += 1;
    while i < c.len() {
        match c[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// If `r"…"`, `r#"…"#`, `b"…"`, `br"…"` or `b'…'` starts at `i`: the index after it.
fn raw_or_byte_string_start(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
        if c.get(j) == Some(&'"') {
            return Some(skip_string(c, j));
        }
        if c.get(j) == Some(&'\'') {
            let mut k = j + 1;
            if c.get(k) == Some(&'\\') {
                k += 1;
            }
            k += 1;
            while k < c.len() && c[k] != '\'' {
                k += 1;
            }
            return Some(k + 1);
        }
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(j)
}

// ---------------------------------------------------------------------------------------------
// Parsing: module declarations, `use` trees, paths in code, items defined.

/// One module file, parsed.
#[derive(Debug, Default)]
struct ModFile {
    /// `mod x;` declarations (not under `#[cfg(test)]`).
    children: Vec<String>,
    /// `use` trees, flattened: (path, name it binds (None for a glob), is `pub`).
    uses: Vec<(Vec<String>, Option<String>, bool)>,
    /// Paths met in code outside `use` (at least two segments).
    paths: Vec<Vec<String>>,
    /// Names of items defined here (structs, enums, fns, traits, types, consts, statics, macros).
    items: BTreeSet<String>,
}

/// Removes `#[cfg(test)]` items (and `#[cfg(all(test, …))]`): the attribute and everything up to
/// the end of the item (`;` at depth 0 or the closing brace of its body).
fn drop_test_items(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == Tok::Punct('#') && toks.get(i + 1) == Some(&Tok::Punct('[')) {
            // Read the attribute up to its closing bracket.
            let mut j = i + 2;
            let mut depth = 1;
            let mut words = Vec::new();
            while j < toks.len() && depth > 0 {
                match &toks[j] {
                    Tok::Punct('[') => depth += 1,
                    Tok::Punct(']') => depth -= 1,
                    Tok::Ident(w) => words.push(w.clone()),
                    _ => {}
                }
                j += 1;
            }
            let is_test_cfg = words.first().is_some_and(|w| w == "cfg")
                && words.iter().any(|w| w == "test")
                && !words.iter().any(|w| w == "not");
            if is_test_cfg {
                // Skip the item: to `;` at brace depth 0 or to the end of its first `{…}`.
                let mut depth = 0;
                while j < toks.len() {
                    match toks[j] {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        Tok::Punct(';') if depth == 0 => {
                            j += 1;
                            break;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// Parses a `use` tree starting at `toks[*i]` with `prefix` already read; pushes flattened uses.
fn use_tree(
    toks: &[Tok],
    i: &mut usize,
    prefix: Vec<String>,
    public: bool,
    out: &mut Vec<(Vec<String>, Option<String>, bool)>,
) {
    let mut path = prefix;
    loop {
        match toks.get(*i) {
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i) {
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        None => return,
                        _ => use_tree(toks, i, path.clone(), public, out),
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push((path, None, public));
                return;
            }
            Some(Tok::Ident(w)) => {
                let w = w.clone();
                *i += 1;
                if toks.get(*i) == Some(&Tok::Path) {
                    *i += 1;
                    path.push(w);
                    continue;
                }
                // The last segment; `self` names the module itself.
                let (full, bound) = if w == "self" {
                    let name = path.last().cloned();
                    (path.clone(), name)
                } else {
                    let mut p = path.clone();
                    p.push(w.clone());
                    (p, Some(w))
                };
                let bound = if ident(toks.get(*i)) == Some("as") {
                    *i += 1;
                    let alias = ident(toks.get(*i)).map(str::to_string);
                    *i += 1;
                    alias
                } else {
                    bound
                };
                out.push((full, bound, public));
                return;
            }
            _ => return,
        }
    }
}

const ITEM_KEYWORDS: &[&str] = &[
    "struct", "enum", "fn", "trait", "type", "const", "static", "union",
];

fn parse_file(src: &str) -> ModFile {
    let toks = drop_test_items(lex(src));
    let mut m = ModFile::default();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match t {
            Tok::Ident(w) if w == "mod" => {
                if let (Some(name), Some(Tok::Punct(';'))) =
                    (ident(toks.get(i + 1)), toks.get(i + 2))
                {
                    m.children.push(name.to_string());
                    i += 3;
                    continue;
                }
                i += 1;
            }
            Tok::Ident(w) if w == "use" => {
                let public = i > 0 && ident(toks.get(i - 1)) == Some("pub")
                    || (i > 3
                        && toks.get(i - 1) == Some(&Tok::Punct(')'))
                        && ident(toks.get(i - 3)) == Some("pub"));
                i += 1;
                use_tree(&toks, &mut i, Vec::new(), public, &mut m.uses);
            }
            Tok::Ident(w) if ITEM_KEYWORDS.contains(&w.as_str()) => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    m.items.insert(name.to_string());
                }
                i += 1;
            }
            Tok::Ident(w) if w == "macro_rules" => {
                if let Some(name) = ident(toks.get(i + 2)) {
                    m.items.insert(name.to_string());
                }
                i += 1;
            }
            Tok::Ident(first) if toks.get(i + 1) == Some(&Tok::Path) => {
                // A path in code: `a::b::c`; generics (`Vec::<T>::new`) end it.
                let preceded_by_path = i > 0 && toks[i - 1] == Tok::Path;
                let mut path = vec![first.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::Path) {
                    match ident(toks.get(j + 1)) {
                        Some(w) => {
                            path.push(w.to_string());
                            j += 2;
                        }
                        None => break,
                    }
                }
                if !preceded_by_path {
                    m.paths.push(path);
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    m
}

// ---------------------------------------------------------------------------------------------
// The module tree and name resolution.

struct Crate {
    /// Module path (`["config", "decode"]`; the crate root is `[]`) -> parsed file.
    mods: BTreeMap<Vec<String>, ModFile>,
}

fn load(src: &Path) -> Crate {
    let mut mods = BTreeMap::new();
    let mut todo = vec![(Vec::<String>::new(), src.join("lib.rs"))];
    while let Some((path, file)) = todo.pop() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let parsed = parse_file(&text);
        // A module's children live beside lib.rs / mod.rs, or in a folder named after the file.
        let dir: PathBuf = if file.ends_with("lib.rs") || file.ends_with("mod.rs") {
            file.parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            file.with_extension("")
        };
        for child in &parsed.children {
            let mut p = path.clone();
            p.push(child.clone());
            if path.is_empty() && EXCLUDED.contains(&child.as_str()) {
                continue;
            }
            let flat = dir.join(format!("{child}.rs"));
            let nested = dir.join(child).join("mod.rs");
            let f = if flat.exists() { flat } else { nested };
            todo.push((p, f));
        }
        mods.insert(path, parsed);
    }
    Crate { mods }
}

impl Crate {
    /// The module that defines what `path` (absolute, from the crate root) names, following
    /// re-exports; `None` for paths outside the crate (std, other crates).
    fn resolve(&self, path: &[String], depth: usize) -> Option<Vec<String>> {
        if depth > 16 || path.first().is_some_and(|p| p == "<extern>") {
            return None;
        }
        let mut module: Vec<String> = Vec::new();
        let mut k = 0;
        while k < path.len() {
            let mut next = module.clone();
            next.push(path[k].clone());
            if self.mods.contains_key(&next) {
                module = next;
                k += 1;
                continue;
            }
            // Not a child module: an item of `module`, maybe re-exported from elsewhere.
            return Some(self.item_home(&module, &path[k..], depth));
        }
        Some(module)
    }

    /// Where the item `rest[0]` that `module` makes visible is defined.
    fn item_home(&self, module: &[String], rest: &[String], depth: usize) -> Vec<String> {
        let Some(m) = self.mods.get(module) else {
            return module.to_vec();
        };
        let name = &rest[0];
        if m.items.contains(name) {
            return module.to_vec();
        }
        // Names brought in by `use` (public or not: a child module sees its parent's imports).
        for (target, bound, _) in &m.uses {
            if bound.as_ref() == Some(name) {
                let abs = self.absolute(module, target);
                let mut full = abs;
                full.extend(rest[1..].iter().cloned());
                if let Some(r) = self.resolve(&full, depth + 1) {
                    return r;
                }
            }
        }
        for (target, bound, _) in &m.uses {
            if bound.is_none() {
                let mut full = self.absolute(module, target);
                full.extend(rest.iter().cloned());
                if let Some(r) = self.resolve(&full, depth + 1)
                    && r != self.absolute(module, target)
                {
                    return r;
                }
                // A glob re-export of a module that defines the name.
                let from = self.absolute(module, target);
                if self.mods.get(&from).is_some_and(|f| f.items.contains(name)) {
                    return from;
                }
            }
        }
        module.to_vec()
    }

    /// `path` as written in `module`, made absolute (`crate::`, `super::`, `self::`, a child
    /// module, a name bound by `use`, or the crate's top-level modules as 2015-style roots).
    /// Paths into other crates come back unchanged and resolve to nothing.
    fn absolute(&self, module: &[String], path: &[String]) -> Vec<String> {
        let Some(first) = path.first() else {
            return module.to_vec();
        };
        let mut base: Vec<String> = match first.as_str() {
            "crate" => return path[1..].to_vec(),
            "self" => module.to_vec(),
            "super" => {
                let mut b = module.to_vec();
                let mut k = 0;
                while path.get(k).map(String::as_str) == Some("super") {
                    b.pop();
                    k += 1;
                }
                b.extend(path[k..].iter().cloned());
                return b;
            }
            _ => {
                let mut child = module.to_vec();
                child.push(first.clone());
                if self.mods.contains_key(&child) {
                    child.extend(path[1..].iter().cloned());
                    return child;
                }
                // A name brought in by `use` in this module.
                if let Some(m) = self.mods.get(module)
                    && let Some((target, _, _)) =
                        m.uses.iter().find(|(_, b, _)| b.as_ref() == Some(first))
                    && target.first() != Some(first)
                {
                    let mut abs = self.absolute(module, target);
                    abs.extend(path[1..].iter().cloned());
                    return abs;
                }
                return vec!["<extern>".to_string()];
            }
        };
        base.extend(path[1..].iter().cloned());
        base
    }

    /// Module -> modules it uses (never itself; re-exports of its own descendants left out).
    fn uses(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for (module, m) in &self.mods {
            let set = out.entry(module.clone()).or_default();
            let mut add = |target: Option<Vec<String>>, reexport: bool| {
                let Some(t) = target else { return };
                if t.first().map(String::as_str) == Some("<extern>") || &t == module {
                    return;
                }
                if reexport && t.starts_with(module) {
                    return;
                }
                set.insert(t);
            };
            for (path, _, public) in &m.uses {
                let abs = self.absolute(module, path);
                add(self.resolve(&abs, 0), *public);
            }
            for path in &m.paths {
                let abs = self.absolute(module, path);
                add(self.resolve(&abs, 0), false);
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Cycles.

/// The graph of `uses` seen at one level: inside `folder` (its modules, by their name under it,
/// the folder's own `mod.rs` as `folder`), or at the top level (`folder` empty).
fn level(
    uses: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    folder: &[String],
) -> BTreeMap<String, BTreeSet<String>> {
    let key = |m: &[String]| -> Option<String> {
        if !m.starts_with(folder) {
            return None;
        }
        match m.get(folder.len()) {
            Some(s) => Some(s.clone()),
            None if !folder.is_empty() => Some(format!("{} (mod.rs)", folder.join("::"))),
            None => None,
        }
    };
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in uses {
        let Some(a) = key(from) else { continue };
        let entry = g.entry(a.clone()).or_default();
        for to in tos {
            if let Some(b) = key(to)
                && b != a
            {
                entry.insert(b);
            }
        }
    }
    g
}

/// The strongly connected components of `g` with more than one module, each as one cycle
/// through all of its members' first-found path (first module repeated at the end) and the list
/// of its members.
fn cycles_of(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<(Vec<String>, BTreeSet<String>)> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(v) = todo.pop() {
            for w in g.get(&v).into_iter().flatten() {
                if seen.insert(w.clone()) {
                    todo.push(w.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&str, BTreeSet<String>> =
        g.keys().map(|k| (k.as_str(), reach(k))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for k in g.keys() {
        if done.contains(k) || !reaches[k.as_str()].contains(k) {
            continue;
        }
        // Its component: what it reaches that reaches it back.
        let members: BTreeSet<String> = reaches[k.as_str()]
            .iter()
            .filter(|w| reaches.get(w.as_str()).is_some_and(|r| r.contains(k)))
            .cloned()
            .collect();
        // One cycle: the shortest path from k back to k inside the component (breadth first).
        let mut prev: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([k.clone()]);
        'search: while let Some(v) = queue.pop_front() {
            for w in g.get(&v).into_iter().flatten() {
                if !members.contains(w) || prev.contains_key(w) {
                    continue;
                }
                prev.insert(w.clone(), v.clone());
                if w == k {
                    break 'search;
                }
                queue.push_back(w.clone());
            }
        }
        let mut cycle = vec![k.clone()];
        let mut at = prev.get(k).cloned();
        while let Some(v) = at {
            cycle.push(v.clone());
            if &v == k {
                break;
            }
            at = prev.get(&v).cloned();
        }
        cycle.reverse();
        done.extend(members.iter().cloned());
        out.push((cycle, members));
    }
    out
}

/// Every level's cycles, as `src/config/: a -> b -> a (members: a, b)`.
fn cycles(src: &Path) -> Vec<String> {
    let krate = load(src);
    let uses = krate.uses();
    // The top level, and every module with modules inside it (`config`, `dag`, `dag::render`...).
    let levels = krate.mods.keys().filter(|m| {
        krate
            .mods
            .keys()
            .any(|k| k.len() > m.len() && k.starts_with(m))
    });
    let mut out = Vec::new();
    for folder in levels {
        let name = if folder.is_empty() {
            "src/".to_string()
        } else {
            format!("src/{}/", folder.join("/"))
        };
        for (cycle, members) in cycles_of(&level(&uses, folder)) {
            let members: Vec<&str> = members.iter().map(String::as_str).collect();
            out.push(format!(
                "{name}: {} (all of: {})",
                cycle.join(" -> "),
                members.join(", ")
            ));
        }
    }
    out
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_uses_itself_through_others() {
    let found = cycles(&src_dir());
    assert!(
        found.is_empty(),
        "module cycles (a -> b: a uses b); give what they share a module of its own:\n  {}",
        found.join("\n  ")
    );
}

/// The extractor sees real uses (else the cycle check would pass on an empty graph): a few that
/// the code certainly has, through `use` lines, `super::`, re-exports and paths in code. With
/// `--nocapture` it prints the whole graph.
#[test]
fn the_module_graph_has_the_uses_the_code_makes() {
    let krate = load(&src_dir());
    let uses = krate.uses();
    for (from, tos) in &uses {
        let tos: Vec<String> = tos.iter().map(|t| t.join("::")).collect();
        let from = if from.is_empty() {
            "crate".into()
        } else {
            from.join("::")
        };
        println!("{from} -> {}", tos.join(", "));
    }
    let has = |from: &str, to: &str| {
        let path = |s: &str| s.split("::").map(str::to_string).collect::<Vec<_>>();
        uses.get(&path(from)).is_some_and(|t| t.contains(&path(to)))
    };
    for (from, to) in [
        ("pipeline", "builder"),
        ("builder::nodes", "config::refs::objects"),
        ("builder::transform_reference", "addrs::parse_ref"),
        // `crate::addrs::{Reference, parse_ref}`: a re-export, resolved to where it is defined.
        ("config::refs::references", "addrs::parse_ref"),
        // `super::Diagnostic`-style uses of config's re-export of the top-level diagnostics.
        ("config::load", "diag"),
        ("layout::coord", "layout::model"),
        ("walk::report", "walk::walker"),
        // The app: views use the context through the prelude, the context uses the browser glue.
        ("app::walk", "app::prelude"),
        ("app::prelude", "app::ctx"),
        ("app::ctx", "app::storage"),
        ("app", "app::graph"),
    ] {
        assert!(has(from, to), "{from} should use {to}");
    }
}

/// Writes a tiny crate and returns its cycles: the check itself must be able to fail.
fn cycles_in(files: &[(&str, &str)]) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!(
        "tfgraph-module-graph-{}-{}",
        std::process::id(),
        files.len()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let found = cycles(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    found
}

#[test]
fn a_cycle_is_found_and_named() {
    let found = cycles_in(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
        ("a.rs", "use crate::b::B;\npub struct A(B);\n"),
        // A path in code, not a `use` line; a string and a comment that only look like uses.
        (
            "b.rs",
            "pub struct B;\npub fn f() -> Option<crate::c::C> { let _ = \"crate::a::A\"; None }\n// crate::a::A\n",
        ),
        (
            "c.rs",
            "pub struct C;\nimpl C { pub fn g(_: &super::a::A) {} }\n",
        ),
    ]);
    assert_eq!(
        found,
        vec!["src/: a -> b -> c -> a (all of: a, b, c)".to_string()]
    );
}

#[test]
fn re_exports_and_test_code_make_no_cycle_but_a_folder_can_have_one() {
    let files = [
        ("lib.rs", "pub mod f;\npub mod base;\n"),
        (
            "base.rs",
            "pub struct Base;\n#[cfg(test)]\nmod tests {\n    use crate::f::X;\n}\n",
        ),
        // The facade re-exports its children; they use each other only through it.
        ("f/mod.rs", "mod x;\nmod y;\npub use x::X;\npub use y::Y;\n"),
        ("f/x.rs", "use crate::base::Base;\npub struct X(Base);\n"),
        ("f/y.rs", "use super::X;\npub struct Y(X);\n"),
    ];
    assert_eq!(cycles_in(&files), Vec::<String>::new());
    // x now uses y: inside f/ that is x -> y -> x.
    let mut cyclic = files;
    cyclic[3] = (
        "f/x.rs",
        "use crate::base::Base;\npub struct X(Base, Option<Box<super::Y>>);\n",
    );
    assert_eq!(
        cycles_in(&cyclic),
        vec!["src/f/: x -> y -> x (all of: x, y)".to_string()]
    );
}

//! Which files of a module folder OpenTofu reads, and which of them are override files
//! (`internal/configs/parser_config_dir.go`). Shared by the loader, which sorts a folder's files,
//! and the decoder, where some blocks mean something else in an override file; and how paths
//! relative to the root module folder are written (the loader and the module manifest).

/// True for file names OpenTofu reads as configuration (`.tf`, `.tf.json`), skipping hidden
/// and editor backup files as Go's `IsIgnoredFile` does.
pub fn is_config_file_name(name: &str) -> bool {
    if name.starts_with('.')
        || name.ends_with('~')
        || (name.starts_with('#') && name.ends_with('#'))
    {
        return false;
    }
    name.ends_with(".tf")
        || name.ends_with(".tf.json")
        || name.ends_with(".tofu")
        || name.ends_with(".tofu.json")
}

/// True for override files (`override.tf`, `x_override.tf`, and the JSON forms).
pub fn is_override_file_name(name: &str) -> bool {
    let stem = name
        .strip_suffix(".tf.json")
        .or_else(|| name.strip_suffix(".tofu.json"))
        .or_else(|| name.strip_suffix(".tf"))
        .or_else(|| name.strip_suffix(".tofu"))
        .unwrap_or(name);
    stem == "override" || stem.ends_with("_override")
}

/// Joins and normalises slash-separated relative paths, keeping leading `..` steps.
pub fn normalize_path(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if matches!(out.last(), Some(l) if *l != "..") {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out.join("/")
}

/// `path` (relative to some folder) as seen from `root` (relative to the same folder): both are
/// normalised, then every step of `root` that `path` does not share becomes `..`. So
/// `relative_to("examples/complete", "main.tf")` is `../../main.tf`, the name OpenTofu gives a
/// file of a module that `source = "../../"` reaches from that root.
pub fn relative_to(root: &str, path: &str) -> String {
    let root = normalize_path(root);
    let path = normalize_path(path);
    let r: Vec<&str> = root.split('/').filter(|s| !s.is_empty()).collect();
    let p: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let common = r.iter().zip(&p).take_while(|(a, b)| a == b).count();
    let mut out: Vec<&str> = vec![".."; r.len() - common];
    out.extend(&p[common..]);
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_relative_to_a_root_climb_out_of_it() {
        assert_eq!(relative_to("", "a/b.tf"), "a/b.tf");
        assert_eq!(relative_to("examples/complete", "main.tf"), "../../main.tf");
        assert_eq!(
            relative_to("examples/complete", "examples/complete/main.tf"),
            "main.tf"
        );
        assert_eq!(relative_to("examples/a", "examples/b/x.tf"), "../b/x.tf");
        // And back: the root joined with the relative path is the path.
        assert_eq!(normalize_path("examples/complete/../../main.tf"), "main.tf");
    }

    #[test]
    fn override_files() {
        assert!(is_override_file_name("x_override.tf"));
        assert!(!is_override_file_name("main.tf"));
    }
}

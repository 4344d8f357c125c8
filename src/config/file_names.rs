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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_files() {
        assert!(is_override_file_name("x_override.tf"));
        assert!(!is_override_file_name("main.tf"));
    }
}

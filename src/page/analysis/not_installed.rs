//! Module calls that are not installed: drawn as one opaque module each, marked, and named in a
//! notice.

/// A module call that is not installed (no `.terraform/modules` record): drawn as one opaque
/// module, marked, and named in a notice.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NotInstalled {
    /// The module's path (`module.vpc`, `module.app.module.db`).
    pub module: String,
    /// The call's source as written.
    pub source: String,
    /// Where the call is (`main.tf:12,1-13`... as the editor names the file).
    pub file: String,
    pub line: usize,
}

/// Whether a vertex of kind `typed` is the `(expand)` or `(close)` vertex of a call that is not
/// installed.
pub fn is_not_installed(list: &[NotInstalled], typed: &crate::kind::Typed) -> bool {
    use crate::kind::VertexKind;
    if !matches!(
        typed.kind,
        VertexKind::ModuleExpand | VertexKind::ModuleClose
    ) {
        return false;
    }
    let module = typed.clusters().join(".");
    list.iter().any(|n| n.module == module)
}

/// The notice for calls that are not installed, naming them ("module.vpc
/// (terraform-aws-modules/vpc/aws)", at most five, then how many more).
pub fn not_installed_notice(list: &[NotInstalled]) -> Option<String> {
    if list.is_empty() {
        return None;
    }
    let named: Vec<String> = list
        .iter()
        .take(5)
        .map(|n| format!("{} ({})", n.module, n.source))
        .collect();
    let more = list.len().saturating_sub(named.len());
    Some(format!(
        "Not installed: {}{}. {} drawn as one box with its known edges; run \"tofu init\" and open the folder with its .terraform to see inside.",
        named.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        },
        if list.len() == 1 { "It is" } else { "Each is" }
    ))
}

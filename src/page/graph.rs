//! The page's graph: each vertex with its name, how it is drawn (its [`Kind`]) and the module
//! box it is drawn in, over the engine's [`dag::Indexed`]. Kinds and boxes are read from
//! OpenTofu's vertex names here, the same names the builder's steps record, so replayed vertices
//! that no longer exist are classified too.

use crate::dag;

/// A vertex as the page knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageVertex {
    pub name: String,
    pub kind: Kind,
    /// The module box it is drawn in (`["module.a", "module.b"]`), see [`cluster_of`].
    pub cluster: Vec<String>,
}

impl PageVertex {
    pub fn new(name: impl Into<String>) -> PageVertex {
        let name = name.into();
        PageVertex {
            kind: classify(&name),
            cluster: cluster_of(&name),
            name,
        }
    }
}

impl dag::Vertex for PageVertex {
    fn name(&self) -> String {
        self.name.clone()
    }
}

/// The graph the page shows, draws and walks.
pub type PageGraph = dag::Indexed<PageVertex>;

/// A page graph of `names` (indexes in this order) and `edges` ("from depends on to").
pub fn graph_of(
    names: impl IntoIterator<Item = String>,
    edges: impl IntoIterator<Item = (usize, usize)>,
) -> PageGraph {
    dag::Indexed::new(names.into_iter().map(PageVertex::new).collect(), edges)
}

/// The name of vertex `i` ("" when out of range).
pub fn name(g: &PageGraph, i: usize) -> &str {
    g.vertex(i).map_or("", |v| v.name.as_str())
}

/// How a vertex is drawn: one colour and shape per kind (see the legend).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Resource,
    Data,
    Provider,
    Variable,
    Local,
    Output,
    ModuleExpand,
    ModuleClose,
    Root,
    Destroy,
    /// A module collapsed into one vertex by the viewer (not an OpenTofu vertex).
    Collapsed,
    Other,
}

impl Kind {
    pub const LEGEND: [Kind; 12] = [
        Kind::Resource,
        Kind::Data,
        Kind::Provider,
        Kind::Variable,
        Kind::Local,
        Kind::Output,
        Kind::ModuleExpand,
        Kind::ModuleClose,
        Kind::Root,
        Kind::Destroy,
        Kind::Collapsed,
        Kind::Other,
    ];

    /// The CSS class suffix (`kind-…`).
    pub fn css(self) -> &'static str {
        match self {
            Kind::Resource => "resource",
            Kind::Data => "data",
            Kind::Provider => "provider",
            Kind::Variable => "variable",
            Kind::Local => "local",
            Kind::Output => "output",
            Kind::ModuleExpand => "module-expand",
            Kind::ModuleClose => "module-close",
            Kind::Root => "root",
            Kind::Destroy => "destroy",
            Kind::Collapsed => "collapsed",
            Kind::Other => "other",
        }
    }

    /// Words for people.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Resource => "resource",
            Kind::Data => "data source",
            Kind::Provider => "provider",
            Kind::Variable => "variable",
            Kind::Local => "local value",
            Kind::Output => "output",
            Kind::ModuleExpand => "module expand",
            Kind::ModuleClose => "module close",
            Kind::Root => "root",
            Kind::Destroy => "destroy / deposed",
            Kind::Collapsed => "collapsed module",
            Kind::Other => "other",
        }
    }
}

/// The suffix of the vertex that stands for a collapsed module: `module.net (collapsed: 6)`.
pub const COLLAPSED: &str = "collapsed";

/// The name of the vertex standing for the collapsed module `path` (`module.a.module.b`), which
/// hides `hidden` vertices.
pub fn collapsed_name(path: &str, hidden: usize) -> String {
    format!("{path} ({COLLAPSED}: {hidden})")
}

/// The module path a collapsed module's vertex stands for.
pub fn collapsed_path(name: &str) -> Option<&str> {
    name.find(&format!(" ({COLLAPSED}")).map(|i| &name[..i])
}

/// Splits leading `module.NAME` steps off a vertex name: the module path and the rest.
fn module_prefix(name: &str) -> (Vec<String>, &str) {
    let mut path = Vec::new();
    let mut rest = name;
    while let Some(after) = rest.strip_prefix("module.") {
        let end = after.find(['.', ' ']).unwrap_or(after.len());
        let seg = &after[..end];
        match after[end..].chars().next() {
            Some('.') => {
                path.push(format!("module.{seg}"));
                rest = &after[end + 1..];
            }
            // `module.x (expand)` or `module.x`: the module's own vertex.
            _ => break,
        }
    }
    (path, rest)
}

/// The kind of a vertex, from its OpenTofu name (the same names the builder's steps record, so
/// replayed vertices that no longer exist can be classified too).
pub fn classify(name: &str) -> Kind {
    if name == "root" {
        return Kind::Root;
    }
    let (_, rest) = module_prefix(name);
    let suffix = rest.rfind(" (").map(|i| &rest[i + 2..]).unwrap_or("");
    if suffix.starts_with("destroy")
        || suffix.starts_with("deposed")
        || suffix.starts_with("orphan")
    {
        return Kind::Destroy;
    }
    if rest.starts_with("provider[") || rest.starts_with("provider.") {
        return Kind::Provider;
    }
    if rest.starts_with("module.") {
        return if suffix.starts_with(COLLAPSED) {
            Kind::Collapsed
        } else if suffix.starts_with("close") {
            Kind::ModuleClose
        } else {
            Kind::ModuleExpand
        };
    }
    let first = rest.split(['.', ' ']).next().unwrap_or("");
    match first {
        "var" => Kind::Variable,
        "local" => Kind::Local,
        "output" => Kind::Output,
        "data" => Kind::Data,
        "check" | "" => Kind::Other,
        _ if rest.contains('.') => Kind::Resource,
        _ => Kind::Other,
    }
}

/// The module cluster a vertex is drawn in: its module path; a module's own expand and close
/// vertices go inside the module's box, so each box opens with its expand and ends with its close.
pub fn cluster_of(name: &str) -> Vec<String> {
    let (mut path, rest) = module_prefix(name);
    // A collapsed module is drawn in its parent's box, in place of its own.
    if let Some(after) = rest.strip_prefix("module.")
        && !rest.contains(&format!(" ({COLLAPSED}"))
    {
        let end = after.find(['.', ' ']).unwrap_or(after.len());
        path.push(format!("module.{}", &after[..end]));
    }
    path
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_names() {
        for (name, kind) in [
            ("root", Kind::Root),
            ("aws_instance.web", Kind::Resource),
            ("aws_instance.web (expand)", Kind::Resource),
            ("module.net.aws_vpc.this (expand)", Kind::Resource),
            ("data.aws_ami.ubuntu (expand)", Kind::Data),
            (
                "provider[\"registry.opentofu.org/hashicorp/aws\"]",
                Kind::Provider,
            ),
            (
                "module.net.provider[\"registry.opentofu.org/hashicorp/aws\"] (close)",
                Kind::Provider,
            ),
            ("var.region", Kind::Variable),
            ("module.net.var.cidr (expand)", Kind::Variable),
            ("local.tags (expand)", Kind::Local),
            ("output.ip (expand)", Kind::Output),
            ("module.net (expand)", Kind::ModuleExpand),
            ("module.net (close)", Kind::ModuleClose),
            ("module.net (collapsed: 3)", Kind::Collapsed),
            ("aws_instance.old (orphan)", Kind::Destroy),
            ("aws_instance.a (destroy)", Kind::Destroy),
            ("aws_instance.a[0] (deposed 00000001)", Kind::Destroy),
            ("check.health", Kind::Other),
        ] {
            assert_eq!(classify(name), kind, "{name}");
        }
    }

    #[test]
    fn boxes_from_module_paths() {
        assert!(cluster_of("aws_vpc.a").is_empty());
        assert_eq!(
            cluster_of("module.a.module.b.aws_vpc.x"),
            ["module.a", "module.b"]
        );
        // A module's own expand and close vertices are inside its box.
        assert_eq!(cluster_of("module.a (expand)"), ["module.a"]);
        assert_eq!(
            cluster_of("module.a.module.b (close)"),
            ["module.a", "module.b"]
        );
        // A collapsed module is drawn in its parent's box.
        assert_eq!(cluster_of("module.a.module.b (collapsed: 4)"), ["module.a"]);
        assert_eq!(
            collapsed_path("module.a.module.b (collapsed: 4)"),
            Some("module.a.module.b")
        );
        assert_eq!(collapsed_name("module.a", 2), "module.a (collapsed: 2)");
    }
}

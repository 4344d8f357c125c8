//! Why each edge exists: the transform that added it, the references in the configuration that
//! caused it (reference and `depends_on` edges, calls of provider-defined functions) and, for
//! transforms that add edges of several kinds, which kind.
//!
//! `builder::Graph` records an [`EdgeWhy`] whenever an edge is added (the runner tells the graph
//! which transform is running, so call sites only name a reason where one transform makes edges
//! of several kinds). Records are never dropped: the edges transitive reduction (or any other
//! transform) removed keep theirs. [`describe`] puts a why in a few words, for the CLI and the
//! page; `builder::why_paths` answers "by which edges does FROM wait for TO".

use crate::addrs::Reference;
use crate::config::refs::ProviderFunctionRef;
use crate::dag::render::json::{JsonRefSite, JsonWhy};

/// Where a reference that caused an edge is written: the file (relative to the root module
/// folder), the 1-based line and column where HCL's traversal starts, and the traversal as
/// written in its normal form (`data.aws_ami.ubuntu.id`, `provider::aws::arn_parse`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct RefSite {
    pub file: std::sync::Arc<str>,
    pub line: usize,
    pub column: usize,
    pub text: String,
}

impl RefSite {
    /// The site of a reference (Go `Reference.DisplayString` as its text).
    pub fn of_reference(r: &Reference) -> Self {
        let range = r.range.get();
        RefSite {
            file: range.file,
            line: range.start.line,
            column: range.start.column,
            text: r.display_string(),
        }
    }

    /// The site of a call of a provider-defined function.
    pub fn of_function(f: &ProviderFunctionRef) -> Self {
        RefSite {
            file: f.range.file.clone(),
            line: f.range.start.line,
            column: f.range.start.column,
            text: f.to_string(),
        }
    }

    /// `main.tf:14`: where to open the file.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Why one edge exists.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EdgeWhy {
    /// The transform that added the edge (its OpenTofu name, as in the build steps); empty when
    /// the edge was added outside a builder run (a transform applied on its own).
    pub transform: &'static str,
    /// The kind of edge, for transforms that add several kinds ("destroy before create").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The references that caused it, in the order they were found, each once. When a later
    /// transform adds an edge that is already there because of references, its references are
    /// added here (the transform stays the first one).
    pub references: Vec<RefSite>,
}

impl EdgeWhy {
    pub(super) fn new(transform: &'static str, reason: Option<&'static str>) -> Self {
        EdgeWhy {
            transform,
            reason,
            references: Vec::new(),
        }
    }

    pub(super) fn add_references(&mut self, refs: impl IntoIterator<Item = RefSite>) {
        // Room for exactly these: most edges have one reference, and a vector grown by pushes
        // makes room for four (at 10,000 resources, 5 MB of 64-byte sites never written).
        let refs = refs.into_iter();
        self.references.reserve_exact(refs.size_hint().0);
        for r in refs {
            if !self.references.contains(&r) {
                self.references.push(r);
            }
        }
    }

    /// The plain form `tfgraph graph --format json` gives each edge.
    pub fn json(&self) -> JsonWhy {
        JsonWhy {
            transform: self.transform.to_string(),
            reason: describe(self),
            references: self
                .references
                .iter()
                .map(|r| JsonRefSite {
                    file: r.file.to_string(),
                    line: r.line,
                    column: r.column,
                    text: r.text.clone(),
                })
                .collect(),
        }
    }
}

/// The edge in a few words: its references (`main.tf:14 data.aws_ami.ubuntu.id`, several joined
/// by `, `), else the kind its transform gave it, else what the transform's edges mean.
pub fn describe(w: &EdgeWhy) -> String {
    if !w.references.is_empty() {
        return w
            .references
            .iter()
            .map(|r| format!("{} {}", r.location(), r.text))
            .collect::<Vec<_>>()
            .join(", ");
    }
    if let Some(r) = w.reason {
        return r.to_string();
    }
    transform_reason(w.transform).to_string()
}

/// What the edges of a transform mean, for transforms whose edges are all of one kind (the
/// others name a reason at each call site).
fn transform_reason(transform: &str) -> &'static str {
    match transform {
        "ReferenceTransformer" => "a reference",
        "ProviderTransformer" => "provider of this resource",
        "ProviderFunctionTransformer" => "provider of a function it calls",
        "RootVariableTransformer" | "ModuleVariableTransformer" => "the variable's value",
        "DiffTransformer" => "instance of this resource",
        "ModuleExpansionTransformer" => "module expansion",
        "checkTransformer" => "check",
        "checkStartTransformer" => "checks start after managed resources",
        "CloseableResourceTransformer" => "ephemeral resource closes after its users",
        "CloseProviderTransformer" => "provider closes after its users",
        "CloseRootModuleTransformer" => "the root module closes last",
        "DestroyEdgeTransformer" => "destroy ordering",
        "CBDEdgeTransformer" => "create before destroy",
        "" => "added outside a builder run",
        _ => "added by this transform",
    }
}

/// Reasons call sites give, so the page and the CLI word them alike.
pub mod reason {
    pub const PROVIDER_OF_RESOURCE: &str = "provider of this resource";
    pub const PROVIDER_CLOSES_AFTER_USERS: &str = "provider closes after its users";
    pub const CLOSES_PROVIDER: &str = "closes this provider";
    pub const PARENT_MODULE_EXPANDS_FIRST: &str = "parent module expands first";
    pub const MODULE_CLOSES_AFTER_EXPANDING: &str = "module closes after it expands";
    pub const INSIDE_MODULE: &str = "expansion of its module";
    pub const MODULE_CLOSES_AFTER_CONTENTS: &str = "module closes after its contents";
    pub const MODULE_CLOSES_AFTER_SUBMODULES: &str = "module closes after its submodules";
    pub const PROVIDER_PASSED_TO_MODULE: &str = "provider passed to the module";
    pub const CHECK_REPORTS_AFTER_EXPANDING: &str = "check reports after it expands";
    pub const CHECK_REPORTS_AFTER_DATA: &str = "check reports after its data source";
    pub const CHECK_DATA_AFTER_START: &str = "nested data source runs after managed resources";
    pub const CHECKS_START_AFTER_RESOURCE: &str = "checks start after this resource";
    pub const DESTROY_BEFORE_CREATE: &str = "destroy before create";
    pub const DESTROY_DEPENDENCY_BEFORE_CREATE: &str =
        "a dependency it had is destroyed before this is created";
    pub const DESTROY_DEPENDENTS_FIRST: &str = "dependents are destroyed first";
    pub const DEPENDENT_DESTROYED_BEFORE_UPDATE: &str =
        "a dependent is destroyed before this is created or updated";
    pub const CREATE_BEFORE_DESTROY: &str = "create before destroy";
    pub const INSTANCE_OF_RESOURCE: &str = "instance of this resource";
    pub const FORGET_FIRST: &str = "the old object is forgotten first";
    pub const VARIABLE_VALUE: &str = "the variable's value";
    pub const EPHEMERAL_CLOSED_BY_PROVIDER: &str = "its provider closes the ephemeral resource";
    pub const EPHEMERAL_CLOSES_AFTER_USERS: &str = "ephemeral resource closes after its users";
    pub const CLOSES_EPHEMERAL: &str = "closes this ephemeral resource";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::graph::Graph;
    use crate::builder::transform::Operation;
    use crate::builder::{
        BuilderKind, Built, apply_steps, build_from_files, run_steps, test_inputs, test_schemas,
        test_state,
    };
    use std::collections::BTreeMap;

    fn built(files: &[(&str, &str)]) -> Built {
        let files: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let (b, diags) = build_from_files(&files, BuilderKind::Plan, true);
        let b = b.unwrap_or_else(|| panic!("{diags:?}"));
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        b
    }

    fn why<'a>(b: &'a Built, from: &str, to: &str) -> &'a EdgeWhy {
        let g = &b.graph;
        let (f, t) = (g.find(from).expect(from), g.find(to).expect(to));
        g.why(f, t)
            .unwrap_or_else(|| panic!("no why for {from} -> {to}\n{}", g.string()))
    }

    const WEB: &str = "data \"aws_ami\" \"ubuntu\" {}\n\nresource \"aws_instance\" \"web\" {\n  ami = data.aws_ami.ubuntu.id\n}\n";
    const AWS: &str = "provider[\"registry.opentofu.org/hashicorp/aws\"]";

    #[test]
    fn a_reference_edge_carries_where_the_reference_is_written() {
        let b = built(&[("main.tf", WEB)]);
        let w = why(
            &b,
            "aws_instance.web (expand)",
            "data.aws_ami.ubuntu (expand)",
        );
        assert_eq!(w.transform, "ReferenceTransformer");
        // Line 4 is `  ami = data.aws_ami.ubuntu.id`: the traversal starts at column 9.
        assert_eq!(
            w.references,
            [RefSite {
                file: "main.tf".into(),
                line: 4,
                column: 9,
                text: "data.aws_ami.ubuntu.id".into(),
            }]
        );
        assert_eq!(describe(w), "main.tf:4 data.aws_ami.ubuntu.id");
    }

    #[test]
    fn a_provider_edge_names_the_provider_transformer() {
        let b = built(&[("main.tf", WEB)]);
        let w = why(&b, "aws_instance.web (expand)", AWS);
        assert_eq!(w.transform, "ProviderTransformer");
        assert!(w.references.is_empty());
        assert_eq!(describe(w), "provider of this resource");
        let j = w.json();
        assert_eq!(j.transform, "ProviderTransformer");
        assert_eq!(j.reason, "provider of this resource");
        assert!(j.references.is_empty());
    }

    #[test]
    fn a_depends_on_edge_carries_the_depends_on_traversal() {
        let b = built(&[(
            "main.tf",
            "resource \"aws_instance\" \"a\" {}\nresource \"aws_instance\" \"b\" {\n  depends_on = [aws_instance.a]\n}\n",
        )]);
        let w = why(&b, "aws_instance.b (expand)", "aws_instance.a (expand)");
        assert_eq!(w.transform, "ReferenceTransformer");
        assert_eq!(
            w.references,
            [RefSite {
                file: "main.tf".into(),
                line: 3,
                column: 17,
                text: "aws_instance.a".into(),
            }]
        );
    }

    #[test]
    fn every_reference_to_the_same_vertex_is_kept_once() {
        let b = built(&[(
            "main.tf",
            "variable \"n\" {}\nresource \"aws_instance\" \"a\" {\n  count = var.n\n  tags  = { n = var.n, m = var.n }\n}\n",
        )]);
        let w = why(&b, "aws_instance.a (expand)", "var.n (expand, reference)");
        let at: Vec<(usize, usize)> = w.references.iter().map(|r| (r.line, r.column)).collect();
        assert_eq!(at, [(3, 11), (4, 17), (4, 28)]);
        assert!(w.references.iter().all(|r| r.text == "var.n"));
    }

    #[test]
    fn references_in_a_module_call_point_into_the_calling_file() {
        let b = built(&[
            (
                "main.tf",
                "variable \"region\" {}\nmodule \"m\" {\n  source = \"./m\"\n  region = var.region\n}\n",
            ),
            ("m/main.tf", "variable \"region\" {}\n"),
        ]);
        let w = why(
            &b,
            "module.m.var.region (expand, input)",
            "var.region (expand, reference)",
        );
        assert_eq!(w.transform, "ReferenceTransformer");
        assert_eq!(
            (&*w.references[0].file, w.references[0].line),
            ("main.tf", 4)
        );
        let w = why(
            &b,
            "module.m.var.region (expand, input)",
            "module.m (expand)",
        );
        assert_eq!(w.transform, "ModuleExpansionTransformer");
        assert_eq!(describe(w), reason::INSIDE_MODULE);
    }

    #[test]
    fn edges_removed_by_transitive_reduction_keep_their_why() {
        // b refers to a and to var.v; a refers to var.v, so b -> var.v is implied and removed.
        let b = built(&[(
            "main.tf",
            "variable \"v\" {}\nresource \"aws_instance\" \"a\" { x = var.v }\nresource \"aws_instance\" \"b\" {\n  x = aws_instance.a.id\n  y = var.v\n}\n",
        )]);
        let (bn, v) = ("aws_instance.b (expand)", "var.v (expand, reference)");
        let reduction = b
            .steps
            .iter()
            .find(|s| s.name == "TransitiveReductionTransformer")
            .expect("reduction step");
        assert!(
            reduction.removed_edges.contains(&(bn.into(), v.into())),
            "{reduction:?}"
        );
        let w = why(&b, bn, v);
        assert_eq!(w.transform, "ReferenceTransformer");
        assert_eq!((w.references[0].line, w.references[0].column), (5, 7));
        assert_eq!(b.graph.why_named(bn, v), Some(w));
        let all = b.graph.whys_by_name();
        assert_eq!(all.get(&(bn.to_string(), v.to_string())), Some(&w));
        // Every edge of the final graph has one, and names an OpenTofu transform.
        for (f, t) in b.graph.edges() {
            let w = b.graph.why(f, t).expect("why of every edge");
            assert!(w.transform.ends_with("Transformer"), "{w:?}");
        }
    }

    #[test]
    fn removed_vertices_keep_their_edges_whys_by_name() {
        let mut g = Graph::new();
        g.set_transform("ConfigTransformer");
        let a = g.add(crate::builder::Node::Root);
        let v = g.add(crate::builder::Node::RootVariable { name: "x".into() });
        g.connect(a, v);
        g.set_transform("pruneUnusedNodesTransformer");
        g.remove(v);
        let w = g
            .why_named("root", "var.x")
            .expect("why of a removed vertex's edge");
        assert_eq!(w.transform, "ConfigTransformer");
        assert!(
            g.whys_by_name()
                .contains_key(&("root".into(), "var.x".into()))
        );
    }

    #[test]
    fn a_later_transform_adds_its_references_to_an_edge_that_is_there() {
        let mut g = Graph::new();
        let a = g.add(crate::builder::Node::Root);
        let v = g.add(crate::builder::Node::RootVariable { name: "x".into() });
        g.set_transform("ModuleExpansionTransformer");
        g.connect_because(a, v, reason::INSIDE_MODULE);
        g.set_transform("ReferenceTransformer");
        let site = RefSite {
            file: "main.tf".into(),
            line: 1,
            column: 1,
            text: "var.x".into(),
        };
        g.connect_for_references(a, v, vec![site.clone(), site.clone()]);
        let w = g.why(a, v).expect("why");
        assert_eq!(w.transform, "ModuleExpansionTransformer");
        assert_eq!(w.references, [site]);
        // An edge removed and added again by another transform gets the new why.
        g.remove_edge(a, v);
        g.set_transform("CBDEdgeTransformer");
        g.connect(a, v);
        assert_eq!(g.why(a, v).map(|w| w.transform), Some("CBDEdgeTransformer"));
    }

    #[test]
    fn destroy_edges_say_which_ordering_they_are() {
        let config = "resource \"test_object\" \"a\" {}\nresource \"test_object\" \"b\" {\n  test_string = test_object.a.test_string\n}\n";
        let state = test_state(&[
            ("a", r#"[{"attributes": {}}]"#),
            (
                "b",
                r#"[{"attributes": {}, "dependencies": ["test_object.a"]}]"#,
            ),
        ]);
        let changes = r#"[{"addr": "test_object.a", "action": "delete-then-create"},
                          {"addr": "test_object.b", "action": "delete-then-create"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", config)],
            Some(&state),
            Some(changes),
            Some(&schemas),
        );
        let b = run_steps(&apply_steps(&inputs, Operation::Apply));
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let w = why(&b, "test_object.a", "test_object.a (destroy)");
        assert_eq!(w.transform, "DestroyEdgeTransformer");
        assert_eq!(describe(w), "destroy before create");
        let w = why(&b, "test_object.a (destroy)", "test_object.b (destroy)");
        assert_eq!(describe(w), reason::DESTROY_DEPENDENTS_FIRST);
        for (f, t) in b.graph.edges() {
            let w = b.graph.why(f, t).expect("why of every edge");
            assert!(!w.transform.is_empty(), "{w:?}");
        }
    }
}

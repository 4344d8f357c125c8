//! The vertex details panel as data: what the vertex is (its kind and the suffix of its name in
//! words), what it depends on and what depends on it, each with why the edge exists and whether
//! transitive reduction removed it. Nothing here knows about the DOM.

use super::analysis::{Analysis, RefLink};
use super::view::{Shown, reduced_edges};
use crate::kind::{ProviderRole, ResourceRole, Typed, VariableRole, VertexKind};

/// One dependency or dependent of the selected vertex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The other vertex.
    pub name: String,
    /// Why the edge exists, in a few words ("provider of this resource", "a reference");
    /// empty when the engine did not record it (an imported DOT graph, a collapsed module).
    pub reason: String,
    /// The references in the configuration that caused it, to open in the editor.
    pub refs: Vec<RefLink>,
    /// Transitive reduction removed the edge: a longer path already implies it, so `tofu graph`
    /// does not print it and it is drawn dashed with the reduction off.
    pub reduced: bool,
}

/// What the vertex `name` depends on and what depends on it, sorted by name, each edge with its
/// why. For the built graph (no step chosen) these are all its edges, the ones transitive
/// reduction removed included and marked; for a replayed step or a collapsed view, the edges
/// shown.
pub fn links(a: &Analysis, s: &Shown, name: &str) -> (Vec<Link>, Vec<Link>) {
    let mut deps = Vec::new();
    let mut users = Vec::new();
    let final_graph = a
        .graph
        .as_ref()
        .filter(|_| s.replay.is_none())
        .and_then(|g| Some((g, g.index_of(name)?)));
    let mut push = |from: &str, to: &str, reduced: bool, dep: bool| {
        let why = a.whys.get(&(from.to_string(), to.to_string()));
        let link = Link {
            name: if dep { to } else { from }.to_string(),
            reason: why.map(|w| w.reason.clone()).unwrap_or_default(),
            refs: why.map(|w| w.refs.clone()).unwrap_or_default(),
            reduced,
        };
        if dep {
            deps.push(link)
        } else {
            users.push(link)
        }
    };
    let n = |g: &super::graph::PageGraph, i: usize| super::graph::name(g, i).to_string();
    if let Some((g, i)) = final_graph {
        for &d in g.dependencies(i) {
            push(name, &n(g, d), false, true);
        }
        for &u in g.dependents(i) {
            push(&n(g, u), name, false, false);
        }
        for (from, to) in reduced_edges(&a.reduced, g) {
            if from == i {
                push(name, &n(g, to), true, true);
            } else if to == i {
                push(&n(g, from), name, true, false);
            }
        }
    } else if let Some(i) = s.graph.index_of(name) {
        let g = &s.graph;
        for &d in g.dependencies(i) {
            push(name, &n(g, d), s.dashed.contains(&(i, d)), true);
        }
        for &u in g.dependents(i) {
            push(&n(g, u), name, s.dashed.contains(&(u, i)), false);
        }
    }
    for v in [&mut deps, &mut users] {
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v.dedup_by(|a, b| a.name == b.name);
    }
    (deps, users)
}

/// The vertex declared by the block that starts at `line` of `file` (the editor's path), as the
/// shown graph has it: code to graph. Of several (`var.x` and `var.x (expand, reference)`, a
/// resource's instances), the one with the shortest name.
pub fn vertex_declared_at(a: &Analysis, s: &Shown, file: &str, line: usize) -> Option<String> {
    a.decls
        .iter()
        .filter(|(name, d)| d.file == file && d.line == line && s.graph.index_of(name).is_some())
        .map(|(name, _)| name)
        .min_by_key(|name| (name.len(), name.as_str()))
        .cloned()
}

/// The vertex of the block a line of `file` lies in: the last of `block_lines` (the outline's
/// block start lines, ascending) at or before `line` whose block declares a vertex.
pub fn vertex_at_line(
    a: &Analysis,
    s: &Shown,
    file: &str,
    block_lines: &[usize],
    line: usize,
) -> Option<String> {
    let start = block_lines.iter().rev().find(|&&b| b <= line)?;
    vertex_declared_at(a, s, file, *start)
}

/// What a vertex of kind `t` is (OpenTofu's node types, which its name's suffix tells), in one
/// or two sentences.
pub fn about(t: &Typed) -> &'static str {
    match &t.kind {
        VertexKind::Root => {
            "The graph's single end: it waits for everything, so the walk is over when it is done. For plan graphs it also closes the root module."
        }
        VertexKind::Provider(ProviderRole::Close) => {
            "Closes the provider (stops its plugin) once every resource that uses it is done."
        }
        VertexKind::ModuleClose => {
            "The end of a module call: it waits for everything inside the module, so what uses the module as a whole (its outputs) comes after all of it."
        }
        VertexKind::Resource {
            role: ResourceRole::Close,
            ..
        } => "Closes every instance of an ephemeral resource once everything that uses it is done.",
        VertexKind::ModuleExpand | VertexKind::ModuleInstance => {
            "The start of a module call: it evaluates the call's count or for_each, and everything inside the module waits for it."
        }
        VertexKind::Resource {
            role: ResourceRole::Expand,
            ..
        }
        | VertexKind::Local { .. }
        | VertexKind::Output { .. }
        | VertexKind::CheckExpand => {
            "The whole object before its instances are known: when the walk reaches it, it evaluates count or for_each and expands into one vertex per instance (DynamicExpand), which are walked in turn."
        }
        VertexKind::Variable(VariableRole::Reference) => {
            "The variable's value as the module's expressions see it: references to var.… point here, and its validation rules run here."
        }
        VertexKind::Variable(VariableRole::Input) => {
            "The value a module call passes into the module's input variable: it evaluates the argument in the calling module."
        }
        VertexKind::Resource {
            role: ResourceRole::Orphan,
            ..
        } => "Only in the state: the configuration no longer declares it, so the plan destroys it.",
        VertexKind::Resource {
            role: ResourceRole::Destroy,
            ..
        }
        | VertexKind::OutputDestroy => {
            "Destroys the object: in apply and destroy graphs, a change is split into a destroy vertex and a create vertex, ordered by create_before_destroy."
        }
        VertexKind::Resource {
            role: ResourceRole::Forget,
            ..
        } => {
            "A removed block with destroy = false: the object leaves the state but is not destroyed."
        }
        VertexKind::Provider(ProviderRole::Proxy) => {
            "A provider passed into a module: it stands for the parent's provider configuration, which does the work."
        }
        VertexKind::CheckReport => "Reports the result of a check block's assertions.",
        VertexKind::CheckStart => {
            "Starts the check blocks' assertions once what they read is ready."
        }
        VertexKind::Resource {
            role: ResourceRole::Deposed | ResourceRole::DestroyDeposed,
            ..
        } => {
            "A deposed object: an older copy left behind by a create_before_destroy replacement, to be destroyed."
        }
        VertexKind::Resource {
            role: ResourceRole::ForgetDeposed,
            ..
        } => "A deposed object that leaves the state without being destroyed.",
        VertexKind::Provider(ProviderRole::Config) => {
            "A provider configuration: it is configured before the resources that use it, which wait for it."
        }
        VertexKind::Variable(VariableRole::Root) => {
            "An input variable of the root module: its value comes from -var, variable files or its default."
        }
        VertexKind::Resource {
            role: ResourceRole::Whole | ResourceRole::Instance,
            ..
        }
        | VertexKind::Other => {
            "A vertex of the configuration: what it references comes before it in the walk."
        }
    }
}

/// Why a vertex of kind `t` has no declaration to show, when it has none.
pub fn without_declaration(t: &Typed) -> &'static str {
    match &t.kind {
        VertexKind::Resource {
            role: ResourceRole::Orphan | ResourceRole::Deposed | ResourceRole::DestroyDeposed,
            ..
        } => "Not in the configuration: it comes from the state.",
        VertexKind::Provider(ProviderRole::Config | ProviderRole::Proxy) => {
            "No provider block: OpenTofu configures this provider with an empty configuration."
        }
        _ => "Added by the builder: it has no block of its own in the configuration.",
    }
}

/// "Highlighted: 3 ancestors (everything it waits for) and 1 descendant."
pub fn related_text(up: usize, down: usize) -> String {
    format!(
        "Highlighted: {up} {} (everything it waits for) and {down} {}.",
        if up == 1 { "ancestor" } else { "ancestors" },
        if down == 1 {
            "descendant"
        } else {
            "descendants"
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind of a vertex known by name alone, as a DOT file gives it.
    fn named(name: &str) -> Typed {
        crate::dag::import::typed_from_name(name)
    }
    use crate::builder::BuilderKind;
    use crate::page::analysis::{Options, analyze};
    use crate::page::view::{ViewOpts, shown};
    use std::collections::BTreeMap;

    fn files(main: &str) -> BTreeMap<String, String> {
        BTreeMap::from([("main.tf".to_string(), main.to_string())])
    }

    const WEB: &str = r#"variable "region" {
  default = "eu-west-1"
}

provider "aws" {
  region = var.region
}

data "aws_ami" "ubuntu" {}

resource "aws_instance" "web" {
  ami = data.aws_ami.ubuntu.id
}

resource "aws_eip" "ip" {
  instance   = aws_instance.web.id
  depends_on = [data.aws_ami.ubuntu]
}
"#;

    #[test]
    fn every_dependency_is_listed_with_its_reason_and_reduced_edges_are_marked() {
        let a = analyze(&files(WEB), BuilderKind::Plan, &Options::default());
        assert!(a.errors.is_empty(), "{:?}", a.errors);
        let s = shown(&a, None, &ViewOpts::default());
        let (deps, users) = links(&a, &s, "aws_instance.web (expand)");
        let by_name = |v: &[Link], n: &str| v.iter().find(|l| l.name == n).cloned();
        let ami = by_name(&deps, "data.aws_ami.ubuntu (expand)").expect("the AMI");
        assert_eq!(ami.reason, "a reference");
        assert!(!ami.reduced);
        assert_eq!(
            ami.refs,
            vec![RefLink {
                file: "main.tf".into(),
                line: 12,
                column: 9,
                text: "data.aws_ami.ubuntu.id".into()
            }]
        );
        // The provider edge: transitive reduction removes it (the AMI already waits for the
        // provider), and `tofu graph` does not print it; the panel still lists it.
        let provider = by_name(&deps, "provider[\"registry.opentofu.org/hashicorp/aws\"]")
            .expect("the provider is listed");
        assert!(provider.reduced, "{provider:?}");
        assert_eq!(provider.reason, "provider of this resource");
        assert!(provider.refs.is_empty());
        assert!(
            !s.graph.has_edge(
                s.graph.index_of("aws_instance.web (expand)").unwrap(),
                s.graph
                    .index_of("provider[\"registry.opentofu.org/hashicorp/aws\"]")
                    .unwrap()
            )
        );
        let eip = by_name(&users, "aws_eip.ip (expand)").expect("the EIP depends on it");
        assert_eq!(eip.refs[0].text, "aws_instance.web.id");
        assert_eq!((eip.refs[0].line, eip.refs[0].column), (16, 16));
        // depends_on is a reference too, at the element of the list.
        let (eip_deps, _) = links(&a, &s, "aws_eip.ip (expand)");
        let ami = by_name(&eip_deps, "data.aws_ami.ubuntu (expand)").expect("depends_on");
        assert!(ami.reduced, "implied through aws_instance.web: {ami:?}");
        assert!(
            ami.refs
                .iter()
                .any(|r| r.line == 17 && r.text == "data.aws_ami.ubuntu"),
            "{ami:?}"
        );
    }

    #[test]
    fn a_replayed_step_lists_the_edges_it_shows() {
        let a = analyze(&files(WEB), BuilderKind::Plan, &Options::default());
        let k = a
            .steps
            .iter()
            .position(|s| s.name == "ReferenceTransformer")
            .expect("references");
        let s = shown(&a, Some(k), &ViewOpts::default());
        let (deps, _) = links(&a, &s, "aws_instance.web (expand)");
        let ami = deps
            .iter()
            .find(|l| l.name == "data.aws_ami.ubuntu (expand)")
            .expect("added by this step");
        assert_eq!(ami.reason, "a reference");
        assert!(!ami.reduced);
        // Not in the graph at this step: nothing.
        assert_eq!(links(&a, &s, "root"), (Vec::new(), Vec::new()));
    }

    #[test]
    fn variables_are_declared_and_every_suffix_is_explained() {
        let a = analyze(&files(WEB), BuilderKind::Plan, &Options::default());
        let decl = a.decls.get("var.region").expect("the variable's block");
        assert_eq!(
            (decl.file.as_str(), decl.line, decl.end_line),
            ("main.tf", 1, 1)
        );
        assert!(about(&named("aws_instance.web (expand)")).contains("count or for_each"));
        assert!(about(&named("module.net (expand)")).starts_with("The start of a module call"));
        assert!(
            about(&named("module.net.aws_vpc.a (expand)"))
                .contains("expands into one vertex per instance")
        );
        assert!(about(&named("module.net (close)")).starts_with("The end of a module call"));
        assert!(
            about(&named(
                "provider[\"registry.opentofu.org/hashicorp/aws\"] (close)"
            ))
            .starts_with("Closes the provider")
        );
        assert!(
            about(&named("module.net.var.cidr (expand, reference)")).contains("references to var.")
        );
        assert!(
            about(&named("module.net.var.cidr (expand, input)")).contains("passes into the module")
        );
        assert!(about(&named("aws_instance.old (orphan)")).contains("no longer declares it"));
        assert!(
            about(&named("aws_instance.web[0] (deposed 00000001)")).starts_with("A deposed object")
        );
        assert!(about(&named("ephemeral.aws_secret.x (close)")).contains("ephemeral"));
        assert!(about(&named("root")).starts_with("The graph's single end"));
        assert_eq!(
            without_declaration(&named("aws_instance.old (orphan)")),
            "Not in the configuration: it comes from the state."
        );
        assert!(
            without_declaration(&named("provider[\"registry.opentofu.org/hashicorp/null\"]"))
                .starts_with("No provider block")
        );
        assert!(without_declaration(&named("root")).starts_with("Added by the builder"));
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(
            related_text(1, 0),
            "Highlighted: 1 ancestor (everything it waits for) and 0 descendants."
        );
        assert_eq!(
            related_text(2, 1),
            "Highlighted: 2 ancestors (everything it waits for) and 1 descendant."
        );
    }

    #[test]
    fn a_block_in_the_code_names_its_vertex() {
        let a = analyze(&files(WEB), BuilderKind::Plan, &Options::default());
        let s = shown(&a, None, &ViewOpts::default());
        assert_eq!(
            vertex_declared_at(&a, &s, "main.tf", 11).as_deref(),
            Some("aws_instance.web (expand)")
        );
        assert_eq!(
            vertex_declared_at(&a, &s, "main.tf", 1).as_deref(),
            Some("var.region")
        );
        assert_eq!(vertex_declared_at(&a, &s, "main.tf", 2), None);
        assert_eq!(vertex_declared_at(&a, &s, "other.tf", 11), None);
        // A line inside a block: the block it is in.
        let blocks = [1, 5, 9, 11, 15];
        assert_eq!(
            vertex_at_line(&a, &s, "main.tf", &blocks, 12).as_deref(),
            Some("aws_instance.web (expand)")
        );
        assert_eq!(
            vertex_at_line(&a, &s, "main.tf", &blocks, 17).as_deref(),
            Some("aws_eip.ip (expand)")
        );
        // A provider block is its provider's vertex.
        assert!(
            vertex_at_line(&a, &s, "main.tf", &blocks, 6)
                .is_some_and(|n| n.starts_with("provider["))
        );
    }
}

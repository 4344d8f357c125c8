use super::built::page_graph;
use super::*;
use crate::builder::BuilderKind;
use crate::dag;
use crate::page::examples::{EXAMPLES, files_of};
use crate::page::graph::PageGraph;
use crate::pipeline::{self, Request};
use std::collections::{BTreeMap, BTreeSet};

fn names(g: &PageGraph) -> BTreeSet<String> {
    g.vertices().iter().map(|v| v.name.clone()).collect()
}

fn edges(g: &PageGraph) -> BTreeSet<(String, String)> {
    let n = |i: usize| g.vertex(i).unwrap().name.clone();
    g.edges().iter().map(|&(a, b)| (n(a), n(b))).collect()
}

const CYCLE_STATE: &str = r#"{
  "version": 4, "terraform_version": "1.12.6", "serial": 1, "lineage": "t", "outputs": {},
  "resources": [
{"mode": "managed", "type": "aws_security_group", "name": "a",
 "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
 "instances": [{"schema_version": 0, "attributes": {"id": "sg-a"}}]},
{"mode": "managed", "type": "aws_security_group", "name": "b",
 "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
 "instances": [{"schema_version": 0, "attributes": {"id": "sg-b"}}]},
{"mode": "managed", "type": "aws_s3_bucket", "name": "old",
 "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
 "instances": [{"schema_version": 0, "attributes": {"id": "old"}}]}
  ]
}"#;

const CYCLE_PLAN: &str = r#"{
  "format_version": "1.2", "terraform_version": "1.12.6",
  "resource_changes": [
{"address": "aws_security_group.a", "mode": "managed", "type": "aws_security_group", "name": "a",
 "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["update"]}},
{"address": "aws_security_group.b", "mode": "managed", "type": "aws_security_group", "name": "b",
 "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["delete", "create"]}},
{"address": "aws_instance.app", "mode": "managed", "type": "aws_instance", "name": "app",
 "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["create"]}},
{"address": "aws_s3_bucket.logs", "mode": "managed", "type": "aws_s3_bucket", "name": "logs",
 "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["create"]}},
{"address": "aws_s3_bucket.old", "mode": "managed", "type": "aws_s3_bucket", "name": "old",
 "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["delete"]}}
  ]
}"#;

/// The cycle example with a state, a plan and a target: the graph drawn for the cycle is the
/// one the builder made from all of them (the page used to rebuild it from the configuration
/// alone when it saw the word "Cycle").
#[test]
fn the_cycle_is_drawn_from_the_state_the_plan_and_the_targets_that_made_it() {
    let cycle = EXAMPLES.iter().find(|e| e.id == "cycle").unwrap();
    let mut files = files_of(cycle);
    files
        .get_mut("main.tf")
        .unwrap()
        .push_str("\nresource \"aws_s3_bucket\" \"logs\" {}\n");
    files.insert("terraform.tfstate".into(), CYCLE_STATE.into());
    files.insert("plan.json".into(), CYCLE_PLAN.into());
    let opts = Options {
        targets: vec!["aws_instance.app".into()],
        ..Options::default()
    };
    let a = analyze(&files, BuilderKind::Apply, &opts);
    assert!(
        a.errors
            .iter()
            .any(|d| d.summary.contains("Cycle") || d.detail.contains("Cycle")),
        "{:?}",
        a.errors
    );
    let g = a.graph.as_ref().expect("the graph with the cycle is kept");
    // What the pipeline builds from the very same request, inputs and all.
    let mut req = Request::new(
        files
            .iter()
            .filter(|(p, _)| p.ends_with(".tf"))
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect(),
        BuilderKind::Apply,
    );
    req.state = Some(pipeline::NamedText::new("terraform.tfstate", CYCLE_STATE));
    req.plan_json = Some(pipeline::NamedText::new("plan.json", CYCLE_PLAN));
    req.targets = opts.targets.clone();
    let failed = match pipeline::run(&req) {
        Ok(_) => panic!("the request has a cycle"),
        Err(d) => d,
    };
    assert!(!failed.is_empty());
    use futures::FutureExt as _;
    let built = match pipeline::run_paced(&req, None, |_| std::future::ready(true))
        .now_or_never()
        .flatten()
    {
        Some(Err(f)) => f.built.expect("the builder ran"),
        _ => panic!("the request has a cycle"),
    };
    let (want, _) = page_graph(built.graph.dag());
    assert_eq!(names(g), names(&want));
    assert_eq!(edges(g), edges(&want));
    assert_eq!(*a.steps, built.steps);
    // Each input shows in the drawing: the plan's replacement splits b into destroy and
    // create, the target leaves out the bucket it does not need, and the cycle is marked.
    assert!(
        names(g).contains("aws_security_group.b (destroy)"),
        "{:?}",
        names(g)
    );
    assert!(
        !names(g).iter().any(|n| n.contains("aws_s3_bucket.logs")),
        "{:?}",
        names(g)
    );
    assert!(!a.cycles.is_empty());
    for c in &a.cycles {
        assert!(c.iter().all(|n| names(g).contains(n)));
    }
    // The configuration alone gives another graph.
    let alone = analyze(&files_of(cycle), BuilderKind::Apply, &Options::default());
    assert_ne!(alone.graph.as_ref().map(names), Some(names(g)));
}

#[test]
fn files_are_routed_by_role_and_extra_ones_are_named() {
    let mut files = files_of(EXAMPLES.iter().find(|e| e.id == "orphans").unwrap());
    files.insert("notes.md".into(), "# notes".into());
    files.insert("z.tfstate".into(), CYCLE_STATE.into());
    let a = analyze(&files, BuilderKind::Plan, &Options::default());
    let g = a.graph.as_ref().expect("built");
    // The state is read: its orphan is in the graph.
    assert!(
        names(g).iter().any(|n| n.starts_with("aws_instance.old")),
        "{:?}",
        names(g)
    );
    let warnings: Vec<&str> = a.warnings.iter().map(|d| d.summary.as_str()).collect();
    assert!(
        warnings.contains(&"Only one state is read: terraform.tfstate is used, z.tfstate ignored."),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("notes.md is ignored")),
        "{warnings:?}"
    );
    assert!(a.decls.contains_key("aws_instance.web (expand)"));
    assert_eq!(a.decls["aws_instance.web (expand)"].line, 1);
    assert!(a.exports.dot().starts_with("digraph"));
}

#[test]
fn a_dot_file_is_drawn_as_it_is_with_its_cycles() {
    let files = BTreeMap::from([(
        "g.dot".to_string(),
        "digraph {\n  \"[root] a\" -> \"[root] b\" -> \"[root] a\";\n  b -> c;\n  c -> c\n}\n"
            .to_string(),
    )]);
    let a = analyze(&files, BuilderKind::Plan, &Options::default());
    assert_eq!(a.imported.as_deref(), Some("g.dot"));
    let g = a.graph.as_ref().expect("imported");
    assert_eq!(names(g), ["a", "b", "c"].map(String::from).into());
    // The self-loop is dropped; the cycle a <-> b is found.
    assert_eq!(edges(g).len(), 3);
    assert_eq!(a.cycles.len(), 1);
    assert!(a.steps.is_empty());
    let bad = analyze(
        &BTreeMap::from([("g.dot".to_string(), "digraph {\n  a -> \n}\n".to_string())]),
        BuilderKind::Plan,
        &Options::default(),
    );
    assert!(bad.graph.is_none());
    assert_eq!(
        bad.errors[0].place.as_deref(),
        Some("g.dot line 3, column 1")
    );
}

#[test]
fn a_paced_analysis_reports_progress_and_stops_when_told() {
    use futures::FutureExt as _;
    let files = files_of(&EXAMPLES[0]);
    let mut seen = Vec::new();
    let a = analyze_with(&files, BuilderKind::Plan, &Options::default(), |p| {
        seen.push(p);
        std::future::ready(true)
    })
    .now_or_never()
    .flatten()
    .expect("finished");
    let mut at_once = analyze(&files, BuilderKind::Plan, &Options::default());
    // Exports are equal when they are one build's: compare their texts, then the rest.
    assert_eq!(a.exports.dot(), at_once.exports.dot());
    assert_eq!(a.exports.json(), at_once.exports.json());
    assert_eq!(a.exports.mermaid(), at_once.exports.mermaid());
    at_once.exports = a.exports.clone();
    assert_eq!(a, at_once);
    assert_eq!(seen[0].label, "Loading the configuration");
    assert!(
        seen.iter()
            .any(|p| p.label == "Running ReferenceTransformer")
    );
    let last = seen.last().unwrap();
    assert_eq!(
        (last.done, last.label.as_str()),
        (last.total, "Preparing the drawing")
    );
    assert!(seen.windows(2).all(|w| w[0].done < w[1].done));
    // A pause that says stop (a newer edit) ends it without a result.
    let mut calls = 0;
    let stopped = analyze_with(&files, BuilderKind::Plan, &Options::default(), |_| {
        calls += 1;
        std::future::ready(calls < 5)
    })
    .now_or_never()
    .expect("never waits");
    assert_eq!(stopped, None);
    assert_eq!(calls, 5);
}

fn map(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

fn at_root(root: &str) -> Options {
    Options {
        root: root.into(),
        ..Options::default()
    }
}

/// A small repository after `tofu init`: a root calling a registry module (installed, with
/// a local call inside the package), and an example folder that is a root module of its own
/// calling the top folder through `../../`.
fn repo() -> BTreeMap<String, String> {
    map(&[
        (
            "main.tf",
            "variable \"n\" {\n  default = 1\n}\nmodule \"net\" {\n  source  = \"acme/net/aws\"\n  version = \"~> 1.0\"\n  cidr    = \"10.0.0.0/16\"\n}\nresource \"aws_instance\" \"web\" {\n  count     = var.n\n  subnet_id = module.net.subnet_id\n}\noutput \"web\" {\n  value = aws_instance.web[0].id\n}\n",
        ),
        ("terraform.tfvars", "n = 3\nundeclared = true\n"),
        (
            "examples/two/main.tf",
            "module \"top\" {\n  source = \"../../\"\n}\n",
        ),
        ("examples/two/terraform.tfvars", "x = 1\n"),
        (
            ".terraform/modules/modules.json",
            r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"net","Source":"registry.opentofu.org/acme/net/aws","Version":"1.2.0","Dir":".terraform/modules/net"},{"Key":"net.sub","Source":"./modules/sub","Dir":".terraform/modules/net/modules/sub"}]}"#,
        ),
        (
            ".terraform/modules/net/main.tf",
            "variable \"cidr\" {}\nresource \"aws_vpc\" \"this\" {\n  cidr_block = var.cidr\n}\nmodule \"sub\" {\n  source = \"./modules/sub\"\n  vpc_id = aws_vpc.this.id\n}\noutput \"subnet_id\" {\n  value = module.sub.id\n}\n",
        ),
        (
            ".terraform/modules/net/modules/sub/main.tf",
            "variable \"vpc_id\" {}\nresource \"aws_subnet\" \"this\" {\n  vpc_id = var.vpc_id\n}\noutput \"id\" {\n  value = aws_subnet.this.id\n}\n",
        ),
    ])
}

/// The installed module is loaded from the files, its nested local call too, and the root's
/// variables file feeds the expansion: three instances from `n = 3`.
#[test]
fn installed_modules_and_variable_files_among_the_files_are_read() {
    let a = analyze(&repo(), BuilderKind::Plan, &Options::default());
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    let g = a.graph.as_ref().expect("built");
    let e = edges(g);
    for (from, to) in [
        (
            "module.net.aws_vpc.this (expand)",
            "module.net.var.cidr (expand, reference)",
        ),
        ("module.net.var.cidr (expand, input)", "module.net (expand)"),
        (
            "module.net.module.sub.var.vpc_id (expand, input)",
            "module.net.aws_vpc.this (expand)",
        ),
        (
            "aws_instance.web (expand)",
            "module.net.output.subnet_id (expand)",
        ),
    ] {
        assert!(
            e.contains(&(from.into(), to.into())),
            "{from} -> {to}: {e:?}"
        );
    }
    assert!(a.not_installed.is_empty());
    let x = a.expander.as_ref().expect("plan graphs expand");
    let crate::walk::WalkExpander::Static(e) = &mut *x.expander.lock().unwrap() else {
        panic!("the page's analysis has the configuration's expander");
    };
    let n = e
        .instances_of(&crate::dag::import::typed_from_name(
            "aws_instance.web (expand)",
        ))
        .expect("expands")
        .map(|v| v.len());
    assert_eq!(n, Ok(3));
    // internal/backend/unparsed_value.go `ParseVariableValues`: "Value for undeclared
    // variable", a warning without a position naming the variable and the file.
    let w = a
        .warnings
        .iter()
        .find(|d| d.summary == "Value for undeclared variable")
        .unwrap_or_else(|| panic!("{:?}", a.warnings));
    assert!(
        w.detail.starts_with("The root module does not declare a variable named \"undeclared\" but a value was found in file \"terraform.tfvars\"."),
        "{}",
        w.detail
    );
}

/// The page runs the same request the CLI runs on the same folder on disk: the same graph,
/// byte for byte, for the top folder and for a folder below it as the root module.
#[test]
fn the_page_and_the_cli_build_the_same_graph_from_the_same_folder() {
    let files = repo();
    let dir = std::env::temp_dir().join(format!("tfgraph-page-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (p, t) in &files {
        let f = dir.join(p);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, t).unwrap();
    }
    for root in ["", "examples/two"] {
        let page = analyze(&files, BuilderKind::Plan, &at_root(root));
        let cli = pipeline::FolderInputs::new(dir.join(root))
            .build()
            .unwrap_or_else(|e| panic!("{root}: {e:?}"));
        let want = cli
            .built
            .graph
            .dag()
            .dot(&dag::render::dot::DotOpts::cli_default());
        assert_eq!(page.exports.dot(), want, "root {root:?}");
        // The JSON export too, each edge's why (its references' files relative to the root
        // module folder) included.
        let json = page.exports.json();
        assert_eq!(json, cli.built.graph.json_graph().to_json(), "{root:?}");
        assert!(json.contains("\"why\""), "{json}");
        let warnings: Vec<String> = cli.warnings.iter().map(|d| d.summary.clone()).collect();
        let page_warnings: Vec<String> = page.warnings.iter().map(|d| d.summary.clone()).collect();
        assert_eq!(page_warnings, warnings, "root {root:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With a folder below the top as the root, `../../` reaches the top folder, the files keep
/// the editor's names in declarations and diagnostics, and that folder's own variables file
/// is the one read.
#[test]
fn a_folder_below_the_top_can_be_the_root_module() {
    let mut files = repo();
    let a = analyze(&files, BuilderKind::Plan, &at_root("examples/two"));
    let g = a.graph.as_ref().expect("built");
    assert!(
        names(g).contains("module.top.aws_instance.web (expand)"),
        "{:?}",
        names(g)
    );
    assert_eq!(
        a.decls["module.top.aws_instance.web (expand)"].file,
        "main.tf"
    );
    assert_eq!(a.decls["module.top (expand)"].file, "examples/two/main.tf");
    // That folder's terraform.tfvars is read (it sets x), not the top folder's.
    let w: Vec<&str> = a.warnings.iter().map(|d| d.detail.as_str()).collect();
    assert!(
        w.iter().any(|d| d
            .contains("a variable named \"x\" but a value was found in file \"terraform.tfvars\"")),
        "{w:?}"
    );
    assert!(!w.iter().any(|d| d.contains("\"undeclared\"")), "{w:?}");
    // The manifest is the root's: from examples/two there is none, so the registry call is
    // not installed.
    assert_eq!(a.not_installed.len(), 1, "{:?}", a.not_installed);
    assert_eq!(a.not_installed[0].module, "module.top.module.net");
    assert_eq!(a.not_installed[0].file, "main.tf");
    files.insert(
        "main.tf".into(),
        "resource \"a\" \"b\" {\n  x = \n}\n".into(),
    );
    let bad = analyze(&files, BuilderKind::Plan, &at_root("examples/two"));
    assert_eq!(
        (bad.errors[0].file.as_deref(), bad.errors[0].line),
        (Some("main.tf"), 2),
        "{:?}",
        bad.errors
    );
    assert_eq!(
        bad.errors[0].place.as_deref(),
        Some("main.tf line 2, column 7")
    );
}

/// A registry call without a manifest: one opaque module, marked and named, whose output
/// reference still gives the edge.
#[test]
fn calls_that_are_not_installed_are_marked_and_named() {
    let files = map(&[(
        "main.tf",
        "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\nresource \"aws_instance\" \"web\" {\n  subnet_id = module.vpc.vpc_id\n}\n",
    )]);
    let a = analyze(&files, BuilderKind::Plan, &Options::default());
    let g = a.graph.as_ref().expect("built");
    assert!(
        edges(g).contains(&(
            "aws_instance.web (expand)".into(),
            "module.vpc (close)".into()
        )),
        "{:?}",
        edges(g)
    );
    assert_eq!(
        a.not_installed,
        [NotInstalled {
            module: "module.vpc".into(),
            source: "terraform-aws-modules/vpc/aws".into(),
            file: "main.tf".into(),
            line: 1,
        }]
    );
    let typed = |name: &str| {
        g.vertex(g.index_of(name).expect(name))
            .unwrap()
            .typed
            .clone()
    };
    assert!(is_not_installed(
        &a.not_installed,
        &typed("module.vpc (expand)")
    ));
    assert!(is_not_installed(
        &a.not_installed,
        &typed("module.vpc (close)")
    ));
    assert!(!is_not_installed(
        &a.not_installed,
        &typed("aws_instance.web (expand)")
    ));
    assert_eq!(
        not_installed_notice(&a.not_installed).as_deref(),
        Some(
            "Not installed: module.vpc (terraform-aws-modules/vpc/aws). It is drawn as one box with its known edges; run \"tofu init\" and open the folder with its .terraform to see inside."
        )
    );
    assert!(
        a.warnings
            .iter()
            .any(|d| d.summary == "Module not installed"),
        "{:?}",
        a.warnings
    );
    assert_eq!(not_installed_notice(&[]), None);
}

#[test]
fn too_much_input_is_refused_in_words() {
    let files = BTreeMap::from([("main.tf".to_string(), "#".repeat(MAX_INPUT_BYTES + 1))]);
    let a = analyze(&files, BuilderKind::Plan, &Options::default());
    assert!(a.graph.is_none());
    assert_eq!(a.errors[0].summary, "Input too large");
}

#[test]
fn bad_targets_and_syntax_errors_keep_no_graph() {
    let files = files_of(&EXAMPLES[0]);
    let a = analyze(
        &files,
        BuilderKind::Plan,
        &Options {
            targets: vec!["not an address!".into()],
            ..Options::default()
        },
    );
    assert!(a.graph.is_none());
    assert_eq!(a.errors[0].summary, "Invalid target address");
    let a = analyze(
        &BTreeMap::from([(
            "main.tf".to_string(),
            "resource \"a\" \"b\" {\n  x = \n}\n".to_string(),
        )]),
        BuilderKind::Plan,
        &Options::default(),
    );
    assert!(a.graph.is_none() && a.cycles.is_empty());
    assert_eq!(a.errors[0].file.as_deref(), Some("main.tf"));
    assert_eq!(a.errors[0].line, 2);
}

/// The progress bar's words between builds: milliseconds under a second, else seconds to a
/// tenth.
#[test]
fn built_in_says_how_long_the_last_build_took() {
    assert_eq!(built_in(850.4), "Built in 850 ms");
    assert_eq!(built_in(999.4), "Built in 999 ms");
    assert_eq!(built_in(1000.0), "Built in 1.0 s");
    assert_eq!(built_in(1940.0), "Built in 1.9 s");
    assert_eq!(built_in(12_345.0), "Built in 12.3 s");
    assert_eq!(built_in(-3.0), "Built in 0 ms");
}

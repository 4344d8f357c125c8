use super::*;
use crate::builder::{self, BuilderKind};
use crate::config;
use std::collections::BTreeMap;

/// Preparing, running the transforms one at a time and finishing gives what `run` gives.
#[test]
fn the_stepwise_pipeline_equals_the_whole_one() {
    let text = "variable \"n\" {}\nresource \"a\" \"x\" { v = var.n }\nresource \"a\" \"y\" { v = a.x.id }\noutput \"o\" { value = a.y.id }\n";
    for kind in [BuilderKind::Plan, BuilderKind::Validate, BuilderKind::Apply] {
        let req = Request::new(
            BTreeMap::from([("main.tf".to_string(), text.to_string())]),
            kind,
        );
        let whole = run(&req).unwrap_or_else(|d| panic!("{d:?}"));
        let prepared = prepare(config::load_files(&req.files), &req).unwrap();
        let mut runner = builder::Runner::new();
        let steps = builder::steps(&prepared.inputs, kind);
        let mut applied = 0;
        for t in &steps {
            applied += 1;
            if !runner.apply(t.as_ref()) {
                break;
            }
        }
        assert_eq!(applied, steps.len());
        drop(steps);
        let mut built = runner.into_built();
        builder::validate_built(&mut built);
        let stepwise = prepared.finish(built).unwrap();
        assert_eq!(
            stepwise.built.graph.dag().string(),
            whole.built.graph.dag().string()
        );
        assert_eq!(stepwise.built.steps, whole.built.steps);
        if kind == BuilderKind::Plan {
            assert!(whole.built.graph.dag().string().contains("a.y"));
        }
    }
}

fn files(text: &str) -> BTreeMap<String, String> {
    BTreeMap::from([("main.tf".to_string(), text.to_string())])
}

#[test]
fn builds_the_plan_graph_with_references_without_schemas() {
    let req = Request::new(
        files(
            "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\n",
        ),
        BuilderKind::Plan,
    );
    let out = run(&req).unwrap_or_else(|e| panic!("{e:?}"));
    let g = out.built.graph.string();
    assert!(
        g.contains("aws_subnet.b (expand)\n  aws_vpc.a (expand)\n"),
        "subnet depends on vpc:\n{g}"
    );
}

#[test]
fn plan_graphs_get_a_static_expander_with_the_request_vars() {
    let text = "variable \"n\" {\n  default = 1\n}\nresource \"a_b\" \"c\" {\n  count = var.n\n}\n";
    let mut req = Request::new(files(text), BuilderKind::Plan);
    req.vars = vec![VarInput::var("n=3")];
    let out = run(&req).unwrap_or_else(|e| panic!("{e:?}"));
    let mut e = out.expander().expect("plan graphs expand");
    let names = e
        .instances_of(&crate::dag::import::typed_from_name("a_b.c (expand)"))
        .expect("expands");
    assert_eq!(names.map(|v| v.len()), Ok(3));
    let apply =
        run(&Request::new(files(text), BuilderKind::Apply)).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(apply.expander().is_none());
}

#[test]
fn syntax_error_names_file_line_and_column() {
    let errs = run(&Request::new(
        files("resource \"a\" \"b\" {\n  x = \n}\n"),
        BuilderKind::Plan,
    ))
    .err()
    .expect("error");
    let text = errs[0].to_string();
    assert!(text.starts_with("main.tf:2,"), "{text}");
}

#[test]
fn undeclared_variable_is_reported_in_opentofu_words() {
    let mut req = Request::new(files("variable \"a\" {}\n"), BuilderKind::Plan);
    req.vars = vec![VarInput::var("a=1"), VarInput::var("b=2")];
    let errs = run(&req).err().expect("error");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].summary, "Value for undeclared variable");
    assert!(errs[0].detail.contains("\"b\""));
}

#[test]
fn bad_state_is_an_error_naming_the_file() {
    let mut req = Request::new(files("resource \"a_b\" \"c\" {}\n"), BuilderKind::Plan);
    req.state = Some(NamedText::new("terraform.tfstate", "{\"version\": 3}"));
    let errs = run(&req).err().expect("error");
    assert!(
        errs[0].summary.starts_with("terraform.tfstate: "),
        "{}",
        errs[0]
    );
}

#[test]
fn cycle_is_reported_with_cycle_wording() {
    let req = Request::new(
        files(
            "resource \"a_b\" \"x\" {\n  depends_on = [a_b.y]\n}\nresource \"a_b\" \"y\" {\n  depends_on = [a_b.x]\n}\n",
        ),
        BuilderKind::Plan,
    );
    let errs = run(&req).err().expect("cycle");
    let all: Vec<String> = errs.iter().map(|d| d.to_string()).collect();
    assert!(all.iter().any(|e| e.contains("Cycle: ")), "{all:?}");
}

#[test]
fn the_builder_is_the_named_one_else_apply_with_a_plan_else_plan() {
    assert_eq!(builder_kind(None, false), Ok(BuilderKind::Plan));
    assert_eq!(builder_kind(None, true), Ok(BuilderKind::Apply));
    assert_eq!(
        builder_kind(Some("validate"), true),
        Ok(BuilderKind::Validate)
    );
    // internal/command/graph.go `GraphCommand.Run`: OpenTofu's wording for an unknown type
    // and for the dropped "eval" type.
    let e = builder_kind(Some("bogus"), false).unwrap_err();
    assert_eq!(
        e,
        "Unsupported graph type: The -type=... argument must be either \"plan\", \"plan-refresh-only\", \"plan-destroy\", or \"apply\" (tfgraph also accepts \"validate\")."
    );
    let e = builder_kind(Some("eval"), false).unwrap_err();
    assert_eq!(
        e,
        "Graph type no longer available: The graph type \"eval\" is no longer available. Use -type=plan instead to get a similar result."
    );
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tfgraph-pipeline-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn folder_inputs_read_their_files_and_build() {
    let d = temp_dir("ok");
    std::fs::write(
        d.join("main.tf"),
        "variable \"n\" {}\nresource \"a_b\" \"c\" {\n  v = var.n\n}\n",
    )
    .unwrap();
    let schemas = d.join("schemas.json");
    std::fs::write(&schemas, "{\"format_version\": \"1.0\"}").unwrap();
    let mut inputs = FolderInputs::new(&d);
    inputs.schemas = Some(schemas.clone());
    inputs.vars = vec!["n=2".into()];
    inputs.targets = vec!["a_b.c".into()];
    let req = inputs.request().unwrap();
    assert_eq!(req.kind, BuilderKind::Plan);
    assert_eq!(
        req.schemas.as_ref().map(|s| s.name.clone()),
        Some(schemas.display().to_string())
    );
    assert_eq!((req.vars.len(), req.targets.len()), (1, 1));
    let out = inputs.build().unwrap_or_else(|e| panic!("{e:?}"));
    assert!(out.built.graph.string().contains("a_b.c (expand)"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn folder_inputs_name_what_they_could_not_read() {
    let d = temp_dir("bad");
    let mut inputs = FolderInputs::new(d.join("missing"));
    assert_eq!(
        inputs.build().err().expect("fails").messages(),
        vec![format!("{}: not a folder", d.join("missing").display())]
    );
    inputs.dir = d.clone();
    inputs.state = Some(d.join("nope.tfstate"));
    let msg = &inputs.build().err().expect("fails").messages()[0];
    assert!(
        msg.starts_with(&format!("{}: ", d.join("nope.tfstate").display())),
        "{msg}"
    );
    inputs.state = None;
    std::fs::write(d.join("main.tf"), "resource \"a\" \"b\" {\n  x = \n}\n").unwrap();
    let msgs = inputs.build().err().expect("fails").messages();
    assert!(msgs[0].starts_with("main.tf:2,"), "{msgs:?}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// internal/command/arguments/extended.go `parseRawTargetsAndExcludes`: -target and
/// -exclude together are an error, worded as OpenTofu words it.
#[test]
fn targets_and_excludes_are_mutually_exclusive() {
    let mut files = BTreeMap::new();
    files.insert(
        "main.tf".to_string(),
        "resource \"a_b\" \"c\" {}\n".to_string(),
    );
    let mut req = Request::new(files, BuilderKind::Plan);
    req.targets = vec!["a_b.c".into()];
    req.excludes = vec!["a_b.d".into()];
    let errs = prepare(config::load_files(&req.files), &req)
        .err()
        .expect("an error");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].summary, "Invalid combination of arguments");
    req.excludes.clear();
    assert!(prepare(config::load_files(&req.files), &req).is_ok());
}

#[test]
fn a_target_that_matches_nothing_is_warned_about_with_a_suggestion() {
    let mut files = BTreeMap::new();
    files.insert(
        "main.tf".to_string(),
        "resource \"aws_instance\" \"web\" {}\nmodule \"net\" {\n  source = \"./net\"\n}\n"
            .to_string(),
    );
    files.insert(
        "net/main.tf".to_string(),
        "resource \"aws_vpc\" \"main\" {}\n".to_string(),
    );
    let warnings = |targets: &[&str], excludes: &[&str]| {
        let mut req = Request::new(files.clone(), BuilderKind::Plan);
        req.targets = targets.iter().map(|t| t.to_string()).collect();
        req.excludes = excludes.iter().map(|t| t.to_string()).collect();
        let out = run(&req).expect("builds");
        out.warnings
            .iter()
            .filter(|d| d.summary.ends_with("matches nothing"))
            .map(|d| format!("{}: {}", d.summary, d.detail))
            .collect::<Vec<_>>()
    };
    // Everything declared matches, instance keys included.
    for ok in [
        "aws_instance.web",
        "aws_instance.web[3]",
        "module.net",
        "module.net[\"a\"]",
        "module.net.aws_vpc.main",
    ] {
        assert_eq!(warnings(&[ok], &[]), Vec::<String>::new(), "{ok}");
    }
    let w = warnings(&["aws_instance.wbe"], &[]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("Target matches nothing: "), "{w:?}");
    assert!(
        w[0].contains("\"aws_instance.wbe\"")
            && w[0].ends_with("Did you mean \"aws_instance.web\"?"),
        "{w:?}"
    );
    let w = warnings(&[], &["module.nett.aws_vpc.main"]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("Exclude matches nothing: "), "{w:?}");
    assert!(
        w[0].ends_with("Did you mean \"module.net.aws_vpc.main\"?"),
        "{w:?}"
    );
    // Nothing close: no suggestion.
    let w = warnings(&["aws_s3_bucket.logs"], &[]);
    assert!(w.len() == 1 && !w[0].contains("Did you mean"), "{w:?}");
}

#[test]
fn a_target_held_only_by_the_state_matches() {
    let mut files = BTreeMap::new();
    files.insert(
        "main.tf".to_string(),
        "resource \"a_b\" \"c\" {}\n".to_string(),
    );
    let mut req = Request::new(files, BuilderKind::Plan);
    req.state = Some(NamedText::new(
        "terraform.tfstate",
        r#"{"version":4,"terraform_version":"1.12.0","serial":1,"lineage":"x","outputs":{},"resources":[{"mode":"managed","type":"a_b","name":"gone","provider":"provider[\"registry.opentofu.org/hashicorp/a\"]","instances":[{"schema_version":0,"attributes":{}}]}]}"#,
    ));
    req.targets = vec!["a_b.gone".into()];
    let out = run(&req).expect("builds");
    assert!(
        !out.warnings
            .iter()
            .any(|d| d.summary == "Target matches nothing"),
        "{:?}",
        out.warnings
    );
}

/// A folder built keeping only the resource bodies' references ([`config::Bodies`], as
/// `tfgraph graph`, `steps` and `why` build) gives the graph, steps, whys and diagnostics a build
/// keeping the bodies gives, with every builder: on the real-world modules and their examples,
/// the page's examples and generated configurations.
#[test]
fn a_folder_built_keeping_only_body_references_gives_what_it_gives_with_the_bodies() {
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realworld");
    let mut folders: Vec<std::path::PathBuf> = Vec::new();
    // Each repository's root and an example of it (the examples call the root with `../..`;
    // all of them make this test a minute long in a debug build).
    for (repo, example) in [
        ("terraform-aws-vpc", "complete"),
        ("terraform-azurerm-aks", "startup"),
    ] {
        folders.push(shared.join(repo));
        folders.push(shared.join(repo).join("examples").join(example));
    }
    let scratch = temp_dir("bodies");
    // The conformance corpus' configurations, each with its state and planned changes when it
    // has them (instance vertices read their resource's body: the bodies are kept then).
    let corpus =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/graph");
    let mut states: BTreeMap<std::path::PathBuf, std::path::PathBuf> = BTreeMap::new();
    let mut changes: BTreeMap<std::path::PathBuf, std::path::PathBuf> = BTreeMap::new();
    for case in crate::conformance::cases(&corpus).expect("the conformance corpus") {
        let case = case.path;
        if !case.join("config").is_dir() {
            continue;
        }
        let state = case.join("state.json");
        if state.is_file() {
            states.insert(case.join("config"), state);
        }
        let about: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("case.json")).unwrap())
                .unwrap();
        if let Some(list) = about.get("changes").filter(|c| !c.is_null()) {
            let name = case.file_name().unwrap().to_string_lossy().into_owned();
            let file = scratch.join(format!("{name}.changes.json"));
            std::fs::write(&file, list.to_string()).unwrap();
            changes.insert(case.join("config"), file);
        }
        folders.push(case.join("config"));
    }
    let mut write = |name: String, files: BTreeMap<String, String>| {
        let d = scratch.join(name);
        for (path, text) in files {
            let p = d.join(path);
            std::fs::create_dir_all(p.parent().expect("a folder")).unwrap();
            std::fs::write(p, text).unwrap();
        }
        folders.push(d);
    };
    for e in crate::page::examples::EXAMPLES {
        write(
            format!("example-{}", e.id),
            crate::page::examples::files_of(e),
        );
    }
    for seed in [1, 2] {
        let files = crate::generator::generate(&crate::generator::GenOptions {
            resources: 100,
            modules: 4,
            seed,
        });
        write(format!("gen-{seed}"), files);
    }
    let mut resources = 0;
    let mut built_ok = 0;
    for dir in &folders {
        for kind in BuilderKind::ALL {
            let build = |bodies: config::Bodies| {
                let mut f = FolderInputs::new(dir);
                f.kind = Some(kind.as_str().to_string());
                f.bodies = bodies;
                f.state = states.get(dir).cloned();
                f.changes = changes.get(dir).cloned();
                match f.build() {
                    Ok(out) => Ok((
                        out.built.graph.dag().string(),
                        format!("{:?}", out.built.steps),
                        format!("{:?}", out.built.graph.whys_by_name()),
                        format!("{:?}", out.warnings),
                        out.config
                            .all_modules()
                            .iter()
                            .map(|c| c.module.all_resources_with_checks().count())
                            .sum::<usize>(),
                    )),
                    Err(e) => Err(e.messages()),
                }
            };
            let kept = build(config::Bodies::Kept);
            let only = build(config::Bodies::ReferencesOnly);
            assert_eq!(kept, only, "{} ({})", dir.display(), kind.as_str());
            if let Ok(k) = &kept {
                built_ok += 1;
                resources += k.4;
            }
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    // The comparison ran on real graphs.
    assert!(
        built_ok > 4 * folders.len(),
        "{built_ok} of {}",
        folders.len()
    );
    assert!(resources > 1_000, "{resources}");
}

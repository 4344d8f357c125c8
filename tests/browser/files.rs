//! Opening, dropping, adding, renaming and deleting files; working directories and repositories.

use crate::support::*;

#[wasm_bindgen_test]
async fn opened_files_are_classified_and_routed() {
    let host = mount().await;
    open_files(
        &host,
        &[
            file("main.tf", "resource \"aws_instance\" \"web\" {}\n"),
            file("vars.tf", "variable \"region\" {}\n"),
            file("prod.tfstate", ORPHAN_STATE),
            file("notes.txt", "hello"),
        ],
    )
    .await;
    let mut tabs = texts(&host, ".file-tab");
    tabs.sort();
    assert_eq!(tabs, vec!["main.tf", "prod.tfstate", "vars.tf"]);
    assert_eq!(
        editor_value(&host),
        "resource \"aws_instance\" \"web\" {}\n"
    );
    // The state is read as the state: its resource missing from the configuration is an orphan.
    let names = vertex_names(&host);
    assert!(
        names.contains(&"aws_instance.gone (orphan)".to_string()),
        "{names:?}"
    );
    assert!(names.contains(&"var.region".to_string()), "{names:?}");
    let notices = texts(&host, ".notice");
    assert!(
        notices.iter().any(|n| n.contains("notes.txt")),
        "{notices:?}"
    );
    assert!(
        notices.iter().any(|n| n.contains("state (prod.tfstate)")),
        "{notices:?}"
    );

    // A state alone is added next to the configuration, in place of the old one.
    open_files(
        &host,
        &[file(
            "terraform.tfstate",
            ORPHAN_STATE.replace("gone", "old").as_str(),
        )],
    )
    .await;
    let mut tabs = texts(&host, ".file-tab");
    tabs.sort();
    assert_eq!(tabs, vec!["main.tf", "terraform.tfstate", "vars.tf"]);
    assert!(vertex_names(&host).contains(&"aws_instance.old (orphan)".to_string()));

    // A plan alone is added too, and the graph becomes the apply graph, as with `tofu graph`.
    let plan = "{\"format_version\": \"1.2\", \"resource_changes\": [{\"address\": \"aws_instance.web\", \"mode\": \"managed\", \"type\": \"aws_instance\", \"name\": \"web\", \"change\": {\"actions\": [\"delete\", \"create\"]}}]}";
    open_files(&host, &[file("tfplan.json", plan)]).await;
    let kind: web_sys::HtmlSelectElement = host
        .query_selector("#graph-kind")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(kind.value(), "apply");
    let names = vertex_names(&host);
    assert!(
        names.contains(&"aws_instance.web (destroy)".to_string()),
        "{names:?}"
    );

    // A broken state names its file.
    open_files(
        &host,
        &[file(
            "terraform.tfstate",
            "{\"version\": 4, \"resources\": 7}",
        )],
    )
    .await;
    let errors = texts(&host, ".diagnostic.error");
    assert!(
        errors.iter().any(|e| e.contains("terraform.tfstate")),
        "{errors:?}"
    );
    // The previous files can be restored after a new set was opened.
    host.remove();
}

#[wasm_bindgen_test]
async fn a_dropped_dot_file_is_drawn_as_it_is() {
    let host = mount().await;
    // The user's own work (an untouched example is not kept: it comes back from the gallery).
    type_and_build(&host, "resource \"aws_eip\" \"web\" {}\n").await;
    let dot = "digraph {\n  compound = \"true\"\n  subgraph \"root\" {\n    \"[root] aws_eip.web (expand)\" -> \"[root] aws_instance.web (expand)\"\n    \"[root] aws_instance.web (expand)\" -> \"[root] provider[\\\"registry.opentofu.org/hashicorp/aws\\\"]\"\n  }\n}\n";
    drop_files(&host, &[file("graph.dot", dot)]).await;
    assert_eq!(
        vertex_names(&host),
        vec![
            "aws_eip.web (expand)",
            "aws_instance.web (expand)",
            "provider[\"registry.opentofu.org/hashicorp/aws\"]",
        ]
    );
    assert_eq!(
        host.query_selector_all(".graph-svg path.edge")
            .unwrap()
            .length(),
        2
    );
    assert_eq!(texts(&host, ".file-tab"), vec!["graph.dot"]);
    assert!(texts(&host, ".role-note")[0].contains("drawn and walked as it is"));
    click_on(&host, ".tabs .tab:nth-child(2)").await;
    assert_eq!(texts(&host, ".imported-note").len(), 1);
    // It walks.
    step_walk_to_end(&host, 40).await;
    let states = attrs(&host, ".graph-svg g.vertex", "data-state");
    assert!(states.iter().all(|s| s == "done"), "{states:?}");
    // The user's previous files come back.
    click_on(&host, ".notice-restore").await;
    settled(&host).await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf"]);
    assert!(vertex_names(&host).contains(&"aws_eip.web (expand)".to_string()));
    host.remove();
}

#[wasm_bindgen_test]
async fn files_can_be_added_renamed_and_deleted() {
    let host = mount().await;
    stub_dialogs("modules/net/main.tf");
    click_on(&host, ".file-new").await;
    assert_eq!(
        texts(&host, ".file-tab"),
        vec!["main.tf", "modules/net/main.tf"]
    );
    type_and_build(&host, "variable \"cidr\" {}\n").await;
    stub_dialogs("variables.tf");
    click_on(&host, "#file-rename").await;
    settled(&host).await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf", "variables.tf"]);
    assert!(vertex_names(&host).contains(&"var.cidr".to_string()));
    // A path that is not relative is refused with a notice, and nothing changes.
    stub_dialogs("../x.tf");
    click_on(&host, ".file-new").await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf", "variables.tf"]);
    assert!(
        texts(&host, ".notice.error")
            .iter()
            .any(|n| n.contains("../x.tf"))
    );
    click_on(&host, "#file-delete").await;
    settled(&host).await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf"]);
    assert!(!vertex_names(&host).contains(&"var.cidr".to_string()));
    host.remove();
}

/// The working directory the native tests build (`tests/installed_modules.rs`): a root calling
/// terraform-aws-modules/vpc/aws installed from terraform-aws-vpc, a nested call inside it, a
/// provider binary and a lock file, here with the walk test's terraform.tfvars, opened through
/// the Folder input. Only what tfgraph uses is read; the graph is the library's for those files.
#[wasm_bindgen_test]
async fn a_working_directory_after_tofu_init_opens_through_the_folder_input() {
    let host = mount().await;
    let mut vpc = Vec::new();
    included_files(&VPC_REPO, &mut vpc);
    assert!(vpc.len() > 70, "terraform-aws-vpc has {} files", vpc.len());
    let mut files = workdir::vpc_workdir_files(&vpc);
    files.push(("terraform.tfvars".into(), workdir::VPC_TFVARS.into()));
    open_folder(&host, "wd", &files).await;
    // Its 2,040 vertices open with the module calls collapsed (`page::view::COLLAPSE_ABOVE`).
    let collapsed = wait_until(240_000, || {
        vertex_names(&host).contains(&"module.vpc (collapsed: 717)".to_string())
    })
    .await;
    assert!(collapsed, "{:?}", vertex_names(&host));
    click_on(&host, "#expand-all").await;
    settled(&host).await;
    let built = wait_until(240_000, || {
        vertex_names(&host).contains(&"module.vpc.aws_vpc.this (expand)".to_string())
    })
    .await;
    assert!(
        built,
        "{:?} {:?}",
        texts(&host, ".diagnostic"),
        texts(&host, ".notice")
    );
    // What was not read: three LICENSE files of the installed packages, the provider binary and
    // the lock file, with their size.
    let unread: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| {
            p.ends_with("/LICENSE") || p == workdir::PROVIDER_BINARY || p == ".terraform.lock.hcl"
        })
        .collect();
    assert_eq!(unread.len(), 5);
    let bytes: usize = unread.iter().map(|(_, b)| b.len()).sum();
    let want = format!(
        "Skipped 5 files without reading them ({}), as tfgraph does not use them: ",
        tfgraph::page::files::size_text(bytes as u64)
    );
    let notices = texts(&host, ".notice");
    assert!(
        notices
            .iter()
            .any(|n| n.contains(&want) && n.contains("terraform-provider-aws_v5.100.0_x5")),
        "{want} in {notices:?}"
    );
    // The tabs: the root's own files, the variables file with its role; the installed
    // modules' 233 files (3 x 77 .tf, the s3-bucket stand-in, the manifest) are summed up.
    assert_eq!(
        attrs(&host, ".file-tab", "data-role"),
        vec!["configuration", "variable values"]
    );
    assert_eq!(
        texts(&host, ".file-tab"),
        vec!["main.tf", "terraform.tfvars"]
    );
    let summary = texts(&host, ".installed-summary");
    assert!(
        summary
            .first()
            .is_some_and(|s| s.starts_with("233 files in .terraform")),
        "{summary:?}"
    );
    assert!(
        host.query_selector("#root-module").unwrap().is_none(),
        "one root only"
    );
    // Every registry call resolved: no error, nothing not installed.
    assert!(
        texts(&host, ".diagnostic.error").is_empty(),
        "{:?}",
        texts(&host, ".diagnostic.error")
    );
    assert!(
        !texts(&host, ".diagnostic")
            .iter()
            .any(|d| d.contains("Module not installed")),
        "{:?}",
        texts(&host, ".diagnostic")
    );
    assert!(
        host.query_selector(".not-installed-note")
            .unwrap()
            .is_none()
    );
    // The drawing is the library's graph of the files that were read.
    let used: BTreeMap<String, String> = files
        .iter()
        .filter(|(p, _)| tfgraph::page::files::wanted(p))
        .map(|(p, b)| (p.clone(), String::from_utf8(b.clone()).expect("text")))
        .collect();
    let a = tfgraph::page::analysis::analyze(
        &used,
        tfgraph::builder::BuilderKind::Plan,
        &Default::default(),
    );
    let mut want: Vec<String> = a
        .graph
        .as_ref()
        .expect("built")
        .vertices()
        .iter()
        .map(|v| v.name.clone())
        .collect();
    want.sort();
    assert_eq!(vertex_names(&host), want);
    assert!(want.len() > 2000, "{}", want.len());
    // A reference between modules, and the nested registry call's resource.
    let deps = deps_of(&host, "module.endpoints.var.vpc_id (expand, input)").await;
    assert!(
        deps.iter()
            .any(|d| d.contains("module.vpc.output.vpc_id (expand)")),
        "{deps:?}"
    );
    assert!(vertex_names(&host).contains(
        &"module.flow_log_example.module.s3_bucket.aws_s3_bucket.this (expand)".to_string()
    ));
    // Saved for the next visit: what was read, not the binary.
    let saved = storage()
        .get_item("tfgraph.workspace")
        .unwrap()
        .unwrap_or_default();
    assert!(saved.contains(".terraform/modules/modules.json"));
    assert!(saved.contains(".terraform/modules/vpc/main.tf"));
    assert!(!saved.contains(workdir::PROVIDER_BINARY));
    assert!(!saved.contains(".terraform.lock.hcl"));
    host.remove();
}

/// A repository with two root modules, a call that is not installed and variables files: the
/// roots are listed and the choice rebuilds; the call is drawn dashed with a notice and keeps its
/// edge; the root's terraform.tfvars sets the walk's instances, another .tfvars is not read, and
/// an undeclared variable gets OpenTofu's warning.
#[wasm_bindgen_test]
async fn a_repository_lists_its_root_modules_and_reads_the_roots_variable_files() {
    let host = mount().await;
    let mut files = text_files(&[
        (
            "main.tf",
            "variable \"n\" {\n  default = 1\n}\nmodule \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n  cidr   = \"10.0.0.0/16\"\n}\nresource \"aws_instance\" \"web\" {\n  count     = var.n\n  subnet_id = module.vpc.vpc_id\n}\n",
        ),
        ("terraform.tfvars", "n    = 2\nzone = \"eu\"\n"),
        ("prod.tfvars", "n = 5\n"),
        (
            "examples/one/main.tf",
            "variable \"k\" {}\nresource \"aws_s3_bucket\" \"b\" {\n  count = var.k\n}\n",
        ),
        ("examples/one/terraform.tfvars", "k = 3\n"),
        ("README.md", "# a module\n"),
    ]);
    files.push((
        "docs/graph.png".into(),
        vec![0x89, b'P', b'N', b'G', 0xff, 0xfe],
    ));
    open_folder(&host, "repo", &files).await;
    let built = wait_until(20_000, || {
        vertex_names(&host).contains(&"aws_instance.web (expand)".to_string())
    })
    .await;
    assert!(built, "{:?}", texts(&host, ".diagnostic"));
    assert!(
        texts(&host, ".notice")
            .iter()
            .any(|n| n.starts_with("Skipped 2 files without reading them (17 bytes), as tfgraph does not use them: README.md, docs/graph.png.")),
        "{:?}",
        texts(&host, ".notice")
    );
    let roles: Vec<(String, String)> = texts(&host, ".file-tab")
        .into_iter()
        .zip(attrs(&host, ".file-tab", "data-role"))
        .collect();
    assert_eq!(roles.len(), 5, "{roles:?}");
    assert!(roles.contains(&("prod.tfvars".into(), "variable values".into())));
    assert!(roles.contains(&("main.tf".into(), "configuration".into())));
    // The roots: the top folder (chosen) and the example.
    let root: web_sys::HtmlSelectElement = host
        .query_selector("#root-module")
        .unwrap()
        .expect("a root module choice")
        .dyn_into()
        .unwrap();
    assert_eq!(
        texts(&host, "#root-module option"),
        vec![".", "examples/one"]
    );
    assert_eq!(root.value(), "");
    // The call that is not installed: dashed, named, and its output still a dependency.
    let vpc = vertex(&host, "module.vpc (expand)");
    assert!(has_class(&vpc, "not-installed"));
    assert!(has_class(
        &vertex(&host, "module.vpc (close)"),
        "not-installed"
    ));
    assert!(!has_class(
        &vertex(&host, "aws_instance.web (expand)"),
        "not-installed"
    ));
    let note = texts(&host, ".not-installed-note");
    assert_eq!(note.len(), 1);
    assert!(
        note[0].starts_with("Not installed: module.vpc (terraform-aws-modules/vpc/aws)."),
        "{note:?}"
    );
    assert!(
        texts(&host, ".legend-list li")
            .iter()
            .any(|l| l.contains("module not installed"))
    );
    let deps = deps_of(&host, "aws_instance.web (expand)").await;
    assert!(
        deps.iter().any(|d| d.contains("module.vpc (close)")),
        "{deps:?}"
    );
    let warnings = texts(&host, ".diagnostic.warning");
    assert!(
        warnings.iter().any(|w| w.contains("Module not installed")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("Value for undeclared variable")
                && w.contains(
                    "a variable named \"zone\" but a value was found in file \"terraform.tfvars\""
                )),
        "{warnings:?}"
    );
    // terraform.tfvars gives n = 2 (prod.tfvars is not read): two instances walk.
    step_walk_to_end(&host, 200).await;
    let web = vertex(&host, "aws_instance.web (expand)");
    assert_eq!(
        web.query_selector(".inst").unwrap().unwrap().text_content(),
        Some("2/2".into())
    );
    // prod.tfvars says why it is not read.
    let prod = host
        .query_selector_all(".file-tab")
        .unwrap()
        .item(3)
        .unwrap()
        .dyn_into::<Element>()
        .unwrap();
    assert_eq!(prod.text_content().as_deref(), Some("prod.tfvars"));
    click(&prod).await;
    let note = texts(&host, ".role-note");
    assert!(
        note.first()
            .is_some_and(|n| n.starts_with("prod.tfvars is not read")),
        "{note:?}"
    );
    // The other root: its own terraform.tfvars (k = 3), nothing of the top folder.
    choose(&host, "#root-module", "examples/one").await;
    let rebuilt = wait_until(20_000, || {
        vertex_names(&host).contains(&"aws_s3_bucket.b (expand)".to_string())
    })
    .await;
    assert!(rebuilt, "{:?}", vertex_names(&host));
    assert!(!vertex_names(&host).contains(&"module.vpc (expand)".to_string()));
    assert!(
        host.query_selector(".not-installed-note")
            .unwrap()
            .is_none()
    );
    step_walk_to_end(&host, 200).await;
    assert_eq!(
        vertex(&host, "aws_s3_bucket.b (expand)")
            .query_selector(".inst")
            .unwrap()
            .unwrap()
            .text_content(),
        Some("3/3".into())
    );
    // The choice is kept for the next visit.
    assert_eq!(
        storage().get_item("tfgraph.root").unwrap().as_deref(),
        Some("examples/one")
    );
    host.remove();
}

// Issue 18, defect 3: opening a configuration that does not build (a module whose source is not
// among the files) kept drawing the previous example's graph under a small tag.
#[wasm_bindgen_test]
async fn a_configuration_that_does_not_build_never_shows_another_ones_graph() {
    let host = mount().await;
    assert!(!vertex_names(&host).is_empty());
    let files = text_files(&[(
        "main.tf",
        "module \"vpc\" {\n  source = \"../../\"\n}\nresource \"aws_instance\" \"x\" {\n",
    )]);
    open_folder(&host, "complete", &files).await;
    assert!(
        !texts(&host, ".diagnostic.error").is_empty(),
        "{:?}",
        texts(&host, ".diagnostic")
    );
    assert_eq!(vertex_names(&host), Vec::<String>::new());
    assert!(texts(&host, ".stale").is_empty());
    let empty = texts(&host, ".empty-graph");
    assert!(
        empty
            .iter()
            .any(|t| t.starts_with("Nothing to draw: this configuration does not build.")),
        "{empty:?}"
    );
    // Fixing it draws it; breaking it again while editing keeps its own last graph.
    type_and_build(&host, "resource \"aws_instance\" \"x\" {}\n").await;
    assert_eq!(
        vertex_names(&host)
            .iter()
            .filter(|n| n.starts_with("aws_instance.x"))
            .count(),
        1
    );
    type_and_build(&host, "resource \"aws_instance\" \"x\" {\n").await;
    assert!(vertex_names(&host).contains(&"aws_instance.x (expand)".to_string()));
    assert_eq!(texts(&host, ".stale").len(), 1);
    host.remove();
}

// Issue 18, defect 2: opening terraform-aws-vpc (77 files) drew 77 wrapping file buttons about
// 1,900 px tall, so the editor started far below the top of its pane, and the 52 files under
// examples/ were loaded and ignored without a word.
#[wasm_bindgen_test]
async fn a_folder_of_many_files_shows_as_a_tree_and_the_editor_stays_at_the_top() {
    let host = mount().await;
    let style = app_stylesheet();
    let mut vpc = Vec::new();
    included_files(&VPC_REPO, &mut vpc);
    let read = vpc
        .iter()
        .filter(|(p, _)| tfgraph::page::files::wanted(p))
        .count();
    assert_eq!(read, 77);
    open_folder(&host, "terraform-aws-vpc", &vpc).await;
    assert!(vertex_names(&host).contains(&"aws_vpc.this (expand)".to_string()));
    assert_eq!(editor_value(&host), text_of(&vpc, "main.tf"));
    // The editor starts near the top of its pane whatever the number of files.
    let top = |sel: &str| {
        host.query_selector(sel)
            .unwrap()
            .unwrap_or_else(|| panic!("{sel} present"))
            .get_bounding_client_rect()
            .top()
    };
    // Measured from below the notices, which sit above the files (this opening's two notices).
    let files_top = || {
        host.query_selector(".editor-pane .notices")
            .unwrap()
            .map_or(top(".editor-pane"), |n| {
                n.get_bounding_client_rect()
                    .bottom()
                    .max(top(".editor-pane"))
            })
    };
    let below = top("textarea#editor") - files_top();
    assert!(
        below <= 400.0,
        "the editor starts {below} px below the top of its pane"
    );
    // The sentence about what the graph leaves out names examples/.
    let note = texts(&host, ".outside-note");
    assert_eq!(note.len(), 1, "{note:?}");
    assert!(
        note[0].starts_with("The root module is the top folder (.): 5 files. Not in this graph: 52 files in examples/ (13 folders)"),
        "{note:?}"
    );
    // The tree: the top folders closed, the root's files, the active one marked with its role.
    assert!(texts(&host, ".file-tab").is_empty());
    let folder = |path: &str| {
        host.query_selector(&format!(".tree-folder[data-path=\"{path}\"]"))
            .unwrap()
            .unwrap_or_else(|| panic!("folder {path} shown"))
    };
    assert_eq!(
        attrs(&host, ".tree-folder", "data-path"),
        vec!["examples", "modules", "wrappers"]
    );
    assert_eq!(
        texts(&host, ".tree-file"),
        vec![
            "main.tf",
            "outputs.tf",
            "variables.tf",
            "versions.tf",
            "vpc-flow-logs.tf"
        ]
    );
    assert_eq!(texts(&host, ".tree-file.active"), vec!["main.tf"]);
    assert_eq!(
        attrs(&host, ".tree-file.active", "data-role"),
        vec!["configuration"]
    );
    // Folders open and close.
    let examples = folder("examples");
    assert_eq!(
        examples.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    click(&examples).await;
    let examples = folder("examples");
    assert_eq!(
        examples.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    assert_eq!(attrs(&host, ".tree-folder", "data-path").len(), 3 + 13);
    click(&folder("examples/simple")).await;
    assert_eq!(
        attrs(&host, ".tree-file", "data-path")[..4],
        [
            "examples/simple/main.tf",
            "examples/simple/outputs.tf",
            "examples/simple/variables.tf",
            "examples/simple/versions.tf"
        ]
    );
    click(&folder("examples")).await;
    assert_eq!(
        folder("examples").get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert_eq!(attrs(&host, ".tree-folder", "data-path").len(), 3);
    assert_eq!(texts(&host, ".tree-file").len(), 5);
    // The filter narrows the tree to the matching files, and picking one opens it.
    type_into(&host, "input#file-filter", "Complete/MA").await;
    assert_eq!(
        attrs(&host, ".tree-file", "data-path"),
        vec!["examples/complete/main.tf"]
    );
    assert_eq!(
        attrs(&host, ".tree-folder", "data-path"),
        vec!["examples", "examples/complete"]
    );
    assert_eq!(texts(&host, ".tree-matches"), vec!["1 of 77 files"]);
    click_on(&host, ".tree-file").await;
    assert_eq!(
        editor_value(&host),
        text_of(&vpc, "examples/complete/main.tf")
    );
    assert_eq!(
        attrs(&host, ".tree-file.active", "data-path"),
        vec!["examples/complete/main.tf"]
    );
    // Cleared, the whole tree is back, with the opened file's folders open.
    type_into(&host, "input#file-filter", "").await;
    assert_eq!(texts(&host, ".tree-matches"), vec!["77 files"]);
    assert_eq!(
        folder("examples/complete")
            .get_attribute("aria-expanded")
            .as_deref(),
        Some("true")
    );
    assert_eq!(texts(&host, ".tree-file").len(), 5 + 4 + 4);
    let below = top("textarea#editor") - files_top();
    assert!(below <= 400.0, "{below} px with a folder open");
    style.remove();
    host.remove();
}

/// The text of `path` among included files.
fn text_of(files: &[(String, Vec<u8>)], path: &str) -> String {
    files
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, b)| String::from_utf8(b.clone()).expect("text"))
        .unwrap_or_else(|| panic!("{path} among the files"))
}

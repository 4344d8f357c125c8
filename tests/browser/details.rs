//! The details panel of a chosen vertex.

use crate::support::*;

#[wasm_bindgen_test]
async fn clicking_a_vertex_shows_its_details_and_neighbours() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    assert_eq!(texts(&host, ".detail-name"), vec!["aws_subnet.b (expand)"]);
    assert_eq!(texts(&host, ".decl-where"), vec!["main.tf line 2"]);
    assert!(texts(&host, ".snippet")[0].contains("vpc_id = aws_vpc.a.id"));
    assert_eq!(
        texts(&host, ".vertex-links.deps li:not(.reduced) .vertex-link"),
        vec!["aws_vpc.a (expand)"]
    );
    assert_eq!(
        texts(&host, ".vertex-links.users li:not(.reduced) .vertex-link"),
        vec!["aws_instance.c (expand)"]
    );
    assert!(
        vertex(&host, "aws_vpc.a (expand)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("ancestor")
    );
    assert!(
        vertex(&host, "root")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("descendant")
    );
    // Following a dependency selects it.
    click_on(&host, ".vertex-links.deps .vertex-link").await;
    assert_eq!(texts(&host, ".detail-name"), vec!["aws_vpc.a (expand)"]);
    host.remove();
}

// Issue 18, defect 7, and issue 11, item 4: the panel listed only the edges left after transitive
// reduction (not the resource's provider), never said why an edge exists, called a variable
// "added by the builder", said "1 ancestors", and kept showing a vertex the graph no longer had.
#[wasm_bindgen_test]
async fn the_details_list_every_dependency_with_why_and_explain_the_vertex() {
    let host = mount().await;
    type_and_build(
        &host,
        "variable \"cidr\" { default = \"10.0.0.0/16\" }\nresource \"aws_vpc\" \"a\" {\n  cidr_block = var.cidr\n}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\n",
    )
    .await;
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    let deps = texts(&host, ".vertex-links.deps li");
    assert_eq!(deps.len(), 2, "{deps:?}");
    // The reference, with where it is written.
    assert!(
        deps[0].starts_with("aws_vpc.a (expand)")
            && deps[0].contains("a reference")
            && deps[0].contains("main.tf:6 aws_vpc.a.id"),
        "{deps:?}"
    );
    // The provider: removed by the reduction (the VPC already waits for it), listed and marked.
    assert_eq!(
        texts(&host, ".vertex-links.deps li.reduced .vertex-link"),
        vec![AWS.to_string()]
    );
    assert!(
        deps[1].contains("provider of this resource") && deps[1].contains("transitive reduction"),
        "{deps:?}"
    );
    assert!(
        texts(&host, ".about-kind")[0].contains("count or for_each"),
        "{:?}",
        texts(&host, ".about-kind")
    );
    assert_eq!(
        texts(&host, ".details .muted.small").last().cloned(),
        Some("Highlighted: 4 ancestors (everything it waits for) and 2 descendants.".to_string())
    );
    // A reference opens its file with the traversal selected.
    click_on(&host, ".vertex-links.deps .ref-link").await;
    settle().await;
    settle().await;
    let ta: web_sys::HtmlTextAreaElement = host
        .query_selector(".editor textarea, textarea.editor")
        .unwrap()
        .expect("the editor")
        .dyn_into()
        .unwrap();
    let text = ta.value();
    let (start, end) = (
        ta.selection_start().unwrap().unwrap() as usize,
        ta.selection_end().unwrap().unwrap() as usize,
    );
    assert_eq!(&text[start..end], "aws_vpc.a.id");
    // A variable is declared where its block is.
    click(&vertex(&host, "var.cidr")).await;
    assert_eq!(texts(&host, ".decl-where"), vec!["main.tf line 1"]);
    assert!(texts(&host, ".no-decl").is_empty());
    // The graph changes under the selection: the panel says so instead of showing stale links.
    type_and_build(&host, "resource \"aws_vpc\" \"a\" {}\n").await;
    assert_eq!(
        texts(&host, ".details.gone p").first().cloned(),
        Some("var.cidr is not in this graph.".to_string())
    );
    assert!(texts(&host, ".vertex-links.deps li").is_empty());
    host.remove();
}

// Issue 18, defect 13: code and graph were linked one way only, and the gallery did not mark
// the example shown.
#[wasm_bindgen_test]
async fn a_block_in_the_outline_or_the_editor_selects_its_vertex_and_the_example_is_marked() {
    let host = mount().await;
    // The outline's block selects its vertex.
    let buttons = host
        .query_selector_all(".block-list .block-button")
        .unwrap();
    let web = (0..buttons.length())
        .map(|i| buttons.item(i).unwrap().unchecked_into::<Element>())
        .find(|b| {
            b.text_content()
                .unwrap_or_default()
                .contains("aws_instance.web")
        })
        .expect("the outline lists aws_instance.web");
    click(&web).await;
    assert_eq!(
        texts(&host, ".detail-name"),
        vec!["aws_instance.web (expand)"]
    );
    // A click inside a block in the editor selects that block's vertex.
    let ta: web_sys::HtmlTextAreaElement = host
        .query_selector("textarea#editor")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let text = ta.value();
    let line = text
        .lines()
        .position(|l| l.starts_with("resource \"aws_eip\""))
        .expect("the EIP block")
        + 2;
    let at = tfgraph::page::explain::utf16_offset(&text, line, 3);
    ta.set_selection_range(at, at).unwrap();
    click(&ta).await;
    assert_eq!(texts(&host, ".detail-name"), vec!["aws_eip.web (expand)"]);
    // The gallery marks the example on screen, and no longer once it is edited.
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    settled(&host).await;
    assert_eq!(
        attrs(&host, ".example.chosen", "data-example"),
        vec!["modules"]
    );
    type_and_build(&host, "resource \"x_y\" \"z\" {}\n").await;
    assert!(attrs(&host, ".example.chosen", "data-example").is_empty());
    host.remove();
}

// Issue 15, item 3: the panel lists the vertex's values (a variable's source, count and its
// instances, each instance's arguments, unknowns with the reference that makes them unknown) and
// its evaluation steps for the graph's operation; each reference in the snippet selects its
// vertex.
#[wasm_bindgen_test]
async fn the_details_list_values_and_steps_and_references_select_their_vertex() {
    let host = mount().await;
    type_and_build(
        &host,
        "variable \"n\" {\n  type    = number\n  default = 2\n}\nresource \"aws_instance\" \"web\" {\n  count = var.n\n  ami   = \"ami-${count.index}\"\n}\nresource \"aws_eip\" \"ip\" {\n  instance = aws_instance.web[0].id\n}\n",
    )
    .await;
    click(&vertex(&host, "aws_instance.web (expand)")).await;
    assert_eq!(
        texts(&host, ".vertex-inside .value-title"),
        vec![
            "aws_instance.web",
            "aws_instance.web[0]",
            "aws_instance.web[1]"
        ]
    );
    let values = texts(&host, ".vertex-inside .value");
    assert!(
        values.contains(&"reads var.n = 2default".to_string()),
        "{values:?}"
    );
    assert!(values.contains(&"count = 2".to_string()), "{values:?}");
    assert!(
        values.contains(&"ami = \"ami-1\"".to_string()),
        "{values:?}"
    );
    // The steps of the plan walk, with the instances' steps.
    let summary = texts(&host, ".vertex-inside .eval-steps h3");
    assert_eq!(summary.len(), 1);
    assert!(
        summary[0].starts_with("Evaluation in the plan walk (walkPlan) ("),
        "{summary:?}"
    );
    let steps = texts(&host, ".vertex-inside .eval-step-list li");
    assert!(steps.len() > 5, "{steps:?}");
    assert!(steps.iter().all(|s| s.contains("Go: ")), "{steps:?}");
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("Ask the provider for the planned change")),
        "{steps:?}"
    );
    // The reference in the snippet selects the variable.
    assert_eq!(texts(&host, ".snippet .snippet-ref"), vec!["var.n"]);
    click_on(&host, ".snippet .snippet-ref").await;
    assert_eq!(
        texts(&host, ".detail-name"),
        vec!["var.n (expand, reference)"]
    );
    assert!(texts(&host, ".vertex-inside .value").contains(&"var.n = 2default".to_string()));
    // An unknown, with its reason, and the value it reads links to the resource.
    click(&vertex(&host, "aws_eip.ip (expand)")).await;
    let unknown = texts(&host, ".vertex-inside .value.unknown:not(.read)");
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert!(
        unknown[0].starts_with("instance = (known after apply)")
            && unknown[0]
                .contains("aws_instance.web[0].id is attribute \"id\" of managed resource"),
        "{unknown:?}"
    );
    click_on(&host, ".vertex-inside .value.read .value-from").await;
    assert_eq!(
        texts(&host, ".detail-name"),
        vec!["aws_instance.web (expand)"]
    );
    host.remove();
}

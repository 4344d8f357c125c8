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

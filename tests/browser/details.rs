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
    let ta = editor_textarea(&host);
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
    let ta = editor_textarea(&host);
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
    // The steps of the plan walk, with the instances' steps, in one list: each with what it
    // reads and writes, its Go function, its planned time and its "fail here".
    let summary = texts(&host, ".walk-steps h3");
    assert_eq!(summary.len(), 1);
    assert!(
        summary[0].starts_with("Evaluation in the plan walk (walkPlan): "),
        "{summary:?}"
    );
    assert_eq!(texts(&host, ".walk-step-list").len(), 1);
    assert!(texts(&host, ".eval-step-list").is_empty());
    let steps = texts(&host, ".walk-steps .walk-step");
    assert!(steps.len() > 5, "{steps:?}");
    assert!(
        steps
            .iter()
            .all(|s| s.contains("Go: ") && s.contains("reads ") && s.contains("takes ")),
        "{steps:?}"
    );
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("Ask the provider for the planned change")),
        "{steps:?}"
    );
    assert!(
        texts(&host, ".walk-steps .walk-step .ws-each").len() > 1,
        "the instances' steps are marked"
    );
    assert_eq!(
        texts(&host, ".walk-steps .ws-fail").len(),
        steps.len(),
        "each step has its fail here"
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

/// A bubbling event of type `kind` on `el` (a double click, a key).
async fn bubble(el: &Element, kind: &str, key: Option<&str>) {
    let ev: Event = match key {
        Some(k) => {
            let init = web_sys::KeyboardEventInit::new();
            init.set_key(k);
            init.set_bubbles(true);
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init)
                .expect("event")
                .into()
        }
        None => {
            let init = EventInit::new();
            init.set_bubbles(true);
            Event::new_with_event_init_dict(kind, &init).expect("event")
        }
    };
    el.dispatch_event(&ev).expect("dispatch");
    settle().await;
}

// Issue 15, item 4: an (expand) vertex opens into its instances in Inspect mode (its details'
// button, a double click, the `o` key), drawn where it was with what it depended on; a second
// action closes it; one whose instances are not known statically says why; what is open stays
// open across an edit that keeps its name.
#[wasm_bindgen_test]
async fn an_expand_vertex_opens_into_its_instances_and_closes_again() {
    let host = mount().await;
    let text = "variable \"zones\" { default = [\"a\", \"b\"] }\nvariable \"n\" {}\nresource \"aws_vpc\" \"v\" {}\nresource \"aws_subnet\" \"s\" {\n  for_each = toset(var.zones)\n  vpc_id   = aws_vpc.v.id\n}\nresource \"aws_instance\" \"web\" {\n  count = var.n\n}\n";
    type_and_build(&host, text).await;
    let closed = vertex_names(&host);
    click(&vertex(&host, "aws_subnet.s (expand)")).await;
    assert_eq!(texts(&host, ".expansion-summary"), vec!["2 instances"]);
    click_on(&host, ".expansion-toggle").await;
    settled(&host).await;
    let names = vertex_names(&host);
    for n in ["aws_subnet.s[\"a\"]", "aws_subnet.s[\"b\"]"] {
        assert!(names.contains(&n.to_string()), "{n} drawn: {names:?}");
        assert!(has_class(&vertex(&host, n), "expansion"));
    }
    assert_eq!(names.len(), closed.len() + 2);
    assert!(has_class(&vertex(&host, "aws_subnet.s (expand)"), "opened"));
    // Each instance waits for what the vertex waited for; the vertex, for its instances.
    let edges = drawn_edges(&host, "");
    assert!(edges.contains(&(
        "aws_subnet.s[\"a\"]".to_string(),
        "aws_vpc.v (expand)".to_string()
    )));
    assert!(edges.contains(&(
        "aws_subnet.s (expand)".to_string(),
        "aws_subnet.s[\"b\"]".to_string()
    )));
    assert!(!edges.contains(&(
        "aws_subnet.s (expand)".to_string(),
        "aws_vpc.v (expand)".to_string()
    )));
    assert_eq!(
        texts(&host, ".expansion-toggle"),
        vec!["Close its instances"]
    );
    // An edit that keeps the name keeps it open.
    type_and_build(&host, &format!("{text}output \"o\" {{ value = 1 }}\n")).await;
    assert!(vertex_names(&host).contains(&"aws_subnet.s[\"a\"]".to_string()));
    // A double click on an instance closes what it was drawn for, which is then selected.
    bubble(&vertex(&host, "aws_subnet.s[\"a\"]"), "dblclick", None).await;
    settled(&host).await;
    assert!(!vertex_names(&host).contains(&"aws_subnet.s[\"a\"]".to_string()));
    assert_eq!(texts(&host, ".detail-name"), vec!["aws_subnet.s (expand)"]);
    // The o key opens the selected vertex again, a double click on it closes it.
    bubble(
        &vertex(&host, "aws_subnet.s (expand)"),
        "keydown",
        Some("o"),
    )
    .await;
    settled(&host).await;
    assert!(vertex_names(&host).contains(&"aws_subnet.s[\"b\"]".to_string()));
    bubble(&vertex(&host, "aws_subnet.s (expand)"), "dblclick", None).await;
    settled(&host).await;
    assert!(!vertex_names(&host).contains(&"aws_subnet.s[\"b\"]".to_string()));
    // Instances that depend on a value not known statically: the reason, and nothing to open.
    click(&vertex(&host, "aws_instance.web (expand)")).await;
    let why = texts(&host, ".expansion-summary.expansion-unknown");
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(
        why[0].starts_with("Its instances are not known statically: ") && why[0].contains("var.n"),
        "{why:?}"
    );
    assert!(texts(&host, ".expansion-toggle").is_empty());
    host.remove();
}

// Issue 15: on a phone (390 px) the details sheet scrolled sideways under the steps list: the Go
// names of the steps (`NodePlannableResourceInstance.managedResourceExecute`) did not wrap. Here
// the panel is held to a phone's width and must not be wider than that.
#[wasm_bindgen_test]
async fn the_steps_list_fits_a_phones_width() {
    let host = mount().await;
    let style = app_stylesheet();
    type_and_build(
        &host,
        "resource \"aws_instance\" \"web\" {\n  count = 2\n}\n",
    )
    .await;
    click(&vertex(&host, "aws_instance.web (expand)")).await;
    let pane: HtmlElement = host
        .query_selector(".side-pane")
        .expect("query")
        .expect("side pane")
        .dyn_into()
        .expect("html");
    pane.style().set_property("width", "390px").expect("width");
    pane.style()
        .set_property("max-width", "390px")
        .expect("max-width");
    settle().await;
    let body = host
        .query_selector(".side-body")
        .expect("query")
        .expect("side body");
    assert!(body.client_width() > 300 && body.client_width() <= 390);
    assert!(
        texts(&host, ".walk-steps .ws-io")
            .iter()
            .any(|t| t.contains("NodePlannableResourceInstance.")),
        "the long Go names are there"
    );
    assert!(
        body.scroll_width() <= body.client_width(),
        "the details are {} px wide in a {} px sheet",
        body.scroll_width(),
        body.client_width()
    );
    style.remove();
    host.remove();
}

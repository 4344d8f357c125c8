//! Build steps: replaying the graph transform by transform.

use crate::support::*;

#[wasm_bindgen_test]
async fn choosing_a_transform_step_replays_the_graph_up_to_it() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, ".tabs .tab:nth-child(2)").await;
    let steps = texts(&host, ".step-list .step-name");
    assert_eq!(steps.first().map(String::as_str), Some("ConfigTransformer"));
    // After the first step: the three resources, nothing else, all of them new.
    click_on(&host, ".step-list .step:nth-child(1) button").await;
    assert_eq!(
        vertex_names(&host),
        vec![
            "aws_instance.c (expand)",
            "aws_subnet.b (expand)",
            "aws_vpc.a (expand)"
        ]
    );
    assert_eq!(
        host.query_selector_all(".graph-svg g.vertex.added")
            .unwrap()
            .length(),
        3
    );
    assert_eq!(
        host.query_selector_all(".graph-svg path.edge")
            .unwrap()
            .length(),
        0
    );
    let banner = texts(&host, ".step-banner");
    assert!(banner[0].contains("ConfigTransformer"), "{banner:?}");
    // MissingProviderTransformer adds the provider.
    let k = steps
        .iter()
        .position(|s| s == "MissingProviderTransformer")
        .expect("step")
        + 1;
    click_on(&host, &format!(".step-list .step:nth-child({k}) button")).await;
    assert_eq!(vertex_names(&host).len(), 4);
    assert_eq!(
        attrs(&host, ".graph-svg g.vertex.added", "data-name"),
        vec![AWS]
    );
    // The last step gives the final graph.
    click_on(
        &host,
        &format!(".step-list .step:nth-child({}) button", steps.len()),
    )
    .await;
    assert_eq!(vertex_names(&host).len(), 6);
    host.remove();
}

#[wasm_bindgen_test]
async fn replaying_every_step_gives_the_final_graph_for_each_example() {
    let host = mount().await;
    let ids = attrs(&host, "[data-example]", "data-example");
    let ids = if ids.is_empty() {
        click_on(&host, ".tabs .tab:nth-child(3)").await;
        attrs(&host, "[data-example]", "data-example")
    } else {
        ids
    };
    assert!(ids.len() >= 8, "{ids:?}");
    for id in ids {
        click_on(&host, ".tabs .tab:nth-child(3)").await;
        click_on(&host, &format!("[data-example={id}] button")).await;
        settled(&host).await;
        let final_names = vertex_names(&host);
        let final_edges = host
            .query_selector_all(".graph-svg path.edge")
            .unwrap()
            .length();
        click_on(&host, ".tabs .tab:nth-child(2)").await;
        let n = texts(&host, ".step-list .step-name").len();
        assert!(n > 10, "{id}: {n} steps");
        click_on(&host, &format!(".step-list .step:nth-child({n}) button")).await;
        assert_eq!(vertex_names(&host), final_names, "{id}");
        let removed_edges = host
            .query_selector_all(".graph-svg path.edge.removed")
            .unwrap()
            .length();
        assert_eq!(
            host.query_selector_all(".graph-svg path.edge")
                .unwrap()
                .length()
                - removed_edges,
            final_edges,
            "{id}"
        );
    }
    host.remove();
}

#[wasm_bindgen_test]
async fn build_steps_are_tagged_with_the_resource_graph_phases() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, ".tabs .tab:nth-child(2)").await;
    let names = texts(&host, ".step-list .step-name");
    let phases = attrs(&host, ".step-list .step[data-phase]", "data-phase");
    assert_eq!(names.len(), phases.len());
    let phase = |t: &str| phases[names.iter().position(|n| n == t).expect(t)].clone();
    assert_eq!(phase("ConfigTransformer"), "resources");
    assert_eq!(phase("ProviderTransformer"), "providers");
    assert_eq!(phase("ReferenceTransformer"), "references");
    assert_eq!(phase("CloseRootModuleTransformer"), "root");
    assert_eq!(phase("TransitiveReductionTransformer"), "reduction");
    assert_eq!(phase("ModuleExpansionTransformer"), "modules");
    assert_eq!(texts(&host, ".phase-list .phase").len(), 12);
    assert!(texts(&host, ".validation-result")[0].contains("Passed"));
    // The theme menu sets the page's theme.
    choose(&host, "#theme", "dark").await;
    let html = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    assert_eq!(html.get_attribute("data-theme").as_deref(), Some("dark"));
    choose(&host, "#theme", "auto").await;
    assert_eq!(html.get_attribute("data-theme"), None);
    host.remove();
}

// Issue 18, defect 9: the chosen step scrolled out of view in the list, its figures had no
// labels, and the header's edge count disagreed with the drawing at a step that removes edges.
#[wasm_bindgen_test]
async fn the_chosen_step_stays_in_view_with_labelled_figures_and_true_counts() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, ".tabs .tab:nth-child(2)").await;
    let names = texts(&host, ".step-list .step-name");
    let k = names
        .iter()
        .rposition(|s| s == "TransitiveReductionTransformer")
        .expect("the reduction step")
        + 1;
    click_on(&host, &format!(".step-list .step:nth-child({k}) button")).await;
    settled(&host).await;
    // The banner's figures say what they count.
    let banner = texts(&host, ".step-banner .step-delta").join("");
    assert!(banner.contains("edge"), "{banner}");
    assert!(!banner.contains('·'), "{banner}");
    let listed = texts(&host, ".step-list .step.active .step-delta").join("");
    assert_eq!(listed, banner);
    // The header counts the solid edges the drawing shows (the removed ones are faded).
    let solid = host
        .query_selector_all(".graph-svg path.edge:not(.removed):not(.reduced)")
        .unwrap()
        .length();
    let counts = texts(&host, ".graph-counts").join("");
    assert!(
        counts.contains(&format!("{solid} edge")),
        "{counts} but {solid} solid edges drawn"
    );
    // The chosen step is inside the list's visible box.
    let item = host
        .query_selector(".step-list .step.active")
        .unwrap()
        .expect("active step");
    let visible = || {
        let r = item.get_bounding_client_rect();
        let mut p = item.parent_element();
        while let Some(e) = p {
            let style = web_sys::window()
                .unwrap()
                .get_computed_style(&e)
                .unwrap()
                .unwrap();
            let oy = style.get_property_value("overflow-y").unwrap_or_default();
            if oy == "auto" || oy == "scroll" {
                let b = e.get_bounding_client_rect();
                return r.top() >= b.top() - 1.0 && r.bottom() <= b.bottom() + 1.0;
            }
            p = e.parent_element();
        }
        true
    };
    assert!(
        wait_until(2_000, visible).await,
        "the chosen step is scrolled out of view"
    );
    host.remove();
}

// Issue 18, defect 9: the graph was laid out again at every build step, so vertices jumped as
// transforms added edges.
#[wasm_bindgen_test]
async fn stepping_through_the_build_keeps_every_vertex_where_it_was() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, ".tabs .tab:nth-child(2)").await;
    let steps = texts(&host, ".step-list .step-name");
    let at = |name: &str| {
        steps
            .iter()
            .position(|s| s == name)
            .unwrap_or_else(|| panic!("{name} in {steps:?}"))
            + 1
    };
    // The first step draws the resources without edges; the provider's and the references'
    // steps join them; the last is the final graph.
    let chosen = [
        1,
        at("MissingProviderTransformer"),
        at("ReferenceTransformer"),
        steps.len(),
    ];
    let names = ["aws_vpc.a (expand)", "aws_instance.c (expand)"];
    let mut first: Vec<String> = Vec::new();
    for (i, k) in chosen.into_iter().enumerate() {
        click_on(&host, &format!(".step-list .step:nth-child({k}) button")).await;
        settled(&host).await;
        let placed: Vec<String> = names.iter().map(|n| place(&vertex(&host, n))).collect();
        if i == 0 {
            first = placed;
        } else {
            assert_eq!(placed, first, "{names:?} at step {k} ({})", steps[k - 1]);
        }
    }
    host.remove();
}

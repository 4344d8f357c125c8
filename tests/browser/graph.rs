//! The drawn graph: plan graphs from typed text, the examples, cycles, targets, replacement orders, PNG export.

use crate::support::*;

#[wasm_bindgen_test]
async fn typing_a_config_draws_its_plan_graph() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    assert_eq!(
        vertex_names(&host),
        vec![
            "aws_instance.c (expand)".to_string(),
            "aws_subnet.b (expand)".into(),
            "aws_vpc.a (expand)".into(),
            AWS.into(),
            format!("{AWS} (close)"),
            "root".into(),
        ]
    );
    assert_eq!(
        host.query_selector_all(".graph-svg path.edge")
            .unwrap()
            .length(),
        5,
        "c->b, b->a, a->provider, close->c, root->close: transitive reduction drops the rest"
    );
    assert!(
        vertex(&host, "aws_vpc.a (expand)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("kind-resource")
    );
    assert!(
        vertex(&host, AWS)
            .get_attribute("class")
            .unwrap_or_default()
            .contains("kind-provider")
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn the_cycle_example_shows_the_cycle_error_and_draws_it_red() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=cycle] button").await;
    settled(&host).await;
    let msgs = texts(&host, ".diagnostic.error .diag-message").join("\n");
    assert!(msgs.contains("Cycle: "), "{msgs}");
    let red = attrs(&host, ".graph-svg g.vertex.cycle", "data-name");
    assert!(
        red.iter().any(|n| n.starts_with("aws_security_group.a"))
            && red.iter().any(|n| n.starts_with("aws_security_group.b")),
        "{red:?}"
    );
    assert!(
        host.query_selector_all(".graph-svg path.edge.cycle")
            .unwrap()
            .length()
            >= 2
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn the_modules_example_draws_a_module_box() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    settled(&host).await;
    assert!(
        texts(&host, ".diagnostic.error").is_empty(),
        "{:?}",
        texts(&host, ".diagnostic")
    );
    assert_eq!(
        texts(&host, ".graph-svg .cluster-title"),
        vec!["module.net"]
    );
    let names = vertex_names(&host);
    assert!(
        names.contains(&"module.net.aws_vpc.this (expand)".to_string()),
        "{names:?}"
    );
    assert_eq!(
        texts(&host, ".file-tab"),
        vec!["main.tf", "modules/net/main.tf"]
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn the_orphans_example_reads_its_state_file() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=orphans] button").await;
    settled(&host).await;
    assert!(
        texts(&host, ".diagnostic.error").is_empty(),
        "{:?}",
        texts(&host, ".diagnostic")
    );
    let names = vertex_names(&host);
    assert!(
        names.contains(&"aws_instance.old (orphan)".to_string()),
        "{names:?}"
    );
    assert!(
        vertex(&host, "aws_instance.old (orphan)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("kind-destroy")
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn targets_shrink_the_graph_and_bad_addresses_are_reported() {
    let host = mount().await;
    let all = vertex_names(&host);
    assert!(all.contains(&"aws_eip.web (expand)".to_string()), "{all:?}");
    let set = |id: &str, value: &str| {
        let ta: HtmlTextAreaElement = host
            .query_selector(&format!("textarea#{id}"))
            .expect("query")
            .expect("field")
            .dyn_into()
            .expect("textarea");
        ta.set_value(value);
        let init = EventInit::new();
        init.set_bubbles(true);
        ta.dispatch_event(&Event::new_with_event_init_dict("change", &init).expect("event"))
            .expect("dispatch");
    };
    set("targets", "aws_instance.web");
    settled(&host).await;
    let targeted = vertex_names(&host);
    assert!(targeted.len() < all.len(), "{targeted:?}");
    assert!(targeted.contains(&"aws_instance.web (expand)".to_string()));
    assert!(
        !targeted.contains(&"aws_eip.web (expand)".to_string()),
        "{targeted:?}"
    );
    set("targets", "");
    set("excludes", "aws_eip.web, output.public_ip");
    settled(&host).await;
    let excluded = vertex_names(&host);
    assert!(
        !excluded.contains(&"aws_eip.web (expand)".to_string()),
        "{excluded:?}"
    );
    assert!(excluded.contains(&"aws_instance.web (expand)".to_string()));
    set("excludes", "");
    set("targets", "aws_instance.");
    settled(&host).await;
    let errors = texts(&host, ".diagnostic.error");
    assert!(
        errors.iter().any(|e| e.contains("Invalid target address")),
        "{errors:?}"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn apply_sets_the_targets_and_a_target_matching_nothing_is_warned_about() {
    let host = mount().await;
    let all = vertex_names(&host);
    click_on(&host, ".targets-toggle").await;
    // Typed without leaving the field: nothing applies until Apply.
    let ta: HtmlTextAreaElement = host
        .query_selector("textarea#targets")
        .expect("query")
        .expect("field")
        .dyn_into()
        .expect("textarea");
    ta.set_value("aws_instance.web");
    settle().await;
    assert_eq!(vertex_names(&host), all);
    click_on(&host, "#targets-apply").await;
    settled(&host).await;
    let targeted = vertex_names(&host);
    assert!(
        targeted.len() < all.len() && targeted.contains(&"aws_instance.web (expand)".to_string()),
        "{targeted:?}"
    );
    assert!(
        texts(&host, ".diagnostic.warning")
            .iter()
            .all(|w| !w.contains("matches nothing")),
        "{:?}",
        texts(&host, ".diagnostic")
    );
    // A misspelt address: the graph shrinks to what OpenTofu would keep, with a warning that
    // names the address and the closest declared one.
    ta.set_value("aws_instance.wbe");
    click_on(&host, "#targets-apply").await;
    settled(&host).await;
    let warnings = texts(&host, ".diagnostic.warning");
    assert!(
        warnings.iter().any(|w| w.contains("Target matches nothing")
            && w.contains("aws_instance.wbe")
            && w.contains("Did you mean \"aws_instance.web\"?")),
        "{warnings:?}"
    );
    assert!(
        !vertex_names(&host).contains(&"aws_instance.web (expand)".to_string()),
        "{:?}",
        vertex_names(&host)
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn the_replacement_examples_order_destroy_and_create_differently() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=replace] button").await;
    settled(&host).await;
    assert!(
        texts(&host, ".diagnostic.error").is_empty(),
        "{:?}",
        texts(&host, ".diagnostic")
    );
    assert_eq!(
        host.query_selector("#graph-kind")
            .unwrap()
            .unwrap()
            .dyn_into::<web_sys::HtmlSelectElement>()
            .unwrap()
            .value(),
        "apply"
    );
    // Without create_before_destroy the new template waits for the old one's destroy.
    let deps = deps_of(&host, "aws_launch_template.app").await;
    assert!(
        deps.contains(&"aws_launch_template.app (destroy)".to_string()),
        "{deps:?}"
    );

    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=replace-cbd] button").await;
    settled(&host).await;
    let names = vertex_names(&host);
    assert!(
        !names.contains(&"aws_launch_template.app (destroy)".to_string()),
        "{names:?}"
    );
    let deposed = names
        .iter()
        .find(|n| n.starts_with("aws_launch_template.app (destroy deposed "))
        .unwrap_or_else(|| panic!("{names:?}"))
        .clone();
    // With it, the old template is destroyed last, after the group moved to the new one.
    assert_eq!(
        deps_of(&host, &deposed).await,
        vec!["aws_autoscaling_group.app"]
    );
    assert!(
        !deps_of(&host, "aws_launch_template.app")
            .await
            .iter()
            .any(|d| d.contains("destroy"))
    );
    // And the walk finishes the group before the deposed destroy starts.
    click_on(&host, "#walk-reset").await;
    let mut saw = false;
    for _ in 0..80 {
        click_on(&host, "#walk-step").await;
        let old = state_of(&host, &deposed);
        if state_of(&host, "aws_autoscaling_group.app") == "done" {
            saw = true;
        } else {
            assert!(matches!(old.as_str(), "idle" | "waiting"), "{old}");
        }
        if texts(&host, ".walk-status").join("").contains("makespan") {
            break;
        }
    }
    assert!(saw);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_graph_exports_as_png_through_a_canvas() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(4)").await;
    click_on(&host, ".export-png").await;
    // The SVG is loaded as an image and encoded by the canvas, both asynchronously.
    wait_until(20_000, || !texts(&host, ".notice").is_empty()).await;
    let notices = texts(&host, ".notice");
    assert!(
        notices.iter().any(|n| n.contains("Saved graph.png")),
        "{notices:?}"
    );
    host.remove();
}

// Issue 18, defect 11: the exports lost the kinds' colours and shapes, and Mermaid's arrows
// pointed the opposite way from the drawing (whose arrows run from what runs first).
#[wasm_bindgen_test]
async fn exports_keep_the_drawings_kinds_colours_and_arrow_direction() {
    use base64::Engine as _;
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, ".tabs .tab:nth-child(4)").await;
    let exported = |label: &str| {
        let links = host.query_selector_all(".export-link").unwrap();
        (0..links.length())
            .filter_map(|i| links.item(i)?.dyn_into::<Element>().ok())
            .find(|a| a.text_content().unwrap_or_default().trim() == label)
            .and_then(|a| a.get_attribute("href"))
            .and_then(|h| h.split_once("base64,").map(|x| x.1.to_string()))
            .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            .map(|b| String::from_utf8(b).expect("utf-8"))
            .unwrap_or_else(|| panic!("no {label} export"))
    };
    let svg = exported("SVG");
    let provider = svg
        .lines()
        .find(|l| l.contains(&format!("<title>{}", AWS.replace('"', "&quot;"))))
        .unwrap_or_else(|| panic!("provider in {svg}"));
    assert!(provider.contains("<polygon"), "{provider}");
    assert!(provider.contains("stroke=\"#d55e00\""), "{provider}");
    let mermaid = exported("Mermaid");
    let id = |name: &str| {
        mermaid
            .lines()
            .find(|l| {
                l.contains(&format!(
                    "[\"{}\"]",
                    tfgraph::dag::render::mermaid::escape_label(name)
                ))
            })
            .and_then(|l| l.trim().split('[').next())
            .unwrap_or_else(|| panic!("{name} in {mermaid}"))
            .to_string()
    };
    // aws_subnet.b waits for aws_vpc.a: the arrow runs from the VPC to the subnet.
    let (vpc, subnet) = (id("aws_vpc.a (expand)"), id("aws_subnet.b (expand)"));
    assert!(
        mermaid.contains(&format!("{vpc} --> {subnet}")),
        "{mermaid}"
    );
    assert!(
        !mermaid.contains(&format!("{subnet} --> {vpc}")),
        "{mermaid}"
    );
    assert!(mermaid.contains("classDef resource"), "{mermaid}");
    host.remove();
}

// Issue 18, defect 10: Enter in the search always took the first match, and choosing a match did
// not move the view to it.
#[wasm_bindgen_test]
async fn enter_in_the_search_steps_through_matches_and_centres_each() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    let input: web_sys::HtmlInputElement = host
        .query_selector(".graph-search")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    input.set_value("AWS_");
    dispatch(&input, "input").await;
    assert_eq!(texts(&host, ".search-count"), vec!["3 matches · Enter"]);
    let press = |shift: bool| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key("Enter");
        init.set_shift_key(shift);
        init.set_bubbles(true);
        let ev =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        input.dispatch_event(&ev).unwrap();
    };
    let centred = |name: &str| {
        // The shape, not the whole group (its instance counter reaches beyond the box).
        let v = vertex(&host, name)
            .query_selector(".shape")
            .unwrap()
            .unwrap()
            .get_bounding_client_rect();
        let c = host
            .query_selector(".graph-canvas")
            .unwrap()
            .unwrap()
            .get_bounding_client_rect();
        let dx = v.x() + v.width() / 2.0 - (c.x() + c.width() / 2.0);
        let dy = v.y() + v.height() / 2.0 - (c.y() + c.height() / 2.0);
        dx.abs() < 2.0 && dy.abs() < 2.0
    };
    for (shift, want, pos) in [
        (false, "aws_instance.c (expand)", "1 of 3"),
        (false, "aws_subnet.b (expand)", "2 of 3"),
        (false, "aws_vpc.a (expand)", "3 of 3"),
        (false, "aws_instance.c (expand)", "1 of 3"),
        (true, "aws_vpc.a (expand)", "3 of 3"),
    ] {
        press(shift);
        assert!(
            wait_until(5_000, || texts(&host, ".detail-name")
                == vec![want.to_string()])
            .await,
            "{:?} instead of {want}",
            texts(&host, ".detail-name")
        );
        assert_eq!(texts(&host, ".search-count"), vec![pos]);
        assert!(
            wait_until(2_000, || centred(want)).await,
            "{want} is not centred: {:?} in {:?}",
            {
                let v = vertex(&host, want).get_bounding_client_rect();
                (v.x(), v.y(), v.width(), v.height())
            },
            {
                let c = host
                    .query_selector(".graph-canvas")
                    .unwrap()
                    .unwrap()
                    .get_bounding_client_rect();
                (c.x(), c.y(), c.width(), c.height())
            }
        );
    }
    // The details the press opened, a notice or a narrower window change the canvas's size
    // after the view moved: the match stays in the centre.
    let width = || {
        host.query_selector(".graph-canvas")
            .unwrap()
            .unwrap()
            .get_bounding_client_rect()
            .width()
    };
    let before = width();
    host.unchecked_ref::<web_sys::HtmlElement>()
        .style()
        .set_property("width", &format!("{}px", (before * 0.7).round()))
        .unwrap();
    assert!(
        wait_until(2_000, || width() < before - 50.0).await,
        "the canvas narrowed: {before} then {}",
        width()
    );
    assert!(
        wait_until(2_000, || centred("aws_vpc.a (expand)")).await,
        "aws_vpc.a (expand) stays centred when the canvas narrows"
    );
    host.remove();
}

// Issue 18: "a glossary of vertex kinds opens from the legend". Every kind the legend draws and
// the suffixes the details panel explains are in it, in the panel's words; Escape closes it.
#[wasm_bindgen_test]
async fn the_legend_opens_a_glossary_of_every_kind_and_suffix() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    assert!(host.query_selector(".glossary-card").unwrap().is_none());
    click_on(&host, ".legend .legend-glossary").await;
    let card = host
        .query_selector(".glossary-card[role='dialog']")
        .unwrap()
        .expect("the glossary dialog");
    let terms = texts(&host, ".glossary-card .glossary-term");
    for k in tfgraph::page::graph::Kind::LEGEND {
        assert!(
            terms.iter().any(|t| t == k.label()),
            "{} in {terms:?}",
            k.label()
        );
    }
    for s in [
        "(expand)",
        "(close) of a module",
        "(expand, reference)",
        "(orphan)",
        "(destroy)",
    ] {
        assert!(terms.iter().any(|t| t == s), "{s} in {terms:?}");
    }
    // The panel's sentence for a module's close vertex is the glossary's.
    let about = tfgraph::page::details::about(&tfgraph::kind::Typed::new(
        tfgraph::kind::VertexKind::ModuleClose,
        vec!["network".into()],
    ));
    assert!(
        texts(&host, ".glossary-card dd span")
            .iter()
            .any(|t| t == about),
        "{about}"
    );
    // It has the focus, so Escape closes it.
    let active = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .active_element();
    assert_eq!(active.as_ref(), Some(&card));
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Escape");
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    card.dispatch_event(&ev).unwrap();
    assert!(
        wait_until(2_000, || host
            .query_selector(".glossary-card")
            .unwrap()
            .is_none())
        .await,
        "Escape left the glossary open"
    );
    host.remove();
}

// Issue 14, item 5: the graph from the keyboard. One vertex is the graph's Tab stop (the first in
// reading order: top layer first, so what runs first); the arrow keys move the focus through
// the drawing in that order, End goes to the last (root, which waits for everything), Enter
// does what a click does; each vertex says its name and kind to a screen reader.
#[wasm_bindgen_test]
async fn the_arrow_keys_walk_the_graph_and_enter_opens_details() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    let stops = host
        .query_selector_all(".graph-svg g.vertex[tabindex='0']")
        .unwrap();
    assert_eq!(stops.length(), 1, "one Tab stop in the graph");
    let first: Element = stops.item(0).unwrap().dyn_into().unwrap();
    let top = |e: &Element| e.get_bounding_client_rect().top();
    let all = host.query_selector_all(".graph-svg g.vertex").unwrap();
    for i in 0..all.length() {
        let v: Element = all.item(i).unwrap().dyn_into().unwrap();
        assert!(
            top(&first) <= top(&v) + 0.5,
            "the Tab stop is in the top layer"
        );
        assert_eq!(v.get_attribute("role").as_deref(), Some("button"));
    }
    let root = vertex(&host, "root");
    assert_eq!(
        root.get_attribute("aria-label").as_deref(),
        Some("root, root")
    );
    let vpc = vertex(&host, "aws_vpc.a (expand)");
    assert_eq!(
        vpc.get_attribute("aria-label").as_deref(),
        Some("aws_vpc.a (expand), resource")
    );
    let doc = web_sys::window().unwrap().document().unwrap();
    let active = || {
        doc.active_element()
            .and_then(|e| e.get_attribute("data-name"))
            .unwrap_or_default()
    };
    let press = |on: &Element, key: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        let ev =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        on.dispatch_event(&ev).unwrap();
    };
    first
        .unchecked_ref::<web_sys::SvgElement>()
        .focus()
        .unwrap();
    let start = active();
    assert_eq!(Some(start.clone()), first.get_attribute("data-name"));
    // Down: the next vertex, never one drawn above.
    press(&first, "ArrowDown");
    settle().await;
    let second = active();
    assert_ne!(second, start);
    assert!(top(&vertex(&host, &second)) + 0.5 >= top(&first));
    // The Tab stop followed the focus.
    assert_eq!(
        attrs(&host, ".graph-svg g.vertex[tabindex='0']", "data-name"),
        vec![second.clone()]
    );
    press(&vertex(&host, &second), "ArrowUp");
    settle().await;
    assert_eq!(active(), start);
    press(&vertex(&host, &start), "End");
    settle().await;
    assert_eq!(active(), "root");
    press(&vertex(&host, "root"), "Enter");
    assert!(
        wait_until(3_000, || texts(&host, ".detail-name")
            == vec!["root".to_string()])
        .await,
        "{:?}",
        texts(&host, ".detail-name")
    );
    host.remove();
}

/// Keyed drawing (issue 11, item 5): an edit keeps the element of every vertex and edge whose
/// name is still drawn, updates it in place (its place, its index for the walk and the
/// selection), makes elements only for what is new and removes only what is gone.
#[wasm_bindgen_test]
async fn an_edit_keeps_the_drawn_elements_of_what_is_still_there() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    // Mark every drawn vertex and edge element: a redraw from scratch would lose the marks.
    let marked = host
        .query_selector_all(".graph-svg g.vertex, .graph-svg path.edge")
        .unwrap();
    for k in 0..marked.length() {
        let el: Element = marked.item(k).unwrap().dyn_into().unwrap();
        el.set_attribute("data-probe", "kept").unwrap();
    }
    let before_vertices = vertex_names(&host).len();
    // A new resource that aws_vpc.a now depends on: the vpc moves, one vertex and its edges are
    // new, one edge (vpc -> provider) is gone after the reduction.
    type_and_build(
        &host,
        &format!("{CHAIN}resource \"aws_eip\" \"e\" {{}}\nresource \"aws_route_table\" \"r\" {{\n  vpc_id = aws_vpc.a.id\n}}\n"),
    )
    .await;
    let names = vertex_names(&host);
    assert_eq!(names.len(), before_vertices + 2, "{names:?}");
    for n in &names {
        let fresh = n.starts_with("aws_eip.e") || n.starts_with("aws_route_table.r");
        assert_eq!(
            vertex(&host, n).get_attribute("data-probe").is_none(),
            fresh,
            "{n}: only the new vertices are new elements"
        );
    }
    let kept_edges = host
        .query_selector_all(".graph-svg path.edge[data-probe]")
        .unwrap()
        .length();
    let new_edges = host
        .query_selector_all(".graph-svg path.edge:not([data-probe])")
        .unwrap();
    let new_edges: Vec<String> = (0..new_edges.length())
        .map(|k| {
            let el: Element = new_edges.item(k).unwrap().dyn_into().unwrap();
            el.get_attribute("data-dependent").unwrap_or_default()
        })
        .collect();
    assert!(kept_edges >= 4, "the old edges are kept: {kept_edges}");
    assert!(
        new_edges.iter().all(|d| d.starts_with("aws_eip.e")
            || d.starts_with("aws_route_table.r")
            || d.contains("(close)")),
        "only edges touching the new vertices are new: {new_edges:?}"
    );
    // The kept elements follow their vertex: the drawing is right, not only kept. Selecting a
    // kept vertex marks its own element, and a kept edge's path is the scene's.
    let vpc = vertex(&host, "aws_vpc.a (expand)");
    assert!(vpc.get_attribute("data-probe").is_some());
    click(&vpc).await;
    settle().await;
    assert!(has_class(&vertex(&host, "aws_vpc.a (expand)"), "selected"));
    assert!(has_class(
        &vertex(&host, "aws_route_table.r (expand)"),
        "descendant"
    ));
    assert!(has_class(&vertex(&host, "aws_eip.e (expand)"), "dim"));
    // A removal removes only what is gone.
    type_and_build(&host, CHAIN).await;
    assert_eq!(vertex_names(&host).len(), before_vertices);
    assert!(
        host.query_selector_all(".graph-svg g.vertex:not([data-probe])")
            .unwrap()
            .length()
            == 0,
        "every vertex left is one of the first drawing's elements"
    );
    host.remove();
}

/// The parts of a drawn vertex's action badge: (text, class, computed fill).
fn action_parts(host: &Element, name: &str) -> Vec<(String, String, String)> {
    let v = vertex(host, name);
    let list = v.query_selector_all(".action-badge tspan").unwrap();
    let win = web_sys::window().unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .map(|e| {
            let fill = win
                .get_computed_style(&e)
                .ok()
                .flatten()
                .map(|s| s.get_property_value("fill").unwrap_or_default())
                .unwrap_or_default();
            (
                e.text_content().unwrap_or_default(),
                e.get_attribute("class").unwrap_or_default(),
                fill,
            )
        })
        .collect()
}

#[wasm_bindgen_test]
async fn the_replacement_examples_show_their_planned_actions_with_tofu_plans_colours() {
    let style = app_stylesheet();
    let root = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    let host = mount().await;
    // After mounting: the app sets the theme it has saved (none, the system's) when it starts.
    root.set_attribute("data-theme", "light").unwrap();
    type_and_build(&host, CHAIN).await;
    // Without a plan nothing is marked.
    assert_eq!(
        host.query_selector_all(".graph-svg .action-badge")
            .unwrap()
            .length(),
        0
    );
    assert!(texts(&host, ".legend .legend-action").is_empty());
    assert!(texts(&host, ".legend .plan-summary").is_empty());

    // Light theme: tofu plan's red and green as the stylesheet holds them (page::actions).
    let (red, green) = ("rgb(180, 35, 24)", "rgb(47, 125, 50)");
    let (dark_red, dark_green) = ("rgb(255, 138, 128)", "rgb(143, 209, 143)");

    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=replace] button").await;
    settled(&host).await;
    for name in [
        "aws_launch_template.app",
        "aws_launch_template.app (destroy)",
    ] {
        let p = action_parts(&host, name);
        let text: String = p.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(text, "-/+", "{name}: {p:?}");
        assert_eq!(p[0].1, "a-red", "{p:?}");
        assert_eq!(p[2].1, "a-green", "{p:?}");
        assert_eq!((p[0].2.as_str(), p[2].2.as_str()), (red, green), "{p:?}");
        assert!(has_class(&vertex(&host, name), "action-delete-then-create"));
        let label = vertex(&host, name).get_attribute("aria-label").unwrap();
        assert!(
            label.ends_with("planned: destroy and then create replacement (-/+)"),
            "{label}"
        );
    }
    let group: String = action_parts(&host, "aws_autoscaling_group.app")
        .iter()
        .map(|x| x.0.clone())
        .collect();
    assert_eq!(group, "~");
    assert!(
        vertex(&host, AWS)
            .query_selector(".action-badge")
            .unwrap()
            .is_none()
    );
    assert_eq!(
        texts(&host, ".legend .legend-action"),
        vec![
            "~update in-place1",
            "-/+destroy and then create replacement1"
        ]
    );
    assert_eq!(
        texts(&host, ".legend .plan-summary"),
        vec!["Plan: 1 to add, 1 to change, 1 to destroy."]
    );

    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=replace-cbd] button").await;
    settled(&host).await;
    let deposed = vertex_names(&host)
        .into_iter()
        .find(|n| n.starts_with("aws_launch_template.app (destroy deposed "))
        .unwrap();
    for name in ["aws_launch_template.app", deposed.as_str()] {
        let p = action_parts(&host, name);
        let text: String = p.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(text, "+/-", "{name}: {p:?}");
        assert_eq!((p[0].2.as_str(), p[2].2.as_str()), (green, red), "{p:?}");
        assert!(has_class(&vertex(&host, name), "action-create-then-delete"));
    }
    // The dark theme's lighter red and green (4.5:1 on its canvas).
    root.set_attribute("data-theme", "dark").unwrap();
    let p = action_parts(&host, "aws_launch_template.app");
    assert_eq!(
        (p[0].2.as_str(), p[2].2.as_str()),
        (dark_green, dark_red),
        "{p:?}"
    );
    root.remove_attribute("data-theme").unwrap();
    style.remove();
    assert_eq!(
        texts(&host, ".legend .legend-action"),
        vec![
            "~update in-place1",
            "+/-create replacement and then destroy1"
        ]
    );
    host.remove();
}

// Issue 16, item 5: zoomed out below a readable label size the graph is drawn as marks, and
// zooming back in brings the labels back.
#[wasm_bindgen_test]
async fn zoomed_out_the_graph_is_drawn_as_marks_and_zoomed_in_with_labels() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    let svg = host
        .query_selector(".graph-svg")
        .unwrap()
        .expect("the graph");
    let button = |label: &str| {
        host.query_selector(&format!(".zoom-buttons button[aria-label='{label}']"))
            .unwrap()
            .expect("zoom button")
    };
    // (The test page has no stylesheet, so the canvas, and the fit, may be small.)
    let mut clicks = 0;
    while has_class(&svg, "marks-only") && clicks < 20 {
        click(&button("Zoom in")).await;
        clicks += 1;
    }
    assert!(
        !has_class(&svg, "marks-only"),
        "labels after {clicks} zoom-ins"
    );
    let mut clicks = 0;
    while !has_class(&svg, "marks-only") && clicks < 30 {
        click(&button("Zoom out")).await;
        clicks += 1;
    }
    assert!(
        has_class(&svg, "marks-only"),
        "marks after {clicks} zoom-outs"
    );
    // The vertices are still there to click and walk; only their text is not drawn.
    assert_eq!(vertex_names(&host).len(), 6);
    // Each click is 1.25x. Labels went just below the lower threshold, and come back only at
    // the upper one, a click's step higher: one click back in keeps the marks (zooming around
    // one threshold does not switch every label on and off), the second brings the labels.
    click(&button("Zoom in")).await;
    assert!(has_class(&svg, "marks-only"), "still marks one click later");
    click(&button("Zoom in")).await;
    assert!(
        !has_class(&svg, "marks-only"),
        "labels again two clicks later"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn an_edit_keeps_the_drawing_in_place_and_tidy_lays_it_out_afresh() {
    let host = mount().await;
    let config = |with_b: bool| {
        let b = "resource \"null_resource\" \"b\" { triggers = { x = null_resource.x.id } }\n";
        format!(
            "resource \"null_resource\" \"x\" {{}}\n\
             resource \"null_resource\" \"a\" {{ triggers = {{ x = null_resource.x.id }} }}\n\
             {}\
             resource \"null_resource\" \"c\" {{ triggers = {{ x = null_resource.x.id }} }}\n",
            if with_b { b } else { "" }
        )
    };
    let place = |name: &str| crate::support::place(&vertex(&host, name));
    type_and_build(&host, &config(true)).await;
    let (a, c) = (
        place("null_resource.a (expand)"),
        place("null_resource.c (expand)"),
    );
    // Removing b leaves a and c where they were (a gap where b was), rather than redrawing.
    type_and_build(&host, &config(false)).await;
    assert!(!vertex_names(&host).contains(&"null_resource.b (expand)".to_string()));
    assert_eq!(place("null_resource.a (expand)"), a);
    assert_eq!(place("null_resource.c (expand)"), c);
    // Tidy lays the graph out afresh: the gap closes.
    click_on(&host, "#tidy").await;
    settled(&host).await;
    assert_ne!(
        (
            place("null_resource.a (expand)"),
            place("null_resource.c (expand)")
        ),
        (a, c),
        "laid out afresh"
    );
    host.remove();
}

// Issue 16, item 5: a minimap when the fitted drawing is too small to read; a press in it moves
// the view there.
#[wasm_bindgen_test]
async fn a_large_drawing_gets_a_minimap_and_a_press_in_it_moves_the_view() {
    let host = mount().await;
    let sheet = app_stylesheet();
    for (selector, prop, value) in [
        (".app", "width", "1280px"),
        (".graph-canvas", "flex", "none"),
        (".graph-canvas", "height", "700px"),
    ] {
        host.query_selector(selector)
            .unwrap()
            .expect(selector)
            .dyn_into::<HtmlElement>()
            .unwrap()
            .style()
            .set_property(prop, value)
            .unwrap();
    }
    type_and_build(&host, CHAIN).await;
    click_on(&host, "button[title=\"Fit the graph\"]").await;
    assert!(
        host.query_selector(".minimap").unwrap().is_none(),
        "a graph legible at Fit has no minimap"
    );
    // 150 resources side by side: at Fit, far below the scale where labels show.
    let wide: String = (0..150)
        .map(|i| format!("resource \"null_resource\" \"r{i}\" {{}}\n"))
        .collect();
    type_and_build(&host, &wide).await;
    click_on(&host, "button[title=\"Fit the graph\"]").await;
    let map = host
        .query_selector(".minimap")
        .unwrap()
        .expect("a minimap for a drawing too small to read at Fit");
    // One path per vertex colour, not one element per vertex.
    let paths = map.query_selector_all("path").unwrap().length();
    assert!((2..=12).contains(&paths), "{paths} paths");
    let frame = || {
        let r = host
            .query_selector(".minimap-view")
            .unwrap()
            .expect("the view's frame")
            .get_bounding_client_rect();
        (r.left(), r.top(), r.width(), r.height())
    };
    let transform = || {
        host.query_selector(".graph-svg")
            .unwrap()
            .expect("the drawing")
            .get_attribute("style")
            .expect("the view's transform")
    };
    // At Fit the frame holds the whole box.
    let b = map.get_bounding_client_rect();
    let f = frame();
    assert!(
        f.2 >= b.width() - 4.0,
        "frame {f:?} in box {:?}",
        (b.left(), b.width())
    );
    // Zoomed in: the frame is a part of the box.
    for _ in 0..8 {
        click_on(&host, ".zoom-buttons button[aria-label='Zoom in']").await;
    }
    let f = frame();
    assert!(f.2 < b.width() / 2.0, "zoomed in, the frame is {f:?}");
    let before = transform();
    // A press at three quarters of the box's width: the view's centre goes there.
    let (x, y) = (b.left() + b.width() * 0.75, b.top() + b.height() / 2.0);
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    init.set_client_x(x as i32);
    init.set_client_y(y as i32);
    init.set_pointer_id(1);
    for kind in ["pointerdown", "pointerup"] {
        map.dispatch_event(&web_sys::PointerEvent::new_with_event_init_dict(kind, &init).unwrap())
            .unwrap();
    }
    settle().await;
    assert_ne!(transform(), before);
    let f = frame();
    assert!(
        (f.0 + f.2 / 2.0 - x.floor()).abs() < 1.5,
        "the frame {f:?} is centred on the press at {x:.1}"
    );
    assert!(
        host.query_selector(".minimap").unwrap().is_some(),
        "the minimap stays while the view moves"
    );
    sheet.remove();
    host.remove();
}

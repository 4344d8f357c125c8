//! Component tests in headless Chromium (wasm-bindgen-test): the app is mounted into the page, the
//! editor text is set as a user would, and the DOM is asserted on.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Lets Leptos' scheduled effects run (they are queued, not synchronous).
async fn settle() {
    for _ in 0..3 {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            let _ = web_sys::window()
                .expect("window")
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
}

/// Mounts a fresh app in its own container, with no saved text.
async fn mount() -> Element {
    let window = web_sys::window().expect("window");
    window
        .local_storage()
        .ok()
        .flatten()
        .expect("storage")
        .clear()
        .expect("clear");
    let doc = window.document().expect("document");
    let host = doc.create_element("div").expect("div");
    doc.body()
        .expect("body")
        .append_child(&host)
        .expect("append");
    let handle = leptos::mount::mount_to(
        host.clone().unchecked_into::<HtmlElement>(),
        tfgraph::app::App,
    );
    handle.forget();
    settle().await;
    host
}

async fn type_into_editor(host: &Element, text: &str) {
    let ta: HtmlTextAreaElement = host
        .query_selector("textarea#editor")
        .expect("query")
        .expect("editor present")
        .dyn_into()
        .expect("a textarea");
    ta.set_value(text);
    let init = EventInit::new();
    init.set_bubbles(true);
    let ev = Event::new_with_event_init_dict("input", &init).expect("event");
    ta.dispatch_event(&ev).expect("dispatch");
    settle().await;
}

fn texts(host: &Element, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect()
}

/// Waits `ms` of real time (the graph is rebuilt 250 ms after typing stops).
async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    settle().await;
}

/// Types and waits for the debounced rebuild.
async fn type_and_build(host: &Element, text: &str) {
    type_into_editor(host, text).await;
    sleep(450).await;
}

/// The `data-name` of every drawn vertex, sorted.
fn vertex_names(host: &Element) -> Vec<String> {
    let mut v = attrs(host, ".graph-svg g.vertex", "data-name");
    v.sort();
    v
}

fn attrs(host: &Element, selector: &str, attr: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .map(|e| e.get_attribute(attr).unwrap_or_default())
        .collect()
}

/// Dispatches a bubbling click (works on SVG elements too).
async fn click(el: &Element) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let ev = Event::new_with_event_init_dict("click", &init).expect("event");
    el.dispatch_event(&ev).expect("dispatch");
    settle().await;
}

async fn click_on(host: &Element, selector: &str) {
    let el = host
        .query_selector(selector)
        .expect("query")
        .unwrap_or_else(|| panic!("{selector} present"));
    click(&el).await;
}

fn vertex(host: &Element, name: &str) -> Element {
    let list = host
        .query_selector_all(".graph-svg g.vertex")
        .expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .find(|e| e.get_attribute("data-name").as_deref() == Some(name))
        .unwrap_or_else(|| panic!("vertex {name} drawn; have {:?}", vertex_names(host)))
}

fn state_of(host: &Element, name: &str) -> String {
    vertex(host, name)
        .get_attribute("data-state")
        .unwrap_or_default()
}

/// Steps the walk one event at a time until it reports a makespan (at most `max` steps).
async fn step_walk_to_end(host: &Element, max: usize) {
    for _ in 0..max {
        if texts(host, ".walk-status")
            .first()
            .is_some_and(|s| s.contains("makespan"))
        {
            return;
        }
        click_on(host, "#walk-step").await;
    }
    panic!("walk did not finish: {:?}", texts(host, ".walk-status"));
}

const CHAIN: &str = "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\nresource \"aws_instance\" \"c\" {\n  subnet_id = aws_subnet.b.id\n}\n";
const AWS: &str = "provider[\"registry.opentofu.org/hashicorp/aws\"]";

#[wasm_bindgen_test]
async fn example_is_preloaded_and_outlined() {
    let host = mount().await;
    let kinds = texts(&host, ".block-list .block-kind");
    assert_eq!(
        kinds,
        vec![
            "variable", "provider", "data", "resource", "resource", "output"
        ]
    );
    assert_eq!(texts(&host, ".outline-summary"), vec!["6 blocks"]);
    host.remove();
}

#[wasm_bindgen_test]
async fn editing_updates_the_block_list() {
    let host = mount().await;
    type_into_editor(
        &host,
        "variable \"x\" {}\n\nresource \"aws_s3_bucket\" \"logs\" {\n}\n",
    )
    .await;
    assert_eq!(
        texts(&host, ".block-list .block-kind"),
        vec!["variable", "resource"]
    );
    assert_eq!(
        texts(&host, ".block-list .block-labels"),
        vec!["x", "aws_s3_bucket.logs"]
    );
    assert_eq!(
        texts(&host, ".block-list .block-line"),
        vec!["line 1", "line 3"]
    );
    sleep(450).await;
    let names = vertex_names(&host);
    assert!(
        names.contains(&"var.x".to_string())
            && names.contains(&"aws_s3_bucket.logs (expand)".to_string()),
        "{names:?}"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn parse_error_shows_line_and_column_and_keeps_text() {
    let host = mount().await;
    let broken = "resource \"a\" \"b\" {\n  x = \n}\n";
    type_and_build(&host, broken).await;
    let diag = texts(&host, ".diagnostic.error .diag-where");
    assert_eq!(diag, vec!["main.tf line 2, column 7"]);
    assert!(texts(&host, ".block-list .block").is_empty());
    let ta: HtmlTextAreaElement = host
        .query_selector("#editor")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(ta.value(), broken, "the user's text stays as typed");
    host.remove();
}

#[wasm_bindgen_test]
async fn user_text_is_rendered_as_text_not_html() {
    let host = mount().await;
    type_into_editor(
        &host,
        "resource \"x\" \"<img src=x onerror=alert(1)>\" {}\n",
    )
    .await;
    assert_eq!(
        host.query_selector_all(".block-list img").unwrap().length(),
        0
    );
    assert_eq!(
        texts(&host, ".block-list .block-labels"),
        vec!["x.<img src=x onerror=alert(1)>"]
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn edits_are_saved_for_the_next_visit() {
    let host = mount().await;
    type_into_editor(&host, "output \"kept\" {\n  value = 1\n}\n").await;
    let saved = web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item("tfgraph.workspace")
        .unwrap()
        .expect("saved");
    let saved: serde_json::Value = serde_json::from_str(&saved).expect("JSON");
    assert_eq!(saved["format"], 2);
    assert_eq!(
        saved["files"]["main.tf"],
        "output \"kept\" {\n  value = 1\n}\n"
    );
    host.remove();
    // A new app instance starts from the saved text, not the example.
    let doc = web_sys::window().unwrap().document().unwrap();
    let host2 = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&host2).unwrap();
    leptos::mount::mount_to(
        host2.clone().unchecked_into::<HtmlElement>(),
        tfgraph::app::App,
    )
    .forget();
    settle().await;
    assert_eq!(texts(&host2, ".block-list .block-kind"), vec!["output"]);
    host2.remove();
}

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
async fn an_error_shows_its_line_and_keeps_the_last_graph() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    let before = vertex_names(&host);
    type_and_build(&host, "resource \"a\" \"b\" {\n  x = \n}\n").await;
    assert_eq!(
        texts(&host, ".diagnostic.error .diag-where"),
        vec!["main.tf line 2, column 7"]
    );
    assert_eq!(vertex_names(&host), before, "the last good graph stays");
    assert_eq!(texts(&host, ".stale").len(), 1);
    host.remove();
}

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
async fn the_cycle_example_shows_the_cycle_error_and_draws_it_red() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=cycle] button").await;
    sleep(50).await;
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
async fn a_walk_run_to_the_end_marks_every_vertex_done() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    step_walk_to_end(&host, 60).await;
    let states = attrs(&host, ".graph-svg g.vertex", "data-state");
    assert_eq!(states.len(), 6);
    assert!(states.iter().all(|s| s == "done"), "{states:?}");
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(
        status.contains("done 6") && status.contains("failed 0"),
        "{status}"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn a_failed_vertex_turns_its_descendants_upstream_failed() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, "#mode-walk").await;
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    assert!(
        vertex(&host, "aws_subnet.b (expand)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("inject")
    );
    step_walk_to_end(&host, 60).await;
    assert_eq!(state_of(&host, "aws_vpc.a (expand)"), "done");
    assert_eq!(state_of(&host, AWS), "done");
    assert_eq!(state_of(&host, "aws_subnet.b (expand)"), "failed");
    for d in ["aws_instance.c (expand)", &format!("{AWS} (close)"), "root"] {
        assert_eq!(state_of(&host, d), "upstream-failed", "{d}");
    }
    host.remove();
}

#[wasm_bindgen_test]
async fn clicking_a_vertex_shows_its_details_and_neighbours() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    assert_eq!(texts(&host, ".detail-name"), vec!["aws_subnet.b (expand)"]);
    assert_eq!(texts(&host, ".decl-where"), vec!["main.tf line 2"]);
    assert!(texts(&host, ".snippet")[0].contains("vpc_id = aws_vpc.a.id"));
    assert_eq!(
        texts(&host, ".vertex-links.deps .vertex-link"),
        vec!["aws_vpc.a (expand)"]
    );
    assert_eq!(
        texts(&host, ".vertex-links.users .vertex-link"),
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

#[wasm_bindgen_test]
async fn the_modules_example_draws_a_module_box() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    sleep(50).await;
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
async fn the_parallelism_slider_limits_the_next_walk() {
    let host = mount().await;
    let five: String = (1..=5)
        .map(|i| format!("resource \"aws_s3_bucket\" \"b{i}\" {{}}\n"))
        .collect();
    type_and_build(&host, &five).await;
    step_walk_to_end(&host, 80).await;
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(status.contains("max concurrency 5"), "{status}");
    // Move the slider while the (finished) walk is paused: the next walk uses it.
    let slider: web_sys::HtmlInputElement = host
        .query_selector(".parallelism input")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    slider.set_value("2");
    let init = EventInit::new();
    init.set_bubbles(true);
    slider
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    settle().await;
    assert_eq!(texts(&host, ".parallelism-value"), vec!["2"]);
    // The makespan chart marks the new setting: the provider (1 s), then five 10 s buckets two
    // at a time (30 s).
    assert_eq!(texts(&host, ".chart-label"), vec!["makespan 31.0 s at 2"]);
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(status.contains("max concurrency 2"), "{status}");
    host.remove();
}

#[wasm_bindgen_test]
async fn the_orphans_example_reads_its_state_file() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=orphans] button").await;
    sleep(50).await;
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
        sleep(30).await;
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

/// Mounts an app over whatever localStorage holds now (unlike `mount`, which clears it).
async fn mount_keeping_storage() -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&host).unwrap();
    leptos::mount::mount_to(
        host.clone().unchecked_into::<HtmlElement>(),
        tfgraph::app::App,
    )
    .forget();
    settle().await;
    host
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

#[wasm_bindgen_test]
async fn corrupt_saved_data_is_kept_aside_with_a_notice_and_the_app_works() {
    storage().clear().unwrap();
    storage()
        .set_item(
            "tfgraph.workspace",
            "{\"format\": 2, \"files\": {\"main.tf\": ",
        )
        .unwrap();
    let host = mount_keeping_storage().await;
    let notice = texts(&host, ".notice-text");
    assert_eq!(notice.len(), 1, "{notice:?}");
    assert!(
        notice[0].starts_with("Your saved files could not be restored: it is not valid JSON")
            && notice[0].contains("tfgraph.aside.1"),
        "{notice:?}"
    );
    // The damaged text is kept, byte for byte, and offered for download.
    assert_eq!(
        storage().get_item("tfgraph.aside.1").unwrap().as_deref(),
        Some("{\"format\": 2, \"files\": {\"main.tf\": ")
    );
    assert_eq!(
        attrs(&host, ".notice-download", "download"),
        vec!["tfgraph.aside.1.json"]
    );
    // The app works: the first example is drawn, and typing saves again.
    assert!(vertex_names(&host).len() > 3);
    type_into_editor(&host, "output \"after\" {\n  value = 2\n}\n").await;
    let saved = storage().get_item("tfgraph.workspace").unwrap().unwrap();
    assert!(saved.contains("after"), "{saved}");
    // Dismissing removes the notice.
    click_on(&host, ".notice-dismiss").await;
    assert!(texts(&host, ".notice-text").is_empty());
    host.remove();
}

#[wasm_bindgen_test]
async fn data_from_a_newer_version_is_kept_aside_not_overwritten() {
    storage().clear().unwrap();
    let newer = r#"{"format": 9, "files": {"main.tf": "x"}}"#;
    storage().set_item("tfgraph.workspace", newer).unwrap();
    let host = mount_keeping_storage().await;
    let notice = texts(&host, ".notice-text");
    assert!(
        notice.len() == 1 && notice[0].contains("saved by a newer tfgraph (format 9"),
        "{notice:?}"
    );
    assert_eq!(
        storage().get_item("tfgraph.aside.1").unwrap().as_deref(),
        Some(newer)
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn format_1_saves_are_converted_and_the_old_copy_kept() {
    storage().clear().unwrap();
    storage()
        .set_item(
            "tfgraph.v1.files",
            r#"{"main.tf": "output \"old\" {\n  value = 1\n}\n"}"#,
        )
        .unwrap();
    let host = mount_keeping_storage().await;
    assert_eq!(texts(&host, ".block-list .block-kind"), vec!["output"]);
    let notice = texts(&host, ".notice-text");
    assert!(
        notice.len() == 1 && notice[0].contains("earlier version of tfgraph"),
        "{notice:?}"
    );
    assert!(storage().get_item("tfgraph.v1.files").unwrap().is_none());
    assert!(storage().get_item("tfgraph.aside.1").unwrap().is_some());
    host.remove();
}

#[wasm_bindgen_test]
async fn several_files_survive_a_reload() {
    let host = mount().await;
    // The modules example has several files; an edit to one of them must come back with the rest.
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    sleep(50).await;
    let tabs_before = texts(&host, ".file-tab");
    assert!(tabs_before.len() > 1, "{tabs_before:?}");
    type_into_editor(&host, "output \"edited\" {\n  value = 3\n}\n").await;
    host.remove();
    let host2 = mount_keeping_storage().await;
    assert_eq!(texts(&host2, ".file-tab"), tabs_before);
    assert_eq!(texts(&host2, ".block-list .block-kind"), vec!["output"]);
    assert!(texts(&host2, ".notice-text").is_empty());
    host2.remove();
}

/// Waits (up to `max_ms`) until `ready` holds, checking every 20 ms; returns whether it did.
async fn wait_until(max_ms: i32, mut ready: impl FnMut() -> bool) -> bool {
    let mut waited = 0;
    while waited < max_ms {
        if ready() {
            return true;
        }
        sleep(20).await;
        waited += 20;
    }
    ready()
}

/// A configuration above the app's slicing threshold (256 KB) that stays cheap to build: a long
/// comment, then two resources.
fn large_config(tag: &str) -> String {
    let mut text = String::with_capacity(300_000);
    for i in 0..5_000 {
        text.push_str(&format!(
            "# padding line {i:05} of a long comment, to make the input large\n"
        ));
    }
    text.push_str(&format!(
        "resource \"null_resource\" \"{tag}_a\" {{}}\nresource \"null_resource\" \"{tag}_b\" {{\n  triggers = {{ a = null_resource.{tag}_a.id }}\n}}\n"
    ));
    assert!(text.len() > 256 * 1024);
    text
}

#[wasm_bindgen_test]
async fn a_large_input_is_built_in_slices_with_progress() {
    let host = mount().await;
    type_into_editor(&host, &large_config("big")).await;
    // The progress bar shows while the slices run, then the graph arrives and the bar goes.
    let mut saw_progress = false;
    let built = wait_until(20_000, || {
        saw_progress |= host.query_selector(".build-progress").unwrap().is_some();
        vertex_names(&host).contains(&"null_resource.big_b (expand)".to_string())
    })
    .await;
    assert!(built, "{:?}", vertex_names(&host));
    assert!(saw_progress, "no progress bar was shown");
    let gone = wait_until(2_000, || {
        host.query_selector(".build-progress").unwrap().is_none()
    })
    .await;
    assert!(
        gone,
        "progress still shown: {:?}",
        texts(&host, ".build-progress-label")
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn a_newer_edit_stops_an_older_sliced_build() {
    let host = mount().await;
    type_into_editor(&host, &large_config("old")).await;
    sleep(300).await; // the debounce has passed: the sliced build of "old" is under way
    type_into_editor(&host, "resource \"null_resource\" \"new\" {}\n").await;
    let built = wait_until(20_000, || {
        vertex_names(&host).contains(&"null_resource.new (expand)".to_string())
    })
    .await;
    assert!(built, "{:?}", vertex_names(&host));
    // Give the old build every chance to finish: it must not replace the newer graph.
    sleep(1_500).await;
    let names = vertex_names(&host);
    assert!(
        names.contains(&"null_resource.new (expand)".to_string())
            && !names.iter().any(|n| n.contains("old_")),
        "{names:?}"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn an_input_over_the_size_limit_is_refused_and_the_graph_kept() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    let before = vertex_names(&host);
    let huge = format!("# {}\n", "x".repeat(4 * 1024 * 1024 + 10));
    type_into_editor(&host, &huge).await;
    let refused = wait_until(10_000, || {
        texts(&host, ".diagnostic.error")
            .iter()
            .any(|t| t.contains("Input too large") && t.contains("up to 4 MB"))
    })
    .await;
    assert!(refused, "{:?}", texts(&host, ".diagnostic"));
    assert_eq!(vertex_names(&host), before, "the last good graph stays");
    host.remove();
}

/// Script-injection payloads (issue #7). Each calls `window.__pwn()` if it ever runs.
const PAYLOADS: &[&str] = &[
    "<script>__pwn()</script>",
    "<img src=x onerror=__pwn()>",
    "<svg onload=__pwn()>",
    "\"><img src=x onerror=__pwn()>",
    "'><svg/onload=__pwn()>",
    "</textarea><img src=x onerror=__pwn()>",
    "</title><script>__pwn()</script>",
    "<iframe srcdoc=\"<script>parent.__pwn()</script>\"></iframe>",
    "<a href=\"javascript:__pwn()\">x</a>",
    "javascript:__pwn()",
    "<details open ontoggle=__pwn()>",
    "<body onload=__pwn()>",
    "<input autofocus onfocus=__pwn()>",
    "<video><source onerror=__pwn()></video>",
    "<object data=\"javascript:__pwn()\"></object>",
    "<embed src=\"javascript:__pwn()\">",
    "<svg><animate onbegin=__pwn() attributeName=x dur=1s></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=__pwn()>",
    "<!--><img src=x onerror=__pwn()>-->",
    "<style>*{background:url(javascript:__pwn())}</style>",
    "<marquee onstart=__pwn()>x</marquee>",
    "]]><img src=x onerror=__pwn()>",
    "&lt;img src=x onerror=__pwn()&gt;",
    "<img src=x onerror=&#95;&#95;pwn()>",
];

/// The payload as an HCL quoted string's content.
fn hcl_escape(p: &str) -> String {
    p.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace("${", "$${")
        .replace("%{", "%%{")
}

fn pwn_count() -> f64 {
    js_sys::Reflect::get(
        &web_sys::window().unwrap(),
        &wasm_bindgen::JsValue::from_str("__pwnCount"),
    )
    .ok()
    .and_then(|v| v.as_f64())
    .unwrap_or(-1.0)
}

/// Installs the execution-counting hook: every payload above calls `__pwn()`.
fn install_pwn_hook() {
    let w = web_sys::window().unwrap();
    let f = js_sys::Function::new_no_args("window.__pwnCount = (window.__pwnCount || 0) + 1;");
    js_sys::Reflect::set(&w, &"__pwn".into(), &f).unwrap();
    js_sys::Reflect::set(&w, &"__pwnCount".into(), &0.into()).unwrap();
}

/// Elements a payload would have created, and any `on…` attribute, inside the app.
fn injected_elements(host: &Element) -> Vec<String> {
    let mut found = Vec::new();
    let all = host.query_selector_all("*").unwrap();
    for i in 0..all.length() {
        let e: Element = all.item(i).unwrap().unchecked_into();
        let tag = e.tag_name().to_lowercase();
        if matches!(
            tag.as_str(),
            "script"
                | "iframe"
                | "object"
                | "embed"
                | "img"
                | "video"
                | "source"
                | "style"
                | "marquee"
                | "details"
                | "math"
                | "animate"
                | "body"
        ) {
            found.push(tag.clone());
        }
        let names = e.get_attribute_names();
        for j in 0..names.length() {
            let n = names.get(j).as_string().unwrap_or_default();
            let v = e.get_attribute(&n).unwrap_or_default();
            if n.starts_with("on") || v.contains("javascript:") && n != "value" {
                found.push(format!("{tag}[{n}={v}]"));
            }
        }
    }
    found
}

#[wasm_bindgen_test]
async fn injection_payloads_render_as_text_and_never_run() {
    install_pwn_hook();
    let mut problems = Vec::new();
    for (i, p) in PAYLOADS.iter().enumerate() {
        // One workspace per payload: in a resource name (invalid, so it reaches a diagnostic), a
        // string attribute and a variable description (the source snippet), a module source (a
        // warning), and a file name (a tab).
        let e = hcl_escape(p);
        let main = format!(
            "variable \"v\" {{\n  description = \"{e}\"\n  default     = \"{e}\"\n}}\nresource \"aws_instance\" \"x\" {{\n  ami = \"{e}\"\n  tags = {{ n = var.v }}\n}}\n"
        );
        let mut files = serde_json::Map::new();
        files.insert("main.tf".into(), main.into());
        let file_name = format!("{}.txt", p.replace('/', "_"));
        files.insert(file_name.clone(), p.to_string().into());
        let bad_name = format!(
            "resource \"aws_instance\" \"{e}\" {{}}\nmodule \"m\" {{\n  source = \"{e}\"\n}}\n"
        );
        files.insert("names.tf".into(), bad_name.into());
        let saved = serde_json::json!({"format": 2, "files": files}).to_string();
        storage().clear().unwrap();
        storage().set_item("tfgraph.workspace", &saved).unwrap();
        let host = mount_keeping_storage().await;
        sleep(30).await;
        // The file's tab shows its name as text.
        if !texts(&host, ".file-tab")
            .iter()
            .any(|t| t.contains(&file_name))
        {
            problems.push(format!(
                "#{i} {p}: file name not shown as text: {:?}",
                texts(&host, ".file-tab")
            ));
        }
        // The invalid resource name reaches a diagnostic or the block list, as text.
        let shown = host.text_content().unwrap_or_default();
        if !shown.contains(p) && !shown.contains(&e) {
            problems.push(format!("#{i} {p}: payload not shown as text anywhere"));
        }
        // Fix names.tf so the graph builds, then open the resource's details (source snippet).
        let clean = "# fixed\n";
        type_into_editor_file(&host, "names.tf", clean).await;
        sleep(450).await;
        if let Some(v) = host
            .query_selector(".graph-svg g.vertex[data-name='aws_instance.x (expand)']")
            .unwrap()
        {
            click(&v).await;
            // The snippet is the source, where the payload is written HCL-escaped.
            if !texts(&host, ".snippet").iter().any(|t| t.contains(&e)) {
                problems.push(format!(
                    "#{i} {p}: snippet does not show the payload as text"
                ));
            }
        } else {
            problems.push(format!(
                "#{i} {p}: graph not drawn: {:?}",
                texts(&host, ".diagnostic")
            ));
        }
        let injected = injected_elements(&host);
        if !injected.is_empty() {
            problems.push(format!("#{i} {p}: elements created: {injected:?}"));
        }
        host.remove();
    }
    sleep(200).await; // let any onerror/onload that was scheduled fire
    assert_eq!(pwn_count(), 0.0, "a payload ran");
    assert!(PAYLOADS.len() >= 20);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Switches the editor to `file`'s tab and sets its text.
async fn type_into_editor_file(host: &Element, file: &str, text: &str) {
    let tabs = host.query_selector_all(".file-tab").unwrap();
    for i in 0..tabs.length() {
        let t: Element = tabs.item(i).unwrap().unchecked_into();
        if t.text_content().unwrap_or_default().trim() == file {
            click(&t).await;
        }
    }
    type_into_editor(host, text).await;
}

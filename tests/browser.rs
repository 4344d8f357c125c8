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
    set_parallelism(&host, "2").await;
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
            // Event handlers anywhere; script URLs only where the browser would follow them (a
            // data-* attribute holding the text is inert).
            let url_attr = matches!(
                n.as_str(),
                "href" | "xlink:href" | "src" | "srcdoc" | "action" | "formaction" | "data"
            );
            if n.starts_with("on") || url_attr && v.to_lowercase().contains("javascript:") {
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

/// The makespan the walk bar reports, in seconds.
fn makespan(host: &Element) -> f64 {
    let status = texts(host, ".walk-status")[0].clone();
    status
        .split(" · ")
        .find_map(|p| p.strip_prefix("makespan "))
        .and_then(|p| p.strip_suffix(" s"))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no makespan in {status:?}"))
}

async fn dispatch(el: &Element, kind: &str) {
    el.dispatch_event(&Event::new(kind).expect("event"))
        .expect("dispatch");
    settle().await;
}

fn gantt_rows(host: &Element, vertex: &str) -> Vec<Element> {
    let list = host.query_selector_all(".gantt .g-row").expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .filter(|e| e.get_attribute("data-vertex").as_deref() == Some(vertex))
        .collect()
}

fn has_class(el: &Element, class: &str) -> bool {
    el.class_list().contains(class)
}

#[wasm_bindgen_test]
async fn a_vertex_duration_changes_the_next_walk_by_that_much() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    step_walk_to_end(&host, 80).await;
    // The provider (1 s), then three 10 s resources one after the other.
    assert_eq!(makespan(&host), 31.0);
    // Inspect the subnet and make it take 25 s instead of 10 (the walk switched clicks to
    // failing vertices).
    click_on(&host, ".segmented button:first-child").await;
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    let input: web_sys::HtmlInputElement = host
        .query_selector(".duration-input")
        .unwrap()
        .expect("a duration field in the details")
        .dyn_into()
        .unwrap();
    assert_eq!(input.value(), "10");
    input.set_value("25");
    dispatch(&input, "change").await;
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    assert_eq!(makespan(&host), 46.0);
    // The makespan chart uses it too (one chain: the same at every -parallelism).
    assert_eq!(texts(&host, ".chart-label"), vec!["makespan 46.0 s at 10"]);
    // Kept while the graph changes, for the vertices still in it.
    type_and_build(&host, &format!("{CHAIN}variable \"x\" {{}}\n")).await;
    step_walk_to_end(&host, 80).await;
    assert_eq!(makespan(&host), 46.0);
    // Reset to the default.
    click_on(&host, ".reset-durations").await;
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    assert_eq!(makespan(&host), 31.0);
    host.remove();
}

#[wasm_bindgen_test]
async fn hovering_a_gantt_row_highlights_its_vertex_and_back() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    step_walk_to_end(&host, 80).await;
    let rows = gantt_rows(&host, "aws_subnet.b (expand)");
    assert_eq!(rows.len(), 1, "one row for the subnet's instance");
    assert_eq!(
        rows[0]
            .query_selector(".g-label")
            .unwrap()
            .unwrap()
            .text_content(),
        Some("aws_subnet.b".into())
    );
    let subnet = vertex(&host, "aws_subnet.b (expand)");
    assert!(!has_class(&subnet, "hover"));
    dispatch(&rows[0], "mouseenter").await;
    assert!(has_class(&subnet, "hover"));
    assert!(!has_class(&vertex(&host, "aws_vpc.a (expand)"), "hover"));
    dispatch(&rows[0], "mouseleave").await;
    assert!(!has_class(&subnet, "hover"));
    // And from the graph to the timeline.
    let vpc = vertex(&host, "aws_vpc.a (expand)");
    dispatch(&vpc, "mouseenter").await;
    assert!(has_class(
        &gantt_rows(&host, "aws_vpc.a (expand)")[0],
        "hover"
    ));
    assert!(!has_class(
        &gantt_rows(&host, "aws_subnet.b (expand)")[0],
        "hover"
    ));
    dispatch(&vpc, "mouseleave").await;
    assert!(!has_class(
        &gantt_rows(&host, "aws_vpc.a (expand)")[0],
        "hover"
    ));
    // The chain is the critical path: its rows are marked.
    assert!(has_class(
        &gantt_rows(&host, "aws_instance.c (expand)")[0],
        "critical"
    ));
    host.remove();
}

#[wasm_bindgen_test]
async fn a_count_of_three_walks_three_instances() {
    let host = mount().await;
    type_and_build(
        &host,
        "resource \"aws_instance\" \"web\" {\n  count = 3\n}\ndata \"aws_ami\" \"x\" {}\nresource \"aws_eip\" \"ip\" {\n  count = length(data.aws_ami.x.ids)\n}\n",
    )
    .await;
    step_walk_to_end(&host, 120).await;
    let rows = gantt_rows(&host, "aws_instance.web (expand)");
    let labels: Vec<String> = rows
        .iter()
        .filter_map(|r| r.query_selector(".g-label").ok().flatten())
        .filter_map(|l| l.text_content())
        .collect();
    assert_eq!(
        labels,
        vec![
            "aws_instance.web[0]",
            "aws_instance.web[1]",
            "aws_instance.web[2]"
        ]
    );
    assert!(
        rows.iter()
            .all(|r| has_class(r, "instance") && has_class(r, "state-done"))
    );
    let web = vertex(&host, "aws_instance.web (expand)");
    assert_eq!(web.get_attribute("data-state").as_deref(), Some("done"));
    assert_eq!(
        web.query_selector(".inst").unwrap().unwrap().text_content(),
        Some("3/3".into())
    );
    // A count that is only known at apply time: no instances, said so.
    let eip = vertex(&host, "aws_eip.ip (expand)");
    assert_eq!(
        eip.query_selector(".inst").unwrap().unwrap().text_content(),
        Some("?".into())
    );
    assert!(gantt_rows(&host, "aws_eip.ip (expand)").len() <= 1);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_slider_moves_while_a_walk_is_paused_and_the_chart_marks_it() {
    let host = mount().await;
    let five: String = (1..=5)
        .map(|i| format!("resource \"aws_s3_bucket\" \"b{i}\" {{}}\n"))
        .collect();
    type_and_build(&host, &five).await;
    // Paused part-way: one event stepped to (the provider done at 1 s), not finished.
    click_on(&host, "#walk-step").await;
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(!status.contains("makespan"), "{status}");
    assert_eq!(texts(&host, ".chart-label"), vec!["makespan 11.0 s at 10"]);
    set_parallelism(&host, "1").await;
    assert_eq!(texts(&host, ".parallelism-value"), vec!["1"]);
    // One at a time: the provider (1 s) and five 10 s buckets.
    assert_eq!(texts(&host, ".chart-label"), vec!["makespan 51.0 s at 1"]);
    // The walk under way keeps its setting; the next one uses the new one.
    step_walk_to_end(&host, 80).await;
    assert!(texts(&host, ".walk-status")[0].contains("max concurrency 5"));
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    assert_eq!(makespan(&host), 51.0);
    host.remove();
}

// ---- Graph views and overlays ----

use std::collections::{BTreeMap, BTreeSet};
use tfgraph::builder::BuilderKind;
use tfgraph::dag::{Graph, VertexId, WalkOrder};
use tfgraph::pipeline::{Request, run};

/// Runs the engine on `main.tf` = `text` (plan): the built graph and its recorded steps.
fn engine(text: &str) -> (Graph<String>, Vec<tfgraph::builder::Step>) {
    let files = BTreeMap::from([("main.tf".to_string(), text.to_string())]);
    let out = run(&Request::new(files, BuilderKind::Plan))
        .unwrap_or_else(|d| panic!("engine failed: {d:?}"));
    let dag = out.built.graph.dag();
    let mut g = Graph::new();
    let ids: BTreeMap<VertexId, VertexId> = dag
        .iter()
        .map(|(id, v)| (id, g.add(tfgraph::dag::Vertex::name(v))))
        .collect();
    for (a, b) in dag.edges() {
        g.connect(ids[&a], ids[&b]);
    }
    (g, out.built.steps)
}

/// Drawn edges as (dependent, dependency) names; `extra` narrows the selector (`.reduced`).
fn drawn_edges(host: &Element, extra: &str) -> BTreeSet<(String, String)> {
    let sel = format!(".graph-svg path.edge{extra}");
    attrs(host, &sel, "data-dependent")
        .into_iter()
        .zip(attrs(host, &sel, "data-dependency"))
        .collect()
}

/// Clicks a checkbox like a user (toggles it and fires `change`).
async fn toggle(host: &Element, selector: &str) {
    let el: HtmlElement = host
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} present"))
        .dyn_into()
        .unwrap();
    el.click();
    settle().await;
}

async fn choose(host: &Element, selector: &str, value: &str) {
    let sel: web_sys::HtmlSelectElement = host
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} present"))
        .dyn_into()
        .unwrap();
    sel.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    sel.dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
    settle().await;
}

/// Overlay badges: vertex name → number text.
fn badges(host: &Element, class: &str) -> BTreeMap<String, String> {
    let sel = format!(".graph-svg .badge.{class}");
    attrs(host, &sel, "data-name")
        .into_iter()
        .zip(attrs(host, &sel, "data-number"))
        .collect()
}

/// CHAIN, with the instance also referring to the VPC directly: c -> a is implied by c -> b -> a.
const REDUNDANT: &str = "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\nresource \"aws_instance\" \"c\" {\n  subnet_id = aws_subnet.b.id\n  vpc = aws_vpc.a.id\n}\n";

#[wasm_bindgen_test]
async fn reduction_off_draws_exactly_the_removed_edges_dashed() {
    let host = mount().await;
    type_and_build(&host, REDUNDANT).await;
    let (g, steps) = engine(REDUNDANT);
    let final_edges: BTreeSet<(String, String)> = g
        .edges()
        .into_iter()
        .map(|(a, b)| (g.name_of(a), g.name_of(b)))
        .collect();
    let removed: BTreeSet<(String, String)> = steps
        .iter()
        .filter(|s| s.name == "TransitiveReductionTransformer")
        .flat_map(|s| s.removed_edges.iter().cloned())
        .filter(|e| !final_edges.contains(e))
        .collect();
    assert!(
        removed.contains(&(
            "aws_instance.c (expand)".to_string(),
            "aws_vpc.a (expand)".to_string()
        )),
        "{removed:?}"
    );
    // On (the default): as tofu graph prints it, with the count of what it removed.
    assert_eq!(drawn_edges(&host, ""), final_edges);
    assert!(drawn_edges(&host, ".reduced").is_empty());
    assert_eq!(
        texts(&host, ".reduced-label"),
        vec![format!("Transitive reduction ({} removed)", removed.len())]
    );
    // Off: exactly the removed edges come back, dashed; the others stay solid.
    toggle(&host, "#view-reduce").await;
    assert_eq!(drawn_edges(&host, ".reduced"), removed);
    assert_eq!(drawn_edges(&host, ":not(.reduced)"), final_edges);
    toggle(&host, "#view-reduce").await;
    assert!(drawn_edges(&host, ".reduced").is_empty());
    host.remove();
}

#[wasm_bindgen_test]
async fn collapsing_a_module_merges_it_into_one_vertex_until_expanded() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    sleep(50).await;
    let before = vertex_names(&host);
    let before_edges = drawn_edges(&host, "");
    let inside: BTreeSet<String> = before
        .iter()
        .filter(|n| n.starts_with("module.net.") || n.starts_with("module.net "))
        .cloned()
        .collect();
    assert!(inside.len() >= 3, "{before:?}");
    click_on(&host, ".cluster[data-path=\"module.net\"] .cluster-header").await;
    let collapsed = format!("module.net (collapsed: {})", inside.len());
    let after = vertex_names(&host);
    let mut want: Vec<String> = before
        .iter()
        .filter(|n| !inside.contains(*n))
        .cloned()
        .chain([collapsed.clone()])
        .collect();
    want.sort();
    assert_eq!(after, want);
    assert!(texts(&host, ".graph-svg .cluster-title").is_empty());
    // Edges in and out of the module now end at the collapsed vertex.
    let rep = |n: &String| {
        if inside.contains(n) {
            collapsed.clone()
        } else {
            n.clone()
        }
    };
    let want_edges: BTreeSet<(String, String)> = before_edges
        .iter()
        .map(|(a, b)| (rep(a), rep(b)))
        .filter(|(a, b)| a != b)
        .collect();
    assert!(want_edges.iter().any(|(a, _)| a == &collapsed));
    assert!(want_edges.iter().any(|(_, b)| b == &collapsed));
    assert_eq!(drawn_edges(&host, ""), want_edges);
    assert!(texts(&host, ".graph-counts")[0].contains(&format!("{} hidden", inside.len())));
    // The module stays collapsed while the configuration changes.
    let ta: HtmlTextAreaElement = host
        .query_selector("textarea#editor")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let text = format!("{}\nvariable \"extra\" {{}}\n", ta.value());
    type_and_build(&host, &text).await;
    let names = vertex_names(&host);
    assert!(
        names.iter().any(|n| n.starts_with("var.extra")),
        "{names:?}"
    );
    assert!(names.contains(&collapsed), "{names:?}");
    // Clicking the collapsed vertex opens the module again.
    click(&vertex(&host, &collapsed)).await;
    let mut reopened = vertex_names(&host);
    reopened.retain(|n| !n.starts_with("var.extra"));
    assert_eq!(reopened, before);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_resource_only_view_joins_resources_through_hidden_vertices() {
    let host = mount().await;
    let text = "variable \"n\" {}\nresource \"aws_vpc\" \"a\" {\n  cidr = var.n\n}\nlocals {\n  id = aws_vpc.a.id\n}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = local.id\n}\ndata \"aws_ami\" \"d\" {}\nresource \"aws_instance\" \"c\" {\n  subnet_id = aws_subnet.b.id\n  ami = data.aws_ami.d.id\n  x = aws_vpc.a.id\n}\n";
    type_and_build(&host, text).await;
    let has_local = |h: &Element| vertex_names(h).iter().any(|n| n.starts_with("local.id"));
    assert!(has_local(&host));
    toggle(&host, "#view-resources").await;
    let (a, b, c, d) = (
        "aws_vpc.a (expand)",
        "aws_subnet.b (expand)",
        "aws_instance.c (expand)",
        "data.aws_ami.d (expand)",
    );
    let mut want = vec![a, b, c, d];
    want.sort();
    assert_eq!(vertex_names(&host), want);
    let e = |x: &str, y: &str| (x.to_string(), y.to_string());
    // b reaches a through local.id; c -> a is implied by c -> b -> a and reduced away.
    assert_eq!(
        drawn_edges(&host, ""),
        BTreeSet::from([e(b, a), e(c, b), e(c, d)])
    );
    toggle(&host, "#view-reduce").await;
    assert_eq!(drawn_edges(&host, ".reduced"), BTreeSet::from([e(c, a)]));
    toggle(&host, "#view-reduce").await;
    toggle(&host, "#view-resources").await;
    assert!(has_local(&host));
    host.remove();
}

#[wasm_bindgen_test]
async fn topological_numbers_respect_every_drawn_edge() {
    let host = mount().await;
    // The preloaded example: a variable, provider, data source, two resources and an output.
    let names = vertex_names(&host);
    assert!(names.len() >= 8, "{names:?}");
    choose(&host, "#overlay", "topo").await;
    let numbers: BTreeMap<String, usize> = badges(&host, "topo")
        .into_iter()
        .map(|(n, k)| (n, k.parse().expect("a number")))
        .collect();
    assert_eq!(numbers.keys().cloned().collect::<Vec<_>>(), names);
    let mut seen: Vec<usize> = numbers.values().copied().collect();
    seen.sort();
    assert_eq!(seen, (1..=names.len()).collect::<Vec<_>>());
    let edges = drawn_edges(&host, "");
    assert!(edges.len() >= names.len() - 1);
    for (dependent, dependency) in &edges {
        // Drawn from the dependency to the dependent: numbers grow along every arrow.
        assert!(
            numbers[dependency] < numbers[dependent],
            "{dependency} ({}) -> {dependent} ({})",
            numbers[dependency],
            numbers[dependent]
        );
    }
    choose(&host, "#overlay", "none").await;
    assert!(badges(&host, "topo").is_empty());
    host.remove();
}

/// Visit numbers shown by the DFS/BFS overlay, as names in visiting order.
fn visit_order(host: &Element) -> Vec<String> {
    let mut v: Vec<(usize, String)> = badges(host, "visit")
        .into_iter()
        .map(|(n, k)| (k.parse().expect("a number"), n))
        .collect();
    v.sort();
    v.into_iter().map(|(_, n)| n).collect()
}

#[wasm_bindgen_test]
async fn dfs_and_bfs_overlays_visit_in_the_engines_order() {
    let host = mount().await;
    type_and_build(&host, REDUNDANT).await;
    let (g, _) = engine(REDUNDANT);
    let roots: Vec<VertexId> = g
        .ids()
        .filter(|id| g.dependents(*id).next().is_none())
        .collect();
    for (value, order) in [
        ("dfs", WalkOrder::DEPTH_FIRST_DOWN),
        ("bfs", WalkOrder::BREADTH_FIRST_DOWN),
    ] {
        choose(&host, "#overlay", value).await;
        let t = g.walk_trace(order, roots.iter().copied(), usize::MAX);
        let want: Vec<String> = t.visits.iter().map(|(v, _)| g.name_of(*v)).collect();
        assert!(
            visit_order(&host).is_empty(),
            "nothing visited before the first step"
        );
        click_on(&host, "#overlay-step").await;
        assert_eq!(visit_order(&host), want[..1].to_vec());
        let frontier: BTreeSet<String> = t.frontiers[1].iter().map(|v| g.name_of(*v)).collect();
        let drawn: BTreeSet<String> = attrs(&host, ".graph-svg .frontier", "data-name")
            .into_iter()
            .collect();
        assert_eq!(drawn, frontier, "{value} frontier after one step");
        for _ in 0..want.len() + 2 {
            click_on(&host, "#overlay-step").await;
        }
        assert_eq!(visit_order(&host), want, "{value}");
        assert!(attrs(&host, ".graph-svg .frontier", "data-name").is_empty());
    }
    // From a selected vertex: breadth-first from the subnet reaches only what it depends on.
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    click_on(&host, "#overlay-end").await;
    let b = g.find_by_name("aws_subnet.b (expand)").unwrap();
    let mut want = Vec::new();
    let _ = g.breadth_first_walk([b], |v, _| {
        want.push(g.name_of(v));
        Ok::<(), ()>(())
    });
    assert_eq!(visit_order(&host), want);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_cycle_example_outlines_its_strongly_connected_component() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=cycle] button").await;
    sleep(50).await;
    choose(&host, "#overlay", "scc").await;
    let hulls = attrs(&host, ".graph-svg .scc-hull", "data-members");
    assert_eq!(hulls.len(), 1, "{hulls:?}");
    let members: Vec<&str> = hulls[0].lines().collect();
    assert!(
        members
            .iter()
            .any(|m| m.starts_with("aws_security_group.a"))
            && members
                .iter()
                .any(|m| m.starts_with("aws_security_group.b")),
        "{members:?}"
    );
    // Its members share one component number; every other vertex is a component of its own.
    let comps = badges(&host, "scc");
    let big: BTreeSet<&String> = members
        .iter()
        .map(|m| comps.get(*m).expect("numbered"))
        .collect();
    assert_eq!(big.len(), 1);
    let all: BTreeSet<&String> = comps.values().collect();
    assert_eq!(all.len(), comps.len() - members.len() + 1);
    // The topological order does not exist here, and says why.
    choose(&host, "#overlay", "topo").await;
    assert!(badges(&host, "topo").is_empty());
    assert!(texts(&host, ".overlay-note")[0].contains("cycle"));
    choose(&host, "#overlay", "none").await;
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
    assert_eq!(texts(&host, ".phase-list .phase").len(), 11);
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

#[wasm_bindgen_test]
async fn a_collapsed_module_shows_the_walk_of_what_it_hides() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    sleep(50).await;
    click_on(&host, ".cluster[data-path=\"module.net\"] .cluster-header").await;
    let collapsed = vertex_names(&host)
        .into_iter()
        .find(|n| n.starts_with("module.net (collapsed: "))
        .expect("collapsed vertex");
    assert_eq!(state_of(&host, &collapsed), "idle");
    step_walk_to_end(&host, 80).await;
    let states = attrs(&host, ".graph-svg g.vertex", "data-state");
    assert!(states.iter().all(|s| s == "done"), "{states:?}");
    assert_eq!(state_of(&host, &collapsed), "done");
    host.remove();
}

// ---- Input and output: highlighting, diagnostics at their line, opening and dropping files,
// targets, the replacement examples, share links.

fn editor_value(host: &Element) -> String {
    host.query_selector("textarea#editor")
        .expect("query")
        .expect("editor")
        .dyn_into::<HtmlTextAreaElement>()
        .expect("textarea")
        .value()
}

fn file(name: &str, text: &str) -> web_sys::File {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    web_sys::File::new_with_str_sequence(&parts, name).expect("file")
}

fn transfer(files: &[web_sys::File]) -> web_sys::DataTransfer {
    let dt = web_sys::DataTransfer::new().expect("data transfer");
    for f in files {
        dt.items().add_with_file(f).expect("add file");
    }
    dt
}

/// Chooses files in the Open button's file input, as the file picker does.
async fn open_files(host: &Element, files: &[web_sys::File]) {
    let input: web_sys::HtmlInputElement = host
        .query_selector("#open-files-input")
        .expect("query")
        .expect("file input")
        .dyn_into()
        .expect("input");
    input.set_files(transfer(files).files().as_ref());
    let init = EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
    // Reading files is asynchronous.
    sleep(150).await;
}

/// Drops files on the app, as a drag from the desktop does.
async fn drop_files(host: &Element, files: &[web_sys::File]) {
    let init = web_sys::DragEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_data_transfer(Some(&transfer(files)));
    let ev = web_sys::DragEvent::new_with_event_init_dict("drop", &init).expect("drop event");
    host.dispatch_event(&ev).expect("dispatch");
    sleep(150).await;
}

#[wasm_bindgen_test]
async fn highlighting_draws_the_source_as_text_in_token_spans() {
    let host = mount().await;
    let src = "# a <b>comment</b>\nresource \"aws_s3_bucket\" \"b\" {\n  bucket = \"<b>x</b>-${var.env}\"\n  count  = 2\n}\n";
    type_into_editor(&host, src).await;
    let lines = texts(&host, ".hl-line .hl-code");
    assert_eq!(
        lines.join("\n"),
        src.trim_end_matches('\n').to_string() + "\n"
    );
    // Tokens are spans with classes; the markup in the text stays text.
    assert!(host.query_selector(".hl b").expect("query").is_none());
    assert_eq!(texts(&host, ".hl .tok-block"), vec!["resource"]);
    assert_eq!(texts(&host, ".hl .tok-comment"), vec!["# a <b>comment</b>"]);
    assert!(
        texts(&host, ".hl .tok-string").contains(&"\"<b>x</b>-".to_string()),
        "{:?}",
        texts(&host, ".hl .tok-string")
    );
    assert_eq!(texts(&host, ".hl .tok-interp"), vec!["${", "}"]);
    assert_eq!(texts(&host, ".hl .tok-number"), vec!["2"]);
    // Line numbers follow the text.
    assert_eq!(texts(&host, ".gutter-lines > div").len(), 6);
    host.remove();
}

#[wasm_bindgen_test]
async fn a_diagnostic_is_marked_at_its_line() {
    let host = mount().await;
    type_and_build(&host, "resource \"a_b\" \"c\" {\n  x = \n}\n").await;
    assert_eq!(attrs(&host, ".gutter .bad", "data-line"), vec!["2"]);
    let inline = texts(&host, ".hl-line[data-line='2'] .hl-diag.error");
    assert_eq!(inline.len(), 1, "{inline:?}");
    assert!(!inline[0].is_empty());
    // Fixed: the mark goes.
    type_and_build(&host, "resource \"a_b\" \"c\" {\n  x = 1\n}\n").await;
    assert!(attrs(&host, ".gutter .bad", "data-line").is_empty());
    host.remove();
}

const ORPHAN_STATE: &str = r#"{"version": 4, "terraform_version": "1.12.6", "serial": 1, "lineage": "t", "outputs": {},
 "resources": [{"mode": "managed", "type": "aws_instance", "name": "gone",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
   "instances": [{"schema_version": 0, "attributes": {"id": "i-0"}}]}]}"#;

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
    sleep(50).await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf"]);
    assert!(vertex_names(&host).contains(&"aws_eip.web (expand)".to_string()));
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
    sleep(50).await;
    let targeted = vertex_names(&host);
    assert!(targeted.len() < all.len(), "{targeted:?}");
    assert!(targeted.contains(&"aws_instance.web (expand)".to_string()));
    assert!(
        !targeted.contains(&"aws_eip.web (expand)".to_string()),
        "{targeted:?}"
    );
    set("targets", "");
    set("excludes", "aws_eip.web, output.public_ip");
    sleep(50).await;
    let excluded = vertex_names(&host);
    assert!(
        !excluded.contains(&"aws_eip.web (expand)".to_string()),
        "{excluded:?}"
    );
    assert!(excluded.contains(&"aws_instance.web (expand)".to_string()));
    set("excludes", "");
    set("targets", "aws_instance.");
    sleep(50).await;
    let errors = texts(&host, ".diagnostic.error");
    assert!(
        errors.iter().any(|e| e.contains("Invalid target address")),
        "{errors:?}"
    );
    host.remove();
}

/// The direct dependencies of a vertex, from its details.
async fn deps_of(host: &Element, name: &str) -> Vec<String> {
    click(&vertex(host, name)).await;
    texts(host, ".vertex-links.deps li")
}

#[wasm_bindgen_test]
async fn the_replacement_examples_order_destroy_and_create_differently() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=replace] button").await;
    sleep(30).await;
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
    sleep(30).await;
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
async fn a_share_link_round_trips_and_a_bad_one_leaves_the_files() {
    let host = mount().await;
    let text = "resource \"aws_vpc\" \"shared\" {}\n";
    type_and_build(&host, text).await;
    click_on(&host, ".tabs .tab:nth-child(4)").await;
    click_on(&host, "#share-link").await;
    let link: web_sys::HtmlInputElement = host
        .query_selector(".share-url")
        .expect("query")
        .expect("link shown")
        .dyn_into()
        .expect("input");
    let link = link.value();
    let fragment = link.split_once('#').expect("a fragment").1.to_string();
    assert!(fragment.starts_with("v1."), "{link}");
    host.remove();

    let window = web_sys::window().expect("window");
    window.location().set_hash(&fragment).expect("hash");
    let host = mount().await;
    assert_eq!(editor_value(&host), text);
    assert_eq!(
        vertex_names(&host)
            .iter()
            .filter(|n| n.contains("aws_vpc.shared"))
            .count(),
        1
    );
    assert!(
        texts(&host, ".notice")
            .iter()
            .any(|n| n.contains("share link"))
    );
    // The fragment is consumed, so a reload keeps the user's edits.
    assert_eq!(window.location().hash().unwrap_or_default(), "");
    host.remove();

    // A damaged link: its error is shown, the app still works with the saved files.
    let host = mount().await;
    type_and_build(&host, "resource \"aws_vpc\" \"mine\" {}\n").await;
    host.remove();
    let window = web_sys::window().expect("window");
    window
        .location()
        .set_hash("v1.@@not-base64@@")
        .expect("hash");
    let doc = window.document().expect("document");
    let host2 = doc.create_element("div").expect("div");
    doc.body()
        .expect("body")
        .append_child(&host2)
        .expect("append");
    leptos::mount::mount_to(
        host2.clone().unchecked_into::<HtmlElement>(),
        tfgraph::app::App,
    )
    .forget();
    settle().await;
    let errors = texts(&host2, ".notice.error");
    assert!(errors.iter().any(|e| e.contains("base64")), "{errors:?}");
    assert_eq!(editor_value(&host2), "resource \"aws_vpc\" \"mine\" {}\n");
    assert!(vertex_names(&host2).contains(&"aws_vpc.mine (expand)".to_string()));
    type_and_build(&host2, "resource \"aws_vpc\" \"after\" {}\n").await;
    assert!(vertex_names(&host2).contains(&"aws_vpc.after (expand)".to_string()));
    host2.remove();
}

#[wasm_bindgen_test]
async fn the_graph_exports_as_png_through_a_canvas() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(4)").await;
    click_on(&host, ".export-png").await;
    // The SVG is loaded as an image and encoded by the canvas, both asynchronously.
    let mut notices = Vec::new();
    for _ in 0..40 {
        notices = texts(&host, ".notice");
        if !notices.is_empty() {
            break;
        }
        sleep(50).await;
    }
    assert!(
        notices.iter().any(|n| n.contains("Saved graph.png")),
        "{notices:?}"
    );
    host.remove();
}

/// Replaces `window.prompt` and `window.confirm` with ones that answer `answer` / true.
fn stub_dialogs(answer: &str) {
    let w = web_sys::window().expect("window");
    let p = js_sys::Function::new_no_args(&format!("return {};", serde_json::json!(answer)));
    js_sys::Reflect::set(&w, &"prompt".into(), &p).expect("prompt");
    let c = js_sys::Function::new_no_args("return true;");
    js_sys::Reflect::set(&w, &"confirm".into(), &c).expect("confirm");
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
    sleep(50).await;
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
    sleep(50).await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf"]);
    assert!(!vertex_names(&host).contains(&"var.cidr".to_string()));
    host.remove();
}

/// The payload as a DOT quoted id's content.
fn dot_escape(p: &str) -> String {
    p.replace('\\', "\\\\").replace('"', "\\\"")
}

fn set_hash(hash: &str) {
    web_sys::window()
        .unwrap()
        .location()
        .set_hash(hash)
        .unwrap();
}

#[wasm_bindgen_test]
async fn injection_payloads_in_share_links_dot_labels_and_file_names_never_run() {
    install_pwn_hook();
    let mut problems = Vec::new();
    for (i, p) in PAYLOADS.iter().enumerate() {
        // A link from a stranger: a DOT graph whose vertex labels and file name are the payload.
        let d = dot_escape(p);
        let file = format!("{}.dot", p.replace('/', "_"));
        let files = std::collections::BTreeMap::from([(
            file.clone(),
            format!("digraph {{\n  \"{d}\" -> \"b\"\n  \"c\" [label=\"{d}\"]\n}}\n"),
        )]);
        let link = tfgraph::share::encode(&files).expect("encodes");
        storage().clear().unwrap();
        set_hash(&link);
        let host = mount_keeping_storage().await;
        sleep(30).await;
        if !vertex_names(&host).contains(&p.to_string()) {
            problems.push(format!(
                "#{i} {p}: DOT vertex not drawn by name: {:?}",
                vertex_names(&host)
            ));
        }
        let svg_text = host
            .query_selector(".graph-svg")
            .unwrap()
            .and_then(|e| e.text_content())
            .unwrap_or_default();
        if !svg_text.contains(p) {
            problems.push(format!("#{i} {p}: DOT label not shown as text"));
        }
        if !texts(&host, ".file-tab").iter().any(|t| t.contains(&file)) {
            problems.push(format!(
                "#{i} {p}: file name not shown: {:?}",
                texts(&host, ".file-tab")
            ));
        }
        let injected = injected_elements(&host);
        if !injected.is_empty() {
            problems.push(format!("#{i} {p}: elements created: {injected:?}"));
        }
        host.remove();
    }
    // Damaged and hostile links: each is refused with its reason and the app keeps working.
    use base64::Engine as _;
    let deflated = |bytes: &[u8]| {
        format!(
            "#v1.{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(miniz_oxide::deflate::compress_to_vec(bytes, 6))
        )
    };
    let not_a_map = deflated(b"[\"<img src=x onerror=__pwn()>\"]");
    let bad_path = deflated(br#"{"../<img src=x onerror=__pwn()>.tf": "x"}"#);
    let bomb = deflated(&vec![b' '; 5 * 1024 * 1024]);
    for (link, why) in [
        ("#v1.<img src=x onerror=__pwn()>", "not valid base64url"),
        ("#v1.AAAA", "damaged"),
        (not_a_map.as_str(), "not a JSON object"),
        (bad_path.as_str(), "not an acceptable relative path"),
        (bomb.as_str(), "inflates to more than"),
    ] {
        storage().clear().unwrap();
        set_hash(link);
        let host = mount_keeping_storage().await;
        let notices = texts(&host, ".notice-text");
        if !notices.iter().any(|n| n.contains(why)) {
            problems.push(format!("{link}: no notice saying {why:?}: {notices:?}"));
        }
        if vertex_names(&host).len() < 3 {
            problems.push(format!("{link}: the app shows no graph"));
        }
        let injected = injected_elements(&host);
        if !injected.is_empty() {
            problems.push(format!("{link}: elements created: {injected:?}"));
        }
        host.remove();
    }
    set_hash("");
    sleep(200).await;
    assert_eq!(pwn_count(), 0.0, "a payload ran");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Moves the -parallelism slider as a user would (an input event on the range input).
async fn set_parallelism(host: &Element, value: &str) {
    let slider: web_sys::HtmlInputElement = host
        .query_selector(".parallelism input")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    slider.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    slider
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    settle().await;
}

// ---- Working directories and repositories (issue 12) ----

/// The working directory's description, shared with the native tests (`tests/support`).
#[allow(dead_code)]
#[path = "support/workdir.rs"]
mod workdir;

/// terraform-aws-vpc as published (`../shared/realworld`), compiled in: the browser reads no disk.
static VPC_REPO: include_dir::Dir =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../shared/realworld/terraform-aws-vpc");

/// Every file of an included folder as (path relative to it, bytes).
fn included_files(dir: &include_dir::Dir, out: &mut Vec<(String, Vec<u8>)>) {
    for e in dir.entries() {
        match e {
            include_dir::DirEntry::Dir(d) => included_files(d, out),
            include_dir::DirEntry::File(f) => out.push((
                f.path().to_string_lossy().replace('\\', "/"),
                f.contents().to_vec(),
            )),
        }
    }
}

/// Chooses a whole folder in the Folder button's file input, as the folder picker does: each
/// file carries its path below the chosen folder `top` in `webkitRelativePath`.
async fn open_folder(host: &Element, top: &str, files: &[(String, Vec<u8>)]) {
    let list: Vec<web_sys::File> = files
        .iter()
        .map(|(p, bytes)| {
            let name = p.rsplit('/').next().unwrap_or(p);
            let data = js_sys::Uint8Array::from(bytes.as_slice());
            let f = web_sys::File::new_with_u8_array_sequence(&js_sys::Array::of1(&data), name)
                .expect("file");
            let desc = js_sys::Object::new();
            js_sys::Reflect::set(&desc, &"value".into(), &format!("{top}/{p}").into()).unwrap();
            let obj: &js_sys::Object = f.unchecked_ref();
            js_sys::Object::define_property(obj, &"webkitRelativePath".into(), &desc);
            f
        })
        .collect();
    let input: web_sys::HtmlInputElement = host
        .query_selector("#open-folder-input")
        .expect("query")
        .expect("folder input")
        .dyn_into()
        .expect("input");
    input.set_files(transfer(&list).files().as_ref());
    let init = EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
    sleep(150).await;
}

fn text_files(files: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
        .collect()
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

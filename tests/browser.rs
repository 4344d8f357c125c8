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
        .get_item("tfgraph.v1.main.tf")
        .unwrap();
    assert_eq!(
        saved.as_deref(),
        Some("output \"kept\" {\n  value = 1\n}\n")
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
    let mut tabs = attrs(&host, ".file-tab[data-file]", "data-file");
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
    let mut tabs = attrs(&host, ".file-tab[data-file]", "data-file");
    tabs.sort();
    assert_eq!(tabs, vec!["main.tf", "terraform.tfstate", "vars.tf"]);
    assert!(vertex_names(&host).contains(&"aws_instance.old (orphan)".to_string()));

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
    assert_eq!(
        attrs(&host, ".file-tab[data-file]", "data-file"),
        vec!["graph.dot"]
    );
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
    assert_eq!(
        attrs(&host, ".file-tab[data-file]", "data-file"),
        vec!["main.tf"]
    );
    assert!(vertex_names(&host).contains(&"aws_eip.web (expand)".to_string()));
    host.remove();
}

#[wasm_bindgen_test]
async fn paths_keep_their_folders_and_files_are_classified_by_content() {
    use tfgraph::app::{Role, classify, relative_path};
    assert_eq!(
        relative_path("net/modules/x/main.tf", true).as_deref(),
        Some("modules/x/main.tf")
    );
    assert_eq!(
        relative_path("/net/main.tf", true).as_deref(),
        Some("main.tf")
    );
    assert_eq!(relative_path("main.tf", false).as_deref(), Some("main.tf"));
    assert_eq!(relative_path("net/../x.tf", true), None);
    assert_eq!(classify("a.tf.json", "{}"), Role::Config);
    assert_eq!(classify("x.json", ORPHAN_STATE), Role::State);
    assert_eq!(
        classify(
            "plan.json",
            "{\"format_version\":\"1.2\",\"resource_changes\":[]}"
        ),
        Role::Plan
    );
    assert_eq!(
        classify(
            "s.json",
            "{\"format_version\":\"1.0\",\"provider_schemas\":{}}"
        ),
        Role::Schemas
    );
    assert_eq!(classify("graph.txt", "digraph {\n}"), Role::Dot);
    assert_eq!(classify("g.gv", ""), Role::Dot);
    assert_eq!(classify("x.json", "{\"a\": 1}"), Role::Unknown);
    assert_eq!(classify("README.md", "# hi"), Role::Unknown);
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

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
    assert_eq!(
        texts(&host, ".graph-preview .vertex"),
        vec!["var.x", "aws_s3_bucket.logs"]
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn parse_error_shows_line_and_column_and_keeps_text() {
    let host = mount().await;
    let broken = "resource \"a\" \"b\" {\n  x = \n}\n";
    type_into_editor(&host, broken).await;
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

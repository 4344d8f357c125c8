//! Saved work: autosave, damaged or newer saved data, share links.

use crate::support::*;

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
    settled(&host).await;
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

// Issue 17: loading an example replaced the user's edits without a notice and kept nothing.
#[wasm_bindgen_test]
async fn loading_an_example_keeps_the_edits_aside_and_restore_brings_them_back() {
    let host = mount().await;
    let mine = "resource \"aws_vpc\" \"mine\" {}\n";
    type_and_build(&host, mine).await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=cycle] button").await;
    settled(&host).await;
    assert_ne!(editor_value(&host), mine);
    let notices = texts(&host, ".notice");
    assert!(
        notices.iter().any(|n| n.contains("kept aside")),
        "{notices:?}"
    );
    // A second example over the untouched first one keeps nothing more: the edits stay the
    // newest kept copy.
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=count] button").await;
    settled(&host).await;
    click_on(&host, ".notice-restore").await;
    settled(&host).await;
    assert_eq!(editor_value(&host), mine);
    assert!(vertex_names(&host).contains(&"aws_vpc.mine (expand)".to_string()));
    host.remove();
}

// Issue 17: deleting a file kept nothing to go back to.
#[wasm_bindgen_test]
async fn deleting_a_file_keeps_the_files_aside() {
    let host = mount().await;
    stub_dialogs("variables.tf");
    click_on(&host, ".file-new").await;
    type_and_build(&host, "variable \"cidr\" {}\n").await;
    click_on(&host, "#file-delete").await;
    settled(&host).await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf"]);
    click_on(&host, ".notice-restore").await;
    settled(&host).await;
    assert_eq!(texts(&host, ".file-tab"), vec!["main.tf", "variables.tf"]);
    assert!(vertex_names(&host).contains(&"var.cidr".to_string()));
    host.remove();
}

// Issue 17: a share link opened over the user's files keeps them aside, restorable.
#[wasm_bindgen_test]
async fn a_share_link_keeps_the_files_it_replaces_aside() {
    let host = mount().await;
    let mine = "resource \"aws_vpc\" \"mine\" {}\n";
    type_and_build(&host, mine).await;
    host.remove();
    let shared = BTreeMap::from([(
        "main.tf".to_string(),
        "resource \"aws_vpc\" \"linked\" {}\n".to_string(),
    )]);
    set_hash(&tfgraph::share::encode(&shared).expect("encodes"));
    let host = mount_keeping_storage().await;
    assert!(vertex_names(&host).contains(&"aws_vpc.linked (expand)".to_string()));
    click_on(&host, ".notice-restore").await;
    settled(&host).await;
    assert_eq!(editor_value(&host), mine);
    // A replacement after the restore keeps the restored files aside in turn.
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=count] button").await;
    settled(&host).await;
    click_on(&host, ".notice-restore").await;
    settled(&host).await;
    assert_eq!(editor_value(&host), mine);
    host.remove();
}

/// Replaces `Storage.prototype.setItem` with one that throws `error` (a DOMException name, or
/// "Error" for a plain error), or puts the browser's back when `error` is None.
fn break_storage(error: Option<&str>) {
    let script = match error {
        Some("Error") => "if (!Storage.prototype.__realSetItem) Storage.prototype.__realSetItem = Storage.prototype.setItem; Storage.prototype.setItem = function () { throw new Error('storage broke'); };".to_string(),
        Some(name) => format!("if (!Storage.prototype.__realSetItem) Storage.prototype.__realSetItem = Storage.prototype.setItem; Storage.prototype.setItem = function () {{ throw new DOMException('no room', '{name}'); }};"),
        None => "if (Storage.prototype.__realSetItem) { Storage.prototype.setItem = Storage.prototype.__realSetItem; delete Storage.prototype.__realSetItem; }".to_string(),
    };
    js_sys::Function::new_no_args(&script)
        .call0(&wasm_bindgen::JsValue::NULL)
        .expect("stub");
}

/// Issue 17, item 3: storage that is full or throws: the work stays in the page, a notice says it
/// is not being saved and offers the files (following the edits), and saving resumes by itself.
/// Storage is broken for the whole page, so everything is observed first and storage put back
/// before any assertion: a failing assertion must not leave other tests without storage.
async fn storage_failure_keeps_the_work_and_offers_it(error: &str) {
    let host = mount().await;
    let not_saved = |host: &Element| {
        texts(host, ".notice")
            .into_iter()
            .filter(|t| t.contains("Your edits are not being saved"))
            .count()
    };
    let download = |host: &Element| -> Option<String> {
        use base64::Engine as _;
        let href = host
            .query_selector(".notice-download")
            .ok()??
            .get_attribute("href")?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(href.split_once(";base64,")?.1)
            .ok()?;
        let v: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
        v["files"]["main.tf"].as_str().map(str::to_string)
    };
    break_storage(Some(error));
    let first = "output \"a\" {\n  value = 1\n}\n";
    type_and_build(&host, first).await;
    let after_first = (not_saved(&host), download(&host), vertex_names(&host));
    let second = "output \"b\" {\n  value = 2\n}\n";
    type_and_build(&host, second).await;
    let after_second = (not_saved(&host), download(&host));
    break_storage(None);
    let third = "output \"c\" {\n  value = 3\n}\n";
    type_and_build(&host, third).await;
    let notices = texts(&host, ".notice");
    let saved = web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item("tfgraph.workspace")
        .unwrap()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
        .and_then(|v| v["files"]["main.tf"].as_str().map(str::to_string));
    host.remove();

    // A notice with the files as they are; the work is all still in the page.
    assert_eq!(after_first.0, 1, "{notices:?}");
    assert_eq!(after_first.1.as_deref(), Some(first));
    assert!(after_first.2.contains(&"output.a (expand)".to_string()));
    // Still one notice, whose download follows the edit.
    assert_eq!(after_second, (1, Some(second.to_string())));
    // Storage works again: the next edit is saved and the notice goes.
    assert!(
        !notices.iter().any(|t| t.contains("not being saved"))
            && notices.iter().any(|t| t.contains("Saving works again")),
        "{notices:?}"
    );
    assert_eq!(saved.as_deref(), Some(third));
}

#[wasm_bindgen_test]
async fn full_storage_keeps_the_work_and_offers_it() {
    storage_failure_keeps_the_work_and_offers_it("QuotaExceededError").await;
}

#[wasm_bindgen_test]
async fn storage_that_throws_keeps_the_work_and_offers_it() {
    storage_failure_keeps_the_work_and_offers_it("Error").await;
}

// The editor tells the page of keystrokes once per frame (a burst of keys costs one update):
// a keystroke made just before the page is left, within that frame, is saved all the same.
#[wasm_bindgen_test]
async fn a_keystroke_is_saved_when_the_page_is_left_before_its_frame() {
    let host = mount().await;
    set_editor_text(&host, "resource \"null_resource\" \"last_key\" {}\n");
    // No frame yet (nothing awaited since the keystroke): not saved...
    assert!(
        !saved_workspace().contains("last_key"),
        "saved before its frame"
    );
    // ...until the page is left.
    leave_page();
    assert!(
        saved_workspace().contains("last_key"),
        "saved when the page is left"
    );
    host.remove();
}

// Issue 16 (typing while a large configuration builds): a large workspace is saved a moment
// after the last edit, not at each keystroke, and at once when the page is left.
#[wasm_bindgen_test]
async fn a_large_workspace_is_saved_after_a_pause_and_when_the_page_is_left() {
    let host = mount().await;
    let big = large_config("big");
    assert!(big.len() > tfgraph::page::files::SAVE_AT_ONCE_BYTES);
    type_into_editor(&host, &big).await;
    settled(&host).await;
    assert!(saved_workspace().contains("big_b"), "saved once settled");
    // An edit is not written at once...
    type_into_editor(
        &host,
        &format!("{big}resource \"null_resource\" \"left_edit\" {{}}\n"),
    )
    .await;
    assert!(
        !saved_workspace().contains("left_edit"),
        "not saved at the keystroke"
    );
    // ...but when the page is left.
    leave_page();
    assert!(
        saved_workspace().contains("left_edit"),
        "saved when the page is left"
    );
    // Or after a pause.
    type_into_editor(
        &host,
        &format!("{big}resource \"null_resource\" \"paused_edit\" {{}}\n"),
    )
    .await;
    assert!(!saved_workspace().contains("paused_edit"));
    settled(&host).await;
    assert!(
        saved_workspace().contains("paused_edit"),
        "saved after the pause"
    );
    host.remove();
}

/// A tab writes its saves without reading the saved work back while no other tab has written it
/// since: the browser tells it of every other tab's write (the `storage` event), and the save
/// after one reads the work back, finds another tab's newer revision, and keeps this tab's files
/// aside instead of overwriting it.
#[wasm_bindgen_test]
async fn a_save_after_another_tabs_save_does_not_overwrite_it() {
    let host = mount().await;
    type_into_editor(&host, "output \"first\" {\n  value = 1\n}\n").await;
    type_into_editor(&host, "output \"second\" {\n  value = 2\n}\n").await;
    let mine = saved_workspace();
    assert!(mine.contains("second"), "each edit saved: {mine}");
    let rev = tfgraph::saved::revision(Some(&mine));
    // Another tab saves its work: written as it writes it, and announced as the browser
    // announces another tab's write (a write of this page's own fires no event here).
    let theirs = tfgraph::saved::envelope_at(
        &std::collections::BTreeMap::from([(
            "main.tf".to_string(),
            "output \"theirs\" {\n  value = 3\n}\n".to_string(),
        )]),
        rev + 1,
    );
    storage().set_item(tfgraph::saved::KEY, &theirs).unwrap();
    let init = web_sys::StorageEventInit::new();
    init.set_key(Some(tfgraph::saved::KEY));
    init.set_new_value(Some(&theirs));
    let event = web_sys::StorageEvent::new_with_event_init_dict("storage", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&event).unwrap();
    type_into_editor(&host, "output \"third\" {\n  value = 4\n}\n").await;
    let saved = saved_workspace();
    let kept = storage()
        .get_item(tfgraph::saved::BACKUP_KEY)
        .unwrap()
        .unwrap_or_default();
    let notices = texts(&host, ".notice");
    storage().clear().unwrap();
    host.remove();
    assert_eq!(saved, theirs, "the other tab's work stays saved");
    assert!(
        kept.contains("third"),
        "this tab's files kept aside: {kept}"
    );
    assert!(
        notices
            .iter()
            .any(|n| n.contains("Another tab saved its work after this tab opened it")),
        "{notices:?}"
    );
}

/// The workspace as saved in localStorage (empty when nothing is).
fn saved_workspace() -> String {
    storage()
        .get_item(tfgraph::saved::KEY)
        .unwrap()
        .unwrap_or_default()
}

/// Tells the page it is being left (`pagehide`), as a browser does on closing or navigating away.
fn leave_page() {
    web_sys::window()
        .unwrap()
        .dispatch_event(&Event::new("pagehide").unwrap())
        .unwrap();
}

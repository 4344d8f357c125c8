//! User text is text: injection payloads never run.

use crate::support::*;

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
        settled(&host).await;
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
        settled(&host).await;
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
    // A check that nothing runs has no condition to wait for: any onerror/onload that was scheduled
    // gets time to fire.
    sleep(200).await;
    assert_eq!(pwn_count(), 0.0, "a payload ran");
    assert!(PAYLOADS.len() >= 20);
    assert!(problems.is_empty(), "{problems:#?}");
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
        settled(&host).await;
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
    // As above: time for anything scheduled to fire.
    sleep(200).await;
    assert_eq!(pwn_count(), 0.0, "a payload ran");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Many files show as a folder tree (issue 18): payloads as folder and file names are shown as
/// text there, in the filter's results and in the sentence on what the graph leaves out.
#[wasm_bindgen_test]
async fn injection_payloads_as_folder_and_file_names_in_the_tree_never_run() {
    install_pwn_hook();
    let mut files = serde_json::Map::new();
    files.insert(
        "main.tf".into(),
        "resource \"aws_instance\" \"x\" {}\n".into(),
    );
    let safe: Vec<String> = PAYLOADS.iter().map(|p| p.replace('/', "_")).collect();
    for s in &safe {
        files.insert(
            format!("{s}/main.tf"),
            "resource \"aws_eip\" \"y\" {}\n".into(),
        );
        files.insert(format!("{s}.tfvars"), "a = 1\n".into());
    }
    let saved = serde_json::json!({"format": 2, "files": files}).to_string();
    storage().clear().unwrap();
    storage().set_item("tfgraph.workspace", &saved).unwrap();
    let host = mount_keeping_storage().await;
    settled(&host).await;
    assert!(texts(&host, ".file-tab").is_empty(), "the tree, not tabs");
    let folders = texts(&host, ".tree-folder .tree-name");
    let shown = texts(&host, ".tree-file");
    let note = texts(&host, ".outside-note").join(" ");
    let mut problems = Vec::new();
    for (i, s) in safe.iter().enumerate() {
        if !folders.contains(&format!("{s}/")) {
            problems.push(format!("#{i} {s}: folder name not shown as text"));
        }
        if !shown.contains(&format!("{s}.tfvars")) {
            problems.push(format!("#{i} {s}: file name not shown as text"));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}\n{folders:?}\n{shown:?}");
    assert!(note.contains("Not in this graph"), "{note}");
    // Filtering by a payload (one no other contains) finds its folder's file and its variables
    // file.
    let one = safe.iter().find(|s| s.contains("marquee")).unwrap();
    type_into(&host, "input#file-filter", one).await;
    assert_eq!(
        attrs(&host, ".tree-file", "data-path"),
        vec![format!("{one}/main.tf"), format!("{one}.tfvars")]
    );
    click_on(&host, ".tree-file").await;
    settled(&host).await;
    assert_eq!(editor_value(&host), "resource \"aws_eip\" \"y\" {}\n");
    let injected = injected_elements(&host);
    assert!(injected.is_empty(), "elements created: {injected:?}");
    assert_eq!(pwn_count(), 0.0, "a payload ran");
    host.remove();
}

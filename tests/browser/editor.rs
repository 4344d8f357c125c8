//! The editor: the preloaded example, the outline, diagnostics at their line, highlighting.

use crate::support::*;

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
    settled(&host).await;
    let names = vertex_names(&host);
    assert!(
        names.contains(&"var.x".to_string())
            && names.contains(&"aws_s3_bucket.logs (expand)".to_string()),
        "{names:?}"
    );
    host.remove();
}

// The outline's rows follow the blocks: an appended block adds its row and leaves the others'
// elements in place; blocks that moved show their new lines.
#[wasm_bindgen_test]
async fn an_edit_keeps_the_outline_rows_of_unchanged_blocks() {
    let host = mount().await;
    let first = "variable \"x\" {}\n\nresource \"aws_s3_bucket\" \"logs\" {\n}\n";
    type_into_editor(&host, first).await;
    let rows = host.query_selector_all(".block-list .block").unwrap();
    assert_eq!(rows.length(), 2);
    for k in 0..rows.length() {
        let el: Element = rows.item(k).unwrap().dyn_into().unwrap();
        el.set_attribute("data-probe", "kept").unwrap();
    }
    type_into_editor(
        &host,
        &format!("{first}output \"o\" {{\n  value = var.x\n}}\n"),
    )
    .await;
    assert_eq!(
        texts(&host, ".block-list .block-labels"),
        vec!["x", "aws_s3_bucket.logs", "o"]
    );
    let probed: Vec<bool> = {
        let rows = host.query_selector_all(".block-list .block").unwrap();
        (0..rows.length())
            .map(|k| {
                let el: Element = rows.item(k).unwrap().dyn_into().unwrap();
                el.has_attribute("data-probe")
            })
            .collect()
    };
    assert_eq!(
        probed,
        vec![true, true, false],
        "only the new block's row is new"
    );
    // A line inserted above moves both blocks: their rows say the new lines.
    type_into_editor(&host, &format!("\n{first}")).await;
    assert_eq!(
        texts(&host, ".block-list .block-line"),
        vec!["line 2", "line 4"]
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
    let ta = editor_textarea(&host);
    assert_eq!(ta.value(), broken, "the user's text stays as typed");
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

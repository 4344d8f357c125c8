//! Large inputs: sliced builds, cancellation, the size limit.

use crate::support::*;

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
    // In its place, while the input is this large, how long the build took: the bar's row keeps
    // its height, so the page does not move at each build.
    let status = texts(&host, ".build-status");
    assert_eq!(status.len(), 1, "{status:?}");
    assert!(
        status[0].starts_with("Built in ")
            && (status[0].ends_with(" ms") || status[0].ends_with(" s")),
        "{status:?}"
    );
    // A small input again: no bar, no status.
    type_and_build(&host, "resource \"null_resource\" \"small\" {}\n").await;
    assert!(texts(&host, ".build-status").is_empty());
    assert!(host.query_selector(".build-progress").unwrap().is_none());
    host.remove();
}

#[wasm_bindgen_test]
async fn a_newer_edit_stops_an_older_sliced_build() {
    let host = mount().await;
    type_into_editor(&host, &large_config("old")).await;
    assert!(
        wait_until(20_000, || !texts(&host, ".build-progress-label").is_empty()).await,
        "the sliced build of \"old\" started"
    );
    type_into_editor(&host, "resource \"null_resource\" \"new\" {}\n").await;
    let built = wait_until(20_000, || {
        vertex_names(&host).contains(&"null_resource.new (expand)".to_string())
    })
    .await;
    assert!(built, "{:?}", vertex_names(&host));
    settled(&host).await;
    // A check that nothing happens has no condition to wait for: the old build gets time to finish
    // (it must not replace the newer graph).
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

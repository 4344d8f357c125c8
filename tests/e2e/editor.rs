//! Typing into the editor on the bundle: the outline, the details, the walk, export, steps, every example, errors, reload, a phone, no foreign requests.

use crate::harness::*;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn app_lists_blocks_and_errors_as_the_user_types() {
    let (base, requests, _driver, c) = open_app().await;

    // The example is preloaded and outlined.
    wait_texts(
        &c,
        ".block-list .block-kind",
        &[
            "variable", "provider", "data", "resource", "resource", "output",
        ],
    )
    .await;
    // The graph is drawn; selecting a vertex shows its details and highlights its chain.
    wait_count(&c, ".graph-svg g.vertex", 9).await;
    c.find(Locator::Css(
        ".graph-svg g.vertex[data-name='aws_instance.web (expand)']",
    ))
    .await
    .expect("vertex drawn")
    .click()
    .await
    .expect("click vertex");
    wait_texts(&c, ".detail-name", &["aws_instance.web (expand)"]).await;
    screenshot(&c, "app-desktop.png").await;

    // The walk: a few seconds at the default speed, then a screenshot mid-walk.
    c.find(Locator::Css("#walk-play"))
        .await
        .expect("play")
        .click()
        .await
        .expect("click play");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    screenshot(&c, "app-walk.png").await;
    c.find(Locator::Css("#walk-reset"))
        .await
        .expect("reset")
        .click()
        .await
        .expect("click reset");

    // Export: the DOT shown is what the CLI prints for the same files.
    let shown_dot = export_dot(&c).await;
    let text = c
        .find(Locator::Css("textarea#editor"))
        .await
        .expect("editor")
        .prop("value")
        .await
        .expect("value")
        .unwrap_or_default();
    let req = tfgraph::pipeline::Request::new(
        std::collections::BTreeMap::from([("main.tf".to_string(), text)]),
        tfgraph::builder::BuilderKind::Plan,
    );
    let out = tfgraph::pipeline::run(&req).unwrap_or_else(|e| panic!("{e:?}"));
    let cli_dot = out
        .built
        .graph
        .dag()
        .dot(&tfgraph::dag::render::dot::DotOpts::cli_default());
    assert_eq!(shown_dot, cli_dot, "the page's DOT equals `tfgraph graph`");

    // The builder's steps: choose one and the graph shows what it added.
    click(&c, ".tabs .tab:nth-child(2)").await;
    c.find(Locator::Css(".step-list .step:nth-child(14) button"))
        .await
        .expect("a step")
        .click()
        .await
        .expect("click step");
    wait_count(&c, ".step-banner", 1).await;
    screenshot(&c, "app-steps.png").await;

    // Every example loads and draws; only the cycle example reports an error, worded as OpenTofu.
    click(&c, ".tabs .tab:nth-child(3)").await;
    for id in [
        "depends-on",
        "providers",
        "modules",
        "count",
        "data",
        "locals",
        "orphans",
        "cycle",
        "replace",
        "replace-cbd",
        "references",
    ] {
        click(&c, &format!("[data-example='{id}'] button")).await;
        let mut drawn = 0;
        for _ in 0..100 {
            drawn = c
                .find_all(Locator::Css(".graph-svg g.vertex"))
                .await
                .expect("vertices")
                .len();
            if drawn > 0 && texts(&c, ".step-banner").await.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(drawn > 0, "example {id} draws a graph");
        let errors = texts(&c, ".diagnostic.error .diag-message").await;
        if id == "cycle" {
            assert!(errors.iter().any(|e| e.contains("Cycle: ")), "{errors:?}");
            screenshot(&c, "app-cycle.png").await;
        } else if id == "replace-cbd" {
            assert!(errors.is_empty(), "example {id}: {errors:?}");
            screenshot(&c, "app-replace-cbd.png").await;
        } else {
            assert!(errors.is_empty(), "example {id}: {errors:?}");
        }
    }

    // A walk run to the end at the highest speed: every vertex done.
    c.execute(
        "const s = document.querySelector('.speed select'); s.value = '64'; s.dispatchEvent(new Event('change', {bubbles: true}));",
        vec![],
    )
    .await
    .expect("speed");
    click(&c, "#walk-play").await;
    let mut status = String::new();
    for _ in 0..300 {
        status = texts(&c, ".walk-status").await.join("");
        if status.contains("makespan") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        status.contains("makespan") && status.contains("failed 0"),
        "{status}"
    );
    let states: Vec<String> = serde_json::from_value(
        c.execute(
            "return [...document.querySelectorAll('.graph-svg g.vertex')].map(e => e.getAttribute('data-state'))",
            vec![],
        )
        .await
        .expect("states"),
    )
    .expect("list");
    assert!(states.iter().all(|s| s == "done"), "{states:?}");

    // Typing replaces the example; the list follows.
    let editor = c
        .find(Locator::Css("textarea#editor"))
        .await
        .expect("editor");
    editor.clear().await.expect("clear");
    editor
        .send_keys("module \"net\" {\n  source = \"./net\"\n}\nresource \"aws_vpc\" \"main\" {}\n")
        .await
        .expect("type");
    wait_texts(&c, ".block-list .block-kind", &["module", "resource"]).await;
    wait_texts(&c, ".block-list .block-labels", &["net", "aws_vpc.main"]).await;

    // A syntax error shows where it is; the text stays.
    editor
        .send_keys("resource \"x\" {\n  a = \n")
        .await
        .expect("type");
    wait_texts(
        &c,
        ".diagnostic.error .diag-where",
        &["main.tf line 6, column 7"],
    )
    .await;
    let value = editor
        .prop("value")
        .await
        .expect("value")
        .unwrap_or_default();
    assert!(
        value.ends_with("resource \"x\" {\n  a = \n"),
        "editor kept the text: {value:?}"
    );
    screenshot(&c, "app-error.png").await;

    // Reload: the text comes back from local storage.
    c.refresh().await.expect("reload");
    wait_texts(
        &c,
        ".diagnostic.error .diag-where",
        &["main.tf line 6, column 7"],
    )
    .await;

    // A phone-sized window.
    c.set_window_size(390, 844).await.expect("small window");
    // A phone shows one pane at a time: the editor is under the Code tab.
    click(&c, "#pane-code").await;
    editor_reset(&c).await;
    screenshot(&c, "app-small-code.png").await;
    click(&c, "#pane-graph").await;
    screenshot(&c, "app-small.png").await;
    // A walk in progress on the phone: the graph, then the walk bar and its timeline below.
    click(&c, "#walk-play").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    c.execute("window.scrollTo(0, 0);", vec![])
        .await
        .expect("scroll");
    screenshot(&c, "app-small-walk.png").await;
    c.execute(
        "document.querySelector('.walk-panel').scrollIntoView({block: 'end'});",
        vec![],
    )
    .await
    .expect("scroll");
    screenshot(&c, "app-small-walk-timeline.png").await;
    click(&c, "#walk-reset").await;

    // The page asked only its own server for anything.
    let urls: Vec<String> = serde_json::from_value(
        c.execute(
            "return performance.getEntriesByType('resource').map(e => e.name)",
            vec![],
        )
        .await
        .expect("performance entries"),
    )
    .expect("list of urls");
    for u in &urls {
        assert!(
            u.starts_with(&base),
            "request outside the page's origin: {u}"
        );
    }
    assert!(
        requests
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.ends_with(".wasm")),
        "the wasm was served"
    );
    c.close().await.expect("close");
}

//! The engine's worker (src/app/engine.rs): large drawings are laid out off the page's thread.

use crate::harness::*;

/// Expanding every module of the 1,000 generated resources (1,266 vertices, over
/// `page::scene::OFF_THREAD_FROM`) hands the layout to the worker: the page says it is laying
/// the graph out and goes on painting frames meanwhile (laid out on the page's thread, no frame
/// came between the click and the drawing), then draws the whole graph; choosing a build step
/// then lays out the steps' one layout there too. The worker is started with the page's own
/// module: it does not download the wasm again.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn a_large_drawing_is_laid_out_by_the_worker_while_the_page_paints() {
    let files = tfgraph::generator::generate(&tfgraph::generator::GenOptions {
        resources: 1000,
        modules: 10,
        seed: 1,
    });
    let (_, requests, _driver, c) = open_app().await;
    save_and_reload(&c, &files).await;
    wait_collapsed(&c, false).await;
    let (label, frames) = watch_layout(&c, "document.querySelector('#expand-all').click();").await;
    assert_eq!(label, "Laying out 1266 vertices");
    assert!(
        frames >= 3,
        "the page painted {frames} frame(s) while the worker laid the graph out"
    );
    assert_eq!(
        texts(&c, ".graph-svg g.vertex").await.len(),
        1266,
        "the whole graph is drawn"
    );
    // An edit to the expanded graph (laid out near the drawing, on the page) is drawn.
    append_line(&c, "resource \"null_resource\" \"after_expand\" {}").await;
    assert!(
        wait_vertices(&c, 1267, 60).await >= 1267,
        "the edit is drawn"
    );
    // Choosing a build step lays out every step's vertices once (the union of the steps, more
    // than the graph): in the worker too, while the last drawing stays and the page paints.
    click(&c, ".side-pane [role=tab]:nth-child(2)").await;
    wait_count(&c, ".steps .step[data-step='5'] button", 1).await;
    let (label, frames) = watch_layout(
        &c,
        "document.querySelector(\".steps .step[data-step='5'] button\").click();",
    )
    .await;
    assert!(
        label.starts_with("Laying out ") && label.ends_with(" vertices"),
        "{label:?}"
    );
    assert!(
        frames >= 3,
        "the page painted {frames} frame(s) while the worker laid the steps out"
    );
    assert_eq!(
        texts(&c, ".steps .step.active").await.len(),
        1,
        "a step is chosen"
    );
    assert_eq!(
        c.find(Locator::Css(".steps .step.active"))
            .await
            .expect("the chosen step")
            .attr("data-step")
            .await
            .expect("its number")
            .as_deref(),
        Some("5")
    );
    assert!(
        !texts(&c, ".graph-svg g.vertex").await.is_empty(),
        "step 6 is drawn"
    );
    let log = requests.lock().unwrap().clone();
    assert!(log.iter().any(|p| p == "/static/worker.js"), "{log:?}");
    // Each load of the page (and the service worker's install) fetches the page and the wasm
    // once; a worker that fetched the wasm for itself would add requests of its own.
    let wasm = log.iter().filter(|p| p.ends_with(".wasm")).count();
    let pages = log.iter().filter(|p| *p == "/").count();
    assert!(wasm <= pages, "the worker fetched the wasm again: {log:?}");
    c.close().await.expect("close");
}

/// A configuration over `page::analysis::SLICE_FROM_BYTES` is analysed by the worker, not on
/// the page (no analysis is timed on the page's thread), and what the page's views ask of the
/// analysis it keeps (a vertex's values, what an `(expand)` vertex opens into, the exports) is
/// answered by the worker: the values and the instances the page shows for a small
/// configuration, and the DOT `tofu graph` prints.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn a_large_configuration_is_analysed_by_the_worker_which_answers_the_views() {
    use std::collections::BTreeMap;
    let main = "variable \"n\" {\n  type    = number\n  default = 2\n}\nresource \"aws_instance\" \"web\" {\n  count = var.n\n  ami   = \"ami-${count.index}\"\n}\nresource \"aws_eip\" \"ip\" {\n  instance = aws_instance.web[0].id\n}\n";
    // Large by its text, small by its graph: a long comment.
    let padding: String = (0..5000)
        .map(|i| format!("# padding line {i:05}: text that makes this workspace large\n"))
        .collect();
    let files: BTreeMap<String, String> = [
        ("main.tf".to_string(), main.to_string()),
        ("padding.tf".to_string(), padding),
    ]
    .into();
    let size: usize = files.iter().map(|(p, t)| p.len() + t.len()).sum();
    assert!(size >= tfgraph::page::analysis::SLICE_FROM_BYTES, "{size}");
    let (_, _requests, _driver, c) = open_app().await;
    save_and_reload(&c, &files).await;
    wait_count(
        &c,
        ".graph-svg g.vertex[data-name='aws_eip.ip (expand)']",
        1,
    )
    .await;
    append_line(&c, "resource \"aws_s3_bucket\" \"b\" {}").await;
    wait_count(
        &c,
        ".graph-svg g.vertex[data-name='aws_s3_bucket.b (expand)']",
        1,
    )
    .await;
    let measured: Vec<String> = js(
        &c,
        "return performance.getEntriesByType('measure').map(m => m.name);",
    )
    .await;
    assert!(
        !measured
            .iter()
            .any(|m| m == "tfgraph-analysis" || m.starts_with("tfgraph-slice")),
        "analysed on the page: {measured:?}"
    );
    click(
        &c,
        ".graph-svg g.vertex[data-name='aws_instance.web (expand)']",
    )
    .await;
    wait_texts(
        &c,
        ".vertex-inside .value-title",
        &[
            "aws_instance.web",
            "aws_instance.web[0]",
            "aws_instance.web[1]",
        ],
    )
    .await;
    let values = texts(&c, ".vertex-inside .value").await;
    assert!(
        values.iter().any(|v| v.starts_with("reads var.n = 2"))
            && values.contains(&"instances = aws_instance.web[0], aws_instance.web[1]".to_string()),
        "{values:?}"
    );
    wait_texts(&c, ".expansion-summary", &["2 instances"]).await;
    // Why the edge exists: the worker's whys, which the page leaves in the array they arrived in
    // until they are read (here).
    let users = texts(&c, ".vertex-links.users li").await;
    assert!(
        users.iter().any(|u| u.starts_with("aws_eip.ip (expand)")
            && u.contains("a reference")
            && u.contains("main.tf:10 aws_instance.web[0].id")),
        "{users:?}"
    );
    let shown_dot = export_dot(&c).await;
    let mut now = files.clone();
    now.get_mut("main.tf")
        .unwrap()
        .push_str("resource \"aws_s3_bucket\" \"b\" {}");
    let here = tfgraph::page::analysis::analyze(
        &now,
        tfgraph::builder::BuilderKind::Plan,
        &Default::default(),
    );
    assert_eq!(shown_dot, here.exports.dot());
    // A walk step: the walk's length (the timeline's axis) and the makespan chart are worked out
    // in the worker, and are what the page's own walks of its own analysis give.
    let g = here.graph.as_ref().expect("a graph");
    let setup = tfgraph::page::walk::Setup {
        expander: here.expander.as_ref().map(|e| e.expander.clone()),
        steps: here.step_table.clone(),
        ..Default::default()
    };
    let expected = tfgraph::page::walk::expected(g, 10, &setup);
    let ps: Vec<usize> = (1..=64).collect();
    let sweep: String = tfgraph::page::walk::makespans(g, &setup, &ps)
        .iter()
        .map(|(p, m)| format!("{p}:{m}"))
        .collect::<Vec<_>>()
        .join(" ");
    click(&c, "#walk-step").await;
    wait_texts(&c, ".gantt-axis", &[&format!("0 – {expected:.0} s")]).await;
    let mut chart = String::new();
    for _ in 0..600 {
        chart = js(
            &c,
            "return document.querySelector('.chart')?.getAttribute('data-makespans') || '';",
        )
        .await;
        if chart == sweep {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(chart, sweep, "the makespan chart");
    // The build steps: the worker's, read from the array the page left them in when the list
    // is first shown, are the page's own.
    click(&c, ".side-pane [role=tab]:nth-child(2)").await;
    wait_count(&c, ".steps .step", here.steps.len()).await;
    let names: Vec<String> = here.steps.iter().map(|s| s.name.to_string()).collect();
    assert_eq!(texts(&c, ".steps .step .step-name").await, names);
    c.close().await.expect("close");
}

/// Runs `start` (JavaScript that sets off a layout) and waits until the page has settled after
/// showing a progress label (60 s at most); returns the last label the progress bar showed and
/// in how many frames it showed one.
async fn watch_layout(c: &Client, start: &str) -> (String, u32) {
    let script = format!(
        r#"const [done] = arguments;
        let label = '', frames = 0, on = true;
        const tick = () => {{
          if (!on) return;
          const l = document.querySelector('.build-progress-label');
          if (l) {{ label = l.textContent; frames++; }}
          requestAnimationFrame(tick);
        }};
        {start}
        requestAnimationFrame(tick);
        const t0 = performance.now();
        const poll = () => {{
          const settled = document.querySelector('.app')?.getAttribute('data-settled') === 'true';
          if ((settled && label) || performance.now() - t0 > 60000) {{
            on = false;
            done([label, frames]);
          }} else setTimeout(poll, 5);
        }};
        poll();"#
    );
    serde_json::from_value(c.execute_async(&script, vec![]).await.expect(start)).expect(start)
}

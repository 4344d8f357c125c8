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

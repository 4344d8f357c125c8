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
    let (label, frames, drawn): (String, u32, usize) = serde_json::from_value(
        c.execute_async(
            r#"const [done] = arguments;
            let label = '', frames = 0, on = true;
            const tick = () => {
              if (!on) return;
              const l = document.querySelector('.build-progress-label');
              if (l) { label = l.textContent; frames++; }
              requestAnimationFrame(tick);
            };
            document.querySelector('#expand-all').click();
            requestAnimationFrame(tick);
            const t0 = performance.now();
            const poll = () => {
              const n = document.querySelectorAll('.graph-svg g.vertex').length;
              if ((n > 1000 && !document.querySelector('.build-progress')) || performance.now() - t0 > 60000) {
                on = false;
                done([label, frames, n]);
              } else setTimeout(poll, 5);
            };
            poll();"#,
            vec![],
        )
        .await
        .expect("expanded"),
    )
    .expect("label, frames, vertices");
    assert_eq!(label, "Laying out 1266 vertices");
    assert!(
        frames >= 3,
        "the page painted {frames} frame(s) while the worker laid the graph out"
    );
    assert_eq!(drawn, 1266, "the whole graph is drawn");
    // An edit to the expanded graph goes to the worker too, and the drawing follows it.
    append_line(&c, "resource \"null_resource\" \"after_expand\" {}").await;
    assert!(
        wait_vertices(&c, 1267, 60).await >= 1267,
        "the edit is drawn"
    );
    // Choosing a build step lays out every step's vertices once (the union of the steps, more
    // than the graph): in the worker too, while the last drawing stays and the page paints.
    let (label, frames, active, drawn): (String, u32, bool, usize) = serde_json::from_value(
        c.execute_async(
            r#"const [done] = arguments;
            [...document.querySelectorAll('[role=tab]')].find((t) => t.textContent.includes('Build steps')).click();
            const t0 = performance.now();
            const start = () => {
              const b = document.querySelector('.steps .step[data-step="5"] button');
              if (!b) { if (performance.now() - t0 < 10000) setTimeout(start, 5); else done(['', 0, false, 0]); return; }
              let label = '', frames = 0, on = true;
              const tick = () => {
                if (!on) return;
                const l = document.querySelector('.build-progress-label');
                if (l) { label = l.textContent; frames++; }
                requestAnimationFrame(tick);
              };
              b.click();
              requestAnimationFrame(tick);
              const t1 = performance.now();
              const poll = () => {
                const settled = document.querySelector('.app')?.getAttribute('data-settled') === 'true';
                if ((settled && label) || performance.now() - t1 > 60000) {
                  on = false;
                  done([label, frames, !!document.querySelector('.steps .step.active[data-step="5"]'),
                    document.querySelectorAll('.graph-svg g.vertex').length]);
                } else setTimeout(poll, 5);
              };
              poll();
            };
            start();"#,
            vec![],
        )
        .await
        .expect("a build step"),
    )
    .expect("label, frames, active, vertices");
    assert!(
        label.starts_with("Laying out ") && label.ends_with(" vertices"),
        "{label:?}"
    );
    assert!(
        frames >= 3,
        "the page painted {frames} frame(s) while the worker laid the steps out"
    );
    assert!(active, "step 6 is chosen");
    assert!(drawn > 0, "step 6 is drawn");
    let log = requests.lock().unwrap().clone();
    assert!(log.iter().any(|p| p == "/static/worker.js"), "{log:?}");
    // Each load of the page (and the service worker's install) fetches the page and the wasm
    // once; a worker that fetched the wasm for itself would add requests of its own.
    let wasm = log.iter().filter(|p| p.ends_with(".wasm")).count();
    let pages = log.iter().filter(|p| *p == "/").count();
    assert!(wasm <= pages, "the worker fetched the wasm again: {log:?}");
    c.close().await.expect("close");
}

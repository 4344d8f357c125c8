//! The release bundle as users get it: its Content-Security-Policy, share links and PNG export, the crash banner, the first paint before the engine, offline reloads, two windows.

use crate::harness::*;

/// The bundle's Content-Security-Policy (issue #7): index.html declares it, no inline script is
/// left in the bundle, the app boots under it, and the browser refuses eval and connections to
/// any other origin.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn the_csp_forbids_inline_script_eval_and_foreign_connections() {
    let dist = root().join("dist");
    let html = std::fs::read_to_string(dist.join("index.html"))
        .expect("dist/index.html: run `trunk build --release` first");
    let inline = regex::Regex::new(r"(?s)<script(?P<a>[^>]*)>(?P<b>.*?)</script>").unwrap();
    for m in inline.captures_iter(&html) {
        assert!(
            m["a"].contains("src=") && m["b"].trim().is_empty(),
            "inline script in dist/index.html: {}",
            &m[0]
        );
    }
    let (base, _requests) = serve_dist(&dist);
    let (_driver, c) = start_browser().await;
    c.goto(&base).await.expect("open the app");
    // It booted: the example graph is drawn.
    wait_count(&c, ".graph-svg g.vertex", 9).await;
    let csp: String = serde_json::from_value(
        c.execute(
            "const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]'); return m ? m.content : '';",
            vec![],
        )
        .await
        .expect("csp meta"),
    )
    .expect("string");
    let directive = |name: &str| {
        csp.split(';')
            .map(str::trim)
            .find(|d| d.starts_with(name))
            .unwrap_or_else(|| panic!("CSP has no {name}: {csp}"))
            .to_string()
    };
    assert_eq!(
        directive("script-src"),
        "script-src 'self' 'wasm-unsafe-eval'"
    );
    assert_eq!(directive("connect-src"), "connect-src 'self'");
    assert_eq!(directive("default-src"), "default-src 'self'");
    // What the browser does with it: eval and an inline script are refused, a fetch to another
    // origin is refused before it leaves the page, and each raises a violation event.
    let outcome: serde_json::Value = c
        .execute_async(
            r#"const [done] = arguments;
            const violations = [];
            document.addEventListener('securitypolicyviolation', e => violations.push(e.effectiveDirective));
            // A string handed to setTimeout is compiled by the page itself (WebDriver's own script
            // context is exempt from the policy, so a direct eval here would prove nothing).
            window.__evalRan = false;
            setTimeout('window.__evalRan = true', 0);
            window.__inlineRan = false;
            const s = document.createElement('script');
            s.textContent = 'window.__inlineRan = true;';
            document.body.appendChild(s);
            fetch('http://192.0.2.1:9/x').then(() => 'fetched', e => e.name).then(fetchResult =>
              setTimeout(() => done({evalRan: window.__evalRan, inlineRan: window.__inlineRan, fetchResult, violations}), 200));"#,
            vec![],
        )
        .await
        .expect("csp probe");
    assert_eq!(outcome["evalRan"], false, "{outcome}");
    assert_eq!(outcome["inlineRan"], false, "{outcome}");
    assert_eq!(outcome["fetchResult"], "TypeError", "{outcome}");
    let v: Vec<String> = serde_json::from_value(outcome["violations"].clone()).unwrap();
    for d in ["script-src", "script-src-elem", "connect-src"] {
        assert!(v.iter().any(|x| x == d), "no {d} violation reported: {v:?}");
    }
    c.close().await.expect("close");
}

/// On the release bundle, under its Content-Security-Policy: a share link opens its files in a new
/// page, and the PNG export draws the graph through a Blob URL image (no network).
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn share_link_and_png_export_work_on_the_bundle() {
    let (base, _, _driver, c) = open_app().await;
    click(&c, ".tabs .tab:nth-child(3)").await;
    click(&c, "[data-example='replace-cbd'] button").await;
    wait_count(&c, ".file-tab", 3).await;
    click(&c, ".tabs .tab:nth-child(4)").await;
    click(&c, ".export-png").await;
    let mut notices = Vec::new();
    for _ in 0..100 {
        notices = texts(&c, ".notice-text").await;
        if notices.iter().any(|n| n.contains("graph.png")) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        notices.iter().any(|n| n.contains("Saved graph.png")),
        "{notices:?}"
    );
    click(&c, "#share-link").await;
    wait_count(&c, ".share-url", 1).await;
    screenshot(&c, "app-share.png").await;
    let link = c
        .find(Locator::Css(".share-url"))
        .await
        .expect("link field")
        .prop("value")
        .await
        .expect("value")
        .unwrap_or_default();
    assert!(link.starts_with(&base) && link.contains("#v1."), "{link}");
    // Following the link (a fragment change on the open page): its three files open.
    c.goto(&base).await.expect("reload");
    // The page loads the wasm asynchronously: wait for the app before using its controls.
    wait_count(&c, "#graph-kind", 1).await;
    c.execute("localStorage.clear()", vec![])
        .await
        .expect("clear");
    c.execute(
        "const s = document.querySelector('#graph-kind'); s.value = 'plan'; s.dispatchEvent(new Event('change', {bubbles: true}));",
        vec![],
    )
    .await
    .expect("plan graph");
    c.goto(&link).await.expect("open the link");
    wait_texts(
        &c,
        ".file-tab",
        &["main.tf", "plan.json", "terraform.tfstate"],
    )
    .await;
    let url = c.current_url().await.expect("url");
    assert!(url.fragment().is_none(), "the fragment is consumed: {url}");
    // With a plan among the files the apply graph is shown, as `tofu graph` does.
    wait_count(
        &c,
        ".graph-svg g.vertex[data-name='aws_launch_template.app (destroy deposed 00000001)']",
        1,
    )
    .await;
    c.close().await.expect("close");
}

/// Issue 17: with `panic = "abort"` a panic in the wasm left a dead page. The debug trigger
/// (`?tfgraph-debug-panic`, `page::crash`) panics once the app has started; the banner must say
/// what happened, that the files are saved, offer them as a download, and reload into them.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn a_panic_shows_a_banner_with_the_files_and_a_reload() {
    let (base, _, _driver, c) = open_app().await;
    editor_reset(&c).await;
    c.goto(&format!("{base}/?tfgraph-debug-panic"))
        .await
        .expect("open with the trigger");
    wait_count(&c, ".crash-banner", 1).await;
    let lines = texts(&c, ".crash-line").await;
    assert!(
        lines.iter().any(|l| l.contains("the debug panic trigger")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("Your files are saved")),
        "{lines:?}"
    );
    screenshot(&c, "app-crash.png").await;
    let href = c
        .find(Locator::Css(".crash-download"))
        .await
        .expect("download link")
        .attr("href")
        .await
        .expect("href")
        .unwrap_or_default();
    let b64 = href
        .split_once("base64,")
        .map(|x| x.1.to_string())
        .unwrap_or_default();
    use base64::Engine as _;
    let saved = String::from_utf8(
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .expect("base64"),
    )
    .expect("utf-8");
    assert!(saved.contains("aws_vpc"), "{saved}");
    // Reload leaves the trigger out and brings the files back.
    click(&c, ".crash-reload").await;
    wait_count(
        &c,
        ".graph-svg g.vertex[data-name='aws_vpc.main (expand)']",
        1,
    )
    .await;
    let url = c.current_url().await.expect("url");
    assert!(!url.as_str().contains("debug-panic"), "{url}");
    assert_eq!(
        c.find_all(Locator::Css(".crash-banner"))
            .await
            .expect("find")
            .len(),
        0
    );
    c.close().await.expect("close");
}

// Issue 14, item 2: until the wasm had loaded, the page's body was empty.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn the_page_paints_its_frame_before_the_engine_arrives() {
    let dist = root().join("dist");
    let (base, _requests, gate) = serve_dist_holding_wasm(&dist, true);
    // Navigation returns at once: the load event may wait for the held wasm (Trunk preloads it).
    let (_driver, c) = start_browser_with("none").await;
    c.set_window_size(1400, 900).await.expect("window size");
    c.goto(&base).await.expect("open the app");
    wait_texts(&c, "#boot .boot-line", &["Loading the engine…"]).await;
    assert_eq!(texts(&c, "#boot .brand").await, vec!["tfgraph"]);
    // The frame is laid out as the app's: header, three panes.
    assert_eq!(texts(&c, "#boot .pane").await.len(), 3);
    screenshot(&c, "app-boot").await;
    assert_eq!(texts(&c, ".graph-svg g.vertex").await.len(), 0);
    {
        let (open, cv) = &*gate;
        *open.lock().unwrap() = true;
        cv.notify_all();
    }
    wait_count(&c, ".graph-svg g.vertex", 9).await;
    // The app replaced the frame.
    assert!(texts(&c, "#boot").await.is_empty());
    assert_eq!(texts(&c, ".app-header .brand").await, vec!["tfgraph"]);
}

// Issue 14, item 6: "Works offline after one visit": a service worker keeps the bundle; the
// page is loaded once, the server goes off the network, and a reload still shows the app with the
// work that was saved.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn the_app_reloads_without_a_network_after_one_visit() {
    let dist = root().join("dist");
    assert!(dist.join("sw.js").is_file(), "dist/sw.js missing");
    let (base, log, _gate, offline) = serve_dist_with_switch(&dist, false);
    let (_driver, c) = start_browser().await;
    c.set_window_size(1400, 900).await.expect("window size");
    c.goto(&base).await.expect("open the app");
    wait_count(&c, ".graph-svg g.vertex", 9).await;
    append_line(&c, "output \"offline\" {\n  value = 1\n}\n").await;
    // The worker has installed and kept the page and its wasm.
    let mut kept = false;
    for _ in 0..100 {
        let ready: bool = serde_json::from_value(
            c.execute_async(
                r#"const done = arguments[arguments.length - 1];
                (async () => {
                  const reg = await navigator.serviceWorker.getRegistration();
                  if (!reg || !reg.active) return false;
                  const cache = await caches.open('tfgraph-v1');
                  const keys = (await cache.keys()).map(r => r.url);
                  return keys.some(u => u.endsWith('.wasm')) && keys.some(u => u.endsWith('/'));
                })().then(done, () => done(false));"#,
                vec![],
            )
            .await
            .expect("ask the worker"),
        )
        .unwrap_or(false);
        if ready {
            kept = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(kept, "the service worker did not keep the bundle");
    // Off the network, then reload.
    offline.store(true, std::sync::atomic::Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(200)).await;
    c.refresh().await.expect("reload");
    wait_count(&c, ".graph-svg g.vertex", 10).await;
    assert!(
        texts(&c, ".block-list .block-labels")
            .await
            .contains(&"offline".to_string())
    );
    // It really is offline: a file the worker never kept cannot be fetched.
    let refused: bool = serde_json::from_value(
        c.execute_async(
            "const done = arguments[arguments.length - 1]; fetch('/not-kept-' + Date.now()).then(() => done(false), () => done(true));",
            vec![],
        )
        .await
        .expect("probe"),
    )
    .expect("bool");
    assert!(refused, "the server still answers");
    drop(log);
    screenshot(&c, "app-offline.png").await;
}

// Issue 17, item 2: with the app open in two windows, the last to save overwrote the other's
// work in `tfgraph.workspace` without a word.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn two_windows_never_overwrite_each_others_work() {
    let (base, _requests, _driver, c) = open_app().await;
    let first = c.window().await.expect("first window");
    let second = c.new_window(false).await.expect("second window").handle;
    c.switch_to_window(second.clone())
        .await
        .expect("to the second");
    c.goto(&base).await.expect("open the app again");
    wait_count(&c, ".graph-svg g.vertex", 9).await;
    // An edit in the first window is saved; the second is told at once.
    c.switch_to_window(first.clone())
        .await
        .expect("to the first");
    append_line(&c, "output \"from_first\" {\n  value = 1\n}\n").await;
    c.switch_to_window(second.clone())
        .await
        .expect("to the second");
    assert!(
        wait_notice(&c, "Your work was changed in another tab").await,
        "{:?}",
        texts(&c, ".notice").await
    );
    // An edit in the second: saving it would lose the first's, so it is kept aside instead.
    append_line(&c, "output \"from_second\" {\n  value = 2\n}\n").await;
    assert!(
        wait_notice(&c, "Another tab saved its work after this tab opened it").await,
        "{:?}",
        texts(&c, ".notice").await
    );
    // The first is told the second's files were kept aside, with Restore.
    c.switch_to_window(first.clone())
        .await
        .expect("to the first");
    assert!(
        wait_notice(&c, "Another tab's files were kept aside").await,
        "{:?}",
        texts(&c, ".notice").await
    );
    // Both edits survive a reload: the first's as the workspace, the second's under Restore.
    c.refresh().await.expect("reload");
    wait_count(
        &c,
        ".graph-svg g.vertex[data-name='output.from_first (expand)']",
        1,
    )
    .await;
    let kept: String = serde_json::from_value(
        c.execute(
            "return localStorage.getItem('tfgraph.backup') || '';",
            vec![],
        )
        .await
        .expect("backups"),
    )
    .expect("string");
    assert!(
        kept.contains("from_second") && kept.contains("when another tab had saved over them"),
        "{kept}"
    );
    c.close_window().await.expect("close the first");
    c.switch_to_window(second).await.expect("to the second");
}

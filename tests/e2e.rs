//! End-to-end: the release bundle (`trunk build --release` → dist/) served on 127.0.0.1, loaded in
//! headless Chromium driven through chromedriver (WebDriver, via fantoccini), typed into like a user
//! would, with screenshots written under target/screenshots/ for people to look at.
//!
//! Ignored by plain `cargo test` because it needs the built bundle, Chromium and chromedriver;
//! `scripts/test` builds the bundle and runs it with `--ignored`.

use fantoccini::{Client, ClientBuilder, Locator};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Serves `dist/` on an ephemeral 127.0.0.1 port and logs every request path.
fn serve_dist(dist: &Path) -> (String, Arc<Mutex<Vec<String>>>) {
    let server = tiny_http::Server::http("127.0.0.1:0").expect("bind 127.0.0.1");
    let addr = format!(
        "http://{}",
        server.server_addr().to_ip().expect("ip address")
    );
    let log = Arc::new(Mutex::new(Vec::new()));
    let log2 = log.clone();
    let dist = dist.to_path_buf();
    std::thread::spawn(move || {
        for req in server.incoming_requests() {
            let path = req.url().split('?').next().unwrap_or("/").to_string();
            log2.lock().unwrap().push(path.clone());
            let rel = if path == "/" {
                "index.html".to_string()
            } else {
                path.trim_start_matches('/').to_string()
            };
            let file = dist.join(&rel);
            let ok = !rel.contains("..") && file.is_file();
            let resp = if ok {
                let body = std::fs::read(&file).unwrap_or_default();
                let ctype = match file.extension().and_then(|e| e.to_str()) {
                    Some("html") => "text/html; charset=utf-8",
                    Some("js") => "text/javascript",
                    Some("wasm") => "application/wasm",
                    Some("css") => "text/css",
                    Some("svg") => "image/svg+xml",
                    _ => "application/octet-stream",
                };
                tiny_http::Response::from_data(body)
                    .with_header(tiny_http::Header::from_bytes("Content-Type", ctype).unwrap())
            } else {
                tiny_http::Response::from_data(b"not found".to_vec()).with_status_code(404)
            };
            let _ = req.respond(resp);
        }
    });
    (addr, log)
}

struct Driver(Child);
impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start_browser() -> (Driver, Client) {
    let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    let port = free_port();
    let child = Command::new(&bin)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot start {bin}: {e} (scripts/setup --browser installs it)")
        });
    let driver = Driver(child);
    let caps: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        r#"{"goog:chromeOptions":{"args":["--headless=new","--no-sandbox","--disable-gpu","--disable-dev-shm-usage",
        "--disable-background-networking","--disable-component-update","--disable-sync","--no-first-run",
        "--window-size=1400,900"]}}"#,
    )
    .unwrap();
    let url = format!("http://127.0.0.1:{port}");
    let mut last = None;
    for _ in 0..50 {
        let mut b = ClientBuilder::rustls().expect("tls");
        b.capabilities(caps.clone());
        match b.connect(&url).await {
            Ok(c) => return (driver, c),
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("chromedriver did not answer: {last:?}");
}

async fn texts(c: &Client, css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in c.find_all(Locator::Css(css)).await.expect("find_all") {
        out.push(e.text().await.expect("text"));
    }
    out
}

/// Polls until `css` matches exactly `want` (the app updates asynchronously), or fails with what
/// the page showed.
async fn wait_texts(c: &Client, css: &str, want: &[&str]) {
    let mut got = Vec::new();
    for _ in 0..100 {
        got = texts(c, css).await;
        if got == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{css}: expected {want:?}, page shows {got:?}");
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Polls until `css` matches `n` elements.
async fn wait_count(c: &Client, css: &str, n: usize) {
    let mut got = 0;
    for _ in 0..100 {
        got = c.find_all(Locator::Css(css)).await.expect("find_all").len();
        if got == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{css}: expected {n} elements, page has {got}");
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    let dir = root().join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn app_lists_blocks_and_errors_as_the_user_types() {
    let dist = root().join("dist");
    assert!(
        dist.join("index.html").is_file(),
        "dist/ missing: run `trunk build --release` first"
    );
    let (base, requests) = serve_dist(&dist);
    let (_driver, c) = start_browser().await;
    c.set_window_size(1400, 900).await.expect("window size");
    c.goto(&base).await.expect("open the app");

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
    click(&c, ".tabs .tab:nth-child(4)").await;
    wait_count(&c, "pre.export-dot", 1).await;
    let shown_dot = c
        .find(Locator::Css("pre.export-dot"))
        .await
        .expect("dot")
        .prop("textContent")
        .await
        .expect("text")
        .unwrap_or_default();
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
    editor_reset(&c).await;
    screenshot(&c, "app-small.png").await;

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

/// Puts the example back (select all + type), so the small screenshot shows a normal state.
async fn editor_reset(c: &Client) {
    let editor = c
        .find(Locator::Css("textarea#editor"))
        .await
        .expect("editor");
    editor.clear().await.expect("clear");
    editor
        .send_keys("variable \"region\" {}\nresource \"aws_vpc\" \"main\" {\n  cidr_block = \"10.0.0.0/16\"\n}\noutput \"vpc\" {\n  value = aws_vpc.main.id\n}\n")
        .await
        .expect("type");
    wait_texts(
        c,
        ".block-list .block-kind",
        &["variable", "resource", "output"],
    )
    .await;
    // The graph is rebuilt once typing pauses.
    wait_texts(c, ".diagnostic.error .diag-where", &[]).await;
    wait_count(
        c,
        ".graph-svg g.vertex[data-name='aws_vpc.main (expand)']",
        1,
    )
    .await;
}

/// Measures (prints, asserts nothing about time) how long a 1,000-resource configuration takes
/// from the edit to the drawn graph, and the frame rate while its walk plays, on the release build.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn large_config_timing() {
    let dist = root().join("dist");
    assert!(dist.join("index.html").is_file(), "dist/ missing");
    let (base, _) = serve_dist(&dist);
    let (_driver, c) = start_browser().await;
    c.set_window_size(1400, 900).await.expect("window size");
    c.goto(&base).await.expect("open the app");
    wait_count(&c, ".graph-svg g.vertex", 9).await;
    // 1,000 resources in chains of ten, each referring to the one before it.
    let mut hcl = String::from("variable \"env\" {\n  default = \"prod\"\n}\n");
    for i in 0..1000 {
        if i % 10 == 0 {
            hcl.push_str(&format!(
                "resource \"aws_s3_bucket\" \"r{i}\" {{\n  bucket = var.env\n}}\n"
            ));
        } else {
            hcl.push_str(&format!(
                "resource \"aws_s3_bucket\" \"r{i}\" {{\n  bucket = aws_s3_bucket.r{}.id\n}}\n",
                i - 1
            ));
        }
    }
    let ms: f64 = serde_json::from_value(
        c.execute_async(
            r#"const [text, done] = arguments;
            const ta = document.querySelector('textarea#editor');
            const t0 = performance.now();
            ta.value = text;
            ta.dispatchEvent(new Event('input', {bubbles: true}));
            const poll = () => {
              const n = document.querySelectorAll('.graph-svg g.vertex').length;
              if (n > 1000) { requestAnimationFrame(() => done(performance.now() - t0 - 250)); }
              else { setTimeout(poll, 5); }
            };
            poll();"#,
            vec![serde_json::Value::String(hcl)],
        )
        .await
        .expect("timing"),
    )
    .expect("number");
    let idle_fps: f64 = serde_json::from_value(
        c.execute_async(
            r#"const [done] = arguments;
            let frames = 0;
            const t0 = performance.now();
            const tick = () => {
              frames++;
              if (performance.now() - t0 < 1500) requestAnimationFrame(tick);
              else done(frames * 1000 / (performance.now() - t0));
            };
            requestAnimationFrame(tick);"#,
            vec![],
        )
        .await
        .expect("fps"),
    )
    .expect("number");
    let fps: f64 = serde_json::from_value(
        c.execute_async(
            r#"const [done] = arguments;
            document.querySelector('#walk-play').click();
            let frames = 0;
            const t0 = performance.now();
            const tick = () => {
              frames++;
              if (performance.now() - t0 < 3000) requestAnimationFrame(tick);
              else done(frames * 1000 / (performance.now() - t0));
            };
            requestAnimationFrame(tick);"#,
            vec![],
        )
        .await
        .expect("fps"),
    )
    .expect("number");
    let split: Vec<f64> = serde_json::from_value(
        c.execute(
            "const avg = n => { const e = performance.getEntriesByName(n); return e.reduce((a, x) => a + x.duration, 0) / Math.max(1, e.length); }; return [avg('walk-simulation'), avg('walk-view-update')];",
            vec![],
        )
        .await
        .expect("measures"),
    )
    .expect("numbers");
    println!(
        "walk frame: {:.1} ms simulation, {:.1} ms view update (signals and DOM changes, before layout and paint)",
        split[0], split[1]
    );
    println!(
        "1,000 resources: {ms:.0} ms from the edit to the drawn graph (after the 250 ms debounce); walk at {fps:.1} frames/s (headless Chromium; {idle_fps:.1} frames/s idle)"
    );
    screenshot(&c, "app-large.png").await;
    c.close().await.expect("close");
}

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

//! End-to-end: the release bundle (`trunk build --release` → dist/) served on 127.0.0.1, loaded in
//! headless Chromium driven through chromedriver (WebDriver, via fantoccini), typed into like a user
//! would, with screenshots written under target/screenshots/ for people to look at.
//!
//! Ignored by plain `cargo test` because it needs the built bundle, Chromium and chromedriver;
//! `scripts/test` builds the bundle and runs it with `--ignored`.

mod support;

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
    let (addr, log, _) = serve_dist_holding_wasm(dist, false);
    (addr, log)
}

/// A gate that holds back answers until it is opened.
type Gate = Arc<(Mutex<bool>, std::sync::Condvar)>;

/// [`serve_dist`], answering requests for `.wasm` files only once the returned gate is opened
/// when `hold` is set (each request is answered on its own thread, so the rest of the page loads
/// meanwhile): what a slow network shows before the engine arrives.
fn serve_dist_holding_wasm(dist: &Path, hold: bool) -> (String, Arc<Mutex<Vec<String>>>, Gate) {
    let (addr, log, gate, _) = serve_dist_with_switch(dist, hold);
    (addr, log, gate)
}

/// [`serve_dist_holding_wasm`], with a switch that takes the server off the network: once it is
/// set, every request fails as it would without a network.
fn serve_dist_with_switch(
    dist: &Path,
    hold: bool,
) -> (
    String,
    Arc<Mutex<Vec<String>>>,
    Gate,
    Arc<std::sync::atomic::AtomicBool>,
) {
    let offline = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let offline2 = offline.clone();
    let server = tiny_http::Server::http("127.0.0.1:0").expect("bind 127.0.0.1");
    let addr = format!(
        "http://{}",
        server.server_addr().to_ip().expect("ip address")
    );
    let log = Arc::new(Mutex::new(Vec::new()));
    let log2 = log.clone();
    let gate: Gate = Arc::new((Mutex::new(!hold), std::sync::Condvar::new()));
    let gate2 = gate.clone();
    let dist = dist.to_path_buf();
    std::thread::spawn(move || {
        for req in server.incoming_requests() {
            // Off the network: no HTTP answer at all (bytes that are not HTTP, then the
            // connection is dropped), which the browser reports as a failed request. (Dropping
            // a tiny_http request would answer 500; closing the listener leaves keep-alive
            // connections hanging.)
            if offline2.load(std::sync::atomic::Ordering::SeqCst) {
                std::thread::spawn(move || {
                    use std::io::Write as _;
                    let mut raw = req.into_writer();
                    let _ = raw.write_all(b"\x00\x00 offline\r\n\r\n");
                    let _ = raw.flush();
                });
                continue;
            }
            let dist = dist.clone();
            let log = log2.clone();
            let gate = gate2.clone();
            std::thread::spawn(move || {
                let path = req.url().split('?').next().unwrap_or("/").to_string();
                log.lock().unwrap().push(path.clone());
                let rel = if path == "/" {
                    "index.html".to_string()
                } else {
                    path.trim_start_matches('/').to_string()
                };
                let file = dist.join(&rel);
                let ok = !rel.contains("..") && file.is_file();
                if rel.ends_with(".wasm") {
                    let (open, cv) = &*gate;
                    let mut o = open.lock().unwrap();
                    while !*o {
                        o = cv.wait(o).unwrap();
                    }
                }
                // Compressed when the browser accepts it, as a production static host serves
                // the bundle (what users download, not Trunk's uncompressed dev server).
                let gzip = req
                    .headers()
                    .iter()
                    .any(|h| h.field.equiv("Accept-Encoding") && h.value.as_str().contains("gzip"));
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
                    let (body, encoding) = if gzip && ctype != "application/octet-stream" {
                        use std::io::Write as _;
                        let mut z =
                            flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                        z.write_all(&body).expect("gzip");
                        (z.finish().expect("gzip"), Some("gzip"))
                    } else {
                        (body, None)
                    };
                    let r = tiny_http::Response::from_data(body)
                        .with_header(tiny_http::Header::from_bytes("Content-Type", ctype).unwrap())
                        .with_header(
                            tiny_http::Header::from_bytes("Vary", "Accept-Encoding").unwrap(),
                        );
                    match encoding {
                        Some(e) => r.with_header(
                            tiny_http::Header::from_bytes("Content-Encoding", e).unwrap(),
                        ),
                        None => r,
                    }
                } else {
                    tiny_http::Response::from_data(b"not found".to_vec()).with_status_code(404)
                };
                let _ = req.respond(resp);
            });
        }
    });
    (addr, log, gate, offline)
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
    start_browser_with("normal").await
}

/// [`start_browser`] with a WebDriver page load strategy: `none` returns from navigation at once,
/// without waiting for the load event.
async fn start_browser_with(page_load_strategy: &str) -> (Driver, Client) {
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
    let mut caps: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        r#"{"goog:chromeOptions":{"args":["--headless=new","--no-sandbox","--disable-gpu","--disable-dev-shm-usage",
        "--disable-background-networking","--disable-component-update","--disable-sync","--no-first-run",
        "--window-size=1400,900"]}}"#,
    )
    .unwrap();
    caps.insert("pageLoadStrategy".into(), page_load_strategy.into());
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

/// The release bundle served and opened at 1400x900, once its example graph (9 vertices) is drawn:
/// the server's address and request log, and the browser (the driver must outlive the client).
async fn open_app() -> (String, Arc<Mutex<Vec<String>>>, Driver, Client) {
    let dist = root().join("dist");
    assert!(
        dist.join("index.html").is_file(),
        "dist/ missing: run `trunk build --release` first"
    );
    let (base, requests) = serve_dist(&dist);
    let (driver, c) = start_browser().await;
    c.set_window_size(1400, 900).await.expect("window size");
    c.goto(&base).await.expect("open the app");
    wait_count(&c, ".graph-svg g.vertex", 9).await;
    (base, requests, driver, c)
}

/// The text of every element `css` matches. The app re-renders while it is read, so an element
/// found may be gone (stale) before its text is asked for: then the whole query is read again.
async fn texts(c: &Client, css: &str) -> Vec<String> {
    let mut last_err = None;
    for _ in 0..20 {
        let mut out = Vec::new();
        let mut stale = false;
        for e in c.find_all(Locator::Css(css)).await.expect("find_all") {
            match e.text().await {
                Ok(t) => out.push(t),
                Err(err) => {
                    last_err = Some(err);
                    stale = true;
                    break;
                }
            }
        }
        if !stale {
            return out;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{css}: elements kept going stale: {last_err:?}");
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

/// Frames per second the page draws over `ms` milliseconds (requestAnimationFrame counted).
async fn frame_rate(c: &Client, ms: u32) -> f64 {
    serde_json::from_value(
        c.execute_async(
            r#"const [ms, done] = arguments;
            let frames = 0;
            const t0 = performance.now();
            const tick = () => {
              frames++;
              if (performance.now() - t0 < ms) requestAnimationFrame(tick);
              else done(frames * 1000 / (performance.now() - t0));
            };
            requestAnimationFrame(tick);"#,
            vec![ms.into()],
        )
        .await
        .expect("fps"),
    )
    .expect("number")
}

/// Sizes the window so that the page's viewport (`innerWidth` x `innerHeight`) is `w` x `h`:
/// the window's own frame takes some of a window size.
async fn set_viewport_size(c: &Client, w: u32, h: u32) {
    c.set_window_size(w, h).await.expect("window size");
    let (iw, ih): (u32, u32) = serde_json::from_value(
        c.execute("return [innerWidth, innerHeight];", vec![])
            .await
            .expect("viewport"),
    )
    .expect("numbers");
    c.set_window_size(w + (w - iw.min(w)), h + (h - ih.min(h)))
        .await
        .expect("window size");
    tokio::time::sleep(Duration::from_millis(400)).await;
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
    let (_, _, _driver, c) = open_app().await;
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
    // One keystroke in the large file: the time until the next frame (text stored, highlighted
    // lines and outline redrawn), before the debounced rebuild. Median of five.
    let key_ms: f64 = serde_json::from_value(
        c.execute_async(
            r#"const [done] = arguments;
            const ta = document.querySelector('textarea#editor');
            const times = [];
            const one = () => {
              const t0 = performance.now();
              ta.value = ta.value + '#';
              ta.dispatchEvent(new Event('input', {bubbles: true}));
              requestAnimationFrame(() => {
                times.push(performance.now() - t0);
                if (times.length < 5) setTimeout(one, 30);
                else { times.sort((a, b) => a - b); done(times[2]); }
              });
            };
            one();"#,
            vec![],
        )
        .await
        .expect("keystroke"),
    )
    .expect("number");
    println!("1,000 resources: {key_ms:.0} ms from a keystroke to the next frame (median of 5)");
    let idle_fps = frame_rate(&c, 1500).await;
    let fps: f64 = serde_json::from_value(
        c.execute_async(
            r#"const [done] = arguments;
            // Long animation frames (over 50 ms) split into script, style + layout, and paint.
            window.__loaf = [];
            try {
              new PerformanceObserver(l => {
                for (const e of l.getEntries()) {
                  const end = e.startTime + e.duration;
                  window.__loaf.push([e.duration, e.renderStart ? e.styleAndLayoutStart - e.renderStart : 0,
                    e.styleAndLayoutStart ? end - e.styleAndLayoutStart : 0]);
                }
              }).observe({type: 'long-animation-frame'});
            } catch (_) {}
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
            "const avg = n => { const e = performance.getEntriesByName(n); return e.reduce((a, x) => a + x.duration, 0) / Math.max(1, e.length); }; return [avg('walk-simulation'), avg('walk-view-update'), avg('walk-start-walks'), avg('walk-start-collect'), avg('walk-start-signals')];",
            vec![],
        )
        .await
        .expect("measures"),
    )
    .expect("numbers");
    let loaf: Vec<Vec<f64>> = serde_json::from_value(
        c.execute("return window.__loaf || [];", vec![])
            .await
            .expect("long frames"),
    )
    .expect("numbers");
    if !loaf.is_empty() {
        let avg = |k: usize| loaf.iter().map(|x| x[k]).sum::<f64>() / loaf.len() as f64;
        println!(
            "long animation frames: {} over 3 s, on average {:.1} ms ({:.1} ms rAF callbacks, {:.1} ms style, layout and paint)",
            loaf.len(),
            avg(0),
            avg(1),
            avg(2)
        );
    }
    println!(
        "walk frame: {:.1} ms simulation, {:.1} ms view update (signals and DOM changes, before layout and paint)",
        split[0], split[1]
    );
    println!(
        "walk start: {:.1} ms starting the walk (and its instant twin for the timeline's axis), {:.1} ms first report, {:.1} ms signals",
        split[2], split[3], split[4]
    );
    // Once the walk is under way: another 3 s of frames.
    let steady = frame_rate(&c, 3000).await;
    println!("walk under way (the next 3 s): {steady:.1} frames/s");
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

/// Measures (prints; asserts only that the graph arrives) the time from an edit to the drawn
/// graph in the generated 1,000-resource configuration (`tfgraph gen --resources 1000 --modules 10
/// --seed 1`, issue #6), on the release build: first the whole configuration opened from saved
/// files, then single edits to it, each timed from the input event to the new vertex drawn,
/// less the 250 ms typing debounce.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn generated_1000_resources_edit_to_graph_timing() {
    let files = tfgraph::generator::generate(&tfgraph::generator::GenOptions {
        resources: 1000,
        modules: 10,
        seed: 1,
    });
    let (_, _, _driver, c) = open_app().await;
    let saved = serde_json::json!({"format": 2, "files": files}).to_string();
    c.execute(
        "localStorage.setItem('tfgraph.workspace', arguments[0]); performance.mark('reload');",
        vec![saved.into()],
    )
    .await
    .expect("save");
    c.refresh().await.expect("reload");
    let opened: f64 = serde_json::from_value(
        c.execute_async(
            r#"const [done] = arguments;
            const poll = () => {
              if (document.querySelectorAll('.graph-svg g.vertex').length > 1000)
                requestAnimationFrame(() => done(performance.now()));
              else setTimeout(poll, 5);
            };
            poll();"#,
            vec![],
        )
        .await
        .expect("opened"),
    )
    .expect("number");
    let vertices = texts(&c, ".graph-svg g.vertex").await.len();
    let mut edits = Vec::new();
    for k in 0..5 {
        let ms: f64 = serde_json::from_value(
            c.execute_async(
                r#"const [k, done] = arguments;
                const ta = document.querySelector('textarea#editor');
                const name = `timing_probe_${k}`;
                const t0 = performance.now();
                ta.value = ta.value + `\nresource "null_resource" "${name}" {}\n`;
                ta.dispatchEvent(new Event('input', {bubbles: true}));
                const poll = () => {
                  if (document.querySelector(`.graph-svg g.vertex[data-name='null_resource.${name} (expand)']`))
                    requestAnimationFrame(() => done(performance.now() - t0 - 250));
                  else setTimeout(poll, 2);
                };
                poll();"#,
                vec![k.into()],
            )
            .await
            .expect("edit timing"),
        )
        .expect("number");
        edits.push(ms);
    }
    edits.sort_by(f64::total_cmp);
    // Every `tfgraph-*` measure the app recorded (`timed` in app/ctx.rs), the last of each: where
    // the last edit's time went.
    let phases: Vec<(String, f64)> = serde_json::from_value(
        c.execute(
            "const m = new Map(); for (const e of performance.getEntriesByType('measure')) if (e.name.startsWith('tfgraph-')) m.set(e.name.slice(8), e.duration); return [...m.entries()];",
            vec![],
        )
        .await
        .expect("measures"),
    )
    .expect("pairs");
    println!(
        "last edit, by phase: {}; the rest is the browser's style, layout and paint",
        phases
            .iter()
            .map(|(n, ms)| format!("{n} {ms:.0} ms"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "generated 1,000 resources ({vertices} vertices drawn): opened from saved files in {opened:.0} ms after navigation start; edit to drawn graph {:.0} ms median, {:.0}–{:.0} ms over {} edits (after the 250 ms debounce)",
        edits[edits.len() / 2],
        edits[0],
        edits[edits.len() - 1],
        edits.len()
    );
    // The walk of the same graph: frames per second over 3 s after Play, then the next 3 s.
    click(&c, "#walk-play").await;
    let fps = [frame_rate(&c, 3000).await, frame_rate(&c, 3000).await];
    println!(
        "generated 1,000 resources: walk at {:.1} frames/s over the first 3 s after Play, {:.1} over the next 3 s",
        fps[0], fps[1]
    );
    assert!(vertices > 1000);
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

/// Chooses `files` (path below the folder, bytes) as the folder `top` in the Folder button's
/// input, as the folder picker does (each File's `webkitRelativePath` set), in the bundle.
async fn open_folder(c: &Client, top: &str, files: &[(String, Vec<u8>)]) {
    use base64::Engine as _;
    let list: Vec<serde_json::Value> = files
        .iter()
        .map(|(p, b)| {
            serde_json::json!([
                format!("{top}/{p}"),
                base64::engine::general_purpose::STANDARD.encode(b)
            ])
        })
        .collect();
    c.execute(
        r#"const [list] = arguments;
        const dt = new DataTransfer();
        for (const [path, b64] of list) {
          const bin = atob(b64);
          const bytes = new Uint8Array(bin.length);
          for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
          const f = new File([bytes], path.split('/').pop());
          Object.defineProperty(f, 'webkitRelativePath', {value: path});
          dt.items.add(f);
        }
        const input = document.querySelector('#open-folder-input');
        input.files = dt.files;
        input.dispatchEvent(new Event('change', {bubbles: true}));"#,
        vec![serde_json::Value::Array(list)],
    )
    .await
    .expect("choose the folder");
}

/// Polls (up to `secs`) until at least `n` vertices are drawn.
async fn wait_vertices(c: &Client, n: usize, secs: u64) -> usize {
    let mut got = 0;
    for _ in 0..secs * 10 {
        got = c
            .find_all(Locator::Css(".graph-svg g.vertex"))
            .await
            .expect("find_all")
            .len();
        if got >= n {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("expected at least {n} vertices, the page has {got}");
}

/// The working directory of `tests/support/workdir.rs` (terraform-aws-vpc installed three times,
/// a nested registry call, a provider binary, a lock file) with the walk test's
/// `terraform.tfvars`, opened through the Folder input of the release bundle; then a repository
/// with two root modules and a call that is not installed. Screenshots at desktop and phone sizes.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn working_directories_open_through_the_folder_input() {
    use support::workdir;
    let vpc = workdir::tree_files(&support::realworld().join("terraform-aws-vpc"));
    let mut files = workdir::vpc_workdir_files(&vpc);
    files.push(("terraform.tfvars".into(), workdir::VPC_TFVARS.into()));
    let (_, _, _driver, c) = open_app().await;
    open_folder(&c, "wd", &files).await;
    let drawn = wait_vertices(&c, 2000, 120).await;
    assert_eq!(drawn, 2040);
    let notices = texts(&c, ".notice").await;
    assert!(
        notices.iter().any(|n| n.starts_with(
            "Skipped 5 files without reading them (130.6 KB), as tfgraph does not use them: "
        )),
        "{notices:?}"
    );
    assert!(texts(&c, ".diagnostic.error").await.is_empty());
    // Let the fit settle, then look at it.
    tokio::time::sleep(Duration::from_millis(800)).await;
    screenshot(&c, "app-workdir.png").await;
    c.set_window_size(390, 844).await.expect("small window");
    tokio::time::sleep(Duration::from_millis(800)).await;
    screenshot(&c, "app-workdir-small.png").await;
    c.set_window_size(1400, 900).await.expect("window size");

    let repo: Vec<(String, Vec<u8>)> = [
        (
            "main.tf",
            "variable \"n\" {\n  default = 1\n}\nmodule \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n  cidr   = \"10.0.0.0/16\"\n}\nmodule \"eks\" {\n  source = \"terraform-aws-modules/eks/aws\"\n  vpc_id = module.vpc.vpc_id\n}\nresource \"aws_instance\" \"web\" {\n  count     = var.n\n  subnet_id = module.vpc.vpc_id\n}\noutput \"cluster\" {\n  value = module.eks.cluster_name\n}\n",
        ),
        ("terraform.tfvars", "n = 2\n"),
        ("prod.tfvars", "n = 5\n"),
        (
            "examples/one/main.tf",
            "variable \"k\" {}\nresource \"aws_s3_bucket\" \"b\" {\n  count = var.k\n}\n",
        ),
        ("examples/one/terraform.tfvars", "k = 3\n"),
        ("README.md", "# a module\n"),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
    .collect();
    open_folder(&c, "repo", &repo).await;
    wait_texts(&c, "#root-module option", &[".", "examples/one"]).await;
    wait_count(&c, ".graph-svg g.vertex.not-installed", 4).await;
    assert_eq!(texts(&c, ".not-installed-note").await.len(), 1);
    tokio::time::sleep(Duration::from_millis(800)).await;
    screenshot(&c, "app-repo-not-installed.png").await;
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

// Issue 18, defect 1: with the legend open and the walk's timeline shown, the graph area was
// 313 px tall at 1366x768, 235 px at 1280x720 and 15 px at 1024x700. It keeps at least half the
// viewport's height at every size from 1024x700 up, in Inspect and while a walk plays; the
// figures go to target/screenshots/graph-heights.txt (README lists them).
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn the_graph_keeps_half_the_viewport_at_every_size() {
    let (_base, _requests, _driver, c) = open_app().await;
    // A repository as users open it (issue 18: 77 files, most of them under examples/).
    let vpc = support::workdir::tree_files(&support::realworld().join("terraform-aws-vpc"));
    assert!(vpc.len() >= 70, "{} files", vpc.len());
    open_folder(&c, "terraform-aws-vpc", &vpc).await;
    let drawn = wait_vertices(&c, 100, 120).await;
    let mut rows = vec![format!(
        "terraform-aws-vpc opened as a folder ({} files, {drawn} vertices drawn)\n\nviewport | mode | graph area height | share",
        vpc.len()
    )];
    let mut short = Vec::new();
    for (w, h) in [
        (1024, 700),
        (1280, 720),
        (1366, 768),
        (1920, 1080),
        (390, 844),
    ] {
        set_viewport_size(&c, w, h).await;
        for mode in ["inspect", "walk"] {
            if mode == "walk" {
                click(&c, "#walk-play").await;
                // A few vertices started: the timeline has rows.
                tokio::time::sleep(Duration::from_millis(1500)).await;
            }
            let (gh, _vw, vh): (f64, f64, f64) = serde_json::from_value(
                c.execute(
                    "const r = document.querySelector('.graph-canvas').getBoundingClientRect(); return [r.height, innerWidth, innerHeight];",
                    vec![],
                )
                .await
                .expect("measure"),
            )
            .expect("numbers");
            let share = gh / vh;
            assert_eq!(vh, f64::from(h), "the viewport's height");
            rows.push(format!(
                "{w}x{h} | {mode} | {gh:.0} px | {:.0}%",
                share * 100.0
            ));
            screenshot(&c, &format!("app-{w}x{h}-{mode}.png")).await;
            // From 1024x700 up; a phone shows the graph as one of three panes (its own test).
            if share < 0.5 && w >= 1024 {
                short.push(rows.last().cloned().unwrap_or_default());
            }
            if mode == "walk" {
                click(&c, "#walk-reset").await;
            }
        }
    }
    let dir = root().join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("graph-heights.txt"), rows.join("\n") + "\n").unwrap();
    assert!(
        short.is_empty(),
        "graph under half the viewport: {short:?}\n{}",
        rows.join("\n")
    );
}

/// Reads `script`'s JSON result as `T`.
async fn js<T: serde::de::DeserializeOwned>(c: &Client, script: &str) -> T {
    serde_json::from_value(c.execute(script, vec![]).await.expect(script)).expect(script)
}

/// The controls on screen smaller than a finger needs: buttons, selects and text fields under
/// 40 px tall (links in text 36 px), checkboxes under 24 px; as "class text: height".
async fn small_targets(c: &Client) -> Vec<String> {
    js(
        c,
        r#"const out = [];
        for (const e of document.querySelectorAll('button, select, input')) {
          const r = e.getBoundingClientRect();
          if (r.width === 0 || r.height === 0 || e.type === 'file' || e.type === 'hidden') continue;
          if (r.bottom < 0 || r.top > innerHeight) continue;
          const inline = e.matches('button.link, button.ref-link, .vertex-link, .step button, .phase button, .block-button, .tree-folder, .tree-file');
          const min = e.type === 'checkbox' ? 24 : e.type === 'range' ? 32 : inline ? 36 : 40;
          if (r.height + 0.5 < min) out.push(`${e.tagName.toLowerCase()}.${e.className} ${(e.textContent || e.getAttribute('aria-label') || e.type || '').trim().slice(0, 30)}: ${r.height.toFixed(1)}`);
        }
        return out;"#,
    )
    .await
}

// Issue 18, defect 12: on a phone (390x844) a tapped vertex's details appeared about 1,000 px
// below with no scroll to them; a swipe on the graph panned it and trapped the page; buttons
// were 23 px and checkboxes 13 px tall; the graph was off screen while a walk played. Now the
// panes switch by tabs and the page is the screen's height (nothing to scroll, so nothing to
// trap), a tapped vertex's details are a sheet over the graph's lower half, controls are finger
// sized, and the walk bar sits under the graph.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn a_phone_shows_one_pane_at_a_time_with_details_in_reach() {
    let (_base, _requests, _driver, c) = open_app().await;
    set_viewport_size(&c, 390, 844).await;
    let page_fits = r#"return document.scrollingElement.scrollHeight <= innerHeight + 1
        && document.scrollingElement.scrollWidth <= innerWidth + 1;"#;
    let graph_box = r#"const r = document.querySelector('.graph-canvas').getBoundingClientRect();
        return [r.top, r.bottom, innerHeight];"#;
    // The graph pane first: the page does not scroll, the graph has most of the screen.
    screenshot(&c, "app-390x844-phone-graph.png").await;
    assert!(
        js::<bool>(&c, page_fits).await,
        "the page scrolls on a phone"
    );
    let (top, bottom, vh): (f64, f64, f64) = js(&c, graph_box).await;
    assert!(
        top >= 0.0 && bottom <= vh + 0.5,
        "graph at {top}..{bottom} of {vh}"
    );
    assert!(
        (bottom - top) / vh >= 0.5,
        "graph {:.0} px of {vh}",
        bottom - top
    );
    assert_eq!(small_targets(&c).await, Vec::<String>::new());

    // A tap on a vertex: its details in a sheet on screen, the graph still above it.
    let name: String = js(
        &c,
        "return [...document.querySelectorAll('.graph-svg g.vertex')].map(v => v.getAttribute('data-name')).find(n => n.startsWith('aws_instance'));",
    )
    .await;
    click(&c, &format!(".graph-svg g.vertex[data-name='{name}']")).await;
    wait_texts(&c, ".detail-name", &[name.as_str()]).await;
    let (sheet_top, sheet_bottom, canvas_top): (f64, f64, f64) = js(
        &c,
        r#"const s = document.querySelector('.side-pane').getBoundingClientRect();
        return [s.top, s.bottom, document.querySelector('.graph-canvas').getBoundingClientRect().top];"#,
    )
    .await;
    assert!(
        sheet_top > canvas_top + 150.0 && sheet_bottom <= vh + 0.5,
        "details at {sheet_top}..{sheet_bottom}, graph from {canvas_top}, screen {vh}"
    );
    assert!(
        js::<bool>(&c, page_fits).await,
        "the page scrolls with the details open"
    );
    assert_eq!(small_targets(&c).await, Vec::<String>::new());
    screenshot(&c, "app-390x844-phone-details.png").await;
    click(&c, ".sheet-close").await;
    wait_count(&c, ".app[data-sheet]", 0).await;

    // A walk plays with the graph on screen above the walk bar.
    click(&c, "#walk-play").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (top, bottom, _): (f64, f64, f64) = js(&c, graph_box).await;
    let (bar_top, bar_bottom): (f64, f64) = js(
        &c,
        "const r = document.querySelector('.walk-panel').getBoundingClientRect(); return [r.top, r.bottom];",
    )
    .await;
    assert!(
        top >= 0.0 && bottom <= bar_top + 0.5 && bar_bottom <= vh + 0.5,
        "graph {top}..{bottom}, walk bar {bar_top}..{bar_bottom}, screen {vh}"
    );
    assert!(
        (bottom - top) / vh >= 0.3,
        "graph {:.0} px of {vh} during the walk",
        bottom - top
    );
    assert!(
        js::<bool>(&c, page_fits).await,
        "the page scrolls during a walk"
    );
    assert_eq!(small_targets(&c).await, Vec::<String>::new());
    screenshot(&c, "app-390x844-phone-walk.png").await;
    click(&c, "#walk-reset").await;

    // The code pane: the editor on screen, the graph and the walk bar away.
    click(&c, "#pane-code").await;
    let (etop, ebottom): (f64, f64) = js(
        &c,
        "const r = document.querySelector('textarea#editor').getBoundingClientRect(); return [r.top, r.bottom];",
    )
    .await;
    assert!(
        etop >= 0.0 && ebottom <= vh + 0.5 && ebottom - etop >= 160.0,
        "editor {etop}..{ebottom}"
    );
    assert!(
        js::<bool>(
            &c,
            "return document.querySelector('.walk-panel').getBoundingClientRect().height === 0;"
        )
        .await
    );
    assert!(
        js::<bool>(&c, page_fits).await,
        "the page scrolls in the code pane"
    );
    assert_eq!(small_targets(&c).await, Vec::<String>::new());
    screenshot(&c, "app-390x844-phone-code.png").await;

    // The panels: an example loads and shows its graph.
    click(&c, "#pane-panels").await;
    click(&c, ".side-pane .tab:nth-child(3)").await;
    assert_eq!(small_targets(&c).await, Vec::<String>::new());
    screenshot(&c, "app-390x844-phone-examples.png").await;
    click(&c, ".gallery .example:nth-child(2) button").await;
    wait_count(&c, ".app[data-pane='graph']", 1).await;
    assert!(js::<bool>(&c, page_fits).await);
}

/// axe-core's script, installed by `scripts/setup --browser` from npm (`npm root -g`).
fn axe_source() -> String {
    let out = std::process::Command::new("npm")
        .args(["root", "-g"])
        .output()
        .expect("npm root -g");
    let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let path = Path::new(&root).join("axe-core/axe.min.js");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run scripts/setup --browser", path.display()))
}

/// Runs axe-core (WCAG 2.0-2.2 A and AA rules, target size (24 px, WCAG 2.2) among them, and its
/// best practices) on the page as it is;
/// each violation as "rule: target (summary)".
async fn axe_violations(c: &Client, axe: &str) -> Vec<String> {
    c.execute(axe, vec![]).await.expect("inject axe-core");
    let found: Vec<String> = serde_json::from_value(
        c.execute_async(
            r#"const done = arguments[arguments.length - 1];
            axe.run(document, {resultTypes: ['violations'], rules: {'target-size': {enabled: true}}}).then(r => {
              const out = [];
              for (const v of r.violations)
                for (const n of v.nodes)
                  out.push(`${v.id}: ${n.target.join(' ')} (${(n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 160)})`);
              done(out);
            }, e => done([`axe failed: ${e}`]));"#,
            vec![],
        )
        .await
        .expect("axe.run"),
    )
    .expect("violations");
    found
}

// Issue 14, item 5: "An axe-core run in the e2e suite (both themes, after loading an example, in
// inspect and walk modes) reports 0 violations."
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn axe_core_finds_no_violations_in_either_theme_or_mode() {
    let axe = axe_source();
    let (_base, _requests, _driver, c) = open_app().await;
    // An example with modules, so module boxes and their headers are checked too.
    click(&c, ".side-pane .tab:nth-child(3)").await;
    click(&c, ".gallery .example:nth-child(4) button").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let mut all = Vec::new();
    for theme in ["light", "dark"] {
        c.execute(
            "const s = document.querySelector('#theme'); s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true}));",
            vec![theme.into()],
        )
        .await
        .expect("theme");
        tokio::time::sleep(Duration::from_millis(300)).await;
        // Inspect, with a vertex's details open.
        click(&c, ".side-pane .tab:nth-child(1)").await;
        let name: String = js(
            &c,
            "return [...document.querySelectorAll('.graph-svg g.vertex')].map(v => v.getAttribute('data-name')).find(n => n.includes('aws_')) || '';",
        )
        .await;
        click(&c, &format!(".graph-svg g.vertex[data-name='{name}']")).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        for v in axe_violations(&c, &axe).await {
            all.push(format!("{theme} inspect: {v}"));
        }
        // Walk, paused part-way with the timeline drawn.
        click(&c, "#mode-walk").await;
        click(&c, "#walk-play").await;
        tokio::time::sleep(Duration::from_millis(1200)).await;
        click(&c, "#walk-play").await;
        for v in axe_violations(&c, &axe).await {
            all.push(format!("{theme} walk: {v}"));
        }
        click(&c, "#walk-reset").await;
        c.find(Locator::Css(".segmented button"))
            .await
            .expect("inspect")
            .click()
            .await
            .expect("click inspect");
    }
    // The other panels, the glossary and a phone's layout, in the light theme.
    c.execute(
        "const s = document.querySelector('#theme'); s.value = 'light'; s.dispatchEvent(new Event('change', {bubbles: true}));",
        vec![],
    )
    .await
    .expect("theme");
    for (what, tab) in [("steps", 2), ("examples", 3), ("export", 4)] {
        click(&c, &format!(".side-pane .tab:nth-child({tab})")).await;
        if what == "steps" {
            click(&c, ".step-list .step:nth-child(5) button").await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        for v in axe_violations(&c, &axe).await {
            all.push(format!("light {what}: {v}"));
        }
    }
    click(&c, ".legend .legend-glossary").await;
    for v in axe_violations(&c, &axe).await {
        all.push(format!("light glossary: {v}"));
    }
    click(&c, ".glossary-close").await;
    set_viewport_size(&c, 390, 844).await;
    for v in axe_violations(&c, &axe).await {
        all.push(format!("light phone: {v}"));
    }
    assert!(
        all.is_empty(),
        "{} violations:\n{}",
        all.len(),
        all.join("\n")
    );
}

/// Presses and releases `key` (a WebDriver key code such as '\u{E004}' for Tab) on whatever has
/// the focus, as a keyboard does.
async fn press(c: &Client, key: char) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    c.perform_actions(keys).await.expect("press a key");
}

const TAB: char = '\u{E004}';
const ENTER: char = '\u{E007}';
const ARROW_DOWN: char = '\u{E015}';

/// Presses Tab until the focused element matches `css` (at most `max` presses).
async fn tab_to(c: &Client, css: &str, max: usize) {
    let check = format!(
        "const a = document.activeElement; return !!a && a.matches({});",
        serde_json::to_string(css).expect("css")
    );
    for _ in 0..max {
        press(c, TAB).await;
        if js::<bool>(c, &check).await {
            return;
        }
    }
    let at: String = js(
        c,
        "const a = document.activeElement; return a ? a.outerHTML.slice(0, 120) : 'nothing';",
    )
    .await;
    panic!("{max} presses of Tab did not reach {css}; the focus is on {at}");
}

// Issue 14, item 5: "keyboard-only test: open an example, reach a vertex, open its details,
// start a walk", with real key presses and nothing else.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn the_keyboard_alone_opens_an_example_inspects_a_vertex_and_walks() {
    let (_base, _requests, _driver, c) = open_app().await;
    tab_to(&c, ".side-pane .tab:nth-child(3)", 80).await;
    press(&c, ENTER).await;
    tab_to(&c, ".gallery .example:nth-child(2) button", 20).await;
    let title = texts(&c, ".gallery .example:nth-child(2) .example-title").await;
    press(&c, ENTER).await;
    wait_count(&c, ".gallery .example.chosen:nth-child(2)", 1).await;
    // Into the graph: its one Tab stop, then the next vertex by arrow, then its details.
    tab_to(&c, ".graph-svg g.vertex", 120).await;
    press(&c, ARROW_DOWN).await;
    let name: String = js(
        &c,
        "return document.activeElement.getAttribute('data-name');",
    )
    .await;
    press(&c, ENTER).await;
    wait_texts(&c, ".detail-name", &[name.as_str()]).await;
    // The walk: Play from the keyboard.
    tab_to(&c, "#walk-play", 200).await;
    press(&c, ENTER).await;
    let mut ok = false;
    for _ in 0..50 {
        if js::<bool>(&c, "return document.querySelectorAll('.graph-svg g.vertex[data-state=\"running\"], .graph-svg g.vertex[data-state=\"done\"]').length > 0;").await {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ok, "the walk did not start ({title:?})");
    // Screen readers hear that it started (once, not every frame).
    let said: String = js(
        &c,
        "return document.querySelector('.walk-announce').textContent;",
    )
    .await;
    assert!(said.starts_with("Walk started"), "{said:?}");
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

/// Types `line` at the end of the editor's text, then waits until the app is settled (the edit
/// analysed and autosaved).
async fn append_line(c: &Client, line: &str) {
    let editor = c
        .find(Locator::Css("textarea#editor"))
        .await
        .expect("editor");
    c.execute(
        "const t = document.querySelector('textarea#editor'); t.focus(); t.setSelectionRange(t.value.length, t.value.length);",
        vec![],
    )
    .await
    .expect("caret at the end");
    editor.send_keys(line).await.expect("type");
    for _ in 0..200 {
        let settled: bool = serde_json::from_value(
            c.execute(
                "const a = document.querySelector('.app'); return !!a && a.getAttribute('data-settled') === 'true';",
                vec![],
            )
            .await
            .expect("settled"),
        )
        .unwrap_or(false);
        if settled {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The autosave runs as the files change; give its effect a frame.
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Polls until a notice contains `text` (the app updates asynchronously).
async fn wait_notice(c: &Client, text: &str) -> bool {
    for _ in 0..100 {
        if texts(c, ".notice").await.iter().any(|n| n.contains(text)) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
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

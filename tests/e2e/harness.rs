//! What the end-to-end tests share: serving dist/ (compressed, as a static host would; with a
//! switch that stops answering for the offline test), starting chromedriver and Chromium, and
//! reading and driving the page as a user would.

pub(crate) use crate::support;
pub(crate) use fantoccini::{Client, ClientBuilder, Locator};
pub(crate) use std::net::TcpListener;
pub(crate) use std::path::{Path, PathBuf};
pub(crate) use std::process::{Child, Command, Stdio};
pub(crate) use std::sync::{Arc, Mutex};
pub(crate) use std::time::Duration;

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Serves `dist/` on an ephemeral 127.0.0.1 port and logs every request path.
pub(crate) fn serve_dist(dist: &Path) -> (String, Arc<Mutex<Vec<String>>>) {
    let (addr, log, _) = serve_dist_holding_wasm(dist, false);
    (addr, log)
}

/// A gate that holds back answers until it is opened.
type Gate = Arc<(Mutex<bool>, std::sync::Condvar)>;

/// [`serve_dist`], answering requests for `.wasm` files only once the returned gate is opened
/// when `hold` is set (each request is answered on its own thread, so the rest of the page loads
/// meanwhile): what a slow network shows before the engine arrives.
pub(crate) fn serve_dist_holding_wasm(
    dist: &Path,
    hold: bool,
) -> (String, Arc<Mutex<Vec<String>>>, Gate) {
    let (addr, log, gate, _) = serve_dist_with_switch(dist, hold);
    (addr, log, gate)
}

/// [`serve_dist_holding_wasm`], with a switch that takes the server off the network: once it is
/// set, every request fails as it would without a network.
pub(crate) fn serve_dist_with_switch(
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
                        (gzipped(&file, &body), Some("gzip"))
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

/// chromedriver, the browser profile folder it was told to use, and its port. A killed
/// chromedriver leaves its browser running (a test that never closes its session left one headless
/// Chromium of 200 MB behind, nine a run of this suite) and the profile on disk (18 MB a test), so
/// it is asked to shut down first, which quits its browsers, and the profile is removed.
pub(crate) struct Driver(Child, PathBuf, u16);

impl Drop for Driver {
    fn drop(&mut self) {
        use std::io::{Read, Write};
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.2)) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = s.write_all(
                b"GET /shutdown HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            );
            let _ = s.read_to_end(&mut Vec::new());
        }
        for _ in 0..50 {
            if matches!(self.0.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
        // The browser may write a last file as it goes down.
        for _ in 0..10 {
            if std::fs::remove_dir_all(&self.1).is_ok() || !self.1.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub(crate) async fn start_browser() -> (Driver, Client) {
    start_browser_with("normal").await
}

/// [`start_browser`] with a WebDriver page load strategy: `none` returns from navigation at once,
/// without waiting for the load event.
pub(crate) async fn start_browser_with(page_load_strategy: &str) -> (Driver, Client) {
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
    // In the tests' scratch folder, so that a run that dies before dropping the driver leaves a
    // profile the next run removes.
    let profile = crate::support::scratch(&format!("e2e-profile-{port}"));
    let driver = Driver(child, profile.clone(), port);
    let mut caps: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        r#"{"goog:chromeOptions":{"args":["--headless=new","--no-sandbox","--disable-gpu","--disable-dev-shm-usage",
        "--disable-background-networking","--disable-component-update","--disable-sync","--no-first-run",
        "--window-size=1400,900"]}}"#,
    )
    .unwrap();
    caps["goog:chromeOptions"]["args"]
        .as_array_mut()
        .expect("the browser's arguments")
        .push(format!("--user-data-dir={}", profile.display()).into());
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
pub(crate) async fn open_app() -> (String, Arc<Mutex<Vec<String>>>, Driver, Client) {
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
pub(crate) async fn texts(c: &Client, css: &str) -> Vec<String> {
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
pub(crate) async fn wait_texts(c: &Client, css: &str, want: &[&str]) {
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

pub(crate) async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Polls until `css` matches `n` elements.
pub(crate) async fn wait_count(c: &Client, css: &str, n: usize) {
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
pub(crate) async fn frame_rate(c: &Client, ms: u32) -> f64 {
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
pub(crate) async fn set_viewport_size(c: &Client, w: u32, h: u32) {
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

pub(crate) async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    let dir = root().join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// Puts the example back (select all + type), so the small screenshot shows a normal state.
pub(crate) async fn editor_reset(c: &Client) {
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

/// Chooses `files` (path below the folder, bytes) as the folder `top` in the Folder button's
/// input, as the folder picker does (each File's `webkitRelativePath` set), in the bundle.
pub(crate) async fn open_folder(c: &Client, top: &str, files: &[(String, Vec<u8>)]) {
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
pub(crate) async fn wait_vertices(c: &Client, n: usize, secs: u64) -> usize {
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

/// Reads `script`'s JSON result as `T`.
pub(crate) async fn js<T: serde::de::DeserializeOwned>(c: &Client, script: &str) -> T {
    serde_json::from_value(c.execute(script, vec![]).await.expect(script)).expect(script)
}

/// The controls on screen smaller than a finger needs: buttons, selects and text fields under
/// 40 px tall (links in text 36 px), checkboxes under 24 px; as "class text: height".
pub(crate) async fn small_targets(c: &Client) -> Vec<String> {
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

/// axe-core's script, installed by `scripts/setup --browser` from npm (`npm root -g`).
pub(crate) fn axe_source() -> String {
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
pub(crate) async fn axe_violations(c: &Client, axe: &str) -> Vec<String> {
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

/// Presses and releases `key` (a WebDriver key code such as '\u{E004}' for Tab) on whatever has
/// the focus, as a keyboard does.
pub(crate) async fn press(c: &Client, key: char) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    c.perform_actions(keys).await.expect("press a key");
}

pub(crate) const TAB: char = '\u{E004}';

pub(crate) const ENTER: char = '\u{E007}';

pub(crate) const ARROW_DOWN: char = '\u{E015}';

/// Presses Tab until the focused element matches `css` (at most `max` presses).
pub(crate) async fn tab_to(c: &Client, css: &str, max: usize) {
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

/// Opens the Export tab and reads the DOT it shows.
pub(crate) async fn export_dot(c: &Client) -> String {
    click(c, ".tabs .tab:nth-child(4)").await;
    wait_count(c, "pre.export-dot", 1).await;
    c.find(Locator::Css("pre.export-dot"))
        .await
        .expect("dot")
        .prop("textContent")
        .await
        .expect("text")
        .unwrap_or_default()
}

/// Types `line` at the end of the editor's text, then waits until the app is settled (the edit
/// analysed and autosaved).
pub(crate) async fn append_line(c: &Client, line: &str) {
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
pub(crate) async fn wait_notice(c: &Client, text: &str) -> bool {
    for _ in 0..100 {
        if texts(c, ".notice").await.iter().any(|n| n.contains(text)) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// `body` (the contents of `file`) gzipped, compressed once per file version for the whole test
/// run: every test loads the bundle, and compressing the 2.5 MB wasm at the best level took
/// about a third of a second each time.
fn gzipped(file: &Path, body: &[u8]) -> Vec<u8> {
    use std::collections::HashMap;
    use std::io::Write as _;
    use std::sync::OnceLock;
    type Key = (PathBuf, Option<std::time::SystemTime>, usize);
    static CACHE: OnceLock<Mutex<HashMap<Key, Vec<u8>>>> = OnceLock::new();
    let modified = std::fs::metadata(file).and_then(|m| m.modified()).ok();
    let key = (file.to_path_buf(), modified, body.len());
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(z) = cache.lock().unwrap().get(&key) {
        return z.clone();
    }
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(body).expect("gzip");
    let z = z.finish().expect("gzip");
    cache.lock().unwrap().insert(key, z.clone());
    z
}

/// Saves `files` as the app's workspace and reloads the page, so that it opens them as a
/// returning user's saved work.
pub(crate) async fn save_and_reload(
    c: &Client,
    files: &std::collections::BTreeMap<String, String>,
) {
    let saved = serde_json::json!({"format": 2, "files": files}).to_string();
    c.execute(
        "localStorage.setItem('tfgraph.workspace', arguments[0]);",
        vec![saved.into()],
    )
    .await
    .expect("save");
    c.refresh().await.expect("reload");
}

/// Saves `files` as the app's workspace and reloads the page, so that it opens them as a
/// returning user's saved work; then expands every module (a configuration of more than
/// `COLLAPSE_ABOVE` vertices opens with its modules collapsed), so the whole graph is drawn.
/// Returns when the collapsed graph was shown, in ms after navigation start (the page's clock).
pub(crate) async fn reopen_with(
    c: &Client,
    files: &std::collections::BTreeMap<String, String>,
) -> f64 {
    save_and_reload(c, files).await;
    wait_collapsed(c, true).await
}

/// Waits until a large configuration has opened with its modules collapsed: "Expand all" is
/// offered and no build is under way. Returns that moment in ms after navigation start (the
/// page's clock, so that WebDriver's round trips do not count); with `expand`, clicks "Expand
/// all" in that same moment, else returns after the next frame.
pub(crate) async fn wait_collapsed(c: &Client, expand: bool) -> f64 {
    let at: f64 = serde_json::from_value(
        c.execute_async(
            r#"const [expand, done] = arguments;
            const t0 = performance.now();
            const poll = () => {
              const b = document.querySelector('#expand-all');
              if (b && !document.querySelector('.build-progress')) {
                const t = performance.now();
                if (expand) { b.click(); done(t); }
                else requestAnimationFrame(() => done(t));
              }
              else if (performance.now() - t0 > 180000) done(-1);
              else setTimeout(poll, 5);
            };
            poll();"#,
            vec![expand.into()],
        )
        .await
        .expect("opened, modules collapsed"),
    )
    .expect("number");
    assert!(
        at >= 0.0,
        "the large configuration opened with its modules collapsed"
    );
    at
}

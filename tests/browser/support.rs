//! What the component tests share: mounting the app, typing and clicking as a user does, waiting
//! for the page to settle (the app's `data-settled` attribute) instead of for a guessed delay, and
//! reading the DOM.

pub(crate) use crate::workdir;
pub(crate) use wasm_bindgen::JsCast;
pub(crate) use wasm_bindgen_test::*;
pub(crate) use web_sys::{Element, Event, EventInit, HtmlElement, HtmlTextAreaElement};

/// Lets Leptos' scheduled effects run (they are queued, not synchronous).
pub(crate) async fn settle() {
    for _ in 0..3 {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            let _ = web_sys::window()
                .expect("window")
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }
}

/// Mounts a fresh app in its own container, with no saved text.
pub(crate) async fn mount() -> Element {
    let host = fresh_host();
    let handle = leptos::mount::mount_to(
        host.clone().unchecked_into::<HtmlElement>(),
        tfgraph::app::App,
    );
    handle.forget();
    settle().await;
    settled(&host).await;
    host
}

/// An empty container appended to the page, with the origin's storage cleared: where a test
/// mounts a fresh app.
pub(crate) fn fresh_host() -> Element {
    let window = web_sys::window().expect("window");
    window
        .local_storage()
        .ok()
        .flatten()
        .expect("storage")
        .clear()
        .expect("clear");
    let doc = window.document().expect("document");
    let host = doc.create_element("div").expect("div");
    doc.body()
        .expect("body")
        .append_child(&host)
        .expect("append");
    host
}

/// The editor's textarea.
pub(crate) fn editor_textarea(host: &Element) -> HtmlTextAreaElement {
    host.query_selector("textarea#editor")
        .expect("query")
        .expect("editor present")
        .dyn_into()
        .expect("a textarea")
}

/// Sets the editor's text and sends the `input` event a keystroke sends, nothing awaited.
pub(crate) fn set_editor_text(host: &Element, text: &str) {
    let ta = editor_textarea(host);
    ta.set_value(text);
    let init = EventInit::new();
    init.set_bubbles(true);
    let ev = Event::new_with_event_init_dict("input", &init).expect("event");
    ta.dispatch_event(&ev).expect("dispatch");
}

pub(crate) async fn type_into_editor(host: &Element, text: &str) {
    set_editor_text(host, text);
    // As after a user's keystroke, a frame: the editor tells the rest of the page of keystrokes
    // once per frame (app/editor.rs).
    next_frame().await;
    settle().await;
}

/// Resolves at the next animation frame.
pub(crate) async fn next_frame() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .expect("window")
            .request_animation_frame(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

pub(crate) fn texts(host: &Element, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect()
}

/// Waits `ms` of real time (the graph is rebuilt 250 ms after typing stops).
pub(crate) async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    settle().await;
}

/// Types and waits for the debounced rebuild.
pub(crate) async fn type_and_build(host: &Element, text: &str) {
    type_into_editor(host, text).await;
    settled(host).await;
}

/// Waits until what the app draws is built from its files as they are now: no typing waiting for
/// the debounce, no file being read, no analysis under way (the app's `data-settled="true"`).
pub(crate) async fn settled(host: &Element) {
    // First let the event just sent reach the app's effects: until they run, `data-settled`
    // still reads `true` from the build before, and the check would pass on a stale drawing.
    settle().await;
    let is_settled = || {
        host.query_selector(".app")
            .ok()
            .flatten()
            .and_then(|a| a.get_attribute("data-settled"))
            .as_deref()
            == Some("true")
    };
    assert!(
        wait_until(60_000, is_settled).await,
        "the app did not settle within 60 s"
    );
    settle().await;
}

/// The `data-name` of every drawn vertex, sorted.
pub(crate) fn vertex_names(host: &Element) -> Vec<String> {
    let mut v = attrs(host, ".graph-svg g.vertex", "data-name");
    v.sort();
    v
}

pub(crate) fn attrs(host: &Element, selector: &str, attr: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .map(|e| e.get_attribute(attr).unwrap_or_default())
        .collect()
}

/// Dispatches a bubbling click (works on SVG elements too).
pub(crate) async fn click(el: &Element) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let ev = Event::new_with_event_init_dict("click", &init).expect("event");
    el.dispatch_event(&ev).expect("dispatch");
    settle().await;
}

/// A click with Shift held (in Walk mode: mark a vertex to fail).
pub(crate) async fn shift_click(el: &Element) {
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_shift_key(true);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).expect("event");
    el.dispatch_event(&ev).expect("dispatch");
    settle().await;
}

pub(crate) async fn click_on(host: &Element, selector: &str) {
    let el = host
        .query_selector(selector)
        .expect("query")
        .unwrap_or_else(|| panic!("{selector} present"));
    click(&el).await;
}

/// Where a drawn vertex is: its shape's box (`x,y wxh`). A vertex's parts are placed one by
/// one (no transform moves the group), so this also checks that its group has no transform and
/// that its label is at the shape's centre, wherever the last layout or move put it.
pub(crate) fn place(vertex: &Element) -> String {
    assert_eq!(
        vertex.get_attribute("transform"),
        None,
        "a vertex is not moved by a transform"
    );
    let shape = vertex.query_selector(".shape").unwrap().expect("a shape");
    let num = |e: &Element, a: &str| -> f64 {
        e.get_attribute(a)
            .unwrap_or_else(|| panic!("{a} of {}", e.outer_html()))
            .parse()
            .unwrap_or_else(|_| panic!("{a} of {} a number", e.outer_html()))
    };
    let (x0, y0, x1, y1) = if shape.tag_name() == "polygon" {
        let points: Vec<(f64, f64)> = shape
            .get_attribute("points")
            .expect("points")
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect();
        let xs = points.iter().map(|p| p.0);
        let ys = points.iter().map(|p| p.1);
        (
            xs.clone().fold(f64::INFINITY, f64::min),
            ys.clone().fold(f64::INFINITY, f64::min),
            xs.fold(f64::NEG_INFINITY, f64::max),
            ys.fold(f64::NEG_INFINITY, f64::max),
        )
    } else {
        let (x, y) = (num(&shape, "x"), num(&shape, "y"));
        (x, y, x + num(&shape, "width"), y + num(&shape, "height"))
    };
    let label = vertex.query_selector(".label").unwrap().expect("a label");
    let centre = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    assert!(
        (num(&label, "x") - centre.0).abs() < 0.11 && (num(&label, "y") - centre.1).abs() < 0.11,
        "label at the shape's centre {centre:?}: {}",
        vertex.outer_html()
    );
    format!("{x0:.1},{y0:.1} {:.1}x{:.1}", x1 - x0, y1 - y0)
}

pub(crate) fn vertex(host: &Element, name: &str) -> Element {
    let list = host
        .query_selector_all(".graph-svg g.vertex")
        .expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .find(|e| e.get_attribute("data-name").as_deref() == Some(name))
        .unwrap_or_else(|| panic!("vertex {name} drawn; have {:?}", vertex_names(host)))
}

pub(crate) fn state_of(host: &Element, name: &str) -> String {
    vertex(host, name)
        .get_attribute("data-state")
        .unwrap_or_default()
}

/// Steps the walk one event at a time until it reports a makespan (at most `max` steps).
pub(crate) async fn step_walk_to_end(host: &Element, max: usize) {
    for _ in 0..max {
        if texts(host, ".walk-status")
            .first()
            .is_some_and(|s| s.contains("makespan"))
        {
            return;
        }
        click_on(host, "#walk-step").await;
    }
    panic!("walk did not finish: {:?}", texts(host, ".walk-status"));
}

pub(crate) const CHAIN: &str = "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\nresource \"aws_instance\" \"c\" {\n  subnet_id = aws_subnet.b.id\n}\n";
pub(crate) const AWS: &str = "provider[\"registry.opentofu.org/hashicorp/aws\"]";

/// Mounts an app over whatever localStorage holds now (unlike `mount`, which clears it).
pub(crate) async fn mount_keeping_storage() -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&host).unwrap();
    leptos::mount::mount_to(
        host.clone().unchecked_into::<HtmlElement>(),
        tfgraph::app::App,
    )
    .forget();
    settle().await;
    host
}

pub(crate) fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Waits (up to `max_ms`) until `ready` holds, checking every 20 ms; returns whether it did.
pub(crate) async fn wait_until(max_ms: i32, mut ready: impl FnMut() -> bool) -> bool {
    let mut waited = 0;
    while waited < max_ms {
        if ready() {
            return true;
        }
        sleep(20).await;
        waited += 20;
    }
    ready()
}

/// A configuration above the app's slicing threshold (256 KB) that stays cheap to build: a long
/// comment, then two resources.
pub(crate) fn large_config(tag: &str) -> String {
    let mut text = String::with_capacity(300_000);
    for i in 0..5_000 {
        text.push_str(&format!(
            "# padding line {i:05} of a long comment, to make the input large\n"
        ));
    }
    text.push_str(&format!(
        "resource \"null_resource\" \"{tag}_a\" {{}}\nresource \"null_resource\" \"{tag}_b\" {{\n  triggers = {{ a = null_resource.{tag}_a.id }}\n}}\n"
    ));
    assert!(text.len() > 256 * 1024);
    text
}

/// Script-injection payloads (issue #7). Each calls `window.__pwn()` if it ever runs.
pub(crate) const PAYLOADS: &[&str] = &[
    "<script>__pwn()</script>",
    "<img src=x onerror=__pwn()>",
    "<svg onload=__pwn()>",
    "\"><img src=x onerror=__pwn()>",
    "'><svg/onload=__pwn()>",
    "</textarea><img src=x onerror=__pwn()>",
    "</title><script>__pwn()</script>",
    "<iframe srcdoc=\"<script>parent.__pwn()</script>\"></iframe>",
    "<a href=\"javascript:__pwn()\">x</a>",
    "javascript:__pwn()",
    "<details open ontoggle=__pwn()>",
    "<body onload=__pwn()>",
    "<input autofocus onfocus=__pwn()>",
    "<video><source onerror=__pwn()></video>",
    "<object data=\"javascript:__pwn()\"></object>",
    "<embed src=\"javascript:__pwn()\">",
    "<svg><animate onbegin=__pwn() attributeName=x dur=1s></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=__pwn()>",
    "<!--><img src=x onerror=__pwn()>-->",
    "<style>*{background:url(javascript:__pwn())}</style>",
    "<marquee onstart=__pwn()>x</marquee>",
    "]]><img src=x onerror=__pwn()>",
    "&lt;img src=x onerror=__pwn()&gt;",
    "<img src=x onerror=&#95;&#95;pwn()>",
];

/// The payload as an HCL quoted string's content.
pub(crate) fn hcl_escape(p: &str) -> String {
    p.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace("${", "$${")
        .replace("%{", "%%{")
}

pub(crate) fn pwn_count() -> f64 {
    js_sys::Reflect::get(
        &web_sys::window().unwrap(),
        &wasm_bindgen::JsValue::from_str("__pwnCount"),
    )
    .ok()
    .and_then(|v| v.as_f64())
    .unwrap_or(-1.0)
}

/// Installs the execution-counting hook: every payload above calls `__pwn()`.
pub(crate) fn install_pwn_hook() {
    let w = web_sys::window().unwrap();
    let f = js_sys::Function::new_no_args("window.__pwnCount = (window.__pwnCount || 0) + 1;");
    js_sys::Reflect::set(&w, &"__pwn".into(), &f).unwrap();
    js_sys::Reflect::set(&w, &"__pwnCount".into(), &0.into()).unwrap();
}

/// Elements a payload would have created, and any `on…` attribute, inside the app.
pub(crate) fn injected_elements(host: &Element) -> Vec<String> {
    let mut found = Vec::new();
    let all = host.query_selector_all("*").unwrap();
    for i in 0..all.length() {
        let e: Element = all.item(i).unwrap().unchecked_into();
        let tag = e.tag_name().to_lowercase();
        if matches!(
            tag.as_str(),
            "script"
                | "iframe"
                | "object"
                | "embed"
                | "img"
                | "video"
                | "source"
                | "style"
                | "marquee"
                | "details"
                | "math"
                | "animate"
                | "body"
        ) {
            found.push(tag.clone());
        }
        let names = e.get_attribute_names();
        for j in 0..names.length() {
            let n = names.get(j).as_string().unwrap_or_default();
            let v = e.get_attribute(&n).unwrap_or_default();
            // Event handlers anywhere; script URLs only where the browser would follow them (a
            // data-* attribute holding the text is inert).
            let url_attr = matches!(
                n.as_str(),
                "href" | "xlink:href" | "src" | "srcdoc" | "action" | "formaction" | "data"
            );
            if n.starts_with("on") || url_attr && v.to_lowercase().contains("javascript:") {
                found.push(format!("{tag}[{n}={v}]"));
            }
        }
    }
    found
}

/// Switches the editor to `file`'s tab and sets its text.
pub(crate) async fn type_into_editor_file(host: &Element, file: &str, text: &str) {
    let tabs = host.query_selector_all(".file-tab").unwrap();
    for i in 0..tabs.length() {
        let t: Element = tabs.item(i).unwrap().unchecked_into();
        if t.text_content().unwrap_or_default().trim() == file {
            click(&t).await;
        }
    }
    type_into_editor(host, text).await;
}

/// The makespan the walk bar reports, in seconds.
pub(crate) fn makespan(host: &Element) -> f64 {
    let status = texts(host, ".walk-status")[0].clone();
    status
        .split(" · ")
        .find_map(|p| p.strip_prefix("makespan "))
        .and_then(|p| p.strip_suffix(" s"))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no makespan in {status:?}"))
}

pub(crate) async fn dispatch(el: &Element, kind: &str) {
    el.dispatch_event(&Event::new(kind).expect("event"))
        .expect("dispatch");
    settle().await;
}

pub(crate) fn gantt_rows(host: &Element, vertex: &str) -> Vec<Element> {
    let list = host.query_selector_all(".gantt .g-row").expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .filter(|e| e.get_attribute("data-vertex").as_deref() == Some(vertex))
        .collect()
}

pub(crate) fn has_class(el: &Element, class: &str) -> bool {
    el.class_list().contains(class)
}

pub(crate) use std::collections::{BTreeMap, BTreeSet};
pub(crate) use tfgraph::builder::BuilderKind;
pub(crate) use tfgraph::dag::{Graph, VertexId, WalkOrder};
pub(crate) use tfgraph::pipeline::{Request, run};

/// Runs the engine on `main.tf` = `text` (plan): the built graph and its recorded steps.
pub(crate) fn engine(text: &str) -> (Graph<String>, Vec<tfgraph::builder::Step>) {
    let files = BTreeMap::from([("main.tf".to_string(), text.to_string())]);
    let out = run(&Request::new(files, BuilderKind::Plan))
        .unwrap_or_else(|d| panic!("engine failed: {d:?}"));
    let dag = out.built.graph.dag();
    let mut g = Graph::new();
    let ids: BTreeMap<VertexId, VertexId> = dag
        .iter()
        .map(|(id, v)| (id, g.add(tfgraph::dag::Vertex::name(v))))
        .collect();
    for (a, b) in dag.edges() {
        g.connect(ids[&a], ids[&b]);
    }
    (g, out.built.steps)
}

/// Drawn edges as (dependent, dependency) names; `extra` narrows the selector (`.reduced`).
pub(crate) fn drawn_edges(host: &Element, extra: &str) -> BTreeSet<(String, String)> {
    let sel = format!(".graph-svg path.edge{extra}");
    attrs(host, &sel, "data-dependent")
        .into_iter()
        .zip(attrs(host, &sel, "data-dependency"))
        .collect()
}

/// Clicks a checkbox like a user (toggles it and fires `change`).
pub(crate) async fn toggle(host: &Element, selector: &str) {
    let el: HtmlElement = host
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} present"))
        .dyn_into()
        .unwrap();
    el.click();
    settle().await;
}

pub(crate) async fn choose(host: &Element, selector: &str, value: &str) {
    let sel: web_sys::HtmlSelectElement = host
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} present"))
        .dyn_into()
        .unwrap();
    sel.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    sel.dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
    settle().await;
}

/// Overlay badges: vertex name → number text.
pub(crate) fn badges(host: &Element, class: &str) -> BTreeMap<String, String> {
    let sel = format!(".graph-svg .badge.{class}");
    attrs(host, &sel, "data-name")
        .into_iter()
        .zip(attrs(host, &sel, "data-number"))
        .collect()
}

/// CHAIN, with the instance also referring to the VPC directly: c -> a is implied by c -> b -> a.
pub(crate) const REDUNDANT: &str = "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\nresource \"aws_instance\" \"c\" {\n  subnet_id = aws_subnet.b.id\n  vpc = aws_vpc.a.id\n}\n";

/// Visit numbers shown by the DFS/BFS overlay, as names in visiting order.
pub(crate) fn visit_order(host: &Element) -> Vec<String> {
    let mut v: Vec<(usize, String)> = badges(host, "visit")
        .into_iter()
        .map(|(n, k)| (k.parse().expect("a number"), n))
        .collect();
    v.sort();
    v.into_iter().map(|(_, n)| n).collect()
}

pub(crate) fn editor_value(host: &Element) -> String {
    host.query_selector("textarea#editor")
        .expect("query")
        .expect("editor")
        .dyn_into::<HtmlTextAreaElement>()
        .expect("textarea")
        .value()
}

pub(crate) fn file(name: &str, text: &str) -> web_sys::File {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    web_sys::File::new_with_str_sequence(&parts, name).expect("file")
}

pub(crate) fn transfer(files: &[web_sys::File]) -> web_sys::DataTransfer {
    let dt = web_sys::DataTransfer::new().expect("data transfer");
    for f in files {
        dt.items().add_with_file(f).expect("add file");
    }
    dt
}

/// Chooses files in the Open button's file input, as the file picker does.
pub(crate) async fn open_files(host: &Element, files: &[web_sys::File]) {
    let input: web_sys::HtmlInputElement = host
        .query_selector("#open-files-input")
        .expect("query")
        .expect("file input")
        .dyn_into()
        .expect("input");
    input.set_files(transfer(files).files().as_ref());
    let init = EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
    // Reading files is asynchronous.
    settled(host).await;
}

/// Drops files on the app, as a drag from the desktop does.
pub(crate) async fn drop_files(host: &Element, files: &[web_sys::File]) {
    let init = web_sys::DragEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_data_transfer(Some(&transfer(files)));
    let ev = web_sys::DragEvent::new_with_event_init_dict("drop", &init).expect("drop event");
    host.dispatch_event(&ev).expect("dispatch");
    settled(host).await;
}

pub(crate) const ORPHAN_STATE: &str = r#"{"version": 4, "terraform_version": "1.12.6", "serial": 1, "lineage": "t", "outputs": {},
 "resources": [{"mode": "managed", "type": "aws_instance", "name": "gone",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
   "instances": [{"schema_version": 0, "attributes": {"id": "i-0"}}]}]}"#;

/// The direct dependencies of a vertex as `tofu graph` prints them (after transitive
/// reduction), from its details.
pub(crate) async fn deps_of(host: &Element, name: &str) -> Vec<String> {
    click(&vertex(host, name)).await;
    texts(host, ".vertex-links.deps li:not(.reduced) .vertex-link")
}

/// Replaces `window.prompt` and `window.confirm` with ones that answer `answer` / true.
pub(crate) fn stub_dialogs(answer: &str) {
    let w = web_sys::window().expect("window");
    let p = js_sys::Function::new_no_args(&format!("return {};", serde_json::json!(answer)));
    js_sys::Reflect::set(&w, &"prompt".into(), &p).expect("prompt");
    let c = js_sys::Function::new_no_args("return true;");
    js_sys::Reflect::set(&w, &"confirm".into(), &c).expect("confirm");
}

/// The payload as a DOT quoted id's content.
pub(crate) fn dot_escape(p: &str) -> String {
    p.replace('\\', "\\\\").replace('"', "\\\"")
}

pub(crate) fn set_hash(hash: &str) {
    web_sys::window()
        .unwrap()
        .location()
        .set_hash(hash)
        .unwrap();
}

/// Moves the -parallelism slider as a user would (an input event on the range input).
pub(crate) async fn set_parallelism(host: &Element, value: &str) {
    let slider: web_sys::HtmlInputElement = host
        .query_selector(".parallelism input")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    slider.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    slider
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    settle().await;
}

/// terraform-aws-vpc as published (`../shared/realworld`), compiled in: the browser reads no disk.
pub(crate) static VPC_REPO: include_dir::Dir =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../shared/realworld/terraform-aws-vpc");

/// Every file of an included folder as (path relative to it, bytes).
pub(crate) fn included_files(dir: &include_dir::Dir, out: &mut Vec<(String, Vec<u8>)>) {
    for e in dir.entries() {
        match e {
            include_dir::DirEntry::Dir(d) => included_files(d, out),
            include_dir::DirEntry::File(f) => out.push((
                f.path().to_string_lossy().replace('\\', "/"),
                f.contents().to_vec(),
            )),
        }
    }
}

/// Chooses a whole folder in the Folder button's file input, as the folder picker does: each
/// file carries its path below the chosen folder `top` in `webkitRelativePath`.
pub(crate) async fn open_folder(host: &Element, top: &str, files: &[(String, Vec<u8>)]) {
    let list: Vec<web_sys::File> = files
        .iter()
        .map(|(p, bytes)| {
            let name = p.rsplit('/').next().unwrap_or(p);
            let data = js_sys::Uint8Array::from(bytes.as_slice());
            let f = web_sys::File::new_with_u8_array_sequence(&js_sys::Array::of1(&data), name)
                .expect("file");
            let desc = js_sys::Object::new();
            js_sys::Reflect::set(&desc, &"value".into(), &format!("{top}/{p}").into()).unwrap();
            let obj: &js_sys::Object = f.unchecked_ref();
            js_sys::Object::define_property(obj, &"webkitRelativePath".into(), &desc);
            f
        })
        .collect();
    let input: web_sys::HtmlInputElement = host
        .query_selector("#open-folder-input")
        .expect("query")
        .expect("folder input")
        .dyn_into()
        .expect("input");
    input.set_files(transfer(&list).files().as_ref());
    let init = EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
    settled(host).await;
}

pub(crate) fn text_files(files: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
        .collect()
}

/// The makespan the walk bar reports, in seconds.
/// The makespan the library computes for `text` as the page builds it (plan graph, the walk's
/// default seed and jitter) at `-parallelism p`, with `durations` set on vertices: what the page
/// must show.
pub(crate) fn library_makespan(text: &str, p: usize, durations: &[(&str, f64)]) -> f64 {
    use tfgraph::page::analysis::{Options, analyze};
    use tfgraph::page::walk::{Setup, makespans};
    let files = std::collections::BTreeMap::from([("main.tf".to_string(), text.to_string())]);
    let a = analyze(
        &files,
        tfgraph::builder::BuilderKind::Plan,
        &Options::default(),
    );
    let setup = Setup {
        expander: a.expander.as_ref().map(|e| e.expander.clone()),
        durations: durations.iter().map(|(n, s)| (n.to_string(), *s)).collect(),
        ..Setup::default()
    };
    makespans(a.graph.as_ref().expect("built"), &setup, &[p])[0].1
}

pub(crate) fn chart_label(m: f64, p: usize) -> Vec<String> {
    vec![format!("makespan {m:.1} s at {p}")]
}

/// Puts the app's stylesheet (`style/main.css`) in the page, for a test of what the layout does
/// (the component tests otherwise run unstyled); remove the element at the end of the test.
pub(crate) fn app_stylesheet() -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let style = doc.create_element("style").unwrap();
    style.set_text_content(Some(include_str!("../../style/main.css")));
    doc.head().unwrap().append_child(&style).unwrap();
    style
}

/// Types `text` into the input at `selector` (an `input` event, as typing sends).
pub(crate) async fn type_into(host: &Element, selector: &str, text: &str) {
    let input: web_sys::HtmlInputElement = host
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} present"))
        .dyn_into()
        .unwrap();
    input.set_value(text);
    let init = EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    settle().await;
}

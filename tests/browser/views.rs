//! Graph views (reduction, collapsed modules, resources only) and algorithm overlays.

use crate::support::*;

#[wasm_bindgen_test]
async fn reduction_off_draws_exactly_the_removed_edges_dashed() {
    let host = mount().await;
    type_and_build(&host, REDUNDANT).await;
    let (g, steps) = engine(REDUNDANT);
    let final_edges: BTreeSet<(String, String)> = g
        .edges()
        .into_iter()
        .map(|(a, b)| (g.name_of(a), g.name_of(b)))
        .collect();
    let removed: BTreeSet<(String, String)> = steps
        .iter()
        .filter(|s| s.name == "TransitiveReductionTransformer")
        .flat_map(|s| s.removed_edges.iter())
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .filter(|e| !final_edges.contains(e))
        .collect();
    assert!(
        removed.contains(&(
            "aws_instance.c (expand)".to_string(),
            "aws_vpc.a (expand)".to_string()
        )),
        "{removed:?}"
    );
    // On (the default): as tofu graph prints it, with the count of what it removed.
    assert_eq!(drawn_edges(&host, ""), final_edges);
    assert!(drawn_edges(&host, ".reduced").is_empty());
    assert_eq!(
        texts(&host, ".reduced-label"),
        vec![format!("Transitive reduction ({} removed)", removed.len())]
    );
    // Off: exactly the removed edges come back, dashed; the others stay solid.
    toggle(&host, "#view-reduce").await;
    assert_eq!(drawn_edges(&host, ".reduced"), removed);
    assert_eq!(drawn_edges(&host, ":not(.reduced)"), final_edges);
    toggle(&host, "#view-reduce").await;
    assert!(drawn_edges(&host, ".reduced").is_empty());
    host.remove();
}

#[wasm_bindgen_test]
async fn collapsing_a_module_merges_it_into_one_vertex_until_expanded() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    settled(&host).await;
    let before = vertex_names(&host);
    let before_edges = drawn_edges(&host, "");
    let inside: BTreeSet<String> = before
        .iter()
        .filter(|n| n.starts_with("module.net.") || n.starts_with("module.net "))
        .cloned()
        .collect();
    assert!(inside.len() >= 3, "{before:?}");
    click_on(&host, ".cluster[data-path=\"module.net\"] .cluster-header").await;
    let collapsed = format!("module.net (collapsed: {})", inside.len());
    let after = vertex_names(&host);
    let mut want: Vec<String> = before
        .iter()
        .filter(|n| !inside.contains(*n))
        .cloned()
        .chain([collapsed.clone()])
        .collect();
    want.sort();
    assert_eq!(after, want);
    assert!(texts(&host, ".graph-svg .cluster-title").is_empty());
    // Edges in and out of the module now end at the collapsed vertex.
    let rep = |n: &String| {
        if inside.contains(n) {
            collapsed.clone()
        } else {
            n.clone()
        }
    };
    let want_edges: BTreeSet<(String, String)> = before_edges
        .iter()
        .map(|(a, b)| (rep(a), rep(b)))
        .filter(|(a, b)| a != b)
        .collect();
    assert!(want_edges.iter().any(|(a, _)| a == &collapsed));
    assert!(want_edges.iter().any(|(_, b)| b == &collapsed));
    assert_eq!(drawn_edges(&host, ""), want_edges);
    assert!(texts(&host, ".graph-counts")[0].contains(&format!("{} hidden", inside.len())));
    // The module stays collapsed while the configuration changes.
    let ta = editor_textarea(&host);
    let text = format!("{}\nvariable \"extra\" {{}}\n", ta.value());
    type_and_build(&host, &text).await;
    let names = vertex_names(&host);
    assert!(
        names.iter().any(|n| n.starts_with("var.extra")),
        "{names:?}"
    );
    assert!(names.contains(&collapsed), "{names:?}");
    // Clicking the collapsed vertex opens the module again.
    click(&vertex(&host, &collapsed)).await;
    let mut reopened = vertex_names(&host);
    reopened.retain(|n| !n.starts_with("var.extra"));
    assert_eq!(reopened, before);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_resource_only_view_joins_resources_through_hidden_vertices() {
    let host = mount().await;
    let text = "variable \"n\" {}\nresource \"aws_vpc\" \"a\" {\n  cidr = var.n\n}\nlocals {\n  id = aws_vpc.a.id\n}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = local.id\n}\ndata \"aws_ami\" \"d\" {}\nresource \"aws_instance\" \"c\" {\n  subnet_id = aws_subnet.b.id\n  ami = data.aws_ami.d.id\n  x = aws_vpc.a.id\n}\n";
    type_and_build(&host, text).await;
    let has_local = |h: &Element| vertex_names(h).iter().any(|n| n.starts_with("local.id"));
    assert!(has_local(&host));
    toggle(&host, "#view-resources").await;
    let (a, b, c, d) = (
        "aws_vpc.a (expand)",
        "aws_subnet.b (expand)",
        "aws_instance.c (expand)",
        "data.aws_ami.d (expand)",
    );
    let mut want = vec![a, b, c, d];
    want.sort();
    assert_eq!(vertex_names(&host), want);
    let e = |x: &str, y: &str| (x.to_string(), y.to_string());
    // b reaches a through local.id; c -> a is implied by c -> b -> a and reduced away.
    assert_eq!(
        drawn_edges(&host, ""),
        BTreeSet::from([e(b, a), e(c, b), e(c, d)])
    );
    toggle(&host, "#view-reduce").await;
    assert_eq!(drawn_edges(&host, ".reduced"), BTreeSet::from([e(c, a)]));
    toggle(&host, "#view-reduce").await;
    toggle(&host, "#view-resources").await;
    assert!(has_local(&host));
    host.remove();
}

#[wasm_bindgen_test]
async fn topological_numbers_respect_every_drawn_edge() {
    let host = mount().await;
    // The preloaded example: a variable, provider, data source, two resources and an output.
    let names = vertex_names(&host);
    assert!(names.len() >= 8, "{names:?}");
    choose(&host, "#overlay", "topo").await;
    let numbers: BTreeMap<String, usize> = badges(&host, "topo")
        .into_iter()
        .map(|(n, k)| (n, k.parse().expect("a number")))
        .collect();
    assert_eq!(numbers.keys().cloned().collect::<Vec<_>>(), names);
    let mut seen: Vec<usize> = numbers.values().copied().collect();
    seen.sort();
    assert_eq!(seen, (1..=names.len()).collect::<Vec<_>>());
    let edges = drawn_edges(&host, "");
    assert!(edges.len() >= names.len() - 1);
    for (dependent, dependency) in &edges {
        // Drawn from the dependency to the dependent: numbers grow along every arrow.
        assert!(
            numbers[dependency] < numbers[dependent],
            "{dependency} ({}) -> {dependent} ({})",
            numbers[dependency],
            numbers[dependent]
        );
    }
    choose(&host, "#overlay", "none").await;
    assert!(badges(&host, "topo").is_empty());
    host.remove();
}

#[wasm_bindgen_test]
async fn dfs_and_bfs_overlays_visit_in_the_engines_order() {
    let host = mount().await;
    type_and_build(&host, REDUNDANT).await;
    let (g, _) = engine(REDUNDANT);
    let roots: Vec<VertexId> = g
        .ids()
        .filter(|id| g.dependents(*id).next().is_none())
        .collect();
    for (value, order) in [
        ("dfs", WalkOrder::DEPTH_FIRST_DOWN),
        ("bfs", WalkOrder::BREADTH_FIRST_DOWN),
    ] {
        choose(&host, "#overlay", value).await;
        let t = g.walk_trace(order, roots.iter().copied(), usize::MAX);
        let want: Vec<String> = t.visits.iter().map(|(v, _)| g.name_of(*v)).collect();
        assert!(
            visit_order(&host).is_empty(),
            "nothing visited before the first step"
        );
        click_on(&host, "#overlay-step").await;
        assert_eq!(visit_order(&host), want[..1].to_vec());
        let frontier: BTreeSet<String> = t.frontiers[1].iter().map(|v| g.name_of(*v)).collect();
        let drawn: BTreeSet<String> = attrs(&host, ".graph-svg .frontier", "data-name")
            .into_iter()
            .collect();
        assert_eq!(drawn, frontier, "{value} frontier after one step");
        for _ in 0..want.len() + 2 {
            click_on(&host, "#overlay-step").await;
        }
        assert_eq!(visit_order(&host), want, "{value}");
        assert!(attrs(&host, ".graph-svg .frontier", "data-name").is_empty());
    }
    // From a selected vertex: breadth-first from the subnet reaches only what it depends on.
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    click_on(&host, "#overlay-end").await;
    let b = g.find_by_name("aws_subnet.b (expand)").unwrap();
    let mut want = Vec::new();
    let _ = g.breadth_first_walk([b], |v, _| {
        want.push(g.name_of(v));
        Ok::<(), ()>(())
    });
    assert_eq!(visit_order(&host), want);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_cycle_example_outlines_its_strongly_connected_component() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=cycle] button").await;
    settled(&host).await;
    choose(&host, "#overlay", "scc").await;
    let hulls = attrs(&host, ".graph-svg .scc-hull", "data-members");
    assert_eq!(hulls.len(), 1, "{hulls:?}");
    let members: Vec<&str> = hulls[0].lines().collect();
    assert!(
        members
            .iter()
            .any(|m| m.starts_with("aws_security_group.a"))
            && members
                .iter()
                .any(|m| m.starts_with("aws_security_group.b")),
        "{members:?}"
    );
    // Its members share one component number; every other vertex is a component of its own.
    let comps = badges(&host, "scc");
    let big: BTreeSet<&String> = members
        .iter()
        .map(|m| comps.get(*m).expect("numbered"))
        .collect();
    assert_eq!(big.len(), 1);
    let all: BTreeSet<&String> = comps.values().collect();
    assert_eq!(all.len(), comps.len() - members.len() + 1);
    // The topological order does not exist here, and says why.
    choose(&host, "#overlay", "topo").await;
    assert!(badges(&host, "topo").is_empty());
    assert!(texts(&host, ".overlay-note")[0].contains("cycle"));
    choose(&host, "#overlay", "none").await;
    host.remove();
}

// Issue 18, defect 10: "Resources only" on many unrelated resources drew one row too wide for
// Fit, which stopped at 15%.
#[wasm_bindgen_test]
async fn resources_only_on_many_unrelated_resources_fits_the_canvas_legibly() {
    let host = mount().await;
    let config: String = (0..60)
        .map(|i| format!("resource \"aws_s3_bucket\" \"bucket_number_{i}\" {{}}\n"))
        .collect();
    type_and_build(&host, &config).await;
    toggle(&host, "#view-resources").await;
    settled(&host).await;
    assert_eq!(vertex_names(&host).len(), 60);
    // A laptop's graph pane: the headless window leaves the graph a strip 175 px tall.
    let style = |selector: &str, props: &[(&str, &str)]| {
        let el = host
            .query_selector(selector)
            .unwrap()
            .expect(selector)
            .dyn_into::<HtmlElement>()
            .unwrap();
        for (k, v) in props {
            el.style().set_property(k, v).unwrap();
        }
    };
    style(".app", &[("width", "1280px")]);
    style(".graph-canvas", &[("flex", "none"), ("height", "760px")]);
    click_on(&host, "button[title=\"Fit the graph\"]").await;
    let canvas = host
        .query_selector(".graph-canvas")
        .unwrap()
        .expect("canvas");
    // The drawing's box: every vertex and edge as drawn on screen.
    let drawing = || {
        let list = host
            .query_selector_all(".graph-svg g.vertex, .graph-svg path.edge")
            .unwrap();
        let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for i in 0..list.length() {
            let r = list
                .item(i)
                .unwrap()
                .dyn_into::<Element>()
                .unwrap()
                .get_bounding_client_rect();
            b = (
                b.0.min(r.left()),
                b.1.min(r.top()),
                b.2.max(r.right()),
                b.3.max(r.bottom()),
            );
        }
        b
    };
    let fits = || {
        let (c, d) = (canvas.get_bounding_client_rect(), drawing());
        d.0 >= c.left() - 0.5
            && d.2 <= c.right() + 0.5
            && d.1 >= c.top() - 0.5
            && d.3 <= c.bottom() + 0.5
    };
    let fitted = wait_until(2_000, fits).await;
    let (c, d) = (canvas.get_bounding_client_rect(), drawing());
    let what = format!(
        "drawing from ({:.0}, {:.0}) to ({:.0}, {:.0}) in canvas from ({:.0}, {:.0}) to ({:.0}, {:.0})",
        d.0,
        d.1,
        d.2,
        d.3,
        c.left(),
        c.top(),
        c.right(),
        c.bottom()
    );
    assert!(fitted, "{what}");
    // Labels stay readable: a vertex box (31 px tall at 100%) is drawn at least 15 px tall.
    let h = vertex(&host, "aws_s3_bucket.bucket_number_0 (expand)")
        .get_bounding_client_rect()
        .height();
    assert!(h >= 15.0, "a vertex is {h:.1} px tall; {what}");
    host.remove();
}

// Issue 16, item 5: "above a threshold, modules start collapsed". Opening a configuration of
// more than `COLLAPSE_ABOVE` vertices collapses its top-level modules; the user's choice then
// holds through edits, and a small configuration opened next starts expanded.
#[wasm_bindgen_test]
async fn a_large_configuration_opens_with_its_modules_collapsed() {
    let host = mount().await;
    let generated = tfgraph::generator::generate(&tfgraph::generator::GenOptions {
        resources: 1_000,
        modules: 4,
        seed: 1,
    });
    let files: Vec<(String, Vec<u8>)> = generated
        .iter()
        .map(|(p, t)| (p.clone(), t.clone().into_bytes()))
        .collect();
    open_folder(&host, "gen", &files).await;
    let collapsed = |host: &Element| {
        vertex_names(host)
            .into_iter()
            .filter(|n| n.contains("(collapsed: "))
            .count()
    };
    let modules = generated
        .keys()
        .filter_map(|p| p.strip_prefix("modules/"))
        .filter_map(|p| p.split('/').next())
        .collect::<BTreeSet<_>>()
        .len();
    assert!(modules > 0, "the generated configuration has modules");
    assert!(collapsed(&host) > 0, "modules start collapsed");
    let few = vertex_names(&host).len();
    assert!(
        few < tfgraph::page::view::COLLAPSE_ABOVE,
        "{few} vertices drawn"
    );
    // Expanded by the user, they stay expanded through an edit.
    click_on(&host, "#expand-all").await;
    settled(&host).await;
    let all = vertex_names(&host).len();
    assert!(
        all > tfgraph::page::view::COLLAPSE_ABOVE,
        "{all} vertices drawn"
    );
    assert_eq!(collapsed(&host), 0);
    type_into_editor(&host, &format!("{}\n# an edit\n", editor_value(&host))).await;
    settled(&host).await;
    assert_eq!(collapsed(&host), 0, "an edit keeps the user's choice");
    // A small configuration opened next starts expanded.
    open_folder(
        &host,
        "small",
        &text_files(&[
            ("main.tf", "module \"m\" {\n  source = \"./m\"\n}\n"),
            ("m/main.tf", "resource \"null_resource\" \"x\" {}\n"),
        ]),
    )
    .await;
    assert_eq!(collapsed(&host), 0);
    assert!(vertex_names(&host).contains(&"module.m.null_resource.x (expand)".to_string()));
    host.remove();
}

// Issue 14: the page mounts in three tasks (the frame and the graph, the editor, the panels),
// each in a place held at its size from the start, and says it is settled only after the last;
// meanwhile the graph pane says nothing untrue about the graph being built.
#[wasm_bindgen_test]
async fn started_as_the_page_starts_the_app_mounts_in_stages_and_settles_after_the_last() {
    let host = fresh_host();
    tfgraph::app::mount_in_stages(true);
    let handle = leptos::mount::mount_to(
        host.clone().unchecked_into::<HtmlElement>(),
        tfgraph::app::App,
    );
    tfgraph::app::mount_in_stages(false);
    handle.forget();
    let has = |sel: &str| host.query_selector(sel).ok().flatten().is_some();
    // In the mount's own task: the frame and the graph pane; the editor and the panels are
    // places of their own, empty.
    assert!(has(".app-header") && has(".graph-pane .graph-canvas"));
    assert!(has("section.editor-pane") && !has("textarea#editor"));
    assert!(has("aside.side-pane") && !has("aside.side-pane [role=tablist]"));
    assert!(has("footer.walk-panel.waiting") && !has("#walk-play"));
    let app = host.query_selector(".app").ok().flatten().expect("app");
    assert_ne!(app.get_attribute("data-settled").as_deref(), Some("true"));
    // The example's first build runs over several tasks after these; until it is drawn the graph
    // pane does not say "No graph yet" (checked between tasks).
    let mut tasks = 0;
    while vertex_names(&host).is_empty() && tasks < 2_000 {
        assert!(
            !has(".empty-graph"),
            "said before the first build, {tasks} tasks in"
        );
        sleep(0).await;
        tasks += 1;
    }
    settled(&host).await;
    assert!(has("textarea#editor"));
    assert!(has("aside.side-pane [role=tablist]"));
    assert!(has("#walk-play") && !has(".walk-panel.waiting"));
    assert_eq!(
        host.query_selector_all("section.editor-pane")
            .expect("q")
            .length(),
        1
    );
    assert_eq!(
        host.query_selector_all("aside.side-pane")
            .expect("q")
            .length(),
        1
    );
    assert!(!vertex_names(&host).is_empty(), "the example is drawn");
}

//! The simulated walk: states, failures, parallelism, durations, the timeline and the makespan chart.

use crate::support::*;

#[wasm_bindgen_test]
async fn a_walk_run_to_the_end_marks_every_vertex_done() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    step_walk_to_end(&host, 60).await;
    let states = attrs(&host, ".graph-svg g.vertex", "data-state");
    assert_eq!(states.len(), 6);
    assert!(states.iter().all(|s| s == "done"), "{states:?}");
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(
        status.contains("done 6") && status.contains("failed 0"),
        "{status}"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn a_failed_vertex_turns_its_descendants_upstream_failed() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, "#mode-walk").await;
    shift_click(&vertex(&host, "aws_subnet.b (expand)")).await;
    assert!(
        vertex(&host, "aws_subnet.b (expand)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("inject")
    );
    step_walk_to_end(&host, 60).await;
    assert_eq!(state_of(&host, "aws_vpc.a (expand)"), "done");
    assert_eq!(state_of(&host, AWS), "done");
    assert_eq!(state_of(&host, "aws_subnet.b (expand)"), "failed");
    for d in ["aws_instance.c (expand)", &format!("{AWS} (close)"), "root"] {
        assert_eq!(state_of(&host, d), "upstream-failed", "{d}");
    }
    host.remove();
}

// Issue 18, defect 5: in Walk mode a click could only mark a vertex to fail, so a skipped
// ("upstream failed") vertex could not be inspected during a walk; the "will fail" mark was not
// in the legend.
#[wasm_bindgen_test]
async fn in_walk_mode_a_click_inspects_and_shift_click_marks_a_failure() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, "#mode-walk").await;
    // A plain click shows the details and marks nothing.
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    assert_eq!(texts(&host, ".detail-name"), vec!["aws_subnet.b (expand)"]);
    assert!(
        !vertex(&host, "aws_subnet.b (expand)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("inject")
    );
    // Shift+click marks it; the legend explains the mark.
    shift_click(&vertex(&host, "aws_subnet.b (expand)")).await;
    assert!(
        vertex(&host, "aws_subnet.b (expand)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("inject")
    );
    assert!(
        texts(&host, ".legend-will-fail")
            .iter()
            .any(|t| t.contains("will fail in the next walk")),
        "{:?}",
        texts(&host, ".legend-list li")
    );
    step_walk_to_end(&host, 60).await;
    // A vertex skipped because of the failure can be inspected.
    click(&vertex(&host, "aws_instance.c (expand)")).await;
    assert_eq!(
        texts(&host, ".detail-name"),
        vec!["aws_instance.c (expand)"]
    );
    assert_eq!(
        state_of(&host, "aws_instance.c (expand)"),
        "upstream-failed"
    );
    assert!(
        texts(&host, ".detail-state")
            .iter()
            .any(|t| t.to_lowercase().contains("upstream failed")
                || t.to_lowercase().contains("not run")),
        "{:?}",
        texts(&host, ".detail-state")
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn the_parallelism_slider_limits_the_next_walk() {
    let host = mount().await;
    let five: String = (1..=5)
        .map(|i| format!("resource \"aws_s3_bucket\" \"b{i}\" {{}}\n"))
        .collect();
    type_and_build(&host, &five).await;
    step_walk_to_end(&host, 80).await;
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(status.contains("max concurrency 5"), "{status}");
    // Move the slider while the (finished) walk is paused: the next walk uses it.
    set_parallelism(&host, "2").await;
    assert_eq!(texts(&host, ".parallelism-value"), vec!["2"]);
    // The makespan chart marks the new setting: the provider (about 1 s), then five buckets
    // (about 10 s each) two at a time.
    let m = library_makespan(&five, 2, &[]);
    assert!((28.0..34.0).contains(&m), "{m}");
    assert_eq!(texts(&host, ".chart-label"), chart_label(m, 2));
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(status.contains("max concurrency 2"), "{status}");
    host.remove();
}

#[wasm_bindgen_test]
async fn a_vertex_duration_changes_the_next_walk_by_that_much() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    step_walk_to_end(&host, 80).await;
    // The provider (about 1 s), then three resources (about 10 s each) one after the other.
    let before = library_makespan(CHAIN, 10, &[]);
    assert!((28.0..34.0).contains(&before), "{before}");
    assert_eq!(format!("{:.1}", makespan(&host)), format!("{before:.1}"));
    // Inspect the subnet and make it take 25 s (the walk switched clicks to failing vertices).
    click_on(&host, ".segmented button:first-child").await;
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    let input: web_sys::HtmlInputElement = host
        .query_selector(".duration-input")
        .unwrap()
        .expect("a duration field in the details")
        .dyn_into()
        .unwrap();
    let default: f64 = input.value().parse().expect("seconds");
    assert!((9.0..=11.0).contains(&default), "{default}");
    input.set_value("25");
    dispatch(&input, "change").await;
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    // One chain: the walk is longer by exactly the difference.
    let after = library_makespan(CHAIN, 10, &[("aws_subnet.b (expand)", 25.0)]);
    assert!(
        (after - before - (25.0 - default)).abs() < 1e-6,
        "{before} {after} {default}"
    );
    assert_eq!(format!("{:.1}", makespan(&host)), format!("{after:.1}"));
    // The makespan chart uses it too.
    assert_eq!(texts(&host, ".chart-label"), chart_label(after, 10));
    // Kept while the graph changes, for the vertices still in it.
    type_and_build(&host, &format!("{CHAIN}variable \"x\" {{}}\n")).await;
    step_walk_to_end(&host, 80).await;
    assert_eq!(format!("{:.1}", makespan(&host)), format!("{after:.1}"));
    // Reset to the default.
    click_on(&host, ".reset-durations").await;
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    assert_eq!(format!("{:.1}", makespan(&host)), format!("{before:.1}"));
    host.remove();
}

#[wasm_bindgen_test]
async fn hovering_a_gantt_row_highlights_its_vertex_and_back() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    step_walk_to_end(&host, 80).await;
    let rows = gantt_rows(&host, "aws_subnet.b (expand)");
    assert_eq!(rows.len(), 1, "one row for the subnet's instance");
    assert_eq!(
        rows[0]
            .query_selector(".g-label")
            .unwrap()
            .unwrap()
            .text_content(),
        Some("aws_subnet.b".into())
    );
    let subnet = vertex(&host, "aws_subnet.b (expand)");
    assert!(!has_class(&subnet, "hover"));
    dispatch(&rows[0], "mouseenter").await;
    assert!(has_class(&subnet, "hover"));
    assert!(!has_class(&vertex(&host, "aws_vpc.a (expand)"), "hover"));
    dispatch(&rows[0], "mouseleave").await;
    assert!(!has_class(&subnet, "hover"));
    // And from the graph to the timeline.
    let vpc = vertex(&host, "aws_vpc.a (expand)");
    dispatch(&vpc, "mouseenter").await;
    assert!(has_class(
        &gantt_rows(&host, "aws_vpc.a (expand)")[0],
        "hover"
    ));
    assert!(!has_class(
        &gantt_rows(&host, "aws_subnet.b (expand)")[0],
        "hover"
    ));
    dispatch(&vpc, "mouseleave").await;
    assert!(!has_class(
        &gantt_rows(&host, "aws_vpc.a (expand)")[0],
        "hover"
    ));
    // The chain is the critical path: its rows are marked.
    assert!(has_class(
        &gantt_rows(&host, "aws_instance.c (expand)")[0],
        "critical"
    ));
    host.remove();
}

#[wasm_bindgen_test]
async fn a_count_of_three_walks_three_instances() {
    let host = mount().await;
    type_and_build(
        &host,
        "resource \"aws_instance\" \"web\" {\n  count = 3\n}\ndata \"aws_ami\" \"x\" {}\nresource \"aws_eip\" \"ip\" {\n  count = length(data.aws_ami.x.ids)\n}\n",
    )
    .await;
    step_walk_to_end(&host, 120).await;
    let rows = gantt_rows(&host, "aws_instance.web (expand)");
    let labels: Vec<String> = rows
        .iter()
        .filter_map(|r| r.query_selector(".g-label").ok().flatten())
        .filter_map(|l| l.text_content())
        .collect();
    assert_eq!(
        labels,
        vec![
            "aws_instance.web[0]",
            "aws_instance.web[1]",
            "aws_instance.web[2]"
        ]
    );
    assert!(
        rows.iter()
            .all(|r| has_class(r, "instance") && has_class(r, "state-done"))
    );
    let web = vertex(&host, "aws_instance.web (expand)");
    assert_eq!(web.get_attribute("data-state").as_deref(), Some("done"));
    assert_eq!(
        web.query_selector(".inst").unwrap().unwrap().text_content(),
        Some("3/3".into())
    );
    // A count that is only known at apply time: no instances, said so.
    let eip = vertex(&host, "aws_eip.ip (expand)");
    assert_eq!(
        eip.query_selector(".inst").unwrap().unwrap().text_content(),
        Some("?".into())
    );
    assert!(gantt_rows(&host, "aws_eip.ip (expand)").len() <= 1);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_slider_moves_while_a_walk_is_paused_and_the_chart_marks_it() {
    let host = mount().await;
    let five: String = (1..=5)
        .map(|i| format!("resource \"aws_s3_bucket\" \"b{i}\" {{}}\n"))
        .collect();
    type_and_build(&host, &five).await;
    // Paused part-way: one event stepped to (the provider done at 1 s), not finished.
    click_on(&host, "#walk-step").await;
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(!status.contains("makespan"), "{status}");
    assert_eq!(
        texts(&host, ".chart-label"),
        chart_label(library_makespan(&five, 10, &[]), 10)
    );
    set_parallelism(&host, "1").await;
    assert_eq!(texts(&host, ".parallelism-value"), vec!["1"]);
    // One at a time: the provider and five buckets, one after the other.
    let one = library_makespan(&five, 1, &[]);
    assert!((46.0..56.0).contains(&one), "{one}");
    assert_eq!(texts(&host, ".chart-label"), chart_label(one, 1));
    // The walk under way keeps its setting; the next one uses the new one.
    step_walk_to_end(&host, 80).await;
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(status.contains("max concurrency 5"), "{status}");
    click_on(&host, "#walk-reset").await;
    step_walk_to_end(&host, 80).await;
    assert_eq!(format!("{:.1}", makespan(&host)), format!("{one:.1}"));
    host.remove();
}

#[wasm_bindgen_test]
async fn a_collapsed_module_shows_the_walk_of_what_it_hides() {
    let host = mount().await;
    click_on(&host, ".tabs .tab:nth-child(3)").await;
    click_on(&host, "[data-example=modules] button").await;
    settled(&host).await;
    click_on(&host, ".cluster[data-path=\"module.net\"] .cluster-header").await;
    let collapsed = vertex_names(&host)
        .into_iter()
        .find(|n| n.starts_with("module.net (collapsed: "))
        .expect("collapsed vertex");
    assert_eq!(state_of(&host, &collapsed), "idle");
    step_walk_to_end(&host, 80).await;
    let states = attrs(&host, ".graph-svg g.vertex", "data-state");
    assert!(states.iter().all(|s| s == "done"), "{states:?}");
    assert_eq!(state_of(&host, &collapsed), "done");
    host.remove();
}

/// The makespan chart shows exactly what the library's sweep gives for the page's files and
/// settings (`page::walk::makespans`, which `tests/cli_walk.rs` checks equal to `tfgraph walk
/// --sweep`): every point, the default seed and jitter, a duration set by the user.
#[wasm_bindgen_test]
async fn the_makespan_chart_shows_the_librarys_sweep() {
    let host = mount().await;
    let five: String = (1..=5)
        .map(|i| format!("resource \"aws_s3_bucket\" \"b{i}\" {{\n  tags = {{ n = {i} }}\n}}\n"))
        .collect();
    type_and_build(&host, &five).await;
    click_on(&host, "#walk-step").await;
    let read = || {
        attrs(&host, ".chart", "data-makespans")
            .first()
            .map(|s| {
                s.split(' ')
                    .map(|pm| {
                        let (p, m) = pm.split_once(':').expect("p:m");
                        (p.parse::<usize>().expect("p"), m.parse::<f64>().expect("m"))
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    assert!(
        wait_until(30_000, || read().len() == 64).await,
        "{:?}",
        read()
    );
    // Every setting of the slider, 1 to 64.
    let want: Vec<(usize, f64)> = (1..=64)
        .map(|p| (p, library_makespan(&five, p, &[])))
        .collect();
    let mut shown = read();
    shown.sort_by_key(|x| x.0);
    assert_eq!(shown, want);
    // The points differ where parallelism matters (five buckets): the chart is not flat.
    assert!(want[0].1 > want[3].1 + 5.0, "{want:?}");
    host.remove();
}

// Issue 18, defect 4: after the slider moved 1 → 4 → 64 the chart kept reading "21.0 s at 4".
#[wasm_bindgen_test]
async fn the_makespan_chart_follows_the_slider() {
    let host = mount().await;
    let five: String = (1..=5)
        .map(|i| format!("resource \"aws_s3_bucket\" \"b{i}\" {{\n  tags = {{ n = {i} }}\n}}\n"))
        .collect();
    type_and_build(&host, &five).await;
    click_on(&host, "#walk-step").await;
    for p in ["1", "4", "64", "2"] {
        set_parallelism(&host, p).await;
        let want = format!(
            "makespan {:.1} s at {p}",
            library_makespan(&five, p.parse().expect("p"), &[])
        );
        let label = || texts(&host, ".chart-label").join("");
        assert!(
            wait_until(10_000, || label() == want).await,
            "{} instead of {want}",
            label()
        );
        // The dot is drawn at the current setting's point.
        assert_eq!(attrs(&host, ".chart-dot", "cx").len(), 1);
    }
    // The critical path is the floor, and it is named.
    let floor = texts(&host, ".chart-floor-label").join("");
    assert!(floor.starts_with("critical path "), "{floor}");
    assert_eq!(attrs(&host, ".chart-floor", "y1").len(), 1);
    host.remove();
}

/// The text of the step drawn on the vertex `name` (empty when none is).
fn step_on(host: &Element, name: &str) -> String {
    vertex(host, name)
        .query_selector(".step-now")
        .expect("query")
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

/// The details panel's step items of the task `task` (`data-step`, state class, timing).
fn detail_steps(host: &Element, task: &str) -> Vec<(String, String, String)> {
    let list = host
        .query_selector_all(".walk-steps .task-steps")
        .expect("query");
    let Some(block) = (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .find(|e| e.get_attribute("data-task").as_deref() == Some(task))
    else {
        return Vec::new();
    };
    let items = block.query_selector_all(".walk-step").expect("query");
    (0..items.length())
        .filter_map(|i| items.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .map(|e| {
            let time = e
                .query_selector(".ws-time")
                .ok()
                .flatten()
                .and_then(|t| t.text_content())
                .unwrap_or_default();
            (
                e.get_attribute("data-step-id").unwrap_or_default(),
                e.get_attribute("class").unwrap_or_default(),
                time,
            )
        })
        .collect()
}

#[wasm_bindgen_test]
async fn a_running_vertex_shows_its_current_step_and_its_details_list_the_steps() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, "#mode-walk").await;
    click(&vertex(&host, "aws_vpc.a (expand)")).await;
    // Before the walk: the steps it will run, with how long each takes.
    let planned = detail_steps(&host, "aws_vpc.a (expand)");
    let plan = planned
        .iter()
        .find(|s| s.0 == "plan-change")
        .unwrap_or_else(|| panic!("{planned:?}"));
    assert!(plan.2.starts_with("takes "), "{plan:?}");
    assert!(step_on(&host, "aws_vpc.a (expand)").is_empty());
    // Step until the resource runs: the step it is in is drawn on it.
    let mut shown = String::new();
    for _ in 0..40 {
        click_on(&host, "#walk-step").await;
        if state_of(&host, "aws_vpc.a (expand)") == "running" {
            shown = step_on(&host, "aws_vpc.a (expand)");
            break;
        }
    }
    assert!(!shown.is_empty(), "no step drawn on the running vertex");
    // The details panel lists the instance's steps, the one running marked.
    let running: Vec<_> = detail_steps(&host, "aws_vpc.a")
        .into_iter()
        .filter(|s| s.1.contains("state-running"))
        .collect();
    assert_eq!(running.len(), 1, "{running:?}");
    assert!(
        texts(&host, ".walk-steps .state-running .ws-name").contains(&shown),
        "{shown} {:?}",
        texts(&host, ".walk-steps .state-running .ws-name")
    );
    // At the end every step has its times.
    step_walk_to_end(&host, 60).await;
    assert!(step_on(&host, "aws_vpc.a (expand)").is_empty());
    let done = detail_steps(&host, "aws_vpc.a");
    let plan = done
        .iter()
        .find(|s| s.0 == "plan-change")
        .expect("plan-change");
    assert!(plan.1.contains("state-done"), "{plan:?}");
    assert!(
        plan.2.contains(" s – ") && plan.2.ends_with(" s)"),
        "{plan:?}"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn a_failure_at_a_step_shows_where_the_vertex_stopped() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    click_on(&host, "#mode-walk").await;
    click(&vertex(&host, "aws_subnet.b (expand)")).await;
    click_on(
        &host,
        ".walk-steps .walk-step[data-step-id='plan-change'] .ws-fail",
    )
    .await;
    assert_eq!(
        attrs(
            &host,
            ".walk-steps .walk-step[data-step-id='plan-change'] .ws-fail",
            "aria-pressed"
        ),
        vec!["true"]
    );
    assert!(
        vertex(&host, "aws_subnet.b (expand)")
            .get_attribute("class")
            .unwrap_or_default()
            .contains("inject")
    );
    step_walk_to_end(&host, 60).await;
    assert_eq!(state_of(&host, "aws_subnet.b (expand)"), "failed");
    assert_eq!(
        state_of(&host, "aws_instance.c (expand)"),
        "upstream-failed"
    );
    assert_eq!(
        texts(&host, ".walk-steps .ws-stopped"),
        vec![
            "aws_subnet.b stopped at “Ask the provider for the planned change”: NodeAbstractResourceInstance.plan (node_resource_abstract_instance.go)."
        ]
    );
    let steps = detail_steps(&host, "aws_subnet.b");
    let at = steps
        .iter()
        .position(|s| s.0 == "plan-change")
        .expect("plan-change");
    assert!(steps[at].1.contains("state-failed"), "{steps:?}");
    assert!(
        steps[at + 1..]
            .iter()
            .all(|s| s.1.contains("state-not-run") && s.2 == "—"),
        "{steps:?}"
    );
    host.remove();
}

#[wasm_bindgen_test]
async fn a_timeline_row_opens_into_its_steps() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    step_walk_to_end(&host, 60).await;
    assert!(texts(&host, ".g-step").is_empty());
    let rows = host
        .query_selector_all(".g-row[data-vertex='aws_vpc.a (expand)'] .g-open")
        .expect("query");
    assert_eq!(rows.length(), 1);
    click(&rows.item(0).unwrap().dyn_into::<Element>().unwrap()).await;
    let steps = attrs(&host, ".g-step", "data-step-id");
    assert!(
        steps.contains(&"refresh".to_string()) && steps.contains(&"plan-change".to_string()),
        "{steps:?}"
    );
    // Zero-length steps have no bar of their own.
    assert!(!steps.contains(&"get-provider".to_string()), "{steps:?}");
    assert!(
        attrs(&host, ".g-step .g-run", "style")
            .iter()
            .all(|s| s.contains("width:")),
    );
    click(&rows.item(0).unwrap().dyn_into::<Element>().unwrap()).await;
    assert!(texts(&host, ".g-step").is_empty());
    host.remove();
}

/// The timeline's rows: how many there are in all, how many are drawn, and the place in the list
/// (from 1) and vertex of each drawn row wholly in its scrolled box.
fn timeline_rows_in_view(host: &Element) -> (usize, usize, Vec<(usize, String)>) {
    let Some(g) = host.query_selector(".gantt").unwrap() else {
        return (0, 0, Vec::new());
    };
    let b = g.get_bounding_client_rect();
    let rows = host
        .query_selector_all(".gantt .g-row[aria-posinset]")
        .unwrap();
    let (mut all, mut seen) = (0, Vec::new());
    for i in 0..rows.length() {
        let row: Element = rows.get(i).unwrap().dyn_into().unwrap();
        all = row.get_attribute("aria-setsize").unwrap().parse().unwrap();
        let r = row.get_bounding_client_rect();
        if r.top() >= b.top() - 1.0 && r.bottom() <= b.bottom() + 1.0 {
            let at: usize = row.get_attribute("aria-posinset").unwrap().parse().unwrap();
            seen.push((at, row.get_attribute("data-vertex").unwrap_or_default()));
        }
    }
    (all, rows.length() as usize, seen)
}

// Rows are added at the timeline's bottom as vertices become ready: it follows them unless the
// user scrolled up, and follows again once they are back at the bottom. Only the rows in its box
// (and a few either side) are drawn, each saying its place in the list.
#[wasm_bindgen_test]
async fn the_timeline_follows_new_rows_unless_the_user_scrolled_up() {
    let style = app_stylesheet();
    let host = mount().await;
    // A chain: one more row each time a link becomes ready.
    let mut text = "resource \"aws_vpc\" \"l00\" {}\n".to_string();
    for i in 1..40 {
        text.push_str(&format!(
            "resource \"aws_vpc\" \"l{i:02}\" {{\n  cidr_block = aws_vpc.l{:02}.id\n}}\n",
            i - 1
        ));
    }
    type_and_build(&host, &text).await;
    let step_until_rows = |n: usize| {
        let host = host.clone();
        async move {
            for _ in 0..300 {
                if timeline_rows_in_view(&host).0 >= n {
                    return;
                }
                click_on(&host, "#walk-step").await;
            }
            panic!("fewer than {n} rows");
        }
    };
    step_until_rows(30).await;
    sleep(50).await;
    let (all, drawn, seen) = timeline_rows_in_view(&host);
    assert!(!seen.is_empty() && seen.len() < all, "{seen:?} of {all}");
    assert!(drawn < all, "{drawn} of {all} rows drawn");
    assert_eq!(
        seen.last().map(|s| s.0),
        Some(all),
        "the newest row is in view"
    );
    // Scrolled to the top: the first rows stay in view while rows are added.
    let g = host.query_selector(".gantt").unwrap().unwrap();
    g.set_scroll_top(0);
    sleep(50).await;
    let (_, _, top) = timeline_rows_in_view(&host);
    assert_eq!(
        top.first().map(|s| s.0),
        Some(1),
        "scrolled to the top: {top:?}"
    );
    step_until_rows(all + 4).await;
    sleep(50).await;
    let (more, _, seen) = timeline_rows_in_view(&host);
    assert!(more >= all + 4);
    assert_eq!(seen, top, "the rows looked at stay where they were");
    // Back at the bottom: followed again.
    g.set_scroll_top(1_000_000);
    sleep(50).await;
    step_until_rows(more + 3).await;
    sleep(50).await;
    let (all, _, seen) = timeline_rows_in_view(&host);
    assert_eq!(
        seen.last().map(|s| s.0),
        Some(all),
        "the newest row is in view again"
    );
    host.remove();
    style.remove();
}

// A new analysis arrives after each pause in typing: one that walks alike (a comment) leaves the
// walk where it was; one that changes the graph, or what a vertex expands into, starts over.
#[wasm_bindgen_test]
async fn a_walk_goes_on_through_an_edit_that_walks_alike() {
    let host = mount().await;
    let counted = format!("{CHAIN}resource \"aws_eip\" \"ip\" {{\n  count = 2\n}}\n");
    type_and_build(&host, &counted).await;
    click_on(&host, "#walk-step").await;
    for _ in 0..4 {
        click_on(&host, "#walk-step").await;
    }
    let status = texts(&host, ".walk-status")[0].clone();
    assert!(status.contains("done"), "{status}");
    let states = attrs(&host, ".graph-svg g.vertex", "data-state");
    assert!(states.iter().any(|s| s != "idle"), "{states:?}");
    // A comment: the same walk, where it was.
    type_and_build(&host, &format!("# the network\n{counted}")).await;
    assert_eq!(texts(&host, ".walk-status")[0], status);
    assert_eq!(attrs(&host, ".graph-svg g.vertex", "data-state"), states);
    assert!(!gantt_rows(&host, "aws_vpc.a (expand)").is_empty());
    // Three addresses instead of two: the same graph, another walk.
    type_and_build(
        &host,
        &format!(
            "# the network\n{}",
            counted.replace("count = 2", "count = 3")
        ),
    )
    .await;
    let after = attrs(&host, ".graph-svg g.vertex", "data-state");
    assert!(after.iter().all(|s| s == "idle"), "{after:?}");
    assert!(host.query_selector(".gantt").unwrap().is_none());
    host.remove();
}

// The browser keeps a performance mark or measure until it is cleared, and the walk records
// some every frame: a walk that plays for longer than the page keeps measures of one name
// (`page::measures::KEEP`, 300) leaves at most that many, and none of the marks they were
// measured between.
#[wasm_bindgen_test]
async fn a_long_walk_leaves_a_bounded_number_of_measures_and_no_marks() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    choose(&host, ".speed select", "1").await;
    let perf = web_sys::window().unwrap().performance().unwrap();
    perf.clear_measures_with_measure_name("walk-simulation");
    click_on(&host, "#walk-play").await;
    // Six seconds at 60 frames a second: 360 frames, each measured.
    sleep(6_000).await;
    assert!(
        texts(&host, ".walk-status")
            .first()
            .is_some_and(|s| !s.contains("makespan")),
        "the walk still plays: {:?}",
        texts(&host, ".walk-status")
    );
    click_on(&host, "#walk-play").await;
    let kept = perf.get_entries_by_name("walk-simulation").length();
    assert!((1..=300).contains(&kept), "{kept} measures kept");
    let marks: Vec<String> = perf
        .get_entries_by_type("mark")
        .iter()
        .filter_map(|e| e.dyn_into::<web_sys::PerformanceEntry>().ok())
        .map(|e| e.name())
        .filter(|n| n.starts_with("walk-") || n.starts_with("tfgraph-"))
        .collect();
    assert!(marks.is_empty(), "{marks:?}");
    host.remove();
}

//! Screens: the graph keeps half the viewport at common sizes, and a phone shows one pane at a time (screenshots under target/screenshots/).

use crate::harness::*;

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
    // A toolbar that scrolls sideways (its scroll bar hidden) fades at the end that has more,
    // and no longer once scrolled there; one that fits does not fade.
    let fades = r#"return [...document.querySelectorAll('.graph-toolbar, .graph-viewbar')]
        .map(e => [e.scrollWidth > e.clientWidth + 1, getComputedStyle(e).getPropertyValue('--more').trim()]);"#;
    let start: Vec<(bool, String)> = js(&c, fades).await;
    assert!(start.iter().any(|(more, _)| *more), "{start:?}");
    for (more, fade) in &start {
        assert_eq!(fade, if *more { "36px" } else { "0px" }, "{start:?}");
    }
    js::<()>(
        &c,
        "for (const e of document.querySelectorAll('.graph-toolbar, .graph-viewbar')) e.scrollLeft = e.scrollWidth;",
    )
    .await;
    let mut end: Vec<(bool, String)> = Vec::new();
    for _ in 0..40 {
        end = js(&c, fades).await;
        if end.iter().all(|(_, fade)| fade == "0px") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(end.iter().all(|(_, fade)| fade == "0px"), "{end:?}");
    js::<()>(
        &c,
        "for (const e of document.querySelectorAll('.graph-toolbar, .graph-viewbar')) e.scrollLeft = 0;",
    )
    .await;
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

// Issue 15, item 6: a lesson, opened from its link, answered right, at desktop and phone width.
// The answer is the engine's (`page::lessons::solve`), as the page checks it.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn a_lesson_at_desktop_and_phone_width() {
    use tfgraph::page::analysis::{Options, analyze};
    use tfgraph::page::lessons::{by_id, solve};
    let l = by_id("parallelism").expect("the lesson");
    let e = l.source.example().expect("its example");
    let s = solve(
        l,
        &analyze(
            &tfgraph::page::examples::files_of(e),
            e.kind,
            &Options::default(),
        ),
    )
    .expect("the engine answers");
    let right = s.right.iter().next().expect("a right answer").clone();
    let (base, _requests, _driver, c) = open_app().await;
    for (w, h, name) in [(1280, 800, "desktop"), (390, 844, "phone")] {
        set_viewport_size(&c, w, h).await;
        c.goto(&format!("{base}#lesson={}", l.id))
            .await
            .expect("open the lesson's link");
        wait_count(
            &c,
            "article.lesson[data-lesson='parallelism'] select.lesson-answer",
            1,
        )
        .await;
        if name == "phone" {
            click(&c, "#pane-panels").await;
        }
        let chosen: bool = js(
            &c,
            &format!(
                "const s = document.querySelector('select.lesson-answer'); s.value = '{right}';
                 s.dispatchEvent(new Event('change', {{ bubbles: true }})); return s.value === '{right}';"
            ),
        )
        .await;
        assert!(chosen, "the answer {right} is offered");
        click(&c, "button.lesson-check").await;
        wait_count(&c, ".lesson-verdict.right", 1).await;
        if name == "phone" {
            assert_eq!(small_targets(&c).await, Vec::<String>::new());
        }
        screenshot(&c, &format!("app-{w}x{h}-lesson.png")).await;
    }
}

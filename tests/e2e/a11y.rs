//! Accessibility: axe-core in both themes and modes, and the keyboard alone.

use crate::harness::*;

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
    for (what, tab) in [("steps", 2), ("examples", 3), ("export", 4), ("learn", 5)] {
        click(&c, &format!(".side-pane .tab:nth-child({tab})")).await;
        if what == "steps" {
            click(&c, ".step-list .step:nth-child(5) button").await;
        }
        if what == "learn" {
            // A lesson open, answered wrong (its verdict shown).
            click(&c, "li[data-lesson='vertices-edges'] button").await;
            wait_count(&c, "select.lesson-answer", 1).await;
            click(&c, "button.lesson-check").await;
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
    // A drawing too small to read at Fit, with its minimap (issue 16, item 5).
    let wide: String = (0..200)
        .map(|i| format!("resource \"null_resource\" \"r{i}\" {{}}\n"))
        .collect();
    c.execute(
        "const t = document.querySelector('textarea#editor'); t.value = arguments[0]; t.dispatchEvent(new Event('input', {bubbles: true}));",
        vec![wide.into()],
    )
    .await
    .expect("a wide configuration");
    wait_count(&c, ".minimap", 1).await;
    for v in axe_violations(&c, &axe).await {
        all.push(format!("light minimap: {v}"));
    }
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

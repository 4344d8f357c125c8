//! Learn mode: every lesson's question checked through the page (the engine's answer accepted, a
//! wrong one refused with a hint), a vertex clicked as an answer, progress kept across a reload,
//! a `#lesson=` link opening the app on its lesson with the user's files kept aside.

use crate::support::*;
use tfgraph::page::analysis::{Options, analyze};
use tfgraph::page::examples::files_of;
use tfgraph::page::lessons::{LESSONS, solve};

/// The engine's right answers and one wrong one for lesson `i`, as the library computes them.
fn answers(i: usize) -> (Vec<String>, String) {
    let l = &LESSONS[i];
    let e = l.source.example().unwrap();
    let s = solve(l, &analyze(&files_of(e), e.kind, &Options::default())).unwrap();
    let wrong = s
        .choices
        .iter()
        .find(|c| !s.right.contains(*c))
        .unwrap()
        .clone();
    (s.right.into_iter().collect(), wrong)
}

async fn open_learn(host: &Element) {
    click_on(host, ".tabs .tab:nth-child(5)").await;
    assert!(
        wait_until(10_000, || host
            .query_selector(".learn")
            .ok()
            .flatten()
            .is_some())
        .await,
        "the Learn tab shows"
    );
}

/// Waits until lesson `id` is open and its question can be answered.
async fn lesson_ready(host: &Element, id: &str) {
    let sel = format!("article.lesson[data-lesson=\"{id}\"] select.lesson-answer");
    let ok = wait_until(30_000, || {
        host.query_selector(&sel).ok().flatten().is_some()
    })
    .await;
    assert!(
        ok,
        "lesson {id} answerable; says {:?}",
        texts(host, "article.lesson")
    );
    settled(host).await;
}

fn verdict(host: &Element) -> (String, String) {
    let el = host.query_selector(".lesson-verdict").unwrap().unwrap();
    (
        el.get_attribute("class").unwrap_or_default(),
        el.text_content().unwrap_or_default(),
    )
}

async fn answer(host: &Element, value: &str) {
    choose(host, "select.lesson-answer", value).await;
    click_on(host, "button.lesson-check").await;
}

#[wasm_bindgen_test]
async fn every_lessons_check_accepts_the_engines_answer_and_rejects_a_wrong_one() {
    let host = mount().await;
    open_learn(&host).await;
    click_on(&host, "li[data-lesson=\"vertices-edges\"] button").await;
    for (i, l) in LESSONS.iter().enumerate() {
        lesson_ready(&host, l.id).await;
        // What the lesson sets up is on the page.
        for h in l.stage.highlight {
            assert!(
                has_class(&vertex(&host, h), "lesson"),
                "{}: {h} marked",
                l.id
            );
        }
        if let Some(t) = l.stage.build_step {
            let banner = texts(&host, ".step-banner strong");
            assert!(
                banner.iter().any(|b| b.ends_with(t)),
                "{}: {banner:?}",
                l.id
            );
        }
        if let Some(p) = l.stage.parallelism {
            assert_eq!(
                texts(&host, ".parallelism-value"),
                [p.to_string()],
                "{}",
                l.id
            );
        }
        if l.stage.walk {
            let started = wait_until(10_000, || {
                attrs(&host, ".graph-svg g.vertex", "data-state")
                    .iter()
                    .any(|s| !s.is_empty() && s != "idle")
            })
            .await;
            assert!(started, "{}: the walk started", l.id);
        }
        let (right, wrong) = answers(i);
        answer(&host, &wrong).await;
        let (class, text) = verdict(&host);
        assert!(class.contains("wrong"), "{}: {class} {text}", l.id);
        assert!(text.contains(l.hint), "{}: {text}", l.id);
        answer(&host, &right[0]).await;
        let (class, text) = verdict(&host);
        assert!(class.contains("right"), "{}: {class} {text}", l.id);
        assert!(text.starts_with("Right."), "{}: {text}", l.id);
        if i + 1 < LESSONS.len() {
            click_on(&host, "button.lesson-next").await;
        }
    }
    // Every lesson is marked done in the list.
    let done = attrs(&host, "li.lesson-item.done", "data-lesson");
    assert_eq!(done.len(), LESSONS.len(), "{done:?}");
    assert_eq!(texts(&host, ".learn-count")[0], "12 of 12 lessons done");
    host.remove();
}

#[wasm_bindgen_test]
async fn a_click_on_a_vertex_answers_a_vertex_question_and_the_lesson_stays_in_view() {
    let host = mount().await;
    open_learn(&host).await;
    click_on(&host, "li[data-lesson=\"vertices-edges\"] button").await;
    lesson_ready(&host, "vertices-edges").await;
    // The vertex the lesson points at is marked on the drawing.
    assert!(has_class(&vertex(&host, "aws_eip.web (expand)"), "lesson"));
    let (right, wrong) = answers(0);
    click(&vertex(&host, &wrong)).await;
    assert!(verdict(&host).0.contains("wrong"), "{:?}", verdict(&host));
    click(&vertex(&host, &right[0])).await;
    let (class, text) = verdict(&host);
    assert!(class.contains("right"), "{class} {text}");
    assert!(text.contains("aws_instance.web (expand)"), "{text}");
    assert!(host.query_selector("article.lesson").unwrap().is_some());
    host.remove();
}

#[wasm_bindgen_test]
async fn progress_survives_a_reload() {
    let host = mount().await;
    open_learn(&host).await;
    click_on(&host, "li[data-lesson=\"walk\"] button").await;
    lesson_ready(&host, "walk").await;
    let (right, _) = answers(6);
    answer(&host, &right[0]).await;
    assert!(verdict(&host).0.contains("right"));
    host.remove();

    let host = mount_keeping_storage().await;
    settled(&host).await;
    open_learn(&host).await;
    // The lesson open before the reload is open again, and marked done.
    lesson_ready(&host, "walk").await;
    assert_eq!(attrs(&host, "li.lesson-item.done", "data-lesson"), ["walk"]);
    assert_eq!(texts(&host, ".learn-count")[0], "1 of 12 lessons done");
    host.remove();
}

#[wasm_bindgen_test]
async fn a_lesson_link_opens_its_lesson_and_keeps_the_users_files_aside() {
    let host = mount().await;
    type_and_build(&host, CHAIN).await;
    host.remove();
    // Opened from the link (read as the app starts, as a share link is).
    set_hash("#lesson=cycles");
    let host = mount_keeping_storage().await;
    settled(&host).await;
    assert!(
        host.query_selector("article.lesson[data-lesson=\"cycles\"]")
            .unwrap()
            .is_some(),
        "the link opened its lesson"
    );
    lesson_ready(&host, "cycles").await;
    assert!(editor_value(&host).contains("aws_security_group"));
    assert!(
        host.query_selector(".notice-restore").unwrap().is_some(),
        "{:?}",
        texts(&host, ".notice-text")
    );
    // The fragment is gone, so a reload does not load the lesson over the learner's edits.
    assert_eq!(web_sys::window().unwrap().location().hash().unwrap(), "");
    host.remove();
}

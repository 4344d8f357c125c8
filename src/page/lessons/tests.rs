use super::*;
use crate::page::analysis::{Analysis, Options, analyze};
use crate::page::examples::files_of;

fn analysis_of(l: &Lesson) -> Analysis {
    let e = l.source.example().expect("the lesson's example exists");
    analyze(&files_of(e), e.kind, &Options::default())
}

#[test]
fn there_are_twelve_lessons_in_the_concepts_order_with_unique_ids() {
    let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
    assert_eq!(
        ids,
        [
            "vertices-edges",
            "references",
            "transforms",
            "providers",
            "reduction",
            "cycles",
            "walk",
            "parallelism",
            "critical-path",
            "destroy-edges",
            "expansion",
            "inside"
        ]
    );
    for l in LESSONS {
        assert!(
            (2..=5).contains(&l.text.len()),
            "{}: 2 to 5 sentences",
            l.id
        );
        assert_eq!(index_of(l.id).map(|i| LESSONS[i].id), Some(l.id));
    }
}

#[test]
fn every_lessons_example_builds_as_the_lesson_expects() {
    for l in LESSONS {
        let a = analysis_of(l);
        let g = a
            .graph
            .as_ref()
            .unwrap_or_else(|| panic!("{}: {:?}", l.id, a.errors));
        if matches!(l.rule, Rule::InCycle) {
            assert!(!a.cycles.is_empty(), "{}", l.id);
        } else {
            assert!(a.errors.is_empty(), "{}: {:?}", l.id, a.errors);
        }
        for h in l.stage.highlight {
            assert!(g.index_of(h).is_some(), "{}: no vertex {h}", l.id);
        }
        if let Some(t) = l.stage.build_step {
            let i = l
                .build_step_index(&a.steps)
                .unwrap_or_else(|| panic!("{}: no step {t}", l.id));
            assert_eq!(a.steps[i].name, t);
        }
        let e = l.source.example().unwrap();
        let mut files = files_of(e);
        assert!(l.is_loaded(&files), "{}", l.id);
        files.values_mut().for_each(|t| t.push_str("# edited\n"));
        assert!(!l.is_loaded(&files), "{}", l.id);
    }
}

#[test]
fn every_lessons_check_accepts_the_engines_answer_and_rejects_a_wrong_one() {
    for l in LESSONS {
        let a = analysis_of(l);
        let s = solve(l, &a).unwrap_or_else(|e| panic!("{}: {e}", l.id));
        for r in &s.right {
            let v = check(l, &s, r);
            assert!(v.right, "{}: {r}", l.id);
            assert!(v.text.starts_with("Right. "), "{}", v.text);
        }
        let wrong = s
            .choices
            .iter()
            .find(|c| !s.right.contains(*c))
            .unwrap_or_else(|| panic!("{}: every choice is right", l.id));
        let v = check(l, &s, wrong);
        assert!(!v.right, "{}: {wrong}", l.id);
        assert!(v.text.contains(l.hint), "{}", v.text);
        assert!(!check(l, &s, "no such answer").right);
    }
}

/// The engine's answers, spelled out: a change in the engine that changes one shows up here
/// (and the lesson's words may need a look).
#[test]
fn the_engines_answers_are_the_ones_the_lessons_words_expect() {
    let right = |id: &str| {
        let l = by_id(id).unwrap();
        solve(l, &analysis_of(l))
            .unwrap()
            .right
            .into_iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(right("vertices-edges"), ["aws_instance.web (expand)"]);
    assert_eq!(right("references"), ["aws_iam_role_policy.logs (expand)"]);
    assert_eq!(right("transforms"), ["ProviderTransformer"]);
    assert_eq!(
        right("providers"),
        ["provider[\"registry.opentofu.org/hashicorp/aws\"].west (close)"]
    );
    assert_eq!(
        right("reduction"),
        ["aws_instance.web (expand) → aws_vpc.main (expand)"]
    );
    assert_eq!(
        right("cycles"),
        [
            "aws_security_group.a (expand)",
            "aws_security_group.b (expand)"
        ]
    );
    assert_eq!(right("walk"), ["data.aws_vpc.default (expand)"]);
    assert_eq!(right("parallelism"), ["3"]);
    assert_eq!(right("critical-path"), ["aws_s3_bucket.assets (expand)"]);
    assert_eq!(right("destroy-edges"), ["aws_launch_template.app"]);
    assert_eq!(right("expansion"), ["4"]);
    assert_eq!(right("inside"), ["Get the provider"]);
}

#[test]
fn a_lesson_whose_configuration_no_longer_builds_says_so() {
    let l = by_id("vertices-edges").unwrap();
    assert!(solve(l, &Analysis::default()).is_err());
    // Edited so the asked vertex is gone: an error, not a wrong answer key.
    let files = [(
        "main.tf".to_string(),
        "resource \"a\" \"b\" {}\n".to_string(),
    )]
    .into();
    let a = analyze(
        &files,
        crate::builder::BuilderKind::Plan,
        &Options::default(),
    );
    assert!(solve(l, &a).is_err());
}

#[test]
fn progress_round_trips_and_forgets_what_is_not_a_lesson() {
    let mut p = Progress::default();
    p.mark_done("walk");
    p.current = Some("parallelism".into());
    let text = p.to_text();
    assert_eq!(Progress::parse(Some(&text)), p);
    assert_eq!(p.count(), (1, LESSONS.len()));
    assert_eq!(Progress::parse(None), Progress::default());
    assert_eq!(Progress::parse(Some("not json {")), Progress::default());
    let odd = Progress::parse(Some(r#"{"done":["walk","gone"],"current":"gone"}"#));
    assert_eq!(odd.done.into_iter().collect::<Vec<_>>(), ["walk"]);
    assert_eq!(odd.current, None);
}

#[test]
fn a_lesson_link_is_its_fragment() {
    assert_eq!(fragment("cycles"), "lesson=cycles");
    assert_eq!(
        from_fragment("#lesson=cycles").map(|l| l.id),
        Some("cycles")
    );
    assert_eq!(from_fragment("lesson=walk").map(|l| l.id), Some("walk"));
    assert!(from_fragment("#lesson=nope").is_none());
    assert!(from_fragment("#v1.abc").is_none());
    assert!(from_fragment("").is_none());
}

//! The marks a drawn vertex or edge carries besides its kind: replayed step (added, removed),
//! cycle, an opened `(expand)` vertex and its sub-graph, the selection and what is related to
//! it, an injected failure, the critical path, the hovered vertex, search matches, module calls
//! not installed, what the open lesson points at. They become CSS classes.
//!
//! Why one function over the whole drawing instead of one closure per element: in Leptos' reactive
//! graph each subscriber is kept in its source's ordered set, and a subscriber that runs again
//! removes itself from every source it read (a shift of that set). Thousands of per-element
//! closures reading the same selection or graph made every edit and every selection quadratic
//! (a CPU profile of one edit at 1,000 generated resources: 581 ms of 1.7 s in that removal). The
//! app computes these marks in one effect and gives each element only its own string.
//!
//! Invariant: plain data; indexes are the shown graph's, names OpenTofu's.

use super::analysis::NotInstalled;
use super::view::{Related, Shown, matches_query};
use std::collections::BTreeSet;

/// What the marks are computed from.
#[derive(Debug, Clone, Copy)]
pub struct Marks<'a> {
    pub shown: &'a Shown,
    pub related: &'a Related,
    /// Vertices (by name) made to fail in the next walk.
    pub failures: &'a BTreeSet<String>,
    /// The walk's critical path (indexes).
    pub critical: &'a BTreeSet<usize>,
    pub hover: Option<usize>,
    pub search: &'a str,
    pub not_installed: &'a [NotInstalled],
    /// A plan's actions, when one is loaded: a marked vertex gets its action's class.
    pub actions: Option<&'a super::actions::PlanActions>,
    /// Vertices (by name) the open lesson points at ([`super::lessons::Stage::highlight`]).
    pub lesson: &'a BTreeSet<String>,
}

/// The classes of vertex `name` (of kind `typed`) at index `i`, each after a space (empty when it
/// has none).
pub fn vertex(m: &Marks, name: &str, typed: &crate::kind::Typed, i: usize) -> String {
    let mut c = String::new();
    // A module call that is not installed: drawn dashed (see the legend).
    if super::analysis::is_not_installed(m.not_installed, typed) {
        c.push_str(" not-installed");
    }
    if let Some(b) = badge(m, name) {
        c.push(' ');
        c.push_str(&b.class);
    }
    if let Some(r) = &m.shown.replay {
        if r.removed.contains(name) {
            c.push_str(" removed");
        } else if r.added.contains(name) {
            c.push_str(" added");
        }
    }
    if m.shown.cycle_nodes.contains(&i) {
        c.push_str(" cycle");
    }
    if m.lesson.contains(name) {
        c.push_str(" lesson");
    }
    // An opened `(expand)` vertex, and what is drawn for its sub-graph (`super::expanded`).
    if m.shown.opened.contains_key(&i) {
        c.push_str(" opened");
    } else if m.shown.opened.values().any(|ms| ms.contains(&i)) {
        c.push_str(" expansion");
    }
    let r = m.related;
    if r.selected == Some(i) {
        c.push_str(" selected");
    } else if r.is_up(i) {
        c.push_str(" ancestor");
    } else if r.is_down(i) {
        c.push_str(" descendant");
    } else if r.selected.is_some() {
        c.push_str(" dim");
    }
    // Made to fail, or to fail at one of its steps (`NAME@STEP`).
    if m.failures
        .iter()
        .any(|f| crate::walk::steps::parse_failure(f).0 == name)
    {
        c.push_str(" inject");
    }
    if m.critical.contains(&i) {
        c.push_str(" critical");
    }
    if m.hover == Some(i) {
        c.push_str(" hover");
    }
    if !m.search.trim().is_empty() {
        c.push_str(if matches_query(name, m.search) {
            " match"
        } else {
            " nomatch"
        });
    }
    c
}

/// The planned action vertex `name` shows, if a plan is loaded and a change concerns it.
pub fn badge<'a>(m: &Marks<'a>, name: &str) -> Option<&'a super::actions::Badge> {
    m.actions.and_then(|a| a.badges.get(name))
}

/// The classes of the edge `key` (dependent, dependency) from index `a` to `b`, each after a
/// space.
pub fn edge(m: &Marks, key: &(String, String), a: usize, b: usize) -> String {
    let mut c = String::new();
    if let Some(r) = &m.shown.replay {
        if r.removed_edges.contains(key) {
            c.push_str(" removed");
        } else if r.added_edges.contains(key) {
            c.push_str(" added");
        }
    }
    if m.shown.cycle_edges.contains(&(a, b)) {
        c.push_str(" cycle");
    }
    if m.critical.contains(&a) && m.critical.contains(&b) {
        c.push_str(" critical");
    }
    let r = m.related;
    if let Some(sel) = r.selected {
        let up = (a == sel || r.is_up(a)) && r.is_up(b);
        let down = (b == sel || r.is_down(b)) && r.is_down(a);
        c.push_str(if up || down { " related" } else { " dim" });
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::analysis::analyze;
    use crate::page::view::{ViewOpts, shown};

    const CHAIN: &str = "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" {\n  vpc_id = aws_vpc.a.id\n}\nresource \"aws_instance\" \"c\" {\n  subnet_id = aws_subnet.b.id\n}\nresource \"aws_eip\" \"e\" {}\n";

    fn chain() -> Shown {
        let files = [("main.tf".to_string(), CHAIN.to_string())].into();
        let a = analyze(
            &files,
            crate::builder::BuilderKind::Plan,
            &Default::default(),
        );
        shown(&a, None, &ViewOpts::default())
    }

    fn marks<'a>(
        s: &'a Shown,
        r: &'a Related,
        failures: &'a BTreeSet<String>,
        critical: &'a BTreeSet<usize>,
    ) -> Marks<'a> {
        Marks {
            shown: s,
            related: r,
            failures,
            critical,
            hover: None,
            search: "",
            not_installed: &[],
            actions: None,
            lesson: &NO_LESSON,
        }
    }

    static NO_LESSON: BTreeSet<String> = BTreeSet::new();

    #[test]
    fn the_vertices_a_lesson_points_at_are_marked() {
        let s = chain();
        let (r, f, c) = (Related::default(), BTreeSet::new(), BTreeSet::new());
        let lesson: BTreeSet<String> = ["aws_subnet.b (expand)".to_string()].into();
        let mut m = marks(&s, &r, &f, &c);
        m.lesson = &lesson;
        let class = |name: &str| {
            let i = s.graph.index_of(name).unwrap();
            vertex(&m, name, &s.graph.vertices()[i].typed, i)
        };
        assert_eq!(class("aws_subnet.b (expand)"), " lesson");
        assert_eq!(class("aws_vpc.a (expand)"), "");
    }

    #[test]
    fn nothing_is_marked_without_a_selection_search_or_walk() {
        let s = chain();
        let (r, f, c) = (Related::default(), BTreeSet::new(), BTreeSet::new());
        let m = marks(&s, &r, &f, &c);
        for (i, v) in s.graph.vertices().iter().enumerate() {
            assert_eq!(vertex(&m, &v.name, &v.typed, i), "", "{}", v.name);
        }
        for &(a, b) in s.graph.edges() {
            let key = (
                s.graph.vertices()[a].name.clone(),
                s.graph.vertices()[b].name.clone(),
            );
            assert_eq!(edge(&m, &key, a, b), "");
        }
    }

    #[test]
    fn a_selection_marks_what_it_waits_for_what_waits_for_it_and_dims_the_rest() {
        let s = chain();
        let r = Related::of(&s.graph, "aws_subnet.b (expand)");
        let (f, c) = (BTreeSet::new(), BTreeSet::new());
        let m = marks(&s, &r, &f, &c);
        let class = |name: &str| {
            let i = s.graph.index_of(name).unwrap();
            vertex(&m, name, &s.graph.vertices()[i].typed, i)
        };
        assert_eq!(class("aws_subnet.b (expand)"), " selected");
        assert_eq!(class("aws_vpc.a (expand)"), " ancestor");
        assert_eq!(class("aws_instance.c (expand)"), " descendant");
        assert_eq!(class("aws_eip.e (expand)"), " dim");
        let ix = |n: &str| s.graph.index_of(n).unwrap();
        let e =
            |from: &str, to: &str| edge(&m, &(from.to_string(), to.to_string()), ix(from), ix(to));
        assert_eq!(e("aws_subnet.b (expand)", "aws_vpc.a (expand)"), " related");
        assert_eq!(
            e("aws_instance.c (expand)", "aws_subnet.b (expand)"),
            " related"
        );
        let provider = "provider[\"registry.opentofu.org/hashicorp/aws\"]";
        assert_eq!(e("aws_eip.e (expand)", provider), " dim");
    }

    #[test]
    fn failures_the_critical_path_hover_and_search_add_their_marks() {
        let s = chain();
        let r = Related::default();
        let f: BTreeSet<String> = ["aws_eip.e (expand)".to_string()].into();
        let ix = |n: &str| s.graph.index_of(n).unwrap();
        let c: BTreeSet<usize> = [ix("aws_vpc.a (expand)"), ix("aws_subnet.b (expand)")].into();
        let mut m = marks(&s, &r, &f, &c);
        m.hover = Some(ix("aws_vpc.a (expand)"));
        m.search = " SUBNET ";
        let class = |name: &str| {
            let i = ix(name);
            vertex(&m, name, &s.graph.vertices()[i].typed, i)
        };
        assert_eq!(class("aws_eip.e (expand)"), " inject nomatch");
        assert_eq!(class("aws_vpc.a (expand)"), " critical hover nomatch");
        assert_eq!(class("aws_subnet.b (expand)"), " critical match");
        let key = (
            "aws_subnet.b (expand)".to_string(),
            "aws_vpc.a (expand)".to_string(),
        );
        assert_eq!(
            edge(
                &m,
                &key,
                ix("aws_subnet.b (expand)"),
                ix("aws_vpc.a (expand)")
            ),
            " critical"
        );
    }

    #[test]
    fn an_opened_vertex_and_its_sub_graph_are_marked() {
        let files = [(
            "main.tf".to_string(),
            "resource \"aws_eip\" \"e\" {\n  count = 2\n}\n".to_string(),
        )]
        .into();
        let a = analyze(
            &files,
            crate::builder::BuilderKind::Plan,
            &Default::default(),
        );
        let o = ViewOpts {
            open: ["aws_eip.e (expand)".to_string()].into(),
            ..ViewOpts::default()
        };
        let s = shown(&a, None, &o);
        let (r, f, c) = (Related::default(), BTreeSet::new(), BTreeSet::new());
        let m = marks(&s, &r, &f, &c);
        let class = |name: &str| {
            let i = s.graph.index_of(name).unwrap();
            vertex(&m, name, &s.graph.vertices()[i].typed, i)
        };
        assert_eq!(class("aws_eip.e (expand)"), " opened");
        assert_eq!(class("aws_eip.e[1]"), " expansion");
        assert_eq!(class("root"), "");
    }

    #[test]
    fn a_plans_action_is_a_class_of_the_vertex_it_concerns() {
        use crate::page::examples::{EXAMPLES, files_of};
        let e = EXAMPLES.iter().find(|e| e.id == "replace").unwrap();
        let a = analyze(&files_of(e), e.kind, &Default::default());
        let s = shown(&a, None, &ViewOpts::default());
        let (r, f, c) = (Related::default(), BTreeSet::new(), BTreeSet::new());
        let mut m = marks(&s, &r, &f, &c);
        m.actions = a.actions.as_ref();
        let class = |name: &str| {
            let i = s.graph.index_of(name).unwrap();
            vertex(&m, name, &s.graph.vertices()[i].typed, i)
        };
        assert_eq!(
            class("aws_launch_template.app"),
            " action-delete-then-create"
        );
        assert_eq!(
            class("aws_launch_template.app (destroy)"),
            " action-delete-then-create"
        );
        assert_eq!(class("aws_autoscaling_group.app"), " action-update");
        let provider = "provider[\"registry.opentofu.org/hashicorp/aws\"]";
        assert_eq!(class(provider), "");
        assert!(badge(&m, provider).is_none());
    }
}

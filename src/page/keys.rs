//! The graph from the keyboard: the order the arrow keys move through the drawn vertices, and
//! what each vertex is called for a screen reader.
//!
//! The order is the drawing's reading order: layer by layer from the top (the layout puts what
//! runs first above what waits for it, so for a graph without cycles this is a topological
//! order of the walk), left to right within a layer. Moving in the drawing's order, rather than
//! by a graph algorithm's, keeps each press a short hop on screen.

use super::scene::{SNode, Scene};

/// The drawn vertices' names in reading order: by layer (rounded top), then left to right, then
/// by name.
pub fn order(sc: &Scene) -> Vec<String> {
    let mut nodes: Vec<&SNode> = sc.nodes.iter().collect();
    // Vertices of one layer share a centre line; their tops differ with their heights.
    let centre = |n: &SNode| ((n.y + n.h / 2.0) * 2.0).round() as i64;
    nodes.sort_by(|a, b| {
        centre(a)
            .cmp(&centre(b))
            .then(a.x.total_cmp(&b.x))
            .then(a.name.cmp(&b.name))
    });
    nodes.into_iter().map(|n| n.name.clone()).collect()
}

/// The vertex a key moves to from `current` in `order`: ArrowDown and ArrowRight the next,
/// ArrowUp and ArrowLeft the previous (staying at the ends), Home the first, End the last.
/// `None` for any other key, or an empty order. From no vertex (or one no longer drawn), any
/// of these keys goes to the first.
pub fn step<'a>(order: &'a [String], current: Option<&str>, key: &str) -> Option<&'a str> {
    let last = order.len().checked_sub(1)?;
    let at = current.and_then(|c| order.iter().position(|n| n == c));
    let to = match key {
        "Home" => 0,
        "End" => last,
        "ArrowDown" | "ArrowRight" => at.map_or(0, |i| (i + 1).min(last)),
        "ArrowUp" | "ArrowLeft" => at.map_or(0, |i| i.saturating_sub(1)),
        _ => return None,
    };
    order.get(to).map(String::as_str)
}

/// Whether `key` moves between vertices (see [`step`]).
pub fn is_move_key(key: &str) -> bool {
    matches!(
        key,
        "ArrowDown" | "ArrowRight" | "ArrowUp" | "ArrowLeft" | "Home" | "End"
    )
}

/// The vertex that takes the graph's one Tab stop: the focused one if it is drawn, else the
/// selected one if drawn, else the first in reading order.
pub fn tab_stop<'a>(
    order: &'a [String],
    focused: Option<&str>,
    selected: Option<&str>,
) -> Option<&'a str> {
    let drawn = |n: Option<&str>| n.and_then(|n| order.iter().find(|o| *o == n));
    drawn(focused)
        .or_else(|| drawn(selected))
        .or(order.first())
        .map(String::as_str)
}

/// What a screen reader says for a vertex: its name, its kind and, during a walk, its state
/// ("aws_instance.web (expand), resource, running").
pub fn label(name: &str, kind: super::graph::Kind, state: Option<&str>) -> String {
    match state {
        Some(s) if !s.is_empty() => format!("{name}, {}, {s}", kind.label()),
        _ => format!("{name}, {}", kind.label()),
    }
}

/// [`label`] of a vertex that shows the evaluation step it is running under its name: the
/// step is said right after the name, as it is read on screen (a control's name must contain its
/// visible text in order, WCAG 2.5.3).
pub fn label_with_step(
    name: &str,
    kind: super::graph::Kind,
    state: Option<&str>,
    step: Option<&str>,
) -> String {
    match step {
        Some(step) => label(&format!("{name} {step}"), kind, state),
        None => label(name, kind, state),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::graph::Kind;

    #[test]
    fn a_running_vertex_says_its_step_after_its_name_as_it_is_shown() {
        assert_eq!(
            label_with_step(
                "aws_vpc.a (expand)",
                Kind::Resource,
                Some("running"),
                Some("Ask the provider for the planned change")
            ),
            "aws_vpc.a (expand) Ask the provider for the planned change, resource, running"
        );
        assert_eq!(
            label_with_step("aws_vpc.a (expand)", Kind::Resource, None, None),
            label("aws_vpc.a (expand)", Kind::Resource, None)
        );
    }

    fn node(name: &str, x: f64, y: f64, h: f64) -> SNode {
        SNode {
            index: 0,
            name: name.into(),
            kind: Kind::Resource,
            typed: Default::default(),
            x,
            y,
            w: 40.0,
            h,
        }
    }

    fn scene(nodes: Vec<SNode>) -> Scene {
        Scene {
            nodes,
            ..Scene::default()
        }
    }

    #[test]
    fn reading_order_is_by_layer_then_left_to_right() {
        // Two layers; in the lower one a taller vertex starts higher but shares the centre line.
        let sc = scene(vec![
            node("c", 100.0, 80.0, 20.0),
            node("tall", 10.0, 75.0, 30.0),
            node("b", 60.0, 0.0, 20.0),
            node("a", 10.0, 0.0, 20.0),
        ]);
        assert_eq!(order(&sc), vec!["a", "b", "tall", "c"]);
    }

    #[test]
    fn the_reading_order_of_a_built_graph_runs_dependencies_first() {
        use crate::page::analysis::{Options, analyze};
        use crate::page::scene::drawn;
        use crate::page::view::{ViewOpts, shown};
        let files = std::collections::BTreeMap::from([(
            "main.tf".to_string(),
            "resource \"a\" \"x\" {}\nresource \"b\" \"y\" {\n  v = a.x.id\n}\nresource \"c\" \"z\" {\n  v = b.y.id\n}\n".to_string(),
        )]);
        let a = analyze(
            &files,
            crate::builder::BuilderKind::Plan,
            &Options::default(),
        );
        let s = shown(&a, None, &ViewOpts::default());
        let (g, visible) = drawn(&s);
        let sc = crate::page::scene::scene(&g, &visible, None);
        let o = order(&sc);
        let at = |n: &str| {
            o.iter()
                .position(|x| x == n)
                .unwrap_or_else(|| panic!("{n} in {o:?}"))
        };
        assert!(at("a.x (expand)") < at("b.y (expand)"));
        assert!(at("b.y (expand)") < at("c.z (expand)"));
        assert_eq!(o.last().map(String::as_str), Some("root"));
        // Every edge goes from a later vertex to an earlier one: a topological order.
        for &(from, to) in s.graph.edges() {
            let (f, t) = (&s.graph.vertices()[from].name, &s.graph.vertices()[to].name);
            assert!(at(t) < at(f), "{f} depends on {t}");
        }
    }

    #[test]
    fn arrows_step_through_the_order_and_stop_at_the_ends() {
        let o: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(step(&o, Some("a"), "ArrowDown"), Some("b"));
        assert_eq!(step(&o, Some("b"), "ArrowRight"), Some("c"));
        assert_eq!(step(&o, Some("c"), "ArrowDown"), Some("c"));
        assert_eq!(step(&o, Some("c"), "ArrowUp"), Some("b"));
        assert_eq!(step(&o, Some("a"), "ArrowLeft"), Some("a"));
        assert_eq!(step(&o, Some("b"), "Home"), Some("a"));
        assert_eq!(step(&o, Some("a"), "End"), Some("c"));
        assert_eq!(step(&o, None, "ArrowUp"), Some("a"));
        assert_eq!(step(&o, Some("gone"), "ArrowDown"), Some("a"));
        assert_eq!(step(&o, Some("a"), "Enter"), None);
        assert_eq!(step(&[], None, "ArrowDown"), None);
    }

    #[test]
    fn one_tab_stop_follows_focus_then_selection() {
        let o: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(tab_stop(&o, None, None), Some("a"));
        assert_eq!(tab_stop(&o, None, Some("b")), Some("b"));
        assert_eq!(tab_stop(&o, Some("c"), Some("b")), Some("c"));
        assert_eq!(tab_stop(&o, Some("gone"), Some("also gone")), Some("a"));
        assert_eq!(tab_stop(&[], None, None), None);
    }

    #[test]
    fn labels_say_name_kind_and_walk_state() {
        assert_eq!(
            label("var.region", Kind::Variable, None),
            "var.region, variable"
        );
        assert_eq!(
            label("aws_instance.web (expand)", Kind::Resource, Some("running")),
            "aws_instance.web (expand), resource, running"
        );
    }
}

//! Planned actions on the drawn graph: with a plan or a changes list among the files, the badge
//! each resource vertex and instance shows (`tofu plan`'s symbol, each part in its colour), what
//! a screen reader says for it, and the legend's rows (the actions present, with a count each)
//! and `tofu plan`'s summary line. The marks themselves are [`crate::actions`]'; this is how the
//! page shows them.
//!
//! Invariant: plain data, keyed by OpenTofu's vertex names; the colours here are the ones the
//! stylesheet's `--a-*` variables hold (a test reads `style/main.css`), each at least 4.5:1
//! against the canvas and the panel in both themes.

use crate::actions::{self, Mark, ORDER, style};
use crate::builder::Node;
use crate::dag::Graph;
use crate::plan::{Action, Changes};
use std::collections::BTreeMap;

/// One run of the badge's text in one colour (`red`, `green`, `yellow`, `cyan`; `none` for the
/// text's own colour).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Part {
    pub text: String,
    pub colour: std::borrow::Cow<'static, str>,
}

/// What one vertex shows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Badge {
    /// The symbol in coloured parts (`-` red, `/`, `+` green); empty for no-op.
    pub parts: Vec<Part>,
    /// The CSS class the vertex gets: `action-` and the mark's class (`action-create-then-delete`).
    pub class: String,
    /// In words, for the screen reader and the tooltip (`planned: create replacement and then
    /// destroy (+/-)`).
    pub words: String,
}

/// One row of the legend: an action present in the plan.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LegendRow {
    pub parts: Vec<Part>,
    pub class: String,
    pub description: std::borrow::Cow<'static, str>,
    /// How many instance changes have it.
    pub count: usize,
}

/// Everything the page shows of the plan's actions.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PlanActions {
    /// By vertex name: only the vertices a change concerns.
    pub badges: BTreeMap<String, Badge>,
    /// The actions present, in `tofu plan`'s legend order.
    pub legend: Vec<LegendRow>,
    /// `Plan: 1 to add, 1 to change, 1 to destroy.`
    pub summary: String,
}

/// An action's symbol in its colours: a two-part symbol (`-/+`, `+/-`, `./+`) is its first part
/// in the first colour, the slash in the text's colour, the last part in the second, as
/// `tofu plan`'s `DiffActionSymbol` colours them.
pub fn parts(a: Action) -> Vec<Part> {
    let s = style(a);
    let part = |text: &str, colour: &'static str| Part {
        text: text.to_string(),
        colour: colour.into(),
    };
    match s.symbol.split_once('/') {
        Some((first, last)) => vec![
            part(first, s.colours.0),
            part("/", "none"),
            part(last, s.colours.1),
        ],
        None if s.symbol.is_empty() => Vec::new(),
        None => vec![part(s.symbol, s.colours.0)],
    }
}

/// The badge of a mark; a mixed mark shows each action's symbol with its count (`+1 ~1`).
pub fn badge(mark: &Mark) -> Badge {
    let parts = match mark {
        Mark::Action(a) => parts(*a),
        Mark::Mixed(m) => {
            let mut out: Vec<Part> = Vec::new();
            for (a, n) in ORDER.iter().filter_map(|a| m.get(a).map(|n| (*a, n))) {
                if a == Action::NoOp {
                    continue;
                }
                if !out.is_empty() {
                    out.push(Part {
                        text: " ".into(),
                        colour: "none".into(),
                    });
                }
                let mut p = parts(a);
                if let Some(last) = p.last_mut() {
                    last.text.push_str(&n.to_string());
                }
                out.extend(p);
            }
            out
        }
    };
    let symbol = mark.symbol();
    let words = if symbol.is_empty() {
        format!("planned: {}", mark.description())
    } else {
        format!("planned: {} ({symbol})", mark.description())
    };
    Badge {
        parts,
        class: format!("action-{}", mark.class()),
        words,
    }
}

/// The page's view of `changes` on the graph `g`.
pub fn of(g: &Graph<Node>, changes: &Changes) -> PlanActions {
    let badges = actions::marks(g, changes)
        .iter()
        .map(|(name, m)| (name.clone(), badge(m)))
        .collect();
    let counts = actions::counts(changes);
    let legend = ORDER
        .iter()
        .filter_map(|a| {
            counts.get(a).map(|&count| LegendRow {
                parts: parts(*a),
                class: format!("action-{}", style(*a).class),
                description: style(*a).description.into(),
                count,
            })
        })
        .collect();
    PlanActions {
        badges,
        legend,
        summary: actions::summary(changes),
    }
}

/// The colours the page draws actions in, light theme then dark (the stylesheet's `--a-*`).
pub const COLOURS: [(&str, &str, &str); 4] = [
    ("red", "#b42318", "#ff8a80"),
    ("green", "#2f7d32", "#8fd18f"),
    ("yellow", "#8a5a00", "#f0c060"),
    ("cyan", "#00707f", "#6fd3e3"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::analysis::analyze;
    use crate::page::examples::{EXAMPLES, files_of};

    fn example(id: &str) -> PlanActions {
        let e = EXAMPLES.iter().find(|e| e.id == id).unwrap();
        let a = analyze(&files_of(e), e.kind, &Default::default());
        assert!(a.errors.is_empty(), "{:?}", a.errors);
        a.actions.expect("the example has a plan")
    }

    fn text(parts: &[Part]) -> String {
        parts.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn replacements_show_their_symbol_in_both_colours() {
        let p = parts(Action::DeleteThenCreate);
        assert_eq!(
            p.iter()
                .map(|p| (p.text.as_str(), &*p.colour))
                .collect::<Vec<_>>(),
            [("-", "red"), ("/", "none"), ("+", "green")]
        );
        let p = parts(Action::CreateThenDelete);
        assert_eq!(
            p.iter()
                .map(|p| (p.text.as_str(), &*p.colour))
                .collect::<Vec<_>>(),
            [("+", "green"), ("/", "none"), ("-", "red")]
        );
        assert_eq!(text(&parts(Action::Read)), "<=");
        assert!(parts(Action::NoOp).is_empty());
    }

    #[test]
    fn the_replace_example_marks_both_halves_and_counts_each_action() {
        let a = example("replace");
        let b = &a.badges["aws_launch_template.app"];
        assert_eq!(text(&b.parts), "-/+");
        assert_eq!(b.class, "action-delete-then-create");
        assert_eq!(
            b.words,
            "planned: destroy and then create replacement (-/+)"
        );
        assert_eq!(
            text(&a.badges["aws_launch_template.app (destroy)"].parts),
            "-/+"
        );
        assert_eq!(text(&a.badges["aws_autoscaling_group.app"].parts), "~");
        assert!(!a.badges.keys().any(|k| k.starts_with("provider")));
        let rows: Vec<(String, usize)> =
            a.legend.iter().map(|r| (text(&r.parts), r.count)).collect();
        assert_eq!(rows, [("~".to_string(), 1), ("-/+".to_string(), 1)]);
        assert_eq!(a.summary, "Plan: 1 to add, 1 to change, 1 to destroy.");
    }

    #[test]
    fn the_cbd_example_marks_the_deposed_destroy_too() {
        let a = example("replace-cbd");
        assert_eq!(text(&a.badges["aws_launch_template.app"].parts), "+/-");
        let deposed = a
            .badges
            .iter()
            .find(|(k, _)| k.starts_with("aws_launch_template.app (destroy deposed "))
            .expect("the deposed destroy is marked");
        assert_eq!(deposed.1.class, "action-create-then-delete");
    }

    #[test]
    fn without_a_plan_there_are_no_actions() {
        let e = EXAMPLES.iter().find(|e| e.id == "references").unwrap();
        let a = analyze(&files_of(e), e.kind, &Default::default());
        assert_eq!(a.actions, None);
    }

    #[test]
    fn mixed_marks_show_each_count() {
        let m = Mark::Mixed([(Action::Create, 2), (Action::Update, 1)].into());
        let b = badge(&m);
        assert_eq!(text(&b.parts), "+2 ~1");
        assert_eq!(b.class, "action-mixed");
    }

    /// WCAG 2 relative luminance of `#rrggbb`.
    fn luminance(hex: &str) -> f64 {
        let c = |i: usize| {
            let v = u8::from_str_radix(&hex[i..i + 2], 16).unwrap() as f64 / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    #[test]
    fn the_colours_read_in_both_themes_and_are_the_stylesheets() {
        // The badge sits on the canvas above its vertex; the legend on the panel.
        let light = ["#fbfbfa", "#ffffff", "#f6f6f4"];
        let dark = ["#17171a", "#1c1c1f", "#141416"];
        let css = include_str!("../../style/main.css");
        for (name, l, d) in COLOURS {
            for bg in light {
                assert!(
                    contrast(l, bg) >= 4.5,
                    "{name} {l} on {bg}: {}",
                    contrast(l, bg)
                );
            }
            for bg in dark {
                assert!(
                    contrast(d, bg) >= 4.5,
                    "{name} {d} on {bg}: {}",
                    contrast(d, bg)
                );
            }
            assert!(css.contains(&format!("--a-{name}: {l};")), "{name}");
            assert!(css.contains(&format!("--a-{name}: {d};")), "{name}");
        }
    }
}

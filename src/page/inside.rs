//! Inside the selected vertex, for the details panel: the evaluation steps it runs in the walk
//! of the graph on screen ([`crate::inside::steps`]), its values ([`crate::inside::values`]),
//! each value it reads linked to the vertex that provides it, and its declaration's source with
//! each reference marked and linked to its vertex. Worked out when a vertex is selected, from the
//! analysis' [`super::analysis::SharedInside`]. Plain data; nothing here knows about the DOM.

use super::analysis::remote::{Answer, Question};
pub use super::analysis::remote::{ValueGroup, ValueRow};
use super::analysis::{Analysis, RefLink};
use super::highlight::{Class, Lexed};
use crate::inside::steps::{Item, Step, evaluation};
use crate::inside::values::{Inputs, Values, values};

/// One evaluation step as the panel lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepRow {
    pub name: &'static str,
    pub sentence: &'static str,
    /// `prior state, configuration`, or `nothing`.
    pub reads: String,
    pub writes: String,
    /// `NodePlannableResourceInstance.plan (node_resource_plan_instance.go)`.
    pub go: String,
}

/// What the details panel shows inside a vertex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inside {
    /// The Go type that runs it and its file (`nodeExpandPlannableResource (node_resource_plan.go)`).
    pub go: String,
    /// `the plan walk (walkPlan)`.
    pub walk: String,
    pub steps: Vec<StepRow>,
    /// The Go type of its sub-graph's vertices and their steps, for a vertex that expands.
    pub instance: Option<(String, Vec<StepRow>)>,
    pub values: Vec<ValueGroup>,
    /// What is not listed, and why.
    pub notes: Vec<String>,
}

/// Items as a list reads: `prior state, configuration`, or `nothing`.
pub fn io(v: &[Item]) -> String {
    if v.is_empty() {
        "nothing".into()
    } else {
        v.iter().map(|i| i.label()).collect::<Vec<_>>().join(", ")
    }
}

fn rows(steps: &[Step]) -> Vec<StepRow> {
    steps
        .iter()
        .map(|s| StepRow {
            name: s.name,
            sentence: s.sentence,
            reads: io(s.reads),
            writes: io(s.writes),
            go: s.go.to_string(),
        })
        .collect()
}

/// The dependencies of `name` that references caused, by the reference's text: the vertex each
/// reference links to (an edge in the graph before one transitive reduction removed, then the
/// shorter name: `var.x (expand, reference)` before `var.x`... both are the variable).
fn referenced(a: &Analysis, name: &str) -> Vec<(RefLink, String)> {
    let mut out: Vec<(RefLink, String, bool)> = Vec::new();
    let from = a.graph.as_ref().and_then(|g| g.index_of(name));
    let start = (name.to_string(), String::new());
    for ((f, to), why) in a.whys.range(start..) {
        if f != name {
            break;
        }
        let in_graph = match (a.graph.as_ref(), from) {
            (Some(g), Some(i)) => g.index_of(to).is_some_and(|j| g.has_edge(i, j)),
            _ => false,
        };
        for r in &why.refs {
            out.push((r.clone(), to.clone(), in_graph));
        }
    }
    // Per reference, the best vertex first.
    out.sort_by(|x, y| {
        (&x.0.file, x.0.line, x.0.column, !x.2, x.1.len(), &x.1).cmp(&(
            &y.0.file,
            y.0.line,
            y.0.column,
            !y.2,
            y.1.len(),
            &y.1,
        ))
    });
    out.dedup_by(|x, y| x.0 == y.0);
    out.into_iter().map(|(r, v, _)| (r, v)).collect()
}

/// What runs inside vertex `name`, without its values (quick: no expression is evaluated), or
/// `None` as [`of_vertex`].
pub fn steps_of(a: &Analysis, name: &str) -> Option<Inside> {
    let table = a.step_table.as_ref()?;
    let (go, op) = (table.go_of(name)?, table.operation());
    let ev = evaluation(go, op);
    Some(Inside {
        go: format!("{} ({})", go.type_name(), go.file()),
        walk: format!("the {op} walk ({})", op.go_walk()),
        steps: rows(&ev.steps),
        instance: ev
            .instance
            .as_ref()
            .map(|i| (i.go.type_name().to_string(), rows(&i.steps))),
        values: Vec::new(),
        notes: Vec::new(),
    })
}

/// What runs inside vertex `name` and the values it sees, or `None` when the analysis has no
/// engine data for it (an imported graph, a vertex of a replayed step that is gone), or (made by
/// the engine's worker) its values have not been asked for yet: [`lookup`] tells which.
pub fn of_vertex(a: &Analysis, name: &str) -> Option<Inside> {
    lookup(a, name).ok().flatten()
}

/// [`of_vertex`], or for an analysis the engine's worker made whose answer has not arrived, the
/// question to ask it.
pub fn lookup(a: &Analysis, name: &str) -> Result<Option<Inside>, Question> {
    let Some(base) = steps_of(a, name) else {
        return Ok(None);
    };
    let found = match &a.remote {
        Some(r) => {
            let q = Question::Values(name.to_string());
            match r.answer(&q) {
                Some(Answer::Values(v)) => v,
                _ => return Err(q),
            }
        }
        None => values_of(a, name),
    };
    Ok(found.map(|(values, notes)| Inside {
        values,
        notes,
        ..base
    }))
}

/// The value groups and notes of vertex `name`, worked out from the configuration the analysis
/// holds (`None` without it).
pub fn values_of(a: &Analysis, name: &str) -> Option<(Vec<ValueGroup>, Vec<String>)> {
    let data = &a.inside.as_ref()?.data;
    let subject = data.vertices.get(name)?;
    let vals = match subject {
        Some(s) => values(
            Inputs {
                config: &data.config,
                vars: &data.vars,
                sources: &data.var_sources,
            },
            s,
        ),
        None => Values::default(),
    };
    let refs = referenced(a, name);
    let vertex_of = |text: &str| {
        refs.iter()
            .find(|(r, _)| r.text == text || r.text.starts_with(&format!("{text}.")))
            .map(|(_, v)| v.clone())
    };
    let values = vals
        .groups
        .iter()
        .map(|g| ValueGroup {
            title: g.title.clone(),
            rows: g
                .reads
                .iter()
                .map(|n| (n, true))
                .chain(g.produces.iter().map(|n| (n, false)))
                .map(|(n, read)| ValueRow {
                    name: n.name.clone(),
                    read,
                    text: n.shown.text().to_string(),
                    note: n.shown.note().map(str::to_string),
                    known: n.shown.is_known(),
                    vertex: if read { vertex_of(&n.name) } else { None },
                })
                .collect(),
        })
        .collect();
    Some((values, vals.notes))
}

/// A piece of a snippet line: its highlight class, its text, and the vertex it refers to when it
/// is (part of) a reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub class: Option<Class>,
    pub text: String,
    pub vertex: Option<String>,
}

/// A run of a line's pieces: a whole reference with the vertex it refers to, or text between
/// references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub vertex: Option<String>,
    pub pieces: Vec<(Option<Class>, String)>,
}

impl Segment {
    pub fn text(&self) -> String {
        self.pieces.iter().map(|(_, t)| t.as_str()).collect()
    }
}

/// [`snippet_pieces`] grouped: consecutive pieces of one reference form one segment.
pub fn snippet_segments(
    a: &Analysis,
    name: &str,
    file: &str,
    lines: &[(usize, String)],
) -> Vec<Vec<Segment>> {
    snippet_pieces(a, name, file, lines)
        .into_iter()
        .map(|line| {
            let mut out: Vec<Segment> = Vec::new();
            for p in line {
                match out.last_mut() {
                    Some(s) if s.vertex == p.vertex => s.pieces.push((p.class, p.text)),
                    _ => out.push(Segment {
                        vertex: p.vertex,
                        pieces: vec![(p.class, p.text)],
                    }),
                }
            }
            out
        })
        .collect()
}

/// The highlighted pieces of each line of a declaration snippet (`lines`: line numbers and text
/// of `file`, as [`super::explain::snippet`] gives them), with each reference vertex `name`
/// makes marked and linked to the vertex it refers to.
pub fn snippet_pieces(
    a: &Analysis,
    name: &str,
    file: &str,
    lines: &[(usize, String)],
) -> Vec<Vec<Piece>> {
    let text = lines
        .iter()
        .map(|(_, l)| l.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let lx = super::highlight::lex(&text);
    let refs = referenced(a, name);
    lines
        .iter()
        .enumerate()
        .map(|(i, (n, line))| {
            let spans: Vec<(usize, usize, String)> = refs
                .iter()
                .filter(|(r, _)| r.file == file && r.line == *n)
                .filter_map(|(r, v)| {
                    let (s, e) = ref_span(line, r)?;
                    Some((s, e, v.clone()))
                })
                .collect();
            line_pieces(&lx, &text, i, &spans)
        })
        .collect()
}

/// The byte range of a reference in its line: from its column (counted in characters) over its
/// text as written, or over the traversal's characters when it is written otherwise.
fn ref_span(line: &str, r: &RefLink) -> Option<(usize, usize)> {
    let start = line
        .char_indices()
        .nth(r.column.checked_sub(1)?)
        .map(|(b, _)| b)?;
    let rest = &line[start..];
    let len = if rest.starts_with(&r.text) {
        r.text.len()
    } else {
        rest.find(|c: char| !(c.is_alphanumeric() || "_-.[]\"*".contains(c)))
            .unwrap_or(rest.len())
    };
    (len > 0).then_some((start, start + len))
}

/// Line `i`'s highlighted pieces, split where a span (byte range in the line, vertex) starts or
/// ends.
fn line_pieces(lx: &Lexed, text: &str, i: usize, spans: &[(usize, usize, String)]) -> Vec<Piece> {
    let (line_start, _) = lx.line_range(text, i);
    let mut out = Vec::new();
    let mut at = 0usize; // byte offset in the line
    for (class, t) in lx.pieces(text, i) {
        let end = at + t.len();
        let mut cut = at;
        // The boundaries inside this piece.
        let mut bounds: Vec<usize> = spans
            .iter()
            .flat_map(|(s, e, _)| [*s, *e])
            .filter(|b| *b > at && *b < end)
            .collect();
        bounds.sort_unstable();
        bounds.dedup();
        bounds.push(end);
        for b in bounds {
            let Some(part) = text.get(line_start + cut..line_start + b) else {
                continue;
            };
            let vertex = spans
                .iter()
                .find(|(s, e, _)| *s <= cut && b <= *e)
                .map(|(_, _, v)| v.clone());
            out.push(Piece {
                class,
                text: part.to_string(),
                vertex,
            });
            cut = b;
        }
        at = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::BuilderKind;
    use crate::page::analysis::{Options, analyze};
    use std::collections::BTreeMap;

    const MAIN: &str = r#"variable "n" {
  type    = number
  default = 2
}

locals {
  name = "web"
}

resource "aws_instance" "web" {
  count = var.n
  ami   = "ami-${local.name}"
}

resource "aws_eip" "ip" {
  instance = aws_instance.web[0].id
}
"#;

    fn analysis(kind: BuilderKind) -> Analysis {
        let files = BTreeMap::from([("main.tf".to_string(), MAIN.to_string())]);
        let a = analyze(&files, kind, &Options::default());
        assert!(a.errors.is_empty(), "{:?}", a.errors);
        a
    }

    #[test]
    fn the_panel_lists_steps_for_the_graph_s_operation_and_values_linked_to_vertices() {
        let a = analysis(BuilderKind::Plan);
        let web = of_vertex(&a, "aws_instance.web (expand)").expect("inside");
        assert_eq!(
            web.go,
            "nodeExpandPlannableResource (node_resource_plan.go)"
        );
        assert_eq!(web.walk, "the plan walk (walkPlan)");
        assert!(!web.steps.is_empty());
        assert!(web.steps.iter().all(|s| s.go.contains(".go)")));
        let (inst, steps) = web.instance.as_ref().expect("expands");
        assert_eq!(inst, "NodePlannableResourceInstance");
        assert!(steps.iter().any(|s| s.writes.contains("planned change")));
        let whole = &web.values[0];
        assert_eq!(whole.title, "aws_instance.web");
        let n = &whole.rows[0];
        assert_eq!(
            (n.name.as_str(), n.read, n.text.as_str(), n.note.as_deref()),
            ("var.n", true, "2", Some("default"))
        );
        // The variable's row links to the vertex the reference made an edge to.
        assert_eq!(n.vertex.as_deref(), Some("var.n (expand, reference)"));
        let one = &web.values[2];
        assert_eq!(one.title, "aws_instance.web[1]");
        let local = one.rows.iter().find(|r| r.name == "local.name").unwrap();
        assert_eq!(local.vertex.as_deref(), Some("local.name (expand)"));
        let ami = one.rows.iter().find(|r| r.name == "ami").unwrap();
        assert_eq!((ami.text.as_str(), ami.read), ("\"ami-web\"", false));

        let eip = of_vertex(&a, "aws_eip.ip (expand)").expect("inside");
        let row = &eip.values[0].rows[0];
        assert_eq!(row.name, "aws_instance.web[0].id");
        assert_eq!(row.text, "(known after apply)");
        assert!(!row.known);
        assert_eq!(row.vertex.as_deref(), Some("aws_instance.web (expand)"));
        assert!(row.note.as_deref().unwrap().contains("attribute \"id\""));

        // Another graph type, other steps for the same resource.
        let v = analysis(BuilderKind::Validate);
        // (The validate graph names the resource without "(expand)".)
        let vweb = of_vertex(&v, "aws_instance.web").expect("inside");
        assert_eq!(vweb.walk, "the validate walk (walkValidate)");
        assert_ne!(vweb.steps, web.steps);
        // A vertex with no values of its own still has its steps.
        let root = of_vertex(&a, "root").expect("inside");
        assert!(root.values.is_empty());
        assert_eq!(of_vertex(&a, "no such vertex"), None);
    }

    #[test]
    fn each_reference_in_the_snippet_is_marked_and_linked() {
        let a = analysis(BuilderKind::Plan);
        let lines: Vec<(usize, String)> = MAIN
            .lines()
            .enumerate()
            .skip(9)
            .take(4)
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect();
        let pieces = snippet_pieces(&a, "aws_instance.web (expand)", "main.tf", &lines);
        assert_eq!(pieces.len(), 4);
        // Every line is covered exactly, highlighting kept.
        for (p, (_, l)) in pieces.iter().zip(&lines) {
            assert_eq!(&p.iter().map(|x| x.text.as_str()).collect::<String>(), l);
        }
        let linked = |p: &[Piece]| -> Vec<(String, String)> {
            let mut out: Vec<(String, String)> = Vec::new();
            for x in p.iter().filter(|x| x.vertex.is_some()) {
                let v = x.vertex.clone().unwrap();
                match out.last_mut() {
                    Some((t, lv)) if *lv == v => t.push_str(&x.text),
                    _ => out.push((x.text.clone(), v)),
                }
            }
            out
        };
        assert_eq!(
            linked(&pieces[1]),
            [("var.n".to_string(), "var.n (expand, reference)".to_string())]
        );
        assert_eq!(
            linked(&pieces[2]),
            [("local.name".to_string(), "local.name (expand)".to_string())]
        );
        assert!(linked(&pieces[0]).is_empty());
        let segments = snippet_segments(&a, "aws_instance.web (expand)", "main.tf", &lines);
        let refs: Vec<(String, Option<String>)> = segments[1]
            .iter()
            .map(|s| (s.text(), s.vertex.clone()))
            .collect();
        assert_eq!(
            refs,
            [
                ("  count = ".to_string(), None),
                (
                    "var.n".to_string(),
                    Some("var.n (expand, reference)".to_string())
                )
            ]
        );
        // A string's colour is kept around the reference inside it.
        assert!(
            pieces[2]
                .iter()
                .any(|p| p.text.contains("ami-") && p.class == Some(Class::String)),
            "{:?}",
            pieces[2]
        );
    }
}

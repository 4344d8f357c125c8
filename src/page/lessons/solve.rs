//! A lesson's right answer, asked of the engine on the lesson's analysis, and the check of a
//! learner's answer against it.

use super::{Lesson, Rule};
use crate::kind::{ProviderRole, ResourceRole, VertexKind};
use crate::page::analysis::Analysis;
use crate::page::graph::{Kind, PageGraph};
use crate::page::walk::Setup;
use std::collections::BTreeSet;
use std::time::Duration;

/// A lesson's question as the engine answers it on one analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// True when the answer is a vertex of the graph (clicked on the drawing, or chosen from
    /// `choices`).
    pub vertex: bool,
    /// The answers offered, in order.
    pub choices: Vec<String>,
    /// The right ones (at least one, all among `choices`).
    pub right: BTreeSet<String>,
    /// Why they are right, in one sentence from the engine's own answer.
    pub why: String,
}

/// The verdict on one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub right: bool,
    /// What to say: why the answer is right, or that it is not and a hint.
    pub text: String,
}

/// Checks `answer` against the engine's answer.
pub fn check(lesson: &Lesson, solved: &Solved, answer: &str) -> Verdict {
    let answer = answer.trim();
    if solved.right.contains(answer) {
        Verdict {
            right: true,
            text: format!("Right. {}", solved.why),
        }
    } else {
        Verdict {
            right: false,
            text: format!("Not {answer}. {}", lesson.hint),
        }
    }
}

/// The lesson's question answered by the engine on `a`, the analysis of the lesson's own
/// configuration; `Err` says why it cannot be (the configuration did not build as the lesson
/// expects, for example after an edit).
pub fn solve(lesson: &Lesson, a: &Analysis) -> Result<Solved, String> {
    let g = a
        .graph
        .as_ref()
        .ok_or_else(|| "The lesson's configuration did not build.".to_string())?;
    let s = match lesson.rule {
        Rule::DependencyOf(v) => {
            let i = index(g, v)?;
            let right = names(g, g.dependencies(i));
            let why = format!(
                "{v} depends on {} (an edge of the built graph).",
                list(&right)
            );
            vertex_answer(g, right, why)
        }
        Rule::ReferencedBy(v) => {
            let right: BTreeSet<String> = a
                .whys
                .iter()
                .filter(|((from, to), w)| {
                    from == v && w.transform == "ReferenceTransformer" && g.index_of(to).is_some()
                })
                .map(|((_, to), _)| to.clone())
                .collect();
            let places: Vec<String> = a
                .whys
                .iter()
                .filter(|((from, to), _)| from == v && right.contains(to))
                .flat_map(|(_, w)| w.refs.iter())
                .map(|r| format!("{} at {}:{}", r.text, r.file, r.line))
                .collect();
            let why = format!(
                "ReferenceTransformer added the edge from {v} to {} for {}.",
                list(&right),
                if places.is_empty() {
                    "a reference".to_string()
                } else {
                    places.join(", ")
                }
            );
            vertex_answer(g, right, why)
        }
        Rule::TransformOf(from, to) => {
            let w = a
                .whys
                .get(&(from.to_string(), to.to_string()))
                .ok_or_else(|| format!("The builder added no edge from {from} to {to}."))?;
            let mut choices: Vec<String> = Vec::new();
            for st in a.steps.iter() {
                if !st.added_edges.is_empty() && !choices.contains(&st.name) {
                    choices.push(st.name.clone());
                }
            }
            let why = format!(
                "The builder recorded the edge from {from} to {to} as {}'s: {}.",
                w.transform, w.reason
            );
            Solved {
                vertex: false,
                choices,
                right: [w.transform.to_string()].into(),
                why,
            }
        }
        Rule::ProviderCloseOf(v) => {
            let i = index(g, v)?;
            let provider = g
                .dependencies(i)
                .iter()
                .copied()
                .find(|&d| g.vertices()[d].typed.kind == VertexKind::Provider(ProviderRole::Config))
                .map(|d| g.vertices()[d].name.clone())
                .ok_or_else(|| format!("{v} has no provider configuration."))?;
            let right: BTreeSet<String> = a
                .whys
                .iter()
                .filter(|((from, to), w)| {
                    *to == provider
                        && w.transform == "CloseProviderTransformer"
                        && g.index_of(from).is_some_and(|c| {
                            g.vertices()[c].typed.kind == VertexKind::Provider(ProviderRole::Close)
                        })
                })
                .map(|((from, _), _)| from.clone())
                .collect();
            let why = format!(
                "{v} uses {provider}, which CloseProviderTransformer closes with {}.",
                list(&right)
            );
            vertex_answer(g, right, why)
        }
        Rule::ReducedEdge => {
            let removed = crate::page::view::reduced_edges(&a.reduced, g);
            let is_resource = |n: &str| {
                g.index_of(n)
                    .is_some_and(|i| g.vertices()[i].kind == Kind::Resource)
            };
            let candidates: Vec<(String, String)> = a
                .whys
                .iter()
                .filter(|((f, t), w)| {
                    w.transform == "ReferenceTransformer" && is_resource(f) && is_resource(t)
                })
                .map(|(k, _)| k.clone())
                .collect();
            let name = |i: usize| g.vertices()[i].name.clone();
            let right: BTreeSet<String> = removed
                .iter()
                .map(|&(f, t)| (name(f), name(t)))
                .filter(|e| candidates.contains(e))
                .map(|(f, t)| edge_label(&f, &t))
                .collect();
            let why = format!(
                "TransitiveReductionTransformer removed {}: a longer path already orders its ends.",
                list(&right)
            );
            Solved {
                vertex: false,
                choices: candidates.iter().map(|(f, t)| edge_label(f, t)).collect(),
                right,
                why,
            }
        }
        Rule::InCycle => {
            let right: BTreeSet<String> = a.cycles.iter().flatten().cloned().collect();
            let why = format!(
                "The cycle is {}: each depends on the other, found by Tarjan's algorithm.",
                list(&right)
            );
            vertex_answer(g, right, why)
        }
        Rule::FirstResourceToStart => {
            let spans = walk_spans(g, a, 10);
            let starts: Vec<(String, Duration)> = spans
                .iter()
                .filter(|(n, _, parent, _)| {
                    parent.is_none()
                        && g.index_of(n).is_some_and(|i| {
                            matches!(g.vertices()[i].kind, Kind::Resource | Kind::Data)
                        })
                })
                .filter_map(|(n, start, _, _)| Some((n.clone(), (*start)?)))
                .collect();
            let first = starts
                .iter()
                .map(|(_, t)| *t)
                .min()
                .ok_or("Nothing starts in the walk.")?;
            let right: BTreeSet<String> = starts
                .iter()
                .filter(|(_, t)| *t == first)
                .map(|(n, _)| n.clone())
                .collect();
            let why = format!(
                "{} starts first, at {:.1} s: everything it depends on is done by then.",
                list(&right),
                first.as_secs_f64()
            );
            let choices = starts.into_iter().map(|(n, _)| n).collect();
            Solved {
                vertex: true,
                choices,
                right,
                why,
            }
        }
        Rule::SmallestFastestParallelism => {
            let ps: Vec<usize> = (1..=10).collect();
            let m = crate::page::walk::makespans(g, &setup(a), &ps);
            let best = m.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
            let (p, secs) = m
                .iter()
                .find(|x| x.1 <= best + 1e-9)
                .copied()
                .ok_or("No makespan.")?;
            let slower: Vec<String> = m
                .iter()
                .filter(|x| x.0 < p)
                .map(|x| format!("{:.1} s at {}", x.1, x.0))
                .collect();
            let why = if slower.is_empty() {
                format!("-parallelism {p} already gives the shortest makespan, {secs:.1} s.")
            } else {
                format!(
                    "-parallelism {p} gives the shortest makespan, {secs:.1} s (the same as tfgraph walk --sweep); less is slower: {}.",
                    slower.join(", ")
                )
            };
            Solved {
                vertex: false,
                choices: ps.iter().map(|p| p.to_string()).collect(),
                right: [p.to_string()].into(),
                why,
            }
        }
        Rule::OffCriticalPath => {
            let (dg, _) = g.to_graph();
            let r = crate::walk::simulate(
                &dg,
                &crate::walk::WalkOptions::with_parallelism(10),
                setup(a).scenario(false),
            );
            let spans = r.spans();
            let (path, _) = r.critical_path();
            let on: BTreeSet<String> = path
                .iter()
                .filter_map(|t| spans.get(t.index()).map(|s| s.name.clone()))
                .collect();
            let resources: Vec<String> = resource_vertices(g);
            let right: BTreeSet<String> = resources
                .iter()
                .filter(|n| !on.contains(*n))
                .cloned()
                .collect();
            let on_list: Vec<String> = resources
                .iter()
                .filter(|n| on.contains(*n))
                .cloned()
                .collect();
            let why = format!(
                "The critical path runs through {}; {} is not on it.",
                on_list.join(", "),
                list(&right)
            );
            Solved {
                vertex: true,
                choices: resources,
                right,
                why,
            }
        }
        Rule::FirstOfResource(addr) => {
            let of_resource: Vec<String> = g
                .vertices()
                .iter()
                .filter(|v| {
                    matches!(&v.typed.kind, VertexKind::Resource { type_name, name, role, .. }
                        if format!("{type_name}.{name}") == addr
                            && matches!(role, ResourceRole::Instance | ResourceRole::Destroy | ResourceRole::Deposed | ResourceRole::DestroyDeposed))
                })
                .map(|v| v.name.clone())
                .collect();
            let spans = walk_spans(g, a, 10);
            let start = |n: &str| {
                spans
                    .iter()
                    .find(|s| s.0 == n && s.2.is_none())
                    .and_then(|s| s.1)
            };
            let first = of_resource
                .iter()
                .filter_map(|n| start(n))
                .min()
                .ok_or_else(|| format!("No vertex of {addr} starts in the walk."))?;
            let right: BTreeSet<String> = of_resource
                .iter()
                .filter(|n| start(n) == Some(first))
                .cloned()
                .collect();
            let why = format!(
                "{} starts first, at {:.1} s in the walk.",
                list(&right),
                first.as_secs_f64()
            );
            Solved {
                vertex: true,
                choices: of_resource,
                right,
                why,
            }
        }
        Rule::InstanceCount(v) => {
            let spans = walk_spans(g, a, 10);
            let task = spans
                .iter()
                .position(|s| s.0 == v && s.2.is_none())
                .ok_or_else(|| format!("{v} is not walked."))?;
            // Instances are the spans whose parent is the vertex's task.
            let n = spans.iter().filter(|s| s.2 == Some(task)).count();
            let why = format!("The walk expanded {v} into {n} instances.");
            Solved {
                vertex: false,
                choices: (1..=8).map(|k| k.to_string()).collect(),
                right: [n.to_string()].into(),
                why,
            }
        }
        Rule::FirstStep(v) => {
            index(g, v)?;
            let base = v.strip_suffix(" (expand)").unwrap_or(v);
            // What one instance runs: the evaluation the expanding vertex gives its sub-graph.
            let eval = setup(a).scenario(false).evaluation_of(base, Some(v));
            let steps = crate::walk::steps::steps_to_run(&eval, false);
            let first = steps
                .first()
                .ok_or_else(|| format!("{v} has no evaluation steps."))?;
            let mut choices: Vec<String> = steps.iter().map(|l| l.name.to_string()).collect();
            choices.sort();
            choices.dedup();
            let why = format!(
                "An instance of {base} first runs “{}”: {} ({}).",
                first.name, first.sentence, first.go
            );
            Solved {
                vertex: false,
                choices,
                right: [first.name.to_string()].into(),
                why,
            }
        }
    };
    if s.right.is_empty() || !s.right.iter().all(|r| s.choices.contains(r)) {
        return Err(format!(
            "The engine's answer to “{}” is not among the choices.",
            lesson.question
        ));
    }
    Ok(s)
}

/// The walks' setup for `a`, as the page's walk starts without user durations: its expander
/// and evaluation steps, the CLI's seed and jitter.
fn setup(a: &Analysis) -> Setup {
    Setup {
        expander: a.expander.as_ref().map(|e| e.expander.clone()),
        steps: a.step_table.clone(),
        ..Setup::default()
    }
}

/// Each walked task: name, start, parent task (by its position in the list), finish.
type SpanRow = (String, Option<Duration>, Option<usize>, Option<Duration>);

fn walk_spans(g: &PageGraph, a: &Analysis, parallelism: usize) -> Vec<SpanRow> {
    let (dg, _) = g.to_graph();
    let r = crate::walk::simulate(
        &dg,
        &crate::walk::WalkOptions::with_parallelism(parallelism),
        setup(a).scenario(false),
    );
    r.spans()
        .into_iter()
        .map(|s| (s.name, s.started, s.parent.map(|p| p.index()), s.finished))
        .collect()
}

fn index(g: &PageGraph, v: &str) -> Result<usize, String> {
    g.index_of(v)
        .ok_or_else(|| format!("The graph has no vertex {v}."))
}

fn names(g: &PageGraph, ix: &[usize]) -> BTreeSet<String> {
    ix.iter().map(|&i| g.vertices()[i].name.clone()).collect()
}

/// The resource and data source vertices, in the graph's order.
fn resource_vertices(g: &PageGraph) -> Vec<String> {
    g.vertices()
        .iter()
        .filter(|v| matches!(v.kind, Kind::Resource | Kind::Data))
        .map(|v| v.name.clone())
        .collect()
}

/// A vertex answer: every vertex of the graph is a choice.
fn vertex_answer(g: &PageGraph, right: BTreeSet<String>, why: String) -> Solved {
    let mut choices: Vec<String> = g.vertices().iter().map(|v| v.name.clone()).collect();
    choices.sort();
    Solved {
        vertex: true,
        choices,
        right,
        why,
    }
}

/// How an edge is offered as an answer.
pub fn edge_label(from: &str, to: &str) -> String {
    format!("{from} → {to}")
}

fn list(s: &BTreeSet<String>) -> String {
    s.iter().cloned().collect::<Vec<_>>().join(" and ")
}

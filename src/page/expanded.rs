//! Opened `(expand)` vertices: the graph on screen with a vertex opened into the sub-graph its
//! `DynamicExpand` builds ([`crate::inside::expansion`]), in Inspect mode.
//!
//! How an opened vertex `X` is drawn (the edges it gets are chosen to read as OpenTofu walks
//! the sub-graph):
//!
//! - each vertex of the sub-graph (instance, orphan, module instance and what it contains) is
//!   added after the shown graph's vertices (indexes of the graph stay valid, as for collapsed
//!   modules), drawn in `X`'s module box; a vertex already shown under the same name (the same
//!   instance reached from two opened vertices) is that vertex, and gets the edges of both;
//! - the sub-graph's own edges are kept (a resource instance inside a module depends on its
//!   module instance);
//! - `X` stays, standing for the sub-graph's `root`: it depends on every vertex of the sub-graph
//!   that nothing in it depends on, as `addRootNodeToGraph` makes the root. What depended on `X`
//!   still does: in OpenTofu a vertex is done when the walk of its sub-graph has finished, that
//!   is when its root has;
//! - what `X` depended on, each vertex of the sub-graph that depends on nothing in it now
//!   depends on instead (edge by edge, dashed ones stay dashed): the sub-graph is walked only
//!   once `X` is reached, after everything `X` waited for;
//! - an expansion with no instances (`count = 0`) leaves `X` as it was.
//!
//! The derivation itself is [`super::view::open`]. A vertex that is hidden (resources only, a collapsed module) is not opened; at most
//! [`MAX_OPEN_MEMBERS`] vertices are drawn for one opened vertex, above that it stays closed and
//! the details panel says how many there would be.

use super::analysis::Analysis;
use super::analysis::remote::{Answer, Question};
pub use super::analysis::remote::{Opening, Sub};
use super::graph::{PageGraph, PageVertex};
use crate::inside::expansion::{Context, Expansion, Role, expand};
use std::collections::{BTreeSet, HashMap};

/// The most vertices one opened vertex adds to the drawing.
pub const MAX_OPEN_MEMBERS: usize = 500;

impl Sub {
    fn of(e: &Expansion) -> Sub {
        let mut ids: Vec<_> = e
            .graph
            .iter()
            .filter(|(_, m)| m.role != Role::Root)
            .map(|(id, m)| (m.name.clone(), id, m))
            .collect();
        ids.sort_by(|a, b| a.0.cmp(&b.0));
        let index: HashMap<_, usize> = ids.iter().enumerate().map(|(i, x)| (x.1, i)).collect();
        let mut edges: Vec<(usize, usize)> = e
            .graph
            .edges()
            .into_iter()
            .filter_map(|(a, b)| Some((*index.get(&a)?, *index.get(&b)?)))
            .collect();
        edges.sort_unstable();
        Sub {
            of: e.of.clone(),
            orphans: ids
                .iter()
                .enumerate()
                .filter(|(_, x)| x.2.role == Role::Orphan)
                .map(|(i, _)| i)
                .collect(),
            members: ids
                .iter()
                .map(|(n, _, m)| PageVertex::new(n.clone(), m.typed.clone()))
                .collect(),
            edges,
            go: format!("{} ({})", e.go.type_name(), e.go.file()),
            note: e.note.into(),
        }
    }

    /// The members that depend on nothing in the sub-graph: they wait for what the opened
    /// vertex waited for.
    pub fn entries(&self) -> Vec<usize> {
        let from: BTreeSet<usize> = self.edges.iter().map(|e| e.0).collect();
        (0..self.members.len())
            .filter(|i| !from.contains(i))
            .collect()
    }

    /// The members nothing in the sub-graph depends on: the root (the opened vertex) depends
    /// on them.
    pub fn leaves(&self) -> Vec<usize> {
        let to: BTreeSet<usize> = self.edges.iter().map(|e| e.1).collect();
        (0..self.members.len())
            .filter(|i| !to.contains(i))
            .collect()
    }
}

impl Opening {
    /// One line for the details panel.
    pub fn summary(&self) -> String {
        match self {
            Opening::Sub(s) => {
                let n = s.members.len() - s.orphans.len();
                let mut t = match n {
                    1 => "1 instance".to_string(),
                    n => format!("{n} instances"),
                };
                if !s.orphans.is_empty() {
                    t.push_str(&format!(
                        " and {} in the prior state only (orphan)",
                        s.orphans.len()
                    ));
                }
                t
            }
            Opening::Unknown(why) => format!("Its instances are not known statically: {why}"),
            Opening::TooMany(n) => format!(
                "{n} vertices: too many to draw here (at most {MAX_OPEN_MEMBERS} for one vertex)."
            ),
        }
    }
}

/// What vertex `name` of `a` opens into in the walk of `a`'s graph, `None` when it does not
/// expand in that walk (or `a` has no engine data: an imported graph, a failed build). Worked
/// out once per analysis and vertex. For an analysis the engine's worker made, `None` also until
/// the answer has arrived: [`lookup`] tells which.
pub fn of_vertex(a: &Analysis, name: &str) -> Option<Opening> {
    lookup(a, name).ok().flatten()
}

/// [`of_vertex`], or for an analysis the engine's worker made whose answer has not arrived, the
/// question to ask it (only about a vertex of a kind that may expand).
pub fn lookup(a: &Analysis, name: &str) -> Result<Option<Opening>, Question> {
    let Some(r) = &a.remote else {
        return Ok(here(a, name));
    };
    let may = a
        .graph
        .as_ref()
        .and_then(|g| g.vertex(g.index_of(name)?))
        .is_some_and(|v| v.typed.kind.may_expand());
    if !may {
        return Ok(None);
    }
    let q = Question::Opening(name.to_string());
    match r.answer(&q) {
        Some(Answer::Opening(o)) => Ok(o),
        _ => Err(q),
    }
}

/// [`of_vertex`] from the configuration `a` holds.
fn here(a: &Analysis, name: &str) -> Option<Opening> {
    let data = &a.inside.as_ref()?.data;
    let ex = &data.expansions;
    let node = ex.nodes.get(name)?;
    let mut done = ex.done.lock().ok()?;
    if !done.contains_key(name) {
        let mut eval = ex.eval.lock().ok()?;
        let (ev, state) = eval.get_or_insert_with(|| {
            (
                crate::config::eval::StaticEval::with_values(
                    data.config.clone(),
                    data.vars.clone(),
                ),
                ex.state
                    .as_deref()
                    .and_then(|t| crate::state::parse_state_json(t).ok()),
            )
        });
        let mut ctx = Context {
            eval: ev,
            state: state.as_ref(),
            op: data.op,
        };
        done.insert(name.to_string(), expand(node, &mut ctx));
    }
    Some(match done.get(name)?.as_ref()? {
        Ok(e) if e.graph.len() - 1 > MAX_OPEN_MEMBERS => Opening::TooMany(e.graph.len() - 1),
        Ok(e) => Opening::Sub(Sub::of(e)),
        Err(why) => Opening::Unknown(why.clone()),
    })
}

/// The names of `open` still in `g`: what stays open after an edit.
pub fn prune(open: &BTreeSet<String>, g: &PageGraph) -> BTreeSet<String> {
    open.iter()
        .filter(|n| g.index_of(n).is_some())
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests;

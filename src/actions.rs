//! Planned actions on the graph: with a plan (`tofu show -json`) or a changes list loaded, which
//! action each resource vertex and instance carries, marked the way `tofu plan` marks it.
//!
//! Symbols and colours follow OpenTofu v1.12.6's plan renderer (`DiffActionSymbol` in
//! `internal/command/jsonformat/computed/renderers/util.go`, `actionDescription` in
//! `internal/command/jsonformat/plan.go`): `+` create (green), `~` update in place (yellow),
//! `-/+` destroy and then create a replacement (red then green), `+/-` create the replacement and
//! then destroy (green then red), `-` destroy (red), `<=` read (cyan), `.` forget (red), and
//! no-op (no symbol).
//!
//! Which vertex carries which change:
//!
//! - an instance vertex (`aws_instance.web[0]`, its `(destroy)`, `(orphan)` and deposed vertices):
//!   the change recorded for that instance address (and deposed key). Both halves of a
//!   replacement in an apply graph, the instance and the vertex that destroys the old object
//!   (`(destroy)`, or `(destroy deposed KEY)` for create_before_destroy), show the replacement's
//!   symbol;
//! - a whole-resource vertex (`aws_instance.web (expand)`): the action of all of its instances'
//!   changes when they agree, else a mixed mark with a count per action.
//!
//! Invariant: plain data; the renderers ([`crate::dag::render`]), the CLI's `--actions` and the
//! page all read [`marks`] and [`Style`], so they mark the same vertices the same way.

use crate::addrs::AbsResourceInstance;
use crate::builder::Node;
use crate::builder::nodes::InstanceKind;
use crate::dag::Graph;
use crate::dag::render::dot::{DotNode, DotOpts};
use crate::dag::render::json::{JsonAction, JsonGraph};
use crate::plan::{Action, Changes, ResourceInstanceChange};
use std::collections::BTreeMap;

/// How `tofu plan` shows an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// The symbol as `tofu plan` prints it, without padding (`+`, `-/+`, `<=`; empty for no-op).
    pub symbol: &'static str,
    /// The words `tofu plan` puts after the symbol in its legend (`create`, `destroy and then
    /// create replacement`).
    pub description: &'static str,
    /// The terminal colour of the symbol's first and last part (`green`, `red`, `yellow`,
    /// `cyan`; `none` for no-op).
    pub colours: (&'static str, &'static str),
    /// A CSS-safe class name (`create`, `delete-then-create`).
    pub class: &'static str,
}

/// The actions in the order `tofu plan`'s legend lists them (`renderHumanDiffs`), no-op last.
pub const ORDER: [Action; 9] = [
    Action::Create,
    Action::Update,
    Action::Delete,
    Action::DeleteThenCreate,
    Action::CreateThenDelete,
    Action::Read,
    Action::ForgetThenCreate,
    Action::Forget,
    Action::NoOp,
];

/// The style of an action.
pub fn style(a: Action) -> Style {
    let s = |symbol, description, colours, class| Style {
        symbol,
        description,
        colours,
        class,
    };
    match a {
        Action::Create => s("+", "create", ("green", "green"), "create"),
        Action::Delete => s("-", "destroy", ("red", "red"), "delete"),
        Action::Update => s("~", "update in-place", ("yellow", "yellow"), "update"),
        Action::DeleteThenCreate => s(
            "-/+",
            "destroy and then create replacement",
            ("red", "green"),
            "delete-then-create",
        ),
        Action::CreateThenDelete => s(
            "+/-",
            "create replacement and then destroy",
            ("green", "red"),
            "create-then-delete",
        ),
        Action::Read => s("<=", "read (data resources)", ("cyan", "cyan"), "read"),
        Action::Forget => s(".", "forget", ("red", "red"), "forget"),
        // DiffActionSymbol / actionDescription (internal/command/jsonformat): `./+`.
        Action::ForgetThenCreate => s(
            "./+",
            "forget and then create replacement",
            ("red", "green"),
            "forget-then-create",
        ),
        Action::NoOp => s("", "no changes", ("none", "none"), "no-op"),
    }
}

/// The mark one vertex carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Every change the vertex stands for has this action.
    Action(Action),
    /// A whole resource whose instances have different actions: how many of each.
    Mixed(BTreeMap<Action, usize>),
}

impl Mark {
    /// The text put before a vertex's name: `+`, `-/+`, or for a mixed mark each action's
    /// symbol with its count (`+2 ~1`); empty for no-op.
    pub fn symbol(&self) -> String {
        match self {
            Mark::Action(a) => style(*a).symbol.to_string(),
            Mark::Mixed(m) => ORDER
                .iter()
                .filter_map(|a| m.get(a).map(|n| (a, n)))
                .filter(|(a, _)| **a != Action::NoOp)
                .map(|(a, n)| format!("{}{n}", style(*a).symbol))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// A one-word name (`create`, `delete-then-create`, `mixed`).
    pub fn class(&self) -> &'static str {
        match self {
            Mark::Action(a) => style(*a).class,
            Mark::Mixed(_) => "mixed",
        }
    }

    /// The words for it (`create`, `2 create, 1 update in-place`).
    pub fn description(&self) -> String {
        match self {
            Mark::Action(a) => style(*a).description.to_string(),
            Mark::Mixed(m) => ORDER
                .iter()
                .filter_map(|a| m.get(a).map(|n| format!("{n} {}", style(*a).description)))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The single action, when there is one.
    pub fn action(&self) -> Option<Action> {
        match self {
            Mark::Action(a) => Some(*a),
            Mark::Mixed(_) => None,
        }
    }
}

/// The change recorded for an instance (and deposed object, when `deposed` is given).
pub fn change_for<'a>(
    changes: &'a Changes,
    addr: &AbsResourceInstance,
    deposed: Option<&str>,
) -> Option<&'a ResourceInstanceChange> {
    changes
        .resources
        .iter()
        .find(|c| c.addr == *addr && c.deposed.as_deref() == deposed)
}

/// The mark of one vertex the builder made, `None` when no change concerns it.
pub fn mark(node: &Node, changes: &Changes) -> Option<Mark> {
    match node {
        Node::Instance { kind, d } => {
            let change = match kind {
                InstanceKind::PlanDeposed(k) => change_for(changes, &d.addr, Some(k)),
                // The apply graph destroys the old object of a create_before_destroy replacement
                // as a deposed object under a key allocated in advance (DiffTransformer), so
                // the current object's +/- change is what it carries out.
                InstanceKind::DestroyDeposed(k) => {
                    change_for(changes, &d.addr, Some(k)).or_else(|| {
                        change_for(changes, &d.addr, None)
                            .filter(|c| c.action == Action::CreateThenDelete)
                    })
                }
                _ => change_for(changes, &d.addr, None),
            };
            change.map(|c| Mark::Action(c.action))
        }
        Node::Resource { d, .. } => {
            let mut counts: BTreeMap<Action, usize> = BTreeMap::new();
            for c in &changes.resources {
                if c.deposed.is_none() && c.addr.config_resource() == d.addr {
                    *counts.entry(c.action).or_default() += 1;
                }
            }
            match counts.len() {
                0 => None,
                1 => counts.into_keys().next().map(Mark::Action),
                _ => Some(Mark::Mixed(counts)),
            }
        }
        _ => None,
    }
}

/// The mark of every vertex of `g` that a change concerns, by vertex name.
pub fn marks(g: &Graph<Node>, changes: &Changes) -> BTreeMap<String, Mark> {
    g.iter()
        .filter_map(|(_, n)| mark(n, changes).map(|m| (n.name(), m)))
        .collect()
}

/// A DOT node with its mark (`tfgraph graph --actions`): the symbol before the label (no-op
/// keeps its label), `class` the mark's class (Graphviz puts it on the SVG element) and `color`
/// the symbol's first colour (none for no-op and mixed marks).
pub fn decorate_dot(mark: &Mark, node: &mut DotNode) {
    let symbol = mark.symbol();
    if !symbol.is_empty() {
        let label = node.attrs.get("label").cloned().unwrap_or_default();
        node.attrs
            .insert("label", format!("{symbol} {label}").into());
    }
    node.attrs.insert("class", mark.class().into());
    if let Some(a) = mark.action().filter(|a| *a != Action::NoOp) {
        node.attrs.insert("color", style(a).colours.0.into());
    }
}

/// `g` as DOT with each marked vertex decorated ([`decorate_dot`]).
pub fn dot(g: &Graph<Node>, opts: &DotOpts, changes: &Changes) -> String {
    let mut out = Vec::new();
    write_dot(g, opts, changes, &mut out).expect("writing to memory does not fail");
    String::from_utf8(out).expect("the DOT text is written from strings")
}

/// [`dot`]'s text written to `out` as it is made.
pub fn write_dot<W: std::io::Write + ?Sized>(
    g: &Graph<Node>,
    opts: &DotOpts,
    changes: &Changes,
    out: &mut W,
) -> std::io::Result<()> {
    let marks = marks(g, changes);
    crate::dag::render::dot::write_decorated(
        g,
        opts,
        &|v, node| {
            if let Some(m) = marks.get(&v.name()) {
                decorate_dot(m, node);
            }
        },
        out,
    )
}

/// The mark as the JSON graph carries it.
pub fn json(mark: &Mark) -> JsonAction {
    JsonAction {
        action: mark.class().into(),
        symbol: mark.symbol(),
        description: mark.description(),
    }
}

/// Puts each marked vertex's action into a JSON graph of `g` (vertices are matched by name).
pub fn annotate_json(j: &mut JsonGraph, g: &Graph<Node>, changes: &Changes) {
    let marks = marks(g, changes);
    for v in &mut j.vertices {
        v.action = marks.get(&v.name).map(json);
    }
}

/// How many instance changes of each action the plan has (the legend's counts; `tofu plan`'s
/// summary line counts the same objects). Deposed objects count as the deletions they are.
pub fn counts(changes: &Changes) -> BTreeMap<Action, usize> {
    let mut out = BTreeMap::new();
    for c in &changes.resources {
        *out.entry(c.action).or_default() += 1;
    }
    out
}

/// `tofu plan`'s summary line for these changes: `Plan: 2 to add, 1 to change, 1 to destroy.`
/// (a replacement counts as one to add and one to destroy; reads and no-ops are not counted,
/// forgets are added when there are any).
pub fn summary(changes: &Changes) -> String {
    let (mut add, mut change, mut destroy, mut forget) = (0, 0, 0, 0);
    for c in &changes.resources {
        match c.action {
            Action::Create => add += 1,
            Action::Update => change += 1,
            Action::Delete => destroy += 1,
            Action::DeleteThenCreate | Action::CreateThenDelete => {
                add += 1;
                destroy += 1;
            }
            Action::Forget => forget += 1,
            // jsonformat/plan.go: one to add and one to forget, nothing destroyed.
            Action::ForgetThenCreate => {
                add += 1;
                forget += 1;
            }
            Action::Read | Action::NoOp => {}
        }
    }
    let mut s = format!("Plan: {add} to add, {change} to change, {destroy} to destroy");
    if forget > 0 {
        s.push_str(&format!(", {forget} to forget"));
    }
    s.push('.');
    s
}

#[cfg(test)]
mod tests;

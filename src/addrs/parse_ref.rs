//! References: what a static traversal in an expression names (OpenTofu's
//! `internal/addrs/parse_ref.go`, `ParseRef` and `ParseRefStr`), with Go's diagnostics for
//! traversals that name nothing.

#![allow(clippy::result_large_err)] // diagnostics are returned unboxed: rare, and not on hot paths

use super::traversal::{Step, parse_traversal_str};
use super::{
    InstanceKey, ModuleCall, ModuleCallInstance, ModuleCallInstanceOutput, Referenceable, Resource,
    ResourceInstance, ResourceMode,
};
use crate::diag::{Diagnostic, LazyRange, SourceFile, SourceRange};
use crate::strconv::go_quote;

/// One reference found in an expression (Go `addrs.Reference`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub subject: Referenceable,
    /// The range of the part of the traversal that names `subject` (worked out when asked:
    /// `range.get()`).
    pub range: LazyRange,
    /// The traversal steps after the part that names `subject` (`.id` in `aws_instance.a.id`):
    /// rarely more than one, held in place.
    pub remaining: smallvec::SmallVec<[Step; 1]>,
}

impl Reference {
    /// Go `Reference.DisplayString`: the subject followed by the remaining steps.
    pub fn display_string(&self) -> String {
        let mut s = self.subject.to_string();
        for st in &self.remaining {
            s.push_str(&st.to_string());
        }
        s
    }
}

/// Why a traversal is not a valid reference: Go's detail text and the index of the step the
/// diagnostic points at (our steps carry no source ranges; the caller knows where each ends).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefError {
    pub summary: &'static str,
    pub detail: String,
    pub step: usize,
}

fn invalid(detail: impl Into<String>, step: usize) -> RefError {
    RefError {
        summary: "Invalid reference",
        detail: detail.into(),
        step,
    }
}

/// Interprets the leading steps of a traversal; returns the subject and how many steps it used
/// (the rest are attribute accesses on it). [`parse_ref`] with a step index instead of a range.
pub fn parse_ref_steps(steps: &[Step]) -> Result<(Referenceable, usize), RefError> {
    parse_ref_steps_taking(&mut steps.to_vec())
}

/// A traversal step as [`parse_ref_steps_taking`] reads it: owned ([`Step`]), or borrowed from
/// the syntax tree ([`StepRef`]) so that a name is copied only when the reference keeps it.
pub trait ParseStep {
    /// The name of an attribute step; `None` for an index.
    fn attr(&self) -> Option<&str>;
    /// The name of an attribute step, taken (an index gives an empty name).
    fn take_attr(&mut self) -> String;
    /// [`ParseStep::take_attr`] as a shared string, as resource addresses hold their names.
    fn take_shared(&mut self) -> std::sync::Arc<str>;
    /// The key of an index step, taken (an attribute gives no key).
    fn take_index(&mut self) -> InstanceKey;
    fn is_index(&self) -> bool {
        self.attr().is_none()
    }
}

impl ParseStep for Step {
    fn attr(&self) -> Option<&str> {
        match self {
            Step::Attr(a) => Some(a),
            Step::Index(_) => None,
        }
    }
    fn take_attr(&mut self) -> String {
        match self {
            Step::Attr(a) => std::mem::take(a),
            Step::Index(_) => String::new(),
        }
    }
    fn take_shared(&mut self) -> std::sync::Arc<str> {
        self.take_attr().into()
    }
    fn take_index(&mut self) -> InstanceKey {
        match self {
            Step::Index(k) => std::mem::replace(k, InstanceKey::None),
            Step::Attr(_) => InstanceKey::None,
        }
    }
}

/// A traversal step borrowed from where it is written: the reference walk reads tens of
/// thousands of traversals, and most of their names (`var`, `aws_instance`, ...) are only
/// looked at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepRef<'a> {
    Attr(&'a str),
    Index(InstanceKey),
}

impl StepRef<'_> {
    /// The step as the owned [`Step`] a reference keeps after its subject.
    pub fn to_step(&self) -> Step {
        match self {
            StepRef::Attr(a) => Step::Attr((*a).to_owned()),
            StepRef::Index(k) => Step::Index(k.clone()),
        }
    }
}

impl ParseStep for StepRef<'_> {
    fn attr(&self) -> Option<&str> {
        match self {
            StepRef::Attr(a) => Some(a),
            StepRef::Index(_) => None,
        }
    }
    fn take_attr(&mut self) -> String {
        self.attr().unwrap_or_default().to_owned()
    }
    fn take_shared(&mut self) -> std::sync::Arc<str> {
        self.attr().unwrap_or_default().into()
    }
    fn take_index(&mut self) -> InstanceKey {
        match self {
            StepRef::Index(k) => std::mem::replace(k, InstanceKey::None),
            StepRef::Attr(_) => InstanceKey::None,
        }
    }
}

/// [`parse_ref_steps`] taking the names it keeps out of `steps` instead of copying them: the
/// steps it used are left empty, the ones after them as they were. For a caller that drops the
/// used steps anyway (the reference walk reads tens of thousands of traversals, and copying each
/// name again was most of this function's time).
pub fn parse_ref_steps_taking<S: ParseStep>(
    steps: &mut [S],
) -> Result<(Referenceable, usize), RefError> {
    /// The name after the root (`var.NAME`), taken out of its step.
    fn single<S: ParseStep>(root: &str, step: Option<&mut S>) -> Result<String, RefError> {
        match step {
            None => Err(invalid(
                format!(
                    "The {} object cannot be accessed directly. Instead, access one of its attributes.",
                    go_quote(root)
                ),
                0,
            )),
            Some(n) if !n.is_index() => Ok(n.take_attr()),
            Some(_) => Err(invalid(
                format!(
                    "The {} object does not support this operation.",
                    go_quote(root)
                ),
                1,
            )),
        }
    }
    let Some((root_step, rest)) = steps.split_first_mut() else {
        return Err(invalid("A reference must start with a name.", 0));
    };
    let Some(root) = root_step.attr() else {
        return Err(invalid("A reference must start with a name.", 0));
    };
    match root {
        "count" => Ok((Referenceable::CountAttr(single(root, rest.first_mut())?), 2)),
        "each" => Ok((
            Referenceable::ForEachAttr(single(root, rest.first_mut())?),
            2,
        )),
        "local" => Ok((
            Referenceable::LocalValue(single(root, rest.first_mut())?),
            2,
        )),
        "path" => Ok((Referenceable::PathAttr(single(root, rest.first_mut())?), 2)),
        "var" => Ok((
            Referenceable::InputVariable(single(root, rest.first_mut())?),
            2,
        )),
        // OpenTofu accepts `tofu.workspace` as well as `terraform.workspace`.
        "terraform" | "tofu" => {
            let name = single(root, rest.first_mut())?;
            Ok((
                Referenceable::TerraformAttr {
                    alias: root_step.take_attr(),
                    name,
                },
                2,
            ))
        }
        "self" => Ok((Referenceable::SelfRef, 1)),
        "data" | "resource" | "ephemeral" => {
            if rest.len() < 2 {
                let what = match root {
                    "data" => "the data source type and the resource name",
                    "ephemeral" => "the ephemeral resource type and the resource name",
                    _ => "the resource type and the resource name",
                };
                return Err(invalid(
                    format!(
                        "The {} object must be followed by two attribute names: {what}.",
                        go_quote(root)
                    ),
                    0,
                ));
            }
            let mode = match root {
                "data" => ResourceMode::Data,
                "ephemeral" => ResourceMode::Ephemeral,
                _ => ResourceMode::Managed,
            };
            let (subj, used) = parse_resource_steps(mode, rest, 1)?;
            Ok((subj, used + 1))
        }
        "module" => {
            let call = ModuleCall {
                name: single(root, rest.first_mut())?,
            };
            if rest.len() == 1 {
                return Ok((Referenceable::ModuleCall(call), 2));
            }
            let mut inst = ModuleCallInstance {
                call,
                key: InstanceKey::None,
            };
            let mut i = 2;
            if let Some(k) = rest.get_mut(1).filter(|k| k.is_index()) {
                inst.key = k.take_index();
                i = 3;
                if rest.len() == 2 {
                    return Ok((Referenceable::ModuleCallInstance(inst), 3));
                }
            }
            match rest.get_mut(i - 1).filter(|s| !s.is_index()) {
                Some(out) => Ok((
                    Referenceable::ModuleCallInstanceOutput(ModuleCallInstanceOutput {
                        call: inst,
                        name: out.take_attr(),
                    }),
                    i + 1,
                )),
                _ => Err(invalid(
                    "Module instance objects do not support this operation.",
                    i,
                )),
            }
        }
        "template" | "lazy" | "arg" => Err(RefError {
            summary: "Reserved symbol name",
            detail: format!(
                "The symbol name {} is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.",
                go_quote(root)
            ),
            step: 0,
        }),
        _ => parse_resource_steps(ResourceMode::Managed, steps, 0),
    }
}

/// The resource `steps` start with (its type and name), taken out of them.
fn parse_resource_steps<S: ParseStep>(
    mode: ResourceMode,
    steps: &mut [S],
    offset: usize,
) -> Result<(Referenceable, usize), RefError> {
    if steps.len() < 2 {
        return Err(invalid(
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
            offset,
        ));
    }
    if steps[0].is_index() {
        return Err(invalid(
            "The \"data\" object does not support this operation.",
            offset,
        ));
    }
    if steps[1].is_index() {
        let what = if mode == ResourceMode::Data {
            "data source"
        } else {
            "resource type"
        };
        return Err(invalid(
            format!(
                "A reference to a {what} must be followed by at least one attribute access, specifying the resource name."
            ),
            offset + 1,
        ));
    }
    let (head, tail) = steps.split_at_mut(2);
    let [type_name, name] = head else {
        unreachable!("two steps were checked to be there above");
    };
    let r = Resource {
        mode,
        type_name: type_name.take_shared(),
        name: name.take_shared(),
    };
    match tail.first_mut() {
        None => Ok((Referenceable::Resource(r), 2)),
        Some(k) if k.is_index() => Ok((
            Referenceable::ResourceInstance(ResourceInstance {
                resource: r,
                key: k.take_index(),
            }),
            3,
        )),
        Some(_) => Ok((
            Referenceable::ResourceInstance(ResourceInstance {
                resource: r,
                key: InstanceKey::None,
            }),
            2,
        )),
    }
}

/// Turns a static traversal into a reference (Go `addrs.ParseRef`). `range` is used for the
/// reference and for any diagnostic.
pub fn parse_ref(steps: &[Step], range: &SourceRange) -> Result<Reference, Diagnostic> {
    match parse_ref_steps(steps) {
        Ok((subject, used)) => Ok(Reference {
            subject,
            range: range.clone().into(),
            remaining: steps[used.min(steps.len())..].iter().cloned().collect(),
        }),
        Err(e) => Err(Diagnostic::error(e.summary, e.detail, Some(range.clone()))),
    }
}

/// Parses a reference written as a string (Go `addrs.ParseRefStr`), e.g. `module.a.out`.
pub fn parse_ref_str(s: &str) -> Result<Reference, Diagnostic> {
    let steps =
        parse_traversal_str(s).map_err(|d| Diagnostic::error("Invalid reference", d, None))?;
    let f = SourceFile::new("", s);
    parse_ref(&steps, &f.range(0..s.len()))
}

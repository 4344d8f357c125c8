//! What the values panel shows, as data: the subject a vertex stands for, values known or unknown
//! with their reason, grouped per instance.

use crate::addrs::{self, AbsResourceInstance, ConfigResource, Module};
use crate::builder::Node;
use crate::config::model::Config;
use crate::config::vars::VarSource;
use hcl::Value;
use std::collections::BTreeMap;

/// What a vertex is about, for its values: the configuration object (by address) it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// `var.x` of the root module (`NodeRootVariable`).
    RootVariable(String),
    /// `[module.m.]var.x (expand, reference)`: the variable as the module's expressions see it.
    VariableReference {
        module: Module,
        name: String,
    },
    /// `module.m.var.x (expand, input)`: the module call's argument for the variable; `module`
    /// is the called module's path.
    ModuleInput {
        module: Module,
        name: String,
    },
    Local {
        module: Module,
        name: String,
    },
    Output {
        module: Module,
        name: String,
    },
    /// `module.m (expand)`: the module call at this path.
    Module(Module),
    /// `aws_instance.web (expand)` and the other whole-resource vertices.
    Resource(ConfigResource),
    /// A resource instance vertex (`aws_instance.web[0]`, apply graphs).
    Instance(AbsResourceInstance),
    /// A provider configuration.
    Provider {
        module: Module,
        provider: addrs::Provider,
        alias: Option<String>,
    },
}

impl Subject {
    /// The subject of a vertex the builder made; `None` for vertices with no values of their
    /// own (closers, the root, checks).
    pub fn of_node(node: &Node) -> Option<Subject> {
        Some(match node {
            Node::RootVariable { name } => Subject::RootVariable(name.clone()),
            Node::VariableReference { module, name, .. } => Subject::VariableReference {
                module: module.clone(),
                name: name.clone(),
            },
            Node::ModuleVariable { module, name, .. } => Subject::ModuleInput {
                module: module.clone(),
                name: name.clone(),
            },
            Node::Local { module, config } => Subject::Local {
                module: module.clone(),
                name: config.name.clone(),
            },
            Node::Output { module, config, .. } => Subject::Output {
                module: module.clone(),
                name: config.name.clone(),
            },
            Node::ExpandModule { path, .. } => Subject::Module(path.clone()),
            Node::Resource { d, .. } => Subject::Resource(d.addr.clone()),
            Node::Instance { d, .. } => Subject::Instance(d.addr.clone()),
            Node::Provider { addr, .. } => Subject::Provider {
                module: addr.module.clone(),
                provider: addr.provider.clone(),
                alias: addr.alias.clone(),
            },
            _ => return None,
        })
    }
}

/// Why a value is not known statically.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum UnknownKind {
    /// It reads a managed resource's attribute: OpenTofu's `(known after apply)`.
    AfterApply,
    /// It reads a data source or an ephemeral resource, which the provider answers during the
    /// walk.
    Read,
    /// A root variable with no default and no value given (OpenTofu would ask for it).
    NoValue,
    /// tfgraph does not evaluate it (a function it does not have, `path.*`, too much work).
    NotStatic,
}

/// An unknown value: what kind, and why in words (the reference it starts at, and the values it
/// passed through).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    pub kind: UnknownKind,
    pub reason: String,
}

impl Unknown {
    /// How the value is shown in its place: `(known after apply)` as in OpenTofu's plan.
    pub fn label(&self) -> &'static str {
        match self.kind {
            UnknownKind::AfterApply => "(known after apply)",
            UnknownKind::Read => "(known once read)",
            UnknownKind::NoValue => "(no value)",
            UnknownKind::NotStatic => "(not known statically)",
        }
    }

    pub(super) fn new(kind: UnknownKind, reason: impl Into<String>) -> Self {
        Unknown {
            kind,
            reason: reason.into(),
        }
    }

    /// The same cause, reached through `via` (`local.ip`).
    pub(super) fn through(&self, via: &str) -> Self {
        Unknown {
            kind: self.kind.clone(),
            reason: if self.reason.starts_with("through ") {
                format!("through {via}, {}", &self.reason["through ".len()..])
            } else {
                format!("through {via}: {}", self.reason)
            },
        }
    }
}

/// A value as the panel and the CLI show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Known: rendered as OpenTofu's plan renders values ([`render`]), and where it came from
    /// when that is an input (`default`, `terraform.tfvars`, `-var`).
    Known {
        text: String,
        from: Option<String>,
    },
    /// A sensitive value: OpenTofu prints `(sensitive value)`.
    Sensitive,
    Unknown(Unknown),
}

impl Shown {
    /// The value in its place: the rendered value, `(sensitive value)` or the unknown's label.
    pub fn text(&self) -> &str {
        match self {
            Shown::Known { text, .. } => text,
            Shown::Sensitive => "(sensitive value)",
            Shown::Unknown(u) => u.label(),
        }
    }

    /// `default`, `-var`, …, or the reason a value is unknown.
    pub fn note(&self) -> Option<&str> {
        match self {
            Shown::Known { from, .. } => from.as_deref(),
            Shown::Sensitive => None,
            Shown::Unknown(u) => Some(&u.reason),
        }
    }

    pub fn is_known(&self) -> bool {
        !matches!(self, Shown::Unknown(_))
    }
}

/// One named value: a reference the vertex reads (`var.region`), or something it produces (an
/// argument, its `count`, its value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub shown: Shown,
}

/// The values of one instance (or of the whole object, where it is not repeated).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Group {
    /// The instance (`aws_instance.web[0]`, `module.net[1]`), or the object's address.
    pub title: String,
    /// The references its expressions read, each once, with their values.
    pub reads: Vec<Named>,
    /// What it produces: its value, its arguments, its `count`/`for_each` and instances.
    pub produces: Vec<Named>,
}

impl Group {
    /// A group that produces one value, `name`, from what `reads` lists.
    pub(super) fn one(title: String, reads: Vec<Named>, name: String, shown: Shown) -> Group {
        Group {
            title,
            reads,
            produces: vec![Named { name, shown }],
        }
    }
}

/// Everything [`values`] says about one vertex.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Values {
    pub groups: Vec<Group>,
    /// Sentences about what is not listed (more instances than shown, instances not known).
    pub notes: Vec<String>,
}

impl Values {
    /// The values as `tfgraph explain` prints them, indented by `indent`.
    pub fn text(&self, indent: &str) -> String {
        let mut out = String::new();
        if self.groups.is_empty() && self.notes.is_empty() {
            out.push_str(&format!(
                "{indent}(none: this vertex has no values of its own)\n"
            ));
        }
        for g in &self.groups {
            out.push_str(&format!("{indent}{}:\n", g.title));
            for n in &g.reads {
                out.push_str(&format!("{indent}  reads {}\n", line_of(n)));
            }
            for n in &g.produces {
                out.push_str(&format!("{indent}  {}\n", line_of(n)));
            }
        }
        for n in &self.notes {
            out.push_str(&format!("{indent}{n}\n"));
        }
        out
    }
}

/// `name = value (note)`.
pub(super) fn line_of(n: &Named) -> String {
    match n.shown.note() {
        Some(note) => format!("{} = {} ({note})", n.name, n.shown.text()),
        None => format!("{} = {}", n.name, n.shown.text()),
    }
}

/// What [`values`] reads: the configuration, and the root variable values the inputs give with
/// where each came from (`pipeline::Output::vars` and `var_sources`).
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    pub config: &'a Config,
    pub vars: &'a BTreeMap<String, Value>,
    pub sources: &'a BTreeMap<String, VarSource>,
}

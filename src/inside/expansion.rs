//! Dynamic expansion as a library function: the sub-graph an `(expand)` vertex's
//! `DynamicExpand` builds, worked out from the configuration alone (and the prior state, for
//! orphans), so it can be drawn without walking.
//!
//! What OpenTofu v1.12.6 builds, and what [`expand`] returns:
//!
//! | vertex | Go | sub-graph |
//! |---|---|---|
//! | `aws_instance.web (expand)` in plan walks | `nodeExpandPlannableResource.DynamicExpand` | one `NodePlannableResourceInstance` per instance across the module's instances (`module.m[0].aws_instance.web["a"]`), one `(orphan)` per object in the prior state whose instance is gone, and the root |
//! | `ephemeral.x.y (expand)` in apply walks | `nodeExpandApplyableResource.DynamicExpand` | one `NodeApplyableResourceInstance` per instance, and the root (managed and data resources do not expand in apply walks: the graph already holds their instances) |
//! | `local.x (expand)`, `output.x (expand)` | `nodeExpandLocal`, `nodeExpandOutput` | one vertex per module instance (`module.m[0].local.x`; root outputs become `output.x (destroy)` when planning a destroy), and the root |
//! | `var.x (expand, reference)`, `module.m.var.x (expand, input)` | `nodeVariableReference`, `nodeExpandModuleVariable` | one vertex per module instance, named as OpenTofu names them (`module.m[0].var.x (reference)`, `module.m[0].var.x(input)`), and the root |
//! | `check.c (expand)` | `nodeExpandCheck.DynamicExpand` | one `(assertions)` vertex per module instance, and the root |
//! | `module.m (expand)` | `nodeExpandModule.Execute` (it has no `DynamicExpand`) | what its expansion decides: one vertex per module instance, each with the instances of the resources inside it (nested modules included), which depend on it |
//!
//! Every sub-graph ends in `root`: as OpenTofu's `addRootNodeToGraph`, the root depends on each
//! vertex nothing else depends on. In validate walks every module counts as a single, unkeyed
//! instance (`nodeValidateModule` records it so) and resources do not expand.
//!
//! When a `count`/`for_each` (or that of an enclosing module) is not known from the
//! configuration, [`expand`] returns the reason instead of guessing.

use super::steps::{GoNode, Operation};
use crate::addrs::{self, ModuleInstance, ResourceMode};
use crate::builder::Node;
use crate::config::eval::StaticEval;
use crate::dag::{Graph, Vertex, VertexId};
use crate::kind::{Mode, ResourceRole, Typed, VertexKind};
use crate::state::State;
use std::collections::BTreeSet;

/// What a vertex of an expansion sub-graph is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// One instance of the expanded object.
    Instance,
    /// An object in the prior state whose instance the configuration no longer has.
    Orphan,
    /// A module instance (only in a module's expansion).
    ModuleInstance,
    /// The sub-graph's root.
    Root,
}

/// One vertex of an expansion sub-graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// OpenTofu's name for the vertex.
    pub name: String,
    pub role: Role,
    /// The Go type that runs it (`None` for module instances, which are not vertices in
    /// OpenTofu and stand here for what the module's expansion decided).
    pub go: Option<GoNode>,
    /// The module instance it belongs to (root module: empty).
    pub module_instance: ModuleInstance,
    /// Its kind and module as every reader of a graph takes them ([`crate::kind`]): what the
    /// page draws it as.
    pub typed: Typed,
}

impl Vertex for Member {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn typed(&self) -> Typed {
        self.typed.clone()
    }
}

/// `module.a[0].module.b["x"]` as [`Typed::module`] holds it: `["a[0]", "b[\"x\"]"]`.
fn module_steps(mi: &ModuleInstance) -> Vec<String> {
    mi.0.iter()
        .map(|s| format!("{}{}", s.name, s.key))
        .collect()
}

/// The kind of a resource instance or orphan of `addr` in module instance `mi`.
fn resource_typed(addr: &addrs::Resource, mi: &ModuleInstance, role: ResourceRole) -> Typed {
    let mode = match addr.mode {
        ResourceMode::Managed => Mode::Managed,
        ResourceMode::Data => Mode::Data,
        ResourceMode::Ephemeral => Mode::Ephemeral,
    };
    Typed::new(
        VertexKind::resource(mode, &addr.type_name, &addr.name, role),
        module_steps(mi),
    )
}

/// The sub-graph of one `(expand)` vertex.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// The expanded vertex's name.
    pub of: String,
    /// What builds this sub-graph in OpenTofu.
    pub go: GoNode,
    /// The instances, orphans and root; an edge `a -> b` means `a` depends on `b`.
    pub graph: Graph<Member>,
    /// One sentence on how OpenTofu builds it.
    pub note: &'static str,
}

impl Expansion {
    /// The members in name order, without the root.
    pub fn members(&self) -> Vec<&Member> {
        let mut v: Vec<&Member> = self
            .graph
            .iter()
            .map(|(_, m)| m)
            .filter(|m| m.role != Role::Root)
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    /// The member names in order, without the root.
    pub fn names(&self) -> Vec<String> {
        self.members().into_iter().map(|m| m.name.clone()).collect()
    }
}

/// What [`expand`] needs besides the vertex: the static evaluator over the configuration (with
/// the root variable values) and, for orphans, the prior state.
pub struct Context<'a> {
    pub eval: &'a mut StaticEval,
    pub state: Option<&'a State>,
    pub op: Operation,
}

/// The sub-graph `node`'s expansion builds in `ctx.op`'s walk: `None` when the vertex does not
/// expand in that walk, `Err` with the reason when its instances are not known statically.
pub fn expand(node: &Node, ctx: &mut Context<'_>) -> Option<Result<Expansion, String>> {
    let op = ctx.op;
    let go = GoNode::of_node(node, op);
    match node {
        Node::Resource { d, .. } => {
            let mode = d.addr.resource.mode;
            let expands = match go {
                GoNode::ExpandPlannableResource(_) => true,
                GoNode::ExpandApplyableResource(m) => m == ResourceMode::Ephemeral,
                _ => false,
            };
            if !expands {
                return None;
            }
            Some(resource(ctx, node.name(), go, &d.addr, mode))
        }
        Node::Local { module, config } => Some(per_module_instance(
            ctx,
            node.name(),
            node.kind().instance(),
            go,
            module,
            |mi| qualify(mi, &format!("local.{}", config.name)),
            Some(GoNode::Local),
            "nodeExpandLocal.DynamicExpand adds one NodeLocal per module instance and a root.",
        )),
        Node::Output { module, config, .. } => {
            let destroying = op == Operation::Destroy && module.is_root();
            let inst_go = if destroying {
                GoNode::DestroyableOutput
            } else {
                GoNode::ApplyableOutput
            };
            let kind = if destroying {
                VertexKind::OutputDestroy
            } else {
                node.kind().instance()
            };
            Some(per_module_instance(
                ctx,
                node.name(),
                kind,
                go,
                module,
                |mi| {
                    let a = qualify(mi, &format!("output.{}", config.name));
                    if destroying {
                        format!("{a} (destroy)")
                    } else {
                        a
                    }
                },
                Some(inst_go),
                "nodeExpandOutput.DynamicExpand adds one output vertex per module instance and a \
                 root.",
            ))
        }
        Node::VariableReference { module, name, .. } => Some(per_module_instance(
            ctx,
            node.name(),
            node.kind().instance(),
            go,
            module,
            |mi| format!("{} (reference)", qualify(mi, &format!("var.{name}"))),
            Some(GoNode::VariableReferenceInstance),
            "nodeVariableReference.DynamicExpand adds one nodeVariableReferenceInstance per \
             module instance and a root.",
        )),
        Node::ModuleVariable { module, name, .. } => Some(per_module_instance(
            ctx,
            node.name(),
            node.kind().instance(),
            go,
            module,
            // Go's nodeModuleVariable.Name has no space before "(input)".
            |mi| format!("{}(input)", qualify(mi, &format!("var.{name}"))),
            Some(GoNode::ModuleVariable),
            "nodeExpandModuleVariable.DynamicExpand adds one nodeModuleVariable per instance of \
             the module and a root.",
        )),
        Node::ExpandCheck { module, name, .. } => Some(per_module_instance(
            ctx,
            node.name(),
            node.kind().instance(),
            go,
            module,
            |mi| format!("{} (assertions)", qualify(mi, &format!("check.{name}"))),
            Some(GoNode::CheckAssert),
            "nodeExpandCheck.DynamicExpand adds one nodeCheckAssert per module instance and a \
             root.",
        )),
        Node::ExpandModule { path, .. } => Some(module(ctx, node.name(), go, path)),
        _ => None,
    }
}

fn qualify(mi: &ModuleInstance, rest: &str) -> String {
    if mi.is_root() {
        rest.to_string()
    } else {
        format!("{mi}.{rest}")
    }
}

/// The module's instances as the walk sees them: in validate walks every module is one unkeyed
/// instance.
fn module_instances(
    ctx: &mut Context<'_>,
    path: &addrs::Module,
) -> Result<Vec<ModuleInstance>, String> {
    if ctx.op == Operation::Validate {
        return Ok(vec![path.unkeyed_instance()]);
    }
    ctx.eval.module_instances(path)
}

/// Adds the root, depending on every vertex that nothing depends on (`addRootNodeToGraph`).
fn add_root(g: &mut Graph<Member>) {
    let leaves: Vec<VertexId> = g
        .ids()
        .filter(|&id| g.dependents(id).next().is_none())
        .collect();
    let root = g.add(Member {
        name: "root".to_string(),
        role: Role::Root,
        go: Some(GoNode::Root),
        module_instance: ModuleInstance::root(),
        typed: Typed::new(VertexKind::Root, Vec::new()),
    });
    for v in leaves {
        g.connect(root, v);
    }
}

#[allow(clippy::too_many_arguments)]
fn per_module_instance(
    ctx: &mut Context<'_>,
    of: String,
    kind: VertexKind,
    go: GoNode,
    module: &addrs::Module,
    name: impl Fn(&ModuleInstance) -> String,
    inst_go: Option<GoNode>,
    note: &'static str,
) -> Result<Expansion, String> {
    let mut g = Graph::new();
    for mi in module_instances(ctx, module)? {
        g.add(Member {
            name: name(&mi),
            role: Role::Instance,
            go: inst_go,
            typed: Typed::new(kind.clone(), module_steps(&mi)),
            module_instance: mi,
        });
    }
    add_root(&mut g);
    Ok(Expansion {
        of,
        go,
        graph: g,
        note,
    })
}

/// The instances of one resource across its module's instances, as `Member`s, plus its orphans
/// from the prior state.
fn resource_members(
    ctx: &mut Context<'_>,
    addr: &addrs::ConfigResource,
    inst_go: GoNode,
    orphan_go: Option<GoNode>,
) -> Result<Vec<Member>, String> {
    let instances = ctx.eval.resource_instances(&addr.module, &addr.resource)?;
    let mut out = Vec::new();
    let mut present = BTreeSet::new();
    for i in instances {
        present.insert(i.to_string());
        out.push(Member {
            name: i.to_string(),
            role: Role::Instance,
            go: Some(inst_go),
            typed: resource_typed(&addr.resource, &i.module, ResourceRole::Instance),
            module_instance: i.module.clone(),
        });
    }
    if let (Some(state), Some(orphan_go)) = (ctx.state, orphan_go) {
        for (abs, rs) in &state.resources {
            if abs.config() != *addr {
                continue;
            }
            for key in rs.instances.keys() {
                let inst = abs.instance(key.clone());
                let name = inst.to_string();
                if !present.contains(&name) && rs.instances[key].current.is_some() {
                    out.push(Member {
                        name: format!("{name} (orphan)"),
                        role: Role::Orphan,
                        go: Some(orphan_go),
                        typed: resource_typed(&addr.resource, &abs.module, ResourceRole::Orphan),
                        module_instance: abs.module.clone(),
                    });
                }
            }
        }
    }
    Ok(out)
}

fn resource(
    ctx: &mut Context<'_>,
    of: String,
    go: GoNode,
    addr: &addrs::ConfigResource,
    mode: ResourceMode,
) -> Result<Expansion, String> {
    let (inst_go, orphan_go, note) = match go {
        GoNode::ExpandApplyableResource(_) => (
            GoNode::ApplyableInstance(mode),
            None,
            "nodeExpandApplyableResource.DynamicExpand builds the ephemeral resource's instances \
             again (no plan records them): one vertex per instance and a root.",
        ),
        _ => (
            GoNode::PlannableInstance(mode),
            Some(GoNode::PlannableOrphan(mode)),
            "nodeExpandPlannableResource.DynamicExpand evaluates count/for_each in every module \
             instance, then resourceInstanceSubgraph adds one vertex per instance, an orphan for \
             each object in the prior state whose instance is gone, and a root.",
        ),
    };
    let mut g = Graph::new();
    for m in resource_members(ctx, addr, inst_go, orphan_go)? {
        g.add(m);
    }
    add_root(&mut g);
    Ok(Expansion {
        of,
        go,
        graph: g,
        note,
    })
}

/// Every resource declared in the module at `path` and in the modules below it, with its
/// address.
fn resources_under(ctx: &Context<'_>, path: &addrs::Module) -> Vec<addrs::ConfigResource> {
    let mut out = Vec::new();
    let Some(cfg) = ctx.eval.config().descendant(path) else {
        return out;
    };
    for c in cfg.all_modules() {
        for r in c.module.all_resources() {
            out.push(r.addr().in_module(c.path.clone()));
        }
    }
    out
}

fn module(
    ctx: &mut Context<'_>,
    of: String,
    go: GoNode,
    path: &addrs::Module,
) -> Result<Expansion, String> {
    let mut g = Graph::new();
    let mut by_instance = std::collections::BTreeMap::new();
    for mi in module_instances(ctx, path)? {
        let id = g.add(Member {
            name: mi.to_string(),
            role: Role::ModuleInstance,
            go: None,
            typed: Typed::new(VertexKind::ModuleInstance, module_steps(&mi)),
            module_instance: mi.clone(),
        });
        by_instance.insert(mi, id);
    }
    // In validate walks resources are not expanded: the module's instance is all there is.
    if ctx.op != Operation::Validate {
        for addr in resources_under(ctx, path) {
            let mode = addr.resource.mode;
            for m in resource_members(ctx, &addr, GoNode::PlannableInstance(mode), None)? {
                // The module instance of `path` this member lies in.
                let owner = by_instance
                    .keys()
                    .find(|mi| mi.is_ancestor_or_self_of(&m.module_instance))
                    .cloned();
                let id = g.add(m);
                if let Some(owner) = owner {
                    g.connect(id, by_instance[&owner]);
                }
            }
        }
    }
    add_root(&mut g);
    Ok(Expansion {
        of,
        go,
        graph: g,
        note: "nodeExpandModule builds no sub-graph: its Execute evaluates count/for_each and \
               records the module's instances, from which each vertex inside the module then \
               expands; shown here are those instances with what they contain.",
    })
}

#[cfg(test)]
mod tests;

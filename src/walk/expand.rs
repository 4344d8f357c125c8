//! The static expander: which instances an `(expand)` vertex of a plan graph stands for.
//!
//! In OpenTofu, the plan walk reaches `aws_instance.web (expand)`, evaluates its `count` or
//! `for_each` in every instance of its module and walks one vertex per instance
//! (`aws_instance.web[0]`, `module.m["a"].aws_instance.web`, ...) as a subgraph
//! (`DynamicExpand`). Without providers or state we can only know the instance keys that follow
//! from the configuration itself; [`crate::config::eval`] works them out (what it supports is
//! listed there) and this module turns them into instance vertices named as OpenTofu names them:
//!
//! | vertex | expands into |
//! |---|---|
//! | `aws_instance.web (expand)`, `data.x.y (expand)`, `module.m.aws_instance.web (expand)` | one vertex per resource instance across the module's instances, e.g. `module.m[0].aws_instance.web["a"]`; a resource without `count`/`for_each` gives the single instance `aws_instance.web` |
//! | `module.m (expand)` | one vertex per module instance, `module.m[0]`, `module.m["a"]` (OpenTofu only records these; here they are zero-duration vertices so the log shows them) |
//! | `local.x (expand)`, `output.x (expand)`, `module.m.var.x (expand)` (and the like) | the value once per module instance: `local.x`, `module.m[1].local.x` |
//!
//! When a `count`/`for_each` (or that of an enclosing module) is not known statically the vertex
//! expands into nothing and the walk records [`Transition::InstancesUnknown`] with the reason,
//! rather than guessing a number.
//!
//! Only plan graphs (`plan`, `plan-refresh-only`) have vertices that expand this way. Apply and
//! destroy graphs already hold one vertex per planned instance, taken from the plan; there the
//! expander is not used.
//!
//! [`Transition::InstancesUnknown`]: super::Transition::InstancesUnknown

use super::walker::{Expander, Expansion, VertexRef};
use crate::addrs::{self, ModuleInstance};
use crate::config::Config;
use crate::config::eval::StaticEval;
use crate::dag::Graph;
use crate::kind::{Mode, ResourceRole, Typed, VertexKind};
use std::collections::BTreeMap;

/// Expands the `(expand)` vertices of a plan graph by static evaluation of the configuration. It
/// keeps no state of a walk, so one expander serves any number of walks ([`super::Scenario`] holds
/// each walk to [`super::scenario::MAX_WALK_INSTANCES`]).
#[derive(Debug, Clone)]
pub struct StaticExpander {
    eval: StaticEval,
}

/// What an `(expand)` vertex is about.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Module(addrs::Module),
    Resource(addrs::Module, addrs::Resource),
    /// `local.x`, `output.x`, `var.x` in a module: once per module instance.
    Value(addrs::Module, String),
}

/// What the vertex of kind and module `t` expands into, if it is an `(expand)` vertex this
/// expander knows.
fn target_of(t: &Typed) -> Option<Target> {
    let path = addrs::Module(t.module.as_slice().into());
    match &t.kind {
        VertexKind::ModuleExpand if !path.is_root() => Some(Target::Module(path)),
        VertexKind::Local { name } => Some(Target::Value(path, format!("local.{name}"))),
        VertexKind::Output { name } => Some(Target::Value(path, format!("output.{name}"))),
        VertexKind::Resource {
            mode,
            type_name,
            name,
            role: ResourceRole::Expand,
        } => {
            let mode = match mode {
                Mode::Managed => addrs::ResourceMode::Managed,
                Mode::Data => addrs::ResourceMode::Data,
                Mode::Ephemeral => addrs::ResourceMode::Ephemeral,
            };
            Some(Target::Resource(
                path,
                addrs::Resource::new(mode, type_name, name),
            ))
        }
        _ => None,
    }
}

fn prefixed(mi: &ModuleInstance, rest: &str) -> String {
    if mi.is_root() {
        rest.to_string()
    } else {
        format!("{mi}.{rest}")
    }
}

impl StaticExpander {
    /// `vars`: root variable values as `NAME=VALUE` (as `tofu plan -var`).
    pub fn new(config: Config, vars: &[String]) -> Self {
        StaticExpander {
            eval: StaticEval::new(config, vars),
        }
    }

    /// With root variable values already resolved (`pipeline::Output::vars`: variables files,
    /// `-var`, `TF_VAR_`).
    pub fn with_values(config: Config, vars: BTreeMap<String, hcl::Value>) -> Self {
        StaticExpander {
            eval: StaticEval::with_values(config, vars),
        }
    }

    /// The instance vertex names for an `(expand)` vertex of kind and module `t`, `Err` with the
    /// reason when they are not known statically; `None` when the vertex does not expand.
    pub fn instances_of(&mut self, t: &Typed) -> Option<Result<Vec<String>, String>> {
        let target = target_of(t)?;
        let r = match target {
            Target::Module(path) => self
                .eval
                .module_instances(&path)
                .map(|v| v.iter().map(ToString::to_string).collect()),
            Target::Resource(path, res) => {
                // A vertex the builder made for something the configuration does not declare
                // (e.g. from state only) is not ours to expand.
                self.eval
                    .config()
                    .descendant(&path)?
                    .module
                    .resource(&res)?;
                self.eval
                    .resource_instances(&path, &res)
                    .map(|v| v.iter().map(ToString::to_string).collect())
            }
            Target::Value(path, rest) => self
                .eval
                .module_instances(&path)
                .map(|v| v.iter().map(|mi| prefixed(mi, &rest)).collect()),
        };
        Some(r)
    }
}

impl Expander for StaticExpander {
    fn expand(&mut self, v: &VertexRef) -> Option<Expansion> {
        if v.parent.is_some() {
            return None;
        }
        Some(expansion(self.instances_of(&v.typed)?))
    }
}

/// The walk's expansion into the instance vertices `names`, or unknown with the reason.
fn expansion(instances: Result<Vec<String>, String>) -> Expansion {
    match instances {
        Ok(names) => {
            let mut g = Graph::new();
            for n in names {
                g.add(n);
            }
            Expansion::Instances(g)
        }
        Err(why) => Expansion::Unknown(why),
    }
}

/// A [`StaticExpander`]'s answers for every vertex of one graph, worked out at once
/// ([`StaticExpander::known`]): plain data, which the engine's worker sends the page, whose
/// walks then expand without holding the configuration. By vertex name; a vertex not listed does
/// not expand.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KnownExpansions(BTreeMap<String, Result<Vec<String>, String>>);

impl StaticExpander {
    /// What each of `vertices` (names with their kind and module) expands into, if it does.
    pub fn known<'a>(
        &mut self,
        vertices: impl IntoIterator<Item = (String, &'a Typed)>,
    ) -> KnownExpansions {
        KnownExpansions(
            vertices
                .into_iter()
                .filter_map(|(name, t)| Some((name, self.instances_of(t)?)))
                .collect(),
        )
    }
}

impl Expander for KnownExpansions {
    fn expand(&mut self, v: &VertexRef) -> Option<Expansion> {
        if v.parent.is_some() {
            return None;
        }
        Some(expansion(self.0.get(&v.name)?.clone()))
    }
}

/// The expander of the page's walks: the configuration's own (the page analysed it), or its
/// answers worked out in the engine's worker.
// One per analysis, behind a shared lock: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum WalkExpander {
    Static(StaticExpander),
    Known(KnownExpansions),
}

impl Expander for WalkExpander {
    fn expand(&mut self, v: &VertexRef) -> Option<Expansion> {
        match self {
            WalkExpander::Static(e) => e.expand(v),
            WalkExpander::Known(k) => k.expand(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dag::import::DotVertexRead;
    use crate::walk::{DurationModel, Scenario, Transition, WalkOptions, simulate};
    use std::collections::BTreeMap;
    use std::time::Duration;

    fn config(files: &[(&str, &str)]) -> Config {
        let files: BTreeMap<String, String> = files
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (cfg, diags) = crate::config::load_files(&files);
        cfg.unwrap_or_else(|| panic!("{diags:?}"))
    }

    fn instances(e: &mut StaticExpander, v: &str) -> Result<Vec<String>, String> {
        e.instances_of(&crate::dag::import::typed_from_name(v))
            .expect("expands")
    }

    // Found by fuzzing (config_builders): many resources of a large count made millions of walk
    // tasks and ran out of memory. The walk's scenario holds it to a budget (here 250).
    #[test]
    fn one_walk_expands_a_bounded_number_of_instances() {
        let text: String = (0..3)
            .map(|i| format!("resource \"a_b\" \"r{i}\" {{\n  count = 100\n}}\n"))
            .collect();
        let mut g: Graph<DotVertexRead> = Graph::new();
        for i in 0..3 {
            g.add(DotVertexRead::named(&format!("a_b.r{i} (expand)")));
        }
        let mut s = Scenario::new(DurationModel::table())
            .with_expander(StaticExpander::new(config(&[("main.tf", &text)]), &[]));
        assert_eq!(s.max_instances, crate::walk::scenario::MAX_WALK_INSTANCES);
        s.max_instances = 250;
        let r = simulate(&g, &WalkOptions::default(), s);
        assert_eq!(r.tasks.len(), 3 + 200);
        let unknown: Vec<&str> = r
            .events
            .iter()
            .filter_map(|e| match &e.transition {
                Transition::InstancesUnknown(w) => Some(w.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            unknown,
            ["100 instances would make the walk expand more than 250 in all"]
        );
    }

    #[test]
    fn parses_expand_vertex_names() {
        assert_eq!(
            target_of(&crate::dag::import::typed_from_name(
                "module.a.module.b (expand)"
            )),
            Some(Target::Module(addrs::Module(
                vec!["a".into(), "b".into()].into()
            )))
        );
        assert_eq!(
            target_of(&crate::dag::import::typed_from_name(
                "module.a.data.x_y.z (expand)"
            )),
            Some(Target::Resource(
                addrs::Module(vec!["a".into()].into()),
                addrs::Resource::new(addrs::ResourceMode::Data, "x_y", "z")
            ))
        );
        assert_eq!(
            target_of(&crate::dag::import::typed_from_name("local.x (expand)")),
            Some(Target::Value(addrs::Module::root(), "local.x".into()))
        );
        assert_eq!(
            target_of(&crate::dag::import::typed_from_name("aws_instance.web")),
            None
        );
        assert_eq!(
            target_of(&crate::dag::import::typed_from_name(
                "var.n (expand, reference)"
            )),
            None
        );
        assert_eq!(
            target_of(&crate::dag::import::typed_from_name(
                "provider[\"x\"] (expand)"
            )),
            None
        );
    }

    #[test]
    fn count_for_each_and_module_instances() {
        let mut e = StaticExpander::new(
            config(&[
                (
                    "main.tf",
                    r#"
variable "n" { default = 2 }
resource "aws_instance" "web" { count = 3 }
resource "aws_instance" "byvar" { count = var.n }
resource "aws_instance" "map" {
  for_each = { a = 1, b = 2 }
}
resource "aws_instance" "set" {
  for_each = toset(["y", "x"])
}
resource "aws_instance" "single" {}
resource "aws_instance" "unknown" { count = length(aws_instance.web) }
module "m" {
  source = "./m"
  for_each = toset(["p", "q"])
  size = each.key == "p" ? 1 : 2
}
module "u" {
  source = "./m"
  count = length(aws_instance.web)
  size = 1
}
"#,
                ),
                (
                    "m/main.tf",
                    "variable \"size\" {}\nresource \"aws_s3_bucket\" \"b\" { count = var.size }\nlocals { x = 1 }\n",
                ),
            ]),
            &["n=4".to_string()],
        );
        assert_eq!(
            instances(&mut e, "aws_instance.web (expand)").unwrap(),
            vec![
                "aws_instance.web[0]",
                "aws_instance.web[1]",
                "aws_instance.web[2]"
            ]
        );
        assert_eq!(
            instances(&mut e, "aws_instance.byvar (expand)")
                .unwrap()
                .len(),
            4,
            "--var wins over the default"
        );
        assert_eq!(
            instances(&mut e, "aws_instance.map (expand)").unwrap(),
            vec![r#"aws_instance.map["a"]"#, r#"aws_instance.map["b"]"#]
        );
        assert_eq!(
            instances(&mut e, "aws_instance.set (expand)").unwrap(),
            vec![r#"aws_instance.set["x"]"#, r#"aws_instance.set["y"]"#]
        );
        assert_eq!(
            instances(&mut e, "aws_instance.single (expand)").unwrap(),
            vec!["aws_instance.single"]
        );
        let why = instances(&mut e, "aws_instance.unknown (expand)").unwrap_err();
        assert!(why.contains("count = length(aws_instance.web)"), "{why}");
        assert_eq!(
            instances(&mut e, "module.m (expand)").unwrap(),
            vec![r#"module.m["p"]"#, r#"module.m["q"]"#]
        );
        assert_eq!(
            instances(&mut e, "module.m.aws_s3_bucket.b (expand)").unwrap(),
            vec![
                r#"module.m["p"].aws_s3_bucket.b[0]"#,
                r#"module.m["q"].aws_s3_bucket.b[0]"#,
                r#"module.m["q"].aws_s3_bucket.b[1]"#,
            ]
        );
        assert_eq!(
            instances(&mut e, "module.m.local.x (expand)").unwrap(),
            vec![r#"module.m["p"].local.x"#, r#"module.m["q"].local.x"#]
        );
        assert!(instances(&mut e, "module.u (expand)").is_err());
        let why = instances(&mut e, "module.u.aws_s3_bucket.b (expand)").unwrap_err();
        assert!(why.starts_with("module.u: count = "), "{why}");
    }

    #[test]
    fn count_from_variable_default_without_var() {
        let mut e = StaticExpander::new(
            config(&[(
                "main.tf",
                "variable \"n\" { default = 2 }\nresource \"a_b\" \"c\" { count = var.n }\n",
            )]),
            &[],
        );
        assert_eq!(instances(&mut e, "a_b.c (expand)").unwrap().len(), 2);
    }

    #[test]
    fn walked_plan_graph_runs_instances_under_the_same_semaphore_and_reports_unknown() {
        let cfg = config(&[(
            "main.tf",
            "resource \"aws_instance\" \"web\" { count = 3 }\nresource \"aws_instance\" \"later\" {\n  count = length(aws_instance.web)\n}\n",
        )]);
        let mut g: Graph<DotVertexRead> = Graph::new();
        let web = g.add(DotVertexRead::named("aws_instance.web (expand)"));
        let later = g.add(DotVertexRead::named("aws_instance.later (expand)"));
        g.connect(later, web);
        let r = simulate(
            &g,
            &WalkOptions::with_parallelism(2),
            Scenario::new(DurationModel::uniform(Duration::from_secs(10)))
                .with_expander(StaticExpander::new(cfg, &[])),
        );
        assert!(r.is_complete());
        let parent = r.task_for(web).expect("web");
        assert_eq!(parent.children.len(), 3);
        // The expand vertex is bookkeeping (no time), then three instances two at a time (20 s);
        // `later`'s instances are unknown, so it takes no time either.
        assert_eq!(r.max_concurrency(), 2);
        assert_eq!(r.makespan(), Duration::from_secs(20));
        let later_t = r.task_for(later).expect("later");
        assert_eq!(later_t.status, Transition::Done);
        assert!(r.events.iter().any(|e| e.task == later_t.task
            && matches!(&e.transition, Transition::InstancesUnknown(w) if w.contains("count = length(aws_instance.web) is unknown"))));
    }
}

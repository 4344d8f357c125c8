use super::*;
use crate::addrs::ResourceMode;
use std::collections::BTreeSet;

/// `go_functions.txt`: every function of OpenTofu v1.12.6's `internal/tofu`, as `(file, func)`.
fn go_functions() -> BTreeSet<(String, String)> {
    include_str!("go_functions.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (f, name) = l.split_once(' ').expect("FILE FUNC");
            (f.to_string(), name.to_string())
        })
        .collect()
}

fn all_evaluations() -> Vec<Evaluation> {
    let mut out = Vec::new();
    for go in GoNode::all() {
        for op in Operation::ALL {
            out.push(evaluation(go, op));
        }
    }
    out
}

fn each_level(e: &Evaluation, f: &mut dyn FnMut(&Evaluation)) {
    f(e);
    if let Some(i) = &e.instance {
        each_level(i, f);
    }
}

fn ids(e: &Evaluation) -> Vec<&'static str> {
    e.steps.iter().map(|s| s.id).collect()
}

#[test]
fn the_function_list_is_opentofus() {
    let fns = go_functions();
    // Spot checks of the list itself: a method, a plain function, and no test file.
    assert!(fns.contains(&(
        "node_resource_plan_instance.go".into(),
        "NodePlannableResourceInstance.managedResourceExecute".into()
    )));
    assert!(fns.contains(&("eval_conditions.go".into(), "evalCheckRules".into())));
    assert!(fns.iter().all(|(f, _)| !f.ends_with("_test.go")));
    assert!(fns.len() > 800, "{}", fns.len());
}

#[test]
fn every_type_and_operation_has_steps_citing_functions_that_exist() {
    let fns = go_functions();
    let mut cited = BTreeSet::new();
    for e in all_evaluations() {
        each_level(&e, &mut |level| {
            assert!(
                !level.steps.is_empty(),
                "{} in {} has no steps",
                level.go,
                level.operation
            );
            for s in &level.steps {
                let key = (s.go.file.to_string(), s.go.func.to_string());
                assert!(
                    fns.contains(&key),
                    "{} in {}: step {} cites {} which OpenTofu v1.12.6 does not have",
                    level.go,
                    level.operation,
                    s.id,
                    s.go
                );
                cited.insert(key);
                assert!(!s.name.is_empty() && !s.id.is_empty());
                // One plain sentence: starts with a capital letter, ends with a full stop.
                assert!(
                    s.sentence.starts_with(|c: char| c.is_ascii_uppercase())
                        && s.sentence.ends_with('.'),
                    "{}: {:?}",
                    s.id,
                    s.sentence
                );
                assert!(!s.sentence.contains("  "), "{}: double space", s.id);
                if s.kind != StepKind::Provider {
                    assert_eq!(s.weight, 0, "{}: only provider steps share time", s.id);
                }
            }
            // Ids are unique among a vertex's own steps, so a failure can name one.
            let own: BTreeSet<&str> = ids(level).into_iter().collect();
            assert_eq!(
                own.len(),
                level.steps.len(),
                "{} in {}: {:?}",
                level.go,
                level.operation,
                ids(level)
            );
        });
    }
    // The tables draw on many of OpenTofu's functions, not a handful.
    assert!(cited.len() >= 60, "{}", cited.len());
}

#[test]
fn every_type_is_named_in_the_file_its_steps_come_from() {
    let fns = go_functions();
    for go in GoNode::all() {
        if go == GoNode::Unknown {
            continue;
        }
        // The type has methods in the file that declares it (so the file name is right).
        let prefix = format!("{}.", go.type_name());
        let has_method = fns
            .iter()
            .any(|(f, name)| f == go.file() && name.starts_with(&prefix));
        // graphNodeRoot and graphNodeProxyProvider have methods too (Name and the like).
        assert!(has_method, "{go} has no method in {}", go.file());
    }
}

#[test]
fn a_planned_managed_instance_reads_refreshes_evaluates_then_asks_the_provider() {
    // NodePlannableResourceInstance.managedResourceExecute: read state, refresh, then plan
    // (evaluate the configuration before PlanResourceChange), write the change before the
    // state (the FIXME in that function explains the order), postconditions last.
    let e = evaluation(
        GoNode::PlannableInstance(ResourceMode::Managed),
        Operation::Plan,
    );
    let order = ids(&e);
    let pos = |id: &str| {
        order
            .iter()
            .position(|x| *x == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    assert_eq!(order[0], "get-provider");
    assert!(pos("read-state") < pos("refresh"));
    assert!(pos("refresh") < pos("evaluate-config"));
    assert!(pos("evaluate-config") < pos("plan-change"));
    assert!(pos("plan-change") < pos("save-change"));
    assert!(pos("save-change") < pos("save-state"));
    assert_eq!(*order.last().unwrap(), "postconditions");
    let plan = e.step("plan-change").unwrap();
    assert!(plan.reads.contains(&Item::Provider));
    assert_eq!(plan.kind, StepKind::Provider);
    assert!(
        e.step("save-change")
            .unwrap()
            .writes
            .contains(&Item::PlannedChange)
    );
    assert!(
        e.step("save-state")
            .unwrap()
            .writes
            .contains(&Item::NewState)
    );
    assert!(
        e.step("evaluate-config")
            .unwrap()
            .reads
            .contains(&Item::Values)
    );
}

#[test]
fn refresh_only_refreshes_but_plans_no_change() {
    // skipPlanChanges: the else branch of managedResourceExecute.
    let e = evaluation(
        GoNode::PlannableInstance(ResourceMode::Managed),
        Operation::RefreshOnly,
    );
    assert!(e.step("refresh").is_some());
    assert!(e.step("plan-change").is_none());
    assert!(
        e.steps
            .iter()
            .all(|s| !s.writes.contains(&Item::PlannedChange))
    );
    // Orphans too stop after the refresh.
    let o = evaluation(
        GoNode::PlannableOrphan(ResourceMode::Managed),
        Operation::RefreshOnly,
    );
    assert!(o.step("refresh").is_some() && o.step("plan-change").is_none());
}

#[test]
fn apply_reads_the_saved_change_and_applies_it() {
    let e = evaluation(
        GoNode::ApplyableInstance(ResourceMode::Managed),
        Operation::Apply,
    );
    let order = ids(&e);
    let pos = |id: &str| order.iter().position(|x| *x == id).unwrap();
    assert!(pos("read-change") < pos("apply"));
    assert!(pos("replan") < pos("check-plan"));
    assert!(pos("check-plan") < pos("apply"));
    assert!(pos("apply") < pos("save-state"));
    // The apply call is most of the vertex's time.
    let apply = e.step("apply").unwrap();
    let provider_weight: u32 = e
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::Provider)
        .map(|s| u32::from(s.weight))
        .sum();
    assert!(u32::from(apply.weight) * 2 > provider_weight);
    assert!(apply.writes.contains(&Item::RealObject));
}

#[test]
fn data_sources_read_now_or_defer_to_apply() {
    let plan = evaluation(
        GoNode::PlannableInstance(ResourceMode::Data),
        Operation::Plan,
    );
    let read = plan.step("read-data").unwrap();
    assert!(read.sentence.contains("<="), "{}", read.sentence);
    assert_eq!(read.go.func, "NodeAbstractResourceInstance.readDataSource");
    let apply = evaluation(
        GoNode::ApplyableInstance(ResourceMode::Data),
        Operation::Apply,
    );
    assert!(apply.step("read-data").is_some());
    assert!(apply.step("apply").is_none());
}

#[test]
fn destroy_plans_and_deletions() {
    // The destroy plan plans the deletion; the apply walk's (destroy) vertex deletes.
    let plan = evaluation(
        GoNode::PlanDestroyableInstance(ResourceMode::Managed),
        Operation::Destroy,
    );
    assert!(plan.step("plan-change").is_some() && plan.step("apply").is_none());
    let apply = evaluation(
        GoNode::DestroyInstance(ResourceMode::Managed),
        Operation::Apply,
    );
    let delete = apply.step("apply").unwrap();
    assert!(delete.sentence.contains("delete"));
    // A deposed object is not refreshed when planning a destroy (`op != walkPlanDestroy`).
    assert!(
        evaluation(GoNode::PlanDeposed, Operation::Destroy)
            .step("refresh")
            .is_none()
    );
    assert!(
        evaluation(GoNode::PlanDeposed, Operation::Plan)
            .step("refresh")
            .is_some()
    );
}

#[test]
fn providers_configure_except_when_validating() {
    let p = evaluation(GoNode::ApplyableProvider, Operation::Plan);
    assert_eq!(
        ids(&p),
        ["build-config", "get-schema", "evaluate-config", "configure"]
    );
    assert!(
        p.step("configure")
            .unwrap()
            .writes
            .contains(&Item::Provider)
    );
    let v = evaluation(GoNode::ApplyableProvider, Operation::Validate);
    assert!(v.step("configure").is_none());
    assert!(v.step("provider-validate").is_some());
    assert_eq!(
        ids(&evaluation(GoNode::CloseProvider, Operation::Apply)),
        ["close"]
    );
}

#[test]
fn expanding_vertices_walk_their_instances() {
    for (go, op) in [
        (
            GoNode::ExpandPlannableResource(ResourceMode::Managed),
            Operation::Plan,
        ),
        (GoNode::ExpandLocal, Operation::Plan),
        (GoNode::ExpandOutput, Operation::Apply),
        (GoNode::VariableReference, Operation::Validate),
        (GoNode::ExpandModuleVariable, Operation::Plan),
        (GoNode::ExpandCheck, Operation::Plan),
        (
            GoNode::ExpandApplyableResource(ResourceMode::Ephemeral),
            Operation::Apply,
        ),
    ] {
        let e = evaluation(go, op);
        assert_eq!(e.steps.last().unwrap().id, WALK_SUBGRAPH_ID, "{go}");
        assert!(e.instance.is_some(), "{go}");
        let flat = e.flattened();
        assert!(flat.iter().all(|s| s.id != WALK_SUBGRAPH_ID), "{go}");
        let inst = e.instance.as_ref().unwrap();
        assert_eq!(
            flat.len(),
            e.steps.len() - 1 + inst.steps.len(),
            "{go}: the instance's steps replace the walk step"
        );
        assert!(
            flat[e.steps.len() - 1..]
                .iter()
                .all(|s| s.phase == Phase::Instance)
        );
    }
    // The plan's instances are NodePlannableResourceInstance.
    let e = evaluation(
        GoNode::ExpandPlannableResource(ResourceMode::Managed),
        Operation::Plan,
    );
    assert_eq!(
        e.instance.unwrap().go,
        GoNode::PlannableInstance(ResourceMode::Managed)
    );
    // A destroy plan turns root outputs into destroyable outputs (nodeExpandOutput.DynamicExpand).
    let out = evaluation(GoNode::ExpandOutput, Operation::Destroy);
    assert_eq!(out.instance.unwrap().go, GoNode::DestroyableOutput);
    // Apply graphs hold the instances already: the managed expand vertex does not expand.
    let apply = evaluation(
        GoNode::ExpandApplyableResource(ResourceMode::Managed),
        Operation::Apply,
    );
    assert!(apply.instance.is_none());
    assert_eq!(apply.flattened(), apply.steps);
}

#[test]
fn values_flow_into_the_evaluation_context() {
    // Variables and locals publish their value for later expressions; resources read values.
    let writes_context = |go: GoNode| {
        evaluation(go, Operation::Plan)
            .flattened()
            .iter()
            .any(|s| s.writes.contains(&Item::EvalContext))
    };
    for go in [
        GoNode::RootVariable,
        GoNode::ExpandModuleVariable,
        GoNode::ExpandLocal,
        GoNode::ExpandOutput,
    ] {
        assert!(writes_context(go), "{go}");
    }
    assert!(!writes_context(GoNode::CloseProvider));
    let root = evaluation(GoNode::RootVariable, Operation::Plan);
    assert!(root.steps[0].reads.contains(&Item::InputValues));
}

#[test]
fn checks_run_only_in_plan_and_apply() {
    // checkTransformer.ExecuteChecks: plan and apply (and import) evaluate assertions.
    for op in Operation::ALL {
        let a = evaluation(GoNode::CheckAssert, op);
        let runs = a.steps[0].go.func == "evalCheckRules";
        assert_eq!(
            runs,
            matches!(op, Operation::Plan | Operation::Apply),
            "{op}"
        );
    }
}

#[test]
fn of_node_follows_the_builders_types() {
    use crate::builder::BuilderKind;
    let files: std::collections::BTreeMap<String, String> = [
        (
            "main.tf".to_string(),
            r#"
variable "n" { default = 2 }
locals { x = var.n }
resource "aws_instance" "web" { count = local.x }
data "aws_ami" "a" {}
module "m" {
  source = "./m"
}
output "o" { value = aws_instance.web[0].id }
check "c" {
  assert {
    condition = true
    error_message = "no"
  }
}
"#
            .to_string(),
        ),
        (
            "m/main.tf".to_string(),
            "variable \"v\" { default = 1 }\n".to_string(),
        ),
    ]
    .into_iter()
    .collect();
    for kind in BuilderKind::ALL {
        let op = Operation::of_builder(kind);
        let (built, diags) = crate::builder::build_from_files(&files, kind, true);
        let built = built.unwrap_or_else(|| panic!("{diags:?}"));
        let mut seen = BTreeSet::new();
        for (_, node) in built.graph.dag().iter() {
            let go = GoNode::of_node(node, op);
            assert_ne!(go, GoNode::Unknown, "{} in {kind:?}", node.name());
            seen.insert(go);
        }
        match op {
            Operation::Validate => {
                assert!(seen.contains(&GoNode::ValidatableResource(ResourceMode::Managed)));
                assert!(seen.contains(&GoNode::ValidateModule));
            }
            Operation::Plan | Operation::RefreshOnly => {
                assert!(seen.contains(&GoNode::ExpandPlannableResource(ResourceMode::Managed)));
                assert!(seen.contains(&GoNode::ExpandPlannableResource(ResourceMode::Data)));
                assert!(seen.contains(&GoNode::ExpandModule));
                assert!(seen.contains(&GoNode::CloseModule { root: true }));
            }
            // Without planned changes the apply and destroy graphs prune every resource.
            Operation::Apply | Operation::Destroy => {
                assert!(seen.contains(&GoNode::CloseModule { root: true }));
            }
        }
    }
}

#[test]
fn operations_map_to_builders_and_back() {
    for op in Operation::ALL {
        assert_eq!(Operation::of_builder(op.builder()), op);
        assert_eq!(Operation::parse(op.as_str()), Some(op));
        assert_eq!(
            serde_json::to_string(&op).unwrap(),
            format!("\"{}\"", op.as_str())
        );
    }
    for k in StepKind::ALL {
        assert_eq!(StepKind::parse(k.as_str()), Some(k));
    }
}

//! The steps the graph records as transforms change it ([`super::Graph::take_step`]) are the
//! steps comparing a snapshot of the whole graph before and after each transform gave (the way
//! they were computed before). In the crate's tests [`super::Runner::apply`] computes both and
//! asserts they are equal; these tests run every builder over the conformance corpus (with its
//! states, changes and schemas), the page's examples, the real-world modules and generated
//! configurations, and check that the comparison ran.

use super::BuilderKind;
use super::builders::CHECKED_STEPS;
use crate::pipeline::{FolderInputs, Request, run};
use std::path::Path;

fn checked() -> usize {
    CHECKED_STEPS.with(|c| c.get())
}

fn shared(dir: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(dir)
}

#[test]
fn conformance_cases_record_the_steps_the_snapshot_diff_gave() {
    let cases = crate::conformance::cases(&shared("conformance/graph")).expect("corpus");
    assert!(cases.len() > 50, "{} graph cases", cases.len());
    let before = checked();
    for c in &cases {
        // Passing is the conformance suite's business; here a differing step panics in apply.
        let _ = c.run();
    }
    assert!(
        checked() - before > 3 * cases.len(),
        "{}",
        checked() - before
    );
}

#[test]
fn examples_record_the_steps_the_snapshot_diff_gave() {
    let before = checked();
    for e in crate::page::examples::EXAMPLES {
        for kind in BuilderKind::ALL {
            let _ = run(&Request::new(crate::page::examples::files_of(e), kind));
        }
    }
    let n = crate::page::examples::EXAMPLES.len() * BuilderKind::ALL.len();
    assert!(checked() - before > 10 * n, "{}", checked() - before);
}

#[test]
fn generated_configurations_record_the_steps_the_snapshot_diff_gave() {
    let before = checked();
    for seed in [1, 2, 7] {
        for (resources, modules) in [(0, 0), (12, 1), (150, 4), (600, 12)] {
            let files = crate::generator::generate(&crate::generator::GenOptions {
                resources,
                modules,
                seed,
            });
            for kind in BuilderKind::ALL {
                let _ = run(&Request::new(files.clone(), kind));
            }
        }
    }
    assert!(
        checked() - before > 3 * 4 * 5 * 10,
        "{}",
        checked() - before
    );
}

#[test]
fn real_world_modules_record_the_steps_the_snapshot_diff_gave() {
    let before = checked();
    for dir in ["terraform-aws-vpc", "terraform-azurerm-aks"] {
        for kind in BuilderKind::ALL {
            let mut f = FolderInputs::new(shared("realworld").join(dir));
            f.kind = Some(kind.as_str().to_string());
            let _ = f.build();
        }
    }
    assert!(checked() - before > 2 * 5 * 10, "{}", checked() - before);
}

/// Changes that cancel within one step, and a vertex renamed (replaced) then removed: the step
/// lists what comparing the graph before and after lists, the removed vertex by its old name.
#[test]
fn changes_that_cancel_and_renamed_removals_match_the_snapshot_diff() {
    use super::graph::Graph;
    use super::nodes::Node;
    let mut g = Graph::new();
    let root = g.add(Node::Root);
    let start = g.add(Node::CheckStart);
    let other = g.add(Node::CheckStart);
    g.connect(start, root);
    g.connect(other, root);
    let _ = g.take_step("setup");
    let before = g.snapshot();
    // Removed then added again, added then removed: neither is a change.
    g.remove_edge(start, root);
    g.connect(start, root);
    g.connect(start, other);
    g.remove_edge(start, other);
    // A vertex added and removed again is not one either, nor are its edges.
    let gone = g.add(Node::Root);
    g.connect(gone, root);
    g.remove(gone);
    // The root, renamed and removed: its edges go with it.
    g.replace(root, Node::CheckStart);
    g.remove(root);
    let recorded = g.take_step("t");
    assert_eq!(recorded, Graph::changes(&before, &g.snapshot(), "t"));
    assert_eq!(recorded.removed_vertices, vec!["root".into()]);
    assert_eq!(recorded.removed_edges.len(), 2);
    assert!(recorded.added_vertices.is_empty() && recorded.added_edges.is_empty());
}

//! The builder's reference analysis agrees with the config module's on every local, output and
//! resource-body expression of the real-world repositories.

use std::path::{Path, PathBuf};
use tfgraph::builder::refs::refs_in_expr as builder_refs;
use tfgraph::config::{self, Config};

fn realworld_dir() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("TFGRAPH_REALWORLD") {
        return Some(PathBuf::from(p));
    }
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realworld");
    if local.is_dir() {
        return Some(local);
    }
    let shared = PathBuf::from("/work/shared/realworld");
    shared.is_dir().then_some(shared)
}

fn compare(e: &config::Expr, mismatches: &mut Vec<String>) {
    let (theirs, _) = config::refs_in_expr(e);
    let mut theirs: Vec<String> = theirs.iter().map(|r| r.subject.to_string()).collect();
    let ours_expr = hcl::Expression::from(e.expr.clone());
    let mut ours: Vec<String> = builder_refs(&ours_expr)
        .iter()
        .filter(|r| {
            !matches!(
                r.subject,
                tfgraph::builder::addr::Subject::ProviderFunction { .. }
            )
        })
        .map(|r| r.subject.to_string())
        .collect();
    theirs.sort();
    ours.sort();
    if theirs != ours {
        mismatches.push(format!("{}: config {theirs:?} builder {ours:?}", e.text()));
    }
}

fn walk(c: &Config, mismatches: &mut Vec<String>, count: &mut usize) {
    let m = &c.module;
    for l in m.locals.values() {
        compare(&l.expr, mismatches);
        *count += 1;
    }
    for o in m.outputs.values() {
        if let Some(e) = &o.expr {
            compare(e, mismatches);
            *count += 1;
        }
    }
    for r in m.all_resources() {
        for e in [&r.count, &r.for_each].into_iter().flatten() {
            compare(e, mismatches);
            *count += 1;
        }
        for a in r.config.body.attributes() {
            compare(
                &config::Expr::new(a.value.clone(), &r.config.file),
                mismatches,
            );
            *count += 1;
        }
    }
    for ch in c.children.values() {
        walk(ch, mismatches, count);
    }
}

#[test]
fn builder_and_config_reference_analysis_agree() {
    let Some(dir) = realworld_dir() else { return };
    let mut mismatches = Vec::new();
    let mut count = 0;
    for repo in ["terraform-aws-vpc", "terraform-azurerm-aks"] {
        let (cfg, _) = config::load_dir(&dir.join(repo));
        if let Some(cfg) = cfg {
            walk(&cfg, &mut mismatches, &mut count);
        }
    }
    assert!(count > 100, "only {count} expressions compared");
    assert!(
        mismatches.is_empty(),
        "{} of {count} differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

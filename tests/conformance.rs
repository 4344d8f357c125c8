//! Every case of the conformance corpus (mined from OpenTofu v1.12.6's own tests; found by
//! `support::conformance`) as a test of its own: `cargo test --test conformance -- plan-basic`
//! runs one.
//! A skipped case is reported as ignored, with its reason; at most 3 may be skipped.

mod support;

use libtest_mimic::{Arguments, Failed, Trial};
use tfgraph::conformance::{Outcome, cases};

fn main() {
    let args = Arguments::from_args();
    let dir = support::conformance();
    let found = cases(&dir).unwrap_or_else(|e| panic!("conformance corpus: {e}"));
    assert!(
        found.len() >= 89,
        "expected the whole corpus under {}, found {} cases",
        dir.display(),
        found.len()
    );
    // Running a case is cheap (the whole corpus takes well under a second), so run them here and
    // hand libtest-mimic the outcomes: a skip becomes an ignored trial that names its reason.
    let results: Vec<_> = found.iter().map(|c| (c.kind, c.run())).collect();
    let skipped = results
        .iter()
        .filter(|(_, r)| matches!(r.outcome, Outcome::Skip(_)))
        .count();
    assert!(skipped <= 3, "{skipped} cases skipped; at most 3 may be");
    let trials = results
        .into_iter()
        .map(|(kind, r)| {
            let name = format!("{}::{}", kind.as_str(), r.name);
            let ignored = matches!(r.outcome, Outcome::Skip(_));
            Trial::test(name, move || match r.outcome {
                Outcome::Pass | Outcome::Skip(_) => Ok(()),
                Outcome::Fail(why) => Err(Failed::from(why)),
            })
            .with_ignored_flag(ignored)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

//! The bad-input corpus (`tests/bad_inputs/`): every file (or folder) there is wrong on purpose, and
//! `NAME.expected` beside it holds the first diagnostic it must produce, exactly as `Display` prints
//! it. One test per input: `cargo test --test bad_inputs -- dup_variable` runs one.
//!
//! How an input is read depends on its name:
//! - `NAME.tf` / `NAME.tf.json`: the root module's only file (`main.tf` / `main.tf.json`), through
//!   `pipeline::run`;
//! - `NAME/` (a folder): a whole root module read from disk (`config::load_dir` +
//!   `pipeline::run_loaded`), for modules, several files and raw bytes;
//! - `NAME.tfstate`, `NAME.plan.json`, `NAME.schemas.json`: the state, `show -json` plan or
//!   provider schemas given to `pipeline::run` with a one-resource configuration;
//! - `NAME.dot`: `dag::import::parse_dot`.
//!
//! A few inputs are generated here instead of stored (10,000-deep nesting, a 10 MB string).
//! `BLESS=1` writes the `.expected` files from the current output (review the diff before
//! committing): they are our own regression snapshots. `tests/bad_inputs/WORDING.md` says, input
//! by input, which of them were checked against OpenTofu's or HCL's Go source and how they compare;
//! the `wording_list` test keeps that list and the corpus in step.

use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tfgraph::builder::BuilderKind;
use tfgraph::pipeline::{self, NamedText, Request};

const MINIMAL: &str = "resource \"a_b\" \"c\" {}\n";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs")
}

/// The first error (or, failing that, the first warning) of a pipeline run, as displayed.
fn first(result: Result<pipeline::Output, Vec<tfgraph::config::Diagnostic>>) -> String {
    match result {
        Err(diags) => diags
            .iter()
            .find(|d| d.is_error())
            .or(diags.first())
            .map(|d| d.to_string())
            .unwrap_or_else(|| "(an error without diagnostics)".into()),
        Ok(out) => match out.warnings.first() {
            Some(w) => w.to_string(),
            None => "(no diagnostic)".into(),
        },
    }
}

fn config_request(name: &str, text: String) -> Request {
    Request::new(
        BTreeMap::from([(name.to_string(), text)]),
        BuilderKind::Plan,
    )
}

fn with_input(slot: &str, name: &str, text: String) -> Request {
    let mut req = config_request("main.tf", MINIMAL.into());
    let t = Some(NamedText::new(name, text));
    match slot {
        "state" => req.state = t,
        "plan" => req.plan_json = t,
        _ => req.schemas = t,
    }
    req
}

fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs one stored input and returns its first diagnostic.
fn run_stored(path: &Path) -> Result<String, String> {
    let file = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("bad file name")?
        .to_string();
    if path.is_dir() {
        let mut req = Request::new(BTreeMap::new(), BuilderKind::Plan);
        // A folder may bring the providers' schemas (`tofu providers schema -json`).
        let schemas = path.join("schemas.json");
        if schemas.is_file() {
            req.schemas = Some(NamedText::new("schemas.json", read_text(&schemas)?));
        }
        return Ok(first(pipeline::run_loaded(
            tfgraph::config::load_dir(path),
            &req,
        )));
    }
    let text = read_text(path)?;
    let req = if file.ends_with(".tf.json") {
        config_request("main.tf.json", text)
    } else if file.ends_with(".tf") {
        config_request("main.tf", text)
    } else if file.ends_with(".tfstate") {
        with_input("state", &file, text)
    } else if file.ends_with(".plan.json") {
        with_input("plan", &file, text)
    } else if file.ends_with(".schemas.json") {
        with_input("schemas", &file, text)
    } else if file.ends_with(".dot") {
        return Ok(match tfgraph::dag::import::parse_dot(&file, &text) {
            Ok((v, e)) => format!("(no diagnostic: {} vertices, {} edges)", v.len(), e.len()),
            Err(d) => d.to_string(),
        });
    } else {
        return Err(format!("{file}: unknown kind of input"));
    };
    Ok(first(pipeline::run(&req)))
}

fn check(got: String, expected: &str) -> Result<(), Failed> {
    if got == expected.trim_end_matches('\n') {
        Ok(())
    } else {
        Err(format!("expected:\n  {}\ngot:\n  {got}", expected.trim_end()).into())
    }
}

/// Catches a panic so that it fails this input's test with its message instead of the run.
fn guarded(
    f: impl FnOnce() -> Result<String, String> + std::panic::UnwindSafe,
) -> Result<String, Failed> {
    match std::panic::catch_unwind(f) {
        Ok(Ok(s)) => Ok(s),
        Ok(Err(e)) => Err(e.into()),
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("panicked: {msg}").into())
        }
    }
}

/// A generated input: its test name, how to run it, and the diagnostic it must produce.
type Generated = (
    &'static str,
    Box<dyn Fn() -> String + Send + Sync>,
    &'static str,
);

fn generated() -> Vec<Generated> {
    const DEPTH: usize = 10_000;
    vec![
        (
            "generated::nesting_10000_parentheses",
            Box::new(|| {
                let text = format!(
                    "locals {{\n  x = {}1{}\n}}\n",
                    "(".repeat(DEPTH),
                    ")".repeat(DEPTH)
                );
                first(pipeline::run(&config_request("main.tf", text)))
            }),
            "main.tf:2,71: Invalid syntax: invalid nesting depth; expected at most 64 nested levels",
        ),
        (
            "generated::nesting_10000_lists",
            Box::new(|| {
                let text = format!(
                    "locals {{\n  x = {}{}\n}}\n",
                    "[".repeat(DEPTH),
                    "]".repeat(DEPTH)
                );
                first(pipeline::run(&config_request("main.tf", text)))
            }),
            "main.tf:2,71: Invalid syntax: invalid nesting depth; expected at most 64 nested levels",
        ),
        (
            "generated::nesting_10000_blocks",
            Box::new(|| {
                let text = format!(
                    "resource \"a_b\" \"c\" {}{}\n",
                    "dynamic \"x\" {\n".repeat(DEPTH),
                    "}\n".repeat(DEPTH + 1)
                );
                let text = text.replacen("dynamic", "{\ndynamic", 1);
                first(pipeline::run(&config_request("main.tf", text)))
            }),
            "main.tf:65,13: Invalid syntax: invalid nesting depth; expected at most 64 nested levels",
        ),
        (
            "generated::nesting_10000_json_config",
            Box::new(|| {
                let text = format!(
                    "{{\"locals\": {{\"x\": {}1{}}}}}",
                    "[".repeat(DEPTH),
                    "]".repeat(DEPTH)
                );
                first(pipeline::run(&config_request("main.tf.json", text)))
            }),
            "main.tf.json:1,143: Invalid JSON configuration: The file is not valid JSON: recursion limit exceeded.",
        ),
        (
            "generated::nesting_10000_state",
            Box::new(|| {
                let text = format!(
                    "{{\"version\": 4, \"outputs\": {{\"o\": {{\"value\": {}1{}}}}}}}",
                    "[".repeat(DEPTH),
                    "]".repeat(DEPTH)
                );
                first(pipeline::run(&with_input("state", "deep.tfstate", text)))
            }),
            "deep.tfstate:1,167: Failed to decode state: The state file could not be decoded: recursion limit exceeded.",
        ),
        (
            "generated::nesting_10000_dot_subgraphs",
            Box::new(|| {
                let text = format!(
                    "digraph {{\n{}a{}\n}}\n",
                    "subgraph {".repeat(DEPTH),
                    "}".repeat(DEPTH)
                );
                match tfgraph::dag::import::parse_dot("deep.dot", &text) {
                    Ok(_) => "(no diagnostic)".into(),
                    Err(d) => d.to_string(),
                }
            }),
            "deep.dot:2,1000: Invalid DOT syntax: Nesting is deeper than 100 levels.",
        ),
        (
            "generated::string_10mb",
            Box::new(|| {
                let text = format!(
                    "locals {{\n  big = \"{}\"\n}}\nresource \"a_b\" \"c\" {{\n  x = local.nope\n}}\n",
                    "x".repeat(10 * 1024 * 1024)
                );
                first(pipeline::run(&config_request("main.tf", text)))
            }),
            "main.tf:5,7: Reference to undeclared local value: A local value with the name \"nope\" has not been declared.",
        ),
        (
            "generated::string_10mb_unterminated",
            Box::new(|| {
                let text = format!(
                    "locals {{\n  big = \"{}\n}}\n",
                    "x".repeat(10 * 1024 * 1024)
                );
                first(pipeline::run(&config_request("main.tf", text)))
            }),
            "main.tf:2,10485770: Invalid multi-line string: Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
        ),
    ]
}

/// The rows of `WORDING.md`: (input, class) for every table line whose first cell is a name in
/// backticks.
fn wording_rows(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.strip_prefix('|')?.split('|').map(str::trim).collect();
            let name = cells.first()?.strip_prefix('`')?.strip_suffix('`')?;
            Some((name.to_string(), cells.get(1)?.to_string()))
        })
        .collect()
}

/// Every input has a row in `WORDING.md` and every row an input; every class is a, b or c; the
/// counts `WORDING.md` and README.md state are the table's.
fn check_wording_list(inputs: &[String], wording: &str, readme: &str) -> Result<(), String> {
    let rows = wording_rows(wording);
    let mut problems = Vec::new();
    let mut counts = BTreeMap::new();
    let mut seen = std::collections::BTreeSet::new();
    for (name, class) in &rows {
        if !seen.insert(name.as_str()) {
            problems.push(format!("{name}: more than one row"));
        }
        if !inputs.contains(name) {
            problems.push(format!("{name}: a row for an input that does not exist"));
        }
        if !["a", "b", "c"].contains(&class.as_str()) {
            problems.push(format!("{name}: class {class:?} is not a, b or c"));
        }
        *counts.entry(class.as_str()).or_insert(0usize) += 1;
    }
    for i in inputs {
        if !seen.contains(i.as_str()) {
            problems.push(format!("{i}: no row in WORDING.md"));
        }
    }
    let n = |c: &str| counts.get(c).copied().unwrap_or(0);
    let stated = format!("a {}, b {}, c {}", n("a"), n("b"), n("c"));
    if !wording.contains(&format!("Counts: {stated} ({} inputs", rows.len())) {
        problems.push(format!(
            "WORDING.md does not state the table's counts \"Counts: {stated} ({} inputs\"",
            rows.len()
        ));
    }
    if !readme.contains("tests/bad_inputs/WORDING.md") || !readme.contains(&stated) {
        problems.push(format!(
            "README.md does not link tests/bad_inputs/WORDING.md with the counts \"{stated}\""
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

fn main() {
    let args = Arguments::from_args();
    let bless = std::env::var_os("BLESS").is_some();
    let dir = corpus();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            !matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("expected" | "md")
            )
        })
        .collect();
    entries.sort();
    assert!(
        entries.len() >= 50,
        "expected at least 50 bad inputs under {}, found {}",
        dir.display(),
        entries.len()
    );
    let mut trials = Vec::new();
    let mut inputs: Vec<String> = entries
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
        .collect();
    inputs.extend(generated().into_iter().map(|(name, _, _)| name.to_string()));
    let wording_path = dir.join("WORDING.md");
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    trials.push(Trial::test("wording_list_catches_drift", || {
        let inputs = ["x.tf".to_string(), "y.tf".to_string()];
        let wording =
            "Counts: a 2, b 0, c 0 (2 inputs\n| `x.tf` | a | s | n |\n| `z.tf` | d | s | n |\n";
        let readme = "tests/bad_inputs/WORDING.md a 2, b 0, c 0";
        let e = check_wording_list(&inputs, wording, readme)
            .err()
            .ok_or("a list with a stray row, a missing input and a bad class passed")?;
        for want in [
            "z.tf: a row for an input that does not exist",
            "y.tf: no row in WORDING.md",
            "z.tf: class \"d\" is not a, b or c",
            "does not state the table's counts",
            "README.md does not link",
        ] {
            if !e.contains(want) {
                return Err(format!("missing {want:?} in:\n{e}").into());
            }
        }
        Ok(())
    }));
    trials.push(Trial::test("wording_list", move || {
        let wording = read_text(&wording_path)?;
        let readme = read_text(&readme_path)?;
        Ok(check_wording_list(&inputs, &wording, &readme)?)
    }));
    for path in entries {
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let stem = file.split('.').next().unwrap_or_default().to_string();
        let expected_path = dir.join(format!("{stem}.expected"));
        trials.push(Trial::test(file, move || {
            let p = path.clone();
            let got = guarded(move || run_stored(&p))?;
            if bless {
                std::fs::write(&expected_path, format!("{got}\n")).map_err(|e| e.to_string())?;
            }
            let expected = read_text(&expected_path)?;
            check(got, &expected)
        }));
    }
    for (name, f, expected) in generated() {
        trials.push(Trial::test(name, move || {
            let got = guarded(std::panic::AssertUnwindSafe(|| Ok(f())))?;
            if bless {
                println!("{name}: {got}");
            }
            check(got, expected)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

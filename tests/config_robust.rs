//! The loader, reference analysis and the JSON readers never panic on user input, however
//! malformed: property tests over random token soups and truncated real configurations.

mod support;

use proptest::prelude::*;
use std::collections::BTreeMap;
use tfgraph::config;

const TOKENS: &[&str] = &[
    "resource",
    "data",
    "module",
    "variable",
    "output",
    "locals",
    "provider",
    "terraform",
    "dynamic",
    "content",
    "lifecycle",
    "moved",
    "import",
    "check",
    "assert",
    "\"a\"",
    "\"b_c\"",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "=",
    ".",
    ",",
    ":",
    "?",
    "*",
    "\n",
    " ",
    "var.x",
    "local.y",
    "aws_instance.a",
    "module.m.out",
    "count.index",
    "each.key",
    "for",
    "in",
    "if",
    "=>",
    "...",
    "\"${",
    "}\"",
    "%{",
    "<<EOT\n",
    "EOT\n",
    "1",
    "0.5",
    "-",
    "!",
    "&&",
    "provider::a::f",
    "source",
    "\"./child\"",
    "#",
    "//",
    "/*",
    "*/",
    "self",
    "null",
    "true",
    "[*]",
    "[0]",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..80).prop_map(|v| v.concat())
}

fn check_no_panic(files: BTreeMap<String, String>) {
    let (cfg, _diags) = config::load_files(&files);
    if let Some(cfg) = cfg {
        let _ = config::validate_references(&cfg);
        let _ = cfg.provider_types();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn token_soup_never_panics(main in soup(), child in soup(), json in ".{0,60}") {
        let mut files = BTreeMap::new();
        files.insert("main.tf".to_string(), format!("module \"c\" {{\n source = \"./child\"\n}}\n{main}"));
        files.insert("child/main.tf".to_string(), child);
        files.insert("x.tf.json".to_string(), json);
        check_no_panic(files);
    }

    #[test]
    fn state_and_plan_readers_never_panic(text in ".{0,200}") {
        let _ = tfgraph::state::parse_state_json(&text);
        let _ = tfgraph::plan::changes_from_show_json(&text);
        let _ = tfgraph::schema::parse_schemas_json(&text);
        let _ = tfgraph::addrs::Targetable::parse(&text);
        let _ = tfgraph::addrs::AbsProviderConfig::parse(&text);
    }
}

#[test]
fn truncated_real_files_never_panic() {
    let path = support::realworld().join("terraform-aws-vpc/main.tf");
    let main = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!main.is_empty(), "{} is empty", path.display());
    let step = (main.len() / 97).max(1);
    let mut cut = 0;
    while cut < main.len() {
        if main.is_char_boundary(cut) {
            let mut files = BTreeMap::new();
            files.insert("main.tf".to_string(), main[..cut].to_string());
            check_no_panic(files);
        }
        cut += step;
    }
}

//! `tfgraph gen` and `tfgraph layout` as a user runs them.

mod support;

use std::path::{Path, PathBuf};
use support::tfgraph;

fn temp_dir(name: &str) -> PathBuf {
    // Not made: `tfgraph gen` makes it.
    let d = support::scratch(name);
    std::fs::remove_dir(&d).expect("an empty folder");
    d
}

/// Every file under `dir`, relative path -> text.
fn read_tree(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read_to_string(&p).expect("read")));
            }
        }
    }
    out.sort();
    out
}

fn generate(dir: &Path, resources: &str, modules: &str, seed: &str) {
    let (code, _, err) = tfgraph(&[
        "gen",
        "--resources",
        resources,
        "--modules",
        modules,
        "--seed",
        seed,
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn gen_is_deterministic_has_n_resources_and_builds() {
    let (a, b, c) = (temp_dir("a"), temp_dir("b"), temp_dir("c"));
    generate(&a, "150", "3", "5");
    generate(&b, "150", "3", "5");
    generate(&c, "150", "3", "6");
    let ta = read_tree(&a);
    assert_eq!(ta, read_tree(&b), "same seed, same files");
    assert_ne!(ta, read_tree(&c), "another seed, other files");
    let names: Vec<&str> = ta.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "main.tf",
            "modules/m_0/main.tf",
            "modules/m_1/main.tf",
            "modules/m_2/main.tf"
        ]
    );
    let resources: usize = ta
        .iter()
        .map(|(_, t)| t.lines().filter(|l| l.starts_with("resource \"")).count())
        .sum();
    assert_eq!(resources, 150);
    let all: String = ta.iter().map(|(_, t)| t.as_str()).collect();
    for needle in [
        "provider \"aws\"",
        "variable \"",
        "locals {",
        "data \"",
        "module \"m_0\"",
        "output \"",
        "count",
        "for_each",
    ] {
        assert!(all.contains(needle), "generated text has {needle}");
    }
    // Loads and builds without errors or warnings on stderr.
    let (code, out, err) = tfgraph(&["graph", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("module.m_2"), "{out}");
}

/// `layout: V vertices, E edges, K clusters, C crossings, total edge length L, bounding box W x H, T ms`.
fn summary(err: &str) -> Vec<f64> {
    let line = err
        .lines()
        .find(|l| l.starts_with("layout: "))
        .unwrap_or_else(|| panic!("no summary line in {err:?}"));
    assert!(
        line.contains(" vertices, ")
            && line.contains(" crossings, ")
            && line.contains("total edge length ")
            && line.contains("bounding box "),
        "{line}"
    );
    line.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|w| w.parse::<f64>().ok())
        .collect()
}

#[test]
fn layout_of_a_configuration_prints_json_and_a_summary() {
    let d = temp_dir("json");
    generate(&d, "40", "2", "1");
    let (code, out, err) = tfgraph(&["layout", d.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let nodes = v["nodes"].as_array().expect("nodes");
    let edges = v["edges"].as_array().expect("edges");
    let nums = summary(&err);
    assert_eq!(nums[0] as usize, nodes.len());
    assert_eq!(nums[1] as usize, edges.len());
    assert!(nodes.len() > 40);
    // Module clusters from the vertices' module paths; no `root` vertex by default.
    let clusters: Vec<String> = v["clusters"]
        .as_array()
        .expect("clusters")
        .iter()
        .map(|c| c["path"].to_string())
        .collect();
    assert_eq!(clusters, ["[\"module.m_0\"]", "[\"module.m_1\"]"]);
    assert!(nodes.iter().all(|n| n["name"] != "root"));
    assert!(
        edges
            .iter()
            .all(|e| e["points"].as_array().is_some_and(|p| p.len() >= 2))
    );
    // Same input, same output.
    let (_, again, _) = tfgraph(&["layout", d.to_str().unwrap()]);
    assert_eq!(out, again);
    let (code, with_root, err) = tfgraph(&[
        "layout",
        "--with-root",
        "--direction",
        "lr",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(with_root.contains("\"name\": \"root\""));
    assert!(with_root.contains("\"direction\": \"LeftToRight\""));
}

#[test]
fn layout_of_a_dot_file_draws_a_well_formed_svg() {
    let d = temp_dir("dot");
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("g.dot");
    std::fs::write(
        &f,
        "digraph {\n  subgraph cluster_m { label = \"module.m\"; b; c }\n  a -> b -> c;\n  a -> \"d & <e>\";\n}\n",
    )
    .unwrap();
    let (code, out, err) = tfgraph(&["layout", "--format", "svg", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let nums = summary(&err);
    assert_eq!(&nums[..4], &[4.0, 3.0, 1.0, 0.0], "{err}");
    assert!(out.starts_with("<svg ") && out.trim_end().ends_with("</svg>"));
    assert!(out.contains("d &amp; &lt;e&gt;"));
    assert!(out.contains(">module.m<"));
    // Well-formed: every opened element is closed, in order.
    let mut stack: Vec<String> = Vec::new();
    let mut rest = out.as_str();
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("tag closes");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "closing {name}");
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            let name = tag.split_whitespace().next().unwrap_or("");
            stack.push(name.to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    let (code, _, err) = tfgraph(&["layout", d.join("missing.dot").to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.starts_with("Error: "), "{err}");
}

// Issue 18, defect 10: a wide, shallow graph or many unconnected parts drew as one long strip.
#[test]
fn layout_packs_unconnected_parts_and_wraps_wide_layers_when_asked() {
    let d = temp_dir("wide");
    std::fs::create_dir_all(&d).unwrap();
    // Forty vertices alone; and one vertex with forty dependents.
    let alone = d.join("alone.dot");
    let names: String = (0..40).map(|i| format!("  r_{i};\n")).collect();
    std::fs::write(&alone, format!("digraph {{\n{names}}}\n")).unwrap();
    let star = d.join("star.dot");
    let arrows: String = (0..40).map(|i| format!("  r_{i} -> vpc;\n")).collect();
    std::fs::write(&star, format!("digraph {{\n{arrows}}}\n")).unwrap();
    let size = |args: &[&str]| {
        let (code, _, err) = tfgraph(args);
        assert_eq!(code, 0, "{err}");
        let n = summary(&err);
        // V, E, K, C, L, W, H, ms
        (n[5], n[6])
    };
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (w, h) = size(&["layout", &path(&alone)]);
    assert!((0.75..=2.5).contains(&(w / h)), "{w} x {h}");
    let (w, h) = size(&["layout", "--aspect", "0", &path(&alone)]);
    assert!(w / h > 20.0, "{w} x {h}");
    let (w, h) = size(&["layout", &path(&star)]);
    assert!(w / h > 10.0, "{w} x {h}");
    let (w, h) = size(&["layout", "--wrap", &path(&star)]);
    assert!((0.5..=3.0).contains(&(w / h)), "{w} x {h}");
}

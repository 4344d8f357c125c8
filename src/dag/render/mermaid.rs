//! Mermaid `flowchart` text, drawn as the page draws the graph: top to bottom, each arrow from a
//! vertex to what waits for it (what runs first is on top). That is the opposite of DOT's edges
//! (`tofu graph` draws "a depends on b" as `a -> b`); a comment line at the top says so.
//! Vertices get safe ids (`v<id>`) and quoted labels; a caller can give each vertex a class and
//! the classes their styles (the page gives vertex kinds their colours).

use crate::dag::{Graph, Vertex};

/// Renders `g` as a Mermaid flowchart, vertices and edges sorted by name, without classes.
pub fn render<V: Vertex>(g: &Graph<V>) -> String {
    render_classed(g, |_| None, &[])
}

/// [`render`] with `class_of` giving a vertex its class, and `class_defs` each class's
/// style (`("resource", "stroke:#0072b2")`); only classes some vertex has are defined.
pub fn render_classed<V: Vertex>(
    g: &Graph<V>,
    class_of: impl Fn(&V) -> Option<&'static str>,
    class_defs: &[(&str, String)],
) -> String {
    render_with(
        g,
        |v| v.name(),
        |v| class_of(v).into_iter().map(String::from).collect(),
        class_defs,
    )
}

/// [`render_classed`] with `label_of` giving each vertex's label and `classes_of` any number of
/// classes per vertex (the CLI's `--actions` adds the action's to the kind's).
pub fn render_with<V: Vertex>(
    g: &Graph<V>,
    label_of: impl Fn(&V) -> String,
    classes_of: impl Fn(&V) -> Vec<String>,
    class_defs: &[(&str, String)],
) -> String {
    let mut out = String::from(
        "%% Arrows point from a vertex to what waits for it (DOT's edges point the other way).\nflowchart TB\n",
    );
    let mut classes: Vec<(String, Vec<u64>)> = Vec::new();
    for id in g.ids_by_name() {
        let v = g.vertex(id);
        let label = v.map_or_else(|| g.name_of(id), &label_of);
        out.push_str(&format!(
            "    v{}[\"{}\"]\n",
            id.index(),
            escape_label(&label)
        ));
        for c in v.map(&classes_of).unwrap_or_default() {
            match classes.iter_mut().find(|x| x.0 == c) {
                Some(x) => x.1.push(id.index()),
                None => classes.push((c, vec![id.index()])),
            }
        }
    }
    for (from, to) in g.edges_by_name() {
        // `from` depends on `to`: `to` runs first.
        out.push_str(&format!("    v{} --> v{}\n", to.index(), from.index()));
    }
    for (name, style) in class_defs {
        if let Some((_, ids)) = classes.iter().find(|x| x.0 == *name) {
            out.push_str(&format!("    classDef {name} {style}\n"));
            let ids: Vec<String> = ids.iter().map(|i| format!("v{i}")).collect();
            out.push_str(&format!("    class {} {name}\n", ids.join(",")));
        }
    }
    out
}

/// Makes text safe inside a quoted Mermaid label: characters Mermaid's parser or its HTML output
/// would interpret become numeric entity codes (`#34;` for `"`), line breaks become `<br>`.
pub fn escape_label(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("<br>"),
            '"' | '#' | '<' | '>' | '&' | '`' | '|' | '[' | ']' | '{' | '}' | '(' | ')' | ';' => {
                out.push_str(&format!("#{};", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("#{};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped() {
        let mut g: Graph<String> = Graph::new();
        let a = g.add("aws_instance.web[\"a\"]".into());
        let b = g.add("provider[\"registry.opentofu.org/hashicorp/aws\"]".into());
        g.connect(a, b);
        let m = render(&g);
        assert_eq!(
            m,
            "%% Arrows point from a vertex to what waits for it (DOT's edges point the other way).\nflowchart TB\n    v0[\"aws_instance.web#91;#34;a#34;#93;\"]\n    v1[\"provider#91;#34;registry.opentofu.org/hashicorp/aws#34;#93;\"]\n    v1 --> v0\n"
        );
    }

    // Issue 18, defect 11: the export's arrows pointed the opposite way from the drawing.
    #[test]
    fn arrows_run_from_what_runs_first_and_classes_are_defined_once() {
        let mut g: Graph<String> = Graph::new();
        let web = g.add("aws_instance.web".into());
        let ami = g.add("data.aws_ami.x".into());
        let eip = g.add("aws_eip.ip".into());
        g.connect(web, ami);
        g.connect(eip, web);
        let m = render_classed(
            &g,
            |n| n.starts_with("aws_").then_some("resource"),
            &[
                ("resource", "stroke:#0072b2".to_string()),
                ("data", "stroke:#009e73".to_string()),
            ],
        );
        // The data source runs first, then the instance, then the address.
        assert!(
            m.contains(&format!("v{} --> v{}", ami.index(), web.index())),
            "{m}"
        );
        assert!(
            m.contains(&format!("v{} --> v{}", web.index(), eip.index())),
            "{m}"
        );
        assert_eq!(m.matches("classDef").count(), 1, "{m}");
        assert!(
            m.contains(&format!("class v{},v{} resource", eip.index(), web.index())),
            "{m}"
        );
    }
}

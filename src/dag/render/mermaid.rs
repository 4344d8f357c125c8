//! Mermaid `flowchart` text. Vertices get safe ids (`v<id>`) and quoted labels; arrows point from
//! a vertex to what it depends on, as in DOT.

use crate::dag::{Graph, Vertex};

/// Renders `g` as a Mermaid flowchart (left to right), vertices and edges sorted by name.
pub fn render<V: Vertex>(g: &Graph<V>) -> String {
    let mut out = String::from("flowchart LR\n");
    for id in g.ids_by_name() {
        out.push_str(&format!(
            "    v{}[\"{}\"]\n",
            id.index(),
            escape_label(&g.name_of(id))
        ));
    }
    for (from, to) in g.edges_by_name() {
        out.push_str(&format!("    v{} --> v{}\n", from.index(), to.index()));
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
            "flowchart LR\n    v0[\"aws_instance.web#91;#34;a#34;#93;\"]\n    v1[\"provider#91;#34;registry.opentofu.org/hashicorp/aws#34;#93;\"]\n    v0 --> v1\n"
        );
    }
}

//! Renderers: Go's `String()` text lives on [`super::Graph::string`]; here are DOT (byte-exact
//! with `tofu graph`), JSON (for the web app) and Mermaid.

pub mod dot;
pub mod json;
pub mod mermaid;

use super::{Graph, Vertex};

impl<V: Vertex> Graph<V> {
    /// DOT text exactly as `tofu graph` prints it for these options.
    pub fn dot(&self, opts: &dot::DotOpts) -> String {
        dot::render(self, opts)
    }

    /// [`Graph::dot`]'s text written to `out` as it is made, never held whole.
    pub fn write_dot<W: std::io::Write + ?Sized>(
        &self,
        opts: &dot::DotOpts,
        out: &mut W,
    ) -> std::io::Result<()> {
        dot::write(self, opts, out)
    }

    /// `flowchart` text for Mermaid.
    pub fn mermaid(&self) -> String {
        mermaid::render(self)
    }

    /// The serialisable form the web app consumes.
    pub fn json_graph(&self) -> json::JsonGraph {
        json::JsonGraph::from_graph(self)
    }
}

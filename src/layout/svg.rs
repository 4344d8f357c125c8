//! A standalone SVG drawing of a [`Layout`]: vertex boxes (rounded, or shaped and coloured by the
//! caller's [`NodeStyle`]), smooth edges with arrow heads (at the dependent end), cluster boxes
//! with their titles. All text is escaped.

use super::{Direction, Layout, NodeBox};
use std::fmt::Write;

/// Escapes text for SVG/XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// A smooth path through the points: straight where two points share the position along the
/// layer (an edge passing a layer), otherwise an S-curve whose ends run along the flow, as
/// dot's splines do. Unlike interpolating splines it never overshoots into loops.
fn path_data(points: &[(f64, f64)], dir: Direction) -> String {
    let mut d = String::new();
    let Some(&(x0, y0)) = points.first() else {
        return d;
    };
    let _ = write!(d, "M{},{}", num(x0), num(y0));
    for w in points.windows(2) {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        let (along_a, along_b) = match dir {
            Direction::TopToBottom => (ax, bx),
            Direction::LeftToRight => (ay, by),
        };
        if (along_a - along_b).abs() < 0.5 {
            let _ = write!(d, " L{},{}", num(bx), num(by));
            continue;
        }
        let (c1, c2) = match dir {
            Direction::TopToBottom => {
                let m = (ay + by) / 2.0;
                ((ax, m), (bx, m))
            }
            Direction::LeftToRight => {
                let m = (ax + bx) / 2.0;
                ((m, ay), (m, by))
            }
        };
        let _ = write!(
            d,
            " C{},{} {},{} {},{}",
            num(c1.0),
            num(c1.1),
            num(c2.0),
            num(c2.1),
            num(bx),
            num(by)
        );
    }
    d
}

/// A vertex's outline inside its box (coordinates relative to the box's corner).
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Rect { rx: f64 },
    Polygon(Vec<(f64, f64)>),
}

/// How one vertex is drawn: colours are CSS colour values written as attributes, so the drawing
/// keeps them wherever it is opened (an image viewer, a PNG made from it).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeStyle {
    pub stroke: String,
    pub fill: String,
    pub stroke_width: f64,
    pub dash: Option<String>,
    pub shape: Shape,
    /// An extra class (`tfg-node-CLASS`) for whoever restyles the file.
    pub class: String,
}

impl NodeStyle {
    /// The plain style: a white rounded box with a blue outline.
    pub fn plain() -> NodeStyle {
        NodeStyle {
            stroke: "#3d6fb6".into(),
            fill: "#ffffff".into(),
            stroke_width: 1.3,
            dash: None,
            shape: Shape::Rect { rx: 6.0 },
            class: String::new(),
        }
    }
}

/// Renders the layout; `label` gives each vertex's text (may contain `\n`).
pub fn render(layout: &Layout, label: impl Fn(&NodeBox) -> String) -> String {
    render_styled(layout, label, |_| NodeStyle::plain())
}

/// [`render`] with `style` giving each vertex its shape and colours.
pub fn render_styled(
    layout: &Layout,
    label: impl Fn(&NodeBox) -> String,
    style: impl Fn(&NodeBox) -> NodeStyle,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" font-size="12">"#,
        w = num(layout.width),
        h = num(layout.height)
    );
    s.push_str(concat!(
        "<defs><marker id=\"tfg-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" ",
        "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">",
        "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#5b6470\"/></marker></defs>\n",
        "<style>.tfg-cluster{fill:#f5f7fa;stroke:#c3ccd6;stroke-width:1}",
        ".tfg-cluster-title{fill:#4a5562;font-weight:600}",
        ".tfg-edge{fill:none;stroke:#8894a2;stroke-width:1.2}",
        ".tfg-edge.tfg-reversed{stroke-dasharray:4 3}",
        ".tfg-label{fill:#1f2933}</style>\n",
    ));
    s.push_str(&format!(
        "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n",
        num(layout.width),
        num(layout.height)
    ));
    // Outer clusters first so inner ones are painted on top.
    let mut clusters: Vec<_> = layout.clusters.iter().collect();
    clusters.sort_by(|a, b| a.path.len().cmp(&b.path.len()).then(a.path.cmp(&b.path)));
    for c in clusters {
        let title = c.path.last().map(String::as_str).unwrap_or("");
        let _ = writeln!(
            s,
            "<g><title>{}</title><rect class=\"tfg-cluster\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\"/><text class=\"tfg-cluster-title\" x=\"{}\" y=\"{}\">{}</text></g>",
            escape(&c.path.join(".")),
            num(c.x),
            num(c.y),
            num(c.w),
            num(c.h),
            num(c.x + 8.0),
            num(c.y + 15.0),
            escape(title)
        );
    }
    for e in &layout.edges {
        let class = if e.reversed {
            "tfg-edge tfg-reversed"
        } else {
            "tfg-edge"
        };
        let _ = writeln!(
            s,
            "<path class=\"{class}\" d=\"{}\" marker-end=\"url(#tfg-arrow)\"/>",
            path_data(&e.points, layout.direction)
        );
    }
    for nb in &layout.nodes {
        let text = label(nb);
        let lines: Vec<&str> = text.split('\n').collect();
        let st = style(nb);
        let class = if st.class.is_empty() {
            "tfg-node".to_string()
        } else {
            format!("tfg-node tfg-node-{}", escape(&st.class))
        };
        let paint = format!(
            "fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}",
            escape(&st.fill),
            escape(&st.stroke),
            num(st.stroke_width),
            st.dash
                .as_ref()
                .map(|d| format!(" stroke-dasharray=\"{}\"", escape(d)))
                .unwrap_or_default()
        );
        let _ = write!(s, "<g><title>{}</title>", escape(&nb.name));
        let _ = match &st.shape {
            Shape::Rect { rx } => write!(
                s,
                "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" {paint}/>",
                num(nb.x),
                num(nb.y),
                num(nb.w),
                num(nb.h),
                num(*rx)
            ),
            Shape::Polygon(points) => write!(
                s,
                "<polygon class=\"{class}\" points=\"{}\" {paint}/>",
                points
                    .iter()
                    .map(|(x, y)| format!("{},{}", num(nb.x + x), num(nb.y + y)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        let line_h = 15.0;
        let first = nb.y + nb.h / 2.0 - line_h * (lines.len() as f64 - 1.0) / 2.0 + 4.0;
        let _ = write!(
            s,
            "<text class=\"tfg-label\" text-anchor=\"middle\" x=\"{}\" y=\"{}\">",
            num(nb.x + nb.w / 2.0),
            num(first)
        );
        for (i, l) in lines.iter().enumerate() {
            if i == 0 {
                let _ = write!(s, "<tspan>{}</tspan>", escape(l));
            } else {
                let _ = write!(
                    s,
                    "<tspan x=\"{}\" dy=\"{}\">{}</tspan>",
                    num(nb.x + nb.w / 2.0),
                    num(line_h),
                    escape(l)
                );
            }
        }
        s.push_str("</text></g>\n");
    }
    s.push_str("</svg>\n");
    s
}

/// [`render`] with each vertex's name as its label.
pub fn render_names(layout: &Layout) -> String {
    render(layout, |n| n.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(
            path_data(
                &[(0.0, 0.0), (0.0, 2.0), (4.0, 6.0)],
                Direction::TopToBottom
            ),
            "M0,0 L0,2 C0,4 4,4 4,6"
        );
    }
}

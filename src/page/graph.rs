//! The page's graph: each vertex with its name, its kind and module ([`Typed`], as the builder's
//! vertex or the recorded build step tells it), how it is drawn (its [`Kind`], a mapping of the
//! engine's kind) and the module box it is drawn in, over the engine's [`dag::Indexed`].

use crate::dag;
use crate::kind::{Mode, ResourceRole, Typed, VertexKind};

/// A vertex as the page knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageVertex {
    pub name: String,
    /// How it is drawn: [`Kind::of`] its engine kind.
    pub kind: Kind,
    /// The module box it is drawn in (`["module.a", "module.b"]`): its module path; a module's
    /// own expand and close vertices go inside the module's box, so each box opens with its
    /// expand and ends with its close.
    pub cluster: Vec<String>,
    /// Its kind and module as the engine knows them.
    pub typed: Typed,
}

impl PageVertex {
    /// The vertex `name` of kind and module `typed`.
    pub fn new(name: impl Into<String>, typed: Typed) -> PageVertex {
        PageVertex {
            name: name.into(),
            kind: Kind::of(&typed.kind),
            cluster: typed.clusters(),
            typed,
        }
    }

    /// A vertex known by its name alone (a `terraform graph` DOT file, tests): its kind as
    /// [`dag::import::typed_from_name`] reads it.
    pub fn named(name: impl Into<String>) -> PageVertex {
        let name = name.into();
        let typed = dag::import::typed_from_name(&name);
        PageVertex::new(name, typed)
    }

    /// The vertex standing for the collapsed module `path` (`module.a.module.b`) that hides
    /// `hidden` vertices, drawn in the box `parent` of the module's parent.
    pub fn collapsed(path: &str, hidden: usize, parent: Vec<String>) -> PageVertex {
        PageVertex {
            name: collapsed_name(path, hidden),
            kind: Kind::Collapsed,
            cluster: parent,
            typed: Typed::default(),
        }
    }
}

/// A vertex crosses to and from the engine's worker as its name and kind; how it is drawn and its
/// module box follow from them ([`PageVertex::new`], which made every vertex of a built or
/// imported graph and of an opened vertex's sub-graph).
impl serde::Serialize for PageVertex {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(&self.name, &self.typed), s)
    }
}

impl<'de> serde::Deserialize<'de> for PageVertex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (name, typed) = <(String, Typed)>::deserialize(d)?;
        Ok(PageVertex::new(name, typed))
    }
}

impl dag::Vertex for PageVertex {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn typed(&self) -> Typed {
        self.typed.clone()
    }
}

/// The graph the page shows, draws and walks.
pub type PageGraph = dag::Indexed<PageVertex>;

/// A page graph of vertices known by name alone (`names`, indexes in this order; kinds as
/// [`PageVertex::named`]) and `edges` ("from depends on to").
pub fn graph_of(
    names: impl IntoIterator<Item = String>,
    edges: impl IntoIterator<Item = (usize, usize)>,
) -> PageGraph {
    dag::Indexed::new(names.into_iter().map(PageVertex::named).collect(), edges)
}

/// The name of vertex `i` ("" when out of range).
pub fn name(g: &PageGraph, i: usize) -> &str {
    g.vertex(i).map_or("", |v| v.name.as_str())
}

/// How a vertex is drawn: one colour and shape per kind (see the legend).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Resource,
    Data,
    Provider,
    Variable,
    Local,
    Output,
    ModuleExpand,
    ModuleClose,
    Root,
    Destroy,
    /// A module collapsed into one vertex by the viewer (not an OpenTofu vertex).
    Collapsed,
    Other,
}

impl Kind {
    /// How a vertex of kind `k` is drawn: a pure mapping of the engine's kind.
    pub fn of(k: &VertexKind) -> Kind {
        match k {
            VertexKind::Resource { role, mode, .. } => match role {
                ResourceRole::Destroy
                | ResourceRole::Orphan
                | ResourceRole::Deposed
                | ResourceRole::DestroyDeposed => Kind::Destroy,
                _ if *mode == Mode::Data => Kind::Data,
                _ => Kind::Resource,
            },
            VertexKind::Provider(_) => Kind::Provider,
            VertexKind::Variable(_) => Kind::Variable,
            VertexKind::Local { .. } => Kind::Local,
            VertexKind::Output { .. } => Kind::Output,
            VertexKind::OutputDestroy => Kind::Destroy,
            VertexKind::ModuleExpand | VertexKind::ModuleInstance => Kind::ModuleExpand,
            VertexKind::ModuleClose => Kind::ModuleClose,
            VertexKind::Root => Kind::Root,
            VertexKind::CheckExpand
            | VertexKind::CheckReport
            | VertexKind::CheckStart
            | VertexKind::Other => Kind::Other,
        }
    }
}

impl Kind {
    pub const LEGEND: [Kind; 12] = [
        Kind::Resource,
        Kind::Data,
        Kind::Provider,
        Kind::Variable,
        Kind::Local,
        Kind::Output,
        Kind::ModuleExpand,
        Kind::ModuleClose,
        Kind::Root,
        Kind::Destroy,
        Kind::Collapsed,
        Kind::Other,
    ];

    /// The CSS class suffix (`kind-…`).
    pub fn css(self) -> &'static str {
        match self {
            Kind::Resource => "resource",
            Kind::Data => "data",
            Kind::Provider => "provider",
            Kind::Variable => "variable",
            Kind::Local => "local",
            Kind::Output => "output",
            Kind::ModuleExpand => "module-expand",
            Kind::ModuleClose => "module-close",
            Kind::Root => "root",
            Kind::Destroy => "destroy",
            Kind::Collapsed => "collapsed",
            Kind::Other => "other",
        }
    }

    /// Words for people.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Resource => "resource",
            Kind::Data => "data source",
            Kind::Provider => "provider",
            Kind::Variable => "variable",
            Kind::Local => "local value",
            Kind::Output => "output",
            Kind::ModuleExpand => "module expand",
            Kind::ModuleClose => "module close",
            Kind::Root => "root",
            Kind::Destroy => "destroy / deposed",
            Kind::Collapsed => "collapsed module",
            Kind::Other => "other",
        }
    }
}

impl Kind {
    /// The kind's colour in the light theme: the stroke of its vertices and the legend's swatch.
    /// The page's stylesheet holds the same values as `--k-*` (a test keeps them equal); the
    /// exports (SVG, PNG, Mermaid) take them from here, as they cannot read the stylesheet.
    pub fn colour(self) -> &'static str {
        match self {
            Kind::Resource => "#0072b2",
            Kind::Data => "#009e73",
            Kind::Provider => "#d55e00",
            Kind::Variable => "#e69f00",
            Kind::Local => "#b8a400",
            Kind::Output => "#cc79a7",
            Kind::ModuleExpand | Kind::ModuleClose | Kind::Collapsed => "#56b4e9",
            Kind::Root => "#444448",
            Kind::Destroy => "#1d1d1f",
            Kind::Other => "#8a8a90",
        }
    }

    /// The fill: a light tint of the colour for the kinds the page tints, else white.
    pub fn fill(self) -> String {
        let tint = match self {
            Kind::Resource => 8.0,
            Kind::Data => 7.0,
            Kind::ModuleExpand | Kind::ModuleClose | Kind::Collapsed => 12.0,
            _ => 0.0,
        };
        mix_with_white(self.colour(), tint)
    }

    /// The stroke's dash pattern, if the kind has one (data sources, destroy vertices).
    pub fn dash(self) -> Option<&'static str> {
        match self {
            Kind::Data => Some("5 3"),
            Kind::Destroy => Some("2 2"),
            _ => None,
        }
    }

    /// The stroke's width.
    pub fn stroke_width(self) -> f64 {
        match self {
            Kind::Output | Kind::Root => 2.4,
            _ => 1.6,
        }
    }
}

/// `#rrggbb` mixed with white, `percent` of the colour (CSS `color-mix(in srgb, c p%, white)`).
fn mix_with_white(hex: &str, percent: f64) -> String {
    let channel =
        |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255);
    let mix = |c: u8| {
        let v = f64::from(c) * percent / 100.0 + 255.0 * (1.0 - percent / 100.0);
        v.round().clamp(0.0, 255.0) as u8
    };
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(channel(1)),
        mix(channel(3)),
        mix(channel(5))
    )
}

/// Corner points of a vertex's shape as SVG `points` ([`shape`]), `None` for a rounded box.
pub fn shape_points(kind: Kind, w: f64, h: f64) -> Option<String> {
    Placed::new(0.0, 0.0, w, h).shape_points(kind)
}

/// A vertex's box in the drawing's coordinates, and where each of its parts goes.
///
/// The page draws a vertex's parts at these places rather than inside a group moved by a
/// `transform`: Chromium gives every transformed SVG element a node of its own in its property
/// trees, and with a thousand vertices it sorted those thousands of paint chunks into layers at
/// every frame of a walk (at 10,000 generated resources a third of the page's paint time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Placed {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Placed {
        Placed { x, y, w, h }
    }

    /// The shape's corner points as SVG `points`, `None` for a rounded box ([`shape`]).
    pub fn shape_points(&self, kind: Kind) -> Option<String> {
        shape(kind, self.w, self.h).map(|pts| {
            pts.iter()
                .map(|(x, y)| format!("{:.1},{:.1}", self.x + x, self.y + y))
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// The label's centre.
    pub fn label(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// The walk's progress bar: its top-left corner, along the bottom edge (3 high).
    pub fn progress(&self) -> (f64, f64) {
        (self.x, self.y + self.h - 3.0)
    }

    /// The instance count's baseline end, above the top-right corner.
    pub fn instances(&self) -> (f64, f64) {
        (self.x + self.w - 4.0, self.y - 3.0)
    }

    /// The plan's badge's baseline start, above the top-left corner.
    pub fn badge(&self) -> (f64, f64) {
        (self.x, self.y - 3.0)
    }

    /// The evaluation step's baseline start, under the box.
    pub fn step(&self) -> (f64, f64) {
        (self.x + 2.0, self.y + self.h + 10.0)
    }
}

/// Corner points of a vertex's shape in a `w` x `h` box, by kind; `None` for a rounded rectangle
/// (see [`rounding`]). Providers are octagons, module expand and close trapezoids opening and
/// closing, a collapsed module a folder.
pub fn shape(kind: Kind, w: f64, h: f64) -> Option<Vec<(f64, f64)>> {
    let c = 7.0_f64.min(h / 3.0);
    Some(match kind {
        Kind::Provider => vec![
            (c, 0.0),
            (w - c, 0.0),
            (w, c),
            (w, h - c),
            (w - c, h),
            (c, h),
            (0.0, h - c),
            (0.0, c),
        ],
        Kind::ModuleExpand => vec![(c, 0.0), (w - c, 0.0), (w, h), (0.0, h)],
        Kind::ModuleClose => vec![(0.0, 0.0), (w, 0.0), (w - c, h), (c, h)],
        // A folder: the module's contents are inside.
        Kind::Collapsed => {
            let t = (w * 0.3).min(40.0);
            vec![
                (0.0, 0.0),
                (t, 0.0),
                (t + c / 2.0, c / 2.0),
                (w, c / 2.0),
                (w, h),
                (0.0, h),
            ]
        }
        _ => return None,
    })
}

/// The corner radius of a rectangle-shaped vertex: values (variables, locals, outputs) and root
/// are pills.
pub fn rounding(kind: Kind, h: f64) -> f64 {
    match kind {
        Kind::Variable | Kind::Local | Kind::Output | Kind::Root => h / 2.0,
        _ => 4.0,
    }
}

/// How the standalone SVG export (and so the PNG) draws a vertex of `kind` in a `w` x `h` box:
/// the page's shape and colours for its kind (light theme).
pub fn svg_style(kind: Kind, w: f64, h: f64) -> crate::layout::svg::NodeStyle {
    use crate::layout::svg::{NodeStyle, Shape};
    NodeStyle {
        stroke: kind.colour().to_string(),
        fill: kind.fill(),
        stroke_width: kind.stroke_width(),
        dash: kind.dash().map(str::to_string),
        shape: match shape(kind, w, h) {
            Some(p) => Shape::Polygon(p),
            None => Shape::Rect {
                rx: rounding(kind, h),
            },
        },
        class: kind.css().to_string(),
    }
}

/// Mermaid text of `g` as the page draws it: arrows from what runs first, each vertex classed
/// by its kind with the kind's colours. The page's export and `tfgraph graph --format mermaid`.
pub fn mermaid<V: dag::Vertex>(g: &dag::Graph<V>) -> String {
    dag::render::mermaid::render_classed(
        g,
        |v| Some(Kind::of(&v.typed().kind).css()),
        &kind_class_defs(),
    )
}

/// Each kind's Mermaid class and style.
fn kind_class_defs() -> Vec<(&'static str, String)> {
    Kind::LEGEND
        .iter()
        .map(|k| {
            let mut style = format!(
                "fill:{},stroke:{},stroke-width:{}px",
                k.fill(),
                k.colour(),
                k.stroke_width()
            );
            if let Some(d) = k.dash() {
                style.push_str(&format!(",stroke-dasharray:{d}"));
            }
            (k.css(), style)
        })
        .collect()
}

/// [`mermaid`] with each vertex's planned action (`tfgraph graph --format mermaid --actions`):
/// the symbol before the label, and a class per action (`action_delete_then_create`) that
/// colours the label in the symbol's first colour (the page's light-theme colours).
pub fn mermaid_with_actions<V: dag::Vertex>(
    g: &dag::Graph<V>,
    marks: &std::collections::BTreeMap<String, crate::actions::Mark>,
) -> String {
    let class = |m: &crate::actions::Mark| format!("action_{}", m.class().replace('-', "_"));
    let mut defs: Vec<(String, String)> = kind_class_defs()
        .into_iter()
        .map(|(k, s)| (k.to_string(), s))
        .collect();
    for a in crate::actions::ORDER {
        let m = crate::actions::Mark::Action(a);
        let colour = crate::actions::style(a).colours.0;
        let style = match super::actions::COLOURS.iter().find(|c| c.0 == colour) {
            Some((_, light, _)) => format!("color:{light},font-weight:bold"),
            None => "font-style:italic".to_string(),
        };
        defs.push((class(&m), style));
    }
    defs.push(("action_mixed".to_string(), "font-weight:bold".to_string()));
    let defs: Vec<(&str, String)> = defs.iter().map(|(k, s)| (k.as_str(), s.clone())).collect();
    dag::render::mermaid::render_with(
        g,
        |v| {
            let n = v.name();
            match marks.get(&n).map(|m| m.symbol()) {
                Some(s) if !s.is_empty() => format!("{s} {n}"),
                _ => n,
            }
        },
        |v| {
            let mut c = vec![Kind::of(&v.typed().kind).css().to_string()];
            c.extend(marks.get(&v.name()).map(class));
            c
        },
        &defs,
    )
}

/// The suffix of the vertex that stands for a collapsed module: `module.net (collapsed: 6)`.
pub const COLLAPSED: &str = "collapsed";

/// The name of the vertex standing for the collapsed module `path` (`module.a.module.b`), which
/// hides `hidden` vertices.
pub fn collapsed_name(path: &str, hidden: usize) -> String {
    format!("{path} ({COLLAPSED}: {hidden})")
}

/// The module path a collapsed module's vertex stands for.
pub fn collapsed_path(name: &str) -> Option<&str> {
    name.find(&format!(" ({COLLAPSED}")).map(|i| &name[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placed_vertex_draws_its_parts_around_its_box() {
        let p = Placed::new(100.0, 50.0, 80.0, 30.0);
        assert_eq!(p.label(), (140.0, 65.0));
        assert_eq!(p.progress(), (100.0, 77.0));
        assert_eq!(p.instances(), (176.0, 47.0));
        assert_eq!(p.badge(), (100.0, 47.0));
        assert_eq!(p.step(), (102.0, 90.0));
        // The shape's corners are the unplaced shape's, moved by the box's corner.
        assert_eq!(
            p.shape_points(Kind::ModuleExpand).as_deref(),
            Some("107.0,50.0 173.0,50.0 180.0,80.0 100.0,80.0")
        );
        assert_eq!(
            shape_points(Kind::ModuleExpand, 80.0, 30.0).as_deref(),
            Some("7.0,0.0 73.0,0.0 80.0,30.0 0.0,30.0")
        );
        assert_eq!(p.shape_points(Kind::Resource), None);
    }

    #[test]
    fn kind_colours_are_the_stylesheets() {
        // The exports take colours from here, the page from style/main.css: keep them equal.
        let css = include_str!("../../style/main.css");
        let root = &css[css.find(":root").expect(":root")..];
        let root = &root[..root.find('}').expect("end of :root")];
        let var = |name: &str| {
            let at = root
                .find(&format!("--k-{name}:"))
                .unwrap_or_else(|| panic!("--k-{name}"));
            root[at..]
                .split([':', ';'])
                .nth(1)
                .map(str::trim)
                .unwrap_or("")
                .to_string()
        };
        for (k, css_name) in [
            (Kind::Resource, "resource"),
            (Kind::Data, "data"),
            (Kind::Provider, "provider"),
            (Kind::Variable, "variable"),
            (Kind::Local, "local"),
            (Kind::Output, "output"),
            (Kind::ModuleExpand, "module"),
            (Kind::Root, "root"),
            (Kind::Destroy, "destroy"),
            (Kind::Other, "other"),
        ] {
            assert_eq!(
                k.colour(),
                var(css_name),
                "Kind::{k:?}: update page::graph::Kind::colour to match --k-{css_name}"
            );
        }
        // color-mix(in srgb, #0072b2 8%, white)
        assert_eq!(Kind::Resource.fill(), "#ebf4f9");
        assert_eq!(Kind::Variable.fill(), "#ffffff");
    }

    // Issue 18, defect 11: the exports lost the kinds' colours and shapes, and Mermaid's arrows
    // pointed the opposite way from the drawing.
    #[test]
    fn the_mermaid_export_is_drawn_as_the_page_draws() {
        let mut g: dag::Graph<PageVertex> = dag::Graph::new();
        let web = g.add(PageVertex::named("aws_instance.web"));
        let p = g.add(PageVertex::named(
            "provider[\"registry.opentofu.org/hashicorp/aws\"]",
        ));
        g.connect(web, p);
        let m = mermaid(&g);
        assert!(
            m.contains(&format!("v{} --> v{}", p.index(), web.index())),
            "{m}"
        );
        assert!(
            m.contains("classDef resource fill:#ebf4f9,stroke:#0072b2"),
            "{m}"
        );
        assert!(m.contains(&format!("class v{} provider", p.index())), "{m}");
        assert!(
            !m.contains("classDef output"),
            "only the kinds present: {m}"
        );
    }

    #[test]
    fn kinds_from_names() {
        for (name, kind) in [
            ("root", Kind::Root),
            ("aws_instance.web", Kind::Resource),
            ("aws_instance.web (expand)", Kind::Resource),
            ("module.net.aws_vpc.this (expand)", Kind::Resource),
            ("data.aws_ami.ubuntu (expand)", Kind::Data),
            (
                "provider[\"registry.opentofu.org/hashicorp/aws\"]",
                Kind::Provider,
            ),
            (
                "module.net.provider[\"registry.opentofu.org/hashicorp/aws\"] (close)",
                Kind::Provider,
            ),
            ("var.region", Kind::Variable),
            ("module.net.var.cidr (expand)", Kind::Variable),
            ("local.tags (expand)", Kind::Local),
            ("output.ip (expand)", Kind::Output),
            ("module.net (expand)", Kind::ModuleExpand),
            ("module.net (close)", Kind::ModuleClose),
            ("aws_instance.old (orphan)", Kind::Destroy),
            ("aws_instance.a (destroy)", Kind::Destroy),
            ("aws_instance.a[0] (deposed 00000001)", Kind::Destroy),
            ("check.health", Kind::Other),
        ] {
            assert_eq!(PageVertex::named(name).kind, kind, "{name}");
        }
    }

    #[test]
    fn boxes_from_module_paths() {
        let cluster_of = |name: &str| PageVertex::named(name).cluster;
        assert!(cluster_of("aws_vpc.a").is_empty());
        assert_eq!(
            cluster_of("module.a.module.b.aws_vpc.x"),
            ["module.a", "module.b"]
        );
        assert_eq!(
            cluster_of("module.a[\"x.y\"].module.b.aws_vpc.x[0]"),
            ["module.a[\"x.y\"]", "module.b"]
        );
        // A module's own expand and close vertices are inside its box.
        assert_eq!(cluster_of("module.a (expand)"), ["module.a"]);
        assert_eq!(
            cluster_of("module.a.module.b (close)"),
            ["module.a", "module.b"]
        );
        // A collapsed module is drawn in its parent's box.
        let c = PageVertex::collapsed("module.a.module.b", 4, vec!["module.a".into()]);
        assert_eq!(c.kind, Kind::Collapsed);
        assert_eq!(c.cluster, ["module.a"]);
        assert_eq!(
            collapsed_path("module.a.module.b (collapsed: 4)"),
            Some("module.a.module.b")
        );
        assert_eq!(collapsed_name("module.a", 2), "module.a (collapsed: 2)");
    }
}

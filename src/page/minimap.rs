//! The minimap: the whole drawing in a small box in a corner of the canvas, the part the view
//! shows framed in it; pressing or dragging in the box moves the view there. Plain geometry on a
//! [`Scene`] and a view [`Xf`]: nothing here knows about the DOM.
//!
//! Invariant: minimap pixels are `(ox, oy) + k * p` for a point `p` of the drawing, within a box
//! of [`Frame::w`] x [`Frame::h`]; every function here maps with that one formula.

use super::graph::Kind;
use super::scene::{LABEL_SCALE, Scene, Xf, fit, push_tenths};

/// The largest box the minimap takes on a canvas of at least [`ROOMY`] pixels each way, in CSS
/// pixels; smaller canvases (a phone) get [`SMALL_W`] x [`SMALL_H`].
pub const MAX_W: f64 = 200.0;
pub const MAX_H: f64 = 140.0;
pub const SMALL_W: f64 = 120.0;
pub const SMALL_H: f64 = 84.0;
pub const ROOMY: f64 = 600.0;

/// The thinnest a box gets: a drawing 30 times wider than tall would otherwise be a line a few
/// pixels high that no pointer hits. The drawing is centred in the extra room.
pub const MIN_SIDE: f64 = 24.0;

/// Whether a minimap is worth its room: only when the whole drawing, fitted to the canvas, is
/// too small to read (below [`LABEL_SCALE`], where vertices are drawn as marks), so the user will
/// zoom in and lose sight of the whole.
pub fn wanted(scene: &Scene, cw: f64, ch: f64) -> bool {
    if scene.nodes.is_empty() || scene.width <= 0.0 || scene.height <= 0.0 {
        return false;
    }
    fit(scene.width, scene.height, cw, ch).2 < LABEL_SCALE
}

/// Where the drawing is in the minimap's box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// The box's size in CSS pixels.
    pub w: f64,
    pub h: f64,
    /// Minimap pixels per drawing pixel.
    pub k: f64,
    /// Where the drawing's origin is in the box.
    pub ox: f64,
    pub oy: f64,
}

impl Frame {
    /// The box for a drawing of `width` x `height` on a canvas of `cw` x `ch` (see [`MAX_W`]).
    pub fn new(width: f64, height: f64, cw: f64, ch: f64) -> Frame {
        let (max_w, max_h) = if cw >= ROOMY && ch >= ROOMY {
            (MAX_W, MAX_H)
        } else {
            (SMALL_W, SMALL_H)
        };
        if !(width > 0.0 && height > 0.0) {
            return Frame {
                w: max_w,
                h: max_h,
                k: 1.0,
                ox: 0.0,
                oy: 0.0,
            };
        }
        let k = (max_w / width).min(max_h / height);
        let (dw, dh) = (width * k, height * k);
        let (w, h) = (dw.max(MIN_SIDE), dh.max(MIN_SIDE));
        Frame {
            w,
            h,
            k,
            ox: (w - dw) / 2.0,
            oy: (h - dh) / 2.0,
        }
    }

    /// A point of the drawing in the box.
    pub fn to_box(&self, x: f64, y: f64) -> (f64, f64) {
        (self.ox + x * self.k, self.oy + y * self.k)
    }

    /// A point of the box in the drawing.
    pub fn to_drawing(&self, mx: f64, my: f64) -> (f64, f64) {
        ((mx - self.ox) / self.k, (my - self.oy) / self.k)
    }

    /// The part of the drawing a canvas of `cw` x `ch` shows under the view `xf`, as a rectangle
    /// `(x, y, w, h)` of the box, clipped to the box (empty, at the nearest edge, when the view
    /// shows none of the drawing's box).
    pub fn view_rect(&self, (tx, ty, s): Xf, cw: f64, ch: f64) -> (f64, f64, f64, f64) {
        let (x0, y0) = self.to_box(-tx / s, -ty / s);
        let (x1, y1) = self.to_box((cw - tx) / s, (ch - ty) / s);
        let clip = |v: f64, hi: f64| v.clamp(0.0, hi);
        let (ax, bx) = (clip(x0, self.w), clip(x1, self.w));
        let (ay, by) = (clip(y0, self.h), clip(y1, self.h));
        (ax, ay, bx - ax, by - ay)
    }

    /// The view, at the scale of `xf`, that shows the drawing's point under the box's point
    /// `(mx, my)` in the middle of a canvas of `cw` x `ch`.
    pub fn centred_at(&self, mx: f64, my: f64, (_, _, s): Xf, cw: f64, ch: f64) -> Xf {
        let mx = mx.clamp(0.0, self.w);
        let my = my.clamp(0.0, self.h);
        let (px, py) = self.to_drawing(mx, my);
        (cw / 2.0 - px * s, ch / 2.0 - py * s, s)
    }
}

/// A vertex in the box: a rectangle at least one pixel each way, coloured by its kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub kind: Kind,
}

/// Every drawn vertex as a mark in `frame`, in the scene's order.
pub fn marks(scene: &Scene, frame: &Frame) -> Vec<Mark> {
    scene
        .nodes
        .iter()
        .map(|n| {
            let (x, y) = frame.to_box(n.x, n.y);
            Mark {
                x,
                y,
                w: (n.w * frame.k).max(1.0),
                h: (n.h * frame.k).max(1.0),
                kind: n.kind,
            }
        })
        .collect()
}

/// The marks as SVG path data, one path per colour (its CSS custom property, [`colour_var`]),
/// in a fixed order: a dozen elements however large the graph, so the minimap costs the page
/// almost nothing to keep, and its colours follow the theme through the stylesheet.
pub fn paths(scene: &Scene, frame: &Frame) -> Vec<(&'static str, String)> {
    let mut by: std::collections::BTreeMap<&'static str, String> = Default::default();
    for m in marks(scene, frame) {
        push_rect(
            by.entry(colour_var(m.kind)).or_default(),
            m.x,
            m.y,
            m.w,
            m.h,
        );
    }
    by.into_iter().collect()
}

/// Module boxes in `frame`, as one SVG path of rectangles.
pub fn module_path(scene: &Scene, frame: &Frame) -> String {
    let mut d = String::new();
    for c in &scene.clusters {
        let (x, y) = frame.to_box(c.x, c.y);
        push_rect(&mut d, x, y, c.w * frame.k, c.h * frame.k);
    }
    d
}

/// Appends a `w` x `h` rectangle at (`x`, `y`) to SVG path data, in tenths.
fn push_rect(d: &mut String, x: f64, y: f64, w: f64, h: f64) {
    d.push('M');
    push_tenths(d, x);
    d.push(',');
    push_tenths(d, y);
    d.push('h');
    push_tenths(d, w);
    d.push('v');
    push_tenths(d, h);
    d.push('h');
    push_tenths(d, -w);
    d.push('z');
}

/// The CSS custom property holding the colour of kind `k` (the one the drawing's vertices use).
pub fn colour_var(k: Kind) -> &'static str {
    match k {
        Kind::Resource => "--k-resource",
        Kind::Data => "--k-data",
        Kind::Provider => "--k-provider",
        Kind::Variable => "--k-variable",
        Kind::Local => "--k-local",
        Kind::Output => "--k-output",
        Kind::ModuleExpand | Kind::ModuleClose | Kind::Collapsed => "--k-module",
        Kind::Root => "--k-root",
        Kind::Destroy => "--k-destroy",
        Kind::Other => "--k-other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::scene::{Drawn, SNode};

    fn node(name: &str, kind: Kind, x: f64, y: f64) -> SNode {
        SNode {
            index: 0,
            name: name.to_string(),
            kind,
            typed: crate::kind::Typed::default(),
            x,
            y,
            w: 100.0,
            h: 20.0,
        }
    }

    fn scene(width: f64, height: f64, nodes: Vec<SNode>) -> Scene {
        Scene {
            nodes,
            edges: Vec::new(),
            clusters: Vec::new(),
            width,
            height,
            layout: Drawn::default(),
            too_big: None,
            pending: None,
        }
    }

    #[test]
    fn the_box_keeps_the_drawings_proportions_within_its_bounds() {
        let f = Frame::new(4000.0, 1400.0, 1200.0, 800.0);
        assert_eq!((f.w, f.k), (200.0, 0.05));
        assert!((f.h - 70.0).abs() < 1e-9 && f.ox == 0.0 && f.oy == 0.0);
        // A phone's canvas gets the small box.
        let f = Frame::new(4000.0, 1400.0, 390.0, 500.0);
        assert_eq!(f.w, SMALL_W);
        // A very wide drawing: a box of the thinnest height, the drawing centred in it.
        let f = Frame::new(38_000.0, 1_400.0, 1200.0, 800.0);
        assert_eq!((f.w, f.h), (200.0, MIN_SIDE));
        let (_, top) = f.to_box(0.0, 0.0);
        let (_, bottom) = f.to_box(0.0, 1_400.0);
        assert!((top + bottom - MIN_SIDE).abs() < 1e-9, "{top} {bottom}");
        // Round trip.
        let (mx, my) = f.to_box(1234.0, 567.0);
        let (x, y) = f.to_drawing(mx, my);
        assert!((x - 1234.0).abs() < 1e-9 && (y - 567.0).abs() < 1e-9);
    }

    #[test]
    fn the_frame_is_what_the_canvas_shows_and_a_press_centres_the_view_there() {
        let f = Frame::new(4000.0, 2000.0, 1000.0, 800.0);
        // At scale 0.5, translated by (-500, -100): the canvas shows drawing x 1000..3000,
        // y 200..1800.
        let xf = (-500.0, -100.0, 0.5);
        let (x, y, w, h) = f.view_rect(xf, 1000.0, 800.0);
        let (ex, ey) = f.to_box(1000.0, 200.0);
        let (ex1, ey1) = f.to_box(3000.0, 1800.0);
        assert!((x - ex).abs() < 1e-9 && (y - ey).abs() < 1e-9);
        assert!((x + w - ex1).abs() < 1e-9 && (y + h - ey1).abs() < 1e-9);
        // Zoomed out beyond the drawing: the frame is the whole box.
        assert_eq!(
            f.view_rect((0.0, 0.0, 0.1), 1000.0, 800.0),
            (0.0, 0.0, f.w, f.h)
        );
        // Panned right off the drawing: an empty frame at the box's edge.
        let (x, _, w, _) = f.view_rect((5000.0, 0.0, 1.0), 1000.0, 800.0);
        assert_eq!((x, w), (0.0, 0.0));
        // A press at the box's point of drawing (2500, 1000) centres the view there, scale kept.
        let (mx, my) = f.to_box(2500.0, 1000.0);
        let to = f.centred_at(mx, my, xf, 1000.0, 800.0);
        assert_eq!(to.2, 0.5);
        assert!((2500.0 * to.2 + to.0 - 500.0).abs() < 1e-9);
        assert!((1000.0 * to.2 + to.1 - 400.0).abs() < 1e-9);
        // And the frame of that view is centred on the press.
        let (x, y, w, h) = f.view_rect(to, 1000.0, 800.0);
        assert!((x + w / 2.0 - mx).abs() < 1e-9 && (y + h / 2.0 - my).abs() < 1e-9);
        // A press outside the box counts at its edge.
        assert_eq!(
            f.centred_at(-50.0, f.h + 50.0, xf, 1000.0, 800.0),
            f.centred_at(0.0, f.h, xf, 1000.0, 800.0)
        );
    }

    #[test]
    fn a_minimap_only_when_the_fitted_drawing_is_too_small_to_read() {
        let small = scene(300.0, 200.0, vec![node("a", Kind::Resource, 0.0, 0.0)]);
        assert!(!wanted(&small, 1000.0, 800.0));
        let wide = scene(20_000.0, 600.0, vec![node("a", Kind::Resource, 0.0, 0.0)]);
        assert!(wanted(&wide, 1000.0, 800.0));
        assert!(!wanted(&scene(20_000.0, 600.0, Vec::new()), 1000.0, 800.0));
    }

    #[test]
    fn each_vertex_is_a_mark_of_its_kind_at_least_a_pixel_big() {
        let s = scene(
            20_000.0,
            600.0,
            vec![
                node("a", Kind::Resource, 0.0, 0.0),
                node("b", Kind::Provider, 19_900.0, 580.0),
            ],
        );
        let f = Frame::new(s.width, s.height, 1000.0, 800.0);
        let m = marks(&s, &f);
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].kind, m[1].kind), (Kind::Resource, Kind::Provider));
        assert!(m.iter().all(|m| m.w >= 1.0 && m.h >= 1.0));
        assert_eq!((m[0].x, m[0].y), f.to_box(0.0, 0.0));
        assert!(m[1].x + m[1].w <= f.w + 1e-9 && m[1].y <= f.h);
        assert_eq!(colour_var(Kind::Collapsed), colour_var(Kind::ModuleExpand));
        // One path per colour, each mark a closed rectangle in it.
        let p = paths(&s, &f);
        assert_eq!(
            p.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
            ["--k-provider", "--k-resource"]
        );
        // k = 0.01: a 100 x 20 box is 1 x 0.2, drawn 1 x 1; the box is 24 high, the drawing 6.
        assert_eq!(p[1].1, "M0.0,9.0h1.0v1.0h-1.0z");
        assert_eq!(p[0].1.matches('z').count(), 1);
    }
}

//! Drawing quality measures that work the same on any tool's output (ours or Graphviz dot's):
//! crossings between straight segments joining consecutive layers, total edge length, size.

use super::{Direction, Layout};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub crossings: u64,
    pub total_edge_length: f64,
    pub width: f64,
    pub height: f64,
}

/// Crossings among edges between two layers, given the lower-layer positions (`0..lower_len`)
/// listed in order of the upper end (ties by lower position). Barth, Mutzel and Jünger's
/// accumulator tree: O(E log V). Only strict crossings count (shared end points do not).
pub(crate) fn accumulate_crossings(lower: &[usize], lower_len: usize) -> u64 {
    if lower_len == 0 || lower.is_empty() {
        return 0;
    }
    let mut first = 1usize;
    while first < lower_len {
        first *= 2;
    }
    let mut tree = vec![0u64; 2 * first - 1];
    let first = first - 1;
    let mut total = 0u64;
    for &p in lower {
        let mut idx = p.min(lower_len - 1) + first;
        tree[idx] += 1;
        while idx > 0 {
            if idx % 2 == 1 {
                total += tree[idx + 1];
            }
            idx = (idx - 1) / 2;
            tree[idx] += 1;
        }
    }
    total
}

/// Total crossings of a layered drawing. `gaps[k]` lists the straight segments between layer `k`
/// and layer `k + 1` as `(position on layer k, position on layer k + 1)`, in any units and order.
/// Two segments cross when their ends are in strictly opposite order on the two layers.
pub fn count_crossings(gaps: &[Vec<(f64, f64)>]) -> u64 {
    let mut total = 0;
    for segs in gaps {
        let mut s: Vec<(f64, f64)> = segs
            .iter()
            .copied()
            .filter(|(a, b)| a.is_finite() && b.is_finite())
            .collect();
        s.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut lows: Vec<f64> = s.iter().map(|p| p.1).collect();
        lows.sort_by(f64::total_cmp);
        lows.dedup();
        let ranks: Vec<usize> = s
            .iter()
            .map(|p| lows.partition_point(|x| x.total_cmp(&p.1).is_lt()))
            .collect();
        total += accumulate_crossings(&ranks, lows.len());
    }
    total
}

/// Position along the layer where a polyline meets the flow coordinate `d`; points are given as
/// `(along the layer, along the flow)`.
fn sample(points: &[(f64, f64)], d: f64) -> Option<f64> {
    for w in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        let (lo, hi) = if y0 <= y1 { (y0, y1) } else { (y1, y0) };
        if d >= lo && d <= hi {
            if (y1 - y0).abs() < 1e-9 {
                return Some(x0);
            }
            return Some(x0 + (x1 - x0) * (d - y0) / (y1 - y0));
        }
    }
    None
}

fn nearest(centres: &[f64], d: f64) -> usize {
    let mut best = 0;
    for (i, c) in centres.iter().enumerate() {
        if (c - d).abs() < (centres[best] - d).abs() {
            best = i;
        }
    }
    best
}

/// Splits polylines into per-gap straight segments for [`count_crossings`]. `centres` are the
/// layer centres along the flow axis (increasing); each polyline is given as points
/// `(along the layer, along the flow)` (so `(x, y)` for a top-to-bottom drawing). An edge's end
/// points belong to the layers nearest to them; in between it is sampled at each layer centre.
/// Works for any drawing whose layers can be listed, e.g. dot's ranks.
pub fn layer_segments(centres: &[f64], polylines: &[Vec<(f64, f64)>]) -> Vec<Vec<(f64, f64)>> {
    let mut gaps: Vec<Vec<(f64, f64)>> = vec![Vec::new(); centres.len().saturating_sub(1)];
    for pl in polylines {
        let (Some(&first), Some(&last)) = (pl.first(), pl.last()) else {
            continue;
        };
        let (mut a, mut b) = (nearest(centres, first.1), nearest(centres, last.1));
        let (mut xa, mut xb) = (first.0, last.0);
        if a > b {
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut xa, &mut xb);
        }
        if a == b {
            continue;
        }
        let mut prev = xa;
        for k in a + 1..=b {
            let x = if k == b {
                xb
            } else {
                sample(pl, centres[k]).unwrap_or(prev)
            };
            gaps[k - 1].push((prev, x));
            prev = x;
        }
    }
    gaps
}

pub(crate) fn measure(l: &Layout) -> Metrics {
    let flow = |p: &(f64, f64)| match l.direction {
        Direction::TopToBottom => *p,
        Direction::LeftToRight => (p.1, p.0),
    };
    let polylines: Vec<Vec<(f64, f64)>> = l
        .edges
        .iter()
        .map(|e| e.points.iter().map(flow).collect())
        .collect();
    let crossings = count_crossings(&layer_segments(&l.layer_centres, &polylines));
    let total_edge_length = l
        .edges
        .iter()
        .map(|e| {
            e.points
                .windows(2)
                .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
                .sum::<f64>()
        })
        .sum();
    Metrics {
        crossings,
        total_edge_length,
        width: l.width,
        height: l.height,
    }
}

/// Splits a line of Graphviz's `-Tplain` output into words, honouring double quotes.
fn plain_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut w = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        if let Some(n) = chars.next() {
                            w.push(n);
                        }
                    }
                    '"' => break,
                    c => w.push(c),
                }
            }
            out.push(w);
        } else {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                chars.next();
            }
            out.push(w);
        }
    }
    out
}

/// The same measures for a drawing by Graphviz, from its `-Tplain` output (`dot -Tplain`):
/// layers are the distinct node centre positions along the flow axis (`direction` tells whether
/// it was drawn with `rankdir=LR`), edges the polylines through their B-spline control points.
/// Units are points (plain output's inches times 72). Unreadable lines are skipped.
pub fn measure_dot_plain(plain: &str, direction: Direction) -> Metrics {
    let num = |w: Option<&String>| w.and_then(|s| s.parse::<f64>().ok());
    let mut width = 0.0;
    let mut height = 0.0;
    let mut centres: Vec<f64> = Vec::new();
    let mut polylines: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut total_edge_length = 0.0;
    // Plain output puts y upwards; flip it so the flow runs the usual way.
    let flow = |x: f64, y: f64| match direction {
        Direction::TopToBottom => (x * 72.0, -y * 72.0),
        Direction::LeftToRight => (-y * 72.0, x * 72.0),
    };
    for line in plain.lines() {
        let w = plain_words(line);
        match w.first().map(String::as_str) {
            Some("graph") => {
                width = num(w.get(2)).unwrap_or(0.0) * 72.0;
                height = num(w.get(3)).unwrap_or(0.0) * 72.0;
            }
            Some("node") => {
                if let (Some(x), Some(y)) = (num(w.get(2)), num(w.get(3))) {
                    centres.push(flow(x, y).1);
                }
            }
            Some("edge") => {
                let n = w.get(3).and_then(|s| s.parse::<usize>().ok()).unwrap_or(0);
                let pts: Vec<(f64, f64)> = (0..n)
                    .filter_map(|i| Some(flow(num(w.get(4 + 2 * i))?, num(w.get(5 + 2 * i))?)))
                    .collect();
                total_edge_length += pts
                    .windows(2)
                    .map(|p| ((p[1].0 - p[0].0).powi(2) + (p[1].1 - p[0].1).powi(2)).sqrt())
                    .sum::<f64>();
                polylines.push(pts);
            }
            _ => {}
        }
    }
    // Distinct layer centres (positions within a thousandth of a point are one layer).
    let mut layers: BTreeMap<i64, f64> = BTreeMap::new();
    for c in centres {
        layers.insert((c * 1000.0).round() as i64, c);
    }
    let centres: Vec<f64> = layers.into_values().collect();
    Metrics {
        crossings: count_crossings(&layer_segments(&centres, &polylines)),
        total_edge_length,
        width,
        height,
    }
}

/// The same measures for a drawing by ELK, from `scripts/elk-layout.mjs`'s output (`{"nodes":
/// [[id, cx, cy], ...], "edges": [[[x, y], ...], ...]}`, absolute coordinates, y down for a
/// top-to-bottom drawing): layers are the distinct node centre positions along the flow axis, as
/// for dot, edges the polylines through their bend points.
pub fn measure_elk(text: &str, direction: Direction) -> Result<Metrics, String> {
    #[derive(Deserialize)]
    struct Out {
        nodes: Vec<(String, f64, f64)>,
        edges: Vec<Vec<(f64, f64)>>,
    }
    let out: Out = serde_json::from_str(text).map_err(|e| format!("ELK output: {e}"))?;
    let flow = |p: (f64, f64)| match direction {
        Direction::TopToBottom => p,
        Direction::LeftToRight => (p.1, p.0),
    };
    let mut layers: BTreeMap<i64, f64> = BTreeMap::new();
    let (mut width, mut height) = (0.0f64, 0.0f64);
    for &(_, x, y) in &out.nodes {
        let c = flow((x, y)).1;
        layers.insert((c * 1000.0).round() as i64, c);
        width = width.max(x);
        height = height.max(y);
    }
    let centres: Vec<f64> = layers.into_values().collect();
    let polylines: Vec<Vec<(f64, f64)>> = out
        .edges
        .iter()
        .map(|pl| pl.iter().map(|&p| flow(p)).collect())
        .collect();
    let total_edge_length = out
        .edges
        .iter()
        .map(|pl| {
            pl.windows(2)
                .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
                .sum::<f64>()
        })
        .sum();
    Ok(Metrics {
        crossings: count_crossings(&layer_segments(&centres, &polylines)),
        total_edge_length,
        width,
        height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_strict_crossings_only() {
        // Two edges from one upper point never cross; an X crosses once.
        assert_eq!(count_crossings(&[vec![(0.0, 0.0), (0.0, 1.0)]]), 0);
        assert_eq!(count_crossings(&[vec![(0.0, 1.0), (1.0, 0.0)]]), 1);
        assert_eq!(count_crossings(&[vec![(0.0, 1.0), (1.0, 1.0)]]), 0);
        assert_eq!(
            count_crossings(&[vec![(0.0, 2.0), (1.0, 1.0), (2.0, 0.0)], vec![]]),
            3
        );
    }

    #[test]
    fn reads_dot_plain_output() {
        // Two edges crossing between rank 0 (y = 2) and rank 1 (y = 1).
        let plain = "graph 1 3 3\n\
            node \"a b\" 0 2 1 0.5 \"a b\" solid box black lightgrey\n\
            node c 2 2 1 0.5 c solid box black lightgrey\n\
            node d 0 1 1 0.5 d solid box black lightgrey\n\
            node e 2 1 1 0.5 e solid box black lightgrey\n\
            edge \"a b\" e 4 0 1.75 0.5 1.5 1.5 1.5 2 1.25 solid black\n\
            edge c d 2 2 1.75 0 1.25 solid black\n\
            stop\n";
        let m = measure_dot_plain(plain, Direction::TopToBottom);
        assert_eq!(m.crossings, 1);
        assert_eq!((m.width, m.height), (216.0, 216.0));
        assert!(m.total_edge_length > 0.0);
    }

    #[test]
    fn segments_follow_polylines() {
        let centres = [0.0, 10.0, 20.0];
        let gaps = layer_segments(
            &centres,
            &[
                vec![(0.0, 2.0), (5.0, 10.0), (5.0, 18.0)],
                vec![(9.0, 2.0), (0.0, 8.0)],
            ],
        );
        assert_eq!(gaps[0], vec![(0.0, 5.0), (9.0, 0.0)]);
        assert_eq!(gaps[1], vec![(5.0, 5.0)]);
    }

    #[test]
    fn reads_elk_output() {
        // Two edges crossing between the layer at y = 10 and the one at y = 50, bent on the way.
        let text = r#"{"ms": 3, "nodes": [["n0", 0, 10], ["n1", 40, 10], ["n2", 0, 50], ["n3", 40, 50]],
            "edges": [[[0, 20], [0, 30], [40, 30], [40, 40]], [[40, 20], [0, 40]]]}"#;
        let m = measure_elk(text, Direction::TopToBottom).expect("read");
        assert_eq!(m.crossings, 1);
        assert!((m.total_edge_length - (60.0 + 2000f64.sqrt())).abs() < 1e-6);
        assert!(measure_elk("not json", Direction::TopToBottom).is_err());
    }
}

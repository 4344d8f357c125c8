//! The makespan chart of the walk bar as plain data: makespan against `-parallelism` 1–64 (log
//! scale), with axes and their ticks, the current setting's point, and the critical path (the
//! makespan with no limit on parallelism) as a floor no setting goes below.
//!
//! The points come from [`super::walk::makespans`], which is `tfgraph walk --sweep` for the same
//! graph and settings. The chart never shows a point for another setting than the current one:
//! while the current setting's walk is still running, its label says so.

/// The settings the chart covers, in the order their walks run: the current one first (its
/// label waits for it), then powers of two (the line's shape early), then the rest.
pub fn settings_in_order(current: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(MAX_P);
    if (1..=MAX_P).contains(&current) {
        out.push(current);
    }
    for p in (0..=6).map(|i| 1usize << i) {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    for p in 1..=MAX_P {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The largest setting drawn (the slider's end).
pub const MAX_P: usize = 64;

/// Size of the drawing, in SVG units (pixels at zoom 1).
pub const WIDTH: f64 = 180.0;
pub const HEIGHT: f64 = 36.0;
const LEFT: f64 = 28.0;
const RIGHT: f64 = 6.0;
const TOP: f64 = 3.0;
const BOTTOM: f64 = 11.0;

/// A tick on an axis: where, and its label.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    pub at: f64,
    pub label: String,
}

/// The chart, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// The plot area: left, top, right, bottom.
    pub plot: (f64, f64, f64, f64),
    /// The line through the known points, as SVG `points`.
    pub line: String,
    pub x_ticks: Vec<Tick>,
    pub y_ticks: Vec<Tick>,
    /// The current setting's point, once its walk is done.
    pub current: Option<(f64, f64)>,
    /// The critical path's height, when known.
    pub floor: Option<f64>,
    /// What the chart shows now: the current setting's makespan, or that it is walking.
    pub label: String,
    /// The critical path's figure, when known.
    pub floor_label: Option<String>,
    /// Every known point exactly (`p:makespan`, shortest round-trip decimals), for scripts.
    pub exact: String,
    /// Every known point for a screen reader or a tooltip.
    pub description: String,
}

fn secs(s: f64) -> String {
    if s >= 100.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

fn x_of(p: usize) -> f64 {
    LEFT + (p.max(1) as f64).log2() / (MAX_P as f64).log2() * (WIDTH - LEFT - RIGHT)
}

/// The chart for the known `points` (setting, makespan in seconds, in any order), the current
/// setting and the critical path length; `None` while nothing is known.
pub fn chart(points: &[(usize, f64)], current: usize, critical: Option<f64>) -> Option<Chart> {
    let mut pts: Vec<(usize, f64)> = points
        .iter()
        .copied()
        .filter(|(p, m)| (1..=MAX_P).contains(p) && m.is_finite() && *m >= 0.0)
        .collect();
    pts.sort_by_key(|x| x.0);
    pts.dedup_by_key(|x| x.0);
    if pts.is_empty() {
        return None;
    }
    let critical = critical.filter(|c| c.is_finite() && *c >= 0.0);
    let top = pts
        .iter()
        .map(|x| x.1)
        .chain(critical)
        .fold(0.0_f64, f64::max);
    let top = if top > 0.0 { top } else { 1.0 };
    let y_of = |m: f64| HEIGHT - BOTTOM - m / top * (HEIGHT - BOTTOM - TOP);
    let line = pts
        .iter()
        .map(|&(p, m)| format!("{:.1},{:.1}", x_of(p), y_of(m)))
        .collect::<Vec<_>>()
        .join(" ");
    let x_ticks = (0..=6)
        .map(|i| {
            let p = 1usize << i;
            Tick {
                at: x_of(p),
                label: p.to_string(),
            }
        })
        .collect();
    let y_ticks = vec![
        Tick {
            at: y_of(0.0),
            label: "0".to_string(),
        },
        Tick {
            at: y_of(top),
            label: secs(top),
        },
    ];
    let now = pts.iter().find(|x| x.0 == current).copied();
    let label = match now {
        Some((p, m)) => format!("makespan {} at {p}", secs(m)),
        None => format!("makespan at {current}: walking…"),
    };
    let exact = pts
        .iter()
        .map(|(p, m)| format!("{p}:{m}"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut description = format!(
        "Makespan of a walk without failures for -parallelism 1 to {MAX_P} (log scale): {}",
        pts.iter()
            .map(|(p, m)| format!("{} at {p}", secs(*m)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(c) = critical {
        description.push_str(&format!(
            ". No setting goes below the critical path, {}",
            secs(c)
        ));
    }
    Some(Chart {
        plot: (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM),
        line,
        x_ticks,
        y_ticks,
        current: now.map(|(p, m)| (x_of(p), y_of(m))),
        floor: critical.map(y_of),
        label,
        floor_label: critical.map(|c| format!("critical path {}", secs(c))),
        exact,
        description,
    })
}

/// The smallest setting that reaches the shortest makespan among `points` (what parallelism
/// buys: nothing beyond this one).
pub fn smallest_best(points: &[(usize, f64)]) -> Option<usize> {
    let best = points.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
    points.iter().filter(|x| x.1 <= best).map(|x| x.0).min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_setting_walks_first_and_every_setting_comes_once() {
        let o = settings_in_order(10);
        assert_eq!(&o[..8], &[10, 1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(o.len(), 64);
        let mut s = o.clone();
        s.sort_unstable();
        assert_eq!(s, (1..=64).collect::<Vec<_>>());
        assert_eq!(settings_in_order(4)[..3], [4, 1, 2]);
        // A setting beyond the chart is not drawn (the slider ends at 64).
        assert_eq!(settings_in_order(500)[0], 1);
    }

    // Issue 18, defect 4: after the slider moved 1 → 4 → 64 the chart kept saying "21.0 s at 4".
    #[test]
    fn the_label_is_the_current_settings_or_says_it_is_still_walking() {
        let pts = [(1, 40.0), (4, 21.0), (64, 12.5)];
        let c = chart(&pts, 64, Some(12.5)).expect("points");
        assert_eq!(c.label, "makespan 12.5 s at 64");
        assert_eq!(c.floor_label.as_deref(), Some("critical path 12.5 s"));
        let c = chart(&pts, 8, None).expect("points");
        assert_eq!(c.label, "makespan at 8: walking…");
        assert_eq!(c.current, None);
        assert_eq!(c.floor_label, None);
        assert_eq!(chart(&[], 8, Some(3.0)), None);
    }

    #[test]
    fn points_sit_on_a_log_axis_from_1_to_64_and_the_floor_is_the_critical_path() {
        let pts = [(64, 10.0), (1, 40.0), (8, 10.0)];
        let c = chart(&pts, 1, Some(10.0)).expect("points");
        let (l, t, r, b) = c.plot;
        assert_eq!(c.x_ticks.first().map(|x| x.at), Some(l));
        assert_eq!(c.x_ticks.last().map(|x| x.at), Some(r));
        assert_eq!(
            c.x_ticks
                .iter()
                .map(|x| x.label.as_str())
                .collect::<Vec<_>>(),
            ["1", "2", "4", "8", "16", "32", "64"]
        );
        // 8 is halfway along a log axis from 1 to 64.
        assert!((x_of(8) - (l + r) / 2.0).abs() < 1e-9);
        // The highest makespan is the top, 0 the bottom; the floor is at the critical path.
        assert_eq!(c.current, Some((l, t)));
        assert_eq!(c.y_ticks[0].at, b);
        assert_eq!(c.y_ticks[1].label, "40.0 s");
        let floor = c.floor.expect("critical");
        assert!((floor - (b - (b - t) / 4.0)).abs() < 1e-9);
        assert_eq!(c.exact, "1:40 8:10 64:10");
        assert_eq!(c.line.split(' ').count(), 3);
        assert!(
            c.description
                .contains("40.0 s at 1, 10.0 s at 8, 10.0 s at 64")
        );
    }

    #[test]
    fn bad_points_are_left_out_not_drawn_off_the_chart() {
        let pts = [(0, 5.0), (65, 5.0), (2, f64::NAN), (3, -1.0), (4, 2.0)];
        let c = chart(&pts, 4, Some(f64::INFINITY)).expect("one good point");
        assert_eq!(c.exact, "4:2");
        assert_eq!(c.floor, None);
        let c = chart(&[(2, 0.0)], 2, None).expect("zero makespan");
        assert!(
            c.current
                .is_some_and(|(x, y)| x.is_finite() && y.is_finite())
        );
    }

    #[test]
    fn the_smallest_setting_with_the_shortest_makespan() {
        assert_eq!(
            smallest_best(&[(1, 9.0), (2, 5.0), (4, 4.0), (8, 4.0)]),
            Some(4)
        );
        assert_eq!(smallest_best(&[]), None);
    }
}

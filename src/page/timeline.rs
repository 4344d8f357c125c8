//! The walk's timeline as a window on its rows: at 10,000 resources it has more than a thousand
//! rows, and drawn whole they cost the browser more per walk frame (style, layout, paint,
//! layerizing) than the graph; only the rows in its box, and a few either side, are drawn. Rows
//! are [`ROW_PX`] tall; an opened row also shows its steps, a row each.

/// A timeline row's height in pixels (the stylesheet's `.g-row`).
pub const ROW_PX: f64 = 24.0;

/// Rows drawn beyond each edge of the box, so that a scroll shows drawn rows while the window
/// catches up.
pub const EXTRA_ROWS: usize = 6;

/// The rows drawn: `first..end` of the list, the first `offset` pixels from the list's top, the
/// whole list `total` pixels tall, seen from `scroll` pixels down (the box's scroll position,
/// within the list; the bottom when following).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Window {
    pub first: usize,
    pub end: usize,
    pub offset: f64,
    pub total: f64,
    pub scroll: f64,
}

/// The pixels from the list's top to each row, and the list's height after them: rows are
/// [`ROW_PX`] tall, and the opened ones `1 + steps` rows (at least one line saying there are
/// none yet). `opened` gives, for a row's index, its steps when it is open.
pub fn tops(n: usize, opened: impl Fn(usize) -> Option<usize>) -> Vec<f64> {
    let mut at = 0.0;
    let mut tops = Vec::with_capacity(n + 1);
    for i in 0..n {
        tops.push(at);
        at += ROW_PX * (1 + opened(i).map_or(0, |s| s.max(1))) as f64;
    }
    tops.push(at);
    tops
}

/// The window on rows at `tops` ([`tops`]) of a box `height` pixels tall scrolled `scroll`
/// pixels down; with `follow`, scrolled to the bottom, where new rows arrive.
pub fn window(tops: &[f64], scroll: f64, height: f64, follow: bool) -> Window {
    let n = tops.len().saturating_sub(1);
    let total = tops.last().copied().unwrap_or(0.0);
    let height = height.max(0.0);
    let scroll = if follow {
        (total - height).max(0.0)
    } else {
        scroll.clamp(0.0, (total - height).max(0.0))
    };
    // The rows that start above the box's bottom and end below its top.
    let first_seen = tops[1..].partition_point(|bottom| *bottom <= scroll);
    let end_seen = tops[..n].partition_point(|t| *t < scroll + height);
    let first = first_seen.saturating_sub(EXTRA_ROWS);
    let end = (end_seen.max(first_seen) + EXTRA_ROWS).min(n);
    Window {
        first,
        end,
        offset: tops.get(first).copied().unwrap_or(0.0),
        total,
        scroll,
    }
}

/// Where to scroll a box `height` pixels tall so that row `i` is in its middle, if it is not
/// wholly in view at `scroll` now.
pub fn scroll_to(tops: &[f64], i: usize, scroll: f64, height: f64) -> Option<f64> {
    let (top, bottom) = (*tops.get(i)?, *tops.get(i + 1)?);
    if top >= scroll && bottom <= scroll + height {
        return None;
    }
    Some((top - (height - ROW_PX) / 2.0).max(0.0))
}

/// Whether a box `height` pixels tall scrolled to `scroll` is at the bottom of a list `total`
/// pixels tall (within a row: a user who scrolled there means to follow).
pub fn at_bottom(total: f64, scroll: f64, height: f64) -> bool {
    total - scroll - height < ROW_PX
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(n: usize) -> Vec<f64> {
        tops(n, |_| None)
    }

    #[test]
    fn rows_are_a_fixed_height_and_an_opened_row_holds_its_steps() {
        assert_eq!(plain(3), vec![0.0, 24.0, 48.0, 72.0]);
        // Row 1 open with 3 steps, row 2 open with none yet (a line saying so).
        let t = tops(4, |i| match i {
            1 => Some(3),
            2 => Some(0),
            _ => None,
        });
        assert_eq!(t, vec![0.0, 24.0, 120.0, 168.0, 192.0]);
        assert_eq!(tops(0, |_| None), vec![0.0]);
    }

    #[test]
    fn the_window_holds_the_rows_in_the_box_and_a_few_either_side() {
        let t = plain(1_000);
        // 200 px from 2,400 px down: rows 100..109 are seen (the last only in part).
        let w = window(&t, 2_400.0, 200.0, false);
        assert_eq!(w.first, 100 - EXTRA_ROWS);
        assert_eq!(w.end, 109 + EXTRA_ROWS);
        assert_eq!(w.offset, (100 - EXTRA_ROWS) as f64 * ROW_PX);
        assert_eq!(w.total, 24_000.0);
        assert_eq!(w.scroll, 2_400.0);
        // A row cut by the top edge is drawn.
        let w = window(&t, 2_410.0, 200.0, false);
        assert_eq!(w.first, 100 - EXTRA_ROWS);
        // At the top and the bottom, nothing beyond the list.
        assert_eq!(window(&t, 0.0, 200.0, false).first, 0);
        let bottom = window(&t, 1e9, 200.0, false);
        assert_eq!(bottom.end, 1_000);
        assert_eq!(
            bottom.scroll,
            24_000.0 - 200.0,
            "scrolled no further than the bottom"
        );
        assert_eq!(
            bottom,
            window(&t, 0.0, 200.0, true),
            "following is being at the bottom"
        );
        assert!(bottom.end - bottom.first <= 200 / 24 + 1 + 2 * EXTRA_ROWS);
    }

    #[test]
    fn a_short_list_is_drawn_whole_and_an_empty_one_not_at_all() {
        let t = plain(4);
        for follow in [false, true] {
            let w = window(&t, 0.0, 500.0, follow);
            assert_eq!((w.first, w.end, w.offset, w.total), (0, 4, 0.0, 96.0));
        }
        let w = window(&plain(0), 0.0, 200.0, true);
        assert_eq!((w.first, w.end, w.total), (0, 0, 0.0));
        // A box not laid out yet (no height) still draws the rows around where it is.
        let w = window(&plain(100), 0.0, 0.0, true);
        assert_eq!((w.first, w.end), (100 - EXTRA_ROWS, 100));
    }

    #[test]
    fn an_opened_row_makes_the_window_reach_fewer_rows() {
        let t = tops(100, |i| (i == 10).then_some(20));
        // Row 10 with its 20 steps spans 240..744: a box on 300..500 sees only it.
        let w = window(&t, 300.0, 200.0, false);
        assert_eq!((w.first, w.end), (10 - EXTRA_ROWS, 11 + EXTRA_ROWS));
    }

    #[test]
    fn scrolling_to_a_row_centres_it_unless_it_is_in_view() {
        let t = plain(100);
        assert_eq!(scroll_to(&t, 5, 0.0, 240.0), None);
        assert_eq!(scroll_to(&t, 50, 0.0, 240.0), Some(1_200.0 - 108.0));
        // Cut by the bottom edge: moved.
        assert_eq!(scroll_to(&t, 9, 0.0, 230.0), Some(216.0 - 103.0));
        assert_eq!(scroll_to(&t, 1, 100.0, 240.0), Some(0.0));
        assert_eq!(scroll_to(&t, 100, 0.0, 240.0), None, "no such row");
    }

    #[test]
    fn within_a_row_of_the_bottom_counts_as_at_the_bottom() {
        assert!(at_bottom(2_400.0, 2_200.0, 200.0));
        assert!(at_bottom(2_400.0, 2_180.0, 200.0));
        assert!(!at_bottom(2_400.0, 2_170.0, 200.0));
        assert!(at_bottom(100.0, 0.0, 200.0), "a list shorter than its box");
    }
}

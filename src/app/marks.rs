//! The page's performance marks and measures (`tfgraph-<name>`, `walk-*`), which the browser's
//! timeline, Chrome traces and the e2e timing test read. Below every other module of the app:
//! anything may time itself. The browser keeps a mark or measure until it is cleared: marks are
//! cleared once measured, and of each measure's name the timeline keeps at most
//! [`crate::page::measures::KEEP`].

use std::cell::RefCell;

thread_local! {
    static TALLY: RefCell<crate::page::measures::Tally> = RefCell::default();
}

fn performance() -> Option<web_sys::Performance> {
    web_sys::window().and_then(|w| w.performance())
}

/// Sets the mark `name` (now).
pub(super) fn mark(name: &str) {
    if let Some(p) = performance() {
        let _ = p.mark(name);
    }
}

/// Records the measure `name` from mark `start` to mark `end`, then clears the marks `forget`
/// (those no later measure starts or ends at).
pub(super) fn measure(name: &str, start: &str, end: &str, forget: &[&str]) {
    let Some(p) = performance() else { return };
    let _ = p.measure_with_start_mark_and_end_mark(name, start, end);
    forget_marks(&p, forget);
    if TALLY.with_borrow_mut(|t| t.record(name, crate::page::measures::KEEP)) {
        p.clear_measures_with_measure_name(name);
    }
}

/// Runs `f` between two performance marks and records a `tfgraph-<name>` measure, so the
/// browser's performance timeline (and the e2e timing test) shows where an update's time goes.
pub(super) fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    begin(name);
    let out = f();
    end(name);
    out
}

/// Starts the `tfgraph-<name>` measure that [`end`] records: [`timed`] for work that spans
/// tasks (an `await` in between).
pub(super) fn begin(name: &str) {
    mark(&format!("tfgraph-{name}-start"));
}

/// Records the `tfgraph-<name>` measure since [`begin`] of the same name.
pub(super) fn end(name: &str) {
    let (start, end) = (
        format!("tfgraph-{name}-start"),
        format!("tfgraph-{name}-end"),
    );
    mark(&end);
    measure(&format!("tfgraph-{name}"), &start, &end, &[&start, &end]);
}

/// Clears the marks `names` (set but not to be measured).
pub(super) fn forget(names: &[&str]) {
    if let Some(p) = performance() {
        forget_marks(&p, names);
    }
}

fn forget_marks(p: &web_sys::Performance, names: &[&str]) {
    for m in names {
        p.clear_marks_with_mark_name(m);
    }
}

//! The page's performance measures (`tfgraph-<name>`), which the browser's timeline, Chrome
//! traces and the e2e timing test read. Below every other module of the app: anything may time
//! itself.

/// Runs `f` between two performance marks and records a `tfgraph-<name>` measure, so the
/// browser's performance timeline (and the e2e timing test) shows where an update's time goes.
pub(super) fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let perf = web_sys::window().and_then(|w| w.performance());
    let (start, end) = (
        format!("tfgraph-{name}-start"),
        format!("tfgraph-{name}-end"),
    );
    if let Some(p) = &perf {
        let _ = p.mark(&start);
    }
    let out = f();
    if let Some(p) = &perf {
        let _ = p.mark(&end);
        let _ = p.measure_with_start_mark_and_end_mark(&format!("tfgraph-{name}"), &start, &end);
    }
    out
}

//! A virtual clock: `sleep` futures resolve when a driver moves simulated time past their deadline.
//!
//! Nothing here looks at real time, so the same walk runs identically natively, in wasm32 and
//! under any driver. Timers that fall due at the same instant are woken in the order they were
//! registered (deadline, then registration number), which keeps runs reproducible.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

#[derive(Default)]
struct ClockInner {
    now: Duration,
    /// Pending timers by (deadline, registration number).
    timers: BTreeMap<(Duration, u64), Waker>,
    next_seq: u64,
}

/// Simulated time since the walk started. Cloning gives another handle on the same clock.
#[derive(Clone, Default)]
pub struct Clock {
    inner: Rc<RefCell<ClockInner>>,
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let i = self.inner.borrow();
        f.debug_struct("Clock")
            .field("now", &i.now)
            .field("timers", &i.timers.len())
            .finish()
    }
}

impl Clock {
    pub fn new() -> Self {
        Self::default()
    }

    /// The current simulated time.
    pub fn now(&self) -> Duration {
        self.inner.borrow().now
    }

    /// A future that completes once the clock reaches `now() + d` (at once for a zero `d`).
    pub fn sleep(&self, d: Duration) -> Sleep {
        self.sleep_until(self.now().saturating_add(d))
    }

    /// A future that completes once the clock reaches `deadline`.
    pub fn sleep_until(&self, deadline: Duration) -> Sleep {
        Sleep {
            clock: self.clone(),
            deadline,
            key: None,
        }
    }

    /// The earliest pending timer, if any.
    pub fn next_deadline(&self) -> Option<Duration> {
        self.inner.borrow().timers.keys().next().map(|(t, _)| *t)
    }

    /// Number of sleeping futures.
    pub fn pending_timers(&self) -> usize {
        self.inner.borrow().timers.len()
    }

    /// Moves time forward to `t` (never backwards) and wakes every timer due by then, earliest
    /// first. Woken futures run the next time their executor is polled.
    pub(crate) fn advance_to(&self, t: Duration) {
        let due: Vec<Waker> = {
            let mut i = self.inner.borrow_mut();
            if t > i.now {
                i.now = t;
            }
            let now = i.now;
            let later = i.timers.split_off(&(now, u64::MAX));
            let due = std::mem::replace(&mut i.timers, later);
            due.into_values().collect()
        };
        for w in due {
            w.wake();
        }
    }
}

/// Future returned by [`Clock::sleep`].
#[must_use = "futures do nothing unless awaited"]
pub struct Sleep {
    clock: Clock,
    deadline: Duration,
    key: Option<(Duration, u64)>,
}

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = &mut *self;
        let mut i = this.clock.inner.borrow_mut();
        if i.now >= this.deadline {
            if let Some(k) = this.key.take() {
                i.timers.remove(&k);
            }
            return Poll::Ready(());
        }
        let key = match this.key {
            Some(k) => k,
            None => {
                let k = (this.deadline, i.next_seq);
                i.next_seq += 1;
                this.key = Some(k);
                k
            }
        };
        // Re-registers after a spurious poll too (the timer may have fired and been removed).
        i.timers.insert(key, cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if let Some(k) = self.key.take() {
            self.clock.inner.borrow_mut().timers.remove(&k);
        }
    }
}

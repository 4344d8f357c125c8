//! The `-parallelism` semaphore.
//!
//! OpenTofu's semaphore is a buffered Go channel, whose release hands the slot straight to the
//! longest-waiting sender. Here too a release passes the permit directly to the first waiter in the
//! queue (strict FIFO), so the walk order depends on who asked first, not on poll order.
//! `async-lock`'s semaphore would not do: it only wakes a waiter, and a task polled before it may
//! take the permit. tokio's `sync::Semaphore` would (feature `sync`, no runtime needed): it is fair
//! in the same way, assigning a released permit to the front of its queue. This one predates that
//! check and is kept because it is small, single-threaded (`Rc`/`Cell`, no atomics) and pinned by
//! the walk's tests; replacing it with tokio's is a possible simplification, not a fix.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

#[derive(Default)]
struct Slot {
    granted: Cell<bool>,
    abandoned: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

struct Inner {
    available: Cell<usize>,
    queue: RefCell<VecDeque<Rc<Slot>>>,
}

/// A counting semaphore for single-threaded async code, FIFO with direct hand-off.
#[derive(Clone)]
pub struct Semaphore {
    inner: Rc<Inner>,
}

impl Semaphore {
    pub fn new(permits: usize) -> Self {
        Semaphore {
            inner: Rc::new(Inner {
                available: Cell::new(permits),
                queue: RefCell::new(VecDeque::new()),
            }),
        }
    }

    /// Waits for a permit; the permit is released when the returned guard is dropped.
    pub fn acquire(&self) -> Acquire {
        Acquire {
            sem: self.clone(),
            slot: None,
        }
    }

    /// Permits not currently held.
    pub fn available(&self) -> usize {
        self.inner.available.get()
    }

    fn release(&self) {
        let mut q = self.inner.queue.borrow_mut();
        while let Some(slot) = q.pop_front() {
            if slot.abandoned.get() {
                continue;
            }
            slot.granted.set(true);
            drop(q);
            if let Some(w) = slot.waker.borrow_mut().take() {
                w.wake();
            }
            return;
        }
        self.inner.available.set(self.inner.available.get() + 1);
    }
}

/// Future returned by [`Semaphore::acquire`].
#[must_use = "futures do nothing unless awaited"]
pub struct Acquire {
    sem: Semaphore,
    slot: Option<Rc<Slot>>,
}

impl Future for Acquire {
    type Output = Permit;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit> {
        let this = &mut *self;
        match &this.slot {
            Some(slot) => {
                if slot.granted.get() {
                    this.slot = None;
                    return Poll::Ready(Permit {
                        sem: this.sem.clone(),
                    });
                }
                *slot.waker.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
            None => {
                let inner = &this.sem.inner;
                if inner.available.get() > 0 && inner.queue.borrow().is_empty() {
                    inner.available.set(inner.available.get() - 1);
                    return Poll::Ready(Permit {
                        sem: this.sem.clone(),
                    });
                }
                let slot = Rc::new(Slot::default());
                *slot.waker.borrow_mut() = Some(cx.waker().clone());
                inner.queue.borrow_mut().push_back(slot.clone());
                this.slot = Some(slot);
                Poll::Pending
            }
        }
    }
}

impl Drop for Acquire {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            if slot.granted.get() {
                // Handed a permit it never picked up: pass it on.
                self.sem.release();
            } else {
                slot.abandoned.set(true);
            }
        }
    }
}

/// A held permit; dropping it releases the permit to the next waiter.
pub struct Permit {
    sem: Semaphore,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.sem.release();
    }
}

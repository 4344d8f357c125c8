//! The executor that polls the walk's tasks and the two drivers that move simulated time.
//!
//! Tasks run on `futures`' single-threaded [`LocalPool`] (no threads, so it works in wasm32; we only
//! ever call `run_until_stalled`, which never parks the thread). Time only moves when a driver says
//! so: the executor first runs every task that can make progress at the current instant, and only
//! then may a driver move the [`Clock`] to the next timer. Nothing polls in a loop waiting for time
//! to pass.

use super::clock::Clock;
use futures::executor::{LocalPool, LocalSpawner};
use std::time::Duration;

/// A single-threaded executor bound to a virtual [`Clock`].
pub struct Executor {
    pool: LocalPool,
    clock: Clock,
}

impl Default for Executor {
    fn default() -> Self {
        Self::new()
    }
}

impl Executor {
    pub fn new() -> Self {
        Executor {
            pool: LocalPool::new(),
            clock: Clock::new(),
        }
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn now(&self) -> Duration {
        self.clock.now()
    }

    pub(crate) fn spawner(&self) -> LocalSpawner {
        self.pool.spawner()
    }

    /// Runs every task until none can make progress without time moving.
    pub fn run_until_stalled(&mut self) {
        self.pool.run_until_stalled();
    }

    /// The instant driver: whenever every task is blocked, jumps time to the next timer; returns
    /// when no timer is left (the walk is over, or what remains waits on something that is not a
    /// timer, such as a dependency cycle).
    pub fn run_to_end(&mut self) {
        while self.step_to_next_event().is_some() {}
    }

    /// Runs what can run now, then moves time to the next timer and runs what that released.
    /// Returns the new time, or `None` when no timer is pending.
    pub fn step_to_next_event(&mut self) -> Option<Duration> {
        self.run_until_stalled();
        let t = self.clock.next_deadline()?;
        self.clock.advance_to(t);
        self.run_until_stalled();
        Some(t)
    }

    /// Moves time forward by `dt`, firing timers in order on the way. Time stops at the last
    /// event when no timer is left, so a finished walk's clock reads its makespan.
    pub fn advance_by(&mut self, dt: Duration) -> Duration {
        let target = self.clock.now().saturating_add(dt);
        loop {
            self.run_until_stalled();
            match self.clock.next_deadline() {
                Some(t) if t <= target => self.clock.advance_to(t),
                Some(_) => {
                    self.clock.advance_to(target);
                    break;
                }
                None => break,
            }
        }
        self.run_until_stalled();
        self.clock.now()
    }

    /// Whether any timer is pending (some vertex is running, or will be once time moves).
    pub fn has_pending_timers(&self) -> bool {
        self.clock.pending_timers() > 0
    }
}

/// The stepped driver for the app: advanced per animation frame by real elapsed time times a speed
/// factor, or one event at a time; can be paused.
pub struct Stepper {
    exec: Executor,
    paused: bool,
    speed: f64,
}

impl Default for Stepper {
    fn default() -> Self {
        Self::new()
    }
}

impl Stepper {
    pub fn new() -> Self {
        Stepper {
            exec: Executor::new(),
            paused: false,
            speed: 1.0,
        }
    }

    /// The executor to start walks on.
    pub fn executor(&self) -> &Executor {
        &self.exec
    }

    pub fn executor_mut(&mut self) -> &mut Executor {
        &mut self.exec
    }

    pub fn now(&self) -> Duration {
        self.exec.now()
    }

    pub fn pause(&mut self) {
        self.paused = true;
    }

    pub fn resume(&mut self) {
        self.paused = false;
    }

    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Simulated seconds per real second (negative, NaN and infinite values count as 0).
    pub fn set_speed(&mut self, speed: f64) {
        self.speed = if speed.is_finite() && speed > 0.0 {
            speed
        } else {
            0.0
        };
    }

    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// One animation frame: `real_dt` of real time moves simulated time by `real_dt * speed`.
    /// Does nothing while paused (tasks started since the last frame still get polled). Returns
    /// the simulated time.
    pub fn advance_by(&mut self, real_dt: Duration) -> Duration {
        if self.paused {
            self.exec.run_until_stalled();
            return self.exec.now();
        }
        let dt = Duration::try_from_secs_f64(real_dt.as_secs_f64() * self.speed)
            .unwrap_or(Duration::MAX);
        self.exec.advance_by(dt)
    }

    /// Jumps to the next event whether paused or not (single-stepping).
    pub fn step_to_next_event(&mut self) -> Option<Duration> {
        self.exec.step_to_next_event()
    }

    /// Finishes the walk at once (the instant driver).
    pub fn run_to_end(&mut self) {
        self.exec.run_to_end();
    }

    pub fn has_pending_timers(&self) -> bool {
        self.exec.has_pending_timers()
    }
}

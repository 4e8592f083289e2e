//! [`Context`]: a worker's access to the run from inside the operator.

use crate::probe::{ticks, TaskProbe};
use crate::stats::ThreadStats;
use crate::termination::{Credit, Termination};
use ordo_sched::Handle;

/// A worker's access to the run from inside the operator.
pub struct Context<'a, T, H> {
    pub(crate) handle: &'a mut H,
    pub(crate) credit: &'a mut Credit,
    pub(crate) term: &'a Termination,
    pub(crate) stats: &'a mut ThreadStats,
    pub(crate) worker: usize,
    /// Present only in an instrumented or simulated run.
    pub(crate) probe: Option<&'a mut TaskProbe>,
    pub(crate) _task: std::marker::PhantomData<fn(T)>,
}

impl<T, H: Handle<T>> Context<'_, T, H> {
    /// Schedules a new task.
    #[inline(always)]
    pub fn push(&mut self, task: T, priority: u64) {
        let t0 = self.before_push();
        self.handle.push(task, priority);
        self.after_push(t0, priority);
    }

    /// Schedules a new task that works on `owner` (a node id): owner-computes schedulers
    /// (`pheap`) route it to the owner's queue; the others treat it as [`push`](Self::push).
    #[inline(always)]
    pub fn push_owned(&mut self, task: T, priority: u64, owner: u64) {
        let t0 = self.before_push();
        self.handle.push_owned(task, priority, owner);
        self.after_push(t0, priority);
    }

    /// Counts a push for termination and statistics; the start time when probed. (Calls to
    /// the handle are direct, not through a closure, which LLVM leaves out of line: 12% more
    /// instructions in SSSP.)
    #[inline(always)]
    fn before_push(&mut self) -> u64 {
        self.term.on_push(self.credit);
        self.stats.pushes += 1;
        if self.probe.is_some() {
            ticks()
        } else {
            0
        }
    }

    /// Times the push that started at `t0` when probed.
    #[inline(always)]
    fn after_push(&mut self, t0: u64, priority: u64) {
        if let Some(p) = self.probe.as_deref_mut() {
            p.note_push(t0, priority);
        }
    }

    /// Marks the running task's work as useless for the cycle breakdown: a stale task, or
    /// (given [`Probes::oracle`]) a label that is not final. One branch when probes are off.
    #[inline]
    pub fn useless(&mut self) {
        if let Some(p) = self.probe.as_deref_mut() {
            p.useless = true;
        }
    }

    /// Tells the probes the priority the running task was pushed with, for traces and rank
    /// error. One branch when probes are off.
    #[inline]
    pub fn task_priority(&mut self, priority: u64) {
        if let Some(p) = self.probe.as_deref_mut() {
            p.priority = Some(priority);
            if let Some(r) = &p.rank {
                r.popped(priority);
            }
        }
    }

    /// [`task_priority`](Self::task_priority) for a priority that costs something to compute:
    /// `priority` runs only in an instrumented or simulated run.
    #[inline]
    pub fn task_priority_with(&mut self, priority: impl FnOnce() -> u64) {
        if self.probe.is_some() {
            self.task_priority(priority());
        }
    }

    /// Adds `n` to application counter `i` (< [`crate::APP_COUNTERS`]).
    #[inline]
    pub fn count(&mut self, i: usize, n: u64) {
        self.stats.app[i] += n;
    }

    /// A hint: the task this worker runs `ahead + 1` tasks after the running one (0: the
    /// next), when its scheduler names it (`Handle::peek_fast`); the operator may prefetch
    /// what that task will read.
    #[inline(always)]
    pub fn upcoming(&self, ahead: usize) -> Option<T> {
        self.handle.peek_fast(ahead)
    }

    /// A hint: the task the worker's next pop returns once it runs out of tasks at hand, as
    /// its scheduler guesses it (`Handle::guess_next_pop`: a heap's top).
    #[inline(always)]
    pub fn guess_next_pop(&self) -> Option<T> {
        self.handle.guess_next_pop()
    }

    /// The index of the running worker (0..threads).
    #[inline]
    pub fn worker(&self) -> usize {
        self.worker
    }
}

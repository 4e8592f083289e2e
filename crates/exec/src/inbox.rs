//! Tasks that arrive from outside a run, for runtimes that span processes (ordo-dist).
//!
//! [`crate::for_each_open`] runs like [`crate::for_each`] but also moves tasks in from an
//! [`Inbox`] and lets the inbox decide when the run is over. The local token count G of the
//! termination protocol (`src/README.md`) still counts local tasks; in an open run G = 0 only
//! means "quiet here for now", because a drained message can create tasks again. So:
//!
//! * workers drain the inbox when a pop fails and every [`POLL_EVERY`] tasks;
//! * before an idle worker returns its spare tokens it calls [`Inbox::on_idle`], so whatever it
//!   buffered for other processes is handed over before G can reach 0 (G = 0 then implies
//!   that every worker's outgoing buffers are handed over);
//! * a worker stops only when G = 0 *and* [`Inbox::finished`] says the whole job is over.
//!
//! Draining pushes take tokens like any push. A drain may borrow tokens while G = 0 (the
//! closed protocol forbids that), which is safe here because no worker leaves on G = 0 alone.

/// Tasks arriving from outside the run, and the run's end decided outside.
pub trait Inbox<T>: Sync {
    /// False only for [`Closed`], whose run is an ordinary [`crate::for_each`].
    const OPEN: bool = true;

    /// Moves arrived work into the run on `worker`: `push(task, priority)` schedules a task.
    /// Returns how many messages it took (0 when there was nothing to do).
    fn drain(&self, worker: usize, push: &mut dyn FnMut(T, u64)) -> usize;

    /// `worker` found no task: hand over everything it buffered for elsewhere. Called before
    /// the worker returns its tokens.
    fn on_idle(&self, worker: usize);

    /// Every [`POLL_EVERY`] tasks: a chance to flush buffers by age.
    fn on_poll(&self, _worker: usize) {}

    /// True once no task exists anywhere, ever again. Asked only when the local G is 0.
    fn finished(&self) -> bool;

    /// Back-pressure: while true, workers run no new task (they keep draining).
    fn congested(&self) -> bool {
        false
    }
}

/// Tasks drained from an [`Inbox`] while busy: once per this many tasks.
pub const POLL_EVERY: u64 = 64;

/// No inbox: a closed run.
#[derive(Debug, Default, Clone, Copy)]
pub struct Closed;

impl<T> Inbox<T> for Closed {
    const OPEN: bool = false;

    #[inline(always)]
    fn drain(&self, _worker: usize, _push: &mut dyn FnMut(T, u64)) -> usize {
        0
    }

    #[inline(always)]
    fn on_idle(&self, _worker: usize) {}

    #[inline(always)]
    fn finished(&self) -> bool {
        true
    }
}

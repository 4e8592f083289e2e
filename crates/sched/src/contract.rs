//! The scheduler contract every ordo scheduler implements (docs/design.md, "The scheduler
//! contract").
//!
//! * A task is a small `Copy` value; a priority is a `u64`, smaller runs earlier.
//! * A scheduler is shared by all workers; each worker takes its own [`Handle`] with
//!   [`Scheduler::handle`] and pushes and pops through it.
//! * [`Handle::pop`] returning `None` means "nothing visible to me now", not termination:
//!   termination is the executor's business.
//! * [`Handle::flush`] makes tasks the handle buffers privately visible to other workers.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// What a task must be: a small value copied in and out of the scheduler.
pub trait Task: Copy + Send + Sync + 'static {}
impl<T: Copy + Send + Sync + 'static> Task for T {}

/// A concurrent priority scheduler shared by `workers()` workers.
pub trait Scheduler<T: Task>: Sync {
    /// One worker's access to the scheduler.
    type Handle<'s>: Handle<T>
    where
        Self: 's;

    /// The handle of `worker` (`0..workers()`). Each worker takes exactly one handle at a time;
    /// asking twice for the same worker's handle panics.
    fn handle(&self, worker: usize) -> Self::Handle<'_>;

    /// The number of workers this scheduler was built for.
    fn workers(&self) -> usize;

    /// The scheduler's own counters, merged from all handles dropped so far.
    fn counters(&self) -> Counters {
        Counters::default()
    }

    /// Timed events the scheduler recorded (PMOD's lmf changes), oldest first.
    fn events(&self) -> Vec<Event> {
        Vec::new()
    }
}

/// Something a scheduler decided during a run, e.g. PMOD changing lmf from `old` to `new`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Nanoseconds since the scheduler was built.
    pub time_ns: u64,
    pub name: &'static str,
    pub old: u64,
    pub new: u64,
}

/// A worker's view of a scheduler.
pub trait Handle<T> {
    fn push(&mut self, task: T, priority: u64);
    /// Pushes a task that belongs to `owner` (e.g. the node it works on), for schedulers with
    /// an owner-computes rule (`pheap`); the others ignore the owner.
    #[inline(always)]
    fn push_owned(&mut self, task: T, priority: u64, owner: u64) {
        let _ = owner;
        self.push(task, priority);
    }
    fn pop(&mut self) -> Option<T>;
    /// The next task if this handle holds one at hand, without touching shared state or
    /// changing its choice of where to pop (obim: the rest of its pop chunk in the current
    /// level), else `None`, after which the worker calls [`pop`](Self::pop). The executor
    /// runs the tasks it returns in a tight loop, with one account per run of them. A task
    /// it returns is one `pop` would have returned.
    #[inline(always)]
    fn pop_fast(&mut self) -> Option<T> {
        None
    }
    /// The task the `ahead + 1`-th next call of [`pop_fast`](Self::pop_fast) returns (0: the
    /// next call), unless one of those calls returns `None` first (a push may end the run),
    /// if this handle knows it; no effect on anything. A hint for prefetching what that task
    /// will read: `None` is always a correct answer.
    #[inline(always)]
    fn peek_fast(&self, ahead: usize) -> Option<T> {
        let _ = ahead;
        None
    }
    /// A guess at the task the next [`pop`](Self::pop) returns once `pop_fast` has none (a
    /// heap's top), with no effect on anything: a hint for prefetching, which a push or
    /// another worker may prove wrong. `None` is always a correct answer.
    #[inline(always)]
    fn guess_next_pop(&self) -> Option<T> {
        None
    }
    fn flush(&mut self) {}
}

/// Named counters a scheduler reports (e.g. obim's bags created, remote chunk steals).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters(pub BTreeMap<&'static str, u64>);

impl Counters {
    pub fn add(&mut self, name: &'static str, value: u64) {
        *self.0.entry(name).or_insert(0) += value;
    }

    pub fn get(&self, name: &str) -> u64 {
        self.0.get(name).copied().unwrap_or(0)
    }
}

/// Where handles deposit their counters when they are dropped.
#[derive(Debug, Default)]
pub struct CounterSink(Mutex<Counters>);

impl CounterSink {
    pub fn merge(&self, items: &[(&'static str, u64)]) {
        let mut c = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for &(k, v) in items {
            c.add(k, v);
        }
    }

    pub fn snapshot(&self) -> Counters {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Hands out each worker's handle at most once at a time.
#[derive(Debug)]
pub struct HandleClaims(Box<[std::sync::atomic::AtomicBool]>);

impl HandleClaims {
    pub fn new(workers: usize) -> Self {
        HandleClaims((0..workers).map(|_| Default::default()).collect())
    }

    /// The number of workers (handles) there are.
    pub fn workers(&self) -> usize {
        self.0.len()
    }

    /// Claims `worker`'s handle; panics if it is out of range or already taken, because two
    /// handles for one worker would share state that only one thread may touch.
    pub fn claim(&self, worker: usize) {
        use std::sync::atomic::Ordering;
        let slot = self.0.get(worker).unwrap_or_else(|| {
            panic!(
                "worker {worker} out of range: scheduler built for {} workers",
                self.0.len()
            )
        });
        // Acquire pairs with the Release in `release`: a new handle for this worker sees
        // every write the previous one made to the worker's private slots.
        assert!(
            !slot.swap(true, Ordering::Acquire),
            "the handle of worker {worker} is already taken"
        );
    }

    pub fn release(&self, worker: usize) {
        // Release: publishes the dropped handle's writes to the next claimant (see `claim`).
        self.0[worker].store(false, std::sync::atomic::Ordering::Release);
    }
}

//! The worker pool every parallel run uses: threads kept between runs (parked on a channel),
//! worker `w` pinned to the topology's `w`-th CPU, a panic in one worker caught, the others
//! told, and reported once.
//!
//! # Why threads are kept
//! Spawning, pinning and joining a team cost 30 µs at one worker and about 100 µs at two on
//! 2 cores (`examples/round_cost.rs`): a third of a 0.3 ms SSSP on wiki-Vote, paid again by
//! every `--repeat`. OpenMP, and so GAPBS and Galois, keep their threads and run the first
//! worker on the calling thread; so does ordo. A run takes parked threads from the pool
//! for workers 1.. (spawning more when there are too few, e.g. for two runs at once from two
//! threads), hands each a job, runs worker 0 itself, waits for the others, and parks them
//! again.
//!
//! # Protocol
//! * A job borrows the caller's data (`work`, the inputs, the result slots, the failure
//!   record). Its lifetime is erased to send it to a parked thread; that is sound because the
//!   caller does not return, nor unwind past the borrowed data, before every job has counted
//!   down the run's latch, which is each job's last access to borrowed data (the latch itself
//!   is shared through an `Arc`). A job that cannot be sent is run by a fresh thread instead,
//!   so every job runs and the wait always ends.
//! * A worker that panicked is not parked again: its thread ends, and with it whatever
//!   thread-local state the panic left half-done (triangle counting's marks, for one).
//! * Pinning is redone only when a thread's CPU changes between runs; an unpinned run restores
//!   the affinity the thread was born with.
//! * A process forked while threads were parked has none of them: the pool notices a new
//!   process id and forgets the parked list (Python's `multiprocessing` forks).

use crate::config::ExecConfig;
use crate::error::{ExecError, FirstPanic};
use crate::pin::{pin_current_thread, SavedAffinity};
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A parked pool thread: where its jobs go, and the CPU it is pinned to (`None`: its birth
/// affinity).
struct Parked {
    jobs: Sender<Job>,
    pinned: Option<usize>,
}

/// The parked threads of this process.
struct Idle {
    pid: u32,
    threads: Vec<Parked>,
}

static IDLE: Mutex<Idle> = Mutex::new(Idle {
    pid: 0,
    threads: Vec::new(),
});

thread_local! {
    /// A pool thread's affinity at birth, restored when an unpinned run reuses it.
    static BIRTH_AFFINITY: RefCell<Option<SavedAffinity>> = const { RefCell::new(None) };
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Up to `n` parked threads, and fresh ones for the rest.
fn take_threads(n: usize) -> Vec<Parked> {
    let mut idle = lock(&IDLE);
    let pid = std::process::id();
    if idle.pid != pid {
        // A forked child: the parked threads belong to the parent. Their senders are only
        // memory here; forgetting them touches nothing of the parent's.
        std::mem::forget(std::mem::take(&mut idle.threads));
        idle.pid = pid;
    }
    let keep = idle.threads.len().saturating_sub(n);
    let mut threads = idle.threads.split_off(keep);
    drop(idle);
    threads.resize_with(n, spawn_thread);
    threads
}

fn spawn_thread() -> Parked {
    let (jobs, inbox) = channel::<Job>();
    std::thread::Builder::new()
        .name("ordo-worker".into())
        .spawn(move || {
            BIRTH_AFFINITY.with(|a| *a.borrow_mut() = SavedAffinity::of_current_thread());
            // Ends when the pool drops the sender (a worker that panicked). After a job the
            // next is often close (`--repeat`, a benchmark's trials): spin for it first.
            loop {
                let mut next = None;
                spin_until(|| {
                    next = inbox.try_recv().ok();
                    next.is_some()
                });
                match next.map_or_else(|| inbox.recv().ok(), Some) {
                    Some(job) => job(),
                    None => break,
                }
            }
        })
        .expect("the OS starts a worker thread");
    Parked { jobs, pinned: None }
}

/// Counts the run's unfinished jobs; the caller waits for zero.
struct Latch {
    left: AtomicUsize,
    /// Taken by the last job before it notifies, so that a caller checking `left` under it
    /// and then waiting cannot miss the notification.
    lock: Mutex<()>,
    zero: Condvar,
}

impl Latch {
    fn new(jobs: usize) -> Self {
        Latch {
            left: AtomicUsize::new(jobs),
            lock: Mutex::new(()),
            zero: Condvar::new(),
        }
    }

    fn count_down(&self) {
        // Release: the job's writes (its result slot, its panic flag) happen before the
        // caller's Acquire load that sees zero. The decrements form one release sequence, so
        // that load orders every job's writes, not only the last one's.
        if self.left.fetch_sub(1, Ordering::Release) == 1 {
            let _held = lock(&self.lock);
            self.zero.notify_all();
        }
    }

    fn is_zero(&self) -> bool {
        self.left.load(Ordering::Acquire) == 0
    }

    fn wait(&self) {
        // The workers of a team end together (at its last collective), so the last job is
        // usually microseconds away: spin first, then sleep.
        if spin_until(|| self.is_zero()) {
            return;
        }
        let mut held = lock(&self.lock);
        while !self.is_zero() {
            held = self.zero.wait(held).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// How long a thread spins for an event expected soon before it sleeps: a sleeping thread
/// costs 30 µs or more to wake on a virtual machine (a futex wake and an idle vCPU).
const SPIN: Duration = Duration::from_micros(50);

/// Spins until `ready` or [`SPIN`] has passed, yielding the core now and then (a run with more
/// workers than cores must not starve the thread it waits for); true if `ready`.
fn spin_until(mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if ready() {
                return true;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() > SPIN {
            return ready();
        }
        std::thread::yield_now();
    }
}

/// Waits for the latch when dropped, so that even a caller unwinding from a panic does not
/// free what running jobs borrow.
struct WaitOnDrop(Arc<Latch>);

impl Drop for WaitOnDrop {
    fn drop(&mut self) {
        self.0.wait();
    }
}

/// Runs `work(w, input)` for each worker `w` and its input, worker 0 on the calling thread
/// and the others on pool threads, and returns the results in worker order with the wall time
/// from handing out the first job to the end of the last.
///
/// Worker `w` runs on the topology's `w`-th CPU when `cfg.pin` and there are enough CPUs (the
/// calling thread gets its affinity back afterwards). A worker that panics calls `on_panic`
/// (which must make the others stop, or a barrier wait forever) and leaves `R::default()`; the
/// first panic is returned as [`ExecError::OperatorPanicked`].
pub fn run_workers<D, R, W, P>(
    cfg: &ExecConfig,
    inputs: Vec<D>,
    work: W,
    on_panic: P,
) -> Result<(Vec<R>, Duration), ExecError>
where
    D: Send,
    R: Send + Default,
    W: Fn(usize, D) -> R + Sync,
    P: Fn() + Sync,
{
    let n = inputs.len();
    let pin = cfg.pin && n <= cfg.topology.num_cpus();
    let cpu_of = |w: usize| pin.then(|| cfg.topology.cpu_of(w).os_id).flatten();
    let failure = FirstPanic::default();
    let slots: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let panicked: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
    // Runs worker `w` on the current thread, catching its panic.
    let run_one = |w: usize, input: D| match catch_unwind(AssertUnwindSafe(|| work(w, input))) {
        Ok(r) => *lock(&slots[w]) = Some(r),
        Err(payload) => {
            on_panic();
            failure.record(w, payload.as_ref());
            // Relaxed: read by the caller after the latch, which orders it (`count_down`).
            panicked[w].store(true, Ordering::Relaxed);
        }
    };
    let mut inputs = inputs.into_iter();
    let Some(first) = inputs.next() else {
        return Ok((Vec::new(), Duration::ZERO));
    };
    let mut threads = take_threads(n - 1);
    let latch = Arc::new(Latch::new(n - 1));
    let start = Instant::now();
    let wait = WaitOnDrop(latch.clone());
    for (i, (input, thread)) in inputs.zip(&mut threads).enumerate() {
        let w = i + 1;
        let cpu = cpu_of(w);
        let repin = cpu != thread.pinned;
        thread.pinned = cpu;
        let (run_one, latch) = (&run_one, latch.clone());
        let job = move || {
            if repin {
                match cpu {
                    Some(cpu) => pin_current_thread(cpu),
                    None => {
                        BIRTH_AFFINITY.with(|a| a.borrow().as_ref().is_some_and(|a| a.restore()))
                    }
                };
            }
            run_one(w, input);
            // The last access to borrowed data: the caller may return once all are done.
            latch.count_down();
        };
        let job: Box<dyn FnOnce() + Send + '_> = Box::new(job);
        // SAFETY: the job borrows `run_one` and through it `work`, `on_panic`, `failure`,
        // `slots` and `panicked`, all of which outlive `wait`, whose drop (on return or unwind
        // alike) blocks until every job has counted the latch down after its last use of them
        // (module docs, Protocol). Every job runs: one the parked thread cannot take goes to a
        // fresh thread.
        let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
        if let Err(returned) = thread.jobs.send(job) {
            // Not expected: a parked thread ends only when the pool drops its sender. But the
            // SAFETY argument needs every job to run, so the job gets a fresh thread (whose
            // receiver is alive: it ends only when this sender is dropped).
            *thread = spawn_thread();
            let sent = thread.jobs.send(returned.0);
            sent.unwrap_or_else(|_| unreachable!("a fresh worker's channel is open"));
        }
    }
    // Worker 0: here, pinned for the run when asked.
    let saved = cpu_of(0).and_then(|cpu| {
        let saved = SavedAffinity::of_current_thread();
        pin_current_thread(cpu);
        saved
    });
    run_one(0, first);
    if let Some(saved) = saved {
        saved.restore();
    }
    drop(wait);
    let time = start.elapsed();
    // Park the threads again, except those whose worker panicked (their thread-local state
    // may be half-done): dropping the sender ends the thread.
    let healthy = threads
        .into_iter()
        .zip(&panicked[1..])
        .filter(|(_, p)| !p.load(Ordering::Relaxed))
        .map(|(t, _)| t);
    lock(&IDLE).threads.extend(healthy);
    failure.into_result()?;
    let results = slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .unwrap_or_default()
        })
        .collect();
    Ok((results, time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_reused_between_runs() {
        let cfg = ExecConfig::new(3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100 {
            let (ids, _) = run_workers(
                &cfg,
                vec![(); 3],
                |_, ()| Some(std::thread::current().id()),
                || {},
            )
            .unwrap();
            seen.extend(ids);
        }
        // 300 jobs; tests running beside this one take parked threads too, which makes the
        // pool grow by a few, never by a thread per job.
        assert!(seen.len() < 100, "{} threads for 300 jobs", seen.len());
    }

    #[test]
    fn runs_from_several_threads_at_once_each_get_their_workers() {
        std::thread::scope(|s| {
            for caller in 0..4u64 {
                s.spawn(move || {
                    for round in 0..50u64 {
                        let cfg = ExecConfig::new(3);
                        let inputs: Vec<u64> =
                            (0..3).map(|w| caller * 1000 + round * 10 + w).collect();
                        let (out, _) =
                            run_workers(&cfg, inputs.clone(), |_, x| x * 2, || {}).unwrap();
                        assert_eq!(out, inputs.iter().map(|x| x * 2).collect::<Vec<_>>());
                    }
                });
            }
        });
    }

    #[test]
    fn a_panicking_worker_is_reported_and_its_thread_retired() {
        let cfg = ExecConfig::new(2);
        let err = run_workers(
            &cfg,
            vec![0, 1],
            |w, _: i32| if w == 1 { panic!("worker one") } else { 7 },
            || {},
        )
        .unwrap_err();
        assert!(
            matches!(err, ExecError::OperatorPanicked { worker: 1, .. }),
            "{err:?}"
        );
        // The pool still runs jobs afterwards.
        let (out, _) = run_workers(&cfg, vec![1, 2], |_, x: i32| x + 1, || {}).unwrap();
        assert_eq!(out, vec![2, 3]);
    }
}

//! `for_each`: run an operator over a dynamic set of prioritized tasks on a pool of workers.

use crate::inbox::{Closed, Inbox, POLL_EVERY};
use crate::pin::pin_current_thread;
use crate::probe::{ticks, Breakdown, Probes, TaskProbe, WorkerProbe};
use crate::rank::RankTracker;
use crate::stats::{RunReport, ThreadStats};
use crate::termination::{Credit, Termination};
use ordo_sched::{Handle, Scheduler, Task, Topology};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How to run a `for_each`.
#[derive(Debug, Clone)]
pub struct ExecConfig {
    pub threads: usize,
    /// Pin worker `i` to the `i`-th CPU of the topology (only when threads <= CPUs).
    pub pin: bool,
    pub topology: Topology,
    /// Set from outside (e.g. on Ctrl-C) to stop the run early.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Instrumentation (off by default; then it costs a few predictable branches per task,
    /// measured in `src/README.md`).
    pub probes: Probes,
    /// Run the `threads` workers as logical workers interleaved deterministically on the
    /// calling thread (the simulation executor, `src/simulate.rs`), to measure work increase
    /// and rank error at worker counts this machine does not have.
    pub simulate: bool,
}

/// The most worker threads a front end lets a run ask for.
pub const MAX_THREADS: usize = 4096;

/// The cores of this machine (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The default worker count: every core, but at most `max_workers` where the scheduler is
/// limited (the serial scheduler runs one).
pub fn default_threads(max_workers: Option<usize>) -> usize {
    max_workers.map_or(cores(), |m| m.min(cores()))
}

impl ExecConfig {
    /// `threads` pinned workers on this machine's topology, uninstrumented.
    pub fn new(threads: usize) -> Self {
        Self::with_topology(threads, Topology::detect())
    }

    /// `threads` pinned workers on `topology`, uninstrumented.
    pub fn with_topology(threads: usize, topology: Topology) -> Self {
        ExecConfig {
            threads,
            pin: true,
            topology,
            cancel: None,
            probes: Probes::default(),
            simulate: false,
        }
    }
}

/// Why a run did not complete.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("the operator panicked on worker {worker}: {message}")]
    OperatorPanicked { worker: usize, message: String },
    #[error("the run was cancelled after {} tasks", .0.total.tasks)]
    Cancelled(Box<RunReport>),
    #[error("{0}")]
    Stuck(String),
    #[error("scheduler built for {scheduler} workers but {requested} threads requested")]
    WorkerMismatch { scheduler: usize, requested: usize },
}

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
    /// the handle are direct, not through a closure, which LLVM left out of line: 12% more
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

    /// Adds `n` to application counter `i` (< [`crate::APP_COUNTERS`]).
    #[inline]
    pub fn count(&mut self, i: usize, n: u64) {
        self.stats.app[i] += n;
    }

    /// The index of the running worker (0..threads).
    #[inline]
    pub fn worker(&self) -> usize {
        self.worker
    }
}

/// Runs `op` on every task, starting from `initial`, until no task is left anywhere.
///
/// Tasks pushed through the [`Context`] run later on some worker; the run ends when every task
/// ran (see the termination protocol in `src/README.md`). A panic in `op` ends the run on every
/// worker and returns [`ExecError::OperatorPanicked`]; it never hangs.
///
/// ```
/// use ordo_exec::{for_each, ExecConfig};
/// use ordo_sched::{obim::{Obim, ObimConfig}, Topology};
/// use std::sync::atomic::{AtomicU64, Ordering};
/// let sum = AtomicU64::new(0);
/// let cfg = ExecConfig::new(2);
/// let sched: Obim<u64> = Obim::new(&ObimConfig::default(), 2, &cfg.topology);
/// // Each task k < 100 spawns k + 1: tasks 0..=100 run once each.
/// let report = for_each(&sched, [(0u64, 0)], &cfg, |k, ctx| {
///     sum.fetch_add(k, Ordering::Relaxed);
///     if k < 100 { ctx.push(k + 1, k + 1); }
/// }).unwrap();
/// assert_eq!(sum.into_inner(), 5050);
/// assert_eq!(report.total.tasks, 101);
/// ```
pub fn for_each<'s, T, S, I, F>(
    sched: &'s S,
    initial: I,
    cfg: &ExecConfig,
    op: F,
) -> Result<RunReport, ExecError>
where
    T: Task,
    S: Scheduler<T>,
    I: IntoIterator<Item = (T, u64)>,
    F: Fn(T, &mut Context<'_, T, S::Handle<'s>>) + Sync,
{
    run_pool(sched, initial, cfg, &Closed, None, op)
}

/// [`for_each`] for a run that spans processes: tasks also arrive through `inbox`, and the run
/// ends when the inbox says the whole job is over (see [`crate::inbox`]).
///
/// `term` must be fresh, made with [`Termination::new`] of exactly the number of `initial`
/// tasks, so that the caller can watch this process's token count (G = 0: nothing runs or is
/// buffered here) while the run goes on. The simulation executor does not take an inbox.
pub fn for_each_open<'s, T, S, I, X, F>(
    sched: &'s S,
    initial: I,
    cfg: &ExecConfig,
    inbox: &X,
    term: &Termination,
    op: F,
) -> Result<RunReport, ExecError>
where
    T: Task,
    S: Scheduler<T>,
    I: IntoIterator<Item = (T, u64)>,
    X: Inbox<T>,
    F: Fn(T, &mut Context<'_, T, S::Handle<'s>>) + Sync,
{
    if cfg.simulate {
        return Err(ExecError::Stuck(
            "the simulation executor cannot run a multi-process job".into(),
        ));
    }
    run_pool(sched, initial, cfg, inbox, Some(term), op)
}

fn run_pool<'s, T, S, I, X, F>(
    sched: &'s S,
    initial: I,
    cfg: &ExecConfig,
    inbox: &X,
    given_term: Option<&Termination>,
    op: F,
) -> Result<RunReport, ExecError>
where
    T: Task,
    S: Scheduler<T>,
    I: IntoIterator<Item = (T, u64)>,
    X: Inbox<T>,
    F: Fn(T, &mut Context<'_, T, S::Handle<'s>>) + Sync,
{
    let threads = cfg.threads;
    if sched.workers() != threads {
        return Err(ExecError::WorkerMismatch {
            scheduler: sched.workers(),
            requested: threads,
        });
    }
    if cfg.simulate {
        return crate::simulate::run(sched, initial, cfg, op);
    }
    let shares = deal(initial, threads);
    let count = shares.iter().map(|s| s.len() as u64).sum();
    let own_term;
    let term = match given_term {
        Some(t) => {
            assert_eq!(
                t.outstanding(),
                count,
                "for_each_open: the Termination must start with one token per initial task"
            );
            t
        }
        None => {
            own_term = Termination::new(count);
            &own_term
        }
    };
    let stop = AtomicBool::new(false);
    let failure = FirstPanic::default();
    let cancel = cfg.cancel.clone();
    let cpus = cfg.topology.num_cpus();
    let pin = cfg.pin && threads <= cpus;
    let oversubscribed = threads > cores();
    let probed = cfg.probes.any();
    let ranks = cfg.probes.rank.then(|| {
        let t = RankTracker::default();
        t.seed(shares.iter().flatten().map(|&(_, p)| p));
        Arc::new(t)
    });
    let start = Instant::now();

    let per_thread: Vec<(ThreadStats, WorkerProbe)> = std::thread::scope(|scope| {
        let workers: Vec<_> = shares
            .into_iter()
            .enumerate()
            .map(|(w, share)| {
                let (stop, failure, op, cancel) = (&stop, &failure, &op, &cancel);
                let ranks = &ranks;
                let cpu = cfg.topology.cpu_of(w).os_id;
                scope.spawn(move || {
                    if let (true, Some(cpu)) = (pin, cpu) {
                        pin_current_thread(cpu);
                    }
                    let mut stats = ThreadStats::default();
                    let mut probe = WorkerProbe::default();
                    let run = catch_unwind(AssertUnwindSafe(|| {
                        let env = WorkerEnv {
                            term,
                            stop,
                            cancel: cancel.as_deref(),
                            oversubscribed,
                            trace: cfg.probes.trace,
                            ranks: ranks.clone(),
                            start,
                        };
                        worker_loop(
                            sched, w, share, &env, inbox, op, &mut stats, &mut probe, probed,
                        )
                    }));
                    if let Err(payload) = run {
                        stop.store(true, Ordering::Relaxed);
                        failure.record(w, payload.as_ref());
                    }
                    (stats, probe)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let time = start.elapsed();

    failure.into_result()?;
    let (per_thread, probes): (Vec<ThreadStats>, Vec<WorkerProbe>) = per_thread.into_iter().unzip();
    let report = RunReport {
        scheduler: sched.counters(),
        events: sched.events(),
        rank: ranks
            .and_then(|r| Arc::try_unwrap(r).ok())
            .map(RankTracker::into_samples),
        ..RunReport::from_threads(time, per_thread).with_probes(&cfg.probes, probes)
    };
    if !term.is_terminated() {
        return Err(ExecError::Cancelled(Box::new(report)));
    }
    Ok(report)
}

/// Deals the initial tasks round-robin; worker `w` pushes its own share.
pub(crate) fn deal<T, I: IntoIterator<Item = (T, u64)>>(
    initial: I,
    threads: usize,
) -> Vec<Vec<(T, u64)>> {
    let mut shares: Vec<Vec<(T, u64)>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, t) in initial.into_iter().enumerate() {
        shares[i % threads].push(t);
    }
    shares
}

struct WorkerEnv<'a> {
    term: &'a Termination,
    stop: &'a AtomicBool,
    cancel: Option<&'a AtomicBool>,
    oversubscribed: bool,
    trace: bool,
    ranks: Option<Arc<RankTracker>>,
    start: Instant,
}

impl WorkerEnv<'_> {
    #[inline]
    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// One worker's loop. `probed` is a run-time flag, not a const parameter: the operator must
/// have one call site per instantiation for LLVM to inline it into the loop, and a second,
/// instrumented copy of the loop made SSSP run 19% more instructions with probes off (the
/// operator was no longer inlined). The flag costs a few predictable branches per task
/// (measured in `src/README.md`, "Instrumentation").
#[allow(clippy::too_many_arguments)]
fn worker_loop<'s, T, S, X, F>(
    sched: &'s S,
    w: usize,
    share: Vec<(T, u64)>,
    env: &WorkerEnv<'_>,
    inbox: &X,
    op: &F,
    stats: &mut ThreadStats,
    probe: &mut WorkerProbe,
    probed: bool,
) where
    T: Task,
    S: Scheduler<T>,
    X: Inbox<T>,
    F: Fn(T, &mut Context<'_, T, S::Handle<'s>>) + Sync,
{
    let loop_start = if probed { ticks() } else { 0 };
    let term = env.term;
    let mut handle = sched.handle(w);
    let mut credit = Credit::preassigned(share.len() as u64);
    for (t, p) in share {
        term.on_push(&mut credit);
        stats.pushes += 1;
        handle.push(t, p);
    }
    let mut task_probe = TaskProbe {
        rank: env.ranks.clone(),
        ..TaskProbe::default()
    };
    let mut idle_rounds: u32 = 0;
    loop {
        if X::OPEN && open_poll(inbox, w, &mut handle, &mut credit, term, stats) {
            continue;
        }
        let t0 = if probed { ticks() } else { 0 };
        if let Some(task) = handle.pop() {
            idle_rounds = 0;
            stats.pops += 1;
            let t1 = if probed { ticks() } else { 0 };
            if probed {
                task_probe.reset();
            }
            let mut ctx = Context {
                handle: &mut handle,
                credit: &mut credit,
                term,
                stats,
                worker: w,
                probe: if probed { Some(&mut task_probe) } else { None },
                _task: std::marker::PhantomData,
            };
            op(task, &mut ctx);
            if probed {
                account_task(probe, &task_probe, t0, t1, env);
            }
            stats.tasks += 1;
            term.on_done(&mut credit);
            if stats.tasks.is_multiple_of(256) && env.should_stop() {
                break;
            }
            continue;
        }
        stats.empty_pops += 1;
        handle.flush();
        if X::OPEN {
            if drain(inbox, w, &mut handle, &mut credit, term, stats) > 0 {
                continue;
            }
            inbox.on_idle(w);
        }
        term.release(&mut credit);
        if (term.is_terminated() && inbox.finished()) || env.should_stop() {
            if probed {
                account_failed_pop(&mut probe.breakdown, t0);
            }
            break;
        }
        idle_rounds = idle_rounds.saturating_add(1);
        back_off(idle_rounds, env.oversubscribed);
        if probed {
            account_failed_pop(&mut probe.breakdown, t0);
        }
    }
    if probed {
        let b = &mut probe.breakdown;
        b.other = ticks()
            .wrapping_sub(loop_start)
            .saturating_sub(b.gwork + b.uwork + b.enq + b.deq + b.fdeq);
    }
}

/// An open run's work between tasks: every [`POLL_EVERY`] tasks, drain the inbox and let it
/// flush by age; while the inbox reports back-pressure (checked before every task, one
/// relaxed load), drain and wait instead of running tasks. True when the worker should go
/// round again without popping.
#[inline]
fn open_poll<T: Task, H: Handle<T>, X: Inbox<T>>(
    inbox: &X,
    w: usize,
    handle: &mut H,
    credit: &mut Credit,
    term: &Termination,
    stats: &mut ThreadStats,
) -> bool {
    if inbox.congested() {
        drain(inbox, w, handle, credit, term, stats);
        // Hand over what this worker buffered, or the congestion may be its own.
        inbox.on_idle(w);
        back_off(8, true);
        return true;
    }
    // `pops` moves only when a task runs, so an idle worker polls every round.
    if stats.pops.is_multiple_of(POLL_EVERY) {
        drain(inbox, w, handle, credit, term, stats);
        inbox.on_poll(w);
    }
    false
}

/// Moves the inbox's arrived tasks into this worker's scheduler handle, with their tokens.
#[inline]
fn drain<T: Task, H: Handle<T>, X: Inbox<T>>(
    inbox: &X,
    w: usize,
    handle: &mut H,
    credit: &mut Credit,
    term: &Termination,
    stats: &mut ThreadStats,
) -> usize {
    let mut pushes = 0;
    let taken = inbox.drain(w, &mut |t, p| {
        term.on_push(credit);
        pushes += 1;
        handle.push(t, p);
    });
    stats.pushes += pushes;
    taken
}

/// Accounts a task popped at `t0`..`t1` whose operator just returned.
#[inline]
fn account_task(probe: &mut WorkerProbe, task: &TaskProbe, t0: u64, t1: u64, env: &WorkerEnv) {
    let t2 = ticks();
    let b: &mut Breakdown = &mut probe.breakdown;
    b.deq += t1.wrapping_sub(t0);
    b.deqs += 1;
    b.enq += task.enq;
    b.enqs += task.enqs;
    let work = t2.wrapping_sub(t1).saturating_sub(task.enq);
    if task.useless {
        b.uwork += work;
    } else {
        b.gwork += work;
    }
    if env.trace {
        if let Some(p) = task.priority {
            probe.trace.offer(env.start.elapsed().as_nanos() as u64, p);
        }
    }
}

#[inline]
fn account_failed_pop(b: &mut Breakdown, t0: u64) {
    b.fdeq += ticks().wrapping_sub(t0);
    b.fdeqs += 1;
}

/// Idle waiting: spin briefly, then yield; when there are more workers than cores, sleep a
/// little so idle workers do not steal the cores the busy ones need.
#[cold]
fn back_off(round: u32, oversubscribed: bool) {
    if round < 32 {
        for _ in 0..(1 << round.min(6)) {
            std::hint::spin_loop();
        }
    } else if !oversubscribed || round < 64 {
        std::thread::yield_now();
    } else {
        std::thread::sleep(Duration::from_micros(50));
    }
}

/// The first panic among a run's workers (later ones are consequences and dropped), for
/// runtimes that catch a worker's panic and report it as [`ExecError::OperatorPanicked`].
#[derive(Debug, Default)]
pub struct FirstPanic(Mutex<Option<(usize, String)>>);

impl FirstPanic {
    /// Records `worker`'s panic unless another was recorded first.
    pub fn record(&self, worker: usize, payload: &(dyn std::any::Any + Send)) {
        // A poisoned lock still holds a valid Option: take it.
        let mut first = self.0.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert_with(|| (worker, panic_message(payload)));
    }

    /// `Err(OperatorPanicked)` if a panic was recorded.
    pub fn into_result(self) -> Result<(), ExecError> {
        match self.0.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some((worker, message)) => Err(ExecError::OperatorPanicked { worker, message }),
            None => Ok(()),
        }
    }
}

/// The text of a caught panic's payload (for runtimes that catch a worker's panic and report
/// it, as [`for_each`] does).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

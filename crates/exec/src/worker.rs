//! One worker's loop: pop, run the operator, account, and wait when idle (the termination
//! protocol is in `src/README.md`).

use crate::context::Context;
use crate::inbox::{Inbox, POLL_EVERY};
use crate::probe::{ticks, Breakdown, TaskProbe, WorkerProbe};
use crate::rank::RankTracker;
use crate::stats::ThreadStats;
use crate::termination::{Credit, Termination};
use ordo_sched::{Handle, Scheduler, Task};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

pub(crate) struct WorkerEnv<'a> {
    pub(crate) term: &'a Termination,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) cancel: Option<&'a AtomicBool>,
    pub(crate) oversubscribed: bool,
    pub(crate) trace: bool,
    pub(crate) ranks: Option<Arc<RankTracker>>,
    pub(crate) start: Instant,
}

impl WorkerEnv<'_> {
    #[inline]
    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// One worker's loop. `probed` is a run-time flag, not a const parameter: the operator must
/// have one call site per instantiation for LLVM to inline it into the loop, and a second,
/// instrumented copy of the loop measured 19% more instructions in SSSP with probes off (the
/// operator is then not inlined). The flag costs a few predictable branches per task
/// (measured in `docs/measurement.md`, "What the probes cost when off").
#[allow(clippy::too_many_arguments)]
pub(crate) fn worker_loop<'s, T, S, X, F>(
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
    // Tasks run by this loop, in a register rather than in `stats` (which the operator's
    // pushes write through the context): every pop runs a task, so they are also the pops.
    let mut tasks: u64 = 0;
    // One context for the whole loop: building it per task cost seven stores a task.
    let mut ctx = Context {
        handle: &mut handle,
        credit: &mut credit,
        term,
        stats,
        worker: w,
        probe: if probed { Some(&mut task_probe) } else { None },
        _task: std::marker::PhantomData,
    };
    loop {
        if X::OPEN && open_poll(inbox, w, tasks, &mut ctx) {
            continue;
        }
        let t0 = if probed { ticks() } else { 0 };
        if let Some(first) = ctx.handle.pop() {
            idle_rounds = 0;
            // The tasks the handle holds at hand (`pop_fast`) run in this inner loop and are
            // accounted once: their tokens become spares at its end (README.md, step 3). An
            // instrumented run times each pop, and an open run polls its inbox between
            // tasks, so they run one task a round: the probe's work sits outside the loop,
            // which then runs once. One call site of `op`, so it is inlined.
            let before = tasks;
            let mut task = first;
            let t1 = if probed { ticks() } else { 0 };
            if let Some(p) = ctx.probe.as_deref_mut() {
                p.reset();
            }
            loop {
                op(task, &mut ctx);
                tasks += 1;
                if probed || X::OPEN {
                    break;
                }
                match ctx.handle.pop_fast() {
                    Some(t) => task = t,
                    None => break,
                }
            }
            if let Some(p) = ctx.probe.as_deref() {
                account_task(probe, p, t0, t1, env);
            }
            term.on_done_many(ctx.credit, tasks - before);
            if tasks / 256 != before / 256 {
                term.trim(ctx.credit);
                if env.should_stop() {
                    break;
                }
            }
            continue;
        }
        ctx.stats.empty_pops += 1;
        ctx.handle.flush();
        if X::OPEN {
            if drain(inbox, w, &mut ctx) > 0 {
                continue;
            }
            inbox.on_idle(w);
        }
        term.release(ctx.credit);
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
    ctx.stats.tasks += tasks;
    ctx.stats.pops += tasks;
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
    tasks: u64,
    ctx: &mut Context<'_, T, H>,
) -> bool {
    if inbox.congested() {
        drain(inbox, w, ctx);
        // Hand over what this worker buffered, or the congestion may be its own.
        inbox.on_idle(w);
        // Give the core to whoever must drain or send: spinning here starves them when ranks
        // outnumber cores.
        std::thread::yield_now();
        return true;
    }
    // `tasks` moves only when a task runs, so an idle worker polls every round.
    if tasks.is_multiple_of(POLL_EVERY) {
        drain(inbox, w, ctx);
        inbox.on_poll(w);
    }
    false
}

/// Moves the inbox's arrived tasks into this worker's scheduler handle, with their tokens.
#[inline]
fn drain<T: Task, H: Handle<T>, X: Inbox<T>>(
    inbox: &X,
    w: usize,
    ctx: &mut Context<'_, T, H>,
) -> usize {
    let mut pushes = 0;
    let (term, credit, handle) = (ctx.term, &mut *ctx.credit, &mut *ctx.handle);
    let taken = inbox.drain(w, &mut |t, p| {
        term.on_push(credit);
        pushes += 1;
        handle.push(t, p);
    });
    ctx.stats.pushes += pushes;
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

//! The simulation executor: `P` logical workers interleaved deterministically on the calling
//! thread, over the real scheduler code, to measure what relaxation costs in *work* at worker
//! counts a small machine does not have (docs/design.md, "Measurement").
//!
//! # What it models
//!
//! Each round, workers `0..P` take one step in turn: a worker pops from its own handle and
//! runs the operator on the task (its pushes go through its own handle), or, finding nothing,
//! flushes its buffers, exactly as the threaded loop does. So the simulation reproduces the
//! scheduler's *ordering and visibility*: tasks buffered in a worker's chunk (obim, PMOD) or
//! insert buffer (MultiQueue batching) stay invisible to the others until pushed out, each
//! worker's local heap (SMQ, RELD) serves its owner first, the randomized choices follow the
//! schedulers' own per-worker generators, and P tasks are "in flight" per round, as with P
//! threads running in lockstep. Runs are deterministic: the same inputs give the same counts.
//!
//! # What it does not model
//!
//! Time. There is no contention, no cache miss, no lock wait, and no difference in speed
//! between operations or workers: every step takes one unit. Tasks that a real run would
//! process concurrently with a *partial* update of another (torn interleavings inside an
//! operator) do not happen, since each operator call runs to completion. So it measures work
//! increase and rank error, never speedup.
//!
//! # Rank error
//!
//! The operator tells the executor each task's priority ([`Context::task_priority`]); the
//! simulation keeps the multiset of pending priorities and, for sampled pops, records the
//! *rank error*: how many pending tasks had a strictly smaller (better) priority than the one
//! popped. The exact serial scheduler has rank error 0 everywhere.
//!
//! [`Context::task_priority`]: crate::Context::task_priority

use crate::config::ExecConfig;
use crate::context::Context;
use crate::error::ExecError;
use crate::probe::TaskProbe;
use crate::rank::RankTracker;
use crate::stats::{RunReport, Simulation, ThreadStats};
use crate::termination::{Credit, Termination};
use crate::worker::deal;
use ordo_sched::{Handle, Scheduler, Task};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Consecutive rounds in which every worker fails to pop, with tasks still outstanding, after
/// which the scheduler is declared stuck (a lost or permanently invisible task).
const STUCK_ROUNDS: u64 = 1024;

/// Runs `op` on `cfg.threads` logical workers; see the module documentation.
pub(crate) fn run<'s, T, S, I, F>(
    sched: &'s S,
    initial: I,
    cfg: &ExecConfig,
    op: F,
) -> Result<RunReport, ExecError>
where
    T: Task,
    S: Scheduler<T>,
    I: IntoIterator<Item = (T, u64)>,
    F: Fn(T, &mut Context<'_, T, S::Handle<'s>>),
{
    let p = cfg.threads;
    let shares = deal(initial, p);
    let count = shares.iter().map(|s| s.len() as u64).sum();
    let term = Termination::new(count);
    let start = Instant::now();
    let mut stats = vec![ThreadStats::default(); p];
    let mut credits: Vec<Credit> = Vec::with_capacity(p);
    let mut handles: Vec<S::Handle<'s>> = Vec::with_capacity(p);
    // The same bookkeeping as a threaded run's `Probes::rank`; uncontended here, and exact,
    // since nothing happens between a pop and its operator's priority report.
    let ranks = Arc::new(RankTracker::default());
    ranks.seed(shares.iter().flatten().map(|&(_, prio)| prio));
    for (w, share) in shares.into_iter().enumerate() {
        let mut h = sched.handle(w);
        let mut credit = Credit::preassigned(share.len() as u64);
        for (t, prio) in share {
            term.on_push(&mut credit);
            stats[w].pushes += 1;
            h.push(t, prio);
        }
        handles.push(h);
        credits.push(credit);
    }
    let mut sim = Simulation {
        workers: p,
        ..Simulation::default()
    };
    let mut probe = TaskProbe {
        rank: Some(ranks.clone()),
        ..TaskProbe::default()
    };
    let mut idle_rounds = 0u64;
    let mut step = 0u64;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        while !term.is_terminated() {
            // Relaxed: a stop request, polled; it orders nothing else (as in the threaded loop).
            if cfg
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                return Ok(false);
            }
            let mut progressed = false;
            for w in 0..p {
                step += 1;
                let Some(task) = handles[w].pop() else {
                    stats[w].empty_pops += 1;
                    handles[w].flush();
                    term.release(&mut credits[w]);
                    continue;
                };
                progressed = true;
                stats[w].pops += 1;
                probe.reset();
                let mut ctx = Context {
                    handle: &mut handles[w],
                    credit: &mut credits[w],
                    term: &term,
                    stats: &mut stats[w],
                    worker: w,
                    probe: Some(&mut probe),
                    _task: std::marker::PhantomData,
                };
                op(task, &mut ctx);
                stats[w].tasks += 1;
                term.on_done(&mut credits[w]);
                term.trim(&mut credits[w]);
            }
            sim.rounds += 1;
            idle_rounds = if progressed { 0 } else { idle_rounds + 1 };
            if idle_rounds >= STUCK_ROUNDS {
                return Err(format!(
                    "simulation stuck: {} tasks outstanding but no worker of {p} found one in \
                     {STUCK_ROUNDS} rounds (a scheduler lost or hid a task)",
                    term.outstanding()
                ));
            }
        }
        Ok(true)
    }));
    drop(handles);
    drop(probe);
    sim.rank = Arc::try_unwrap(ranks)
        .map(RankTracker::into_samples)
        .unwrap_or_default();
    let done = match outcome {
        Ok(Ok(done)) => done,
        Ok(Err(message)) => return Err(ExecError::Stuck(message)),
        Err(payload) => {
            return Err(ExecError::OperatorPanicked {
                worker: (step.saturating_sub(1) % p as u64) as usize,
                message: crate::panic_message(payload.as_ref()),
            })
        }
    };
    let report = RunReport {
        scheduler: sched.counters(),
        events: sched.events(),
        simulation: Some(sim),
        ..RunReport::from_threads(start.elapsed(), stats)
    };
    if !done {
        return Err(ExecError::Cancelled(Box::new(report)));
    }
    Ok(report)
}

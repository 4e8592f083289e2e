//! `for_each`: run an operator over a dynamic set of prioritized tasks on a pool of workers.

use crate::config::{cores, ExecConfig};
use crate::context::Context;
use crate::error::ExecError;
use crate::inbox::{Closed, Inbox};
use crate::pool::run_workers;
use crate::probe::WorkerProbe;
use crate::rank::RankTracker;
use crate::stats::{RunReport, ThreadStats};
use crate::termination::Termination;
use crate::worker::{deal, worker_loop, WorkerEnv};
use ordo_sched::{Scheduler, Task};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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
    let cancel = cfg.cancel.clone();
    let oversubscribed = threads > cores();
    let probed = cfg.probes.any();
    let ranks = cfg.probes.rank.then(|| {
        let t = RankTracker::default();
        t.seed(shares.iter().flatten().map(|&(_, p)| p));
        Arc::new(t)
    });
    let start = Instant::now();
    let (per_thread, time) = run_workers(
        cfg,
        shares,
        |w, share| {
            let mut stats = ThreadStats::default();
            let mut probe = WorkerProbe::default();
            let env = WorkerEnv {
                term,
                stop: &stop,
                cancel: cancel.as_deref(),
                oversubscribed,
                trace: cfg.probes.trace,
                ranks: ranks.clone(),
                start,
            };
            worker_loop(
                sched, w, share, &env, inbox, &op, &mut stats, &mut probe, probed,
            );
            (stats, probe)
        },
        || stop.store(true, Ordering::Relaxed),
    )?;
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

//! The executor over every scheduler: every task runs exactly once, termination is exact,
//! panics end the run with an error (never a hang), cancellation stops it.

use ordo_exec::{for_each, ExecConfig, ExecError, RunReport};
use ordo_sched::{Scheduler, SchedulerConfig, SchedulerVisitor, Topology};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;

const N: u64 = 100_000;

/// Task k spawns 2k+1 and 2k+2 below N; every id in 0..N must run exactly once.
struct Tree<'a> {
    cfg: &'a ExecConfig,
}

impl SchedulerVisitor<u64> for Tree<'_> {
    type Output = RunReport;
    fn visit<S: Scheduler<u64>>(self, s: &S) -> RunReport {
        let seen: Vec<AtomicU8> = (0..N).map(|_| AtomicU8::new(0)).collect();
        let report = for_each(s, [(0u64, 0u64)], self.cfg, |k, ctx| {
            assert_eq!(
                seen[k as usize].fetch_add(1, Ordering::Relaxed),
                0,
                "task {k} twice"
            );
            for c in [2 * k + 1, 2 * k + 2] {
                if c < N {
                    ctx.push(c, c.ilog2() as u64);
                }
            }
            ctx.count(0, 1);
        })
        .unwrap();
        assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));
        report
    }
}

fn exec(threads: usize, topo: Topology) -> ExecConfig {
    ExecConfig::with_topology(threads, topo)
}

#[test]
fn every_task_runs_once_on_every_scheduler() {
    for (name, max) in [("serial", 1), ("fifo", 8), ("lifo", 8), ("obim", 8)] {
        for topo in [Topology::detect(), Topology::synthetic(2, 4)] {
            for threads in [1, 2, 8].into_iter().filter(|&t| t <= max) {
                let cfg = exec(threads, topo.clone());
                let s = SchedulerConfig::parse(name, &[]).unwrap();
                let r = s.with(threads, &cfg.topology, Tree { cfg: &cfg }).unwrap();
                assert_eq!(r.total.tasks, N, "{name} x{threads}");
                assert_eq!(r.total.pushes, N);
                assert_eq!(r.total.app[0], N);
                assert_eq!(r.per_thread.len(), threads);
                assert_eq!(r.per_thread.iter().map(|t| t.tasks).sum::<u64>(), N);
            }
        }
    }
}

#[test]
fn many_initial_tasks_and_no_tasks() {
    let cfg = exec(4, Topology::detect());
    let s: ordo_sched::obim::Obim<u32> =
        ordo_sched::obim::Obim::new(&Default::default(), 4, &cfg.topology);
    let r = for_each(
        &s,
        (0..10_000u32).map(|i| (i, i as u64 % 17)),
        &cfg,
        |_, _| {},
    )
    .unwrap();
    assert_eq!(r.total.tasks, 10_000);
    let s: ordo_sched::obim::Obim<u32> =
        ordo_sched::obim::Obim::new(&Default::default(), 4, &cfg.topology);
    let r = for_each(&s, std::iter::empty(), &cfg, |_, _| {}).unwrap();
    assert_eq!(r.total.tasks, 0);
}

#[test]
fn a_panicking_operator_ends_the_run_with_an_error() {
    for threads in [1, 2, 8] {
        let cfg = exec(threads, Topology::detect());
        let s: ordo_sched::obim::Obim<u64> =
            ordo_sched::obim::Obim::new(&Default::default(), threads, &cfg.topology);
        let err = for_each(&s, [(0u64, 0u64)], &cfg, |k, ctx| {
            if k == 5000 {
                panic!("boom at {k}");
            }
            ctx.push(k + 1, k + 1);
            ctx.push(k + 100_000_000, k);
        })
        .unwrap_err();
        match err {
            ExecError::OperatorPanicked { message, .. } => assert_eq!(message, "boom at 5000"),
            other => panic!("unexpected {other}"),
        }
    }
}

#[test]
fn cancellation_stops_an_endless_run() {
    let flag = Arc::new(AtomicBool::new(false));
    let mut cfg = exec(2, Topology::detect());
    cfg.cancel = Some(flag.clone());
    let s: ordo_sched::obim::Obim<u64> =
        ordo_sched::obim::Obim::new(&Default::default(), 2, &cfg.topology);
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
    });
    // Every task spawns another forever.
    let err = for_each(&s, [(0u64, 0u64)], &cfg, |k, ctx| ctx.push(k + 1, k + 1)).unwrap_err();
    setter.join().unwrap();
    assert!(matches!(err, ExecError::Cancelled(r) if r.total.tasks > 0));
}

#[test]
fn worker_count_must_match_the_scheduler() {
    let cfg = exec(3, Topology::detect());
    let s: ordo_sched::obim::Obim<u64> =
        ordo_sched::obim::Obim::new(&Default::default(), 2, &cfg.topology);
    assert!(matches!(
        for_each(&s, [(0u64, 0)], &cfg, |_, _| {}),
        Err(ExecError::WorkerMismatch { .. })
    ));
}

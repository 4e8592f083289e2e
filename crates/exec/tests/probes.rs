//! Instrumentation and the simulation executor: the breakdown accounts every task and push,
//! marked work lands in `uwork`, traces stay bounded, simulations are deterministic and exact
//! where they must be, and a scheduler that hides a task ends a simulation with an error.

use ordo_exec::probe::TRACE_SAMPLES;
use ordo_exec::{for_each, ExecConfig, ExecError, Probes, RunReport, Trace};
use ordo_sched::{Handle, Scheduler, SchedulerConfig, SchedulerVisitor, Topology};
use std::sync::atomic::{AtomicU8, Ordering};

const N: u64 = 50_000;

/// Task k spawns 2k+1 and 2k+2 below N at priority k / 64 (one task per priority would make
/// obim scan thousands of one-task bags per pop, its known worst case), marking odd tasks as
/// useless work and reporting each task's priority.
struct Tree<'a> {
    cfg: &'a ExecConfig,
}

impl SchedulerVisitor<u64> for Tree<'_> {
    type Output = Result<RunReport, ExecError>;
    fn visit<S: Scheduler<u64>>(self, s: &S) -> Self::Output {
        let seen: Vec<AtomicU8> = (0..N).map(|_| AtomicU8::new(0)).collect();
        let r = for_each(s, [(0u64, 0u64)], self.cfg, |k, ctx| {
            assert_eq!(seen[k as usize].fetch_add(1, Ordering::Relaxed), 0);
            ctx.task_priority(k >> 6);
            if k % 2 == 1 {
                ctx.useless();
            }
            for c in [2 * k + 1, 2 * k + 2] {
                if c < N {
                    ctx.push(c, c >> 6);
                }
            }
        })?;
        assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));
        Ok(r)
    }
}

fn run(name: &str, cfg: &ExecConfig) -> Result<RunReport, ExecError> {
    let s = SchedulerConfig::parse(name, &[]).unwrap();
    s.with(cfg.threads, &cfg.topology, Tree { cfg }).unwrap()
}

fn probed(threads: usize, breakdown: bool, trace: bool) -> ExecConfig {
    ExecConfig {
        probes: Probes {
            breakdown,
            trace,
            ..Probes::default()
        },
        ..ExecConfig::with_topology(threads, Topology::detect())
    }
}

#[test]
fn breakdown_accounts_every_task_and_push() {
    for name in ["obim", "pmod", "smq", "mq", "heap"] {
        for threads in [1, 4] {
            let r = run(name, &probed(threads, true, false)).unwrap();
            let b = r.breakdown.expect("breakdown requested");
            assert_eq!(b.deqs, N, "{name} x{threads}");
            assert_eq!(b.enqs, N - 1, "{name}: every operator push is timed");
            assert_eq!(b.fdeqs, r.total.empty_pops);
            let sum: f64 = b.fractions().iter().map(|(_, f)| f).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{name}: fractions sum to {sum}");
            assert!(
                b.gwork > 0 && b.uwork > 0,
                "{name}: half the tasks are useless"
            );
            assert!(b.cycles_per_enq() > 0.0 && b.cycles_per_deq() > 0.0);
            assert!(r.traces.is_empty(), "no trace was asked for");
        }
    }
}

#[test]
fn no_probe_no_measurement() {
    let r = run("obim", &probed(2, false, false)).unwrap();
    assert!(r.breakdown.is_none() && r.traces.is_empty() && r.simulation.is_none());
}

#[test]
fn traces_are_bounded_and_ordered() {
    let r = run("obim", &probed(3, false, true)).unwrap();
    assert_eq!(r.traces.len(), 3);
    let total: usize = r.traces.iter().map(|t| t.samples.len()).sum();
    assert!(total > 0);
    for t in &r.traces {
        assert!(t.samples.len() <= TRACE_SAMPLES);
        assert!(t.samples.windows(2).all(|w| w[0].0 <= w[1].0), "time order");
    }
}

#[test]
fn trace_keeps_an_even_sample_of_any_length() {
    let mut t = Trace::default();
    for i in 0..1_000_000u64 {
        t.offer(i, i);
    }
    assert!(t.samples.len() > TRACE_SAMPLES / 2 && t.samples.len() <= TRACE_SAMPLES);
    let stride = t.samples[1].0 - t.samples[0].0;
    assert!(stride.is_power_of_two());
    assert!(t.samples.windows(2).all(|w| w[1].0 - w[0].0 == stride));
    assert_eq!(t.samples[0], (0, 0));
}

fn simulated(p: usize) -> ExecConfig {
    ExecConfig {
        simulate: true,
        pin: false,
        ..ExecConfig::with_topology(p, Topology::synthetic(2, 4))
    }
}

#[test]
fn simulation_runs_every_task_once_on_every_scheduler() {
    for name in ordo_sched::names() {
        let ps: &[usize] = if name == "serial" { &[1] } else { &[1, 7, 64] };
        for &p in ps {
            let r = run(name, &simulated(p)).unwrap();
            assert_eq!(r.total.tasks, N, "{name} P={p}");
            let sim = r.simulation.as_ref().expect("simulated");
            assert_eq!(sim.workers, p);
            assert_eq!(sim.rank.ranked_pops, N);
            assert_eq!(r.per_thread.len(), p);
        }
    }
}

#[test]
fn simulation_is_deterministic() {
    for name in ["obim", "pmod", "smq", "mq", "spraylist", "reld"] {
        let a = run(name, &simulated(32)).unwrap();
        let b = run(name, &simulated(32)).unwrap();
        assert_eq!(a.per_thread, b.per_thread, "{name}");
        assert_eq!(a.simulation, b.simulation, "{name}");
    }
}

#[test]
fn serial_order_has_no_rank_error() {
    let r = run("serial", &simulated(1)).unwrap();
    let s = r.simulation.unwrap().rank_summary().unwrap();
    assert_eq!((s.max, s.mean), (0, 0.0));
    // A relaxed scheduler at P = 64 pops out of order.
    let r = run("mq", &simulated(64)).unwrap();
    assert!(r.simulation.unwrap().rank_summary().unwrap().max > 0);
}

/// A scheduler that never shows worker 0's pushes to anyone: a lost task.
struct Hiding;
struct HidingHandle(usize, Vec<u64>);

impl Scheduler<u64> for Hiding {
    type Handle<'s> = HidingHandle;
    fn handle(&self, worker: usize) -> HidingHandle {
        HidingHandle(worker, Vec::new())
    }
    fn workers(&self) -> usize {
        2
    }
}

impl Handle<u64> for HidingHandle {
    fn push(&mut self, task: u64, _priority: u64) {
        if self.0 != 0 {
            self.1.push(task);
        }
    }
    fn pop(&mut self) -> Option<u64> {
        self.1.pop()
    }
}

#[test]
fn a_hidden_task_ends_the_simulation_with_an_error() {
    let err = for_each(&Hiding, [(1u64, 0), (2, 0)], &simulated(2), |_, _| {}).unwrap_err();
    assert!(
        matches!(&err, ExecError::Stuck(m) if m.contains("1 tasks outstanding")),
        "{err}"
    );
}

#[test]
fn an_operator_panic_ends_the_simulation_with_an_error() {
    let s: ordo_sched::obim::Obim<u64> =
        ordo_sched::obim::Obim::new(&Default::default(), 4, &Topology::detect());
    let err = for_each(&s, (0..100u64).map(|i| (i, i)), &simulated(4), |k, _| {
        assert!(k != 50, "task fifty");
    })
    .unwrap_err();
    assert!(matches!(&err, ExecError::OperatorPanicked { message, .. } if message == "task fifty"));
}

#[test]
fn threaded_rank_error_is_zero_for_the_exact_scheduler() {
    let cfg = ExecConfig {
        probes: Probes {
            rank: true,
            ..Probes::default()
        },
        ..ExecConfig::with_topology(1, Topology::detect())
    };
    let r = run("serial", &cfg).unwrap();
    let ranks = r.rank.expect("rank requested");
    assert_eq!(ranks.ranked_pops, N);
    let s = ranks.summary().unwrap();
    assert_eq!((s.max, s.mean), (0, 0.0));
    // Relaxed and concurrent: some pops are out of order, and every task is still counted.
    let cfg = ExecConfig { threads: 4, ..cfg };
    let r = run("mq", &cfg).unwrap();
    let ranks = r.rank.unwrap();
    assert_eq!(ranks.ranked_pops, N);
    assert!(ranks.summary().unwrap().samples > 0);
}

//! PageRank by residual pushing with integer-converted priorities (PR and PR-D of the PMOD
//! paper, Yesil et al., SC'19, §5.3; Whang et al., "Scalable data-driven PageRank", Euro-Par
//! 2015).
//!
//! **Definition** (networkx's `pagerank`): damping α = 0.85, teleport and dangling mass spread
//! uniformly, scores summing to 1; every arc counts once (weights are ignored).
//!
//! **Method.** With the dangling mass spread like the teleport, the scores are the normalized
//! solution y of `y = (1 - α) 1 + α Pᵀ y` where P drops dangling rows (the dangling terms only
//! rescale y). Each node keeps an estimate `x_v` and a residual `r_v`, starting at 0 and
//! `1 - α`. A task for v takes v's whole residual, adds it to `x_v` and gives `α r / outdeg(v)`
//! to each out-neighbour; a neighbour whose residual crosses the threshold ε gets a task. When
//! no residual reaches ε the run ends; then `x + (I - αPᵀ)⁻¹ r = y`, so the leftover residual R
//! bounds the error: `|y - x|₁ <= R / (1 - α)`, and after normalizing both,
//! `|score - exact|₁ <= 2R / ((1 - α) |x|₁)`. The verifier checks this bound against a serial
//! power iteration that handles dangling nodes explicitly (so the rescaling argument is tested
//! too).
//!
//! **Priorities** (Yesil et al.'s `PRPri`, `apps/pagerank/PageRank.cpp` of
//! github.com/serifyesil/PMOD): larger residuals per arc first. A node's residual is divided by
//! its in- plus out-degree and by ε, multiplied by `amp` (1 for PR, 1000 for PR-D, the amps
//! of the authors' runs) and truncated to an integer; the priority is `2^40 - that` (smaller
//! runs first). A node is pushed again whenever an add changes its priority (or lifts its
//! residual over ε), and a task whose node's residual is below ε or no longer has the task's
//! priority does nothing: the node's task of its current priority is queued. PR yields few
//! distinct priorities, PR-D thousands (the case where obim's one bag per priority hurts and
//! PMOD helps, PMOD §6).
//!
//! [`pull`] is the pull iteration over in-edges on the frontier executor with the L1-change
//! stopping rule (or a fixed count), the fastest method (what `ordo pagerank` runs by default); residual pushing
//! stays for the papers' PR and PR-D.

pub mod app;
pub use app::Scores;

pub mod pull;

use crate::prefetch::NodeReads;
use crate::VerifyError;
use ordo_exec::{for_each, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::Scheduler;
use std::sync::atomic::{AtomicU64, Ordering};

pub const DAMPING: f64 = 0.85;

const EMPTY_TAKES: usize = 0;

/// How a residual becomes an integer priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriorityKind {
    /// The whole part of the scaled residual.
    Pr,
    /// The whole part and three decimals.
    PrD,
}

/// "Push node `node`'s residual."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrTask {
    pub node: u32,
    /// The priority it was pushed with, for traces and rank error.
    pub priority: u64,
}

pub struct PrOutput {
    /// Scores summing to 1.
    pub score: Vec<f64>,
    /// Residual left at the end, in the units of the scores before normalizing.
    pub leftover: f64,
    /// The L1 distance to the exact scores is at most this.
    pub error_bound: f64,
    /// Tasks that found their residual already taken.
    pub empty_takes: u64,
    pub report: RunReport,
}

/// `f64` in an `AtomicU64`, with the read-modify-writes residual pushing needs.
///
/// Relaxed is enough: every change is a read-modify-write on one location, so no mass is lost
/// or counted twice whatever the interleaving (each location has one modification order), no
/// other data is published through these values, and the final sums are read after
/// `for_each` has joined the workers.
pub struct AtomicF64(AtomicU64);

impl AtomicF64 {
    pub fn new(x: f64) -> Self {
        AtomicF64(AtomicU64::new(x.to_bits()))
    }

    /// Takes the value, leaving 0.
    pub fn take(&self) -> f64 {
        f64::from_bits(self.0.swap(0f64.to_bits(), Ordering::Relaxed))
    }

    /// Adds `d`; returns the previous value.
    pub fn add(&self, d: f64) -> f64 {
        let mut cur = self.0.load(Ordering::Relaxed);
        loop {
            let new = (f64::from_bits(cur) + d).to_bits();
            match self
                .0
                .compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return f64::from_bits(cur),
                Err(now) => cur = now,
            }
        }
    }

    #[inline]
    pub fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    /// Overwrites the value: for loops where one worker owns the location.
    #[inline]
    pub fn set(&self, x: f64) {
        self.0.store(x.to_bits(), Ordering::Relaxed)
    }

    pub fn into_inner(self) -> f64 {
        f64::from_bits(self.0.into_inner())
    }
}

/// The per-node residual threshold for `tolerance` (networkx's meaning: the total error may
/// reach `n * tolerance` in sum-to-1 units), in this module's units (scores summing to about
/// n), capped at a tenth of the initial residual so that large graphs still propagate.
pub fn threshold(n: usize, tolerance: f64) -> f64 {
    (tolerance * n as f64).min((1.0 - DAMPING) / 10.0)
}

/// The task priority of a node with `inout` in- plus out-arcs whose residual is `residual`
/// (smaller runs first; module docs).
pub fn priority(residual: f64, eps: f64, inout: u32, kind: PriorityKind) -> u64 {
    const TOP: u64 = 1 << 40;
    let amp = match kind {
        PriorityKind::Pr => 1.0,
        PriorityKind::PrD => 1000.0,
    };
    let key = residual / inout.max(1) as f64 / eps * amp;
    TOP - (key as u64).min(TOP)
}

/// Each node's in- plus out-degree.
fn in_out_degrees(g: &Graph) -> Vec<u32> {
    let mut d: Vec<u32> = (0..g.num_nodes() as u32)
        .map(|v| g.out_degree(v) as u32)
        .collect();
    for &t in g.targets() {
        d[t as usize] = d[t as usize].saturating_add(1);
    }
    d
}

/// The largest L1 distance between two score vectors summing to 1: an error bound is capped
/// here, and a check whose bound reaches it could not fail.
pub const MAX_L1: f64 = 2.0;

/// `bound` capped at [`MAX_L1`] (a NaN or infinite bound becomes it).
pub fn capped(bound: f64) -> f64 {
    if bound < MAX_L1 {
        bound
    } else {
        MAX_L1
    }
}

/// Scores from the pushed mass `x` (all nodes', or one part of them) given the mass `total`
/// pushed and the residual `leftover` over all `n` nodes: `x / total` and the bound on the
/// L1 error. With nothing pushed, the uniform scores and the largest possible error.
pub fn normalize(x: &[f64], total: f64, leftover: f64, n: usize) -> (Vec<f64>, f64) {
    if total > 0.0 {
        (
            x.iter().map(|&s| s / total).collect(),
            capped(2.0 * leftover / ((1.0 - DAMPING) * total)),
        )
    } else {
        (vec![1.0 / n.max(1) as f64; x.len()], MAX_L1)
    }
}

/// Parallel PageRank of `g` to `tolerance` (see [`threshold`]).
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_sched::obim::{Obim, ObimConfig};
/// use ordo_algos::pagerank::{self, PriorityKind};
/// let g = gen::uniform_random(500, 3000, 2, &BuildOptions::default()).unwrap();
/// let cfg = ExecConfig::new(2);
/// let sched = Obim::new(&ObimConfig::default(), 2, &cfg.topology);
/// let out = pagerank::run(&g, 1e-6, PriorityKind::PrD, &sched, &cfg).unwrap();
/// pagerank::verify(&g, &out).unwrap();
/// ```
pub fn run<S: Scheduler<PrTask>>(
    g: &Graph,
    tolerance: f64,
    kind: PriorityKind,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<PrOutput, ExecError> {
    let n = g.num_nodes();
    let eps = threshold(n, tolerance);
    let start = 1.0 - DAMPING;
    let x: Vec<AtomicF64> = (0..n).map(|_| AtomicF64::new(0.0)).collect();
    let r: Vec<AtomicF64> = (0..n).map(|_| AtomicF64::new(start)).collect();
    let inout = in_out_degrees(g);
    let pri = |v: u32, residual: f64| priority(residual, eps, inout[v as usize], kind);
    let initial = (0..n as u32).filter(|_| start >= eps).map(|v| {
        let p = pri(v, start);
        (
            PrTask {
                node: v,
                priority: p,
            },
            p,
        )
    });
    let reads = NodeReads::new(g, &r);
    let report = for_each(sched, initial, cfg, |task, ctx| {
        let v = task.node;
        ctx.task_priority(task.priority);
        reads.upcoming_node(ctx, |t| t.node);
        let now = r[v as usize].get();
        // Below ε, or another task of v holds its current priority (module docs).
        if now < eps || pri(v, now) != task.priority {
            ctx.count(EMPTY_TAKES, 1);
            ctx.useless();
            return;
        }
        let mass = r[v as usize].take();
        if mass == 0.0 {
            // Another task of v took it since the check.
            ctx.count(EMPTY_TAKES, 1);
            ctx.useless();
            return;
        }
        x[v as usize].add(mass);
        let out = g.neighbors(v);
        if out.is_empty() {
            return; // dangling: its share only rescales the result (module docs)
        }
        let share = DAMPING * mass / out.len() as f64;
        for &w in out {
            let before = r[w as usize].add(share);
            let after = before + share;
            // An add that lifts the residual over ε, or changes the priority above it,
            // schedules w at its new priority; the task takes whatever has accumulated by the
            // time it runs.
            if after >= eps && (before < eps || pri(w, before) != pri(w, after)) {
                let p = pri(w, after);
                ctx.push_owned(
                    PrTask {
                        node: w,
                        priority: p,
                    },
                    p,
                    w as u64,
                );
            }
        }
    })?;
    let x: Vec<f64> = x.into_iter().map(AtomicF64::into_inner).collect();
    let leftover: f64 = r.into_iter().map(AtomicF64::into_inner).sum();
    let total: f64 = x.iter().sum();
    let (score, error_bound) = normalize(&x, total, leftover, n);
    Ok(PrOutput {
        score,
        leftover,
        error_bound,
        empty_takes: report.total.app[EMPTY_TAKES],
        report,
    })
}

/// Serial oracle: power iteration of networkx's definition, dangling mass spread explicitly,
/// until the L1 change is below 1e-13 (or 10,000 rounds). Returns the scores and the rounds.
pub fn power_iteration(g: &Graph) -> (Vec<f64>, u32) {
    let oracle = power_iteration_within(g, 0.0);
    (oracle.score, oracle.rounds)
}

/// The power iteration's scores, and how far they may be from the exact ones.
#[derive(Debug, Clone)]
pub struct Oracle {
    pub score: Vec<f64>,
    pub rounds: u32,
    /// The L1 distance to the exact scores is at most this (from the last round's change;
    /// the sums' rounding is left to [`check_scores`]'s margin).
    pub error_bound: f64,
}

/// As [`power_iteration`], stopping as soon as its own error bound is at most `error` (but
/// not before the change is below 1e-13 where `error` is 0).
///
/// Each round of networkx's iteration (scores summing to 1, dangling mass spread like the
/// teleport) contracts L1 distances by the damping factor `α`, so after a round that changed
/// the scores by `δ` the exact scores are at most `α δ / (1 - α)` away. A check needs no more
/// than a small part of the bound it checks: the app's oracle asks for a tenth of the run's
/// requested change (`n x tolerance`): at GAPBS's `1e-4`, a 1.4 s check on Kronecker 20 where
/// iterating to 1e-13 took 9.5 s.
pub fn power_iteration_within(g: &Graph, error: f64) -> Oracle {
    let n = g.num_nodes();
    if n == 0 {
        return Oracle {
            score: vec![],
            rounds: 0,
            error_bound: 0.0,
        };
    }
    let nf = n as f64;
    let mut x = vec![1.0 / nf; n];
    let mut next = vec![0.0; n];
    let mut bound = f64::INFINITY;
    for round in 1..=10_000 {
        let dangling: f64 = (0..n as u32)
            .filter(|&v| g.out_degree(v) == 0)
            .map(|v| x[v as usize])
            .sum();
        let base = (1.0 - DAMPING) / nf + DAMPING * dangling / nf;
        next.iter_mut().for_each(|s| *s = base);
        for v in 0..n as u32 {
            let out = g.neighbors(v);
            if !out.is_empty() {
                let share = DAMPING * x[v as usize] / out.len() as f64;
                for &w in out {
                    next[w as usize] += share;
                }
            }
        }
        let change: f64 = x.iter().zip(&next).map(|(a, b)| (a - b).abs()).sum();
        std::mem::swap(&mut x, &mut next);
        bound = capped(DAMPING * change / (1.0 - DAMPING));
        if change < 1e-13 || bound <= error {
            return Oracle {
                score: x,
                rounds: round,
                error_bound: bound,
            };
        }
    }
    Oracle {
        score: x,
        rounds: 10_000,
        error_bound: bound,
    }
}

/// Checks `out` against [`power_iteration`]: the L1 distance must be within the run's error
/// bound (plus the oracle's own 1e-10). Returns the distance.
pub fn verify(g: &Graph, out: &PrOutput) -> Result<f64, VerifyError> {
    check(&power_iteration(g).0, out)
}

/// As [`verify`], with the oracle's scores given.
pub fn check(exact: &[f64], out: &PrOutput) -> Result<f64, VerifyError> {
    check_scores(exact, &out.score, out.error_bound)
}

/// Checks `score` against the oracle's `exact` scores: the L1 distance must be within
/// `error_bound` (plus the oracle's own 1e-10), and that bound must be below [`MAX_L1`], or
/// the check could not fail. Returns the distance.
pub fn check_scores(exact: &[f64], score: &[f64], error_bound: f64) -> Result<f64, VerifyError> {
    check_scores_within(exact, 0.0, score, error_bound)
}

/// As [`check_scores`] with an oracle that stopped `oracle_error` short of the exact scores
/// ([`power_iteration_within`]): the triangle inequality allows that much more.
pub fn check_scores_within(
    exact: &[f64],
    oracle_error: f64,
    score: &[f64],
    error_bound: f64,
) -> Result<f64, VerifyError> {
    if score.len() != exact.len() {
        return Err(VerifyError::Answer(format!(
            "{} scores, the oracle has {}",
            score.len(),
            exact.len()
        )));
    }
    let l1: f64 = exact.iter().zip(score).map(|(a, b)| (a - b).abs()).sum();
    let bound = error_bound + oracle_error + 1e-10;
    if bound.is_nan() || bound >= MAX_L1 {
        return Err(VerifyError::Vacuous {
            bound: capped(bound),
        });
    }
    if l1 <= bound {
        Ok(l1)
    } else {
        Err(VerifyError::Scores { l1, bound })
    }
}

/// The `k` highest-scoring nodes, best first (ties by smaller index).
pub fn top(score: &[f64], k: usize) -> Vec<u32> {
    let order = |a: &u32, b: &u32| {
        score[*b as usize]
            .total_cmp(&score[*a as usize])
            .then(a.cmp(b))
    };
    let mut ids: Vec<u32> = (0..score.len() as u32).collect();
    // Select the k best in linear time, then sort only those.
    if k < ids.len() {
        ids.select_nth_unstable_by(k, order);
        ids.truncate(k);
    }
    ids.sort_by(order);
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_graph::{gen, BuildOptions};
    use ordo_sched::pmod::{self, PmodConfig};
    use ordo_sched::Scheduler;

    #[test]
    fn priorities_are_the_residual_per_arc_in_units_of_eps_times_amp() {
        let top = 1u64 << 40;
        // 0.3 / (2 + 1) / 0.01 = 10 (PR), 10000 (PR-D, amp 1000).
        assert_eq!(priority(0.3, 0.01, 3, PriorityKind::Pr), top - 9);
        assert_eq!(priority(0.3, 0.01, 3, PriorityKind::PrD), top - 9999);
        assert_eq!(priority(0.31, 0.01, 3, PriorityKind::Pr), top - 10);
        // Larger residuals per arc run first; an isolated node counts as one arc.
        assert!(
            priority(0.5, 0.01, 2, PriorityKind::Pr) < priority(0.5, 0.01, 4, PriorityKind::Pr)
        );
        assert_eq!(
            priority(0.5, 0.01, 0, PriorityKind::Pr),
            priority(0.5, 0.01, 1, PriorityKind::Pr)
        );
        assert_eq!(priority(1e30, 1e-9, 1, PriorityKind::PrD), 0);
    }

    #[test]
    fn pr_d_under_pmod_merges_and_lmf_only_grows() {
        // Yesil et al.'s Table 6: PR-D's thousands of priorities make PMOD merge.
        let g = gen::kronecker(12, 8, 3, &BuildOptions::default()).unwrap();
        let cfg = ExecConfig::new(1);
        let s = pmod::new(&PmodConfig::default(), 1, &cfg.topology);
        let out = run(&g, 1e-6, PriorityKind::PrD, &s, &cfg).unwrap();
        verify(&g, &out).unwrap();
        let events = s.events();
        assert!(!events.is_empty(), "PR-D merges");
        assert!(events.iter().all(|e| e.new > e.old), "{events:?}");
        // Nodes are pushed again as their priority changes: more tasks than nodes, and the
        // tasks left behind do nothing.
        assert!(out.report.total.tasks > g.num_nodes() as u64);
        assert!(out.empty_takes > 0);
    }

    #[test]
    fn a_check_fails_on_scores_outside_the_bound_and_on_a_bound_that_admits_everything() {
        let g = gen::uniform_random(300, 2000, 5, &BuildOptions::default()).unwrap();
        let (exact, _) = power_iteration(&g);
        assert!(check_scores(&exact, &exact, 1e-6).is_ok());
        // Mass moved between two nodes: 2e-3 away in L1.
        let mut wrong = exact.clone();
        wrong[0] += 1e-3;
        wrong[1] -= 1e-3;
        assert!(matches!(
            check_scores(&exact, &wrong, 1e-3),
            Err(VerifyError::Scores { .. })
        ));
        // The uniform scores are within 2 of anything: no bound of 2 or more can vouch for them.
        let uniform = vec![1.0 / 300.0; 300];
        for bound in [MAX_L1, 1.58e308, f64::INFINITY, f64::NAN] {
            assert!(matches!(
                check_scores(&exact, &uniform, bound),
                Err(VerifyError::Vacuous { .. })
            ));
        }
        assert!(matches!(
            check_scores_within(&exact, 1.0, &exact, 1.0),
            Err(VerifyError::Vacuous { .. })
        ));
        assert!(check_scores(&exact, &exact[1..], 1e-3).is_err());
    }

    #[test]
    fn bounds_are_capped_at_the_largest_possible_distance() {
        assert_eq!(capped(1.58e308), MAX_L1);
        assert_eq!(capped(f64::NAN), MAX_L1);
        assert_eq!(capped(0.5), 0.5);
        // Nothing pushed but the residual: the uniform scores, at the cap.
        let (score, bound) = normalize(&[0.0; 4], 0.0, 1.0, 4);
        assert_eq!((score, bound), (vec![0.25; 4], MAX_L1));
        // A residual larger than the mass pushed.
        assert_eq!(normalize(&[1.0, 1.0], 2.0, 100.0, 2).1, MAX_L1);
    }
}

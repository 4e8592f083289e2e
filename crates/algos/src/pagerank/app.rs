//! `pagerank` in the application registry.

use crate::app::{
    by_name, Answer, App, AppError, AppSpec, Param, PerNode, Prepared, Reported, RunContext,
    Source, Values, WithInEdges,
};
use crate::pagerank::pull::PullOutput;
use crate::pagerank::pull::{self, Sweep, Until};
use crate::pagerank::{self, PrOutput, PrTask, PriorityKind};
use crate::variants::{Method, Variant, Variants};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_exec::RunReport;
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`pagerank::run`] to `tolerance` with residual priorities of `kind`, on a scheduler
    /// chosen by name.
    <PrTask> -> PrOutput { g: &'a Graph, tolerance: f64, kind: PriorityKind }
    |me, s, cfg| pagerank::run(me.g, me.tolerance, me.kind, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "pagerank",
    few_threads: None,
    list: &[
        Variant {
            method: Method::Pull,
            about: "Gauss-Seidel pull sweeps over in-edges until a sweep's L1 change < n x tolerance (or --iterations of them), the scores rescaled between sweeps where their total misses the exact one's, on the frontier executor",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::PullJacobi,
            about: "as pull, with Jacobi iterations (every score from the previous iteration's)",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::Priority,
            about: "residual pushing by priority (PR and PR-D of the PMOD paper, Yesil et al., \
                    SC'19; --priority), on --scheduler",
            scheduled: true,
            serial: false,
        },
    ],
};

/// One run's output by either method, for front ends that report both alike.
pub enum Scores {
    /// Residual pushing by priority.
    Pushed(PrOutput),
    /// Pull iteration ([`pull`]).
    Pulled(PullOutput),
}

impl Scores {
    /// Scores summing to 1.
    pub fn score(&self) -> &[f64] {
        match self {
            Scores::Pushed(o) => &o.score,
            Scores::Pulled(o) => &o.score,
        }
    }

    /// The L1 distance to the exact scores is at most this.
    pub fn error_bound(&self) -> f64 {
        match self {
            Scores::Pushed(o) => o.error_bound,
            Scores::Pulled(o) => o.error_bound,
        }
    }
}

impl Reported for Scores {
    fn report(&self) -> &RunReport {
        match self {
            Scores::Pushed(o) => &o.report,
            Scores::Pulled(o) => &o.report,
        }
    }
}

pub struct Pagerank;

/// A requested L1 change (`n x tolerance`) from which the run is told it asks for little.
const LOOSE_CHANGE: f64 = 0.01;

/// The command line's default stop, an L1 change below this (GAPBS's rule): networkx's
/// per-node default, 1e-6, asks for an L1 change of 0.32 on 321K nodes, which one sweep meets
/// far from the exact scores.
pub const DEFAULT_L1_CHANGE: f64 = 1e-4;

/// The most the oracle's own L1 error may be, whatever the requested change.
const ORACLE_ERROR: f64 = 1e-3;

pub struct Setup {
    /// The pull methods' in-edges.
    pull: Option<WithInEdges>,
    /// `--tolerance` (both methods) and `--iterations` (the pull methods' fixed count).
    until: Until,
    /// `--priority` as given (the scheduled method's residual priorities).
    priority: Option<String>,
    sweep: Sweep,
}

type P = Prepared<Setup>;

impl Setup {
    fn kind(&self) -> PriorityKind {
        match self.priority.as_deref() {
            Some("prd") => PriorityKind::PrD,
            _ => PriorityKind::Pr,
        }
    }
}

impl App for Pagerank {
    type Setup = Setup;
    type Output = Scores;
    /// The power iteration, to a tenth of the requested change
    /// ([`pagerank::power_iteration_within`]).
    type Expected = pagerank::Oracle;

    const SPEC: AppSpec = AppSpec {
        name: "pagerank",
        about: "PageRank (networkx's definition), pull iteration by default (verified against \
                power iteration)",
        after_help: None,
        examples: &[
            "ordo pagerank web-graph.txt.gz --priority prd --tolerance 1e-8",
            "ordo pagerank kron20.ordo --iterations 20   # the fixed count Gemini's benchmark runs",
        ],
        params: &[
            Param::choice(
                "priority",
                &["pr", "prd"],
                "Residual to integer priority for --algo priority: the residual per arc (in + \
                 out) in units of the threshold, its whole part (pr) or with three decimals \
                 (prd): the PR and PR-D of the PMOD paper (Yesil et al., SC'19), as their code computes them \
                 [default: pr]",
            )
            .asks_scheduler(),
            Param::float(
                "tolerance",
                "Convergence as networkx's tol, scores summing to 1: pull stops when an \
                 iteration changes them by less than nodes x tolerance in L1 (unless \
                 --iterations is given); priority stops \
                 when no node's residual reaches about tolerance. Either way the JSON's \
                 error_bound bounds the L1 distance to the exact scores (at most 2), and \
                 verification checks it [default: 1e-4 / nodes, an L1 change below 1e-4, \
                 GAPBS's rule]",
            ),
            Param::int(
                "iterations",
                1,
                pull::MAX_ITERATIONS as u64,
                "Pull exactly N iterations, whatever the change (the fixed count of Gemini's \
                 PageRank benchmark, which runs 20); --tolerance then picks only the \
                 precision. error_bound still bounds the distance to the exact scores, and \
                 verification checks it: after one or two iterations it is often the \
                 vacuous 2, which fails verification (pass --no-verify)",
            )
            .value_name("N"),
        ],
        variants: &VARIANTS,
        headline: &["algo", "top", "error_bound", "l1_vs_oracle"],
        no_per_node: None,
        no_scheduler: None,
        simulated: true,
    };

    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        let n = source.graph().num_nodes();
        if n == 0 {
            return Err(AppError::Input("the graph has no nodes".into()));
        }
        let tolerance = values
            .float("tolerance")
            .unwrap_or(DEFAULT_L1_CHANGE / n as f64);
        if !(tolerance > 0.0 && tolerance < 1.0) {
            return Err(AppError::Usage(format!(
                "--tolerance {tolerance}: must be in (0, 1)"
            )));
        }
        if source.graph().is_weighted() {
            notes.push("PageRank ignores edge weights: every arc counts once".into());
        }
        source.drop_weights();
        let iterations = values.int("iterations").map(|k| k as u32);
        if iterations.is_some() && method.scheduled {
            return Err(AppError::Usage(
                "iterations counts pull iterations; the priority method pushes residuals \
                 until none reaches the tolerance"
                    .into(),
            ));
        }
        // networkx's meaning of the tolerance scales with the graph: its default on a million
        // nodes asks for an L1 change below 1, which two sweeps reach, with an error bound that
        // says nothing (2, capped).
        let requested = tolerance * n as f64;
        if requested >= LOOSE_CHANGE && iterations.is_none() {
            notes.push(format!(
                "--tolerance {tolerance:e} on {n} nodes asks for an L1 change below {requested:.3} \
                 (the scores sum to 1); --tolerance {:.1e} asks for {DEFAULT_L1_CHANGE:e}, \
                 GAPBS's rule and the default",
                DEFAULT_L1_CHANGE / n as f64
            ));
        }
        // Pulling reads in-edges. (No other handle on the graph meanwhile: building a
        // directed graph's transpose in it would copy the graph first.)
        let pull = (!method.scheduled).then(|| WithInEdges::of(source));
        let graph = pull
            .as_ref()
            .map_or_else(|| source.graph(), |w| w.graph.clone());
        let setup = Setup {
            pull,
            until: Until {
                tolerance,
                iterations,
            },
            priority: values.text("priority").map(String::from),
            sweep: match method.method {
                Method::PullJacobi => Sweep::Jacobi,
                _ => Sweep::GaussSeidel,
            },
        };
        Ok(Prepared::new(graph, setup))
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<Scores, AppError> {
        match (sched, &p.setup.pull) {
            (Some(s), _) => Ok(Scores::Pushed(by_name(
                s,
                exec,
                &p.graph,
                p.setup.until.tolerance,
                p.setup.kind(),
            )?)),
            (None, Some(w)) => {
                let out = pull::run(&w.graph, w.in_edges(), p.setup.until, p.setup.sweep, exec)?;
                Ok(Scores::Pulled(out))
            }
            (None, None) => unreachable!("prepared without in-edges for a pull method"),
        }
    }

    fn oracle(p: &P) -> pagerank::Oracle {
        // A tenth of the requested change, n x tolerance, and at most ORACLE_ERROR: the
        // priority method's bound stays far below a loose request (its per-node threshold is
        // capped), and an oracle as loose as the request would leave the check nothing.
        let requested = p.setup.until.tolerance * p.graph.num_nodes() as f64;
        pagerank::power_iteration_within(&p.graph, (requested / 10.0).min(ORACLE_ERROR))
    }

    fn verify(_p: &P, exact: &pagerank::Oracle, out: &Scores) -> Result<(), VerifyError> {
        let (score, bound) = (out.score(), out.error_bound());
        pagerank::check_scores_within(&exact.score, exact.error_bound, score, bound).map(|_| ())
    }

    fn per_node<'a>(_p: &'a P, out: &'a Scores) -> Option<PerNode<'a>> {
        Some(Box::new(|v| format!("{:.9e}", out.score()[v as usize])))
    }

    fn answer(_p: &P, out: Scores) -> Answer {
        match out {
            Scores::Pushed(o) => Answer::Floats(o.score),
            Scores::Pulled(o) => Answer::Floats(o.score),
        }
    }

    fn summary(
        p: &P,
        out: &Scores,
        exact: Option<&pagerank::Oracle>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let g = &p.graph;
        // The first run's distance (every run was checked against its own bound).
        let l1 = exact.map(|exact| {
            out.score()
                .iter()
                .zip(&exact.score)
                .map(|(a, b)| (a - b).abs())
                .sum::<f64>()
        });
        let ids = |v: &[u32]| v.iter().map(|&n| g.file_id(n)).collect::<Vec<_>>();
        let (pushed, pulled) = match out {
            Scores::Pushed(o) => (Some(o), None),
            Scores::Pulled(o) => (None, Some(o)),
        };
        let scheduled = ctx.method.scheduled;
        json!({
            "algo": ctx.method.name(),
            "stopping_rule": match scheduled {
                true => "residual",
                false => p.setup.until.rule(),
            },
            "priority": scheduled.then(|| p.setup.priority.as_deref().unwrap_or("pr")),
            "sweep": pulled.map(|_| format!("{:?}", p.setup.sweep)),
            "prep_s": p.setup.pull.as_ref().map(|w| w.prep_s),
            "tolerance": p.setup.until.tolerance,
            "damping": pagerank::DAMPING,
            "top": ids(&pagerank::top(out.score(), 10)),
            "oracle_top": exact.map(|e| ids(&pagerank::top(&e.score, 10))),
            "oracle_rounds": exact.map(|e| e.rounds),
            "oracle_error_bound": exact.map(|e| e.error_bound),
            "tasks": pushed.map(|o| o.report.total.tasks),
            "empty_takes": pushed.map(|o| o.empty_takes),
            "leftover_residual": pushed.map(|o| o.leftover),
            "iterations": pulled.map(|o| o.iterations),
            "last_change": pulled.map(|o| o.last_change),
            "mass_corrections": pulled.map(|o| o.corrections),
            "error_bound": out.error_bound(),
            "l1_vs_oracle": l1,
        })
    }
}

//! `sssp` in the application registry.

use crate::app::{
    by_name, floats, node_or_first, or_inf, same, Answer, App, AppError, AppSpec, Param, PerNode,
    Prepared, RunContext, Source, Values,
};
use crate::delta::{delta_for, delta_stepping_width, DeltaInputs};
use crate::sssp::{self, SsspOutput, SsspTask};
use crate::variants::{Method, Variant, Variants};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::{Graph, WeightSpec};
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`sssp::run`] from `src` on a scheduler chosen by name.
    <SsspTask> -> SsspOutput { g: &'a Graph, src: u32 }
    |me, s, cfg| sssp::run(me.g, me.src, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "sssp",
    few_threads: None,
    list: &[
        Variant {
            method: Method::DeltaStepping,
            about: "delta-stepping with per-worker bins and bucket fusion (GAPBS; Zhang et al., CGO 2020) on the frontier executor",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::Priority,
            about: "prioritized relaxation (the PMOD paper, Yesil et al., SC'19), on --scheduler: \
                    Dijkstra-like on an exact queue, delta-stepping-like on obim",
            scheduled: true,
            serial: false,
        },
    ],
};

/// `--source`, as SSSP, BFS and A* take it.
pub(crate) const SOURCE: Param = Param::node(
    "source",
    "Source node, as the file numbers nodes (1-based for DIMACS/METIS/MTX) [default: first node]",
);

/// `--delta`, as SSSP and A* take it.
pub(crate) const fn delta_param(help: &'static str) -> Param {
    Param::int("delta", 0, 63, help).value_name("K")
}

pub struct Sssp;

pub struct Setup {
    source: u32,
    /// `--delta`, or the rule's width ([`crate::delta`]).
    delta: u32,
    /// The graph's figures when `delta` is the rule's: delta-stepping then adapts it to the
    /// team ([`crate::delta::delta_stepping_width`]). `None` when the user gave `--delta`.
    rule: Option<DeltaInputs>,
    weights: Option<WeightSpec>,
}

type P = Prepared<Setup>;

impl Setup {
    /// The bucket width delta-stepping runs with on `workers` workers.
    fn width(&self, workers: usize) -> u32 {
        match &self.rule {
            Some(inputs) => delta_stepping_width(self.delta, inputs, workers),
            None => self.delta,
        }
    }
}

impl App for Sssp {
    type Setup = Setup;
    type Output = SsspOutput;
    type Expected = Vec<u64>;

    const SPEC: AppSpec = AppSpec {
        name: "sssp",
        about: "Single-source shortest paths (verified against serial Dijkstra)",
        after_help: None,
        examples: &[
            "ordo sssp USA-road-d.NY.gr.gz --threads 2 --repeat 5",
            "ordo sssp USA-road-d.NY.gr.gz --threads 2 --scheduler obim --delta 12 --repeat 5",
            "ordo sssp USA-road-d.NY.gr.gz --scheduler smq --param p_steal=1/4 --param steal_size=8",
            "ordo sssp graph.mtx.gz --weights 1:255:1 --source 7 --out dist.txt",
            "ordo sssp USA-road-d.NY.gr.gz --breakdown",
        ],
        params: &[
            SOURCE,
            delta_param(
                "Bucket width of delta-stepping and of bucketing schedulers (auto, obim): one \
                 bucket per 2^K distance units [default: from the graph: log2(2 x mean weight / \
                 mean degree), wider on road networks and meshes (about 4000 tasks per bucket), \
                 there for delta-stepping one step narrower on one thread and wider on more than two \
                 (half a step per doubling)]",
            ),
        ],
        variants: &VARIANTS,
        headline: &["algo", "reached", "dist_sum", "max_dist"],
        no_per_node: None,
        no_scheduler: None,
        simulated: true,
    };

    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        _method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        let graph = source.weighted(notes);
        let src = node_or_first(source, "source", values.int("source"))?;
        let (delta, rule) = match values.int("delta") {
            Some(d) => (d as u32, None),
            None => {
                let inputs = DeltaInputs::of(&graph);
                (delta_for(&inputs), Some(inputs))
            }
        };
        let setup = Setup {
            source: src,
            delta,
            rule,
            weights: source.weights(),
        };
        Ok(Prepared::new(graph, setup))
    }

    fn delta_hint(p: &P) -> Option<u32> {
        Some(p.setup.delta)
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<SsspOutput, AppError> {
        match sched {
            Some(s) => Ok(by_name(s, exec, &p.graph, p.setup.source)?),
            None => {
                let width = p.setup.width(exec.threads);
                Ok(sssp::delta_step::run(
                    &p.graph,
                    p.setup.source,
                    width,
                    exec,
                )?)
            }
        }
    }

    fn oracle(p: &P) -> Vec<u64> {
        sssp::dijkstra(&p.graph, p.setup.source)
    }

    fn oracle_labels(_p: &P, expected: &Vec<u64>) -> Option<Vec<u64>> {
        Some(expected.clone())
    }

    fn verify(p: &P, expected: &Vec<u64>, out: &SsspOutput) -> Result<(), VerifyError> {
        same(&p.graph, &out.dist, expected)
    }

    fn per_node<'a>(_p: &'a P, out: &'a SsspOutput) -> Option<PerNode<'a>> {
        Some(Box::new(|v| {
            or_inf(out.dist[v as usize], sssp::UNREACHABLE)
        }))
    }

    fn answer(_p: &P, out: SsspOutput) -> Answer {
        floats(&out.dist, sssp::UNREACHABLE)
    }

    fn summary(
        p: &P,
        out: &SsspOutput,
        _expected: Option<&Vec<u64>>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let (reached, sum, max) = sssp::summarize(&out.dist);
        let st = &out.stats;
        json!({
            "algo": ctx.method.name(),
            "source": p.graph.file_id(p.setup.source),
            "delta": ctx.sched.map_or(st.delta, |s| s.delta()),
            "rounds": (!ctx.method.scheduled).then_some(st.rounds),
            "weights": p.setup.weights.map(|w| w.to_string()),
            "stale_tasks": st.stale_tasks,
            "improving_relaxations": st.improving_relaxations,
            "edges_scanned": st.edges_scanned,
            "work": st.good_tasks.map(|good| json!({
                "good": good,
                "bad": out.report.total.tasks - st.stale_tasks - good,
                "empty": st.stale_tasks,
            })),
            "reached": reached,
            "dist_sum": sum as u64,
            "max_dist": max,
        })
    }
}

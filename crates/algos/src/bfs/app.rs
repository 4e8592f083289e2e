//! `bfs` in the application registry.

use crate::app::{
    by_name, floats, node_or_first, or_inf, same, widen, Answer, App, AppError, AppSpec, PerNode,
    Prepared, RunContext, Source, Values, WithInEdges,
};
use crate::bfs::{self, BfsOutput, BfsTask};
use crate::variants::{Method, Variant, Variants, PRIORITY};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`bfs::run`] from `src` on a scheduler chosen by name.
    <BfsTask> -> BfsOutput { g: &'a Graph, src: u32 }
    |me, s, cfg| bfs::run(me.g, me.src, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "bfs",
    few_threads: None,
    list: &[
        Variant {
            method: Method::Direction,
            about: "direction-optimizing BFS (Beamer et al., SC 2012) on the frontier executor",
            scheduled: false,
            serial: false,
        },
        PRIORITY,
    ],
};

pub struct Bfs;

type P = Prepared<Setup>;

pub struct Setup {
    source: u32,
    /// The direction-optimizing method's in-edges.
    pull: Option<WithInEdges>,
}

impl App for Bfs {
    type Setup = Setup;
    type Output = BfsOutput;
    type Expected = Vec<u32>;

    const SPEC: AppSpec = AppSpec {
        name: "bfs",
        about: "Breadth-first search levels, direction-optimizing by default (verified against \
                a queue BFS)",
        after_help: None,
        examples: &["ordo bfs soc-Slashdot0902.txt.gz --json"],
        params: &[crate::sssp::app::SOURCE],
        variants: &VARIANTS,
        headline: &["algo", "reached", "level_sum", "max_level"],
        no_per_node: None,
        no_scheduler: None,
        simulated: true,
    };

    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        method: &Variant,
        _notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        let src = node_or_first(source, "source", values.int("source"))?;
        // Hops: the weights go (before a transpose would copy them).
        source.drop_weights();
        // Bottom-up steps read in-edges.
        let pull = (!method.scheduled).then(|| WithInEdges::of(source));
        let graph = match &pull {
            Some(w) => w.graph.clone(),
            None => source.graph(),
        };
        Ok(Prepared::new(graph, Setup { source: src, pull }))
    }

    /// Priority = level: one bucket per level.
    fn delta_hint(_p: &P) -> Option<u32> {
        Some(0)
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<BfsOutput, AppError> {
        match (sched, &p.setup.pull) {
            (Some(s), _) => Ok(by_name(s, exec, &p.graph, p.setup.source)?),
            (None, Some(w)) => Ok(bfs::direction::run(
                &w.graph,
                w.in_edges(),
                p.setup.source,
                exec,
            )?),
            (None, None) => unreachable!("prepared without in-edges for a frontier method"),
        }
    }

    fn oracle(p: &P) -> Vec<u32> {
        bfs::serial_bfs(&p.graph, p.setup.source)
    }

    fn oracle_labels(_p: &P, expected: &Vec<u32>) -> Option<Vec<u64>> {
        Some(widen(expected))
    }

    fn verify(p: &P, expected: &Vec<u32>, out: &BfsOutput) -> Result<(), VerifyError> {
        same(&p.graph, &out.level, expected)
    }

    fn per_node<'a>(_p: &'a P, out: &'a BfsOutput) -> Option<PerNode<'a>> {
        Some(Box::new(|v| or_inf(out.level[v as usize], bfs::UNREACHED)))
    }

    fn answer(_p: &P, out: BfsOutput) -> Answer {
        floats(&out.level, bfs::UNREACHED)
    }

    fn summary(
        p: &P,
        out: &BfsOutput,
        _expected: Option<&Vec<u32>>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let (reached, sum, max) = bfs::summarize(&out.level);
        let frontier = !ctx.method.scheduled;
        json!({
            "algo": ctx.method.name(),
            "source": p.graph.file_id(p.setup.source),
            "prep_s": p.setup.pull.as_ref().map(|w| w.prep_s),
            "stale_tasks": out.stats.stale_tasks,
            "top_down_steps": frontier.then_some(out.stats.top_down_steps),
            "bottom_up_steps": frontier.then_some(out.stats.bottom_up_steps),
            "reached": reached,
            "level_sum": sum,
            "max_level": max,
        })
    }
}

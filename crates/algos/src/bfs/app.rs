//! `bfs` in the application registry.

use crate::app::{
    build_in_edges, by_name, in_edges, node_or_first, or_inf, same, widen, App, AppError, AppSpec,
    Input, PerNode, RunContext, Values,
};
use crate::bfs::{self, BfsOutput, BfsTask};
use crate::variants::{Variant, Variants, PRIORITY};
use crate::VerifyError;
use ordo_exec::{ExecConfig, RunReport};
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`bfs::run`] from `src` on a scheduler chosen by name.
    <BfsTask> -> BfsOutput { g: &'a Graph, src: u32 }
    |me, s, cfg| bfs::run(me.g, me.src, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "bfs",
    list: &[
        Variant {
            name: "direction",
            about: "direction-optimizing BFS (Beamer et al., SC 2012) on the frontier executor",
            scheduled: false,
        },
        PRIORITY,
    ],
};

pub struct Bfs;

pub struct Prepared {
    graph: Graph,
    source: u32,
    symmetric: bool,
    /// Seconds building the in-edges took (the direction-optimizing method).
    prep_s: Option<f64>,
}

impl App for Bfs {
    type Prepared = Prepared;
    type Output = BfsOutput;
    type Expected = Vec<u32>;

    const SPEC: AppSpec = AppSpec {
        name: "bfs",
        about: "Breadth-first search levels, direction-optimizing by default (verified against \
                a queue BFS)",
        after_help: None,
        params: &[crate::sssp::app::SOURCE],
        variants: &VARIANTS,
        headline: &["algo", "reached", "level_sum", "max_level"],
        no_per_node: None,
        no_scheduler: None,
        simulated: true,
    };

    fn prepare(
        mut input: Input,
        values: &Values,
        method: &Variant,
        _notes: &mut Vec<String>,
    ) -> Result<Prepared, AppError> {
        let source = node_or_first(&input.graph, values.int("source"))?;
        // Bottom-up steps read in-edges.
        let prep_s = (!method.scheduled).then(|| build_in_edges(&mut input));
        Ok(Prepared {
            graph: input.graph,
            source,
            symmetric: input.symmetric,
            prep_s,
        })
    }

    fn graph(p: &Prepared) -> &Graph {
        &p.graph
    }

    /// Priority = level: one bucket per level.
    fn delta_hint(_p: &Prepared) -> Option<u32> {
        Some(0)
    }

    fn run(
        p: &Prepared,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<BfsOutput, AppError> {
        let g = &p.graph;
        match sched {
            Some(s) => Ok(by_name(s, exec, g, p.source)?),
            None => Ok(bfs::direction::run(
                g,
                in_edges(g, p.symmetric),
                p.source,
                exec,
            )?),
        }
    }

    fn report(out: &BfsOutput) -> &RunReport {
        &out.report
    }

    fn oracle(p: &Prepared) -> Vec<u32> {
        bfs::serial_bfs(&p.graph, p.source)
    }

    fn oracle_labels(_p: &Prepared, expected: &Vec<u32>) -> Option<Vec<u64>> {
        Some(widen(expected))
    }

    fn verify(p: &Prepared, expected: &Vec<u32>, out: &BfsOutput) -> Result<(), VerifyError> {
        same(&p.graph, &out.level, expected)
    }

    fn per_node<'a>(_p: &'a Prepared, out: &'a BfsOutput) -> Option<PerNode<'a>> {
        Some(Box::new(|v| or_inf(out.level[v as usize], bfs::UNREACHED)))
    }

    fn summary(
        p: &Prepared,
        runs: &[BfsOutput],
        _expected: Option<&Vec<u32>>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let out = &runs[0];
        let (reached, sum, max) = bfs::summarize(&out.level);
        let frontier = !ctx.method.scheduled;
        json!({
            "algo": ctx.method.name,
            "source": p.graph.file_id(p.source),
            "prep_s": p.prep_s,
            "stale_tasks": out.stats.stale_tasks,
            "top_down_steps": frontier.then_some(out.stats.top_down_steps),
            "bottom_up_steps": frontier.then_some(out.stats.bottom_up_steps),
            "reached": reached,
            "level_sum": sum,
            "max_level": max,
        })
    }
}

//! `bc` in the application registry.

use crate::app::{
    Answer, App, AppError, AppSpec, Param, PerNode, Prepared, RunContext, Source, Values,
};
use crate::bc::{self, BcConfig, BcOutput, Direction, Layout, Queues};
use crate::variants::{Method, Variant, Variants};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_sched::SchedulerConfig;
use serde_json::json;

/// Level-synchronous Brandes with its own queues, not a priority scheduler: levels that pull
/// where the frontier is dense (the default), or that of the NUMA-aware BC paper
/// (Frasca et al., SC'12), where every level pushes.
pub const VARIANTS: Variants = Variants {
    app: "bc",
    few_threads: None,
    list: &[
        Variant {
            method: Method::Direction,
            about: "level-synchronous Brandes whose dense levels pull over in-edges (GBBS's \
                    edgeMap) on symmetric graphs, with the layout and NUMA-aware queues of \
                    Frasca et al. (SC'12)",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::Push,
            about: "Frasca et al.'s (SC'12) level-synchronous Brandes: every level pushes (as \
                    GAPBS's bc)",
            scheduled: false,
            serial: false,
        },
    ],
};

pub struct Bc;

/// Beside the graph the sources run on: the input, or its copy in ADL's order, made once (the
/// input is then freed with the source, when nothing else holds it). Either names nodes as
/// the input does: a relabelling keeps the id base, and the scores come back in the input's
/// order.
pub struct Setup {
    /// ADL's relabelling, when the graph is the copy in its order.
    layout: Option<Box<bc::AdlLayout>>,
    /// Node indices, in order (the first lays out ADL).
    sources: Vec<u32>,
    seed: u64,
    config: BcConfig,
}

type P = Prepared<Setup>;

/// The sources `--source` or `--sources` name.
fn sources_of(source: &mut dyn Source, values: &Values) -> Result<Vec<u32>, AppError> {
    if let Some(id) = values.int("source") {
        return Ok(vec![source.node("source", id)?]);
    }
    let g = source.graph();
    let n = g.num_nodes();
    if n == 0 {
        return Err(AppError::Input("the graph has no nodes".into()));
    }
    let spec = values.text("sources").unwrap_or("50").trim();
    if spec == "all" {
        return Ok((0..n as u32).map(|i| g.node_of_index(i)).collect());
    }
    let usage = |m: String| AppError::Usage(m);
    if !spec.contains(',') {
        let k: usize = spec.parse().map_err(|_| {
            usage(format!(
                "--sources {spec}: expected a count, `all`, or a list such as 1,2,3"
            ))
        })?;
        if k == 0 {
            return Err(usage("--sources 0: need at least one source".into()));
        }
        // Sampled among the file's positions, so that a renumbered graph runs the same sources.
        let sample = bc::sample_sources(n, k, values.int("seed").unwrap_or(1));
        return Ok(sample.into_iter().map(|i| g.node_of_index(i)).collect());
    }
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let id: u64 = part
            .parse()
            .map_err(|_| usage(format!("--sources: '{part}' is not a node id")))?;
        out.push(source.node("source", id)?);
    }
    if out.is_empty() {
        return Err(usage("--sources: the list names no node".into()));
    }
    Ok(out)
}

impl App for Bc {
    type Setup = Setup;
    type Output = BcOutput;
    type Expected = Vec<f64>;

    const SPEC: AppSpec = AppSpec {
        name: "bc",
        about: "Betweenness centrality on sampled sources, with ADL and NUMA-aware queues \
                (verified against serial Brandes)",
        after_help: Some(
            "bc distributes each BFS level with its own queues (--queues, --task): \
             --scheduler, --param and --chunk do not apply. --out writes `id score` per node.",
        ),
        examples: &[
            "ordo bc USA-road-d.NY.gr.gz --sources 32 --seed 7 --working-set",
            "ordo bc email-Enron.txt.gz --sources 1,5,9 --layout input --queues dynamic",
            "ordo bc email-Enron.txt.gz --symmetrize --sources 8 --algo push",
        ],
        params: &[
            Param::node(
                "source",
                "One source node, as the file numbers nodes (GAPBS's -r)",
            )
            .conflicts_with("sources"),
            Param::text(
                "sources",
                "Sources: a count K to sample uniformly (with --seed), `all`, or a \
                 comma-separated list of node ids as the file numbers them (one node: \
                 --source N)",
            )
            .default("50"),
            Param::int("seed", 0, u64::MAX, "Seed of the source sample").default("1"),
            Param::choice(
                "layout",
                &["auto", "adl", "input"],
                "Graph layout: adl relabels the graph after one BFS (Frasca et al., SC'12, \
                 §III-A; the relabelling is reported as adl_s, outside the run's time), input \
                 keeps it; auto picks adl from 4 sources on, where the relabelling pays for \
                 itself, unless that BFS pulls a level (--algo direction): then input",
            )
            .default("auto"),
            Param::choice(
                "queues",
                &["nwq", "dynamic"],
                "Work queues: nwq (per-thread, stolen in NUMA order, Frasca et al., SC'12, \
                 §III-B) or dynamic (one shared cursor, the OpenMP dynamic baseline)",
            )
            .default("nwq"),
            Param::int("task", 1, 1_000_000, "Vertices per task").default("16"),
            Param::flag(
                "working-set",
                "Count the distinct vertices each thread touches per source (costs time)",
            ),
        ],
        variants: &VARIANTS,
        headline: &[
            "algo",
            "sources",
            "max",
            "argmax",
            "pulled_levels",
            "adl_bfs_equivalents",
        ],
        no_per_node: None,
        no_scheduler: Some(
            "bc distributes each BFS level with its own queues (--queues nwq|dynamic, --task); \
             --scheduler, --param, --chunk and the scheduler probes do not apply",
        ),
        simulated: false,
    };

    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        let sources = sources_of(source, values)?;
        if source.graph().is_weighted() {
            notes
                .push("betweenness counts shortest paths in hops: edge weights are ignored".into());
        }
        source.drop_weights();
        let g = source.graph();
        let direction = match method.method {
            Method::Push => Direction::Push,
            _ => Direction::Optimizing,
        };
        // Checked here, once, rather than in the first run (the answer is kept with the
        // graph): dense levels pull over a symmetric graph's own arcs.
        if direction == Direction::Optimizing
            && !g.is_symmetric(ordo_graph::prep_threads())
            && g.transpose().is_none()
        {
            notes.push(
                "bc: the graph is directed, so every level pushes (dense levels pull over the \
                 in-edges of symmetric graphs)"
                    .into(),
            );
        }
        let config = BcConfig {
            direction,
            queues: values
                .text("queues")
                .unwrap_or("nwq")
                .parse::<Queues>()
                .map_err(AppError::Usage)?,
            layout: Layout::choose(values.text("layout").unwrap_or("auto"), sources.len())
                .map_err(AppError::Usage)?,
            task: values.int("task").unwrap_or(bc::DEFAULT_TASK as u64) as usize,
            working_set: values.flag("working-set"),
            pull_every_level: false,
        };
        // ADL relabels here, once for every run, on as many threads as the machine has (the
        // runs' count is not known yet; the order is by depth first).
        let layout = bc::AdlLayout::of(
            &g,
            &sources,
            &config,
            &ExecConfig::new(ordo_graph::prep_threads()),
        )?;
        let graph = layout.as_ref().map_or(g, |l| l.graph.clone());
        let setup = Setup {
            layout: layout.map(Box::new),
            sources,
            seed: values.int("seed").unwrap_or(1),
            config,
        };
        Ok(Prepared::new(graph, setup))
    }

    fn run(
        p: &P,
        _method: &Variant,
        _sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<BcOutput, AppError> {
        let (sources, config) = (&p.setup.sources, &p.setup.config);
        Ok(match &p.setup.layout {
            None => bc::run_on_input(&p.graph, sources, config, exec)?,
            Some(layout) => bc::run_on_layout(layout, sources, config, exec)?,
        })
    }

    /// Serial Brandes, its sources shared by the machine's cores ([`bc::serial_brandes_split`]).
    fn oracle(p: &P) -> Vec<f64> {
        let threads = ordo_graph::prep_threads();
        match &p.setup.layout {
            None => bc::serial_brandes_split(&p.graph, &p.setup.sources, threads),
            Some(layout) => {
                let sources = layout.map_nodes(&p.setup.sources);
                let scores = bc::serial_brandes_split(&layout.graph, &sources, threads);
                layout.unmap_values(&scores)
            }
        }
    }

    fn verify(p: &P, expected: &Vec<f64>, out: &BcOutput) -> Result<(), VerifyError> {
        bc::compare_scores(&out.scores, expected, |v| p.graph.file_id(v))
    }

    fn per_node<'a>(_p: &'a P, out: &'a BcOutput) -> Option<PerNode<'a>> {
        Some(Box::new(|v| format!("{:.9e}", out.scores[v as usize])))
    }

    fn answer(_p: &P, out: BcOutput) -> Answer {
        Answer::Floats(out.scores)
    }

    fn summary(
        p: &P,
        out: &BcOutput,
        _expected: Option<&Vec<f64>>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let (g, config) = (&p.graph, &p.setup.config);
        let (argmax, max) =
            out.scores
                .iter()
                .enumerate()
                .fold((0, f64::NEG_INFINITY), |best, (v, &s)| {
                    if s > best.1 {
                        (v, s)
                    } else {
                        best
                    }
                });
        let total = &out.report.total;
        let ws = out.working_set.as_ref().map(|w| {
            json!({
                "mean": w.mean,
                "ideal": w.ideal,
                "over_ideal": w.mean / w.ideal.max(1e-12),
                "per_thread": w.per_thread,
            })
        });
        // What the sources ran on (`auto` resolved).
        let (layout, queues) = (out.layout().name(), config.queues.name());
        json!({
            // bc's own work distribution in place of a scheduler.
            "scheduler": format!("bc-{queues}"),
            "algo": ctx.method.name(),
            "scheduler_label": format!("{layout}+{queues}(task {})", config.task),
            "params": { "layout": layout, "queues": queues, "task": config.task },
            "sources": p.setup.sources.len(),
            "source_ids": p.setup.sources.iter().take(100).map(|&s| g.file_id(s)).collect::<Vec<_>>(),
            "seed": p.setup.seed,
            "layout": layout,
            "queues": queues,
            "task": config.task,
            "sum": out.scores.iter().sum::<f64>(),
            "max": max,
            "argmax": g.file_id(argmax as u32),
            "per_source_ms": ctx.median_s * 1e3 / p.setup.sources.len() as f64,
            "reached": out.reached,
            "edges_scanned": total.app[bc::EDGES],
            "levels": total.app[bc::LEVELS],
            "pulled_levels": total.app[bc::PULLED_LEVELS],
            "chunks": total.pops,
            "foreign_chunks": total.app[bc::FOREIGN_CHUNKS],
            "adl_s": out.adl.map(|c| c.seconds),
            "adl_bfs_equivalents": out.adl.map(|c| c.bfs_equivalents),
            "working_set": ws,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::app::App;

    #[test]
    fn the_declared_task_default_is_the_library_default() {
        let task = super::Bc::SPEC
            .params
            .iter()
            .find(|p| p.name == "task")
            .unwrap();
        assert_eq!(task.default.unwrap(), crate::bc::DEFAULT_TASK.to_string());
    }
}

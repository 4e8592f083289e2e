//! `ordo bc`: betweenness centrality on sampled sources, with seed 001's adaptive data layout
//! and NUMA-aware work queues.

use crate::args::{InputArgs, RunArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::{load_noted, LoadedInput};
use crate::output::{finish_runs, verify_with};
use crate::run::{exec_config_threads, exec_error, write_values, Runs};
use ordo_algos::bc::{self, BcConfig, Layout, Queues};
use serde_json::json;

#[derive(Debug, Clone, clap::Args)]
pub struct BcArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// One source node, as the file numbers nodes (GAPBS's -r)
    #[arg(long, conflicts_with = "sources")]
    pub source: Option<u64>,
    /// Sources: a count K to sample uniformly (with --seed), `all`, or a comma-separated list
    /// of node ids as the file numbers them (one node: --source N)
    #[arg(long, default_value = "50")]
    pub sources: String,
    /// Seed of the source sample
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Graph layout: adl relabels the graph after one BFS (seed 001 §III-A; the relabelling is
    /// reported as adl_s, outside the run's time), input keeps it; auto picks adl from 4
    /// sources on, where the relabelling pays for itself
    #[arg(long, default_value = "auto", value_parser = ["auto", "adl", "input"])]
    pub layout: String,
    /// Work queues: nwq (per-thread, stolen in NUMA order, seed 001 §III-B) or dynamic (one
    /// shared cursor, the OpenMP dynamic baseline)
    #[arg(long, default_value = "nwq", value_parser = ["nwq", "dynamic"])]
    pub queues: String,
    /// Vertices per task
    #[arg(long, default_value_t = bc::DEFAULT_TASK as u32,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub task: u32,
    /// Count the distinct vertices each thread touches per source (costs time)
    #[arg(long)]
    pub working_set: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

/// The sources as node indices, in order (the first lays out ADL).
fn sources_of(a: &BcArgs, li: &LoadedInput) -> CliResult<Vec<u32>> {
    let g = &li.graph;
    let n = g.num_nodes();
    if n == 0 {
        return Err(CliError::input("the graph has no nodes"));
    }
    if let Some(id) = a.source {
        return Ok(vec![g.node_from_file_id(id).map_err(CliError::input)?]);
    }
    let spec = a.sources.trim();
    if spec == "all" {
        return Ok((0..n as u32).collect());
    }
    if !spec.contains(',') {
        let k: usize = spec.parse().map_err(|_| {
            CliError::usage(format!(
                "--sources {spec}: expected a count, `all`, or a list such as 1,2,3"
            ))
        })?;
        if k == 0 {
            return Err(CliError::usage("--sources 0: need at least one source"));
        }
        return Ok(bc::sample_sources(n, k, a.seed));
    }
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let id: u64 = part
            .parse()
            .map_err(|_| CliError::usage(format!("--sources: '{part}' is not a node id")))?;
        out.push(g.node_from_file_id(id).map_err(CliError::input)?);
    }
    if out.is_empty() {
        return Err(CliError::usage("--sources: the list names no node"));
    }
    Ok(out)
}

pub fn bc_cmd(a: &BcArgs) -> CliResult {
    let r = &a.run;
    if r.sched.scheduler != "auto" || !r.sched.params.is_empty() || r.sched.chunk.is_some() {
        return Err(CliError::usage(
            "bc distributes each BFS level with its own queues (--queues nwq|dynamic, --task); \
             --scheduler, --param and --chunk do not apply",
        ));
    }
    let li = load_noted(&a.input)?;
    let sources = sources_of(a, &li)?;
    let g = &li.graph;
    if g.is_weighted() {
        note("betweenness counts shortest paths in hops: edge weights are ignored");
    }
    let config = BcConfig {
        queues: a.queues.parse::<Queues>().map_err(CliError::usage)?,
        layout: Layout::choose(&a.layout, sources.len()).map_err(CliError::usage)?,
        task: a.task as usize,
        working_set: a.working_set,
    };
    let cfg = exec_config_threads(r, None)?;
    let runs = Runs::collect(r.repeat, || {
        bc::run(g, &sources, &config, &cfg).map_err(exec_error)
    })?;
    let verified = verify_with(
        r,
        || bc::serial_brandes(g, &sources),
        |expected| {
            for o in &runs.results {
                bc::compare_scores(&o.scores, expected, |v| g.file_id(v))
                    .map_err(CliError::input)?;
            }
            Ok(())
        },
    )?;
    let out = &runs.results[0];
    if let Some(path) = &r.out {
        write_values(g, path, &out.scores, |s| format!("{s:.9e}"))?;
    }
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
    let median = runs.median_time().as_secs_f64();
    let sched = json!({
        "scheduler": format!("bc-{}", config.queues.name()),
        "scheduler_label": format!("{}+{}(task {})", config.layout.name(), config.queues.name(), config.task),
        "params": { "layout": config.layout.name(), "queues": config.queues.name(), "task": config.task },
    });
    let ws = out.working_set.as_ref().map(|w| {
        json!({
            "mean": w.mean,
            "ideal": w.ideal,
            "over_ideal": w.mean / w.ideal.max(1e-12),
            "per_thread": w.per_thread,
        })
    });
    finish_runs(
        "bc",
        &li,
        r,
        sched,
        cfg.threads,
        &runs,
        &verified,
        json!({
            "sources": sources.len(),
            "source_ids": sources.iter().take(100).map(|&s| g.file_id(s)).collect::<Vec<_>>(),
            "seed": a.seed,
            "layout": config.layout.name(),
            "queues": config.queues.name(),
            "task": config.task,
            "sum": out.scores.iter().sum::<f64>(),
            "max": max,
            "argmax": g.file_id(argmax as u32),
            "per_source_ms": median * 1e3 / sources.len() as f64,
            "reached": out.reached,
            "edges_scanned": total.app[bc::EDGES],
            "levels": total.app[bc::LEVELS],
            "chunks": total.pops,
            "foreign_chunks": total.app[bc::FOREIGN_CHUNKS],
            "adl_s": out.adl.map(|c| c.seconds),
            "adl_bfs_equivalents": out.adl.map(|c| c.bfs_equivalents),
            "working_set": ws,
        }),
        &["sources", "max", "argmax", "adl_bfs_equivalents"],
    );
    Ok(())
}

//! `ordo sssp` and `ordo bfs`.

use crate::args::{InputArgs, RunArgs};
use crate::error::{CliError, CliResult};
use crate::load::{load, LoadedInput};
use crate::run::{
    exec_config, params_json, run_bfs, run_sssp, scheduler_config, stats_json, write_values, Runs,
};
use ordo_algos::{bfs, sssp};
use ordo_exec::ExecConfig;
use ordo_graph::{Graph, WeightSpec};
use ordo_sched::SchedulerConfig;
use serde_json::json;

#[derive(Debug, Clone, clap::Args)]
pub struct SsspArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source node, as the file numbers nodes (1-based for DIMACS/METIS/MTX) [default: first node]
    #[arg(long)]
    pub source: Option<u64>,
    /// Priority shift for bucketing schedulers (auto, obim): one bucket per 2^K distance units
    /// [default: log2(max weight / mean degree) of the graph]
    #[arg(long, value_name = "K")]
    pub delta: Option<u32>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Clone, clap::Args)]
pub struct BfsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source node, as the file numbers nodes [default: first node]
    #[arg(long)]
    pub source: Option<u64>,
    #[command(flatten)]
    pub run: RunArgs,
}

fn source_of(li: &LoadedInput, source: Option<u64>) -> CliResult<u32> {
    let g = &li.graph;
    if g.num_nodes() == 0 {
        return Err(CliError::input("the graph has no nodes"));
    }
    match source {
        None => Ok(0),
        Some(id) => g.node_from_file_id(id).map_err(CliError::input),
    }
}

fn header(app: &str, li: &LoadedInput, run: &RunArgs) -> serde_json::Value {
    json!({
        "app": app,
        "graph": li.graph_name,
        "format": li.format.name(),
        "nodes": li.graph.num_nodes(),
        "edges": li.graph.num_edges(),
        "load_s": li.load_s,
        "repeat": run.repeat,
    })
}

/// Notes go to stderr, so `--json` output on stdout stays one clean object.
fn note(msg: &str) {
    eprintln!("note: {msg}");
}

pub fn sssp_cmd(a: &SsspArgs) -> CliResult {
    let mut li = load(&a.input)?;
    for n in &li.notes {
        note(n);
    }
    if !li.graph.is_weighted() {
        let spec = WeightSpec::DEFAULT;
        note(&format!(
            "the graph has no weights: using random weights {spec} (set with --weights)"
        ));
        li.graph.assign_weights(spec);
        li.weights = Some(spec);
    }
    let src = source_of(&li, a.source)?;
    let g = &li.graph;
    let delta = a.delta.unwrap_or_else(|| sssp::default_delta(g));
    let sched = scheduler_config(&a.run, Some(delta))?;
    let cfg = exec_config(&a.run, &sched)?;
    let runs = run_sssp(g, src, &sched, &cfg, a.run.repeat)?;
    let verified = verify_runs(&a.run, g, runs.results.iter().map(|r| &r.dist[..]), || {
        sssp::dijkstra(g, src)
    })?;
    let out = &runs.results[0];
    write_out(g, &a.run, &out.dist, sssp::UNREACHABLE)?;
    let (reached, sum, max) = sssp::summarize(&out.dist);
    let mut j = header("sssp", &li, &a.run);
    merge(&mut j, run_fields(&sched, &cfg, g, src, &runs, verified));
    merge(
        &mut j,
        json!({
            "delta": sched.has_param("delta").then_some(delta),
            "weights": li.weights.map(|w| w.to_string()),
            "stale_tasks": out.stats.stale_tasks,
            "improving_relaxations": out.stats.improving_relaxations,
            "edges_scanned": out.stats.edges_scanned,
            "reached": reached,
            "dist_sum": sum as u64,
            "max_dist": max,
        }),
    );
    emit(&j, &a.run, &["reached", "dist_sum", "max_dist"]);
    Ok(())
}

pub fn bfs_cmd(a: &BfsArgs) -> CliResult {
    let li = load(&a.input)?;
    for n in &li.notes {
        note(n);
    }
    let src = source_of(&li, a.source)?;
    let g = &li.graph;
    let sched = scheduler_config(&a.run, Some(0))?;
    let cfg = exec_config(&a.run, &sched)?;
    let runs = run_bfs(g, src, &sched, &cfg, a.run.repeat)?;
    let verified = verify_runs(&a.run, g, runs.results.iter().map(|r| &r.level[..]), || {
        bfs::serial_bfs(g, src)
    })?;
    let out = &runs.results[0];
    write_out(g, &a.run, &out.level, bfs::UNREACHED)?;
    let (reached, sum, max) = bfs::summarize(&out.level);
    let mut j = header("bfs", &li, &a.run);
    merge(&mut j, run_fields(&sched, &cfg, g, src, &runs, verified));
    merge(
        &mut j,
        json!({
            "stale_tasks": out.stats.stale_tasks,
            "reached": reached,
            "level_sum": sum,
            "max_level": max,
        }),
    );
    emit(&j, &a.run, &["reached", "level_sum", "max_level"]);
    Ok(())
}

/// The JSON fields about the run every application reports.
fn run_fields<R>(
    sched: &SchedulerConfig,
    cfg: &ExecConfig,
    g: &Graph,
    src: u32,
    runs: &Runs<R>,
    verified: Option<bool>,
) -> serde_json::Value {
    let median = runs.median_time();
    json!({
        "scheduler": sched.name(),
        "scheduler_label": sched.label(),
        "params": params_json(sched),
        "threads": cfg.threads,
        "source": g.file_id(src),
        "time_s": median.as_secs_f64(),
        "times_s": runs.reports.iter().map(|r| r.time.as_secs_f64()).collect::<Vec<_>>(),
        "verified": verified,
        "stats": stats_json(&runs.reports, median),
    })
}

/// Checks every run's values against the oracle, computed once; `None` with `--no-verify`.
fn verify_runs<'r, V: PartialEq + Copy + std::fmt::Display + 'r>(
    run: &RunArgs,
    g: &Graph,
    results: impl Iterator<Item = &'r [V]>,
    oracle: impl FnOnce() -> Vec<V>,
) -> CliResult<Option<bool>> {
    if run.no_verify {
        return Ok(None);
    }
    let expected = oracle();
    for got in results {
        verify_against(got, &expected, g)?;
    }
    Ok(Some(true))
}

/// `--out`: `id value` per node, `inf` where the value is `unreached`.
fn write_out<V: Copy + PartialEq + std::fmt::Display>(
    g: &Graph,
    run: &RunArgs,
    values: &[V],
    unreached: V,
) -> CliResult {
    match &run.out {
        Some(path) => write_values(g, path, values, |v| {
            if v == unreached {
                "inf".into()
            } else {
                v.to_string()
            }
        }),
        None => Ok(()),
    }
}

/// One JSON object on stdout with `--json`, else the text summary ending with `results`.
fn emit(j: &serde_json::Value, run: &RunArgs, results: &[&str]) {
    if run.json {
        println!("{j}");
    } else {
        print_summary(j, results);
    }
}

/// Compares with the oracle; a mismatch is exit status 1.
fn verify_against<V: PartialEq + Copy + std::fmt::Display>(
    got: &[V],
    expected: &[V],
    g: &Graph,
) -> CliResult {
    ordo_algos::compare(got, expected, |v| v.to_string(), |v| g.file_id(v)).map_err(CliError::input)
}

fn merge(a: &mut serde_json::Value, b: serde_json::Value) {
    if let (Some(a), serde_json::Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
}

fn print_summary(j: &serde_json::Value, results: &[&str]) {
    let s = |k: &str| match &j[k] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "-".into(),
        v => v.to_string(),
    };
    println!(
        "{} on {} ({} nodes, {} arcs, loaded in {:.3} s)",
        s("app"),
        s("graph"),
        s("nodes"),
        s("edges"),
        j["load_s"].as_f64().unwrap_or(0.0)
    );
    println!(
        "  scheduler {}  threads {}  source {}{}",
        s("scheduler_label"),
        s("threads"),
        s("source"),
        match &j["weights"] {
            serde_json::Value::String(w) => format!("  weights {w}"),
            _ => String::new(),
        }
    );
    let st = &j["stats"];
    println!(
        "  time {:.2} ms (median of {})  tasks {}  pushes {}  empty pops {}  stale {}",
        j["time_s"].as_f64().unwrap_or(0.0) * 1e3,
        s("repeat"),
        st["tasks"],
        st["pushes"],
        st["empty_pops"],
        s("stale_tasks")
    );
    let parts: Vec<String> = results.iter().map(|k| format!("{k} {}", s(k))).collect();
    println!("  {}", parts.join("  "));
    println!(
        "  verified: {}",
        match j["verified"] {
            serde_json::Value::Bool(true) => "yes (matches the serial oracle)",
            _ => "skipped (--no-verify)",
        }
    );
}

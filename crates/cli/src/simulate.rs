//! `ordo simulate`: an application on P logical workers interleaved deterministically on one
//! thread (the simulation executor, `crates/exec/src/simulate.rs`), reporting work increase
//! over the exact serial scheduler and the rank error of the tasks popped.

use crate::apps::ensure_weights;
use crate::args::{InputArgs, SchedArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::{load_noted, LoadedInput};
use crate::output::sched_json;
use crate::run::{exec_error, scheduler_config};
use ordo_algos::named::{self, NamedRunError};
use ordo_algos::{bfs, cc, kcore, mst, pagerank, sssp, tc};
use ordo_exec::{ExecConfig, RunReport, MAX_THREADS};
use ordo_graph::Graph;
use ordo_sched::{SchedulerConfig, Topology};
use serde_json::json;
use std::time::Instant;

/// The applications `ordo simulate` runs.
pub const APPS: [&str; 7] = ["sssp", "bfs", "cc", "kcore", "pagerank", "mst", "tc"];

#[derive(Debug, Clone, clap::Args)]
pub struct SimulateArgs {
    /// Application: sssp, bfs, cc, kcore, pagerank, mst or tc
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(APPS))]
    pub app: String,
    #[command(flatten)]
    pub input: InputArgs,
    /// Logical workers P, or a comma-separated list of them (e.g. 1,16,64,256)
    #[arg(long, short = 'P', value_delimiter = ',', default_value = "64")]
    pub workers: Vec<usize>,
    #[command(flatten)]
    pub sched: SchedArgs,
    /// Source node for sssp and bfs, as the file numbers nodes [default: first node]
    #[arg(long)]
    pub source: Option<u64>,
    /// Priority shift for sssp's bucketing schedulers [default: as for `ordo sssp`]
    #[arg(long, value_name = "K")]
    pub delta: Option<u32>,
    /// PageRank's tolerance (as `ordo pagerank --tolerance`)
    #[arg(long, default_value_t = 1e-6)]
    pub tolerance: f64,
    /// Print one JSON object on stdout instead of the table
    #[arg(long)]
    pub json: bool,
}

/// What one simulated run left to check: `Err(why)` when it disagrees with the oracle.
type Checked = Result<(), String>;

pub fn simulate_cmd(a: &SimulateArgs) -> CliResult {
    if let Some(&p) = a.workers.iter().find(|&&p| p == 0 || p > MAX_THREADS) {
        return Err(CliError::usage(format!(
            "--workers {p}: must be in 1..={MAX_THREADS}"
        )));
    }
    let mut li = load_noted(&a.input)?;
    if li.graph.num_nodes() == 0 {
        return Err(CliError::input("the graph has no nodes"));
    }
    let source = |li: &LoadedInput| match a.source {
        None => Ok(0),
        Some(id) => li.graph.node_from_file_id(id).map_err(CliError::input),
    };
    match a.app.as_str() {
        "sssp" => {
            ensure_weights(&mut li);
            let (g, src) = (&li.graph, source(&li)?);
            let delta = a.delta.unwrap_or_else(|| sssp::default_delta(g));
            let expected = sssp::dijkstra(g, src);
            sweep(a, &li, g, Some(delta), |s, cfg| {
                let o = named::sssp(s, cfg, g, src)?;
                Ok((o.report, same(g, &o.dist, &expected)))
            })
        }
        "bfs" => {
            let (g, src) = (&li.graph, source(&li)?);
            let expected = bfs::serial_bfs(g, src);
            sweep(a, &li, g, Some(0), |s, cfg| {
                let o = named::bfs(s, cfg, g, src)?;
                Ok((o.report, same(g, &o.level, &expected)))
            })
        }
        "cc" => {
            let g = &ordo_graph::undirected_simple(&li.graph)?;
            let expected = cc::serial_cc(g);
            sweep(a, &li, g, Some(cc::default_delta(g)), |s, cfg| {
                let o = named::cc(s, cfg, g)?;
                Ok((o.report, same(g, &o.label, &expected)))
            })
        }
        "kcore" => {
            let g = &ordo_graph::undirected_simple(&li.graph)?;
            let expected = kcore::serial_kcore(g);
            sweep(a, &li, g, Some(kcore::default_delta(g)), |s, cfg| {
                let o = named::kcore(s, cfg, g)?;
                Ok((o.report, same(g, &o.core, &expected)))
            })
        }
        "pagerank" => {
            if !(a.tolerance > 0.0 && a.tolerance < 1.0) {
                return Err(CliError::usage(format!(
                    "--tolerance {}: must be in (0, 1)",
                    a.tolerance
                )));
            }
            let g = &li.graph;
            let exact = pagerank::power_iteration(g).0;
            let kind = pagerank::PriorityKind::Pr;
            sweep(a, &li, g, None, |s, cfg| {
                let o = named::pagerank(s, cfg, g, a.tolerance, kind)?;
                let checked = pagerank::check(&exact, &o).map(|_| ());
                Ok((o.report, checked.map_err(|e| e.to_string())))
            })
        }
        "mst" => {
            ensure_weights(&mut li);
            let g = &ordo_graph::undirected_simple(&li.graph)?;
            let expected = mst::kruskal(g);
            sweep(a, &li, g, Some(0), |s, cfg| {
                let o = named::mst(s, cfg, g)?;
                let checked = (o.edges == expected)
                    .then_some(())
                    .ok_or_else(|| format!("a forest of weight {}, not Kruskal's", o.weight));
                Ok((o.report, checked))
            })
        }
        _ => {
            let g = &ordo_graph::undirected_simple(&li.graph)?;
            let expected = tc::serial_tc(g);
            sweep(a, &li, g, None, |s, cfg| {
                let o = named::tc(s, cfg, g)?;
                let checked = (o.triangles == expected).then_some(()).ok_or_else(|| {
                    format!("{} triangles, the oracle counts {expected}", o.triangles)
                });
                Ok((o.report, checked))
            })
        }
    }
}

/// `Ok` when the labels agree with the oracle's, else the verifier's message (in the file's
/// node ids).
fn same<V: PartialEq + Copy + std::fmt::Display>(g: &Graph, got: &[V], expected: &[V]) -> Checked {
    ordo_algos::compare(got, expected, |v| v.to_string(), |v| g.file_id(v))
        .map_err(|e| e.to_string())
}

/// Simulates the application at every `--workers` count and at P = 1 under the exact serial
/// scheduler (the work baseline), checks every result, and prints the table or JSON.
fn sweep(
    a: &SimulateArgs,
    li: &LoadedInput,
    g: &Graph,
    delta: Option<u32>,
    once: impl Fn(&SchedulerConfig, &ExecConfig) -> Result<(RunReport, Checked), NamedRunError>,
) -> CliResult {
    let topology: Topology = a.sched.topology.parse().map_err(CliError::usage)?;
    let sched = scheduler_config(&a.sched, delta)?;
    let serial = scheduler_config(&a.sched.serial(), delta)?;
    let simulate = |s: &SchedulerConfig, p: usize| -> CliResult<(RunReport, f64)> {
        let cfg = ExecConfig {
            pin: false,
            simulate: true,
            cancel: Some(crate::interrupt::cancel_flag()),
            ..ExecConfig::with_topology(p, topology.clone())
        };
        let _armed = crate::interrupt::Armed::new();
        let start = Instant::now();
        let (report, checked) = once(s, &cfg).map_err(|e| match e {
            NamedRunError::Scheduler(e) => CliError::usage(e),
            NamedRunError::Exec(e) => exec_error(e),
        })?;
        checked.map_err(|why| {
            CliError::input(format!(
                "verification failed: {} on {p} simulated workers: {why}",
                s.label()
            ))
        })?;
        Ok((report, start.elapsed().as_secs_f64()))
    };
    let (base, _) = simulate(&serial, 1)?;
    let base_tasks = base.total.tasks.max(1);
    let mut points = Vec::new();
    for &p in &a.workers {
        if !a.json {
            note(&format!("simulating {} workers", p));
        }
        let (r, secs) = simulate(&sched, p)?;
        points.push(point_json(&r, base_tasks, secs));
    }
    let mut j = json!({
        "app": a.app,
        "graph": li.graph_name,
        "nodes": g.num_nodes(),
        "edges": g.num_edges(),
        "delta": crate::run::sched_delta(&sched),
        "serial_tasks": base.total.tasks,
        "verified": true,
    });
    if let (Some(o), serde_json::Value::Object(s)) = (j.as_object_mut(), sched_json(&sched)) {
        o.extend(s);
    }
    if let [single] = &points[..] {
        if let (Some(o), serde_json::Value::Object(p)) = (j.as_object_mut(), single.clone()) {
            o.extend(p);
        }
    } else {
        j["points"] = points.clone().into();
    }
    if a.json {
        println!("{j}");
    } else {
        print_table(&j, &points);
    }
    Ok(())
}

/// One worker count's measurements.
fn point_json(r: &RunReport, base_tasks: u64, secs: f64) -> serde_json::Value {
    let sim = r.simulation.clone().unwrap_or_default();
    let rank = sim.rank_summary();
    json!({
        "workers": sim.workers,
        "tasks": r.total.tasks,
        "work_increase": r.total.tasks as f64 / base_tasks as f64,
        "pushes": r.total.pushes,
        "empty_pops": r.total.empty_pops,
        "rounds": sim.rounds,
        "rank_error_mean": rank.map(|s| s.mean),
        "rank_error_p50": rank.map(|s| s.p50),
        "rank_error_p90": rank.map(|s| s.p90),
        "rank_error_p99": rank.map(|s| s.p99),
        "rank_error_max": rank.map(|s| s.max),
        "rank_samples": rank.map_or(0, |s| s.samples),
        "simulation_s": secs,
    })
}

fn print_table(j: &serde_json::Value, points: &[serde_json::Value]) {
    println!(
        "{} on {} ({} nodes, {} arcs), scheduler {}, simulated; serial tasks {}",
        j["app"].as_str().unwrap_or("?"),
        j["graph"].as_str().unwrap_or("?"),
        j["nodes"],
        j["edges"],
        j["scheduler_label"].as_str().unwrap_or("?"),
        j["serial_tasks"]
    );
    println!(
        "  {:>7} {:>12} {:>9} {:>10} {:>8} {:>8} {:>8}",
        "workers", "tasks", "work+", "rank mean", "p50", "p99", "max"
    );
    let num = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "-".to_string(),
        v => v.to_string(),
    };
    for p in points {
        println!(
            "  {:>7} {:>12} {:>9.4} {:>10} {:>8} {:>8} {:>8}",
            p["workers"].as_u64().unwrap_or(0),
            p["tasks"].as_u64().unwrap_or(0),
            p["work_increase"].as_f64().unwrap_or(0.0),
            p["rank_error_mean"]
                .as_f64()
                .map_or("-".into(), |m| format!("{m:.2}")),
            num(&p["rank_error_p50"]),
            num(&p["rank_error_p99"]),
            num(&p["rank_error_max"]),
        );
    }
    println!("  verified: yes (every run matches the serial oracle)");
}

//! `ordo simulate`: an application on P logical workers interleaved deterministically on one
//! thread (the simulation executor, `crates/exec/src/simulate.rs`), reporting work increase
//! over the exact serial scheduler and the rank error of the tasks popped.

use crate::args::{InputArgs, SchedArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::load_noted;
use crate::output::sched_json;
use crate::run::{app_error, exec_error};
use ordo_algos::app::{App, AppError, AppVisitor, OwnedSource, Plan, RunRequest, Value, Values};
use ordo_exec::{ExecConfig, RunReport, MAX_THREADS};
use ordo_sched::{parse_param, SchedulerConfig, Topology};
use serde_json::json;
use std::time::Instant;

/// The applications `ordo simulate` runs: those whose scheduled method it can simulate.
pub fn apps() -> Vec<&'static str> {
    ordo_algos::APPS
        .iter()
        .filter(|a| a.simulated)
        .map(|a| a.name)
        .collect()
}

#[derive(Debug, Clone, clap::Args)]
pub struct SimulateArgs {
    /// Application (one with a priority-scheduled method)
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(apps()))]
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
    /// PageRank's tolerance, networkx's per-node meaning (as `ordo pagerank --tolerance`,
    /// whose own default is 1e-4 / nodes)
    #[arg(long, default_value_t = 1e-6)]
    pub tolerance: f64,
    /// Print one JSON object on stdout instead of the table
    #[arg(long)]
    pub json: bool,
}

pub fn simulate_cmd(a: &SimulateArgs) -> CliResult {
    if let Some(&p) = a.workers.iter().find(|&&p| p == 0 || p > MAX_THREADS) {
        return Err(CliError::usage(format!(
            "--workers {p}: must be in 1..={MAX_THREADS}"
        )));
    }
    ordo_algos::visit(&a.app, Simulate(a))
        .unwrap_or_else(|| Err(CliError::usage(format!("no application '{}'", a.app))))
}

struct Simulate<'a>(&'a SimulateArgs);

impl AppVisitor for Simulate<'_> {
    type Output = CliResult;
    fn visit<A: App>(self) -> CliResult {
        simulate::<A>(self.0)
    }
}

/// The application's parameters that `ordo simulate` takes: those it declares.
fn values_of(a: &SimulateArgs, spec: &ordo_algos::app::AppSpec) -> CliResult<Values> {
    let mut values = Values::new(spec.params);
    let declared = |name: &str| spec.params.iter().any(|p| p.name == name);
    let mut given = vec![];
    if let Some(s) = a.source {
        given.push(("source", Value::Int(s)));
    }
    if let Some(d) = a.delta {
        given.push(("delta", Value::Int(d as u64)));
    }
    given.push(("tolerance", Value::Float(a.tolerance)));
    for (name, v) in given {
        if declared(name) {
            values.set(name, v).map_err(CliError::usage)?;
        }
    }
    Ok(values)
}

/// Simulates the application's scheduled method at every `--workers` count and at P = 1
/// under the exact serial scheduler (the work baseline), checks every result against the
/// oracle, and prints the table or JSON.
fn simulate<A: App>(a: &SimulateArgs) -> CliResult {
    let spec = &A::SPEC;
    let method = spec
        .variants
        .scheduled()
        .expect("simulated applications have a scheduled method");
    let topology: Topology = a.sched.topology.parse().map_err(CliError::usage)?;
    let request = |s: &SchedArgs| -> CliResult<RunRequest> {
        let mut params = Vec::new();
        for p in &s.params {
            params.push(parse_param(p).map_err(CliError::usage)?);
        }
        Ok(RunRequest {
            algo: method.name().into(),
            scheduler: s.scheduler.clone(),
            params,
            chunk: s.chunk,
            // The plan's own executor is not used: each point has its simulated one.
            threads: Some(1),
            pin: false,
            ..RunRequest::new(topology.clone())
        })
    };
    let (main, serial) = (request(&a.sched)?, request(&a.sched.serial())?);
    let li = load_noted(&a.input)?;
    if li.graph.num_nodes() == 0 {
        return Err(CliError::input("the graph has no nodes"));
    }
    let graph_name = li.graph_name.clone();
    let mut source = OwnedSource::new(li.graph, li.weights, a.input.flags.symmetrize);
    let mut notes = Vec::new();
    let plan = Plan::<A>::new(&mut source, &values_of(a, spec)?, &main, &mut notes);
    drop(source);
    for n in &notes {
        note(n);
    }
    let plan = plan.map_err(app_error)?;
    let expected = plan.oracle();
    let sched = plan.sched().expect("the scheduled method").clone();
    let serial = plan.scheduler_for(&serial).map_err(app_error)?;
    let simulate = |s: &SchedulerConfig, workers: usize| -> CliResult<(RunReport, f64)> {
        let cfg = ExecConfig {
            pin: false,
            simulate: true,
            cancel: Some(crate::interrupt::cancel_flag()),
            ..ExecConfig::with_topology(workers, topology.clone())
        };
        let _armed = crate::interrupt::Armed::new();
        let start = Instant::now();
        let out = plan.run_on(Some(s), &cfg).map_err(|e| match e {
            AppError::Exec(e) => exec_error(e),
            e => app_error(e),
        })?;
        plan.verify(&expected, &out).map_err(|why| {
            CliError::input(format!(
                "{} on {workers} simulated workers: {why}",
                s.label()
            ))
        })?;
        Ok((plan.report(&out).clone(), start.elapsed().as_secs_f64()))
    };
    let (base, _) = simulate(&serial, 1)?;
    let base_tasks = base.total.tasks.max(1);
    let mut points = Vec::new();
    for &workers in &a.workers {
        if !a.json {
            note(&format!("simulating {workers} workers"));
        }
        let (r, secs) = simulate(&sched, workers)?;
        points.push(point_json(&r, base_tasks, secs));
    }
    let mut j = json!({
        "app": a.app,
        "graph": graph_name,
        "nodes": plan.graph().num_nodes(),
        "edges": plan.graph().num_edges(),
        "delta": sched.delta(),
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

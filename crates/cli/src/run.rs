//! Running an application with the shared run flags: scheduler by name, repeats, median time,
//! verification against the serial oracle, JSON or text output, and `--out`.

use crate::args::{RunArgs, SchedArgs};
use crate::error::{CliError, CliResult};
use ordo_algos::named::NamedRunError;
use ordo_algos::{astar, bfs, cc, kcore, mst, pagerank, sssp, tc};
use ordo_exec::{
    default_threads, Breakdown, ExecConfig, ExecError, Probes, RunReport, MAX_THREADS,
};
use ordo_graph::Graph;
use ordo_sched::{parse_param, SchedulerConfig, Topology};
use std::time::Duration;

/// The scheduler configuration from `--scheduler`, `--param`, `--chunk` and an app's delta.
pub fn scheduler_config(a: &SchedArgs, delta: Option<u32>) -> CliResult<SchedulerConfig> {
    let mut params = Vec::new();
    for p in &a.params {
        params.push(parse_param(p).map_err(CliError::usage)?);
    }
    let mut cfg = SchedulerConfig::parse(&a.scheduler, &params).map_err(CliError::usage)?;
    if let Some(c) = a.chunk {
        cfg.set("chunk", &c.to_string()).map_err(CliError::usage)?;
    }
    if let Some(d) = delta {
        cfg.hint_delta(d, &params).map_err(CliError::usage)?;
    }
    Ok(cfg)
}

/// The executor configuration; without `--threads`, every core (or the scheduler's maximum, so
/// `--scheduler serial` needs no `--threads 1`).
pub fn exec_config(a: &RunArgs, sched: &SchedulerConfig) -> CliResult<ExecConfig> {
    exec_config_threads(a, sched.max_workers())
}

/// The executor configuration for at most `max_workers` default threads.
pub fn exec_config_threads(a: &RunArgs, max_workers: Option<usize>) -> CliResult<ExecConfig> {
    let topology: Topology = a.sched.topology.parse().map_err(CliError::usage)?;
    let threads = a.threads.unwrap_or_else(|| default_threads(max_workers));
    if threads == 0 || threads > MAX_THREADS {
        return Err(CliError::usage(format!(
            "--threads {threads}: must be in 1..={MAX_THREADS}"
        )));
    }
    Ok(ExecConfig {
        pin: !a.no_pin,
        cancel: Some(crate::interrupt::cancel_flag()),
        probes: Probes {
            breakdown: a.breakdown,
            trace: a.trace,
            rank: a.rank_error,
            oracle: None,
        },
        ..ExecConfig::with_topology(threads, topology)
    })
}

/// Results of `repeat` runs of one application.
pub struct Runs<R> {
    pub results: Vec<R>,
    pub reports: Vec<RunReport>,
}

impl<R: AppOutput> Runs<R> {
    /// `repeat` runs of `once`, keeping each output and its report.
    pub fn collect(repeat: u32, mut once: impl FnMut() -> CliResult<R>) -> CliResult<Self> {
        let mut runs = Runs {
            results: vec![],
            reports: vec![],
        };
        for done in 0..repeat {
            if crate::interrupt::requested() {
                // Ctrl-C came after the last run's tasks were done, while it finished up.
                return Err(CliError::interrupted_between(done, repeat));
            }
            let out = {
                let _armed = crate::interrupt::Armed::new();
                once().map_err(|mut e| {
                    if e.code == crate::interrupt::EXIT_INTERRUPTED && repeat > 1 {
                        e.message += &format!(" (run {} of {repeat})", done + 1);
                    }
                    e
                })?
            };
            runs.reports.push(out.report().clone());
            runs.results.push(out);
        }
        Ok(runs)
    }
}

impl<R> Runs<R> {
    pub fn median_time(&self) -> Duration {
        let mut t: Vec<Duration> = self.reports.iter().map(|r| r.time).collect();
        t.sort();
        t[t.len() / 2]
    }
}

/// The CLI's error for a failed run: a Ctrl-C becomes the partial report.
pub fn exec_error(e: ExecError) -> CliError {
    match e {
        ExecError::Cancelled(report) => CliError::interrupted(&report),
        e => CliError::input(e),
    }
}

/// What every application's output carries: the executor's report of the run.
pub trait AppOutput {
    fn report(&self) -> &RunReport;
}

/// Every application's output carries its run report.
macro_rules! app_output {
    ($($out:ty),*) => {$(
        impl AppOutput for $out {
            fn report(&self) -> &RunReport {
                &self.report
            }
        }
    )*};
}

app_output!(
    sssp::SsspOutput,
    bfs::BfsOutput,
    astar::AstarOutput,
    cc::CcOutput,
    kcore::KcoreOutput,
    pagerank::PrOutput,
    mst::MstOutput,
    tc::TcOutput,
    ordo_algos::bc::BcOutput,
    ordo_algos::pfp::PfpOutput
);

impl AppOutput for pagerank::Scores {
    fn report(&self) -> &RunReport {
        self.report()
    }
}

/// One application's runs with the scheduler and executor configuration they used.
pub struct AppRun<O> {
    pub sched: SchedulerConfig,
    pub cfg: ExecConfig,
    pub runs: Runs<O>,
}

impl<O> AppRun<O> {
    /// The first run's output (what `--out` writes and the JSON describes).
    pub fn first(&self) -> &O {
        &self.runs.results[0]
    }
}

/// Builds the scheduler (with the application's `delta` hint) and executor configuration
/// from the run flags, then runs the application `--repeat` times.
/// `once` is one of [`ordo_algos::named`]'s functions with the inputs bound.
pub fn run_app<O: AppOutput>(
    a: &RunArgs,
    delta: Option<u32>,
    once: impl Fn(&SchedulerConfig, &ExecConfig) -> Result<O, NamedRunError>,
) -> CliResult<AppRun<O>> {
    run_with_oracle(a, delta, None::<fn() -> Vec<u64>>, once)
}

/// [`run_app`] for an application whose answer is one label per node: with `--breakdown`,
/// the serial oracle's `labels` are computed first (untimed) so that tasks can tell good work
/// from work that later proves useless.
pub fn run_app_labelled<O: AppOutput>(
    a: &RunArgs,
    delta: Option<u32>,
    labels: impl FnOnce() -> Vec<u64>,
    once: impl Fn(&SchedulerConfig, &ExecConfig) -> Result<O, NamedRunError>,
) -> CliResult<AppRun<O>> {
    run_with_oracle(a, delta, Some(labels), once)
}

/// Builds the configurations, computes the oracle's `labels` when `--breakdown` needs them,
/// and runs the application `--repeat` times.
fn run_with_oracle<O: AppOutput>(
    a: &RunArgs,
    delta: Option<u32>,
    labels: Option<impl FnOnce() -> Vec<u64>>,
    once: impl Fn(&SchedulerConfig, &ExecConfig) -> Result<O, NamedRunError>,
) -> CliResult<AppRun<O>> {
    let sched = scheduler_config(&a.sched, delta)?;
    let mut cfg = exec_config(a, &sched)?;
    if let (true, Some(labels)) = (a.breakdown, labels) {
        cfg.probes.oracle = Some(labels().into());
    }
    let runs = run_repeated(&sched, &cfg, a.repeat, once)?;
    Ok(AppRun { sched, cfg, runs })
}

/// Runs an application `repeat` times on fresh schedulers built from `sched`.
pub fn run_repeated<O: AppOutput>(
    sched: &SchedulerConfig,
    cfg: &ExecConfig,
    repeat: u32,
    once: impl Fn(&SchedulerConfig, &ExecConfig) -> Result<O, NamedRunError>,
) -> CliResult<Runs<O>> {
    Runs::collect(repeat, || {
        once(sched, cfg).map_err(|e| match e {
            NamedRunError::Scheduler(e) => CliError::usage(e),
            NamedRunError::Exec(e) => exec_error(e),
        })
    })
}

/// Writes `id value` lines with the file's ids; `show` renders a value.
pub fn write_values<V: Copy>(
    g: &Graph,
    path: &std::path::Path,
    values: &[V],
    show: impl Fn(V) -> String,
) -> CliResult {
    use std::io::Write;
    let f = std::fs::File::create(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut w = std::io::BufWriter::new(f);
    for (v, &x) in values.iter().enumerate() {
        writeln!(w, "{} {}", g.file_id(v as u32), show(x))
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    }
    w.flush()
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// The priority shift the scheduler actually uses: its `delta` parameter, which is the
/// application's hint unless `--param delta=K` set it (`None` for schedulers without one).
pub fn sched_delta(sched: &SchedulerConfig) -> Option<u32> {
    sched
        .params()
        .into_iter()
        .find(|p| p.key == "delta")
        .and_then(|p| p.default.parse().ok())
}

/// The scheduler's parameters as a JSON object.
pub fn params_json(sched: &SchedulerConfig) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for p in sched.params() {
        m.insert(p.key.to_string(), serde_json::Value::String(p.default));
    }
    serde_json::Value::Object(m)
}

/// The run whose time is the median (its counts are the ones reported).
pub fn median_report(reports: &[RunReport], median: Duration) -> &RunReport {
    reports
        .iter()
        .find(|r| r.time == median)
        .unwrap_or(&reports[0])
}

pub fn stats_json(reports: &[RunReport], median: Duration) -> serde_json::Value {
    let r = median_report(reports, median);
    let mut sched = serde_json::Map::new();
    for (k, v) in &r.scheduler.0 {
        sched.insert(k.to_string(), (*v).into());
    }
    let events: Vec<serde_json::Value> = r
        .events
        .iter()
        .map(|e| {
            serde_json::json!({
                "time_s": e.time_ns as f64 * 1e-9,
                "name": e.name,
                "old": e.old,
                "new": e.new,
            })
        })
        .collect();
    serde_json::json!({
        "tasks": r.total.tasks,
        "pushes": r.total.pushes,
        "pops": r.total.pops,
        "empty_pops": r.total.empty_pops,
        "scheduler": sched,
        "events": events,
    })
}

/// The `breakdown` object: each category's fraction of the cycles (summing to 1), the cycles
/// per enqueue and per dequeue, and the raw counts behind them.
pub fn breakdown_json(b: &Breakdown) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (k, f) in b.fractions() {
        m.insert(k.into(), f.into());
    }
    m.insert("cycles_per_enq".into(), b.cycles_per_enq().into());
    m.insert("cycles_per_deq".into(), b.cycles_per_deq().into());
    m.insert("cycles".into(), b.total().into());
    m.insert("enqs".into(), b.enqs.into());
    m.insert("deqs".into(), b.deqs.into());
    m.insert("fdeqs".into(), b.fdeqs.into());
    m.insert("clock".into(), ordo_exec::probe::CLOCK.into());
    serde_json::Value::Object(m)
}

/// The `trace` array: per worker, sampled `[seconds, priority]` pairs.
pub fn trace_json(r: &RunReport) -> serde_json::Value {
    r.traces
        .iter()
        .map(|t| {
            t.samples
                .iter()
                .map(|&(ns, p)| serde_json::json!([ns as f64 * 1e-9, p]))
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>()
        .into()
}

/// The `rank_error` object: summary statistics of the sampled rank errors.
pub fn rank_json(r: &ordo_exec::RankSamples) -> serde_json::Value {
    let s = r.summary();
    serde_json::json!({
        "ranked_tasks": r.ranked_pops,
        "samples": s.map_or(0, |s| s.samples),
        "mean": s.map(|s| s.mean),
        "p50": s.map(|s| s.p50),
        "p90": s.map(|s| s.p90),
        "p99": s.map(|s| s.p99),
        "max": s.map(|s| s.max),
    })
}

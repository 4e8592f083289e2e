//! The run flags as a run request, repeated runs and their median, the CLI's errors, and the
//! JSON of a run's report.

use crate::args::RunArgs;
use crate::error::{CliError, CliResult};
use ordo_algos::app::{AppError, RunRequest, SpecError};
use ordo_exec::{Breakdown, ExecError, Probes, RunReport, MAX_THREADS};
use ordo_graph::Graph;
use ordo_sched::{parse_param, SchedulerConfig, Topology};
use std::time::Duration;

/// The run request of the run flags: the scheduler by name with its parameters, the threads,
/// the probes, and Ctrl-C as the cancel flag; `--algo auto`, nothing asking for a scheduler
/// by name ([`RunRequest::asks_scheduler`]).
pub fn run_request(a: &RunArgs) -> CliResult<RunRequest> {
    let s = &a.sched;
    let mut params = Vec::new();
    for p in &s.params {
        params.push(parse_param(p).map_err(CliError::usage)?);
    }
    let topology: Topology = s.topology.parse().map_err(CliError::usage)?;
    Ok(RunRequest {
        scheduler: s.scheduler.clone(),
        params,
        chunk: s.chunk,
        threads: a.threads,
        pin: !a.no_pin,
        probes: Probes {
            breakdown: a.breakdown,
            trace: a.trace,
            rank: a.rank_error,
            oracle: None,
        },
        cancel: Some(crate::interrupt::cancel_flag()),
        ..RunRequest::new(topology)
    })
}

/// The CLI's error for a request that cannot run.
fn spec_error(e: SpecError) -> CliError {
    match e {
        SpecError::Threads(t) => {
            CliError::usage(format!("--threads {t}: must be in 1..={MAX_THREADS}"))
        }
        SpecError::Scheduler(e) => CliError::usage(e),
        SpecError::NoDelta(_) => CliError::usage(e),
    }
}

/// The CLI's error for an application that did not produce a verified result.
pub fn app_error(e: AppError) -> CliError {
    match e {
        AppError::Usage(m) => CliError::usage(m),
        AppError::Input(m) | AppError::NoSuchNode(m) => CliError::input(m),
        AppError::NoCoordinates => {
            CliError::input("A* needs node coordinates: pass --coords FILE (.co or .xyz)")
        }
        AppError::Spec(e) => spec_error(e),
        AppError::Exec(e) => exec_error(e),
        AppError::Verify(e) => CliError::input(e),
    }
}

/// Results of `repeat` runs of one application: the first run's output and every run's
/// report. Later outputs are checked as they come and dropped, so `--repeat` does not hold
/// `repeat` answers at once (1000 runs of PageRank on a million nodes would keep 8 GB).
pub struct Runs<R> {
    pub first: R,
    pub reports: Vec<RunReport>,
}

impl<R> Runs<R> {
    /// `repeat` runs of `once` (at least one), each output handed to `check` as soon as it
    /// exists; the first output and every report are kept (`report` finds it).
    pub fn collect(
        repeat: u32,
        report: impl Fn(&R) -> &RunReport,
        mut once: impl FnMut() -> CliResult<R>,
        mut check: impl FnMut(&R) -> CliResult,
    ) -> CliResult<Self> {
        let repeat = repeat.max(1);
        let mut first = None;
        let mut reports = Vec::with_capacity(repeat as usize);
        // Armed through the checks too: a Ctrl-C while a run is checked (its oracle computed,
        // its answer compared) stops before the next run, as one during a run stops that run.
        let _armed = crate::interrupt::Armed::new();
        for done in 0..repeat {
            if crate::interrupt::requested() {
                // Ctrl-C came after the last run's tasks were done, while it finished up or
                // was checked.
                return Err(CliError::interrupted_between(done, repeat));
            }
            let out = once().map_err(|mut e| {
                if e.code == crate::interrupt::EXIT_INTERRUPTED && repeat > 1 {
                    e.message += &format!(" (run {} of {repeat})", done + 1);
                }
                e
            })?;
            check(&out)?;
            reports.push(report(&out).clone());
            if first.is_none() {
                first = Some(out);
            }
        }
        if crate::interrupt::requested() {
            // Ctrl-C came while the last run was checked.
            return Err(CliError::interrupted_between(repeat, repeat));
        }
        Ok(Runs {
            first: first.expect("at least one run"),
            reports,
        })
    }

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

/// Writes `id value` lines with the file's ids, in the file's order; `show` renders node
/// `v`'s value.
pub fn write_values(g: &Graph, path: &std::path::Path, show: impl Fn(u32) -> String) -> CliResult {
    use std::io::Write;
    let f = std::fs::File::create(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut w = std::io::BufWriter::new(f);
    for i in 0..g.num_nodes() as u32 {
        let v = g.node_of_index(i);
        writeln!(w, "{} {}", g.file_id(v), show(v))
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    }
    w.flush()
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))
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

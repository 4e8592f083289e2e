//! What every application prints: the JSON header and run fields, verification against the
//! oracle, `--out`, and the text summary.

use crate::args::RunArgs;
use crate::error::{CliError, CliResult};
use crate::load::LoadedInput;
use crate::run::{
    breakdown_json, median_report, params_json, rank_json, stats_json, trace_json, write_values,
    AppRun, Runs,
};
use ordo_graph::Graph;
use serde_json::json;

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

/// Prints an application's result: the header and run fields every application reports, then
/// its own `fields`, as JSON or as the text summary ending with `results`.
pub fn finish<O>(
    app: &str,
    li: &LoadedInput,
    run: &RunArgs,
    r: &AppRun<O>,
    check: &Verification,
    fields: serde_json::Value,
    results: &[&str],
) {
    let sched = sched_json(&r.sched);
    finish_runs(
        app,
        li,
        run,
        sched,
        r.cfg.threads,
        &r.runs,
        check,
        fields,
        results,
    );
}

/// The `scheduler`, `scheduler_label` and `params` fields.
pub fn sched_json(sched: &ordo_sched::SchedulerConfig) -> serde_json::Value {
    json!({
        "scheduler": sched.name(),
        "scheduler_label": sched.label(),
        "params": params_json(sched),
    })
}

/// [`finish`] for an application with its own work distribution instead of a priority
/// scheduler (bc): `sched` gives its `scheduler`, `scheduler_label` and `params` fields.
#[allow(clippy::too_many_arguments)]
pub fn finish_runs<O>(
    app: &str,
    li: &LoadedInput,
    run: &RunArgs,
    sched: serde_json::Value,
    threads: usize,
    runs: &Runs<O>,
    check: &Verification,
    fields: serde_json::Value,
    results: &[&str],
) {
    let mut j = header(app, li, run);
    merge(&mut j, sched);
    merge(&mut j, run_fields(threads, runs, check));
    merge(&mut j, fields);
    emit(&j, run, results);
}

/// The JSON fields about the run every application reports.
fn run_fields<R>(threads: usize, runs: &Runs<R>, check: &Verification) -> serde_json::Value {
    let median = runs.median_time();
    let r = median_report(&runs.reports, median);
    let mut j = json!({
        "threads": threads,
        "time_s": median.as_secs_f64(),
        "times_s": runs.reports.iter().map(|r| r.time.as_secs_f64()).collect::<Vec<_>>(),
        "verified": check.verified,
        "oracle_s": check.oracle_s,
        "vs_oracle": check.oracle_s.map(|o| o / median.as_secs_f64().max(1e-9)),
        "stats": stats_json(&runs.reports, median),
    });
    if let Some(b) = &r.breakdown {
        j["breakdown"] = breakdown_json(b);
    }
    if !r.traces.is_empty() {
        j["trace"] = trace_json(r);
    }
    if let Some(ranks) = &r.rank {
        j["rank_error"] = rank_json(ranks);
    }
    j
}

/// The outcome of checking a run against its serial oracle, and what the oracle cost: the
/// baseline every parallel time is compared with.
pub struct Verification {
    /// `None` with `--no-verify`.
    pub verified: Option<bool>,
    /// Seconds the serial oracle took.
    pub oracle_s: Option<f64>,
}

/// Runs the oracle once (timed) and `check`s its answer; skipped with `--no-verify`.
pub fn verify_with<O>(
    run: &RunArgs,
    oracle: impl FnOnce() -> O,
    check: impl FnOnce(&O) -> CliResult,
) -> CliResult<Verification> {
    if run.no_verify {
        return Ok(Verification {
            verified: None,
            oracle_s: None,
        });
    }
    let start = std::time::Instant::now();
    let expected = oracle();
    let oracle_s = start.elapsed().as_secs_f64();
    check(&expected)?;
    Ok(Verification {
        verified: Some(true),
        oracle_s: Some(oracle_s),
    })
}

/// Checks every run's values against the oracle, computed once.
pub fn verify_runs<'r, V: PartialEq + Copy + std::fmt::Display + 'r>(
    run: &RunArgs,
    g: &Graph,
    results: impl Iterator<Item = &'r [V]>,
    oracle: impl FnOnce() -> Vec<V>,
) -> CliResult<Verification> {
    verify_with(run, oracle, |expected| {
        for got in results {
            verify_against(got, expected, g)?;
        }
        Ok(())
    })
}

/// `--out`: `id value` per node, `inf` where the value is `unreached`.
pub fn write_out<V: Copy + PartialEq + std::fmt::Display>(
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
pub fn verify_against<V: PartialEq + Copy + std::fmt::Display>(
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
        "  scheduler {}  threads {}{}{}",
        s("scheduler_label"),
        s("threads"),
        match &j["source"] {
            serde_json::Value::Null => String::new(),
            v => format!("  source {v}"),
        },
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
    if let Some(b) = j["breakdown"].as_object() {
        let pct = |k: &str| b[k].as_f64().unwrap_or(0.0) * 100.0;
        println!(
            "  cycles: gwork {:.1}%  uwork {:.1}%  enq {:.1}%  deq {:.1}%  fdeq {:.1}%  other \
             {:.1}%  ({:.0} per enq, {:.0} per deq)",
            pct("gwork"),
            pct("uwork"),
            pct("enq"),
            pct("deq"),
            pct("fdeq"),
            pct("other"),
            b["cycles_per_enq"].as_f64().unwrap_or(0.0),
            b["cycles_per_deq"].as_f64().unwrap_or(0.0),
        );
    }
    match (
        &j["verified"],
        j["oracle_s"].as_f64(),
        j["vs_oracle"].as_f64(),
    ) {
        (serde_json::Value::Bool(true), Some(o), Some(x)) => println!(
            "  verified: yes (matches the serial oracle, which took {:.2} ms: {x:.2}x)",
            o * 1e3
        ),
        _ => println!("  verified: skipped (--no-verify)"),
    }
}

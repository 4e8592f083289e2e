//! What every application prints: the JSON header and run fields, the verification outcome,
//! and the text summary.

use crate::args::RunArgs;
use crate::load::LoadedInput;
use crate::run::{
    breakdown_json, median_report, params_json, rank_json, stats_json, trace_json, Runs,
};
use serde_json::json;

/// The JSON fields about the input every application reports, taken when it was loaded
/// (before the application made its own view of the graph).
pub struct Header(serde_json::Value);

impl Header {
    pub fn new(app: &str, li: &LoadedInput, run: &RunArgs) -> Header {
        Header(json!({
            "app": app,
            "graph": li.graph_name,
            "format": li.format.name(),
            "nodes": li.graph.num_nodes(),
            "edges": li.graph.num_edges(),
            "load_s": li.load_s,
            "shuffle": li.shuffle,
            "repeat": run.repeat,
        }))
    }
}

/// The `scheduler`, `scheduler_label` and `params` fields.
pub fn sched_json(sched: &ordo_sched::SchedulerConfig) -> serde_json::Value {
    json!({
        "scheduler": sched.name(),
        "scheduler_label": sched.label(),
        "params": params_json(sched),
    })
}

/// Prints an application's result: the header and run fields every application reports,
/// the scheduler's (`sched`: `scheduler`, `scheduler_label`, `params`), then its own `fields`
/// (which may override the scheduler's), as JSON or as the text summary ending with `results`.
#[allow(clippy::too_many_arguments)]
pub fn finish_runs<O>(
    header: &Header,
    run: &RunArgs,
    sched: serde_json::Value,
    threads: usize,
    runs: &Runs<O>,
    check: &Verification,
    fields: serde_json::Value,
    results: &[&str],
) {
    let mut j = header.0.clone();
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

impl Verification {
    /// `--no-verify`.
    pub fn skipped() -> Verification {
        Verification {
            verified: None,
            oracle_s: None,
        }
    }

    /// Every run matched the oracle, which took `oracle_s` seconds.
    pub fn passed(oracle_s: f64) -> Verification {
        Verification {
            verified: Some(true),
            oracle_s: Some(oracle_s),
        }
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

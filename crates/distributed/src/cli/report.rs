//! What a run reports: the communication figures summed over the ranks, the check against the
//! serial oracle, and the JSON or text summary rank 0 prints.

use super::args::Args;
use ordo_dist::net::Net;
use ordo_dist::runtime::Ran;
use ordo_dist::slots::Tasking;
use serde_json::{json, Map, Value};
use std::time::Instant;

/// Records, messages, bytes and buffering over the whole job.
pub fn comm_fields(net: &Net, ran: &Ran, out: &mut Map<String, Value>) {
    let time = ran.time.as_secs_f64();
    let max_time = net.max_f64(time);
    let messages = net.sum_u64(ran.comm.sent);
    let records = net.sum_u64(ran.records);
    let bytes = net.sum_u64(ran.comm.bytes_sent);
    out.insert("time_s".into(), json!(max_time));
    out.insert("messages".into(), json!(messages));
    out.insert("records".into(), json!(records));
    out.insert("folded".into(), json!(net.sum_u64(ran.folded)));
    out.insert("bytes".into(), json!(bytes));
    out.insert(
        "aggregation".into(),
        json!(if messages > 0 {
            records as f64 / messages as f64
        } else {
            0.0
        }),
    );
    out.insert(
        "peak_buffered_bytes".into(),
        json!(net.max_u64(ran.peak_buffered)),
    );
    let mut sum = |key: &str, x: u64| {
        out.insert(key.into(), json!(net.sum_u64(x)));
    };
    sum("credit_messages", ran.comm.credit_messages);
    sum("held_for_credit", ran.comm.held_for_credit);
    sum("congested_waits", ran.congested_waits);
    if let Tasking::Static { .. } = ran.tasking {
        sum("reserve_requests", ran.comm.reserve_requests);
        sum("reserve_denied", ran.comm.reserve_denied);
        sum("slot_waits", ran.slot_waits);
    }
    out.insert("termination_waves".into(), json!(ran.comm.waves));
    if let Tasking::Static { pool, block } = ran.tasking {
        out.insert("task_pool".into(), json!(pool));
        out.insert("reserve_block".into(), json!(block));
    }
    out.insert("tasks".into(), json!(net.sum_u64(ran.report.total.tasks)));
}

pub fn print(a: &Args, out: &Map<String, Value>) {
    if a.json {
        println!("{}", Value::Object(out.clone()));
        return;
    }
    let get = |k: &str| out.get(k).map_or(String::from("-"), |v| v.to_string());
    println!(
        "{} on {} ({} nodes, {} arcs), {} ranks x {} threads, partition {}",
        get("app"),
        a.graph,
        get("nodes"),
        get("edges"),
        get("ranks"),
        get("threads"),
        get("partition")
    );
    let result: Vec<String> = [
        "reached",
        "level_sum",
        "max_level",
        "dist_sum",
        "max_dist",
        "components",
        "largest",
        "triangles",
        "top",
    ]
    .iter()
    .filter_map(|k| out.get(*k).map(|v| format!("{k} {v}")))
    .collect();
    println!("  result: {}", result.join(", "));
    println!(
        "  time {:.4} s (load {:.3} s); {} messages, {} records (aggregation {:.1}), {} bytes, peak buffered {} bytes",
        out["time_s"].as_f64().unwrap_or(0.0),
        out["load_s"].as_f64().unwrap_or(0.0),
        get("messages"),
        get("records"),
        out["aggregation"].as_f64().unwrap_or(0.0),
        get("bytes"),
        get("peak_buffered_bytes")
    );
    match out.get("verified").and_then(Value::as_bool) {
        Some(true) => println!("  verified against the serial oracle"),
        Some(false) => println!("  VERIFICATION FAILED: {}", get("verify_error")),
        None => println!("  not verified (--no-verify)"),
    }
}

pub fn record_check<E: std::fmt::Display>(
    out: &mut Map<String, Value>,
    check: Result<(), E>,
    t: Instant,
) {
    out.insert("oracle_s".into(), json!(t.elapsed().as_secs_f64()));
    match check {
        Ok(()) => {
            out.insert("verified".into(), json!(true));
        }
        Err(e) => {
            out.insert("verified".into(), json!(false));
            out.insert("verify_error".into(), json!(e.to_string()));
        }
    }
}

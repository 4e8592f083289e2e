//! `tc`: triangles counted over the oriented, partitioned graph, checked against a serial count.

use crate::cli::args::scheduler;
use crate::cli::args::Args;
use crate::cli::oracle::{check, oracle_graph};
use crate::cli::report::record_check;
use ordo_algos::tc::{app::Tc as TcApp, TcOutput};
use ordo_dist::apps::tc::Tc;
use ordo_dist::graph::LocalGraph;
use ordo_dist::mail::MailConfig;
use ordo_dist::net::{DistResult, Net};
use ordo_dist::runtime::{self, Ran};
use ordo_exec::ExecConfig;
use serde_json::{json, Map, Value};
use std::time::Instant;

pub fn triangles(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let sched = scheduler(a, None)?;
    let t = Instant::now();
    let app = Tc::new(net, g, exec.threads)?;
    let prep_s = t.elapsed().as_secs_f64();
    let initial = app.initial();
    let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
    let (found, intersections) = app.totals(&ran.report);
    let total = net.sum_u64(found);
    let intersections = net.sum_u64(intersections);
    out.insert("scheduler".into(), json!(sched.label()));
    out.insert("undirected_edges".into(), json!(g.m / 2));
    out.insert("prep_s".into(), json!(prep_s));
    out.insert("triangles".into(), json!(total));
    out.insert("intersections".into(), json!(intersections));
    if let Some(full) = oracle_graph(net, a, g)? {
        let t = Instant::now();
        let answer = TcOutput {
            triangles: total,
            intersections,
            per_node: None,
            report: ran.report.clone(),
        };
        record_check(out, check::<TcApp>(full, &[], &answer), t);
    }
    Ok(ran)
}

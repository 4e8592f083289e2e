//! `bfs` and `sssp`: distances from one source, checked against a queue BFS or Dijkstra.

use crate::cli::args::App;
use crate::cli::args::{scheduler, usage};
use crate::cli::args::{Algo, Args};
use crate::cli::oracle::{check, for_oracle};
use crate::cli::report::record_check;
use ordo_algos::app::Value as AppValue;
use ordo_algos::bfs::{app::Bfs, BfsOutput};
use ordo_algos::sssp::{app::Sssp, SsspOutput};
use ordo_dist::apps::sssp::UNREACHABLE;
use ordo_dist::apps::{bfs, sssp::Paths};
use ordo_dist::bsp::halo::Halo;
use ordo_dist::graph::LocalGraph;
use ordo_dist::mail::MailConfig;
use ordo_dist::net::{DistResult, Net};
use ordo_dist::runtime::{self, Ran};
use ordo_exec::ExecConfig;
use serde_json::{json, Map, Value};
use std::time::Instant;

pub fn paths(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let unit = a.app == App::Bfs;
    let n = g.num_nodes() as u64;
    let source = match a.source {
        None => 0,
        Some(id) => {
            let base = g.id_base.offset();
            if id < base || id - base >= n {
                return Err(usage(format!(
                    "--source {id} is not a node of this graph (ids {base}..{})",
                    n + base - 1
                )));
            }
            (id - base) as u32
        }
    };
    // `Args::method` gives bfs `direction` or `tasks`, sssp `delta` or `tasks`.
    let (dist, ran) = match a.method()? {
        Algo::Direction => {
            let t = Instant::now();
            let halo = Halo::build(net, g)?;
            net.world_barrier();
            out.insert("prep_s".into(), json!(t.elapsed().as_secs_f64()));
            out.insert("in_edges".into(), json!(halo.in_edges_origin()));
            let run = ordo_dist::bsp::bfs::run(net, g, &halo, source, &exec)?;
            out.insert("scheduler".into(), json!("none"));
            out.insert("top_down_steps".into(), json!(run.top_down_steps));
            out.insert("bottom_up_steps".into(), json!(run.bottom_up_steps));
            let dist: Vec<u64> = run
                .level
                .iter()
                .map(|&l| match l {
                    ordo_algos::bfs::UNREACHED => UNREACHABLE,
                    l => l as u64,
                })
                .collect();
            (dist, run.ran)
        }
        Algo::Delta => {
            let inputs = delta_inputs(net, g);
            let delta = ordo_algos::delta::delta_for(&inputs);
            let workers = exec.threads * net.size;
            let width = ordo_algos::delta::delta_stepping_width(delta, &inputs, workers);
            let run = ordo_dist::bsp::sssp::run(net, g, source, width, &exec)?;
            out.insert("scheduler".into(), json!("none"));
            out.insert("delta".into(), json!(width));
            out.insert("rounds".into(), json!(run.rounds));
            out.insert(
                "improving_relaxations".into(),
                json!(net.sum_u64(run.improving)),
            );
            out.insert("edges_scanned".into(), json!(net.sum_u64(run.scanned)));
            out.insert("stale_tasks".into(), json!(net.sum_u64(run.stale)));
            out.insert("unsent".into(), json!(net.sum_u64(run.unsent)));
            out.insert("prep_s".into(), json!(run.prep.as_secs_f64()));
            (run.dist, run.ran)
        }
        _ => tasks(net, a, g, source, exec, mail, out)?,
    };
    let reached: Vec<u64> = dist
        .iter()
        .copied()
        .filter(|&d| d != ordo_dist::apps::sssp::UNREACHABLE)
        .collect();
    let count = net.sum_u64(reached.len() as u64);
    let sum = net.sum_u64(reached.iter().sum());
    let max = net.max_u64(reached.iter().copied().max().unwrap_or(0));
    out.insert("source".into(), json!(source as u64 + g.id_base.offset()));
    out.insert("reached".into(), json!(count));
    if unit {
        out.insert("level_sum".into(), json!(sum));
        out.insert("max_level".into(), json!(max));
    } else {
        out.insert("dist_sum".into(), json!(sum));
        out.insert("max_dist".into(), json!(max));
    }
    if let Some((full, all)) = for_oracle(net, a, g, &dist)? {
        let t = Instant::now();
        let values = [("source", AppValue::Int(source as u64 + g.id_base.offset()))];
        let report = ran.report.clone();
        let check = if unit {
            let level = all
                .iter()
                .map(|&d| match d {
                    UNREACHABLE => ordo_algos::bfs::UNREACHED,
                    d => d as u32,
                })
                .collect();
            let stats = Default::default();
            check::<Bfs>(
                full,
                &values,
                &BfsOutput {
                    level,
                    report,
                    stats,
                },
            )
        } else {
            let stats = Default::default();
            check::<Sssp>(
                full,
                &values,
                &SsspOutput {
                    dist: all,
                    report,
                    stats,
                },
            )
        };
        record_check(out, check, t);
    }
    Ok(ran)
}

/// bfs or sssp as asynchronous tasks under the scheduler; returns the owned nodes' distances.
fn tasks(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    source: u32,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<(Vec<u64>, Ran)> {
    let unit = a.app == App::Bfs;
    let delta = if unit {
        0
    } else {
        ordo_algos::delta::delta_for(&delta_inputs(net, g))
    };
    let sched = scheduler(a, Some(delta))?;
    let app = if unit {
        bfs::new(g)
    } else {
        Paths::new(g, false)
    };
    let initial = app.start(source);
    let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
    let (stale, improving, scanned) = Paths::counters(&ran.report);
    out.insert("scheduler".into(), json!(sched.label()));
    if !unit {
        out.insert("delta".into(), json!(delta));
        out.insert(
            "improving_relaxations".into(),
            json!(net.sum_u64(improving)),
        );
        out.insert("edges_scanned".into(), json!(net.sum_u64(scanned)));
    }
    out.insert("stale_tasks".into(), json!(net.sum_u64(stale)));
    Ok((app.into_dist(), ran))
}

/// The whole graph's figures for the delta rule: every rank's sums and the largest degree.
fn delta_inputs(net: &Net, g: &LocalGraph) -> ordo_algos::delta::DeltaInputs {
    let local = g.delta_inputs();
    ordo_algos::delta::DeltaInputs {
        active_nodes: net.sum_u64(local.active_nodes),
        arcs: net.sum_u64(local.arcs),
        weight_sum: net.sum_f64(local.weight_sum),
        max_degree: net.max_u64(local.max_degree),
    }
}

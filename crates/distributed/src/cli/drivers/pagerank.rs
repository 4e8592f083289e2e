//! `pagerank`: pull iteration (or residual pushing as tasks) across ranks, checked against
//! the power iteration.

use crate::cli::args::scheduler;
use crate::cli::args::{Algo, Args};
use crate::cli::oracle::for_oracle;
use crate::cli::report::record_check;
use ordo_algos::pagerank::pull::Until;
use ordo_dist::apps::pagerank::PageRank;
use ordo_dist::bsp::halo::Halo;
use ordo_dist::graph::LocalGraph;
use ordo_dist::mail::MailConfig;
use ordo_dist::net::{DistResult, Net};
use ordo_dist::runtime::{self, Ran};
use ordo_exec::ExecConfig;
use serde_json::{json, Map, Value};
use std::time::Instant;

/// The `k` best-scoring global ids on rank 0, ranked as `ordo_algos::pagerank::top` ranks
/// them, from every rank's own `k` best: no rank gathers all the scores.
fn top_ids(net: &Net, g: &LocalGraph, score: &[f64], k: usize) -> DistResult<Option<Vec<u32>>> {
    let local: Vec<u32> = ordo_algos::pagerank::top(score, k);
    let ids: Vec<u32> = local.iter().map(|&l| g.global(l)).collect();
    let scores: Vec<f64> = local.iter().map(|&l| score[l as usize]).collect();
    let (Some(ids), Some(scores)) = (net.gather(&ids)?, net.gather(&scores)?) else {
        return Ok(None);
    };
    let mut best: Vec<(f64, u32)> = scores.into_iter().zip(ids).collect();
    best.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    Ok(Some(best.into_iter().take(k).map(|(_, v)| v).collect()))
}

pub fn pagerank(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let tolerance = a.tolerance_for(g.num_nodes() as u64);
    let (score, leftover, error_bound, ran) = if a.method()? == Algo::Tasks {
        let sched = scheduler(a, None)?;
        let app = PageRank::new(g, tolerance);
        let initial = app.initial();
        let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
        let x: Vec<f64> = app.x.iter().map(|v| v.get()).collect();
        let leftover = net.sum_f64(app.r.iter().map(|v| v.get()).sum());
        let total = net.sum_f64(x.iter().sum());
        let (score, error_bound) =
            ordo_algos::pagerank::normalize(&x, total, leftover, g.num_nodes() as usize);
        out.insert("scheduler".into(), json!(sched.label()));
        out.insert("priority".into(), json!("pr"));
        out.insert("stopping_rule".into(), json!("residual"));
        out.insert("leftover_residual".into(), json!(leftover));
        out.insert(
            "empty_takes".into(),
            json!(net.sum_u64(PageRank::empty_takes(&ran.report))),
        );
        (score, leftover, error_bound, ran)
    } else {
        let t = Instant::now();
        let halo = Halo::build(net, g)?;
        net.world_barrier();
        out.insert("prep_s".into(), json!(t.elapsed().as_secs_f64()));
        out.insert("in_edges".into(), json!(halo.in_edges_origin()));
        out.insert(
            "ghosts".into(),
            json!(net.sum_u64(halo.ghosts.len() as u64)),
        );
        let until = Until {
            tolerance,
            iterations: a.iterations,
        };
        let run = ordo_dist::bsp::pagerank::run(net, g, &halo, until, &exec)?;
        out.insert("stopping_rule".into(), json!(until.rule()));
        out.insert("iterations".into(), json!(run.iterations));
        out.insert("last_change".into(), json!(run.last_change));
        out.insert("corrections".into(), json!(run.corrections));
        out.insert("precision".into(), json!(run.precision));
        (run.score, 0.0, run.error_bound, run.ran)
    };
    out.insert("damping".into(), json!(ordo_algos::pagerank::DAMPING));
    out.insert("tolerance".into(), json!(tolerance));
    out.insert("error_bound".into(), json!(error_bound));
    if let Some(top) = top_ids(net, g, &score, 10)? {
        let top: Vec<u64> = top
            .into_iter()
            .map(|v| v as u64 + g.id_base.offset())
            .collect();
        out.insert("top".into(), json!(top));
    }
    if let Some((full, all)) = for_oracle(net, a, g, &score)? {
        let t = Instant::now();
        let result = ordo_algos::pagerank::PrOutput {
            score: all,
            leftover,
            error_bound,
            empty_takes: 0,
            report: ran.report.clone(),
        };
        let check = ordo_algos::pagerank::verify(&full, &result);
        if let Ok(l1) = &check {
            out.insert("l1_vs_oracle".into(), json!(l1));
        }
        record_check(out, check.map(|_| ()).map_err(|e| e.to_string()), t);
    }
    Ok(ran)
}

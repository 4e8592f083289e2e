//! `cc`: connected components (Afforest within ranks, or label propagation as tasks), checked
//! against union-find.

use crate::cli::args::scheduler;
use crate::cli::args::{Algo, Args};
use crate::cli::oracle::{check, for_oracle};
use crate::cli::report::record_check;
use ordo_algos::cc::{app::Cc as CcApp, CcOutput};
use ordo_dist::apps::cc::Cc;
use ordo_dist::bsp::cc::CcInput;
use ordo_dist::graph::LocalGraph;
use ordo_dist::mail::MailConfig;
use ordo_dist::net::{DistResult, Net};
use ordo_dist::runtime::{self, Ran};
use ordo_exec::ExecConfig;
use serde_json::{json, Map, Value};
use std::time::Instant;

pub fn components(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let (label, ran) = if a.method()? == Algo::Tasks {
        let sched = scheduler(a, Some(ordo_algos::cc::delta_for(g.num_nodes() as u64)))?;
        let app = Cc::new(g);
        let initial = app.initial();
        let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
        out.insert("scheduler".into(), json!(sched.label()));
        out.insert(
            "stale_tasks".into(),
            json!(net.sum_u64(Cc::stale(&ran.report))),
        );
        (app.into_labels(), ran)
    } else {
        let t = Instant::now();
        let input = CcInput::build(g)?;
        net.world_barrier();
        out.insert("prep_s".into(), json!(t.elapsed().as_secs_f64()));
        let run = ordo_dist::bsp::cc::run(net, g, &input, a.gather_links, &exec)?;
        out.insert("scheduler".into(), json!("none"));
        out.insert("cut_rounds".into(), json!(run.rounds));
        let joined = if run.gathered { "rank 0" } else { "rounds" };
        out.insert("cut_joined_by".into(), json!(joined));
        (run.label, run.ran)
    };
    // A component's label is its smallest id, owned by the rank that owns that node.
    let roots = (0..g.local_nodes())
        .filter(|&l| label[l as usize] == g.global(l))
        .count() as u64;
    // Component sizes: count locally per label, add up at the label's owner.
    let mut sorted = label.clone();
    sorted.sort_unstable();
    let mut to: Vec<Vec<u64>> = vec![Vec::new(); net.size];
    let mut i = 0;
    while i < sorted.len() {
        let j = i + sorted[i..].partition_point(|&x| x == sorted[i]);
        to[g.part.owner(sorted[i])].extend_from_slice(&[sorted[i] as u64, (j - i) as u64]);
        i = j;
    }
    let (got, _) = net.exchange(&to)?;
    let mut size = std::collections::HashMap::<u64, u64>::new();
    for c in got.chunks_exact(2) {
        *size.entry(c[0]).or_default() += c[1];
    }
    let largest = net.max_u64(size.values().copied().max().unwrap_or(0));
    out.insert("undirected_edges".into(), json!(g.m / 2));
    out.insert("components".into(), json!(net.sum_u64(roots)));
    out.insert("largest".into(), json!(largest));
    if let Some((full, all)) = for_oracle(net, a, g, &label)? {
        let t = Instant::now();
        let report = ran.report.clone();
        let stats = Default::default();
        let answer = CcOutput {
            label: all,
            report,
            stats,
        };
        record_check(out, check::<CcApp>(full, &[], &answer), t);
    }
    Ok(ran)
}

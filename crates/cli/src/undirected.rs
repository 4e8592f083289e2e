//! `ordo cc`, `ordo kcore`, `ordo tc` and `ordo mst`: applications on the undirected simple view of the
//! input (both directions of every arc, no self-loops, no parallel arcs).

use crate::algo::{resolve, run_method};
use crate::apps::widen;
use crate::args::{InputArgs, RunArgs};
use crate::error::{CliError, CliResult};
use crate::load::{load_noted, LoadedInput};
use crate::output::{finish, finish_runs, verify_runs, verify_with, write_out};
use crate::run::{run_app, run_app_labelled};
use ordo_algos::{cc, kcore, mst, named, tc, variants};
use ordo_graph::Graph;
use serde_json::json;
use std::time::Instant;

#[derive(Debug, Clone, clap::Args)]
pub struct CcArgs {
    #[command(flatten)]
    pub app: UndirectedArgs,
    /// Method: auto (afforest, or priority when a scheduler is asked for), afforest (Afforest,
    /// Sutton et al. IPDPS 2018: sampled union-find linking on the frontier executor), priority
    /// (min-label propagation by priority, on --scheduler)
    #[arg(long, default_value = "auto", value_parser = variants::CC.names())]
    pub algo: String,
}

#[derive(Debug, Clone, clap::Args)]
pub struct KcoreArgs {
    #[command(flatten)]
    pub app: UndirectedArgs,
    /// Method: auto (peel, or priority when a scheduler is asked for), peel (bucketed peeling
    /// by levels, Julienne SPAA 2017, on the frontier executor), priority (asynchronous
    /// h-index updates, lowest estimate first, on --scheduler)
    #[arg(long, default_value = "auto", value_parser = variants::KCORE.names())]
    pub algo: String,
}

#[derive(Debug, Clone, clap::Args)]
pub struct MstArgs {
    #[command(flatten)]
    pub app: UndirectedArgs,
    /// Method: auto (boruvka, or priority when a scheduler is asked for), boruvka (parallel
    /// Boruvka rounds with edge filtering, on the frontier executor), priority (Boruvka with
    /// merging by priority, seed 000, on --scheduler)
    #[arg(long, default_value = "auto", value_parser = variants::MST.names())]
    pub algo: String,
}

#[derive(Debug, Clone, clap::Args)]
pub struct UndirectedArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Loads the input and builds its undirected simple view; returns the view and the seconds
/// that took.
fn undirected_input(a: &UndirectedArgs) -> CliResult<(LoadedInput, Graph, f64)> {
    undirected_input_with(a, |_| {})
}

/// As [`undirected_input`], running `prepare` on the input graph before the view is built.
fn undirected_input_with(
    a: &UndirectedArgs,
    prepare: impl FnOnce(&mut LoadedInput),
) -> CliResult<(LoadedInput, Graph, f64)> {
    let mut li = load_noted(&a.input)?;
    prepare(&mut li);
    let start = Instant::now();
    let g = ordo_graph::undirected_simple(&li.graph)?;
    Ok((li, g, start.elapsed().as_secs_f64()))
}

pub fn cc_cmd(a: &CcArgs) -> CliResult {
    let (li, g, prep_s) = undirected_input(&a.app)?;
    let g = &g;
    let run = &a.app.run;
    let algo = resolve(&variants::CC, &a.algo, run)?;
    let scheduled = || {
        let delta = Some(cc::default_delta(g));
        run_app_labelled(
            run,
            delta,
            || widen(&cc::serial_cc(g)),
            |s, cfg| named::cc(s, cfg, g),
        )
    };
    let r = run_method(run, algo, scheduled, |cfg| cc::afforest::run(g, cfg))?;
    let runs = &r.runs;
    let verified = verify_runs(run, g, runs.results.iter().map(|o| &o.label[..]), || {
        cc::serial_cc(g)
    })?;
    let out = &runs.results[0];
    // Labels are written as the file's id of the component's smallest node.
    let ids: Vec<u64> = out.label.iter().map(|&l| g.file_id(l)).collect();
    write_out(g, run, &ids, u64::MAX)?;
    finish_runs(
        "cc",
        &li,
        run,
        r.sched,
        r.threads,
        runs,
        &verified,
        json!({
            "algo": algo.name,
            "undirected_edges": g.num_edges() / 2,
            "prep_s": prep_s,
            "components": cc::count(&out.label),
            "largest": cc::largest(&out.label),
            "stale_tasks": out.stats.stale_tasks,
            "relabels": algo.scheduled.then_some(out.stats.relabels),
            "links": (!algo.scheduled).then_some(out.stats.relabels),
        }),
        &["algo", "components", "largest"],
    );
    Ok(())
}

pub fn kcore_cmd(a: &KcoreArgs) -> CliResult {
    let (li, g, prep_s) = undirected_input(&a.app)?;
    let g = &g;
    let run = &a.app.run;
    let algo = resolve(&variants::KCORE, &a.algo, run)?;
    let scheduled = || {
        let delta = Some(kcore::default_delta(g));
        run_app_labelled(
            run,
            delta,
            || widen(&kcore::serial_kcore(g)),
            |s, cfg| named::kcore(s, cfg, g),
        )
    };
    let r = run_method(run, algo, scheduled, |cfg| kcore::peel::run(g, cfg))?;
    let runs = &r.runs;
    let verified = verify_runs(run, g, runs.results.iter().map(|o| &o.core[..]), || {
        kcore::serial_kcore(g)
    })?;
    let out = &runs.results[0];
    write_out(g, run, &out.core, u32::MAX)?;
    let max_core = out.core.iter().copied().max().unwrap_or(0);
    finish_runs(
        "kcore",
        &li,
        run,
        r.sched,
        r.threads,
        runs,
        &verified,
        json!({
            "algo": algo.name,
            "undirected_edges": g.num_edges() / 2,
            "prep_s": prep_s,
            "max_core": max_core,
            "in_max_core": out.core.iter().filter(|&&c| c == max_core).count(),
            "lowered": algo.scheduled.then_some(out.stats.lowered),
            "unchanged": algo.scheduled.then_some(out.stats.unchanged),
            "decrements": (!algo.scheduled).then_some(out.stats.lowered),
        }),
        &["algo", "max_core", "in_max_core"],
    );
    Ok(())
}

pub fn tc_cmd(a: &UndirectedArgs) -> CliResult {
    if a.run.out.is_some() {
        return Err(CliError::usage(
            "tc counts triangles in total and has no per-node output for --out",
        ));
    }
    let (li, g, prep_s) = undirected_input(a)?;
    let g = &g;
    let r = run_app(&a.run, None, |s, cfg| named::tc(s, cfg, g))?;
    let verified = verify_with(
        &a.run,
        || tc::serial_tc(g),
        |&expected| match r.runs.results.iter().find(|o| o.triangles != expected) {
            Some(o) => Err(CliError::input(format!(
                "verification failed: {} triangles, the serial oracle counts {expected}",
                o.triangles
            ))),
            None => Ok(()),
        },
    )?;
    let out = r.first();
    finish(
        "tc",
        &li,
        &a.run,
        &r,
        &verified,
        json!({
            "undirected_edges": g.num_edges() / 2,
            "prep_s": prep_s,
            "triangles": out.triangles,
            "intersections": out.intersections,
        }),
        &["triangles"],
    );
    Ok(())
}

pub fn mst_cmd(a: &MstArgs) -> CliResult {
    // Weights go on the directed input first, so that both arcs of an edge agree once the
    // undirected view keeps the lighter of the two.
    let (li, g, prep_s) = undirected_input_with(&a.app, crate::apps::ensure_weights)?;
    let g = &g;
    let run = &a.app.run;
    let algo = resolve(&variants::MST, &a.algo, run)?;
    let scheduled = || run_app(run, Some(0), |s, cfg| named::mst(s, cfg, g));
    let r = run_method(run, algo, scheduled, |cfg| mst::boruvka::run(g, cfg))?;
    let runs = &r.runs;
    let verified = verify_with(
        run,
        || mst::kruskal(g),
        |expected| match runs.results.iter().find(|o| &o.edges != expected) {
            Some(o) => Err(CliError::input(format!(
                "verification failed: forest of {} edges and weight {}, Kruskal's has {} edges \
                 and weight {}",
                o.edges.len(),
                o.weight,
                expected.len(),
                expected.iter().map(|e| e.weight as u64).sum::<u64>()
            ))),
            None => Ok(()),
        },
    )?;
    let out = &runs.results[0];
    finish_runs(
        "mst",
        &li,
        run,
        r.sched,
        r.threads,
        runs,
        &verified,
        json!({
            "algo": algo.name,
            "undirected_edges": g.num_edges() / 2,
            "prep_s": prep_s,
            "weights": li.weights.map(|w| w.to_string()),
            "weight": out.weight,
            "edges": out.edges.len(),
            "components": g.num_nodes() - out.edges.len(),
            "merges": out.merges,
            "stale_tasks": out.stale_tasks,
            "edges_scanned": out.edges_scanned,
        }),
        &["algo", "weight", "edges", "components"],
    );
    Ok(())
}

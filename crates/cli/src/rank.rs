//! `ordo pagerank`.

use crate::algo::{frontier_sched_json, run_frontier, scheduler_request};
use crate::args::{InputArgs, RunArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::{load_noted, LoadedInput};
use crate::output::{finish, finish_runs, verify_with, Verification};
use crate::run::{run_app, write_values};
use ordo_algos::in_edges::InEdges;
use ordo_algos::named;
use ordo_algos::pagerank::pull::Sweep;
use ordo_algos::pagerank::{self, PriorityKind};
use ordo_algos::variants::{self, Variant};
use serde_json::json;
use std::time::Instant;

#[derive(Debug, Clone, clap::Args)]
pub struct PagerankArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Method: auto (pull, or priority when a scheduler or --priority is asked for), pull
    /// (Jacobi iteration over in-edges, stopping when an iteration changes the scores by less
    /// than nodes x tolerance in L1: networkx's and GAPBS's rule), priority (residual pushing by
    /// priority, stopping when no node's residual reaches the threshold)
    #[arg(long, default_value = "auto", value_parser = variants::PAGERANK.names())]
    pub algo: String,
    /// Residual to integer priority for --algo priority: pr (whole part) or prd (three
    /// decimals), seed 000's PR and PR-D [default: pr]
    #[arg(long, value_parser = ["pr", "prd"])]
    pub priority: Option<String>,
    /// Convergence as networkx's tol: the scores' total (L1) error stays within about
    /// nodes x tolerance
    #[arg(long, default_value_t = 1e-6)]
    pub tolerance: f64,
    #[command(flatten)]
    pub run: RunArgs,
}

pub fn pagerank_cmd(a: &PagerankArgs) -> CliResult {
    if !(a.tolerance > 0.0 && a.tolerance < 1.0) {
        return Err(CliError::usage(format!(
            "--tolerance {}: must be in (0, 1)",
            a.tolerance
        )));
    }
    let li = load_noted(&a.input)?;
    let g = &li.graph;
    if g.num_nodes() == 0 {
        return Err(CliError::input("the graph has no nodes"));
    }
    if g.is_weighted() {
        note("PageRank ignores edge weights: every arc counts once");
    }
    let request =
        scheduler_request(&a.run).or(a.priority.as_ref().map(|p| format!("--priority {p}")));
    let algo = variants::PAGERANK
        .resolve(&a.algo, request.as_deref())
        .map_err(CliError::usage)?;
    if algo.scheduled {
        priority_pagerank(a, &li)
    } else {
        pull_pagerank(a, li, algo)
    }
}

/// The scores the oracle and every run agree on within their bounds: (largest L1 distance,
/// the oracle's top ten), or nothing with `--no-verify`.
type Checked = (Verification, Option<f64>, Option<Vec<u32>>);

fn check_all<'a>(
    a: &PagerankArgs,
    g: &ordo_graph::Graph,
    runs: impl Iterator<Item = (&'a [f64], f64)>,
) -> CliResult<Checked> {
    let mut l1 = None;
    let mut oracle_top = None;
    let verified = verify_with(
        &a.run,
        || pagerank::power_iteration(g).0,
        |exact| {
            for (score, bound) in runs {
                let d = pagerank::check_scores(exact, score, bound).map_err(CliError::input)?;
                l1 = Some(l1.map_or(d, |m: f64| m.max(d)));
            }
            oracle_top = Some(pagerank::top(exact, 10));
            Ok(())
        },
    )?;
    Ok((verified, l1, oracle_top))
}

fn pull_pagerank(a: &PagerankArgs, mut li: LoadedInput, algo: &'static Variant) -> CliResult {
    // Pulling reads in-edges: a symmetrized graph's own, else the transpose, built once outside
    // the timed runs.
    let start = Instant::now();
    if !a.input.flags.symmetrize {
        li.graph.build_transpose();
    }
    let prep_s = start.elapsed().as_secs_f64();
    let g = &li.graph;
    let incoming = match a.input.flags.symmetrize {
        true => InEdges::symmetric(g),
        false => InEdges::transpose(g).expect("built above"),
    };
    let r = run_frontier(&a.run, |cfg| {
        pagerank::pull::run(g, incoming, a.tolerance, Sweep::of_method(algo.name), cfg)
    })?;
    let results = r.runs.results.iter();
    let (verified, l1, oracle_top) =
        check_all(a, g, results.map(|o| (&o.score[..], o.error_bound)))?;
    let out = &r.runs.results[0];
    if let Some(path) = &a.run.out {
        write_values(g, path, &out.score, |s| format!("{s:.9e}"))?;
    }
    let top = pagerank::top(&out.score, 10);
    let ids = |v: &[u32]| v.iter().map(|&n| g.file_id(n)).collect::<Vec<_>>();
    finish_runs(
        "pagerank",
        &li,
        &a.run,
        frontier_sched_json(algo),
        r.cfg.threads,
        &r.runs,
        &verified,
        json!({
            "algo": algo.name,
            "stopping_rule": "l1-change",
            "sweep": format!("{:?}", Sweep::of_method(algo.name)),
            "prep_s": prep_s,
            "tolerance": a.tolerance,
            "damping": pagerank::DAMPING,
            "top": ids(&top),
            "oracle_top": oracle_top.as_deref().map(ids),
            "iterations": out.iterations,
            "last_change": out.last_change,
            "error_bound": out.error_bound,
            "l1_vs_oracle": l1,
        }),
        &["algo", "top", "iterations", "error_bound", "l1_vs_oracle"],
    );
    Ok(())
}

fn priority_pagerank(a: &PagerankArgs, li: &LoadedInput) -> CliResult {
    let g = &li.graph;
    let kind = match a.priority.as_deref() {
        Some("prd") => PriorityKind::PrD,
        _ => PriorityKind::Pr,
    };
    let r = run_app(&a.run, None, |s, cfg| {
        named::pagerank(s, cfg, g, a.tolerance, kind)
    })?;
    let results = r.runs.results.iter();
    let (verified, l1, oracle_top) =
        check_all(a, g, results.map(|o| (&o.score[..], o.error_bound)))?;
    let out = r.first();
    if let Some(path) = &a.run.out {
        write_values(g, path, &out.score, |s| format!("{s:.9e}"))?;
    }
    let top = pagerank::top(&out.score, 10);
    let ids = |v: &[u32]| v.iter().map(|&n| g.file_id(n)).collect::<Vec<_>>();
    finish(
        "pagerank",
        li,
        &a.run,
        &r,
        &verified,
        json!({
            "algo": "priority",
            "stopping_rule": "residual",
            "priority": a.priority.as_deref().unwrap_or("pr"),
            "tolerance": a.tolerance,
            "damping": pagerank::DAMPING,
            "top": ids(&top),
            "oracle_top": oracle_top.as_deref().map(ids),
            "tasks": out.report.total.tasks,
            "empty_takes": out.empty_takes,
            "leftover_residual": out.leftover,
            "last_change": null,
            "error_bound": out.error_bound,
            "l1_vs_oracle": l1,
        }),
        &["algo", "top", "error_bound", "l1_vs_oracle"],
    );
    Ok(())
}

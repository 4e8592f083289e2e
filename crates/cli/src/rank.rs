//! `ordo pagerank`.

use crate::algo::{in_edges, prepare_in_edges, run_method, scheduler_request};
use crate::args::{InputArgs, RunArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::load_noted;
use crate::output::{finish_runs, verify_with};
use crate::run::{run_app, write_values};
use ordo_algos::named;
use ordo_algos::pagerank::pull::Sweep;
use ordo_algos::pagerank::{self, PriorityKind, Scores};
use ordo_algos::variants;
use serde_json::json;

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
    /// Convergence as networkx's tol, scores summing to 1: pull stops when an iteration
    /// changes them by less than nodes x tolerance in L1; priority stops when no node's
    /// residual reaches about tolerance. Either way the JSON's error_bound bounds the L1
    /// distance to the exact scores, and verification checks it
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
    let mut li = load_noted(&a.input)?;
    if li.graph.num_nodes() == 0 {
        return Err(CliError::input("the graph has no nodes"));
    }
    if li.graph.is_weighted() {
        note("PageRank ignores edge weights: every arc counts once");
    }
    let request =
        scheduler_request(&a.run).or(a.priority.as_ref().map(|p| format!("--priority {p}")));
    let algo = variants::PAGERANK
        .resolve(&a.algo, request.as_deref())
        .map_err(CliError::usage)?;
    // Pulling reads in-edges.
    let prep_s = (!algo.scheduled).then(|| prepare_in_edges(&mut li, &a.input.flags));
    let g = &li.graph;
    let kind = match a.priority.as_deref() {
        Some("prd") => PriorityKind::PrD,
        _ => PriorityKind::Pr,
    };
    let sweep = Sweep::of_method(algo.name);
    // Both methods report in the same shape: the pull's fields are left empty by residual
    // pushing, and the other way round.
    let scheduled = || {
        run_app(&a.run, None, |s, cfg| {
            let out = named::pagerank(s, cfg, g, a.tolerance, kind)?;
            Ok(Scores::Pushed(out))
        })
    };
    let r = run_method(&a.run, algo, scheduled, |cfg| {
        let incoming = in_edges(g, &a.input.flags);
        pagerank::pull::run(g, incoming, a.tolerance, sweep, cfg).map(Scores::Pulled)
    })?;
    let mut l1 = None;
    let mut oracle_top = None;
    let verified = verify_with(
        &a.run,
        || pagerank::power_iteration(g).0,
        |exact| {
            for o in &r.runs.results {
                let d = pagerank::check_scores(exact, o.score(), o.error_bound())
                    .map_err(CliError::input)?;
                l1 = Some(l1.map_or(d, |m: f64| m.max(d)));
            }
            oracle_top = Some(pagerank::top(exact, 10));
            Ok(())
        },
    )?;
    let out = &r.runs.results[0];
    if let Some(path) = &a.run.out {
        write_values(g, path, out.score(), |s| format!("{s:.9e}"))?;
    }
    let top = pagerank::top(out.score(), 10);
    let ids = |v: &[u32]| v.iter().map(|&n| g.file_id(n)).collect::<Vec<_>>();
    let (pushed, pulled) = match out {
        Scores::Pushed(o) => (Some(o), None),
        Scores::Pulled(o) => (None, Some(o)),
    };
    finish_runs(
        "pagerank",
        &li,
        &a.run,
        r.sched,
        r.threads,
        &r.runs,
        &verified,
        json!({
            "algo": algo.name,
            "stopping_rule": if algo.scheduled { "residual" } else { "l1-change" },
            "priority": algo.scheduled.then(|| a.priority.as_deref().unwrap_or("pr")),
            "sweep": pulled.map(|_| format!("{sweep:?}")),
            "prep_s": prep_s,
            "tolerance": a.tolerance,
            "damping": pagerank::DAMPING,
            "top": ids(&top),
            "oracle_top": oracle_top.as_deref().map(ids),
            "tasks": pushed.map(|o| o.report.total.tasks),
            "empty_takes": pushed.map(|o| o.empty_takes),
            "leftover_residual": pushed.map(|o| o.leftover),
            "iterations": pulled.map(|o| o.iterations),
            "last_change": pulled.map(|o| o.last_change),
            "error_bound": out.error_bound(),
            "l1_vs_oracle": l1,
        }),
        &["algo", "top", "error_bound", "l1_vs_oracle"],
    );
    Ok(())
}

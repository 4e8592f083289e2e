//! `ordo pagerank`.

use crate::args::{InputArgs, RunArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::load_noted;
use crate::output::{finish, verify_with};
use crate::run::{run_app, write_values};
use ordo_algos::named;
use ordo_algos::pagerank::{self, PriorityKind};
use serde_json::json;

#[derive(Debug, Clone, clap::Args)]
pub struct PagerankArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Residual to integer priority: pr (whole part) or prd (three decimals), seed 000's PR and
    /// PR-D
    #[arg(long, default_value = "pr", value_parser = ["pr", "prd"])]
    pub priority: String,
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
    let kind = match a.priority.as_str() {
        "prd" => PriorityKind::PrD,
        _ => PriorityKind::Pr,
    };
    let r = run_app(&a.run, None, |s, cfg| {
        named::pagerank(s, cfg, g, a.tolerance, kind)
    })?;
    let mut l1 = None;
    let mut oracle_top = None;
    let verified = verify_with(
        &a.run,
        || pagerank::power_iteration(g).0,
        |exact| {
            for o in &r.runs.results {
                let d = pagerank::check(exact, o).map_err(CliError::input)?;
                l1 = Some(l1.map_or(d, |m: f64| m.max(d)));
            }
            oracle_top = Some(pagerank::top(exact, 10));
            Ok(())
        },
    )?;
    let out = r.first();
    if let Some(path) = &a.run.out {
        write_values(g, path, &out.score, |s| format!("{s:.9e}"))?;
    }
    let top = pagerank::top(&out.score, 10);
    let ids = |v: &[u32]| v.iter().map(|&n| g.file_id(n)).collect::<Vec<_>>();
    finish(
        "pagerank",
        &li,
        &a.run,
        &r,
        &verified,
        json!({
            "priority": a.priority,
            "tolerance": a.tolerance,
            "damping": pagerank::DAMPING,
            "top": ids(&top),
            "oracle_top": oracle_top.as_deref().map(ids),
            "tasks": out.report.total.tasks,
            "empty_takes": out.empty_takes,
            "leftover_residual": out.leftover,
            "error_bound": out.error_bound,
            "l1_vs_oracle": l1,
        }),
        &["top", "error_bound", "l1_vs_oracle"],
    );
    Ok(())
}

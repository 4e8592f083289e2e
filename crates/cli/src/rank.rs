//! `ordo pagerank`.

use crate::args::{InputArgs, RunArgs};
use crate::error::{CliError, CliResult};
use crate::load::load;
use crate::output::{emit, header, merge, note, run_fields, verify_with};
use crate::run::{exec_config, run_repeated, scheduler_config, write_values, PagerankOnce};
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
    let li = load(&a.input)?;
    for n in &li.notes {
        note(n);
    }
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
    let sched = scheduler_config(&a.run, None)?;
    let cfg = exec_config(&a.run, &sched)?;
    let runs = run_repeated(
        &sched,
        &cfg,
        a.run.repeat,
        || PagerankOnce {
            g,
            tolerance: a.tolerance,
            kind,
            cfg: &cfg,
        },
        |o| &o.report,
    )?;
    let mut l1 = None;
    let mut oracle_top = None;
    let verified = verify_with(
        &a.run,
        || pagerank::power_iteration(g).0,
        |exact| {
            for r in &runs.results {
                let d = pagerank::check(exact, r).map_err(CliError::input)?;
                l1 = Some(l1.map_or(d, |m: f64| m.max(d)));
            }
            oracle_top = Some(pagerank::top(exact, 10));
            Ok(())
        },
    )?;
    let out = &runs.results[0];
    if let Some(path) = &a.run.out {
        write_values(g, path, &out.score, |s| format!("{s:.9e}"))?;
    }
    let top = pagerank::top(&out.score, 10);
    let ids = |v: &[u32]| v.iter().map(|&n| g.file_id(n)).collect::<Vec<_>>();
    let mut j = header("pagerank", &li, &a.run);
    merge(&mut j, run_fields(&sched, &cfg, &runs, &verified));
    merge(
        &mut j,
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
    );
    emit(&j, &a.run, &["top", "error_bound", "l1_vs_oracle"]);
    Ok(())
}

//! `--algo`: which method of an application runs ([`ordo_algos::variants`]), and the run setup
//! of the methods on the frontier executor.

use crate::args::RunArgs;
use crate::error::{CliError, CliResult};
use crate::run::{exec_config_threads, exec_error, AppOutput, Runs};
use ordo_algos::variants::{Variant, Variants};
use ordo_exec::{ExecConfig, ExecError};
use serde_json::json;

/// What in the run flags asks for a priority scheduler, if anything does.
pub fn scheduler_request(run: &RunArgs) -> Option<String> {
    let s = &run.sched;
    if s.scheduler != "auto" {
        Some(format!("--scheduler {}", s.scheduler))
    } else if let Some(p) = s.params.first() {
        Some(format!("--param {p}"))
    } else if s.chunk.is_some() {
        Some("--chunk".into())
    } else if run.breakdown {
        Some("--breakdown".into())
    } else if run.trace {
        Some("--trace".into())
    } else if run.rank_error {
        Some("--rank-error".into())
    } else {
        None
    }
}

/// The method `--algo asked` runs.
pub fn resolve(variants: &Variants, asked: &str, run: &RunArgs) -> CliResult<&'static Variant> {
    variants
        .resolve(asked, scheduler_request(run).as_deref())
        .map_err(CliError::usage)
}

/// A method on the frontier executor, run `--repeat` times.
pub struct FrontierRun<O> {
    pub cfg: ExecConfig,
    pub runs: Runs<O>,
}

/// Runs `once` `--repeat` times on the frontier executor with the run's threads.
pub fn run_frontier<O: AppOutput>(
    run: &RunArgs,
    once: impl Fn(&ExecConfig) -> Result<O, ExecError>,
) -> CliResult<FrontierRun<O>> {
    let cfg = exec_config_threads(run, None)?;
    let runs = Runs::collect(run.repeat, || once(&cfg).map_err(exec_error))?;
    Ok(FrontierRun { cfg, runs })
}

/// The `scheduler`, `scheduler_label` and `params` fields of a run without a scheduler.
pub fn frontier_sched_json(v: &Variant) -> serde_json::Value {
    json!({
        "scheduler": "none",
        "scheduler_label": format!("{} (frontier executor)", v.name),
        "params": {},
    })
}

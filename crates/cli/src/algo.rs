//! `--algo`: which method of an application runs ([`ordo_algos::variants`]), and the run setup
//! of the methods on the frontier executor.

use crate::args::RunArgs;
use crate::error::{CliError, CliResult};
use crate::load::LoadedInput;
use crate::output::sched_json;
use crate::run::{exec_config_threads, exec_error, sched_delta, AppOutput, AppRun, Runs};
use ordo_algos::in_edges::InEdges;
use ordo_algos::variants::{Variant, Variants};
use ordo_exec::{ExecConfig, ExecError};
use ordo_graph::{Graph, InputFlags};
use serde_json::json;
use std::time::Instant;

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

/// An application's runs by whichever method ran, with the fields every report gives.
pub struct MethodRuns<O> {
    /// The `scheduler`, `scheduler_label` and `params` fields.
    pub sched: serde_json::Value,
    /// The scheduler the priority version ran on (none for the frontier methods).
    pub config: Option<ordo_sched::SchedulerConfig>,
    pub threads: usize,
    pub runs: Runs<O>,
}

impl<O> MethodRuns<O> {
    /// The bucket width the runs used: the scheduler's, if it has one (only the bucketing
    /// ones do), else `frontier`, the delta-stepping methods' own.
    pub fn delta(&self, frontier: u32) -> Option<u32> {
        match &self.config {
            Some(sched) => sched_delta(sched),
            None => Some(frontier),
        }
    }
}

/// Runs `method` `--repeat` times: `scheduled` (one of `run_app`'s forms, bound to the
/// application) when it is the priority version, else `frontier` on the frontier executor
/// with the run's threads.
pub fn run_method<O: AppOutput>(
    run: &RunArgs,
    method: &Variant,
    scheduled: impl FnOnce() -> CliResult<AppRun<O>>,
    frontier: impl Fn(&ExecConfig) -> Result<O, ExecError>,
) -> CliResult<MethodRuns<O>> {
    if method.scheduled {
        let r = scheduled()?;
        return Ok(MethodRuns {
            sched: sched_json(&r.sched),
            config: Some(r.sched),
            threads: r.cfg.threads,
            runs: r.runs,
        });
    }
    let cfg = exec_config_threads(run, None)?;
    let runs = Runs::collect(run.repeat, || frontier(&cfg).map_err(exec_error))?;
    Ok(MethodRuns {
        sched: json!({
            "scheduler": "none",
            "scheduler_label": format!("{} (frontier executor)", method.name),
            "params": {},
        }),
        config: None,
        threads: cfg.threads,
        runs,
    })
}

/// Gives the input graph in-edges for the pull-style methods: its transpose, or nothing when
/// `--symmetrize` made it its own. Built once, outside the timed runs (as GAPBS builds it
/// while loading); returns the seconds that took.
pub fn prepare_in_edges(li: &mut LoadedInput, flags: &InputFlags) -> f64 {
    let start = Instant::now();
    if !flags.symmetrize {
        li.graph.build_transpose();
    }
    start.elapsed().as_secs_f64()
}

/// The in-edges [`prepare_in_edges`] gave `g`.
pub fn in_edges<'g>(g: &'g Graph, flags: &InputFlags) -> InEdges<'g> {
    match flags.symmetrize {
        true => InEdges::symmetric(g),
        false => InEdges::transpose(g).expect("prepare_in_edges built the transpose"),
    }
}

//! Running an application of the registry from its subcommand: the protocol of
//! [`ordo_algos::app::Plan`] (prepare, run `--repeat` times, verify against the timed oracle,
//! report), with the CLI's loading, notes, Ctrl-C handling, `--out` and output.

use crate::app_args::AppArgs;
use crate::error::{note, CliError, CliResult};
use crate::load::load_noted;
use crate::output::{finish_runs, sched_json, Header, Verification};
use crate::run::{app_error, run_request, write_values, Runs};
use clap::ArgMatches;
use ordo_algos::app::{App, AppVisitor, Oracle, OwnedSource, Plan, Value};
use serde_json::json;

/// Runs the application `name` with its subcommand's `matches`; `None` when no application
/// has that name.
pub fn run_by_name(name: &str, matches: &ArgMatches) -> Option<CliResult> {
    ordo_algos::visit(name, RunFromMatches(matches))
}

struct RunFromMatches<'m>(&'m ArgMatches);

impl AppVisitor for RunFromMatches<'_> {
    type Output = CliResult;
    fn visit<A: App>(self) -> CliResult {
        run_app::<A>(&AppArgs::from_matches(&A::SPEC, self.0)?)
    }
}

fn run_app<A: App>(a: &AppArgs) -> CliResult {
    let spec = &A::SPEC;
    if let (Some(_), Some(why)) = (&a.run.out, spec.no_per_node) {
        return Err(CliError::usage(why));
    }
    // `--out` turns on the per-node answer of an application that counts it only when asked.
    let mut values = a.values.clone();
    if a.run.out.is_some() {
        for p in spec.params.iter().filter(|p| p.per_node) {
            values
                .set(p.name, Value::Flag(true))
                .expect("a per-node parameter is a flag");
        }
    }
    let mut req = run_request(&a.run)?;
    req.algo = a.algo.clone();
    req.asks_scheduler = a.scheduler_request(spec);
    // A request that cannot run fails before the load.
    Plan::<A>::choose_method(&req).map_err(app_error)?;
    let li = load_noted(&a.input)?;
    let header = Header::new(spec.name, &li, &a.run);
    // The source (and the loaded graph, unless the application runs on it) is dropped once
    // the application has its view.
    let mut source = OwnedSource::new(li.graph, li.weights, a.input.flags.symmetrize);
    let mut notes = Vec::new();
    let plan = Plan::<A>::new(&mut source, &values, &req, &mut notes);
    drop(source);
    for n in &notes {
        note(n);
    }
    let plan = plan.map_err(app_error)?;

    // Every run is verified as it ends, against the oracle run once after the first.
    let mut oracle = Oracle::default();
    let runs = Runs::collect(
        a.run.repeat,
        |out| plan.report(out),
        || plan.run().map_err(app_error),
        |out| match a.run.no_verify {
            true => Ok(()),
            false => plan.check(&mut oracle, out).map_err(CliError::input),
        },
    )?;
    let verified = match oracle.seconds() {
        None => Verification::skipped(),
        Some(seconds) => Verification::passed(seconds),
    };
    if let (Some(path), Some(column)) = (&a.run.out, plan.per_node(&runs.first)) {
        write_values(plan.graph(), path, column)?;
    }
    let median_s = runs.median_time().as_secs_f64();
    let fields = plan.summary(&runs.first, oracle.expected(), median_s);
    let sched_fields = match plan.sched() {
        Some(s) => sched_json(s),
        None => json!({
            "scheduler": "none",
            "scheduler_label": plan.label(),
            "params": {},
        }),
    };
    finish_runs(
        &header,
        &a.run,
        sched_fields,
        plan.exec().threads,
        &runs,
        &verified,
        fields,
        spec.headline,
    );
    Ok(())
}

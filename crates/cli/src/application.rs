//! Running an application of the registry from its subcommand: the protocol of
//! [`ordo_algos::app`] (prepare, run `--repeat` times, verify against the timed oracle,
//! report), with the CLI's loading, notes, Ctrl-C handling, `--out` and output.

use crate::app_args::AppArgs;
use crate::error::{note, CliError, CliResult};
use crate::load::load_noted;
use crate::output::{finish_runs, sched_json, Header, Verification};
use crate::run::{app_error, run_request, spec_error, write_values, Runs};
use clap::ArgMatches;
use ordo_algos::app::OwnedSource;
use ordo_algos::app::{method_for_graph, App, AppVisitor, RunContext};
use serde_json::json;
use std::time::Instant;

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
    let request = a.scheduler_request(spec);
    let req = run_request(&a.run)?;
    let method = spec
        .method(&a.algo, request.as_deref(), req.threads(None))
        .map_err(app_error)?;
    let li = load_noted(&a.input)?;
    let header = Header::new(spec.name, &li, &a.run);
    // The source (and the loaded graph, unless the application runs on it) is dropped once
    // the application has its view.
    let mut source = OwnedSource::new(li.graph, li.weights, a.input.flags.symmetrize);
    let mut notes = Vec::new();
    let prepared = A::prepare(&mut source, &a.values, method, &mut notes);
    drop(source);
    for n in &notes {
        note(n);
    }
    let p = prepared.map_err(app_error)?;
    let method = method_for_graph::<A>(&a.algo, &p, method, req.threads(None));

    let (sched, exec) = if method.scheduled {
        let (sched, mut exec) = req.scheduled(A::delta_hint(&p)).map_err(spec_error)?;
        if a.run.breakdown {
            // Untimed: the probes tell good work from useless work by the final labels.
            exec.probes.oracle = A::oracle_labels(&p, &A::oracle(&p)).map(Into::into);
        }
        (Some(sched), exec)
    } else {
        (None, req.exec(None).map_err(spec_error)?)
    };
    // Every run is verified as it ends, against the oracle run once after the first.
    let mut expected: Option<A::Expected> = None;
    let mut oracle_s = 0.0;
    let runs = Runs::collect(
        a.run.repeat,
        A::report,
        || A::run(&p, method, sched.as_ref(), &exec).map_err(app_error),
        |out| {
            if a.run.no_verify {
                return Ok(());
            }
            let expected = expected.get_or_insert_with(|| {
                let start = Instant::now();
                let e = A::oracle(&p);
                oracle_s = start.elapsed().as_secs_f64();
                e
            });
            A::verify(&p, expected, out).map_err(CliError::input)
        },
    )?;
    let verified = match a.run.no_verify {
        true => Verification::skipped(),
        false => Verification::passed(oracle_s),
    };
    if let (Some(path), Some(column)) = (&a.run.out, A::per_node(&p, &runs.first)) {
        write_values(A::graph(&p), path, column)?;
    }
    let ctx = RunContext {
        method,
        sched: sched.as_ref(),
        median_s: runs.median_time().as_secs_f64(),
    };
    let fields = A::summary(&p, &runs.first, expected.as_ref(), &ctx);
    let sched_fields = match &sched {
        Some(s) => sched_json(s),
        None => json!({
            "scheduler": "none",
            "scheduler_label": method.unscheduled_label(),
            "params": {},
        }),
    };
    finish_runs(
        &header,
        &a.run,
        sched_fields,
        exec.threads,
        &runs,
        &verified,
        fields,
        spec.headline,
    );
    Ok(())
}

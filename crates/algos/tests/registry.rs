//! Every registered application, by every method, through the protocol the front ends run
//! (`ordo_algos::app`): prepare from a source, run on 1 and 8 workers, verify against the
//! oracle, and report. Also what the declarations promise: unique names, readable defaults,
//! the headline figures present in the summary, a `--out` column exactly where one is
//! declared.

use ordo_algos::app::{
    Answer, App, AppSpec, AppVisitor, Kind, OwnedSource, Plan, RunRequest, Value, Values,
};
use ordo_graph::{gen, BuildOptions, Graph};
use ordo_sched::Topology;

/// A weighted road grid with coordinates (A* needs them), 144 nodes.
fn grid() -> Graph {
    gen::road_grid(12, 12, 3, &BuildOptions::default()).unwrap()
}

/// Runs `A` by every method at 1 and 8 workers and checks each run.
struct RunAll;

impl AppVisitor for RunAll {
    type Output = ();

    fn visit<A: App>(self) {
        let spec = &A::SPEC;
        let mut values = Values::new(spec.params);
        if spec.params.iter().any(|p| p.name == "target") {
            values.set("target", Value::Int(143)).unwrap();
        }
        for method in spec.variants.list {
            for threads in [1, 8] {
                let ctx = format!("{} {} at {threads} threads", spec.name, method.name());
                let request = RunRequest {
                    algo: method.name().into(),
                    threads: Some(threads),
                    pin: false,
                    ..RunRequest::new(Topology::detect())
                };
                let mut source = OwnedSource::new(grid(), None, false);
                let plan = Plan::<A>::new(&mut source, &values, &request, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert_eq!(plan.method(), method, "{ctx}: the method asked for");
                assert_eq!(plan.sched().is_some(), method.scheduled, "{ctx}");
                let expected = plan.oracle();
                let out = plan.run().unwrap_or_else(|e| panic!("{ctx}: {e}"));
                plan.verify(&expected, &out)
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                // An application that counts per node only when asked has no column here.
                let asked = spec
                    .params
                    .iter()
                    .all(|p| !p.per_node || values.flag(p.name));
                assert_eq!(
                    plan.per_node(&out).is_some(),
                    spec.no_per_node.is_none() && asked,
                    "{ctx}: a --out column exactly where none is refused"
                );
                let median_s = plan.report(&out).time.as_secs_f64();
                let summary = plan.summary(&out, Some(&expected), median_s);
                for key in spec.headline {
                    assert!(
                        summary.get(key).is_some(),
                        "{ctx}: headline '{key}' missing"
                    );
                }
                let n = plan.graph().num_nodes();
                match plan.answer(out) {
                    Answer::Floats(v) => assert_eq!(v.len(), n, "{ctx}"),
                    Answer::Ints(v) => assert_eq!(v.len(), n, "{ctx}"),
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn every_application_and_method_passes_the_protocol() {
    for spec in ordo_algos::APPS {
        ordo_algos::visit(spec.name, RunAll).expect("registered");
    }
}

#[test]
fn declarations_are_consistent() {
    let mut names: Vec<&str> = ordo_algos::APPS.iter().map(|a| a.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(
        names.len(),
        ordo_algos::APPS.len(),
        "application names are unique"
    );
    for spec in ordo_algos::APPS {
        check_spec(spec);
    }
}

fn check_spec(spec: &AppSpec) {
    let mut params: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
    params.sort();
    params.dedup();
    assert_eq!(
        params.len(),
        spec.params.len(),
        "{}: parameter names",
        spec.name
    );
    assert!(
        !spec.examples.is_empty(),
        "{}: an example for --help",
        spec.name
    );
    for p in spec.params {
        if let Some(d) = p.default {
            let readable = match p.kind {
                Kind::Node | Kind::Int { .. } => d.parse::<u64>().is_ok(),
                Kind::Float => d.parse::<f64>().is_ok(),
                Kind::Choice(c) => c.contains(&d),
                Kind::Text | Kind::Path => true,
                Kind::Flag => false,
            };
            assert!(readable, "{}: --{} default '{d}'", spec.name, p.name);
        }
        if let Some(other) = p.conflicts_with {
            assert!(
                spec.params.iter().any(|q| q.name == other),
                "{}: --{} conflicts with an undeclared --{other}",
                spec.name,
                p.name
            );
        }
    }
    // `auto` and no request resolve to the first method; a scheduler request to a scheduled
    // one, or is refused where there is none.
    let auto = spec.method("auto", None, 64).unwrap();
    assert_eq!(auto.name(), spec.variants.list[0].name(), "{}", spec.name);
    // A few-threads choice is one of the methods, and not a scheduled one (a request without
    // a scheduler must not need one).
    if let Some(few) = spec.variants.few_threads {
        let serial = spec.method("auto", None, few.up_to).unwrap();
        assert_eq!(
            serial.method, few.method,
            "{}: few_threads names no method",
            spec.name
        );
        assert!(!serial.scheduled, "{}", spec.name);
        let more = spec.method("auto", None, few.up_to + 1).unwrap();
        assert_eq!(more.name(), spec.variants.list[0].name(), "{}", spec.name);
    }
    // Every method answers to its name (an application without a scheduled method once ran
    // its first whatever `--algo` named).
    for v in spec.variants.list {
        assert_eq!(
            spec.method(v.name(), None, 2).unwrap().name(),
            v.name(),
            "{}",
            spec.name
        );
    }
    assert!(
        spec.method("no-such-method", None, 2).is_err(),
        "{}",
        spec.name
    );
    match spec.method("auto", Some("--scheduler obim"), 2) {
        Ok(m) => assert!(m.scheduled || spec.no_scheduler.is_none(), "{}", spec.name),
        Err(_) => assert!(spec.no_scheduler.is_some(), "{}", spec.name),
    }
}

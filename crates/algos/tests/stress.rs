//! Stress: every registered application, by every method, at 16 threads on whatever cores the
//! machine has (8x oversubscribed on two), several times, each result checked against its
//! oracle; the scheduled methods on every scheduler. Races that need an unlucky preemption
//! show up here far more often than at one thread per core. The applications come from the
//! registry ([`ordo_algos::APPS`]), through the protocol every front end runs
//! ([`ordo_algos::app::Plan`]), so a new application is covered without editing this file.
//! `ORDO_STRESS_REPEAT` (default 3) sets the repeats; `scripts/soak.sh` runs this file in a
//! loop for as long as asked.

use ordo_algos::app::{App, AppSpec, AppVisitor, Kind, OwnedSource, Plan, RunRequest};
use ordo_algos::app::{Value, Values};
use ordo_exec::ExecConfig;
use ordo_graph::{gen, BuildOptions, Graph};
use ordo_sched::{SchedulerConfig, Topology};

const THREADS: usize = 16;

fn repeats() -> usize {
    std::env::var("ORDO_STRESS_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
}

/// A road-like grid (coordinates, spatial ids, many equal distances) and a skewed Kronecker
/// graph (hubs, many tasks per priority), both small enough for hundreds of runs.
fn graphs() -> Vec<(&'static str, Graph)> {
    let weighted = BuildOptions {
        weights: Some("1:100:5".parse().unwrap()),
        ..Default::default()
    };
    let mut kronecker = gen::kronecker(10, 8, 11, &weighted).unwrap();
    // A* needs coordinates; any give an admissible estimate (its scale is fitted to them).
    let n = kronecker.num_nodes();
    let xy = (0..n).flat_map(|v| [(v % 37) as f64, (v / 37) as f64]);
    kronecker.set_coords(xy.collect()).unwrap();
    vec![
        (
            "grid",
            gen::road_grid(40, 40, 3, &BuildOptions::default()).unwrap(),
        ),
        ("kronecker", kronecker),
    ]
}

/// Every value combination of the application's choices and flags (pagerank's PR and PR-D,
/// bc's queues and layouts, pfp's preflow and flow), the rest at their defaults; a required
/// node (A*'s target) is the last node.
fn value_sets(spec: &AppSpec, nodes: usize) -> Vec<Values> {
    let mut sets = vec![Values::new(spec.params)];
    for p in spec.params {
        let options: Vec<Value> = match p.kind {
            Kind::Choice(choices) => choices.iter().map(|c| Value::Text(c.to_string())).collect(),
            Kind::Flag => vec![Value::Flag(false), Value::Flag(true)],
            Kind::Node if p.required => vec![Value::Int(nodes as u64 - 1)],
            _ => continue,
        };
        sets = sets
            .into_iter()
            .flat_map(|set| {
                options.iter().map(move |o| {
                    let mut set = set.clone();
                    set.set(p.name, o.clone()).unwrap();
                    set
                })
            })
            .collect();
    }
    sets
}

/// Every registered scheduler with its defaults, at 16 threads (the serial one at 1).
fn schedulers() -> Vec<(&'static str, usize)> {
    ordo_sched::names()
        .into_iter()
        .map(|name| {
            let s = SchedulerConfig::parse(name, &[]).unwrap();
            (name, s.max_workers().unwrap_or(THREADS).min(THREADS))
        })
        .collect()
}

/// Runs one application on one graph by every method, value set and scheduler.
struct Stress<'g> {
    name: &'static str,
    graph: &'g Graph,
}

impl AppVisitor for Stress<'_> {
    type Output = ();

    fn visit<A: App>(self) {
        let spec = &A::SPEC;
        for values in value_sets(spec, self.graph.num_nodes()) {
            for method in spec.variants.list {
                let request = RunRequest {
                    algo: method.name().into(),
                    threads: Some(THREADS),
                    pin: false,
                    ..RunRequest::new(Topology::detect())
                };
                let mut source = OwnedSource::new(self.graph.clone(), None, false);
                let at = format!(
                    "{} {} on {} ({values:?})",
                    spec.name,
                    method.name(),
                    self.name
                );
                let plan = Plan::<A>::new(&mut source, &values, &request, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                let expected = plan.oracle();
                let runs: Vec<(Option<SchedulerConfig>, usize)> = match method.scheduled {
                    false => vec![(None, THREADS)],
                    true => schedulers()
                        .into_iter()
                        .map(|(name, threads)| {
                            let asked = RunRequest {
                                scheduler: name.into(),
                                ..request.clone()
                            };
                            (Some(plan.scheduler_for(&asked).unwrap()), threads)
                        })
                        .collect(),
                };
                for (sched, threads) in runs {
                    let label = sched.as_ref().map_or("frontier".into(), |s| s.label());
                    let cfg = ExecConfig::new(threads);
                    for _ in 0..repeats() {
                        let out = plan
                            .run_on(sched.as_ref(), &cfg)
                            .unwrap_or_else(|e| panic!("{at} with {label} x{threads}: {e}"));
                        plan.verify(&expected, &out)
                            .unwrap_or_else(|e| panic!("{at} with {label} x{threads}: {e}"));
                    }
                }
            }
        }
    }
}

#[test]
fn every_application_every_method_and_scheduler_at_16_threads() {
    for (name, g) in graphs() {
        for spec in ordo_algos::APPS {
            ordo_algos::visit(spec.name, Stress { name, graph: &g }).expect("registered");
        }
    }
}

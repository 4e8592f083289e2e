//! Maximum flow on the shared real graphs (roads with distances as capacities, a social graph
//! with unit capacities, a mesh) for several schedulers at 1, 2 and 8 threads: each preflow
//! (each flow, at 2 threads) is checked arc by arc with its minimum cut, and its value against
//! Dinic's algorithm.

mod common;

use ordo_algos::pfp;
use ordo_exec::ExecConfig;
use ordo_graph::{load_graph, LoadOptions};

#[test]
fn pfp_matches_dinic_on_real_graphs() {
    let cases = [
        ("osm-rome.gr.gz", 0, 3000),
        ("email-Enron.txt.gz", 1, 5),
        ("bcsstk33.graph.gz", 0, 8000),
    ];
    for (name, s, t) in cases {
        let Some(path) = common::shared(name) else {
            continue;
        };
        let g = load_graph(&path, &LoadOptions::default(), None)
            .unwrap()
            .graph;
        let want = pfp::dinic(&pfp::Network::new(&g), s, t);
        assert!(want > 0, "{name}: a trivial flow");
        let delta = pfp::default_delta(&g).to_string();
        // Also highest label first, in buckets of 2^8 labels.
        for (sched, threads) in [
            (
                common::scheduler("obim", &[("delta", &delta)]),
                &[1, 2, 8][..],
            ),
            (common::scheduler("obim", &[("delta", "8")]), &[1, 8]),
            (common::scheduler("pmod", &[]), &[2, 8]),
            (common::scheduler("smq", &[]), &[2, 8]),
            (common::scheduler("fifo", &[]), &[8]),
        ] {
            for &th in threads {
                // Phase 2 too where two threads run it.
                let goal = match th {
                    2 => pfp::Goal::Flow,
                    _ => pfp::Goal::Preflow,
                };
                let out = pfp::run(&g, s, t, goal, &sched, &ExecConfig::new(th)).unwrap();
                pfp::verify(&g, s, t, &out)
                    .unwrap_or_else(|e| panic!("{name} {} at {th}: {e}", sched.label()));
                assert_eq!(out.flow, want, "{name} {} at {th}", sched.label());
            }
        }
    }
}

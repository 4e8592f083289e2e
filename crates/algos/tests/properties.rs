//! Property tests on random graphs: distances satisfy the triangle inequality on every edge,
//! every reached node has a tight incoming edge, and parallel results equal the oracles.

use ordo_algos::{bfs, sssp};
use ordo_exec::ExecConfig;
use ordo_graph::{BuildOptions, EdgeList, Graph, IdBase};
use ordo_sched::obim::{Obim, ObimConfig};
use ordo_sched::{Scheduler, SchedulerConfig, SchedulerVisitor};
use proptest::prelude::*;

struct Dist<'a>(&'a Graph, &'a ExecConfig);

impl SchedulerVisitor<sssp::SsspTask> for Dist<'_> {
    type Output = Vec<u64>;
    fn visit<S: Scheduler<sssp::SsspTask>>(self, s: &S) -> Vec<u64> {
        sssp::run(self.0, 0, s, self.1).unwrap().dist
    }
}

fn graph(n: u32, edges: &[(u32, u32, u32)]) -> Graph {
    let mut el = EdgeList::with_capacity(n, edges.len(), true);
    for &(u, v, w) in edges {
        el.push(u % n, v % n, w);
    }
    el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
}

fn arb_graph() -> impl Strategy<Value = Graph> {
    (1u32..60).prop_flat_map(|n| {
        prop::collection::vec((0..n, 0..n, prop_oneof![0u32..10, Just(u32::MAX)]), 0..300)
            .prop_map(move |e| graph(n, &e))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sssp_distances_are_shortest(g in arb_graph(), threads in 1usize..5, delta in 0u32..4) {
        let cfg = ExecConfig::new(threads);
        let sched = Obim::new(&ObimConfig { delta, chunk: 4, ..Default::default() }, threads, &cfg.topology);
        let d = sssp::run(&g, 0, &sched, &cfg).unwrap().dist;
        prop_assert_eq!(d[0], 0);
        for v in 0..g.num_nodes() as u32 {
            for (t, w) in g.out_edges(v) {
                if d[v as usize] != sssp::UNREACHABLE {
                    // Triangle inequality (u64 sums cannot overflow here).
                    prop_assert!(d[t as usize] <= d[v as usize] + w as u64);
                }
            }
        }
        // Every reached node other than the source has a tight incoming edge.
        let mut tight = vec![false; g.num_nodes()];
        tight[0] = true;
        for v in 0..g.num_nodes() as u32 {
            for (t, w) in g.out_edges(v) {
                if d[v as usize] != sssp::UNREACHABLE && d[v as usize] + w as u64 == d[t as usize] {
                    tight[t as usize] = true;
                }
            }
        }
        for v in 0..g.num_nodes() {
            prop_assert!(d[v] == sssp::UNREACHABLE || tight[v]);
        }
        prop_assert!(sssp::verify(&g, 0, &d).is_ok());
    }

    #[test]
    fn unordered_bags_give_exact_distances(g in arb_graph(), threads in 1usize..5, lifo in any::<bool>()) {
        let cfg = ExecConfig::new(threads);
        let name = if lifo { "lifo" } else { "fifo" };
        let sched = SchedulerConfig::parse(name, &[("chunk".into(), "3".into())]).unwrap();
        let d = sched.with(threads, &cfg.topology, Dist(&g, &cfg)).unwrap();
        prop_assert!(sssp::verify(&g, 0, &d).is_ok());
    }

    #[test]
    fn bfs_levels_match_the_queue(g in arb_graph(), threads in 1usize..5) {
        let cfg = ExecConfig::new(threads);
        let sched = Obim::new(&ObimConfig { chunk: 2, ..Default::default() }, threads, &cfg.topology);
        let l = bfs::run(&g, 0, &sched, &cfg).unwrap().level;
        prop_assert!(bfs::verify(&g, 0, &l).is_ok());
    }
}

#[test]
fn verifier_catches_a_wrong_distance() {
    let g = graph(3, &[(0, 1, 2), (1, 2, 2)]);
    let mut d = sssp::dijkstra(&g, 0);
    assert!(sssp::verify(&g, 0, &d).is_ok());
    d[2] = 5;
    let e = sssp::verify(&g, 0, &d).unwrap_err();
    let ordo_algos::VerifyError::Nodes {
        node,
        got,
        expected,
        ..
    } = e
    else {
        panic!("a per-node mismatch, not {e}");
    };
    assert_eq!((node, got.as_str(), expected.as_str()), (2, "5", "4"));
}

//! Stress: every scheduler runs every application at 16 threads on whatever cores the machine
//! has (8x oversubscribed on two), several times, each result checked against its oracle.
//! Races that need an unlucky preemption show up here far more often than at one thread per
//! core. `ORDO_STRESS_REPEAT` (default 3) sets the repeats; `scripts/soak.sh` runs this file
//! in a loop for as long as asked.

use ordo_algos::astar::{Geometry, Heuristic};
use ordo_algos::bc::{self, BcConfig, Layout, Queues};
use ordo_algos::{bfs, cc, kcore, mst, named, pagerank, pfp, sssp, tc};
use ordo_exec::ExecConfig;
use ordo_graph::{gen, undirected_simple, BuildOptions, Graph};
use ordo_sched::SchedulerConfig;

const THREADS: usize = 16;

fn repeats() -> usize {
    std::env::var("ORDO_STRESS_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
}

/// Every registered scheduler with its defaults, at 16 threads (the serial one at 1).
fn schedulers() -> Vec<(SchedulerConfig, usize)> {
    ordo_sched::names()
        .into_iter()
        .map(|name| {
            let s = SchedulerConfig::parse(name, &[]).unwrap();
            let threads = s.max_workers().unwrap_or(THREADS).min(THREADS);
            (s, threads)
        })
        .collect()
}

/// A road-like grid (coordinates, spatial ids, many equal distances) and a skewed Kronecker
/// graph (hubs, many tasks per priority), both small enough for hundreds of runs.
fn graphs() -> Vec<(&'static str, Graph)> {
    let weighted = BuildOptions {
        weights: Some("1:100:5".parse().unwrap()),
        ..Default::default()
    };
    vec![
        (
            "grid",
            gen::road_grid(40, 40, 3, &BuildOptions::default()).unwrap(),
        ),
        ("kronecker", gen::kronecker(10, 8, 11, &weighted).unwrap()),
    ]
}

#[test]
fn every_scheduler_every_application_at_16_threads() {
    for (name, g) in graphs() {
        let u = undirected_simple(&g).unwrap();
        let n = g.num_nodes() as u32;
        let (dist, level) = (sssp::dijkstra(&g, 0), bfs::serial_bfs(&g, 0));
        let (labels, cores, triangles, forest) = (
            cc::serial_cc(&u),
            kcore::serial_kcore(&u),
            tc::serial_tc(&u),
            mst::kruskal(&u),
        );
        let exact_pr = pagerank::power_iteration(&g).0;
        let flow = pfp::dinic(&pfp::Network::new(&g), 0, n - 1);
        let heuristic = Heuristic::new(&g, n - 1, Geometry::Planar);
        for (s, threads) in schedulers() {
            let cfg = ExecConfig::new(threads);
            let at = |app: &str| format!("{app} on {name} with {} x{threads}", s.label());
            for _ in 0..repeats() {
                assert!(
                    named::sssp(&s, &cfg, &g, 0).unwrap().dist == dist,
                    "{}",
                    at("sssp")
                );
                assert!(
                    named::bfs(&s, &cfg, &g, 0).unwrap().level == level,
                    "{}",
                    at("bfs")
                );
                assert!(
                    named::cc(&s, &cfg, &u).unwrap().label == labels,
                    "{}",
                    at("cc")
                );
                assert!(
                    named::kcore(&s, &cfg, &u).unwrap().core == cores,
                    "{}",
                    at("kcore")
                );
                assert_eq!(
                    named::tc(&s, &cfg, &u).unwrap().triangles,
                    triangles,
                    "{}",
                    at("tc")
                );
                assert!(
                    named::mst(&s, &cfg, &u).unwrap().edges == forest,
                    "{}",
                    at("mst")
                );
                let pr = named::pagerank(&s, &cfg, &g, 1e-6, pagerank::PriorityKind::Pr).unwrap();
                pagerank::check(&exact_pr, &pr).unwrap_or_else(|e| panic!("{}: {e}", at("pr")));
                let out = pfp::run(&g, 0, n - 1, pfp::Goal::Flow, &s, &cfg).unwrap();
                assert_eq!(out.flow, flow, "{}", at("pfp"));
                pfp::verify(&g, 0, n - 1, &out).unwrap_or_else(|e| panic!("{}: {e}", at("pfp")));
                if let Some(h) = &heuristic {
                    let d = named::astar(&s, &cfg, &g, 0, n - 1, h).unwrap().dist;
                    assert_eq!(d, dist[n as usize - 1], "{}", at("astar"));
                }
            }
        }
        // Betweenness runs on its own level-synchronous engine, not on a scheduler.
        let sources = bc::sample_sources(g.num_nodes(), 12, 1);
        let expected = bc::serial_brandes(&g, &sources);
        for queues in [Queues::Nwq, Queues::Dynamic] {
            for layout in [Layout::Input, Layout::Adl] {
                let config = BcConfig {
                    queues,
                    layout,
                    ..BcConfig::default()
                };
                for _ in 0..repeats() {
                    let out = bc::run(&g, &sources, &config, &ExecConfig::new(THREADS)).unwrap();
                    bc::compare_scores(&out.scores, &expected, |v| v as u64)
                        .unwrap_or_else(|e| panic!("bc on {name} ({queues:?}, {layout:?}): {e}"));
                }
            }
        }
    }
}

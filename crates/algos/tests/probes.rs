//! The applications under instrumentation and simulation: results still match the oracles,
//! the oracle-based work classification obeys its invariants, and simulated runs of every
//! scheduler at many logical workers give verified results.

use ordo_algos::{bfs, cc, kcore, mst, named, pagerank, sssp, tc};
use ordo_exec::{ExecConfig, Probes};
use ordo_graph::{gen, undirected_simple, BuildOptions, Graph};
use ordo_sched::{SchedulerConfig, Topology};

fn grid() -> Graph {
    gen::road_grid(30, 30, 5, &BuildOptions::default()).unwrap()
}

fn with_oracle(threads: usize, oracle: Vec<u64>) -> ExecConfig {
    ExecConfig {
        probes: Probes {
            breakdown: true,
            trace: true,
            oracle: Some(oracle.into()),
            ..Probes::default()
        },
        ..ExecConfig::with_topology(threads, Topology::detect())
    }
}

#[test]
fn sssp_good_tasks_apply_each_final_distance_once() {
    let g = grid();
    let expected = sssp::dijkstra(&g, 0);
    let reached = expected.iter().filter(|&&d| d != sssp::UNREACHABLE).count() as u64;
    for name in ["serial", "obim", "pmod", "smq", "mq", "spraylist"] {
        for threads in [1, 4] {
            let threads = if name == "serial" { 1 } else { threads };
            let s = SchedulerConfig::parse(name, &[]).unwrap();
            let cfg = with_oracle(threads, expected.clone());
            let out = named::sssp(&s, &cfg, &g, 0).unwrap();
            assert_eq!(out.dist, expected, "{name} x{threads}");
            // Only one relaxation can lower a label to its final value (later ones must be
            // strictly smaller, and nothing is smaller), so one task per reached node applies
            // it, the source's included.
            assert_eq!(out.stats.good_tasks, Some(reached), "{name}");
            if name == "serial" {
                // Dijkstra's order does good and empty work only.
                let bad = out.report.total.tasks - out.stats.stale_tasks - reached;
                assert_eq!(bad, 0);
            }
            let b = out.report.breakdown.unwrap();
            assert_eq!(b.deqs, out.report.total.tasks);
            // Useless work is exactly the tasks that were stale or not final; at least the
            // stale ones are marked.
            if out.stats.stale_tasks > 0 {
                assert!(b.uwork > 0, "{name}: stale tasks are useless work");
            }
            assert!(!out.report.traces.is_empty());
        }
    }
}

#[test]
fn oracle_classification_does_not_change_results() {
    let g = grid();
    let u = undirected_simple(&g).unwrap();
    let s = SchedulerConfig::parse("obim", &[]).unwrap();
    let level = bfs::serial_bfs(&g, 0);
    let cfg = with_oracle(4, level.iter().map(|&l| l as u64).collect());
    assert_eq!(named::bfs(&s, &cfg, &g, 0).unwrap().level, level);
    let labels = cc::serial_cc(&u);
    let cfg = with_oracle(4, labels.iter().map(|&l| l as u64).collect());
    assert_eq!(named::cc(&s, &cfg, &u).unwrap().label, labels);
    let cores = kcore::serial_kcore(&u);
    let cfg = with_oracle(4, cores.iter().map(|&l| l as u64).collect());
    let out = named::kcore(&s, &cfg, &u).unwrap();
    assert_eq!(out.core, cores);
    let b = out.report.breakdown.unwrap();
    assert!(b.uwork > 0, "unchanged estimates are useless work");
}

fn simulated(p: usize) -> ExecConfig {
    ExecConfig {
        simulate: true,
        pin: false,
        ..ExecConfig::with_topology(p, Topology::synthetic(4, 16))
    }
}

#[test]
fn simulated_applications_match_their_oracles() {
    let weighted = BuildOptions {
        weights: Some("1:100:5".parse().unwrap()),
        ..Default::default()
    };
    let g = gen::kronecker(9, 8, 3, &weighted).unwrap();
    let u = undirected_simple(&g).unwrap();
    let src = (0..g.num_nodes() as u32)
        .max_by_key(|&v| g.out_degree(v))
        .unwrap();
    let (dist, level) = (sssp::dijkstra(&g, src), bfs::serial_bfs(&g, src));
    let (labels, cores, triangles) = (
        cc::serial_cc(&u),
        kcore::serial_kcore(&u),
        tc::serial_tc(&u),
    );
    let forest = mst::kruskal(&u);
    let exact = pagerank::power_iteration(&g).0;
    for name in ordo_sched::names() {
        let s = SchedulerConfig::parse(name, &[]).unwrap();
        let ps: &[usize] = if name == "serial" {
            &[1]
        } else {
            &[3, 64, 256]
        };
        for &p in ps {
            let cfg = simulated(p);
            let ctx = format!("{name} P={p}");
            let out = named::sssp(&s, &cfg, &g, src).unwrap();
            assert_eq!(out.dist, dist, "sssp {ctx}");
            let sim = out.report.simulation.as_ref().unwrap();
            assert_eq!(
                sim.rank.ranked_pops, out.report.total.tasks,
                "sssp reports priorities"
            );
            assert_eq!(named::bfs(&s, &cfg, &g, src).unwrap().level, level, "{ctx}");
            assert_eq!(named::cc(&s, &cfg, &u).unwrap().label, labels, "{ctx}");
            assert_eq!(named::kcore(&s, &cfg, &u).unwrap().core, cores, "{ctx}");
            assert_eq!(
                named::tc(&s, &cfg, &u, tc::Counting::Total)
                    .unwrap()
                    .triangles,
                triangles
            );
            assert_eq!(named::mst(&s, &cfg, &u).unwrap().edges, forest, "{ctx}");
            let pr = named::pagerank(&s, &cfg, &g, 1e-6, pagerank::PriorityKind::Pr).unwrap();
            pagerank::check(&exact, &pr).unwrap();
        }
    }
}

#[test]
fn exact_order_has_no_rank_error() {
    // The serial scheduler's SSSP is Dijkstra: every pop is the best pending task.
    let g = grid();
    let serial = SchedulerConfig::parse("serial", &[]).unwrap();
    let base = named::sssp(&serial, &simulated(1), &g, 0).unwrap();
    let summary = base.report.simulation.unwrap().rank_summary().unwrap();
    assert_eq!((summary.max, summary.mean), (0, 0.0));
}

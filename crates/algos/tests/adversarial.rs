//! Adversarial graphs: shapes and weights that break naive schedulers and applications. Every
//! result is compared with its serial oracle.
//!
//! * a star with a million leaves (one node pushes a million tasks at one priority);
//! * a path of ten million nodes (ten million tasks, one at a time, the deepest BFS);
//! * all weights zero (every task at priority 0);
//! * weights near u32::MAX on a long path (distances far beyond u32: sums must be u64);
//! * disconnected graphs with isolated nodes (unreachable nodes stay unreachable);
//! * self-loops and parallel arcs everywhere;
//! * a graph with no edges, and a single node.
//!
//! Priorities spread over the whole u64 range are the scheduler battery's
//! `extreme_priorities_every_task_once` (no graph reaches them: distances are sums of u32s).

mod common;

use ordo_algos::bc::{self, BcConfig};
use ordo_algos::{bfs, cc, kcore, mst, named, pagerank, pfp, sssp, tc};
use ordo_exec::ExecConfig;
use ordo_graph::{undirected_simple, BuildOptions, EdgeList, Graph, IdBase};
use ordo_sched::SchedulerConfig;

fn graph(n: u32, arcs: impl IntoIterator<Item = (u32, u32, u32)>) -> Graph {
    let mut el = EdgeList::with_capacity(n, 0, true);
    for (u, v, w) in arcs {
        el.push(u, v, w);
    }
    el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
}

/// Exact, bucketed, adaptive, relaxed heaps, lock-free list and unordered, each at 8 threads
/// on two cores (oversubscribed), plus the serial scheduler.
fn schedulers() -> Vec<(SchedulerConfig, usize)> {
    let mut all: Vec<(SchedulerConfig, usize)> = [
        "auto",
        "obim",
        "pmod",
        "smq",
        "mq",
        "reld",
        "spraylist",
        "fifo",
    ]
    .iter()
    .map(|name| (common::scheduler(name, &[]), 8))
    .collect();
    all.push((common::scheduler("serial", &[]), 1));
    all
}

/// `auto` with an application's delta, as the CLI and Python set it.
fn auto_with_delta(delta: u32) -> SchedulerConfig {
    let mut s = common::scheduler("auto", &[]);
    s.hint_delta(delta, &[]).unwrap();
    s
}

/// The large graphs get the schedulers that differ most, to keep the test minutes short.
fn few_schedulers() -> Vec<(SchedulerConfig, usize)> {
    ["auto", "smq", "mq", "spraylist"]
        .iter()
        .map(|name| (common::scheduler(name, &[]), 8))
        .collect()
}

fn sssp_and_bfs(what: &str, g: &Graph, src: u32, scheds: &[(SchedulerConfig, usize)]) {
    let dist = sssp::dijkstra(g, src);
    let level = bfs::serial_bfs(g, src);
    for (s, threads) in scheds {
        let cfg = ExecConfig::new(*threads);
        let got = named::sssp(s, &cfg, g, src).unwrap().dist;
        assert!(
            got == dist,
            "{what}: sssp on {} x{threads} differs from Dijkstra",
            s.label()
        );
        let got = named::bfs(s, &cfg, g, src).unwrap().level;
        assert!(
            got == level,
            "{what}: bfs on {} x{threads} differs from the queue BFS",
            s.label()
        );
    }
}

/// Components, cores, triangles, spanning forest, PageRank, betweenness and max flow, each
/// against its oracle, for every scheduler in `scheds`.
fn other_apps(what: &str, g: &Graph, scheds: &[(SchedulerConfig, usize)]) {
    let u = undirected_simple(g).unwrap();
    let (labels, cores, triangles, forest) = (
        cc::serial_cc(&u),
        kcore::serial_kcore(&u),
        tc::serial_tc(&u),
        mst::kruskal(&u),
    );
    let per_node = tc::serial_per_node(&u);
    for (s, threads) in scheds {
        let cfg = ExecConfig::new(*threads);
        let label = s.label();
        assert!(
            named::cc(s, &cfg, &u).unwrap().label == labels,
            "{what}: cc on {label}"
        );
        assert!(
            named::kcore(s, &cfg, &u).unwrap().core == cores,
            "{what}: kcore on {label}"
        );
        let counted = named::tc(s, &cfg, &u, tc::Counting::PerNode).unwrap();
        assert_eq!(counted.triangles, triangles, "{what}: tc on {label}");
        assert!(
            counted.per_node.as_ref() == Some(&per_node),
            "{what}: tc per node on {label}"
        );
        assert!(
            named::mst(s, &cfg, &u).unwrap().edges == forest,
            "{what}: mst on {label}"
        );
        let pr = named::pagerank(s, &cfg, g, 1e-6, pagerank::PriorityKind::Pr).unwrap();
        pagerank::verify(g, &pr).unwrap_or_else(|e| panic!("{what}: pagerank on {label}: {e}"));
        if g.num_nodes() >= 2 {
            let t = g.num_nodes() as u32 - 1;
            let out = pfp::run(g, 0, t, pfp::Goal::Preflow, s, &cfg).unwrap();
            pfp::verify(g, 0, t, &out).unwrap_or_else(|e| panic!("{what}: pfp on {label}: {e}"));
            assert_eq!(
                out.flow,
                pfp::dinic(&pfp::Network::new(g), 0, t),
                "{what}: pfp on {label}"
            );
        }
    }
    let sources = bc::sample_sources(g.num_nodes(), 8, 3);
    let expected = bc::serial_brandes(g, &sources);
    for threads in [1, 8] {
        let out = bc::run(g, &sources, &BcConfig::default(), &ExecConfig::new(threads)).unwrap();
        bc::compare_scores(&out.scores, &expected, |v| v as u64)
            .unwrap_or_else(|e| panic!("{what}: bc x{threads}: {e}"));
    }
}

#[test]
fn star_with_a_million_leaves() {
    let leaves = 1_000_000;
    let out = graph(leaves + 1, (1..=leaves).map(|v| (0, v, 1 + v % 5)));
    sssp_and_bfs("out-star", &out, 0, &few_schedulers());
    // The reverse star: a million arcs into one node, which many workers relax at once.
    let inward = graph(
        leaves + 1,
        (1..=leaves).flat_map(|v| [(v, 0, v % 7), (0, v, 3)]),
    );
    sssp_and_bfs("in-star", &inward, 1, &few_schedulers());
    let u = undirected_simple(&out).unwrap();
    // A million distinct labels: `auto` takes cc's delta as the front ends do, since a bag per
    // label (pmod's start, obim delta 0) costs about a kilobyte and microseconds each.
    let scheds = [
        auto_with_delta(cc::default_delta(&u)),
        common::scheduler("smq", &[]),
    ];
    for (s, threads) in scheds.into_iter().map(|s| (s, 8)) {
        let cfg = ExecConfig::new(threads);
        let label = s.label();
        assert_eq!(
            cc::count(&named::cc(&s, &cfg, &u).unwrap().label),
            1,
            "star cc on {label}"
        );
        let core = named::kcore(&s, &cfg, &u).unwrap().core;
        assert!(core.iter().all(|&c| c == 1), "star kcore on {label}");
        assert_eq!(
            named::tc(&s, &cfg, &u, tc::Counting::Total)
                .unwrap()
                .triangles,
            0,
            "star tc on {label}"
        );
    }
}

/// Ten million levels of priority, one task each. obim with a small delta costs about 0.9 KB
/// per level (868 MB for a million-node path, at 1 and at 8 threads), so `auto` (obim with the
/// application's delta: 1 for SSSP here, 0 for BFS) would need about 10 GB: the path runs PMOD,
/// which merges the sparse levels, the heap-based schedulers, and obim with a coarse delta.
#[test]
fn path_of_ten_million_nodes() {
    let n = 10_000_000;
    let path = graph(n, (0..n - 1).map(|v| (v, v + 1, 1 + v % 3)));
    let scheds: Vec<(SchedulerConfig, usize)> = [
        common::scheduler("pmod", &[]),
        common::scheduler("obim", &[("delta", "12")]),
        common::scheduler("smq", &[]),
        common::scheduler("mq", &[]),
        common::scheduler("spraylist", &[]),
    ]
    .into_iter()
    .map(|s| (s, 8))
    .collect();
    sssp_and_bfs("path", &path, 0, &scheds);
    let cfg = ExecConfig::new(8);
    let u = undirected_simple(&path).unwrap();
    let labels = named::cc(&auto_with_delta(cc::default_delta(&u)), &cfg, &u)
        .unwrap()
        .label;
    assert_eq!(cc::count(&labels), 1);
}

#[test]
fn weights_near_u32_max_sum_in_u64() {
    let (n, heavy) = (100_000u32, u32::MAX - 1);
    // A path of heavy arcs plus some u32::MAX shortcuts over two of them: distances reach
    // about 4.3e14, far past u32 (where a u32 sum would wrap to a wrong, smaller value).
    let arcs = (0..n - 1)
        .map(|v| (v, v + 1, heavy))
        .chain((0..n - 2).step_by(1000).map(|v| (v, v + 2, u32::MAX)));
    let g = graph(n, arcs);
    let dist = sssp::dijkstra(&g, 0);
    let shortcuts = (n as u64 - 2).div_ceil(1000);
    let saved = shortcuts * (2 * heavy as u64 - u32::MAX as u64);
    assert_eq!(dist[n as usize - 1], (n as u64 - 1) * heavy as u64 - saved);
    sssp_and_bfs("heavy path", &g, 0, &schedulers());
    let u = undirected_simple(&g).unwrap();
    let forest = mst::kruskal(&u);
    for (s, threads) in schedulers() {
        let got = named::mst(&s, &ExecConfig::new(threads), &u).unwrap().edges;
        assert!(got == forest, "heavy mst on {}", s.label());
    }
}

#[test]
fn all_weights_zero() {
    let n = 20_000u32;
    let arcs = (0..n).flat_map(|v| [(v, (v * 7 + 1) % n, 0), (v, (v * 13 + 5) % n, 0)]);
    let g = graph(n, arcs);
    assert!(sssp::dijkstra(&g, 0)
        .iter()
        .all(|&d| d == 0 || d == sssp::UNREACHABLE));
    sssp_and_bfs("zero weights", &g, 0, &schedulers());
}

#[test]
fn disconnected_with_isolated_nodes() {
    // Ten 3-node cycles, then 50 isolated nodes: most of the graph is unreachable from 0.
    let arcs = (0..10u32).flat_map(|c| {
        let b = 3 * c;
        [(b, b + 1, 2), (b + 1, b + 2, 3), (b + 2, b, 1)]
    });
    let g = graph(80, arcs);
    let dist = sssp::dijkstra(&g, 4);
    assert_eq!(dist.iter().filter(|&&d| d != sssp::UNREACHABLE).count(), 3);
    sssp_and_bfs("disconnected", &g, 4, &schedulers());
    other_apps("disconnected", &g, &schedulers());
    let labels = cc::serial_cc(&undirected_simple(&g).unwrap());
    assert_eq!(cc::count(&labels), 60);
}

#[test]
fn self_loops_and_parallel_arcs() {
    let n = 300u32;
    let mut arcs = Vec::new();
    for v in 0..n {
        arcs.push((v, v, 1)); // a self-loop on every node
        for k in 0..3 {
            // the same arc three times with different weights, and its reverse once
            let t = (v * 31 + 7) % n;
            arcs.push((v, t, 5 + k * 3));
            arcs.push((t, v, 9));
        }
        arcs.push((v, (v + 1) % n, 20));
    }
    let g = graph(n, arcs);
    sssp_and_bfs("multigraph", &g, 0, &schedulers());
    other_apps("multigraph", &g, &schedulers());
}

#[test]
fn no_edges_and_one_node() {
    for n in [1u32, 1000] {
        let g = graph(n, []);
        sssp_and_bfs("no edges", &g, 0, &schedulers());
        other_apps("no edges", &g, &schedulers());
    }
}

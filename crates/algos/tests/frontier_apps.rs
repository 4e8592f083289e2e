//! The frontier-executor applications against their serial oracles: random graphs (directed
//! and undirected, weighted for SSSP, 1 to 8 workers on this machine's cores), generated graphs
//! that drive every branch (bottom-up steps, sampling), and the shared real graphs when
//! present.

mod common;

use ordo_algos::bfs::{self, direction::InEdges};
use ordo_algos::pagerank::pull::{Sweep, Until};
use ordo_algos::{astar, cc, kcore, mst, pagerank, sssp, tc};
use ordo_exec::ExecConfig;
use ordo_graph::{gen, load_graph, BuildOptions, EdgeList, Graph, IdBase, LoadOptions};
use proptest::prelude::*;

fn graph(n: u32, edges: &[(u32, u32)], symmetrize: bool) -> Graph {
    let mut el = EdgeList::with_capacity(n, edges.len(), false);
    for &(u, v) in edges {
        el.push(u % n, v % n, 1);
    }
    let opts = BuildOptions {
        symmetrize,
        ..Default::default()
    };
    el.build(&opts, IdBase::Zero).unwrap()
}

/// Runs `method` on 1, 2 and 8 workers and checks each result against the oracle's.
fn agrees_at_1_2_8<T: PartialEq>(what: &str, expected: &T, method: impl Fn(&ExecConfig) -> T) {
    for threads in [1, 2, 8] {
        let got = method(&ExecConfig::new(threads));
        assert!(got == *expected, "{what} x{threads}");
    }
}

fn arb_graph() -> impl Strategy<Value = (Graph, bool)> {
    (1u32..80, any::<bool>()).prop_flat_map(|(n, sym)| {
        // Dense enough, sometimes, that the frontier outgrows m / 15 and the search turns
        // bottom-up.
        prop::collection::vec((0..n, 0..n), 0..600).prop_map(move |e| (graph(n, &e, sym), sym))
    })
}

/// Direction-optimizing BFS from `src` with the in-edges the graph needs.
fn do_bfs(g: &mut Graph, symmetric: bool, src: u32, threads: usize) -> bfs::BfsOutput {
    let cfg = ExecConfig::new(threads);
    if symmetric {
        bfs::direction::run(g, InEdges::symmetric(g), src, &cfg).unwrap()
    } else {
        g.build_transpose();
        bfs::direction::run(g, InEdges::transpose(g).unwrap(), src, &cfg).unwrap()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn direction_optimizing_bfs_equals_queue_bfs(
        (mut g, sym) in arb_graph(), threads in 1usize..9, src in 0u32..80,
    ) {
        let src = src % g.num_nodes() as u32;
        let expected = bfs::serial_bfs(&g, src);
        let out = do_bfs(&mut g, sym, src, threads);
        prop_assert_eq!(out.level, expected);
    }
}

fn arb_undirected() -> impl Strategy<Value = Graph> {
    (1u32..120).prop_flat_map(|n| {
        prop::collection::vec((0..n, 0..n), 0..400).prop_map(move |e| graph(n, &e, true))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn afforest_equals_union_find(g in arb_undirected(), threads in 1usize..9) {
        let out = cc::afforest::run(&g, &ExecConfig::new(threads)).unwrap();
        prop_assert_eq!(out.label, cc::serial_cc(&g));
    }
}

#[test]
fn afforest_on_generated_graphs_with_a_giant_component_and_many_small_ones() {
    let opts = BuildOptions {
        symmetrize: true,
        ..Default::default()
    };
    let graphs = [
        ("kronecker", gen::kronecker(13, 8, 5, &opts).unwrap()),
        (
            "sparse random",
            gen::uniform_random(20_000, 12_000, 9, &opts).unwrap(),
        ),
        ("grid", gen::road_grid(100, 100, 2, &opts).unwrap()),
    ];
    for (name, g) in &graphs {
        agrees_at_1_2_8(name, &cc::serial_cc(g), |cfg| {
            cc::afforest::run(g, cfg).unwrap().label
        });
    }
}

#[test]
fn direction_optimizing_bfs_turns_bottom_up_on_kronecker_and_mostly_not_on_a_grid() {
    let mut k = gen::kronecker(12, 16, 3, &BuildOptions::default()).unwrap();
    // Many Kronecker nodes are isolated: start from the hub.
    let hub = (0..k.num_nodes() as u32)
        .max_by_key(|&v| k.out_degree(v))
        .unwrap();
    let expected = bfs::serial_bfs(&k, hub);
    for threads in [1, 2, 8] {
        let out = do_bfs(&mut k, false, hub, threads);
        assert_eq!(out.level, expected, "kronecker x{threads}");
        assert!(
            out.stats.bottom_up_steps > 0,
            "kronecker never went bottom-up"
        );
    }
    let grid = gen::road_grid(60, 60, 1, &BuildOptions::default()).unwrap();
    let expected = bfs::serial_bfs(&grid, 5);
    for threads in [1, 2, 8] {
        let out = bfs::direction::run(
            &grid,
            InEdges::symmetric(&grid),
            5,
            &ExecConfig::new(threads),
        )
        .unwrap();
        assert_eq!(out.level, expected, "grid x{threads}");
        // A long thin frontier: top-down almost throughout (the last few levels may turn
        // bottom-up once the unexplored edges run low).
        assert!(out.stats.top_down_steps > 10 * out.stats.bottom_up_steps.max(1));
    }
}

fn load_shared(name: &str, symmetrize: bool) -> Option<Graph> {
    let path = common::shared(name)?;
    let opts = LoadOptions {
        format: None,
        build: BuildOptions {
            symmetrize,
            ..Default::default()
        },
    };
    Some(load_graph(&path, &opts, None).unwrap().graph)
}

#[test]
fn direction_optimizing_bfs_on_real_graphs() {
    for (name, sym) in [
        ("soc-Slashdot0902.txt.gz", false),
        ("email-Enron.txt.gz", true),
        ("osm-amsterdam.gr.gz", false),
        ("bcsstk33.graph.gz", false),
    ] {
        let Some(mut g) = load_shared(name, sym) else {
            return;
        };
        for src in [0, g.num_nodes() as u32 / 2] {
            let expected = bfs::serial_bfs(&g, src);
            for threads in [1, 2, 8] {
                let out = do_bfs(&mut g, sym, src, threads);
                assert!(out.level == expected, "{name} from {src} x{threads}");
            }
        }
    }
}

#[test]
fn afforest_on_real_graphs() {
    for name in [
        "soc-Slashdot0902.txt.gz",
        "osm-amsterdam.gr.gz",
        "email-Enron.txt.gz",
    ] {
        let Some(g) = load_shared(name, true) else {
            return;
        };
        agrees_at_1_2_8(name, &cc::serial_cc(&g), |cfg| {
            cc::afforest::run(&g, cfg).unwrap().label
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn pull_pagerank_is_within_its_bound_of_the_power_iteration(
        (mut g, _) in arb_graph(), threads in 1usize..9, tol_exp in 4i32..12, jacobi: bool,
    ) {
        let sweep = if jacobi { Sweep::Jacobi } else { Sweep::GaussSeidel };
        g.build_transpose();
        let incoming = InEdges::transpose(&g).unwrap();
        let tolerance = 10f64.powi(-tol_exp);
        let out = pagerank::pull::run(&g, incoming, Until::converged(tolerance), sweep, &ExecConfig::new(threads)).unwrap();
        let stop = tolerance * g.num_nodes() as f64;
        prop_assert!(out.last_change < stop);
        // The bound is 2 x 0.85 / 0.15 = 11.3 times the last change (below `stop`) plus the
        // rounding terms, about 1.2e-5 in single precision, which runs only from stop 1e-5 on:
        // not a bound that cannot fail.
        prop_assert!(out.error_bound <= 12.0 * stop + 1e-5, "bound {}", out.error_bound);
        prop_assert!((out.score.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let l1 = pagerank::pull::verify(&g, &out);
        prop_assert!(l1.is_ok(), "{:?}", l1);
    }
}

#[test]
fn pull_pagerank_matches_exact_solutions() {
    // A directed cycle: every node 1/n.
    let n = 50u32;
    let cycle: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    let mut g = graph(n, &cycle, false);
    g.build_transpose();
    let out = pagerank::pull::run(
        &g,
        InEdges::transpose(&g).unwrap(),
        Until::converged(1e-14),
        Sweep::GaussSeidel,
        &ExecConfig::new(3),
    )
    .unwrap();
    for &s in &out.score {
        assert!((s - 1.0 / n as f64).abs() < 1e-12);
    }
    let star: Vec<(u32, u32)> = (1..n).map(|v| (v, 0)).collect();
    let mut g = graph(n, &star, false);
    g.build_transpose();
    let out = pagerank::pull::run(
        &g,
        InEdges::transpose(&g).unwrap(),
        Until::converged(1e-14),
        Sweep::Jacobi,
        &ExecConfig::new(2),
    )
    .unwrap();
    // A star whose leaves point at the hub, which is dangling. A leaf gets the teleport and the
    // hub's spread: l = (1 - a + a h) / n; with h = 1 - (n - 1) l that gives
    // l = 1 / (n + a (n - 1)).
    let (a, nf) = (pagerank::DAMPING, n as f64);
    let l = 1.0 / (nf + a * (nf - 1.0));
    let h = 1.0 - (nf - 1.0) * l;
    assert!(
        (out.score[0] - h).abs() < 1e-10,
        "hub {} vs {h}",
        out.score[0]
    );
    assert!(
        (out.score[1] - l).abs() < 1e-10,
        "leaf {} vs {l}",
        out.score[1]
    );
}

#[test]
fn pull_pagerank_skips_nodes_without_in_edges_and_stays_within_its_bound() {
    // 5000 nodes over three chunks: every third node has no arcs at all (a SNAP file's id
    // gaps), every fifth of the rest only sends (a directed graph's sources), so the words of
    // the bitmap of pulling nodes mix runs of every length.
    let n = 5000u32;
    let linked: Vec<u32> = (0..n).filter(|v| !v.is_multiple_of(3)).collect();
    let mut edges = Vec::new();
    for (i, &u) in linked.iter().enumerate() {
        for step in [1, 7, 31] {
            let v = linked[(i * 13 + step) % linked.len()];
            if !v.is_multiple_of(5) {
                edges.push((u, v));
            }
        }
    }
    let mut g = graph(n, &edges, false);
    g.build_transpose();
    let ins = InEdges::transpose(&g).unwrap();
    let without_in_edges = (0..n as usize).filter(|&v| ins.of(v).is_empty()).count();
    assert!(without_in_edges > n as usize / 3, "{without_in_edges}");
    for tolerance in [1e-4 / n as f64, 1e-12] {
        for sweep in [Sweep::GaussSeidel, Sweep::Jacobi] {
            for threads in [1, 2, 8] {
                let incoming = InEdges::transpose(&g).unwrap();
                let cfg = ExecConfig::new(threads);
                let out =
                    pagerank::pull::run(&g, incoming, Until::converged(tolerance), sweep, &cfg)
                        .unwrap();
                let what = format!("{tolerance} {sweep:?} x{threads}");
                assert!(out.last_change < tolerance * n as f64, "{what}");
                assert!((out.score.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{what}");
                let l1 = pagerank::pull::verify(&g, &out);
                assert!(l1.is_ok(), "{what}: {l1:?}");
                // The nodes without in-edges hold the teleport share exactly: the smallest score.
                let min = out.score.iter().cloned().fold(f64::MAX, f64::min);
                assert!((out.score[0] - min).abs() <= 1e-6 * min, "{what}");
            }
        }
    }
    // No arcs at all: every node is skipped, and every score is 1/n after one iteration.
    let mut g = graph(100, &[], false);
    g.build_transpose();
    let incoming = InEdges::transpose(&g).unwrap();
    let out = pagerank::pull::run(
        &g,
        incoming,
        Until::converged(1e-12),
        Sweep::GaussSeidel,
        &ExecConfig::new(2),
    )
    .unwrap();
    assert_eq!(out.iterations, 1);
    assert!(out.score.iter().all(|&s| (s - 0.01).abs() < 1e-15));
}

/// The undirected simple view (what `ordo kcore` runs on).
fn simple(g: &Graph) -> Graph {
    ordo_graph::undirected_simple(g).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn peeling_equals_bucket_peeling(g in arb_undirected(), threads in 1usize..9) {
        let g = simple(&g);
        let out = kcore::peel::run(&g, &ExecConfig::new(threads)).unwrap();
        prop_assert_eq!(out.core, kcore::serial_kcore(&g));
    }

    #[test]
    fn one_thread_bucket_peeling_equals_the_oracle(g in arb_undirected()) {
        let g = simple(&g);
        prop_assert_eq!(kcore::bucket::run(&g).core, kcore::serial_kcore(&g));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn triangle_loop_equals_the_serial_count(g in arb_undirected(), threads in 1usize..9) {
        let g = simple(&g);
        let out = tc::run_loop(&g, &ExecConfig::new(threads)).unwrap();
        prop_assert_eq!(out.triangles, tc::serial_tc(&g));
    }
}

#[test]
fn triangle_loop_on_real_graphs_by_id_and_by_degree() {
    // Roads orient by id, the social graphs by degree.
    for (name, by_id) in [
        ("osm-rome.gr.gz", true),
        ("email-Enron.txt.gz", false),
        ("CA-HepPh.txt.gz", false),
        ("delaunay_n16.mtx.gz", true),
    ] {
        let Some(g) = load_shared(name, false) else {
            continue;
        };
        let g = simple(&g);
        assert_eq!(tc::orient_by_id(&g), by_id, "{name}");
        let expected = tc::serial_tc(&g);
        agrees_at_1_2_8(name, &expected, |cfg| {
            tc::run_loop(&g, cfg).unwrap().triangles
        });
    }
}

#[test]
fn peeling_on_generated_and_real_graphs() {
    let opts = BuildOptions::default();
    let mut graphs = vec![
        (
            "kronecker",
            simple(&gen::kronecker(13, 16, 5, &opts).unwrap()),
        ),
        ("grid", simple(&gen::road_grid(80, 80, 2, &opts).unwrap())),
    ];
    for name in ["email-Enron.txt.gz", "osm-amsterdam.gr.gz"] {
        if let Some(g) = load_shared(name, false) {
            graphs.push((name, simple(&g)));
        }
    }
    for (name, g) in &graphs {
        let expected = kcore::serial_kcore(g);
        agrees_at_1_2_8(name, &expected, |cfg| {
            kcore::peel::run(g, cfg).unwrap().core
        });
        assert!(kcore::bucket::run(g).core == expected, "{name}: bucket");
    }
}

fn weighted_undirected() -> impl Strategy<Value = Graph> {
    (1u32..100).prop_flat_map(|n| {
        // Few distinct weights: many ties, which the edge order must break like Kruskal's.
        prop::collection::vec((0..n, 0..n, 0u32..4), 0..400).prop_map(move |e| {
            let mut el = EdgeList::with_capacity(n, e.len(), true);
            for &(u, v, w) in &e {
                el.push(u, v, w);
            }
            simple(&el.build(&BuildOptions::default(), IdBase::Zero).unwrap())
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn boruvka_equals_kruskal(g in weighted_undirected(), threads in 1usize..9) {
        let out = mst::boruvka::run(&g, &ExecConfig::new(threads)).unwrap();
        prop_assert_eq!(out.edges, mst::kruskal(&g));
    }
}

#[test]
fn boruvka_on_generated_and_real_graphs() {
    let opts = BuildOptions::default();
    // Dense and weighted 1..255: Boruvka runs on the light edges first, then filters the rest.
    let weighted = BuildOptions {
        weights: Some(ordo_graph::WeightSpec {
            lo: 1,
            hi: 255,
            seed: 4,
        }),
        ..Default::default()
    };
    let mut graphs = vec![
        (
            "kronecker",
            simple(&gen::kronecker(12, 8, 5, &opts).unwrap()),
        ),
        (
            "weighted kronecker",
            simple(&gen::kronecker(12, 16, 6, &weighted).unwrap()),
        ),
        ("grid", simple(&gen::road_grid(70, 70, 2, &opts).unwrap())),
    ];
    if let Some(g) = load_shared("osm-amsterdam.gr.gz", false) {
        graphs.push(("amsterdam", simple(&g)));
    }
    for (name, g) in &graphs {
        agrees_at_1_2_8(name, &mst::kruskal(g), |cfg| {
            mst::boruvka::run(g, cfg).unwrap().edges
        });
    }
}

fn weighted_directed() -> impl Strategy<Value = Graph> {
    (1u32..90).prop_flat_map(|n| {
        // Weights from 0 (ties, zero-weight cycles) to far past a bucket, so that with small
        // shifts entries skip buckets and leave the ring for the overflow.
        let weight = prop_oneof![0u32..4, 0u32..300, 1000u32..5000];
        prop::collection::vec((0..n, 0..n, weight), 0..500).prop_map(move |e| {
            let mut el = EdgeList::with_capacity(n, e.len(), true);
            for &(u, v, w) in &e {
                el.push(u, v, w);
            }
            el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn delta_stepping_equals_dijkstra(
        g in weighted_directed(), threads in 1usize..9, src in 0u32..90, shift in 0u32..14,
    ) {
        let src = src % g.num_nodes() as u32;
        let out = sssp::delta_step::run(&g, src, shift, &ExecConfig::new(threads)).unwrap();
        prop_assert_eq!(out.dist, sssp::dijkstra(&g, src));
    }
}

#[test]
fn delta_stepping_on_generated_and_real_graphs() {
    let weighted = BuildOptions {
        weights: Some(ordo_graph::WeightSpec::DEFAULT),
        ..Default::default()
    };
    let mut graphs = vec![
        ("kronecker", gen::kronecker(12, 16, 7, &weighted).unwrap()),
        (
            "grid",
            gen::road_grid(80, 80, 3, &BuildOptions::default()).unwrap(),
        ),
    ];
    for (name, sym) in [
        ("osm-amsterdam.gr.gz", false),
        ("soc-Slashdot0902.txt.gz", false),
    ] {
        if let Some(mut g) = load_shared(name, sym) {
            if !g.is_weighted() {
                g.assign_weights(ordo_graph::WeightSpec::DEFAULT);
            }
            graphs.push((name, g));
        }
    }
    for (name, g) in &graphs {
        // The default bucket width, one far too narrow (many buckets, fusion on every one)
        // and one far too wide (one bucket, all of it fused or shared).
        for shift in [sssp::default_delta(g), 0, 30] {
            let what = format!("{name} shift {shift}");
            agrees_at_1_2_8(&what, &sssp::dijkstra(g, 0), |cfg| {
                sssp::delta_step::run(g, 0, shift, cfg).unwrap().dist
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn bucketed_astar_finds_dijkstras_distance(
        (w, h, seed) in (2u32..25, 2u32..25, 0u64..1000),
        threads in 1usize..9, shift in 0u32..14, ends in (0u32..1000, 0u32..1000),
    ) {
        let g = gen::road_grid(w, h, seed, &BuildOptions::default()).unwrap();
        let n = g.num_nodes() as u32;
        let (src, dst) = (ends.0 % n, ends.1 % n);
        let heuristic = astar::Heuristic::new(&g, dst, astar::Geometry::Planar).unwrap();
        let out =
            astar::run_buckets(&g, src, dst, &heuristic, shift, &ExecConfig::new(threads)).unwrap();
        prop_assert_eq!(out.dist, sssp::dijkstra(&g, src)[dst as usize]);
    }
}

#[test]
fn bucketed_astar_on_real_roads() {
    for (gr, co) in [
        ("osm-rome.gr.gz", "osm-rome.co.gz"),
        ("luxembourg-osm.gr.gz", "luxembourg-osm.co.gz"),
    ] {
        let (Some(mut g), Some(cp)) = (load_shared(gr, false), common::shared(co)) else {
            return;
        };
        ordo_graph::load_coords(&cp, &mut g).unwrap();
        let all = sssp::dijkstra(&g, 0);
        let n = g.num_nodes() as u32;
        for dst in [n / 3, n - 1] {
            let h = astar::Heuristic::new(&g, dst, astar::Geometry::LonLat).unwrap();
            for shift in [sssp::default_delta(&g), 4] {
                agrees_at_1_2_8(&format!("{gr} to {dst}"), &all[dst as usize], |cfg| {
                    astar::run_buckets(&g, 0, dst, &h, shift, cfg).unwrap().dist
                });
            }
        }
    }
}

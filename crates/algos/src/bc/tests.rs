use super::*;
use ordo_graph::{gen, BuildOptions, EdgeList, IdBase};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn graph(edges: &[(u32, u32)], n: u32) -> Graph {
    let mut el = EdgeList::with_capacity(n, edges.len(), false);
    for &(a, b) in edges {
        el.push(a, b, 1);
    }
    el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
}

/// Betweenness by definition: for every source s and target t, the fraction of the shortest
/// s-t paths through v, from BFS path counts from every node.
fn brute_force(g: &Graph, sources: &[u32]) -> Vec<f64> {
    let n = g.num_nodes();
    let bfs = |s: u32| {
        let (mut d, mut c) = (vec![u32::MAX; n], vec![0.0f64; n]);
        d[s as usize] = 0;
        c[s as usize] = 1.0;
        let mut q = std::collections::VecDeque::from([s]);
        while let Some(v) = q.pop_front() {
            for &w in g.neighbors(v) {
                if d[w as usize] == u32::MAX {
                    d[w as usize] = d[v as usize] + 1;
                    q.push_back(w);
                }
                if d[w as usize] == d[v as usize] + 1 {
                    c[w as usize] += c[v as usize];
                }
            }
        }
        (d, c)
    };
    let all: Vec<_> = (0..n as u32).map(bfs).collect();
    let mut score = vec![0.0; n];
    for &s in sources {
        let (ds, cs) = &all[s as usize];
        for t in 0..n {
            if t == s as usize || ds[t] == u32::MAX {
                continue;
            }
            for v in 0..n {
                let (dv, cv) = &all[v];
                if v == s as usize || v == t || ds[v] == u32::MAX || dv[t] == u32::MAX {
                    continue;
                }
                if ds[v] + dv[t] == ds[t] {
                    score[v] += cs[v] * cv[t] / cs[t];
                }
            }
        }
    }
    score
}

fn configs() -> Vec<BcConfig> {
    let mut v = vec![];
    for queues in [Queues::Dynamic, Queues::Nwq] {
        for layout in [Layout::Input, Layout::Adl] {
            for task in [1, DEFAULT_TASK] {
                v.push(BcConfig {
                    direction: Direction::Optimizing,
                    queues,
                    layout,
                    task,
                    working_set: true,
                    pull_every_level: false,
                });
            }
        }
    }
    v
}

#[test]
fn the_oracle_matches_the_definition() {
    // A directed graph with a cycle, a diamond (two shortest paths), a self-loop, a parallel
    // arc and an unreachable node.
    let g = graph(
        &[
            (0, 1),
            (0, 2),
            (1, 3),
            (2, 3),
            (3, 4),
            (4, 0),
            (4, 4),
            (3, 4),
            (5, 0),
        ],
        6,
    );
    let all: Vec<u32> = (0..6).collect();
    let want = brute_force(&g, &all);
    compare_scores(&serial_brandes(&g, &all), &want, |v| v as u64).unwrap();
    // Node 3 lies on the paths from 0, 1 and 2 to 4 (and on 1 -> 0, 2 -> 0 ...): not zero.
    assert!(want[3] > 0.0);
    let random = gen::uniform_random(60, 240, 5, &BuildOptions::default()).unwrap();
    let all: Vec<u32> = (0..60).collect();
    compare_scores(
        &serial_brandes(&random, &all),
        &brute_force(&random, &all),
        |v| v as u64,
    )
    .unwrap();
}

#[test]
fn the_split_oracle_sums_what_the_serial_one_does() {
    let random = gen::uniform_random(300, 1500, 7, &BuildOptions::default()).unwrap();
    // Sources repeated and in any order; more groups than sources.
    let sources: Vec<u32> = (0..23)
        .map(|i| (i * 37 % 300) as u32)
        .chain([5, 5])
        .collect();
    let want = serial_brandes(&random, &sources);
    for threads in [1, 2, 3, 8, 64] {
        let got = serial_brandes_split(&random, &sources, threads);
        compare_scores(&got, &want, |v| v as u64).unwrap();
    }
    assert!(serial_brandes_split(&random, &[], 4)
        .iter()
        .all(|&x| x == 0.0));
}

#[test]
fn parallel_matches_the_oracle_in_every_configuration() {
    let sym = BuildOptions {
        symmetrize: true,
        ..BuildOptions::default()
    };
    let graphs = [
        gen::road_grid(20, 15, 3, &BuildOptions::default()).unwrap(),
        gen::kronecker(9, 8, 11, &sym).unwrap(),
        gen::uniform_random(500, 1500, 2, &BuildOptions::default()).unwrap(),
    ];
    for g in &graphs {
        let sources = sample_sources(g.num_nodes(), 12, 9);
        let want = serial_brandes(g, &sources);
        for bc in configs() {
            for threads in [1, 2, 8] {
                let out = run(g, &sources, &bc, &ExecConfig::new(threads)).unwrap();
                compare_scores(&out.scores, &want, |v| v as u64)
                    .unwrap_or_else(|e| panic!("{bc:?} at {threads} threads: {e}"));
                assert_eq!(out.adl.is_some(), bc.layout == Layout::Adl);
                let ws = out.working_set.expect("measured");
                assert_eq!(ws.per_thread.len(), threads);
                if threads == 1 {
                    // One thread touches exactly what it reaches: the out-neighbours of reached
                    // nodes are reached.
                    assert!((ws.mean - ws.ideal).abs() < 1e-9, "{ws:?}");
                } else {
                    assert!(ws.mean >= ws.ideal * 0.999, "{ws:?}");
                }
                assert_eq!(out.report.total.pushes + sources.len() as u64, out.reached);
            }
        }
        // One thread without the working-set marks: the lone kernel.
        let bc = BcConfig {
            working_set: false,
            ..BcConfig::default()
        };
        let out = run(g, &sources, &bc, &ExecConfig::new(1)).unwrap();
        compare_scores(&out.scores, &want, |v| v as u64).unwrap();
        assert_eq!(out.report.total.pushes + sources.len() as u64, out.reached);
        assert_eq!(out.report.total.tasks, out.reached);
    }
}

#[test]
fn thin_levels_run_ahead_on_thread_0_and_thick_ones_are_shared() {
    // Levels go small, large, small, so thread 0 runs ahead, hands back to all, and runs
    // ahead again, forward and backward.
    let (path, fan, tail) = (300u32, 400u32, 50u32);
    let g = crate::test_graphs::thin_thick_thin(path, fan, tail);
    let sources = [0, path + fan + tail - 1, path + 7];
    let want = serial_brandes(&g, &sources);
    for bc in configs() {
        for threads in [1, 2, 3, 8] {
            let out = run(&g, &sources, &bc, &ExecConfig::new(threads)).unwrap();
            compare_scores(&out.scores, &want, |v| v as u64)
                .unwrap_or_else(|e| panic!("{bc:?} at {threads} threads: {e}"));
            assert_eq!(out.report.total.pushes + sources.len() as u64, out.reached);
            // Every vertex expanded once: no lane kept a level that thread 0 ran ahead of.
            assert_eq!(
                out.report.total.tasks, out.reached,
                "{bc:?} at {threads} threads"
            );
        }
    }
}

#[test]
fn one_thread_takes_every_chunk_from_its_own_queue() {
    // NWQ's foreign-chunk count is by lane: with one lane none is foreign, and chunks are
    // counted. (How few a thread steals at 2+ threads depends on timing; the CLI reports it.)
    // Measuring working sets keeps one thread on the engine's lanes.
    let g = gen::road_grid(120, 120, 1, &BuildOptions::default()).unwrap();
    let sources = sample_sources(g.num_nodes(), 4, 3);
    let bc = |queues| BcConfig {
        direction: Direction::Push,
        queues,
        layout: Layout::Input,
        task: DEFAULT_TASK,
        working_set: true,
        pull_every_level: false,
    };
    let out = run(&g, &sources, &bc(Queues::Nwq), &ExecConfig::new(1)).unwrap();
    assert_eq!(out.report.total.app[FOREIGN_CHUNKS], 0);
    assert!(out.report.total.pops > 0);
}

#[test]
fn no_sources_and_unreachable_sources() {
    let g = graph(&[(0, 1)], 3);
    let out = run(&g, &[], &BcConfig::default(), &ExecConfig::new(2)).unwrap();
    assert_eq!(out.scores, vec![0.0; 3]);
    // A source with no arcs reaches nothing else.
    let out = run(&g, &[2], &BcConfig::default(), &ExecConfig::new(2)).unwrap();
    assert_eq!(out.scores, vec![0.0; 3]);
    assert_eq!(out.reached, 1);
}

#[test]
fn cancelling_stops_with_the_partial_report() {
    let g = gen::road_grid(30, 30, 1, &BuildOptions::default()).unwrap();
    // Two threads run the engine, one the lone kernel.
    for threads in [1, 2] {
        let mut cfg = ExecConfig::new(threads);
        cfg.cancel = Some(Arc::new(AtomicBool::new(true)));
        let bc = BcConfig {
            layout: Layout::Input,
            ..BcConfig::default()
        };
        match run(&g, &[0, 1, 2], &bc, &cfg) {
            Err(ExecError::Cancelled(_)) => {}
            other => panic!(
                "expected a cancellation at {threads} threads, got {:?}",
                other.map(|o| o.reached)
            ),
        }
    }
}

#[test]
fn sampling_is_distinct_seeded_and_complete_when_asked_for_everything() {
    let a = sample_sources(1000, 50, 1);
    assert_eq!(a, sample_sources(1000, 50, 1));
    assert_ne!(a, sample_sources(1000, 50, 2));
    let set: std::collections::HashSet<_> = a.iter().collect();
    assert_eq!(set.len(), 50);
    assert!(a.iter().all(|&v| v < 1000));
    assert_eq!(sample_sources(5, 9, 1), vec![0, 1, 2, 3, 4]);
}

#[test]
fn adl_permutation_reverses_the_order_and_keeps_the_unreached_last() {
    // Discovered 2 then 0: reversed, 0 comes first; 1 and 3 were not reached.
    assert_eq!(adl_permutation(&[2, 0], 4), vec![0, 2, 1, 3]);
}

#[test]
fn auto_layout_is_adl_from_four_sources() {
    use super::ADL_MIN_SOURCES;
    assert_eq!(Layout::choose("auto", 1), Ok(Layout::Input));
    assert_eq!(Layout::choose("auto", ADL_MIN_SOURCES), Ok(Layout::Auto));
    assert_eq!(Layout::choose("adl", 1), Ok(Layout::Adl));
    assert_eq!(Layout::choose("input", 100), Ok(Layout::Input));
    let e = Layout::choose("x", 1).unwrap_err();
    assert!(e.contains("valid: auto, input, adl"), "{e}");
}

#[test]
fn path_counts_past_f64_are_counted_scaled() {
    // 2^1100 shortest paths from node 0 to the last join: every kernel and thread count
    // switches that source to scaled counts; the other sources fit in f64.
    let g = crate::test_graphs::diamonds(1100);
    let sources = [0, 1650, 3300];
    let want = serial_brandes(&g, &sources);
    assert!(want.iter().all(|x| x.is_finite()));
    // A join is on every path from node 0 to the nodes beyond it.
    assert!(want[3] >= (g.num_nodes() - 4) as f64);
    for bc in configs().into_iter().chain([
        BcConfig::default(),
        BcConfig {
            working_set: false,
            ..BcConfig::default()
        },
    ]) {
        for threads in [1, 2, 8] {
            let out = run(&g, &sources, &bc, &ExecConfig::new(threads)).unwrap();
            compare_scores(&out.scores, &want, |v| v as u64)
                .unwrap_or_else(|e| panic!("{bc:?} at {threads} threads: {e}"));
        }
    }
}

#[test]
fn an_overflowing_source_stops_at_a_wide_level_and_leaves_nothing_behind() {
    // 130 stages of 256 middles: 2^1040 paths from node 0, in levels of 256 nodes, wider than
    // the run-ahead limit at 2 and 8 threads, so the engine's search stops at a level barrier;
    // the sources after it must start from clean arrays.
    let g = crate::test_graphs::wide_diamonds(130, 256);
    let last = 130 * 257;
    let sources = [0, 65 * 257 + 3, last, 7];
    let want = serial_brandes(&g, &sources);
    assert!(want.iter().all(|x| x.is_finite()));
    for bc in configs() {
        for threads in [2, 8] {
            let out = run(&g, &sources, &bc, &ExecConfig::new(threads)).unwrap();
            compare_scores(&out.scores, &want, |v| v as u64)
                .unwrap_or_else(|e| panic!("{bc:?} at {threads} threads: {e}"));
        }
    }
}

/// Graphs with levels dense enough to pull (a symmetric Kronecker graph, a symmetric uniform
/// random graph, a directed one with its transpose built) and one without (a grid), in
/// both directions, every queue discipline and layout, 1 to 8 threads.
fn dense_level_graphs() -> Vec<(&'static str, Graph)> {
    let sym = BuildOptions {
        symmetrize: true,
        ..BuildOptions::default()
    };
    let mut directed = gen::uniform_random(2000, 24000, 4, &BuildOptions::default()).unwrap();
    directed.build_transpose();
    vec![
        ("kronecker", gen::kronecker(11, 16, 3, &sym).unwrap()),
        (
            "uniform",
            gen::uniform_random(3000, 45000, 7, &sym).unwrap(),
        ),
        ("directed", directed),
        (
            "grid",
            gen::road_grid(30, 30, 1, &BuildOptions::default()).unwrap(),
        ),
        ("multigraph", doubled_clique_with_loops(150)),
    ]
}

/// The complete graph on `n` nodes with every edge twice in each direction and a self-loop
/// at every node: symmetric, so its second level pulls where it is too wide for thread 0's
/// run-ahead (from `n` = 150 at 8 threads), and every parallel arc counts a path of its own
/// (as in the oracle).
fn doubled_clique_with_loops(n: u32) -> Graph {
    let mut arcs: Vec<(u32, u32, u32)> = (0..n).map(|v| (v, v, 1)).collect();
    for u in 0..n {
        for v in (0..n).filter(|&v| v != u) {
            arcs.extend([(u, v, 1), (u, v, 1)]);
        }
    }
    crate::test_graphs::weighted(n, &arcs)
}

/// `layers` layers of `width` nodes, each node joined to every node of the next layer (both
/// directions): `width^d` shortest paths from a node of the first layer to one at depth d.
fn complete_layers(layers: u32, width: u32) -> Graph {
    let mut arcs = Vec::new();
    for l in 0..layers - 1 {
        for a in l * width..(l + 1) * width {
            for b in (l + 1) * width..(l + 2) * width {
                arcs.extend([(a, b, 1), (b, a, 1)]);
            }
        }
    }
    crate::test_graphs::weighted(layers * width, &arcs)
}

/// Every direction, queue kind and layout at 1-8 threads against the oracle, and whether
/// levels pulled as `expect_pulls` says (`pull_every_level`: every level that can pulls).
fn check_every_configuration(pull_every_level: bool, expect_pulls: impl Fn(&str, Layout) -> bool) {
    for (name, g) in dense_level_graphs() {
        let sources = sample_sources(g.num_nodes(), 8, 5);
        let want = serial_brandes(&g, &sources);
        for direction in [Direction::Push, Direction::Optimizing] {
            for queues in [Queues::Nwq, Queues::Dynamic] {
                for layout in [Layout::Input, Layout::Adl, Layout::Auto] {
                    let bc = BcConfig {
                        direction,
                        queues,
                        layout,
                        task: DEFAULT_TASK,
                        working_set: false,
                        pull_every_level,
                    };
                    for threads in [1, 2, 3, 8] {
                        let at = format!("{name}: {bc:?} at {threads} threads");
                        let out = run(&g, &sources, &bc, &ExecConfig::new(threads)).unwrap();
                        compare_scores(&out.scores, &want, |v| v as u64)
                            .unwrap_or_else(|e| panic!("{at}: {e}"));
                        let pulled = out.report.total.app[PULLED_LEVELS];
                        let optimizing = direction == Direction::Optimizing;
                        // Auto keeps the input's order where the layout BFS pulls.
                        let ran = match layout {
                            Layout::Auto if optimizing && expect_pulls(name, Layout::Input) => {
                                Layout::Input
                            }
                            Layout::Auto => Layout::Adl,
                            _ => layout,
                        };
                        assert_eq!(out.layout(), ran, "{at}");
                        assert_eq!(out.adl.is_some(), ran == Layout::Adl, "{at}");
                        let pulls = optimizing && expect_pulls(name, ran);
                        assert_eq!(pulled > 0, pulls, "{at}: {pulled} levels pulled");
                    }
                }
            }
        }
    }
}

#[test]
fn dense_levels_pull_where_in_edges_are_at_hand_and_match_the_oracle() {
    // The relabelled copy of ADL has no transpose: a directed graph's levels push there.
    check_every_configuration(false, |name, layout| match name {
        "grid" => false,
        "directed" => layout == Layout::Input,
        _ => true,
    });
    // Then every level that can pull does: every shape of level, and counts past f64 found
    // while pulling (the source is redone with scaled counts).
    check_every_configuration(true, |name, layout| {
        name != "directed" || layout == Layout::Input
    });
    for g in [
        crate::test_graphs::diamonds(1100),
        crate::test_graphs::wide_diamonds(130, 256),
        // Counts past f64 first in the last level, which no level after it expands: only
        // the pull that finds nothing beyond it reads them. 64 wide: above the run-ahead
        // limit at 2 and 3 threads.
        complete_layers(180, 64),
    ] {
        let sources = [0, 7, g.num_nodes() as u32 - 1];
        let want = serial_brandes(&g, &sources);
        assert!(want.iter().all(|x| x.is_finite()));
        for threads in [1, 2, 3, 8] {
            let every_level = BcConfig {
                pull_every_level: true,
                ..BcConfig::default()
            };
            let out = run(&g, &sources, &every_level, &ExecConfig::new(threads)).unwrap();
            compare_scores(&out.scores, &want, |v| v as u64)
                .unwrap_or_else(|e| panic!("{threads} threads: {e}"));
            assert!(out.report.total.app[PULLED_LEVELS] > 0);
        }
    }
}

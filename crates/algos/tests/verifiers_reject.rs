//! Every application's verifier rejects a wrong answer ("a test that cannot fail is a
//! defect"). Each test prepares a small graph through the protocol the front ends run
//! ([`Plan`]), checks that the verifier accepts the run's own (correct) output, then corrupts
//! that output the way a plausible bug would (one distance off by one, one label changed, a
//! score perturbed by 1e-3 relative, a flow value off by one, a heavier spanning tree, ...)
//! and checks that [`Plan::verify`] returns `Err`. PageRank has its own tests.

use ordo_algos::app::{App, OwnedSource, Plan, RunRequest, Value, Values};
use ordo_algos::astar::app::Astar;
use ordo_algos::bc::app::Bc;
use ordo_algos::bfs::app::Bfs;
use ordo_algos::cc::app::Cc;
use ordo_algos::kcore::app::Kcore;
use ordo_algos::mst::{app::Mst, Edge};
use ordo_algos::pfp::{app::Pfp, Goal};
use ordo_algos::sssp::app::Sssp;
use ordo_algos::tc::app::Tc;
use ordo_algos::union_find::UnionFind;
use ordo_algos::{bfs, sssp};
use ordo_graph::{gen, BuildOptions, EdgeList, Graph, IdBase};
use ordo_sched::Topology;

/// `A` prepared on `g` with `params`, by method `algo`, on two workers.
fn plan<A: App>(g: Graph, params: &[(&str, Value)], algo: &str) -> Plan<A> {
    let mut values = Values::new(A::SPEC.params);
    for (name, value) in params {
        values.set(name, value.clone()).unwrap();
    }
    let request = RunRequest {
        algo: algo.into(),
        threads: Some(2),
        pin: false,
        ..RunRequest::new(Topology::detect())
    };
    let mut source = OwnedSource::new(g, None, false);
    Plan::<A>::new(&mut source, &values, &request, &mut Vec::new())
        .unwrap_or_else(|e| panic!("{}: {e}", A::SPEC.name))
}

/// The oracle's answer and a run's output, which the verifier accepts.
fn run<A: App>(plan: &Plan<A>) -> (A::Expected, A::Output) {
    let expected = plan.oracle();
    let out = plan.run().unwrap();
    plan.verify(&expected, &out)
        .unwrap_or_else(|e| panic!("{}: the correct answer: {e}", A::SPEC.name));
    (expected, out)
}

/// Asserts that the verifier rejects `out`.
fn rejects<A: App>(plan: &Plan<A>, expected: &A::Expected, out: &A::Output, what: &str) {
    let verdict = plan.verify(expected, out);
    assert!(
        verdict.is_err(),
        "{}: the verifier accepted {what}",
        A::SPEC.name
    );
}

/// The directed graph on `n` nodes with the arcs `(from, to, weight)`.
fn weighted(n: u32, arcs: &[(u32, u32, u32)]) -> Graph {
    let mut el = EdgeList::with_capacity(n, arcs.len(), true);
    for &(a, b, w) in arcs {
        el.push(a, b, w);
    }
    el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
}

/// The same with every edge in both directions.
fn both_ways(n: u32, edges: &[(u32, u32, u32)]) -> Graph {
    let arcs: Vec<(u32, u32, u32)> = edges
        .iter()
        .flat_map(|&(a, b, w)| [(a, b, w), (b, a, w)])
        .collect();
    weighted(n, &arcs)
}

/// A weighted road grid with coordinates, 144 nodes.
fn grid() -> Graph {
    gen::road_grid(12, 12, 3, &BuildOptions::default()).unwrap()
}

/// A road grid (nodes 0..144) beside a directed tail the grid cannot reach and an isolated
/// node: some nodes unreachable from node 0.
fn grid_with_unreachable() -> Graph {
    let g = grid();
    let mut arcs: Vec<(u32, u32, u32)> = (0..g.num_nodes() as u32)
        .flat_map(|v| {
            g.out_edges(v)
                .map(move |(t, w)| (v, t, w))
                .collect::<Vec<_>>()
        })
        .collect();
    // 144 -> 145 -> 0: the tail reaches the grid, the grid does not reach it; 146 isolated.
    arcs.extend([(144, 145, 7), (145, 0, 3)]);
    weighted(147, &arcs)
}

#[test]
fn sssp_rejects_a_distance_off_by_one() {
    for algo in ["auto", "priority"] {
        let p = plan::<Sssp>(grid_with_unreachable(), &[("source", Value::Int(0))], algo);
        let (expected, mut out) = run(&p);
        assert_eq!(expected[144], sssp::UNREACHABLE);
        let far = (0..144).max_by_key(|&v| expected[v]).unwrap();
        for (v, delta) in [(far, 1i64), (far, -1), (1, 1), (0, 1)] {
            let right = out.dist[v];
            out.dist[v] = (right as i64 + delta) as u64;
            rejects(
                &p,
                &expected,
                &out,
                &format!("{algo}: node {v}'s distance {delta:+}"),
            );
            out.dist[v] = right;
        }
        // An unreachable node given a distance, a reachable one marked unreachable.
        out.dist[144] = 10;
        rejects(&p, &expected, &out, "a distance to an unreachable node");
        out.dist[144] = sssp::UNREACHABLE;
        out.dist[far] = sssp::UNREACHABLE;
        rejects(&p, &expected, &out, "a reachable node left unreachable");
        out.dist[far] = expected[far];
        p.verify(&expected, &out).unwrap();
    }
}

#[test]
fn bfs_rejects_a_level_off_by_one() {
    for algo in ["auto", "priority"] {
        let p = plan::<Bfs>(grid_with_unreachable(), &[("source", Value::Int(0))], algo);
        let (expected, mut out) = run(&p);
        assert_eq!(expected[146], bfs::UNREACHED);
        let far = (0..144).max_by_key(|&v| expected[v]).unwrap();
        for (v, delta) in [(far, 1i64), (far, -1), (12, 1), (0, 1)] {
            let right = out.level[v];
            out.level[v] = (right as i64 + delta) as u32;
            rejects(
                &p,
                &expected,
                &out,
                &format!("{algo}: node {v}'s level {delta:+}"),
            );
            out.level[v] = right;
        }
        out.level[146] = 1;
        rejects(&p, &expected, &out, "a level for an isolated node");
        out.level[146] = bfs::UNREACHED;
        out.level[far] = bfs::UNREACHED;
        rejects(&p, &expected, &out, "a reachable node left unreached");
    }
}

#[test]
fn astar_rejects_a_distance_off_by_one() {
    // The distance to the target is A*'s whole answer; it is checked exactly against
    // Dijkstra's.
    for algo in ["auto", "priority"] {
        let params = [("source", Value::Int(0)), ("target", Value::Int(143))];
        let p = plan::<Astar>(grid(), &params, algo);
        let (expected, mut out) = run(&p);
        assert_eq!(expected, sssp::dijkstra(p.graph(), 0)[143]);
        for wrong in [expected + 1, expected - 1, sssp::UNREACHABLE, 0] {
            out.dist = wrong;
            rejects(&p, &expected, &out, &format!("{algo}: distance {wrong}"));
        }
        // The distance to another node (a neighbour of the target) is not the target's.
        let dist = sssp::dijkstra(p.graph(), 0);
        let next = p.graph().neighbors(143).iter().map(|&v| dist[v as usize]);
        out.dist = next.filter(|&d| d != expected).min().unwrap();
        rejects(
            &p,
            &expected,
            &out,
            "the distance to the target's neighbour",
        );
    }
}

/// Nodes 0..=9 in three components and an isolated node: {0, 1, 2, 3} (a path), {4, 5, 6}
/// (a triangle), {7, 8} and {9}.
fn components() -> Graph {
    let edges = [(1, 0), (1, 2), (3, 2), (5, 4), (6, 5), (4, 6), (8, 7)];
    let edges: Vec<(u32, u32, u32)> = edges.iter().map(|&(a, b)| (a, b, 1)).collect();
    // One direction only: the application works on the undirected view.
    weighted(10, &edges)
}

#[test]
fn cc_rejects_a_changed_label() {
    for algo in ["auto", "priority"] {
        let p = plan::<Cc>(components(), &[], algo);
        let (expected, mut out) = run(&p);
        // The oracle labels each node with its component's smallest node.
        assert_eq!(expected, [0, 0, 0, 0, 4, 4, 4, 7, 7, 9], "{algo}");
        let right = out.label.clone();
        let cases: [(&str, &[(usize, u32)]); 5] = [
            // One node moved to another component.
            ("node 3 in 4's component", &[(3, 4)]),
            // One node labelled by a non-smallest member of its own component.
            ("node 5 labelled 5", &[(5, 5)]),
            // The isolated node joined to a component.
            ("node 9 in 7's component", &[(9, 7)]),
            // Two components merged.
            ("7's component merged into 4's", &[(7, 4), (8, 4)]),
            // The same partition, each component labelled by its largest node: labels must be
            // the smallest node (what `cc::count` and the `--out` column rely on).
            (
                "largest-node labels",
                &[
                    (0, 3),
                    (1, 3),
                    (2, 3),
                    (3, 3),
                    (4, 6),
                    (5, 6),
                    (6, 6),
                    (7, 8),
                    (8, 8),
                ],
            ),
        ];
        for (what, changes) in cases {
            for &(v, l) in changes {
                out.label[v] = l;
            }
            rejects(&p, &expected, &out, &format!("{algo}: {what}"));
            out.label.clone_from(&right);
        }
    }
}

#[test]
fn kcore_rejects_a_core_number_off_by_one() {
    // A 4-clique {0, 1, 2, 3} (core 3), a pendant path 3 - 4 - 5 (core 1), a triangle
    // {6, 7, 8} hanging off node 0 by 0 - 6 (core 2), and an isolated node 9 (core 0).
    let edges = [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
        (3, 4),
        (4, 5),
        (6, 7),
        (7, 8),
        (8, 6),
        (0, 6),
    ];
    let edges: Vec<(u32, u32, u32)> = edges.iter().map(|&(a, b)| (a, b, 1)).collect();
    for algo in ["peel", "serial", "priority"] {
        let p = plan::<Kcore>(weighted(10, &edges), &[], algo);
        let (expected, mut out) = run(&p);
        assert_eq!(expected, [3, 3, 3, 3, 1, 1, 2, 2, 2, 0], "{algo}");
        for v in 0..10 {
            for delta in [1i64, -1] {
                let right = out.core[v];
                if right == 0 && delta < 0 {
                    continue;
                }
                out.core[v] = (right as i64 + delta) as u32;
                rejects(
                    &p,
                    &expected,
                    &out,
                    &format!("{algo}: core of {v} {delta:+}"),
                );
                out.core[v] = right;
            }
        }
    }
}

/// The weight of `edges`.
fn weight_of(edges: &[Edge]) -> u64 {
    edges.iter().map(|e| e.weight as u64).sum()
}

#[test]
fn mst_rejects_a_heavier_forest_or_a_wrong_weight() {
    for algo in ["boruvka", "filter-kruskal", "priority"] {
        let p = plan::<Mst>(grid(), &[], algo);
        let (expected, mut out) = run(&p);
        let right = out.edges.clone();
        let n = p.graph().num_nodes();
        assert_eq!(right.len(), n - 1, "{algo}: a spanning tree of the grid");
        // A spanning tree with as many edges but heavier: one tree edge swapped for a
        // heavier graph edge across the cut it leaves.
        let g = p.graph();
        let all: Vec<Edge> = (0..n as u32)
            .flat_map(|v| {
                g.out_edges(v)
                    .filter(move |&(t, _)| t > v)
                    .map(move |(t, w)| Edge {
                        weight: w,
                        a: v,
                        b: t,
                    })
            })
            .collect();
        let swap = right.iter().enumerate().find_map(|(i, f)| {
            let mut sets = UnionFind::new(n);
            for (j, e) in right.iter().enumerate() {
                if j != i {
                    sets.union(e.a, e.b);
                }
            }
            all.iter()
                .find(|e| e.weight > f.weight && sets.find(e.a) != sets.find(e.b))
                .map(|&e| (i, e))
        });
        let (i, heavier) = swap.expect("a tree edge with a heavier replacement");
        out.edges[i] = heavier;
        out.edges.sort_unstable();
        out.weight = weight_of(&out.edges);
        assert!(out.weight > weight_of(&expected));
        rejects(
            &p,
            &expected,
            &out,
            &format!("{algo}: a heavier spanning tree"),
        );
        // One edge dropped, its weight with it.
        out.edges.clone_from(&right);
        let dropped = out.edges.pop().unwrap();
        out.weight = weight_of(&right) - dropped.weight as u64;
        rejects(
            &p,
            &expected,
            &out,
            &format!("{algo}: a forest short of an edge"),
        );
        // The forest's edges with one weight misread.
        out.edges.clone_from(&right);
        out.edges[0].weight += 1;
        out.weight = weight_of(&out.edges);
        rejects(&p, &expected, &out, &format!("{algo}: an edge's weight +1"));
        // Kruskal's forest, with its reported weight (the headline figure) off by one.
        out.edges.clone_from(&right);
        for weight in [weight_of(&right) + 1, weight_of(&right) - 1] {
            out.weight = weight;
            rejects(&p, &expected, &out, &format!("{algo}: weight {weight}"));
        }
    }
}

#[test]
fn tc_rejects_a_count_off_by_one() {
    // A 4-clique (4 triangles) and a triangle sharing node 3 with it: 5 triangles.
    let edges = [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
        (3, 4),
        (4, 5),
        (5, 3),
    ];
    let edges: Vec<(u32, u32, u32)> = edges.iter().map(|&(a, b)| (a, b, 1)).collect();
    let social = gen::kronecker(8, 8, 5, &BuildOptions::default()).unwrap();
    for algo in ["auto", "priority"] {
        let p = plan::<Tc>(weighted(6, &edges), &[], algo);
        let (expected, mut out) = run(&p);
        assert_eq!(expected.triangles, 5, "{algo}");
        for wrong in [4, 6, 0] {
            out.triangles = wrong;
            rejects(&p, &expected, &out, &format!("{algo}: {wrong} triangles"));
        }
        let p = plan::<Tc>(social.clone(), &[], algo);
        let (expected, mut out) = run(&p);
        let total = expected.triangles;
        assert!(total > 100, "{algo}: {total} triangles");
        for wrong in [total + 1, total - 1, 3 * total, total / 3] {
            out.triangles = wrong;
            rejects(&p, &expected, &out, &format!("{algo}: {wrong} triangles"));
        }
        // Each node's count: node 3 is in three of the clique's triangles and the other one.
        let per_node = [("per-node", Value::Flag(true))];
        let p = plan::<Tc>(weighted(6, &edges), &per_node, algo);
        let (expected, _) = run(&p);
        assert_eq!(expected.per_node.as_deref(), Some(&[3, 3, 3, 4, 1, 1][..]));
        for (node, delta) in [(3, 1), (4, -1), (0, 1)] {
            let (_, mut wrong) = run(&p);
            let counts = wrong.per_node.as_mut().unwrap();
            counts[node] = counts[node].wrapping_add_signed(delta);
            rejects(
                &p,
                &expected,
                &wrong,
                &format!("{algo}: node {node} off by {delta}"),
            );
        }
        let (_, mut missing) = run(&p);
        missing.per_node = None;
        rejects(
            &p,
            &expected,
            &missing,
            &format!("{algo}: no per-node counts"),
        );
    }
}

#[test]
fn bc_rejects_a_score_off_by_a_thousandth() {
    let sources = [
        ("source", Value::Int(5)),
        ("sources", Value::Text("8".into())),
        ("sources", Value::Text("all".into())),
    ];
    for algo in ["direction", "push"] {
        for (name, value) in &sources {
            let p = plan::<Bc>(grid(), &[(name, value.clone())], algo);
            let (expected, mut out) = run(&p);
            let ctx = format!("{algo} --{name} {value:?}");
            let top = (0..expected.len())
                .max_by(|&a, &b| expected[a].total_cmp(&expected[b]))
                .unwrap();
            let small = (0..expected.len())
                .filter(|&v| expected[v] > 0.0)
                .min_by(|&a, &b| expected[a].total_cmp(&expected[b]))
                .unwrap();
            let zero = (0..expected.len()).find(|&v| expected[v] == 0.0);
            for v in [top, small] {
                let right = out.scores[v];
                for factor in [1.0 + 1e-3, 1.0 - 1e-3, 0.0, f64::NAN] {
                    out.scores[v] = right * factor;
                    rejects(
                        &p,
                        &expected,
                        &out,
                        &format!("{ctx}: score of {v} x{factor}"),
                    );
                }
                out.scores[v] = right;
            }
            if let Some(v) = zero {
                out.scores[v] = 1e-3;
                rejects(&p, &expected, &out, &format!("{ctx}: a score for node {v}"));
                out.scores[v] = 0.0;
            }
            p.verify(&expected, &out).unwrap();
        }
    }
}

#[test]
fn bc_rejects_the_scores_of_other_sources() {
    // The oracle runs the sources the run was asked for; scores from any other sources (another
    // seed's sample, one source fewer, another single source) do not pass.
    for algo in ["direction", "push"] {
        let asked = [("sources", Value::Text("6".into()))];
        let p = plan::<Bc>(grid(), &asked, algo);
        let (expected, _) = run(&p);
        let others: [&[(&str, Value)]; 3] = [
            &[
                ("sources", Value::Text("6".into())),
                ("seed", Value::Int(2)),
            ],
            &[("sources", Value::Text("5".into()))],
            &[("source", Value::Int(0))],
        ];
        for other in others {
            let q = plan::<Bc>(grid(), other, algo);
            let (_, out) = run(&q);
            rejects(
                &p,
                &expected,
                &out,
                &format!("{algo}: scores from {other:?}"),
            );
        }
    }
}

#[test]
fn bc_rejects_a_tiny_score_off_by_a_thousandth() {
    // From node 0: 24 diamonds in a row give 2^24 shortest paths to their last join J, and a
    // plain path of the same length (48 hops) from 0 to node E. Node X is joined to J and E,
    // so E lies on 1 of X's 2^24 + 1 shortest paths and on no other: E's betweenness is
    // 1 / (2^24 + 1), about 6e-8. A score that small is checked relative to itself too.
    let k = 24u32;
    let mut edges = Vec::new();
    for i in 0..k {
        let (join, next) = (3 * i, 3 * (i + 1));
        edges.extend([
            (join, join + 1),
            (join, join + 2),
            (join + 1, next),
            (join + 2, next),
        ]);
    }
    let last_join = 3 * k;
    let path_start = last_join + 1;
    let mut prev = 0;
    for j in 0..2 * k {
        edges.push((prev, path_start + j));
        prev = path_start + j;
    }
    let (end, x) = (prev, prev + 1);
    edges.extend([(last_join, x), (end, x)]);
    let edges: Vec<(u32, u32, u32)> = edges.iter().map(|&(a, b)| (a, b, 1)).collect();
    let g = both_ways(x + 1, &edges);
    for algo in ["direction", "push"] {
        let p = plan::<Bc>(g.clone(), &[("source", Value::Int(0))], algo);
        let (expected, mut out) = run(&p);
        let tiny = 1.0 / ((1u64 << k) as f64 + 1.0);
        assert!((expected[end as usize] - tiny).abs() <= 1e-12 * tiny);
        let right = out.scores[end as usize];
        for factor in [1.0 + 1e-3, 1.0 - 1e-3, 0.0] {
            out.scores[end as usize] = right * factor;
            rejects(
                &p,
                &expected,
                &out,
                &format!("{algo}: score of E x{factor}"),
            );
        }
    }
}

/// The capacity of the arcs from `side` to the other side.
fn cut_capacity(g: &Graph, side: &[bool]) -> u64 {
    (0..g.num_nodes() as u32)
        .flat_map(|u| g.out_edges(u).map(move |(v, w)| (u, v, w)))
        .filter(|&(u, v, _)| side[u as usize] && !side[v as usize])
        .map(|(_, _, w)| w as u64)
        .sum()
}

/// What each node receives minus what it sends.
fn excess(g: &Graph, flow: &[u32]) -> Vec<i64> {
    let mut excess = vec![0i64; g.num_nodes()];
    for u in 0..g.num_nodes() as u32 {
        for e in g.edge_range(u) {
            excess[u as usize] -= flow[e] as i64;
            excess[g.targets()[e] as usize] += flow[e] as i64;
        }
    }
    excess
}

/// The arcs of an `s`-`t` path along which every arc carries flow, as CSR positions.
fn flow_path(g: &Graph, flow: &[u32], s: u32, t: u32) -> Vec<usize> {
    let n = g.num_nodes();
    let mut via = vec![usize::MAX; n];
    let mut from = vec![u32::MAX; n];
    let mut seen = vec![false; n];
    let mut queue = std::collections::VecDeque::from([s]);
    seen[s as usize] = true;
    while let Some(u) = queue.pop_front() {
        for e in g.edge_range(u) {
            let v = g.targets()[e];
            if flow[e] > 0 && !seen[v as usize] {
                seen[v as usize] = true;
                via[v as usize] = e;
                from[v as usize] = u;
                queue.push_back(v);
            }
        }
    }
    assert!(seen[t as usize], "the flow reaches the sink");
    let mut path = Vec::new();
    let mut v = t;
    while v != s {
        path.push(via[v as usize]);
        v = from[v as usize];
    }
    path
}

#[test]
fn pfp_rejects_a_wrong_value_cut_or_flow() {
    let (s, t) = (0u32, 143u32);
    for flow_flag in [false, true] {
        let params = [
            ("source", Value::Int(s as u64)),
            ("sink", Value::Int(t as u64)),
            ("flow", Value::Flag(flow_flag)),
        ];
        let p = plan::<Pfp>(grid(), &params, "auto");
        let (expected, mut out) = run(&p);
        let g = p.graph();
        let ctx = format!("{:?}", out.goal);
        assert!(expected > 0);
        assert_eq!(cut_capacity(g, &out.source_side), expected);
        let right_flow = out.arc_flow.clone();

        // The value alone off by one.
        for value in [expected + 1, expected - 1] {
            out.flow = value;
            rejects(&p, &expected, &out, &format!("{ctx}: value {value}"));
        }
        out.flow = expected;

        // A smaller flow that is consistent: one unit less along a path from s to t, and the
        // value one less. Only the cut (or Dinic's value) shows that it is not maximum.
        for e in flow_path(g, &out.arc_flow, s, t) {
            out.arc_flow[e] -= 1;
        }
        out.flow = expected - 1;
        rejects(&p, &expected, &out, &format!("{ctx}: a flow one short"));
        out.arc_flow.clone_from(&right_flow);
        out.flow = expected;

        // One node moved across the cut, where that changes its capacity.
        let flip = (0..g.num_nodes())
            .filter(|&v| v != s as usize && v != t as usize)
            .find(|&v| {
                let mut side = out.source_side.clone();
                side[v] = !side[v];
                cut_capacity(g, &side) != expected
            })
            .expect("a node whose side matters");
        out.source_side[flip] = !out.source_side[flip];
        rejects(
            &p,
            &expected,
            &out,
            &format!("{ctx}: node {flip} on the other side"),
        );
        out.source_side[flip] = !out.source_side[flip];
        // The source or the sink on the wrong side.
        for v in [s, t] {
            out.source_side[v as usize] = !out.source_side[v as usize];
            rejects(
                &p,
                &expected,
                &out,
                &format!("{ctx}: node {v} on the other side"),
            );
            out.source_side[v as usize] = !out.source_side[v as usize];
        }

        // An arc over its capacity: a saturated arc (the cut's are), one unit more.
        let capacity = g.weights().unwrap();
        let e = (0..g.num_edges())
            .find(|&e| out.arc_flow[e] > 0 && out.arc_flow[e] == capacity[e])
            .expect("a saturated arc");
        out.arc_flow[e] += 1;
        rejects(&p, &expected, &out, &format!("{ctx}: an arc over capacity"));
        out.arc_flow.clone_from(&right_flow);

        // Flow lost inside: one unit less on the arc into a node of the path that holds no
        // excess (a preflow may keep some), so that the node sends out more than it receives.
        let path = flow_path(g, &out.arc_flow, s, t);
        let excess = excess(g, &out.arc_flow);
        let into = path
            .iter()
            .copied()
            .find(|&e| {
                let v = g.targets()[e];
                v != t && excess[v as usize] == 0
            })
            .expect("a node of the path without excess");
        out.arc_flow[into] -= 1;
        rejects(&p, &expected, &out, &format!("{ctx}: a unit lost inside"));
        out.arc_flow.clone_from(&right_flow);
        p.verify(&expected, &out).unwrap();
    }
}

#[test]
fn pfp_rejects_a_preflow_where_a_flow_was_asked_for() {
    // The source floods node 1 (5 units) of which 1 reaches the sink: a maximum preflow
    // leaves 4 stranded at node 1. Asked for a flow (--flow), that is not an answer, however
    // the output labels itself.
    let g = weighted(4, &[(0, 1, 5), (1, 2, 1), (3, 1, 2)]);
    let params = |flow| {
        [
            ("source", Value::Int(0)),
            ("sink", Value::Int(2)),
            ("flow", Value::Flag(flow)),
        ]
    };
    let asked_flow = plan::<Pfp>(g.clone(), &params(true), "auto");
    let (expected, flow) = run(&asked_flow);
    assert_eq!((expected, flow.goal), (1, Goal::Flow));
    let asked_preflow = plan::<Pfp>(g, &params(false), "auto");
    let (_, mut preflow) = run(&asked_preflow);
    assert_eq!(preflow.goal, Goal::Preflow);
    assert_eq!(preflow.arc_flow, [5, 1, 0], "4 units stranded at node 1");
    rejects(
        &asked_flow,
        &expected,
        &preflow,
        "a preflow labelled as such, for a flow",
    );
    preflow.goal = Goal::Flow;
    rejects(
        &asked_flow,
        &expected,
        &preflow,
        "a preflow labelled as a flow",
    );
}

use super::*;
use ordo_graph::{gen, BuildOptions};

fn graph(arcs: &[(u32, u32, u32)], n: u32) -> Graph {
    crate::test_graphs::weighted(n, arcs)
}

fn schedulers() -> Vec<(SchedulerConfig, Vec<usize>)> {
    let mk = |name: &str| SchedulerConfig::parse(name, &[]).unwrap();
    vec![
        (mk("serial"), vec![1]),
        (mk("obim"), vec![1, 2, 8]),
        (mk("pmod"), vec![2, 8]),
        (mk("smq"), vec![2, 8]),
        (mk("fifo"), vec![2, 8]),
    ]
}

/// [`run`], or with `wide` its 64-bit words whatever the capacities.
fn run_as(
    g: &Graph,
    s: u32,
    t: u32,
    goal: Goal,
    sched: &SchedulerConfig,
    cfg: &ExecConfig,
    wide: bool,
) -> Result<PfpOutput, PfpError> {
    if !wide {
        return run(g, s, t, goal, sched, cfg);
    }
    run_with::<AtomicU64>(g, &Network::new(g), s, t, goal, sched, cfg)
}

fn check(g: &Graph, s: u32, t: u32) -> u64 {
    let want = dinic(&Network::new(g), s, t);
    for (sched, threads) in schedulers() {
        for th in threads {
            for goal in [Goal::Preflow, Goal::Flow] {
                for wide in [false, true] {
                    let at = format!("{} at {th}, {goal:?}, wide {wide}", sched.label());
                    let cfg = ExecConfig::new(th);
                    let out = run_as(g, s, t, goal, &sched, &cfg, wide).unwrap();
                    verify(g, s, t, &out).unwrap_or_else(|e| panic!("{at}: {e}"));
                    assert_eq!(out.flow, want, "{at}");
                }
            }
        }
    }
    want
}

#[test]
fn capacities_too_large_for_32_bits_take_64() {
    let big = u32::MAX;
    // Parallel arcs sum past 2^32 on one pair.
    let g = graph(
        &[
            (0, 1, big),
            (0, 1, big),
            (1, 2, big),
            (1, 2, big),
            (0, 2, 5),
        ],
        3,
    );
    assert!(!Network::new(&g).fits_in_32_bits(0));
    assert_eq!(check(&g, 0, 2), 2 * u64::from(big) + 5);
    // Every capacity below 2^31, but the source sends out more than 2^32 - 1 in all.
    let half = (1 << 31) - 1;
    let g = graph(
        &[
            (0, 1, half),
            (0, 2, half),
            (0, 3, half),
            (1, 4, half),
            (2, 4, half),
            (3, 4, half),
        ],
        5,
    );
    assert!(!Network::new(&g).fits_in_32_bits(0));
    assert_eq!(check(&g, 0, 4), 3 * u64::from(half));
    // A capacity of 2^31: a pair's two residuals could sum past 32 bits.
    let g = graph(&[(0, 1, 1 << 31), (1, 0, 1 << 31)], 2);
    assert!(!Network::new(&g).fits_in_32_bits(0));
    assert_eq!(check(&g, 0, 1), 1 << 31);
    // Just below both bounds: 32 bits.
    let g = graph(&[(0, 1, half), (1, 0, half), (0, 2, 1)], 3);
    assert!(Network::new(&g).fits_in_32_bits(0));
    assert_eq!(check(&g, 0, 1), u64::from(half));
}

#[test]
fn textbook_network() {
    // CLRS Figure 26.1: maximum flow 23.
    let g = graph(
        &[
            (0, 1, 16),
            (0, 2, 13),
            (2, 1, 4),
            (1, 3, 12),
            (3, 2, 9),
            (2, 4, 14),
            (4, 3, 7),
            (3, 5, 20),
            (4, 5, 4),
        ],
        6,
    );
    assert_eq!(check(&g, 0, 5), 23);
}

#[test]
fn disconnected_sink_self_loops_and_parallel_arcs() {
    let g = graph(&[(0, 1, 5), (1, 1, 9), (0, 1, 2), (1, 2, 4), (3, 2, 8)], 4);
    assert_eq!(check(&g, 0, 2), 4);
    assert_eq!(check(&g, 0, 3), 0);
    // Flow into the source (2 -> ... ) is never needed; reversed roles.
    assert_eq!(check(&g, 3, 2), 8);
}

#[test]
fn generated_graphs_match_dinic() {
    let grid = gen::road_grid(25, 20, 4, &BuildOptions::default()).unwrap();
    check(&grid, 0, 499);
    check(&grid, 260, 13);
    let random = gen::uniform_random(
        400,
        3000,
        9,
        &BuildOptions {
            weights: Some("1:100:3".parse().unwrap()),
            ..BuildOptions::default()
        },
    )
    .unwrap();
    check(&random, 1, 2);
    let kron = gen::kronecker(9, 8, 2, &BuildOptions::default()).unwrap();
    check(&kron, 0, 7);
}

#[test]
fn source_equal_to_sink_is_an_error() {
    let g = graph(&[(0, 1, 1)], 2);
    let sched = SchedulerConfig::parse("obim", &[]).unwrap();
    assert!(matches!(
        run(&g, 1, 1, Goal::Preflow, &sched, &ExecConfig::new(1)),
        Err(PfpError::SourceIsSink(1))
    ));
}

#[test]
fn verify_catches_a_broken_flow() {
    let g = graph(&[(0, 1, 3), (1, 2, 3)], 3);
    let sched = SchedulerConfig::parse("obim", &[]).unwrap();
    let mut out = run(&g, 0, 2, Goal::Flow, &sched, &ExecConfig::new(1)).unwrap();
    verify(&g, 0, 2, &out).unwrap();
    out.arc_flow[1] -= 1;
    assert!(verify(&g, 0, 2, &out).unwrap_err().contains("conserved"));
    // As a preflow node 1 may keep the unit, but the sink then receives less than claimed.
    out.goal = Goal::Preflow;
    assert!(verify(&g, 0, 2, &out)
        .unwrap_err()
        .contains("sink receives 2"));
    out.arc_flow[1] += 1;
    out.flow -= 1;
    assert!(verify(&g, 0, 2, &out).is_err());
    out.flow += 1;
    verify(&g, 0, 2, &out).unwrap();
    // A preflow must not overdraw a node.
    out.arc_flow[0] -= 1;
    assert!(verify(&g, 0, 2, &out).unwrap_err().contains("overdraws"));
}

#[test]
fn a_maximum_preflow_keeps_stranded_excess_and_cuts_at_the_sink() {
    // The source floods node 1 (5 units) but only 1 reaches the sink: the preflow leaves 4
    // at node 1, whose side of the cut is the source's although the source cannot reach it.
    let g = graph(&[(0, 1, 5), (1, 2, 1), (3, 1, 2)], 4);
    let sched = SchedulerConfig::parse("obim", &[]).unwrap();
    for th in [1, 2] {
        let pre = run(&g, 0, 2, Goal::Preflow, &sched, &ExecConfig::new(th)).unwrap();
        verify(&g, 0, 2, &pre).unwrap();
        assert_eq!((pre.flow, &pre.arc_flow[..]), (1, &[5, 1, 0][..]));
        assert_eq!(pre.source_side, [true, true, false, true]);
        let flow = run(&g, 0, 2, Goal::Flow, &sched, &ExecConfig::new(th)).unwrap();
        verify(&g, 0, 2, &flow).unwrap();
        assert_eq!((flow.flow, &flow.arc_flow[..]), (1, &[1, 1, 0][..]));
        assert_eq!(flow.source_side, [true, true, false, true]);
    }
}

#[test]
fn antiparallel_and_parallel_arcs_share_one_pair() {
    // Between 0 and 1: two arcs one way (3 + 2) and one back (5); 1 and 2 both ways.
    let g = graph(
        &[
            (0, 1, 3),
            (1, 0, 5),
            (0, 1, 2),
            (1, 2, 4),
            (2, 1, 1),
            (0, 2, 1),
        ],
        3,
    );
    let net = Network::new(&g);
    // One arc each way per joined pair: (0,1), (1,2), (0,2).
    assert_eq!(net.head.len(), 6);
    let mut first = None;
    net.for_each_input_arc(&g, |i, a| {
        if i == 0 {
            first = a;
        }
    });
    let a = first.unwrap();
    assert_eq!(
        (
            net.head[a],
            net.cap.get(a),
            net.cap.get(net.reverse(a, 0, 1))
        ),
        (1, 5, 5)
    );
    // Flow both ways across the pairs, which the verifier checks arc by arc.
    assert_eq!(check(&g, 0, 2), 5);
    assert_eq!(check(&g, 2, 0), 1);
    assert_eq!(check(&g, 1, 0), 5);
    // A symmetric graph: two network arcs per edge, not four.
    let grid = gen::road_grid(10, 10, 1, &BuildOptions::default()).unwrap();
    assert_eq!(Network::new(&grid).head.len(), grid.num_edges());
}

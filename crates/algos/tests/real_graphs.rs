//! SSSP and BFS on the shared real graphs for every scheduler at 1, 2 and 8 threads, each
//! result checked against the serial oracle.

mod common;

use ordo_algos::{bfs, sssp};
use ordo_exec::ExecConfig;
use ordo_graph::{load_graph, BuildOptions, Graph, LoadOptions, WeightSpec};
use ordo_sched::{Scheduler, SchedulerConfig, SchedulerVisitor, Topology};

fn load(name: &str, weights: Option<&str>, symmetrize: bool) -> Option<Graph> {
    let path = common::shared(name)?;
    let opts = LoadOptions {
        format: None,
        build: BuildOptions {
            symmetrize,
            weights: weights.map(|w| w.parse::<WeightSpec>().unwrap()),
            ..Default::default()
        },
    };
    Some(load_graph(&path, &opts, None).unwrap().graph)
}

/// (scheduler, max threads): every scheduler, obim variant and a tuned MultiQueue. `all` adds
/// the orders that do far more work on high-diameter graphs (no priorities, or one bag per
/// distance): they are run on the smaller inputs only, to keep the suite fast. `lifo` adds the
/// LIFO bag, whose depth-first label correcting is exponential for SSSP on meshes (380M tasks
/// for 65K nodes on delaunay_n16): it runs BFS here and SSSP in the property tests on small
/// random graphs.
fn schedulers(delta: u32, all: bool, lifo: bool) -> Vec<(SchedulerConfig, usize)> {
    let d = delta.to_string();
    let mk = common::scheduler;
    let mut v = vec![
        (mk("serial", &[]), 1),
        (mk("obim", &[("delta", &d)]), 8),
        (mk("obim", &[("delta", &d), ("variant", "dmn")]), 8),
        (mk("obim", &[("delta", &d), ("variant", "cmb")]), 8),
        (
            mk("obim", &[("delta", &d), ("variant", "cmn"), ("chunk", "8")]),
            8,
        ),
        (mk("auto", &[("delta", &d)]), 8),
        (mk("pmod", &[]), 8),
        (mk("smq", &[]), 8),
        (mk("mq", &[]), 8),
        (
            mk(
                "mq",
                &[("batch", "16"), ("p_delete_change", "1/8"), ("k", "4")],
            ),
            8,
        ),
        (mk("reld", &[]), 8),
        (mk("spraylist", &[]), 8),
        (mk("heap", &[]), 8),
        (mk("sheap", &[]), 8),
        (mk("pheap", &[]), 8),
    ];
    if all {
        v.push((mk("obim", &[]), 8));
        v.push((mk("fifo", &[]), 8));
    }
    if lifo {
        v.push((mk("lifo", &[]), 8));
    }
    v
}

struct Sssp<'a> {
    g: &'a Graph,
    src: u32,
    cfg: &'a ExecConfig,
}

impl SchedulerVisitor<sssp::SsspTask> for Sssp<'_> {
    type Output = Vec<u64>;
    fn visit<S: Scheduler<sssp::SsspTask>>(self, s: &S) -> Vec<u64> {
        sssp::run(self.g, self.src, s, self.cfg).unwrap().dist
    }
}

struct Bfs<'a> {
    g: &'a Graph,
    src: u32,
    cfg: &'a ExecConfig,
}

impl SchedulerVisitor<bfs::BfsTask> for Bfs<'_> {
    type Output = Vec<u32>;
    fn visit<S: Scheduler<bfs::BfsTask>>(self, s: &S) -> Vec<u32> {
        bfs::run(self.g, self.src, s, self.cfg).unwrap().level
    }
}

fn check_sssp(g: &Graph, src: u32, what: &str, all: bool) {
    let expected = sssp::dijkstra(g, src);
    let (reached, _, _) = sssp::summarize(&expected);
    assert!(reached > 1, "{what}: source reaches nothing; pick another");
    for topo in [Topology::detect(), Topology::synthetic(2, 4)] {
        for (sched, max) in schedulers(sssp::default_delta(g), all, false) {
            for threads in [1, 2, 8].into_iter().filter(|&t| t <= max) {
                let cfg = ExecConfig::with_topology(threads, topo.clone());
                let got = sched
                    .with(threads, &cfg.topology, Sssp { g, src, cfg: &cfg })
                    .unwrap();
                assert!(
                    got == expected,
                    "{what}: {} x{threads} differs from Dijkstra",
                    sched.label()
                );
            }
        }
    }
}

fn check_bfs(g: &Graph, src: u32, what: &str) {
    let expected = bfs::serial_bfs(g, src);
    for (sched, max) in schedulers(0, true, true) {
        for threads in [1, 2, 8].into_iter().filter(|&t| t <= max) {
            let cfg = ExecConfig::new(threads);
            let got = sched
                .with(threads, &cfg.topology, Bfs { g, src, cfg: &cfg })
                .unwrap();
            assert!(
                got == expected,
                "{what}: {} x{threads} differs from queue BFS",
                sched.label()
            );
        }
    }
}

#[test]
fn sssp_road_new_york() {
    let Some(g) = load("USA-road-d.NY.gr.gz", None, false) else {
        return;
    };
    check_sssp(&g, 0, "NY", false);
}

#[test]
fn sssp_road_luxembourg_metis_symmetric() {
    let Some(g) = load("luxembourg.osm.graph.gz", Some("1:255:1"), false) else {
        return;
    };
    check_sssp(&g, 0, "luxembourg", false);
}

#[test]
fn sssp_social_slashdot_random_weights() {
    let Some(g) = load("soc-Slashdot0902.txt.gz", Some("1:255:1"), false) else {
        return;
    };
    check_sssp(&g, 0, "slashdot", true);
}

#[test]
fn sssp_mesh_delaunay() {
    let Some(g) = load("delaunay_n16.mtx.gz", Some("0:100:3"), false) else {
        return;
    };
    check_sssp(&g, 7, "delaunay", true);
}

#[test]
fn bfs_on_social_road_and_mesh() {
    for (name, sym) in [
        ("soc-Slashdot0902.txt.gz", false),
        ("email-Enron.txt.gz", true),
        ("osm-amsterdam.gr.gz", false),
        ("bcsstk33.graph.gz", false),
    ] {
        let Some(g) = load(name, None, sym) else {
            return;
        };
        check_bfs(&g, 0, name);
    }
}

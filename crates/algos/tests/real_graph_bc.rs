//! Betweenness on the shared real graphs (a directed social graph, a road graph, a mesh) in
//! every layout and queue discipline at 1, 2 and 8 threads, against serial Brandes.

mod common;

use ordo_algos::bc::{self, BcConfig, Layout, Queues};
use ordo_exec::ExecConfig;
use ordo_graph::{load_graph, LoadOptions};

#[test]
fn bc_matches_brandes_on_real_graphs() {
    for name in ["wiki-Vote.txt.gz", "osm-rome.gr.gz", "bcsstk33.graph.gz"] {
        let Some(path) = common::shared(name) else {
            continue;
        };
        let g = load_graph(&path, &LoadOptions::default(), None)
            .unwrap()
            .graph;
        let sources = bc::sample_sources(g.num_nodes(), 6, 42);
        let want = bc::serial_brandes(&g, &sources);
        assert!(want.iter().any(|&s| s > 0.0), "{name}: a trivial sample");
        for queues in [Queues::Dynamic, Queues::Nwq] {
            for layout in [Layout::Input, Layout::Adl] {
                for threads in [1, 2, 8] {
                    let config = BcConfig {
                        direction: bc::Direction::Optimizing,
                        queues,
                        layout,
                        task: bc::DEFAULT_TASK,
                        working_set: threads == 2,
                        pull_every_level: false,
                    };
                    let out = bc::run(&g, &sources, &config, &ExecConfig::new(threads)).unwrap();
                    bc::compare_scores(&out.scores, &want, |v| g.file_id(v)).unwrap_or_else(|e| {
                        panic!("{name} {queues:?} {layout:?} {threads} threads: {e}")
                    });
                }
            }
        }
    }
}

//! Serial SSSP costs side by side: the textbook oracle (std BinaryHeap) and ordo's `serial`
//! scheduler through the executor. `cargo run --release -p ordo-algos --example serial_cost -- G`
use ordo_exec::ExecConfig;
use ordo_sched::serial::{Serial, SerialConfig};
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: serial_cost GRAPH");
    let g = ordo_graph::load_graph(std::path::Path::new(&path), &Default::default(), None)
        .unwrap()
        .graph;
    let cfg = ExecConfig::new(1);
    let (mut oracle_ms, mut ordo_ms) = (vec![], vec![]);
    let rounds: usize = std::env::var("ROUNDS").map_or(21, |r| r.parse().unwrap());
    for _ in 0..rounds {
        let t = Instant::now();
        let a = ordo_algos::sssp::dijkstra(&g, 0);
        let oracle = t.elapsed();
        let s = Serial::new(&SerialConfig, 1).unwrap();
        let t = Instant::now();
        let b = ordo_algos::sssp::run(&g, 0, &s, &cfg).unwrap();
        let ordo = t.elapsed();
        assert_eq!(a, b.dist);
        oracle_ms.push(oracle.as_secs_f64() * 1e3);
        ordo_ms.push(ordo.as_secs_f64() * 1e3);
    }
    oracle_ms.sort_by(f64::total_cmp);
    ordo_ms.sort_by(f64::total_cmp);
    println!(
        "median of {rounds}: oracle (std BinaryHeap) {:.1} ms, ordo serial {:.1} ms, ratio {:.2}",
        oracle_ms[rounds / 2],
        ordo_ms[rounds / 2],
        oracle_ms[rounds / 2] / ordo_ms[rounds / 2]
    );
}

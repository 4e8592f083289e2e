//! What a round of the frontier executor costs: `cargo run --release -p ordo-exec --example
//! round_cost [THREADS...]` times 20,000 barriers and 20,000 empty `for_chunks` loops per thread
//! count, and prints nanoseconds per round (docs/measurement.md records the figures).

use ordo_exec::{run_team, ExecConfig};
use std::time::Instant;

const ROUNDS: usize = 20_000;

fn main() {
    let threads: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("thread counts are numbers"))
        .collect();
    let threads = if threads.is_empty() {
        vec![1, 2]
    } else {
        threads
    };
    for t in threads {
        let cfg = ExecConfig::new(t);
        let start = Instant::now();
        run_team(&cfg, |team| {
            for _ in 0..ROUNDS {
                team.barrier()?;
            }
            Ok(())
        })
        .expect("the team runs");
        let barrier = start.elapsed().as_nanos() as f64 / ROUNDS as f64;
        let start = Instant::now();
        run_team(&cfg, |team| {
            for _ in 0..ROUNDS {
                team.for_chunks(t * 64, 64, |r| r.len() as u64)?;
            }
            Ok(())
        })
        .expect("the team runs");
        let round = start.elapsed().as_nanos() as f64 / ROUNDS as f64;
        println!("{t} threads: barrier {barrier:.0} ns, for_chunks round {round:.0} ns");
    }
}

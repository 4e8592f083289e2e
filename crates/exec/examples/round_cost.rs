//! What a round of the frontier executor costs: `cargo run --release -p ordo-exec --example
//! round_cost [THREADS...]` times 20,000 barriers and 20,000 empty `for_chunks` loops per thread
//! count, and prints nanoseconds per round and the cost of starting a team (the exec README
//! records the figures), after the round trip of one cache line between CPUs 0 and 1, which
//! tells where the host placed them (`docs/measurement.md`, "Timing on two cores"). `NOPIN=1`
//! runs the workers unpinned.

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
    match ordo_exec::round_trip_ns(0, 1, 200_000) {
        Some(ns) => println!("round trip CPU 0 <-> 1: {ns:.0} ns"),
        None => println!("round trip: CPUs 0 and 1 cannot both be pinned"),
    }
    for t in threads {
        let mut cfg = ExecConfig::new(t);
        cfg.pin = std::env::var_os("NOPIN").is_none();
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
        // Starting and joining a team: what a run pays once, whatever its length.
        let starts = 200;
        let start = Instant::now();
        for _ in 0..starts {
            run_team(&cfg, |_| Ok(())).expect("the team runs");
        }
        let team = start.elapsed().as_nanos() as f64 / starts as f64 / 1000.0;
        println!(
            "{t} threads: barrier {barrier:.0} ns, for_chunks round {round:.0} ns, team start {team:.1} us"
        );
    }
}

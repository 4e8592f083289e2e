//! Core numbers on one thread by bucket peeling (Batagelj and Zaversnik, "An O(m) algorithm
//! for cores decomposition of networks", 2003). On one thread it beats the parallel peel on
//! most graphs up to a few hundred thousand nodes and loses on larger ones, where its
//! random-access arrays leave the cache while the peel's level scans stream, so `auto` picks
//! it on one thread for graphs of at most [`AUTO_MAX_NODES`] nodes, and on two for half as
//! many ([`auto_prefers`]). At 1 thread it took 0.81-1.11x the peel's time on road and social
//! graphs, and 1.98x on Kronecker 20 (1M nodes). With it `auto` is never slower than the
//! oracle, the same algorithm, on one thread.
//!
//! The nodes sit in one array sorted by current degree, with the start of each degree's
//! block. Taking the nodes in array order peels them lowest degree first; a neighbour `u` of
//! the node being peeled whose degree is higher moves to the front of its block, and the
//! block's start moves past it: `u`'s degree drops by one and the array stays sorted. A node's
//! degree when it is taken is its core number.
//!
//! The oracle ([`serial_kcore`](super::serial_kcore)) is the same algorithm written plainly;
//! this one keeps positions and block starts in `u32` (half the cache footprint of the
//! random-access arrays) and reads the degree of the node being peeled once, not per edge.

use super::{KcoreOutput, KcoreStats};
use ordo_exec::{RunReport, ThreadStats};
use ordo_graph::Graph;
use std::time::Instant;

/// The largest graph, in nodes, on which `auto` runs this method on one thread; on two, half
/// of it.
pub const AUTO_MAX_NODES: usize = 1 << 19;

/// Whether `auto` prefers this method to the parallel peel for a graph of `nodes` nodes on
/// `threads` threads (module docs). On two threads the peel's rounds cost a barrier each and
/// small road graphs have hundreds of them (Luxembourg at 2 threads: 0.28-0.40x the peel's time).
pub fn auto_prefers(nodes: usize, threads: usize) -> bool {
    match threads {
        1 => nodes <= AUTO_MAX_NODES,
        2 => nodes <= AUTO_MAX_NODES / 2,
        _ => false,
    }
}

/// Core numbers of the undirected simple graph `g` (fewer than 2^32 nodes, as every graph).
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// let g = gen::road_grid(20, 20, 1, &BuildOptions::default()).unwrap();
/// let out = ordo_algos::kcore::bucket::run(&g);
/// assert_eq!(out.core, ordo_algos::kcore::serial_kcore(&g));
/// ```
pub fn run(g: &Graph) -> KcoreOutput {
    let start = Instant::now();
    let n = g.num_nodes();
    let mut degree: Vec<u32> = (0..n as u32).map(|v| g.out_degree(v) as u32).collect();
    let max = degree.iter().copied().max().unwrap_or(0) as usize;
    // block[d]: where the nodes of degree d start in `order`.
    let mut block = vec![0u32; max + 2];
    for &d in &degree {
        block[d as usize + 1] += 1;
    }
    for d in 0..=max {
        block[d + 1] += block[d];
    }
    let mut order = vec![0u32; n];
    let mut position = vec![0u32; n];
    let mut next = block.clone();
    for (v, &d) in degree.iter().enumerate() {
        let p = next[d as usize];
        position[v] = p;
        order[p as usize] = v as u32;
        next[d as usize] = p + 1;
    }
    let mut decrements = 0u64;
    for i in 0..n {
        let v = order[i];
        let dv = degree[v as usize];
        for &u in g.neighbors(v) {
            let du = degree[u as usize];
            if du > dv {
                let front = block[du as usize];
                let pu = position[u as usize];
                if pu != front {
                    let w = order[front as usize];
                    order[front as usize] = u;
                    order[pu as usize] = w;
                    position[w as usize] = pu;
                    position[u as usize] = front;
                }
                block[du as usize] = front + 1;
                degree[u as usize] = du - 1;
                decrements += 1;
            }
        }
    }
    let time = start.elapsed();
    let stats = ThreadStats {
        tasks: decrements,
        ..ThreadStats::default()
    };
    KcoreOutput {
        core: degree,
        stats: KcoreStats {
            lowered: decrements,
            unchanged: 0,
        },
        report: RunReport::from_threads(time, vec![stats]),
    }
}

//! Triangles at each node: the count of triangles a node belongs to (networkx's
//! `triangles`, the numerator of its clustering coefficient).
//!
//! The parallel kernels find each triangle once, as `u -> v -> w` with `u -> w` in the degree
//! orientation ([`Oriented`]), and add it to the tallies of all three nodes. A node's tally is
//! written by whichever task finds one of its triangles, so the tallies are atomic; `u`'s and
//! `v`'s are added once per task and per out-neighbour, `w`'s once per triangle.
//!
//! The serial oracle enumerates the same triangles by merging sorted out-lists instead of
//! probing a bitmap.

use super::{intersect_each, Oriented};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a count reports: the graph's total, or each node's triangles as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    Total,
    PerNode,
}

/// Each node's triangles, added to by every worker as it finds them.
pub struct Tally(Vec<AtomicU64>);

impl Tally {
    pub fn new(nodes: usize) -> Tally {
        Tally((0..nodes).map(|_| AtomicU64::new(0)).collect())
    }

    /// Relaxed: the adds commute, and the workers' join orders them before [`Tally::into_counts`].
    #[inline]
    fn add(&self, v: u32, n: u64) {
        if n > 0 {
            self.0[v as usize].fetch_add(n, Relaxed);
        }
    }

    pub fn into_counts(self) -> Vec<u64> {
        self.0.into_iter().map(AtomicU64::into_inner).collect()
    }
}

impl Oriented {
    /// As [`Oriented::count`], each triangle also added to its three nodes in `tally`.
    #[inline]
    pub fn count_tallied(&self, words: usize, u: u32, tally: &Tally) -> u64 {
        let out = self.out(u);
        let found = super::with_marked(words, out, |marked| {
            out.iter()
                .map(|&v| {
                    let mut at_v = 0;
                    for &w in self.out(v) {
                        if marked.has(w) {
                            tally.add(w, 1);
                            at_v += 1;
                        }
                    }
                    tally.add(v, at_v);
                    at_v
                })
                .sum()
        });
        tally.add(u, found);
        found
    }
}

/// Serial oracle: each node's triangles in the undirected simple graph `g`, every triangle
/// found by merging two sorted out-lists of the degree orientation.
pub fn serial_per_node(g: &Graph) -> Vec<u64> {
    let dag = Oriented::new(g);
    let mut counts = vec![0u64; g.num_nodes()];
    for u in 0..g.num_nodes() as u32 {
        let out = dag.out(u);
        for &v in out {
            intersect_each(out, dag.out(v), |w| {
                counts[u as usize] += 1;
                counts[v as usize] += 1;
                counts[w as usize] += 1;
            });
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_exec::ExecConfig;

    /// Each node's triangles by brute force over its pairs of neighbours.
    fn pairs_closed(g: &Graph) -> Vec<u64> {
        (0..g.num_nodes() as u32)
            .map(|u| {
                let list = g.neighbors(u);
                let mut n = 0;
                for (i, &v) in list.iter().enumerate() {
                    for &w in &list[i + 1..] {
                        n += g.neighbors(v).binary_search(&w).is_ok() as u64;
                    }
                }
                n
            })
            .collect()
    }

    #[test]
    fn every_node_counts_its_triangles() {
        use ordo_graph::{gen, BuildOptions};
        let opts = BuildOptions::default();
        for g in [
            gen::road_grid(12, 9, 1, &opts).unwrap(),
            gen::uniform_random(200, 3000, 2, &opts).unwrap(),
            gen::kronecker(9, 16, 3, &opts).unwrap(),
        ] {
            let g = ordo_graph::undirected_simple(&g).unwrap();
            let want = pairs_closed(&g);
            assert_eq!(serial_per_node(&g), want);
            // Every triangle has three nodes.
            let total = super::super::serial_tc(&g);
            assert_eq!(want.iter().sum::<u64>(), 3 * total);
            for threads in [1, 2, 8] {
                let out = super::super::run_loop_counting(
                    &g,
                    &ExecConfig::new(threads),
                    Counting::PerNode,
                )
                .unwrap();
                assert_eq!(out.triangles, total, "{threads} threads");
                assert_eq!(
                    out.per_node.as_deref(),
                    Some(&want[..]),
                    "{threads} threads"
                );
            }
        }
    }
}

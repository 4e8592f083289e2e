//! Minimum spanning forest by filter-Kruskal (Osipov, Sanders, Singler, ALENEX 2009), on one
//! thread.
//!
//! Kruskal sorts every edge, though on most graphs the forest is complete long before the
//! heaviest edges are reached. Filter-Kruskal splits the edges around a sampled pivot, solves
//! the light part first (recursively), then drops every heavy edge whose ends the light forest
//! already joined (one find per end), and only then solves what is left of the heavy part.
//! Edges that can never be in the forest are filtered, not sorted: about O(m + n log n log
//! (m/n)) work for random weights, against Kruskal's O(m log m).
//!
//! Edges are [`Edge`]s ordered by `(weight, a, b)`, the order Kruskal uses, so the forest is
//! the same unique one [`kruskal`](super::kruskal) finds. The graph lists them in `(a, b)`
//! order (sorted adjacency), and splits and filters keep that order within each part, so a
//! part is sorted by a radix sort on the weight alone ([`weight_sort`](super::weight_sort));
//! on a graph whose adjacency is not sorted, by comparisons.

use super::weight_sort::sort_by_weight;
use super::{Edge, MstOutput};
use ordo_exec::{RunReport, ThreadStats};
use ordo_graph::Graph;
use std::time::Instant;

/// Below this many edges a part is sorted and scanned as Kruskal does.
const SORT_BELOW: usize = 1 << 12;
/// A part with at most this many edges per merge still to come is sorted whole too: filtering
/// could drop few of its edges (road networks: most edges are in the forest).
const SORT_PER_MERGE: usize = 2;
/// Edges sampled for a pivot (odd, so the sample has a median).
const PIVOT_SAMPLE: usize = 31;

/// The forest of the undirected weighted graph `g` (each edge stored in both directions).
pub fn run(g: &Graph) -> MstOutput {
    let start = Instant::now();
    forest_of(g, super::edges_of(g), start)
}

/// The forest of `g` from its edges in any order (timed from `start`).
fn forest_of(g: &Graph, mut edges: Vec<Edge>, start: Instant) -> MstOutput {
    let n = g.num_nodes();
    let ab_ordered = edges.is_sorted_by_key(|e| (e.a, e.b));
    // Nodes with an edge: the forest has fewer edges than that (isolated ids do not count:
    // CA-HepPh's file numbers 89K ids, 12K of them with edges).
    let linked = (0..n as u32).filter(|&v| g.out_degree(v) > 0).count();
    let mut forest = Forest {
        merges_left: linked.saturating_sub(1),
        parent: (0..n as u32).collect(),
        edges: Vec::with_capacity(n.saturating_sub(1)),
        filtered: 0,
        rng: 0x9E37_79B9_7F4A_7C15,
        ab_ordered,
        buffer: Vec::new(),
    };
    forest.solve(&mut edges);
    let time = start.elapsed();
    let mut edges = forest.edges;
    // Parts are solved lightest first and each in order, so the forest comes out sorted.
    debug_assert!(edges.is_sorted());
    edges.shrink_to_fit();
    let stats = ThreadStats {
        tasks: forest.filtered,
        ..ThreadStats::default()
    };
    MstOutput {
        weight: edges.iter().map(|e| e.weight as u64).sum(),
        merges: edges.len() as u64,
        edges,
        stale_tasks: 0,
        edges_scanned: forest.filtered,
        report: RunReport::from_threads(time, vec![stats]),
    }
}

struct Forest {
    /// At least the number of forest edges still to be found.
    merges_left: usize,
    /// Union-find parents (path halving).
    parent: Vec<u32>,
    /// The forest so far, in increasing order.
    edges: Vec<Edge>,
    /// Edges looked at by a filter pass or a Kruskal scan.
    filtered: u64,
    rng: u64,
    /// Every part is in `(a, b)` order, so sorting by weight alone (stably) sorts it.
    ab_ordered: bool,
    /// Scratch for splits and radix passes.
    buffer: Vec<Edge>,
}

impl Forest {
    fn find(&mut self, mut x: u32) -> u32 {
        let p = &mut self.parent;
        while p[x as usize] != x {
            let grand = p[p[x as usize] as usize];
            p[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Adds to the forest, in order, every edge of `part` that joins two components, given
    /// that every edge lighter than all of `part` has been added already.
    fn solve(&mut self, part: &mut [Edge]) {
        if part.len() <= SORT_BELOW.max(SORT_PER_MERGE * self.merges_left) {
            if self.ab_ordered {
                sort_by_weight(part, &mut self.buffer);
            } else {
                part.sort_unstable();
            }
            self.scan(part);
            return;
        }
        let pivot = self.pivot(part);
        let light = stable_partition(part, |e| *e <= pivot, &mut self.buffer);
        let (light_part, heavy_part) = part.split_at_mut(light);
        self.solve(light_part);
        let kept = self.filter(heavy_part);
        self.solve(&mut heavy_part[..kept]);
    }

    /// Kruskal over sorted edges.
    fn scan(&mut self, sorted: &[Edge]) {
        self.filtered += sorted.len() as u64;
        for &e in sorted {
            let (x, y) = (self.find(e.a), self.find(e.b));
            if x != y {
                self.parent[x as usize] = y;
                self.edges.push(e);
                self.merges_left = self.merges_left.saturating_sub(1);
            }
        }
    }

    /// Moves the edges whose ends are still in different components to the front of `part`;
    /// returns how many there are.
    fn filter(&mut self, part: &mut [Edge]) -> usize {
        self.filtered += part.len() as u64;
        let mut kept = 0;
        for i in 0..part.len() {
            let e = part[i];
            if self.find(e.a) != self.find(e.b) {
                part[kept] = e;
                kept += 1;
            }
        }
        kept
    }

    /// The median of a few edges drawn at random (a fixed sequence, so runs repeat).
    fn pivot(&mut self, part: &[Edge]) -> Edge {
        let mut sample = [part[0]; PIVOT_SAMPLE];
        for s in sample.iter_mut() {
            self.rng = ordo_graph::mix64(self.rng);
            *s = part[(self.rng % part.len() as u64) as usize];
        }
        sample.sort_unstable();
        sample[PIVOT_SAMPLE / 2]
    }
}

/// Reorders `part` so that the edges satisfying `light` come first, each side in its old
/// order; returns their count. `heavy` is scratch space.
fn stable_partition(
    part: &mut [Edge],
    light: impl Fn(&Edge) -> bool,
    heavy: &mut Vec<Edge>,
) -> usize {
    heavy.clear();
    let mut kept = 0;
    for i in 0..part.len() {
        let e = part[i];
        if light(&e) {
            part[kept] = e;
            kept += 1;
        } else {
            heavy.push(e);
        }
    }
    part[kept..].copy_from_slice(heavy);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both arcs of every edge.
    fn graph(n: u32, edges: &[(u32, u32, u32)]) -> Graph {
        let arcs: Vec<_> = edges
            .iter()
            .flat_map(|&(a, b, w)| [(a, b, w), (b, a, w)])
            .collect();
        crate::test_graphs::weighted(n, &arcs)
    }

    #[test]
    fn equals_kruskal_on_random_graphs_with_ties_and_components() {
        let mut state = 7u64;
        for trial in 0..40u32 {
            let n = 50 + trial * 300;
            let m = n as usize * (1 + trial as usize % 6);
            let max_weight = [1, 3, 1000, u32::MAX][trial as usize % 4];
            let edges: Vec<(u32, u32, u32)> = (0..m)
                .map(|_| {
                    let mut draw = |k: u64| {
                        state = ordo_graph::mix64(state);
                        (state % k) as u32
                    };
                    let (a, b) = (draw(n as u64), draw(n as u64));
                    (a, b, draw(max_weight as u64).max(1))
                })
                .filter(|&(a, b, _)| a != b)
                .collect();
            let g = graph(n, &edges);
            let expected = super::super::kruskal(&g);
            assert_eq!(run(&g).edges, expected, "trial {trial}");
            // Out of (a, b) order, the parts are sorted by comparisons.
            let mut reversed = super::super::edges_of(&g);
            reversed.reverse();
            let out = forest_of(&g, reversed, Instant::now());
            assert_eq!(out.edges, expected, "trial {trial}, reversed");
        }
    }

    #[test]
    fn empty_and_edgeless_graphs() {
        assert!(run(&graph(0, &[])).edges.is_empty());
        assert!(run(&graph(5, &[])).edges.is_empty());
    }
}

//! Listing a graph's edges straight into buckets of weight: the first, most significant step
//! of a radix sort made while listing, so that Kruskal sorts one small bucket at a time.
//!
//! Kruskal over a whole edge list holds the list and a radix sort's scratch as long as it (24
//! bytes per edge: `ordo mst` on a 1000x1000 road grid, a 39 MB graph, peaks at 106 MB that
//! way). Here a counting pass over the graph sizes the buckets and a second pass writes each
//! edge at its bucket's cursor; each bucket is then sorted with a scratch of the largest
//! bucket's length and scanned, and the forest's edges are packed at the list's front as they
//! are found, so the list becomes the output and nothing as long as it is allocated twice.
//!
//! A bucket is a weight's bit length and the four bits after its leading one (weights below
//! 32 have a bucket each; 464 buckets in all): monotone in the weight, and the buckets of a
//! skewed distribution (road lengths: many short edges, a long tail) each hold at most a few
//! percent of the edges.
//! Within a bucket, edges keep the listing's `(a, b)` order, so a stable sort on the weight
//! alone puts them in `(weight, a, b)` order.

use super::Edge;
use ordo_exec::{run_team, ExecConfig, ExecError};
use ordo_graph::Graph;
use std::ops::Range;

/// Buckets of [`bucket`] (a bit length of 32 ends at 27 * 16 + 31), rounded up to a power of
/// two: a bucket masked with `BUCKETS - 1` indexes a table of this size without a check.
pub(crate) const BUCKETS: usize = 512;

/// One count or cursor per bucket.
type Table = Box<[usize; BUCKETS]>;

/// The bucket of `weight`: monotone, without a branch.
#[inline(always)]
pub(crate) fn bucket(weight: u32) -> usize {
    // With L the bit length of `weight | 16` (at least 5), shift L - 5 keeps the top five
    // bits, 16..32, in bucket (L - 4) * 16 .. (L - 3) * 16; below 32 the weight itself.
    let shift = 27 - (weight | 16).leading_zeros();
    (shift as usize * 16 + (weight >> shift) as usize) & (BUCKETS - 1)
}

/// `g`'s edges (each once, smaller end first) grouped by [`bucket`], and where each bucket
/// starts (`BUCKETS + 1` offsets). Within a bucket, edges are in node order and each node's
/// in its adjacency order. On `cfg.threads` threads: each worker counts, then writes, the
/// edges of a range of nodes with about as many arcs as the others'.
pub(crate) fn list_bucketed(
    g: &Graph,
    cfg: &ExecConfig,
    node_bounds: &[usize],
) -> Result<(Vec<Edge>, Vec<usize>), ExecError> {
    let workers = node_bounds.len() - 1;
    let count = |nodes: Range<usize>| {
        let mut counts: Table = Box::new([0; BUCKETS]);
        each_arc(g, nodes, |e, listed| {
            counts[bucket(e.weight)] += listed as usize
        });
        counts
    };
    let counts = match workers {
        1 => vec![count(worker_nodes(node_bounds, 0))],
        _ => run_team(cfg, |team| {
            Ok(Some(count(worker_nodes(node_bounds, team.worker()))))
        })?
        .0
        .into_iter()
        .map(|counts| counts.expect("every worker counts"))
        .collect(),
    };
    // Worker w writes bucket b from cursors[w][b]: bucket by bucket, worker by worker.
    let mut cursors: Vec<Table> = vec![Box::new([0; BUCKETS]); workers];
    let mut starts = Vec::with_capacity(BUCKETS + 1);
    let mut total = 0;
    for b in 0..BUCKETS {
        starts.push(total);
        for w in 0..workers {
            cursors[w][b] = total;
            total += counts[w][b];
        }
    }
    starts.push(total);
    let mut edges = Vec::with_capacity(total);
    let slots = Slots(edges.as_mut_ptr());
    let write = |w: usize, mut cursors: Table| {
        each_arc(g, worker_nodes(node_bounds, w), |e, listed| {
            if listed {
                let cursor = &mut cursors[bucket(e.weight)];
                // SAFETY: the cursors of a worker's bucket run over the `counts[w][b]` slots
                // set aside for it above, which no other worker's cursors reach (the worker
                // lists the edges it counted); all are below the capacity.
                unsafe { slots.write(*cursor, e) };
                *cursor += 1;
            }
        });
    };
    // Each worker moves a copy of its own cursors (4 KB).
    match workers {
        1 => write(0, cursors[0].clone()),
        _ => {
            run_team(cfg, |team| {
                write(team.worker(), cursors[team.worker()].clone());
                Ok(())
            })?;
        }
    }
    // SAFETY: every slot below `total` was written once (the counts sum to `total`).
    unsafe { edges.set_len(total) };
    Ok((edges, starts))
}

/// The edge list's buffer, written by several workers at slots no two of them share.
struct Slots(*mut Edge);

impl Slots {
    /// # Safety
    /// `i` is within the buffer, and no other thread reads or writes slot `i` meanwhile.
    #[inline(always)]
    unsafe fn write(&self, i: usize, e: Edge) {
        unsafe { self.0.add(i).write(e) }
    }
}

// SAFETY: the workers write disjoint slots (see `list_bucketed`) and nothing reads the buffer
// until the team has finished.
unsafe impl Sync for Slots {}

fn worker_nodes(node_bounds: &[usize], w: usize) -> Range<usize> {
    node_bounds[w]..node_bounds[w + 1]
}

/// Calls `f` on each arc of `nodes` as an edge, with whether it is the edge's listed arc (its
/// other end is the larger node). The count acts on that without a branch; the write
/// branches (a branch-free write to a discard slot measured slower: 16-17 against 12 ms on
/// USA-road-d.NY at 1 thread).
#[inline(always)]
fn each_arc(g: &Graph, nodes: Range<usize>, mut f: impl FnMut(Edge, bool)) {
    let (offsets, targets) = (&g.offsets()[nodes.start..=nodes.end], g.targets());
    // Road graphs have two or three arcs per node: what a node costs besides its arcs counts,
    // so the weights are matched once, not per node, and the arcs are sliced unchecked.
    let arcs = |bounds: &[u64]| bounds[0] as usize..bounds[1] as usize;
    // SAFETY (the `get_unchecked`s): the graph's offsets are non-decreasing up to the arc
    // count, the length of its targets and weights (checked when it was built).
    match g.weights() {
        Some(weights) => {
            for (v, bounds) in (nodes.start as u32..).zip(offsets.windows(2)) {
                let ts = unsafe { targets.get_unchecked(arcs(bounds)) };
                let ws = unsafe { weights.get_unchecked(arcs(bounds)) };
                for (&t, &w) in ts.iter().zip(ws) {
                    f(Edge::new(v, t, w), t > v);
                }
            }
        }
        None => {
            for (v, bounds) in (nodes.start as u32..).zip(offsets.windows(2)) {
                let ts = unsafe { targets.get_unchecked(arcs(bounds)) };
                ts.iter().for_each(|&t| f(Edge::new(v, t, 1), t > v));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_monotone_and_in_range() {
        let mut last = 0;
        let mut w = 0u32;
        loop {
            let b = bucket(w);
            assert!(b >= last && b < BUCKETS, "weight {w}");
            last = b;
            match w.checked_add(1 + w / 97) {
                Some(next) => w = next,
                None => break,
            }
        }
        assert_eq!(bucket(u32::MAX), 27 * 16 + 31);
        assert_eq!(
            (0..32).map(bucket).collect::<Vec<_>>(),
            (0..32).collect::<Vec<_>>()
        );
    }

    #[test]
    fn lists_every_edge_once_in_bucket_then_node_order() {
        let mut state = 5u64;
        for (n, max_weight) in [
            (0u32, 1u64),
            (1, 9),
            (60, 300),
            (500, 1 << 20),
            (900, 1 << 32),
        ] {
            let arcs: Vec<(u32, u32, u32)> = (0..n * 4)
                .map(|_| {
                    state = ordo_graph::mix64(state);
                    let (a, b) = ((state % n as u64) as u32, (state >> 32) as u32 % n);
                    (a, b, ((state >> 11) % max_weight) as u32)
                })
                .filter(|&(a, b, _)| a != b)
                .flat_map(|(a, b, w)| [(a, b, w), (b, a, w)])
                .collect();
            let g = crate::test_graphs::weighted(n, &arcs);
            // The listing's order: by bucket, then as `edges_of` lists them.
            let mut expected = super::super::edges_of(&g);
            expected.sort_by_key(|e| bucket(e.weight));
            for threads in [1, 2, 3] {
                let cfg = ExecConfig::new(threads);
                let bounds = super::super::filter_kruskal::node_bounds(&g, threads);
                let (edges, starts) = list_bucketed(&g, &cfg, &bounds).unwrap();
                assert_eq!(edges, expected, "{n} nodes, {threads} threads");
                assert_eq!(starts.len(), BUCKETS + 1);
                for b in 0..BUCKETS {
                    let part = &edges[starts[b]..starts[b + 1]];
                    assert!(part.iter().all(|e| bucket(e.weight) == b));
                }
            }
        }
    }
}

//! The undirected simple view of a graph built straight from its CSR: every arc in both
//! directions, no self-loops, one arc per node pair (the lightest).
//!
//! Built in place in the view's own arrays, without an arc list: a count pass sizes each
//! node's list (both directions of every arc), a scatter pass fills them, and each list is then
//! sorted by (target, weight) and its repeats dropped, the kept arcs moved down over the
//! dropped ones (a list's kept arcs never reach past where it started, so the lists compact
//! one after the other in a single pass). The arrays are then cut to the kept arcs.
//!
//! Memory: the view's arrays at their uncompacted size, 8 bytes per direction of each arc
//! with weights (4 without) plus 8 per node, beside the input. A build through an arc list
//! holds three 4-byte columns for both directions, then the sorted CSR and the merged one
//! beside them (`ordo cc` on Slashdot, 870k arcs: a 50 MiB peak against 27).
//!
//! Building the rows first and the weights after, at the view's size, would save little
//! (27.9 -> 24.7 MiB for `ordo mst` on Slashdot, almost nothing on Kronecker 20) for a build
//! 1.1-2x slower: two passes of random reads instead of one.

use crate::buf::Buf;
use crate::csr::Graph;
use crate::error::Result;

/// The undirected simple view of `g`, built afresh (see [`crate::undirected_simple`]).
pub(crate) fn build(g: &Graph) -> Result<Graph> {
    let (offsets, targets, weights) = undirected_adjacency(g, true);
    let mut view = Graph::from_csr(
        Buf::from_vec(offsets),
        Buf::from_vec(targets),
        weights.map(Buf::from_vec),
        g.id_base(),
    )?;
    if let Some(c) = g.coords() {
        view.set_coords(c.xy.to_vec())?;
    }
    view.set_renumbering(g.renumbering());
    Ok(view)
}

/// The CSR arrays of `g`'s undirected simple view: offsets, each node's neighbours sorted,
/// and with `weights` (and a weighted `g`) the lightest weight of each pair. Without weights
/// only the rows are built (4 bytes per end of each arc while they are merged): pfp's
/// network takes its rows from here and sums its capacities itself.
pub fn undirected_adjacency(g: &Graph, weights: bool) -> (Vec<u64>, Vec<u32>, Option<Vec<u32>>) {
    let n = g.num_nodes();
    let (offsets, targets) = (g.offsets(), g.targets());
    let weights = g.weights().filter(|_| weights);
    let arcs = |u: usize| offsets[u] as usize..offsets[u + 1] as usize;

    // Each node's list, both directions of its arcs, self-loops left out: `start[u + 1]`
    // counts node u's, then the prefix sums make `start[u]` where its list begins.
    let mut start = vec![0u64; n + 1];
    for u in 0..n {
        for &v in &targets[arcs(u)] {
            if v as usize != u {
                start[u + 1] += 1;
                start[v as usize + 1] += 1;
            }
        }
    }
    for u in 0..n {
        start[u + 1] += start[u];
    }
    let slots = start[n] as usize;

    // Scatter, with `start[u]` as node u's cursor: afterwards it holds where u's list ends,
    // which is where u + 1's began.
    let mut out_targets = vec![0u32; slots];
    let mut out_weights = weights.map(|_| vec![0u32; slots]);
    let mut put = |start: &mut [u64], from: usize, to: u32, w: u32| {
        let slot = start[from] as usize;
        start[from] += 1;
        out_targets[slot] = to;
        if let Some(ws) = out_weights.as_mut() {
            ws[slot] = w;
        }
    };
    for u in 0..n {
        for e in arcs(u) {
            let v = targets[e];
            if v as usize != u {
                let w = weights.map_or(0, |ws| ws[e]);
                put(&mut start, u, v, w);
                put(&mut start, v as usize, u as u32, w);
            }
        }
    }

    // Sort and deduplicate each list, moving its kept arcs down to `kept`; `start` becomes the
    // view's offsets as it goes (each node's list ran from `begin` to its old `start`).
    let mut begin = 0usize;
    let mut kept = 0usize;
    let mut pairs: Vec<u64> = Vec::new();
    for list_start in &mut start[..n] {
        let end = *list_start as usize;
        *list_start = kept as u64;
        match out_weights.as_mut() {
            None => {
                let list = &mut out_targets[begin..end];
                list.sort_unstable();
                let mut last = None;
                for i in begin..end {
                    let t = out_targets[i];
                    if last != Some(t) {
                        out_targets[kept] = t;
                        kept += 1;
                        last = Some(t);
                    }
                }
            }
            Some(ws) => {
                // (target, weight) in one word: sorted, the first of a target's run is its
                // lightest arc.
                pairs.clear();
                pairs.extend(
                    (begin..end).map(|i| (u64::from(out_targets[i]) << 32) | u64::from(ws[i])),
                );
                pairs.sort_unstable();
                let mut last = None;
                for &p in &pairs {
                    let t = (p >> 32) as u32;
                    if last != Some(t) {
                        out_targets[kept] = t;
                        ws[kept] = p as u32;
                        kept += 1;
                        last = Some(t);
                    }
                }
            }
        }
        begin = end;
    }
    start[n] = kept as u64;
    out_targets.truncate(kept);
    out_targets.shrink_to_fit();
    if let Some(ws) = out_weights.as_mut() {
        ws.truncate(kept);
        ws.shrink_to_fit();
    }

    (start, out_targets, out_weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{BuildOptions, EdgeList};
    use crate::csr::IdBase;
    use proptest::prelude::*;

    /// The view as the arc-list builder makes it: the oracle.
    fn by_arc_list(g: &Graph) -> Graph {
        let opts = BuildOptions {
            symmetrize: true,
            drop_self_loops: true,
            merge_parallel: true,
            ..BuildOptions::default()
        };
        crate::load::rebuild_graph(g.clone(), &opts).unwrap()
    }

    fn graph(n: u32, arcs: &[(u32, u32, u32)], weighted: bool) -> Graph {
        let mut el = EdgeList::with_capacity(n, arcs.len(), weighted);
        for &(u, v, w) in arcs {
            el.push(u % n, v % n, w);
        }
        el.build(&BuildOptions::default(), IdBase::One).unwrap()
    }

    fn same(a: &Graph, b: &Graph) {
        assert_eq!(a.offsets(), b.offsets());
        assert_eq!(a.targets(), b.targets());
        assert_eq!(a.weights(), b.weights());
        assert_eq!(a.id_base(), b.id_base());
    }

    #[test]
    fn loops_and_repeats_go_and_the_lightest_arc_stays() {
        // 0->1 (5), 1->0 (3), 0->1 (7), 2->2 (1), 2->0 (4): {0,1} at 3, {0,2} at 4.
        let g = graph(
            3,
            &[(0, 1, 5), (1, 0, 3), (0, 1, 7), (2, 2, 1), (2, 0, 4)],
            true,
        );
        let view = build(&g).unwrap();
        assert_eq!(view.out_edges(0).collect::<Vec<_>>(), [(1, 3), (2, 4)]);
        assert_eq!(view.out_edges(1).collect::<Vec<_>>(), [(0, 3)]);
        assert_eq!(view.out_edges(2).collect::<Vec<_>>(), [(0, 4)]);
        same(&view, &by_arc_list(&g));
        assert!(view.is_undirected_simple(1));
    }

    #[test]
    fn empty_and_arcless_graphs() {
        for n in [1, 5] {
            let g = graph(n, &[], true);
            same(&build(&g).unwrap(), &by_arc_list(&g));
        }
        let loops = graph(2, &[(0, 0, 1), (1, 1, 2)], false);
        let view = build(&loops).unwrap();
        assert_eq!(view.num_edges(), 0);
        same(&view, &by_arc_list(&loops));
    }

    proptest! {
        #[test]
        fn the_same_view_as_the_arc_list_build(
            n in 1u32..40,
            arcs in prop::collection::vec((0u32..40, 0u32..40, 1u32..6), 0..200),
            weighted in any::<bool>(),
        ) {
            let g = graph(n, &arcs, weighted);
            let view = build(&g).unwrap();
            same(&view, &by_arc_list(&g));
            prop_assert!(view.is_undirected_simple(2));
        }
    }
}

//! A graph's in-edges, which the pull-style methods (bottom-up BFS, pull PageRank) read.

use ordo_graph::Graph;
use std::ops::Range;
use std::sync::Arc;

/// Makes `graph`'s in-edges available and says whether they are its own out-edges. A graph
/// found symmetric ([`Graph::is_symmetric`]: undirected graphs read from files that list both
/// directions) is left as it is; any other gets its transpose built, in place when `graph`
/// is the only handle on it, else in a copy ([`Arc::make_mut`]). A graph that already has a
/// transpose keeps it.
pub fn ensure_in_edges(graph: &mut Arc<Graph>) -> bool {
    if graph.transpose().is_some() {
        return false;
    }
    if graph.is_symmetric(ordo_graph::prep_threads()) {
        return true;
    }
    Arc::make_mut(graph).build_transpose();
    false
}

/// A graph's in-edges in CSR form: the transpose of a directed graph, or the graph itself when
/// it is symmetric.
///
/// Built only from a [`Graph`], so it keeps the graph's CSR invariants, which unchecked loops
/// may rely on: offsets non-decreasing from 0 to `sources.len()`, every source `< nodes()`.
#[derive(Clone, Copy)]
pub struct InEdges<'g> {
    offsets: &'g [u64],
    sources: &'g [u32],
}

impl<'g> InEdges<'g> {
    /// The transpose of `g`, if it was built ([`Graph::build_transpose`]).
    pub fn transpose(g: &'g Graph) -> Option<Self> {
        g.transpose().map(|t| InEdges {
            offsets: &t.offsets,
            sources: &t.sources,
        })
    }

    /// `g`'s own out-edges, which are its in-edges when every arc has its reverse (an
    /// undirected graph); on any other graph the levels are wrong.
    pub fn symmetric(g: &'g Graph) -> Self {
        InEdges {
            offsets: g.offsets(),
            sources: g.targets(),
        }
    }

    /// The in-neighbours of `v`.
    #[inline]
    pub fn of(&self, v: usize) -> &'g [u32] {
        &self.sources[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The in-lists of the nodes `r`, in order: each offset read once and each list sliced
    /// without a bounds check, for loops over a range of nodes (a node's list ends where the
    /// next one's begins).
    ///
    /// ```
    /// use ordo_algos::in_edges::InEdges;
    /// use ordo_graph::{gen, BuildOptions};
    /// let mut g = gen::uniform_random(300, 2000, 5, &BuildOptions::default()).unwrap();
    /// g.build_transpose();
    /// let ins = InEdges::transpose(&g).unwrap();
    /// for (v, list) in (40..250).zip(ins.lists(40..250)) {
    ///     assert_eq!(list, ins.of(v));
    /// }
    /// assert_eq!(ins.lists(300..300).count(), 0);
    /// ```
    ///
    /// # Panics
    /// If `r` is not a range of nodes.
    #[inline]
    pub fn lists(&self, r: Range<usize>) -> impl Iterator<Item = &'g [u32]> + 'g {
        let sources = self.sources;
        let ends = &self.offsets[r.start + 1..r.end + 1];
        let mut lo = self.offsets[r.start] as usize;
        ends.iter().map(move |&hi| {
            let hi = hi as usize;
            // SAFETY: the offsets are non-decreasing and end at `sources.len()` (the type's
            // invariant), so `lo <= hi <= sources.len()`.
            let list = unsafe { sources.get_unchecked(lo..hi) };
            lo = hi;
            list
        })
    }

    /// The number of nodes these in-edges describe.
    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The CSR offsets (`nodes() + 1` of them) and sources, for loops over ranges of nodes.
    pub fn csr(&self) -> (&'g [u64], &'g [u32]) {
        (self.offsets, self.sources)
    }
}

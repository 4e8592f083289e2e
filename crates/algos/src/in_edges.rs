//! A graph's in-edges, which the pull-style methods (bottom-up BFS, pull PageRank) read.

use ordo_graph::Graph;
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

    /// The number of nodes these in-edges describe.
    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The CSR offsets (`nodes() + 1` of them) and sources, for loops over ranges of nodes.
    pub fn csr(&self) -> (&'g [u64], &'g [u32]) {
        (self.offsets, self.sources)
    }
}

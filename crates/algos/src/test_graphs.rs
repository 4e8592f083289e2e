//! Small graphs for the unit tests.

use ordo_graph::{BuildOptions, EdgeList, Graph, IdBase};

/// The directed graph on `n` nodes with the arcs `(from, to, weight)`.
pub fn weighted(n: u32, arcs: &[(u32, u32, u32)]) -> Graph {
    let mut el = EdgeList::with_capacity(n, arcs.len(), true);
    for &(a, b, w) in arcs {
        el.push(a, b, w);
    }
    el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
}

//! The serial oracle's inputs on rank 0: the whole graph, and every rank's values gathered in
//! global node order (skipped with --no-verify).

use super::args::Args;
use mpi::datatype::Equivalence;
use ordo_dist::apps::gather_values;
use ordo_dist::graph::LocalGraph;
use ordo_dist::net::{DistResult, Net};
use ordo_graph::Graph;

/// The whole graph on rank 0 when verifying.
pub fn oracle_graph(net: &Net, a: &Args, g: &LocalGraph) -> DistResult<Option<Graph>> {
    if a.no_verify {
        return Ok(None);
    }
    g.gather(net)
}

/// The whole graph and every rank's per-node `values` (in global node order) on rank 0 when
/// verifying.
pub fn for_oracle<T: Equivalence + Copy + Default>(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    values: &[T],
) -> DistResult<Option<(Graph, Vec<T>)>> {
    let full = oracle_graph(net, a, g)?;
    if a.no_verify {
        return Ok(None);
    }
    Ok(full.zip(gather_values(net, &g.part, values)?))
}

//! The serial oracle's inputs on rank 0: the whole graph, and every rank's values gathered in
//! global node order (skipped with --no-verify).

use super::args::Args;
use mpi::datatype::Equivalence;
use ordo_algos::app::{App, OwnedSource, Value, Values};
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

/// Checks a distributed answer on rank 0 as `ordo` checks its own: the registered
/// application ([`ordo_algos::APPS`]) prepared on the whole graph for its scheduled method,
/// its serial oracle, and its verifier. `values` are the application's parameters (the
/// source, as the file numbers it).
pub fn check<A: App>(
    full: Graph,
    values: &[(&'static str, Value)],
    out: &A::Output,
) -> Result<(), String> {
    let spec = &A::SPEC;
    let mut params = Values::new(spec.params);
    for (name, v) in values {
        params.set(name, v.clone())?;
    }
    let method = spec
        .variants
        .list
        .iter()
        .find(|v| v.scheduled)
        .unwrap_or(&spec.variants.list[0]);
    let mut source = OwnedSource::new(full, None, false);
    let p = A::prepare(&mut source, &params, method, &mut Vec::new()).map_err(|e| e.to_string())?;
    A::verify(&p, &A::oracle(&p), out).map_err(|e| e.to_string())
}

//! Where an application gets its graph: the views it needs, from a front end that decides
//! what they cost. The command line loads a graph for one run and lets a view replace it;
//! Python keeps one graph and caches its views across calls. Views are shared (`Arc`), so
//! preparing an application never copies a graph a cache holds.

use super::AppError;
use crate::astar::Geometry;
use ordo_graph::{Graph, WeightSpec};
use std::path::Path;
use std::sync::Arc;

pub trait Source {
    /// The graph as loaded.
    fn graph(&mut self) -> Arc<Graph>;

    /// The graph with weights: its own, else the front end's default (random weights with a
    /// note on the command line; weight 1 in Python, as networkx and scipy assume).
    fn weighted(&mut self, notes: &mut Vec<String>) -> Arc<Graph>;

    /// The random weights [`Source::weighted`] gave the graph, if it did (for reports).
    fn weights(&self) -> Option<WeightSpec>;

    /// The undirected simple view (both directions of every arc, no self-loops, the lightest
    /// of parallel arcs), of the weighted graph when `weighted`.
    fn undirected(
        &mut self,
        weighted: bool,
        notes: &mut Vec<String>,
    ) -> Result<Arc<Graph>, AppError>;

    /// The graph with its in-edges at hand, and whether they are its own out-edges (a graph
    /// made symmetric when loaded) rather than a transpose built for them.
    fn with_in_edges(&mut self) -> (Arc<Graph>, bool);

    /// The node the user named `id` as parameter `what` (`source`, `sink`).
    fn node(&self, what: &str, id: u64) -> Result<u32, AppError>;

    /// Attaches coordinates read from `path` to the graph.
    fn attach_coords(&mut self, path: &Path) -> Result<(), AppError>;

    /// What geometry `auto` means for the coordinates the graph has.
    fn geometry(&self) -> Geometry;
}

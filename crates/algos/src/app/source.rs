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

    /// Called by an application that ignores weights (hops, arcs, triangles), before it takes
    /// the graph or a view: the command line drops them from the graph it owns (4 bytes an
    /// arc, freed for the run's arrays: 15 MiB of a 1000x1000 road grid's 37, 120 of Kronecker
    /// 20's 248); a front end that keeps its graph for later calls (Python) keeps them.
    fn drop_weights(&mut self);

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
    /// made symmetric when loaded, or found symmetric: `Graph::is_symmetric`) rather than a
    /// transpose built for them.
    fn with_in_edges(&mut self) -> (Arc<Graph>, bool);

    /// The node the user named `id` as parameter `what` (`source`, `sink`).
    fn node(&self, what: &str, id: u64) -> Result<u32, AppError>;

    /// Attaches coordinates read from `path` to the graph.
    fn attach_coords(&mut self, path: &Path) -> Result<(), AppError>;

    /// What geometry `auto` means for the coordinates the graph has.
    fn geometry(&self) -> Geometry;
}

/// A [`Source`] that owns the graph loaded for one run (the `ordo` and `ordo-dist` command
/// lines): a view replaces the graph in place when nothing else holds it, so no copy is kept.
/// Unweighted graphs get the papers' random weights ([`WeightSpec::DEFAULT`]) with a note;
/// nodes are named by the file's ids.
pub struct OwnedSource {
    graph: Arc<Graph>,
    /// The random weights the graph has: from `--weights`, or the default given here.
    weights: Option<WeightSpec>,
    /// The graph is known to be its own transpose: `--symmetrize`, or found so by
    /// [`Source::with_in_edges`].
    symmetric: bool,
    geometry: Geometry,
}

impl OwnedSource {
    pub fn new(graph: Graph, weights: Option<WeightSpec>, symmetric: bool) -> OwnedSource {
        OwnedSource {
            graph: Arc::new(graph),
            weights,
            symmetric,
            geometry: Geometry::Planar,
        }
    }
}

/// A DIMACS coordinate file by its name (`.co`, optionally gzipped): longitude/latitude.
fn is_dimacs_co(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".co") || name.ends_with(".co.gz")
}

impl Source for OwnedSource {
    fn graph(&mut self) -> Arc<Graph> {
        self.graph.clone()
    }

    fn weighted(&mut self, notes: &mut Vec<String>) -> Arc<Graph> {
        if !self.graph.is_weighted() {
            let spec = WeightSpec::DEFAULT;
            notes.push(format!(
                "the graph has no weights: using random weights {spec} (set with --weights)"
            ));
            Arc::make_mut(&mut self.graph).assign_weights(spec);
            self.weights = Some(spec);
        }
        self.graph.clone()
    }

    fn weights(&self) -> Option<WeightSpec> {
        self.weights
    }

    fn drop_weights(&mut self) {
        // Only from a graph nothing else holds: dropping them from a copy would cost a copy.
        if let Some(g) = Arc::get_mut(&mut self.graph) {
            g.drop_weights();
        }
    }

    fn undirected(
        &mut self,
        weighted: bool,
        notes: &mut Vec<String>,
    ) -> Result<Arc<Graph>, AppError> {
        let base = match weighted {
            true => self.weighted(notes),
            false => {
                self.drop_weights();
                self.graph.clone()
            }
        };
        Ok(Arc::new(ordo_graph::undirected_simple(&base)?))
    }

    fn with_in_edges(&mut self) -> (Arc<Graph>, bool) {
        if !self.symmetric {
            self.symmetric = crate::in_edges::ensure_in_edges(&mut self.graph);
        }
        (self.graph.clone(), self.symmetric)
    }

    fn node(&self, _what: &str, id: u64) -> Result<u32, AppError> {
        self.graph
            .node_from_file_id(id)
            .map_err(|e| AppError::NoSuchNode(e.to_string()))
    }

    fn attach_coords(&mut self, path: &Path) -> Result<(), AppError> {
        if !path.exists() {
            return Err(AppError::Input(format!(
                "{}: coordinate file not found",
                path.display()
            )));
        }
        ordo_graph::load_coords(path, Arc::make_mut(&mut self.graph))?;
        self.geometry = match is_dimacs_co(path) {
            true => Geometry::LonLat,
            false => Geometry::Planar,
        };
        Ok(())
    }

    fn geometry(&self) -> Geometry {
        self.geometry
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_graph::{gen, BuildOptions, EdgeList, IdBase};

    #[test]
    fn in_edges_are_the_graph_itself_exactly_when_it_is_symmetric() {
        let grid = gen::road_grid(8, 8, 3, &BuildOptions::default()).unwrap();
        let (g, symmetric) = OwnedSource::new(grid, None, false).with_in_edges();
        assert!(symmetric);
        assert!(
            g.transpose().is_none(),
            "no transpose for a symmetric graph"
        );

        // A directed cycle plus one reverse pair: not symmetric, so a transpose is built.
        let mut list = EdgeList::with_capacity(3, 4, false);
        for (u, v) in [(0, 1), (1, 2), (2, 0), (1, 0)] {
            list.push(u, v, 1);
        }
        let directed = list.build(&BuildOptions::default(), IdBase::Zero).unwrap();
        let (g, symmetric) = OwnedSource::new(directed, None, false).with_in_edges();
        assert!(!symmetric);
        let t = g.transpose().expect("a transpose for a directed graph");
        assert_eq!(
            &t.sources[t.offsets[0] as usize..t.offsets[1] as usize],
            &[1, 2]
        );
    }
}

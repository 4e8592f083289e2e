//! The command line's [`Source`]: the graph loaded for this one run, which the view the
//! application asks for replaces (no copy is kept: each run needs one view).

use ordo_algos::app::{AppError, Source};
use ordo_algos::astar::Geometry;
use ordo_graph::{Graph, WeightSpec};
use std::path::Path;
use std::sync::Arc;

pub struct LoadedSource {
    graph: Arc<Graph>,
    /// The random weights the graph has: from `--weights`, or the default given here.
    weights: Option<WeightSpec>,
    /// `--symmetrize`: the graph is its own transpose.
    symmetric: bool,
    geometry: Geometry,
}

impl LoadedSource {
    pub fn new(graph: Graph, weights: Option<WeightSpec>, symmetric: bool) -> LoadedSource {
        LoadedSource {
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

impl Source for LoadedSource {
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

    fn undirected(
        &mut self,
        weighted: bool,
        notes: &mut Vec<String>,
    ) -> Result<Arc<Graph>, AppError> {
        let base = match weighted {
            true => self.weighted(notes),
            false => self.graph.clone(),
        };
        Ok(Arc::new(ordo_graph::undirected_simple(&base)?))
    }

    fn with_in_edges(&mut self) -> (Arc<Graph>, bool) {
        if !self.symmetric {
            Arc::make_mut(&mut self.graph).build_transpose();
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

//! `ordo._ordo.Graph`: an immutable CSR graph shared with the applications.
//!
//! The class is frozen: a run borrows the graph from a worker thread while the GIL is
//! released, so nothing may change it underneath. Methods that would change it (coordinates)
//! return a new graph instead. The views the applications need (unit weights for an unweighted
//! graph, the undirected simple view) are built on first use and cached.

use crate::errors::{graph_error, value_error};
use crate::running::interruptible;
use numpy::{
    IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use ordo_algos::astar::Geometry;
use ordo_graph::{
    load_coords, load_graph, undirected_simple, write_graph, BuildOptions, EdgeList, Format, Graph,
    IdBase, LoadOptions, WeightSpec,
};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// `(indptr, indices, weights)` as numpy arrays.
type CsrArrays<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Option<Bound<'py, PyArray1<i64>>>,
);

/// The most nodes a graph may have: ids are u32 and one value is kept as a sentinel.
const MAX_NODES: u64 = u32::MAX as u64 - 1;

#[pyclass(frozen, name = "Graph", module = "ordo._ordo")]
pub struct PyGraph {
    graph: Arc<Graph>,
    /// How `astar`'s geometry "auto" reads the coordinates.
    geometry: Geometry,
    /// `graph` with weight 1 on every arc when it has no weights.
    weighted: OnceLock<Arc<Graph>>,
    /// The undirected simple view of `weighted`.
    undirected: OnceLock<Arc<Graph>>,
    /// `graph` with its in-edges, for the methods that read them: see `with_in_edges`.
    with_in_edges: OnceLock<(Arc<Graph>, bool)>,
}

impl PyGraph {
    fn new(graph: Graph, geometry: Geometry) -> Self {
        PyGraph {
            graph: Arc::new(graph),
            geometry,
            weighted: OnceLock::new(),
            undirected: OnceLock::new(),
            with_in_edges: OnceLock::new(),
        }
    }

    pub fn graph(&self) -> &Arc<Graph> {
        &self.graph
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The graph with its own weights, or weight 1 on every arc when it has none (what
    /// networkx and scipy assume for an unweighted graph).
    pub fn weighted(&self) -> &Arc<Graph> {
        if self.graph.is_weighted() {
            return &self.graph;
        }
        self.weighted.get_or_init(|| {
            let mut g = (*self.graph).clone();
            g.assign_weights(WeightSpec {
                lo: 1,
                hi: 1,
                seed: 0,
            });
            Arc::new(g)
        })
    }

    /// The graph with its in-edges at hand, and whether they are its own out-edges: the graph
    /// itself when it is symmetric (`Graph::is_symmetric`), else a copy with its transpose
    /// built. Made on first use and cached.
    pub fn with_in_edges(&self) -> (Arc<Graph>, bool) {
        self.with_in_edges
            .get_or_init(|| {
                // `graph` is shared with this object, so a transpose goes into a copy.
                let mut g = self.graph.clone();
                let symmetric = ordo_algos::in_edges::ensure_in_edges(&mut g);
                (g, symmetric)
            })
            .clone()
    }

    /// Both directions of every arc, no self-loops, the lightest of parallel arcs.
    pub fn try_undirected(&self) -> Result<&Arc<Graph>, ordo_graph::GraphError> {
        if let Some(u) = self.undirected.get() {
            return Ok(u);
        }
        let u = undirected_simple(self.weighted())?;
        Ok(self.undirected.get_or_init(|| Arc::new(u)))
    }

    /// `v` as a node of this graph, or `IndexError` naming `what`.
    pub fn node(&self, what: &str, v: i64) -> PyResult<u32> {
        let n = self.graph.num_nodes();
        if v < 0 || v as u64 >= n as u64 {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "{what} {v} is not a node: the graph has {n} nodes, numbered 0..{n}"
            )));
        }
        Ok(v as u32)
    }
}

fn format_by_name(name: Option<&str>) -> PyResult<Option<Format>> {
    match name {
        None => Ok(None),
        Some(f) => Format::from_name(f).map(Some).ok_or_else(|| {
            value_error(format!(
                "unknown format '{f}'; valid: {}",
                Format::NAMES.join(", ")
            ))
        }),
    }
}

/// A DIMACS coordinate file by its name: longitude/latitude in millionths of a degree.
fn geometry_of(coords: &std::path::Path) -> Geometry {
    let name = coords.to_string_lossy();
    if name.ends_with(".co") || name.ends_with(".co.gz") {
        Geometry::LonLat
    } else {
        Geometry::Planar
    }
}

#[pymethods]
impl PyGraph {
    /// Reads a graph file; see `ordo.Graph.from_file`.
    #[staticmethod]
    #[pyo3(signature = (path, format=None, symmetrize=false, weights=None, coordinates=None))]
    fn from_file(
        py: Python<'_>,
        path: PathBuf,
        format: Option<&str>,
        symmetrize: bool,
        weights: Option<&str>,
        coordinates: Option<PathBuf>,
    ) -> PyResult<Self> {
        let opts = LoadOptions {
            format: format_by_name(format)?,
            build: BuildOptions {
                symmetrize,
                weights: weights
                    .map(|w| w.parse::<WeightSpec>().map_err(value_error))
                    .transpose()?,
                ..BuildOptions::default()
            },
        };
        let geometry = coordinates.as_deref().map_or(Geometry::Planar, geometry_of);
        // Off the GIL; Ctrl-C is answered once the file is read (the readers cannot stop).
        let graph = interruptible(py, None, || {
            let mut g = load_graph(&path, &opts, None)?.graph;
            if let Some(c) = &coordinates {
                load_coords(c, &mut g)?;
            }
            Ok(g)
        })?
        .map_err(graph_error)?;
        Ok(PyGraph::new(graph, geometry))
    }

    /// Builds a graph from arcs `src[i] -> dst[i]`; see `ordo.Graph.from_edges`.
    #[staticmethod]
    #[pyo3(signature = (src, dst, weights, num_nodes))]
    fn from_edges(
        py: Python<'_>,
        src: PyReadonlyArray1<'_, i64>,
        dst: PyReadonlyArray1<'_, i64>,
        weights: Option<PyReadonlyArray1<'_, i64>>,
        num_nodes: Option<i64>,
    ) -> PyResult<Self> {
        let (src, dst) = (src.as_slice()?, dst.as_slice()?);
        let weights = weights.as_ref().map(|w| w.as_slice()).transpose()?;
        if src.len() != dst.len() {
            return Err(value_error(format!(
                "src and dst differ in length ({} and {})",
                src.len(),
                dst.len()
            )));
        }
        if let Some(w) = weights {
            if w.len() != src.len() {
                return Err(value_error(format!(
                    "weights has {} entries for {} edges",
                    w.len(),
                    src.len()
                )));
            }
        }
        let largest = src.iter().chain(dst).copied().max();
        let n = match num_nodes {
            Some(n) if n < 0 => return Err(value_error(format!("num_nodes {n} is negative"))),
            Some(n) => n as u64,
            // A negative id is reported by `edge_list` with its position.
            None => largest.map_or(0, |m| m.max(0) as u64 + 1),
        };
        if n > MAX_NODES {
            return Err(value_error(format!(
                "{n} nodes: ordo's node ids are 32-bit, at most {MAX_NODES} nodes"
            )));
        }
        let graph = interruptible(py, None, || {
            edge_list(src, dst, weights, n as u32)?
                .build(&BuildOptions::default(), IdBase::Zero)
                .map_err(|e| e.to_string())
        })?
        .map_err(value_error)?;
        Ok(PyGraph::new(graph, Geometry::Planar))
    }

    /// The same graph with node coordinates `xy` (shape `(num_nodes, 2)`).
    #[pyo3(signature = (xy, lonlat=false))]
    fn with_coordinates(&self, xy: PyReadonlyArray2<'_, f64>, lonlat: bool) -> PyResult<Self> {
        let shape = xy.shape();
        let n = self.graph.num_nodes();
        if shape != [n, 2] {
            return Err(value_error(format!(
                "coordinates have shape {shape:?}; expected ({n}, 2)"
            )));
        }
        let flat: Vec<f64> = xy.as_array().iter().copied().collect();
        if let Some(i) = flat.iter().position(|x| !x.is_finite()) {
            return Err(value_error(format!(
                "coordinate of node {} is not finite",
                i / 2
            )));
        }
        let mut g = (*self.graph).clone();
        g.set_coords(flat).map_err(graph_error)?;
        let geometry = if lonlat {
            Geometry::LonLat
        } else {
            Geometry::Planar
        };
        Ok(PyGraph::new(g, geometry))
    }

    /// Writes the graph; see `ordo.Graph.save`.
    #[pyo3(signature = (path, format=None))]
    fn save(&self, py: Python<'_>, path: PathBuf, format: Option<&str>) -> PyResult<()> {
        let format = format_by_name(format)?.unwrap_or(Format::Binary);
        let g = &self.graph;
        py.detach(|| write_graph(g, &path, Some(format)))
            .map_err(graph_error)?;
        Ok(())
    }

    /// `(indptr, indices, weights)`: the CSR arrays (int64; weights None when unweighted).
    fn csr<'py>(&self, py: Python<'py>) -> CsrArrays<'py> {
        let g = &self.graph;
        let indptr: Vec<i64> = g.offsets().iter().map(|&o| o as i64).collect();
        let indices: Vec<i64> = g.targets().iter().map(|&t| t as i64).collect();
        let weights = g
            .weights()
            .map(|w| w.iter().map(|&x| x as i64).collect::<Vec<i64>>());
        (
            indptr.into_pyarray(py),
            indices.into_pyarray(py),
            weights.map(|w| w.into_pyarray(py)),
        )
    }

    /// Node coordinates, shape `(num_nodes, 2)`, or None.
    fn coordinates<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, numpy::PyArray2<f64>>>> {
        let Some(c) = self.graph.coords() else {
            return Ok(None);
        };
        let n = self.graph.num_nodes();
        let flat = c.xy.to_vec().into_pyarray(py);
        Ok(Some(flat.reshape([n, 2])?))
    }

    #[getter]
    fn num_nodes(&self) -> usize {
        self.graph.num_nodes()
    }

    #[getter]
    fn num_edges(&self) -> usize {
        self.graph.num_edges()
    }

    #[getter]
    fn is_weighted(&self) -> bool {
        self.graph.is_weighted()
    }

    /// 1 where the file numbered nodes from 1 (DIMACS, METIS, Matrix Market), else 0.
    #[getter]
    fn id_base(&self) -> u64 {
        self.graph.id_base().offset()
    }

    /// Out-degree of every node (int64).
    fn out_degrees<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let o = self.graph.offsets();
        o.windows(2)
            .map(|w| (w[1] - w[0]) as i64)
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }
}

/// Checks ids and weights and collects the arcs.
fn edge_list(
    src: &[i64],
    dst: &[i64],
    weights: Option<&[i64]>,
    n: u32,
) -> Result<EdgeList, String> {
    let mut el = EdgeList::with_capacity(n, src.len(), weights.is_some());
    for (i, (&u, &v)) in src.iter().zip(dst).enumerate() {
        for (end, x) in [("src", u), ("dst", v)] {
            if x < 0 || x >= n as i64 {
                return Err(format!(
                    "{end}[{i}] = {x} is not a node: ids must be in 0..{n} (num_nodes)"
                ));
            }
        }
        let w = match weights {
            None => 1,
            Some(w) => {
                let x = w[i];
                if !(0..=u32::MAX as i64).contains(&x) {
                    return Err(format!(
                        "weights[{i}] = {x}: ordo's weights are integers in 0..={}",
                        u32::MAX
                    ));
                }
                x as u32
            }
        };
        el.push(u as u32, v as u32, w);
    }
    Ok(el)
}

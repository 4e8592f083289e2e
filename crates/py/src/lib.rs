//! `ordo._ordo`, the native half of the Python package `ordo`: the graph class and one function
//! per application over ordo's Rust crates. The public API, its defaults and its documentation
//! live in `python/ordo/__init__.py`; the stubs in `python/ordo/_ordo.pyi` type this module.
//!
//! Every run releases the GIL and can be interrupted with Ctrl-C (`running.rs`); every error
//! becomes a Python exception (`errors.rs`).

mod apps;
mod errors;
mod graph;
mod running;

use pyo3::prelude::*;

#[pymodule]
fn _ordo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<graph::PyGraph>()?;
    m.add(
        "GraphFormatError",
        m.py().get_type::<errors::GraphFormatError>(),
    )?;
    m.add_function(wrap_pyfunction!(apps::sssp, m)?)?;
    m.add_function(wrap_pyfunction!(apps::bfs, m)?)?;
    m.add_function(wrap_pyfunction!(apps::astar, m)?)?;
    m.add_function(wrap_pyfunction!(apps::pagerank, m)?)?;
    m.add_function(wrap_pyfunction!(apps::cc, m)?)?;
    m.add_function(wrap_pyfunction!(apps::kcore, m)?)?;
    m.add_function(wrap_pyfunction!(apps::mst, m)?)?;
    m.add_function(wrap_pyfunction!(apps::tc, m)?)?;
    m.add_function(wrap_pyfunction!(apps::bc, m)?)?;
    m.add_function(wrap_pyfunction!(apps::max_flow, m)?)?;
    m.add_function(wrap_pyfunction!(apps::schedulers, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

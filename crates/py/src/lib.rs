//! `ordo._ordo`, the native half of the Python package `ordo`: the graph class and one function
//! that runs any application of ordo's registry (`apps.rs`). The public API, its defaults and
//! its documentation live in `python/ordo/_algorithms.py` and `_graph.py`; the stubs in
//! `python/ordo/_ordo.pyi` type this module.
//!
//! Every run releases the GIL and can be interrupted with Ctrl-C (`running.rs`); every error
//! becomes a Python exception (`errors.rs`).

mod adjacency;
mod apps;
mod errors;
mod graph;
mod running;

use pyo3::prelude::*;

/// Large arrays of this module get transparent huge pages (`ordo_exec::malloc::HugePageAlloc`):
/// the advice covers only blocks this module allocates; Python's own memory is untouched.
#[global_allocator]
static ALLOCATOR: ordo_exec::malloc::HugePageAlloc = ordo_exec::malloc::HugePageAlloc;

#[pymodule]
fn _ordo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<graph::PyGraph>()?;
    m.add(
        "GraphFormatError",
        m.py().get_type::<errors::GraphFormatError>(),
    )?;
    m.add_function(wrap_pyfunction!(apps::run, m)?)?;
    m.add_function(wrap_pyfunction!(apps::applications, m)?)?;
    m.add_function(wrap_pyfunction!(apps::schedulers, m)?)?;
    m.add_function(wrap_pyfunction!(adjacency::is_positional, m)?)?;
    m.add_function(wrap_pyfunction!(adjacency::adjacency_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(adjacency::edge_values, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

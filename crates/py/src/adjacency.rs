//! Reading a networkx graph's adjacency into arrays for the NetworkX backend
//! (`python/ordo/networkx_backend/graph.py`): one pass over the dicts in C, where numpy's
//! `fromiter` over a chain of dict iterators spends about 100 ns an entry.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList};

type Int64s<'py> = Bound<'py, PyArray1<i64>>;

/// Whether `nodes` is `[0, 1, ..., n - 1]`, every label a plain `int` (not a subclass such as
/// `bool`), so that a label is its own position.
#[pyfunction]
pub fn is_positional(nodes: &Bound<'_, PyList>) -> PyResult<bool> {
    for (i, node) in nodes.iter().enumerate() {
        if !node.is_exact_instance_of::<PyInt>() || node.extract::<i64>()? != i as i64 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `(degrees, targets)`: each dict's length, and the positions of every dict's keys in order,
/// the keys looked up in `index` (`{label: position}`), or taken as positions when `index` is
/// None (the labels are positions, [`is_positional`]).
#[pyfunction]
#[pyo3(signature = (neighbors, index=None))]
pub fn adjacency_arrays<'py>(
    py: Python<'py>,
    neighbors: &Bound<'py, PyList>,
    index: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Int64s<'py>, Int64s<'py>)> {
    let mut degrees = Vec::with_capacity(neighbors.len());
    let mut targets = Vec::new();
    let position = |key: Bound<'py, PyAny>| -> PyResult<i64> {
        match index {
            None => key.extract::<i64>(),
            Some(index) => index
                .get_item(&key)?
                .ok_or_else(|| PyKeyError::new_err(key.unbind()))?
                .extract::<i64>(),
        }
    };
    for mapping in neighbors.iter() {
        let before = targets.len();
        match mapping.cast::<PyDict>() {
            Ok(dict) => {
                targets.reserve(dict.len());
                for (key, _) in dict.iter() {
                    targets.push(position(key)?);
                }
            }
            // Any other mapping, through its iterator.
            Err(_) => {
                for key in mapping.try_iter()? {
                    targets.push(position(key?)?);
                }
            }
        }
        degrees.push((targets.len() - before) as i64);
    }
    Ok((degrees.into_pyarray(py), targets.into_pyarray(py)))
}

/// One edge attribute on every arc, in the order of [`adjacency_arrays`]: `data.get(attr,
/// default)` of each neighbor's data dict, classified as the NetworkX backend's weight check
/// needs it. Returns `(kind, values, others)`:
/// * `"int"`: every value an integer of 64 bits (bools and numpy integers included), `values`
///   int64;
/// * `"float"`: every value a Python float (not a subclass), `values` float64; `"mixed"`: floats and integers, `values`
///   float64;
/// * `"big"`: an integer beyond 64 bits; `"other"`: `others` names the other types found.
#[pyfunction]
pub fn edge_values<'py>(
    py: Python<'py>,
    neighbors: &Bound<'py, PyList>,
    attr: &Bound<'py, PyAny>,
    default: &Bound<'py, PyAny>,
) -> PyResult<(&'static str, Bound<'py, PyAny>, Vec<String>)> {
    let mut ints: Vec<i64> = Vec::new();
    let mut floats: Vec<f64> = Vec::new();
    let (mut any_float, mut any_int, mut big) = (false, false, false);
    let mut others: Vec<String> = Vec::new();
    let mut classify = |value: Bound<'py, PyAny>| -> PyResult<()> {
        // Exactly float: numpy's float scalars would give numpy sums in networkx.
        if value.is_exact_instance_of::<PyFloat>() {
            if !any_float {
                // The first float: the integers so far join the floats, in order; from here
                // on every value goes to the floats alone.
                any_float = true;
                floats = ints.iter().map(|&i| i as f64).collect();
            }
            floats.push(value.extract::<f64>()?);
        } else if value.is_instance_of::<PyInt>() || value.hasattr("__index__")? {
            match value.extract::<i64>() {
                Ok(i) => {
                    any_int = true;
                    match any_float {
                        true => floats.push(i as f64),
                        false => ints.push(i),
                    }
                }
                Err(_) if value.is_instance_of::<PyInt>() => big = true,
                Err(_) => others.push(value.get_type().name()?.to_string()),
            }
        } else {
            others.push(value.get_type().name()?.to_string());
        }
        Ok(())
    };
    let mut value_of = |data: Bound<'py, PyAny>| -> PyResult<()> {
        classify(match data.cast::<PyDict>() {
            Ok(d) => d.get_item(attr)?.unwrap_or_else(|| default.clone()),
            Err(_) => data.call_method1("get", (attr, default))?,
        })
    };
    for mapping in neighbors.iter() {
        match mapping.cast::<PyDict>() {
            Ok(dict) => {
                for (_, data) in dict.iter() {
                    value_of(data)?;
                }
            }
            Err(_) => {
                for data in mapping.call_method0("values")?.try_iter()? {
                    value_of(data?)?;
                }
            }
        }
    }
    others.sort();
    others.dedup();
    let none = || py.None().into_bound(py);
    Ok(match (others.is_empty(), big, any_float, any_int) {
        (false, _, _, _) => ("other", none(), others),
        (true, true, _, _) => ("big", none(), others),
        (true, false, true, true) => ("mixed", floats.into_pyarray(py).into_any(), others),
        (true, false, true, false) => ("float", floats.into_pyarray(py).into_any(), others),
        _ => ("int", ints.into_pyarray(py).into_any(), others),
    })
}

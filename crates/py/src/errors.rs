//! How ordo's errors reach Python: malformed files as `GraphFormatError` (with `file`, `line`
//! and `reason`), missing files as `OSError` subclasses, bad arguments as `ValueError`, and a
//! run that failed inside ordo as `RuntimeError`. No panic crosses into Python.

use ordo_exec::ExecError;
use ordo_graph::GraphError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    ordo,
    GraphFormatError,
    PyValueError,
    "A graph file is malformed. `file`, `line` (None when not line-based) and `reason` say \
     where and why."
);

pub fn value_error(message: impl ToString) -> PyErr {
    PyValueError::new_err(message.to_string())
}

pub fn graph_error(e: GraphError) -> PyErr {
    match e {
        // OSError(errno, message, filename) becomes the matching subclass, e.g.
        // FileNotFoundError for ENOENT.
        GraphError::Io { path, source } => match source.raw_os_error() {
            Some(errno) => PyOSError::new_err((errno, source.to_string(), path)),
            None => PyOSError::new_err(format!("{path}: {source}")),
        },
        GraphError::Parse { location, message } => Python::attach(|py| {
            let err = GraphFormatError::new_err(format!("{location}: {message}"));
            let value = err.value(py);
            let set = || -> PyResult<()> {
                value.setattr("file", location.path.display().to_string())?;
                value.setattr("line", location.line)?;
                value.setattr("reason", message.as_str())
            };
            match set() {
                Ok(()) => err,
                Err(e) => e,
            }
        }),
        GraphError::Invalid(message) => value_error(message),
    }
}

pub fn exec_error(e: ExecError) -> PyErr {
    match e {
        ExecError::Cancelled(_) => PyKeyboardInterrupt::new_err("the run was interrupted"),
        other => PyRuntimeError::new_err(format!(
            "ordo failed inside a run (a bug: please report it): {other}"
        )),
    }
}

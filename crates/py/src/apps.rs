//! The applications for Python: one function, [`run`], runs any application of the registry
//! ([`ordo_algos::APPS`]) on a [`PyGraph`] through the protocol of [`ordo_algos::app`]:
//! prepare (from the graph's cached views, [`PySource`]), build the run from the keyword
//! arguments, run it on a worker thread with the GIL released, and hand back the answer as
//! numpy arrays (plus the report dict when asked). The Python layer
//! (`python/ordo/_algorithms.py`) gives each application its signature, defaults and
//! documentation.

use crate::errors::{exec_error, value_error};
use crate::graph::PyGraph;
use crate::running::{interruptible, report_dict, threads_arg, topology};
use numpy::IntoPyArray;
use ordo_algos::app::{
    Answer, App, AppError, AppSpec, AppVisitor, Kind, Plan, RunRequest, Source, SpecError, Value,
    Values,
};
use ordo_algos::astar::Geometry;
use ordo_graph::{Graph, WeightSpec};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use pyo3::IntoPyObjectExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Runs application `app` on `graph` with its parameters `values` (a dict of the registry's
/// names; `None` means not given), method `algo`, on `scheduler` with `params`, through the
/// protocol of [`ordo_algos::app::Plan`]: the answer, or `(answer, report)` when `report`.
#[pyfunction]
#[pyo3(signature = (app, graph, values, algo, scheduler, threads, params, report))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    app: &str,
    graph: &Bound<'py, PyGraph>,
    values: &Bound<'py, PyDict>,
    algo: &str,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let call = Call {
        py,
        graph: graph.get(),
        values,
        algo,
        scheduler,
        threads,
        params,
        report,
    };
    ordo_algos::visit(app, call)
        .unwrap_or_else(|| Err(value_error(format!("no application '{app}'"))))
}

/// One call of [`run`], waiting for the application's type.
struct Call<'a, 'py> {
    py: Python<'py>,
    graph: &'a PyGraph,
    values: &'a Bound<'py, PyDict>,
    algo: &'a str,
    scheduler: &'a str,
    threads: Option<i64>,
    params: Option<&'a Bound<'py, PyDict>>,
    report: bool,
}

impl<'py> AppVisitor for Call<'_, 'py> {
    type Output = PyResult<Bound<'py, PyAny>>;

    fn visit<A: App>(self) -> Self::Output {
        let py = self.py;
        let spec = &A::SPEC;
        let values = values_of(spec, self.values, self.graph.graph().num_nodes())?;
        let mut pairs = Vec::new();
        if let Some(params) = self.params {
            for (k, v) in params.iter() {
                pairs.push((k.str()?.to_string(), v.str()?.to_string()));
            }
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let req = RunRequest {
            algo: self.algo.to_string(),
            asks_scheduler: scheduler_request(spec, &values, self.scheduler, !pairs.is_empty()),
            scheduler: self.scheduler.to_string(),
            params: pairs,
            threads: threads_arg(self.threads)?,
            cancel: Some(cancel.clone()),
            strict_delta: true,
            ..RunRequest::new(topology().clone())
        };
        // A request that cannot run fails before the graph's views are built.
        Plan::<A>::choose_method(&req).map_err(app_error)?;
        let (graph, report) = (self.graph, self.report);
        let outcome = interruptible(py, Some(&cancel), || -> Result<_, AppError> {
            let plan = Plan::<A>::new(&mut PySource(graph), &values, &req, &mut Vec::new())?;
            let out = plan.run()?;
            let run = plan.report(&out).clone();
            let summary = report.then(|| plan.summary(&out, None, run.time.as_secs_f64()));
            Ok((plan.label(), run, summary, plan.answer(out)))
        })?;
        let (label, run, summary, answer) = outcome.map_err(app_error)?;
        let result = to_python(py, answer)?;
        if !report {
            return Ok(result);
        }
        let d = report_dict(py, &label, &run)?;
        if let Some(serde_json::Value::Object(fields)) = summary {
            for (k, v) in fields {
                if !FILE_ID_FIGURES.contains(&k.as_str()) {
                    d.set_item(k, json_to_python(py, &v)?)?;
                }
            }
        }
        (result, d).into_bound_py_any(py)
    }
}

/// Summary figures that name nodes as the input file numbers them (1-based for DIMACS), for
/// the command line's output; Python numbers nodes 0..n and has them as arguments anyway.
const FILE_ID_FIGURES: &[&str] = &[
    "source",
    "target",
    "sink",
    "top",
    "oracle_top",
    "argmax",
    "source_ids",
];

fn app_error(e: AppError) -> PyErr {
    match e {
        AppError::Usage(m) | AppError::Input(m) => value_error(m),
        AppError::NoSuchNode(m) => PyIndexError::new_err(m),
        AppError::NoCoordinates => value_error(
            "A* needs node coordinates: Graph.from_file(..., coordinates=PATH) or \
             Graph.with_coordinates(xy)",
        ),
        AppError::Spec(SpecError::Threads(t)) => value_error(format!(
            "threads={t}: must be in 1..={}",
            ordo_exec::MAX_THREADS
        )),
        AppError::Spec(SpecError::Scheduler(e)) => value_error(e),
        AppError::Spec(SpecError::NoDelta(name)) => value_error(format!(
            "scheduler '{name}' has no delta parameter; see ordo.schedulers()"
        )),
        AppError::Exec(e) => exec_error(e),
        AppError::Verify(e) => value_error(e),
    }
}

/// What in the call asks for a priority scheduler, if anything does.
fn scheduler_request(
    spec: &AppSpec,
    values: &Values,
    scheduler: &str,
    has_params: bool,
) -> Option<String> {
    let asked = spec
        .params
        .iter()
        .find(|p| p.asks_scheduler && values.given(p.name))
        .map(|p| format!("{}='{}'", p.name, values.text(p.name).unwrap_or("")));
    if asked.is_some() {
        asked
    } else if scheduler != "auto" {
        Some(format!("scheduler='{scheduler}'"))
    } else if has_params {
        Some("scheduler parameters".to_string())
    } else {
        None
    }
}

/// The application's parameters from a dict of its declared names (`None`: not given).
fn values_of(spec: &AppSpec, dict: &Bound<'_, PyDict>, nodes: usize) -> PyResult<Values> {
    let mut values = Values::new(spec.params);
    for (k, v) in dict.iter() {
        let name: String = k.extract()?;
        let p = spec
            .params
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| value_error(format!("{} has no parameter '{name}'", spec.name)))?;
        if v.is_none() {
            continue;
        }
        let value = match p.kind {
            // A node is checked here, before the application looks at anything else, so
            // that Python names a bad node first (`astar` on a graph without coordinates and a
            // bad target raises IndexError). Integers only for sign: their range is
            // `Values::set`'s.
            Kind::Node => match v.extract::<i64>()? {
                id if id < 0 || id as u64 >= nodes as u64 => {
                    return Err(PyIndexError::new_err(not_a_node(&name, id, nodes)))
                }
                id => Value::Int(id as u64),
            },
            Kind::Int { min, max } => match v.extract::<i64>()? {
                i if i < 0 => {
                    return Err(value_error(format!("{name}={i}: must be in {min}..={max}")))
                }
                i => Value::Int(i as u64),
            },
            Kind::Float => Value::Float(v.extract()?),
            Kind::Choice(_) | Kind::Text => Value::Text(v.extract()?),
            Kind::Path => Value::Path(v.extract::<PathBuf>()?),
            Kind::Flag => Value::Flag(v.extract()?),
        };
        values.set(p.name, value).map_err(value_error)?;
    }
    Ok(values)
}

fn not_a_node(what: &str, id: i64, n: usize) -> String {
    format!("{what} {id} is not a node: the graph has {n} nodes, numbered 0..{n}")
}

/// An answer as Python objects: numpy arrays for per-node values.
fn to_python(py: Python<'_>, answer: Answer) -> PyResult<Bound<'_, PyAny>> {
    Ok(match answer {
        Answer::Floats(v) => v.into_pyarray(py).into_any(),
        Answer::Ints(v) => v.into_pyarray(py).into_any(),
        Answer::Bools(v) => numpy::PyArray1::from_slice(py, &v).into_any(),
        Answer::Float(x) => x.into_bound_py_any(py)?,
        Answer::Int(x) => x.into_bound_py_any(py)?,
        Answer::Tuple(parts) => {
            let items = parts
                .into_iter()
                .map(|a| to_python(py, a))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?.into_any()
        }
    })
}

/// A figure of a summary as a Python object.
fn json_to_python<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => b.into_bound_py_any(py)?,
        J::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py)?,
            (None, Some(i)) => i.into_bound_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?,
        },
        J::String(s) => s.into_bound_py_any(py)?,
        J::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_python(py, item)?)?;
            }
            list.into_any()
        }
        J::Object(fields) => {
            let d = PyDict::new(py);
            for (k, item) in fields {
                d.set_item(k, json_to_python(py, item)?)?;
            }
            d.into_any()
        }
    })
}

/// A Python graph as an application's [`Source`]: its views are built once and cached on the
/// graph, so repeated calls share them. Unweighted graphs weigh 1 per arc (as networkx);
/// nodes are numbered 0..n.
struct PySource<'a>(&'a PyGraph);

impl Source for PySource<'_> {
    fn graph(&mut self) -> Arc<Graph> {
        self.0.graph().clone()
    }

    fn weighted(&mut self, _notes: &mut Vec<String>) -> Arc<Graph> {
        self.0.weighted().clone()
    }

    fn weights(&self) -> Option<WeightSpec> {
        None
    }

    /// The cached graph keeps its weights for later calls.
    fn drop_weights(&mut self) {}

    fn undirected(&mut self, _weighted: bool, _: &mut Vec<String>) -> Result<Arc<Graph>, AppError> {
        Ok(self.0.try_undirected()?.clone())
    }

    fn with_in_edges(&mut self) -> (Arc<Graph>, bool) {
        self.0.with_in_edges()
    }

    fn node(&self, what: &str, id: u64) -> Result<u32, AppError> {
        let n = self.0.graph().num_nodes();
        match id < n as u64 {
            true => Ok(id as u32),
            false => Err(AppError::NoSuchNode(not_a_node(what, id as i64, n))),
        }
    }

    fn attach_coords(&mut self, _path: &Path) -> Result<(), AppError> {
        Err(AppError::Usage(
            "coordinates come with the graph: Graph.from_file(..., coordinates=PATH) or \
             Graph.with_coordinates(xy)"
                .into(),
        ))
    }

    fn geometry(&self) -> Geometry {
        self.0.geometry()
    }
}

/// Every application the registry holds: `name`, its methods (`algos`), what `auto` runs on
/// few threads (`few_threads`) and its parameters.
#[pyfunction]
pub fn applications(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for app in ordo_algos::APPS {
        let d = PyDict::new(py);
        d.set_item("name", app.name)?;
        d.set_item("about", app.about)?;
        let algos: Vec<&str> = app.variants.list.iter().map(|v| v.name()).collect();
        d.set_item("algos", algos)?;
        let few = app.variants.few_threads.map(|f| (f.method.name(), f.up_to));
        d.set_item("few_threads", few)?;
        let params: Vec<&str> = app.params.iter().map(|p| p.name).collect();
        d.set_item("params", params)?;
        list.append(d)?;
    }
    Ok(list)
}

/// Every scheduler with its summary and parameters.
#[pyfunction]
pub fn schedulers(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for s in ordo_sched::catalogue() {
        let d = PyDict::new(py);
        d.set_item("name", s.name)?;
        d.set_item("summary", s.summary)?;
        let params = PyDict::new(py);
        for p in s.params {
            let pd = PyDict::new(py);
            pd.set_item("default", p.default)?;
            pd.set_item("doc", p.doc)?;
            params.set_item(p.key, pd)?;
        }
        d.set_item("params", params)?;
        list.append(d)?;
    }
    Ok(list)
}

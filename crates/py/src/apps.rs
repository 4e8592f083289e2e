//! The applications as Python functions. Each resolves its node arguments, builds the run
//! configuration, runs through `RunConfig::run` (bc and max_flow through [`interruptible`]),
//! and converts the output to numpy arrays (plus the report dict when asked). The Python layer
//! (`python/ordo/_algorithms.py`) adds the defaults and the documentation.

use crate::errors::{exec_error, value_error};
use crate::graph::PyGraph;
use crate::running::{exec_config, interruptible, report_dict, run_config, MethodCall};
use numpy::IntoPyArray;
use ordo_algos as algos;
use ordo_algos::astar::Geometry;
use ordo_algos::bc::{BcConfig, Layout, Queues};
use ordo_algos::in_edges::InEdges;
use ordo_algos::named;
use ordo_algos::pagerank::pull::{self, Sweep};
use ordo_algos::pagerank::PriorityKind;
use ordo_algos::pagerank::Scores;
use ordo_algos::pfp::{self, PfpError};
use ordo_exec::RunReport;
use ordo_graph::Graph;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use std::sync::Arc;

type Extra<'py> = Vec<(&'static str, Bound<'py, PyAny>)>;

/// `result`, or `(result, report)` when `report` is asked for.
fn answer<'py>(
    py: Python<'py>,
    result: Bound<'py, PyAny>,
    report: bool,
    label: &str,
    run: &RunReport,
    extra: Extra<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    if !report {
        return Ok(result);
    }
    let d = report_dict(py, label, run, &extra)?;
    (result, d).into_bound_py_any(py)
}

fn any<'py>(py: Python<'py>, v: impl IntoPyObjectExt<'py>) -> PyResult<Bound<'py, PyAny>> {
    v.into_bound_py_any(py)
}

/// The graph's undirected simple view, built (once) without the GIL.
fn undirected_view<'a>(py: Python<'_>, graph: &'a Bound<'_, PyGraph>) -> PyResult<&'a Arc<Graph>> {
    let pg: &'a PyGraph = graph.get();
    interruptible(py, None, || pg.undirected())?
}

/// Distances as float64 with `inf` where `unreached`.
fn as_float<T: Copy + PartialEq + Into<u64>>(values: &[T], unreached: T) -> Vec<f64> {
    values
        .iter()
        .map(|&d| {
            if d == unreached {
                f64::INFINITY
            } else {
                d.into() as f64
            }
        })
        .collect()
}

#[pyfunction]
#[pyo3(signature = (graph, source, algo, scheduler, threads, delta, params, report))]
#[allow(clippy::too_many_arguments)]
pub fn sssp<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    source: i64,
    algo: &str,
    scheduler: &str,
    threads: Option<i64>,
    delta: Option<u32>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pg = graph.get();
    let src = pg.node("source", source)?;
    let g = pg.weighted();
    let default_delta = algos::sssp::default_delta(g);
    let call = MethodCall::choose(
        &algos::sssp::app::VARIANTS,
        algo,
        scheduler,
        params,
        threads,
        None,
    )?
    .with_delta(delta, Some(default_delta));
    let shift = delta.unwrap_or(default_delta);
    let (out, label) = call.run(
        py,
        |s, e| named::sssp(s, e, g, src),
        |e| algos::sssp::delta_step::run(g, src, shift, e),
    )?;
    let dist = as_float(&out.dist, algos::sssp::UNREACHABLE).into_pyarray(py);
    let s = out.stats;
    let extra = vec![
        ("algo", any(py, call.method.name)?),
        ("stale_tasks", any(py, s.stale_tasks)?),
        ("improving_relaxations", any(py, s.improving_relaxations)?),
        ("edges_scanned", any(py, s.edges_scanned)?),
    ];
    answer(py, dist.into_any(), report, &label, &out.report, extra)
}

#[pyfunction]
#[pyo3(signature = (graph, source, algo, scheduler, threads, params, report))]
#[allow(clippy::too_many_arguments)]
pub fn bfs<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    source: i64,
    algo: &str,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pg = graph.get();
    let src = pg.node("source", source)?;
    // Priority = level: one bucket per level.
    let call = MethodCall::choose(
        &algos::bfs::app::VARIANTS,
        algo,
        scheduler,
        params,
        threads,
        None,
    )?
    .with_delta(None, Some(0));
    let (out, label) = call.run(
        py,
        |s, e| named::bfs(s, e, pg.graph(), src),
        |e| {
            let (g, incoming) = with_in_edges(pg)?;
            algos::bfs::direction::run(g, incoming, src, e)
        },
    )?;
    let level = as_float(&out.level, algos::bfs::UNREACHED).into_pyarray(py);
    let extra = vec![
        ("algo", any(py, call.method.name)?),
        ("stale_tasks", any(py, out.stats.stale_tasks)?),
    ];
    answer(py, level.into_any(), report, &label, &out.report, extra)
}

/// The graph with its transpose (built once and cached) and those in-edges.
fn with_in_edges(pg: &PyGraph) -> Result<(&Graph, InEdges<'_>), ordo_exec::ExecError> {
    let g = pg.with_in_edges();
    Ok((g, InEdges::transpose(g).expect("built with the transpose")))
}

#[pyfunction]
#[pyo3(signature = (graph, source, target, geometry, algo, scheduler, threads, delta, params, report))]
#[allow(clippy::too_many_arguments)]
pub fn astar<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    source: i64,
    target: i64,
    geometry: &str,
    algo: &str,
    scheduler: &str,
    threads: Option<i64>,
    delta: Option<u32>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pg = graph.get();
    let (src, dst) = (pg.node("source", source)?, pg.node("target", target)?);
    let geometry = match geometry {
        "auto" => pg.geometry(),
        "lonlat" => Geometry::LonLat,
        "planar" => Geometry::Planar,
        other => {
            return Err(value_error(format!(
                "geometry '{other}': valid are auto, lonlat, planar"
            )))
        }
    };
    let g = pg.weighted();
    let h = algos::astar::Heuristic::new(g, dst, geometry).ok_or_else(|| {
        value_error(
            "A* needs node coordinates: Graph.from_file(..., coordinates=PATH) or \
             Graph.with_coordinates(xy)",
        )
    })?;
    let default_delta = algos::sssp::default_delta(g);
    let call = MethodCall::choose(
        &algos::astar::app::VARIANTS,
        algo,
        scheduler,
        params,
        threads,
        None,
    )?
    .with_delta(delta, Some(default_delta));
    let shift = delta.unwrap_or(default_delta);
    let (out, label) = call.run(
        py,
        |s, e| named::astar(s, e, g, src, dst, &h),
        |e| algos::astar::run_buckets(g, src, dst, &h, shift, e),
    )?;
    let dist = if out.dist == algos::sssp::UNREACHABLE {
        f64::INFINITY
    } else {
        out.dist as f64
    };
    let s = out.stats;
    let extra = vec![
        ("algo", any(py, call.method.name)?),
        ("expanded", any(py, s.expanded)?),
        ("pruned", any(py, s.pruned)?),
        ("stale_tasks", any(py, s.stale_tasks)?),
        ("scale", any(py, h.scale)?),
    ];
    answer(py, any(py, dist)?, report, &label, &out.report, extra)
}

#[pyfunction]
#[pyo3(signature = (graph, tolerance, algo, priority, scheduler, threads, params, report))]
#[allow(clippy::too_many_arguments)]
pub fn pagerank<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    tolerance: f64,
    algo: &str,
    priority: Option<&str>,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if !(tolerance > 0.0 && tolerance < 1.0) {
        return Err(value_error(format!("tol={tolerance}: must be in (0, 1)")));
    }
    let kind = match priority {
        None | Some("pr") => PriorityKind::Pr,
        Some("prd") => PriorityKind::PrD,
        Some(other) => {
            return Err(value_error(format!(
                "priority '{other}': valid are pr, prd"
            )))
        }
    };
    let pg = graph.get();
    if pg.graph().num_nodes() == 0 {
        return Err(value_error("PageRank of a graph with no nodes"));
    }
    let asked = priority.map(|p| format!("priority='{p}'"));
    let call = MethodCall::choose(
        &algos::pagerank::app::VARIANTS,
        algo,
        scheduler,
        params,
        threads,
        asked.as_deref(),
    )?;
    let method = call.method;
    let (out, label) = call.run(
        py,
        |s, e| named::pagerank(s, e, pg.graph(), tolerance, kind).map(Scores::Pushed),
        |e| {
            let (g, incoming) = with_in_edges(pg)?;
            let sweep = Sweep::of_method(method.name);
            pull::run(g, incoming, tolerance, sweep, e).map(Scores::Pulled)
        },
    )?;
    let mut extra = vec![
        ("algo", any(py, call.method.name)?),
        ("error_bound", any(py, out.error_bound())?),
    ];
    match &out {
        Scores::Pushed(o) => extra.extend([
            ("stopping_rule", any(py, "residual")?),
            ("leftover_residual", any(py, o.leftover)?),
            ("empty_takes", any(py, o.empty_takes)?),
        ]),
        Scores::Pulled(o) => extra.extend([
            ("stopping_rule", any(py, "l1-change")?),
            ("iterations", any(py, o.iterations)?),
            ("last_change", any(py, o.last_change)?),
        ]),
    }
    let (scores, run) = match out {
        Scores::Pushed(o) => (o.score, o.report),
        Scores::Pulled(o) => (o.score, o.report),
    };
    answer(
        py,
        scores.into_pyarray(py).into_any(),
        report,
        &label,
        &run,
        extra,
    )
}

#[pyfunction]
#[pyo3(signature = (graph, algo, scheduler, threads, params, report))]
pub fn cc<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    algo: &str,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let g = undirected_view(py, graph)?;
    let call = MethodCall::choose(
        &algos::cc::app::VARIANTS,
        algo,
        scheduler,
        params,
        threads,
        None,
    )?
    .with_delta(None, Some(algos::cc::default_delta(g)));
    let (out, label) = call.run(
        py,
        |s, e| named::cc(s, e, g),
        |e| algos::cc::afforest::run(g, e),
    )?;
    let values: Vec<i64> = out.label.iter().map(|&x| x as i64).collect();
    let extra = vec![
        ("algo", any(py, call.method.name)?),
        ("components", any(py, algos::cc::count(&out.label))?),
        ("stale_tasks", any(py, out.stats.stale_tasks)?),
        ("relabels", any(py, out.stats.relabels)?),
    ];
    answer(
        py,
        values.into_pyarray(py).into_any(),
        report,
        &label,
        &out.report,
        extra,
    )
}

#[pyfunction]
#[pyo3(signature = (graph, algo, scheduler, threads, params, report))]
pub fn kcore<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    algo: &str,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let g = undirected_view(py, graph)?;
    let call = MethodCall::choose(
        &algos::kcore::app::VARIANTS,
        algo,
        scheduler,
        params,
        threads,
        None,
    )?
    .with_delta(None, Some(algos::kcore::default_delta(g)));
    let (out, label) = call.run(
        py,
        |s, e| named::kcore(s, e, g),
        |e| algos::kcore::peel::run(g, e),
    )?;
    let values: Vec<i64> = out.core.iter().map(|&x| x as i64).collect();
    let extra = vec![
        ("algo", any(py, call.method.name)?),
        ("lowered", any(py, out.stats.lowered)?),
        ("unchanged", any(py, out.stats.unchanged)?),
    ];
    answer(
        py,
        values.into_pyarray(py).into_any(),
        report,
        &label,
        &out.report,
        extra,
    )
}

#[pyfunction]
#[pyo3(signature = (graph, algo, scheduler, threads, params, report))]
pub fn mst<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    algo: &str,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let g = undirected_view(py, graph)?;
    // Priority = component degree, one bucket each.
    let call = MethodCall::choose(
        &algos::mst::app::VARIANTS,
        algo,
        scheduler,
        params,
        threads,
        None,
    )?
    .with_delta(None, Some(0));
    let (out, label) = call.run(
        py,
        |s, e| named::mst(s, e, g),
        |e| algos::mst::boruvka::run(g, e),
    )?;
    let column = |f: fn(&ordo_algos::mst::Edge) -> u32| -> Vec<i64> {
        out.edges.iter().map(|e| f(e) as i64).collect()
    };
    let edges = (
        column(|e| e.a).into_pyarray(py),
        column(|e| e.b).into_pyarray(py),
        column(|e| e.weight).into_pyarray(py),
    );
    let extra = vec![
        ("algo", any(py, call.method.name)?),
        ("weight", any(py, out.weight)?),
        ("merges", any(py, out.merges)?),
        ("stale_tasks", any(py, out.stale_tasks)?),
    ];
    answer(py, any(py, edges)?, report, &label, &out.report, extra)
}

#[pyfunction]
#[pyo3(signature = (graph, scheduler, threads, params, report))]
pub fn tc<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let g = undirected_view(py, graph)?;
    let rc = run_config(scheduler, params, None, None, threads)?;
    let out = rc.run(py, |s, e| named::tc(s, e, g))?;
    let extra = vec![("intersections", any(py, out.intersections)?)];
    answer(
        py,
        any(py, out.triangles)?,
        report,
        &rc.sched.label(),
        &out.report,
        extra,
    )
}

#[pyfunction]
#[pyo3(signature = (graph, sources, k, seed, layout, queues, task, threads, report))]
#[allow(clippy::too_many_arguments)]
pub fn bc<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    sources: Option<Vec<i64>>,
    k: Option<usize>,
    seed: u64,
    layout: &str,
    queues: &str,
    task: usize,
    threads: Option<i64>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pg = graph.get();
    let g = pg.graph();
    let n = g.num_nodes();
    let sources: Vec<u32> = match (sources, k) {
        (Some(list), _) => list
            .into_iter()
            .map(|s| pg.node("source", s))
            .collect::<PyResult<_>>()?,
        (None, Some(k)) => algos::bc::sample_sources(n, k, seed),
        (None, None) => (0..n as u32).collect(),
    };
    if task == 0 {
        return Err(value_error("task=0: a task holds at least one vertex"));
    }
    let config = BcConfig {
        queues: queues.parse::<Queues>().map_err(value_error)?,
        layout: Layout::choose(layout, sources.len()).map_err(value_error)?,
        task,
        working_set: false,
    };
    let exec = exec_config(threads, None)?;
    let out = interruptible(py, exec.cancel.as_ref(), || {
        algos::bc::run(g, &sources, &config, &exec)
    })?
    .map_err(exec_error)?;
    let total = &out.report.total;
    let extra = vec![
        ("sources", any(py, sources.len())?),
        ("layout", any(py, config.layout.name())?),
        ("queues", any(py, config.queues.name())?),
        ("reached", any(py, out.reached)?),
        ("levels", any(py, total.app[algos::bc::LEVELS])?),
        ("chunks", any(py, total.pops)?),
        (
            "foreign_chunks",
            any(py, total.app[algos::bc::FOREIGN_CHUNKS])?,
        ),
        ("adl_s", any(py, out.adl.map(|c| c.seconds))?),
    ];
    let label = format!("bc-{}", config.queues.name());
    let scores = out.scores.into_pyarray(py);
    answer(py, scores.into_any(), report, &label, &out.report, extra)
}

#[pyfunction]
#[pyo3(signature = (graph, source, sink, scheduler, threads, params, report))]
#[allow(clippy::too_many_arguments)]
pub fn max_flow<'py>(
    py: Python<'py>,
    graph: &Bound<'py, PyGraph>,
    source: i64,
    sink: i64,
    scheduler: &str,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    report: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pg = graph.get();
    let (s, t) = (pg.node("source", source)?, pg.node("sink", sink)?);
    let g = pg.weighted();
    let rc = run_config(
        scheduler,
        params,
        None,
        Some(pfp::default_delta(g)),
        threads,
    )?;
    let out = interruptible(py, rc.exec.cancel.as_ref(), || {
        pfp::run(g, s, t, &rc.sched, &rc.exec)
    })?
    .map_err(|e| match e {
        PfpError::Exec(e) => exec_error(e),
        other => value_error(other),
    })?;
    let st = out.stats;
    let extra = vec![
        ("pushes", any(py, st.pushes)?),
        ("relabels", any(py, st.relabels)?),
        ("global_relabels", any(py, st.global_relabels)?),
        ("phase1_s", any(py, st.phase1_s)?),
    ];
    let side = numpy::PyArray1::from_slice(py, &out.source_side);
    let result = any(py, (out.flow, side))?;
    answer(py, result, report, &rc.sched.label(), &out.report, extra)
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

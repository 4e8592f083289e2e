//! Running an application from Python: the scheduler and executor configuration from keyword
//! arguments, the run itself on a worker thread with the GIL released (so Ctrl-C and other
//! Python threads stay live), and the run report as a dict.

use crate::errors::{named_error, value_error};
use ordo_algos::named::NamedRunError;
use ordo_algos::variants::{Variant, Variants};
use ordo_exec::{default_threads, panic_message, ExecConfig, RunReport, MAX_THREADS};
use ordo_sched::{SchedulerConfig, Topology};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How often a waiting call looks for a pending signal (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A run's scheduler and executor.
pub struct RunConfig {
    pub sched: SchedulerConfig,
    pub exec: ExecConfig,
}

impl RunConfig {
    /// Runs `app` (one of `ordo_algos::named`'s functions with its inputs bound) through
    /// [`interruptible`], turning its errors into Python exceptions.
    pub fn run<O: Send>(
        &self,
        py: Python<'_>,
        app: impl FnOnce(&SchedulerConfig, &ExecConfig) -> Result<O, NamedRunError> + Send,
    ) -> PyResult<O> {
        interruptible(py, self.exec.cancel.as_ref(), || {
            app(&self.sched, &self.exec)
        })?
        .map_err(named_error)
    }
}

/// The scheduler `name` with `params` (values as their `str()`), and `delta` when given, else
/// the application's `default_delta` when the scheduler takes one.
pub fn run_config(
    name: &str,
    params: Option<&Bound<'_, PyDict>>,
    delta: Option<u32>,
    default_delta: Option<u32>,
    threads: Option<i64>,
) -> PyResult<RunConfig> {
    let mut pairs = Vec::new();
    if let Some(params) = params {
        for (k, v) in params.iter() {
            pairs.push((k.str()?.to_string(), v.str()?.to_string()));
        }
    }
    let mut sched = SchedulerConfig::parse(name, &pairs).map_err(value_error)?;
    match (delta, default_delta) {
        (Some(d), _) => {
            if !sched.has_param("delta") {
                return Err(value_error(format!(
                    "scheduler '{name}' has no delta parameter; see ordo.schedulers()"
                )));
            }
            sched.set("delta", &d.to_string()).map_err(value_error)?;
        }
        (None, Some(d)) => sched.hint_delta(d, &pairs).map_err(value_error)?,
        (None, None) => {}
    }
    let exec = exec_config(threads, sched.max_workers())?;
    Ok(RunConfig { sched, exec })
}

/// Every core by default (at most `max_workers`), else `threads`, which may exceed the cores.
pub fn exec_config(threads: Option<i64>, max_workers: Option<usize>) -> PyResult<ExecConfig> {
    let threads = match threads {
        Some(t) if !(1..=MAX_THREADS as i64).contains(&t) => {
            return Err(value_error(format!(
                "threads={t}: must be in 1..={MAX_THREADS}"
            )))
        }
        Some(t) => t as usize,
        None => default_threads(max_workers),
    };
    Ok(ExecConfig {
        cancel: Some(Arc::new(AtomicBool::new(false))),
        ..ExecConfig::with_topology(threads, topology().clone())
    })
}

/// The machine's topology, read from sysfs once per process (reading it costs more than a
/// small run).
fn topology() -> &'static Topology {
    static TOPOLOGY: OnceLock<Topology> = OnceLock::new();
    TOPOLOGY.get_or_init(Topology::detect)
}

/// Runs `work` on a worker thread while this thread, without the GIL, waits for it and checks
/// for signals every [`SIGNAL_POLL`]. On a signal (Ctrl-C raises `KeyboardInterrupt`), sets
/// `cancel`, waits for the run to stop, and returns the signal's exception; the executor polls
/// `cancel` between tasks, so that takes milliseconds. A panic becomes `RuntimeError`.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: Option<&Arc<AtomicBool>>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (done_tx, done_rx) = channel::<()>();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let out = catch_unwind(AssertUnwindSafe(work));
            // The receiver may be gone only if the waiting thread itself unwound.
            let _ = done_tx.send(());
            out
        });
        let mut done_rx = done_rx;
        loop {
            // The receiver is not Sync, so it moves into the GIL-free closure and back.
            let (finished, rx) = py.detach(move || wait(done_rx));
            done_rx = rx;
            if finished {
                break;
            }
            if let Err(signal) = py.check_signals() {
                if let Some(c) = cancel {
                    c.store(true, Relaxed);
                }
                // Whatever the run returns now (cancelled, or finished just in time) gives way
                // to the signal; wait for it without holding the GIL.
                let _ = py.detach(|| worker.join());
                return Err(signal);
            }
        }
        match py.detach(|| worker.join()) {
            Ok(Ok(out)) => Ok(out),
            Ok(Err(panic)) | Err(panic) => Err(PyRuntimeError::new_err(format!(
                "ordo panicked (a bug: please report it): {}",
                panic_message(&*panic)
            ))),
        }
    })
}

/// Waits up to [`SIGNAL_POLL`] for the worker; the receiver is handed back for the next wait.
fn wait(rx: Receiver<()>) -> (bool, Receiver<()>) {
    let finished = !matches!(rx.recv_timeout(SIGNAL_POLL), Err(RecvTimeoutError::Timeout));
    (finished, rx)
}

/// The executor's report of a run as a dict, with `label` as its scheduler and the
/// application's own counters from `extra`.
pub fn report_dict<'py>(
    py: Python<'py>,
    label: &str,
    r: &RunReport,
    extra: &[(&str, Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("time_s", r.time.as_secs_f64())?;
    d.set_item("threads", r.threads)?;
    d.set_item("scheduler", label)?;
    d.set_item("tasks", r.total.tasks)?;
    d.set_item("pushes", r.total.pushes)?;
    d.set_item("pops", r.total.pops)?;
    d.set_item("empty_pops", r.total.empty_pops)?;
    let counters = PyDict::new(py);
    for (k, v) in &r.scheduler.0 {
        counters.set_item(*k, *v)?;
    }
    d.set_item("scheduler_counters", counters)?;
    let per_thread: Vec<u64> = r.per_thread.iter().map(|t| t.tasks).collect();
    d.set_item("tasks_per_thread", per_thread)?;
    for (k, v) in extra {
        d.set_item(*k, v)?;
    }
    Ok(d)
}

/// An application's method as a Python call asked for it (`algo=`, `scheduler=` and its
/// parameters, `threads=`, `delta=`), ready to run.
pub struct MethodCall<'a, 'py> {
    pub method: &'static Variant,
    scheduler: &'a str,
    params: Option<&'a Bound<'py, PyDict>>,
    threads: Option<i64>,
    /// `delta=` as given, for the scheduled version.
    delta: Option<u32>,
    /// The application's bucket width, hinted to the scheduler when `delta=` was not given.
    default_delta: Option<u32>,
}

impl<'a, 'py> MethodCall<'a, 'py> {
    /// The method `algo` of `variants`: `auto` picks the scheduled version when a scheduler,
    /// its parameters or `other` (another scheduled-only argument) were given.
    pub fn choose(
        variants: &Variants,
        algo: &str,
        scheduler: &'a str,
        params: Option<&'a Bound<'py, PyDict>>,
        threads: Option<i64>,
        other: Option<&str>,
    ) -> PyResult<Self> {
        let request = if let Some(other) = other {
            Some(other.to_string())
        } else if scheduler != "auto" {
            Some(format!("scheduler='{scheduler}'"))
        } else if params.is_some_and(|p| !p.is_empty()) {
            Some("scheduler parameters".to_string())
        } else {
            None
        };
        let method = variants
            .resolve(algo, request.as_deref())
            .map_err(value_error)?;
        Ok(MethodCall {
            method,
            scheduler,
            params,
            threads,
            delta: None,
            default_delta: None,
        })
    }

    /// The bucket width: `delta=` as given (`None`: not given) and the application's default.
    pub fn with_delta(self, delta: Option<u32>, default_delta: Option<u32>) -> Self {
        MethodCall {
            delta,
            default_delta,
            ..self
        }
    }

    /// Runs the method and returns its output with the report's scheduler label: `scheduled`
    /// on the named scheduler when it is the priority version, else `frontier` on the
    /// frontier executor.
    pub fn run<O: Send>(
        &self,
        py: Python<'_>,
        scheduled: impl FnOnce(&SchedulerConfig, &ExecConfig) -> Result<O, NamedRunError> + Send,
        frontier: impl FnOnce(&ExecConfig) -> Result<O, ordo_exec::ExecError> + Send,
    ) -> PyResult<(O, String)> {
        if self.method.scheduled {
            let rc = run_config(
                self.scheduler,
                self.params,
                self.delta,
                self.default_delta,
                self.threads,
            )?;
            return Ok((rc.run(py, scheduled)?, rc.sched.label()));
        }
        let exec = exec_config(self.threads, None)?;
        let out = interruptible(py, exec.cancel.as_ref(), || frontier(&exec))?
            .map_err(crate::errors::exec_error)?;
        Ok((out, format!("{} (frontier executor)", self.method.name)))
    }
}

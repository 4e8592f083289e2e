//! Running an application from Python: the scheduler and executor configuration from keyword
//! arguments, the run itself on a worker thread with the GIL released (so Ctrl-C and other
//! Python threads stay live), and the run report as a dict.

use crate::errors::value_error;
use ordo_exec::{panic_message, RunReport, MAX_THREADS};
use ordo_sched::Topology;
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

/// `threads=` checked: `None` (every core, or the scheduler's maximum: `RunRequest` decides),
/// or a count in `1..=MAX_THREADS`, which may exceed the cores.
pub fn threads_arg(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        Some(t) if !(1..=MAX_THREADS as i64).contains(&t) => Err(value_error(format!(
            "threads={t}: must be in 1..={MAX_THREADS}"
        ))),
        t => Ok(t.map(|t| t as usize)),
    }
}

/// The machine's topology, read from sysfs once per process (reading it costs more than a
/// small run).
pub fn topology() -> &'static Topology {
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

/// The executor's report of a run as a dict, with `label` as its scheduler.
pub fn report_dict<'py>(
    py: Python<'py>,
    label: &str,
    r: &RunReport,
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
    Ok(d)
}

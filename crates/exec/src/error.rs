//! Why a run did not complete, and the first panic among a run's workers.

use crate::stats::RunReport;
use std::sync::Mutex;

/// Why a run did not complete.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("the operator panicked on worker {worker}: {message}")]
    OperatorPanicked { worker: usize, message: String },
    #[error("the run was cancelled after {} tasks", .0.total.tasks)]
    Cancelled(Box<RunReport>),
    #[error("{0}")]
    Stuck(String),
    #[error("scheduler built for {scheduler} workers but {requested} threads requested")]
    WorkerMismatch { scheduler: usize, requested: usize },
}

/// The first panic among a run's workers (later ones are consequences and dropped), for
/// runtimes that catch a worker's panic and report it as [`ExecError::OperatorPanicked`].
#[derive(Debug, Default)]
pub struct FirstPanic(Mutex<Option<(usize, String)>>);

impl FirstPanic {
    /// Records `worker`'s panic unless another was recorded first.
    pub fn record(&self, worker: usize, payload: &(dyn std::any::Any + Send)) {
        // A poisoned lock still holds a valid Option: take it.
        let mut first = self.0.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert_with(|| (worker, panic_message(payload)));
    }

    /// `Err(OperatorPanicked)` if a panic was recorded.
    pub fn into_result(self) -> Result<(), ExecError> {
        match self.0.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some((worker, message)) => Err(ExecError::OperatorPanicked { worker, message }),
            None => Ok(()),
        }
    }
}

/// The text of a caught panic's payload (for runtimes that catch a worker's panic and report
/// it, as [`for_each`] does).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

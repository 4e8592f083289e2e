//! Exit codes: 0 success, 1 bad input or failed verification, 2 bad usage, 130 interrupted.

use std::fmt;

pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    pub fn input(message: impl fmt::Display) -> Self {
        CliError {
            code: 1,
            message: message.to_string(),
        }
    }

    /// A run stopped by Ctrl-C, with what it had done: the partial report.
    pub fn interrupted(report: &ordo_exec::RunReport) -> Self {
        let t = &report.total;
        CliError {
            code: crate::interrupt::EXIT_INTERRUPTED,
            message: format!(
                "interrupted after {:.3} s on {} threads: {} tasks run, {} pushed, {} popped, \
                 {} empty pops; the result is incomplete, so nothing was verified or written",
                report.time.as_secs_f64(),
                report.threads,
                t.tasks,
                t.pushes,
                t.pops,
                t.empty_pops
            ),
        }
    }

    /// Ctrl-C between two of `repeat` runs, after `done` of them completed.
    pub fn interrupted_between(done: u32, repeat: u32) -> Self {
        CliError {
            code: crate::interrupt::EXIT_INTERRUPTED,
            message: format!(
                "interrupted after {done} of {repeat} runs (each checked as it ended); nothing was written"
            ),
        }
    }

    pub fn usage(message: impl fmt::Display) -> Self {
        CliError {
            code: 2,
            message: message.to_string(),
        }
    }
}

impl From<ordo_graph::GraphError> for CliError {
    fn from(e: ordo_graph::GraphError) -> Self {
        CliError::input(e)
    }
}

pub type CliResult<T = ()> = Result<T, CliError>;

/// Notes go to stderr, so `--json` output on stdout stays one clean object.
pub fn note(msg: &str) {
    eprintln!("note: {msg}");
}

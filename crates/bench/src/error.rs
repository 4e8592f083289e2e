//! How a bench ends badly, for the front end to report (the `ordo` binary maps these to its
//! exit statuses: 1, 2 and 130).

use std::fmt;

#[derive(Debug)]
pub enum BenchError {
    /// A file could not be read or written, or runs failed.
    Input(String),
    /// The request makes no sense (an unknown preset, no matrix named).
    Usage(String),
    /// Ctrl-C between runs, after `done` of `total` finished.
    Interrupted { done: usize, total: usize },
}

impl BenchError {
    pub fn input(message: impl fmt::Display) -> Self {
        BenchError::Input(message.to_string())
    }

    pub fn usage(message: impl fmt::Display) -> Self {
        BenchError::Usage(message.to_string())
    }
}

pub type BenchResult<T = ()> = Result<T, BenchError>;

/// Notes go to stderr, so what the bench prints on stdout stays clean.
pub fn note(msg: &str) {
    eprintln!("note: {msg}");
}

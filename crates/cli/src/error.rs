//! Exit codes: 0 success, 1 bad input or failed verification, 2 bad usage.

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

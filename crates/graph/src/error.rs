//! The one error type of the graph layer: every input problem names the file, and where it
//! can, the line.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where an input problem was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    /// 1-based line number for text formats; `None` for whole-file or binary problems.
    pub line: Option<u64>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}", self.path.display(), line),
            None => write!(f, "{}", self.path.display()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The content is malformed at a known place.
    #[error("{location}: {message}")]
    Parse { location: Location, message: String },
    /// A request that makes no sense for this graph (bad option, bad id).
    #[error("{0}")]
    Invalid(String),
}

impl GraphError {
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        GraphError::Io {
            path: path.display().to_string(),
            source,
        }
    }

    pub fn at_line(path: &Path, line: u64, message: impl Into<String>) -> Self {
        GraphError::Parse {
            location: Location {
                path: path.to_path_buf(),
                line: Some(line),
            },
            message: message.into(),
        }
    }

    pub fn in_file(path: &Path, message: impl Into<String>) -> Self {
        GraphError::Parse {
            location: Location {
                path: path.to_path_buf(),
                line: None,
            },
            message: message.into(),
        }
    }

    /// The 1-based line of a parse error, if it has one.
    pub fn line(&self) -> Option<u64> {
        match self {
            GraphError::Parse { location, .. } => location.line,
            _ => None,
        }
    }
}

pub type Result<T, E = GraphError> = std::result::Result<T, E>;

//! BFS levels: [`super::sssp::Paths`] with unit weights (priority = level).

pub use super::sssp::{PathTask as BfsTask, Paths};

use crate::graph::LocalGraph;

pub fn new(g: &LocalGraph) -> Paths<'_> {
    Paths::new(g, true)
}

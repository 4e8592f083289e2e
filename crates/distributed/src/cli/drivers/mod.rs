//! One driver per application: build it on the local graph, run it, sum its figures over the
//! ranks, and check it against ordo's serial oracle on rank 0.

mod components;
mod pagerank;
mod paths;
mod triangles;

pub use components::components;
pub use pagerank::pagerank;
pub use paths::paths;
pub use triangles::triangles;

//! ordo-algos: graph applications written once against the scheduler contract. Each module
//! has the same shape: what it computes and its references, the parallel operator over
//! [`ordo_exec::for_each`], a simple serial oracle, and a verifier. Seven also have the fastest
//! known method on the frontier executor ([`ordo_exec::run_team`]) in a submodule, which the
//! front ends run by default ([`variants`]).
//!
//! * [`sssp`], [`bfs`], [`astar`]: paths, prioritized by distance (plus an estimate for A*);
//!   [`sssp::delta_step`]: delta-stepping (and [`astar::run_buckets`], A* on it);
//!   [`bfs::direction`]: direction-optimizing BFS.
//! * [`cc`]: connected components, prioritized by label; [`cc::afforest`].
//! * [`kcore`]: core numbers by peeling, prioritized by the current degree estimate;
//!   [`kcore::peel`]: bucketed peeling by levels.
//! * [`mst`]: minimum spanning forest by Boruvka with merging, prioritized by degree;
//!   [`mst::boruvka`]: parallel Boruvka rounds with light-edge filtering.
//! * [`pagerank`]: residual-pushing PageRank, prioritized by residual (PR and PR-D);
//!   [`pagerank::pull`]: pull iteration with an L1-change stopping rule.
//! * [`tc`]: triangle counting (no order dependence; heaviest nodes first).
//! * [`bc`]: betweenness centrality on sampled sources, level-synchronous, with seed 001's
//!   adaptive data layout and NUMA-aware work queues (its own queues, not a priority scheduler).
//! * [`pfp`]: maximum flow by preflow-push, highest label first.
//! * [`distance`]: distance labels in 32 or 64 bits (SSSP).
//! * [`delta`]: the bucket width SSSP and A* pick from the graph.
//! * [`in_edges`]: a graph's in-edges (its transpose, or itself when symmetric).
//! * [`named`]: the priority-scheduled applications on a scheduler chosen by name at run time.
//! * [`variants`]: the methods (`--algo`) each application offers and how `auto` picks one.

pub mod astar;
pub mod bc;
pub mod bfs;
pub mod cc;
pub mod delta;
pub mod distance;
pub mod in_edges;
pub mod kcore;
pub mod mst;
pub mod named;
pub mod pagerank;
mod parents;
pub mod pfp;
pub mod sssp;
pub mod tc;
#[cfg(test)]
mod test_graphs;
pub mod variants;
mod verify;

pub use verify::{compare, VerifyError};

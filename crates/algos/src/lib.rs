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
//!   [`pagerank::pull`]: pull iteration with an L1-change stopping rule or a fixed count.
//! * [`tc`]: triangle counting (no order dependence; heaviest nodes first).
//! * [`bc`]: betweenness centrality on sampled sources, level-synchronous, with the adaptive
//!   data layout and NUMA-aware work queues of the NUMA-aware BC paper (Frasca et al., SC'12;
//!   its own queues, not a priority scheduler).
//! * [`pfp`]: maximum flow by preflow-push, highest label first.
//! * [`distance`]: distance labels in 32 or 64 bits (SSSP).
//! * [`delta`]: the bucket width SSSP and A* pick from the graph.
//! * [`in_edges`]: a graph's in-edges (its transpose, or itself when symmetric).
//! * [`app`]: the [`app::App`] trait every application implements, and the registry
//!   ([`APPS`], [`visit`]) the command line, `ordo simulate` and Python read.
//! * [`named`]: the priority-scheduled applications on a scheduler chosen by name at run time.
//! * [`variants`]: the methods (`--algo`) an application offers and how `auto` picks one.

pub mod app;
pub mod astar;
pub mod bc;
pub mod bfs;
pub mod cc;
pub mod delta;
pub mod distance;
pub mod in_edges;
pub mod kcore;
pub mod mst;
pub mod pagerank;
pub mod pfp;
mod prefetch;
pub mod sssp;
pub mod tc;
#[cfg(test)]
mod test_graphs;
pub mod union_find;
pub mod variants;
mod verify;

pub use verify::{compare, VerifyError};

/// Registers the applications: [`APPS`], [`visit`] and [`named`] list them in this order.
macro_rules! registry {
    ($($module:ident::app::$app:ident),* $(,)?) => {
        /// Every application's declaration, in the order front ends list them.
        pub const APPS: &[&app::AppSpec] = &[$(&<$module::app::$app as app::App>::SPEC),*];

        /// Calls `visitor` with the application named `name`, if there is one.
        pub fn visit<V: app::AppVisitor>(name: &str, visitor: V) -> Option<V::Output> {
            $(
                if name == <$module::app::$app as app::App>::SPEC.name {
                    return Some(visitor.visit::<$module::app::$app>());
                }
            )*
            None
        }
    };
}

registry!(
    sssp::app::Sssp,
    bfs::app::Bfs,
    astar::app::Astar,
    pagerank::app::Pagerank,
    cc::app::Cc,
    kcore::app::Kcore,
    mst::app::Mst,
    tc::app::Tc,
    bc::app::Bc,
    pfp::app::Pfp,
);

/// Every priority-scheduled application on a scheduler chosen by name at run time.
///
/// The applications are generic over [`ordo_sched::Scheduler`], so each run is monomorphized
/// for its scheduler; front ends hold a [`ordo_sched::SchedulerConfig`] parsed from user input
/// instead. These functions bridge the two through a [`ordo_sched::SchedulerVisitor`]: one
/// call builds the named scheduler for `cfg.threads` workers and runs the application on it.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_sched::SchedulerConfig;
/// let g = gen::road_grid(8, 8, 1, &BuildOptions::default()).unwrap();
/// let sched = SchedulerConfig::parse("smq", &[]).unwrap();
/// let out = ordo_algos::named::bfs(&sched, &ExecConfig::new(2), &g, 0).unwrap();
/// assert_eq!(out.level, ordo_algos::bfs::serial_bfs(&g, 0));
/// ```
pub mod named {
    pub use crate::app::NamedRunError;
    pub use crate::astar::app::by_name as astar;
    pub use crate::bfs::app::by_name as bfs;
    pub use crate::cc::app::by_name as cc;
    pub use crate::kcore::app::by_name as kcore;
    pub use crate::mst::app::by_name as mst;
    pub use crate::pagerank::app::by_name as pagerank;
    pub use crate::sssp::app::by_name as sssp;
    pub use crate::tc::app::by_name as tc;
}

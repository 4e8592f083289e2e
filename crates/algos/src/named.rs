//! Every priority-scheduled application on a scheduler chosen by name at run time.
//!
//! The applications are generic over [`Scheduler`], so each run is monomorphized for its
//! scheduler; front ends (the CLI, the Python package) hold a [`SchedulerConfig`] parsed from
//! user input instead. The functions here bridge the two through a [`SchedulerVisitor`]: one
//! call builds the named scheduler for `cfg.threads` workers and runs the application on it.
//!
//! ```
//! use ordo_graph::{gen, BuildOptions};
//! use ordo_exec::ExecConfig;
//! use ordo_sched::SchedulerConfig;
//! let g = gen::road_grid(8, 8, 1, &BuildOptions::default()).unwrap();
//! let sched = SchedulerConfig::parse("smq", &[]).unwrap();
//! let out = ordo_algos::named::bfs(&sched, &ExecConfig::new(2), &g, 0).unwrap();
//! assert_eq!(out.level, ordo_algos::bfs::serial_bfs(&g, 0));
//! ```

use crate::{astar, bfs, cc, kcore, mst, pagerank, sssp, tc};
use ordo_exec::{ExecConfig, ExecError};
use ordo_graph::Graph;
use ordo_sched::{ConfigError, Scheduler, SchedulerConfig, SchedulerVisitor};

/// Why a run by name did not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum NamedRunError {
    /// The scheduler cannot be built as configured (e.g. `serial` on two threads).
    #[error(transparent)]
    Scheduler(#[from] ConfigError),
    /// The run itself failed or was cancelled.
    #[error(transparent)]
    Exec(#[from] ExecError),
}

/// Declares `pub fn $name(sched, cfg, inputs...)` running one application through a private
/// visitor that borrows the inputs.
macro_rules! by_name {
    ($(#[$doc:meta])* $name:ident<$task:ty> -> $out:ty { $($field:ident: $ty:ty),* }
        |$me:ident, $s:ident, $cfg:ident| $run:expr) => {
        $(#[$doc])*
        pub fn $name<'a>(
            sched: &SchedulerConfig,
            cfg: &'a ExecConfig,
            $($field: $ty),*
        ) -> Result<$out, NamedRunError> {
            struct Visit<'a> {
                $($field: $ty,)*
                cfg: &'a ExecConfig,
            }
            impl SchedulerVisitor<$task> for Visit<'_> {
                type Output = Result<$out, ExecError>;
                fn visit<S: Scheduler<$task>>(self, $s: &S) -> Self::Output {
                    let $me = self;
                    let $cfg = $me.cfg;
                    $run
                }
            }
            let visit = Visit { $($field,)* cfg };
            Ok(sched.with(cfg.threads, &cfg.topology, visit)??)
        }
    };
}

by_name!(
    /// [`sssp::run`] from `src`.
    sssp<sssp::SsspTask> -> sssp::SsspOutput { g: &'a Graph, src: u32 }
    |me, s, cfg| sssp::run(me.g, me.src, s, cfg));
by_name!(
    /// [`bfs::run`] from `src`.
    bfs<bfs::BfsTask> -> bfs::BfsOutput { g: &'a Graph, src: u32 }
    |me, s, cfg| bfs::run(me.g, me.src, s, cfg));
by_name!(
    /// [`astar::run`] from `src` to `dst` guided by `h`.
    astar<sssp::SsspTask> -> astar::AstarOutput {
        g: &'a Graph, src: u32, dst: u32, h: &'a astar::Heuristic
    }
    |me, s, cfg| astar::run(me.g, me.src, me.dst, me.h, s, cfg));
by_name!(
    /// [`cc::run`] on an undirected graph.
    cc<cc::CcTask> -> cc::CcOutput { g: &'a Graph }
    |me, s, cfg| cc::run(me.g, s, cfg));
by_name!(
    /// [`kcore::run`] on an undirected graph.
    kcore<kcore::KcoreTask> -> kcore::KcoreOutput { g: &'a Graph }
    |me, s, cfg| kcore::run(me.g, s, cfg));
by_name!(
    /// [`pagerank::run`] to `tolerance` with residual priorities of `kind`.
    pagerank<pagerank::PrTask> -> pagerank::PrOutput {
        g: &'a Graph, tolerance: f64, kind: pagerank::PriorityKind
    }
    |me, s, cfg| pagerank::run(me.g, me.tolerance, me.kind, s, cfg));
by_name!(
    /// [`mst::run`] on an undirected weighted graph.
    mst<mst::MstTask> -> mst::MstOutput { g: &'a Graph }
    |me, s, cfg| mst::run(me.g, s, cfg));
by_name!(
    /// [`tc::run`] on an undirected simple graph.
    tc<tc::TcTask> -> tc::TcOutput { g: &'a Graph }
    |me, s, cfg| tc::run(me.g, s, cfg));

//! ordo-sched: the concurrent priority schedulers of ordo, generic over the task type and
//! independent of graphs.
//!
//! Which one to pick:
//! * `auto` (the default): obim with the application's delta estimate, or PMOD when the
//!   application has none (see `auto.rs` for the measurements behind this).
//! * `obim`: many tasks per priority level or a shift `delta` that makes it so (SSSP on roads
//!   with delta 10-14, BFS). The scheduler of the obim paper (Lenharth et al., Euro-Par'15).
//! * `pmod`: obim that tunes its own priority merging (the PMOD paper, Yesil et al., SC'19).
//! * `smq`: the Stealing Multi-Queue (the SMQ paper, Postnikova et al., PPoPP'22), per-thread
//!   heaps: close to exact order (work increase ~1.01 on road SSSP) at low overhead.
//! * `mq`, `reld`, `spraylist`, `heap`, `sheap`, `pheap`: the MultiQueue, RELD, the SprayList
//!   and the heap baselines the papers compare against.
//! * `serial`: one thread, exact priority order; the reference and the COST baseline.
//! * `fifo` / `lifo`: priorities do not matter (or to measure how much they do).
//!
//! ```
//! use ordo_sched::{Handle, Scheduler, SchedulerConfig, Topology, obim::{Obim, ObimConfig}};
//! let obim: Obim<u32> = Obim::new(&ObimConfig::default(), 1, &Topology::synthetic(1, 1));
//! let mut h = obim.handle(0);
//! h.push(7, 30);
//! h.push(8, 10);
//! assert_eq!(h.pop(), Some(8));
//! assert_eq!(h.pop(), Some(7));
//! assert_eq!(h.pop(), None);
//! ```

pub mod auto;
pub mod bag;
pub mod chunk;
pub mod chunk_list;
mod contract;
pub mod dary_heap;
pub mod heap;
pub mod locked_heap;
pub mod mq;
pub mod obim;
mod params;
mod per_worker;
pub mod pheap;
pub mod pmod;
pub mod random;
mod registry;
pub mod reld;
pub mod serial;
pub mod sheap;
pub mod smq;
pub mod spraylist;
mod sync;
pub mod topology;
pub mod unordered;

pub use contract::{CounterSink, Counters, Event, Handle, HandleClaims, Scheduler, Task};
pub use params::{Config, ConfigError, ParamInfo};
pub use registry::{
    catalogue, names, parse_param, SchedulerConfig, SchedulerInfo, SchedulerVisitor,
};
pub use topology::{Topology, WorkerLayout};

//! ordo-dist: ordo on MPI. The graph is partitioned over the ranks (contiguous node ranges
//! balanced by edges, or hashed); each rank runs ordo's shared-memory executor with any
//! scheduler on its own nodes; a task for a remote node becomes a record in an aggregated,
//! reservation-free active message with credit-based back-pressure (or, in the baseline
//! `--tasking static`, after GMT's reservation of a slot at the receiver); a counting-wave
//! protocol detects global termination. See `docs/distributed.md`.

pub mod apps;
pub mod bsp;
pub mod combine;
pub mod comm;
pub mod graph;
pub mod load;
pub mod mail;
pub mod net;
pub mod partition;
pub mod runtime;
pub mod slots;
pub mod wire;

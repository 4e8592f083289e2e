//! ordo-algos: graph applications written once against the scheduler contract. Each module
//! has the same shape: what it computes and its references, the parallel operator over
//! [`ordo_exec::for_each`], a simple serial oracle, and a verifier.

pub mod bfs;
pub mod sssp;
mod verify;

pub use verify::{compare, VerifyError};

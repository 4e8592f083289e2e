//! One module per file format.

pub mod binary;
pub mod coords;
pub mod dimacs;
pub mod edgelist;
pub mod metis;
pub mod mtx;

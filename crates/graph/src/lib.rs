//! ordo-graph: compressed-sparse-row graphs, their file formats and generators.
//!
//! Node ids are `u32` and 0-based inside; [`Graph::file_id`] and [`Graph::node_from_file_id`]
//! translate to the numbering of the input file (1-based for DIMACS, METIS and Matrix Market,
//! as written for edge lists). Every reader reports malformed input with the file and line and
//! never allocates more than the input's real size can justify.
//!
//! ```
//! use ordo_graph::{gen, BuildOptions};
//! let g = gen::road_grid(10, 10, 7, &BuildOptions::default()).unwrap();
//! assert_eq!(g.num_nodes(), 100);
//! assert!(g.out_edges(0).all(|(_, w)| w >= 1));
//! ```

mod buf;
mod builder;
mod csr;
mod error;
#[cfg(feature = "clap")]
mod flags;
pub mod formats;
pub mod gen;
mod input;
mod load;
mod permute;
mod symmetry;
pub use symmetry::{
    endpoint_sums, lists_sorted_simple, part_fingerprint, parts_are_symmetric, ReversePoint,
};
mod text;
mod undirected;
pub use undirected::undirected_adjacency;
mod weights;
mod write;

pub use buf::Buf;
pub use builder::{BuildOptions, EdgeList};
pub use csr::{Coords, Graph, IdBase, Transpose};
pub use error::{GraphError, Location, Result};
#[cfg(feature = "clap")]
pub use flags::InputFlags;
pub use input::{node_limit, read_input, Format, Progress};
pub use load::{
    load_coords, load_graph, load_graph_from_bytes, prep_threads, undirected_simple, LoadOptions,
    Loaded,
};
pub use weights::{mix64, WeightSpec};
pub use write::write_graph;

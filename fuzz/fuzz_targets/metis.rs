#![no_main]
//! METIS / DIMACS10 adjacency files (`fmt` 0, 1, 10, 11, 100 ...).

use libfuzzer_sys::fuzz_target;
use ordo_graph::Format;

#[global_allocator]
static HEAP: ordo_fuzz::Tracking = ordo_fuzz::Tracking;

fuzz_target!(|data: &[u8]| ordo_fuzz::fuzz_text(data, Format::Metis));

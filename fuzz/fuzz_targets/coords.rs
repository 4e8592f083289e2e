#![no_main]
//! Coordinate files (DIMACS `.co`, DIMACS10 `.xyz`) for a graph whose node count is the
//! input's first three bytes (little-endian); the rest is the file.

use libfuzzer_sys::fuzz_target;
use ordo_graph::formats::coords;
use std::path::Path;

#[global_allocator]
static HEAP: ordo_fuzz::Tracking = ordo_fuzz::Tracking;

fuzz_target!(|data: &[u8]| {
    let Some((n, text)) = data.split_first_chunk::<3>() else {
        return;
    };
    let num_nodes = u32::from_le_bytes([n[0], n[1], n[2], 0]) as usize;
    if let Some(xy) = ordo_fuzz::check(text.len(), || {
        coords::read(Path::new("fuzz-input.co"), text, num_nodes)
    }) {
        assert_eq!(xy.len(), 2 * num_nodes);
        assert!(xy.iter().all(|c| c.is_finite()));
    }
});

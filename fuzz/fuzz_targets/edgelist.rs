#![no_main]
//! Plain edge lists: `u v` (`.el`) or `u v w` (`.wel`), picked by the input's parity.

use libfuzzer_sys::fuzz_target;
use ordo_graph::Format;

#[global_allocator]
static HEAP: ordo_fuzz::Tracking = ordo_fuzz::Tracking;

fuzz_target!(|data: &[u8]| {
    let format = match data.first().map(|b| b & 1) {
        Some(1) => Format::WeightedEdgeList,
        _ => Format::EdgeList,
    };
    ordo_fuzz::fuzz_text(data, format)
});

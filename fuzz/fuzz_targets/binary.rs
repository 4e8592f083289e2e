#![no_main]
//! ordo's binary CSR format: header, sizes, checksum and CSR invariants must all be checked
//! before any section is used.

use libfuzzer_sys::fuzz_target;
use ordo_graph::formats::binary;
use std::path::Path;

#[global_allocator]
static HEAP: ordo_fuzz::Tracking = ordo_fuzz::Tracking;

fuzz_target!(|data: &[u8]| {
    if let Some(g) = ordo_fuzz::check(data.len(), || {
        binary::from_bytes(Path::new("fuzz-input.ordo"), data.to_vec())
    }) {
        ordo_fuzz::assert_valid(&g);
    }
});

#![no_main]
//! Gzip input, decompressed and then parsed as whatever format its content looks like
//! (the format sniffing an unnamed file gets). The heap bound uses the decompressed size.

use libfuzzer_sys::fuzz_target;
use ordo_graph::{load_graph_from_bytes, LoadOptions};
use std::io::Read;
use std::path::Path;

#[global_allocator]
static HEAP: ordo_fuzz::Tracking = ordo_fuzz::Tracking;

fuzz_target!(|data: &[u8]| {
    // The decompressed size, as far as it decodes (gzip cannot expand more than ~1032x).
    let mut text = Vec::new();
    let _ = flate2::read::MultiGzDecoder::new(data).read_to_end(&mut text);
    let text_bytes = text.len().max(data.len());
    drop(text);
    if let Some(loaded) = ordo_fuzz::check(text_bytes, || {
        load_graph_from_bytes(
            Path::new("fuzz-input"),
            data.to_vec(),
            &LoadOptions::default(),
        )
    }) {
        ordo_fuzz::assert_valid(&loaded.graph);
    }
});

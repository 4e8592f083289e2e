#![no_main]
//! DIMACS `.gr` (`p sp N M`, `a u v w`).

use libfuzzer_sys::fuzz_target;
use ordo_graph::Format;

#[global_allocator]
static HEAP: ordo_fuzz::Tracking = ordo_fuzz::Tracking;

fuzz_target!(|data: &[u8]| ordo_fuzz::fuzz_text(data, Format::Dimacs));

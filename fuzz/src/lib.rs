//! What every ordo fuzz target checks besides "no panic": the reader's peak heap use stays
//! within a bound linear in the input's real size, and an accepted graph is a valid CSR.
//!
//! The bound is `64 x text bytes + 32 x node_limit(text bytes) + 1 MiB`: text, edge list and
//! CSR arrays are each a small multiple of the bytes that describe them, and a header may claim
//! up to `ordo_graph::node_limit` nodes (isolated nodes cost no bytes in most formats). Any
//! allocation sized by a header's claim instead of the data would exceed it.

use ordo_graph::{load_graph_from_bytes, node_limit, BuildOptions, Format, Graph, LoadOptions};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting live and peak bytes.
pub struct Tracking;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments and only adds counting.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        p
    }
}

/// The most heap a reader may use above its baseline for `text_bytes` of (decompressed) input.
pub fn heap_bound(text_bytes: usize) -> usize {
    64 * text_bytes + 32 * node_limit(text_bytes) as usize + (1 << 20)
}

/// Runs `read` and asserts the heap bound for `text_bytes` of input; returns what it read.
/// Errors are fine (most fuzz inputs are malformed) but must say something; panics are bugs.
pub fn check<T, E: std::fmt::Display>(
    text_bytes: usize,
    read: impl FnOnce() -> Result<T, E>,
) -> Option<T> {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let result = read();
    let used = PEAK.load(Relaxed).saturating_sub(base);
    let bound = heap_bound(text_bytes);
    assert!(
        used <= bound,
        "reading {text_bytes} bytes used {used} bytes of heap (bound {bound})"
    );
    match result {
        Ok(x) => Some(x),
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an error without a message");
            None
        }
    }
}

/// One text format's target: `data` parsed as `format`, with build options picked by the
/// input's length (so seeds are plain file prefixes), and the graph checked if accepted.
pub fn fuzz_text(data: &[u8], format: Format) {
    let opts = LoadOptions {
        format: Some(format),
        build: build_options(data.len() as u8),
    };
    let name = Path::new("fuzz-input");
    if let Some(loaded) = check(data.len(), || {
        load_graph_from_bytes(name, data.to_vec(), &opts)
    }) {
        assert_valid(&loaded.graph);
    }
}

/// CSR invariants: offsets start at 0, never decrease, end at m; every target is a node.
pub fn assert_valid(g: &Graph) {
    let (n, m) = (g.num_nodes(), g.num_edges());
    let off = g.offsets();
    assert_eq!(off.len(), n + 1);
    assert_eq!(off[0], 0);
    assert_eq!(off[n], m as u64);
    assert!(off.windows(2).all(|w| w[0] <= w[1]));
    assert!(g.targets().iter().all(|&t| (t as usize) < n));
    if let Some(w) = g.weights() {
        assert_eq!(w.len(), m);
    }
    if let Some(c) = g.coords() {
        assert_eq!(c.xy.len(), 2 * n);
    }
}

/// Build options chosen by one input byte, so the fuzzer also drives the CSR builder's
/// symmetrize / self-loop / parallel-arc / weight-dividing paths.
pub fn build_options(flags: u8) -> BuildOptions {
    BuildOptions {
        symmetrize: flags & 1 != 0,
        drop_self_loops: flags & 2 != 0,
        merge_parallel: flags & 4 != 0,
        weights: None,
        weight_divisor: (flags & 8 != 0).then_some(3),
    }
}

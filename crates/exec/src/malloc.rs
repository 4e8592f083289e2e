//! How the C allocator gives memory back, tuned for a process that runs one kernel many times.
//!
//! Every run of an application allocates its state (distances, shares, frontiers: several
//! arrays of one word per node) and frees it at the end. glibc serves allocations above its
//! mmap threshold (128 KiB at first, raised as large blocks are freed) with fresh mappings and
//! returns the memory on free, and it trims the heap's free top above its trim threshold. So
//! with the defaults a `--repeat` run faults its arrays' pages in again on every run, inside the
//! timed region (5-9% of pull PageRank's time on road graphs; perf: `clear_page_erms`,
//! `exc_page_fault`), and whether it does depends on which large blocks the preparation freed
//! (a built transpose frees an 8 MB array, which raises the threshold).
//!
//! Fixing both thresholds makes the process keep what it frees: arrays up to the largest
//! threshold glibc accepts (32 MiB) come from the heap, and freed memory stays mapped for the
//! next run. The peak does not grow (a freed block is reused, not added to); only the return
//! of memory to the system waits for the process to end, which for the CLI is soon.

/// The largest mmap threshold glibc accepts on 64-bit targets (`DEFAULT_MMAP_THRESHOLD_MAX`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 32 << 20;

/// Sets glibc's allocation thresholds (module docs); a no-op on other C libraries. For
/// programs that own their process (the `ordo` and `ordo-dist` command lines), not for a
/// library loaded into someone else's (the Python module does not call it). Call it before
/// the first large allocation.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called before other threads
    // exist. A rejected value leaves the default in place, which is correct, only slower.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX);
    }
}

/// `n` values made by `make`, written into memory now, before a timed run reads them.
///
/// A loop that fills a new block with zeros (`(0..n).map(|_| AtomicU64::new(0)).collect()`)
/// is compiled to `calloc`, which leaves fresh pages unwritten: the run then reads them as
/// the shared zero page and faults again to write them, each such fault flushing the other
/// workers' TLBs (pfp's first run on a 1000x1000 grid at 2 threads measured 51 ms against 37
/// for later runs). Hiding the block's address from the optimizer keeps the fill.
pub fn prefaulted<T>(n: usize, make: impl Fn() -> T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    std::hint::black_box(v.as_mut_ptr());
    v.extend((0..n).map(|_| make()));
    v
}

/// Blocks of at least this many bytes are advised to use transparent huge pages: one such
/// block holds at least one whole, aligned 2 MiB page.
pub const HUGE_PAGES_FROM: usize = 4 << 20;

/// The 2 MiB pages transparent huge pages use on x86-64 (and most 64-bit targets).
const HUGE_PAGE: usize = 2 << 20;

/// The system allocator, asking the kernel for transparent huge pages on large blocks.
///
/// **Why.** A large array written for the first time costs a page fault per 4 KiB page, and
/// the kernel clears each page in it (writing the 188 MB edge list of minimum spanning forest
/// on Kronecker 20 measured 163-171 ms, against 70 ms with 2 MiB pages, a fault per 512
/// pages). Blocks above glibc's mmap threshold (32 MiB, see [`keep_freed_memory`]) are fresh
/// mappings on every run, so every `--repeat` run would pay it.
/// Where the kernel's policy is `madvise` (Debian's default), huge pages come only to memory
/// advised with `MADV_HUGEPAGE`; this allocator advises the aligned 2 MiB pages inside every
/// block of at least [`HUGE_PAGES_FROM`] bytes. Galois goes further (it maps huge pages
/// itself and faults them in before the timer starts); GAPBS and GBBS do nothing.
///
/// **Cost.** One `madvise` call per large allocation (about a microsecond). A huge page is
/// cleared whole when first touched, so a block that is written sparsely may hold up to 2 MiB
/// more than it touched; the blocks advised are the arrays a run fills. Where the policy is
/// `never`, or off Linux, the advice is ignored or not given and nothing changes.
///
/// Used by the `ordo` and `ordo-dist` programs as their `#[global_allocator]`.
pub struct HugePageAlloc;

// SAFETY: every call is forwarded to the system allocator unchanged; the advice only changes
// how the kernel backs pages the block already owns, never the block's contents or bounds.
unsafe impl std::alloc::GlobalAlloc for HugePageAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's promises, forwarded.
        let block = unsafe { std::alloc::System.alloc(layout) };
        advise_huge_pages(block, layout.size());
        block
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's promises, forwarded.
        let block = unsafe { std::alloc::System.alloc_zeroed(layout) };
        advise_huge_pages(block, layout.size());
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: the caller's promises, forwarded.
        unsafe { std::alloc::System.dealloc(block, layout) }
    }

    unsafe fn realloc(
        &self,
        block: *mut u8,
        layout: std::alloc::Layout,
        new_size: usize,
    ) -> *mut u8 {
        // SAFETY: the caller's promises, forwarded.
        let block = unsafe { std::alloc::System.realloc(block, layout, new_size) };
        advise_huge_pages(block, new_size);
        block
    }
}

/// Advises the whole 2 MiB pages inside `len` bytes from `block` to be huge pages, if `len`
/// is at least [`HUGE_PAGES_FROM`].
fn advise_huge_pages(block: *mut u8, len: usize) {
    if len < HUGE_PAGES_FROM || block.is_null() {
        return;
    }
    let start = (block as usize).next_multiple_of(HUGE_PAGE);
    let end = (block as usize + len) / HUGE_PAGE * HUGE_PAGE;
    #[cfg(target_os = "linux")]
    // SAFETY: [start, end) lies inside the block, which this process owns; MADV_HUGEPAGE
    // changes only how the kernel backs those pages, not their contents. A failure (a kernel
    // without transparent huge pages) leaves the pages as they were.
    unsafe {
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, end);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::{GlobalAlloc, Layout};

    /// Blocks below and above the advice's threshold keep what is written to them through a
    /// growing `realloc`; zeroed ones start zeroed.
    #[test]
    fn large_blocks_keep_their_contents() {
        for len in [
            100,
            HUGE_PAGES_FROM - 1,
            HUGE_PAGES_FROM,
            3 * HUGE_PAGES_FROM + 12345,
        ] {
            let layout = Layout::from_size_align(len, 8).unwrap();
            // SAFETY: the layouts are not empty; every block is freed with its layout.
            unsafe {
                let zeroed = HugePageAlloc.alloc_zeroed(layout);
                assert!(!zeroed.is_null());
                assert!(std::slice::from_raw_parts(zeroed, len)
                    .iter()
                    .all(|&b| b == 0));
                HugePageAlloc.dealloc(zeroed, layout);

                let block = HugePageAlloc.alloc(layout);
                assert!(!block.is_null());
                for i in 0..len {
                    *block.add(i) = (i % 251) as u8;
                }
                let grown = HugePageAlloc.realloc(block, layout, 2 * len + HUGE_PAGES_FROM);
                assert!(!grown.is_null());
                let kept = std::slice::from_raw_parts(grown, len);
                assert!(kept.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
                let grown_layout = Layout::from_size_align(2 * len + HUGE_PAGES_FROM, 8).unwrap();
                HugePageAlloc.dealloc(grown, grown_layout);
            }
        }
    }
}

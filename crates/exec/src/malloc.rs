//! How the C allocator gives memory back, tuned for a process that runs one kernel many times.
//!
//! Every run of an application allocates its state (distances, shares, frontiers: several
//! arrays of one word per node) and frees it at the end. glibc serves allocations above its
//! mmap threshold (128 KiB at first, raised as large blocks are freed) with fresh mappings and
//! returns the memory on free, and it trims the heap's free top above its trim threshold. So
//! a `--repeat` run faulted its arrays' pages in again on every run, inside the timed region:
//! on pull PageRank over road graphs that was 5-9% of the time (perf: `clear_page_erms`,
//! `exc_page_fault`), and whether it happened depended on which large blocks earlier
//! preparation had freed (a built transpose freed an 8 MB array, which raised the threshold).
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

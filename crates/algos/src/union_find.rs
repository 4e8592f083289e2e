//! Union-find forests in shared parent arrays, for the frontier methods (Afforest, Boruvka)
//! whose loops never link and search at once: a loop that reads the forest only shortens
//! paths, and links happen in other loops, separated by the team's barriers.
//!
//! Orderings: Relaxed. While only these functions run, every store replaces a node's parent
//! with one of its ancestors, so every value a worker reads, however stale, is a node on the
//! path to the same root, and each location's own modification order keeps a reader from
//! going backwards. What the loops compute from the roots is published by the barrier that
//! ends them.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Asks the cache for `x`'s parent entry ahead of a find, which a Kruskal scan does in an
/// order unrelated to node ids (a no-op off x86-64).
#[inline(always)]
pub(crate) fn prefetch(parent: &[AtomicU32], x: u32) {
    #[cfg(target_arch = "x86_64")]
    if let Some(entry) = parent.get(x as usize) {
        // SAFETY: a prefetch only hints at an address (here a valid one); it reads nothing.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(entry.as_ptr().cast::<i8>());
        }
    }
}

/// The root of `x`, halving the path on the way.
#[inline]
pub(crate) fn find(parent: &[AtomicU32], mut x: u32) -> u32 {
    loop {
        let p = parent[x as usize].load(Relaxed);
        if p == x {
            return x;
        }
        let gp = parent[p as usize].load(Relaxed);
        if gp != p {
            parent[x as usize].store(gp, Relaxed);
        }
        x = gp;
    }
}

/// Points `v` straight at its root by jumping to its grandparent until they agree (the
/// compress step of Afforest and of Boruvka's rounds).
#[inline]
pub(crate) fn point_at_root(parent: &[AtomicU32], v: usize) {
    loop {
        let p = parent[v].load(Relaxed);
        let gp = parent[p as usize].load(Relaxed);
        if p == gp {
            return;
        }
        parent[v].store(gp, Relaxed);
    }
}

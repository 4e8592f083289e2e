//! Software prefetches: asking the cache for data ahead of its use.
//!
//! Used by the priority-scheduled traversals (SSSP, BFS, A*, PageRank, cc).
//!
//! A task popped in priority order lands anywhere in the graph, so the first reads of each
//! task (its node's label and offsets, then its arcs) are cache misses, a chain of two that
//! the task waits for. [`NodeReads::upcoming_node`] starts them while earlier tasks run: the
//! label and offsets of the node three tasks after the running one, the first arcs of the
//! one two after it (by then its offsets are in cache). Up to the scheduler which tasks it
//! can name ahead ([`ordo_sched::Handle::peek_fast`]: obim's and PMOD's pop chunk, SMQ's
//! stolen batch, the MultiQueue's delete batch). With nothing at hand, it prefetches the
//! label and first arcs of the scheduler's guess at its next pop
//! ([`ordo_sched::Handle::guess_next_pop`]: SMQ's and `serial`'s heap top). Measured in
//! `docs/measurement.md`, "Prefetching the upcoming tasks".

use ordo_exec::Context;
use ordo_graph::Graph;
use ordo_sched::Handle;

/// `Context::upcoming`'s index of the task whose node's label and offsets are prefetched
/// (0: the next task; 2: three tasks after the running one).
pub(crate) const NODE_AHEAD: usize = 2;
/// `Context::upcoming`'s index of the task whose node's first arcs are prefetched.
pub(crate) const ARCS_AHEAD: usize = 1;

/// Prefetches `slice[i]` into every cache level (a no-op off x86-64). No bounds check: a
/// prefetch of an address outside the slice reads nothing and cannot fault.
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `wrapping_add` makes any index a defined pointer, never dereferenced; a
    // prefetch only hints at an address: it reads nothing and never faults.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(slice.as_ptr().wrapping_add(i).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}

/// What a task on a node reads first: the node's label and offsets, then its arcs' targets
/// and weights (a CSR graph's arrays).
pub(crate) struct NodeReads<'g, L> {
    labels: &'g [L],
    offsets: &'g [u64],
    targets: &'g [u32],
    weights: Option<&'g [u32]>,
}

// Not derived: a derive would ask `L: Copy`, which atomic labels are not.
impl<L> Clone for NodeReads<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for NodeReads<'_, L> {}

impl<'g, L> NodeReads<'g, L> {
    /// A traversal of `g` that reads `labels` (one per node) and its arcs' targets.
    pub(crate) fn new(g: &'g Graph, labels: &'g [L]) -> Self {
        NodeReads {
            labels,
            offsets: g.offsets(),
            targets: g.targets(),
            weights: None,
        }
    }

    /// As [`new`](Self::new), for a traversal that also reads the arcs' weights (if any).
    pub(crate) fn weighted(g: &'g Graph, labels: &'g [L]) -> Self {
        NodeReads {
            weights: g.weights(),
            ..Self::new(g, labels)
        }
    }

    /// Prefetches the first arcs of node `v` (reading its offset: a load, not a hint).
    #[inline(always)]
    fn first_arcs(self, v: usize) {
        if let Some(&lo) = self.offsets.get(v) {
            prefetch(self.targets, lo as usize);
            if let Some(ws) = self.weights {
                prefetch(ws, lo as usize);
            }
        }
    }

    /// Called by the running task: prefetches for the tasks the worker runs next, as far as
    /// its scheduler names them (`node` gives a task's node).
    #[inline(always)]
    pub(crate) fn upcoming_node<T, H: Handle<T>>(
        self,
        ctx: &Context<'_, T, H>,
        node: impl Fn(T) -> u32,
    ) {
        if let Some(t) = ctx.upcoming(NODE_AHEAD) {
            let v = node(t) as usize;
            prefetch(self.offsets, v);
            prefetch(self.labels, v);
        }
        if let Some(t) = ctx.upcoming(ARCS_AHEAD) {
            self.first_arcs(node(t) as usize);
        } else if ctx.upcoming(0).is_none() {
            // Nothing at hand: the scheduler's guess at its next pop (a heap's top).
            if let Some(t) = ctx.guess_next_pop() {
                let v = node(t) as usize;
                prefetch(self.labels, v);
                self.first_arcs(v);
            }
        }
    }
}

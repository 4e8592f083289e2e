//! Each worker's bin of a delta-stepping round's bucket, where every worker reads it in place.
//!
//! # Round protocol (why the `UnsafeCell`s are sound)
//! Workers move in rounds separated by the team's collectives, whose barrier orders every
//! write before it with every read after it (Release and Acquire on the barrier's counter).
//! * A round's relaxations read every worker's bin, from the barrier that starts the round to
//!   the collective (a minimum) that ends it; a reader drops its references before it enters
//!   that collective.
//! * Between that collective and the barrier that starts the next round, each worker replaces
//!   its own bin (the owner alone writes it), and nobody reads any bin.
//!
//! Before the first round the bins hold the source's entry, written before the team starts.
//!
//! `RwLock`s would never wait under this protocol but would cost two read-modify-writes per
//! bin and reader per round, on lines shared by all workers (and by two adjacent locks):
//! `2 x workers^2` contended updates a round, 512 at 16 workers, on road graphs with thousands
//! of rounds. Here a round costs plain loads, and each bin has a cache line of its own.

use crossbeam_utils::CachePadded;
use std::cell::UnsafeCell;

pub(super) struct Published<T> {
    bins: Vec<CachePadded<UnsafeCell<Vec<T>>>>,
}

// SAFETY: the cells are accessed by the round protocol in the module docs: between two
// collectives a bin is either read by many workers or replaced by its owner alone, never both.
unsafe impl<T: Send + Sync> Sync for Published<T> {}

impl<T> Published<T> {
    /// `workers` bins, the first holding `first` (the source's entry), the others empty.
    pub(super) fn new(workers: usize, first: Vec<T>) -> Self {
        let mut first = Some(first);
        let bins = (0..workers)
            .map(|_| CachePadded::new(UnsafeCell::new(first.take().unwrap_or_default())))
            .collect();
        Published { bins }
    }

    pub(super) fn workers(&self) -> usize {
        self.bins.len()
    }

    /// Worker `w`'s bin, to read during a round.
    ///
    /// # Safety
    /// Called, and the reference used, only while no worker replaces a bin: between the barrier
    /// that starts a round and the collective that ends it (module docs), or while the caller
    /// is the only worker.
    pub(super) unsafe fn bin(&self, w: usize) -> &Vec<T> {
        // SAFETY: the caller's promise: nobody writes the cell meanwhile.
        unsafe { &*self.bins[w].get() }
    }

    /// Puts `bin` in worker `w`'s place and returns what was there.
    ///
    /// # Safety
    /// Called only by worker `w`, between the collective that ends a round and the barrier that
    /// starts the next, when no reference from [`bin`](Self::bin) is alive on any worker.
    pub(super) unsafe fn replace(&self, w: usize, bin: Vec<T>) -> Vec<T> {
        // SAFETY: the caller's promise: nobody else reads or writes the cell meanwhile.
        std::mem::replace(unsafe { &mut *self.bins[w].get() }, bin)
    }
}

#[cfg(test)]
mod tests {
    use super::Published;

    #[test]
    fn the_first_bin_holds_the_source_and_replace_hands_back_the_old_bin() {
        let p = Published::new(3, vec![7u32]);
        assert_eq!(p.workers(), 3);
        // SAFETY: one thread.
        unsafe {
            assert_eq!(p.bin(0), &vec![7]);
            assert!(p.bin(1).is_empty() && p.bin(2).is_empty());
            assert_eq!(p.replace(2, vec![1, 2]), Vec::<u32>::new());
            assert_eq!(p.bin(2), &vec![1, 2]);
        }
    }
}

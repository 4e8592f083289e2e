//! Emptied bags kept for the next levels to be created.
//!
//! A run that walks through millions of levels (SSSP on a long path) would otherwise
//! allocate a bag for every level and free it again after the level was retired; the frees
//! come from whichever worker ends a grace period, into another worker's allocator arena,
//! and measured 3-10 µs per bag at 2 threads. Recycled, a bag costs nothing after the first
//! generation, and memory follows the live levels.

use super::generation::MIN_COMPACT;
use crate::bag::Bag;
use crate::sync::Mutex;

/// Spare bags kept at most; a compaction that retires more frees the rest.
const LIMIT: usize = 4 * MIN_COMPACT;

pub struct SpareBags<T> {
    #[allow(clippy::vec_box)] // the boxes are what is recycled: bags are shared by pointer
    bags: Mutex<Vec<Box<Bag<T>>>>,
}

impl<T: Copy + Send> SpareBags<T> {
    pub fn new() -> Self {
        SpareBags {
            bags: Mutex::new(Vec::new()),
        }
    }

    /// An empty bag, if one is kept.
    pub fn take(&self) -> Option<Box<Bag<T>>> {
        self.bags.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    /// Keeps `emptied` bags (each as [`Bag::recycle`] left it) up to the limit.
    #[allow(clippy::vec_box)]
    pub fn give(&self, mut emptied: Vec<Box<Bag<T>>>) {
        let surplus = {
            let mut bags = self.bags.lock().unwrap_or_else(|e| e.into_inner());
            let room = LIMIT.saturating_sub(bags.len());
            let keep = emptied.len().min(room);
            bags.extend(emptied.drain(..keep));
            emptied
        };
        drop(surplus); // outside the lock
    }
}

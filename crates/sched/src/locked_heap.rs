//! A sequential 4-ary heap behind a try-lock, with its top priority cached in an atomic so
//! that queue choices (MultiQueue's two-choice delete) read it without taking the lock.
//! The building block of `mq`, `reld`, `heap`, `sheap` and `pheap`.

use crate::dary_heap::DaryHeap;
use crate::sync::{AtomicBool, AtomicU64, Ordering, UnsafeCell};
use crossbeam_utils::CachePadded;

/// The cached top of an empty heap. A task at priority `u64::MAX` is cached as
/// `u64::MAX - 1` so that it never reads as empty (the cache only steers queue choices).
pub const EMPTY_TOP: u64 = u64::MAX;

pub struct LockedHeap<T> {
    locked: AtomicBool,
    top: AtomicU64,
    heap: UnsafeCell<DaryHeap<T>>,
}

// SAFETY: the heap is accessed only while `locked` is held (Acquire on lock, Release on
// unlock), by one thread at a time.
unsafe impl<T: Send> Sync for LockedHeap<T> {}
// SAFETY: owns its heap.
unsafe impl<T: Send> Send for LockedHeap<T> {}

impl<T: Copy> Default for LockedHeap<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> LockedHeap<T> {
    pub fn new() -> Self {
        LockedHeap {
            locked: AtomicBool::new(false),
            top: AtomicU64::new(EMPTY_TOP),
            heap: UnsafeCell::new(DaryHeap::new()),
        }
    }

    /// The cached top priority (`EMPTY_TOP` if empty); a hint, read without the lock.
    #[inline]
    pub fn top(&self) -> u64 {
        self.top.load(Ordering::Relaxed)
    }

    /// Runs `f` on the heap if the lock is free; `None` if another thread holds it.
    #[inline]
    pub fn try_with<R>(&self, f: impl FnOnce(&mut DaryHeap<T>) -> R) -> Option<R> {
        // Test before test-and-set: a taken lock costs a shared read, not a cache-line
        // transfer. Acquire on success pairs with the Release unlock below, so this thread
        // sees the previous holder's heap writes.
        if self.locked.load(Ordering::Relaxed)
            || self
                .locked
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return None;
        }
        // SAFETY: we hold the lock.
        let r = self.heap.with_mut(|h| {
            let h = unsafe { &mut *h };
            let r = f(h);
            // Relaxed: the cached top is a hint for choosing queues, never trusted; the heap
            // itself is read only under the lock.
            let top = h
                .peek_priority()
                .map_or(EMPTY_TOP, |p| p.min(EMPTY_TOP - 1));
            self.top.store(top, Ordering::Relaxed);
            r
        });
        self.locked.store(false, Ordering::Release);
        Some(r)
    }

    /// Like [`try_with`](Self::try_with) but waits until the lock is free (spinning, then
    /// yielding: with more threads than cores the holder may be descheduled).
    #[inline]
    pub fn with<R>(&self, mut f: impl FnMut(&mut DaryHeap<T>) -> R) -> R {
        let mut tries = 0u32;
        loop {
            if let Some(r) = self.try_with(&mut f) {
                return r;
            }
            tries += 1;
            if tries.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                crate::sync::spin_hint();
            }
        }
    }
}

/// `n` cache-padded locked heaps.
pub fn heaps<T: Copy>(n: usize) -> Box<[CachePadded<LockedHeap<T>>]> {
    (0..n)
        .map(|_| CachePadded::new(LockedHeap::new()))
        .collect()
}

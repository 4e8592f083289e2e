//! A shared list of full chunks (one per package in a distributed bag).
//!
//! A short critical section under a mutex (as Galois' per-package lists use a spin lock), plus
//! a length hint readable without the lock, so that probing an empty list writes nothing to
//! shared memory (the obim paper, Lenharth et al., Euro-Par'15, §3.2: "popping from an empty
//! bag ... does not perform any writes").
//!
//! The hint may be stale: a pop may see 0 just after a push. That only delays the task: the
//! executor's termination protocol counts tasks, not list lengths, and the pusher's next probe
//! (or anyone's later one) sees it.

use crate::chunk::Chunk;
use crate::sync::{AtomicUsize, Mutex, Ordering};
use std::collections::VecDeque;

#[derive(Debug, Default)]
pub struct ChunkList<T> {
    /// Number of chunks, written only under `chunks`' lock.
    len: AtomicUsize,
    chunks: Mutex<VecDeque<Box<Chunk<T>>>>,
}

impl<T> ChunkList<T> {
    pub fn new() -> Self {
        ChunkList {
            len: AtomicUsize::new(0),
            chunks: Mutex::new(VecDeque::new()),
        }
    }

    /// Chunks in the list, possibly stale; reads only.
    #[inline]
    pub fn len_hint(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    pub fn push(&self, chunk: Box<Chunk<T>>) {
        let mut q = self.chunks.lock().unwrap_or_else(|e| e.into_inner());
        q.push_back(chunk);
        // Relaxed suffices: the chunk itself is published by the mutex; the hint only decides
        // whether taking the mutex is worth it.
        self.len.store(q.len(), Ordering::Relaxed);
    }

    /// The oldest chunk (FIFO).
    #[inline]
    pub fn pop_front(&self) -> Option<Box<Chunk<T>>> {
        if self.len_hint() == 0 {
            return None;
        }
        self.pop_locked(true)
    }

    /// The newest chunk (LIFO).
    #[inline]
    pub fn pop_back(&self) -> Option<Box<Chunk<T>>> {
        if self.len_hint() == 0 {
            return None;
        }
        self.pop_locked(false)
    }

    #[cold]
    fn pop_locked(&self, front: bool) -> Option<Box<Chunk<T>>> {
        let mut q = self.chunks.lock().unwrap_or_else(|e| e.into_inner());
        let c = if front { q.pop_front() } else { q.pop_back() };
        self.len.store(q.len(), Ordering::Relaxed);
        c
    }
}

/// Bytes of padding before and after a [`Padded`] list: a 64-byte cache line. The allocator
/// aligns a block to 16 bytes only, so any 64-byte line holding part of the list then lies
/// inside its own element, and two neighbouring lists stay at least 128 bytes apart (two
/// lines, which x86-64's adjacent-line prefetcher pulls in as a pair).
const LINE: usize = 64;

/// The size of a list, whatever its task type (it holds its chunks behind pointers).
const LIST: usize = std::mem::size_of::<ChunkList<()>>();

/// A chunk list between a cache line of padding on each side, so that the lists of an array
/// share no cache line with each other or with whatever lies next to the array, without
/// `CachePadded`'s 128-byte alignment: an over-aligned block goes through the allocator's
/// `posix_memalign`, about 500 instructions (obim and PMOD create a bag, with its lists, per
/// level).
#[repr(C)]
pub struct Padded<T> {
    _before: [u8; LINE],
    list: ChunkList<T>,
    _after: [u8; (2 * LINE).saturating_sub(LIST)],
}

// The padding covers a list that fits one line (loom's instrumented types may not).
#[cfg(not(loom))]
const _: () = assert!(LIST <= LINE);

impl<T> Padded<T> {
    pub fn new() -> Self {
        Padded {
            _before: [0; LINE],
            list: ChunkList::new(),
            _after: [0; (2 * LINE).saturating_sub(LIST)],
        }
    }
}

impl<T> Default for Padded<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> std::ops::Deref for Padded<T> {
    type Target = ChunkList<T>;

    #[inline(always)]
    fn deref(&self) -> &ChunkList<T> {
        &self.list
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn padded_lists_keep_a_line_either_side_with_plain_alignment() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(size_of::<ChunkList<u64>>(), LIST);
        assert_eq!(size_of::<ChunkList<[u8; 40]>>(), LIST);
        assert_eq!(offset_of!(Padded<u64>, list), LINE);
        assert_eq!(size_of::<Padded<u64>>(), 3 * LINE);
        assert!(align_of::<Padded<u64>>() <= 16, "no posix_memalign");
    }
}

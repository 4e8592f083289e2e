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

/// Bytes a [`Padded`] list spans: two cache lines (the adjacent-line prefetcher pairs them,
/// as `crossbeam_utils::CachePadded` assumes on x86-64).
const PADDED_SPAN: usize = 128;

/// A chunk list followed by padding up to [`PADDED_SPAN`] bytes, so that the lists of an
/// array never share a cache line, without `CachePadded`'s 128-byte alignment: an
/// over-aligned block goes through the allocator's `posix_memalign`, which cost about 500
/// instructions of the 1,100 it took to create a bag (obim and PMOD create one per level).
#[repr(C)]
pub struct Padded<T> {
    list: ChunkList<T>,
    _pad: [u8; PADDED_SPAN.saturating_sub(std::mem::size_of::<ChunkList<()>>())],
}

impl<T> Padded<T> {
    pub fn new() -> Self {
        Padded {
            list: ChunkList::new(),
            _pad: [0; PADDED_SPAN.saturating_sub(std::mem::size_of::<ChunkList<()>>())],
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
    fn padded_lists_span_two_lines_with_plain_alignment() {
        // A list's size does not depend on its task type (chunks are behind pointers).
        assert_eq!(
            std::mem::size_of::<ChunkList<u64>>(),
            std::mem::size_of::<ChunkList<()>>()
        );
        assert!(std::mem::size_of::<Padded<u64>>() >= PADDED_SPAN);
        assert!(std::mem::size_of::<Padded<[u8; 40]>>() >= PADDED_SPAN);
        assert!(std::mem::align_of::<Padded<u64>>() <= 16);
    }
}

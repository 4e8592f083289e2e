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
